// Pictures from the command line: the format from -o's extension (a contradicting
// flag is exit 2 with nothing written), --html, --scale and --cell.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>

#include "app/exit_codes.hpp"
#include "tests/support/reference.hpp"
#include "tests/support/run.hpp"
#include "tests/support/scratch.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

// A scratch folder named for this file's tests (tests/support/scratch.hpp).
struct Scratch : test::Scratch {
  Scratch() : test::Scratch("cutevis_pictures_cli") {}
};

const char* kAtom = "SM70_8x8x4_F32F16F16F32_NT";

std::string png_size(const std::string& bytes) {
  auto u32 = [&](size_t at) {
    return (static_cast<uint32_t>(static_cast<unsigned char>(bytes[at])) << 24) |
           (static_cast<unsigned char>(bytes[at + 1]) << 16) | (static_cast<unsigned char>(bytes[at + 2]) << 8) |
           static_cast<unsigned char>(bytes[at + 3]);
  };
  return std::to_string(u32(16)) + "x" + std::to_string(u32(20));
}

}  // namespace

TEST_CASE("cutevis -o: the extension picks the format") {
  Scratch s;
  struct Case {
    const char* name;
    const char* starts;
  };
  for (const Case& c :
       {Case{"a.png", "\x89PNG"}, Case{"a.svg", "<?xml"}, Case{"a.tex", "% cutevis"}, Case{"a.pdf", "%PDF-"},
        Case{"a.html", "<!DOCTYPE html>"}, Case{"a.json", "{"}, Case{"a.TXT", "SM70_8x8x4"}}) {
    CAPTURE(c.name);
    const auto r = test::run_cutevis({"atom", kAtom, "-o", s / c.name});
    REQUIRE_MESSAGE(r.exit_code == kExitOk, r.err);
    CHECK(test::read_file(s / c.name).rfind(c.starts, 0) == 0);
    if (std::string(c.name) == "a.tex") CHECK(test::read_file(s / c.name).find("\\documentclass") != std::string::npos);
  }
  // .txt is the text picture (the table), not CuTe's print of the atom
  CHECK(test::read_file(s / "a.TXT").find("+----") != std::string::npos);
  // a name without an extension keeps the command's default (CuTe's print); an unknown
  // extension is bad input (issue 23: -o x.jpg wrote a text table)
  REQUIRE(test::run_cutevis({"atom", kAtom, "-o", s / "atom_out"}).exit_code == kExitOk);
  CHECK(test::read_file(s / "atom_out").find("MMA_Atom") != std::string::npos);
  CHECK(test::run_cutevis({"atom", kAtom, "-o", s / "atom.out"}).exit_code == kExitBadInput);
  // a flag that agrees with the extension is fine; one that contradicts it is bad input
  CHECK(test::run_cutevis({"atom", kAtom, "--png", "-o", s / "b.png"}).exit_code == kExitOk);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--svg", "c.png"}, {"--json", "c.svg"}, {"--png", "c.json"}, {"--html", "c.txt"}}) {
    CAPTURE(args[0]);
    const auto r = test::run_cutevis({"atom", kAtom, args[0], "-o", s / args[1]});
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.err.find("contradicts the file name") != std::string::npos);
    CHECK(!fs::exists(s / args[1]));
  }
  // eval draws nothing: a picture extension is refused, .json is --json
  CHECK(test::run_cutevis({"eval", "(4,8):(1,4)", "-o", s / "e.png"}).exit_code == kExitBadInput);
  REQUIRE(test::run_cutevis({"eval", "(4,8):(1,4)", "-o", s / "e.json"}).exit_code == kExitOk);
  CHECK(test::read_file(s / "e.json").find("\"cosize\"") != std::string::npos);
}

TEST_CASE("cutevis --scale and --cell size a PNG; nonsense values are bad input") {
  Scratch s;
  REQUIRE(test::run_cutevis({"atom", kAtom, "-o", s / "1x.png"}).exit_code == kExitOk);
  REQUIRE(test::run_cutevis({"atom", kAtom, "--scale", "2", "-o", s / "2x.png"}).exit_code == kExitOk);
  REQUIRE(test::run_cutevis({"atom", kAtom, "--cell", "60", "-o", s / "cell60.png"}).exit_code == kExitOk);
  const std::string one = png_size(test::read_file(s / "1x.png")), two = png_size(test::read_file(s / "2x.png"));
  const int w1 = std::stoi(one), w2 = std::stoi(two);
  CHECK(w2 == 2 * w1);
  CHECK(std::stoi(png_size(test::read_file(s / "cell60.png"))) > w1);
  CHECK(test::run_cutevis({"atom", kAtom, "--scale", "0", "-o", s / "x.png"}).exit_code == kExitBadInput);
  CHECK(test::run_cutevis({"atom", kAtom, "--cell", "1", "-o", s / "x.png"}).exit_code == kExitBadInput);
  CHECK(!fs::exists(s / "x.png"));
}

TEST_CASE("cutevis --html: one self-contained page, every cell with its owners") {
  const auto r =
      test::run_cutevis({"mma", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})", "--html"});
  REQUIRE(r.exit_code == kExitOk);
  const std::string& html = r.out;
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<script src") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("@font-face") == std::string::npos);
  size_t cells = 0, owners = 0;
  for (size_t at = html.find("<rect x="); at != std::string::npos; at = html.find("<rect x=", at + 1)) {
    const std::string rect = html.substr(at, html.find('>', at) - at);
    if (rect.find("class=\"k\"") == std::string::npos) continue;
    ++cells;
    owners += rect.find("data-owners=\"") != std::string::npos;
  }
  CHECK(cells == 32 * 16 + 32 * 16 + 16 * 16);  // C, A and B of the 32x16x16 tile
  CHECK(owners == cells);
  CHECK(html.find("data-owners=\"0:0 64:0\"") != std::string::npos);  // A's (0,0): threads 0 and 64
}
