// The bank model the app hands to the views (app/commands.cpp's bank_model), for
// renderer tests that draw bank pictures: atoms/analysis/banks.hpp adapted to
// renderers' BankShading.
#pragma once

#include <span>

#include "atoms/analysis/banks.hpp"
#include "renderers/views.hpp"

namespace cutevis::test {

inline BankShading analysis_banks(std::span<const int64_t> values, int64_t rows, int element_bits) {
  LayoutBanks b = layout_banks(values, rows, element_bits);
  return {std::move(b.bank), b.worst_row, b.worst_col};
}

}  // namespace cutevis::test
