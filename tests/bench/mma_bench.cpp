// Benchmark of atoms/ MMA: decoding names, building TiledMMAs and their ownership views,
// the catalogue, and the error path.  Prints the median of many runs of each (ms).
// Goal (the CLI's `cutevis atom NAME --json` in under 20 ms for the whole process):
// find_mma_atom + make_tiled_mma + ownership views of SM90_64x256x16_F32F16F16_SS<K,K>
// in a few milliseconds.
//
//   build-dir/tests/bench/cutevis_bench_mma [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/ownership.hpp"

namespace {

using namespace cutevis;

double median_ms(int runs, const std::function<void()>& f) {
  f();  // warm caches (the name list is built once, on first use)
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

size_t sink = 0;  // keeps results alive

void owners(const TiledMma& m) {
  sink += OwnershipView::from_tv(m.tv_layout_a, tile_m(m), tile_k(m)).max_owners();
  sink += OwnershipView::from_tv(m.tv_layout_b, tile_n(m), tile_k(m)).max_owners();
  sink += OwnershipView::from_tv(m.tv_layout_c, tile_m(m), tile_n(m)).max_owners();
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 101;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
  const std::string gmma = "SM90_64x256x16_F32F16F16_SS<K,K>";
  const MmaAtom big = find_mma_atom(gmma);
  const TiledMma big_tiled = make_tiled_mma(big);
  struct Row {
    const char* what;
    std::function<void()> f;
    int runs;
  };
  const std::vector<Row> rows = {
      {"find_mma_atom SM80_16x8x16_F32F16F16F32_TN",
       [] { sink += find_mma_atom("SM80_16x8x16_F32F16F16F32_TN").ptx.size(); }, runs},
      {"find_mma_atom SM90_64x256x16_F32F16F16_SS<K,K>", [&] { sink += find_mma_atom(gmma).ptx.size(); }, runs},
      {"find_mma_atom SM100_MMA_F16BF16_2x1SM_SS<...,256,256,K,K>",
       [] { sink += find_mma_atom("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>").ptx.size(); }, runs},
      {"make_tiled_mma(64x256 GMMA)", [&] { sink += make_tiled_mma(big).num_threads; }, runs},
      {"make_tiled_mma(SM80, (2,2,1), Tile<32,32,16>)",
       [] {
         sink += make_tiled_mma(find_mma_atom("SM80_16x8x16_F32F16F16F32_TN"), Layout(tup(2, 2, 1), tup(1, 2, 0)),
                                Tiler::tuple({Tiler::integer(32), Tiler::integer(32), Tiler::integer(16)}))
                     .num_threads;
       },
       runs},
      {"ownership views of the 64x256 GMMA (655,360 owners)", [&] { owners(big_tiled); }, runs},
      // Moved here from tests/atoms/mma_tiled_test.cpp, which asserted < 50 ms (goal: a few ms).
      {"find + make_tiled_mma + ownership (64x256 GMMA)", [&] { owners(make_tiled_mma(find_mma_atom(gmma))); }, runs},
      {"an invalid name with suggestions (N=7)",
       [] {
         try {
           find_mma_atom("SM90_64x7x16_F32F16F16_SS<K,K>");
         } catch (const Error& e) {
           sink += std::strlen(e.what());
         }
       },
       runs},
      {"mma_atom_names() (all short names)", [] { sink += mma_atom_names().size(); }, std::max(1, runs / 10)},
      {"mma_catalogue() (every atom built)", [] { sink += mma_catalogue().size(); }, std::max(1, runs / 20)},
  };
  std::printf("%-62s %10s\n", "median of runs", "ms");
  for (const auto& r : rows) std::printf("%-62s %10.3f\n", r.what, median_ms(r.runs, r.f));
  return sink == 0 ? 1 : 0;
}
