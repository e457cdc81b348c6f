// cutevis — the MMA instructions' shared-memory layout atoms (atom knowledge, not algebra):
// GMMA's (SM90) GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>, which UMMA (SM100)
// reuses as UMMA::Layout_*_Atom<T>, and UMMA's own Layout_MN_SW128_32B_Atom<T>
// (cute/atom/mma_traits_sm90_gmma.hpp, cute/atom/mma_traits_sm100.hpp).
#pragma once

#include <string>

#include "lib/lang/expr.hpp"
#include "lib/swizzle.hpp"

namespace cutevis {

// GMMA::Layout_<major>_<kind>_Atom<T> for an element of type_bits bits (1: the _Bits atom):
// Swizzle<B,4,3> o smem_ptr o (8,W):(W,1) (K) or (W,8):(1,W) (MN), W = 128 << B bits,
// upcast to elements.  major: "K" or "MN"; kind: "INTER", "SW32", "SW64" or "SW128".
ComposedLayout gmma_smem_atom(const std::string& major, const std::string& kind, int type_bits);
// GMMA::Layout_<major>_<kind>_SpAtom<T, S> (cute/atom/mma_traits_sm90_gmma_sparse.hpp), the sparse
// GMMA's A: Swizzle<B,4,3> o smem_sparse<S>_ptr[sizeof_bits<T>b] o blocked_product((1,S), the dense
// atom's B), in logical elements (S of them per stored T).
ComposedLayout gmma_smem_sparse_atom(const std::string& major, const std::string& kind, int type_bits, int sparsity);
// UMMA::Layout_MN_SW128_32B_Atom<T>: Swizzle<2,5,2> o smem_ptr o (1024,4):(1,1024) bits, upcast.
AnyLayout umma_mn_sw128_32b_atom(int type_bits);

// CuTeDSL's make_smem_layout_atom(kind, element_type) (cute/nvgpu/warpgroup/helpers.py,
// tcgen05/helpers.py): the same swizzles and rows as the atoms above, built the DSL's way,
// Swizzle o 0 o 8 rows in elements (no smem_ptr flag); its MN_SW128_32B has 8 rows where
// CuTe's UMMA::Layout_MN_SW128_32B_Atom has 4.  kind: "K_SW128", "MN_INTER", "MN_SW128_32B", ...
// Throws Error for an unknown kind or an element that does not divide a swizzle row.
AnyLayout dsl_smem_layout_atom(const std::string& kind, int type_bits);

// The atoms' names in the expression language, with CuTe's namespace spellings
// (GMMA::, SM90::GMMA::, cute::GMMA::, UMMA::, SM100::UMMA::, ...).  Called by register_mma_names.
void register_smem_atom_names(Registry& registry);

}  // namespace cutevis
