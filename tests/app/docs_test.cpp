// `cutevis docs FILE.md... [--check]`: the ```cutevis blocks of Markdown files,
// drawn by this binary and compared byte for byte; --check is the CI gate (exit 1,
// nothing written).  The README's own pictures must be up to date.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/docs.hpp"
#include "app/exit_codes.hpp"
#include "lib/error.hpp"
#include "tests/support/reference.hpp"
#include "tests/support/run.hpp"
#include "tests/support/scratch.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

// A scratch folder named for this file's tests (tests/support/scratch.hpp).
struct Scratch : test::Scratch {
  Scratch() : test::Scratch("cutevis_docs") {}
};

}  // namespace

TEST_CASE("docs: blocks, continuations, comments and quotes; other fences left alone") {
  const std::string md =
      "# Title\n"
      "```sh\ncutevis atom X -o not-ours.svg\n```\n"
      "```cutevis\n"
      "# a comment\n"
      "\n"
      "cutevis atom SM70_8x8x4_F32F16F16F32_NT -o pics/a.png\n"
      "mma 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})' \\\n"
      "    --threads \"0-3,32\" -o ../b.svg\n"
      "```\n";
  const auto cmds = docs_commands(md, "docs/guide.md");
  REQUIRE(cmds.size() == 2);
  CHECK(cmds[0].args == std::vector<std::string>{"atom", "SM70_8x8x4_F32F16F16F32_NT", "-o", "pics/a.png"});
  CHECK(cmds[0].path == "docs/pics/a.png");
  CHECK(cmds[0].line == 8);
  CHECK(cmds[1].args[1] == "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})");
  CHECK(cmds[1].args[3] == "0-3,32");
  CHECK(cmds[1].path == "b.svg");
  CHECK(cmds[1].line == 9);
  CHECK(split_command_line(R"(a 'b c' "d \"e\"" f\ g)") == std::vector<std::string>{"a", "b c", "d \"e\"", "f g"});

  CHECK_THROWS_WITH_AS(docs_commands("```cutevis\natom X --svg\n```\n", "r.md"),
                       doctest::Contains("r.md:2: a docs command writes a file"), Error);
  CHECK_THROWS_WITH_AS(docs_commands("```cutevis\natom X -o a.svg\n", "r.md"),
                       doctest::Contains("r.md:1: the ```cutevis block is not closed"), Error);
  CHECK_THROWS_WITH_AS(docs_commands("```cutevis\natom 'X -o a.svg\n```\n", "r.md"), doctest::Contains("unterminated"),
                       Error);
}

TEST_CASE("cutevis docs: writes what is missing or stale; --check lists it, writes nothing and exits 1") {
  Scratch s;
  const std::string md = s.write("guide.md",
                                 "Pictures:\n\n```cutevis\n"
                                 "atom SM70_8x8x4_F32F16F16F32_NT -o pics/sm70.png\n"
                                 "layout '(4,8):(1,4)' -o pics/layout.svg\n"
                                 "```\n");
  auto r = test::run_cutevis({"docs", md, "--check"});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("missing: " + s / "pics/sm70.png" + " (" + md + ":4)") != std::string::npos);
  CHECK(r.out.find("missing: " + s / "pics/layout.svg") != std::string::npos);
  CHECK(!fs::exists(s / "pics"));

  r = test::run_cutevis({"docs", md});
  REQUIRE_MESSAGE(r.exit_code == kExitOk, r.err);
  CHECK(r.out.find("2 written") != std::string::npos);
  CHECK(test::read_file(s / "pics/sm70.png").rfind("\x89PNG", 0) == 0);
  CHECK(test::run_cutevis({"docs", md, "--check"}).exit_code == kExitOk);

  std::ofstream(s / "pics/layout.svg") << "hand-edited";
  r = test::run_cutevis({"docs", md, "--check"});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("stale: " + s / "pics/layout.svg") != std::string::npos);
  CHECK(r.out.find("sm70.png") == std::string::npos);
  CHECK(test::read_file(s / "pics/layout.svg") == "hand-edited");

  const std::string bad = s.write("bad.md", "```cutevis\nlayout '(4,8):(1,4,2)' -o x.svg\n```\n");
  r = test::run_cutevis({"docs", bad});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("bad.md:2") != std::string::npos);
  CHECK(r.err.find("not congruent") != std::string::npos);
}

TEST_CASE("cutevis docs --check: the README's pictures are those the code draws") {
  const std::string readme = std::string(CUTEVIS_SOURCE_DIR) + "/README.md";
  const auto r = test::run_cutevis({"docs", readme, "--check"});
  CHECK_MESSAGE(r.exit_code == kExitOk, std::string(r.out + r.err + "(redraw them: cutevis docs README.md)"));
  CHECK(r.out.find(" 0 stale or missing") != std::string::npos);
}
