// The advisor's costs (issue 24): `--suggest` over a 128x64 half tile with two copies (a 16-byte
// cp.async writer and an LDSM x4 reader; goal < 200 ms), and the descriptors of a 128x256x64 SS GMMA
// (goal < 20 ms).  Prints medians of --runs N (default 9).
//   build-dir/tests/bench/cutevis_bench_advisor [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "atoms/analysis/descriptor.hpp"
#include "atoms/analysis/suggest.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/expr.hpp"

using namespace cutevis;

namespace {

template <class F>
double median_ms(int runs, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 9;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::atoi(argv[i + 1]);
  register_mma_names(default_registry());
  register_copy_names(default_registry());
  const TiledCopy g2s =
      *as_tiled_copy(evaluate_expression("make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, "
                                         "Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
                                         "Layout<Shape<_1,_8>>{})"));
  const TiledCopy s2r = *as_tiled_copy(evaluate_expression(
      "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
      "Layout<Shape<_2,_2,_1>>{}))"));
  const Layout tile(tup(128, 64), tup(64, 1));
  const std::vector<SmemUse> uses = {{g2s, CopyTensor{MemorySpace::kGmem, tile}, false}, {s2r, CopyTensor{}, true}};
  size_t found = 0;
  const double suggest = median_ms(runs, [&] { found = suggest_smem_layouts(tile, 16, uses).size(); });
  std::printf("suggest 128x64 half, cp.async 16B + LDSM x4: %.1f ms median of %d (%zu suggestions)\n", suggest, runs,
              found);

  const TiledMma mma = *as_tiled_mma(evaluate_expression(
      "make_tiled_mma(SM90_64x256x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{})"));
  const AnyLayout a =
      evaluate_expression("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})").to_any_layout();
  const AnyLayout b =
      evaluate_expression("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_256,_64>{})").to_any_layout();
  size_t blocks = 0;
  const double desc = median_ms(runs, [&] {
    blocks = operand_descriptors(mma, 'A', a).blocks.size() + operand_descriptors(mma, 'B', b).blocks.size();
  });
  std::printf("descriptors of a 128x256x64 SS GMMA (A and B): %.2f ms median of %d (%zu descriptors)\n", desc, runs,
              blocks);
  return 0;
}
