// `cutevis copy` on TMA copies: pictures and --json of multicast and rank-3 TMA TiledCopies.
// The expressions and CuTe's TiledLayout_TV strings come from tests/data/tma_oracle.jsonl (real
// CuTe's print; see tests/atoms/tma_test.cpp for how it was made).  CuTe's multicast TV layout
// gives every CTA the whole box from its own offset (CTA t > 0 runs past the tile); the picture
// and the JSON owners show, per element, the CTA that issues it: owner (t, i + c*r) with
// c = box/multicast is CuTe's TV(t, i + box*r).
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "app/sources.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/tiled_copy.hpp"
#include "lib/lang/expr.hpp"
#include "tests/support/run.hpp"
#include "tests/support/tma_oracle.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

struct Row {
  std::string expr;
  Layout cute_tv;
  int64_t tile = 0;
};

// The oracle's TiledCopy rows that drew nothing before (multicast, or a tile of rank 3).
std::vector<Row> multicast_and_rank3_rows() {
  std::vector<Row> rows;
  test::for_each_oracle_row("tma_oracle.jsonl", [&](const json& j) {
    if (j["kind"] != "tiled_copy") return;
    Layout tv = evaluate_expression(j["tv"].get<std::string>()).to_layout();
    Layout tiler = evaluate_expression(j["tiler"].get<std::string>()).to_layout();
    if (size(tv.shape[0]) == 1 && tiler.shape.rank() < 3) return;
    rows.push_back({test::typed(j["expr"]), tv, size(tiler)});
  });
  return rows;
}

}  // namespace

TEST_CASE("copy: multicast and rank-3 TMA copies draw and list every element under the CTA that issues it") {
  std::vector<Row> rows = multicast_and_rank3_rows();
  CHECK(rows.size() == 8);  // 7 multicast (2, 4, and a 32x32 "cluster" of 1,024 CTAs), 1 of rank 3
  for (const Row& row : rows) {
    const std::string& expr = row.expr;
    CAPTURE(expr);
    test::RunResult r = test::run_cutevis({"copy", expr, "--json"});
    REQUIRE(r.exit_code == kExitOk);
    json j = json::parse(r.out);
    const int64_t ctas = size(row.cute_tv.shape[0]);
    const int64_t box = j["tma"]["box_elements"].get<int64_t>();
    CHECK(j["tma"]["multicast_ctas"].get<int64_t>() == ctas);
    CHECK(j["tma"]["issued_per_cta"].get<int64_t>() * ctas == box);
    const int64_t c = box / ctas;
    for (const char* side : {"owners_s", "owners_d"}) {
      const json& o = j[side];
      const int64_t rows_m = o["shape"][0].get<int64_t>(), cols = o["shape"][1].get<int64_t>();
      CHECK(rows_m * cols == row.tile);
      int64_t wrong = 0, not_once = 0;
      for (int64_t cell = 0; cell < rows_m * cols; ++cell) {
        const json& owners = o["owners"][static_cast<size_t>(cell)];
        if (owners.size() != 1) {
          ++not_once;
          continue;
        }
        const int64_t t = owners[0][0].get<int64_t>(), v = owners[0][1].get<int64_t>();
        // CuTe's own TV layout at the value this CTA issues: the v-th of its first c of each box
        const int64_t cute_v = v % c + box * (v / c);
        if (t >= ctas || row.cute_tv(t + ctas * cute_v) != cell) ++wrong;
      }
      CHECK(not_once == 0);
      CHECK(wrong == 0);
    }
    for (const char* format : {"--svg", "--txt"}) {
      test::RunResult p = test::run_cutevis({"copy", expr, format});
      CHECK(p.exit_code == kExitOk);
      CHECK(p.err.empty());
      CHECK(p.out.find(ctas > 1 ? "TMA multicast over " + std::to_string(ctas) + " CTAs" : "TMA: one box") !=
            std::string::npos);
    }
  }
}

