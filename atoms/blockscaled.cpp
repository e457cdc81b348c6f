// CUTLASS's block-scaled scale-factor configs; see atoms/blockscaled.hpp.
#include "atoms/blockscaled.hpp"

#include <string>

#include "atoms/utccp.hpp"

namespace cutevis {

namespace {

IntTuple dyn(int64_t v) { return IntTuple::dynamic(v); }

// (MN mode, K mode) of one SF atom: 128 rows x 4 scale factors, each repeated SFVecSize times along K.
Layout sf_mn_mode(SfConfig arch) {
  if (arch == SfConfig::kSm103) return Layout(tup(8, 4, 4), tup(16, 128, 4));
  return Layout(tup(32, 4), tup(16, 4));
}

Layout sf_k_mode(int vec) { return Layout(tup(vec, 4), tup(0, 1)); }

void check_vec(const BlockScaledConfig& c) {
  if (c.vec_size <= 0 || c.vec_size > 1024)
    throw Error("SFVecSize is a positive integer (16 or 32), not " + std::to_string(c.vec_size));
}

// Step<_2,_1,_3> (K before MN) or Step<_1,_2,_3>, cut to `rank` modes.
IntTuple step(bool k_first, size_t rank) {
  std::vector<IntTuple> s = {IntTuple(k_first ? 2 : 1), IntTuple(k_first ? 1 : 2), IntTuple(3)};
  s.resize(rank);
  return IntTuple::tuple(s);
}

int64_t static_int(const IntTuple& t, const char* what) {
  if (!t.is_leaf()) throw Error(std::string(what) + " is an integer, got " + to_string(t));
  return t.value();
}

}  // namespace

Layout sf_atom(const BlockScaledConfig& c) {
  check_vec(c);
  const Layout mn = sf_mn_mode(c.arch), k = sf_k_mode(c.vec_size);
  // SfKMajorAtom: (MN,K); SfMNMajorAtom: (K-vector,MN) -- the output config's MN-major chunk
  return c.k_major ? make_layout(mn, k) : make_layout(k, mn);
}

Layout deduce_layout_sf(const BlockScaledConfig& c) {
  // LayoutSF{} is CUTLASS's layout *type* default-constructed: its run-time extents are int32_t(0)
  // (CuTe prints (((_32,_4),0),((_32,_4),0),(_1,0)):...); a kernel fills them with tile_atom_to_shape_SF*.
  const Layout atom = sf_atom(c);
  const IntTuple zero = dyn(0), one = IntTuple(1);
  const IntTuple zeros = IntTuple::tuple({zero, zero, zero});
  if (c.arch == SfConfig::kSm103)  // tile_to_shape(SfAtom, make_shape(int(0),int(0),int(0)), Step<_2,_1,_3>)
    return tile_to_shape(atom, zeros, step(true, 3));
  // blocked_product(SfAtom, make_layout(make_shape(0,0,0), make_stride(0,_1,0))); the output config's
  // MN-major one has the stride (_1,0,0)
  const IntTuple stride = c.k_major ? IntTuple::tuple({zero, one, zero}) : IntTuple::tuple({one, zero, zero});
  return blocked_product(atom, Layout(zeros, stride));
}

Layout tile_atom_to_shape_sf(const BlockScaledConfig& c, char operand, const IntTuple& problem_shape) {
  const Layout atom = sf_atom(c);
  if (problem_shape.is_leaf() || problem_shape.rank() < 3 || problem_shape.rank() > 4)
    throw Error("the problem shape is (M,N,K) or (M,N,K,L), got " + to_string(problem_shape));
  const bool has_l = problem_shape.rank() == 4;
  const IntTuple& m = problem_shape[0];
  const IntTuple& n = problem_shape[1];
  const IntTuple& k = problem_shape[2];
  if (operand == 'D') {  // append<4>(problem_shape, 1): (M,N,L)
    const IntTuple l = has_l ? problem_shape[3] : dyn(1);
    return tile_to_shape(atom, IntTuple::tuple({m, n, l}), step(c.k_major, 3));
  }
  const IntTuple& mn = operand == 'A' ? m : n;
  if (has_l) return tile_to_shape(atom, IntTuple::tuple({mn, k, problem_shape[3]}), step(true, 3));
  return tile_to_shape(atom, IntTuple::tuple({mn, k}), step(true, 2));
}

Layout tile_atom_to_shape_sf_tensor(const IntTuple& problem_shape) {
  if (problem_shape.is_leaf() || problem_shape.rank() < 2 || problem_shape.rank() > 3)
    throw Error("Sm1xxBlockScaledTensorConfig: the shape is (M,N) or (M,N,L), got " + to_string(problem_shape));
  const Layout atom(tup(tup(32, 4), tup(4)), tup(tup(16, 4), tup(1)));
  const IntTuple l = problem_shape.rank() == 3 ? problem_shape[2] : dyn(1);
  return tile_to_shape(atom, IntTuple::tuple({problem_shape[0], problem_shape[1], l}), step(true, 3));
}

Layout deduce_smem_layout_sf(const BlockScaledConfig& c, char operand, const TiledMma& mma, const IntTuple& tile_mnk) {
  check_vec(c);
  if (tile_mnk.is_leaf() || tile_mnk.rank() != 3) throw Error("the tile shape is (M,N,K), got " + to_string(tile_mnk));
  const int64_t atom_k = static_int(mma.atom.shape_mnk[2], "the MMA's K");
  if (atom_k % c.vec_size != 0)
    throw Error("deduce_smem_layoutSF" + std::string(1, operand) + ": the MMA's K (" + std::to_string(atom_k) +
                ") is not a multiple of SFVecSize " + std::to_string(c.vec_size));
  const int64_t nsf = atom_k / c.vec_size;  // MMA_NSF: scale factors per row in one MMA
  const int64_t blk_mn = 128, blk_sf = 4, blk_elems = blk_mn * blk_sf;
  const int64_t tile_k = static_int(tile_mnk[2], "the tile's K");
  int64_t mn = 0;
  if (operand == 'A') {
    // MMA_M: one CTA's M (a 2-SM MMA splits M over its peer CTAs, size<0>(ThrLayoutVMNK))
    mn = static_int(tile_mnk[0], "the tile's M") / size(get(mma.thr_layout_vmnk, 0));
  } else {
    // MMA_N_SFB: N rounded up to 128 -- TMA and UTCCP move SFB as if B had 256 columns for N = 192
    const int64_t n = static_int(tile_mnk[1], "the tile's N");
    mn = (n + blk_mn - 1) / blk_mn * blk_mn;
  }
  if (mn % blk_mn != 0 || blk_sf % nsf != 0 || tile_k % (c.vec_size * blk_sf) != 0)
    throw Error("deduce_smem_layoutSF" + std::string(1, operand) + ": the tile (" + to_string(tile_mnk) +
                ") does not hold whole 128x4 scale-factor blocks for SFVecSize " + std::to_string(c.vec_size));
  // ((((32,4),MN/128),(SFVecSize,MMA_NSF)), _1, (4/MMA_NSF, K/SFVecSize/4)); CUTLASS writes
  // prepend(Int<MN/128>{}, Shape<_32,_4>{}), which (a non-tuple first) puts the block count last
  const IntTuple shape =
      tup(tup(tup(tup(32, 4), mn / blk_mn), tup(c.vec_size, nsf)), 1, tup(blk_sf / nsf, tile_k / c.vec_size / blk_sf));
  const IntTuple stride = tup(tup(tup(tup(16, 4), blk_elems), tup(0, 1)), 0, tup(nsf, mn / blk_mn * blk_elems));
  return Layout(shape, stride);
}

}  // namespace cutevis

