// cutevis — JSON for atoms and tilings (`cutevis atom|mma|copy --json`).  Field
// names follow tests/data/reference/README.md: name, shape_mnk, thr_id, layout_a/b/c,
// tile_mnk, num_threads, thr_layout_vmnk, tv_layout_a/b/c, owners_a/b/c; for copies
// tiler_mn, tiled_layout_tv, tile_mn, layout_s_tv, layout_d_tv, owners_s, owners_d; a TMA copy
// adds tma {box_elements, multicast_ctas, issued_per_cta, owners_tv} (its owners are the issuing
// CTAs, atoms/tma.hpp's tma_issued_tv; a tile of rank 3+ has (M, rest) cells).
// Layouts are strings in CuTe's notation; owners are
//   {"shape": [R, C], "owners": [ per cell, column-major: [[t, v], ...] ]}.
#pragma once

#include <string>

#include "atoms/analysis/json.hpp"
#include "atoms/copy_atom.hpp"
#include "atoms/mma_atom.hpp"
#include "lib/ownership.hpp"

namespace cutevis {

Json mma_atom_json(const MmaAtom& atom);
Json copy_atom_json(const CopyAtom& atom);
// Owners of each cell, written directly (a 128x512 tile has 65,536 cells).
std::string owners_json(const OwnershipView& view);
void append_owners_json(std::string& out, const OwnershipView& view);

// The whole document for a TiledMMA (atom fields included) / TiledCopy, one line.
std::string tiled_mma_json(const TiledMma& mma);
std::string tiled_copy_json(const TiledCopy& copy);

// JSON lists every owner, so it is capped like pictures (2^22 cells): a bigger
// tiling is an Error before any memory is spent on it.
constexpr int64_t kMaxJsonOwners = int64_t{1} << 22;
// from_tv for JSON: an Error when the tile has more than kMaxJsonOwners cells or the
// TV layout more than kMaxJsonOwners (thread, value) pairs.
OwnershipView json_ownership_view(const Layout& tv, int64_t rows, int64_t cols);

// The ownership views of a tiling's operands (capped as above).
OwnershipView owners_a(const TiledMma& mma);    // (M,K)
OwnershipView owners_b(const TiledMma& mma);    // (N,K)
OwnershipView owners_c(const TiledMma& mma);    // (M,N)
OwnershipView owners_s(const TiledCopy& copy);  // (M,N) source
OwnershipView owners_d(const TiledCopy& copy);  // (M,N) destination

}  // namespace cutevis
