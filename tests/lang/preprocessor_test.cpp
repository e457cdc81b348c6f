// The conditional preprocessor (lib/lang/preprocessor.hpp) and the scanner reading a file
// through it: the branch a compile with the given macros reads, notes for the branches chosen
// without a value, #define at its own line.
#include <doctest/doctest.h>

#include "lib/error.hpp"
#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/preprocessor.hpp"

using namespace cutevis;

namespace {

const Declaration* named(const std::vector<Declaration>& ds, const std::string& qualified) {
  const Declaration* found = nullptr;
  for (const auto& d : ds)
    if ((d.scope.empty() ? d.name : d.scope + "::" + d.name) == qualified) {
      CHECK_MESSAGE(found == nullptr, qualified << " declared twice");
      found = &d;
    }
  return found;
}

std::string text_of(const CppScan& s, const std::string& name) {
  const Declaration* d = named(s.declarations, name);
  return d ? d->text : "<none>";
}

int64_t value_of(const std::string& e, const std::map<std::string, std::string>& m = {}) {
  ConditionValue v = evaluate_condition(e, m);
  CHECK(v.readable);
  return v.value;
}

}  // namespace

TEST_CASE("preprocessor: conditions as C reads them") {
  CHECK(value_of("1 + 2 * 3 == 7") == 1);
  CHECK(value_of("(1 + 2) * 3") == 9);
  CHECK(value_of("!0 && (3 > 2) || 0") == 1);
  CHECK(value_of("1 ? 10 : 20") == 10);
  CHECK(value_of("0x10 + 010 + 1ul") == 25);
  CHECK(value_of("1 << 4 | 1") == 17);
  CHECK(value_of("-1 < 0") == 1);
  CHECK(value_of("~0 & 0xff") == 255);
  const std::map<std::string, std::string> sm80{{"__CUDA_ARCH__", "800"}};
  CHECK(value_of("defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800", sm80) == 1);
  CHECK(value_of("defined __CUDA_ARCH__ && __CUDA_ARCH__ < 800", sm80) == 0);
  CHECK(value_of("__CUDA_ARCH__ / 100 == 8", sm80) == 1);
  // a macro's value is read in turn; one that names itself stops
  CHECK(value_of("A + 1", {{"A", "B * 2"}, {"B", "(3)"}}) == 7);
  CHECK(value_of("X", {{"X", "X"}}) == 0);
}

TEST_CASE("preprocessor: a macro nothing defines is 0, and is named") {
  ConditionValue v = evaluate_condition("defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 || FOO", {});
  CHECK(v.readable);
  CHECK(v.value == 0);
  CHECK(v.undefined == std::vector<std::string>{"__CUDA_ARCH__", "FOO"});
  ConditionValue has = evaluate_condition("__has_include(<cuda_fp8.h>)", {});
  CHECK(has.value == 0);
  CHECK(has.undefined == std::vector<std::string>{"__has_include"});
  CHECK_FALSE(evaluate_condition("1 +", {}).readable);
  CHECK_FALSE(evaluate_condition("4 / 0", {}).readable);
}

TEST_CASE("preprocessor: --arch spellings") {
  CHECK(arch_macros("sm80").at("__CUDA_ARCH__") == "800");
  CHECK(arch_macros("sm_90a").at("__CUDA_ARCH__") == "900");
  CHECK(arch_macros("SM100").at("__CUDA_ARCH__") == "1000");
  CHECK_THROWS_AS(arch_macros("ampere"), Error);
  CHECK_THROWS_AS(arch_macros("sm"), Error);
}

namespace {
const std::string kArchFile =
    "#pragma once\n"                                                     // 1
    "#define kStages 3\n"                                                // 2
    "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n"               // 3
    "using Mma = MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>;\n"              // 4
    "#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750  // Turing\n"  // 5
    "using Mma = MMA_Atom<SM75_16x8x8_F32F16F16F32_TN>;\n"               // 6
    "#else\n"                                                            // 7
    "using Mma = MMA_Atom<UniversalFMA<float>>;\n"                       // 8
    "#endif\n"                                                           // 9
    "#if kStages > 2\n"                                                  // 10
    "  using Pipe = Shape<_3>;\n"                                        // 11
    "#  if 0\n"                                                          // 12
    "  using Never = Shape<_1>;\n"                                       // 13
    "#  else\n"                                                          // 14
    "  using Nested = Shape<_2>;\n"                                      // 15
    "#  endif\n"                                                         // 16
    "#else\n"                                                            // 17
    "  using Pipe = Shape<_2>;\n"                                        // 18
    "#endif\n"                                                           // 19
    "#ifndef MY_GUARD_H\n"                                               // 20
    "#define MY_GUARD_H\n"                                               // 21
    "#endif\n"                                                           // 22
    "/*\n#if 0\n*/\n"                                                    // 23-25: not a directive
    "using After = Shape<_4>;\n";                                        // 26
}  // namespace

