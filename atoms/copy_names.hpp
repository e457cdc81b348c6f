// cutevis — copy atoms and TiledCopy as values of the expression language.
//
// register_copy_names (atoms/names.hpp) adds Copy_Atom<Op, T>{} (kind "copy_atom"),
// make_tiled_copy, make_tiled_copy_impl, make_tiled_copy_A/B/C, make_tiled_copy_C_atom
// (with a TiledMMA from atoms/mma_names), make_tiled_copy_S/D (kind "tiled_copy"),
// get_layoutS_TV and get_layoutD_TV.
#pragma once

#include "atoms/copy_atom.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis {

// The copy atom / tiled copy a Value holds, or nullptr.
const CopyAtom* as_copy_atom(const Value& v);
const TiledCopy* as_tiled_copy(const Value& v);

Value copy_atom_value(const CopyAtom& atom);
Value tiled_copy_value(const TiledCopy& copy);

}  // namespace cutevis
