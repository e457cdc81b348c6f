// cutevis — verify's plan: instruction decoding, operand placement, reference.
#include "atoms/verify/plan.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <regex>
#include <set>

#include "atoms/smem_atoms.hpp"
#include "lib/error.hpp"

namespace cutevis::verify {

namespace {

[[noreturn]] void fail(const std::string& message) { throw Error("verify: " + message); }

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '.') {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// The mnemonic of a PTX statement: everything before the first operand.
std::string mnemonic(const std::string& ptx) {
  size_t b = 0;
  while (b < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[b]))) ++b;
  size_t e = b;
  while (e < ptx.size() && !std::isspace(static_cast<unsigned char>(ptx[e])) && ptx[e] != '{' && ptx[e] != '%' &&
         ptx[e] != '"' && ptx[e] != ';')
    ++e;
  return ptx.substr(b, e - b);
}

bool has_token(const std::vector<std::string>& tokens, const std::string& t) {
  return std::find(tokens.begin(), tokens.end(), t) != tokens.end();
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Bits of a register C type as CuTe's arch/ structs spell it.
int register_bits(const std::string& c_type) {
  if (c_type == "uint64_t" || c_type == "double" || c_type == "int64_t") return 64;
  if (c_type == "uint128_t") return 128;
  return 32;
}

// Splitmix64: deterministic pseudo-random stream for test data.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

// --- shared memory -----------------------------------------------------------------------

int64_t SmemTile::byte_offset(int64_t mn_idx, int64_t k_idx) const {
  return offsets[static_cast<size_t>(mn_idx + mn * k_idx)] * type_bits / 8;
}

std::string default_swizzle(const std::string& major, int64_t mn, int64_t k, int type_bits) {
  for (const char* kind : {"SW128", "SW64", "SW32", "INTER"}) {
    ComposedLayout atom = gmma_smem_atom(major, kind, type_bits);
    IntTuple s = shape(AnyLayout(atom));
    if (mn % s[0].value() == 0 && k % s[1].value() == 0) return kind;
  }
  fail("no GMMA shared-memory layout atom tiles a " + std::to_string(mn) + "x" + std::to_string(k) + " " + major +
       "-major tile");
}

uint64_t gmma_descriptor(const std::string& swizzle, int64_t lbo, int64_t sbo) {
  uint64_t type = swizzle == "SW128" ? 1 : swizzle == "SW64" ? 2 : swizzle == "SW32" ? 3 : 0;
  auto field = [](int64_t bytes, const char* what) {
    if (bytes % 16 != 0 || bytes / 16 >= (1 << 14))
      fail(std::string("GMMA descriptor ") + what + " of " + std::to_string(bytes) + " bytes does not fit");
    return static_cast<uint64_t>(bytes / 16);
  };
  return (field(lbo, "leading byte offset") << 16) | (field(sbo, "stride byte offset") << 32) | (type << 62);
}

SmemTile make_smem_tile(const std::string& major, const std::string& swizzle, int64_t mn, int64_t k, int type_bits) {
  SmemTile t;
  t.major = major;
  t.swizzle = swizzle;
  t.mn = mn;
  t.k = k;
  t.type_bits = type_bits;
  ComposedLayout atom = gmma_smem_atom(major, swizzle, type_bits);
  IntTuple s = shape(AnyLayout(atom));
  if (mn % s[0].value() != 0 || k % s[1].value() != 0)
    fail("the " + swizzle + " " + major + "-major layout atom " + to_string(AnyLayout(atom)) + " does not tile (" +
         std::to_string(mn) + "," + std::to_string(k) + ")");
  t.layout = tile_to_shape(AnyLayout(atom), tup(mn, k));
  t.offsets = layout_values(t.layout);
  int64_t max_byte = 0;
  for (int64_t off : t.offsets) max_byte = std::max(max_byte, off * type_bits / 8);
  t.bytes = (max_byte + type_bits / 8 + 15) / 16 * 16;
  const int64_t per_chunk = 128 / type_bits;                    // elements per 16-byte chunk
  const int64_t width_elems = s[major == "K" ? 1 : 0].value();  // elements along the swizzle row
  auto at = [&](int64_t i, int64_t j, int64_t fallback) { return i < mn && j < k ? t.byte_offset(i, j) : fallback; };
  const int64_t atom_bytes = mn == 0 ? 0 : 8 * width_elems * type_bits / 8;
  if (major == "K") {
    t.sbo = at(8, 0, atom_bytes);                                    // next 8 rows
    t.lbo = swizzle == "INTER" ? at(0, per_chunk, atom_bytes) : 16;  // next 16-byte K chunk (INTER only)
  } else if (swizzle == "INTER") {
    t.sbo = at(per_chunk, 0, atom_bytes);  // next 16-byte MN chunk
    t.lbo = at(0, 8, atom_bytes);          // next 8 k
  } else {
    t.lbo = at(width_elems, 0, atom_bytes);  // next swizzle-row block along MN
    t.sbo = at(0, 8, atom_bytes);            // next 8 k
  }
  t.descriptor = gmma_descriptor(swizzle, t.lbo, t.sbo);
  return t;
}

std::string OperandPlan::describe_entry(size_t i) const {
  const Entry& e = entries[i];
  if (e.thr < 0) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "smem[+0x%llx]", static_cast<unsigned long long>(slots[i].byte));
    return buf;
  }
  return "T" + std::to_string(e.thr) + " V" + std::to_string(e.val);
}

