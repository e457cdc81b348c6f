// cutevis — the atom catalogue's names in the expression language.
//
// After these run, expressions can name atoms and build tilings:
//   SM80_16x8x16_F32F16F16F32_TN{}
//   make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})
//   make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, <a tiled mma>)
#pragma once

#include "lib/lang/expr.hpp"

namespace cutevis {

void register_mma_names(Registry& registry);       // atoms/mma_names.cpp
void register_copy_names(Registry& registry);      // atoms/copy_names.cpp
void register_cpp_atom_names(Registry& registry);  // atoms/cpp_names.cpp: size(TiledMMA), partition_shape_A, ...
void register_dsl_names(Registry& registry);       // atoms/dsl_ops.cpp: CuTeDSL's Ops, atoms and helpers (and the next)
void register_dsl_attributes(Registry& registry);  // atoms/dsl_attributes.cpp: tiled_mma.tv_layout_A_tiled, ...
void register_dsl_tma(Registry& registry);  // atoms/dsl_tma.cpp: cpasync.make_tiled_tma_atom, cute.make_tensor, ...

}  // namespace cutevis
