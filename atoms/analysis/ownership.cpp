// Who owns a cell (see ownership.hpp).
#include "atoms/analysis/ownership.hpp"

#include "lib/error.hpp"

namespace cutevis {

namespace {

int register_bits(const RegisterSpec& r) {
  return r.c_type == "uint64_t" || r.c_type == "double" ? 64 : r.c_type == "uint16_t" ? 16 : 32;
}

// Every (t,v) with tv(t + threads*v) == cell, in thread order then value order.
std::vector<CellOwner> owners_in(const Layout& tv, int64_t cell) {
  const int64_t threads = size(tv.shape[0]), values = size(tv.shape[1]);
  std::vector<CellOwner> out;
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t v = 0; v < values; ++v)
      if (tv(t + threads * v) == cell) out.push_back({t, v, 0, ""});
  return out;
}

void check_cell(const char* what, int64_t row, int64_t col, int64_t rows, int64_t cols) {
  if (row < 0 || col < 0 || row >= rows || col >= cols)
    throw Error(std::string(what) + "(" + std::to_string(row) + "," + std::to_string(col) + ") is outside the " +
                std::to_string(rows) + "x" + std::to_string(cols) + " tile");
}

}  // namespace

std::vector<CellOwner> mma_owners(const TiledMma& mma, char operand, int64_t row, int64_t col) {
  const int64_t m = mma.tile_mnk[0].value(), n = mma.tile_mnk[1].value(), k = mma.tile_mnk[2].value();
  const int64_t rows = operand == 'B' ? n : m, cols = operand == 'C' ? n : k;
  if (operand != 'A' && operand != 'B' && operand != 'C') throw Error("an MMA cell is A(m,k), B(n,k) or C(m,n)");
  check_cell(std::string(1, operand).c_str(), row, col, rows, cols);
  const Layout& tv = operand == 'A' ? mma.tv_layout_a : operand == 'B' ? mma.tv_layout_b : mma.tv_layout_c;
  const Layout& atom_tv = operand == 'A' ? mma.atom.layout_a : operand == 'B' ? mma.atom.layout_b : mma.atom.layout_c;
  const OperandSource source = operand == 'A'   ? mma.atom.source_a
                               : operand == 'B' ? mma.atom.source_b
                                                : mma.atom.source_c;
  const RegisterSpec& regs = operand == 'A' ? mma.atom.regs_a : operand == 'B' ? mma.atom.regs_b : mma.atom.regs_c;
  const int bits = operand == 'A' ? mma.atom.type_a.bits : operand == 'B' ? mma.atom.type_b.bits : mma.atom.type_c.bits;
  const int64_t atom_values = size(atom_tv.shape[1]);
  std::vector<CellOwner> out = owners_in(tv, row + rows * col);
  for (CellOwner& o : out) {
    o.call = o.value / atom_values;
    const int64_t v = o.value % atom_values;
    if (source == OperandSource::kSharedMemory) {
      o.reg = "smem";
    } else if (source == OperandSource::kTensorMemory) {
      o.reg = "tmem";
    } else if (regs.count > 0 && bits > 0) {
      const int rb = register_bits(regs);
      const std::string name(1, static_cast<char>(operand - 'A' + 'a'));
      o.reg = name + std::to_string(v * bits / rb);
      if (bits < rb) {
        const int64_t part = (v * bits % rb) / bits, parts = rb / bits;
        o.reg += parts == 2 ? (part ? ".hi" : ".lo") : ".b" + std::to_string(part);
      }
    }
  }
  return out;
}

std::vector<CellFeed> mma_feeds(const TiledMma& mma, int64_t m, int64_t n) {
  check_cell("C", m, n, mma.tile_mnk[0].value(), mma.tile_mnk[1].value());
  std::vector<CellFeed> out;
  for (char operand : {'A', 'B'})
    for (int64_t k = 0; k < mma.tile_mnk[2].value(); ++k) {
      const int64_t row = operand == 'A' ? m : n;
      out.push_back({operand, row, k, mma_owners(mma, operand, row, k)});
    }
  return out;
}

std::vector<CellOwner> copy_owners(const TiledCopy& copy, char side, int64_t row, int64_t col) {
  if (side != 'S' && side != 'D') throw Error("a copy cell is S(m,n) or D(m,n)");
  const int64_t rows = size(copy.tile_mn[0]), cols = size(copy.tile_mn[1]);
  check_cell(std::string(1, side).c_str(), row, col, rows, cols);
  return owners_in(side == 'S' ? copy.layout_s_tv : copy.layout_d_tv, row + rows * col);
}

}  // namespace cutevis
