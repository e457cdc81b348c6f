// cutevis — `cutevis check`: a kernel's copies and gemms checked from its source, no compiler.
//
//   KernelFile k = read_kernels(text, file);                       (lib/lang/kernel_body.hpp: syntax)
//   CheckResult r = check_kernels(k, file, text, env);             (kernel_trace.cpp: statements -> values)
//   r.findings: FILE:LINE:COL, severity, kind, message, fix, and the declaration to change
//
// Two halves.  kernel_trace.cpp follows a kernel body's statements (make_tensor, local_tile,
// get_slice, partition_S/D/A/B/C, partition_fragment_*, retile_D/S, slicing) to *values*: for every
// `copy(...)` the TiledCopy and the (M,N) tensors it really moves, for every `gemm(...)` the
// TiledMMA and its operands.  check_copy / check_gemm (kernel_check.cpp) take those values and
// report what the hardware model (copy_analysis, partition) says: errors where CuTe would not
// compile or the kernel would fault, warnings where it costs.  The thread index is symbolic: the
// analysis covers every thread of the TiledCopy / TiledMMA; loop variables are taken at 0.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "atoms/analysis/copy_analysis.hpp"
#include "atoms/mma_atom.hpp"

namespace cutevis {

struct SourceLocation {
  std::string file;
  int line = 0, column = 0;
  bool known() const { return line > 0; }
};

struct Finding {
  std::string severity;  // "error" (exit 1), "warning", "note"
  std::string kind;      // vectorize, misaligned, partition, thread-count, fragment, operand, bank-conflict,
                         // uncoalesced, layout-comment, preprocessor, unresolved
  std::string message;
  std::string fix;  // what to change, when the model can say ("" otherwise)
  SourceLocation at;
  struct Related {
    SourceLocation at;
    std::string message;  // "declared here: SmemLayoutA"
  };
  std::vector<Related> related;
};

// One side of a copy as the statement moves it: the tensor (M,N) it partitions and where its
// layout is declared.
struct CheckedTensor {
  std::string name;  // the kernel's name for the partitioned tensor ("sA", "gA")
  CopyTensor tensor;
  SourceLocation layout_decl;  // the declaration to change (a using/auto of the layout, a host variable)
  std::string layout_name;
};

struct CopyEvent {
  SourceLocation at;      // the copy(...) statement
  std::string statement;  // as written
  TiledCopy copy;
  std::string copy_name;
  SourceLocation copy_decl;
  CheckedTensor src, dst;
  // The destination is an MMA's fragment (retile_D(partition_fragment_A(...)), ...): check it.
  std::optional<TiledMma> mma;
  char operand = 0;  // 'A' or 'B'
  SourceLocation mma_decl;
  // The kernel's TiledMMA (the one its gemm uses), for the thread count.
  std::optional<TiledMma> kernel_mma;
  std::string kernel_mma_name;
};

// Analyses already made, by TiledCopy and tensors: a sweep's configurations often move the same
// tensors with the same copy (only the stage count or another tile changed).
struct CopyAnalysisCache {
  std::map<std::string, CopyAnalysis> analyses;
  std::map<std::string, std::string> failures;  // analyze_copy's Error for the key
  int64_t hits = 0;
};

std::vector<Finding> check_copy(const CopyEvent& event, CopyAnalysisCache* cache = nullptr);

struct GemmEvent {
  SourceLocation at;
  TiledMma mma;
  std::string mma_name;
  SourceLocation mma_decl;
  // What the statement passes as A, B, C: the operand letter of the partition or fragment each
  // comes from (0: not followed) and the TiledMMA that made it.
  char from[3] = {0, 0, 0};
  int64_t threads[3] = {0, 0, 0};
  std::string names[3];
};

std::vector<Finding> check_gemm(const GemmEvent& event);

}  // namespace cutevis

namespace cutevis {
class Environment;
struct KernelFile;

// Every kernel of `k` traced once per launch found in the files (else once), its copies and gemms
// checked; `config` names the configuration in findings (sweeps).  Statements that cannot be
// followed are notes (kind "unresolved") naming what is missing.
struct CheckStats {
  int copies = 0, gemms = 0;  // statements followed to values and checked
};
struct CheckOptions {
  CheckStats* stats = nullptr;         // counted into, when given
  CopyAnalysisCache* cache = nullptr;  // shared by the configurations of a sweep
  std::string file;                    // the kernel file's name, for locations
  const std::string* text = nullptr;   // its text (comments are read for layout-comment checks)
};
std::vector<Finding> check_kernels(const KernelFile& k, Environment& env, const CheckOptions& options);

}  // namespace cutevis
