// The whole catalogue, atom by atom: layouts consistent with the shape and the threads,
// C a bijection onto the MxN tile, A and B covering their tiles, registers holding the
// values, names that round-trip; and the mma.sync layout table against the fragment rule.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "tests/atoms/mma_support.hpp"

using namespace cutevis;
using namespace cutevis::test;

namespace {

int64_t mode(const IntTuple& t, size_t i) { return t[i].value(); }

// Every index in [0, cells) is hit; returns how often the most-hit cell is.
int64_t covers(const Layout& l, int64_t cells, std::string& why) {
  std::vector<int64_t> hits(static_cast<size_t>(cells), 0);
  for (int64_t x : layout_values(l)) {
    if (x < 0 || x >= cells) {
      why = "maps outside the tile: " + std::to_string(x);
      return 0;
    }
    ++hits[static_cast<size_t>(x)];
  }
  if (std::count(hits.begin(), hits.end(), 0) > 0) why = "leaves cells unowned";
  return *std::max_element(hits.begin(), hits.end());
}

int64_t register_bits(const RegisterSpec& r) {
  static const std::pair<const char*, int> bits[] = {{"uint32_t", 32},        {"int32_t", 32}, {"float", 32},
                                                     {"uint64_t", 64},        {"double", 64},  {"float2", 64},
                                                     {"complex<double>", 128}};
  for (const auto& [name, b] : bits)
    if (r.c_type == name) return int64_t{b} * r.count;
  return -1;
}

}  // namespace

TEST_CASE("mma catalogue: every atom is consistent") {
  const auto atoms = mma_catalogue();
  const auto names = mma_atom_names();
  REQUIRE(atoms.size() == names.size());
  const auto& listed = mma_listing();  // what `list` filters before it builds an atom
  REQUIRE(listed.size() == atoms.size());
  MESSAGE(atoms.size() << " atoms in the catalogue");
  CHECK(atoms.size() > 8000);
  std::set<std::string> seen;
  std::map<std::string, int> per_family;
  for (size_t i = 0; i < atoms.size(); ++i) {
    const MmaAtom& a = atoms[i];
    INFO(a.name);
    ++per_family[a.family];
    CHECK(a.short_name == names[i]);
    CHECK(listed[i].short_name == a.short_name);
    CHECK(listed[i].cpp_name == a.name);
    CHECK(listed[i].sm == a.sm);
    CHECK(seen.insert(a.name).second);  // no duplicates
    const int64_t m = mode(a.shape_mnk, 0), n = mode(a.shape_mnk, 1), k = mode(a.shape_mnk, 2);
    const int64_t threads = size(a.thr_id);
    // Every TV layout has a thread mode of size(ThrID) and maps into its tile.
    for (const Layout* l : {&a.layout_a, &a.layout_b, &a.layout_c}) {
      REQUIRE(rank(*l) == 2);
      CHECK(size(l->shape[0]) == threads);
    }
    std::string why_a, why_b, why_c;
    int64_t max_a = covers(a.layout_a, m * k, why_a), max_b = covers(a.layout_b, n * k, why_b),
            max_c = covers(a.layout_c, m * n, why_c);
    CHECK(why_a == "");
    CHECK(why_b == "");
    CHECK(why_c == "");
    // C: a bijection onto the MxN tile (each cell one (thread, value)).
    CHECK(size(a.layout_c) == m * n);
    CHECK(max_c == 1);
    // A and B: register fragments own each cell once; descriptor / tensor-memory operands
    // may be replicated (every thread of a warpgroup sees the shared-memory tile).
    if (a.source_a == OperandSource::kRegister) CHECK(max_a == 1);
    if (a.source_b == OperandSource::kRegister) CHECK(max_b == 1);
    // Registers hold exactly the thread's values (packed), where the values live in registers.
    if (a.family != "Universal") {
      const int64_t vals_a = size(a.layout_a.shape[1]), vals_c = size(a.layout_c.shape[1]);
      if (a.source_a == OperandSource::kRegister && a.ptx_calls == 1)
        CHECK(register_bits(a.regs_a) == vals_a * a.type_a.bits);
      if (a.source_b == OperandSource::kRegister && a.ptx_calls == 1)
        CHECK(register_bits(a.regs_b) == size(a.layout_b.shape[1]) * a.type_b.bits);
      if (a.source_c == OperandSource::kRegister && a.ptx_calls == 1)
        CHECK(register_bits(a.regs_c) == vals_c * a.type_c.bits);
      if (a.source_a != OperandSource::kRegister) CHECK(a.regs_a.count == 1);
    }
    // What verify needs: the instruction (or a C++ fma), its asm, the majors of descriptor operands.
    if (a.family != "Universal" && a.family != "SM100") {
      CHECK(!a.ptx.empty());
      CHECK(a.asm_template.find(a.ptx) != std::string::npos);
      CHECK(!a.asm_operands.empty());
    }
    if (a.source_b == OperandSource::kSharedMemory) CHECK((a.major_b == "K" || a.major_b == "MN"));
    CHECK(a.comment_c == "(T" + std::to_string(threads) + ",V" + std::to_string(size(a.layout_c.shape[1])) + ") -> (M" +
                             std::to_string(m) + ",N" + std::to_string(n) + ")");
  }
  for (const auto& [family, count] : per_family) MESSAGE(family << ": " << count);
  CHECK(per_family.size() == 12);  // SM90_GMMA_SPARSE: the 2:4 sparse wgmma
}

