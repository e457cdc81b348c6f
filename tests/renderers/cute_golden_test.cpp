// Golden test: --style cute reproduces CuTe's print_latex / print_svg byte for byte
// for every picture in tests/data/reference/latex and svg (atoms, TiledMMAs,
// TiledCopies), drawn from the TV layouts CuTe printed in the .jsonl files.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>

#include "lib/lang/expr.hpp"
#include "renderers/render.hpp"
#include "renderers/views.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

Layout layout_of(const json& row, const char* field) {
  return evaluate_expression(row[field].get<std::string>()).to_layout();
}

// The picture base names of the reference: the atom name with '<' and ',' as '_', '>' dropped.
std::string file_name_of(const std::string& name) {
  std::string s;
  for (char ch : name) {
    if (ch == '<' || ch == ',') s += '_';
    else if (ch != '>' && ch != ' ') s += ch;
  }
  return s;
}

Scene mma_scene_of(const json& row) {
  MmaPicture p;
  p.tv_a = layout_of(row, "tv_layout_a");
  p.tv_b = layout_of(row, "tv_layout_b");
  p.tv_c = layout_of(row, "tv_layout_c");
  p.m = row["tile_mnk"][0];
  p.n = row["tile_mnk"][1];
  p.k = row["tile_mnk"][2];
  p.num_threads = row["num_threads"];
  return mma_scene(p);
}

Scene copy_scene_of(const json& row) {
  CopyPicture p;
  p.tv_s = layout_of(row, "layout_s_tv");
  p.tv_d = layout_of(row, "layout_d_tv");
  p.m = row["tile_mn"][0];
  p.n = row["tile_mn"][1];
  p.num_threads = row["num_threads"];
  return copy_scene(p);
}

// The first line where two texts differ, for a readable failure.
std::string first_difference(const std::string& got, const std::string& want) {
  size_t line = 1, start = 0;
  for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    if (got[i] != want[i]) {
      size_t e1 = got.find('\n', start), e2 = want.find('\n', start);
      return "line " + std::to_string(line) + ":\n  got:  " + got.substr(start, e1 - start) +
             "\n  want: " + want.substr(start, e2 - start);
    }
    if (got[i] == '\n') ++line, start = i + 1;
  }
  return got.size() == want.size() ? ""
                                   : "lengths " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
}

struct Case {
  std::string file;
  Scene scene;
};

std::vector<Case> reference_cases() {
  std::vector<Case> cases;
  for (const json& row : test::read_jsonl("atoms.jsonl"))
    if (!row.contains("error")) cases.push_back({file_name_of(row["name"]), mma_scene_of(row)});
  for (const json& row : test::read_jsonl("tiled.jsonl")) cases.push_back({row["file"], mma_scene_of(row)});
  for (const json& row : test::read_jsonl("copy.jsonl"))
    if (row["kind"] == "tiled_copy") cases.push_back({row["file"], copy_scene_of(row)});
  return cases;
}

}  // namespace

TEST_CASE("style cute: every reference print_latex and print_svg byte for byte") {
  const std::vector<Case> cases = reference_cases();
  REQUIRE(cases.size() > 80);
  std::map<std::string, const Case*> by_file;
  for (const Case& c : cases) by_file[c.file] = &c;

  int compared = 0;
  for (const char* dir : {"latex", "svg"}) {
    const bool tex = std::string(dir) == "latex";
    for (const auto& entry : fs::directory_iterator(test::reference_dir() + "/" + dir)) {
      const std::string stem = entry.path().stem().string();
      CAPTURE(entry.path().string());
      auto it = by_file.find(stem);
      if (it == by_file.end()) {  // pictures of tilings whose TV layouts the .jsonl files do not hold
        MESSAGE("no reference row gives the TV layouts of " << stem);
        continue;
      }
      const std::string want = test::read_file(entry.path().string());
      const std::string got = render(it->second->scene, tex ? Format::kTex : Format::kSvg, {.style = Style::kCute});
      const std::string diff = first_difference(got, want);
      CHECK_MESSAGE(diff.empty(), diff);
      ++compared;
    }
  }
  CHECK(compared >= 27);
}
