// ThrCopy::partition_S / partition_D on runtime layouts (see partition.hpp).
#include "atoms/analysis/partition.hpp"

#include <functional>

#include "atoms/tiled_mma.hpp"
#include "lib/error.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

namespace {

// (CPY, CPY_M, CPY_N) of a plain layout tensor for thread t, and the thread's offset.
std::pair<Layout, int64_t> partition_layout(const Layout& tensor, const TiledCopy& copy, const Layout& layout_tv,
                                            int64_t t) {
  // ((TileM,TileN),(RestM,RestN)) -> offset
  const Layout tiles = zipped_divide(tensor, copy.tiler_mn);
  // (thr,val) -> offset: the tile mode seen through the TV layout (tile index m + TileM*n)
  const Layout thr_val = composition(get(tiles, 0), layout_tv);
  const Layout rest = get(tiles, 1);
  std::vector<Layout> modes = {get(thr_val, 1)};
  for (size_t m = 0; m < rank(rest); ++m) modes.push_back(get(rest, m));
  return {make_layout(modes), get(thr_val, 0)(t)};
}

// A thread's partition of a tensor, given how to partition a plain layout ((P, rest...), offset):
// the cells each element reads come from the same partition of the column-major (M,N) index.
ThreadPartition place(const AnyLayout& tensor, char side, int64_t t,
                      const std::function<std::pair<Layout, int64_t>(const Layout&)>& part) {
  ThreadPartition p;
  p.side = side;
  p.thread = t;
  const auto [cells, first_cell] = part(make_layout(shape(tensor)));
  const int64_t cell0 = first_cell;  // a plain variable: clang 14's lambdas cannot capture a structured binding
  p.cells.reserve(size(cells));
  for_each_value(cells, [&](int64_t c) { p.cells.push_back(cell0 + c); });
  for (int64_t c : p.cells) p.offsets.push_back(evaluate(tensor, c));
  if (const Layout* plain = std::get_if<Layout>(&tensor)) {
    std::tie(p.layout, p.offset) = part(*plain);
    p.text = std::to_string(p.offset) + " + " + to_string(p.layout);
  } else {
    const ComposedLayout& composed = std::get<ComposedLayout>(tensor);
    const Layout* b = std::get_if<Layout>(&composed.layout_b());
    if (b == nullptr) throw Error("partition of a doubly composed layout is not supported: " + to_string(tensor));
    std::tie(p.layout, p.offset) = part(*b);
    const std::string outer = to_string(tensor);
    // keep CuTe's "A o O o" prefix, the inner layout replaced by the thread's partition
    const size_t last = outer.rfind(" o ");
    p.text = outer.substr(0, last + 3) + std::to_string(p.offset) + " + " + to_string(p.layout);
  }
  return p;
}

ThreadPartition partition(const TiledCopy& copy, const AnyLayout& tensor, int64_t t, char side) {
  if (t < 0 || t >= copy.num_threads)
    throw Error("thread " + std::to_string(t) + " is not one of the copy's " + std::to_string(copy.num_threads) +
                " threads");
  if (rank(tensor) < 2)  // (M,N), or ((M,N),MMA_M,MMA_N) as make_fragment_C gives a TMEM accumulator
    throw Error("partition_" + std::string(1, side) + " needs an (M,N) tensor; got " + to_string(tensor));
  const Layout& tv = side == 'S' ? copy.layout_s_tv : copy.layout_d_tv;
  return place(tensor, side, t, [&](const Layout& l) { return partition_layout(l, copy, tv, t); });
}

}  // namespace

ThreadPartition partition_S(const TiledCopy& copy, const AnyLayout& tensor, int64_t thread) {
  return partition(copy, tensor, thread, 'S');
}
ThreadPartition partition_D(const TiledCopy& copy, const AnyLayout& tensor, int64_t thread) {
  return partition(copy, tensor, thread, 'D');
}

Layout tensor_layout_tv(const TiledCopy& copy, char side, const IntTuple& shape) {
  const Layout tiles = zipped_divide(make_layout(shape), copy.tiler_mn);  // ((TileM,TileN),(RestM,RestN))
  const Layout thr_val = composition(get(tiles, 0), side == 'S' ? copy.layout_s_tv : copy.layout_d_tv);
  return make_layout(
      std::vector<Layout>{get(thr_val, 0), make_layout(std::vector<Layout>{get(thr_val, 1), get(tiles, 1)})});
}

