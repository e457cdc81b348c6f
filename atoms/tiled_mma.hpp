// cutevis — TiledMMA exactly as CuTe's make_tiled_mma(atom, atom_layout, permutation)
// builds it (include/cute/atom/mma_atom.hpp), and a thread's slice of it (ThrMMA).
//
//   thr_layout_vmnk = tiled_product(AtomThrID, AtomLayoutMNK)        (V,M,N,K) -> thread
//   permutation_mnk<I> = PermutationMNK<I>, or AtomShape<I> * size<I+1>(thr_layout_vmnk) for `_`
//   tile_size_mnk<I> = size(permutation_mnk<I>)
//   get_layoutC_TV = thrfrg_C(tile).compose(thr_idx -> (ThrV,ThrM,ThrN,ThrK), _)
// with thrfrg_C: logical_divide by the permutation, zipped_divide by the atom's (M,N),
// compose the atom mode with LayoutC_TV, zipped_divide the thread mode by (ThrM,ThrN).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atoms/mma_atom.hpp"

namespace cutevis {

// atom_layout: AtomLayoutMNK, rank <= 3 (padded with 1:0); permutation: a tuple of up to
// three tilers (each `_`, an integer or a layout; padded with `_`).
TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& atom_layout = Layout(tup(1, 1, 1), tup(0, 0, 0)),
                        const Tiler& permutation = Tiler::tuple({Tiler::underscore(), Tiler::underscore(),
                                                                 Tiler::underscore()}));

// print(TiledMMA) in our notation (no underscores on integers); with `underscore`, as CuTe prints.
std::string to_string(const TiledMma& mma);
std::string to_string(const TiledMma& mma, bool underscore);

// ThrMMA (tiled_mma.get_slice(thr_idx)): the thread's coordinate in thr_layout_vmnk
// (get_flat_coord: one integer per V, M, N, K mode) and the cells it owns, in value order:
// cells_x[v] = tv_layout_x(thr_idx, v), a column-major index into the (M,K), (N,K), (M,N)
// tile.  thr_idx runs over the TV layouts' thread mode (SM70: all 32 lanes, aliasing).
struct ThrMmaSlice {
  int64_t thr_idx;
  IntTuple thr_vmnk;
  std::vector<int64_t> cells_a, cells_b, cells_c;
};
ThrMmaSlice thread_slice(const TiledMma& mma, int64_t thr_idx);

// partition_shape_A/B/C(mma, shape): the shape of one thread's partition of a tensor of
// `shape` ((M,K,...) for 'A', (N,K,...) for 'B', (M,N,...) for 'C'): (FrgV, Rest0, Rest1, ...),
// as CuTe slices thrfrg_X(make_layout(shape)) at thread 0.
IntTuple partition_shape(const TiledMma& mma, char operand, const IntTuple& shape);

// thrfrg_A/B/C(tensor): ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1))) -- the tensor's (M,K), (N,K)
// or (M,N) layout seen through the TiledMMA, what ThrMMA::partition_X slices at a thread.
Layout thrfrg(const TiledMma& mma, char operand, const Layout& tensor);

// get_layoutA/B/C_TV over a whole tensor of `shape` ((M,K), (N,K) or (M,N)) instead of one tile:
// (thr_idx, (FrgV,(Rest0,Rest1))) -> column-major index of the tensor; a thread's value i is
// element i of its partition_X (MMA, MMA_0, MMA_1).  For pictures of partitions.
Layout tensor_layout_tv(const TiledMma& mma, char operand, const IntTuple& shape);

// The operand tiles: A is (M,K), B (N,K), C (M,N) of tile_mnk.
inline int64_t tile_m(const TiledMma& m) { return m.tile_mnk[0].value(); }
inline int64_t tile_n(const TiledMma& m) { return m.tile_mnk[1].value(); }
inline int64_t tile_k(const TiledMma& m) { return m.tile_mnk[2].value(); }

}  // namespace cutevis
