// A real-looking SM90 warp-specialized GEMM configuration, written for cutevis's README
// and tests in the style of CUTLASS's collectives (not CUTLASS code).  Try:
//
//   cutevis names --from samples/sm90_collective_config.hpp -D ElementA=half_t
//   cutevis mma   --from samples/sm90_collective_config.hpp TiledMma --svg -o mma.svg
//   cutevis eval  --from samples/sm90_collective_config.hpp -D bK=32 'SmemLayoutA{}'
#pragma once

#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/tensor.hpp>

namespace example {
using namespace cute;

#define NUM_WARPS_PER_WARPGROUP 4

template <class ElementA_, class ElementB_ = ElementA_, int bM = 128, int bN = 128, int bK = 64, int Stages_ = 4,
          class ClusterShape_ = Shape<_1, _1, _1>>
struct CollectiveConfig {
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  using ElementAccumulator = float;
  using ClusterShape = ClusterShape_;
  static constexpr int Stages = Stages_;

  // (BLK_M, BLK_N, BLK_K)
  using TileShape = Shape<Int<bM>, Int<bN>, Int<bK>>;
  static constexpr int NumThreadsPerWarp = 32;
  static constexpr int NumThreadsPerWarpGroup = NUM_WARPS_PER_WARPGROUP * NumThreadsPerWarp;
  static constexpr int WarpGroups = bM / 64;  // one warpgroup per 64 rows
  static constexpr int NumMmaThreads = WarpGroups * NumThreadsPerWarpGroup;

  /* Shared memory: K-major swizzled atoms tiled to the pipeline */
  using SmemLayoutAtomA = decltype(GMMA::Layout_K_SW128_Atom<ElementA>{});
  using SmemLayoutAtomB = GMMA::Layout_K_SW128_Atom<ElementB>;
  using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{},
                                             make_shape(shape<0>(TileShape{}), shape<2>(TileShape{}), Int<Stages>{})));
  using SmemLayoutB = decltype(tile_to_shape(SmemLayoutAtomB{},
                                             make_shape(shape<1>(TileShape{}), shape<2>(TileShape{}), Int<Stages>{})));
  static constexpr int SmemBytesA = cosize(SmemLayoutA{}) * sizeof_bits<ElementA>::value / 8;
  static constexpr int SmemBytesB = cosize(SmemLayoutB{}) * sizeof_bits<ElementB>::value / 8;
  static constexpr int SmemBytes = SmemBytesA + SmemBytesB;

  // The MMA: one 64xNx16 GMMA per warpgroup, warpgroups along M
  using AtomLayoutMNK = Layout<Shape<Int<WarpGroups>, _1, _1>>;
  using TiledMma =
      decltype(make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, AtomLayoutMNK{}));
  static constexpr int MmaThreads = size(TiledMma{});

  // The epilogue: registers to shared memory with a 16B vectorized store
  using EpilogueTile = Shape<_64, _32>;
  using SmemLayoutAtomC = decltype(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}));
  using SmemLayoutC = decltype(tile_to_shape(SmemLayoutAtomC{}, EpilogueTile{}));
  using CopyAtomC = Copy_Atom<SM90_U32x4_STSM_N, ElementA>;
  using TiledCopyC = decltype(make_tiled_copy_C(CopyAtomC{}, TiledMma{}));

  // A cp.async fallback for pre-Hopper parts
  static constexpr int kAlignment = 128 / sizeof_bits_v<ElementA>;
  static constexpr int kThreadsK = bK / kAlignment;
  using GmemLayoutA = Layout<Shape<Int<NumMmaThreads / kThreadsK>, Int<kThreadsK>>, Stride<Int<kThreadsK>, _1>>;
  using GmemTiledCopyA = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, ElementA>{},
                                                  GmemLayoutA{}, Layout<Shape<_1, Int<kAlignment>>>{}));
  using PipelineStages = conditional_t<(Stages > 2), Int<Stages>, _2>;
  static constexpr bool UseSwizzledC = (bN % 64 == 0) && !(bM < 64);
};

template <class Config>
__global__ void __launch_bounds__(128)
    gemm_device(int M, int N, int K, typename Config::ElementA const* A, typename Config::ElementB const* B) {
  extern __shared__ char smem[];
  auto smem_layout_a = typename Config::SmemLayoutA{};
  typename Config::TiledMma tiled_mma;
  auto thr_mma = tiled_mma.get_slice(threadIdx.x);
  for (int k_tile = 0; k_tile < K / 64; ++k_tile) {
    // ... the mainloop ...
  }
}

}  // namespace example
