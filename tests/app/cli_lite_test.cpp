// app/cli_lite (the page's parser) answers every command line as CLI11 (the native cutevis's)
// does: app/main.cpp compiled here with CUTEVIS_CLI_LITE, under other names, beside
// tests/app/cli_reuse_test.cpp's CLI11 build; each line's exit code, stdout and stderr (the file
// descriptors, as a process writes them: --help goes to stdout) compared byte for byte.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#define CUTEVIS_CLI_LITE 1
#define main cutevis_cli_main_lite
#define cli_main cli_main_lite
#define cli_main_reused cli_main_reused_lite
#include "app/main.cpp"  // NOLINT(bugprone-suspicious-include)
#include "tests/support/cli_answer.hpp"
#undef main
#undef cli_main
#undef cli_main_reused

int cli11_main_for_test(int argc, char** argv);  // tests/app/cli_reuse_test.cpp
int cli11_main_reused_for_test(int argc, char** argv);

namespace {

using Answer = test::CliAnswer;

// For its lifetime the working folder is a fresh one: the random lines write files ("-o 7").
struct InFreshFolder {
  std::filesystem::path before = std::filesystem::current_path(), folder;
  InFreshFolder()
      : folder(std::filesystem::temp_directory_path() / ("cutevis_cli_lite_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(folder);
    std::filesystem::current_path(folder);
  }
  ~InFreshFolder() {
    std::error_code ec;
    std::filesystem::current_path(before, ec);
    std::filesystem::remove_all(folder, ec);
  }
  InFreshFolder(const InFreshFolder&) = delete;
  InFreshFolder& operator=(const InFreshFolder&) = delete;
};

std::string read_all(std::FILE* f) {
  std::string bytes;
  std::rewind(f);
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) bytes.append(buffer, n);
  std::fclose(f);
  return bytes;
}

// ENTRY run on "cutevis WORDS...", its stdout and stderr caught at the file descriptors.
Answer answer(int (*entry)(int, char**), std::vector<std::string> words) {
  words.insert(words.begin(), "cutevis");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  REQUIRE((out && err));
  const int saved_out = dup(1), saved_err = dup(2);
  dup2(fileno(out), 1);
  dup2(fileno(err), 2);
  Answer a{entry(static_cast<int>(words.size()), argv.data()), {}, {}};
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  a.out = read_all(out);
  a.err = read_all(err);
  return a;
}

const std::vector<std::vector<std::string>>& lines() {
  static const std::vector<std::vector<std::string>> all = [] {
    std::vector<std::vector<std::string>> v = {
        // help and version, every way they are asked for
        {"--help"},
        {"-h"},
        {"help"},
        {"--version"},
        {"version"},
        {"help", "lyout"},
        {"layout", "x", "-h"},
        {"eval", "--help", "x"},
        {"--help", "layout"},
        {"layout", "-hx"},
        {"layout", "(4,8):(1,4)", "-h", "--scale", "x"},  // a value that does not convert wins over --help
        // commands and options that are not there
        {},
        {"lyout"},
        {"unknowncmd"},
        {"--json"},
        {"-x"},
        {"-x", "layout", "y"},
        {"layout", "x", "--svgg"},
        {"layout", "x", "-q"},
        {"layout", "x", "--svgg=3"},
        {"eval", "x", "--scale", "2"},
        // positionals: missing, too many, after --, a command's name as a value
        {"layout"},
        {"eval"},
        {"docs"},
        {"layout", "a", "b"},
        {"layout", "a", "b", "c"},
        {"eval", "x", "layout", "y"},
        {"layout", "--", "-x"},
        {"layout", "(4,8):(1,4)", "--", "--svg"},
        {"layout", "--", "(4,8):(1,4)", "b"},
        {"eval", "list"},
        {"tv", "((4,8),4):((8,1),32)"},
        {"layout", "---x"},
        {"layout", "--=x"},
        {"layout", "-"},
        {"eval", ""},
        {"layout", "(4,8):(1,4)", "--svg", "--", "--png"},
        {"layout", "(4,8):(1,4)", "-o", "-"},
        {"layout", "(4,8):(1,4)", "-h", "--help"},
        {"--version", "--version"},
        {"atom", "SM80_16x8x16_F32F16F16F32_TN", "--cell=", "", "--scale", ""},
        {"layout", "X", "", "--output=-"},  // CLI11 2.1 never returned from this one (an option group)
        // values: missing, repeated, not converting, attached, negative, in another base
        {"layout", "(4,8):(1,4)", "--scale"},
        {"layout", "(4,8):(1,4)", "--scale", "abc"},
        {"layout", "(4,8):(1,4)", "--scale", "2", "--scale", "3"},
        {"layout", "(4,8):(1,4)", "--scale=--svg"},
        {"layout", "(4,8):(1,4)", "--scale", "--svg"},
        {"layout", "(4,8):(1,4)", "--svg", "--scale", "2e0"},
        {"layout", "(4,8):(1,4)", "--scale="},
        {"tv", "((4,8),4):((8,1),32)", "(8,16)", "--txt", "--element-bits", "3.5"},
        {"tv", "((4,8),4):((8,1),32)", "(8,16)", "--txt", "--banks", "--element-bits", "0x20"},
        {"atom", "SM80_16x8x16_F32F16F16F32_TN", "--thread", "-5"},
        {"atom", "SM80_16x8x16_F32F16F16F32_TN", "--thread", "x"},
        {"atom", "SM80_16x8x16_F32F16F16F32_TN", "--thread", "1", "--thread", "2"},
        {"atom", "SM80_16x8x16_F32F16F16F32_TN", "--thread=3"},
        {"atom", "SM80_16x8x16_F32F16F16F32_TN", "--thread"},
        {"atom", "SM80_16x8x16_F32F16F16F32_TN", "--thread", "99999999999999999999"},
        {"desc", "0x4000004000010000", "--mn", "1.5"},
        {"tmem", "--cta-group", "x"},
        {"batch", "--jobs", "x", "s.json"},
        {"batch", "-j", "2000", "s.json"},
        // flags: with values, repeated, more than one of a group
        {"layout", "(4,8):(1,4)", "--json=maybe"},
        {"layout", "(4,8):(1,4)", "--json=false", "--txt"},
        {"layout", "(4,8):(1,4)", "--txt=1"},
        {"layout", "(4,8):(1,4)", "--txt", "--txt"},
        {"layout", "(4,8):(1,4)", "--txt=no"},
        {"layout", "(4,8):(1,4)", "--svg", "--png"},
        {"layout", "(4,8):(1,4)", "--svg", "--png", "--tex"},
        {"layout", "(4,8):(1,4)", "--json", "--svg"},
        // lists: one value per -D / --from, several per --also
        {"eval", "make_layout(make_shape(Int<X>{}, Int<Y>{}))", "-D", "X=4", "-DY=2"},
        {"eval", "make_layout(make_shape(Int<X>{}, 2))", "-D", "X=4", "extra"},
        {"layout", "--from"},
        {"layout", "--from", "a.hpp", "--from"},
        {"eval", "-D"},
        {"copy", "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_32,_1>>{})", "--also", "A",
         "B", "C"},
        {"copy", "--also", "A", "B",
         "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_32,_1>>{})"},
        {"copy", "--also", "[a,b]"},
        {"mma", "--also", "A", "--", "-x"},
        // answers, to be sure the values reach the commands
        {"eval", "composition((4,8):(1,4),(2,2):(1,2))"},
        {"eval", "(4,8):(1,4)", "--json"},
        {"layout", "(4,8):(1,4)", "--txt", "--threads", "0,1", "--color-by", "index"},
        {"layout", "(2,2):(1,2)", "--svg", "--scale", "2", "--cell", "30", "--style", "default"},
        {"mma", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--atoms", "(2,2,1)"},
        {"mma", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})", "--atoms", "(2,2,1)"},
        {"list", "SM80_16x8x16*"},
        {"list", "--arch", "sm90", "SM90_64x8x16_F32F16F16_SS*", "--json"},
        {"eval", "(4,8):(1,4)", "-o"},
        {"eval", "(4,8):(1,4)", "--output=x.jpg"},
        {"eval", "(4,8):(1,4)", "-ox.jpg"},
        {"eval", "cute.make_layout((4, 8), stride=(1, 4))", "--dsl"},
        {"dsl", "x.py", "--call", "y", "--whatever"},
    };
    // every command's help, both ways
    for (const char* c : {"eval", "layout", "tv", "atom", "mma", "copy", "desc", "tmem", "dsl", "list", "verify",
                          "names", "check", "batch", "docs"}) {
      v.push_back({"help", c});
      v.push_back({c, "--help"});
    }
    return v;
  }();
  return all;
}

}  // namespace

