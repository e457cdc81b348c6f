#include "lib/ownership.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace cutevis {

OwnershipView OwnershipView::from_tv(const Layout& tv, int64_t rows, int64_t cols) {
  if (rank(tv) != 2) throw Error("a TV layout has rank 2 (thread, value), got " + to_string(tv));
  if (rows <= 0 || cols <= 0) throw Error("a tile needs a positive shape");
  OwnershipView v;
  v.rows_ = rows;
  v.cols_ = cols;
  v.num_threads_ = size(tv.shape[0]);
  v.num_values_ = size(tv.shape[1]);
  const int64_t cells = checked_mul(rows, cols);
  if (v.num_threads_ > INT32_MAX || v.num_values_ > INT32_MAX || size(tv) > UINT32_MAX || cells > UINT32_MAX)
    throw Error("TV layout " + to_string(tv) + " is too large to draw");
  // The layout is walked twice (count, then fill) rather than stored: a 2x2 GMMA
  // picture has 2.6 million (thr, val) pairs.  for_each_value is inline, so each walk
  // is a plain loop.
  std::vector<uint32_t> count(static_cast<size_t>(cells) + 1, 0);
  for_each_value(tv, [&](int64_t x) {
    if (x < 0 || x >= cells)
      throw Error("TV layout " + to_string(tv) + " maps to index " + std::to_string(x) + ", outside the " +
                  std::to_string(rows) + "x" + std::to_string(cols) + " tile");
    ++count[static_cast<size_t>(x) + 1];
  });
  for (size_t c = 1; c < count.size(); ++c) count[c] += count[c - 1];
  v.offsets_ = count;
  v.owners_.resize(static_cast<size_t>(size(tv)));
  // Filled in memory order (values outer), so a cell's owners land side by side (a
  // 128-thread GMMA B operand: 4x faster than threads outer); the threads-outer order
  // is restored below in the rare cells owned by different threads at different values.
  const int32_t T = static_cast<int32_t>(v.num_threads_);
  int32_t t = 0, val = 0;
  for_each_value(tv, [&](int64_t cell) {
    v.owners_[count[static_cast<size_t>(cell)]++] = Owner{t, val};
    if (++t == T) t = 0, ++val;
  });
  auto thread_major = [](const Owner& a, const Owner& b) { return a.thr < b.thr || (a.thr == b.thr && a.val < b.val); };
  for (size_t c = 0; c + 1 < v.offsets_.size(); ++c) {
    auto b = v.owners_.begin() + v.offsets_[c], e = v.owners_.begin() + v.offsets_[c + 1];
    if (e - b > 1 && !std::is_sorted(b, e, thread_major)) std::sort(b, e, thread_major);
  }
  return v;
}

std::span<const Owner> OwnershipView::owners(int64_t cell) const {
  if (cell < 0 || cell >= rows_ * cols_) throw Error("cell " + std::to_string(cell) + " outside the tile");
  size_t b = offsets_[static_cast<size_t>(cell)], e = offsets_[static_cast<size_t>(cell) + 1];
  return {owners_.data() + b, e - b};
}

size_t OwnershipView::max_owners() const {
  size_t m = 0;
  for (size_t c = 0; c + 1 < offsets_.size(); ++c) m = std::max<size_t>(m, offsets_[c + 1] - offsets_[c]);
  return m;
}

int64_t OwnershipView::unowned_cells() const {
  int64_t n = 0;
  for (size_t c = 0; c + 1 < offsets_.size(); ++c) n += offsets_[c + 1] == offsets_[c];
  return n;
}

}  // namespace cutevis
