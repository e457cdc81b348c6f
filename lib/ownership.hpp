// cutevis — ownership views: for every cell of a tile, *all* of its (thread, value)
// owners, in the order met walking threads outer, values inner (so the first owner
// is the label CuTe's print_latex shows).  Replicated ownership (stride 0, e.g. SS
// GMMA operands owned by all 128 threads) is kept, never dropped.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/layout.hpp"

namespace cutevis {

struct Owner {
  int32_t thr = 0;  // 32 bits: a picture of 655,360 owners stays 5 MB
  int32_t val = 0;
  bool operator==(const Owner& o) const { return thr == o.thr && val == o.val; }
};

class OwnershipView {
 public:
  OwnershipView() = default;
  // tv: (thr, val) -> column-major index r + rows*c into a rows x cols tile.
  static OwnershipView from_tv(const Layout& tv, int64_t rows, int64_t cols);

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  int64_t num_threads() const { return num_threads_; }
  int64_t num_values() const { return num_values_; }
  std::span<const Owner> owners(int64_t cell) const;  // cell = row + rows*col
  std::span<const Owner> owners(int64_t row, int64_t col) const { return owners(row + rows_ * col); }
  size_t max_owners() const;      // the most owners any cell has
  int64_t unowned_cells() const;  // cells no (thr, val) maps to

 private:
  int64_t rows_ = 0, cols_ = 0, num_threads_ = 0, num_values_ = 0;
  std::vector<uint32_t> offsets_;  // cell c owns owners_[offsets_[c] .. offsets_[c+1])
  std::vector<Owner> owners_;
};

}  // namespace cutevis
