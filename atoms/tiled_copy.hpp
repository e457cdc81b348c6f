// cutevis — TiledCopy as CuTe's atom/copy_atom.hpp builds it.
//
//   make_tiled_copy(atom, thr_layout, val_layout)   (m,n) -> thr_idx, (m,n) -> val_idx
//   make_tiled_copy_impl(atom, layout_tv, tiler)    (thr_idx,val_idx) -> (m,n) within Tiler_MN
//   make_tiled_copy_A/B/C(atom, tiled_mma)          the MMA's get_layoutA/B/C_TV and its tile
//   make_tiled_copy_C_atom(atom, tiled_mma)         one copy atom's worth of the MMA's C
//   make_tiled_copy_S/D(atom, tiled_copy)           another copy's get_layoutS/D_TV and its tile
//
// get_layoutS_TV / get_layoutD_TV: (thr_idx, val_idx) -> column-major (m,n) of the tile, seen
// from the source / destination side of the atom (TiledLayout_TV is in the atom's Ref terms).
#pragma once

#include <string>

#include "atoms/copy_atom.hpp"

namespace cutevis {

TiledCopy make_tiled_copy(const CopyAtom& atom, const Layout& thr_layout, const Layout& val_layout = Layout());
TiledCopy make_tiled_copy_impl(const CopyAtom& atom, const Layout& layout_tv, const Tiler& tiler);
TiledCopy make_tiled_copy_A(const CopyAtom& atom, const TiledMma& mma);
TiledCopy make_tiled_copy_B(const CopyAtom& atom, const TiledMma& mma);
TiledCopy make_tiled_copy_C(const CopyAtom& atom, const TiledMma& mma);
// The smallest tiled copy that retiles the MMA's C (pipelined epilogues with subtiled stores):
// the first NumValSrc values of get_layoutC_TV, with a by-mode tiler of layouts that finds them.
TiledCopy make_tiled_copy_C_atom(const CopyAtom& atom, const TiledMma& mma);
TiledCopy make_tiled_copy_S(const CopyAtom& atom, const TiledCopy& copy);
TiledCopy make_tiled_copy_D(const CopyAtom& atom, const TiledCopy& copy);

// make_tiled_copy_impl with a shape as the tiler (printed as a shape: (32,16)).
TiledCopy make_tiled_copy_impl(const CopyAtom& atom, const Layout& layout_tv, const IntTuple& tiler_shape);

std::string to_string(const TiledCopy& copy);                   // print(TiledCopy), our notation (no underscores)
std::string to_string(const TiledCopy& copy, bool underscore);  // underscore: CuTe's own text
std::string tiler_to_string(const TiledCopy& copy, bool underscore = false);  // Tiler_MN as CuTe prints it

}  // namespace cutevis
