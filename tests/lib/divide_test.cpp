// Divides: logical_divide, zipped_divide, tiled_divide, flat_divide — CuTe's answers
// and the defining properties: logical_divide(L, T) == composition(L, (T, complement(T,
// shape(coalesce(L))))), the tile mode is composition(L, T), sizes are kept, and the
// zipped / tiled / flat forms are re-groupings of the same modes.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"
#include "tests/support/eval.hpp"

using namespace cutevis;

namespace {

using test::eval;

// The flat (shape, stride) leaves as a sorted multiset: re-groupings keep it.
std::vector<std::pair<int64_t, int64_t>> leaf_multiset(const Layout& l) {
  auto s = flatten_values(l.shape);
  auto d = flatten_values(l.stride);
  std::vector<std::pair<int64_t, int64_t>> out;
  for (size_t i = 0; i < s.size(); ++i) out.emplace_back(s[i], d[i]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("logical_divide: CuTe's answers") {
  CHECK(eval("logical_divide(16:1, 4:1)") == "(4,4):(1,4)");
  CHECK(eval("logical_divide(16:1, 4:2)") == "(4,(2,2)):(2,(1,8))");
  CHECK(eval("logical_divide((4,2,3):(2,1,8), 4:2)") == "((2,2),(2,3)):((4,1),(2,8))");
  CHECK(eval("logical_divide((8,8):(1,8), (2,4))") == "((2,4),(4,2)):((1,2),(8,32))");
  CHECK(eval("logical_divide((8,8):(1,8), (_,4:2))") == "(8,(4,2)):(1,(16,8))");
  CHECK(eval("logical_divide((2,4):(4,1), 2:1)") == "(2,4):(4,1)");
}

TEST_CASE("zipped, tiled, flat divide: CuTe's answers") {
  CHECK(eval("zipped_divide((8,8):(1,8), (2,4))") == "((2,4),(4,2)):((1,8),(2,32))");
  CHECK(eval("tiled_divide((8,8):(1,8), (2,4))") == "((2,4),4,2):((1,8),2,32)");
  CHECK(eval("flat_divide((8,8):(1,8), (2,4))") == "(2,4,4,2):(1,8,2,32)");
  CHECK(eval("zipped_divide((12,8):(8,1), (3:4, 2))") == "((3,2),(4,4)):((32,1),(8,2))");
}

TEST_CASE("tiled/flat divide and product keep a rank-1 mode whole (regression, CuTe: ((_2),_4,_8):((_8),_16,_1))") {
  // result(repeat<R0>(_), repeat<R1>(_)) with R == 1 slices with `_` itself, which keeps
  // the mode `(2)` as one mode instead of splicing its element.
  CHECK(eval("flat_divide((8,8):(8,1), (2:1))") == "((2),4,8):((8),16,1)");
  CHECK(eval("tiled_divide((8,8):(8,1), (2:1))") == "((2),4,8):((8),16,1)");
  CHECK(eval("tiled_divide(8:1, 2:1)") == "(2,4):(1,2)");
  CHECK(eval("flat_product((4,2):(1,4), (2:1))") == "((4),2,2):((1),4,4)");
}

TEST_CASE("divide errors") {
  CHECK_THROWS_AS(eval("logical_divide((8,8):(1,8), (2,2,2))"), Error);  // tiler of higher rank
  CHECK_THROWS_AS(eval("logical_divide(8:1, (2,2):(1,1))"), Error);      // a non-injective tiler has no complement
}

TEST_CASE(
    "property: logical_divide(L, T) keeps the size, its tile mode is composition(L, T), its rest is the complement") {
  test::LayoutGen gen(0xd1d1de01);
  int checked = 0;
  for (int n = 0; n < 1000; ++n) {
    Layout l = gen.any(2, 1024);
    Layout t = gen.dividing(size(l), 1);
    if (gen.chance(0.3)) {
      int64_t k = gen.pick({2, 4});
      if (size(l) % (k * size(t)) == 0) t = Layout(t.shape, scale_leaves(t.stride, k));
    }
    Layout r;
    try {
      r = logical_divide(l, Tiler(t));
    } catch (const Error&) {
      continue;
    }
    ++checked;
    CAPTURE(to_string(l));
    CAPTURE(to_string(t));
    CAPTURE(to_string(r));
    REQUIRE(rank(r) == 2);
    CHECK(size(r) >= size(l));  // equal when T's complement tiles shape(L) exactly
    Layout tile = get(r, 0);
    Layout expect_tile = composition(l, t);
    CHECK(same_function(tile, expect_tile));
    Layout rest_layout = complement(t, coalesce(l).shape);
    CHECK(size(get(r, 1)) == size(rest_layout));
    CHECK(same_function(get(r, 1), composition(l, rest_layout)));
    // the four forms are re-groupings of the same modes
    Layout z = zipped_divide(l, Tiler(t));
    CHECK(leaf_multiset(z) == leaf_multiset(r));
    CHECK(same_function(z, r));  // one tiler layout: zipping changes no order
    CHECK(leaf_multiset(tiled_divide(l, Tiler(t))) == leaf_multiset(r));
    CHECK(leaf_multiset(flat_divide(l, Tiler(t))) == leaf_multiset(r));
  }
  CHECK(checked > 500);
}

TEST_CASE(
    "property: by-mode divides: mode i of logical_divide is logical_divide(mode i, tiler i); zipped gathers tiles "
    "first") {
  test::LayoutGen gen(0xd1d1de02);
  int checked = 0;
  for (int n = 0; n < 600; ++n) {
    IntTuple s = gen.shape(1, 3, 1024);
    if (!s.is_tuple() || s.rank() < 2) continue;
    Layout l(s, gen.permuted_stride(s, gen.chance(0.4)));
    std::vector<Tiler> modes;
    for (size_t m = 0; m < rank(l); ++m)
      modes.push_back(gen.chance(0.15) ? Tiler::underscore() : Tiler(gen.dividing(size(get(l, m)))));
    Tiler t = Tiler::tuple(modes);
    Layout r = logical_divide(l, t);
    ++checked;
    CAPTURE(to_string(l));
    CAPTURE(to_string(t));
    REQUIRE(rank(r) == rank(l));
    for (size_t m = 0; m < rank(l); ++m) CHECK(get(r, m) == logical_divide(get(l, m), modes[m]));
    Layout z;
    try {
      z = zipped_divide(l, t);
    } catch (const Error&) {
      // CuTe's zip2_by static_asserts a rank-2 mode under every leaf of the tiler; a mode
      // kept by `_` is rank 2 only by chance
      CHECK(std::any_of(modes.begin(), modes.end(), [](const Tiler& x) { return x.is_underscore(); }));
      continue;
    }
    REQUIRE(rank(z) == 2);
    CHECK(size(z) == size(r));
    CHECK(leaf_multiset(z) == leaf_multiset(r));
    // the tile mode gathers mode 0 of every divided mode (the whole mode for `_`)
    int64_t tile_size = 1;
    for (size_t m = 0; m < rank(l); ++m)
      tile_size *= modes[m].is_underscore() ? size(get(l, m)) : size(modes[m].layout());
    CHECK(size(get(z, 0)) == tile_size);
    Layout td = tiled_divide(l, t);
    CHECK(get(td, 0) == get(z, 0));
    CHECK(rank(td) == 1 + rank(get(z, 1)));
    Layout fd = flat_divide(l, t);
    CHECK(rank(fd) == rank(get(z, 0)) + rank(get(z, 1)));
  }
  CHECK(checked > 150);
}
