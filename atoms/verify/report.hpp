// cutevis — verify's reports built from facts: per entry of an operand (a thread's value, a
// shared-memory element) the cell the layouts promise and the cell the hardware showed; the
// operand's cells, wrong entries and status follow (verify.cpp for atoms, pipeline.cpp for
// --pipeline).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atoms/verify/verify.hpp"

namespace cutevis::verify {

// "(M3,K2)" for cell 3 + rows*2 with row/col names M, K; "nowhere" for -1.
std::string cell_text(int64_t cell, int64_t rows, const std::string& rn, const std::string& cn);

struct OperandFacts {
  std::string name, storage, layout, row_name, col_name;
  bool overridden = false;
  int64_t rows = 0, cols = 0;
  std::vector<Owner> owners;              // per entry
  std::vector<std::string> labels;        // per entry ("T5 V3")
  std::vector<int64_t> believed, actual;  // cells per entry
  // per entry, what the report says for a wrong one; empty: the cells, as cell_text gives them
  std::vector<std::string> expected_text, actual_text;
};

// The operand: cells (expected / actual owners, wrong where they differ), wrong entries and
// status; cells kept when `fill_cells` or when anything disagrees.
VerifyOperand make_operand(const OperandFacts& f, bool fill_cells);

}  // namespace cutevis::verify
