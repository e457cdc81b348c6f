// cutevis — the layout parts of CuTe's TMA constructors (cute/atom/copy_traits_sm90_tma.hpp):
// the box NumBitsPerTMA that make_tma_atom derives from a gmem tensor and an smem layout, and
// the TiledCopy (TiledLayout_TV, Tiler_MN) of make_tma_copy / make_tma_copy_A_sm90 / _B / _C.
//
//   make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(p), make_shape(M,K), make_stride(K,_1{})),
//                 SmemLayoutA{}(_,_,0), Shape<_128,_64>{}, _2{})
//
// The descriptor itself (addresses, L2 promotion, OOB fill) is not modelled; the checks CuTe
// asserts on the host (box extents <= 256, a unit gmem stride on the box's first mode, size
// equivalence of tile and smem) are errors here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "atoms/copy_atom.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/tensor.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

// The TMA operations make_tma_copy takes: SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST, SM90_TMA_STORE, SM90_TMA_REDUCE_ADD,
// SM100_TMA_2SM_LOAD, SM100_TMA_2SM_LOAD_MULTICAST.
bool is_tma_op(const std::string& op);

// What every TMA constructor starts from (make_tma_copy's arguments).
struct TmaRequest {
  std::string op;      // "SM90_TMA_LOAD", ...
  Layout gmem;         // the gmem tensor's layout (shape and strides in elements)
  ValueType element;   // the gmem tensor's value type (GEngine::value_type)
  ValueType internal;  // TmaInternalType; bits == 0: the element type
  AnyLayout smem;      // the CTA's smem tile, swizzled or not
  Tiler cta_tiler;     // CTA_Tiler: a shape or a tuple of layouts over the gmem modes
  Layout cta_t_map;    // CTA thread (cluster rank) -> logical TMA id: make_layout(multicast)
  // cta_v_map (CTA val idx -> gmem mode) when given directly (the SM100 constructors: the MMA's
  // partition of the tile); else composition(make_identity_layout(shape(gmem)), cta_tiler).
  std::optional<Layout> cta_v_map;
};

// CuTe's make_tma_atom: Copy_Atom<Copy_Traits<Op, NumBitsPerTMA>, T>.
CopyAtom make_tma_atom(const TmaRequest& r);
// CuTe's detail::make_tma_copy_tiled: the TiledCopy of make_tma_copy and make_tma_copy_A/B/C_sm90.
TiledCopy make_tma_copy(const TmaRequest& r);
// The TMA box in elements of the value type (size of CuTe's tma_gbasis), with CuTe's host checks.
int64_t tma_box_elements(const TmaRequest& r);

// tma.get_tma_tensor(g_shape): CuTe's TMA coordinate tensor, make_coord_tensor(make_layout(g_shape,
// aux_params_.g_stride_)) -- each gmem mode's stride is the TMA coordinate it moves (E<j>, E<0>
// scaled by its gmem stride on the unit-stride mode, or a scaled E<j> on a mode coalesce_256 merged).
// The strides are make_tma_atom's (make_tma_copy_desc's gmem_tma_basis_stride), kept on the atom.
Tensor get_tma_tensor(const CopyAtom& tma_atom, const IntTuple& g_shape);

// CuTe's tma_partition(atom, cta_coord, cta_layout, stensor, gtensors...): each tensor's mode 0 (the
// smem tile) as ((TMA, TMA_Iter), Rest...) in the smem's vector order, its iterator moved to this
// CTA's part of the box (cta_layout(cta_coord) * NumValSrc/cosize(cta_layout)); gtensors first,
// stensor last.  A run-time cta_coord (a CTA's rank, as CuTe's `int`) makes that offset a run-time int, so
// every coordinate it reaches prints as one: ArithTuple(0,32), not (_0,32).
std::vector<Tensor> tma_partition(const CopyAtom& atom, int64_t cta_coord, const Layout& cta_layout,
                                  const Tensor& stensor, const std::vector<Tensor>& gtensors,
                                  bool runtime_coord = false);

// The SM100 constructors (copy_traits_sm100_tma.hpp) take the MMA's CTA-level partition of the tile:
// cta_v_map = layout<1>(mma.thrfrg_X(make_identity_layout(shape(gmem)).compose(tiler_xy)))(_, (_,_)),
// (MMA, MMA_0, MMA_1) -> gmem mode, for operand 'A' (M,K), 'B' (N,K) or 'C' (M,N).
Layout tma_sm100_cta_v_map(const TiledMma& mma, char operand, const Layout& gmem, const Tiler& tiler_xy);
// make_tma_copy_A/B_sm100's cta_t_map: the MMA's (V,M,N,K) CTAs with stride only on the multicast mode
// (N for A, M for B) of a multicast op, coalesced.
Layout tma_sm100_cta_t_map(const TiledMma& mma, char operand, const std::string& op);
bool is_tma_multicast_op(const std::string& op);

// The part of a TMA TiledCopy's TV layout (get_layoutS/D_TV) that each CTA issues itself.  CuTe's
// TMA TV layout gives every CTA of a multicast group the whole box as its values, starting at its
// own offset t * box/multicast (so CTA t > 0 runs past the tile by design); the hardware copies only
// box/multicast elements from there (make_tma_copy_desc splits the box) and multicasts them to every
// CTA.  This keeps values [0, box/multicast) of each box: (cta, (v, box_i)) -> tile coord, where
// every cell has exactly one issuing CTA.  Other copies are returned unchanged.
// (T,V) -> (M,N...) column-major, as `tv`.
Layout tma_issued_tv(const TiledCopy& copy, const Layout& tv);
// What a TMA copy's picture shows (legend lines); none for other copies.
std::vector<std::string> tma_picture_notes(const TiledCopy& copy);

void register_tma_names(Registry& registry);  // make_tma_atom, make_tma_copy[_A/_B/_C_sm90], make_tmem_copy

}  // namespace cutevis
