// cutevis — the advisor's layout search (issue 24): shared-memory layouts a kernel writer would accept
// for the same (M,N) tile, each costed with the same model for every copy that touches the tensor.
//
//   std::vector<SmemUse> uses = {{g2s, gmem_tensor, /*smem_is_src=*/false}, {s2r, CopyTensor{}, true}};
//   std::vector<LayoutSuggestion> s = suggest_smem_layouts(current_smem_layout, 16, uses);
//   s[0].cpp, s[0].wavefronts, s[0].per_copy[i].bank_conflicts ...
//
// Candidates: the tile row- and column-major, composition(Swizzle<B,M,S>, ...) over them, the GMMA
// canonical atoms tiled to the shape, and row padding.  Legal only where every copy's accesses stay
// aligned and vectorized (a 16-byte cp.async into rows 136 bytes apart faults) and, when `legal` is
// given, where it says so (e.g. canonical where a descriptor reads the tensor).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "atoms/analysis/copy_analysis.hpp"
#include "atoms/analysis/json.hpp"

namespace cutevis {

// One copy that reads or writes the shared-memory tensor; `other` is its other side (registers,
// or a global tensor of the same (M,N) shape).
struct SmemUse {
  TiledCopy copy;
  CopyTensor other;
  bool smem_is_src = false;
};

struct LayoutSuggestion {
  AnyLayout layout;        // (M,N) -> element offset
  std::string cpp;         // C++ to paste
  std::string dsl;         // the CuTeDSL spelling
  std::string kind;        // "as given", "swizzle", "gmma atom", "padding", "row-major", "column-major"
  int64_t wavefronts = 0;  // smem wavefronts summed over the copies
  int64_t ideal_wavefronts = 0;
  int64_t bank_conflicts = 0;  // summed over the copies
  int64_t padding_bytes = 0;   // bytes beyond M*N elements (cosize - size)
  struct PerCopy {
    std::string atom;
    int64_t wavefronts = 0, ideal_wavefronts = 0, bank_conflicts = 0;
  };
  std::vector<PerCopy> per_copy;
  int simplicity = 0;  // lower is simpler (ties after cost and padding)
};

struct SuggestOptions {
  size_t max_results = 5;
  std::string element_type = "half_t";          // for the atoms' C++ spelling
  std::function<bool(const AnyLayout&)> legal;  // an extra constraint (null: none)
};

// The current layout first (kind "as given"), then the best candidates cheapest first (ties: fewer extra
// bytes, then the simpler expression); only legal candidates, at most options.max_results of them.
// Throws Error when the tensor is not rank 2 or a copy cannot be placed over it.
std::vector<LayoutSuggestion> suggest_smem_layouts(const AnyLayout& current, int element_bits,
                                                   const std::vector<SmemUse>& uses,
                                                   const SuggestOptions& options = {});

// Whether `candidate` holds the same M*N elements as a (M,N) tile: injective, and (without padding)
// onto [0, M*N).  The search returns only such layouts; tests check it.
bool is_permutation_or_padding(const AnyLayout& candidate, const IntTuple& shape, bool allow_padding = true);

Json to_json(const LayoutSuggestion& s);

}  // namespace cutevis