// --- MMA plans -----------------------------------------------------------------------------

std::string mma_unsupported_reason(const MmaAtom& atom, int sm) {
  std::string op = mnemonic(atom.ptx);
  const std::string gpu = "this GPU is sm_" + std::to_string(sm);
  if (op.empty())
    return "no PTX instruction to run (" + (atom.family.empty() ? std::string("a C++ fma") : atom.family) + ")";
  if (contains(op, "tcgen05"))
    return sm / 10 == 10 ? "tcgen05.mma (tensor-memory operands) is not supported by verify yet"
                         : "needs an SM100 GPU (tcgen05.mma, sm_100a); " + gpu;
  if (contains(op, "kind::") || contains(op, "block_scale"))
    return sm / 10 == 12 ? "block-scaled / kind:: mma is not supported by verify yet"
                         : "needs an SM120 GPU (sm_120a); " + gpu;
  if (contains(op, ".sp") || contains(op, "sp::")) return "sparse MMA (metadata operand) is not supported by verify";
  for (const ValueType* t : {&atom.type_a, &atom.type_b, &atom.type_c})
    if (contains(t->name, "complex"))
      return "complex atom: CuTe issues several real instructions for it; verify checks single instructions";
  if (contains(op, "wgmma") && sm != 90) return "wgmma needs sm_90a (compute capability 9.0); " + gpu;
  if (atom.sm > sm) return "needs sm_" + std::to_string(atom.sm) + "; " + gpu;
  for (const ValueType* t : {&atom.type_a, &atom.type_b, &atom.type_c, &atom.type_d})
    if (!t->name.empty() && !format_of(*t) && !contains(op, "dp"))
      return "element type " + t->name + " is not supported by verify";
  return "";
}

