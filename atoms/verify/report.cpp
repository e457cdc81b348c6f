// cutevis — verify's reports built from facts (see report.hpp).
#include "atoms/verify/report.hpp"

namespace cutevis::verify {

std::string cell_text(int64_t cell, int64_t rows, const std::string& rn, const std::string& cn) {
  if (cell < 0) return "nowhere";
  return "(" + rn + std::to_string(cell % rows) + "," + cn + std::to_string(cell / rows) + ")";
}

VerifyOperand make_operand(const OperandFacts& f, bool fill_cells) {
  VerifyOperand op;
  op.name = f.name;
  op.storage = f.storage;
  op.layout = f.layout;
  op.overridden = f.overridden;
  op.rows = f.rows;
  op.cols = f.cols;
  op.row_name = f.row_name;
  op.col_name = f.col_name;
  std::vector<VerifyCell> cells(static_cast<size_t>(f.rows * f.cols));
  for (size_t i = 0; i < f.owners.size(); ++i) {
    if (f.believed[i] >= 0) cells[static_cast<size_t>(f.believed[i])].expected.push_back(f.owners[i]);
    if (f.actual[i] >= 0) cells[static_cast<size_t>(f.actual[i])].actual.push_back(f.owners[i]);
    if (f.believed[i] != f.actual[i]) {
      VerifyEntry e;
      e.owner = f.owners[i];
      e.entry = f.labels[i];
      e.expected_cell = f.believed[i];
      e.actual_cell = f.actual[i];
      e.expected =
          f.expected_text.empty() ? cell_text(f.believed[i], f.rows, f.row_name, f.col_name) : f.expected_text[i];
      e.actual = f.actual_text.empty() ? cell_text(f.actual[i], f.rows, f.row_name, f.col_name) : f.actual_text[i];
      op.wrong.push_back(std::move(e));
    }
  }
  for (auto& c : cells) {
    c.wrong = c.expected != c.actual;
    op.cells_disagree += c.wrong ? 1 : 0;
  }
  op.status = op.wrong.empty() && op.cells_disagree == 0 ? VerifyStatus::kAgree : VerifyStatus::kDisagree;
  if (fill_cells || op.status == VerifyStatus::kDisagree) op.cells = std::move(cells);
  return op;
}

}  // namespace cutevis::verify
