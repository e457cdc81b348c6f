// sm80_gemm.cu with seven defects, each marked DEFECT on its line (tests/app/check_test.cpp
// expects exactly their findings, 7 errors and 3 warnings; sm80_gemm.cu is the corrected kernel):
//   A's smem rows are 136 bytes (cp.async 16 B and ldmatrix rows misaligned: the kernel faults),
//   A's gmem is M-major under a K-major 128-bit copy (does not vectorize: CuTe static_asserts),
//   B's smem rows are 128 bytes unswizzled (ldmatrix: 8-way bank conflicts),
//   B's G2S copy has 256 threads for a 128-thread MMA, B's S2R copy is make_tiled_copy_A,
//   gemm gets B's fragment as A, and a comment states gB's rank wrongly.
#include <cute/tensor.hpp>
using namespace cute;

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 64;
constexpr int kStages = 3;
constexpr int kPad = 0;  // halves of padding per shared-memory row; 0: swizzled rows instead

using Element = half_t;

// (8,64) atom of K-major rows, swizzled for 128-bit cp.async stores and LDSM reads
using SmemAtom = decltype(composition(Swizzle<3, 3, 3>{},
                                      Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{}));
using SmemSwizzledA = decltype(tile_to_shape(SmemAtom{}, Shape<Int<kBlockM>, Int<kBlockK>, Int<kStages>>{}));
using SmemPaddedA = Layout<Shape<Int<kBlockM>, Int<kBlockK>, Int<kStages>>,
                           Stride<Int<kBlockK + kPad>, _1, Int<kBlockM*(kBlockK + kPad)>>>;
using SmemLayoutA = Layout<Shape<_128, _64, _3>, Stride<_68, _1, Int<128 * 68>>>;  // DEFECT 136-byte rows
using SmemLayoutB = Layout<Shape<_128, _64, _3>, Stride<_64, _1, _8192>>;          // DEFECT unswizzled

using GmemCopy = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, Element>{},
                                          Layout<Shape<_16, _8>, Stride<_8, _1>>{},  // 128 threads, K-major
                                          Layout<Shape<_1, _8>>{}));                 // 8 halves = 128 bits
using GmemCopyB = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, Element>{},
                                           Layout<Shape<_32, _8>, Stride<_8, _1>>{},  // DEFECT 256 threads
                                           Layout<Shape<_1, _8>>{}));
using TiledMma = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{},
                                         Tile<_32, _32, _16>{}));
using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, Element>;

__global__ void gemm_sm80(int M, int N, int K, Element const* A, Element const* B, float* C) {
  extern __shared__ char smem[];
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(Int<1>{}, M));  // DEFECT M-major
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(K, Int<1>{}));  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(Int<1>{}, M));  // (M,N)

  auto cta_tiler = make_shape(Int<kBlockM>{}, Int<kBlockN>{}, Int<kBlockK>{});  // (BLK_M,BLK_N,BLK_K)
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);                       // (m,n,k)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});           // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});           // (BLK_N,BLK_K) DEFECT
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});           // (BLK_M,BLK_N)

  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<Element*>(smem)), SmemLayoutA{});  // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<Element*>(smem) + cosize(SmemLayoutA{})),
                          SmemLayoutB{});  // (BLK_N,BLK_K,PIPE)

  GmemCopy copy_a;
  GmemCopyB copy_b;
  TiledMma mma;

  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  ThrCopy thr_copy_b = copy_b.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);  // (CPY,CPY_N,CPY_K,k)
  Tensor tBsB = thr_copy_b.partition_D(sB);  // (CPY,CPY_N,CPY_K,PIPE)

  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgC = thr_mma.partition_C(gC);                  // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (MMA,MMA_N,MMA_K)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);            // (MMA,MMA_M,MMA_N)
  clear(tCrC);

  TiledCopy s2r_copy_a = make_tiled_copy_A(SmemCopyAtom{}, mma);
  ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_copy_a.partition_S(sA);    // (CPY,MMA_M,MMA_K,PIPE)
  Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);     // (CPY,MMA_M,MMA_K)
  TiledCopy s2r_copy_b = make_tiled_copy_A(SmemCopyAtom{}, mma);  // DEFECT _A for B
  ThrCopy s2r_thr_copy_b = s2r_copy_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_thr_copy_b.partition_S(sB);    // (CPY,MMA_N,MMA_K,PIPE)
  Tensor tXrB = s2r_thr_copy_b.retile_D(tCrB);     // (CPY,MMA_N,MMA_K)

  int k_tile_count = size<3>(tAgA);
  for (int k_tile = 0; k_tile < k_tile_count; ++k_tile) {
    int pipe = k_tile % kStages;
    copy(copy_a, tAgA(_, _, _, k_tile), tAsA(_, _, _, pipe));
    copy(copy_b, tBgB(_, _, _, k_tile), tBsB(_, _, _, pipe));
    cp_async_fence();
    cp_async_wait<0>();
    __syncthreads();
    CUTE_UNROLL
    for (int k_block = 0; k_block < size<2>(tCrA); ++k_block) {
      copy(s2r_copy_a, tXsA(_, _, k_block, pipe), tXrA(_, _, k_block));
      copy(s2r_copy_b, tXsB(_, _, k_block, pipe), tXrB(_, _, k_block));
      gemm(mma, tCrB(_, _, k_block), tCrA(_, _, k_block), tCrC);  // DEFECT B as A
    }
    __syncthreads();
  }
  axpby(1.0f, tCrC, 0.0f, tCgC);
}