namespace cutevis {

namespace {

// offset of element (mn, k, l) of an (MN,K[,L]) gmem SF layout
int64_t gmem_offset(const Layout& sf, int64_t mn, int64_t k, int64_t l) {
  return get(sf, 0)(mn) + get(sf, 1)(k) + (rank(sf) > 2 ? get(sf, 2)(l) : 0);
}

// offset of element (mn, k) of one smem stage ((MN, K-in-MMA), _1, K-MMA-blocks): k splits into the
// MMA's K (the first mode's second part) and which MMA along K (the third mode)
int64_t smem_offset(const Layout& sf, int64_t atom_k, int64_t mn, int64_t k) {
  const Layout mma_mode = get(sf, 0);
  return get(mma_mode, 0)(mn) + get(mma_mode, 1)(k % atom_k) + get(sf, 2)(k / atom_k);
}

}  // namespace

ScaleFactorMap scale_factor_map(const TiledMma& mma, const IntTuple& tile_mnk, const IntTuple& problem,
                                const std::vector<int64_t>& coord) {
  const MmaAtom& atom = mma.atom;
  if (atom.sf_vec_size <= 0 || atom.family != "SM100_UMMA")
    throw Error("--sf draws a block-scaled UMMA (SM100_MMA_MXF8F6F4_*, SM100_MMA_MXF4_*); " + atom.name +
                " has no scale factors here");
  if (atom.sm == 103)
    throw Error("--sf: " + atom.name +
                " takes its scale factors through Sm103BlockScaledConfig's 3-MMA k-blocks, "
                "which this view does not model (the SM100 atoms' does)");
  BlockScaledConfig c;
  c.vec_size = atom.sf_vec_size;
  ScaleFactorMap s;
  s.vec_size = c.vec_size;
  const int64_t pair = size(get(mma.thr_layout_vmnk, 0));
  const int64_t tile_m = tile_mnk[0].value();
  s.m = tile_m / pair;
  s.n = tile_mnk[1].value();
  s.k = tile_mnk[2].value();
  s.problem = problem.is_leaf() && problem.value() == 0 ? tup(tile_m, s.n, s.k, 1) : problem;
  if (s.problem.is_leaf() || s.problem.rank() < 3 || s.problem.rank() > 4)
    throw Error("the problem shape is (M,N,K) or (M,N,K,L), got " + to_string(s.problem));
  if (coord.size() > 4) throw Error("the tile coordinate is (m, n, k, l)");
  for (size_t i = 0; i < coord.size(); ++i) s.coord[i] = coord[i];
  const int64_t extent[4] = {s.problem[0].value(), s.problem[1].value(), s.problem[2].value(),
                             s.problem.rank() == 4 ? s.problem[3].value() : 1};
  const int64_t tile[4] = {tile_m, s.n, s.k, 1};
  const char* mode = "mnkl";
  for (int i = 0; i < 4; ++i)
    if (s.coord[i] < 0 || (s.coord[i] + 1) * tile[i] > extent[i])
      throw Error(std::string("the tile's ") + mode[i] + " coordinate " + std::to_string(s.coord[i]) +
                  " reaches past the problem's " + std::to_string(extent[i]) + " (tile " + to_string(tile_mnk) +
                  ", problem " + to_string(s.problem) + ")");
  const int64_t atom_k = atom.shape_mnk[2].value();
  s.gmem_sfa = tile_atom_to_shape_sf(c, 'A', s.problem);
  s.gmem_sfb = tile_atom_to_shape_sf(c, 'B', s.problem);
  s.smem_sfa = deduce_smem_layout_sf(c, 'A', mma, tile_mnk);
  s.smem_sfb = deduce_smem_layout_sf(c, 'B', mma, tile_mnk);
  s.tmem_sfa = tmem_sf_layout(s.smem_sfa);
  s.tmem_sfb = tmem_sf_layout(s.smem_sfb);
  s.tmem_cols_a = sf_tmem_columns(s.tmem_sfa);
  s.tmem_cols_b = sf_tmem_columns(s.tmem_sfb);
  s.utccp = pair == 2 ? "SM100_UTCCP_4x32dp128bit_2cta" : "SM100_UTCCP_4x32dp128bit_1cta";
  s.sfb_row_shift = s.n == 192 && s.coord[1] % 2 == 1 ? 64 : 0;
  // the TMEM home of the scale factor of row mn, element k (subpartition 0's copy)
  auto tmem_cell = [&](const Layout& tmem, const Layout& smem, int64_t mn, int64_t k, int64_t column0) {
    const int64_t rows = size(get(get(smem, 0), 0));
    const SfTmemAddress a = sf_tmem_addresses(tmem, rows, mn, k % atom_k, k / atom_k).front();
    return SfTmemCell{a.lane, a.column + column0, a.byte};
  };
  const int64_t m0 = s.coord[0] * tile_m, n0 = s.coord[1] * s.n, k0 = s.coord[2] * s.k, l = s.coord[3];
  for (int64_t k = 0; k < s.k; ++k)
    for (int64_t m = 0; m < s.m; ++m) {
      s.gmem_a.push_back(gmem_offset(s.gmem_sfa, m0 + m, k0 + k, l));
      s.smem_a.push_back(smem_offset(s.smem_sfa, atom_k, m, k));
      s.tmem_a.push_back(tmem_cell(s.tmem_sfa, s.smem_sfa, m, k, 0));
    }
  for (int64_t k = 0; k < s.k; ++k)
    for (int64_t n = 0; n < s.n; ++n) {
      s.gmem_b.push_back(gmem_offset(s.gmem_sfb, n0 + n, k0 + k, l));
      s.smem_b.push_back(smem_offset(s.smem_sfb, atom_k, n + s.sfb_row_shift, k));
      s.tmem_b.push_back(tmem_cell(s.tmem_sfb, s.smem_sfb, n + s.sfb_row_shift, k, s.tmem_cols_a));
    }
  return s;
}

}  // namespace cutevis