TEST_CASE("preprocessor: the scanner reads the branch the given __CUDA_ARCH__ selects") {
  CppScan sm80 = scan_cpp(kArchFile, "k.cu", arch_macros("sm80"));
  CHECK(text_of(sm80, "Mma") == "MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>");
  CHECK(sm80.notes.empty());
  CppScan sm75 = scan_cpp(kArchFile, "k.cu", {{"__CUDA_ARCH__", "750"}});
  CHECK(text_of(sm75, "Mma") == "MMA_Atom<SM75_16x8x8_F32F16F16F32_TN>");
  CHECK(named(sm75.declarations, "Mma")->line == 6);
  // the file's own #define decides; #if 0 and nested groups; a directive inside a comment is none
  CHECK(text_of(sm80, "Pipe") == "Shape<_3>");
  CHECK(named(sm80.declarations, "Never") == nullptr);
  CHECK(text_of(sm80, "Nested") == "Shape<_2>");
  CHECK(text_of(sm80, "After") == "Shape<_4>");
  // #define at its own line (was line 1 for every #define)
  CHECK(named(sm80.declarations, "kStages")->line == 2);
  CHECK(named(sm80.declarations, "MY_GUARD_H") == nullptr);  // (no value: not a declaration)
}

TEST_CASE("preprocessor: without a value, the host compile's branch and a note that says how to choose") {
  CppScan host = scan_cpp(kArchFile, "k.cu");
  CHECK(text_of(host, "Mma") == "MMA_Atom<UniversalFMA<float>>");
  CHECK(named(host.declarations, "Mma")->line == 8);
  REQUIRE(host.notes.size() == 1);  // the include guard needs none; line 5 joins line 3's note
  CHECK(host.notes[0].line == 3);
  const std::string& m = host.notes[0].message;
  CHECK(m.find("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 is false") != std::string::npos);
  CHECK(m.find("__CUDA_ARCH__ has no value") != std::string::npos);
  CHECK(m.find("(also at line 5)") != std::string::npos);
  CHECK(m.find("--arch sm80 (or -D __CUDA_ARCH__=800)") != std::string::npos);
}

TEST_CASE("preprocessor: #ifdef of an unknown macro, #if without #endif, a condition not understood") {
  CppScan s = scan_cpp(
      "#ifdef USE_FP8\nusing E = float_e4m3_t;\n#else\nusing E = half_t;\n#endif\n"
      "#if 3 +\nusing X = int;\n#endif\n#if 1\nusing Y = Shape<_1>;\n",
      "k.cu");
  CHECK(text_of(s, "E") == "half_t");
  CHECK(named(s.declarations, "X") == nullptr);
  CHECK(text_of(s, "Y") == "Shape<_1>");
  REQUIRE(s.notes.size() == 3);
  CHECK(s.notes[0].line == 1);
  CHECK(s.notes[0].message.find("#ifdef USE_FP8 is false") != std::string::npos);
  CHECK(s.notes[0].message.find("-D USE_FP8=1") != std::string::npos);
  CHECK(s.notes[1].line == 6);
  CHECK(s.notes[1].message.find("not a condition") != std::string::npos);
  CHECK(s.notes[2].line == 9);
  CHECK(s.notes[2].message == "#if without #endif");
  // -D wins over the file's #define, as the scanner's declarations do
  CppScan given = scan_cpp("#define N 2\n#if N == 4\nusing Z = Shape<_4>;\n#endif\n", "k.cu", {{"N", "4"}});
  CHECK(text_of(given, "Z") == "Shape<_4>");
}

