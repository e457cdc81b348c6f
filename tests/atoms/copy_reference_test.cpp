// Golden test: every row of tests/data/reference/copy.jsonl (real CuTe) through the
// copy catalogue, TiledCopy and the expression names.  Layouts are compared as
// functions (every index) and as CuTe's printed strings; owners exactly.
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

// A layout equal to CuTe's: the same function on every index, the same printed text.
void check_layout(const std::string& what, const Layout& ours, const std::string& cute_text) {
  INFO(what << ": ours " << to_string(ours, true) << ", CuTe " << cute_text);
  Layout ref = layout_of(cute_text);
  CHECK(size(ours) == size(ref));
  CHECK(same_function(ours, ref));
  CHECK(to_string(ours, true) == cute_text);
}

void check_owners(const std::string& what, const Layout& tv, const json& owners) {
  const int64_t rows = owners["shape"][0], cols = owners["shape"][1];
  OwnershipView view = OwnershipView::from_tv(tv, rows, cols);
  const json& per = owners["owners_per_elem"];
  int mismatches = 0;
  for (int64_t cell = 0; cell < rows * cols; ++cell) {
    auto o = view.owners(cell);
    int64_t want_count = per.is_array() ? per[static_cast<size_t>(cell)].get<int64_t>() : per.get<int64_t>();
    bool ok = !o.empty() && o[0].thr == owners["thr"][static_cast<size_t>(cell)].get<int64_t>() &&
              o[0].val == owners["val"][static_cast<size_t>(cell)].get<int64_t>() &&
              static_cast<int64_t>(o.size()) == want_count;
    mismatches += !ok;
  }
  INFO(what);
  CHECK(mismatches == 0);
}

void check_values(const std::string& what, const Layout& tv, const json& table) {
  const int64_t threads = size(tv.shape[0]);
  int mismatches = 0;
  for (size_t t = 0; t < table.size(); ++t)
    for (size_t v = 0; v < table[t].size(); ++v)
      mismatches += tv(static_cast<int64_t>(t) + threads * static_cast<int64_t>(v)) != table[t][v].get<int64_t>();
  INFO(what);
  CHECK(mismatches == 0);
}

// CuTe's print text with the static-int underscores removed (`_32:_1` -> `32:1`).
std::string without_static_underscores(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i)
    if (!(s[i] == '_' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) out += s[i];
  return out;
}

void check_atom_row(const json& row) {
  const std::string name = row["name"];
  INFO(name);
  CopyAtom a = find_copy_atom(name);
  CHECK(a.value_type.bits == row["val_bits"].get<int>());
  check_layout("ThrID", a.thr_id, row["thr_id"]);
  check_layout("SrcLayout", a.src_layout_bits, row["src_layout_bits"]);
  check_layout("DstLayout", a.dst_layout_bits, row["dst_layout_bits"]);
  check_layout("RefLayout", a.ref_layout_bits, row["ref_layout_bits"]);
  check_layout("ValLayoutSrc", a.val_layout_src, row["val_layout_src"]);
  check_layout("ValLayoutDst", a.val_layout_dst, row["val_layout_dst"]);
  check_layout("ValLayoutRef", a.val_layout_ref, row["val_layout_ref"]);
  CHECK(to_string(a, true) == row["print_copy_atom"].get<std::string>());
  CHECK(to_string(a) == without_static_underscores(row["print_copy_atom"]));
  // The same atom through the expression language, with CuTe's spelling.
  Value v = evaluate_expression(row["cpp"].get<std::string>() + "{}", copy_registry());
  REQUIRE(as_copy_atom(v) != nullptr);
  CHECK(as_copy_atom(v)->val_layout_src == a.val_layout_src);
}

