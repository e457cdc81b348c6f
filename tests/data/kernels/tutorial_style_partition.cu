// A hand-written kernel file in the style of CuTe's GEMM tutorials (not their text): each thread's
// partitions of shared memory (ThrCopy / ThrMMA), its register fragments, GMMA/UMMA descriptor
// fragments and the UMMA accumulator in tensor memory.  The configurations are those of the
// tutorials (sgemm_sm80 gemm_tn, hopper/wgmma_sm90 gemm_nt, blackwell/01); the expected values are
// in partition_oracle.tsv.  Used by tests/app/partition_names_test.cpp.
#include <cute/tensor.hpp>
using namespace cute;

// SM80: cp.async into a swizzled smem layout, then LDSM into the MMA's registers
template <class ASmemLayout, class TiledCopyA, class S2RAtomA, class TiledMma>
__global__ void sm80_swizzled(ASmemLayout sA_layout, TiledCopyA copy_a, S2RAtomA s2r_atom_a, TiledMma mma) {
  extern __shared__ char smem_buf[];
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<half_t*>(smem_buf)), sA_layout);  // (BLK_M,BLK_K,PIPE)
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAsA = thr_copy_a.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  auto K_PIPE_MAX = size<3>(tAsA);
  TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom_a, mma);
  ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_copy_a.partition_S(sA);  // (CPY,MMA_M,MMA_K,PIPE)
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                    // (MMA,MMA_M,MMA_K,PIPE)
  Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K)
  Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);              // (CPY,MMA_M,MMA_K)
}

void run_sm80_swizzled() {
  auto swizzle_atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sA = tile_to_shape(swizzle_atom, make_shape(Int<128>{}, Int<64>{}, Int<3>{}));
  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                    Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;
  sm80_swizzled<<<1, size(mmaC), 0>>>(sA, copyA, s2r_atom_A, mmaC);
}

// SM80 with an unswizzled K-major smem layout: the registers follow it
template <class ASmemLayout, class S2RAtomA, class TiledMma>
__global__ void sm80_plain(ASmemLayout sA_layout, S2RAtomA s2r_atom_a, TiledMma mma) {
  extern __shared__ char smem_buf[];
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<half_t*>(smem_buf)), sA_layout);  // (BLK_M,BLK_K,PIPE)
  ThrMMA thr_mma = mma.get_thread_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                    // (MMA,MMA_M,MMA_K,PIPE)
  Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K)
  Tensor tCrA_like = thr_mma.make_fragment_A(tCsA);         // (MMA,MMA_M,MMA_K,PIPE)
  auto K_BLOCK_MAX = size<2>(tCrA);
  TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom_a, mma);
  ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_copy_a.partition_S(sA);  // (CPY,MMA_M,MMA_K,PIPE)
  Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);   // (CPY,MMA_M,MMA_K)
}

void run_sm80_plain() {
  auto sA = tile_to_shape(Layout<Shape<_8, _64>, Stride<_64, _1>>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{}));
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  sm80_plain<<<1, size(mmaC), 0>>>(sA, Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mmaC);
}

// SM90: GMMA reads A and B from shared memory; its fragments are descriptors
template <class ASmemLayout, class BSmemLayout, class TiledCopyA, class TiledMma>
__global__ void sm90_wgmma(ASmemLayout sA_layout, BSmemLayout sB_layout, TiledCopyA copy_a, TiledMma mma) {
  extern __shared__ char smem_buf[];
  Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<half_t*>(smem_buf)), sA_layout);  // (BLK_M,BLK_K,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<half_t*>(smem_buf)), sB_layout);  // (BLK_N,BLK_K,PIPE)
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAsA = thr_copy_a.partition_D(sA);  // (CPY,CPY_M,CPY_K,PIPE)
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);        // (MMA,MMA_M,MMA_K,PIPE)
  Tensor tCsB = thr_mma.partition_B(sB);        // (MMA,MMA_N,MMA_K,PIPE)
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);  // (MMA,MMA_M,MMA_K,PIPE)
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);  // (MMA,MMA_N,MMA_K,PIPE)
}

