// A hand-written kernel file in the style of CuTe's GEMM tutorials (not their text): the C tile of a
// global tensor whose sizes and leading dimension are run-time ints (the host function's parameters,
// given with -D), taken at the CTA's blockIdx (0 unless -D blockIdx.x=N), then one thread's partition
// of it and the registers / tensor-memory accumulator / TMEM-load partitions made from it.  The
// configurations are those of the tutorials (sgemm_sm80 gemm_tn, hopper/wgmma_sm90 gemm_nt,
// blackwell/01 with its default problem sizes); the expected values are partition_oracle.tsv's rt.*
// rows.  Used by tests/app/partition_names_test.cpp.
#include <cute/tensor.hpp>
using namespace cute;

// SM80 / SM90: the accumulator registers follow the C tile's shape, which follows ldC's being run-time
template <class ProblemShape, class CtaTiler, class CStride, class TiledMma>
__global__ void rt_registers(ProblemShape shape_MNK, CtaTiler cta_tiler, half_t* C, CStride dC, TiledMma mma) {
  Tensor mC = make_tensor(make_gmem_ptr(C), select<0, 1>(shape_MNK), dC);  // (M,N)
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);                  // (m,n,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});     // (BLK_M,BLK_N)
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgC = thr_mma.partition_C(gC);        // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);  // (MMA,MMA_M,MMA_N)
}

void run_sm80(int m, int n, int k, half_t* C, int ldC) {
  auto prob_shape = make_shape(int(m), int(n), int(k));
  auto dC = make_stride(Int<1>{}, ldC);
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<64>{});
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  rt_registers<<<1, size(mmaC), 0>>>(prob_shape, cta_tiler, C, dC, mmaC);
}

template <class ProblemShape, class CtaTiler, class CStride, class TiledMma>
__global__ void rt_wgmma(ProblemShape shape_MNK, CtaTiler cta_tiler, half_t* C, CStride dC, TiledMma mma) {
  Tensor mC = make_tensor(make_gmem_ptr(C), select<0, 1>(shape_MNK), dC);
  Tensor gC = local_tile(mC, cta_tiler, make_coord(blockIdx.x, blockIdx.y, _), Step<_1, _1, X>{});
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgC = thr_mma.partition_C(gC);
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
}

void run_sm90(int m, int n, int k, half_t* C, int ldC) {
  auto prob_shape = make_shape(int(m), int(n), int(k));
  auto dC = make_stride(Int<1>{}, ldC);
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<64>{});
  TiledMMA tiled_mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN, GMMA::Major::MN>{});
  rt_wgmma<<<1, size(tiled_mma), 0>>>(prob_shape, cta_tiler, C, dC, tiled_mma);
}

// SM100: the accumulator in tensor memory over the C tile, its TMEM load and the registers it fills
template <class CTensor, class DTensor, class MmaTiler, class TiledMMA>
__global__ void rt_tmem(CTensor mC, DTensor mD, MmaTiler mma_tiler, TiledMMA tiled_mma) {
  auto mma_coord_vmnk = make_coord(blockIdx.x % 1, blockIdx.x / 1, blockIdx.y, _);
  auto mma_coord = select<1, 2, 3>(mma_coord_vmnk);
  Tensor gC = local_tile(mC, mma_tiler, mma_coord, Step<_1, _1, X>{});  // (MmaTile_M, MmaTile_N)
  Tensor gD = local_tile(mD, mma_tiler, mma_coord, Step<_1, _1, X>{});  // (MmaTile_M, MmaTile_N)
  auto mma_v = get<0>(mma_coord_vmnk);
  ThrMMA cta_mma = tiled_mma.get_slice(mma_v);
  Tensor tCgC = cta_mma.partition_C(gC);            // (MmaC, NumMma_M, NumMma_N)
  Tensor tCgD = cta_mma.partition_C(gD);            // (MmaC, NumMma_M, NumMma_N)
  Tensor tCtAcc = cta_mma.make_fragment_C(tCgC);    // (MmaC, NumMma_M, NumMma_N)
  TiledCopy tiled_t2r_copy = make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{}, tCtAcc);
  ThrCopy thr_t2r_copy = tiled_t2r_copy.get_slice(threadIdx.x);
  Tensor tDgC = thr_t2r_copy.partition_D(tCgC);     // (CpyD, NumCpy_M, NumCpy_N)
  Tensor tDrC = make_fragment_like(tDgC);           // (CpyD, NumCpy_M, NumCpy_N)
  Tensor tDtAcc = thr_t2r_copy.partition_S(tCtAcc); // (CpyS, NumCpy_M, NumCpy_N)
  Tensor tDgD = thr_t2r_copy.partition_D(tCgD);     // (CpyD, NumCpy_M, NumCpy_N)
  using AccType = typename decltype(tCtAcc)::value_type;
  Tensor tDrAcc = make_tensor<AccType>(shape(tDgD)); // (CpyD, NumCpy_M, NumCpy_N)
}

template <class LayoutC>
void run_sm100(float* device_ptr_C, LayoutC layout_C, float* device_ptr_D) {
  Tensor mC = make_tensor(make_gmem_ptr(device_ptr_C), layout_C);  // (Gemm_M, Gemm_N)
  Tensor mD = make_tensor(make_gmem_ptr(device_ptr_D), layout_C);  // (Gemm_M, Gemm_N)
  TiledMMA tiled_mma =
      make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>{});
  auto mma_tiler = make_shape(tile_size<0>(tiled_mma), tile_size<1>(tiled_mma), tile_size<2>(tiled_mma) * Int<4>{});
  rt_tmem<<<1, 128, 0>>>(mC, mD, mma_tiler, tiled_mma);
}
