// TiledMMA: CuTe's make_tiled_mma, thrfrg_A/B/C and get_layoutA/B/C_TV, step for step.
#include "atoms/tiled_mma.hpp"

#include "atoms/mma_catalogue.hpp"

namespace cutevis {

namespace {

const Tiler kUnder = Tiler::underscore();

int64_t tiler_size(const Tiler& t) {
  switch (t.kind()) {
    case Tiler::Kind::kUnderscore: throw Error("internal: the size of `_`");
    case Tiler::Kind::kLayout: return size(t.layout());
    case Tiler::Kind::kTuple: {
      int64_t s = 1;
      for (const auto& m : t.modes()) s = checked_mul(s, tiler_size(m));
      return s;
    }
  }
  return 0;
}

// append<3>(permutations, _): a tuple of exactly three tilers.
Tiler permutation_mnk(const Tiler& p) {
  if (!p.is_tuple())
    throw Error("the permutation of a TiledMMA is a tuple of up to three tilers (Tile<PermM,PermN,PermK>), got " +
                to_string(p));
  if (p.rank() > 3) throw Error("the permutation " + to_string(p) + " has more than three modes (M,N,K)");
  std::vector<Tiler> modes = p.modes();
  while (modes.size() < 3) modes.push_back(kUnder);
  return Tiler::tuple(modes);
}

// permutation_mnk<I>(): the given tiler, or the atom extent times the threads along I.
Tiler permutation_of(const TiledMma& m, size_t i) {
  const Tiler& p = m.permutation.modes()[i];
  if (!p.is_underscore()) return p;
  return Tiler::integer(checked_mul(size(m.atom.shape_mnk[i]), size(m.thr_layout_vmnk.shape[i + 1])));
}

// thr_idx -> (ThrV,ThrM,ThrN,ThrK): composition((T,1):(1,0), right_inverse((vmnk, complement(vmnk))))
Layout thridx_2_thrid(const Layout& vmnk) {
  Layout full = make_layout(std::vector<Layout>{vmnk, complement(vmnk)});
  return composition(Layout(tup(size(vmnk), 1), tup(1, 0)), right_inverse(full));
}

// thrfrg_X(ref): ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1))) for the operand on modes
// (d0, d1) of MNK, whose atom TV layout is `atom_tv`.
Layout thrfrg(const TiledMma& m, const Layout& ref, size_t d0, size_t d1, const Layout& atom_tv) {
  // Reorder the tensor for the TiledAtom: (PermD0,PermD1)
  Layout t = logical_divide(ref, Tiler::tuple({permutation_of(m, d0), permutation_of(m, d1)}));
  // Tile for the atom: ((AtomD0,AtomD1),(RestD0,RestD1))
  Layout a = zipped_divide(
      t, Tiler::tuple({Tiler(make_layout(m.atom.shape_mnk[d0])), Tiler(make_layout(m.atom.shape_mnk[d1]))}));
  // The atom mode from (D0,D1) to (Thr,Val): ((ThrV,FrgV),(RestD0,RestD1))
  Layout tv = composition(a, Tiler::tuple({Tiler(atom_tv), kUnder}));
  // Tile the thread mode: ((ThrV,(ThrD0,ThrD1)),(FrgV,(RestD0,RestD1)))
  Tiler thr_tile = Tiler::tuple({kUnder, Tiler::tuple({Tiler(make_layout(m.thr_layout_vmnk.shape[d0 + 1])),
                                                       Tiler(make_layout(m.thr_layout_vmnk.shape[d1 + 1]))})});
  return zipped_divide(tv, thr_tile);
}

// tile_size_mnk<I>(): size(permutation_mnk<I>())
int64_t tile_size(const TiledMma& m, size_t i) { return tiler_size(permutation_of(m, i)); }

// The operand's (thr_idx,val) layout; `widen` maps (ThrV,(Thr0,Thr1)) onto (ThrV,(ThrM,ThrN,ThrK)) for A and B.
Layout layout_tv(const TiledMma& m, size_t d0, size_t d1, const Layout& atom_tv, const Tiler* widen,
                 const Layout* tensor = nullptr) {
  Layout ref = tensor ? *tensor : make_layout(tup(tile_size(m, d0), tile_size(m, d1)));
  Layout frg = thrfrg(m, ref, d0, d1, atom_tv);
  if (widen) frg = composition(frg, Tiler::tuple({*widen, kUnder}));
  return composition(frg, Tiler::tuple({Tiler(thridx_2_thrid(m.thr_layout_vmnk)), kUnder}));
}

}  // namespace

Layout thrfrg(const TiledMma& m, char operand, const Layout& tensor) {
  const size_t d0 = operand == 'B' ? 1 : 0, d1 = operand == 'C' ? 1 : 2;
  const Layout& atom_tv = operand == 'A' ? m.atom.layout_a : operand == 'B' ? m.atom.layout_b : m.atom.layout_c;
  return thrfrg(m, tensor, d0, d1, atom_tv);
}

IntTuple partition_shape(const TiledMma& m, char operand, const IntTuple& shape) {
  size_t d0 = operand == 'B' ? 1 : 0, d1 = operand == 'C' ? 1 : 2;
  const Layout& atom_tv = operand == 'A' ? m.atom.layout_a : operand == 'B' ? m.atom.layout_b : m.atom.layout_c;
  if (shape.is_leaf() || shape.rank() < 2)
    throw Error("partition_shape_" + std::string(1, operand) + ": the shape has at least two modes, got " +
                to_string(shape));
  Layout frg = thrfrg(m, make_layout(shape), d0, d1, atom_tv);  // ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1,...)))
  const IntTuple& values = frg.shape[1];
  std::vector<IntTuple> out{values[0]};
  for (size_t i = 0; i < values[1].rank(); ++i) out.push_back(values[1][i]);
  return IntTuple::tuple(out);
}

namespace {

// A Tile's mode as CuTe prints it: an integer n (Tiler::integer, or the layout n:1) prints as `n`.
std::string permutation_string(const Tiler& p, bool underscore) {
  std::string s = "(";
  for (size_t i = 0; i < p.modes().size(); ++i) {
    const Tiler& t = p.modes()[i];
    s += i ? "," : "";
    if (t.is_integer() || (t.is_layout() && t.layout().shape.is_leaf() && t.layout().stride == IntTuple(1)))
      s += to_string(t.layout().shape, underscore);
    else s += to_string(t, underscore);
  }
  return s + ")";
}

}  // namespace

TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& atom_layout, const Tiler& permutation) {
  if (rank(atom_layout) > 3)
    throw Error("the atom layout of a TiledMMA has at most three modes (M,N,K), got " + to_string(atom_layout));
  TiledMma m;
  m.atom = atom;
  m.atom_layout = append_to_rank(atom_layout, 3, Layout(1, 0));
  m.permutation = permutation_mnk(permutation);
  m.thr_layout_vmnk = tiled_product(atom.thr_id, Tiler(m.atom_layout));
  m.num_threads = size(m.thr_layout_vmnk);
  m.tile_mnk = tup(tile_size(m, 0), tile_size(m, 1), tile_size(m, 2));
  // (ThrV,(ThrM,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)): ThrN broadcast for A, ThrM for B
  const int64_t thr_m = size(m.thr_layout_vmnk.shape[1]), thr_n = size(m.thr_layout_vmnk.shape[2]);
  const Tiler atile = Tiler::tuple({kUnder, Tiler::tuple({Tiler(Layout(tup(thr_m, thr_n), tup(1, 0))), kUnder})});
  const Tiler btile = Tiler::tuple({kUnder, Tiler::tuple({Tiler(Layout(tup(thr_m, thr_n), tup(0, 1))), kUnder})});
  m.tv_layout_c = layout_tv(m, 0, 1, atom.layout_c, nullptr);
  m.tv_layout_a = layout_tv(m, 0, 2, atom.layout_a, &atile);
  m.tv_layout_b = layout_tv(m, 1, 2, atom.layout_b, &btile);
  return m;
}