ThreadPartition partition_mma(const TiledMma& mma, char operand, const AnyLayout& tensor, int64_t thread) {
  const int64_t threads = size(mma.tv_layout_c.shape[0]);
  if (thread < 0 || thread >= threads)
    throw Error("thread " + std::to_string(thread) + " is not one of the TiledMMA's " + std::to_string(threads) +
                " threads");
  if (rank(tensor) < 2)  // (M,K), or (M,K,PIPE,...): thrfrg_X divides the first two modes, the rest follow
    throw Error("partition_" + std::string(1, operand) + " needs an " +
                (operand == 'A'   ? "(M,K)"
                 : operand == 'B' ? "(N,K)"
                                  : "(M,N)") +
                " tensor; got " + to_string(tensor));
  // get_flat_coord(thr_idx) -> (v, m, n, k); the operand's thread coordinate (ThrV,(Thr0,Thr1))
  const IntTuple vmnk = thread_slice(mma, thread).thr_vmnk;
  const size_t d0 = operand == 'B' ? 2 : 1, d1 = operand == 'C' ? 2 : 3;
  auto part = [&](const Layout& l) {
    const Layout frg = thrfrg(mma, operand, l);  // ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1)))
    const Layout thr = get(frg, 0), val = get(frg, 1);
    const int64_t v_size = size(get(thr, 0)), t0_size = size(get(get(thr, 1), 0));
    const int64_t index = vmnk[0].value() + v_size * (vmnk[d0].value() + t0_size * vmnk[d1].value());
    const Layout rest = get(val, 1);
    std::vector<Layout> modes = {get(val, 0)};
    for (size_t m = 0; m < rank(rest); ++m) modes.push_back(get(rest, m));
    return std::pair<Layout, int64_t>{make_layout(modes), thr(index)};
  };
  ThreadPartition p = place(tensor, operand, thread, part);
  const OperandSource source = operand == 'A'   ? mma.atom.source_a
                               : operand == 'B' ? mma.atom.source_b
                                                : mma.atom.source_c;
  const int bits = operand == 'A' ? mma.atom.type_a.bits : operand == 'B' ? mma.atom.type_b.bits : mma.atom.type_c.bits;
  if (source == OperandSource::kSharedMemory && bits > 0) p.descriptor_elements = 128 / bits;
  p.tensor_memory = source == OperandSource::kTensorMemory;
  return p;
}

// make_fragment_A/B: make_fragment_like; make_fragment_C: the accumulators never follow the
// tensor, a compact column-major layout of its shape.
Layout partition_fragment(const ThreadPartition& p) {
  if (p.tensor_memory)
    throw Error(std::string("operand ") + p.side + " lives in tensor memory: it has no register fragment");
  if (p.descriptor_elements > 0) {
    std::vector<Layout> modes = {Layout(IntTuple(1), IntTuple(0))};
    for (size_t m = 1; m < rank(p.layout); ++m) modes.push_back(upcast(get(p.layout, m), p.descriptor_elements));
    return make_layout(modes);
  }
  return p.side == 'C' ? make_layout(p.layout.shape) : make_fragment_like(p.layout);
}

