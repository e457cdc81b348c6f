// cutevis — SM100 tensor memory (tcgen05.ld / tcgen05.st) copy atoms and make_tmem_copy
// (cute/atom/copy_traits_sm100.hpp).
//
//   Copy_Atom<SM100_TMEM_LOAD_32dp32b8x, float>{}
//   make_tmem_copy(SM100_TMEM_LOAD_16dp256b1x{}, make_tensor(make_tmem_ptr<float>(0), Layout<Shape<_128,_256>,
//   Stride<_65536,_1>>{}))
//
// The traits of the 148 SM100_TMEM_LOAD/STORE_{32dp32b,16dp32b,16dp64b,16dp128b,16dp256b}{N}x[_16b]
// operations follow one rule per shape (tmem_copy_ops); make_tmem_copy is make_cotiled_copy of the
// atom's (4 warps x ValID) over the tmem tensor's layout.
#pragma once

#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"

namespace cutevis {

// Copy_Traits of every SM100_TMEM_LOAD_* / SM100_TMEM_STORE_* operation (no value type yet).
std::vector<CopyAtom> tmem_copy_ops();
std::vector<std::string> tmem_copy_op_names();  // their names alone (cheap: no layouts built)
bool is_tmem_op(const std::string& op);

// TMEM::DP<T>: the stride between data paths (lanes) in T-addressing, (1<<16) << log2(32/bits).
int64_t tmem_dp(int bits);

// CuTe's make_cotiled_copy(atom, atom (thr,val) -> data addr, data coord -> data addr).
TiledCopy make_cotiled_copy(const CopyAtom& atom, const Layout& atom_tv_layout, const Layout& data_layout);
// CuTe's make_tmem_copy(atom, tmem tensor); the atom's value type must have the tensor's width.
TiledCopy make_tmem_copy(const CopyAtom& atom, const Layout& tmem_layout, int tensor_bits);

}  // namespace cutevis