TEST_CASE("the page's parser (app/cli_lite) answers every line as CLI11 does, byte for byte") {
  int differ = 0;
  for (const auto& words : lines()) {
    std::string line;
    for (const auto& w : words) line += " '" + w + "'";
    CAPTURE(line);
    const Answer cli11 = answer(cli11_main_for_test, words);
    const Answer lite = answer(cli_main_lite, words);
    CHECK(lite == cli11);
    differ += !(lite == cli11);
    // and reused, as the page runs it: nothing carried over from the line before (but the
    // program's name, which `help` prints once a line has been parsed: CLI11 keeps it too)
    CHECK(answer(cli_main_reused_lite, words) == answer(cli11_main_reused_for_test, words));
  }
  CHECK(differ == 0);
}

TEST_CASE("the comparison can fail: the lines cover help, errors and answers") {
  // the lines are not all one answer: some succeed, some are refused, some print help
  int ok = 0, refused = 0, help = 0;
  for (const auto& words : lines()) {
    const Answer a = answer(cli11_main_for_test, words);
    ok += a.code == 0 && !a.out.empty() && a.out.find("Usage:") == std::string::npos;
    refused += a.code == 2 && a.err.find("cutevis: error:") == 0;
    help += a.out.find("Usage:") != std::string::npos;
  }
  CHECK(ok >= 10);
  CHECK(refused >= 40);
  CHECK(help >= 30);
}

