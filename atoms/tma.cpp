// The layout parts of CuTe's TMA constructors; see atoms/tma.hpp.  Each step names the CuTe
// variable it computes (copy_traits_sm90_tma.hpp: construct_tma_gbasis, make_tma_copy_desc,
// make_tma_copy_atom, make_tma_copy_tiled).
#include "atoms/tma.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"

namespace cutevis {

namespace {

const std::vector<std::string>& tma_op_names() {
  static const std::vector<std::string> ops = {"SM90_TMA_LOAD",      "SM90_TMA_LOAD_MULTICAST",
                                               "SM90_TMA_STORE",     "SM90_TMA_REDUCE_ADD",
                                               "SM100_TMA_2SM_LOAD", "SM100_TMA_2SM_LOAD_MULTICAST"};
  return ops;
}

std::string str(int64_t v) { return std::to_string(v); }

// get_nonswizzle_portion(slayout): the layout under a swizzle (Sw<B,M,S> o 0 o L -> L)
Layout nonswizzle_portion(const AnyLayout& slayout) {
  if (const Layout* l = std::get_if<Layout>(&slayout)) return *l;
  const ComposedLayout& c = std::get<ComposedLayout>(slayout);
  if (!c.a_is_swizzle())
    throw Error("make_tma_copy: the smem layout " + to_string(slayout) +
                " is not a swizzled layout (Sw<B,M,S> o offset o L)");
  return as_layout(c.layout_b(), "the smem layout under the swizzle");
}

// A stride leaf of CuTe's sidx2gmode: is it the static basis element 1@i (basis_value == _1)?
bool is_unit_basis(const IntTuple& leaf) {
  return leaf.is_leaf() && !has_dynamic(leaf) && leaf.value() == 1 && !leaf.basis().empty();
}

// The gmem stride a basis element E<i,j,...> scaled by v points at: v * stride<i,j,...>(gmem).
int64_t gmem_stride_of(const Layout& gmem, const IntTuple& leaf) {
  IntTuple t = gmem.stride;
  for (int m : leaf.basis().modes()) {
    if (t.is_leaf()) {
      if (m != 0) throw Error("make_tma_copy: the tile names gmem mode " + str(m) + " of " + to_string(gmem));
      continue;
    }
    if (static_cast<size_t>(m) >= t.rank())
      throw Error("make_tma_copy: the tile names gmem mode " + str(m) + " of " + to_string(gmem));
    t = IntTuple(t[static_cast<size_t>(m)]);
  }
  if (!t.is_leaf() || !t.basis().empty())
    throw Error("make_tma_copy: gmem stride " + to_string(t) + " is not an integer");
  return checked_mul(leaf.value(), t.value());
}

// V: CTA val idx -> gmem mode
Layout cta_v_map_of(const TmaRequest& r) {
  return r.cta_v_map ? *r.cta_v_map : composition(make_identity_layout(r.gmem.shape), r.cta_tiler);
}

struct SmemToGmem {
  Layout inv_smem;    // inv_smem_layout: smem idx -> smem coord
  Layout sidx2gmode;  // smem idx -> gmem mode, truncated to the static-1 basis modes
};

// construct_tma_gbasis up to sidx2gmode (the part that fixes the box).
SmemToGmem smem_to_gmode(const TmaRequest& r) {
  Layout smem = nonswizzle_portion(r.smem);
  Layout cta_v_map = cta_v_map_of(r);
  if (size(smem) != size(cta_v_map))
    throw Error("TMA requires CTA_Tile and SLayout top-level size equivalence: size(slayout) = " + str(size(smem)) +
                ", size of the CTA tile " + to_string(product_each(cta_v_map.shape)) + " = " + str(size(cta_v_map)));
  SmemToGmem out;
  out.inv_smem = right_inverse(smem);
  Layout full = flatten(coalesce(composition(cta_v_map, out.inv_smem)));  // sidx2gmode_full
  std::vector<IntTuple> shapes = flatten_leaves(full.shape), strides = flatten_leaves(full.stride);
  size_t smem_rank = 0;
  while (smem_rank < strides.size() && is_unit_basis(strides[smem_rank])) ++smem_rank;
  if (smem_rank == 0)
    throw Error("make_tma_copy: could not find a common tile-gmem vectorization (smem index -> gmem mode is " +
                to_string(full, true) + "); does the tile select out major gmem modes?");
  out.sidx2gmode = Layout(
      IntTuple::tuple(std::vector<IntTuple>(shapes.begin(), shapes.begin() + static_cast<std::ptrdiff_t>(smem_rank))),
      IntTuple::tuple(
          std::vector<IntTuple>(strides.begin(), strides.begin() + static_cast<std::ptrdiff_t>(smem_rank))));
  return out;
}

// CuTe's host checks on the descriptor (make_tma_copy_desc): a unit gmem stride on the first
// TMA mode, and box extents <= 256 after coalesce_256 and the multicast split.
void check_descriptor(const TmaRequest& r, const Layout& sidx2gmode, int64_t multicast) {
  std::vector<IntTuple> shapes = flatten_leaves(sidx2gmode.shape), strides = flatten_leaves(sidx2gmode.stride);
  int64_t first = gmem_stride_of(r.gmem, strides[0]);
  if (first != 1)
    throw Error(
        "make_tma_copy: majorness of smem doesn't match majorness of gmem: the smem's contiguous mode runs along gmem "
        "stride " +
        str(first) + " (CuTe asserts gmem_prob_stride[0] == 1)");
  // coalesce_256 over (box shape, gmem stride)
  std::vector<int64_t> ns{shapes[0].value()}, nd{first};
  for (size_t i = 1; i < shapes.size(); ++i) {
    int64_t s = shapes[i].value(), d = gmem_stride_of(r.gmem, strides[i]);
    if (s == 1) continue;
    if (ns.size() == 1 && ns[0] == 1) {
      ns[0] = s;
      nd[0] = d;
    } else if (checked_mul(ns.back(), nd.back()) == d && checked_mul(s, ns.back()) <= 256) {
      ns.back() *= s;
    } else {
      ns.push_back(s);
      nd.push_back(d);
    }
  }
  while (ns.size() > 5) {  // group<4,-1>: the TMA has at most 5 modes
    ns[4] = checked_mul(ns[4], ns.back());
    ns.pop_back();
  }
  for (size_t i = ns.size(); i-- > 0 && multicast > 1;) {
    int64_t next = (multicast + ns[i] - 1) / ns[i];
    ns[i] = (ns[i] + multicast - 1) / multicast;
    multicast = next;
  }
  for (size_t i = 0; i < ns.size(); ++i)
    if (ns[i] > 256)
      throw Error("make_tma_copy: TMA box extent " + str(ns[i]) + " in mode " + str(static_cast<int64_t>(i)) +
                  " exceeds 256 (CuTe asserts smem_box_shape[i] <= 256)");
}

int64_t internal_bits(const TmaRequest& r) { return r.internal.bits > 0 ? r.internal.bits : r.element.bits; }

}  // namespace

bool is_tma_op(const std::string& op) {
  const auto& ops = tma_op_names();
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

int64_t tma_box_elements(const TmaRequest& r) {
  if (!is_tma_op(r.op))
    throw Error(
        "'" + r.op +
        "' is not a TMA operation (SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST, SM90_TMA_STORE, SM90_TMA_REDUCE_ADD, "
        "SM100_TMA_2SM_LOAD, SM100_TMA_2SM_LOAD_MULTICAST)");
  if (r.element.bits <= 0) throw Error(r.op + ": the gmem tensor's element type is unknown");
  SmemToGmem m = smem_to_gmode(r);
  if (internal_bits(r) == r.element.bits) check_descriptor(r, m.sidx2gmode, cosize(r.cta_t_map));
  return size(m.sidx2gmode);
}

IntTuple tma_gmem_basis_stride(const TmaRequest& r);  // below: aux_params_.g_stride_

CopyAtom make_tma_atom(const TmaRequest& r) {
  int64_t box = tma_box_elements(r);
  // num_bits_per_tma = size(tma_gbasis) * sizeof_bits<TmaInternalType>: the box in bits either way
  CopyAtom a = make_copy_atom("Copy_Traits<" + r.op + ", " + str(checked_mul(box, r.element.bits)) + ">", r.element);
  try {  // Copy_Traits::aux_params_.g_stride_, for get_tma_tensor
    a.tma_g_stride = tma_gmem_basis_stride(r);
  } catch (const Error& e) {
    a.tma_g_stride_error = e.what();
  }
  return a;
}

TiledCopy make_tma_copy(const TmaRequest& r) {
  CopyAtom atom = make_tma_atom(r);
  SmemToGmem m = smem_to_gmode(r);
  Layout cta_v_map = cta_v_map_of(r);
  int64_t num_elems_per_tma = size(m.sidx2gmode);
  Layout layout_v = composition(m.inv_smem, make_layout(IntTuple(num_elems_per_tma)));  // CTA V -> smem coord
  Layout layout_V = tile_to_shape(make_layout(std::vector<Layout>{layout_v}), IntTuple(size(cta_v_map)));
  int64_t threads = cosize(r.cta_t_map);
  if (threads <= 0 || num_elems_per_tma % threads != 0)
    throw Error("make_tma_copy: the box of " + str(num_elems_per_tma) + " elements does not split over " +
                str(threads) + " multicast CTAs");
  Layout layout_t = make_layout(IntTuple(threads), IntTuple(num_elems_per_tma / threads));  // CTA T -> smem idx
  Layout layout_T = composition(m.inv_smem, composition(layout_t, r.cta_t_map));            // CTA TID -> smem coord
  Layout layout_TV = make_layout(std::vector<Layout>{layout_T, layout_V});
  atom.tma_multicast = threads;
  return make_tiled_copy_impl(atom, layout_TV, product_each(cta_v_map.shape));
}

namespace {

// One leaf of a flat gmem layout: its basis E<i>, shape and stride as CuTe holds them.
struct GmemMode {
  Basis basis;
  IntTuple::Node shape, stride;
};

// A mode of CuTe's tma_gbasis: the gmem bases it walks, as top-level items of its stride (a single
// basis, or a tuple that coalesce_256 merged, which group<4,-1> may nest inside mode 4).
using TmaMode = std::vector<std::vector<Basis>>;

Basis basis_of(int i) { return Basis::of({i}); }

// construct_tma_gbasis's strides: sidx2gmode, coalesce_256 (merging only what is statically
// contiguous, as CuTe's is_constant<true, ...> does), the gmem modes the tile misses (size 1) and
// group<min(rank,4),-1>.
std::vector<TmaMode> tma_gbasis_modes(const TmaRequest& r, const std::vector<GmemMode>& gmem) {
  SmemToGmem m = smem_to_gmode(r);
  std::vector<IntTuple> shapes = flatten_leaves(m.sidx2gmode.shape), bases = flatten_leaves(m.sidx2gmode.stride);
  struct Merged {
    Integer shape, stride;
    std::vector<Basis> bases;
  };
  auto stride_of = [&](const Basis& b) {
    for (const GmemMode& g : gmem)
      if (g.basis == b) return Integer::of(g.stride);
    throw Error("get_tma_tensor: the tile names a gmem mode that " + to_string(r.gmem) + " does not have");
  };
  std::vector<Merged> merged{{Integer::of(shapes[0].nodes()[0]), stride_of(bases[0].basis()), {bases[0].basis()}}};
  for (size_t k = 1; k < shapes.size(); ++k) {
    Integer sk = Integer::of(shapes[k].nodes()[0]), dk = stride_of(bases[k].basis());
    Merged& back = merged.back();
    if (sk.is_constant(1)) continue;
    if (merged.size() == 1 && back.shape.is_constant(1)) {
      back = {sk, dk, {bases[k].basis()}};
    } else if (!back.shape.dynamic && !back.stride.dynamic && !dk.dynamic && !sk.dynamic &&
               back.shape.value * back.stride.value == dk.value && sk.value * back.shape.value <= 256) {
      back.shape = back.shape * sk;
      back.bases.push_back(bases[k].basis());
    } else {
      merged.push_back({sk, dk, {bases[k].basis()}});
    }
  }
  std::vector<TmaMode> modes;
  for (const Merged& x : merged) {
    TmaMode mode;
    for (const Basis& b : x.bases) mode.push_back({b});  // a flat tuple of bases: each its own item
    modes.push_back(mode);
  }
  auto found = [&](const Basis& b) {
    for (const TmaMode& mode : modes)
      for (const auto& item : mode)
        if (item.size() == 1 && item[0] == b) return true;
    return false;
  };
  for (const GmemMode& g : gmem)  // tile_gbasis_remaining_stride: not static 1, not static 0, not in the tile
    if (!g.shape.is_static_value(1) && !g.stride.is_static_value(0) && !found(g.basis)) modes.push_back({{g.basis}});
  if (modes.size() > 4) {  // group<4,-1>: modes 4.. become the items of mode 4
    TmaMode grouped;
    for (size_t j = 4; j < modes.size(); ++j) {
      std::vector<Basis> item;
      for (const auto& it : modes[j]) item.insert(item.end(), it.begin(), it.end());
      grouped.push_back(item);
    }
    modes.resize(4);
    modes.push_back(grouped);
  }
  return modes;
}

}  // namespace

IntTuple tma_gmem_basis_stride(const TmaRequest& r) {
  if (r.internal.bits > 0 && r.internal.bits != r.element.bits)
    throw Error("not supported: get_tma_tensor with a TmaInternalType of another width than the gmem element");
  std::vector<GmemMode> gmem;
  const bool flat = r.gmem.shape.is_leaf() || flatten_leaves(r.gmem.shape).size() == r.gmem.shape.rank();
  if (!flat) throw Error("not supported: get_tma_tensor of a hierarchical gmem shape " + to_string(r.gmem.shape));
  std::vector<IntTuple> gs = flatten_leaves(r.gmem.shape), gd = flatten_leaves(r.gmem.stride);
  for (size_t i = 0; i < gs.size(); ++i)
    gmem.push_back({basis_of(static_cast<int>(i)), gs[i].nodes()[0], gd[i].nodes()[0]});
  std::vector<TmaMode> modes = tma_gbasis_modes(r, gmem);
  const int64_t bits = r.element.bits;
  // gmem_prob_stride[j] in bytes: the gcd of its gmem strides (fill_tma_gmem_shape_stride)
  auto prob_stride_bytes = [&](const TmaMode& mode) {
    int64_t g = 0;
    for (const auto& item : mode)
      for (const Basis& b : item)
        for (const GmemMode& x : gmem)
          if (x.basis == b) g = std::gcd(g, std::abs(x.stride.value));
    return g * bits / 8;
  };
  std::vector<IntTuple> strides;
  for (const GmemMode& x : gmem) {  // gmem_tma_basis_stride
    IntTuple stride(0);
    if (!x.shape.is_static_value(1) && !x.stride.is_static_value(0)) {
      for (size_t j = 0; j < modes.size(); ++j) {
        bool here = false;
        for (const auto& item : modes[j]) here = here || (item.size() == 1 && item[0] == x.basis);
        if (!here) continue;
        IntTuple::Node leaf = IntTuple::Node::leaf(1, basis_of(static_cast<int>(j)));
        if (j == 0) {  // E<0> * (recast_ratio * stride): the element offset along the unit-stride mode
          leaf.value = x.stride.value;
          if (x.stride.is_dynamic()) leaf.meta |= IntTuple::Node::kDynamic;
        } else if (modes[j].size() > 1) {  // a dynamic scale: ceil_div(di * bits / max(gmem_prob_stride[j], 16), 8)
          int64_t scale = x.stride.value * bits / std::max<int64_t>(prob_stride_bytes(modes[j]), 16);
          leaf.value = (scale + 7) / 8;
          leaf.meta |= IntTuple::Node::kDynamic;
        }
        stride = IntTuple::of(&leaf);
        break;
      }
    }
    strides.push_back(stride);
  }
  return r.gmem.shape.is_leaf() ? strides[0] : IntTuple::tuple(strides);
}

Tensor get_tma_tensor(const CopyAtom& atom, const IntTuple& g_shape) {
  if (atom.num_bits_per_tma <= 0) throw Error("get_tma_tensor: " + atom.name + " is not a TMA atom");
  if (!atom.tma_g_stride_error.empty()) throw Error(atom.tma_g_stride_error);
  if (atom.tma_g_stride.is_leaf() && atom.tma_g_stride.basis().empty())
    throw Error(
        "get_tma_tensor: " + atom.name +
        " was named, not made from a gmem tensor (make_tma_atom / make_tma_copy): its gmem strides are unknown");
  if (atom.tma_g_stride.rank() != (g_shape.is_leaf() ? 1 : g_shape.rank()) ||
      atom.tma_g_stride.is_leaf() != g_shape.is_leaf())
    throw Error("get_tma_tensor: the shape " + to_string(g_shape) + " is not congruent with the TMA's gmem strides " +
                to_string(atom.tma_g_stride));
  int64_t coord_rank = 1;  // coprofile: one coordinate per TMA mode a stride names
  for (const IntTuple& leaf : flatten_leaves(atom.tma_g_stride))
    if (!leaf.basis().empty()) coord_rank = std::max<int64_t>(coord_rank, leaf.basis().modes()[0] + 1);
  Tensor t;
  t.space = Tensor::Space::kCounting;
  t.coord = IntTuple::tuple(std::vector<IntTuple>(static_cast<size_t>(coord_rank), IntTuple(0)));
  t.layout = Layout(g_shape, atom.tma_g_stride);
  return t;
}

std::vector<Tensor> tma_partition(const CopyAtom& atom, int64_t cta_coord, const Layout& cta_layout,
                                  const Tensor& stensor, const std::vector<Tensor>& gtensors, bool runtime_coord) {
  if (atom.num_bits_per_tma <= 0 || atom.num_val_src <= 0)
    throw Error("tma_partition: " + atom.name + " is not a TMA atom");
  Layout s0 = get(nonswizzle_portion(stensor.layout), 0);  // layout<0>(stensor): (TMATile)
  Layout inv_smem = right_inverse(s0);                     // smem idx -> smem coord
  Layout layout_v = tile_to_shape(make_layout(std::vector<Layout>{inv_smem}), IntTuple(size(s0)));
  Layout layout_V = logical_divide(layout_v, Tiler(make_layout(IntTuple(atom.num_val_src))));  // (TMA, TMA_Iter)
  const int64_t ctas = cosize(cta_layout);
  if (ctas <= 0 || atom.num_val_src % ctas != 0)
    throw Error("tma_partition: a box of " + str(atom.num_val_src) + " values does not split over " + str(ctas) +
                " multicast CTAs");
  const int64_t multicast_offset = checked_mul(cta_layout(cta_coord), atom.num_val_src / ctas);
  std::vector<Tensor> all = gtensors;
  all.push_back(stensor);  // CuTe's convention: stensor last
  for (Tensor& t : all) {
    const Layout& l = as_layout(t.layout, "tma_partition: a tensor's layout");
    if (size(get(l, 0)) != size(s0))
      throw Error("tma_partition: mode 0 of " + to_string(l) + " is not the smem tile's size " + str(size(s0)));
    std::vector<Tiler> tile{Tiler(layout_V)};
    for (size_t i = 1; i < rank(l); ++i) tile.push_back(Tiler::underscore());
    Layout v = composition(l, Tiler::tuple(tile));  // ((TMA,TMA_Iter), Rest...)
    Layout mode0 = get(v, 0);                       // coalesce(.., Shape<Shape<_1,_1>>{}): each half alone
    std::vector<Layout> modes{make_layout(std::vector<Layout>{coalesce(get(mode0, 0)), coalesce(get(mode0, 1))})};
    for (size_t i = 1; i < rank(v); ++i) modes.push_back(get(v, i));
    Layout out = make_layout(modes);
    // domain_offset(((multicast_offset, _0), _0, ...), tensor_v): the iterator moves, the layout stays
    // cta_layout(cta_coord) * ...: an `int` where cta_coord is one, unless the layout maps it to the static _0
    const bool runtime_offset = runtime_coord && cosize(cta_layout) > 1;
    const Value offset = runtime_offset ? Value::dynamic_integer(multicast_offset) : Value::integer(multicast_offset);
    std::vector<Value> coord{Value::tuple({offset, Value::integer(0)})};
    for (size_t i = 1; i < rank(out); ++i) coord.push_back(Value::integer(0));
    t.layout = out;
    Tensor moved = slice(t, Value::tuple(coord));
    moved.layout = out;
    t = moved;
  }
  return all;
}

bool is_tma_multicast_op(const std::string& op) {
  return op == "SM90_TMA_LOAD_MULTICAST" || op == "SM100_TMA_2SM_LOAD_MULTICAST";
}

Layout tma_sm100_cta_v_map(const TiledMma& mma, char operand, const Layout& gmem, const Tiler& tiler_xy) {
  Layout g_tile = composition(make_identity_layout(gmem.shape), tiler_xy);  // cluster tile coord -> gmem coord
  Layout frg = get(thrfrg(mma, operand, g_tile), 1);                        // (FrgV,(Rest0,Rest1,...))
  std::vector<Layout> modes{get(frg, 0)};
  Layout rest = get(frg, 1);
  for (size_t i = 0; i < rank(rest); ++i) modes.push_back(get(rest, i));  // (_, repeat<rank>(_)): (MMA, MMA_0, MMA_1)
  return make_layout(modes);
}

Layout tma_sm100_cta_t_map(const TiledMma& mma, char operand, const std::string& op) {
  // compact_col_major(shape(vmnk), Stride<_0,_0,_1,_0> for A / <_0,_1,_0,_0> for B / zeros)
  const size_t multicast_mode = !is_tma_multicast_op(op) ? 4 : operand == 'A' ? 2 : operand == 'B' ? 1 : 4;
  const IntTuple& shape_vmnk = mma.thr_layout_vmnk.shape;
  std::vector<Layout> modes;
  for (size_t i = 0; i < shape_vmnk.rank(); ++i) {
    Layout compact = make_layout(IntTuple(shape_vmnk[i]));  // compact column-major, from 1
    modes.push_back(i == multicast_mode ? compact : Layout(compact.shape, repeat_like(compact.shape, 0)));
  }
  return coalesce(make_layout(modes));
}

Layout tma_issued_tv(const TiledCopy& copy, const Layout& tv) {
  const CopyAtom& a = copy.atom;
  if (a.num_bits_per_tma <= 0 || a.value_type.bits <= 0 || rank(tv) != 2) return tv;
  const int64_t box = a.num_bits_per_tma / a.value_type.bits;  // NumValSrc: one TMA's values
  const int64_t ctas = a.tma_multicast, values = size(tv.shape[1]);
  if (ctas <= 1) return tv;
  if (box <= 0 || box % ctas != 0 || values % box != 0)
    throw Error("a TMA copy of " + str(ctas) + " multicast CTAs over boxes of " + str(box) + " elements and " +
                str(values) + " values per CTA has no issuing CTA per element");
  Layout first_part = make_layout(IntTuple::tuple({IntTuple(box / ctas), IntTuple(values / box)}),
                                  IntTuple::tuple({IntTuple(1), IntTuple(box)}));  // (v, box_i) -> CTA value
  return make_layout(std::vector<Layout>{get(tv, 0), composition(get(tv, 1), first_part)});
}

std::vector<std::string> tma_picture_notes(const TiledCopy& copy) {
  const CopyAtom& a = copy.atom;
  if (a.num_bits_per_tma <= 0 || a.value_type.bits <= 0) return {};
  const int64_t box = a.num_bits_per_tma / a.value_type.bits, ctas = std::max<int64_t>(a.tma_multicast, 1);
  const int64_t threads = size(copy.layout_s_tv.shape[0]);
  if (ctas <= 1)
    return {"TMA: one box of " + str(box) + " elements per instruction" +
            (threads > 1 ? "; each of the " + str(threads) + " CTAs loads it into its own smem" : "; T0 is the CTA")};
  return {"TMA multicast over " + str(ctas) + " CTAs: thread = CTA, each issues " + str(box / ctas) + " of every " +
              str(box) + "-element box and multicasts it to all " + str(ctas),
          "(CuTe's TV layout gives each CTA the whole box from its offset; drawn: the elements it issues)"};
}

}  // namespace cutevis