namespace {

struct Decoded {
  MmaClass cls;
  int64_t m = 0, n = 0, k = 0;
  std::vector<std::string> types;  // type tokens in order
  PopcMode popc = PopcMode::kNone;
};

Decoded decode_opcode(const std::string& op) {
  Decoded d;
  auto tokens = split_dots(op);
  if (tokens.empty()) fail("empty instruction");
  if (tokens[0] == "wgmma") d.cls = MmaClass::kWgmma;
  else if (tokens[0] == "mma") d.cls = MmaClass::kMmaSync;
  else if (tokens[0] == "dp4a" || tokens[0] == "dp2a") d.cls = MmaClass::kScalar;
  else fail("unknown MMA instruction '" + op + "'");
  static const std::regex shape_re("m([0-9]+)n([0-9]+)k([0-9]+)");
  static const std::set<std::string> type_names = {"f16", "bf16", "tf32", "f32", "f64", "e4m3", "e5m2",
                                                   "s32", "u32",  "s8",   "u8",  "s4",  "u4",   "b1"};
  for (const auto& t : tokens) {
    std::smatch m;
    if (std::regex_match(t, m, shape_re)) {
      d.m = std::stoll(m[1]);
      d.n = std::stoll(m[2]);
      d.k = std::stoll(m[3]);
    } else if (type_names.count(t)) {
      d.types.push_back(t);
    }
  }
  if (has_token(tokens, "popc")) d.popc = has_token(tokens, "xor") ? PopcMode::kXor : PopcMode::kAnd;
  return d;
}

// Check a catalogue element type against the instruction's.
void check_type(const ValueType& declared, const std::string& ptx, const char* what, const std::string& op) {
  if (declared.name.empty()) return;
  std::string mine = ptx_type_of(declared);
  if (!mine.empty() && mine != ptx)
    fail(std::string("ValType") + what + " " + declared.name + " (" + mine + ") disagrees with the instruction " + op +
         " (" + ptx + ")");
}

int ptx_version_for(const std::string& op, const Decoded& d) {
  int v = 70;
  if (d.cls == MmaClass::kWgmma) v = 80;
  if (d.cls == MmaClass::kWgmma && (contains(op, ".s8.u8") || contains(op, ".u8.s8"))) v = 84;  // mixed integer types
  if (d.popc == PopcMode::kAnd) v = std::max(v, 71);
  bool fp8 = contains(op, "e4m3") || contains(op, "e5m2");
  if (fp8 && d.cls == MmaClass::kMmaSync) v = std::max(v, !d.types.empty() && d.types[0] == "f16" ? 87 : 84);
  if (d.cls == MmaClass::kMmaSync && contains(op, "f64") && (d.m == 16)) v = std::max(v, 78);
  return v;
}

void fill_register_operand(OperandPlan& op, const Layout& tv, const Layout& thr_id, const RegisterSpec& spec,
                           int physical_threads) {
  const int64_t threads = size(thr_id);
  if (rank(tv) != 2) fail(op.name + " layout " + to_string(tv) + " is not a (thr,val) layout");
  if (size(get(tv, 0)) != threads)
    fail(op.name + " layout " + to_string(tv) + " has " + std::to_string(size(get(tv, 0))) + " threads; ThrID " +
         to_string(thr_id) + " has " + std::to_string(threads));
  const int64_t values = size(get(tv, 1));
  op.tv = tv;
  op.reg_bits = spec.count > 0 ? register_bits(spec.c_type) : (op.format.bits == 64 ? 64 : 32);
  const int64_t bits = op.format.bits;
  const int64_t needed = values * bits;
  op.regs = spec.count > 0 ? spec.count : static_cast<int>((needed + op.reg_bits - 1) / op.reg_bits);
  if (needed > int64_t{op.regs} * op.reg_bits || (spec.count > 0 && needed != int64_t{op.regs} * op.reg_bits))
    fail(op.name + " layout " + to_string(tv) + " gives " + std::to_string(values) + " values of " +
         std::to_string(bits) + " bits per thread; the instruction's " + std::to_string(op.regs) + " registers of " +
         std::to_string(op.reg_bits) + " bits hold " + std::to_string(int64_t{op.regs} * op.reg_bits / bits));
  if (op.reg_bits == 64 && bits != 64) fail(op.name + ": 64-bit registers hold only 64-bit values here");
  const std::vector<int64_t> cells = layout_values(tv);  // index t + threads*v
  op.entries.reserve(cells.size());
  op.cell_of.reserve(cells.size());
  op.slots.reserve(cells.size());
  for (int64_t t = 0; t < threads; ++t) {
    int64_t lane = thr_id(t);
    if (lane < 0 || lane >= physical_threads)
      fail("ThrID " + to_string(thr_id) + " maps thread " + std::to_string(t) + " to lane " + std::to_string(lane) +
           ", outside the " + std::to_string(physical_threads) + " threads that run the instruction");
    for (int64_t v = 0; v < values; ++v) {
      int64_t cell = cells[static_cast<size_t>(t + threads * v)];
      if (cell < 0 || cell >= op.rows * op.cols)
        fail(op.name + " layout " + to_string(tv) + " maps (T" + std::to_string(t) + ",V" + std::to_string(v) +
             ") to " + std::to_string(cell) + ", outside the " + std::to_string(op.rows) + "x" +
             std::to_string(op.cols) + " tile");
      op.entries.push_back({t, v});
      op.cell_of.push_back(cell);
      OperandPlan::Slot s;
      s.lane = lane;
      int64_t bitpos = v * bits;
      s.word = bitpos / 32;
      s.bit = static_cast<int>(bitpos % 32);
      op.slots.push_back(s);
    }
  }
}

void fill_smem_operand(OperandPlan& op, const std::string& major, const std::string& swizzle) {
  std::string m = major.empty() ? "K" : major;
  std::string sw = swizzle.empty() ? default_swizzle(m, op.rows, op.cols, op.format.bits) : swizzle;
  op.in_smem = true;
  op.smem = make_smem_tile(m, sw, op.rows, op.cols, op.format.bits);
  const size_t n = static_cast<size_t>(op.rows * op.cols);
  op.entries.reserve(n);
  op.cell_of.reserve(n);
  op.slots.reserve(n);
  for (int64_t k = 0; k < op.cols; ++k)
    for (int64_t i = 0; i < op.rows; ++i) {
      OperandPlan::Slot s;
      s.byte = op.smem.byte_offset(i, k);
      op.entries.push_back({-1, s.byte * 8 / op.format.bits});
      op.cell_of.push_back(i + op.rows * k);
      op.slots.push_back(s);
    }
}

}  // namespace

