// cutevis — the copy-atom catalogue: CuTe's Copy_Traits<Op> for every copy
// operation we know, and Copy_Atom<Op, T> (the traits recast to the value type T).
//
//   find_copy_atom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>")
//   make_copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", half_t)
//   find_copy_atom("cute::Copy_Atom<cute::UniversalCopy<uint128_t>, float>{}")
//   find_copy_atom("Copy_Atom<Copy_Traits<SM90_TMA_LOAD, 8192>, half_t>")
//
// Families (each one generator with its rule, atoms/copy_catalogue.cpp):
//   UniversalCopy<S[,D]>, AutoVectorizingCopyWithAssumedAlignment<N>, DefaultCopy, AutoVectorizingCopy
//   SM50_Shuffle_U32_2x2Trans_XOR1/XOR4, SM75_U32x1_MOVM_T
//   SM75_U32x{1,2,4}_LDSM_N, SM75_U16x{2,4,8}_LDSM_T
//   SM80_CP_ASYNC_CACHEALWAYS / CACHEGLOBAL [_ZFILL] <S[,D]>
//   SM90_U32x{1,2,4}_STSM_N, SM90_U16x{2,4,8}_STSM_T
//   SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST, SM90_TMA_STORE, SM90_TMA_REDUCE_ADD (traits only)
//   SM100_U8x{8,16}_LDSM_T, SM100_SU{4,6}_DU8x16_x{1,2,4}_LDSM_N, SM100_U8x{4,8,16}_STSM_T,
//   SM100_LOAD_256bit_CACHE_NOALLOCATION, SM100_STORE_256bit_CACHE_NOALLOCATION
#pragma once

#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"

namespace cutevis {

// A copy atom by its C++ name; Error with the nearest valid names otherwise.
CopyAtom find_copy_atom(
    const std::string& name);  // "Copy_Atom<SM75_U32x4_LDSM_N, half_t>" etc.; Error with suggestions
// Copy_Atom<op, value_type>; op "SM75_U32x4_LDSM_N", "UniversalCopy<uint128_t>", ...
CopyAtom make_copy_atom(const std::string& op, const ValueType& value_type);
std::vector<CopyAtom> copy_catalogue();         // every op with its natural value type(s), for listing and tests
std::vector<std::string> copy_atom_names();     // the names of copy_catalogue()
std::vector<std::string> copy_op_names();       // every op name ("UniversalCopy<S>" for the parametrised ones)
bool is_copy_op_name(const std::string& name);  // a bare op name (with or without cute::), no template args

std::string to_string(const CopyAtom& atom);                   // print(Copy_Atom), our notation (no underscores)
std::string to_string(const CopyAtom& atom, bool underscore);  // underscore: CuTe's own text (_32:_1)

// The Copy_Atom from parsed template arguments Copy_Atom<op, T> (used by the expression names).
CopyAtom make_copy_atom(const Node& op, const ValueType& value_type);
// Copy_Traits<op> alone (no value type yet): checks a parsed operation such as SM75_U32x4_LDSM_N.
CopyAtom copy_operation(const Node& op);
// Copy_Atom<Traits, T> of traits given as bit layouts (a home-made op's Copy_Traits): ValLayoutX recast to T.
CopyAtom with_value_type(CopyAtom traits, const ValueType& value_type);

}  // namespace cutevis
