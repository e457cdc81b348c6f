// Cross-check against real CuTe beyond the reference sample: tests/data/mma_oracle.jsonl
// holds what CuTe (CUTLASS 4, host g++ 12, CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED) printed
// for 531 atoms -- every SM61/SM70/SM75/SM80/SM89 atom, SM90 f64/c64, GMMA over every type
// set with many N (extended shapes included), SS/RS and all majors, ScaleIn arguments,
// SM100 UMMA of every kind (1 and 2 CTAs, SS and TS), FFMA2, SM120 f8f6f4 and
// block-scaled, UniversalFMA -- and for 35 TiledMMAs with atom layouts and permutations
// (integers, layouts, and tiles that are not multiples of the atom, which CuTe accepts): print(MMA_Atom) /
// print(TiledMMA), get_layoutA/B/C_TV, tile size.
#include <doctest/doctest.h>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "tests/atoms/mma_support.hpp"

using namespace cutevis;
using namespace cutevis::test;
using nlohmann::json;

namespace {

void check_tvs(const TiledMma& m, const json& row) {
  CHECK(same_layout(m.tv_layout_a, row["tv_a"].get<std::string>()));
  CHECK(same_layout(m.tv_layout_b, row["tv_b"].get<std::string>()));
  CHECK(same_layout(m.tv_layout_c, row["tv_c"].get<std::string>()));
  CHECK(m.tile_mnk ==
        tup(row["tile_mnk"][0].get<int64_t>(), row["tile_mnk"][1].get<int64_t>(), row["tile_mnk"][2].get<int64_t>()));
}

std::string without_prefix(const std::string& s, const std::string& p) {
  return s.rfind(p, 0) == 0 ? s.substr(p.size()) : s;
}

}  // namespace

TEST_CASE("oracle: atoms beyond the reference sample match CuTe") {
  auto rows = read_source_jsonl("tests/data/mma_oracle.jsonl");
  REQUIRE(rows.size() > 500);
  int atoms = 0;
  for (const auto& row : rows) {
    if (row["kind"] != "atom") continue;
    const std::string name = row["name"];
    INFO(name);
    MmaAtom atom = find_mma_atom(name);
    CHECK(atom.name == without_prefix(name, "SM120::BLOCKSCALED::"));  // CuTe's spelling is our canonical name
    CHECK(find_mma_atom(atom.short_name).name == atom.name);
    CHECK(to_string(atom, true) == row["print_atom"].get<std::string>());
    check_tvs(make_tiled_mma(atom), row);
    ++atoms;
  }
  MESSAGE(atoms << " oracle atoms checked");
  CHECK(atoms == 531);
}

TEST_CASE("oracle: TiledMMAs with atom layouts and permutations match CuTe") {
  int tiled = 0;
  for (const auto& row : read_source_jsonl("tests/data/mma_oracle.jsonl")) {
    if (row["kind"] != "tiled") continue;
    INFO(row["name"].get<std::string>());
    const TiledMma* m = nullptr;
    Value v = evaluate_expression(row["name"].get<std::string>(), mma_registry());
    m = as_tiled_mma(v);
    REQUIRE(m != nullptr);
    CHECK(to_string(*m, true) == row["print_tiled_mma"].get<std::string>());
    CHECK(to_string(*m) == strip_static(row["print_tiled_mma"].get<std::string>()));
    check_tvs(*m, row);
    ++tiled;
  }
  CHECK(tiled == 35);
}