MmaPlan plan_mma(const MmaAtom& atom, const MmaOverrides& ov) {
  MmaPlan p;
  p.atom_name = atom.short_name.empty() ? atom.name : atom.short_name;
  p.opcode = mnemonic(atom.ptx);
  if (p.opcode.empty()) fail(p.atom_name + " wraps no PTX instruction");
  Decoded d = decode_opcode(p.opcode);
  p.cls = d.cls;
  p.popc = d.popc;
  IntTuple mnk = atom.shape_mnk;
  if (mnk.rank() < 3) fail(p.atom_name + ": Shape_MNK is not rank 3");
  p.m = size(mnk[0]);
  p.n = size(mnk[1]);
  p.k = size(mnk[2]);
  if (d.cls != MmaClass::kScalar && (d.m != p.m || d.n != p.n || d.k != p.k))
    fail(p.atom_name + ": Shape_MNK (" + std::to_string(p.m) + "," + std::to_string(p.n) + "," + std::to_string(p.k) +
         ") disagrees with the instruction " + p.opcode);
  p.thr_id = ov.thr_id ? *ov.thr_id : atom.thr_id;
  p.atom_thr_id = atom.thr_id;
  p.logical_threads = size(p.thr_id);
  p.physical_threads = d.cls == MmaClass::kWgmma ? 128 : 32;
  p.ptx_version = ptx_version_for(p.opcode, d);
  if (d.cls == MmaClass::kWgmma) p.target = "sm_90a";

  // Element formats: the instruction's types (D, A, B[, C]); dp4a/dp2a pack s8/u8/s16.
  std::string ta, tb, tc, td;
  if (d.cls == MmaClass::kScalar) {
    auto fa = format_of(atom.type_a), fb = format_of(atom.type_b);
    if (!fa || !fb)
      fail(p.atom_name + ": element types " + atom.type_a.name + " / " + atom.type_b.name + " not supported");
    ta = fa->ptx;
    tb = fb->ptx;
    tc = td = "s32";
    if (ta == "b16") ta = "s16";
  } else {
    size_t need = d.cls == MmaClass::kWgmma ? 3 : 4;
    if (d.types.size() < need) fail("cannot read the element types of " + p.opcode);
    td = d.types[0];
    ta = d.types[1];
    tb = d.types[2];
    tc = d.cls == MmaClass::kWgmma ? td : d.types[3];
    check_type(atom.type_a, ta, "A", p.opcode);
    check_type(atom.type_b, tb, "B", p.opcode);
    check_type(atom.type_c, tc, "C", p.opcode);
    check_type(atom.type_d, td, "D", p.opcode);
  }
  auto format = [&](const std::string& t) {
    if (t == "s16") {
      NumberFormat f = *format_from_ptx("s32");
      f.ptx = "s16";
      f.bits = 16;
      f.max_exact = 32767;
      f.min_value = -32768;
      return f;
    }
    auto f = format_from_ptx(t);
    if (!f) fail("element type " + t + " is not supported");
    return *f;
  };

  auto name = [&](OperandPlan& op, const char* n, const char* rn, const char* cn, int64_t rows, int64_t cols,
                  const std::string& type) {
    op.name = n;
    op.row_name = rn;
    op.col_name = cn;
    op.rows = rows;
    op.cols = cols;
    op.format = format(type);
  };
  name(p.a, "A", "M", "K", p.m, p.k, ta);  // (M,K)
  name(p.b, "B", "N", "K", p.n, p.k, tb);  // (N,K)
  name(p.c, "C", "M", "N", p.m, p.n, tc);  // (M,N)
  p.format_d = format(td);
  if (p.format_d.bits != p.c.format.bits) fail(p.atom_name + ": D and C differ in width; not supported");

  p.transpose_a = atom.major_a == "MN";
  p.transpose_b = atom.major_b == "MN";
  p.has_transpose_imms = d.cls == MmaClass::kWgmma && (ta == "f16" || ta == "bf16");
  p.has_scale_imms = d.cls == MmaClass::kWgmma && p.a.format.kind == NumberKind::kFloat;
  if (d.cls == MmaClass::kWgmma && !p.has_transpose_imms && (p.transpose_a || p.transpose_b))
    fail(p.atom_name + ": only 16-bit GMMA supports MN-major operands");

  const bool a_smem = atom.source_a == OperandSource::kSharedMemory;
  const bool b_smem = atom.source_b == OperandSource::kSharedMemory;
  if (a_smem && ov.layout_a)
    fail("A is read from shared memory through a descriptor; --layout-a applies to register operands");
  if (b_smem && ov.layout_b)
    fail("B is read from shared memory through a descriptor; --layout-b applies to register operands");
  if ((a_smem || b_smem) && d.cls != MmaClass::kWgmma) fail(p.atom_name + ": shared-memory operands need wgmma");
  if (d.cls == MmaClass::kWgmma && !b_smem) fail(p.atom_name + ": GMMA reads B from shared memory");
  if (!ov.smem_swizzle.empty() && !a_smem && !b_smem) fail("--smem-layout applies to GMMA shared-memory operands only");

  p.a.overridden = ov.layout_a.has_value();
  p.b.overridden = ov.layout_b.has_value();
  p.c.overridden = ov.layout_c.has_value();
  if (a_smem) fill_smem_operand(p.a, atom.major_a, ov.smem_swizzle);
  else
    fill_register_operand(p.a, ov.layout_a ? *ov.layout_a : atom.layout_a, p.thr_id, atom.regs_a, p.physical_threads);
  if (b_smem) fill_smem_operand(p.b, atom.major_b, ov.smem_swizzle);
  else
    fill_register_operand(p.b, ov.layout_b ? *ov.layout_b : atom.layout_b, p.thr_id, atom.regs_b, p.physical_threads);
  fill_register_operand(p.c, ov.layout_c ? *ov.layout_c : atom.layout_c, p.thr_id, atom.regs_c, p.physical_threads);
  p.d_regs = d.cls == MmaClass::kWgmma ? 0 : (atom.regs_d.count > 0 ? atom.regs_d.count : p.c.regs);
  if (d.cls != MmaClass::kWgmma && p.d_regs != p.c.regs)
    fail(p.atom_name + ": D and C register counts differ; not supported");
  return p;
}

