// Single-thread "MMAs": SM61 dp4a/dp2a, CuTe's UniversalFMA<D,A,B,C> (a C++ fma on any
// type) and SM100's paired-float FFMA2 atoms (mma_traits.hpp, mma_traits_sm61.hpp,
// mma_traits_sm100.hpp; arch/mma.hpp, mma_sm61.hpp, mma_sm100.hpp).
#include "atoms/mma_family.hpp"

namespace cutevis::mma {

namespace {

Layout L(IntTuple shape, IntTuple stride) { return Layout(std::move(shape), std::move(stride)); }

MmaAtom scalar_atom(const std::string& name, const std::string& family, int sm, int m, int n, int k) {
  MmaAtom atom;
  atom.name = name;
  atom.short_name = name;
  atom.family = family;
  atom.sm = sm;
  atom.shape_mnk = tup(m, n, k);
  atom.thr_id = L(1, 0);  // Layout<_1>
  // make_layout(Shape<_1,_X>): (1,X):(0,1), or (1,1):(0,0)
  atom.layout_a = L(tup(1, m * k), tup(0, m * k == 1 ? 0 : 1));
  atom.layout_b = L(tup(1, n * k), tup(0, n * k == 1 ? 0 : 1));
  atom.layout_c = L(tup(1, m * n), tup(0, m * n == 1 ? 0 : 1));
  return atom;
}

// SM61 dp4a / dp2a: d = c + dot(a, b) over 4 int8 / 2 int16 packed in one register.
MmaAtom dp_atom(bool four) {
  const std::string op = four ? "dp4a" : "dp2a";
  MmaAtom atom = scalar_atom(four ? "SM61_DP4A" : "SM61_DP2A", "SM61", 61, 1, 1, four ? 4 : 2);
  atom.type_d = atom.type_c = {"int32_t", 32};
  atom.type_a = atom.type_b = four ? ValueType{"int8_t", 8} : ValueType{"int16_t", 16};
  atom.regs_d = atom.regs_c = {"int32_t", 1};
  atom.regs_a = atom.regs_b = {"uint32_t", 1};
  // CuTe's spelling, kept as is: ptxas wants dp2a.lo/.hi (dp2a.s32.s32 does not assemble).
  atom.ptx = op + ".s32.s32";
  atom.asm_template = atom.ptx + " %0, %1, %2, %3;";
  atom.asm_operands = "\"=r\"(d) : \"r\"(a), \"r\"(b), \"r\"(c)";
  set_comments(atom);
  return atom;
}

// UniversalFMA<D, A = D, B = A, C = D>: one thread, one value, `fma(d, a, b, c)` in C++.
MmaAtom universal_fma(const AtomName& n) {
  if (!n.has_targs || n.targs.empty() || n.targs.size() > 4)
    throw Error("UniversalFMA takes <D[,A[,B[,C]]]>: one to four element types");
  std::vector<ValueType> t;
  for (const auto& arg : n.targs) {
    auto v = parse_value_type(arg);
    if (!v) throw Error("UniversalFMA: unknown element type " + arg);
    t.push_back(*v);
  }
  if (t.size() < 2) t.push_back(t[0]);  // A = D
  if (t.size() < 3) t.push_back(t[1]);  // B = A
  if (t.size() < 4) t.push_back(t[0]);  // C = D
  // Spelled <D,A,B> as the reference writes it, with C only when it is not D (its default).
  std::string name = "UniversalFMA<" + t[0].name + "," + t[1].name + "," + t[2].name +
                     (t[3].name == t[0].name ? "" : "," + t[3].name) + ">";
  MmaAtom atom = scalar_atom(name, "Universal", 0, 1, 1, 1);
  atom.type_d = t[0];
  atom.type_a = t[1];
  atom.type_b = t[2];
  atom.type_c = t[3];
  atom.regs_d = {t[0].name, 1};
  atom.regs_a = {t[1].name, 1};
  atom.regs_b = {t[2].name, 1};
  atom.regs_c = {t[3].name, 1};
  set_comments(atom);
  return atom;
}

// SM100 FFMA2: two fp32 FMAs on a float2, M- or N-paired (a C++ fma on float2).
MmaAtom ffma2(bool m_paired) {
  MmaAtom atom = scalar_atom(m_paired ? "SM100_2x1x1_F32F32F32F32" : "SM100_1x2x1_F32F32F32F32", "SM100", 100,
                             m_paired ? 2 : 1, m_paired ? 1 : 2, 1);
  atom.type_d = atom.type_a = atom.type_b = atom.type_c = {"float", 32};
  atom.regs_d = atom.regs_c = {"float2", 1};
  atom.regs_a = m_paired ? RegisterSpec{"float2", 1} : RegisterSpec{"float", 1};
  atom.regs_b = m_paired ? RegisterSpec{"float", 1} : RegisterSpec{"float2", 1};
  set_comments(atom);
  return atom;
}

}  // namespace

std::optional<MmaAtom> decode_scalar(const AtomName& n) {
  const std::string& b = n.base;
  if (b == "UniversalFMA") return universal_fma(n);
  const bool dp = b == "SM61_DP4A" || b == "SM61_DP2A";
  const bool f2 = b == "SM100_2x1x1_F32F32F32F32" || b == "SM100_1x2x1_F32F32F32F32";
  if (!dp && !f2) {
    if (b.rfind("SM61_", 0) == 0) throw Error("SM61 atoms are SM61_DP4A and SM61_DP2A");
    return std::nullopt;
  }
  if (n.has_targs) throw Error(b + " takes no template arguments");
  return dp ? dp_atom(b == "SM61_DP4A") : ffma2(b == "SM100_2x1x1_F32F32F32F32");
}

void scalar_names(std::vector<ListedMmaAtom>& out) {
  auto add = [&](const std::string& name, int sm) { out.push_back({name, name, sm}); };  // one spelling
  add("SM61_DP4A", 61);
  add("SM61_DP2A", 61);
  for (const char* t : {"half_t", "bfloat16_t", "float", "double", "int32_t", "complex<float>", "complex<double>"})
    add(std::string("UniversalFMA<") + t + "," + t + "," + t + ">", 0);
  add("UniversalFMA<float,half_t,half_t>", 0);  // mixed precision: f32 += f16 * f16
  add("SM100_2x1x1_F32F32F32F32", 100);
  add("SM100_1x2x1_F32F32F32F32", 100);
}

}  // namespace cutevis::mma
