// TiledMMA beyond the reference rows: a thread's slice (ThrMMA), the arguments
// make_tiled_mma pads and checks, printing, and the speed of the largest GMMA.
#include <doctest/doctest.h>

#include <algorithm>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "tests/atoms/mma_support.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
using namespace cutevis::test;

namespace {

TiledMma tiled(const std::string& text) {
  Value v = evaluate_expression(text, mma_registry());
  REQUIRE(as_tiled_mma(v) != nullptr);
  return *as_tiled_mma(v);
}

}  // namespace

TEST_CASE("thread slices: coordinates in ThrLayoutVMNK and the cells each thread owns") {
  auto rows = read_jsonl("tiled.jsonl");
  REQUIRE_MESSAGE(!rows.empty(), "no rows in the reference data at " << reference_dir());
  for (const auto& row : rows) {
    INFO(row["cpp"].get<std::string>());
    TiledMma m = tiled(row["cpp"]);
    const Layout& vmnk = m.thr_layout_vmnk;
    const int64_t lanes = size(m.tv_layout_c.shape[0]);
    std::vector<int64_t> c_hits(static_cast<size_t>(tile_m(m) * tile_n(m)), 0);
    for (int64_t t = 0; t < lanes; ++t) {
      ThrMmaSlice s = thread_slice(m, t);
      CHECK(s.thr_idx == t);
      REQUIRE(s.thr_vmnk.rank() == 4);
      // The coordinate maps back through ThrLayoutVMNK to the thread (its alias, for SM70 lanes).
      int64_t back = 0;
      for (size_t i = 0; i < 4; ++i) {
        Layout mode = get(vmnk, i);
        CHECK(s.thr_vmnk[i].value() < size(mode));
        back += mode(s.thr_vmnk[i].value());
      }
      if (t < size(vmnk)) CHECK(back == (cosize(vmnk) == size(vmnk) ? t : back));
      // Its cells are CuTe's forward tables (where the reference has them).
      auto check_cells = [&](const std::vector<int64_t>& cells, const char* key) {
        if (!row.contains(key)) return;
        const auto& expect = row[key][static_cast<size_t>(t)];
        REQUIRE(expect.size() == cells.size());
        for (size_t v = 0; v < cells.size(); ++v) CHECK(cells[v] == expect[v].get<int64_t>());
      };
      check_cells(s.cells_a, "tv_a_values");
      check_cells(s.cells_b, "tv_b_values");
      check_cells(s.cells_c, "tv_c_values");
      for (int64_t c : s.cells_c) ++c_hits[static_cast<size_t>(c)];
    }
    // Together the threads own every accumulator.
    CHECK(std::count(c_hits.begin(), c_hits.end(), 0) == 0);
    CHECK_THROWS_AS(thread_slice(m, lanes), Error);
    CHECK_THROWS_AS(thread_slice(m, -1), Error);
  }
}

TEST_CASE("thread slices: a 2x2 SM80 tiling by hand") {
  TiledMma m = tiled("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})");
  // Thread 37 = lane 5 of the atom at (m=1, n=0): ThrLayoutVMNK (32,2,2,1):(1,32,64,0).
  ThrMmaSlice s = thread_slice(m, 37);
  CHECK(s.thr_vmnk == tup(5, 1, 0, 0));
  // Lane 5 = 4*1 + 1 holds C rows 1 and 9 of its atom at columns 2 and 3 (values: col+1,
  // then row+8); its atom covers rows 16..31 of the 32x16 tile: cell = row + 32*col.
  CHECK(s.cells_c == std::vector<int64_t>{17 + 32 * 2, 17 + 32 * 3, 25 + 32 * 2, 25 + 32 * 3});
  CHECK(thread_slice(m, 127).thr_vmnk == tup(31, 1, 1, 0));
}

TEST_CASE("make_tiled_mma pads its arguments as CuTe does and rejects what CuTe rejects") {
  MmaAtom atom = find_mma_atom("SM80_16x8x16_F32F16F16F32_TN");
  TiledMma a = make_tiled_mma(atom, Layout(tup(2, 2), tup(1, 2)));  // append<3>(layout, 1:0)
  CHECK(to_string(a.atom_layout) == "(2,2,1):(1,2,0)");
  CHECK(to_string(a.thr_layout_vmnk) == "(32,2,2,1):(1,32,64,0)");
  TiledMma b = make_tiled_mma(atom, Layout(tup(2, 2, 1), tup(1, 2, 0)),
                              Tiler::tuple({Tiler(Layout(32, 1))}));  // append<3>(tile, _)
  CHECK(b.permutation.rank() == 3);
  CHECK(b.permutation.modes()[1].is_underscore());
  CHECK(b.tile_mnk == tup(32, 16, 16));
  CHECK(to_string(b).find("PermutationMNK: (32,_,_)") != std::string::npos);
  CHECK_THROWS_AS(make_tiled_mma(atom, Layout(tup(2, 2, 1, 2), tup(1, 2, 0, 4))), Error);
  CHECK_THROWS_AS(make_tiled_mma(atom, Layout(tup(2, 2, 1), tup(1, 2, 0)), Tiler(Layout(32, 1))),
                  Error);  // not a tuple
  TiledMma d = make_tiled_mma(atom);
  CHECK(d.num_threads == 32);
  CHECK(to_string(d).rfind("TiledMMA\n  ThrLayoutVMNK:  (32,1,1,1):(1,0,0,0)\n  PermutationMNK: (_,_,_)\nMMA_Atom\n",
                           0) == 0);
}

TEST_CASE("the largest GMMA tiled and owned: every A/B cell by all 128 threads, every C cell once") {
  // The CLI's `cutevis atom SM90_64x256x16_F32F16F16_SS<K,K> --json` does this once; its
  // time is measured by tests/bench/mma_bench.cpp ("find + make_tiled_mma + ownership"),
  // not asserted here: a wall-clock bound fails on a loaded machine and proves nothing.
  TiledMma m = make_tiled_mma(find_mma_atom("SM90_64x256x16_F32F16F16_SS<K,K>"));
  OwnershipView a = OwnershipView::from_tv(m.tv_layout_a, tile_m(m), tile_k(m));
  OwnershipView b = OwnershipView::from_tv(m.tv_layout_b, tile_n(m), tile_k(m));
  OwnershipView c = OwnershipView::from_tv(m.tv_layout_c, tile_m(m), tile_n(m));
  CHECK(a.max_owners() == 128);
  CHECK(b.max_owners() == 128);
  CHECK(c.max_owners() == 1);
}