// --- copy plans ------------------------------------------------------------------------------

std::string copy_unsupported_reason(const CopyAtom& atom, int sm) {
  std::string op = mnemonic(atom.ptx);
  const std::string gpu = "this GPU is sm_" + std::to_string(sm);
  bool ld = contains(op, "ldmatrix"), st = contains(op, "stmatrix"), mov = contains(op, "movmatrix");
  if (contains(op, "tcgen05"))
    return op +
           " moves between tensor memory and registers; verify does not allocate tensor memory (tcgen05.alloc) "
           "and runs no tcgen05 instruction yet";
  if (!ld && !st && !mov)
    return (op.empty() ? atom.op : op) +
           " moves each thread's own elements; verify checks the ownership-changing instructions (ldmatrix, stmatrix, "
           "movmatrix)";
  if (contains(op, ".b8") || contains(op, "m16n16") || contains(op, "m16n8"))
    return sm / 10 == 10 ? "8-bit ldmatrix/stmatrix forms are not supported by verify yet"
                         : "needs an SM100 GPU (8-bit ldmatrix/stmatrix); " + gpu;
  if (st && sm < 90) return "stmatrix needs sm_90; " + gpu;
  if (sm < 75) return "ldmatrix/movmatrix need sm_75; " + gpu;
  return "";
}

