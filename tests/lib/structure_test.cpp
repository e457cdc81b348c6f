// Structure of IntTuples and Layouts: size, cosize, rank, depth, shape/stride/get,
// select, take, append, prepend, group, flatten, replace, zip — each checked on
// named cases (CuTe's answers written as data) and on generated layouts.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"
#include "tests/support/eval.hpp"

using namespace cutevis;

namespace {

Layout L(const std::string& text) { return evaluate_expression(text).to_layout(); }
using test::eval;

}  // namespace

TEST_CASE("size, cosize, rank, depth of named layouts") {
  Layout l = L("((4,2),4):((8,4),1)");
  CHECK(size(l) == 32);
  CHECK(cosize(l) == 3 * 8 + 1 * 4 + 3 * 1 + 1);
  CHECK(rank(l) == 2);
  CHECK(depth(l) == 2);
  CHECK(depth(L("8:1")) == 0);
  CHECK(rank(L("8:1")) == 1);
  CHECK(rank(L("(8):(1)")) == 1);
  CHECK(depth(L("(8):(1)")) == 1);
  // cosize uses |stride|: (4-1)*|-1| + (3-1)*4 + 1
  CHECK(cosize(L("(4,3):(-1,4)")) == 12);
  CHECK(cosize(L("(4,3):(0,0)")) == 1);
  CHECK(eval("size<1,0>(((4,2),(3,5)):((1,4),(8,24)))") == "3");
  CHECK(eval("rank<1>(((4,2),(3,5,7)):((1,4),(8,24,120)))") == "3");
  CHECK(eval("depth<0>(((4,2),3):((1,4),8))") == "1");
  CHECK(eval("cosize(4:0)") == "1");
}

TEST_CASE("shape, stride, get, select, take, group, flatten, append, prepend, replace") {
  CHECK(eval("shape(((4,2),4):((8,4),1))") == "((4,2),4)");
  CHECK(eval("stride(((4,2),4):((8,4),1))") == "((8,4),1)");
  CHECK(eval("shape<0>(((4,2),4):((8,4),1))") == "(4,2)");
  CHECK(eval("stride<0,1>(((4,2),4):((8,4),1))") == "4");
  CHECK(eval("get<0,1>(((4,2),4):((8,4),1))") == "2:4");
  CHECK(eval("layout<1>(((4,2),4):((8,4),1))") == "4:1");
  CHECK(eval("select<2,0>((2,3,5):(1,2,6))") == "(5,2):(6,1)");
  CHECK(eval("take<1,3>((2,3,5,7):(1,2,6,30))") == "(3,5):(2,6)");
  CHECK(eval("group<1,3>((2,3,5,7):(1,2,6,30))") == "(2,(3,5),7):(1,(2,6),30)");
  CHECK(eval("flatten(((4,2),(4,(2,3))):((8,4),(1,(32,64))))") == "(4,2,4,2,3):(8,4,1,32,64)");
  CHECK(eval("append((4,2):(1,4), 3:8)") == "(4,2,3):(1,4,8)");
  CHECK(eval("append(4:1)") == "(4,1):(1,0)");
  CHECK(eval("prepend((4,2):(1,4), 3:8)") == "(3,4,2):(8,1,4)");
  CHECK(eval("append<3>((4,2):(1,4))") == "(4,2,1):(1,4,0)");
  CHECK(eval("prepend<3>(4:1)") == "(1,1,4):(0,0,1)");
  CHECK(eval("replace<1>((4,2,3):(1,4,8), (2,2):(4,16))") == "(4,(2,2),3):(1,(4,16),8)");
  CHECK(eval("zip(((2,3),(4,5)):((1,2),(6,24)))") == "((2,4),(3,5)):((1,6),(2,24))");
  CHECK(eval("flatten(((2,(3)),4))") == "(2,3,4)");
  CHECK(eval("append((1,2), 3)") == "(1,2,3)");
  CHECK(eval("product_each(((2,3),4,(5,(6,7))))") == "(6,4,210)");
}

