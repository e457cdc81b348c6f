// cutevis — replay of `cutevis copy ... --analyze --json --addresses` on the GPU, for ncu.
//
// Each case (written by scripts/gpu_inspect.py) is a list of steps every thread executes in
// order; a step is one warp-wide memory instruction (ld/st.shared, ld/st.global, ldmatrix,
// stmatrix, cp.async) and each thread's byte address for it.  One launch per case, one block of
// the TiledCopy's threads; ncu then measures exactly the instructions the analysis costed.
// Addresses live in __constant__ memory (LDC does not touch the L1TEX LSU pipe that the smem and
// gmem metrics count).
//
//   nvcc -O2 -arch=sm_90a -o inspect_replay scripts/inspect_replay.cu
//   ncu --csv --page raw --metrics ... ./inspect_replay cases.txt [serial]
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

enum Kind : int { kLds = 0, kSts = 1, kLdg = 2, kStg = 3, kLdsm = 4, kStsm = 5, kCpAsync = 6 };

struct Step {
  int kind, bits, matrices, trans;
  int table;   // offset of this step's per-thread addresses in c_addr (smem for cp.async)
  int table2;  // cp.async: the gmem source addresses
};

constexpr int kMaxSteps = 512;
constexpr int kMaxAddr = 13000;
__constant__ Step c_steps[kMaxSteps];
__constant__ int c_nsteps;
__constant__ int c_addr[kMaxAddr];

// One step of one thread: the instruction the analysis listed, at this thread's address.
__device__ __forceinline__ void do_step(const Step& st, int t, uint32_t sbase, char* gmem, uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3) {
  const int a = c_addr[st.table + t];
  const uint32_t sa = sbase + static_cast<uint32_t>(a < 0 ? 0 : a);
  char* ga = gmem + (a < 0 ? 0 : a);
  if (st.kind == kLdsm || st.kind == kStsm) {
    // warp-collective: every lane executes; lanes beyond 8 x N give no row
    const int code = st.kind * 100 + st.matrices * 10 + st.trans;
    switch (code) {
      case 410: asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(sa)); break;
      case 420: asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(sa)); break;
      case 440: asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(sa)); break;
      case 411: asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(sa)); break;
      case 421: asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(sa)); break;
      case 441: asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(sa)); break;
      case 510: asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(sa), "r"(r0) : "memory"); break;
      case 520: asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(sa), "r"(r0), "r"(r1) : "memory"); break;
      case 540: asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(sa), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory"); break;
      case 511: asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(sa), "r"(r0) : "memory"); break;
      case 521: asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(sa), "r"(r0), "r"(r1) : "memory"); break;
      case 541: asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(sa), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory"); break;
    }
    return;
  }
  if (a < 0) return;  // inactive lane
  const int code = st.kind * 1000 + st.bits;
  switch (code) {
    case 8: { uint16_t v; asm volatile("ld.shared.u8 %0, [%1];" : "=h"(v) : "r"(sa)); r0 += v; break; }
    case 16: { uint16_t v; asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(sa)); r0 += v; break; }
    case 32: asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r0) : "r"(sa)); break;
    case 64: asm volatile("ld.shared.v2.b32 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(sa)); break;
    case 128: asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(sa)); break;
    case 1008: asm volatile("st.shared.u8 [%0], %1;" :: "r"(sa), "h"(static_cast<uint16_t>(r0)) : "memory"); break;
    case 1016: asm volatile("st.shared.u16 [%0], %1;" :: "r"(sa), "h"(static_cast<uint16_t>(r0)) : "memory"); break;
    case 1032: asm volatile("st.shared.b32 [%0], %1;" :: "r"(sa), "r"(r0) : "memory"); break;
    case 1064: asm volatile("st.shared.v2.b32 [%0], {%1,%2};" :: "r"(sa), "r"(r0), "r"(r1) : "memory"); break;
    case 1128: asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};" :: "r"(sa), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory"); break;
    case 2008: { uint16_t v; asm volatile("ld.global.u8 %0, [%1];" : "=h"(v) : "l"(ga)); r0 += v; break; }
    case 2016: { uint16_t v; asm volatile("ld.global.u16 %0, [%1];" : "=h"(v) : "l"(ga)); r0 += v; break; }
    case 2032: asm volatile("ld.global.b32 %0, [%1];" : "=r"(r0) : "l"(ga)); break;
    case 2064: asm volatile("ld.global.v2.b32 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "l"(ga)); break;
    case 2128: asm volatile("ld.global.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "l"(ga)); break;
    case 3008: asm volatile("st.global.u8 [%0], %1;" :: "l"(ga), "h"(static_cast<uint16_t>(r0)) : "memory"); break;
    case 3016: asm volatile("st.global.u16 [%0], %1;" :: "l"(ga), "h"(static_cast<uint16_t>(r0)) : "memory"); break;
    case 3032: asm volatile("st.global.b32 [%0], %1;" :: "l"(ga), "r"(r0) : "memory"); break;
    case 3064: asm volatile("st.global.v2.b32 [%0], {%1,%2};" :: "l"(ga), "r"(r0), "r"(r1) : "memory"); break;
    case 3128: asm volatile("st.global.v4.b32 [%0], {%1,%2,%3,%4};" :: "l"(ga), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory"); break;
    case 6032: case 6064: case 6128: {
      const char* src = gmem + c_addr[st.table2 + t];
      if (st.bits == 32) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa), "l"(src) : "memory");
      if (st.bits == 64) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(sa), "l"(src) : "memory");
      // 16 bytes: matrices == 1 marks .cg (SM80_CP_ASYNC_CACHEGLOBAL, L1 bypassed), else .ca
      if (st.bits == 128 && st.matrices == 1) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa), "l"(src) : "memory");
      if (st.bits == 128 && st.matrices != 1) asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(sa), "l"(src) : "memory");
      break;
    }
  }
}