Layout retile(const TiledCopy& copy, const Layout& fragment) {
  // CuTe's TiledCopy::retile, step for step (include/cute/atom/copy_atom.hpp)
  const int64_t v = size(get(fragment, 0));
  // (m,n) -> v_idx: the shape and order of the V inside TiledLayout_TV
  const Layout frg_layout_mn =
      upcast(with_shape(right_inverse(copy.tiled_layout_tv), copy.tile_mn), copy.num_threads * v);
  // (atom_vals,rest_vals) -> (v,m,n)
  const int64_t atom_num_val = size(copy.atom.val_layout_ref.shape[1]);
  const Layout frg_layout_v =
      zipped_divide(logical_product(make_layout(IntTuple(v)), Tiler(right_inverse(frg_layout_mn))),
                    Tiler(make_layout(IntTuple(atom_num_val))));
  // ((TileV,TileM,TileN),(1,RestM,RestN)): tile the fragment by (V, frg_layout_mn's extents)
  std::vector<Tiler> tile = {Tiler::integer(v)};
  const IntTuple mn_shape = frg_layout_mn.shape;
  for (size_t i = 0; i < (mn_shape.is_leaf() ? 1 : mn_shape.rank()); ++i)
    tile.push_back(Tiler::integer(size(mn_shape.is_leaf() ? mn_shape : mn_shape[i])));
  while (tile.size() > rank(fragment)) tile.pop_back();
  const Layout t = zipped_divide(fragment, Tiler::tuple(tile));
  // transform the tile mode: ((atom_vals,rest_vals),(1,RestM,RestN))
  const Layout vt = composition(t, Tiler::tuple({Tiler(frg_layout_v), Tiler::underscore()}));
  // v_tensor(_, append<R>(0, _)): the first rest mode (extent 1) at 0, the others kept
  std::vector<Layout> modes = {get(vt, 0)};
  const Layout rest = get(vt, 1);
  for (size_t m = 1; m < rank(rest); ++m) modes.push_back(get(rest, m));
  return make_layout(modes);
}

}  // namespace cutevis

#include <algorithm>

#include "atoms/mma_atom.hpp"

namespace cutevis {

FragmentCheck check_fragment(const TiledCopy& copy, const TiledMma& mma, char operand) {
  FragmentCheck r;
  r.operand = std::string(1, operand);
  const Layout& mma_tv = operand == 'A' ? mma.tv_layout_a : mma.tv_layout_b;
  const int64_t rows = size(operand == 'A' ? mma.tile_mnk[0] : mma.tile_mnk[1]);
  const int64_t tile_rows = size(copy.tile_mn[0]);
  const char* mn = operand == 'A' ? "(m,k)" : "(n,k)";
  auto coord = [](int64_t cell, int64_t r) {
    return "(" + std::to_string(cell % r) + "," + std::to_string(cell / r) + ")";
  };
  if (copy.num_threads != mma.num_threads) {
    r.matches = false;
    r.first_mismatch =
        "the copy has " + std::to_string(copy.num_threads) + " threads, the MMA " + std::to_string(mma.num_threads);
    return r;
  }
  const int64_t mma_vals = size(mma_tv.shape[1]), copy_vals = size(copy.layout_d_tv.shape[1]);
  for (int64_t t = 0; t < mma.num_threads; ++t) {
    std::vector<int64_t> want, got;
    for (int64_t v = 0; v < mma_vals; ++v) want.push_back(mma_tv(t + mma.num_threads * v));
    for (int64_t v = 0; v < copy_vals; ++v) {
      const int64_t cell = copy.layout_d_tv(t + copy.num_threads * v);
      got.push_back(cell % tile_rows + rows * (cell / tile_rows));  // the copy's tile, in the MMA tile's index
    }
    ++r.threads_checked;
    std::vector<int64_t> sw = want, sg = got;
    std::sort(sw.begin(), sw.end());
    std::sort(sg.begin(), sg.end());
    if (sw == sg) continue;
    r.matches = false;
    for (size_t v = 0; v < want.size(); ++v) {
      if (std::find(got.begin(), got.end(), want[v]) == got.end()) {
        r.first_mismatch = "thread " + std::to_string(t) + ": the MMA's " + r.operand + " value " + std::to_string(v) +
                           " is " + mn + " = " + coord(want[v], rows) +
                           ", which the copy does not deliver to this thread";
        return r;
      }
    }
    for (size_t v = 0; v < got.size(); ++v) {
      if (std::find(want.begin(), want.end(), got[v]) == want.end()) {
        r.first_mismatch = "thread " + std::to_string(t) + ": the copy delivers " + mn + " = " + coord(got[v], rows) +
                           " (its value " + std::to_string(v) + "), which is not in the MMA's " + r.operand +
                           " fragment of this thread";
        return r;
      }
    }
    r.first_mismatch = "thread " + std::to_string(t) + ": " + std::to_string(got.size()) + " copy values for " +
                       std::to_string(want.size()) + " MMA values";
    return r;
  }
  return r;
}

}  // namespace cutevis
