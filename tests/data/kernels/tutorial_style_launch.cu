// A hand-written kernel file in the style of CuTe's GEMM tutorials (not their text): the kernel's
// template parameters come from its launches in the host functions below.  Used by
// tests/app/launch_binding_test.cpp; the expected values are in tutorial_oracle.tsv.
#include <cute/tensor.hpp>
using namespace cute;

template <class ElemA, class LayoutA>
struct SmemBuffers {
  int unused;
};

template <class ProblemShape, class CtaTiler, class TA, class ASmemLayout, class TiledCopyA, class TiledMma>
__global__ void tiled_gemm(ProblemShape shape_MNK, CtaTiler cta_tiler, TA const* A, ASmemLayout sA_layout,
                           TiledCopyA copy_a, TiledMma mma) {
  auto smem_layout = ASmemLayout{};                     // (BLK_M,BLK_K,PIPE)
  auto stages = size<2>(sA_layout);
  auto tile_m = size<0>(cta_tiler);
  using Buffers = SmemBuffers<TA, ASmemLayout>;
  TiledCopy s2r_a = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  Tensor mA = make_tensor(make_gmem_ptr(A), select<0, 2>(shape_MNK), make_stride(Int<1>{}, get<0>(shape_MNK)));
  auto coord = make_coord(blockIdx.x, blockIdx.y, _);
}

template <class TA>
void run_nt(int m, int n, int k, TA const* A, cudaStream_t stream = 0) {
  auto M = int(m);
  auto N = int(n);
  auto K = int(k);
  auto prob_shape = make_shape(M, N, K);
  auto bM = Int<128>{};
  auto bN = Int<128>{};
  auto bK = Int<64>{};
  auto cta_tiler = make_shape(bM, bN, bK);
  auto sA = tile_to_shape(GMMA::Layout_MN_SW128_Atom<TA>{}, make_shape(bM, bK, Int<3>{}));
  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, TA>{},
                                    Layout<Shape<_16, _8>>{}, Layout<Shape<_8, _1>>{});
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  dim3 block(size(mmaC));
  tiled_gemm<<<dim3(4, 4), block, 0, stream>>>(prob_shape, cta_tiler, A, sA, copyA, mmaC);
}

template <class TA>
void run_tn(int m, int n, int k, TA const* A) {
  auto prob_shape = make_shape(m, n, k);
  auto cta_tiler = make_shape(Int<64>{}, Int<64>{}, Int<32>{});
  auto sA = tile_to_shape(GMMA::Layout_K_SW64_Atom<TA>{}, make_shape(Int<64>{}, Int<32>{}, Int<4>{}));
  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, TA>{},
                                    Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{});
  auto* kernel = &tiled_gemm<decltype(prob_shape), decltype(cta_tiler), TA, decltype(sA), decltype(copyA),
                             decltype(mmaC)>;
  cutlass::launch_kernel_on_cluster(params, (void const*)kernel, prob_shape, cta_tiler, A, sA, copyA, mmaC);
}

// Blackwell style: the cluster's layout is built in the kernel from the launch's cluster shape; the
// smem tensors come from the shared storage's member functions.
template <class ElemA, class LayoutA>
struct UmmaStorage {
  alignas(128) cute::ArrayEngine<ElemA, cute::cosize_v<LayoutA>> A;
  CUTE_DEVICE constexpr auto tensor_sA() { return make_tensor(make_smem_ptr(A.begin()), LayoutA{}); }
};

template <class Storage, class TiledMma, class ClusterShape>
__global__ void umma_kernel(TiledMma tiled_mma, ClusterShape cluster_shape) {
  extern __shared__ char smem_buf[];
  Storage& storage = *reinterpret_cast<Storage*>(smem_buf);
  Tensor tCsA = storage.tensor_sA();  // (MmaA, NumMma_M, NumMma_K)
  Layout cluster_layout_vmnk = tiled_divide(make_layout(cluster_shape),
                                            make_tile(typename TiledMma::AtomThrID{}));  // (V,M,N,K)
  int num_mcast_participants = size<1>(cluster_layout_vmnk) + size<2>(cluster_layout_vmnk) - 1;
}

void run_umma() {
  TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 256,
                                                                 UMMA::Major::K, UMMA::Major::K>{});
  auto cluster_shape = make_shape(Int<4>{}, Int<4>{}, Int<1>{});
  auto mma_shape_A = partition_shape_A(tiled_mma, make_shape(Int<256>{}, Int<64>{}));
  auto sA_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, mma_shape_A);
  using Storage = UmmaStorage<half_t, decltype(sA_layout)>;
  auto* kernel_ptr = &umma_kernel<Storage, decltype(tiled_mma), decltype(cluster_shape)>;
  cutlass::launch_kernel_on_cluster(params, (void const*)kernel_ptr, tiled_mma, cluster_shape);
}
