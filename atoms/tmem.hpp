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

// An UMMA accumulator in tensor memory: what ThrMMA::make_fragment_C gives for one MMA tile,
// UMMA::tmem_frg<T, uint32_t, cta_group>::make(((M_CTA,N),_1,_1)) (cute/atom/mma_traits_sm100_frag.hpp).
//   M_CTA = 128:            (128,N):(1,128)             every data path (lane), one column per n
//   M_CTA = 64, 1 CTA:      ((16,4),N):((1,32),128)     half the data paths: lanes 0-15, 32-47, 64-79, 96-111
//   M_CTA = 64, CTA pair:   (64,(N/2,2)):(1,(128,64))   n < N/2 in lanes 0-63, the rest in lanes 64-127
//   M_CTA = 32, CTA pair:   (32,(N/4,4)):(1,(128,32))
// in virtual addressing (lane stride 1, column 128), restrided to (lane << 16 | column) in units of T.
struct TmemAccumulator {
  int64_t mma_m = 128, n = 256;  // the MMA's M (both CTAs of a pair) and N
  int cta_group = 1;             // 1: cta_group::1, 2: a CTA pair (SM100_MMA_*_2x1SM_*)
  ValueType type{"float", 32};
  int64_t m_cta() const { return mma_m / cta_group; }  // this CTA's rows of the accumulator
  Layout layout;                                       // ((M_CTA,N),_1,_1) -> TMEM address in units of T
};
TmemAccumulator umma_accumulator(int64_t mma_m, int64_t n, int cta_group, const ValueType& type);
// A TMEM address in units of T, split: lane (data path) and 32-bit column, and the half of the column
// (0 or 1, for 16-bit T).
struct TmemAddress {
  int64_t lane = 0, column = 0, half = 0;
};
TmemAddress tmem_address(int64_t addr, int bits);

}  // namespace cutevis
