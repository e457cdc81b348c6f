// A kernel named as a value (`auto kernel_fptr = gemm_device<...>;`) and launched through it, a
// parameter marked CUTLASS_GRID_CONSTANT (hand-written in the style of CuTe's sgemm_sm80 / wgmma_tma_sm90
// tutorials; read by tests/lang/kernel_pointer_test.cpp, values in kernel_pointer_oracle.tsv).
#include <cute/tensor.hpp>
using namespace cute;

template <class ProblemShape, class TA, class SmemLayoutA, class SmemLayoutB>
__global__ void gemm_device(ProblemShape shape_MNK, TA const* A, SmemLayoutA sA_layout,
                            CUTLASS_GRID_CONSTANT SmemLayoutB const sB_layout)
{
  auto stages = size<2>(sA_layout);
  auto b_cosize = cosize(sB_layout);
}

template <class TA>
void gemm_tn(int m, TA const* A, cudaStream_t stream = 0)
{
  auto prob_shape = make_shape(m, Int<256>{}, Int<64>{});
  auto sA = make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}));
  auto sB = make_layout(make_shape(Int<64>{}, Int<8>{}), LayoutRight{});
  auto kernel_fptr = gemm_device<decltype(prob_shape), TA, decltype(sA), decltype(sB)>;
  cudaFuncSetAttribute(kernel_fptr, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096);
  kernel_fptr<<<dim3(4), dim3(128), 4096, stream>>>(prob_shape, A, sA, sB);
}
