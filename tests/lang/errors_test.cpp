// Bad input: every class of the issue gives a cutevis::Error with a one-line message
// and, for expression text, the byte position the CLI's caret points at — never a
// crash, a hang or another exception type.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"

using namespace cutevis;

namespace {

struct Failure {
  bool threw = false;
  int64_t position = Error::kNoPosition;
  std::string message;
};

Failure failure_of(const std::string& text) {
  Failure f;
  try {
    evaluate_expression(text);
  } catch (const Error& e) {
    f.threw = true;
    f.position = e.position();
    f.message = e.what();
  }
  return f;
}

// Checks that `text` fails with a message containing `words`, the caret at the first
// occurrence of `at` (a substring of text; "$" is the end of the text).
void check_error(const std::string& text, const std::string& at, const std::string& words) {
  CAPTURE(text);
  Failure f = failure_of(text);
  REQUIRE(f.threw);
  CAPTURE(f.message);
  CHECK(f.message.find(words) != std::string::npos);
  CHECK(f.message.find('\n') == std::string::npos);  // one line
  size_t expect = at == "$" ? text.size() : text.find(at);
  REQUIRE(expect != std::string::npos);
  CHECK(f.position == static_cast<int64_t>(expect));
}

}  // namespace

TEST_CASE("unbalanced parentheses") {
  check_error("((4,2),4:((8,4),1)", "((4", "unbalanced '('");
  check_error("(4,2)):(1,2)", "):(1", "unbalanced ')'");
  check_error("(1,2", "(1", "unbalanced '('");
  check_error("make_layout((4,2)", "((4", "unbalanced '('");
  check_error("Layout<Shape<_4,_8>{}", "<Shape", "expected '>'");
  check_error("4:1]", "]", "unbalanced ']'");
}

TEST_CASE("incongruent shape and stride") {
  check_error("(4,2):(1,2,3)", "(1,2,3)", "not congruent");
  check_error("((4,2),4):(1,2)", "(1,2)", "not congruent");
  check_error("make_layout((4,2), (1,2,3))", "(1,2,3)", "not congruent");
  check_error("Layout<Shape<_4,_8>, Stride<_1>>{}", "Stride<_1>", "not congruent");  // was an out-of-range read
}

TEST_CASE("unknown functions and names, with suggestions") {
  check_error("compositon(4:1, 2:1)", "compositon", "unknown function 'compositon'; did you mean 'composition'");
  check_error("size(blorp)", "blorp", "unknown name 'blorp'");
  check_error("logical_divide(8:1, 2:1) o 3 o florb(4)", "florb", "unknown function 'florb'");
}

TEST_CASE("wrong arity and wrong argument kinds") {
  check_error("composition(4:1)", "composition", "composition takes 2 to 3 arguments, got 1");
  check_error("size(4:1, 5:1)", "size", "size takes 1 argument, got 2");
  check_error("coalesce()", "coalesce", "coalesce takes 1 to 2 arguments, got 0");
  check_error("Int<4,5>{}", "Int", "Int<N> takes one template argument");
  check_error("take<1>((4,2):(1,4))", "take", "take<B,E>(x) takes two template arguments");
  check_error("logical_divide(half_t, 4:1)", "logical_divide", "expected a layout, got type half_t");
  check_error("size(2:1, ", "$", "unexpected end of expression");
}

TEST_CASE("negative shapes") {
  // (an extent 0 is CuTe's: a default-constructed run-time int; tests/lib/zero_extent_test.cpp)
  check_error("(4,-2):(1,4)", "(4,-2)", "negative extent -2");
  check_error("make_layout((4,-1))", "(4,-1)", "negative extent -1");
  check_error("Layout<Shape<_4,Int<-3>>>{}", "Shape", "negative extent");
  // shapes and tilers given to functions, not only in shape:stride (were garbage layouts,
  // e.g. logical_divide(8:1, -2) == (-2,-2):(1,-2))
  check_error("logical_divide(8:1, -2)", "logical_divide", "a tiler's extent must not be negative, got -2");
  check_error("zipped_divide((8,8):(1,8), (2,-1))", "zipped_divide", "a tiler's extent must not be negative");
  check_error("logical_divide(8:1, 0)", "logical_divide", "division by zero");  // CuTe divides by 0 here too
  check_error("tile_to_shape(8:1, (16,-1))", "(16,-1)", "shape (16,-1) has a negative extent -1");
  check_error("complement(8:1, (4,-5))", "(4,-5)", "negative extent -5");
  check_error("make_identity_layout((-1,2))", "(-1,2)", "negative extent -1");
  check_error("make_ordered_layout((4,-4), (0,1))", "(4,-4)", "negative extent -4");
  check_error("with_shape(8:1, (2,-4))", "(2,-4)", "negative extent -4");
  check_error("make_fragment_like((2,-1))", "(2,-1)", "negative extent -1");
  check_error("tile_to_shape(8:1, (1@0,2))", "(1@0", "basis elements");
}

