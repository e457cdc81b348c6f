// cutevis — the smem -> register -> MMA path of a kernel, replayed on the GPU
// (scripts/gpu_pipeline.py writes the cases and checks the results).
//
// Per case: shared memory is filled (once with unique tags, once with small values), every
// thread runs the S2R copy's ldmatrix instructions at the addresses `cutevis copy --analyze
// --addresses` gives for A and B, keeps what they load, gathers the MMA's A and B fragments
// from those registers in the order make_tiled_copy_A/B's retile promises, and runs the real
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.  Out: every thread's loaded halves and D.
//
//   nvcc -O2 -arch=sm_90a -o pipeline_replay scripts/pipeline_replay.cu
//   ./pipeline_replay cases.txt results.txt
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

constexpr int kMaxLoads = 16;   // ldmatrix instructions per thread (A and B together)
constexpr int kRegs = 32;       // 32-bit registers a thread may load
struct Load {
  int matrices, trans, table;   // table: offset of THREADS row addresses in the address array
};

__global__ void pipeline(const uint16_t* fill, int smem_halves, const Load* loads, int nloads, const int* addr, const int* perm_a,
                         const int* perm_b, uint16_t* out_regs, float* out_d) {
  extern __shared__ __align__(1024) uint16_t smem[];
  const int t = threadIdx.x, threads = blockDim.x;
  for (int i = t; i < smem_halves; i += threads) smem[i] = fill[i];
  __syncthreads();
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  uint32_t regs[kRegs];
  for (int i = 0; i < kRegs; ++i) regs[i] = 0;
  int next = 0;
  for (int l = 0; l < nloads; ++l) {
    const Load ld = loads[l];
    const int a = addr[ld.table + t];
    const uint32_t sa = base + static_cast<uint32_t>(a < 0 ? 0 : a);
    uint32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    switch (ld.matrices * 10 + ld.trans) {
      case 10: asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(sa)); break;
      case 20: asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(sa)); break;
      case 40: asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(sa)); break;
      case 11: asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(sa)); break;
      case 21: asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(sa)); break;
      case 41: asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(sa)); break;
    }
    const uint32_t got[4] = {r0, r1, r2, r3};
    for (int i = 0; i < ld.matrices && next < kRegs; ++i) regs[next++] = got[i];
  }
  auto half_at = [&](int h) -> uint32_t { return h < 0 ? 0u : (regs[h / 2] >> (16 * (h % 2))) & 0xffffu; };
  for (int h = 0; h < 2 * kRegs; ++h) out_regs[t * 2 * kRegs + h] = static_cast<uint16_t>(half_at(h));
  // The MMA's fragments, value by value from the loaded halves (retile_D of the copy).
  uint32_t a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = half_at(perm_a[t * 8 + 2 * i]) | (half_at(perm_a[t * 8 + 2 * i + 1]) << 16);
  for (int i = 0; i < 2; ++i) b[i] = half_at(perm_b[t * 4 + 2 * i]) | (half_at(perm_b[t * 4 + 2 * i + 1]) << 16);
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  out_d[t * 4 + 0] = d0;
  out_d[t * 4 + 1] = d1;
  out_d[t * 4 + 2] = d2;
  out_d[t * 4 + 3] = d3;
}

#define CHECK(x)                                                                                 \
  do {                                                                                           \
    cudaError_t e = (x);                                                                         \
    if (e != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e));    \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

template <class T>
T* upload(const std::vector<T>& v) {
  T* p = nullptr;
  CHECK(cudaMalloc(&p, sizeof(T) * (v.empty() ? 1 : v.size())));
  if (!v.empty()) CHECK(cudaMemcpy(p, v.data(), sizeof(T) * v.size(), cudaMemcpyHostToDevice));
  return p;
}

// cases.txt, per case:
//   case NAME THREADS SMEM_HALVES NLOADS
//   fill SMEM_HALVES x2 (tags, then values; fp16 bits)      load MATRICES TRANS + THREADS addresses (NLOADS times)
//   perm_a THREADS*8 half indices     perm_b THREADS*4 half indices
// results.txt, per case and fill: "regs NAME FILL t h0 .. h63" per thread, "d NAME FILL t d0 d1 d2 d3".
int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: pipeline_replay cases.txt results.txt\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  FILE* out = std::fopen(argv[2], "w");
  std::string word;
  int cases = 0;
  while (in >> word) {
    std::string name;
    int threads, halves, nloads;
    in >> name >> threads >> halves >> nloads;
    std::vector<uint16_t> fills[2];
    for (auto& f : fills) {
      f.resize(halves);
      for (auto& h : f) { int v; in >> v; h = static_cast<uint16_t>(v); }
    }
    std::vector<Load> loads(nloads);
    std::vector<int> addr;
    for (auto& l : loads) {
      in >> l.matrices >> l.trans;
      l.table = static_cast<int>(addr.size());
      for (int t = 0; t < threads; ++t) { int a; in >> a; addr.push_back(a); }
    }
    std::vector<int> perm_a(threads * 8), perm_b(threads * 4);
    for (auto& p : perm_a) in >> p;
    for (auto& p : perm_b) in >> p;
    if (nloads > kMaxLoads) { std::fprintf(stderr, "%s: too many loads\n", name.c_str()); return 2; }
    auto* d_loads = upload(loads);
    auto* d_addr = upload(addr);
    auto* d_pa = upload(perm_a);
    auto* d_pb = upload(perm_b);
    uint16_t* d_regs;
    float* d_d;
    CHECK(cudaMalloc(&d_regs, sizeof(uint16_t) * threads * 2 * kRegs));
    CHECK(cudaMalloc(&d_d, sizeof(float) * threads * 4));
    for (int f = 0; f < 2; ++f) {
      auto* d_fill = upload(fills[f]);
      pipeline<<<1, threads, halves * 2>>>(d_fill, halves, d_loads, nloads, d_addr, d_pa, d_pb, d_regs, d_d);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      std::vector<uint16_t> regs(threads * 2 * kRegs);
      std::vector<float> d(threads * 4);
      CHECK(cudaMemcpy(regs.data(), d_regs, sizeof(uint16_t) * regs.size(), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(d.data(), d_d, sizeof(float) * d.size(), cudaMemcpyDeviceToHost));
      for (int t = 0; t < threads; ++t) {
        std::fprintf(out, "regs %s %d %d", name.c_str(), f, t);
        for (int h = 0; h < 2 * kRegs; ++h) std::fprintf(out, " %u", regs[t * 2 * kRegs + h]);
        std::fprintf(out, "\nd %s %d %d %.9g %.9g %.9g %.9g\n", name.c_str(), f, t, d[t * 4], d[t * 4 + 1], d[t * 4 + 2], d[t * 4 + 3]);
      }
      cudaFree(d_fill);
    }
    cudaFree(d_loads); cudaFree(d_addr); cudaFree(d_pa); cudaFree(d_pb); cudaFree(d_regs); cudaFree(d_d);
    ++cases;
  }
  std::fclose(out);
  std::printf("pipeline: %d cases run\n", cases);
  return 0;
}