namespace {

void fill_copy_side(CopySide& side, const Layout& bits, bool addresses, const std::string& atom_name) {
  side.bits = bits;
  side.addresses = addresses;
  if (rank(bits) != 2) fail(atom_name + ": " + side.name + " layout " + to_string(bits) + " is not a (thr,bit) layout");
  const int64_t threads = size(get(bits, 0));
  const int64_t nbits = size(get(bits, 1));
  if (threads != 32)
    fail(atom_name + ": " + side.name + " layout has " + std::to_string(threads) + " threads, the instruction 32");
  if (nbits % 16 != 0)
    fail(atom_name + ": " + side.name + " layout holds " + std::to_string(nbits) +
         " bits per thread, not whole 16-bit elements");
  if (addresses && nbits != 128)
    fail(atom_name + ": " + side.name + " gives each thread " + std::to_string(nbits) +
         " bits; a row address covers 128");
  side.units_per_thread = nbits / 16;
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t u = 0; u < side.units_per_thread; ++u) {
      int64_t first = bits(t + threads * 16 * u);
      for (int64_t j = 1; j < 16; ++j)
        if (bits(t + threads * (16 * u + j)) != first + j || first % 16 != 0)
          fail(atom_name + ": " + side.name + " layout splits the 16-bit element (T" + std::to_string(t) + ",V" +
               std::to_string(u) + ")");
      if (addresses && u > 0 && first != bits(t) + 16 * u)
        fail(atom_name + ": " + side.name + " layout gives thread " + std::to_string(t) +
             " a non-contiguous 16-byte row");
      if (addresses && u == 0 && first % 128 != 0)
        fail(atom_name + ": " + side.name + " layout gives thread " + std::to_string(t) +
             " a row that is not 16-byte aligned");
      side.entries.push_back({t, u});
      side.unit_of.push_back(first / 16);
    }
}

}  // namespace