TEST_CASE("copy: a multicast TMA picture colours the two halves of each box by their CTA") {
  // MN-major SW128 half tile: a box is 64 (M) x 8 (K) columns; CTA 0 issues K columns 0-3 of each
  // 8, CTA 1 columns 4-7 (its offset: CuTe's layout_T stride 512 = 4 columns of 128).
  const std::string expr =
      "make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, make_tensor(make_gmem_ptr<half_t>(gptr), make_shape(1024, 256)), "
      "tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(_128{},_64{})), make_shape(_128{},_64{}), "
      "Int<2>{})";
  test::RunResult r = test::run_cutevis({"copy", expr, "--json"});
  REQUIRE(r.exit_code == kExitOk);
  json j = json::parse(r.out);
  CHECK(j["tiled_layout_tv"] == "(2,(((64,8),(2,8)))):(512,(((1,128),(64,1024))))");  // CuTe's, unchanged
  CHECK(j["tma"]["owners_tv"] == "(2,((64,4),(2,8))):(512,((1,128),(64,1024)))");
  const json& owners = j["owners_s"]["owners"];
  for (int64_t col : {0, 3, 4, 7, 8, 63})
    for (int64_t m : {0, 127}) {
      CAPTURE(col);
      CAPTURE(m);
      CHECK(owners[static_cast<size_t>(m + 128 * col)][0][0].get<int64_t>() == (col % 8) / 4);
    }
}

// tests/data/tma_sm100_oracle.jsonl: a host-only program built against CUTLASS 4's CuTe headers
// (g++ 12, -std=c++17) ran each row's `decls` (a TiledMMA, its tiler, the UMMA smem layouts from
// partition_shape_A/B and UMMA::tile_to_mma_shape, K- and MN-major gmem tensors over a `half_t*`
// pointer, the cluster layout from tiled_divide) and then `expr`, and printed the TiledCopy's
// Tiler_MN, TiledLayout_TV, AtomLayoutSrc and AtomThrID, or the atom's ValLayoutSrc and ThrID.
// 1-SM and 2-SM UMMA (SM100_TMA_2SM_LOAD[_MULTICAST]), multicast over a 1x2 TiledMMA.
TEST_CASE("make_tma_copy_A/B_sm100 and make_tma_atom_A/B_sm100 equal CuTe's (tma_sm100_oracle.jsonl)") {
  int two_sm = 0;
  const int rows = test::for_each_oracle_row("tma_sm100_oracle.jsonl", [&](const json& row) {
    const std::string snippet = test::typed(row["decls"].get<std::string>()) + "; " + row["expr"].get<std::string>();
    CAPTURE(snippet);
    test::check_tma_row(row, evaluate_source(snippet, nullptr));
    two_sm += row["thr_id"] == "_2:_1";
  });
  CHECK(rows == 20);
  CHECK(two_sm == 10);
}

TEST_CASE("copy: an SM100 multicast TMA copy (A over a 1x2 TiledMMA) draws; C refuses a multicast op") {
  const std::string decls =
      "auto mma = make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128, UMMA::Major::MN, "
      "UMMA::Major::MN>{}, Layout<Shape<_1,_2,_1>>{}); auto tiler = make_shape(_128{}, _256{}, _64{}); "
      "auto sA = UMMA::tile_to_mma_shape(UMMA::Layout_MN_SW128_Atom<half_t>{}, partition_shape_A(mma, "
      "make_shape(_128{}, _64{}))); auto gA = make_tensor(make_gmem_ptr<half_t>(p), make_layout(make_shape(4096, "
      "1024)));";
  test::RunResult r = test::run_cutevis({"copy",
                                         decls + " make_tma_copy_A_sm100(SM90_TMA_LOAD_MULTICAST{}, gA, sA, "
                                                 "tiler, mma)",
                                         "--json"});
  REQUIRE(r.exit_code == kExitOk);
  json j = json::parse(r.out);
  CHECK(j["tma"]["multicast_ctas"] == 2);
  CHECK(j["tma"]["issued_per_cta"] == 256);
  for (const json& cell : j["owners_s"]["owners"]) CHECK(cell.size() == 1);
  test::RunResult svg = test::run_cutevis(
      {"copy", decls + " make_tma_copy_A_sm100(SM90_TMA_LOAD_MULTICAST{}, gA, sA, tiler, mma)", "--svg"});
  CHECK(svg.exit_code == kExitOk);
  CHECK(svg.out.find("<svg") != std::string::npos);
  test::RunResult c =
      test::run_cutevis({"copy", decls + " make_tma_copy_C_sm100(SM90_TMA_LOAD_MULTICAST{}, gA, sA, tiler, mma)"});
  CHECK(c.exit_code == kExitBadInput);
  CHECK(c.err.find("expected a non-multicast TMA") != std::string::npos);
}