// serial != 0: one warp at a time (a barrier after every warp's instruction), so that no two
// warps' shared-memory traffic meets in the pipeline; 0: all warps at once, as a kernel runs.
__global__ void replay(char* gmem, uint32_t* sink, int serial) {
  extern __shared__ __align__(1024) char smem[];
  const int t = threadIdx.x;
  const int warps = (blockDim.x + 31) / 32;
  const uint32_t sbase = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  uint32_t r0 = t, r1 = 3 * t, r2 = 5 * t, r3 = 7 * t;
  const int n = c_nsteps;
  for (int s = 0; s < n; ++s) {
    const Step st = c_steps[s];
    if (!serial) {
      do_step(st, t, sbase, gmem, r0, r1, r2, r3);
      continue;
    }
    for (int w = 0; w < warps; ++w) {
      if ((t >> 5) == w) {
        do_step(st, t, sbase, gmem, r0, r1, r2, r3);
        if (st.kind == kCpAsync) asm volatile("cp.async.wait_all;" ::: "memory");
      }
      __syncthreads();
    }
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  if ((r0 ^ r1 ^ r2 ^ r3) == 0x9e3779b9u && t == 1023) sink[0] = r0;  // keeps the loads' results alive
}

#define CHECK(x)                                                                         \
  do {                                                                                   \
    cudaError_t e = (x);                                                                 \
    if (e != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

// cases.txt:
//   case NAME THREADS SMEM_BYTES GMEM_BYTES NSTEPS
//   step KIND BITS MATRICES TRANS HAS_SRC  then THREADS addresses (and THREADS gmem sources when HAS_SRC)
int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: inspect_replay cases.txt [serial]\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  const int serial = argc > 2 && std::string(argv[2]) == "serial";
  char* gmem = nullptr;
  uint32_t* sink = nullptr;
  const size_t gmem_bytes = size_t(64) << 20;
  CHECK(cudaMalloc(&gmem, gmem_bytes));
  CHECK(cudaMemset(gmem, 0, gmem_bytes));
  CHECK(cudaMalloc(&sink, 4096));
  CHECK(cudaFuncSetAttribute(replay, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  std::string word;
  int count = 0;
  while (in >> word) {
    if (word != "case") {
      std::fprintf(stderr, "bad cases file near '%s'\n", word.c_str());
      return 2;
    }
    std::string name;
    long threads, smem_bytes, gmem_need, nsteps;
    in >> name >> threads >> smem_bytes >> gmem_need >> nsteps;
    std::vector<Step> steps(nsteps);
    std::vector<int> addr;
    for (long s = 0; s < nsteps; ++s) {
      std::string tag;
      int has_src;
      in >> tag >> steps[s].kind >> steps[s].bits >> steps[s].matrices >> steps[s].trans >> has_src;
      steps[s].table = static_cast<int>(addr.size());
      for (long t = 0; t < threads; ++t) { int a; in >> a; addr.push_back(a); }
      steps[s].table2 = steps[s].table;
      if (has_src) {
        steps[s].table2 = static_cast<int>(addr.size());
        for (long t = 0; t < threads; ++t) { int a; in >> a; addr.push_back(a); }
      }
    }
    if (nsteps > kMaxSteps || addr.size() > size_t(kMaxAddr) || smem_bytes > 227 * 1024 || size_t(gmem_need) > gmem_bytes) {
      std::fprintf(stderr, "case %s too large (steps %ld, addresses %zu, smem %ld)\n", name.c_str(), nsteps, addr.size(), smem_bytes);
      return 2;
    }
    int n = static_cast<int>(nsteps);
    CHECK(cudaMemcpyToSymbol(c_steps, steps.data(), sizeof(Step) * steps.size()));
    CHECK(cudaMemcpyToSymbol(c_nsteps, &n, sizeof n));
    CHECK(cudaMemcpyToSymbol(c_addr, addr.data(), sizeof(int) * addr.size()));
    replay<<<1, threads, smem_bytes>>>(gmem, sink, serial);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::printf("case %d %s ok\n", count++, name.c_str());
  }
  std::printf("replayed %d cases\n", count);
  return 0;
}