void check_tiled_row(const json& row, const TiledCopy& c) {
  INFO(row["cpp"].get<std::string>());
  CHECK(tiler_to_string(c, true) == row["tiler_mn"].get<std::string>());
  check_layout("TiledLayout_TV", c.tiled_layout_tv, row["tiled_layout_tv"]);
  CHECK(c.tile_mn == IntTuple::tuple({row["tile_mn"][0].get<int64_t>(), row["tile_mn"][1].get<int64_t>()}));
  CHECK(c.num_threads == row["num_threads"].get<int64_t>());
  check_layout("layoutS_TV", c.layout_s_tv, row["layout_s_tv"]);
  check_layout("layoutD_TV", c.layout_d_tv, row["layout_d_tv"]);
  check_values("layoutS_TV values", c.layout_s_tv, row["layout_s_tv_values"]);
  check_values("layoutD_TV values", c.layout_d_tv, row["layout_d_tv_values"]);
  check_owners("owners S", c.layout_s_tv, row["owner_s"]);
  check_owners("owners D", c.layout_d_tv, row["owner_d"]);
  CHECK(to_string(c, true) == row["print_tiled_copy"].get<std::string>());
  CHECK(to_string(c) == without_static_underscores(row["print_tiled_copy"]));
}

// The TiledMMA of a make_tiled_copy_A/B/C row as far as the row gives it: its
// TiledLayout_TV is the MMA's get_layoutX_TV, its Tiler_MN the MMA's tile.
TiledMma mma_from_row(const json& row, char operand) {
  TiledMma m;
  Layout tv = layout_of(row["tiled_layout_tv"]);
  int64_t t0 = row["tile_mn"][0], t1 = row["tile_mn"][1];
  if (operand == 'A') m.tile_mnk = tup(t0, 1, t1), m.tv_layout_a = tv;
  if (operand == 'B') m.tile_mnk = tup(1, t0, t1), m.tv_layout_b = tv;
  if (operand == 'C') m.tile_mnk = tup(t0, t1, 1), m.tv_layout_c = tv;
  return m;
}

}  // namespace

TEST_CASE("copy.jsonl: every copy atom matches CuTe") {
  int atoms = 0;
  for (const auto& row : test::read_jsonl("copy.jsonl"))
    if (row["kind"] == "copy_atom") {
      check_atom_row(row);
      ++atoms;
    }
  MESSAGE("copy atoms checked: " << atoms);
  CHECK(atoms >= 16);
}

TEST_CASE("copy.jsonl: every tiled copy matches CuTe") {
  int tiled = 0;
  for (const auto& row : test::read_jsonl("copy.jsonl")) {
    if (row["kind"] != "tiled_copy") continue;
    const std::string cpp = row["cpp"];
    ++tiled;
    if (cpp.rfind("make_tiled_copy(", 0) == 0) {
      Value v = evaluate_expression(cpp, copy_registry());
      REQUIRE(as_tiled_copy(v) != nullptr);
      check_tiled_row(row, *as_tiled_copy(v));
      continue;
    }
    // make_tiled_copy_X(Copy_Atom<...>{}, make_tiled_mma(...)) as written, through the MMA catalogue,
    Value v = evaluate_expression(cpp, copy_registry());
    REQUIRE(as_tiled_copy(v) != nullptr);
    check_tiled_row(row, *as_tiled_copy(v));
    // and with the TiledMMA's layouts taken from the row (independent of the MMA engine).
    const char operand = cpp[std::string("make_tiled_copy_").size()];
    const size_t open = cpp.find('(') + 1, close = cpp.find("{}");
    CopyAtom atom = find_copy_atom(cpp.substr(open, close - open));
    TiledMma mma = mma_from_row(row, operand);
    TiledCopy c = operand == 'A'   ? make_tiled_copy_A(atom, mma)
                  : operand == 'B' ? make_tiled_copy_B(atom, mma)
                                   : make_tiled_copy_C(atom, mma);
    check_tiled_row(row, c);
  }
  MESSAGE("tiled copies checked: " << tiled);
  CHECK(tiled >= 9);
}
