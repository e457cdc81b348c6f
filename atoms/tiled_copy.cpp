// TiledCopy: CuTe's make_tiled_copy family and TiledCopy::get_layoutS_TV / get_layoutD_TV
// (include/cute/atom/copy_atom.hpp), step by step in the same terms.
#include "atoms/tiled_copy.hpp"

#include "atoms/copy_catalogue.hpp"

namespace cutevis {

namespace {

// shape(Tiler_MN): a layout mode gives its shape.
IntTuple tiler_shape(const Tiler& t) {
  switch (t.kind()) {
    case Tiler::Kind::kLayout: return t.layout().shape;
    case Tiler::Kind::kTuple: {
      std::vector<IntTuple> m;
      for (const auto& x : t.modes()) m.push_back(tiler_shape(x));
      return IntTuple::tuple(std::move(m));
    }
    case Tiler::Kind::kUnderscore: break;
  }
  throw Error("a TiledCopy's tiler cannot hold `_`");
}

// tile2thrfrg's map for the trg side (src or dst) of the atom:
// ((trg_tid,rest_tid),(trg_val,rest_val)) -> (m,n), with ref2trg: (trg_tid,trg_val) -> (ref_tid,ref_val).
Layout thrval2mn(const TiledCopy& copy, const Layout& ref2trg) {
  const Layout& ref = copy.atom.val_layout_ref;
  // ((atom_tid,atom_val),(rest_tid,rest_val)) -> (m,n)
  Layout atom_layout_tv =
      zipped_divide(copy.tiled_layout_tv, Tiler::from_shape(tup(size(ref.shape[0]), size(ref.shape[1]))));
  // ((trg_tid,trg_val),(rest_tid,rest_val)) -> (m,n)
  Layout trg_layout_tv = composition(atom_layout_tv, Tiler::tuple({Tiler(ref2trg), Tiler::underscore()}));
  return coalesce(zip(trg_layout_tv), tup(1, tup(1, 1)));
}

// get_layoutS_TV / get_layoutD_TV: (thr_idx,val_idx) -> (m,n), the tile's column-major index.
Layout layout_trg_tv(const TiledCopy& copy, const Layout& atom_trg) {
  const Layout ref2trg = composition(right_inverse(copy.atom.val_layout_ref), atom_trg);
  // ref_S = make_layout(make_shape(shape(Tiler_MN), 1)); tile2thrfrg(ref_S, ref2trg)(_,_,0)
  const Layout ref_tile = make_layout(tup(tiler_shape(copy.tiler_mn), 1));
  return composition(get(ref_tile, 0), thrval2mn(copy, ref2trg));
}

TiledCopy build(const CopyAtom& atom, const Layout& layout_tv, const Tiler& tiler, bool tiler_is_shape) {
  if (rank(layout_tv) != 2)
    throw Error("a TiledCopy's layout_tv is (thr_idx, val_idx) -> (m,n), rank 2; got " + to_string(layout_tv));
  if (atom.value_type.bits <= 0) throw Error("make_tiled_copy: the copy atom has no value type");
  TiledCopy c;
  c.atom = atom;
  c.tiler_mn = tiler;
  c.tiler_is_shape = tiler_is_shape;
  c.tiled_layout_tv = layout_tv;
  const int64_t tiled_thr = size(layout_tv.shape[0]), tiled_val = size(layout_tv.shape[1]);
  const int64_t atom_thr = size(atom.val_layout_ref.shape[0]), atom_val = size(atom.val_layout_ref.shape[1]);
  if (tiled_thr % atom_thr != 0)
    throw Error("TiledCopy uses too few thrs for selected CopyAtom: " + std::to_string(tiled_thr) + " threads, " +
                atom.name + " needs a multiple of " + std::to_string(atom_thr));
  if (tiled_val % atom_val != 0)
    throw Error("TiledCopy uses too few vals for selected CopyAtom: " + std::to_string(tiled_val) +
                " values per thread, " + atom.name + " needs a multiple of " + std::to_string(atom_val));
  std::vector<IntTuple> sizes;
  if (tiler.is_tuple())
    for (const auto& m : tiler.modes()) sizes.emplace_back(size(tiler_shape(m)));
  else sizes.emplace_back(size(tiler_shape(tiler)));
  c.tile_mn = IntTuple::tuple(std::move(sizes));
  c.num_threads = tiled_thr;
  c.layout_s_tv = layout_trg_tv(c, atom.val_layout_src);
  c.layout_d_tv = layout_trg_tv(c, atom.val_layout_dst);
  return c;
}

}  // namespace

TiledCopy make_tiled_copy_impl(const CopyAtom& atom, const Layout& layout_tv, const Tiler& tiler) {
  return build(atom, layout_tv, tiler, false);
}

TiledCopy make_tiled_copy_impl(const CopyAtom& atom, const Layout& layout_tv, const IntTuple& tiler_shape) {
  return build(atom, layout_tv, Tiler::from_shape(tiler_shape), true);
}

// layout_mn = raked_product(thr, val): (m,n) -> (thr_idx, val_idx); layout_tv its right inverse
// shaped (size(thr), size(val)); Tiler_MN = product_each(shape(layout_mn)).
TiledCopy make_tiled_copy(const CopyAtom& atom, const Layout& thr_layout, const Layout& val_layout) {
  LayoutTV tv = make_layout_tv(thr_layout, val_layout);
  return make_tiled_copy_impl(atom, tv.layout_tv, tv.tiler_mn);
}

// (thr_idx,val_idx) -> (m,k) of the MMA's (tile_m, tile_k) A tile.
TiledCopy make_tiled_copy_A(const CopyAtom& atom, const TiledMma& mma) {
  return make_tiled_copy_impl(atom, mma.tv_layout_a, tup(mma.tile_mnk[0], mma.tile_mnk[2]));
}

// (thr_idx,val_idx) -> (n,k) of the MMA's (tile_n, tile_k) B tile.
TiledCopy make_tiled_copy_B(const CopyAtom& atom, const TiledMma& mma) {
  return make_tiled_copy_impl(atom, mma.tv_layout_b, tup(mma.tile_mnk[1], mma.tile_mnk[2]));
}

// (thr_idx,val_idx) -> (m,n) of the MMA's (tile_m, tile_n) C tile.
TiledCopy make_tiled_copy_C(const CopyAtom& atom, const TiledMma& mma) {
  return make_tiled_copy_impl(atom, mma.tv_layout_c, tup(mma.tile_mnk[0], mma.tile_mnk[1]));
}

// Truncate get_layoutC_TV to the atom's NumValSrc values; Tiler_MN = for each mode i the
// filtered (thr,val) -> i-th coordinate; TiledLayout_TV = (thr,val) -> coordinate in that tiler.
TiledCopy make_tiled_copy_C_atom(const CopyAtom& atom, const TiledMma& mma) {
  const Layout& layout_c_tv = mma.tv_layout_c;
  const int64_t copy_v = atom.num_val_src;
  if (copy_v > size(layout_c_tv.shape[1]))
    throw Error("make_tiled_copy_C_atom: " + atom.name + " moves " + std::to_string(copy_v) +
                " values, the MMA's C has " + std::to_string(size(layout_c_tv.shape[1])) + " per thread");
  // (thr,val) -> (m,n), the first copy_v values of every thread
  const Layout layout_tv = composition(layout_c_tv, make_layout(tup(size(layout_c_tv.shape[0]), copy_v)));
  const IntTuple mma_tiler = tup(mma.tile_mnk[0], mma.tile_mnk[1]);
  std::vector<Tiler> modes;
  for (size_t i = 0; i < 2; ++i)  // (thr,val) -> coordinate i, without its broadcast and size-1 modes
    modes.emplace_back(filter(composition(make_layout(mma_tiler, i == 0 ? tup(1, 0) : tup(0, 1)), layout_tv)));
  const Tiler tiler = Tiler::tuple(modes);
  // tile coord -> mma coord, and its inverse applied to (thr,val) -> mma coord
  const Layout tile2mma = composition(make_layout(mma_tiler), tiler);
  return make_tiled_copy_impl(atom, composition(left_inverse(tile2mma), layout_tv), tiler);
}

// The source side of another tiled copy, with its Tiler_MN.
TiledCopy make_tiled_copy_S(const CopyAtom& atom, const TiledCopy& copy) {
  return build(atom, copy.layout_s_tv, copy.tiler_mn, copy.tiler_is_shape);
}

// The destination side of another tiled copy, with its Tiler_MN.
TiledCopy make_tiled_copy_D(const CopyAtom& atom, const TiledCopy& copy) {
  return build(atom, copy.layout_d_tv, copy.tiler_mn, copy.tiler_is_shape);
}

std::string tiler_to_string(const TiledCopy& copy, bool underscore) {
  if (copy.tiler_is_shape) return to_string(tiler_shape(copy.tiler_mn), underscore);
  return to_string(copy.tiler_mn, underscore);
}

std::string to_string(const TiledCopy& copy, bool underscore) {
  return "TiledCopy\n"
         "  Tiler_MN:       " +
         tiler_to_string(copy, underscore) +
         "\n"
         "  TiledLayout_TV: " +
         to_string(copy.tiled_layout_tv, underscore) + "\n" + to_string(copy.atom, underscore);
}

std::string to_string(const TiledCopy& copy) { return to_string(copy, false); }

}  // namespace cutevis