TEST_CASE("structure errors name the problem") {
  CHECK_THROWS_AS(L("(4,2):(1,2,3)"), Error);
  CHECK_THROWS_AS(eval("get<2>((4,2):(1,4))"), Error);
  CHECK_THROWS_AS(eval("take<2,1>((4,2):(1,4))"), Error);
  CHECK_THROWS_AS(eval("group<0,4>((4,2):(1,4))"), Error);
  CHECK_THROWS_AS(eval("append<1>((4,2):(1,4))"), Error);
  CHECK_THROWS_AS(eval("zip(((2,3),4):((1,2),6))"), Error);
}

TEST_CASE("property: size is the product of the shape, cosize is max(L(i)) + 1 for non-negative strides") {
  test::LayoutGen gen(0x5eed0001);
  for (int n = 0; n < 400; ++n) {
    IntTuple s = gen.shape(3, 3, 512);
    Layout l(s, gen.chance(0.5) ? gen.permuted_stride(s, gen.chance(0.5), 0.2) : gen.random_stride(s));
    CAPTURE(to_string(l));
    int64_t product = 1;
    for (int64_t x : flatten_values(l.shape)) product *= x;
    CHECK(size(l) == product);
    std::vector<int64_t> v = layout_values(l);
    REQUIRE(static_cast<int64_t>(v.size()) == size(l));
    bool non_negative = true;
    for (int64_t d : flatten_values(l.stride)) non_negative = non_negative && d >= 0;
    if (non_negative) CHECK(cosize(l) == *std::max_element(v.begin(), v.end()) + 1);
    // cosize bounds the codomain even with negative strides: max - min + 1
    CHECK(cosize(l) >= *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end()) + 1);
  }
}

TEST_CASE("property: layout_values(L)[i] == L(i) == crd2idx(idx2crd(i, shape), shape, stride)") {
  test::LayoutGen gen(0x5eed0002);
  for (int n = 0; n < 300; ++n) {
    Layout l = gen.any(3, 256);
    CAPTURE(to_string(l));
    std::vector<int64_t> v = layout_values(l);
    for (int64_t i = 0; i < size(l); ++i) {
      REQUIRE(v[static_cast<size_t>(i)] == l(i));
      IntTuple c = idx2crd(IntTuple(i), l.shape);
      REQUIRE(crd2idx(c, l.shape, l.stride) == IntTuple(v[static_cast<size_t>(i)]));
      REQUIRE(l(c) == IntTuple(v[static_cast<size_t>(i)]));
    }
  }
}

TEST_CASE("property: flatten, group and select keep the function they should") {
  test::LayoutGen gen(0x5eed0003);
  for (int n = 0; n < 300; ++n) {
    Layout l = gen.any(3, 256);
    CAPTURE(to_string(l));
    Layout f = flatten(l);
    CHECK(depth(f) <= 1);
    CHECK(same_function(f, l));
    if (rank(l) >= 2) {
      Layout g = group(l, 0, rank(l));
      CHECK(rank(g) == 1);
      CHECK(same_function(g, l));
      // select<r-1, ..., 0> reverses the modes: same size, same image
      std::vector<size_t> rev;
      for (size_t i = rank(l); i-- > 0;) rev.push_back(i);
      Layout s = select(l, rev);
      CHECK(size(s) == size(l));
      CHECK(test::image(s) == test::image(l));
      // take<0,1> and get<0> are the same mode, wrapped
      CHECK(same_function(take(l, 0, 1), get(l, 0)));
    }
    // append<R> adds size-1 modes: the function is unchanged
    Layout a = append_to_rank(l, rank(l) + 2);
    CHECK(rank(a) == rank(l) + 2);
    CHECK(same_function(a, l));
    Layout p = prepend(l, Layout(IntTuple(1), IntTuple(0)));
    CHECK(same_function(p, l));
  }
}

TEST_CASE("value types are plain: copies compare equal, print, and round-trip through the parser") {
  test::LayoutGen gen(0x5eed0004);
  for (int n = 0; n < 200; ++n) {
    Layout l = gen.any(3, 512);
    Layout copy = l;
    CHECK(copy == l);
    std::string text = to_string(l);
    CAPTURE(text);
    CHECK(evaluate_expression(text).to_layout() == l);
    CHECK(evaluate_expression(to_string(l, true)).to_layout() == l);  // `_4` spelling
  }
}
