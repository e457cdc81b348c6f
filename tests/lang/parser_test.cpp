// The expression language: CuTe's printed notation and CuTe's C++ construction
// syntax give the same values; printing and parsing round-trip.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"
#include "tests/support/eval.hpp"

using namespace cutevis;

namespace {

using test::eval;

}  // namespace

TEST_CASE("both dialects build the same layouts") {
  const std::pair<const char*, const char*> same[] = {
      {"Layout<Shape<_4,_8>, Stride<_1,_4>>{}", "(4,8):(1,4)"},
      {"Layout<Shape<Int<4>,Int<8>>, Stride<Int<1>,Int<4>>>{}", "(4,8):(1,4)"},
      {"cute::Layout<cute::Shape<cute::_4, cute::_8>>{}", "(4,8):(1,4)"},
      {"make_layout(make_shape(Int<4>{},8), LayoutRight{})", "(4,8):(8,1)"},
      {"make_layout(make_shape(4,make_shape(2,2)), make_stride(1,make_stride(8,4)))", "(4,(2,2)):(1,(8,4))"},
      {"make_layout(make_shape(_4{},_8{}), GenColMajor{})", "(4,8):(1,4)"},
      {"make_layout(4:1, 8:4)", "(4,8):(1,4)"},
      {"_4:_1", "4:1"},
      {"((_4,_2),_4):((_8,_4),_1)", "((4,2),4):((8,4),1)"},
      {"(_4,_3):(_-1,_4)", "(4,3):(-1,4)"},  // CuTe prints a negative static int as _-1
      {"make_shape(_4{}, Int<2>{})", "(4,2)"},
      {"Int<-2>{}", "-2"},
      {"make_tile(Layout<_2,_1>{}, _)", "(2:1,_)"},
      {"Tile<Layout<_2,_4>, _>{}", "(2:4,_)"},
      {"(1@0,1@1)", "(1@0,1@1)"},
      {"(4,8):(1@0,1@1)", "(4,8):(1@0,1@1)"},
      {"_2@1@0", "2@1@0"},
      {"make_identity_layout(make_shape(4,8))", "(4,8):(1@0,1@1)"},
      {"S<3,4,3> o 0 o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
      {"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
      {"composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
      {"Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"},
      {"make_composed_layout(Swizzle<2,4,3>{}, smem_ptr[32b](unset), (8,16):(16,1))",
       "Sw<2,4,3> o smem_ptr[32b](unset) o (8,16):(16,1)"},
      {"cute::composition(cute::Layout<cute::_8, cute::_2>{}, Int<4>{})", "4:2"},
      {"size(Shape<_4,Shape<_2,_3>>{})", "24"},
      {"size<1>(make_shape(4, make_shape(2, 3)))", "6"},
      {"  ( 4 , 2 ) : ( 1 , 4 )  ", "(4,2):(1,4)"},
      {"(4):(1)", "(4):(1)"},
      {"()", "()"},
  };
  for (const auto& pair : same) {
    const std::string text = pair.first;  // (clang 14 cannot capture a structured binding)
    CAPTURE(text);
    CHECK(eval(text) == pair.second);
  }
}

TEST_CASE("printed notation and underscores round-trip through the parser") {
  test::LayoutGen gen(0x9a75e001);
  for (int n = 0; n < 500; ++n) {
    Layout l = gen.any(3, 4096);
    for (bool underscore : {false, true}) {
      std::string text = to_string(l, underscore);
      CAPTURE(text);
      Value v = evaluate_expression(text);
      REQUIRE(v.is(Value::Kind::kLayout));
      CHECK(v.to_layout() == l);
      CHECK(v.to_string() == to_string(l));
    }
  }
  // composed layouts print in a form the parser reads back
  for (const char* text :
       {"Sw<2,4,3> o 3 o (4,8):(8,1)", "(4,2):(2,1) o 1 o 8:1", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)",
        "Sw<1,4,3> o 0 o Sw<2,3,3> o 0 o 64:1"}) {
    CAPTURE(std::string(text));
    CHECK(eval(text) == text);
    CHECK(eval(to_string(evaluate_expression(text).any_layout(), true)) == text);
  }
}

TEST_CASE("a negative static int `_-1` is read as CuTe prints it (regression)") {
  CHECK(eval("_-1") == "-1");
  CHECK(eval("(_4,_3):(_-1,_4)") == "(4,3):(-1,4)");
  CHECK(eval("left_inverse(_4:_-1)") == "(-1,4):(0,1)");
  CHECK_THROWS_AS(eval("_-"), Error);
  CHECK_THROWS_AS(eval("_-x"), Error);
}

TEST_CASE("a character literal is C++'s char, an integer: `transA == 'N'` compares codes") {
  CHECK(eval("'N'") == "78");
  CHECK(eval("'N' == 78") == "true");
  CHECK(eval("'N' == 'T'") == "false");
  CHECK_THROWS_AS(eval("'NT'"), Error);   // (a multi-character literal: not one char)
  CHECK_THROWS_AS(eval("'\\n'"), Error);  // (escapes are not read)
}

TEST_CASE("the value kinds of the language") {
  CHECK(evaluate_expression("4").is(Value::Kind::kInt));
  CHECK(evaluate_expression("(4,8)").is(Value::Kind::kTuple));
  CHECK(evaluate_expression("_").is(Value::Kind::kUnderscore));
  CHECK(evaluate_expression("4:1").is(Value::Kind::kLayout));
  CHECK(evaluate_expression("Swizzle<3,4,3>{}").is(Value::Kind::kSwizzle));
  CHECK(evaluate_expression("half_t").is(Value::Kind::kType));
  CHECK(evaluate_expression("cutlass::half_t").type().bits == 16);
  CHECK(evaluate_expression("LayoutRight{}").is(Value::Kind::kTag));
  CHECK(evaluate_expression("congruent((4,2), (1,(2,2)))").is(Value::Kind::kBool));
  CHECK(eval("congruent((4,2), (1,(2,2)))") == "false");
  CHECK(eval("weakly_congruent((4,2), (1,(2,2)))") == "true");
  CHECK(eval("compatible((4,4), (4,(2,2)))") == "true");
  CHECK(evaluate_expression("make_layout_tv(4:1, 2:1)").is(Value::Kind::kTuple));
}

TEST_CASE("a registry can be extended by other modules, and suggests names") {
  Registry r = default_registry();
  r.add(
      "twice",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return Value::integer(2 * ev.eval_args(n)[0].as_int());
      },
      "twice(n)");
  CHECK(evaluate_expression("twice(size(4:1))", r).as_int() == 8);
  CHECK_THROWS_AS(evaluate_expression("twice(4:1)"), Error);  // not in the default registry
  r.add_resolver([](Evaluator&, const Node& n, Value& out) {
    if (n.name != "MY_ATOM") return false;
    out = Value::integer(42);
    return true;
  });
  CHECK(evaluate_expression("MY_ATOM", r).as_int() == 42);
  auto s = default_registry().suggestions("logical_devide");
  REQUIRE(!s.empty());
  CHECK(s[0] == "logical_divide");
}
