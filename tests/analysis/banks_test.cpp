// The banks of a layout's elements (atoms/analysis/banks.hpp): the numbers the bank
// picture draws (cutevis layout --banks).
#include <doctest/doctest.h>

#include "atoms/analysis/banks.hpp"
#include "atoms/analysis/memory_model.hpp"
#include "lib/error.hpp"
#include "lib/lang/expr.hpp"
#include "lib/layout.hpp"
#include "lib/swizzle.hpp"

using namespace cutevis;

namespace {

// L(i) for i = r + rows*c of a layout text, and its rows (size of mode 0).
std::pair<std::vector<int64_t>, int64_t> values_of(const std::string& text) {
  const AnyLayout l = evaluate_expression(text).to_any_layout();
  const IntTuple sh = shape(l);
  return {layout_values(l), size(sh.is_leaf() ? sh : sh[0])};
}

}  // namespace

TEST_CASE("banks: element i of 32-bit elements is in bank i mod 32, 16-bit pairs share one") {
  const auto [values, rows] = values_of("(8,64):(64,1)");
  const LayoutBanks b32 = layout_banks(values, rows, 32);
  REQUIRE(b32.bank.size() == 512);
  for (size_t i = 0; i < values.size(); ++i) CHECK(b32.bank[i] == values[i] % 32);
  const LayoutBanks b16 = layout_banks(values, rows, 16);
  for (size_t i = 0; i < values.size(); ++i)
    CHECK(b16.bank[i] == bank_of(values[i] * 2));  // the inspector's bank of a byte address
  // sub-byte elements: 4-bit elements, 8 to a word
  const LayoutBanks b4 = layout_banks(values, rows, 4);
  for (size_t i = 0; i < values.size(); ++i) CHECK(b4.bank[i] == (values[i] / 8) % 32);
}

TEST_CASE("banks: a row-major 8x64 half tile conflicts 8-way down a column, and a swizzle removes it") {
  const auto [plain, rows] = values_of("(8,64):(64,1)");
  const LayoutBanks p = layout_banks(plain, rows, 16);
  CHECK(p.worst_row == 1);  // a row: 64 halves = 32 consecutive words, one per bank
  CHECK(p.worst_col == 8);  // a column: 8 words 128 bytes apart, all in one bank
  const auto [swizzled, srows] = values_of("S<3,3,3> o 0 o (8,64):(64,1)");
  const LayoutBanks s = layout_banks(swizzled, srows, 16);
  CHECK(s.worst_col == 1);
  // 32-bit elements of a padded 32x32 tile (stride 33): conflict-free both ways
  const auto [padded, prow] = values_of("(32,32):(1,33)");
  const LayoutBanks pad = layout_banks(padded, prow, 32);
  CHECK(pad.worst_row == 1);
  CHECK(pad.worst_col == 1);
  const auto [unpadded, urow] = values_of("(32,32):(1,32)");
  CHECK(layout_banks(unpadded, urow, 32).worst_row == 32);
}

TEST_CASE("banks: negative values stay in banks 0..31; bad sizes and overflow are errors") {
  const auto [values, rows] = values_of("(16,16):(-1,16)");
  const LayoutBanks b = layout_banks(values, rows, 32);
  for (int64_t bank : b.bank) {
    CHECK(bank >= 0);
    CHECK(bank < 32);
  }
  CHECK_THROWS_AS(layout_banks(values, rows, 0), Error);
  CHECK_THROWS_AS(layout_banks(values, 5, 16), Error);  // 256 elements are not rows of 5
  const std::vector<int64_t> huge{int64_t{1} << 62};
  CHECK_THROWS_AS(layout_banks(huge, 1, 16), Error);
}