// issue 23.2: bounded on hostile files (each was quadratic or exponential before).
TEST_CASE("preprocessor: hostile files are bounded: macro expansion, long conditions, many notes") {
  // #define M1 (M0+M0) ... M40: 2^40 expansions; past the budget the condition is unreadable
  std::string chain = "#define M0 1\n";
  for (int i = 1; i <= 40; ++i)
    chain += "#define M" + std::to_string(i) + " (M" + std::to_string(i - 1) + "+M" + std::to_string(i - 1) + ")\n";
  CppScan s =
      scan_cpp(chain + "#if M40\nusing X = Shape<_1>;\n#endif\n#if M4 == 16\nusing Y = Shape<_2>;\n#endif\n", "k.cu");
  CHECK(named(s.declarations, "X") == nullptr);
  CHECK(text_of(s, "Y") == "Shape<_2>");  // a small expansion still reads
  REQUIRE(s.notes.size() == 1);
  CHECK(s.notes[0].message.find("#if M40: not a condition cutevis can read") != std::string::npos);

  // one condition naming 1,000 macros: its note names 8 and counts the rest, and quotes the
  // condition shortened with its length
  std::string wide = "#if A0";
  for (int i = 1; i < 1000; ++i) wide += " || A" + std::to_string(i);
  s = scan_cpp(wide + "\n#endif\n", "k.cu");
  REQUIRE(s.notes.size() == 1);
  const std::string& m = s.notes[0].message;
  CHECK(m.find("A0, A1, A2, A3, A4, A5, A6, A7 and 992 more have no value") != std::string::npos);
  CHECK(m.find("[" + std::to_string(wide.size() - 4) + " bytes]") != std::string::npos);
  CHECK(m.size() < 600);

  // 3,000 conditions on distinct macros: 100 notes, then how many more; 20 on one macro:
  // one note, its other lines listed up to 8
  std::string many, same;
  for (int i = 0; i < 3000; ++i) many += "#ifdef F" + std::to_string(i) + "\n#endif\n";
  for (int i = 0; i < 20; ++i) same += "#ifdef G\n#endif\n";
  s = scan_cpp(many, "k.cu");
  REQUIRE(s.notes.size() == 101);
  CHECK(s.notes.back().message == "2900 more notes like these in this file (not listed)");
  s = scan_cpp(same, "k.cu");
  REQUIRE(s.notes.size() == 1);
  CHECK(s.notes[0].message.find("(also at lines 3, 5, 7, 9, 11, 13, 15, 17 and 11 more)") != std::string::npos);

  // a directive continued over many lines, and one full of comments: read as one line
  s = scan_cpp("#define LONG 1 \\\n + 1 \\\n + 1\n#if 1 /* a */ && /* b */ 1 // c\nusing Z = Shape<_3>;\n#endif\n",
               "k.cu");
  CHECK(text_of(s, "Z") == "Shape<_3>");
  CHECK(s.notes.empty());
}

TEST_CASE("#include: the directive read, and the scanner's hook sees the macros and changes them") {
  std::string name;
  bool angled = false;
  CHECK(include_directive(" include \"cutlass/arch/arch.h\"", name, angled));
  CHECK(name == "cutlass/arch/arch.h");
  CHECK_FALSE(angled);
  CHECK(include_directive("include <cute/tensor.hpp>", name, angled));
  CHECK(name == "cute/tensor.hpp");
  CHECK(angled);
  CHECK_FALSE(include_directive("include MACRO_HEADER", name, angled));  // computed: not followed
  CHECK_FALSE(include_directive("define X 1", name, angled));

  std::vector<std::string> seen;
  const IncludeHook hook = [&](const std::string& header, bool, int line, std::map<std::string, std::string>& m) {
    seen.push_back(header + ":" + std::to_string(line) + (m.count("BEFORE") ? " BEFORE" : ""));
    m["FROM_HEADER"] = "1";  // as the header's #define would
  };
  const char* text =
      "#define BEFORE 1\n#include \"a.h\"\n#if FROM_HEADER\nusing L = Shape<_1>;\n#else\nusing L = Shape<_2>;\n#endif\n"
      "#if 0\n#include \"skipped.h\"\n#endif\n";
  CppScan s = scan_cpp(text, "k.cu", {}, &hook);
  CHECK(seen == std::vector<std::string>{"a.h:2 BEFORE"});  // (not the one in #if 0)
  REQUIRE(s.declarations.size() >= 1);
  bool found = false;
  for (const auto& d : s.declarations)
    if (d.name == "L") found = d.text == "Shape<_1>";
  CHECK(found);
  CHECK(s.macros.count("FROM_HEADER"));
  // -D wins over what a header defines
  CppScan given = scan_cpp(text, "k.cu", {{"FROM_HEADER", "0"}}, &hook);
  for (const auto& d : given.declarations)
    if (d.name == "L") CHECK(d.text == "Shape<_2>");
}
