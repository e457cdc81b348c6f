// ThrCopy::partition_S / partition_D on runtime layouts (see partition.hpp).
#include "atoms/analysis/partition.hpp"

#include "lib/error.hpp"

namespace cutevis {

namespace {

// (CPY, CPY_M, CPY_N) of a plain layout tensor for thread t, and the thread's offset.
std::pair<Layout, int64_t> partition_layout(const Layout& tensor, const TiledCopy& copy, const Layout& layout_tv, int64_t t) {
  // ((TileM,TileN),(RestM,RestN)) -> offset
  const Layout tiles = zipped_divide(tensor, copy.tiler_mn);
  // (thr,val) -> offset: the tile mode seen through the TV layout (tile index m + TileM*n)
  const Layout thr_val = composition(get(tiles, 0), layout_tv);
  const Layout rest = get(tiles, 1);
  std::vector<Layout> modes = {get(thr_val, 1)};
  for (size_t m = 0; m < rank(rest); ++m) modes.push_back(get(rest, m));
  return {make_layout(modes), get(thr_val, 0)(t)};
}

ThreadPartition partition(const TiledCopy& copy, const AnyLayout& tensor, int64_t t, char side) {
  if (t < 0 || t >= copy.num_threads)
    throw Error("thread " + std::to_string(t) + " is not one of the copy's " + std::to_string(copy.num_threads) + " threads");
  if (rank(tensor) != 2) throw Error("partition_" + std::string(1, side) + " needs an (M,N) tensor; got " + to_string(tensor));
  const Layout& tv = side == 'S' ? copy.layout_s_tv : copy.layout_d_tv;
  ThreadPartition p;
  p.side = side;
  p.thread = t;
  // The cells each element reads, from the same partition of the column-major (M,N) index.
  const auto [cells, first_cell] = partition_layout(make_layout(shape(tensor)), copy, tv, t);
  const int64_t cell0 = first_cell;  // a plain variable: clang 14's lambdas cannot capture a structured binding
  p.cells.reserve(size(cells));
  for_each_value(cells, [&](int64_t c) { p.cells.push_back(cell0 + c); });
  for (int64_t c : p.cells) p.offsets.push_back(evaluate(tensor, c));
  if (const Layout* plain = std::get_if<Layout>(&tensor)) {
    std::tie(p.layout, p.offset) = partition_layout(*plain, copy, tv, t);
    p.text = std::to_string(p.offset) + " + " + to_string(p.layout);
  } else {
    const ComposedLayout& composed = std::get<ComposedLayout>(tensor);
    const Layout* b = std::get_if<Layout>(&composed.layout_b());
    if (b == nullptr) throw Error("partition of a doubly composed layout is not supported: " + to_string(tensor));
    std::tie(p.layout, p.offset) = partition_layout(*b, copy, tv, t);
    const std::string outer = to_string(tensor);
    // keep CuTe's "A o O o" prefix, the inner layout replaced by the thread's partition
    const size_t last = outer.rfind(" o ");
    p.text = outer.substr(0, last + 3) + std::to_string(p.offset) + " + " + to_string(p.layout);
  }
  return p;
}

}  // namespace

ThreadPartition partition_S(const TiledCopy& copy, const AnyLayout& tensor, int64_t thread) { return partition(copy, tensor, thread, 'S'); }
ThreadPartition partition_D(const TiledCopy& copy, const AnyLayout& tensor, int64_t thread) { return partition(copy, tensor, thread, 'D'); }

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
  auto coord = [](int64_t cell, int64_t r) { return "(" + std::to_string(cell % r) + "," + std::to_string(cell / r) + ")"; };
  if (copy.num_threads != mma.num_threads) {
    r.matches = false;
    r.first_mismatch = "the copy has " + std::to_string(copy.num_threads) + " threads, the MMA " + std::to_string(mma.num_threads);
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
        r.first_mismatch = "thread " + std::to_string(t) + ": the MMA's " + r.operand + " value " + std::to_string(v) + " is " + mn + " = " +
                           coord(want[v], rows) + ", which the copy does not deliver to this thread";
        return r;
      }
    }
    for (size_t v = 0; v < got.size(); ++v) {
      if (std::find(want.begin(), want.end(), got[v]) == want.end()) {
        r.first_mismatch = "thread " + std::to_string(t) + ": the copy delivers " + mn + " = " + coord(got[v], rows) + " (its value " +
                           std::to_string(v) + "), which is not in the MMA's " + r.operand + " fragment of this thread";
        return r;
      }
    }
    r.first_mismatch = "thread " + std::to_string(t) + ": " + std::to_string(got.size()) + " copy values for " + std::to_string(want.size()) + " MMA values";
    return r;
  }
  return r;
}

}  // namespace cutevis
