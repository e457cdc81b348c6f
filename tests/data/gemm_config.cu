// A CuTe SM80 GEMM configuration written for cutevis's tests in the style of CUTLASS's
// examples (not CUTLASS code).  tests/app/paste_kernel_test.cpp reads it with --from.
#include <cute/tensor.hpp>
using namespace cute;

template <class ElementA, int bM = 128, int bN = 128, int bK = 32>
struct GemmConfig {
  using TileShape = Shape<Int<bM>, Int<bN>, Int<bK>>;  // (BLK_M, BLK_N, BLK_K)
  static constexpr int Stages = 3;
  /* the smem atom: 8 rows of 32 halves, swizzled */
  using SmemLayoutAtomA = decltype(composition(Swizzle<2,3,3>{},
                                               Layout<Shape<_8, Int<bK>>, Stride<Int<bK>, _1>>{}));
  using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{}, make_shape(Int<bM>{}, Int<bK>{}, Int<Stages>{})));
  using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
  static constexpr int NumThreads = size(TiledMma{});
  using GmemCopyA = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, ElementA>{},
                                             Layout<Shape<_32,_4>, Stride<_4,_1>>{},
                                             Layout<Shape<_1,_8>>{}));
  using SmemCopyAtomA = Copy_Atom<SM75_U32x4_LDSM_N, ElementA>;
};

template <class Config>
__global__ void gemm_kernel(int M, int N, int K, float const* A) {
  extern __shared__ char smem[];
  auto sA_layout = typename Config::SmemLayoutA{};
  int k_tile = 0;
  for (int k = 0; k < K; ++k) {
    auto tile = make_tile(Int<4>{} * 2, _);
    k_tile += 1;
  }
  __syncthreads();
}

int main() {
  auto tiled_mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{});
  return 0;
}