TEST_CASE("mma catalogue: names round-trip through both spellings") {
  for (const auto& name : mma_atom_names()) {
    MmaAtom a = find_mma_atom(name);
    if (a.short_name != name || find_mma_atom(a.name).short_name != name) {
      FAIL_CHECK(name << " -> " << a.name << " / " << a.short_name);
    }
  }
}

// The 32-thread mma.sync fragments follow one rule: thread t = 4*g + q holds, of a
// (rows x K) operand, row g (+8 per row block) and the 32-bit register q's elements:
//   k = q*epr + e + 4*epr*kh   (epr = elements per 32-bit register, kh = K block)
// value v = e + epr*(r + rblocks*kh).  C rows are g (+8), columns 2q + {0,1}.
TEST_CASE("mma catalogue: mma.sync operand layouts follow the fragment rule") {
  auto fragment = [](int64_t rows, int64_t k, int64_t bits) {
    const int64_t epr = std::max<int64_t>(1, 32 / bits), rblocks = rows / 8, kblocks = k / (4 * epr);
    std::vector<int64_t> cells(static_cast<size_t>(32 * epr * rblocks * kblocks));
    for (int64_t t = 0; t < 32; ++t)
      for (int64_t v = 0; v < epr * rblocks * kblocks; ++v) {
        int64_t e = v % epr, r = (v / epr) % rblocks, kh = v / (epr * rblocks);
        int64_t row = t / 4 + 8 * r, col = (t % 4) * epr + e + 4 * epr * kh;
        cells[static_cast<size_t>(t + 32 * v)] = row + rows * col;
      }
    return cells;
  };
  auto accum = [](int64_t rows) {
    std::vector<int64_t> cells(static_cast<size_t>(rows * 8));
    for (int64_t t = 0; t < 32; ++t)
      for (int64_t v = 0; v < rows / 4; ++v)
        cells[static_cast<size_t>(t + 32 * v)] = (t / 4 + 8 * (v / 2)) + rows * (2 * (t % 4) + v % 2);
    return cells;
  };
  int checked = 0;
  for (const auto& name : mma_atom_names()) {
    bool sync = (name.rfind("SM75_", 0) == 0 || name.rfind("SM80_", 0) == 0 || name.rfind("SM89_", 0) == 0 ||
                 name.rfind("SM90_16x8", 0) == 0 || name.rfind("SM120_16x8x32_TN<", 0) == 0);
    if (!sync) continue;
    MmaAtom a = find_mma_atom(name);
    INFO(name);
    const int64_t m = mode(a.shape_mnk, 0), n = mode(a.shape_mnk, 1), k = mode(a.shape_mnk, 2);
    CHECK(layout_values(a.layout_a) == fragment(m, k, a.type_a.bits));
    CHECK(layout_values(a.layout_b) == fragment(n, k, a.type_b.bits));
    CHECK(layout_values(a.layout_c) == accum(m));
    ++checked;
  }
  CHECK(checked == 130);  // SM75 3, SM80 63, SM89 8, SM90 f64/c64 6, SM120 50
}

TEST_CASE("mma catalogue: GMMA covers every N and type and major the hardware has") {
  std::map<std::string, int> counts;
  for (const auto& name : mma_atom_names())
    if (name.rfind("SM90_64x", 0) == 0)
      ++counts[name.substr(name.find('_', 8) + 1, name.find('<') == std::string::npos
                                                      ? std::string::npos
                                                      : name.find('<') - name.find('_', 8) - 1)];
  // F16/BF16 inputs: 32 N x (4 SS majors + 2 RS majors); tf32/fp8: 32 N x SS/RS; s8/u8: 18 N x SS/RS x saturate
  CHECK(counts["F32F16F16_SS"] == 32 * 4);
  CHECK(counts["F32F16F16_RS"] == 32 * 2);
  CHECK(counts["F16F16F16_SS"] == 32 * 4);
  CHECK(counts["F32BF16BF16_RS"] == 32 * 2);
  CHECK(counts["F32TF32TF32_SS_TN"] == 32);
  CHECK(counts["F16E5M2E4M3_RS_TN"] == 32);
  CHECK(counts["S32U8S8_SS_TN"] == 18);
  CHECK(counts["S32S8U8_RS_TN_SATURATE"] == 18);
  CHECK(counts.size() ==
        6 + 2 + 16 + 16);  // 16-bit SS/RS, tf32, fp8 (2 accumulators x 4 input pairs x SS/RS), int (x _SATURATE)
}

TEST_CASE("mma catalogue: the largest GMMA by the numbers") {
  MmaAtom a = find_mma_atom("SM90_64x256x16_F32F16F16_SS<K,K>");
  CHECK(to_string(a.layout_c) == "((4,8,4),(2,2,32)):((128,1,16),(64,8,512))");
  CHECK(to_string(a.layout_b) == "(128,(256,16)):(0,(1,256))");
  CHECK(a.regs_c.c_type == "float");
  CHECK(a.regs_c.count == 128);
  CHECK(a.regs_d.c_type == "void");
  CHECK(a.source_a == OperandSource::kSharedMemory);
  CHECK(a.ptx == "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16");
  CHECK(a.comment_a == "(T128,V1024) -> (M64,K16)");
  TiledMma m = make_tiled_mma(a);
  OwnershipView b = OwnershipView::from_tv(m.tv_layout_b, 256, 16);
  CHECK(b.max_owners() == 128);
  CHECK(b.owners(255, 15)[127] == Owner{127, 255 + 256 * 15});
}
