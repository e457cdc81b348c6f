// What C++ computes at compile time beyond if-constexpr chains (lib/lang/functions.cpp, lib/lang/floating.hpp):
// for / while / do loops with break and continue, compound assignments and increments on locals, CuTe's
// round_up, and floating values (literals, casts both ways, half_t and bfloat16_t rounding).
//
// tests/data/kernels/constexpr_loops.hpp is hand-written in the style of CUTLASS's integer helpers and FA3's
// backward traits; its expected values are what g++ and real CuTe computed for the same file
// (constexpr_loops_oracle.tsv beside it, outputs only).
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "lib/lang/floating.hpp"
#include "tests/support/lang_env.hpp"
#include "tests/support/tsv_oracle.hpp"

using namespace cutevis;

namespace {

using test::error_of;
using test::eval_in;
using test::load;

std::unique_ptr<Environment> loops_file() {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/constexpr_loops.hpp");
  std::stringstream text;
  text << in.rdbuf();
  return load(text.str());
}

const std::map<std::string, std::string>& oracle() {
  static const auto rows = test::tsv_oracle("tests/data/kernels/constexpr_loops_oracle.tsv");
  return rows;
}

// Each name's value, as CuTe prints it, against the oracle's row of the same name.
void check_names(Environment& env, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    CAPTURE(name);
    REQUIRE(oracle().count(name) == 1);
    CHECK(eval_in(env, std::string("my_attn::") + name) == oracle().at(name));
  }
}

// The same for a `constexpr int` initialized from a static value (sizeof(T), X::value): cutevis does not read
// a declaration's type, so it keeps the value static (_8) where C++ holds it in an int (8): the number is checked.
void check_numbers(Environment& env, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    CAPTURE(name);
    REQUIRE(oracle().count(name) == 1);
    std::string got = eval_in(env, std::string("my_attn::") + name);
    if (got.size() > 1 && got[0] == '_') got.erase(0, 1);
    CHECK(got == oracle().at(name));
  }
}

}  // namespace

TEST_CASE("constexpr loops: for, while, do, break, continue and every compound assignment, as g++ computes them") {
  auto env = loops_file();
  check_names(*env, {"kGcd", "kLcm", "kLog2", "kLeadingZeros", "kMixed", "kCappedSum", "kDigits"});
  // a local assigned inside a block keeps its value after it; one declared there does not outlive it
  auto small = load(
      "constexpr int f(int n) { int total = 0; { int total2 = 5; total = total2; } for (int i = 0; i < n; ++i) { "
      "int total = 100; (void)total; } return total; }\n"
      "constexpr int g(int n) { int k = 1; while (true) { k *= 2; if (k >= n) break; } return k; }\n");
  CHECK(eval_in(*small, "f(3)") == "5");
  CHECK(eval_in(*small, "g(100)") == "128");
}

TEST_CASE("constexpr loops in a struct template: an FA3-style gcd of threads, CuTe's round_up in a stride") {
  auto env = loops_file();
  check_names(*env, {"Traits80::kGmemThreadsPerRow", "Traits80::GmemLayoutAtom", "Traits80::SmemLayoutLSE",
                     "Traits80::SmemLayoutLSEMma", "Traits80::kLog2Threads", "Traits64::kGmemThreadsPerRow",
                     "Traits64::GmemLayoutAtom", "Traits64::SmemLayoutLSE", "kRoundUp", "RoundUpShape", "RowsLayout"});
  check_numbers(*env, {"Traits80::kGmemElemsPerStore", "kRoundUpStatic"});
  // round_up of static integers is static, as CuTe's arithmetic keeps it
  CHECK(eval_in(*env, "cute::round_up(Int<200>{}, Int<64>{})") == "_256");
  CHECK(error_of(*env, "cute::round_up(make_shape(Int<3>{}, Int<5>{}), 4)").find("two integers or two tuples") !=
        std::string::npos);
}

TEST_CASE("floating values: literals, casts both ways, half_t and bfloat16_t rounded as CUTLASS rounds them") {
  auto env = loops_file();
  check_numbers(*env, {"kAlphaBits"});
  check_names(*env, {"alpha", "beta", "kScale", "kScaleDouble", "kTwo", "kNegInf", "kTruncated", "kTruncatedNeg",
                     "kScaledRows", "kScaleSmall", "kMixedSum", "kHalfRounded", "kHalfSum", "kHalfOverflow",
                     "kHalfPlusBf16", "kBf16FromInt", "kBf16FromFloat", "SmemRows", "kTenths"});
  CHECK(eval_in(*env, "my_attn::Alpha") == "half_t");  // decltype(alpha): its type
  // the exact value each type holds (0.1f is not 0.1), as %.17g prints it
  for (const char* name : {"kTenths", "kScale", "kMixedSum", "kHalfSum", "kScaleDouble"}) {
    CAPTURE(name);
    Value v = env->evaluate(parse_expression(std::string("my_attn::") + name), name, default_registry());
    const FloatingValue* f = floating_of(v);
    REQUIRE(f != nullptr);
    char exact[64];
    std::snprintf(exact, sizeof exact, "%.17g", f->value());
    CHECK(exact == oracle().at(std::string("exact.") + name));
  }
  // what C++ does not compute is an error, never a guess
  CHECK(error_of(*env, "int(1e30f)").find("outside the range of int32_t") != std::string::npos);
  CHECK(error_of(*env, "my_attn::kScale % 2").find("operator % needs integers") != std::string::npos);
  CHECK(error_of(*env, "my_attn::kScale / 0").find("division by zero") != std::string::npos);
  CHECK(error_of(*env, "1.0L").find("long double") != std::string::npos);
  CHECK(error_of(*env, "tfloat32_t(0.1f)").find("only the values it holds exactly") != std::string::npos);
  CHECK(eval_in(*env, "tfloat32_t(0.5f)") == "0.500000");
}

TEST_CASE("a loop that does not end is an error at the loop, not a hang; what cutevis does not run says so") {
  auto env = loops_file();
  const auto start = std::chrono::steady_clock::now();
  const std::string spin = error_of(*env, "my_attn::util::spin(1)");
  CHECK(spin.find("k.cu:92: the 'while' loop in spin ran past 262144 iterations") == 0);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));  // bounded, even under a sanitizer
  auto bad = load(
      "constexpr int outside(int x) { break; return x; }\n"
      "constexpr int ranged(int x) { for (int v : x) {} return x; }\n"
      "constexpr int global_write(int x) { kGlobal = x; return x; }\n"
      "constexpr int kGlobal = 1;\n"
      "constexpr int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n");
  CHECK(error_of(*bad, "outside(1)") == "k.cu:1: 'break' outside a loop in outside");
  CHECK(error_of(*bad, "ranged(1)").find("not a range-based for") != std::string::npos);
  CHECK(eval_in(*bad, "fib(10)") == "55");
  CHECK(error_of(*bad, "fib(40)").find("more than 16384 calls of the sources' functions in one evaluation (fib)") !=
        std::string::npos);  // a recursion under 64 deep that would take 2^40 calls
  CHECK(error_of(*bad, "global_write(1)").find("assigns only to a local or a parameter of global_write") !=
        std::string::npos);
}
