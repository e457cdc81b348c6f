// `cutevis atom|mma|copy|list`: the JSON contract against CuTe's reference rows, the
// flags that build expressions, and bad names.
#include <doctest/doctest.h>

#include <cctype>
#include <regex>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "tests/support/reference.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

json atom_json(const std::string& name) {
  ShowOptions o;
  o.input = name;
  o.json = true;
  return json::parse(run_atom(o).bytes);
}

// The reference's owner_x (first owner of each cell, column-major, and the owner count)
// against our owners_x (every owner of each cell).
void check_owners(const json& ours, const json& ref) {
  REQUIRE(ours["shape"] == ref["shape"]);
  const json& cells = ours["owners"];
  REQUIRE(cells.size() == ref["thr"].size());
  for (size_t c = 0; c < cells.size(); ++c) {
    REQUIRE(!cells[c].empty());
    CHECK(cells[c][0][0] == ref["thr"][c]);
    CHECK(cells[c][0][1] == ref["val"][c]);
    const json& per = ref["owners_per_elem"];
    size_t want = per.is_array() ? per[c].get<size_t>() : per.get<size_t>();
    CHECK(cells[c].size() == want);
  }
}

}  // namespace

TEST_CASE("atom --json matches every reference atom: layouts, tiling and every owner") {
  auto rows = test::read_jsonl("atoms.jsonl");
  REQUIRE(!rows.empty());
  size_t checked = 0;
  for (const auto& row : rows) {
    if (row.contains("error")) continue;  // CuTe's own traits are inconsistent there
    CAPTURE(row["name"].get<std::string>());
    json j = atom_json(row["name"]);
    CHECK(j["kind"] == "tiled_mma");
    for (const char* f :
         {"shape_mnk", "thr_id", "layout_a", "layout_b", "layout_c", "tv_layout_a", "tv_layout_b", "tv_layout_c"})
      CHECK(j[f] == row[std::string(f) + "_nous"]);
    CHECK(j["tile_mnk"] == row["tile_mnk"]);
    CHECK(j["num_threads"] == row["num_threads"]);
    check_owners(j["owners_a"], row["owner_a"]);
    check_owners(j["owners_b"], row["owner_b"]);
    check_owners(j["owners_c"], row["owner_c"]);
    ++checked;
  }
  CHECK(checked >= 80);
}

TEST_CASE("mma --atom/--atoms/--tile builds the same TiledMMA as the expression") {
  for (const auto& row : test::read_jsonl("tiled.jsonl")) {
    CAPTURE(row["cpp"].get<std::string>());
    ShowOptions o;
    o.input = row["cpp"];
    o.json = true;
    json j = json::parse(run_mma(o).bytes);
    CHECK(j["thr_layout_vmnk"] == row["thr_layout_vmnk_nous"]);
    CHECK(j["tv_layout_c"] == row["tv_layout_c_nous"]);
    check_owners(j["owners_c"], row["owner_c"]);
    check_owners(j["owners_a"], row["owner_a"]);
  }
  CHECK(mma_expression("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1)", "") ==
        "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, (2,2,1))");
  ShowOptions a, b;
  a.input = mma_expression("SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}", "Tile<_32,_32,_16>{}");
  b.input = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})";
  a.json = b.json = true;
  CHECK(run_mma(a).bytes == run_mma(b).bytes);
}

TEST_CASE("copy --json matches every reference tiled copy") {
  size_t checked = 0;
  for (const auto& row : test::read_jsonl("copy.jsonl")) {
    if (row["kind"] != "tiled_copy") continue;
    CAPTURE(row["cpp"].get<std::string>());
    ShowOptions o;
    o.input = row["cpp"];
    o.json = true;
    json j = json::parse(run_copy(o).bytes);
    CHECK(j["tiled_layout_tv"] == row["tiled_layout_tv_nous"]);
    CHECK(j["layout_s_tv"] == row["layout_s_tv_nous"]);
    CHECK(j["layout_d_tv"] == row["layout_d_tv_nous"]);
    CHECK(j["tile_mn"] == row["tile_mn"]);
    CHECK(j["num_threads"] == row["num_threads"]);
    check_owners(j["owners_s"], row["owner_s"]);
    check_owners(j["owners_d"], row["owner_d"]);
    ++checked;
  }
  CHECK(checked == 9);
}

