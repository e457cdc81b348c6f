// Products: logical_product, zipped/tiled/flat_product, blocked_product, raked_product —
// CuTe's answers and the defining properties: logical_product(A, B) ==
// (A, composition(complement(A, size(A)*cosize(B)), B)), sizes multiply, the copies
// of the block do not overlap, blocked and raked products cover the same image.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"
#include "tests/support/eval.hpp"

using namespace cutevis;

namespace {

using test::eval;

}  // namespace

TEST_CASE("products: CuTe's answers") {
  CHECK(eval("logical_product((2,2):(4,1), 6:1)") == "((2,2),(2,3)):((4,1),(2,8))");
  CHECK(eval("logical_product((2,2):(4,1), (4,2):(2,1))") == "((2,2),(4,2)):((4,1),(8,2))");
  CHECK(eval("logical_product(4:1, 3:1)") == "(4,3):(1,4)");
  CHECK(eval("logical_product(4:2, 2:1)") == "(4,2):(2,1)");
  CHECK_THROWS_AS(eval("logical_product(4:2, 3:1)"), Error);  // (2,2):(1,8) o 3:1, as CuTe: shape divisibility
  CHECK(eval("zipped_product((2,5):(5,1), (3,4):(1,3))") == "((2,5),(3,4)):((5,1),(10,30))");
  CHECK(eval("tiled_product((2,5):(5,1), (3,4):(1,3))") == "((2,5),3,4):((5,1),10,30)");
  CHECK(eval("flat_product((2,5):(5,1), (3,4):(1,3))") == "(2,5,3,4):(5,1,10,30)");
  CHECK(eval("blocked_product((2,5):(5,1), (3,4):(1,3))") == "((2,3),(5,4)):((5,10),(1,30))");
  CHECK(eval("raked_product((2,5):(5,1), (3,4):(1,3))") == "((3,2),(4,5)):((10,5),(30,1))");
  CHECK(eval("blocked_product(4:1, (2,3):(1,2))") == "((4,2),(1,3)):((1,4),(0,8))");  // rank(result) == max rank
  CHECK(eval("raked_product((4,2):(1,4), 3:1)") == "((3,4),(1,2)):((8,1),(0,4))");
}

TEST_CASE("property: logical_product(A, B): mode 0 is A, mode 1 is composition(complement(A, size(A)*cosize(B)), B)") {
  test::LayoutGen gen(0x9d0d0001);
  int checked = 0;
  for (int n = 0; n < 800; ++n) {
    Layout a = gen.injective(2, 64);
    Layout b = gen.chance(0.7) ? gen.injective(2, 32, false) : gen.any(2, 32);
    Layout p;
    try {
      p = logical_product(a, Tiler(b));
    } catch (const Error&) {
      continue;
    }
    ++checked;
    CAPTURE(to_string(a));
    CAPTURE(to_string(b));
    CAPTURE(to_string(p));
    REQUIRE(rank(p) == 2);
    CHECK(get(p, 0) == a);
    CHECK(size(p) == size(a) * size(b));
    Layout c = complement(a, IntTuple(size(a) * cosize(b)));
    CHECK(same_function(get(p, 1), composition(c, b)));
    if (!test::exactly_admissible(c, b)) continue;  // CuTe's weak divisibility: copies may overlap, as in CuTe
    // the copies of the block are disjoint: p(i, j) for a fixed j is A shifted by p(0, j)
    Layout second = get(p, 1);
    std::set<int64_t> ai = test::image(a);
    for (int64_t j = 0; j < size(b); ++j) {
      int64_t shift = second(j);
      if (j > 0 && b(j) != b(0) && test::is_injective(b)) CHECK(ai.count(shift) == 0);
    }
    if (test::is_injective(b)) CHECK(test::is_injective(p));
    // zipped / tiled / flat: the same modes, regrouped
    CHECK(same_function(zipped_product(a, Tiler(b)), p));
    CHECK(size(tiled_product(a, Tiler(b))) == size(p));
    CHECK(size(flat_product(a, Tiler(b))) == size(p));
  }
  CHECK(checked > 600);
}

TEST_CASE("property: blocked and raked products: rank max(rank A, rank B), size |A||B|, the same image") {
  test::LayoutGen gen(0x9d0d0002);
  int checked = 0;
  for (int n = 0; n < 600; ++n) {
    Layout a = gen.injective(1, 32);
    Layout b = gen.injective(1, 16, false);
    size_t r = std::max(rank(a), rank(b));
    Layout pa = append_to_rank(a, r), pb = append_to_rank(b, r);
    Layout blocked, raked;
    try {
      blocked = blocked_product(a, b);
      raked = raked_product(a, b);
    } catch (const Error&) {
      continue;
    }
    ++checked;
    CAPTURE(to_string(a));
    CAPTURE(to_string(b));
    CAPTURE(to_string(blocked));
    CAPTURE(to_string(raked));
    CHECK(rank(blocked) == r);
    CHECK(rank(raked) == r);
    CHECK(size(blocked) == size(a) * size(b));
    CHECK(test::image(blocked) == test::image(raked));
    if (test::exactly_admissible(complement(pa, IntTuple(size(pa) * cosize(pb))), pb))
      CHECK(test::is_injective(blocked));
    // blocked: mode m is (A_m, B_m) — the first coordinate runs inside one block;
    // raked: mode m is (B_m, A_m) — the block's elements are spread across the tiles
    for (size_t m = 0; m < r; ++m) {
      Layout bm = get(blocked, m), rm = get(raked, m);
      REQUIRE(rank(bm) == 2);
      REQUIRE(rank(rm) == 2);
      CHECK(get(bm, 0) == get(rm, 1));
      CHECK(get(bm, 1) == get(rm, 0));
    }
  }
  CHECK(checked > 400);
}
