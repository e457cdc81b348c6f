// cutevis — verify's pipeline mode: the smem -> register -> MMA path of a hand-written kernel,
// run with the real instructions and checked element by element.
//
//   [G2S]  gmem (MN,K) --cp.async / ld.global+st.shared--> smem (MN,K)     the --g2s TiledCopy
//   [S2R]  smem --ldmatrix / ld.shared--> registers                         make_tiled_copy_A/B(atom, mma)
//   [MMA]  registers (mma.sync) or smem descriptors (wgmma SS) --> D       the TiledMMA
//
// What the layouts predict: after G2S, element (mn,k) sits at smem offset S(mn,k); after S2R,
// thread t's copy value v holds the cell get_layoutD_TV(t,v) (tile by tile over K); the MMA
// computes D = A*B over the whole K.  What the hardware is asked: each instruction runs at the
// addresses a kernel computes from the same layouts (the address of each call's first value:
// the instruction then moves its width contiguously, as the real one does).  Data sets, one
// block each: tags (every element of A and B its own 16-bit tag: smem and registers are read
// back and decoded), random small integers (D exact), and for wgmma SS shifted identities that
// make D show which element the tensor core read at every (mn,k).
//
// Plain C++: planning, PTX generation and checking run without a GPU (tests/verify); the launch
// goes through atoms/verify/cuda/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "atoms/mma_atom.hpp"
#include "atoms/verify/plan.hpp"
#include "atoms/verify/verify.hpp"
#include "lib/swizzle.hpp"

