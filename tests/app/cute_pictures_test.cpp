// End to end: every CuTe picture in tests/data/reference/latex and svg, drawn by the
// commands a user runs (`cutevis atom|mma|copy ... --style cute`) from names and
// expressions alone, is byte-identical to CuTe's print_latex / print_svg.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>

#include "app/commands.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

struct Source {
  std::string command;  // atom, mma, copy
  std::string input;
};

// File base name -> the command that draws it, from the reference's own rows.
std::map<std::string, Source> sources() {
  std::map<std::string, Source> m;
  for (const auto& row : test::read_jsonl("atoms.jsonl")) {
    std::string safe = row["name"];
    for (char& c : safe)
      if (c == '<' || c == '>' || c == ',') c = '_';
    while (!safe.empty() && safe.back() == '_') safe.pop_back();
    m[safe] = {"atom", row["name"]};
  }
  for (const auto& row : test::read_jsonl("tiled.jsonl")) m[row["file"]] = {"mma", row["cpp"]};
  for (const auto& row : test::read_jsonl("copy.jsonl"))
    if (row.contains("file")) m[row["file"]] = {"copy", row["cpp"]};
  // Two pictures whose constructions are not rows of the .jsonl files.
  m["tiled_SM70_NT_2x2"] = {"mma",
                            "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{})"};
  m["tiled_SM80_16x8x16_F32F16F16F32_TN_2x2x1_32x32x16"] = {
      "mma", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})"};
  return m;
}

std::string draw(const Source& s, Format f) {
  ShowOptions o;
  o.input = s.input;
  o.picture.format = f;
  o.picture.style = Style::kCute;
  if (s.command == "atom") return run_atom(o).bytes;
  if (s.command == "mma") return run_mma(o).bytes;
  return run_copy(o).bytes;
}

}  // namespace

TEST_CASE("every reference picture, drawn from its name or expression, is CuTe's byte for byte") {
  auto src = sources();
  size_t checked = 0;
  for (const char* dir : {"latex", "svg"}) {
    fs::path folder = fs::path(test::reference_dir()) / dir;
    REQUIRE_MESSAGE(fs::exists(folder), "reference pictures missing: " << folder);
    for (const auto& entry : fs::directory_iterator(folder)) {
      std::string base = entry.path().stem().string();
      CAPTURE(entry.path().filename().string());
      auto it = src.find(base);
      REQUIRE_MESSAGE(it != src.end(), "no construction known for " << base);
      Format f = std::string(dir) == "latex" ? Format::kTex : Format::kSvg;
      std::string ours = draw(it->second, f);
      CHECK(ours == test::read_file(entry.path().string()));
      ++checked;
    }
  }
  CHECK(checked == 31);
}
