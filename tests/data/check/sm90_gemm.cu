// An SM90 GEMM in the style of CUTLASS's wgmma_sm90 tutorial, written for cutevis's tests (not CUTLASS
// code): 128-bit UniversalCopy G2S into GMMA's K-major 128-byte-swizzled shared memory, wgmma SS
// (operands read from shared memory by descriptor), one warpgroup.  `cutevis check --from sm90_gemm.cu
// -D M=4096 -D N=4096 -D K=4096` finds nothing; sm90_gemm_defects.cu breaks it.
#include <cute/tensor.hpp>
using namespace cute;

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 64;
constexpr int kStages = 3;

using Element = half_t;

using SmemLayoutA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{},
                                           Shape<Int<kBlockM>, Int<kBlockK>, Int<kStages>>{}));  // (BLK_M,BLK_K,PIPE)
using SmemLayoutB = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{},
                                           Shape<Int<kBlockN>, Int<kBlockK>, Int<kStages>>{}));  // (BLK_N,BLK_K,PIPE)
using GmemCopy = decltype(make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, Element>{},
                                          Layout<Shape<_16, _8>, Stride<_8, _1>>{},  // 128 threads, K-major
                                          Layout<Shape<_1, _8>>{}));
using TiledMma = decltype(make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}));

__global__ void gemm_sm90(int M, int N, int K, Element const* A, Element const* B, float* C) {
  extern __shared__ char smem[];
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, Int<1>{}));  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(K, Int<1>{}));  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(Int<1>{}, M));  // (M,N)
  auto cta_tiler = make_shape(Int<kBlockM>{}, Int<kBlockN>{}, Int<kBlockK>{});  // (BLK_M,BLK_N,BLK_K)
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);                       // (m,n,k)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});           // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});           // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});           // (BLK_M,BLK_N)
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<Element*>(smem)), SmemLayoutA{});  // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<Element*>(smem) + cosize(SmemLayoutA{})),
                          SmemLayoutB{});  // (BLK_N,BLK_K,PIPE)

  GmemCopy copy_a;
  GmemCopy copy_b;
  TiledMma mma;
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  ThrCopy thr_copy_b = copy_b.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);  // (CPY,CPY_N,CPY_K,k)
  Tensor tBsB = thr_copy_b.partition_D(sB);  // (CPY,CPY_N,CPY_K,PIPE)

  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                // (MMA,MMA_M,MMA_K,PIPE)
  Tensor tCsB = thr_mma.partition_B(sB);                // (MMA,MMA_N,MMA_K,PIPE)
  Tensor tCgC = thr_mma.partition_C(gC);                // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);          // (MMA,MMA_M,MMA_K,PIPE)
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);          // (MMA,MMA_N,MMA_K,PIPE)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);          // (MMA,MMA_M,MMA_N)
  clear(tCrC);

  int k_tile_count = size<3>(tAgA);
  for (int k_tile = 0; k_tile < k_tile_count; ++k_tile) {
    int pipe = k_tile % kStages;
    copy(copy_a, tAgA(_, _, _, k_tile), tAsA(_, _, _, pipe));
    copy(copy_b, tBgB(_, _, _, k_tile), tBsB(_, _, _, pipe));
    __syncthreads();
    warpgroup_fence_operand(tCrC);
    warpgroup_arrive();
    gemm(mma, tCrA(_, _, _, pipe), tCrB(_, _, _, pipe), tCrC);
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    warpgroup_fence_operand(tCrC);
    __syncthreads();
  }
  axpby(1.0f, tCrC, 0.0f, tCgC);
}
