// Warp-level mma.sync atoms: SM70 (quad-pair 8x8x4), SM75, SM80, SM89, SM90 f64/c64 and
// SM120 f8f6f4 (CuTe's mma_traits_sm70/75/80/89/90/120.hpp, arch/mma_sm*.hpp).
//
// The rule: an atom's name SM<arch>_<M>x<N>x<K>_<D><A><B><C>_TN[_SATURATE|_XORPOPC|_ANDPOPC]
// says everything; the operand layouts depend only on the shape and the input width, so
// each shape below lists the type strings that share its layouts (CuTe's traits derive
// them from one another the same way).  The layouts are CuTe's, in CuTe's notation; the
// fragment rule they follow is checked in tests/atoms/mma_catalogue_test.cpp.
#include <algorithm>
#include <span>

#include "atoms/mma_family.hpp"
#include "atoms/notation.hpp"

namespace cutevis::mma {

namespace {

Layout L(IntTuple shape, IntTuple stride) { return Layout(std::move(shape), std::move(stride)); }

// --- the fragments of the 32-thread mma.sync (thread t = 4*row + quad) ------------------
// CuTe's aliases in mma_traits_sm80.hpp (SM80_16x8_Row, ...), in CuTe's notation.
constexpr const char* sm80_16x8_row = "((4,8),(2,2)):((32,1),(16,8))";  // (T32,V4) -> (M16,N8)
constexpr const char* sm80_8x8_row = "((4,8),2):((16,1),8)";            // (T32,V2) -> (M8,N8)
constexpr const char* sm80_8x4 = "((4,8),1):((8,1),0)";                 // (T32,V1) -> (M8,K4)
constexpr const char* sm80_8x16_row = "((4,8),4):((32,1),8)";           // (T32,V4) -> (M8,K16)

// Lists of names as constant data: spans of literals, not vectors of strings built at
// start-up (which are code, in the web page's .wasm too).
using Names = std::span<const char* const>;

// The D A B C type strings that share one shape's layouts.
constexpr const char* f16[] = {"F16F16F16F16", "F32F16F16F32"};
constexpr const char* f16bf16[] = {"F16F16F16F16", "F32F16F16F32", "F32BF16BF16F32"};
constexpr const char* tf32[] = {"F32TF32TF32F32"};
constexpr const char* s8[] = {"S32S8S8S32"};
constexpr const char* f64[] = {"F64F64F64F64", "C64C64C64C64"};
constexpr const char* f64_complex[] = {"F64F64F64F64", "C64C64C64C64", "GC64C64C64GC64"};
// integers: S32 <a> <b> S32 for a, b of one width, signed or unsigned
constexpr const char* i8[] = {"S32S8S8S32", "S32S8U8S32", "S32U8S8S32", "S32U8U8S32"};
constexpr const char* i4[] = {"S32S4S4S32", "S32S4U4S32", "S32U4S4S32", "S32U4U4S32"};
constexpr const char* u1[] = {"S32U1U1S32"};
// fp8: <acc> <a> <b> <acc> for acc F32 or F16, a and b E4M3 or E5M2
constexpr const char* fp8[] = {"F32E4M3E4M3F32", "F32E4M3E5M2F32", "F32E5M2E4M3F32", "F32E5M2E5M2F32",
                               "F16E4M3E4M3F16", "F16E4M3E5M2F16", "F16E5M2E4M3F16", "F16E5M2E5M2F16"};

// The name suffixes after _TN.
constexpr const char* plain[] = {""};
constexpr const char* sat[] = {"", "_SATURATE"};
constexpr const char* popc[] = {"_XORPOPC", "_ANDPOPC"};

// One mma.sync shape and the type strings and name variants that share its layouts.
struct SyncShape {
  int sm, m, n, k;
  Names types;            // D A B C
  Names variants;         // name suffixes after _TN
  const char *a, *b, *c;  // (T32,V) -> (M,K), (N,K), (M,N), in CuTe's notation
};

// One row per shape, one layout per line with its (T,V) -> (M,K) comment: kept as written.
// clang-format off
constexpr SyncShape sync_shapes[] = {
    // SM75
    {75, 16, 8, 8, f16, plain,
     "((4,8),(2,2)):((32,1),(16,8))",            // A (T32,V4) -> (M16,K8)
     "((4,8),2):((16,1),8)",                     // B (T32,V2) -> (N8,K8)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    {75, 8, 8, 16, s8, plain,
     sm80_8x16_row,                              // A (T32,V4) -> (M8,K16)
     sm80_8x16_row,                              // B (T32,V4) -> (N8,K16)
     sm80_8x8_row},                              // C (T32,V2) -> (M8,N8)
    // SM80, 16-bit inputs: (T32,V4|V8) -> (M16,K8|K16), (T32,V2|V4) -> (N8,K8|K16)
    {80, 16, 8, 8, f16bf16, plain,
     sm80_16x8_row,                              // A (T32,V4) -> (M16,K8)
     sm80_8x8_row,                               // B (T32,V2) -> (N8,K8)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    {80, 16, 8, 16, f16bf16, plain,
     "((4,8),(2,2,2)):((32,1),(16,8,128))",      // A (T32,V8) -> (M16,K16)
     "((4,8),(2,2)):((16,1),(8,64))",            // B (T32,V4) -> (N8,K16)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    // tf32: one value per register
    {80, 16, 8, 4, tf32, plain,
     "((4,8),2):((16,1),8)",                     // A (T32,V2) -> (M16,K4)
     sm80_8x4,                                   // B (T32,V1) -> (N8,K4)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    {80, 16, 8, 8, tf32, plain,
     "((4,8),(2,2)):((16,1),(8,64))",            // A (T32,V4) -> (M16,K8)
     "((4,8),2):((8,1),32)",                     // B (T32,V2) -> (N8,K8)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    // f64 and complex f64 (composites of the f64 instruction)
    {80, 8, 8, 4, f64_complex, plain,
     sm80_8x4,                                   // A (T32,V1) -> (M8,K4)
     sm80_8x4,                                   // B (T32,V1) -> (N8,K4)
     sm80_8x8_row},                              // C (T32,V2) -> (M8,N8)
    // 8-bit integers
    {80, 8, 8, 16, i8, sat,
     sm80_8x16_row,                              // A (T32,V4) -> (M8,K16)
     sm80_8x16_row,                              // B (T32,V4) -> (N8,K16)
     sm80_8x8_row},                              // C (T32,V2) -> (M8,N8)
    {80, 16, 8, 16, i8, sat,
     "((4,8),(4,2)):((64,1),(16,8))",            // A (T32,V8) -> (M16,K16)
     sm80_8x16_row,                              // B (T32,V4) -> (N8,K16)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    {80, 16, 8, 32, i8, sat,
     "((4,8),(4,2,2)):((64,1),(16,8,256))",      // A (T32,V16) -> (M16,K32)
     "((4,8),(4,2)):((32,1),(8,128))",           // B (T32,V8) -> (N8,K32)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    // 4-bit integers
    {80, 8, 8, 32, i4, sat,
     "((4,8),(8)):((64,1),(8))",                 // A (T32,V8) -> (M8,K32)
     "((4,8),(8)):((64,1),(8))",                 // B (T32,V8) -> (N8,K32)
     sm80_8x8_row},                              // C (T32,V2) -> (M8,N8)
    {80, 16, 8, 32, i4, sat,
     "((4,8),(8,2)):((128,1),(16,8))",           // A (T32,V16) -> (M16,K32)
     "((4,8),(8)):((64,1),(8))",                 // B (T32,V8) -> (N8,K32)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    {80, 16, 8, 64, i4, sat,
     "((4,8),(8,2,2)):((128,1),(16,8,512))",     // A (T32,V32) -> (M16,K64)
     "((4,8),(8,2)):((64,1),(8,256))",           // B (T32,V16) -> (N8,K64)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    // 1-bit (xor|and).popc; 16x8x128 is missing on purpose (see inconsistent_traits)
    {80, 8, 8, 128, u1, popc,
     "((4,8),32):((256,1),8)",                   // A (T32,V32) -> (M8,K128)
     "((4,8),32):((256,1),8)",                   // B (T32,V32) -> (N8,K128)
     sm80_8x8_row},                              // C (T32,V2) -> (M8,N8)
    {80, 16, 8, 256, u1, popc,
     "((4,8),(32,2,2)):((512,1),(16,8,2048))",   // A (T32,V128) -> (M16,K256)
     "((4,8),(32,2)):((256,1),(8,1024))",        // B (T32,V64) -> (N8,K256)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    // SM89 fp8: the 8-bit layouts of SM80 16x8x32
    {89, 16, 8, 32, fp8, plain,
     "((4,8),(4,2,2)):((64,1),(16,8,256))",      // A (T32,V16) -> (M16,K32)
     "((4,8),(4,2)):((32,1),(8,128))",           // B (T32,V8) -> (N8,K32)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    // SM90 f64 / c64
    {90, 16, 8, 4, f64, plain,
     "((4,8),2):((16,1),8)",                     // A (T32,V2) -> (M16,K4)
     sm80_8x4,                                   // B (T32,V1) -> (N8,K4)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    {90, 16, 8, 8, f64, plain,
     "((4,8),(2,2)):((16,1),(8,64))",            // A (T32,V4) -> (M16,K8)
     "((4,8),2):((8,1),32)",                     // B (T32,V2) -> (N8,K8)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
    {90, 16, 8, 16, f64, plain,
     "((4,8),(2,4)):((16,1),(8,64))",            // A (T32,V8) -> (M16,K16)
     "((4,8),4):((8,1),32)",                     // B (T32,V4) -> (N8,K16)
     sm80_16x8_row},                             // C (T32,V4) -> (M16,N8)
};
// clang-format on

// --- SM70: the quad-pair 8x8x4, A/B row or column per the T/N letters -------------------
// Logical thread id -> lane, lanes 0-3 and 16-19
constexpr const char* sm70_quadpair = "(4,2):(1,16)";
constexpr const char* sm70_8x4_row = "(8,4):(1,8)";                            // (T8,V4) -> (M8,K4), K-major (T)
constexpr const char* sm70_8x4_col = "((4,2),4):((8,4),1)";                    // (T8,V4) -> (M8,K4), M-major (N)
constexpr const char* sm70_8x8_16b = "(8,8):(1,8)";                            // (T8,V8) -> (M8,N8), f16 accumulators
constexpr const char* sm70_8x8_32b = "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))";  // (T8,V8) -> (M8,N8), f32 accumulators

const char* sm70_layouts[] = {"TN", "NT", "NN", "TT"};

// CuTe's traits for the b1 16x8x128 atoms pair ALayout shape ((4,8),(32,2)) with stride
// ((512,1),((16,8))): not congruent, so no CuTe program can build them.  We refuse them.
[[noreturn]] void inconsistent_traits(const std::string& name) {
  throw Error(
      "CuTe's MMA_Traits<" + name +
      "> are inconsistent (ALayout shape ((4,8),(32,2)) against stride ((512,1),((16,8)))), so CuTe cannot build "
      "or tile this atom");
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out{""};
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// "16x8x16" -> {16, 8, 16}
std::vector<int> parse_mnk(const std::string& s, const std::string& name) {
  auto parts = split(s, 'x');
  std::vector<int> out;
  for (const auto& p : parts) {
    if (p.empty() || p.size() > 4 ||
        !std::all_of(p.begin(), p.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      throw Error("expected the shape MxNxK after the architecture in " + name);
    out.push_back(std::stoi(p));
  }
  if (out.size() != 3) throw Error("expected the shape MxNxK after the architecture in " + name);
  return out;
}

// Common part of every mma.sync atom: types, registers, PTX.
MmaAtom sync_atom(const std::string& name, int sm, int m, int n, int k, const std::vector<ElementType>& t,
                  Layout thr_id, Layout a, Layout b, Layout c, const std::string& ptx) {
  MmaAtom atom;
  atom.name = name;
  atom.short_name = name;
  atom.family = "SM" + std::to_string(sm);
  atom.sm = sm;
  atom.shape_mnk = tup(m, n, k);
  atom.thr_id = std::move(thr_id);
  atom.layout_a = std::move(a);
  atom.layout_b = std::move(b);
  atom.layout_c = std::move(c);
  atom.type_d = t[0].type;
  atom.type_a = t[1].type;
  atom.type_b = t[2].type;
  atom.type_c = t[3].type;
  atom.ptx = ptx;
  atom.regs_d = packed_registers(atom.type_d, size(atom.layout_c.shape[1]));
  atom.regs_a = packed_registers(atom.type_a, size(atom.layout_a.shape[1]));
  atom.regs_b = packed_registers(atom.type_b, size(atom.layout_b.shape[1]));
  atom.regs_c = packed_registers(atom.type_c, size(atom.layout_c.shape[1]));
  set_sync_asm(atom);
  set_comments(atom);
  return atom;
}

std::string sync_ptx(int m, int n, int k, const char* ab_layout, const std::vector<ElementType>& t) {
  return "mma.sync.aligned.m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k) + "." +
         ab_layout + "." + t[0].ptx + "." + t[1].ptx + "." + t[2].ptx + "." + t[3].ptx;
}

MmaAtom decode_sm70(const std::string& name, const std::vector<int>& mnk, const std::string& types,
                    const std::string& rest) {
  if (mnk != std::vector<int>{8, 8, 4}) throw Error("SM70 atoms are 8x8x4");
  if (types != "F16F16F16F16" && types != "F32F16F16F32")
    throw Error("SM70 8x8x4 takes F16F16F16F16 or F32F16F16F32, not " + types);
  if (std::find(std::begin(sm70_layouts), std::end(sm70_layouts), rest) == std::end(sm70_layouts))
    throw Error("SM70 atoms end in _TN, _NT, _NN or _TT");
  auto t = split_types(types);
  // First letter: A is K-major (T, row) or M-major (N, col); second: B is K-major (N, col) or N-major (T, row).
  const bool a_row = rest[0] == 'T', b_col = rest[1] == 'N';
  std::string ab = std::string(a_row ? "row" : "col") + "." + (b_col ? "col" : "row");
  return sync_atom(name, 70, 8, 8, 4, t, row_layout(sm70_quadpair), row_layout(a_row ? sm70_8x4_row : sm70_8x4_col),
                   row_layout(b_col ? sm70_8x4_row : sm70_8x4_col),
                   row_layout(types == "F16F16F16F16" ? sm70_8x8_16b : sm70_8x8_32b), sync_ptx(8, 8, 4, ab.c_str(), t));
}

MmaAtom decode_shape(const std::string& name, int sm, const std::vector<int>& mnk, const std::string& types,
                     const std::string& rest) {
  const SyncShape* hit = nullptr;
  std::vector<std::string> valid_types, valid_shapes;
  for (const auto& s : sync_shapes) {
    if (s.sm != sm) continue;
    std::string shape = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
    if (std::find(valid_shapes.begin(), valid_shapes.end(), shape) == valid_shapes.end()) valid_shapes.push_back(shape);
    if (std::vector<int>{s.m, s.n, s.k} != mnk) continue;
    valid_types.insert(valid_types.end(), s.types.begin(), s.types.end());
    if (std::find(s.types.begin(), s.types.end(), types) != s.types.end()) hit = &s;
  }
  auto join = [](const std::vector<std::string>& v) {  // a, b or c
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + v[i];
    return s;
  };
  std::string shape = std::to_string(mnk[0]) + "x" + std::to_string(mnk[1]) + "x" + std::to_string(mnk[2]);
  if (sm == 80 && shape == "16x8x128" && types == "S32U1U1S32" && (rest == "TN_XORPOPC" || rest == "TN_ANDPOPC"))
    inconsistent_traits(name);
  if (valid_types.empty())
    throw Error("SM" + std::to_string(sm) + " has no " + shape + " mma.sync atom (shapes: " + join(valid_shapes) + ")");
  if (!hit) throw Error("SM" + std::to_string(sm) + " " + shape + " takes " + join(valid_types) + ", not " + types);
  std::string variant = rest.size() > 2 ? rest.substr(2) : "";
  if (rest.compare(0, 2, "TN") != 0 ||
      std::find(hit->variants.begin(), hit->variants.end(), variant) == hit->variants.end()) {
    std::vector<std::string> endings;
    for (const char* v : hit->variants) endings.push_back(std::string("_TN") + v);
    throw Error(name + " must end in " + join(endings));
  }
  auto t = split_types(types);
  std::string ptx = sync_ptx(hit->m, hit->n, hit->k, "row.col", t);
  if (variant == "_SATURATE") ptx += ".satfinite";
  if (variant == "_XORPOPC") ptx += ".xor.popc";
  if (variant == "_ANDPOPC") ptx += ".and.popc";
  const bool complex = types[0] == 'C' || types[0] == 'G';
  MmaAtom atom = sync_atom(name, sm, hit->m, hit->n, hit->k, t, L(32, 1), row_layout(hit->a), row_layout(hit->b),
                           row_layout(hit->c), ptx);
  atom.saturate = variant == "_SATURATE";
  if (complex) {  // planar (4 f64 MMAs) or Gaussian (3) complex: CuTe's C++ around the f64 instruction
    std::string base = "SM" + std::to_string(sm) + "_" + shape + "_F64F64F64F64_TN";
    MmaAtom f64 = decode_shape(base, sm, mnk, "F64F64F64F64", "TN");
    atom.ptx = f64.ptx;
    atom.asm_template = f64.asm_template;
    atom.asm_operands = f64.asm_operands;
    atom.base_op = base;
    atom.ptx_calls = types[0] == 'C' ? 4 : 3;
  }
  return atom;
}

// --- SM120: mma.sync kind::f8f6f4 and its block-scaled forms ----------------------------
const char* sm120_inputs[] = {"float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "float_e4m3_t", "float_e5m2_t"};

ValueType sm120_input(const std::string& arg, const std::string& name) {
  auto t = parse_value_type(arg);
  if (!t || std::find(std::begin(sm120_inputs), std::end(sm120_inputs), t->name) == std::end(sm120_inputs))
    throw Error(name + ": A and B are float_e2m1_t, float_e3m2_t, float_e2m3_t, float_e4m3_t or float_e5m2_t, not " +
                arg);
  return *t;
}

MmaAtom decode_sm120(const AtomName& n) {
  const std::string& base = n.base;
  const bool vs = base == "SM120_16x8x32_TN_VS" || base == "SM120_16x8x64_TN_VS";
  if (base != "SM120_16x8x32_TN" && !vs)
    throw Error(
        "SM120 atoms are SM120_16x8x32_TN<A,B,C>, SM120_16x8x32_TN_VS<A,B,C,SF,VS> and "
        "SM120_16x8x64_TN_VS<A,B,C,SF,VS>");
  const size_t nargs = vs ? 5 : 3;
  if (n.targs.size() != nargs)
    throw Error(base + (vs ? " takes <A,B,C,SF,VS>" : " takes <A,B,C>: the element types of A, B and C"));
  ValueType ta = sm120_input(n.targs[0], base), tb = sm120_input(n.targs[1], base);
  auto tc = parse_value_type(n.targs[2]);
  if (!tc || (tc->name != "float" && (vs || tc->name != "half_t")))
    throw Error(base + ": C is " + (vs ? "float" : "float or half_t") + ", not " + n.targs[2]);
  const bool k64 = base == "SM120_16x8x64_TN_VS";
  std::string name = base + "<" + ta.name + "," + tb.name + "," + tc->name;
  std::optional<ValueType> tsf;
  int64_t vec = 0;
  if (vs) {
    tsf = parse_value_type(n.targs[3]);
    auto v = parse_int(n.targs[4]);
    if (!v) throw Error(base + ": VS (the scale-factor vector size) is an integer, not " + n.targs[4]);
    vec = *v;
    if (k64) {
      if (ta.name != "float_e2m1_t" || tb.name != "float_e2m1_t") throw Error(base + " takes float_e2m1_t A and B");
      if (!tsf ||
          !((tsf->name == "float_ue8m0_t" && (vec == 16 || vec == 32)) || (tsf->name == "float_ue4m3_t" && vec == 16)))
        throw Error(base + ": SF,VS is float_ue8m0_t,16 / float_ue8m0_t,32 / float_ue4m3_t,16");
    } else if (!tsf || tsf->name != "float_ue8m0_t" || vec != 32) {
      throw Error(base + ": SF,VS is float_ue8m0_t,32");
    }
    name += "," + tsf->name + "," + std::to_string(vec);
  }
  name += ">";
  // The MMA reads 8-bit (4-bit for k64) containers whatever the element type: ValTypeA/B = uint8_t / uint4_t.
  ValueType container = k64 ? ValueType{"uint4b_t", 4} : ValueType{"uint8_t", 8};
  std::vector<ElementType> t = {{"", *tc, ""}, {"", container, ""}, {"", container, ""}, {"", *tc, ""}};
  const Layout& a = row_layout(k64 ? "((4,8),(8,2,2)):((128,1),(16,8,512))"   // (T32,V32) -> (M16,K64)
                                   : "((4,8),(4,2,2)):((64,1),(16,8,256))");  // (T32,V16) -> (M16,K32)
  const Layout& b = row_layout(k64 ? "((4,8),(8,2)):((64,1),(8,256))"         // (T32,V16) -> (N8,K64)
                                   : "((4,8),(4,2)):((32,1),(8,128))");       // (T32,V8) -> (N8,K32)
  const std::string types = ptx_type(*tc) + "." + ptx_type(ta) + "." + ptx_type(tb) + "." + ptx_type(*tc);
  std::string ptx;
  if (!vs) ptx = "mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col." + types;
  else if (!k64) ptx = "mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col." + types + ".ue8m0";
  else if (tsf->name == "float_ue4m3_t")
    ptx = "mma.sync.aligned.kind::mxf4nvf4.block_scale.scale_vec::4X.m16n8k64.row.col." + types + ".ue4m3";
  else if (vec == 16)  // CuTe's own qualifier order; CUDA 13.0's ptxas rejects scale_vec::4X with ue8m0
    ptx = "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X." + types + ".ue8m0";
  else ptx = "mma.sync.aligned.kind::mxf4nvf4.block_scale.scale_vec::2X.m16n8k64.row.col." + types + ".ue8m0";
  MmaAtom atom = sync_atom(name, 120, 16, 8, k64 ? 64 : 32, t, L(32, 1), a, b, row_layout(sm80_16x8_row), ptx);
  atom.family = "SM120";
  atom.regs_a = {"uint32_t", 4};  // the MMA reads 32-bit registers of packed elements
  atom.regs_b = {"uint32_t", 2};
  if (vs) {
    atom.type_sf = *tsf;
    atom.sf_vec_size = static_cast<int>(vec);
    const int64_t kk = k64 ? 64 : 32;
    // (T32,V<K>) -> (M16,K): effectively 16 threads, the 2:0 mode
    atom.layout_sfa = L(tup(tup(2, 2, 8), kk), tup(tup(8, 0, 1), 16));
    // (T32,V<K>) -> (N8,K): effectively 8 threads, the 4:0 mode
    atom.layout_sfb = L(tup(tup(4, 8), kk), tup(tup(0, 1), 8));
    // The scale factors follow C: one register each plus the (byte, thread) selectors.
    atom.asm_template =
        atom.asm_template.substr(0, atom.asm_template.size() - 1) + ", {%14}, {%15, %16}, {%17}, {%18, %19};";
    atom.asm_operands +=
        ", \"r\"(uint32_t(sfa0)), \"h\"(bidA), \"h\"(tidA), \"r\"(uint32_t(sfb0)), \"h\"(bidB), \"h\"(tidB)";
  }
  return atom;
}

}  // namespace

std::optional<MmaAtom> decode_sync(const AtomName& n) {
  const std::string& base = n.base;
  if (base.rfind("SM120_", 0) == 0) return decode_sm120(n);
  int sm = 0;
  for (int s : {70, 75, 80, 89, 90})
    if (base.rfind("SM" + std::to_string(s) + "_", 0) == 0) sm = s;
  if (sm == 0 || base.rfind("SM90_SPARSE_", 0) == 0) return std::nullopt;  // a sparse GMMA name: mma_gmma.cpp
  auto parts = split(base, '_');
  if (parts.size() < 4) throw Error("expected SM" + std::to_string(sm) + "_<M>x<N>x<K>_<types>_TN, got " + base);
  auto mnk = parse_mnk(parts[1], base);
  if (sm == 90 && mnk[0] == 64) return std::nullopt;  // a GMMA name
  if (n.has_targs) throw Error(base + " takes no template arguments");
  std::string rest = parts[3];
  for (size_t i = 4; i < parts.size(); ++i) rest += "_" + parts[i];
  if (sm == 70) return decode_sm70(base, mnk, parts[2], rest);
  return decode_shape(base, sm, mnk, parts[2], rest);
}

void sync_names(std::vector<ListedMmaAtom>& out) {
  auto add = [&](const std::string& name, int sm) { out.push_back({name, name, sm}); };  // one spelling
  for (const char* types : {"F16F16F16F16", "F32F16F16F32"})
    for (const char* ab : sm70_layouts) add(std::string("SM70_8x8x4_") + types + "_" + ab, 70);
  for (const auto& s : sync_shapes)
    for (const auto& types : s.types)
      for (const auto& v : s.variants)
        add("SM" + std::to_string(s.sm) + "_" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                std::to_string(s.k) + "_" + types + "_TN" + v,
            s.sm);
  for (const char* a : sm120_inputs)
    for (const char* b : sm120_inputs) {
      for (const char* c : {"float", "half_t"})
        add(std::string("SM120_16x8x32_TN<") + a + "," + b + "," + c + ">", 120);
      add(std::string("SM120_16x8x32_TN_VS<") + a + "," + b + ",float,float_ue8m0_t,32>", 120);
    }
  for (const char* sf_vs : {"float_ue8m0_t,16", "float_ue8m0_t,32", "float_ue4m3_t,16"})
    add(std::string("SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,") + sf_vs + ">", 120);
}

}  // namespace cutevis::mma
