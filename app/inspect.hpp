// cutevis — `cutevis copy EXPR --src T --dst T --analyze`: the inspector's CLI side (issue 9).
// Parses the tensors' text, calls atoms/analysis, prints its results; computes nothing itself.
#pragma once

#include <string>
#include <vector>

#include "app/commands.hpp"
#include "atoms/copy_atom.hpp"

namespace cutevis {

struct InspectOptions {
  std::string src, dst;           // "[smem:|gmem:]LAYOUT", e.g. "gmem:(128,64):(64,1)"
  bool analyze = false;           // --analyze
  bool addresses = false;         // --addresses: every lane's byte address in the --json per-instruction list
  std::string mma;                // --mma EXPR: check the copy's destination fragment against this TiledMMA's
  std::string operand = "A";      // --operand A|B
  bool instructions = false;      // --instructions: every instruction's line (else identical ones collapsed)
  bool suggest = false;           // --suggest: shared-memory layouts that cost less under every copy of the tensor
  std::vector<std::string> also;  // --also COPY: other TiledCopies of the same shared-memory tensor
  std::string also_gmem;          // --also-gmem LAYOUT: their global side (default row-major (M,N))
};

// `cutevis mma EXPR --smem-a T --smem-b T [--copy-a ATOM] [--copy-b ATOM] --analyze`: the S2R
// copies of the MMA's operands from shared memory, analysed like `copy --analyze`.
struct MmaInspectOptions {
  std::string smem_a, smem_b;  // (M,K) / (N,K) shared-memory tensors
  std::string copy_a, copy_b;  // copy atoms for make_tiled_copy_A/B; default: the MMA's own
                               // partition copied by copy() (AutoVectorizingCopy)
  bool analyze = false;
  bool instructions = false;      // --instructions
  bool suggest = false;           // --suggest: layouts for each operand's tensor (descriptor operands: canonical ones)
  std::vector<std::string> also;  // --also COPY: G2S copies writing the operands' tensors
  std::string also_gmem;          // --also-gmem LAYOUT
  bool any() const { return analyze || !smem_a.empty() || !smem_b.empty() || !copy_a.empty() || !copy_b.empty(); }
};
Output run_mma_inspection(const struct TiledMma& mma, const ShowOptions& show, const MmaInspectOptions& options);

// `mma --thread T --svg|--png|--html|...`: the TiledMMA over its A, B, C tensors (--smem-a/--smem-b
// when given, else one tile) with thread T's cells highlighted and labelled by value index
// (element i of its partition_A/B/C).  `options` may be null (the `atom` command).
Output draw_mma_thread(const struct TiledMma& mma, const ShowOptions& show, const MmaInspectOptions* options);

// The element offsets a tensor's memory has: its layout, or for a pointer carrying a swizzle
// (C++'s make_tensor(smem_ptr, Sw o smem_ptr_flag o L), CuTeDSL's swizzled smem) the smem-flagged
// composed layout, whose swizzle acts on byte addresses.
AnyLayout memory_layout(const struct Tensor& tensor);

bool wants_inspection(const InspectOptions& o);  // any of --src/--dst/--analyze/--mma
// The analysis of `copy` over the tensors as text or JSON (options.json).
Output run_copy_inspection(const TiledCopy& copy, const ShowOptions& show, const InspectOptions& options);

// `--who 'A(5,3)'` (mma/atom: A, B, C; copy: S, D) and `--feeds 'C(9,4)'` (mma/atom): every
// (thread, value) that holds the cell and its register; the A and B cells, threads and registers
// that feed a C cell.  `command` is "atom", "mma" or "copy"; the object is show.input.
struct WhoOptions {
  std::string who, feeds;
  bool any() const { return !who.empty() || !feeds.empty(); }
};
Output run_who(const ShowOptions& show, const WhoOptions& options, const std::string& command);

// `cutevis desc 0x4000004000010000 [--gmma|--umma] [--type half_t] [--major K|MN] [--mn 64]`: a
// shared-memory descriptor's fields, and the canonical layout it addresses (text, --json, or a picture
// of the core matrices: each cell the element offset from the start address).
struct DescOptions {
  std::string value;                // the 64-bit descriptor, hex (0x...) or decimal
  bool gmma = false, umma = false;  // neither: UMMA when its version bits say 1, else GMMA
  std::string type = "half_t";      // the element type it addresses
  std::string major = "K";          // K or MN
  int64_t mn = 64;                  // rows of MN to draw
};
Output run_desc(const DescOptions& options, const ShowOptions& show);

}  // namespace cutevis
