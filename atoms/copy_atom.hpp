// cutevis — copy atoms and TiledCopy: CuTe's Copy_Atom<Copy_Traits<Op>, T> and
// make_tiled_copy / make_tiled_copy_A/B/C.
#pragma once

#include <string>
#include <vector>

#include "atoms/mma_atom.hpp"

namespace cutevis {

struct CopyAtom {
  std::string op;      // the copy operation: SM75_U32x4_LDSM_N, UniversalCopy<uint128_t>, ...
  std::string name;    // Copy_Atom<SM75_U32x4_LDSM_N, half_t>
  std::string family;  // "Universal", "SM75_LDSM", "SM80_CP_ASYNC", "SM90_STSM", "SM90_TMA", "SM100_LDSM", ...
  int sm = 0;
  ValueType value_type;    // the T of Copy_Atom<Op, T>
  Layout thr_id;           // ThrID
  Layout src_layout_bits;  // SrcLayout: (thr,bit) -> bit
  Layout dst_layout_bits;  // DstLayout
  Layout ref_layout_bits;  // RefLayout
  Layout val_layout_src;   // ValLayoutSrc: recast to value_type
  Layout val_layout_dst;
  Layout val_layout_ref;
  std::string ptx;                  // instruction it wraps ("" for UniversalCopy)
  RegisterSpec regs_src, regs_dst;  // SRegisters / DRegisters
  std::string comment;              // e.g. "(T32,V8) -> (M8,N8)"
  // Added with the catalogue (atoms/copy_catalogue.hpp):
  int64_t num_val_src = 0;         // NumValSrc = size<1>(ValLayoutSrc)
  int64_t num_val_dst = 0;         // NumValDst = size<1>(ValLayoutDst)
  int64_t num_bits_per_tma = 0;    // TMA only: Copy_Traits<SM90_TMA_*, NumBitsPerTMA>
  int64_t tma_multicast = 0;       // a TMA TiledCopy's atom: cosize(cta_t_map), the CTAs that split each box
  IntTuple tma_g_stride;           // TMA: aux_params_.g_stride_, gmem mode -> TMA coordinate (get_tma_tensor)
  std::string tma_g_stride_error;  // why tma_g_stride is not modelled for this TMA, if it is not
  Layout val_id;                   // TMEM only: ValID, logical bit -> tmem address (atoms/tmem.hpp)
  std::string note;                // what is (not) modelled, e.g. for TMA
};

struct TiledCopy {
  CopyAtom atom;
  Tiler tiler_mn;              // Tiler_MN
  bool tiler_is_shape = true;  // Tiler_MN was a shape (printed (32,16)), not a tuple of layouts
  Layout tiled_layout_tv;      // TiledLayout_TV
  IntTuple tile_mn;            // (size of each tiler mode)
  int64_t num_threads = 0;
  Layout layout_s_tv;  // get_layoutS_TV: (thr_idx,val) -> column-major (M,N) of the tile
  Layout layout_d_tv;  // get_layoutD_TV
};

}  // namespace cutevis
