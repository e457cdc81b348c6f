// "Did you mean": a mistyped option of any command, and an undefined name that is a typo of
// a declared name (--from, -D) or of one of CuTe's.
#include <doctest/doctest.h>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;

namespace {

const std::string kHeader = std::string(CUTEVIS_SOURCE_DIR) + "/samples/sm90_collective_config.hpp";

// The lines of `text`.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  if (start < text.size()) out.push_back(text.substr(start));
  return out;
}

}  // namespace

TEST_CASE("a mistyped option: one line naming the option it is nearest, exit 2, for any command") {
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"names", "--form", kHeader}, "cutevis: error: unknown option '--form'; did you mean '--from'?\n"},
      {{"names", "--form=" + kHeader}, "cutevis: error: unknown option '--form'; did you mean '--from'?\n"},
      {{"eval", "--form", kHeader, "TileShape{}"}, "cutevis: error: unknown option '--form'; did you mean '--from'?\n"},
      {{"mma", "SM80_16x8x16_F32F16F16F32_TN", "--svgg"},
       "cutevis: error: unknown option '--svgg'; did you mean '--svg'?\n"},  // an option group's flag
      {{"atom", "SM80_16x8x16_F32F16F16F32_TN", "--jsn"},
       "cutevis: error: unknown option '--jsn'; did you mean '--json'?\n"},
      {{"eval", "-d", "bM=4", "bM"}, "cutevis: error: unknown option '-d'; did you mean '-D'?\n"},
  };
  for (const auto& c : cases) {
    auto r = test::run_cutevis(c.args);
    CAPTURE(c.args[1]);
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.out.empty());
    CHECK(r.err == c.expected);
  }
}

TEST_CASE("an option nothing is near: no suggestion, the command's --help named; other extras as before") {
  auto r = test::run_cutevis({"layout", "--xyzzy", "(4,8):(1,4)"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err == "cutevis: error: unknown option '--xyzzy' (see cutevis layout --help)\n");
  r = test::run_cutevis({"eval", "4:1", "5:1"});  // a second expression is not an option
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("not expected: 5:1") != std::string::npos);
  CHECK(r.err.find("did you mean") == std::string::npos);
}

TEST_CASE("an undefined name that is a typo of a declared one: did you mean, declared names first") {
  auto r = test::run_cutevis({"mma", "--from", kHeader, "TiledMmma"});
  CHECK(r.exit_code == kExitBadInput);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].rfind("cutevis: error: undefined name 'TiledMmma'; did you mean 'TiledMma'", 0) == 0);
  CHECK(lines[1] == "  TiledMmma");
  CHECK(lines[2] == "  ^");
  CHECK(lines[3] == "  give it: -D TiledMmma=...");

  // a -D name; the nearest only (bm is bM, not CuTe's C or S, two edits away)
  r = test::run_cutevis({"eval", "-D", "bM=128", "Int<bm>{}"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(lines_of(r.err).at(0) == "cutevis: error: undefined name 'bm'; did you mean 'bM'?");

  // several: one line after the carets names each typo's nearest
  r = test::run_cutevis({"eval", "--from", kHeader, "make_layout(SmemLayotA{}, bN2)"});
  CHECK(r.exit_code == kExitBadInput);
  lines = lines_of(r.err);
  REQUIRE(lines.size() == 7);
  CHECK(lines[0] == "cutevis: error: 2 undefined names: SmemLayotA, bN2");
  CHECK(lines[5] == "  did you mean 'SmemLayoutA' for 'SmemLayotA' and 'bN' for 'bN2'?");
  CHECK(lines[6] == "  give them: -D SmemLayotA=... -D bN2=...");

  // nothing near: the message as before
  r = test::run_cutevis({"eval", "--from", kHeader, "make_layout(xyzzy, 4)"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("did you mean") == std::string::npos);
  CHECK(lines_of(r.err).at(0) == "cutevis: error: undefined name 'xyzzy'");
}
