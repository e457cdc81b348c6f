// Cross-check against real CuTe beyond the reference sample: tests/data/copy_oracle.jsonl
// holds what CuTe (CUTLASS 4, host g++ 12, static types) printed for ~200 copy atoms
// (every LDSM/STSM variant with several value types, SM100 b8/b4/b6 forms, cp.async,
// UniversalCopy, AutoVectorizing, TMA traits) and ~80 tiled copies (make_tiled_copy,
// make_tiled_copy_impl, make_tiled_copy_A/B/C over SM70, SM80, GMMA and FMA TiledMMAs,
// make_tiled_copy_S/D, make_tiled_copy_C_atom).  Rows with an MMA carry its
// get_layoutA/B/C_TV and tile so the TiledMMA is rebuilt here from CuTe's own values.
#include <doctest/doctest.h>

#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "lib/ownership.hpp"
#include "tests/atoms/copy_support.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
using cutevis::test::copy_registry;
using cutevis::test::layout_of;
using nlohmann::json;

namespace {

std::vector<json> oracle_rows() {
  std::vector<json> rows;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/copy_oracle.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) rows.push_back(json::parse(line));
  return rows;
}

// Same function on every index and CuTe's printed text; returns whether both held.
bool same_layout(const Layout& ours, const std::string& cute_text) {
  Layout ref = layout_of(cute_text);
  return size(ours) == size(ref) && same_function(ours, ref) && to_string(ours, true) == cute_text;
}

TiledMma mma_from_row(const json& row) {
  TiledMma m;
  m.tv_layout_a = layout_of(row["mma_tv_a"]);
  m.tv_layout_b = layout_of(row["mma_tv_b"]);
  m.tv_layout_c = layout_of(row["mma_tv_c"]);
  m.tile_mnk = tup(row["mma_tile_mnk"][0].get<int64_t>(), row["mma_tile_mnk"][1].get<int64_t>(),
                   row["mma_tile_mnk"][2].get<int64_t>());
  return m;
}

TiledCopy tiled_from_mma(const std::string& fn, const CopyAtom& atom, const TiledMma& mma) {
  if (fn == "make_tiled_copy_A") return make_tiled_copy_A(atom, mma);
  if (fn == "make_tiled_copy_B") return make_tiled_copy_B(atom, mma);
  if (fn == "make_tiled_copy_C") return make_tiled_copy_C(atom, mma);
  if (fn == "make_tiled_copy_C_atom") return make_tiled_copy_C_atom(atom, mma);
  throw Error("no such constructor " + fn);
}

// Our TiledCopy for an oracle row; `end_to_end` evaluates the row's C++ as written (through
// make_tiled_mma), otherwise the TiledMMA is rebuilt from CuTe's printed layouts.
TiledCopy build(const json& row, bool end_to_end = false) {
  const std::string cpp = row["cpp"];
  if (!row.contains("mma") || end_to_end) {
    Value v = evaluate_expression(cpp, copy_registry());
    if (!as_tiled_copy(v)) throw Error("not a tiled copy: " + cpp);
    return *as_tiled_copy(v);
  }
  const TiledMma mma = mma_from_row(row);
  const CopyAtom atom = find_copy_atom(row["atom"]);
  const std::string fn = cpp.substr(0, cpp.find('('));
  if (fn == "make_tiled_copy_S" || fn == "make_tiled_copy_D") {
    TiledCopy inner =
        tiled_from_mma("make_tiled_copy_" + row["inner_operand"].get<std::string>(), find_copy_atom(row["inner"]), mma);
    return fn == "make_tiled_copy_S" ? make_tiled_copy_S(atom, inner) : make_tiled_copy_D(atom, inner);
  }
  return tiled_from_mma(fn, atom, mma);
}

}  // namespace

TEST_CASE("oracle: copy atoms beyond the reference sample match CuTe") {
  int rows = 0, bad = 0;
  for (const auto& row : oracle_rows()) {
    if (row["kind"] != "copy_atom") continue;
    ++rows;
    const std::string name = row["name"];
    INFO(name);
    CopyAtom a = find_copy_atom(name);
    bool ok = a.value_type.bits == row["val_bits"].get<int>() && same_layout(a.thr_id, row["thr_id"]) &&
              same_layout(a.src_layout_bits, row["src_layout_bits"]) &&
              same_layout(a.dst_layout_bits, row["dst_layout_bits"]) &&
              same_layout(a.ref_layout_bits, row["ref_layout_bits"]) &&
              same_layout(a.val_layout_src, row["val_layout_src"]) &&
              same_layout(a.val_layout_dst, row["val_layout_dst"]) &&
              same_layout(a.val_layout_ref, row["val_layout_ref"]);
    if (!ok) MESSAGE("mismatch: " << name << "\n" << to_string(a, true));
    bad += !ok;
  }
  MESSAGE("oracle copy atoms: " << rows - bad << "/" << rows);
  CHECK(rows >= 190);
  CHECK(bad == 0);
}

namespace {

void check_tiled_rows(bool end_to_end) {
  int rows = 0, bad = 0;
  for (const auto& row : oracle_rows()) {
    if (row["kind"] != "tiled_copy" || (end_to_end && !row.contains("mma"))) continue;
    ++rows;
    const std::string cpp = row["cpp"];
    INFO(cpp);
    TiledCopy c;
    try {
      c = build(row, end_to_end);
    } catch (const Error& e) {
      MESSAGE("error: " << e.what() << " for " << cpp);
      ++bad;
      continue;
    }
    std::vector<int64_t> tile;
    for (const auto& m : c.tile_mn.modes()) tile.push_back(m.value());
    bool ok = tiler_to_string(c, true) == row["tiler_mn"].get<std::string>() &&
              same_layout(c.tiled_layout_tv, row["tiled_layout_tv"]) &&
              same_layout(c.layout_s_tv, row["layout_s_tv"]) && same_layout(c.layout_d_tv, row["layout_d_tv"]) &&
              c.num_threads == row["num_threads"].get<int64_t>() && tile == row["tile_mn"].get<std::vector<int64_t>>();
    if (!ok)
      MESSAGE("mismatch: " << cpp << "\n ours: " << tiler_to_string(c, true) << " | "
                           << to_string(c.tiled_layout_tv, true) << " | S " << to_string(c.layout_s_tv, true) << " | D "
                           << to_string(c.layout_d_tv, true) << "\n cute: " << row["tiler_mn"] << " | "
                           << row["tiled_layout_tv"] << " | S " << row["layout_s_tv"] << " | D " << row["layout_d_tv"]);
    bad += !ok;
    // Every 2-D tile's owners: each (thr,val) lands inside the tile.
    if (ok && c.tile_mn.rank() == 2) {
      OwnershipView s = OwnershipView::from_tv(c.layout_s_tv, tile[0], tile[1]);
      CHECK(s.num_threads() == c.num_threads);
    }
  }
  MESSAGE(std::string(end_to_end ? "oracle tiled copies (through make_tiled_mma): " : "oracle tiled copies: ")
          << rows - bad << "/" << rows);
  CHECK(rows >= (end_to_end ? 55 : 80));
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("oracle: tiled copies beyond the reference sample match CuTe") { check_tiled_rows(false); }

TEST_CASE("oracle: make_tiled_copy_A/B/C(atom, make_tiled_mma(...)) as written match CuTe") { check_tiled_rows(true); }
