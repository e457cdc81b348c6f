// Issue 19: a picture drawn from a file whose #if was decided without --arch/-D says so in its
// legend (text, SVG, HTML, TikZ), in one line; with --arch (or the -D) the legend says nothing.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "tests/support/run.hpp"

using namespace cutevis;

namespace {

std::string write_kernel() {
  const std::string path = "/tmp/cutevis_branch_legend_" + std::to_string(::getpid()) + ".cu";
  std::ofstream(path) << "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n"
                         "using L = Layout<Shape<_2,_4>>;\n"
                         "#else\n"
                         "using L = Layout<Shape<_4,_2>>;\n"
                         "#endif\n";
  return path;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("an #if branch read without --arch/-D is named in the picture's legend, in every format") {
  const std::string kernel = write_kernel();
  const std::string note = "read without --arch/-D: " + kernel + ":1 #if defined(__CUDA_ARCH__)";
  for (const char* format : {"--txt", "--svg", "--html", "--tex"}) {
    CAPTURE(format);
    auto r = test::run_cutevis({"layout", "--from", kernel, "L", format});
    REQUIRE(r.exit_code == 0);
    CHECK(count(r.out, note) >= 1);
    CHECK(r.out.find("is false, the host compile's branch") != std::string::npos);
    auto asked = test::run_cutevis({"layout", "--from", kernel, "--arch", "sm80", "L", format});
    REQUIRE(asked.exit_code == 0);
    CHECK(asked.out.find("read without --arch/-D") == std::string::npos);
  }
  // a TiledMMA's picture too; the branch chosen is the host's: (4,2) atoms
  auto mma =
      test::run_cutevis({"mma", "--from", kernel, "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, L{})", "--txt"});
  REQUIRE(mma.exit_code == 0);
  CHECK(count(mma.out, "read without --arch/-D") == 1);
  // -D of the macro is an answer too
  auto d = test::run_cutevis({"layout", "--from", kernel, "-D", "__CUDA_ARCH__=900", "L", "--svg"});
  CHECK(d.out.find("read without") == std::string::npos);
  std::remove(kernel.c_str());
}
