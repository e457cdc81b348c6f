// Coordinates: crd2idx, idx2crd (with and without strides), get_1d_coord,
// compact strides (LayoutLeft / LayoutRight / ordered) and identity layouts.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"
#include "tests/support/eval.hpp"

using namespace cutevis;

namespace {

using test::eval;
IntTuple T(const std::string& text) { return evaluate_expression(text).to_int_tuple(); }

}  // namespace

TEST_CASE("crd2idx and idx2crd on named cases (CuTe's answers)") {
  CHECK(eval("crd2idx(5, (2,(3,4)), (1,(2,6)))") == "5");  // 5 -> (1,(2,0))
  CHECK(eval("crd2idx((1,(2,3)), (2,(3,4)), (1,(2,6)))") == "23");
  CHECK(eval("crd2idx((1,5), (2,(3,4)), (1,(2,6)))") == "11");  // 5 in (3,4) -> (2,1)
  CHECK(eval("crd2idx((1,(2,3)), (2,(3,4)))") == "23");         // colexicographic
  CHECK(eval("idx2crd(23, (2,(3,4)))") == "(1,(2,3))");
  CHECK(eval("idx2crd(30, (2,(3,4)))") == "(0,(0,5))");  // the last mode is not wrapped
  CHECK(eval("idx2crd(7, (2,4), (1,2))") == "(1,3)");
  CHECK(eval("idx2crd(13, (4,4), (4,1))") == "(3,1)");
  CHECK(eval("crd2idx(3, 8, 2)") == "6");
  CHECK(eval("get_1d_coord((2,(3,4)):(1,(2,6)), 23)") == "(1,(2,3))");
  // a coordinate with a stride-0 shape-1 mode and a basis stride
  CHECK(eval("crd2idx((1,2), (2,3), (1@0,1@1))") == "(1,2)");
  CHECK(eval("crd2idx(5, (2,3), (1@1,1@0))") == "(2,1)");
}

TEST_CASE("compact strides: LayoutLeft, LayoutRight, ordered") {
  CHECK(eval("make_layout((2,(3,4)))") == "(2,(3,4)):(1,(2,6))");
  CHECK(eval("make_layout((2,(3,4)), LayoutRight{})") == "(2,(3,4)):(12,(4,1))");
  CHECK(eval("make_layout((2,1,4))") == "(2,1,4):(1,0,2)");                           // static _1 gets stride _0
  CHECK(eval("make_ordered_layout((2,2,2,2), (0,2,3,1))") == "(2,2,2,2):(1,4,8,2)");  // CuTe's doc example
  CHECK(eval("make_ordered_layout((2,(3,4)), (1,0))") == "(2,(3,4)):(12,(1,3))");
  CHECK(eval("make_ordered_layout((2,3,4), (1,1,0))") == "(2,3,4):(4,4,1)");  // ties share a start
}

TEST_CASE("identity layouts map a coordinate to itself") {
  CHECK(eval("make_identity_layout((4,(2,3)))") == "(4,(2,3)):(1@0,(1@0@1,1@1@1))");
  Layout id = make_identity_layout(T("(4,(2,3))"));
  for (int64_t i = 0; i < size(id); ++i) {
    IntTuple c = idx2crd(IntTuple(i), id.shape);
    CHECK(id(IntTuple(i)) == c);
  }
  CHECK(eval("make_identity_layout(8)") == "8:1");  // E<> prints as a plain 1, as CuTe prints _1
}

TEST_CASE("property: idx2crd and crd2idx are inverse on the domain") {
  test::LayoutGen gen(0xc00d0001);
  for (int n = 0; n < 300; ++n) {
    IntTuple s = gen.shape(3, 3, 512);
    CAPTURE(to_string(s));
    for (int64_t i = 0; i < size(s); ++i) {
      IntTuple c = idx2crd(IntTuple(i), s);
      REQUIRE(congruent(c, s));
      REQUIRE(crd2idx(c, s) == i);
      REQUIRE(elem_less(c, s));
    }
    // the stride form agrees with the colexicographic one for compact strides
    IntTuple d = compact_col_major(s);
    for (int64_t i = 0; i < size(s); ++i) REQUIRE(idx2crd(IntTuple(i), s, d) == idx2crd(IntTuple(i), s));
  }
}

TEST_CASE("property: compact layouts are bijections onto [0, size)") {
  test::LayoutGen gen(0xc00d0002);
  for (int n = 0; n < 300; ++n) {
    IntTuple s = gen.shape(3, 3, 512);
    CAPTURE(to_string(s));
    for (const Layout& l : {make_layout(s), make_layout_right(s)}) {
      std::vector<int64_t> v = layout_values(l);
      std::sort(v.begin(), v.end());
      for (size_t i = 0; i < v.size(); ++i) REQUIRE(v[i] == static_cast<int64_t>(i));
      CHECK(cosize(l) == size(l));
    }
    // LayoutRight: the last leaf with an extent > 1 has stride 1, LayoutLeft: the first
    auto left = flatten_values(make_layout(s).stride);
    auto right = flatten_values(make_layout_right(s).stride);
    auto extents = flatten_values(s);
    auto first = std::find_if(extents.begin(), extents.end(), [](int64_t x) { return x > 1; });
    if (first != extents.end()) CHECK(left[static_cast<size_t>(first - extents.begin())] == 1);
    auto last = std::find_if(extents.rbegin(), extents.rend(), [](int64_t x) { return x > 1; });
    if (last != extents.rend()) CHECK(right[static_cast<size_t>(extents.rend() - last - 1)] == 1);
  }
}

TEST_CASE("property: make_ordered_layout is compact, and strides follow the order") {
  test::LayoutGen gen(0xc00d0003);
  for (int n = 0; n < 300; ++n) {
    IntTuple s = gen.shape(2, 3, 512);
    std::vector<IntTuple> leaves = flatten_leaves(s);
    std::vector<int64_t> order(leaves.size());
    std::iota(order.begin(), order.end(), int64_t{0});
    gen.shuffle(order);
    std::vector<IntTuple> order_leaves(order.begin(), order.end());
    IntTuple o = s.is_leaf() ? order_leaves[0] : unflatten(IntTuple::tuple(order_leaves), s);
    Layout l = make_ordered_layout(s, o);
    CAPTURE(to_string(l));
    CAPTURE(to_string(o));
    CHECK(cosize(l) == size(l));
    CHECK(test::is_injective(l));
    auto st = flatten_values(l.stride);
    auto ex = flatten_values(s);
    for (size_t a = 0; a < st.size(); ++a)
      for (size_t b = 0; b < st.size(); ++b)
        if (ex[a] > 1 && ex[b] > 1 && order[a] < order[b]) CHECK(st[a] < st[b]);
  }
}