TEST_CASE("the page's parser and CLI11 agree on 3,000 random command lines") {
  // words drawn from the flags, values and markers the parse turns on; a generator the test owns
  // (the lines are the same on every standard library)
  // (commands whose answers are quick: list's whole catalogue would take most of the time)
  const std::vector<std::string> commands = {"eval", "layout", "tv", "atom", "mma", "copy", "desc"};
  const std::vector<std::string> words = {"--svg",
                                          "--txt",
                                          "--json",
                                          "--json=false",
                                          "--png",
                                          "-h",
                                          "--help",
                                          "--version",
                                          "--scale",
                                          "--scale=2",
                                          "2",
                                          "-5",
                                          "x",
                                          "--thread",
                                          "--thread=1",
                                          "7",
                                          "-D",
                                          "-DX=4",
                                          "X=4",
                                          "--from",
                                          "--",
                                          "-",
                                          "--also",
                                          "--atoms",
                                          "(2,2,1)",
                                          "--atom",
                                          "SM80_16x8x16_F32F16F16F32_TN",
                                          "(4,8):(1,4)",
                                          "(8,16)",
                                          "--color-by",
                                          "warp",
                                          "-o",
                                          "--output=-",
                                          "--svgg",
                                          "-q",
                                          "layout",
                                          "--threads",
                                          "0,1",
                                          "[a,b]",
                                          "--element-bits",
                                          "0x10",
                                          "--cell=",
                                          "--mn",
                                          "1.5",
                                          "--tex",
                                          "--",
                                          "--arch",
                                          "sm80",
                                          "-I",
                                          "--include",
                                          "--dsl",
                                          "--who",
                                          "A(1,1)",
                                          ""};
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&state](size_t n) {  // splitmix64
    state += 0x9e3779b97f4a7c15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<size_t>((z ^ (z >> 31)) % n);
  };
  int differ = 0, refused = 0;
  const InFreshFolder fresh;
  for (int i = 0; i < 3000; ++i) {
    std::vector<std::string> line = {commands[next(commands.size())]};
    for (size_t n = next(6); n > 0; --n) line.push_back(words[next(words.size())]);
    const Answer cli11 = answer(cli11_main_for_test, line);
    const Answer lite = answer(cli_main_lite, line);
    refused += cli11.code == 2;
    if (!(lite == cli11) && differ++ < 5) {
      std::string shown;
      for (const auto& w : line) shown += " '" + w + "'";
      CAPTURE(shown);
      CHECK(lite == cli11);
    }
  }
  CHECK(differ == 0);
  CHECK(refused > 600);  // the lines reach the errors, not only answers
}