void run_sm90_wgmma() {
  auto sA = tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{}));
  auto sB = tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{}));
  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16, _8>>{},
                                    Layout<Shape<_8, _1>>{});
  TiledMMA tiled_mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>{});
  sm90_wgmma<<<1, size(tiled_mma), 0>>>(sA, sB, copyA, tiled_mma);
}

// SM100: one CTA's MMA reads smem descriptors and accumulates in tensor memory, read back by tcgen05.ld
template <class ASmemLayout, class TiledMMA>
__global__ void sm100_umma(ASmemLayout sA_layout, TiledMMA tiled_mma, float* C) {
  extern __shared__ char smem_buf[];
  Tensor tCsA = make_tensor(make_smem_ptr(reinterpret_cast<half_t*>(smem_buf)), sA_layout);  // (MmaA,NumMma_M,NumMma_K)
  auto mma_v = blockIdx.x % 1;
  ThrMMA cta_mma = tiled_mma.get_slice(mma_v);
  Tensor tCrA = cta_mma.make_fragment_A(tCsA);  // (MmaA,NumMma_M,NumMma_K)
  Tensor gC = make_tensor(make_gmem_ptr(C), make_layout(make_shape(Int<128>{}, Int<256>{}), LayoutRight{}));
  Tensor tCgC = cta_mma.partition_C(gC);          // (MmaC,NumMma_M,NumMma_N)
  Tensor tCtAcc = cta_mma.make_fragment_C(tCgC);  // (MmaC,NumMma_M,NumMma_N)
  TiledCopy tiled_t2r_copy = make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{}, tCtAcc);
  ThrCopy thr_t2r_copy = tiled_t2r_copy.get_slice(threadIdx.x);
  Tensor tDtAcc = thr_t2r_copy.partition_S(tCtAcc);  // (CpyS,NumCpy_M,NumCpy_N)
  using AccType = typename decltype(tCtAcc)::value_type;
  // two MMA tiles along M: CuTe's tmem_frg lays them out, cutevis builds one tile's accumulator only
  Tensor gC2 = make_tensor(make_gmem_ptr(C), make_layout(make_shape(Int<256>{}, Int<256>{}), LayoutRight{}));
  Tensor tCtAcc2 = cta_mma.make_fragment_C(cta_mma.partition_C(gC2));  // (MmaC,NumMma_M,NumMma_N)
}

void run_sm100_umma(float* C) {
  TiledMMA tiled_mma =
      make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>{});
  auto mma_shape_A = partition_shape_A(tiled_mma, make_shape(Int<128>{}, Int<64>{}));
  auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, mma_shape_A);
  sm100_umma<<<1, 128, 0>>>(sA_layout, tiled_mma, C);
}

// SM100, a CTA pair: the second CTA's partition of C and its half of the accumulator
template <class TiledMMA>
__global__ void sm100_umma_2sm(TiledMMA tiled_mma, float* C) {
  ThrMMA cta_mma = tiled_mma.get_slice(1);  // the pair's second CTA
  Tensor gC = make_tensor(make_gmem_ptr(C), make_layout(make_shape(Int<256>{}, Int<256>{}), LayoutRight{}));
  Tensor tCgC = cta_mma.partition_C(gC);          // (MmaC,NumMma_M,NumMma_N)
  Tensor tCtAcc = cta_mma.make_fragment_C(tCgC);  // (MmaC,NumMma_M,NumMma_N)
  TiledCopy tiled_t2r_copy = make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{}, tCtAcc);
  ThrCopy thr_t2r_copy = tiled_t2r_copy.get_slice(threadIdx.x);
  Tensor tDtAcc = thr_t2r_copy.partition_S(tCtAcc);  // (CpyS,NumCpy_M,NumCpy_N)
}

void run_sm100_umma_2sm(float* C) {
  TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 256, UMMA::Major::K,
                                                                 UMMA::Major::K>{});
  sm100_umma_2sm<<<2, 128, 0>>>(tiled_mma, C);
}
