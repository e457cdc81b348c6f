// Layouts with extents 0 against real CuTe: tests/data/zero_extent_oracle.tsv.
//
// A default-constructed run-time int is 0, and CUTLASS builds layout types with such extents
// (Sm1xxBlockScaledConfig's LayoutSF{} prints (((_32,_4),0),...)) before a kernel fills them in.
// Every operation on them gives CuTe's answer, printed as CuTe prints it (`_0` static, `0` run-time),
// or -- where CuTe itself divides by zero at run time ("fault" in the oracle) -- an error, never a
// crash. (The oracle also holds max_common_*, make_fragment_like, downcast and coshape on run-time
// extents: the static rules these answers hang on.)
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/support/tsv_oracle.hpp"

using namespace cutevis;

namespace {

Value eval_dynamic(const std::string& text) {
  std::vector<Warning> w;
  return evaluate_expression(text, w, Literals::kDynamic);
}

}  // namespace

TEST_CASE("zero extents: every expression gives real CuTe's print, or an error where CuTe faults") {
  const auto oracle = test::tsv_oracle("tests/data/zero_extent_oracle.tsv");
  REQUIRE(oracle.size() >= 90);
  int answers = 0, faults = 0;
  for (const auto& row : oracle) {
    const std::string& expr = row.first;  // (clang 14 cannot CAPTURE a structured binding)
    const std::string& want = row.second;
    CAPTURE(expr);
    if (want == "fault") {
      CHECK_THROWS_AS(eval_dynamic(expr), Error);
      ++faults;
      continue;
    }
    std::string got;
    try {
      got = eval_dynamic(expr).to_cute_string();
    } catch (const Error& e) {
      got = std::string("error: ") + e.what();
    }
    CHECK(got == want);
    ++answers;
  }
  CHECK(faults >= 15);  // shape_div(4, 0), complement(0:1, 8), crd2idx into (0,4), ...
  CHECK(answers >= 75);
}

TEST_CASE("zero extents: a negative extent is still bad input") {
  for (const char* text : {"(4,-2):(1,4)", "make_layout(make_shape(4,-1))", "Layout<Shape<_4,Int<-2>>>{}"}) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(eval_dynamic(text), doctest::Contains("negative extent"), Error);
  }
}
