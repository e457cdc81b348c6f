// cutevis — MMA atoms and TiledMMAs as values of the expression language.
//
// register_mma_names (atoms/names.hpp) makes these evaluate:
//   SM80_16x8x16_F32F16F16F32_TN{}        MMA_Atom<SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>>{}
//   make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, Tile<_32,_32,_4>{})
//   TiledMMA<MMA_Atom<SM80_16x8x8_F16F16F16F16_TN>, Layout<Shape<_2,_2,_1>>>{}
// into objects of kind "mma_atom" / "tiled_mma"; these functions get them back.
#pragma once

#include "atoms/mma_atom.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis {

Value mma_atom_value(const MmaAtom& atom);
Value tiled_mma_value(const TiledMma& mma);
// The atom / tiling a value holds, or nullptr.
const MmaAtom* as_mma_atom(const Value& v);
const TiledMma* as_tiled_mma(const Value& v);

}  // namespace cutevis
