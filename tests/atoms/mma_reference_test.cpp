// Every row of tests/data/reference/atoms.jsonl and tiled.jsonl (real CuTe) against the
// catalogue and make_tiled_mma: shapes, layouts as functions and as CuTe prints them,
// value types, print(MMA_Atom) / print(TiledMMA), the TV layouts, every cell's owners.
#include <doctest/doctest.h>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "tests/atoms/mma_support.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
using namespace cutevis::test;
using nlohmann::json;

namespace {

void check_tiled(const TiledMma& m, const json& row, const std::string& tv_prefix) {
  CHECK(same_layout(m.tv_layout_a, row[tv_prefix + "a"].get<std::string>()));
  CHECK(same_layout(m.tv_layout_b, row[tv_prefix + "b"].get<std::string>()));
  CHECK(same_layout(m.tv_layout_c, row[tv_prefix + "c"].get<std::string>()));
  CHECK(to_string(m.tv_layout_c) == row[tv_prefix + "c_nous"].get<std::string>());
  CHECK(m.tile_mnk ==
        tup(row["tile_mnk"][0].get<int64_t>(), row["tile_mnk"][1].get<int64_t>(), row["tile_mnk"][2].get<int64_t>()));
  CHECK(m.num_threads == row["num_threads"].get<int64_t>());
  CHECK(to_string(m, true) == row["print_tiled_mma"].get<std::string>());
  CHECK(to_string(m) == strip_static(row["print_tiled_mma"].get<std::string>()));
  const int64_t tm = tile_m(m), tn = tile_n(m), tk = tile_k(m);
  check_owners(OwnershipView::from_tv(m.tv_layout_a, tm, tk), row["owner_a"], "owners of A");
  check_owners(OwnershipView::from_tv(m.tv_layout_b, tn, tk), row["owner_b"], "owners of B");
  check_owners(OwnershipView::from_tv(m.tv_layout_c, tm, tn), row["owner_c"], "owners of C");
  for (const char* x : {"a", "b", "c"}) {
    std::string key = std::string("tv_") + x + "_values";
    if (row.contains(key)) {
      const Layout& tv = *x == 'a' ? m.tv_layout_a : *x == 'b' ? m.tv_layout_b : m.tv_layout_c;
      check_values(tv, row[key], key);
    }
  }
}

}  // namespace

TEST_CASE("every atom of atoms.jsonl matches CuTe") {
  auto rows = read_jsonl("atoms.jsonl");
  REQUIRE_MESSAGE(!rows.empty(), "no rows in the reference data at " << reference_dir());
  int checked = 0;
  for (const auto& row : rows) {
    const std::string name = row["name"];
    INFO(name);
    if (row.contains("error")) {  // CuTe itself cannot build it: neither do we, and we say why
      CHECK_THROWS_AS(find_mma_atom(row["cpp_type"].get<std::string>()), Error);
      continue;
    }
    MmaAtom atom = find_mma_atom(name);
    CHECK(atom.short_name == name);
    CHECK(atom.name == find_mma_atom(row["cpp_type"].get<std::string>()).name);
    CHECK(atom.family == row["family"].get<std::string>());
    CHECK(to_string(atom.shape_mnk) == row["shape_mnk_nous"].get<std::string>());
    CHECK(to_string(atom.shape_mnk, true) == row["shape_mnk"].get<std::string>());
    CHECK(same_layout(atom.thr_id, row["thr_id"].get<std::string>()));
    CHECK(same_layout(atom.layout_a, row["layout_a"].get<std::string>()));
    CHECK(same_layout(atom.layout_b, row["layout_b"].get<std::string>()));
    CHECK(same_layout(atom.layout_c, row["layout_c"].get<std::string>()));
    CHECK(to_string(atom.layout_a) == row["layout_a_nous"].get<std::string>());
    CHECK(atom.type_a.name == canonical_type(row["val_type_a"]));
    CHECK(atom.type_b.name == canonical_type(row["val_type_b"]));
    CHECK(atom.type_c.name == canonical_type(row["val_type_c"]));
    CHECK(atom.type_d.name == canonical_type(row["val_type_d"]));
    CHECK(atom.type_a.bits == row["val_bits_a"].get<int>());
    CHECK(atom.type_b.bits == row["val_bits_b"].get<int>());
    CHECK(atom.type_c.bits == row["val_bits_c"].get<int>());
    CHECK(atom.type_d.bits == row["val_bits_d"].get<int>());
    CHECK(to_string(atom, true) == row["print_atom"].get<std::string>());
    CHECK(to_string(atom) == strip_static(row["print_atom"].get<std::string>()));
    check_tiled(make_tiled_mma(atom), row, "tv_layout_");
    ++checked;
  }
  MESSAGE(checked << " of " << rows.size() << " reference atoms checked");
  CHECK(checked == static_cast<int>(rows.size()));
}

TEST_CASE("every TiledMMA of tiled.jsonl matches CuTe") {
  auto rows = read_jsonl("tiled.jsonl");
  REQUIRE_MESSAGE(!rows.empty(), "no rows in the reference data at " << reference_dir());
  for (const auto& row : rows) {
    INFO(row["cpp"].get<std::string>());
    Value v = evaluate_expression(row["cpp"].get<std::string>(), mma_registry());
    const TiledMma* m = as_tiled_mma(v);
    REQUIRE(m != nullptr);
    CHECK(same_layout(m->thr_layout_vmnk, row["thr_layout_vmnk"].get<std::string>()));
    CHECK(to_string(m->tile_mnk, true) == row["tile_shape"].get<std::string>());
    CHECK(m->num_threads == row["size"].get<int64_t>());
    check_tiled(*m, row, "tv_layout_");
  }
}
