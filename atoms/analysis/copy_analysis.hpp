// cutevis — a TiledCopy placed over tensors and what one `copy(tiled_copy, src, dst)` by all
// its threads costs: per warp-wide instruction and in total (issue 9's inspector).
//
//   CopyTensor src{MemorySpace::kGmem, (128,64):(64,1)}, dst{MemorySpace::kSmem, Sw<3,4,3> o ...};
//   CopyAnalysis a = analyze_copy(tiled_copy, src, dst);
//   a.smem.wavefronts, a.gmem.sectors, a.instructions[i].address ...
//
// The tensors are (M,N) views (index m + M*n) of element offsets in units of the atom's value
// type; they are tiled by the copy's Tiler_MN exactly as partition_S/D do (zipped_divide), and
// every thread issues one instruction per atom call, tile by tile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atoms/analysis/json.hpp"
#include "atoms/analysis/memory_model.hpp"
#include "atoms/copy_atom.hpp"
#include "lib/swizzle.hpp"

namespace cutevis {

struct CopyTensor {
  MemorySpace space = MemorySpace::kRmem;  // kRmem: registers (a fragment), nothing to cost
  AnyLayout layout = Layout();             // (M,N) -> element offset
};

// What one side (source or destination) of the copy costs, summed over its instructions.
struct SideTotals {
  int64_t instructions = 0;                                          // warp-wide instructions
  int64_t wavefronts = 0, ideal_wavefronts = 0, bank_conflicts = 0;  // smem
  int64_t bank_conflicts_min = 0;                     // smem: cp.async.ca's lower bound (see MemoryInstruction)
  int64_t requests = 0, sectors = 0, bytes_used = 0;  // gmem
  int64_t bytes_moved() const { return sectors * 32; }
  double efficiency() const {
    return sectors ? static_cast<double>(bytes_used) / static_cast<double>(bytes_moved()) : 1.0;
  }
};

struct CopySide {
  MemorySpace space = MemorySpace::kRmem;
  AccessKind kind = AccessKind::kLoad;
  int bits = 0;                   // access width per thread (per 16-byte row for ldmatrix/stmatrix)
  int64_t max_common_vector = 0;  // values each thread's leading run keeps contiguous (CuTe's max_common_vector)
  bool vectorizes = true;         // every access's values are contiguous at this width
  bool aligned = true;            // every address a multiple of the access width
  SideTotals totals;
};

struct CopyAnalysis {
  std::string atom;    // the copy atom's name
  int value_bits = 0;  // sizeof_bits of its value type
  int64_t threads = 0;
  IntTuple tensor_shape;    // (M,N)
  int64_t tiles = 0;        // tiles of Tiler_MN over the tensor (CPY_M * CPY_N)
  int64_t vector_bits = 0;  // access width per thread of the copy (bits)
  CopySide src, dst;
  std::vector<MemoryInstruction> instructions;  // smem and gmem ones, in issue order per warp
  SideTotals smem, gmem;                        // over both sides
  std::vector<std::string> notes;
  // What the numbers mean for the kernel, worst first: errors (CuTe would not compile it, or it would
  // fault on the GPU) and warnings (it works but costs), each with its reason and a fix.
  struct Finding {
    bool error = false;
    std::string message;  // "rows are 136 B apart; 16-byte cp.async needs 16-byte aligned rows"
    std::string fix;      // "pad to 144 B (stride 72)"; empty when none is known
  };
  std::vector<Finding> findings;
  bool has_errors() const;
  // Per cell of each tensor (index m + M*n), for pictures: see CellCosts.
  struct CellCosts {
    std::vector<int64_t> wavefront;   // smem: the wavefront (within its instruction) serving the cell; -1 untouched
    std::vector<int64_t> conflicted;  // smem: 1 when that instruction has bank conflicts
    std::vector<int64_t> sector;      // gmem: byte address / 32; -1 untouched
  } src_cells, dst_cells;
};

// The most tensor elements one analysis covers (copy/mma --analyze); more is an Error.
constexpr int64_t kMaxAnalyzedElements = int64_t{1} << 20;

// Place the copy over the tensors and cost every instruction.  Both tensors (when given) have the
// same (M,N) shape, a multiple of the copy's tile.  Throws Error for impossible placements.
CopyAnalysis analyze_copy(const TiledCopy& copy, const CopyTensor& src, const CopyTensor& dst);

// The memory spaces CuTe's atom implies for source and destination (LDSM: smem -> rmem,
// STSM: rmem -> smem, cp.async: gmem -> smem, UniversalCopy & co: gmem -> smem by default).
std::pair<MemorySpace, MemorySpace> default_spaces(const CopyAtom& atom);

Json to_json(const CopyAnalysis& a, bool with_addresses);
// The summary first (per side: instructions, wavefronts vs ideal, conflicts, sectors, efficiency,
// vector width), then the findings, then the instructions: identical ones collapsed into one line
// with a count, or every one with `instructions`.
std::string to_text(const CopyAnalysis& a, bool instructions = false);

}  // namespace cutevis
