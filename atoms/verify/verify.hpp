// cutevis — `verify`: run an atom's real instruction on the GPU with data placed per
// its layouts (or hand-written ones) and check every output element, then, on a
// disagreement, probe single elements to say which (thread, value) entries are wrong
// and where the hardware really puts them.
//
//   cutevis verify SM80_16x8x16_F32F16F16F32_TN            -> verify_mma(find_mma_atom(name))
//   cutevis verify NAME --layout-a L [--layout-b/-c L] [--thr-id L]
//   cutevis verify "Copy_Atom<SM75_U32x4_LDSM_N, half_t>" [--layout-src/--layout-dst L]
//   cutevis verify --all [--arch sm90] [--json]             -> verify_all(filter)
//
// Bad input (wrong layout sizes, ...) is an Error thrown by verify_mma/verify_copy; the
// statuses below become exit codes in app (app/verify_json.hpp: verify_exit_code).
//
// How: kernels are PTX generated from the plan at run time (one shape per instruction
// class) and JIT-compiled by the CUDA driver (atoms/verify/cuda/), which is opened with
// dlopen: nothing links libcuda, and a build without the CUDA toolkit reports no GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "atoms/mma_atom.hpp"
#include "lib/layout.hpp"
#include "lib/ownership.hpp"

namespace cutevis {

struct GpuStatus {
  bool available = false;
  std::string message;  // the device ("NVIDIA H100 80GB HBM3 (sm_90, ...)") or why there is none
  std::string device;
  int sm = 0;  // compute capability, 90 for an H100
};
GpuStatus probe_gpu();

struct VerifyOverrides {
  // MMA: hand-written TV layouts (thr,val) -> column-major (M,K) / (N,K) / (M,N), and ThrID.
  std::optional<Layout> layout_a, layout_b, layout_c, thr_id;
  // Copy: (thr,val) -> value index, in the atom's value_type units (ValLayoutSrc/Dst).
  std::optional<Layout> layout_src, layout_dst;
  // GMMA shared-memory operands: "INTER", "SW32", "SW64" or "SW128" ("" = CuTe's selector).
  std::string smem_layout;
};

enum class VerifyStatus { kAgree, kDisagree, kSkipped, kNoGpu, kError };
std::string to_string(VerifyStatus s);  // "agree", "disagree", "skipped", "no-gpu", "error"

// One wrong entry: the layout puts it at `expected`, the hardware at `actual`.
struct VerifyEntry {
  Owner owner;                                   // (thr, val); shared memory: thr = -1, val = element offset
  std::string entry;                             // "T5 V3" or "smem[+0x1a0]"
  int64_t expected_cell = -1, actual_cell = -1;  // row + rows*col; -1: nowhere
  std::string expected, actual;                  // "(M3,K2)", "nowhere"
};

// Per cell of an operand tile: who the layout says owns it, who the hardware shows.
struct VerifyCell {
  std::vector<Owner> expected, actual;
  bool wrong = false;
};

struct VerifyOperand {
  std::string name;     // "A", "B", "C" (C stands for C and D) / "src", "dst"
  std::string storage;  // "registers", "shared memory (SW32 K-major, ...)", "row addresses"
  std::string layout;   // the layout checked, CuTe notation
  bool overridden = false;
  VerifyStatus status = VerifyStatus::kAgree;  // kAgree / kDisagree (kSkipped: not checked)
  int64_t cells_disagree = 0;
  std::vector<VerifyEntry> wrong;
  std::string row_name, col_name;  // "M","K"; copies: "row","col" (16-bit elements of 16-byte rows)
  int64_t rows = 0, cols = 0;
  std::vector<VerifyCell> cells;  // rows*cols, column-major; filled for single-atom runs and disagreements
};

struct VerifyReport {
  std::string atom;
  std::string kind;  // "mma" or "copy"
  std::string family;
  int sm = 0;
  std::string instruction;  // the PTX mnemonic run
  std::string device;
  VerifyStatus status = VerifyStatus::kSkipped;
  std::string reason;                   // skipped / no-gpu / error: why; disagree: a one-line summary
  std::string established;              // what the hardware established (functional equivalence vs identity)
  std::string anchors;                  // how hardware rows/cols/k were named when localizing
  int64_t checked = 0, mismatches = 0;  // main run: D entries (MMA) / tile elements (copy)
  std::vector<VerifyOperand> operands;
  double seconds = 0;
};

VerifyReport verify_mma(const MmaAtom& atom, const VerifyOverrides& overrides = {});
VerifyReport verify_copy(const CopyAtom& atom, const VerifyOverrides& overrides = {});

struct VerifyFilter {
  std::optional<int> sm;  // --arch sm90: only atoms of that SM (atom.sm)
  std::string contains;   // only atoms whose name contains this
  bool mma = true, copy = true;
  int workers = 0;     // JIT threads (0: one per core)
  bool cells = false;  // fill cells even for agreeing atoms
};
struct VerifySummary {
  std::vector<VerifyReport> reports;
  std::string device;
  double seconds = 0, jit_seconds = 0, run_seconds = 0;
  int modules = 0, workers = 0;
};
// Verify many atoms in one process: plan all, JIT in parallel batches, run each.
VerifySummary verify_batch(const std::vector<MmaAtom>& mma, const std::vector<CopyAtom>& copies,
                           const VerifyFilter& filter = {});

// verify_batch over the whole catalogues (mma_catalogue(), copy_catalogue()); on an
// H100 the runnable part is every SM61..SM90 MMA atom, GMMA SS/RS included, and the
// ldmatrix/stmatrix/movmatrix copy atoms; the rest is reported skipped with the reason.
VerifySummary verify_all(const VerifyFilter& filter = {});

std::string to_text(const VerifyReport& report);
// The --all table: one line per family, then every atom that did not agree;
// `every_atom` lists all atoms.
std::string to_text(const VerifySummary& summary, bool every_atom = false);

}  // namespace cutevis
