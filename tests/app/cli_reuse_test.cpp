// One parser for many command lines (cli_main_reused, what the page runs): every line answers
// as a fresh process's cli_main answers it, whatever the lines before it set -- a format flag,
// -D, --threads, --thread, --json, -o, a parse error.  The app's own main.cpp, compiled here under
// another name (as web/cli_main.cpp compiles it for the page), its output caught by the capture
// `cutevis docs` uses.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#define main cutevis_cli_main_under_test
#include "app/main.cpp"  // NOLINT(bugprone-suspicious-include)
#include "tests/support/cli_answer.hpp"
#undef main

namespace {

using Answer = test::CliAnswer;

Answer answer(int (*entry)(int, char**), std::vector<std::string> words) {
  words.insert(words.begin(), "cutevis");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  Answer a{0, {}, {}};
  capture = Capture{&a.out, &a.err};
  a.code = entry(static_cast<int>(words.size()), argv.data());
  capture = Capture{};
  return a;
}
Answer fresh(const std::vector<std::string>& words) { return answer(cli_main, words); }
Answer reused(const std::vector<std::string>& words) { return answer(cli_main_reused, words); }

}  // namespace

TEST_CASE("a reused parser answers each line as a fresh one: nothing leaks from the line before") {
  // Pairs: the first line sets something the second must not see.
  const std::vector<std::vector<std::string>> lines = {
      {"layout", "(4,8):(1,4)", "--svg", "--threads", "0,1", "--color-by", "index", "--scale", "2"},
      {"layout", "(4,8):(1,4)"},           // a text table, not the SVG, no highlighted threads
      {"layout", "(4,8):(1,4)", "--svg"},  // the SVG, coloured as by default, no threads faded
      {"eval", "make_layout(make_shape(Int<X>{}, 2))", "-D", "X=4"},
      {"eval", "make_layout(make_shape(Int<X>{}, 2))"},  // X is open again: an error
      {"eval", "(4,8):(1,4)", "--json"},
      {"eval", "(4,8):(1,4)"},  // text, not JSON
      {"atom", "SM80_16x8x16_F32F16F16F32_TN", "--thread", "5"},
      {"atom", "SM80_16x8x16_F32F16F16F32_TN"},  // the whole atom, not thread 5's slice
      {"tv", "((4,8),4):((8,1),32)", "(8,16)", "--txt", "--banks", "--element-bits", "32"},
      {"tv", "((4,8),4):((8,1),32)", "(8,16)", "--txt"},
      {"layout", "(4,8):(1,4)", "--svgg"},  // a parse error ...
      {"layout", "(4,8):(1,4)", "--txt"},   // ... leaves nothing behind
      {"list", "SM80_16x8x16_F32F16F16F32*", "--json"},
      {"list", "SM80_16x8x16_F32F16F16F32*"},
      {"eval", "cute.make_layout((4, 8), stride=(1, 4))", "--dsl"},
      {"eval", "(4,8):(1,4)"},
  };
  std::vector<Answer> expected;
  for (const auto& words : lines) expected.push_back(fresh(words));
  // the pairs differ, so an option left over from the line before would show
  CHECK(expected[0].out != expected[1].out);
  CHECK(expected[1].out != expected[2].out);
  CHECK(expected[0].out != expected[2].out);
  CHECK(expected[3].code == kExitOk);
  CHECK(expected[4].code == kExitBadInput);
  CHECK(expected[5].out != expected[6].out);
  CHECK(expected[7].out != expected[8].out);
  CHECK(expected[9].out != expected[10].out);
  CHECK(expected[11].code == kExitBadInput);
  CHECK(expected[13].out != expected[14].out);
  for (int round = 0; round < 2; ++round)  // the second round starts after everything the first set
    for (size_t i = 0; i < lines.size(); ++i) {
      CAPTURE(i);
      CHECK(reused(lines[i]) == expected[i]);
    }
}

TEST_CASE("a reused parser's help and errors are a fresh one's") {
  // a fresh page-style parser builds every command's flags too (no command named)
  for (const std::vector<std::string>& words :
       std::vector<std::vector<std::string>>{{"atom", "SM80_16x8x16_F32F16F16F32_TN", "--colour-by", "warp"},
                                             {"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--atoms", "(2,2,1)"},
                                             {"mma", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})", "--atoms",
                                              "(2,2,1)"},  // --atoms without --atom: an error
                                             {"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN"},
                                             {"evl", "1"},
                                             {"eval", "1", "-o", "x.jpg"},
                                             {"eval", "1"}}) {
    CAPTURE(words[0]);
    CHECK(reused(words) == fresh(words));
  }
}

// tests/app/cli_lite_test.cpp compares app/cli_lite's answers with CLI11's: this file's parser,
// fresh and reused.
int cli11_main_for_test(int argc, char** argv) { return cli_main(argc, argv); }
int cli11_main_reused_for_test(int argc, char** argv) { return cli_main_reused(argc, argv); }