CopyPlan plan_copy(const CopyAtom& atom, const CopyOverrides& ov) {
  CopyPlan p;
  p.atom_name = atom.name.empty() ? atom.op : atom.name;
  p.opcode = mnemonic(atom.ptx);
  auto tokens = split_dots(p.opcode);
  if (has_token(tokens, "ldmatrix")) p.cls = CopyClass::kLdmatrix;
  else if (has_token(tokens, "stmatrix")) p.cls = CopyClass::kStmatrix;
  else if (has_token(tokens, "movmatrix")) p.cls = CopyClass::kMovmatrix;
  else fail(p.atom_name + ": not an ldmatrix/stmatrix/movmatrix atom");
  p.trans = has_token(tokens, "trans");
  p.matrices = has_token(tokens, "x4") ? 4 : has_token(tokens, "x2") ? 2 : 1;
  p.ptx_version = p.cls == CopyClass::kLdmatrix ? 65 : 78;
  p.value_bits = atom.value_type.bits > 0 ? atom.value_type.bits : 16;
  auto to_bits = [&](const Layout& values) {
    if (p.value_bits == 1) return values;
    return recast_layout(values, p.value_bits, 1);
  };
  p.src.name = "src";
  p.dst.name = "dst";
  p.src.overridden = ov.layout_src.has_value();
  p.dst.overridden = ov.layout_dst.has_value();
  Layout src_bits = ov.layout_src ? to_bits(*ov.layout_src) : atom.src_layout_bits;
  Layout dst_bits = ov.layout_dst ? to_bits(*ov.layout_dst) : atom.dst_layout_bits;
  fill_copy_side(p.src, src_bits, p.cls == CopyClass::kLdmatrix, p.atom_name);
  fill_copy_side(p.dst, dst_bits, p.cls == CopyClass::kStmatrix, p.atom_name);
  const CopySide& regs = p.cls == CopyClass::kLdmatrix ? p.dst : p.src;
  p.regs = static_cast<int>(regs.units_per_thread / 2);
  if (p.cls != CopyClass::kMovmatrix && p.regs != p.matrices)
    fail(p.atom_name + ": " + std::to_string(regs.units_per_thread) + " 16-bit values per thread, but " + p.opcode +
         " moves " + std::to_string(2 * p.matrices));
  int64_t max_unit = 0;
  for (const CopySide* s : {&p.src, &p.dst})
    for (int64_t u : s->unit_of) max_unit = std::max(max_unit, u);
  p.tile_units = max_unit + 1;
  return p;
}

// --- placement ---------------------------------------------------------------------------------

std::vector<uint32_t> pack_operand(const OperandPlan& op, int physical_threads, const std::vector<int64_t>& values) {
  if (values.size() != op.entries.size()) fail("internal: " + op.name + " data size");
  if (op.in_smem) {
    std::vector<uint32_t> words(static_cast<size_t>(op.smem.bytes / 4), 0);
    const int bytes = op.format.bits / 8;
    for (size_t i = 0; i < values.size(); ++i) {
      uint64_t bits = encode(op.format, values[i]);
      for (int b = 0; b < bytes; ++b) {
        int64_t byte = op.slots[i].byte + b;
        words[static_cast<size_t>(byte / 4)] |= static_cast<uint32_t>((bits >> (8 * b)) & 0xff) << (8 * (byte % 4));
      }
    }
    return words;
  }
  const int64_t w = op.words_per_thread();
  std::vector<uint32_t> words(static_cast<size_t>(physical_threads * w), 0);
  for (size_t i = 0; i < values.size(); ++i) {
    const auto& s = op.slots[i];
    uint64_t bits = encode(op.format, values[i]);
    size_t at = static_cast<size_t>(s.lane * w + s.word);
    if (op.format.bits == 64) {
      words[at] = static_cast<uint32_t>(bits);
      words[at + 1] = static_cast<uint32_t>(bits >> 32);
    } else {
      words[at] |= static_cast<uint32_t>(bits << s.bit);
    }
  }
  return words;
}

std::vector<std::optional<int64_t>> unpack_d(const MmaPlan& plan, const uint32_t* words) {
  const OperandPlan& c = plan.c;
  const int64_t w = c.words_per_thread();
  std::vector<std::optional<int64_t>> out(c.entries.size());
  for (size_t i = 0; i < c.entries.size(); ++i) {
    const auto& s = c.slots[i];
    size_t at = static_cast<size_t>(s.lane * w + s.word);
    uint64_t bits =
        plan.format_d.bits == 64 ? (uint64_t{words[at + 1]} << 32) | words[at] : uint64_t{words[at]} >> s.bit;
    out[i] = decode(plan.format_d, bits);
  }
  return out;
}

