// cutevis — scale factors in SM100 tensor memory: UMMA::tmem_sf_frg (cute/atom/mma_traits_sm100_frag.hpp),
// the UTCCP copy atoms SM100_UTCCP_* (tcgen05.cp, cute/atom/copy_traits_sm100.hpp) and make_utccp_copy,
// as CUTLASS's block-scaled collective (sm100_blockscaled_mma_warpspecialized.hpp) uses them:
//
//   tCtSFA = make_tensor<TiledMma::FrgTypeSFA>(shape(SmemLayoutAtomSFA{}));      // TMEM, after the accumulators
//   tiled_copy_s2t_SFA = make_utccp_copy(SM100_UTCCP_4x32dp128bit_1cta{}, filter_zeros(tCtSFA));
//   copy(tiled_copy_s2t_SFA, thr_tCsSFA_s2t, thr_tCtSFA_s2t);                      // smem -> TMEM, one k tile
//
// How the scale factors land (CUTLASS #2769): the 4 scale factors of row mn of one MMA k-block (one 32-bit
// word of shared memory) go to TMEM lane mn%32 of every 32-lane subpartition (4 copies: the UTCCP
// 4x32dp128bit broadcast), column mn/32 (+ 4 columns per further 128 rows in SFB), byte s of the word;
// each further k-block of the tile adds MN/32 columns. The MMA picks the byte by the SF ID in the address's
// top bits.
#pragma once

#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "atoms/tiled_mma.hpp"

namespace cutevis {

// UMMA::tmem_sf_frg<SF, SFVecSize, 1, Is_SFA>::make(shape(smem_sf)) with the default
// TmemAllocMode::ScaleFactorDuplicated4by1: the scale factors' TMEM layout in units of 8-bit values
// (lane stride TMEM::DP<uint8_t> = 262144, 4 values per 32-bit column). `smem_sf` is a stage of
// deduce_smem_layoutSFA/SFB: ((((32,4),MN/128),(VS,NSF)),_1,(4/NSF,K/VS/4)).
Layout tmem_sf_layout(const Layout& smem_sf);

// Copy_Traits<SM100_UTCCP_*> of the 12 UTCCP operations (128dp256bit, 128dp128bit, 4dp256bit, 4x32dp128bit,
// 2x64dp128bitlw0213, 2x64dp128bitlw0123; _1cta and _2cta), bits, no value type.
// They are not in the copy catalogue (no registers: a descriptor in, a TMEM address out).
std::vector<CopyAtom> utccp_copy_ops();
bool is_utccp_op(const std::string& op);
// Copy_Atom<Op, T>: the traits with their value layouts in units of T.
CopyAtom utccp_copy_atom(const std::string& op, const ValueType& value_type);

// make_utccp_copy(op, tmem): make_cotiled_copy of (size(ThrID):0, coalesce(upcast<bits>(ValID))) over
// the tensor-memory layout; `atom` carries its value type (Copy_Atom<Op, T>).
TiledCopy make_utccp_copy(const CopyAtom& atom, const Layout& tmem_layout);

// One TMEM home of a scale factor: lane, 32-bit column (from the SF tensor's base), byte in the column.
struct SfTmemAddress {
  int64_t lane = 0, column = 0, byte = 0;
};
// Every TMEM address the element at smem coordinate (mn, k-in-mma, k-block) of a stage is copied to (4 lanes:
// one per subpartition), given the stage's smem layout and tmem_sf_layout of it.
std::vector<SfTmemAddress> sf_tmem_addresses(const Layout& tmem_sf, int64_t mn_size, int64_t mn, int64_t k_in_mma,
                                             int64_t k_block);
// The 32-bit TMEM columns the SF tensor spans: CUTLASS's find_tmem_tensor_col_offset (what the next tensor,
// SFB after SFA, is placed after).
int64_t sf_tmem_columns(const Layout& tmem_sf);

}  // namespace cutevis