namespace cutevis {

// One operand (A or B) of the pipeline as the kernel declares it.
struct PipelineOperandSpec {
  AnyLayout smem;                 // (MN,K) -> element offset: sA / sB (K a multiple of the MMA's K tile)
  std::optional<AnyLayout> data;  // where the data really is in shared memory (the producer's layout:
                                  // the G2S copy's destination, or the host's fill); default `smem`
  std::optional<AnyLayout> gmem;  // (MN,K) -> element offset in global memory (G2S source); default K-major
  std::optional<TiledCopy> g2s;   // gmem -> smem; none: shared memory is filled from the host per `smem`
  std::optional<CopyAtom> s2r;    // smem -> registers through make_tiled_copy_A/B (mma.sync only)
  std::string smem_text, data_text, gmem_text, g2s_text, s2r_text;  // as written, for reports
};

struct PipelineSpec {
  TiledMma mma;
  std::string mma_text;
  PipelineOperandSpec a, b;
};

namespace verify {

// One warp-wide memory instruction of one thread: byte offsets into its operand's global /
// shared image (-1: this thread does not take part).
struct PipelineCall {
  int bytes = 0;  // bytes each thread moves (16 for an ldmatrix row)
  int64_t gmem = -1, smem = -1;
};

enum class S2RKind { kNone, kLdmatrix, kLoad };

struct PipelineOperand {
  char name = 'A';
  int64_t mn = 0, k = 0;  // the smem tile (MN,K); K = k_tiles * the MMA's K tile
  int64_t k_tiles = 1;
  NumberFormat format;
  std::vector<int64_t> smem_offset;  // element offset of every cell (mn + MN*k): the kernel's view (S2R, descriptor)
  std::vector<int64_t>
      data_offset;  // where the producer (G2S or the host) puts every cell; = smem_offset unless --data
  std::vector<int64_t> gmem_offset;  // with G2S: the global offset of every cell
  int64_t smem_bytes = 0, gmem_bytes = 0;
  // G2S
  bool g2s = false;
  bool cp_async = false;      // cp.async (else ld.global + st.shared)
  bool cache_global = false;  // cp.async.cg (16 bytes, L2 only), else .ca
  int g2s_threads = 0;
  std::vector<std::vector<PipelineCall>> g2s_calls;  // [call][thread]
  // S2R
  S2RKind s2r = S2RKind::kNone;
  std::string s2r_opcode;  // "ldmatrix.sync.aligned.m8n8.x4.shared.b16", "ld.shared.v4.b32"
  int matrices = 0;        // ldmatrix .xN
  bool trans = false;
  std::vector<std::vector<PipelineCall>> s2r_calls;  // [call][thread]: smem byte offset of the row / vector
  int64_t copy_values = 0;                           // 16-bit values each thread receives (all calls)
  std::vector<std::vector<int64_t>> copy_cell;       // [thread][value]: the cell the layouts promise
  // MMA fragment gather (mma.sync): [thread][(ktile, rest_mn, rest_k) call][fv] -> copy value
  std::vector<std::vector<std::vector<int64_t>>> gather;
  // what each fragment value is, for the reports: [thread][call][fv] -> cell
  std::vector<std::vector<std::vector<int64_t>>> mma_cell;
  // wgmma SS: the canonical layout the descriptor describes, and its offsets
  SmemTile canonical;
  std::string smem_text, data_text;
};

struct PipelinePlan {
  std::string name;  // the report's title
  bool wgmma = false;
  MmaPlan atom;                                // the MMA atom's plan (registers, slots, opcode)
  int threads = 0;                             // threads per block
  int64_t m = 0, n = 0, k = 0;                 // the whole problem: (M,N) of the TiledMMA's tile, K of the smem tiles
  int64_t rest_m = 1, rest_n = 1, rest_k = 1;  // atom calls per thread per K tile (mma.sync)
  int64_t frg_a = 0, frg_b = 0, frg_c = 0;     // values per atom call per thread
  PipelineOperand a, b;
  std::vector<std::vector<int64_t>> c_cell;  // [thread][value of get_layoutC_TV] -> (m + M*n)
  int64_t d_words = 0;                       // D words per thread (all calls)
  // Per thread and D word: the C value and bit it holds: (value, bit)
  std::vector<std::vector<std::pair<int64_t, int>>> d_slot;
  std::vector<std::string> static_failures;  // found before any instruction runs (misaligned rows, fragments)
  std::vector<int64_t> static_wrong_a, static_wrong_b;  // cells those failures touch
  int ptx_version = 70;
  std::string target;  // "sm_90a" or ""
};

// Plan the pipeline; Error for specs that cannot describe a kernel (shapes, types, threads).
PipelinePlan plan_pipeline(const PipelineSpec& spec);

// The kernel: parameters (pga, pgb, ptab, psmem, pregs, pd); block b runs data set b.
std::string pipeline_kernel_ptx(const PipelinePlan& plan, const std::string& entry);

// The per-thread table the kernel reads (call addresses, gather indices), as u32 words.
std::vector<uint32_t> pipeline_table(const PipelinePlan& plan);

// Data sets: the values of A (M x K) and B (N x K) cells, column-major, per block: tags, random
// integers, and for wgmma SS the identities (D(m,n) = A(m, n+o) read, then B likewise; the
// operand not under test placed where the descriptor reads it).
struct PipelineData {
  std::vector<int64_t> a, b;
  bool tags = false;  // tags: raw 16-bit patterns, not numbers
};
std::vector<PipelineData> pipeline_data(const PipelinePlan& plan);
// A data set placed: the global images of A and B (the smem image without G2S).
std::vector<uint32_t> pipeline_image(const PipelineOperand& op, const std::vector<int64_t>& values, bool tags);

// What one block gave back.
struct PipelineResult {
  std::vector<uint32_t> smem_a, smem_b;  // the shared images after G2S
  std::vector<uint32_t> regs;            // [thread][A words..., B words...]
  std::vector<uint32_t> d;               // [thread][d_words]
};
// Words the kernel writes per block.
int64_t pipeline_reg_words(const PipelinePlan& plan);

// Compare everything with the prediction and build the report (operands sA, A, sB, B, C as
// they apply; the first wrong thread/register/element in `reason`).
VerifyReport check_pipeline(const PipelinePlan& plan, const std::vector<PipelineData>& data,
                            const std::vector<PipelineResult>& results);
// The report of a plan that fails before the GPU (static_failures non-empty).
VerifyReport static_pipeline_report(const PipelinePlan& plan);

}  // namespace verify

// Plan, run on the GPU and check.  Without a GPU: status no-gpu (or, when the plan already
// fails, that disagreement); Error for bad specs.
VerifyReport verify_pipeline(const PipelineSpec& spec);

}  // namespace cutevis
