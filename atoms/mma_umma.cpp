// SM100 UMMA (tcgen05.mma) atoms as CuTe's traits describe them (mma_traits_sm100.hpp,
// arch/mma_sm100_umma.hpp): one CTA (cta_group::1) or a CTA pair (_2x1SM, cta_group::2),
// A from a shared-memory descriptor (SS) or tensor memory (TS), B from a descriptor,
// the accumulator in tensor memory.
//
// The traits are one rule for every kind: ThrID is the CTA (1:0, or 2:1 for a pair), each
// operand is one CTA's column-major slab of the tile,
//   A (1,(M,K)):(0,(1,M))     pair: (2,(M/2,K)):(M/2,(1,M))
// and K is 256 bits of input (f8f6f4: 32 elements whatever the width; mxf4: 64).
// The kinds differ in their types and in which M and N the instruction accepts.
//
//   SM100_MMA_<KIND>[_2x1SM]_<SS|TS><A,B,C,[SF,]M,N,[VS,]MajorA,MajorB[,ScaleA,ScaleB][,Saturate]>
#include <algorithm>

#include "atoms/mma_family.hpp"

namespace cutevis::mma {

namespace {

Layout L(IntTuple shape, IntTuple stride) { return Layout(std::move(shape), std::move(stride)); }

enum class Kind { kTF32, kF16BF16, kS8, kF8F6F4, kMXF8F6F4, kMXF4 };

struct UmmaKind {
  Kind kind;
  const char* token;  // in the name
  const char* ptx;    // kind:: qualifier
  int k;              // K of one instruction
  bool ts;            // a TS (A in tensor memory) form exists
  bool block_scaled;  // SF type (and for mxf4 VS) template arguments
};

const UmmaKind kinds[] = {
    {Kind::kTF32, "TF32", "tf32", 8, true, false},
    {Kind::kF16BF16, "F16BF16", "f16", 16, true, false},
    {Kind::kS8, "S8", "i8", 32, true, false},
    {Kind::kF8F6F4, "F8F6F4", "f8f6f4", 32, true, false},
    {Kind::kMXF8F6F4, "MXF8F6F4", "mxf8f6f4.block_scale", 32, false, true},
    {Kind::kMXF4, "MXF4", "", 64, false, true},
};

const char* f8f6f4_inputs[] = {"float_e4m3_t", "float_e5m2_t", "float_e2m3_t", "float_e3m2_t", "float_e2m1_t"};

// The element types of each kind's atoms in `list` (umma_names): A, B, C[, SF, VS].
struct ListedTypes {
  Kind kind;
  const char *a, *b, *c, *sf = "";
  int vs = 0;
};
constexpr ListedTypes listed_types[] = {
    {Kind::kTF32, "tfloat32_t", "tfloat32_t", "float"},
    {Kind::kF16BF16, "half_t", "half_t", "float"},
    {Kind::kF16BF16, "half_t", "half_t", "half_t"},
    {Kind::kF16BF16, "bfloat16_t", "bfloat16_t", "float"},
    {Kind::kS8, "int8_t", "int8_t", "int32_t"},
    {Kind::kS8, "int8_t", "uint8_t", "int32_t"},
    {Kind::kS8, "uint8_t", "int8_t", "int32_t"},
    {Kind::kS8, "uint8_t", "uint8_t", "int32_t"},
    {Kind::kF8F6F4, "float_e4m3_t", "float_e4m3_t", "float"},  // f8f6f4_inputs, A and B alike
    {Kind::kF8F6F4, "float_e5m2_t", "float_e5m2_t", "float"},
    {Kind::kF8F6F4, "float_e2m3_t", "float_e2m3_t", "float"},
    {Kind::kF8F6F4, "float_e3m2_t", "float_e3m2_t", "float"},
    {Kind::kF8F6F4, "float_e2m1_t", "float_e2m1_t", "float"},
    {Kind::kMXF8F6F4, "float_e4m3_t", "float_e4m3_t", "float", "float_ue8m0_t", 32},
    {Kind::kMXF8F6F4, "float_e5m2_t", "float_e5m2_t", "float", "float_ue8m0_t", 32},
    {Kind::kMXF8F6F4, "float_e2m3_t", "float_e2m3_t", "float", "float_ue8m0_t", 32},
    {Kind::kMXF8F6F4, "float_e3m2_t", "float_e3m2_t", "float", "float_ue8m0_t", 32},
    {Kind::kMXF8F6F4, "float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t", 32},
    {Kind::kMXF4, "float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t", 32},
    {Kind::kMXF4, "float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t", 16},
    {Kind::kMXF4, "float_e2m1_t", "float_e2m1_t", "float", "float_ue4m3_t", 16},
};

bool is_f8f6f4(const std::string& t) {
  return std::find(std::begin(f8f6f4_inputs), std::end(f8f6f4_inputs), t) != std::end(f8f6f4_inputs);
}

struct UmmaSpec {
  const UmmaKind* kind = nullptr;
  bool pair = false, ts = false;
  ValueType a, b, c, sf;
  int m = 0, n = 0, vs = 0;
  std::string major_a, major_b, scale_a = "One", scale_b = "One";
  bool saturate = false;
  bool sparse = false;  // _SS_SPARSE: 2:4 structured A (K doubled), metadata E in tensor memory
  int k = 0;            // K of one instruction when not the kind's (the interleaved complex TF32 atoms: 4)
};

// Appended piece by piece into one string: umma_names spells 12,000 names for `list`.
std::string spelled(const UmmaSpec& s, bool full) {
  const char* major = full ? "UMMA::Major::" : "";
  const char* scale = full ? "UMMA::ScaleIn::" : "";
  std::string t;
  t.reserve(160);
  t.append("SM100_MMA_").append(s.kind->token).append(s.pair ? "_2x1SM" : "").append(s.ts ? "_TS" : "_SS");
  if (s.sparse) t.append("_SPARSE");
  t.append("<").append(s.a.name).append(",").append(s.b.name).append(",").append(s.c.name).append(",");
  if (s.kind->block_scaled) t.append(s.sf.name).append(",");
  t.append(std::to_string(s.m)).append(",").append(std::to_string(s.n)).append(",");
  if (s.kind->kind == Kind::kMXF4) t.append(std::to_string(s.vs)).append(",");
  t.append(major).append(s.major_a).append(",").append(major).append(s.major_b);
  if (s.scale_a != "One" || s.scale_b != "One")
    t.append(",").append(scale).append(s.scale_a).append(",").append(scale).append(s.scale_b);
  if (s.saturate) t.append(full ? ",UMMA::Saturate::True" : ",Saturate::True");
  return t.append(">");
}

// Which N the instruction takes, by CuTe's static_asserts.
bool valid_n(const UmmaSpec& s) {
  auto step = [&](int q) { return s.n % q == 0 && s.n >= q && s.n <= 256; };
  const Kind k = s.kind->kind;
  if (s.sparse) {  // the _SS_SPARSE structs' static_asserts
    if (!s.pair) {
      if (k == Kind::kS8) return s.n == 8 || step(16);
      if (k == Kind::kF8F6F4) return s.m == 64 ? step(8) : step(16);
      return step(8);
    }
    return k == Kind::kS8 || k == Kind::kF8F6F4 ? step(32) : step(16);
  }
  if (!s.pair) {
    if (k == Kind::kS8) return s.n == 8 || step(16);
    if (s.ts) return s.m == 64 ? step(8) : step(16);
    if (k == Kind::kF8F6F4 && s.major_b == "MN") return step(16);
    return step(8);
  }
  if (s.ts || k == Kind::kS8) return step(32);
  if (k == Kind::kF8F6F4 && s.major_b == "MN") return step(32);
  return step(16);
}
std::string n_rule(const UmmaSpec& s) {
  for (int q : {8, 16, 32}) {
    UmmaSpec t = s;
    t.n = q;
    if (valid_n(t) && (s.kind->kind != Kind::kS8 || s.pair || q != 8)) {
      return "N is a multiple of " + std::to_string(q) + " from " + std::to_string(q) + " to 256" +
             (s.kind->kind == Kind::kS8 && !s.pair ? " (or 8)" : "");
    }
  }
  return "N is 8 or a multiple of 16 from 16 to 256";
}

bool valid_m(const UmmaSpec& s) {
  const Kind k = s.kind->kind;
  if (k == Kind::kMXF8F6F4) return s.m == (s.pair ? 256 : 128);
  if (k == Kind::kMXF4 && !s.pair) return s.m == 128;
  return s.pair ? (s.m == 128 || s.m == 256) : (s.m == 64 || s.m == 128);
}

// The element types each kind accepts; "" when fine, else what is wrong.
std::string check_types(const UmmaSpec& s) {
  const std::string a = s.a.name, b = s.b.name, c = s.c.name;
  switch (s.kind->kind) {
    case Kind::kTF32:
      if ((a != "tfloat32_t" && a != "float") || (b != "tfloat32_t" && b != "float")) return "A and B are tfloat32_t";
      if (c != "float") return "C is float";
      return "";
    case Kind::kF16BF16:
      if (!((a == "half_t" || a == "bfloat16_t") && a == b)) return "A and B are both half_t or both bfloat16_t";
      if (c != "float" && !(c == "half_t" && a == "half_t")) return "C is float (or half_t for half_t inputs)";
      return "";
    case Kind::kS8:
      if ((a != "int8_t" && a != "uint8_t") || (b != "int8_t" && b != "uint8_t"))
        return "A and B are int8_t or uint8_t";
      if (c != "int32_t") return "C is int32_t";
      return "";
    case Kind::kF8F6F4:
      if (!is_f8f6f4(a) || !is_f8f6f4(b))
        return "A and B are float_e4m3_t, float_e5m2_t, float_e2m3_t, float_e3m2_t or float_e2m1_t";
      if (c != "float" && c != "half_t") return "C is float or half_t";
      return "";
    case Kind::kMXF8F6F4:
      if (!is_f8f6f4(a) || !is_f8f6f4(b))
        return "A and B are float_e4m3_t, float_e5m2_t, float_e2m3_t, float_e3m2_t or float_e2m1_t";
      if (c != "float") return "C is float";
      if (s.sf.name != "float_ue8m0_t") return "SF is float_ue8m0_t";
      return "";
    case Kind::kMXF4:
      if (a != "float_e2m1_t" || b != "float_e2m1_t") return "A and B are float_e2m1_t";
      if (c != "float") return "C is float";
      if (!((s.sf.name == "float_ue8m0_t" && (s.vs == 16 || s.vs == 32)) ||
            (s.sf.name == "float_ue4m3_t" && s.vs == 16)))
        return "SF,VS is float_ue8m0_t,32 / float_ue8m0_t,16 / float_ue4m3_t,16";
      return "";
  }
  return "";
}

MmaAtom build(const UmmaSpec& s) {
  const int m = s.m, n = s.n, k = s.k ? s.k : s.kind->k * (s.sparse ? 2 : 1);  // sparse: K of 512 bits
  MmaAtom atom;
  atom.name = spelled(s, true);
  atom.short_name = spelled(s, false);
  atom.family = "SM100_UMMA";
  atom.sm = 100;
  atom.shape_mnk = tup(m, n, k);
  if (!s.pair) {
    atom.thr_id = L(1, 0);
    atom.layout_a = L(tup(1, tup(m, k)), tup(0, tup(1, m)));  // (1,(M,K)) -> (M,K)
    atom.layout_b = L(tup(1, tup(n, k)), tup(0, tup(1, n)));  // (1,(N,K)) -> (N,K)
    atom.layout_c = L(tup(1, tup(m, n)), tup(0, tup(1, m)));  // (1,(M,N)) -> (M,N)
  } else {  // each CTA of the pair holds half of M (A, C) and half of N (B)
    atom.thr_id = L(2, 1);
    atom.layout_a = L(tup(2, tup(m / 2, k)), tup(m / 2, tup(1, m)));
    atom.layout_b = L(tup(2, tup(n / 2, k)), tup(n / 2, tup(1, n)));
    atom.layout_c = L(tup(2, tup(m / 2, n)), tup(m / 2, tup(1, m)));
  }
  atom.type_a = s.a;
  atom.type_b = s.b;
  atom.type_c = atom.type_d = s.c;
  atom.source_a = s.ts ? OperandSource::kTensorMemory : OperandSource::kSharedMemory;
  atom.source_b = OperandSource::kSharedMemory;
  atom.source_c = OperandSource::kTensorMemory;
  atom.major_a = s.major_a;
  atom.major_b = s.major_b;
  if (s.kind->kind != Kind::kS8 || s.ts) {
    atom.scale_a = s.scale_a;
    atom.scale_b = s.scale_b;
  }
  atom.saturate = s.saturate;
  if (s.kind->block_scaled) {
    atom.type_sf = s.sf;
    atom.sf_vec_size = s.kind->kind == Kind::kMXF4 ? s.vs : 32;
  }
  atom.regs_d = {"void", 0};
  atom.regs_a = s.ts ? RegisterSpec{"uint32_t", 1} : RegisterSpec{"uint64_t", 1};
  atom.regs_b = {"uint64_t", 1};
  atom.regs_c = {"uint32_t", 1};
  std::string kind = s.kind->ptx;
  if (s.kind->kind == Kind::kMXF4) kind = s.vs == 16 ? "mxf4nvf4.block_scale.block16" : "mxf4.block_scale.block32";
  atom.ptx =
      std::string("tcgen05.mma") + (s.sparse ? ".sp" : "") + ".cta_group::" + (s.pair ? "2" : "1") + ".kind::" + kind;
  // [tmem_c], A (descriptor or [tmem_a]), desc_b, [tmem_e] (sparse), idesc, then the disable-output-lane mask
  // (or the scale-factor tensor-memory addresses), predicated on scaleC != 0.
  std::string tail = s.kind->block_scaled ? "[%5], [%6]" : operand_list(5, s.pair ? 8 : 4);
  const int e_operand = s.kind->block_scaled ? 7 : (s.pair ? 13 : 9);
  atom.asm_template = "{ .reg .pred p; setp.ne.b32 p, %4, 0; " + atom.ptx + " [%0], " + (s.ts ? "[%1]" : "%1") +
                      ", %2, " + (s.sparse ? "[%" + std::to_string(e_operand) + "], " : "") + "%3, " + tail + ", p; }";
  atom.asm_operands = std::string(" : \"r\"(tmem_c), ") + (s.ts ? "\"r\"(tmem_a)" : "\"l\"(desc_a)") +
                      ", \"l\"(desc_b), \"r\"(uint32_t(idescE>>32)), \"r\"(scaleC)";
  if (s.kind->block_scaled) {
    atom.asm_operands += ", \"r\"(tsfa_addr), \"r\"(tsfb_addr)";
  } else {
    for (int i = 0; i < (s.pair ? 8 : 4); ++i) atom.asm_operands += ", \"r\"(mask[" + std::to_string(i) + "])";
  }
  if (s.sparse) atom.asm_operands += ", \"r\"(tmem_e)";
  set_comments(atom);
  if (s.sparse)  // CuTe's ALayout is the logical (dense) K; ValTypeA is sparse_elem<2, T>
    atom.comment_a += " -- 2:4 sparse: shared memory holds half of A's K, its metadata E is in tensor memory";
  return atom;
}

ValueType type_arg(const std::string& arg, const std::string& base, const char* what) {
  auto t = parse_value_type(arg);
  if (!t) throw Error(base + ": " + what + " must be an element type, not " + arg);
  return *t;
}

int int_arg(const std::string& arg, const std::string& base, const char* what) {
  auto v = parse_int(arg);
  if (!v || *v > 1024) throw Error(base + ": " + what + " must be an integer, not " + arg);
  return static_cast<int>(*v);
}

}  // namespace

// SM100_MMA_TF32[_2x1SM]_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<M,N,MajorA,MajorB[,ScaleA,ScaleB,Saturate]>:
// one of the two real GEMMs of an interleaved complex GEMM (realAcc = realA*realB - imagA*imagB,
// or imagAcc), kind::tf32 on complex<tfloat32_t> A and B, float C; K = 256 bits / 64 = 4.
static std::optional<MmaAtom> decode_interleaved(const AtomName& name) {
  const std::string& base = name.base;
  const std::string suffix = "_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN";
  bool pair = base == "SM100_MMA_TF32_2x1SM" + suffix;
  if (!pair && base != "SM100_MMA_TF32" + suffix) return std::nullopt;
  const auto& a = name.targs;
  if (a.size() != 4 && a.size() != 6 && a.size() != 7)
    throw Error(base + " takes <M,N,MajorA,MajorB[,ScaleA,ScaleB[,Saturate]]>");
  UmmaSpec s;
  for (const auto& k : kinds)
    if (k.kind == Kind::kTF32) s.kind = &k;
  s.pair = pair;
  s.ts = true;
  s.a = s.b = value_type("complex<tfloat32_t>");
  s.c = value_type("float");
  s.k = 4;
  s.m = int_arg(a[0], base, "M");
  s.n = int_arg(a[1], base, "N");
  s.major_a = parse_major(a[2]);
  s.major_b = parse_major(a[3]);
  if (s.major_a != "K" || s.major_b != "K")
    throw Error(base + ": A from tensor memory and B are K-major (UMMA::Major::K)");
  if (a.size() >= 6) {
    s.scale_a = parse_scale_in(a[4]);
    s.scale_b = parse_scale_in(a[5]);
    if (s.scale_a.empty() || s.scale_b.empty()) throw Error(base + ": ScaleIn arguments are UMMA::ScaleIn::One or Neg");
  }
  if (a.size() == 7) {
    std::string sat = parse_saturate(a[6]);
    if (sat.empty()) throw Error(base + ": the last argument is UMMA::Saturate::True or False");
    s.saturate = sat == "True";
  }
  bool m_ok = pair ? (s.m == 128 || s.m == 256) : (s.m == 64 || s.m == 128);
  if (!m_ok)
    throw Error(base + ": M is " + std::string(pair ? "128 or 256" : "64 or 128") + ", not " + std::to_string(s.m));
  int step = (s.m == 64 || (pair && s.m == 128)) ? 8 : 16;
  if (s.n % step != 0 || s.n < step || s.n > 256)
    throw Error(base + " with M=" + std::to_string(s.m) + ": N is a multiple of " + std::to_string(step) + " from " +
                std::to_string(step) + " to 256, not " + std::to_string(s.n));
  MmaAtom atom = build(s);
  std::string targs = std::to_string(s.m) + "," + std::to_string(s.n) + ",";
  std::string extra = (a.size() >= 6 ? "," + s.scale_a + "," + s.scale_b : "") +
                      (a.size() == 7 ? std::string(",") + (s.saturate ? "True" : "False") : "");
  atom.short_name = base + "<" + targs + "K,K" + extra + ">";
  std::string full_extra = (a.size() >= 6 ? ",UMMA::ScaleIn::" + s.scale_a + ",UMMA::ScaleIn::" + s.scale_b : "") +
                           (a.size() == 7 ? std::string(",UMMA::Saturate::") + (s.saturate ? "True" : "False") : "");
  atom.name = base + "<" + targs + "UMMA::Major::K,UMMA::Major::K" + full_extra + ">";
  return atom;
}

// SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS<A,B,C,SF,M,N,VS,MajorA,MajorB[,ScaleA,ScaleB]> (mma_traits_sm100.hpp):
// the SM103 block-scaled FP4 UMMA with K = 96, K-major only; its layouts are UMMA's.
static std::optional<MmaAtom> decode_sm103(const AtomName& name) {
  const std::string& base = name.base;
  const bool pair = base == "SM103_MXF4_ULTRA_2x1SM_SS_VS";
  if (!pair && base != "SM103_MXF4_ULTRA_SS_VS") return std::nullopt;
  const std::string usage = "<A,B,C,SF,M,N,VS,MajorA,MajorB[,ScaleA,ScaleB]>";
  const auto& a = name.targs;
  if (a.size() != 9 && a.size() != 11) throw Error(base + " takes " + usage);
  UmmaSpec s;
  for (const auto& k : kinds)
    if (k.kind == Kind::kMXF4) s.kind = &k;
  s.pair = pair;
  s.k = 96;
  s.a = type_arg(a[0], base, "A");
  s.b = type_arg(a[1], base, "B");
  s.c = type_arg(a[2], base, "C");
  s.sf = type_arg(a[3], base, "SF");
  s.m = int_arg(a[4], base, "M");
  s.n = int_arg(a[5], base, "N");
  s.vs = int_arg(a[6], base, "VS");
  s.major_a = parse_major(a[7]);
  s.major_b = parse_major(a[8]);
  if (s.major_a != "K" || s.major_b != "K") throw Error(base + ": this MMA does not support transpose (K-major only)");
  if (a.size() == 11) {
    s.scale_a = parse_scale_in(a[9]);
    s.scale_b = parse_scale_in(a[10]);
    if (s.scale_a.empty() || s.scale_b.empty()) throw Error(base + ": ScaleIn arguments are UMMA::ScaleIn::One or Neg");
  }
  // the structs' static_asserts
  if (pair ? (s.m != 128 && s.m != 256) : s.m != 128)
    throw Error(base + ": M is " + (pair ? "128 or 256" : "128") + ", not " + std::to_string(s.m));
  if (s.n % 16 != 0 || s.n < 16 || s.n > 256)
    throw Error(base + ": N is a multiple of 16 from 16 to 256, not " + std::to_string(s.n));
  if (!(s.vs == 16 || (s.vs == 32 && s.a.name == "float_e2m1_t" && s.sf.name == "float_ue8m0_t")))
    throw Error(base + ": VS is 16, or 32 with float_e2m1_t A/B and float_ue8m0_t SF");
  MmaAtom atom = build(s);
  std::string targs = s.a.name + "," + s.b.name + "," + s.c.name + "," + s.sf.name + "," + std::to_string(s.m) + "," +
                      std::to_string(s.n) + "," + std::to_string(s.vs) + ",";
  const std::string scales = a.size() == 11 ? "," + s.scale_a + "," + s.scale_b : "";
  const std::string full_scales = a.size() == 11 ? ",UMMA::ScaleIn::" + s.scale_a + ",UMMA::ScaleIn::" + s.scale_b : "";
  atom.short_name = base + "<" + targs + "K,K" + scales + ">";
  atom.name = base + "<" + targs + "UMMA::Major::K,UMMA::Major::K" + full_scales + ">";
  atom.sm = 103;
  const std::string old_ptx = atom.ptx;
  atom.ptx = std::string("tcgen05.mma.cta_group::") + (pair ? "2" : "1") + ".kind::mxf4nvf4.block_scale." +
             (s.vs == 16 ? "block16" : "block32");
  atom.asm_template.replace(atom.asm_template.find(old_ptx), old_ptx.size(), atom.ptx);
  return atom;
}

std::optional<MmaAtom> decode_umma(const AtomName& name) {
  if (name.base.rfind("SM103_MXF4_ULTRA", 0) == 0) return decode_sm103(name);
  const std::string& base = name.base;
  if (base.rfind("SM100_MMA_", 0) != 0) return std::nullopt;
  if (base.find("_INTERLEAVED_") != std::string::npos) return decode_interleaved(name);
  UmmaSpec s;
  std::string rest = base.substr(10);
  if (rest.rfind("MXF4NVF4_", 0) == 0)
    throw Error(base +
                ": the sparse MXF4/NVF4 UMMA (its VS counts 2:4-compressed K) is not modelled; dense "
                "SM100_MMA_MXF4_SS is");
  for (const auto& k : kinds) {
    std::string tok = std::string(k.token) + "_";
    if (rest.rfind(tok, 0) == 0 && (!s.kind || std::string(k.token).size() > std::string(s.kind->token).size()))
      s.kind = &k;
  }
  if (!s.kind)
    throw Error(base +
                ": UMMA kinds are TF32, F16BF16, S8, F8F6F4, MXF8F6F4 and MXF4 (SM100_MMA_<KIND>[_2x1SM]_<SS|TS>)");
  rest = rest.substr(std::string(s.kind->token).size());
  if (rest.rfind("_2x1SM", 0) == 0) {
    s.pair = true;
    rest = rest.substr(6);
  }
  if (rest == "_SS_SPARSE") {
    s.sparse = true;
    if (s.kind->kind == Kind::kMXF4)
      throw Error(base + ": the sparse block-scaled FP4 UMMA is SM100_MMA_MXF4NVF4_SS_SPARSE");
  } else if (rest == "_TS") {
    s.ts = true;
    if (!s.kind->ts) throw Error(base + ": " + s.kind->token + " has no TS form (A from tensor memory); use _SS");
  } else if (rest != "_SS") {
    if (rest.find("SCALED") != std::string::npos)
      throw Error(base + ": runtime-scaled UMMA atoms are not in the catalogue");
    throw Error(base + ": expected SM100_MMA_" + s.kind->token + "[_2x1SM]_SS or _TS");
  }
  const bool mx = s.kind->block_scaled, vs = s.kind->kind == Kind::kMXF4;
  const size_t fixed = 7 + (mx ? 1 : 0) + (vs ? 1 : 0);
  const auto& a = name.targs;
  std::string usage = "<A,B,C," + std::string(mx ? "SF," : "") + "M,N," + (vs ? "VS," : "") + "MajorA,MajorB>";
  if (a.size() < fixed || a.size() > fixed + 3) throw Error(base + " takes " + usage);
  size_t i = 0;
  s.a = type_arg(a[i++], base, "A");
  s.b = type_arg(a[i++], base, "B");
  s.c = type_arg(a[i++], base, "C");
  if (mx) s.sf = type_arg(a[i++], base, "SF");
  s.m = int_arg(a[i++], base, "M");
  s.n = int_arg(a[i++], base, "N");
  if (vs) s.vs = int_arg(a[i++], base, "VS");
  s.major_a = parse_major(a[i++]);
  s.major_b = parse_major(a[i++]);
  if (s.major_a.empty() || s.major_b.empty())
    throw Error(base + ": majors are UMMA::Major::K or UMMA::Major::MN (" + usage + ")");
  // Trailing options: ScaleIn for A and B, Saturate for C.
  int scales = 0;
  bool saturate_given = false;
  for (; i < a.size(); ++i) {
    std::string sc = parse_scale_in(a[i]), sat = parse_saturate(a[i]);
    if (!sc.empty() && scales < 2) {
      (scales++ == 0 ? s.scale_a : s.scale_b) = sc;
    } else if (!sat.empty()) {
      s.saturate = sat == "True";
      saturate_given = true;
    } else {
      throw Error(base + ": unexpected template argument " + a[i]);
    }
  }
  if (scales == 1) throw Error(base + ": give both ScaleIn arguments (A and B)");
  // CuTe's templates: ScaleIn everywhere but S8_SS; Saturate on TS and S8 (after the scales).
  const bool s8 = s.kind->kind == Kind::kS8;
  if (scales && s8 && !s.ts) throw Error(base + " takes no ScaleIn arguments (<A,B,C,M,N,MajorA,MajorB[,Saturate]>)");
  if (saturate_given && !s.ts && !s8) throw Error(base + " takes no Saturate argument (only TS and S8 atoms do)");
  std::string bad = check_types(s);
  if (!bad.empty()) throw Error(base + ": " + bad);
  if (!valid_m(s)) {
    std::string ms = s.kind->kind == Kind::kMXF8F6F4            ? (s.pair ? "256" : "128")
                     : (s.kind->kind == Kind::kMXF4 && !s.pair) ? "128"
                     : s.pair                                   ? "128 or 256"
                                                                : "64 or 128";
    throw Error(base + ": M is " + ms + ", not " + std::to_string(s.m));
  }
  if (!valid_n(s))
    throw Error(base + " with M=" + std::to_string(s.m) + ": " + n_rule(s) + ", not " + std::to_string(s.n));
  if (s.ts && s.major_a != "K") throw Error(base + ": A from tensor memory (TS) must be K-major");
  return build(s);
}

void umma_names(std::vector<ListedMmaAtom>& out) {
  for (const auto& k : kinds)
    for (bool pair : {false, true})
      for (bool ts : {false, true}) {
        if (ts && !k.ts) continue;
        for (const auto& t : listed_types) {
          if (t.kind != k.kind) continue;
          UmmaSpec types;  // looked up once: the loops below make 6,000 names
          types.a = value_type(t.a);
          types.b = value_type(t.b);
          types.c = value_type(t.c);
          if (k.block_scaled) types.sf = value_type(t.sf);
          if (k.kind == Kind::kMXF4) types.vs = t.vs;
          for (int m : {64, 128, 256})
            for (int n = 8; n <= 256; n += 8)
              for (const char* ma : {"K", "MN"})
                for (const char* mb : {"K", "MN"}) {
                  UmmaSpec s = types;
                  s.kind = &k;
                  s.pair = pair;
                  s.ts = ts;
                  s.m = m;
                  s.n = n;
                  s.major_a = ma;
                  s.major_b = mb;
                  if (!valid_m(s) || !valid_n(s) || (ts && s.major_a != "K")) continue;
                  out.push_back({spelled(s, false), spelled(s, true), 100});
                }
        }
      }
  // the interleaved complex TF32 atoms (decode_interleaved): K-major, M 64/128 (2x1SM: 128/256)
  for (bool pair : {false, true})
    for (int m : pair ? std::vector<int>{128, 256} : std::vector<int>{64, 128}) {
      int step = (m == 64 || (pair && m == 128)) ? 8 : 16;
      for (int n = step; n <= 256; n += step) {
        const std::string head = std::string(pair ? "SM100_MMA_TF32_2x1SM" : "SM100_MMA_TF32") +
                                 "_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<" + std::to_string(m) + "," + std::to_string(n);
        out.push_back({head + ",K,K>", head + ",UMMA::Major::K,UMMA::Major::K>", 100});
      }
    }
}

}  // namespace cutevis::mma