TEST_CASE("integer overflow is an error, never a wrap") {
  check_error("99999999999999999999:1", "9", "integer too large");
  check_error("size((2147483648,2147483648,4):(1,1,1))", "size", "integer overflow");
  check_error("cosize((4294967296,4294967296):(4294967296,4294967296))", "cosize", "integer overflow");
  check_error("crd2idx(4611686018427387904, 8, 4)", "crd2idx", "integer overflow");
  check_error("composition(9223372036854775807:9223372036854775807, 4:2)", "composition", "integer overflow");
  check_error("logical_product((65536,65536):(1,65536), (65536,65536):(1,65536))", "logical_product",
              "integer overflow");
  check_error("_-9223372036854775808", "9", "integer too large");
  // the largest values still work
  CHECK(evaluate_expression("9223372036854775807").as_int() == INT64_MAX);
  CHECK(evaluate_expression("-9223372036854775807").as_int() == -INT64_MAX);
  CHECK(evaluate_expression("size((2147483648,2147483647):(1,1))").as_int() == int64_t{2147483648} * 2147483647);
}

TEST_CASE("absurd nesting depth is an error, not a stack overflow") {
  for (size_t depth : {1000, 100000}) {
    std::string deep = std::string(depth, '(') + "4" + std::string(depth, ')');
    Failure f = failure_of(deep);
    CHECK(f.threw);
    CHECK(f.message.find("nested too deeply") != std::string::npos);
    CHECK(f.position >= 0);
    CHECK(f.position < 1000);
    std::string calls;
    for (size_t i = 0; i < depth; ++i) calls += "size(";
    calls += "4";
    calls += std::string(depth, ')');
    CHECK(failure_of(calls).message.find("nested too deeply") != std::string::npos);
    std::string unbalanced(depth, '(');
    CHECK(failure_of(unbalanced).threw);
    std::string composed;
    for (size_t i = 0; i < depth; ++i) composed += "S<1,2,3> o 0 o ";
    composed += "4:1";
    Failure c = failure_of(composed);  // A o O o (A o O o (...)): was a stack overflow at 10^5
    CHECK(c.message.find("nested too deeply") != std::string::npos);
  }
  // a reasonable depth still parses
  CHECK(evaluate_expression(std::string(40, '(') + "4" + std::string(40, ')')).is(Value::Kind::kTuple));
}

TEST_CASE("non-ASCII characters and stray bytes") {
  check_error("4:1 \xc3\x97 2", "\xc3", "non-ASCII");
  check_error(
      "(4,2):(1,\xe2\x80\x8b"
      "2)",
      "\xe2", "non-ASCII");
  check_error("4:1 ; 2", ";", "unexpected character ';'");
  check_error("4:1 # comment", "#", "unexpected character '#'");
  check_error(std::string("4:1\0", 4) + "x", std::string("\0", 1), "unexpected character");
}

TEST_CASE("trailing garbage puts the caret at the garbage") {
  check_error("((4,2),4):((8,4),1) garbage", "garbage", "unexpected trailing text 'garbage'");
  check_error("4:1 8:2", "8:2", "trailing text '8:2'");
  // quoted as one line of at most 40 bytes, whatever follows (found by fuzzing)
  check_error("idx2 yyyy\n\n, (3,(8,3,1)))", "yyyy", "trailing text 'yyyy...'");
  check_error("4:1 " + std::string(100, 'x'), "xx", "trailing text '" + std::string(40, 'x') + "...'");
  check_error("(4,2):(1,2) o", "$", "unexpected end of expression");
}

TEST_CASE("other malformed expressions") {
  check_error("", "", "empty expression");
  check_error("   ", "", "empty expression");
  check_error("4:", "$", "unexpected end of expression");
  check_error(":4", ":", "unexpected ':'");
  check_error("-", "$", "expected a number after '-'");
  check_error("4@", "@", "expected a mode index after '@'");
  check_error("(4@0):(1)", "(4@0)", "a shape cannot hold basis elements");
  check_error("smem_ptr[16b](set)", "set", "expected smem_ptr[Nb](unset)");
  check_error("composition(S<3,4,3>{}, 4:1 o 2)", "4:1 o 2", "A o offset o B");
  check_error("get<-1>((4,2):(1,4))", "get", "negative mode index");
  check_error("get<2>((4,2):(1,4))", "get", "out of range");
  check_error("Swizzle<3,4,2>{}", "Swizzle", "|SShift| must be at least BBits");
  check_error("complement((2,2):(1,1))", "complement", "not injective");
  check_error("right_inverse(2:1@0)", "right_inverse", "integer strides");
  check_error("tile_to_shape(4:1, (6))", "tile_to_shape", "does not divide");
  check_error("ceil_div(4, 0)", "ceil_div", "division by zero");
  check_error("shape_div(6, 4)", "shape_div", "divisibility condition");
  check_error("upcast<3>(4:2)", "upcast", "divisibility");
}