TEST_CASE("list filters by pattern and architecture") {
  json sm90 = json::parse(run_list({"SM90_64x*x16_F32F16F16_SS*", "sm90", true}).bytes);
  CHECK(sm90.size() >= 32);  // every N from 8 to 256, each with its majors
  for (const auto& r : sm90) {
    CHECK(r["sm"] == 90);
    CHECK(r["name"].get<std::string>().rfind("SM90_64x", 0) == 0);
  }
  json all = json::parse(run_list({"", "", true}).bytes);
  CHECK(all.size() > sm90.size());
  CHECK_THROWS_AS(run_list({"no_such_atom_anywhere", "", false}), Error);
  CHECK_THROWS_AS(run_list({"", "banana", false}), Error);
}

// `list PATTERN` filters the catalogue by name before it builds an atom (issue 23: building all
// 9,093 to filter took 0.2-0.3 s); what it lists must be what filtering the full listing gives.
// The filter here is written independently: the glob as a case-insensitive regular expression.
static bool glob_matches(const std::string& name, const std::string& pattern) {
  if (pattern.find_first_of("*?") == std::string::npos) {
    auto lower = [](std::string s) {
      for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return s;
    };
    return lower(name).find(lower(pattern)) != std::string::npos;
  }
  std::string re;
  for (char c : pattern) {
    if (c == '*') re += ".*";
    else if (c == '?') re += ".";
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') re += c;
    else re += std::string("\\") + c;
  }
  return std::regex_match(name, std::regex(re, std::regex::icase));
}

TEST_CASE("list PATTERN lists what filtering the whole catalogue gives, for names, C++ names and --arch") {
  const json all = json::parse(run_list({"", "", true}).bytes);
  REQUIRE(all.size() > 9000);
  const std::pair<std::string, std::string> cases[] = {
      {"SM90_64x256x16_F32F16F16*", ""},  // the README's example
      {"*GMMA::Major::MN*", "sm90"},      // only CuTe's C++ spelling says Major::
      {"*UMMA::ScaleIn*", ""},            // in no listed name
      {"SM100_MMA_TF32_2x1SM_TS_INTERLEAVED*", ""},
      {"sm80_16x8x16", ""},  // a substring, any case
      {"*_TN", "sm75"},
      {"", "sm61"},
      {"UniversalFMA<?", ""},
      {"ldsm", "sm90"},  // copy atoms
      {"*x4*", "sm100"},
  };
  for (const auto& c : cases) {
    const std::string &pattern = c.first, &arch = c.second;  // clang 14 cannot capture a structured binding (INFO)
    INFO("pattern '" << pattern << "' arch '" << arch << "'");
    const int want_sm = arch.empty() ? -1 : std::stoi(arch.substr(2));
    json expected = json::array();
    for (const json& row : all) {
      const bool mma = row["kind"] == "mma_atom";
      const std::string other = mma ? row["cpp_type"].get<std::string>() : row["op"].get<std::string>();
      if (want_sm >= 0 && row["sm"] != want_sm) continue;
      if (glob_matches(row["name"], pattern) || glob_matches(other, pattern)) expected.push_back(row);
    }
    if (expected.empty()) {
      CHECK_THROWS_AS(run_list({pattern, arch, false}), Error);
      continue;
    }
    CHECK(json::parse(run_list({pattern, arch, true}).bytes) == expected);
    const std::string table = run_list({pattern, arch, false}).bytes;
    CHECK(table.substr(table.rfind('\n', table.size() - 2) + 1) == std::to_string(expected.size()) + " atoms\n");
  }
}

TEST_CASE("cutevis atom: unknown names fail with exit 2 and suggestions") {
  auto r = test::run_cutevis({"atom", "SM80_16x8x16_F32F16F16F32_TX"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("SM80_16x8x16_F32F16F16F32_TN") != std::string::npos);
  auto gmma = test::run_cutevis({"atom", "SM90_64x7x16_F32F16F16_SS<K,K>"});
  CHECK(gmma.exit_code == kExitBadInput);
  CHECK(gmma.err.rfind("cutevis: error: ", 0) == 0);
  auto ok = test::run_cutevis({"atom", "SM70_8x8x4_F32F16F16F32_NT"});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.rfind("MMA_Atom\n", 0) == 0);
}