Layout tensor_layout_tv(const TiledMma& m, char operand, const IntTuple& shape) {
  const int64_t thr_m = size(m.thr_layout_vmnk.shape[1]), thr_n = size(m.thr_layout_vmnk.shape[2]);
  const Tiler atile = Tiler::tuple({kUnder, Tiler::tuple({Tiler(Layout(tup(thr_m, thr_n), tup(1, 0))), kUnder})});
  const Tiler btile = Tiler::tuple({kUnder, Tiler::tuple({Tiler(Layout(tup(thr_m, thr_n), tup(0, 1))), kUnder})});
  const Layout tensor = make_layout(shape);
  if (operand == 'A') return layout_tv(m, 0, 2, m.atom.layout_a, &atile, &tensor);
  if (operand == 'B') return layout_tv(m, 1, 2, m.atom.layout_b, &btile, &tensor);
  return layout_tv(m, 0, 1, m.atom.layout_c, nullptr, &tensor);
}

std::string to_string(const TiledMma& mma, bool underscore) {
  return "TiledMMA\n  ThrLayoutVMNK:  " + to_string(mma.thr_layout_vmnk, underscore) +
         "\n  PermutationMNK: " + permutation_string(mma.permutation, underscore) + "\n" +
         to_string(mma.atom, underscore);
}

std::string to_string(const TiledMma& mma) { return to_string(mma, false); }

ThrMmaSlice thread_slice(const TiledMma& mma, int64_t thr_idx) {
  // Thread indices run over the TV layouts' thread mode: size(thr_layout_vmnk) threads,
  // plus the lanes that alias them where ThrID is not compact (SM70: lanes 4-15 alias 0-3).
  const int64_t lanes = size(mma.tv_layout_c.shape[0]);
  if (thr_idx < 0 || thr_idx >= lanes)
    throw Error("thread " + std::to_string(thr_idx) + " is outside the TiledMMA's " + std::to_string(lanes) +
                " threads");
  ThrMmaSlice s;
  s.thr_idx = thr_idx;
  // get_flat_coord: the hierarchical coordinate of thr_idx, each top mode made 1-D.
  const Layout& v = mma.thr_layout_vmnk;
  IntTuple hier = idx2crd(IntTuple(thr_idx), v.shape, v.stride);
  std::vector<IntTuple> flat;
  for (size_t i = 0; i < rank(v); ++i) flat.emplace_back(crd2idx(hier[i], v.shape[i]));
  s.thr_vmnk = IntTuple::tuple(flat);
  auto cells = [&](const Layout& tv) {
    std::vector<int64_t> out;
    const int64_t threads = size(tv.shape[0]), values = size(tv.shape[1]);
    for (int64_t val = 0; val < values; ++val) out.push_back(tv(thr_idx + threads * val));
    return out;
  };
  s.cells_a = cells(mma.tv_layout_a);
  s.cells_b = cells(mma.tv_layout_b);
  s.cells_c = cells(mma.tv_layout_c);
  return s;
}

}  // namespace cutevis
