// cutevis — who owns one cell, in one query (issue 24): every (thread, value) of a TiledMMA or
// TiledCopy tile that holds a cell, with the register it lands in, and the A/B cells that feed a C cell.
//
//   mma_owners(mma, 'A', 5, 3)  -> {T16 V3 "a1.hi", ...}   (SM80 16x8x16: V3 is the upper half of a1)
//   mma_feeds(mma, 9, 4)        -> A(9,k) and B(4,k) for every k of the tile, each with its owners
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atoms/mma_atom.hpp"
#include "atoms/tiled_copy.hpp"

namespace cutevis {

struct CellOwner {
  int64_t thread = 0, value = 0;  // (thr_idx, val) of the tile's TV layout
  int64_t call = 0;               // which of the thread's MMA instructions (value / the atom's values)
  std::string reg;                // the PTX operand register: "a1.hi", "b0.lo", "c3", "d0"; "smem" for a
                                  // descriptor operand, "tmem" for tensor memory; "" for copies
};

// Operand 'A' (M,K), 'B' (N,K) or 'C' (M,N) of the TiledMMA's tile; throws Error outside the tile.
std::vector<CellOwner> mma_owners(const TiledMma& mma, char operand, int64_t row, int64_t col);

struct CellFeed {
  char operand = 'A';
  int64_t row = 0, col = 0;  // A(m,k) or B(n,k)
  std::vector<CellOwner> owners;
};
// The cells of A and B that C(m,n) is computed from: A(m,k) and B(n,k) for every k of the tile.
std::vector<CellFeed> mma_feeds(const TiledMma& mma, int64_t m, int64_t n);

// Side 'S' (source) or 'D' (destination) of the TiledCopy's tile (Tiler_MN).
std::vector<CellOwner> copy_owners(const TiledCopy& copy, char side, int64_t row, int64_t col);

}  // namespace cutevis
