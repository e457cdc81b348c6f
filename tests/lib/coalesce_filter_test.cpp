// coalesce (also by-mode), coalesce_x, filter_zeros, filter: named cases as CuTe
// answers them, and their defining properties on generated layouts.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"
#include "tests/support/eval.hpp"

using namespace cutevis;

namespace {

using test::eval;

// No two adjacent flat modes of a coalesced layout could merge (s0*d0 == d1), and it
// has no size-1 mode unless it is `1:0` itself.
bool is_fully_coalesced(const Layout& c) {
  auto s = flatten_values(c.shape);
  auto d = flatten_values(c.stride);
  if (s.size() == 1) return s[0] != 1 || d[0] == 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == 1) return false;
    if (i + 1 < s.size() && s[i] * d[i] == d[i + 1]) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("coalesce: CuTe's answers") {
  CHECK(eval("coalesce(1:1)") == "1:0");
  CHECK(eval("coalesce((2,4):(1,2))") == "8:1");
  CHECK(eval("coalesce((2,(1,6)):(1,(6,2)))") == "12:1");
  CHECK(eval("coalesce((4,1):(1,0))") == "4:1");
  CHECK(eval("coalesce((2,(4,2)):(8,(1,4)))") == "(2,8):(8,1)");  // 4:1 then 2:4 merge: 4*1 == 4
  CHECK(eval("coalesce((2,4):(4,1))") == "(2,4):(4,1)");
  CHECK(eval("coalesce((2,4):(0,0))") == "8:0");  // _2*_0 == _0: static, so they merge
  CHECK(eval("coalesce((1,1,8):(3,5,1))") == "8:1");
  CHECK(eval("coalesce(((4,2),4):((1,4),8), (1,1))") == "(8,4):(1,8)");  // by mode
  CHECK(eval("coalesce(((4,2),(4,2)):((1,4),(16,64)), (0,(1,1)))") == "(8,(4,2)):(1,(16,64))");
  CHECK(eval("coalesce((2,(3,4)))") == "24");  // a shape's static modes multiply out
}

TEST_CASE("filter and filter_zeros: CuTe's answers") {
  CHECK(eval("filter((4,2,8):(1,0,4))") == "32:1");
  CHECK(eval("filter((4,2):(0,0))") == "1:0");
  CHECK(eval("filter((1,4):(8,2))") == "4:2");
  CHECK(eval("filter_zeros((4,(2,3)):(0,(1,0)))") == "(1,(2,1)):(0,(1,0))");
  CHECK(eval("filter(((4,2),(8,2)):((0,1),(2,0)), (0,1))") == "(2,8):(1,2)");
}

TEST_CASE("property: coalesce keeps the function, the size, depth <= 1, and cannot be coalesced further") {
  test::LayoutGen gen(0xc0a1e5ce);
  for (int n = 0; n < 600; ++n) {
    Layout l = gen.any(3, 512);
    CAPTURE(to_string(l));
    Layout c = coalesce(l);
    CAPTURE(to_string(c));
    CHECK(size(c) == size(l));
    CHECK(depth(c) <= 1);
    CHECK(same_function(c, l));
    CHECK(is_fully_coalesced(c));
    CHECK(coalesce(c) == c);  // idempotent
    // coalesce_x also keeps L(i) beyond the domain
    Layout x = coalesce_x(l);
    for (int64_t i = 0; i < 2 * size(l) + 3; ++i) REQUIRE(x(i) == l(i));
  }
}

TEST_CASE("property: by-mode coalesce keeps the rank of the profile and each mode's function") {
  test::LayoutGen gen(0xc0a1e5cf);
  int tried = 0;
  for (int n = 0; n < 400; ++n) {
    Layout l = gen.any(3, 512);
    if (!l.shape.is_tuple() || rank(l) < 2) continue;
    ++tried;
    std::vector<IntTuple> prof(rank(l) - static_cast<size_t>(gen.uniform(0, 1)), IntTuple(0));
    IntTuple profile = IntTuple::tuple(prof);
    Layout c = coalesce(l, profile);
    CAPTURE(to_string(l));
    CAPTURE(to_string(c));
    REQUIRE(rank(c) == rank(l));
    CHECK(same_function(c, l));
    for (size_t m = 0; m < rank(l); ++m) {
      CHECK(same_function(get(c, m), get(l, m)));
      if (m < prof.size()) CHECK(depth(get(c, m)) <= 1);
      else CHECK(get(c, m) == get(l, m));  // modes past the profile are untouched
    }
  }
  CHECK(tried > 50);
}

TEST_CASE("property: filter keeps the image, drops stride-0 and size-1 modes") {
  test::LayoutGen gen(0xf117e400);
  for (int n = 0; n < 600; ++n) {
    IntTuple s = gen.shape(3, 3, 512);
    Layout l(s, gen.permuted_stride(s, gen.chance(0.4), 0.35, 0.2));
    CAPTURE(to_string(l));
    Layout f = filter(l);
    CAPTURE(to_string(f));
    CHECK(test::image(f) == test::image(l));
    CHECK(depth(f) <= 1);
    auto fs = flatten_values(f.shape);
    auto fd = flatten_values(f.stride);
    bool trivial = fs.size() == 1 && fs[0] == 1 && fd[0] == 0;
    if (!trivial)
      for (size_t i = 0; i < fs.size(); ++i) CHECK((fs[i] != 1 && fd[i] != 0));
    // the injective part: size(filter) * size(nullspace) == size(L) for these layouts
    CHECK(size(f) * size(nullspace(l)) == size(l));
    // filter_zeros keeps the rank and profile, replacing stride-0 extents by 1
    Layout z = filter_zeros(l);
    CHECK(congruent(z.shape, l.shape));
    CHECK(test::image(z) == test::image(l));
  }
}
