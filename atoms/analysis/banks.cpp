// The banks of a layout's elements and the worst row / column conflict (banks.hpp).
#include "atoms/analysis/banks.hpp"

#include <algorithm>

#include "lib/error.hpp"

namespace cutevis {

namespace {

// word of element value v: v*bits/32 (C++ division, as the picture has always drawn it)
int64_t word_of(int64_t v, int element_bits) { return checked_mul(v, element_bits) / 32; }

// bank of a word, in 0..31 also for negative words (a layout may have negative strides)
int64_t bank_of_word(int64_t word) { return ((word % 32) + 32) % 32; }

// The worst conflict of a warp reading values[start + step*k], k < count, at once:
// the most distinct words that fall into one bank.
int64_t worst_conflict(std::span<const int64_t> values, int64_t start, int64_t step, int64_t count, int element_bits) {
  std::vector<std::vector<int64_t>> words(32);
  for (int64_t k = 0; k < count; ++k) {
    const int64_t word = word_of(values[static_cast<size_t>(start + step * k)], element_bits);
    words[static_cast<size_t>(bank_of_word(word))].push_back(word);
  }
  int64_t worst = 0;
  for (auto& w : words) {
    std::sort(w.begin(), w.end());
    worst = std::max<int64_t>(worst, std::unique(w.begin(), w.end()) - w.begin());
  }
  return worst;
}

}  // namespace

LayoutBanks layout_banks(std::span<const int64_t> values, int64_t rows, int element_bits) {
  if (element_bits <= 0) throw Error("bank colouring needs a positive element size in bits");
  const int64_t total = static_cast<int64_t>(values.size());
  if (rows <= 0 || total % rows != 0)
    throw Error("bank analysis: " + std::to_string(total) + " elements do not make rows of " + std::to_string(rows));
  const int64_t cols = total / rows;
  LayoutBanks out;
  out.bank.reserve(values.size());
  for (int64_t v : values) out.bank.push_back(bank_of_word(word_of(v, element_bits)));
  for (int64_t r = 0; r < rows; ++r)
    out.worst_row = std::max(out.worst_row, worst_conflict(values, r, rows, cols, element_bits));
  for (int64_t c = 0; c < cols; ++c)
    out.worst_col = std::max(out.worst_col, worst_conflict(values, rows * c, 1, rows, element_bits));
  return out;
}

}  // namespace cutevis
