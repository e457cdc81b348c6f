// Runs one of the check kernels (tests/data/check/*.cu, chosen with -DCHECK_KERNEL='"file.cu"') on a
// GPU, for tests/data/check/gpu_confirm.sh: M = N = K = 256, one launch, then the CUDA error.
#include <cstdio>
#include <vector>

#include CHECK_KERNEL

int main() {
  const int M = 256, N = 256, K = 256;
  half_t *A = nullptr, *B = nullptr;
  float* C = nullptr;
  cudaMalloc(&A, sizeof(half_t) * M * K);
  cudaMalloc(&B, sizeof(half_t) * N * K);
  cudaMalloc(&C, sizeof(float) * M * N);
  cudaMemset(A, 0, sizeof(half_t) * M * K);
  cudaMemset(B, 0, sizeof(half_t) * N * K);
  const int smem = int(sizeof(half_t) * (cosize(SmemLayoutA{}) + cosize(SmemLayoutB{})));
  cudaFuncSetAttribute(gemm_sm80, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  dim3 grid(M / kBlockM, N / kBlockN), block(size(TiledMma{}));
  gemm_sm80<<<grid, block, smem>>>(M, N, K, A, B, C);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: smem %d bytes, %d threads: %s\n", CHECK_KERNEL, smem, int(size(TiledMma{})), cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
