// cutevis — localizing a disagreement: single-element probes and what they establish.
//
// The hardware computes D = A·B + C; it does not know our (row, col) names.  What it
// shows is a *structure* over the operands' entries, independent of any layout:
//   row probe   (A one-hot at entry a, B all ones, C = 0): the D entries in a's row;
//   digit probe (A one-hot at a, B entry j holds digit d of j): which B entry pairs with
//               a in each of those D entries (so which A and B entries share a k);
//   col probe   (B one-hot at b, A all ones): the D entries in b's column.
// Rows, columns and k are then named after an *anchor* operand's layout (majority of
// its entries in each hardware class): C for rows and columns, B for k, unless a
// shared-memory operand pins them or the anchor itself is the hand-written one.  An
// entry is wrong when its hardware position under those names differs from its layout.
// A permutation of rows applied to A and C together (columns of B and C, k of A and B)
// is invisible to the hardware: the report says which names were anchored to what.
//
// Copies (ldmatrix / stmatrix / movmatrix) need no inference: each thread's row address
// and each register are tagged, so the hardware's relation between register entries and
// address entries is observed exactly, and only the naming is anchored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atoms/verify/plan.hpp"

namespace cutevis::verify {

// --- MMA ---------------------------------------------------------------------------------
struct ProbeSet {
  enum class Kind { kRow, kDigit, kCol };
  struct Probe {
    Kind kind;
    size_t entry;  // A entry (row, digit) or B entry (col)
    int digit = 0;
    size_t set;                      // index into sets
    std::optional<size_t> baseline;  // XOR-POPC: the twin with the one-hot operand zeroed
  };
  std::vector<MmaData> sets;
  std::vector<Probe> probes;
  int64_t base = 2;  // digit base (values 0 .. base-1 are exact in B and in D)
  int digits = 1;
};
ProbeSet make_probes(const MmaPlan& plan);

struct Anchors {
  char rows = 'C', cols = 'C', k = 'B';  // which operand names rows / columns / k
  std::string text() const;              // "rows named by C, columns by C, k by B"
};
Anchors choose_anchors(const MmaPlan& plan);

// What the probes established: for every entry of A, B, C the cell the hardware puts
// it in (-1: it reaches no D entry, or its row/column/k could not be named).
struct MmaLocalization {
  Anchors anchors;
  std::vector<int64_t> actual_a, actual_b, actual_c;
};
// d_values[s][i]: D at C entry i after data set s (nullopt: not an exact integer).
MmaLocalization localize_mma(const MmaPlan& plan, const ProbeSet& probes,
                             const std::vector<std::vector<std::optional<int64_t>>>& d_values);

// --- copies --------------------------------------------------------------------------------
// One observation per register entry: which address entry (thread, unit of its 16-byte
// row) it was paired with by the hardware (-1: none).
struct CopyRelation {
  std::vector<int64_t> partner;  // indexed by the register side's entries: index into the address side's entries
};
// Tag of (thread t, unit u): 1 + t*units + u, so 0 means "nothing arrived".
inline uint32_t copy_tag(int64_t thr, int64_t unit, int64_t units_per_thread) {
  return static_cast<uint32_t>(1 + thr * units_per_thread + unit);
}

struct CopyLocalization {
  char anchor = 'd';                            // 'r' registers or 'a' addresses name the tile
  std::vector<int64_t> actual_src, actual_dst;  // hardware tile unit of every entry (-1: none)
};
CopyLocalization localize_copy(const CopyPlan& plan, const CopyRelation& relation);

}  // namespace cutevis::verify