namespace {
// Cell values from per-entry values (first entry of a cell wins; uncovered cells are 0).
std::vector<int64_t> cells_of(const OperandPlan& op, const std::vector<int64_t>& values) {
  std::vector<int64_t> cells(static_cast<size_t>(op.rows * op.cols), 0);
  std::vector<bool> seen(cells.size(), false);
  for (size_t i = 0; i < values.size(); ++i) {
    size_t c = static_cast<size_t>(op.cell_of[i]);
    if (!seen[c]) cells[c] = values[i];
    seen[c] = true;
  }
  return cells;
}
}  // namespace

std::vector<int64_t> reference_d(const MmaPlan& p, const MmaData& data) {
  auto a = cells_of(p.a, data.a), b = cells_of(p.b, data.b), c = cells_of(p.c, data.c);
  std::vector<int64_t> d(c.size());
  for (int64_t m = 0; m < p.m; ++m)
    for (int64_t n = 0; n < p.n; ++n) {
      int64_t acc = c[static_cast<size_t>(m + p.m * n)];
      for (int64_t k = 0; k < p.k; ++k) {
        int64_t x = a[static_cast<size_t>(m + p.m * k)], y = b[static_cast<size_t>(n + p.n * k)];
        acc += p.popc == PopcMode::kXor ? (x ^ y) : p.popc == PopcMode::kAnd ? (x & y) : x * y;
      }
      d[static_cast<size_t>(m + p.m * n)] = acc;
    }
  std::vector<int64_t> out(p.c.entries.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = d[static_cast<size_t>(p.c.cell_of[i])];
  return out;
}

MmaData random_data(const MmaPlan& p, uint64_t seed) {
  // Ranges: as wide as the formats allow (at most +-7 for A/B, +-16 for C) while every
  // sum of K products plus C stays exact in the accumulator.
  auto range = [](const NumberFormat& f, int64_t want) {
    int64_t hi = std::min(want, f.max_exact);
    int64_t lo = f.kind == NumberKind::kUnsigned ? 0 : std::max(-hi, f.min_value);
    return std::pair<int64_t, int64_t>{lo, hi};
  };
  int64_t want_ab = 7;
  const int64_t acc = p.format_d.max_exact;
  auto [alo, ahi] = range(p.a.format, want_ab);
  auto [blo, bhi] = range(p.b.format, want_ab);
  while (p.k * std::max(ahi, -alo) * std::max(bhi, -blo) + 16 > acc && want_ab > 1) {
    --want_ab;
    std::tie(alo, ahi) = range(p.a.format, want_ab);
    std::tie(blo, bhi) = range(p.b.format, want_ab);
  }
  auto [clo, chi] = range(p.c.format, 16);
  auto fill = [&](const OperandPlan& op, int64_t lo, int64_t hi, uint64_t salt) {
    std::vector<int64_t> cells(static_cast<size_t>(op.rows * op.cols));
    uint64_t span = static_cast<uint64_t>(hi - lo + 1);
    for (size_t i = 0; i < cells.size(); ++i)
      cells[i] = lo + static_cast<int64_t>(mix(seed * 0x1000193 + salt * 0x100000001b3ULL + i) % span);
    std::vector<int64_t> values(op.entries.size());
    for (size_t i = 0; i < values.size(); ++i) values[i] = cells[static_cast<size_t>(op.cell_of[i])];
    return values;
  };
  MmaData d;
  d.a = fill(p.a, alo, ahi, 1);
  d.b = fill(p.b, blo, bhi, 2);
  d.c = fill(p.c, clo, chi, 3);
  return d;
}

}  // namespace cutevis::verify
