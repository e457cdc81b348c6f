// cutevis — the shared-memory banks of a layout's elements (the bank picture's numbers).
//
// Element L(i) of `bits`-bit elements sits in 4-byte word L(i)*bits/32, and word w in
// bank w mod 32 (32 banks of 4 bytes, as memory_model.hpp's bank_of).  A warp reading
// one row (or one column) of the drawn grid at once costs, on its busiest bank, one
// access per distinct word there: the "N-way" conflict.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cutevis {

struct LayoutBanks {
  std::vector<int64_t> bank;  // per element, in the order given (column-major over the drawn rows)
  int64_t worst_row = 0;      // the most distinct words on one bank over any row read at once
  int64_t worst_col = 0;      // ... over any column read at once
};

// `values`: L(i) for i = r + rows*c; `rows`: the drawn grid's rows (size of mode 0).
// Throws Error when element_bits is not positive or a byte offset overflows.
LayoutBanks layout_banks(std::span<const int64_t> values, int64_t rows, int element_bits);

}  // namespace cutevis
