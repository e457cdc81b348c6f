// CuTeDSL's atoms and tilings (cutlass/cute/nvgpu/, cute/atom.py, utils/hopper_helpers.py,
// utils/blackwell_helpers.py) mapped onto the catalogue's C++ names: a CuTeDSL Op names the
// same instruction as a CuTe C++ MMA or copy operation, so it is decoded into that name and
// built by the catalogue -- never a second table of layouts.
//
//   cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16))
//       -> SM80_16x8x16_F32F16F16F32_TN
//   cute.nvgpu.warpgroup.MmaF16BF16Op(Float16, Float32, (64, 128), OperandSource.SMEM, K, MN)
//       -> SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>
//   cute.nvgpu.tcgen05.MmaF16BF16Op(Float16, Float32, (128, 256, 16), CtaGroup.ONE, SMEM, K, K)
//       -> SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>
//   cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, num_bits_per_copy=128)
//       -> Copy_Atom<UniversalCopy<uint128_t>, half_t>
//   cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose=False, num_matrices=4) -> SM75_U32x4_LDSM_N
//   cute.nvgpu.warp.LdMatrix16x8x8bOp(transpose=True, num_matrices=4)  -> SM100_U8x16_LDSM_T
//
// An MMA Op evaluates straight to its MMA atom (cute.make_mma_atom(op) is the atom); a copy Op
// is an object of kind "copy_op" until make_copy_atom gives it its element type.
#include <algorithm>
#include <charconv>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>

#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/smem_atoms.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/cpp_syntax.hpp"
#include "lib/lang/dsl.hpp"

namespace cutevis {

namespace {

using V = Value;

// The member of enum `cls` an argument names.
std::string enum_arg(Evaluator& ev, const Node& at, const std::string& cls) {
  Value v = ev.eval(at);
  if (v.is(V::Kind::kTag) && v.tag().rfind(cls + ".", 0) == 0) return v.tag().substr(cls.size() + 1);
  const std::vector<std::string> members = dsl_enum_members(cls);
  ev.fail(at, "expected a " + cls + (members.empty() ? "" : " (e.g. " + cls + "." + members.front() + ")") + ", got " +
                  v.describe());
}

ValueType dtype_arg(Evaluator& ev, const Node& at) {
  Value v = ev.eval(at);
  if (v.is(V::Kind::kType)) return v.type();
  ev.fail(at, "expected an element type such as cutlass.Float16, got " + v.describe());
}

std::vector<int64_t> ints_arg(Evaluator& ev, const Node& at) {
  Value v = ev.eval(at);
  std::vector<int64_t> out;
  if (v.is(V::Kind::kInt)) return {v.as_int()};
  if (!v.is(V::Kind::kTuple)) ev.fail(at, "expected a tuple of integers, got " + v.describe());
  for (const auto& e : v.elements()) out.push_back(e.as_int());
  return out;
}

// The catalogue's operand-type tokens: F16, BF16, TF32, F32, E4M3, E5M2, S8, U8, S32.
std::string type_token(Evaluator& ev, const Node& at, const ValueType& t) {
  static const std::pair<const char*, const char*> kTokens[] = {
      {"half_t", "F16"}, {"bfloat16_t", "BF16"},   {"tfloat32_t", "TF32"},   {"float", "F32"},
      {"double", "F64"}, {"float_e4m3_t", "E4M3"}, {"float_e5m2_t", "E5M2"}, {"int8_t", "S8"},
      {"uint8_t", "U8"}, {"int32_t", "S32"}};
  for (const auto& [name, token] : kTokens)
    if (t.name == name) return token;
  ev.fail(at, "element type " + t.name + " has no MMA of this kind");
}

Value mma_atom_named(Evaluator& ev, const Node& n, const std::string& cpp_name) {
  try {
    return mma_atom_value(find_mma_atom(cpp_name));
  } catch (const Error& e) {
    ev.fail(n, n.name + " is " + cpp_name + " in CuTe C++, which is not an atom: " + e.what());
  }
}

std::string dims(const std::vector<int64_t>& mnk) {
  std::string s;
  for (size_t i = 0; i < mnk.size(); ++i) s += (i ? "x" : "") + std::to_string(mnk[i]);
  return s;
}

// An instruction shape (M, N[, K]); K defaults to the instruction's (warpgroup and tcgen05 ops).
std::vector<int64_t> instruction_shape(Evaluator& ev, const Node& at, int64_t k) {
  std::vector<int64_t> s = ints_arg(ev, at);
  if (s.size() == 2) s.push_back(k);
  if (s.size() != 3) ev.fail(at, "an instruction shape is (M, N) or (M, N, K)");
  if (s[2] != k) ev.fail(at, "this instruction's K is " + std::to_string(k) + ", got " + std::to_string(s[2]));
  return s;
}

// --- warp: mma.sync (SM80, SM89) ----------------------------------------------------------
// MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk) -> SM80_16x8xK_<C><A><B><C>_TN
Value warp_f16bf16(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"ab_dtype", "acc_dtype", "shape_mnk"}, 3);
  std::string ab = type_token(ev, *a[0], dtype_arg(ev, *a[0])), acc = type_token(ev, *a[1], dtype_arg(ev, *a[1]));
  return mma_atom_named(ev, n, "SM80_" + dims(ints_arg(ev, *a[2])) + "_" + acc + ab + ab + acc + "_TN");
}

// MmaTF32Op(shape_mnk) -> SM80_16x8xK_F32TF32TF32F32_TN
Value warp_tf32(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"shape_mnk"}, 1);
  return mma_atom_named(ev, n, "SM80_" + dims(ints_arg(ev, *a[0])) + "_F32TF32TF32F32_TN");
}

// MmaFP8Op(ab_dtype, acc_dtype, shape_mnk) -> SM89_16x8x32_<C><A><A><C>_TN
Value warp_fp8(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"ab_dtype", "acc_dtype", "shape_mnk"}, 3);
  std::string ab = type_token(ev, *a[0], dtype_arg(ev, *a[0])), acc = type_token(ev, *a[1], dtype_arg(ev, *a[1]));
  return mma_atom_named(ev, n, "SM89_" + dims(ints_arg(ev, *a[2])) + "_" + acc + ab + ab + acc + "_TN");
}

// SM120 block-scaled mma.sync: (a, b, acc, sf) -> SM120_16x8xK_TN_VS<A,B,C,SF,VS>; CuTeDSL's
// Float8E4M3FN scale factor (NVF4) is C++'s float_ue4m3_t.
Value warp_block_scaled(Evaluator& ev, const Node& n, const Node& a_at, const Node& b_at, const Node& acc_at,
                        const Node& sf_at, int k, int vs) {
  ValueType sf = dtype_arg(ev, sf_at);
  if (sf.name == "float_e4m3_t") lookup_value_type("float_ue4m3_t", sf);
  return mma_atom_named(ev, n,
                        "SM120_16x8x" + std::to_string(k) + "_TN_VS<" + dtype_arg(ev, a_at).name + "," +
                            dtype_arg(ev, b_at).name + "," + dtype_arg(ev, acc_at).name + "," + sf.name + "," +
                            std::to_string(vs) + ">");
}

// MmaMXF4Op / MmaMXF4NVF4Op / MmaMXF8Op(ab_dtype, acc_dtype, sf_type): K and the scale vector are the Op's
Builtin warp_block_scaled_same(int k, int vs) {
  return [k, vs](Evaluator& ev, const Node& n) {
    auto a = bind_dsl_args(ev, n, {"ab_dtype", "acc_dtype", "sf_type"}, 3);
    return warp_block_scaled(ev, n, *a[0], *a[0], *a[1], *a[2], k, vs);
  };
}

// MmaMXF8F6F4Op(a_dtype, b_dtype, acc_dtype, sf_type): 16x8x32, a scale per 32
Value warp_mxf8f6f4(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"a_dtype", "b_dtype", "acc_dtype", "sf_type"}, 4);
  return warp_block_scaled(ev, n, *a[0], *a[1], *a[2], *a[3], 32, 32);
}

// MmaUniversalOp(abacc_dtype) -> UniversalFMA<T,T,T,T>: one thread, (1,1,1)
Value universal_fma(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"abacc_dtype"}, 1);
  const ValueType t = dtype_arg(ev, *a[0]);
  if (t.name != "half_t" && t.name != "float" && t.name != "double")
    ev.fail(*a[0], "cute.nvgpu.MmaUniversalOp takes Float16, Float32 or Float64, got " + t.name);
  return mma_atom_named(ev, n, "UniversalFMA<" + t.name + "," + t.name + "," + t.name + "," + t.name + ">");
}

// --- warpgroup: wgmma (SM90) ----------------------------------------------------------------
// (a_dtype, b_dtype, acc_dtype, instruction_shape, a_src, a_major_mode, b_major_mode) -> the GMMA name.
Value warpgroup_mma(Evaluator& ev, const Node& n, const ValueType& ta, const ValueType& tb, const ValueType& tc,
                    const Node& shape_at, const Node& src_at, const Node& a_major_at, const Node& b_major_at, int64_t k,
                    bool k_major_only) {
  std::vector<int64_t> s = instruction_shape(ev, shape_at, k);
  const std::string src = enum_arg(ev, src_at, "OperandSource");
  if (src == "TMEM") ev.fail(src_at, "warpgroup MMAs read A from SMEM or RMEM");
  const std::string ma = enum_arg(ev, a_major_at, "OperandMajorMode"),
                    mb = enum_arg(ev, b_major_at, "OperandMajorMode");
  std::string name = "SM90_" + dims(s) + "_" + type_token(ev, n, tc) + type_token(ev, n, ta) + type_token(ev, n, tb) +
                     (src == "SMEM" ? "_SS" : "_RS");
  if (k_major_only) {  // 8-bit GMMA is K-major only: CuTe spells it _TN
    if (ma != "K" || mb != "K") ev.fail(n, "8-bit warpgroup MMAs are K-major only (OperandMajorMode.K for A and B)");
    name += "_TN";
  } else {
    name += "<GMMA::Major::" + ma + ",GMMA::Major::" + mb + ">";
  }
  Value atom = mma_atom_named(ev, n, name);
  if (s[1] != 8) return atom;
  // CuTeDSL's N=8 C layout has no trailing size-1 value mode: ((4,8,4),(2,2)) where C++ CuTe's
  // CLayout_64xN<8> is ((4,8,4),(2,2,1)) -- the same function, CuTeDSL's rank (issue 14).
  MmaAtom dsl = *as_mma_atom(atom);
  const Layout& c = dsl.layout_c;
  const IntTuple vs = c.shape[1], vd = c.stride[1];
  if (vs.rank() == 3 && vs[2] == IntTuple(1))
    dsl.layout_c = Layout(tup(c.shape[0], tup(vs[0], vs[1])), tup(c.stride[0], tup(vd[0], vd[1])));
  return mma_atom_value(dsl);
}

Value warpgroup_f16bf16(Evaluator& ev, const Node& n) {
  auto a =
      bind_dsl_args(ev, n, {"ab_dtype", "acc_dtype", "instruction_shape", "a_src", "a_major_mode", "b_major_mode"}, 6);
  ValueType ab = dtype_arg(ev, *a[0]);
  return warpgroup_mma(ev, n, ab, ab, dtype_arg(ev, *a[1]), *a[2], *a[3], *a[4], *a[5], 16, false);
}

Value warpgroup_8bit(Evaluator& ev, const Node& n) {  // MmaF8Op / MmaI8Op
  auto a = bind_dsl_args(
      ev, n, {"a_dtype", "b_dtype", "acc_dtype", "instruction_shape", "a_src", "a_major_mode", "b_major_mode"}, 7);
  return warpgroup_mma(ev, n, dtype_arg(ev, *a[0]), dtype_arg(ev, *a[1]), dtype_arg(ev, *a[2]), *a[3], *a[4], *a[5],
                       *a[6], 32, true);
}

// --- tcgen05: UMMA (SM100) ----------------------------------------------------------------
// SM100_MMA_<KIND>[_2x1SM]_<SS|TS><A,B,C,M,N,UMMA::Major::a,UMMA::Major::b>
Value tcgen05_mma(Evaluator& ev, const Node& n, const char* kind, const ValueType& ta, const ValueType& tb,
                  const ValueType& tc, const Node& shape_at, const Node& cta_at, const Node& src_at,
                  const Node& a_major_at, const Node& b_major_at, int64_t k) {
  std::vector<int64_t> s = instruction_shape(ev, shape_at, k);
  const bool pair = enum_arg(ev, cta_at, "CtaGroup") == "TWO";
  const std::string src = enum_arg(ev, src_at, "OperandSource");
  if (src == "RMEM") ev.fail(src_at, "tcgen05 MMAs read A from SMEM or TMEM");
  const std::string ma = enum_arg(ev, a_major_at, "OperandMajorMode"),
                    mb = enum_arg(ev, b_major_at, "OperandMajorMode");
  return mma_atom_named(ev, n,
                        std::string("SM100_MMA_") + kind + (pair ? "_2x1SM" : "") + (src == "SMEM" ? "_SS<" : "_TS<") +
                            ta.name + "," + tb.name + "," + tc.name + "," + std::to_string(s[0]) + "," +
                            std::to_string(s[1]) + ",UMMA::Major::" + ma + ",UMMA::Major::" + mb + ">");
}

const char* const kUmmaParams[] = {"instruction_shape", "cta_group", "a_src", "a_major_mode", "b_major_mode"};

std::vector<const char*> umma_params(std::vector<const char*> types) {
  types.insert(types.end(), std::begin(kUmmaParams), std::end(kUmmaParams));
  return types;
}

Value tcgen05_f16bf16(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, umma_params({"ab_dtype", "acc_dtype"}), 7);
  ValueType ab = dtype_arg(ev, *a[0]);
  return tcgen05_mma(ev, n, "F16BF16", ab, ab, dtype_arg(ev, *a[1]), *a[2], *a[3], *a[4], *a[5], *a[6], 16);
}

Value tcgen05_tf32(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, umma_params({}), 5);
  ValueType tf32, f32;
  lookup_value_type("tfloat32_t", tf32);
  lookup_value_type("float", f32);
  return tcgen05_mma(ev, n, "TF32", tf32, tf32, f32, *a[0], *a[1], *a[2], *a[3], *a[4], 8);
}

Value tcgen05_i8(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, umma_params({"ab_dtype"}), 6);
  ValueType ab = dtype_arg(ev, *a[0]), s32;
  lookup_value_type("int32_t", s32);
  return tcgen05_mma(ev, n, "S8", ab, ab, s32, *a[1], *a[2], *a[3], *a[4], *a[5], 32);
}

Value tcgen05_fp8(Evaluator& ev, const Node& n) {  // MmaFP8Op(ab_dtype, acc_dtype, ...): kind f8f6f4
  auto a = bind_dsl_args(ev, n, umma_params({"ab_dtype", "acc_dtype"}), 7);
  ValueType ab = dtype_arg(ev, *a[0]);
  return tcgen05_mma(ev, n, "F8F6F4", ab, ab, dtype_arg(ev, *a[1]), *a[2], *a[3], *a[4], *a[5], *a[6], 32);
}

Value tcgen05_f8f6f4(Evaluator& ev, const Node& n) {  // MmaF8F6F4Op(a_dtype, b_dtype, acc_dtype, ...)
  auto a = bind_dsl_args(ev, n, umma_params({"a_dtype", "b_dtype", "acc_dtype"}), 8);
  return tcgen05_mma(ev, n, "F8F6F4", dtype_arg(ev, *a[0]), dtype_arg(ev, *a[1]), dtype_arg(ev, *a[2]), *a[3], *a[4],
                     *a[5], *a[6], *a[7], 32);
}

// Block-scaled: SM100_MMA_<MXF8F6F4|MXF4>[_2x1SM]_<SS|TS><A,B,C,SF,M,N,[VS,]UMMA::Major::a,UMMA::Major::b>
Value tcgen05_block_scaled(Evaluator& ev, const Node& n, const char* kind, const ValueType& ta, const ValueType& tb,
                           const ValueType& sf, int vs, const Node& shape_at, const Node& cta_at, const Node& src_at,
                           const Node* a_major_at, const Node* b_major_at, int64_t k) {
  std::vector<int64_t> s = instruction_shape(ev, shape_at, k);
  const bool pair = enum_arg(ev, cta_at, "CtaGroup") == "TWO";
  const std::string src = enum_arg(ev, src_at, "OperandSource");
  if (src == "RMEM") ev.fail(src_at, "tcgen05 MMAs read A from SMEM or TMEM");
  const std::string ma = a_major_at ? enum_arg(ev, *a_major_at, "OperandMajorMode") : "K";
  const std::string mb = b_major_at ? enum_arg(ev, *b_major_at, "OperandMajorMode") : "K";
  return mma_atom_named(ev, n,
                        std::string("SM100_MMA_") + kind + (pair ? "_2x1SM" : "") + (src == "SMEM" ? "_SS<" : "_TS<") +
                            ta.name + "," + tb.name + ",float," + sf.name + "," + std::to_string(s[0]) + "," +
                            std::to_string(s[1]) + "," + (vs ? std::to_string(vs) + "," : "") + "UMMA::Major::" + ma +
                            ",UMMA::Major::" + mb + ">");
}

ValueType named_type(const char* name) {
  ValueType t;
  lookup_value_type(name, t);
  return t;
}

Value tcgen05_mxf8(Evaluator& ev, const Node& n) {  // MmaMXF8Op(ab_dtype, ...): mxf8f6f4 with ue8m0 scales
  auto a = bind_dsl_args(ev, n, umma_params({"ab_dtype"}), 6);
  ValueType ab = dtype_arg(ev, *a[0]);
  return tcgen05_block_scaled(ev, n, "MXF8F6F4", ab, ab, named_type("float_ue8m0_t"), 0, *a[1], *a[2], *a[3], a[4],
                              a[5], 32);
}

Value tcgen05_mxf8f6f4(Evaluator& ev, const Node& n) {  // MmaMXF8F6F4Op(a_dtype, b_dtype, ...)
  auto a = bind_dsl_args(ev, n, umma_params({"a_dtype", "b_dtype"}), 7);
  return tcgen05_block_scaled(ev, n, "MXF8F6F4", dtype_arg(ev, *a[0]), dtype_arg(ev, *a[1]),
                              named_type("float_ue8m0_t"), 0, *a[2], *a[3], *a[4], a[5], a[6], 32);
}

Value tcgen05_mxf4(Evaluator& ev,
                   const Node& n) {  // MmaMXF4Op(instruction_shape, cta_group, a_src): e2m1, ue8m0 per 32, K-major
  auto a = bind_dsl_args(ev, n, {"instruction_shape", "cta_group", "a_src"}, 3);
  ValueType e2m1 = named_type("float_e2m1_t");
  return tcgen05_block_scaled(ev, n, "MXF4", e2m1, e2m1, named_type("float_ue8m0_t"), 32, *a[0], *a[1], *a[2], nullptr,
                              nullptr, 64);
}

// MmaMXF4NVF4Op(sf_dtype, instruction_shape, cta_group, a_src): e2m1, a scale per 16; CuTeDSL's
// Float8E4M3FN scale factor is C++'s float_ue4m3_t (NVFP4's unsigned scale).
Value tcgen05_mxf4nvf4(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"sf_dtype", "instruction_shape", "cta_group", "a_src"}, 4);
  ValueType sf = dtype_arg(ev, *a[0]);
  if (sf.name == "float_e4m3_t") sf = named_type("float_ue4m3_t");
  ValueType e2m1 = named_type("float_e2m1_t");
  return tcgen05_block_scaled(ev, n, "MXF4", e2m1, e2m1, sf, 16, *a[1], *a[2], *a[3], nullptr, nullptr, 64);
}

// --- copy operations ------------------------------------------------------------------------
// A CuTeDSL copy Op: the C++ operation it names once make_copy_atom gives the element type and
// num_bits_per_copy.
class CopyOpObject : public Object {
 public:
  using Namer = std::function<std::string(const ValueType&, int64_t bits, Evaluator&, const Node&)>;
  CopyOpObject(std::string dsl, Namer namer) : dsl_(std::move(dsl)), namer_(std::move(namer)) {}
  std::string kind() const override { return "copy_op"; }
  std::string to_string() const override { return dsl_; }
  std::string brief() const override {
    return "copy operation " + dsl_ + " (give it an element type with cute.make_copy_atom)";
  }
  std::string cpp_op(const ValueType& t, int64_t bits, Evaluator& ev, const Node& at) const {
    return namer_(t, bits, ev, at);
  }

 private:
  std::string dsl_;
  Namer namer_;
};

std::string uint_of_bits(Evaluator& ev, const Node& at, int64_t bits) {
  if (bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128) return "uint" + std::to_string(bits) + "_t";
  ev.fail(at, "num_bits_per_copy must be 8, 16, 32, 64 or 128, got " + std::to_string(bits));
}

Value copy_op(const Node& n, CopyOpObject::Namer namer) {
  return V::object(std::make_shared<CopyOpObject>(n.name, std::move(namer)));
}

// CopyUniversalOp() -> UniversalCopy<uintN_t> for num_bits_per_copy=N, UniversalCopy<T> for 0
// (CuTeDSL lets the compiler vectorize then; the atom itself moves one element).
Value universal_copy(Evaluator& ev, const Node& n) {
  bind_dsl_args(ev, n, {}, 0);
  return copy_op(n, [](const ValueType& t, int64_t bits, Evaluator& e, const Node& at) {
    return "UniversalCopy<" + (bits == 0 ? t.name : uint_of_bits(e, at, bits)) + ">";
  });
}

// CopyG2ROp / CopyR2GOp / CopyS2ROp / CopyR2SOp (): a universal copy with memory semantics
// (order, scope, cache hints) that do not change which thread moves which bits: its layouts
// are UniversalCopy's, so the atom is UniversalCopy<uintN_t> (UniversalCopy<T> without num_bits_per_copy).
Value memory_copy(Evaluator& ev, const Node& n) { return universal_copy(ev, n); }

// cpasync.CopyG2SOp(cache_mode=LoadCacheMode.ALWAYS) -> SM80_CP_ASYNC_CACHEALWAYS<uintN_t> (GLOBAL: CACHEGLOBAL)
Value cp_async(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"cache_mode"}, 0);
  const std::string mode = a[0] ? enum_arg(ev, *a[0], "LoadCacheMode") : "ALWAYS";
  if (mode != "ALWAYS" && mode != "GLOBAL") ev.fail(*a[0], "cp.async caches ALWAYS or GLOBAL");
  return copy_op(n, [mode](const ValueType&, int64_t bits, Evaluator& e, const Node& at) {
    if (bits != 32 && bits != 64 && bits != 128)
      e.fail(at, "cp.async copies 32, 64 or 128 bits: give num_bits_per_copy");
    return "SM80_CP_ASYNC_CACHE" + mode + "<" + uint_of_bits(e, at, bits) + ">";
  });
}

// The warp-level ldmatrix / stmatrix Ops: (transpose, num_matrices) -> the C++ operation.
// (unpack_bits is 0 where the Op is given none.)
Value matrix_copy(Evaluator& ev, const Node& n, const std::function<std::string(bool, int64_t, int64_t)>& name_of) {
  auto a = bind_dsl_args(ev, n, {"transpose", "num_matrices", "unpack_bits"}, 0);
  const bool transpose = a[0] ? ev.eval(*a[0]).as_bool() : false;
  const int64_t count = a[1] ? ev.eval(*a[1]).as_int() : 1;
  const int64_t unpack = a[2] ? ev.eval(*a[2]).as_int() : 0;
  std::string op = name_of(transpose, count, unpack);
  if (op.empty())
    ev.fail(n, n.name + " with transpose=" + (transpose ? "True" : "False") +
                   ", num_matrices=" + std::to_string(count) +
                   (unpack ? ", unpack_bits=" + std::to_string(unpack) : "") + " is not an instruction cutevis knows");
  return copy_op(n, [op](const ValueType&, int64_t, Evaluator&, const Node&) { return op; });
}

std::string pick(int64_t count, const std::vector<std::pair<int64_t, const char*>>& by_count) {
  for (const auto& [c, name] : by_count)
    if (c == count) return name;
  return "";
}

// ldmatrix .m8n8 .b16: SM75_U32xN_LDSM_N, transposed SM75_U16x(2N)_LDSM_T
std::string ldsm_8x8(bool transpose, int64_t count) {
  return transpose ? pick(count, {{1, "SM75_U16x2_LDSM_T"}, {2, "SM75_U16x4_LDSM_T"}, {4, "SM75_U16x8_LDSM_T"}})
                   : pick(count, {{1, "SM75_U32x1_LDSM_N"}, {2, "SM75_U32x2_LDSM_N"}, {4, "SM75_U32x4_LDSM_N"}});
}

// tcgen05.Ld32x32bOp(repeat=Repetition.x1, pack=Pack.NONE) and the other TMEM loads / stores:
// SM100_TMEM_LOAD_<shape><N>x[_16b] / SM100_TMEM_STORE_<shape><N>x[_16b] (cute/arch/copy_sm100.hpp).
Builtin tmem_copy(const std::string& kind, const std::string& shape) {
  const bool load = kind == "LOAD";
  return [load, kind, shape](Evaluator& ev, const Node& n) {
    auto a = bind_dsl_args(ev, n, {"repeat", load ? "pack" : "unpack"}, 0);
    const std::string rep = a[0] ? enum_arg(ev, *a[0], "Repetition") : "x1";
    const std::string packing = a[1] ? enum_arg(ev, *a[1], load ? "Pack" : "Unpack") : "NONE";
    const std::string op = "SM100_TMEM_" + kind + "_" + shape + rep.substr(1) + "x" + (packing == "NONE" ? "" : "_16b");
    return copy_op(n, [op](const ValueType&, int64_t, Evaluator&, const Node&) { return op; });
  };
}

// --- atoms and tilings ---------------------------------------------------------------------
// A name node (an enum member given by default).
Node tag_node(const Node& at, const std::string& name) {
  Node t;
  t.kind = Node::Kind::kName;
  t.name = name;
  t.begin = at.begin;
  t.end = at.end;
  return t;
}

MmaAtom mma_atom_arg(Evaluator& ev, const Node& at, const Value& v) {
  if (const MmaAtom* m = as_mma_atom(v)) return *m;
  ev.fail(at, "expected an MMA Op or atom such as cute.nvgpu.warp.MmaF16BF16Op(...), got " + v.describe());
}

CopyAtom copy_atom_arg(Evaluator& ev, const Node& at) {
  Value v = ev.eval(at);
  if (const CopyAtom* c = as_copy_atom(v)) return *c;
  if (v.is(V::Kind::kObject) && v.object()->kind() == "copy_op")
    ev.fail(at, "a copy Op needs an element type: cute.make_copy_atom(" + v.to_string() + "(), cutlass.Float16, ...)");
  ev.fail(at, "expected a copy atom (cute.make_copy_atom(...)), got " + v.describe());
}

TiledMma tiled_mma_arg(Evaluator& ev, const Node& at) {
  Value v = ev.eval(at);
  if (const TiledMma* m = as_tiled_mma(v)) return *m;
  ev.fail(at, "expected a TiledMma (cute.make_tiled_mma(...)), got " + v.describe());
}

// make_tiled_mma with CuTeDSL's rule: a tuple atom layout is make_layout(tuple) and has rank 3.
TiledMma dsl_tiled_mma(Evaluator& ev, const Node& n, const MmaAtom& atom, const Node* layout_at,
                       const Node* permutation_at) {
  Layout layout(tup(1, 1, 1), tup(0, 0, 0));
  if (layout_at) {
    Value l = ev.eval(*layout_at);
    if (!l.is_layout_like()) ev.fail(*layout_at, "atom_layout_mnk is a layout or a tuple, got " + l.describe());
    layout = l.to_layout();
    if (rank(layout) != 3) ev.fail(*layout_at, "CuTeDSL expects a rank-3 MNK atom layout, got " + to_string(layout));
  }
  try {
    if (!permutation_at) return make_tiled_mma(atom, layout);
    Value p = ev.eval(*permutation_at);
    if (!p.is(V::Kind::kTuple))
      ev.fail(*permutation_at, "permutation_mnk is a tuple of up to three tilers, got " + p.describe());
    return make_tiled_mma(atom, layout, p.to_tiler());
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, n.name + ": " + e.what());
  }
}

// cute.make_copy_atom(op, copy_internal_type, num_bits_per_copy=...)
Value make_copy_atom_value(Evaluator& ev, const Node& n) {
  // the memory-semantics keywords of CopyG2ROp & co. (cute/nvgpu/common.py) change no layout
  auto a = bind_dsl_args(
      ev, n,
      {"op", "copy_internal_type", "num_bits_per_copy", "memory_order", "memory_scope", "l2_prefetch_size",
       "l1c_evict_priority", "load_cache_mode", "store_cache_mode", "shared_space", "invariant"},
      2);
  Value op = ev.eval(*a[0]);
  auto* dsl_op = op.is(V::Kind::kObject) ? dynamic_cast<const CopyOpObject*>(op.object().get()) : nullptr;
  if (!dsl_op) ev.fail(*a[0], "expected a copy Op such as cute.nvgpu.CopyUniversalOp(), got " + op.describe());
  const ValueType t = dtype_arg(ev, *a[1]);
  const int64_t bits = a[2] ? ev.eval(*a[2]).as_int() : 0;
  const std::string cpp = dsl_op->cpp_op(t, bits, ev, a[2] ? *a[2] : n);
  try {
    return copy_atom_value(make_copy_atom(cpp, t));
  } catch (const Error& e) {
    ev.fail(n, dsl_op->to_string() + " is Copy_Atom<" + cpp + ", " + t.name + "> in CuTe C++: " + e.what());
  }
}

// --- SM90 / SM100 helpers (utils/hopper_helpers.py, utils/blackwell_helpers.py) ------------
// The warpgroup or tcgen05 Op these helpers pick for (a_dtype, b_dtype).
bool is_one_of(const ValueType& t, std::initializer_list<const char*> names) {
  for (const char* x : names)
    if (t.name == x) return true;
  return false;
}

// sm90_utils.make_trivial_tiled_mma(a_dtype, b_dtype, a_leading_mode, b_leading_mode, acc_dtype,
//                                   atom_layout_mnk, tiler_mn, a_source=OperandSource.SMEM)
Value sm90_trivial_tiled_mma(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n,
                         {"a_dtype", "b_dtype", "a_leading_mode", "b_leading_mode", "acc_dtype", "atom_layout_mnk",
                          "tiler_mn", "a_source"},
                         7);
  const ValueType ta = dtype_arg(ev, *a[0]), tb = dtype_arg(ev, *a[1]), tc = dtype_arg(ev, *a[4]);
  const Node smem = tag_node(n, "OperandSource.SMEM");
  const Node& src = a[7] ? *a[7] : smem;
  int64_t k = 0;
  if (is_one_of(ta, {"half_t", "bfloat16_t"}) && ta.name == tb.name) k = 16;
  else if (is_one_of(ta, {"float_e4m3_t", "float_e5m2_t"}) && is_one_of(tb, {"float_e4m3_t", "float_e5m2_t"})) k = 32;
  else if (is_one_of(ta, {"int8_t", "uint8_t"}) && is_one_of(tb, {"int8_t", "uint8_t"})) k = 32;
  else ev.fail(*a[0], "unsupported a_dtype and b_dtype, got " + ta.name + " and " + tb.name);
  Value atom = warpgroup_mma(ev, n, ta, tb, tc, *a[6], src, *a[2], *a[3], k, k == 32);
  return tiled_mma_value(dsl_tiled_mma(ev, n, *as_mma_atom(atom), a[5], nullptr));
}

// sm100_utils.make_trivial_tiled_mma(a_dtype, b_dtype, a_leading_mode, b_leading_mode, acc_dtype,
//                                    cta_group, mma_tiler_mn, a_source=SMEM), or the legacy form
// with one ab_dtype (told apart as CuTeDSL does: is the second argument a type?).
Value sm100_trivial_tiled_mma(Evaluator& ev, const Node& n) {
  bool legacy = false;
  for (const auto& x : n.args) legacy = legacy || x.keyword == "ab_dtype";
  if (!legacy && n.args.size() >= 2 && n.args[1].keyword.empty()) legacy = !ev.eval(n.args[1]).is(V::Kind::kType);
  std::vector<const char*> params = {"a_dtype",   "b_dtype",   "a_leading_mode", "b_leading_mode",
                                     "acc_dtype", "cta_group", "mma_tiler_mn",   "a_source"};
  if (legacy)
    params = {"ab_dtype", "a_leading_mode", "b_leading_mode", "acc_dtype", "cta_group", "mma_tiler_mn", "a_source"};
  auto a = bind_dsl_args(ev, n, params, params.size() - 1);
  if (legacy) a.insert(a.begin() + 1, a[0]);
  const ValueType ta = dtype_arg(ev, *a[0]), tb = dtype_arg(ev, *a[1]);
  const Node smem = tag_node(n, "OperandSource.SMEM");
  const Node& src = a[7] ? *a[7] : smem;
  Value atom;
  if (is_one_of(ta, {"half_t", "bfloat16_t"}) && ta.name == tb.name) {
    atom = tcgen05_mma(ev, n, "F16BF16", ta, tb, dtype_arg(ev, *a[4]), *a[6], *a[5], src, *a[2], *a[3], 16);
  } else if (is_one_of(ta, {"tfloat32_t", "float"}) && ta.name == tb.name) {
    ValueType tf32, f32;
    lookup_value_type("tfloat32_t", tf32);
    lookup_value_type("float", f32);
    atom = tcgen05_mma(ev, n, "TF32", tf32, tf32, f32, *a[6], *a[5], src, *a[2], *a[3], 8);
  } else if (is_one_of(ta, {"int8_t", "uint8_t"}) && ta.name == tb.name) {
    ValueType s32;
    lookup_value_type("int32_t", s32);
    atom = tcgen05_mma(ev, n, "S8", ta, tb, s32, *a[6], *a[5], src, *a[2], *a[3], 32);
  } else if (is_one_of(ta, {"float_e4m3_t", "float_e5m2_t", "float_e2m3_t", "float_e3m2_t", "float_e2m1_t"}) &&
             is_one_of(tb, {"float_e4m3_t", "float_e5m2_t", "float_e2m3_t", "float_e3m2_t", "float_e2m1_t"})) {
    atom = tcgen05_mma(ev, n, "F8F6F4", ta, tb, dtype_arg(ev, *a[4]), *a[6], *a[5], src, *a[2], *a[3], 32);
  } else {
    ev.fail(*a[0], "unsupported a_dtype/b_dtype, got " + ta.name + " and " + tb.name);
  }
  return tiled_mma_value(dsl_tiled_mma(ev, n, *as_mma_atom(atom), nullptr, nullptr));
}

// sm100_utils.make_blockscaled_trivial_tiled_mma(a_dtype, b_dtype, a_leading_mode, b_leading_mode,
// sf_dtype, sf_vec_size, cta_group, mma_tiler_mn, a_source=SMEM), or the legacy one-ab_dtype form:
// e2m1 x e2m1 is MmaMXF4Op (a scale per 32) or MmaMXF4NVF4Op (per 16), the f8f6f4 types MmaMXF8F6F4Op.
Value sm100_blockscaled_tiled_mma(Evaluator& ev, const Node& n) {
  bool legacy = false;
  for (const auto& x : n.args) legacy = legacy || x.keyword == "ab_dtype";
  if (!legacy && n.args.size() >= 2 && n.args[1].keyword.empty()) legacy = !ev.eval(n.args[1]).is(V::Kind::kType);
  std::vector<const char*> params = {"a_dtype",     "b_dtype",   "a_leading_mode", "b_leading_mode", "sf_dtype",
                                     "sf_vec_size", "cta_group", "mma_tiler_mn",   "a_source"};
  if (legacy)
    params = {"ab_dtype",    "a_leading_mode", "b_leading_mode", "sf_dtype",
              "sf_vec_size", "cta_group",      "mma_tiler_mn",   "a_source"};
  auto a = bind_dsl_args(ev, n, params, params.size() - 1);
  if (legacy) a.insert(a.begin() + 1, a[0]);
  const ValueType ta = dtype_arg(ev, *a[0]), tb = dtype_arg(ev, *a[1]);
  const Node smem = tag_node(n, "OperandSource.SMEM");
  const Node& src = a[8] ? *a[8] : smem;
  const int64_t vs = ev.eval(*a[5]).as_int();
  const char* const f8f6f4[] = {"float_e4m3_t", "float_e5m2_t", "float_e2m3_t", "float_e3m2_t", "float_e2m1_t"};
  auto is_f8f6f4 = [&](const ValueType& t) {
    return std::find(std::begin(f8f6f4), std::end(f8f6f4), t.name) != std::end(f8f6f4);
  };
  Value atom;
  if (ta.name == "float_e2m1_t" && tb.name == "float_e2m1_t") {
    ValueType sf = vs == 32 ? named_type("float_ue8m0_t") : dtype_arg(ev, *a[4]);
    if (sf.name == "float_e4m3_t") sf = named_type("float_ue4m3_t");  // NVFP4's unsigned scale
    if (vs != 32 && vs != 16)
      ev.fail(*a[5], "unsupported sf_vec_size, got " + std::to_string(vs) + " (e2m1 takes 16 or 32)");
    atom =
        tcgen05_block_scaled(ev, n, "MXF4", ta, tb, sf, static_cast<int>(vs), *a[7], *a[6], src, nullptr, nullptr, 64);
  } else if (is_f8f6f4(ta) && is_f8f6f4(tb)) {
    atom = tcgen05_block_scaled(ev, n, "MXF8F6F4", ta, tb, named_type("float_ue8m0_t"), 0, *a[7], *a[6], src, a[2],
                                a[3], 32);
  } else {
    ev.fail(*a[0], "unsupported a_dtype/b_dtype, got " + ta.name + " and " + tb.name);
  }
  return tiled_mma_value(dsl_tiled_mma(ev, n, *as_mma_atom(atom), nullptr, nullptr));
}

// make_smem_layout_atom(kind, element_type): atoms/smem_atoms.cpp builds it; errors point at `at`.
AnyLayout smem_layout_atom(Evaluator& ev, const Node& at, const std::string& kind, const ValueType& t) {
  try {
    return dsl_smem_layout_atom(kind, t.bits);
  } catch (const Error& e) {
    ev.fail(at, e.what());
  }
}

// get_smem_layout_atom's heuristic: the widest swizzle whose row divides the major mode.
std::string smem_atom_kind(bool mn_major, int64_t major_mode_bits, bool sw128_32b) {
  std::string prefix = mn_major ? "MN_" : "K_";
  if (sw128_32b && major_mode_bits % 1024 == 0) return "MN_SW128_32B";
  if (major_mode_bits % 1024 == 0) return prefix + "SW128";
  if (major_mode_bits % 512 == 0) return prefix + "SW64";
  if (major_mode_bits % 256 == 0) return prefix + "SW32";
  return prefix + "INTER";
}

// sm90_utils.get_smem_layout_atom(layout: LayoutEnum, element_type, major_mode_size)
Value sm90_get_smem_layout_atom(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"layout", "element_type", "major_mode_size"}, 3);
  const bool mn = enum_arg(ev, *a[0], "LayoutEnum") == "COL_MAJOR";  // LayoutEnum.sm90_mma_major_mode
  const ValueType t = dtype_arg(ev, *a[1]);
  const int64_t size = ev.eval(*a[2]).as_int();
  if (size % 8 != 0) ev.fail(*a[2], "major_mode_size must be a multiple of 8");
  return V::tag("SmemLayoutAtomKind." + smem_atom_kind(mn, checked_mul(size, t.bits), false));
}

// get_smem_layout_atom_ab's choice for an (MN, K) shape: the widest swizzle whose row divides
// the major mode (blackwell_helpers.py).
std::string sm100_atom_kind(Evaluator& ev, const Node& at, bool k_major, const ValueType& t, const IntTuple& mn_k) {
  if (mn_k.is_leaf() || mn_k.rank() < 2) ev.fail(at, "smem_shape_mn_k is (MN, K), got " + to_string(mn_k));
  const int64_t size = cutevis::size(mn_k[k_major ? 1 : 0]);
  const int64_t bits = checked_mul(size, t.bits);
  if (size % 8 != 0 || bits % 128 != 0)
    ev.fail(at, "the major mode must hold a multiple of 8 elements and of 128 bits, got " + to_string(mn_k));
  return smem_atom_kind(!k_major, bits, !k_major && t.bits == 32);
}

// sm100_utils.get_smem_layout_atom_ab(major_mode, element_type, smem_shape_mn_k)
Value sm100_get_smem_layout_atom_ab(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"major_mode", "element_type", "smem_shape_mn_k"}, 3);
  const bool k_major = enum_arg(ev, *a[0], "OperandMajorMode") == "K";
  const ValueType t = dtype_arg(ev, *a[1]);
  Value shape = ev.eval(*a[2]);
  if (!shape.is(V::Kind::kTuple) || shape.elements().size() < 2)
    ev.fail(*a[2], "smem_shape_mn_k is (MN, K), got " + shape.describe());
  return V::tag("SmemLayoutAtomKind." + sm100_atom_kind(ev, *a[2], k_major, t, shape.to_int_tuple()));
}

// The SM90 helpers' last step: get_smem_layout_atom for (LayoutEnum, dtype, major_mode_size),
// make_smem_layout_atom, tile_to_shape to `shape` in `order`.
Value sm90_tiled_atom(Evaluator& ev, const Node& n, const Node& layout_at, const ValueType& t, int64_t major_mode_size,
                      const IntTuple& shape, const IntTuple& order) {
  if (major_mode_size % 8 != 0)
    ev.fail(n, n.name + ": the major mode size must be a multiple of 8, got " + std::to_string(major_mode_size));
  // LayoutEnum.sm90_mma_major_mode: COL_MAJOR is MN-major, ROW_MAJOR K-major
  const bool mn = enum_arg(ev, layout_at, "LayoutEnum") == "COL_MAJOR";
  AnyLayout atom = smem_layout_atom(ev, n, smem_atom_kind(mn, checked_mul(major_mode_size, t.bits), false), t);
  try {
    return V::layout(tile_to_shape(atom, shape, order));
  } catch (const Error& e) {
    ev.fail(n, n.name + ": " + e.what());
  }
}

// sm90_utils.make_smem_layout_a/b(layout, mma_tiler_mnk, dtype, num_stages): the atom for the
// operand's major mode, tile_to_shape'd to (M|N, K, stages) in the major mode's order.
Value sm90_make_smem_layout(Evaluator& ev, const Node& n, bool is_a) {
  auto a = bind_dsl_args(
      ev, n, {is_a ? "a_layout" : "b_layout", "mma_tiler_mnk", is_a ? "a_dtype" : "b_dtype", "num_stages"}, 4);
  const bool k_major = enum_arg(ev, *a[0], "LayoutEnum") == "ROW_MAJOR";  // is_k_major_a / is_k_major_b
  const std::vector<int64_t> mnk = ints_arg(ev, *a[1]);
  if (mnk.size() != 3) ev.fail(*a[1], "mma_tiler_mnk is (M, N, K)");
  const int64_t mn = is_a ? mnk[0] : mnk[1];
  return sm90_tiled_atom(ev, n, *a[0], dtype_arg(ev, *a[2]), k_major ? mnk[2] : mn,
                         tup(mn, mnk[2], ev.eval(*a[3]).as_int()), k_major ? tup(0, 1, 2) : tup(1, 0, 2));
}

// sm90_utils.make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage, smem_trg_shape=None, smem_order=None)
Value sm90_make_smem_layout_epi(Evaluator& ev, const Node& n) {
  auto a =
      bind_dsl_args(ev, n, {"epi_dtype", "epi_layout", "epi_tile", "epi_stage", "smem_trg_shape", "smem_order"}, 4);
  const bool m_major = enum_arg(ev, *a[1], "LayoutEnum") == "COL_MAJOR";  // is_m_major_c; ROW_MAJOR is N-major
  const std::vector<int64_t> tile = ints_arg(ev, *a[2]);
  if (tile.size() != 2) ev.fail(*a[2], "epi_tile is (M, N)");
  const IntTuple shape = a[4] ? ev.eval(*a[4]).to_int_tuple() : tup(tile[0], tile[1], ev.eval(*a[3]).as_int());
  const IntTuple order = a[5] ? ev.eval(*a[5]).to_int_tuple() : m_major ? tup(1, 0, 2) : tup(0, 1, 2);
  return sm90_tiled_atom(ev, n, *a[1], dtype_arg(ev, *a[0]), m_major ? tile[0] : tile[1], shape, order);
}

// sm100_utils.make_smem_layout(leading_mode, smem_tile_shape, a_dtype, num_stages)
Value sm100_make_smem_layout(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"leading_mode", "smem_tile_shape", "a_dtype", "num_stages"}, 4);
  const bool k_major = enum_arg(ev, *a[0], "OperandMajorMode") == "K";
  const ValueType t = dtype_arg(ev, *a[2]);
  const IntTuple tile = ev.eval(*a[1]).to_int_tuple();
  const int64_t stages = ev.eval(*a[3]).as_int();
  if (tile.is_leaf() || tile.rank() != 2) ev.fail(*a[1], "smem_tile_shape is (MN, K)");
  const int64_t bits = checked_mul(size(tile[k_major ? 1 : 0]), t.bits);
  AnyLayout atom = smem_layout_atom(ev, n, smem_atom_kind(!k_major, bits, !k_major && t.bits == 32), t);
  try {
    AnyLayout l = tile_to_shape(atom, tup(tile[0], tile[1], stages), k_major ? tup(0, 1, 2) : tup(1, 0, 2));
    return V::layout(coalesce(l, tup(1, 1, 1)));
  } catch (const Error& e) {
    ev.fail(n, n.name + ": " + e.what());
  }
}

// The layout CuTeDSL's tcgen05.tile_to_mma_shape gives: C++'s UMMA::tile_to_mma_shape, then
// coalesced to the MMA tile shape's profile (cute/nvgpu/tcgen05/helpers.py).
Value dsl_tile_to_mma_shape(Evaluator& ev, const Node& n, const AnyLayout& atom, const IntTuple& mma_shape,
                            const IntTuple* order) {
  try {
    return V::layout(coalesce(tile_to_mma_shape(atom, mma_shape, order), mma_shape));
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, n.name + ": " + e.what());
  }
}

// sm100_utils.make_smem_layout_a/b(tiled_mma, mma_tiler_mnk, dtype, num_stages, is_k_major=None):
// the operand's partition_shape of the MMA tile, the atom get_smem_layout_atom_ab picks for its
// (MN, K) extent, tile_to_mma_shape'd with the stages appended, the major mode first.
Value sm100_make_smem_layout_ab(Evaluator& ev, const Node& n, bool is_a) {
  auto a =
      bind_dsl_args(ev, n, {"tiled_mma", "mma_tiler_mnk", is_a ? "a_dtype" : "b_dtype", "num_stages", "is_k_major"}, 4);
  const TiledMma mma = tiled_mma_arg(ev, *a[0]);
  bool k_major = false;
  if (a[4]) {
    k_major = ev.eval(*a[4]).as_bool();
  } else {  // tiled_mma.op.a_major_mode == OperandMajorMode.K
    const std::string& major = is_a ? mma.atom.major_a : mma.atom.major_b;
    if (major.empty()) ev.fail(*a[0], mma.atom.name + " has no operand major mode: give is_k_major=True or False");
    k_major = major == "K";
  }
  const std::vector<int64_t> mnk = ints_arg(ev, *a[1]);
  if (mnk.size() != 3) ev.fail(*a[1], "mma_tiler_mnk is (M, N, K)");
  const ValueType t = dtype_arg(ev, *a[2]);
  const int64_t stages = ev.eval(*a[3]).as_int();
  IntTuple part;  // ((MMA_MN, MMA_K), MN_MMAs, K_MMAs): tiled_mma.partition_shape_A(dice(mma_tiler_mnk, (1, None, 1)))
  try {
    part = partition_shape(mma, is_a ? 'A' : 'B', tup(is_a ? mnk[0] : mnk[1], mnk[2]));
  } catch (const Error& e) {
    ev.fail(*a[1], n.name + ": " + e.what());
  }
  if (part.rank() != 3 || part[0].is_leaf() || part[0].rank() != 2)
    ev.fail(n, n.name + ": unexpected partition shape " + to_string(part));
  const IntTuple mn_k = tup(checked_mul(size(part[0][0]), size(part[1])), checked_mul(size(part[0][1]), size(part[2])));
  AnyLayout atom = smem_layout_atom(ev, n, sm100_atom_kind(ev, *a[1], k_major, t, mn_k), t);
  const IntTuple shape = tup(part[0], part[1], part[2], stages);
  const IntTuple order = k_major ? tup(1, 2, 3) : tup(2, 1, 3);
  return dsl_tile_to_mma_shape(ev, n, atom, shape, &order);
}

// sm100_utils.get_smem_layout_atom_epi's shape: each mode of epi_tile, a layout reduced to the
// contiguous run TMA can use (coalesce(right_inverse(x)).shape) or an integer.
IntTuple epi_tma_shape(Evaluator& ev, const Node& at, const Value& tile) {
  if (!tile.is(V::Kind::kTuple) || tile.elements().size() != 2)
    ev.fail(at, "epi_tile is (M, N): two integers or two layouts, got " + tile.describe());
  std::vector<IntTuple> modes;
  for (const auto& x : tile.elements())
    modes.push_back(x.is(V::Kind::kLayout) ? shape(coalesce(AnyLayout(right_inverse(x.to_layout()))))
                                           : x.to_int_tuple());
  return IntTuple::tuple(modes);
}

// product_each(shape(epi_tile)): an integer per mode
IntTuple epi_shape(const Value& tile) {
  std::vector<IntTuple> modes;
  for (const auto& x : tile.elements())
    modes.emplace_back(x.is(V::Kind::kLayout) ? size(x.to_layout()) : size(x.to_int_tuple()));
  return IntTuple::tuple(modes);
}

// sm100_utils.get_smem_layout_atom_epi(layout, element_type, epi_tile)
Value sm100_get_smem_layout_atom_epi(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"layout", "element_type", "epi_tile"}, 3);
  const bool m_major = enum_arg(ev, *a[0], "LayoutEnum") == "COL_MAJOR";  // is_m_major_c: MN-major, else K
  const ValueType t = dtype_arg(ev, *a[1]);
  return V::tag("SmemLayoutAtomKind." +
                sm100_atom_kind(ev, *a[2], !m_major, t, epi_tma_shape(ev, *a[2], ev.eval(*a[2]))));
}

// sm100_utils.make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage): the epilogue's
// atom tiled to (M, N, stages), M first for M-major C/D.
Value sm100_make_smem_layout_epi(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"epi_dtype", "epi_layout", "epi_tile", "epi_stage"}, 4);
  ValueType t = dtype_arg(ev, *a[0]);
  if (t.name == "bool") t = named_type("int8_t");  // Boolean is stored as Int8
  const bool m_major = enum_arg(ev, *a[1], "LayoutEnum") == "COL_MAJOR";
  const Value tile = ev.eval(*a[2]);
  AnyLayout atom = smem_layout_atom(ev, n, sm100_atom_kind(ev, *a[2], !m_major, t, epi_tma_shape(ev, *a[2], tile)), t);
  const IntTuple mn = epi_shape(tile);
  try {
    return V::layout(
        tile_to_shape(atom, tup(mn[0], mn[1], ev.eval(*a[3]).as_int()), m_major ? tup(1, 0, 2) : tup(0, 1, 2)));
  } catch (const Error& e) {
    ev.fail(n, n.name + ": " + e.what());
  }
}

// sm90_utils.get_smem_store_op(layout_d, elem_ty_d, elem_ty_acc): stmatrix x4 for 16-bit D
// (transposed for M-major D), else a universal copy.
Value sm90_get_smem_store_op(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"layout_d", "elem_ty_d", "elem_ty_acc"}, 3);
  const bool m_major = enum_arg(ev, *a[0], "LayoutEnum") == "COL_MAJOR";
  const ValueType d = dtype_arg(ev, *a[1]);
  dtype_arg(ev, *a[2]);
  const std::string op =
      d.bits == 16 ? (m_major ? "SM90_U16x8_STSM_T" : "SM90_U32x4_STSM_N") : "UniversalCopy<" + d.name + ">";
  try {
    return copy_atom_value(make_copy_atom(op, d));
  } catch (const Error& e) {
    ev.fail(n, n.name + ": " + e.what());
  }
}

// tcgen05.get_tmem_copy_properties of a TMEM load: (data paths, bits, repetitions, packed),
// read off the C++ name SM100_TMEM_LOAD_<dp>dp<bits>b<N>x[_16b]; false for anything else.
bool tmem_load_properties(const std::string& op, int64_t& dp, int64_t& bits, int64_t& rep, bool& packed) {
  const std::string prefix = "SM100_TMEM_LOAD_";
  if (op.rfind(prefix, 0) != 0) return false;
  // <dp>dp<bits>b<N>x: three numbers, each before its letters
  const char* at = op.c_str() + prefix.size();
  const char* const end = op.c_str() + op.size();
  for (auto [value, after] : {std::pair{&dp, "dp"}, std::pair{&bits, "b"}, std::pair{&rep, "x"}}) {
    auto [next, ec] = std::from_chars(at, end, *value);
    const size_t n = std::char_traits<char>::length(after);
    if (ec != std::errc() || static_cast<size_t>(end - next) < n || std::string_view(next, n) != after) return false;
    at = next + n;
  }
  packed = op.size() > 4 && op.compare(op.size() - 4, 4, "_16b") == 0;
  return true;
}

// sm100_utils.get_smem_store_op(layout_d, elem_ty_d, elem_ty_acc, tiled_tmem_load): the widest
// stmatrix whose registers match the TMEM load's (blackwell_helpers.py), else a universal copy.
Value sm100_get_smem_store_op(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"layout_d", "elem_ty_d", "elem_ty_acc", "tiled_tmem_load"}, 4);
  const bool m_major = enum_arg(ev, *a[0], "LayoutEnum") == "COL_MAJOR", n_major = !m_major;
  const ValueType d = dtype_arg(ev, *a[1]), acc = dtype_arg(ev, *a[2]);
  const Value load = ev.eval(*a[3]);
  const TiledCopy* tiled = as_tiled_copy(load);
  const CopyAtom* atom = tiled ? &tiled->atom : as_copy_atom(load);
  if (!atom) ev.fail(*a[3], "tiled_tmem_load is a TiledCopy (tcgen05.make_tmem_copy(...)), got " + load.describe());
  int64_t dp = 0, bits = 0, rep = 0;
  bool packed = false;
  std::string op = "UniversalCopy<" + d.name + ">";
  if (tmem_load_properties(atom->op, dp, bits, rep, packed)) {
    const bool plain = !packed, f32_acc = acc.bits == 32, dp16 = dp == 16;
    auto in = [](int64_t x, std::initializer_list<int64_t> set) {
      return std::find(set.begin(), set.end(), x) != set.end();
    };
    const bool m8n8_4x =
        (f32_acc && d.bits == 32 && n_major && dp16 && bits == 128 && in(rep, {2, 4, 8, 16, 32, 64}) && plain) ||
        (f32_acc && d.bits == 16 && dp16 && bits == 256 && in(rep, {2, 4, 8, 16, 32}) && plain) ||
        (acc.bits == 16 && d.bits == 16 && dp16 && bits == 128 && in(rep, {2, 4, 8, 16, 32, 64}) && packed);
    const bool m8n8_2x = (f32_acc && d.bits == 32 && n_major && dp16 && bits == 128 && rep == 1 && plain) ||
                         (f32_acc && d.bits == 16 && dp16 && bits == 256 && rep == 1 && plain) ||
                         (acc.bits == 16 && d.bits == 16 && dp16 && bits == 128 && rep == 1 && packed);
    const bool m16n8 = f32_acc && d.bits == 8 && m_major && dp16 && bits == 256 && plain;
    if (m8n8_4x) op = m_major ? "SM90_U16x8_STSM_T" : "SM90_U32x4_STSM_N";  // StMatrix8x8x16bOp(is_m_major, 4)
    else if (m8n8_2x) op = m_major ? "SM90_U16x4_STSM_T" : "SM90_U32x2_STSM_N";
    else if (m16n8 && in(rep, {4, 8, 16, 32})) op = "SM100_U8x16_STSM_T";  // StMatrix16x8x8bOp(transpose=True, 4)
    else if (m16n8 && rep == 2) op = "SM100_U8x8_STSM_T";
    else if (m16n8 && rep == 1) op = "SM100_U8x4_STSM_T";
  }
  try {
    return copy_atom_value(make_copy_atom(op, d));
  } catch (const Error& e) {
    ev.fail(n, n.name + ": " + e.what());
  }
}

void add_at(Registry& r, std::initializer_list<const char*> names, const Builtin& fn, const std::string& signature) {
  for (const char* name : names) r.add(name, fn, signature);
}

}  // namespace

void register_dsl_names(Registry& r) {
  // warp (mma.sync)
  r.add("cute.nvgpu.warp.MmaF16BF16Op", warp_f16bf16, "cute.nvgpu.warp.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk)");
  r.add("cute.nvgpu.warp.MmaTF32Op", warp_tf32, "cute.nvgpu.warp.MmaTF32Op(shape_mnk)");
  r.add("cute.nvgpu.warp.MmaFP8Op", warp_fp8, "cute.nvgpu.warp.MmaFP8Op(ab_dtype, acc_dtype, shape_mnk)");
  r.add("cute.nvgpu.warp.MmaMXF4Op", warp_block_scaled_same(64, 32),
        "cute.nvgpu.warp.MmaMXF4Op(ab_dtype, acc_dtype, sf_type)");
  r.add("cute.nvgpu.warp.MmaMXF4NVF4Op", warp_block_scaled_same(64, 16),
        "cute.nvgpu.warp.MmaMXF4NVF4Op(ab_dtype, acc_dtype, sf_type)");
  r.add("cute.nvgpu.warp.MmaMXF8Op", warp_block_scaled_same(32, 32),
        "cute.nvgpu.warp.MmaMXF8Op(ab_dtype, acc_dtype, sf_type)");
  r.add("cute.nvgpu.warp.MmaMXF8F6F4Op", warp_mxf8f6f4,
        "cute.nvgpu.warp.MmaMXF8F6F4Op(a_dtype, b_dtype, acc_dtype, sf_type)");
  // warpgroup (wgmma)
  r.add("cute.nvgpu.warpgroup.MmaF16BF16Op", warpgroup_f16bf16,
        "cute.nvgpu.warpgroup.MmaF16BF16Op(ab_dtype, acc_dtype, instruction_shape, a_src, a_major_mode, b_major_mode)");
  add_at(r, {"cute.nvgpu.warpgroup.MmaF8Op", "cute.nvgpu.warpgroup.MmaI8Op"}, warpgroup_8bit,
         "cute.nvgpu.warpgroup.MmaF8Op(a_dtype, b_dtype, acc_dtype, instruction_shape, a_src, a_major_mode, "
         "b_major_mode)");
  // tcgen05 (UMMA)
  const std::string umma = "instruction_shape, cta_group, a_src, a_major_mode, b_major_mode)";
  r.add("cute.nvgpu.tcgen05.MmaF16BF16Op", tcgen05_f16bf16,
        "cute.nvgpu.tcgen05.MmaF16BF16Op(ab_dtype, acc_dtype, " + umma);
  r.add("cute.nvgpu.tcgen05.MmaTF32Op", tcgen05_tf32, "cute.nvgpu.tcgen05.MmaTF32Op(" + umma);
  r.add("cute.nvgpu.tcgen05.MmaI8Op", tcgen05_i8, "cute.nvgpu.tcgen05.MmaI8Op(ab_dtype, " + umma);
  r.add("cute.nvgpu.tcgen05.MmaFP8Op", tcgen05_fp8, "cute.nvgpu.tcgen05.MmaFP8Op(ab_dtype, acc_dtype, " + umma);
  r.add("cute.nvgpu.tcgen05.MmaF8F6F4Op", tcgen05_f8f6f4,
        "cute.nvgpu.tcgen05.MmaF8F6F4Op(a_dtype, b_dtype, acc_dtype, " + umma);
  r.add("cute.nvgpu.tcgen05.MmaMXF8Op", tcgen05_mxf8, "cute.nvgpu.tcgen05.MmaMXF8Op(ab_dtype, " + umma);
  r.add("cute.nvgpu.tcgen05.MmaMXF8F6F4Op", tcgen05_mxf8f6f4,
        "cute.nvgpu.tcgen05.MmaMXF8F6F4Op(a_dtype, b_dtype, " + umma);
  r.add("cute.nvgpu.tcgen05.MmaMXF4Op", tcgen05_mxf4,
        "cute.nvgpu.tcgen05.MmaMXF4Op(instruction_shape, cta_group, a_src)");
  r.add("cute.nvgpu.tcgen05.MmaMXF4NVF4Op", tcgen05_mxf4nvf4,
        "cute.nvgpu.tcgen05.MmaMXF4NVF4Op(sf_dtype, instruction_shape, cta_group, a_src)");
  // copy Ops
  r.add("cute.nvgpu.CopyUniversalOp", universal_copy, "cute.nvgpu.CopyUniversalOp()");
  for (const char* op : {"CopyG2ROp", "CopyR2GOp", "CopyS2ROp", "CopyR2SOp"})
    r.add(std::string("cute.nvgpu.") + op, memory_copy, std::string("cute.nvgpu.") + op + "()");
  r.add("cute.nvgpu.MmaUniversalOp", universal_fma, "cute.nvgpu.MmaUniversalOp(abacc_dtype)");
  // tcgen05 TMEM loads and stores (tcgen05/copy.py): the Op's shape is C++'s data-path shape
  for (auto [dsl, cpp] : {std::pair<const char*, const char*>{"32x32b", "32dp32b"},
                          {"16x32bx2", "16dp32b"},
                          {"16x64b", "16dp64b"},
                          {"16x128b", "16dp128b"},
                          {"16x256b", "16dp256b"}}) {
    r.add(std::string("cute.nvgpu.tcgen05.Ld") + dsl + "Op", tmem_copy("LOAD", cpp),
          std::string("cute.nvgpu.tcgen05.Ld") + dsl + "Op(repeat=Repetition.x1, pack=Pack.NONE)");
    r.add(std::string("cute.nvgpu.tcgen05.St") + dsl + "Op", tmem_copy("STORE", cpp),
          std::string("cute.nvgpu.tcgen05.St") + dsl + "Op(repeat=Repetition.x1, unpack=Unpack.NONE)");
  }
  r.add(
      "cute.nvgpu.tcgen05.make_tmem_copy",
      [](Evaluator& ev, const Node& n) {  // C++ make_tmem_copy(atom, tmem_tensor)
        auto a = bind_dsl_args(ev, n, {"atom", "tmem_tensor"}, 2);
        copy_atom_arg(ev, *a[0]);  // the DSL's own message for an Op without an element type
        return ev.eval(cpp_call(n, "make_tmem_copy", {a[0], a[1]}));
      },
      "cute.nvgpu.tcgen05.make_tmem_copy(atom, tmem_tensor)");
  r.add("cute.nvgpu.cpasync.CopyG2SOp", cp_async, "cute.nvgpu.cpasync.CopyG2SOp(cache_mode=LoadCacheMode.ALWAYS)");
  r.add(
      "cute.nvgpu.warp.LdMatrix8x8x16bOp",
      [](Evaluator& ev, const Node& n) {  // ldmatrix .m8n8 .b16
        return matrix_copy(ev, n, [](bool t, int64_t c, int64_t u) { return u ? "" : ldsm_8x8(t, c); });
      },
      "cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose=False, num_matrices=1)");
  r.add(
      "cute.nvgpu.warp.LdMatrix8x16x8bOp",
      [](Evaluator& ev, const Node& n) {  // ldmatrix .m8n16, unpacking 4b/6b to 8b
        return matrix_copy(ev, n, [](bool t, int64_t c, int64_t u) -> std::string {
          if (t) return "";
          if (u == 0) return ldsm_8x8(false, c);  // without unpacking it is LdMatrix8x8x16b (CuTeDSL's own rule)
          if (u != 4 && u != 6) return "";
          std::string x = pick(c, {{1, "x1"}, {2, "x2"}, {4, "x4"}});
          return x.empty() ? "" : "SM100_SU" + std::to_string(u) + "_DU8x16_" + x + "_LDSM_N";
        });
      },
      "cute.nvgpu.warp.LdMatrix8x16x8bOp(num_matrices=1, unpack_bits=None)");
  r.add(
      "cute.nvgpu.warp.StMatrix8x8x16bOp",
      [](Evaluator& ev, const Node& n) {  // stmatrix .m8n8 .b16
        return matrix_copy(ev, n, [](bool t, int64_t c, int64_t u) -> std::string {
          if (u) return "";
          return t ? pick(c, {{1, "SM90_U16x2_STSM_T"}, {2, "SM90_U16x4_STSM_T"}, {4, "SM90_U16x8_STSM_T"}})
                   : pick(c, {{1, "SM90_U32x1_STSM_N"}, {2, "SM90_U32x2_STSM_N"}, {4, "SM90_U32x4_STSM_N"}});
        });
      },
      "cute.nvgpu.warp.StMatrix8x8x16bOp(transpose=False, num_matrices=1)");
  // ldmatrix .m16n16 .trans .b8 with the register permutation that matches stmatrix .m16n8
  // .trans: C++'s SM100_U8x8_LDSM_T / SM100_U8x16_LDSM_T (their copy() permutes the bytes).
  // num_matrices counts 16x8 matrices: an m16n16 .x1 is two.
  r.add(
      "cute.nvgpu.warp.LdMatrix16x8x8bOp",
      [](Evaluator& ev, const Node& n) {
        return matrix_copy(ev, n, [](bool t, int64_t c, int64_t u) {
          return t && !u ? pick(c, {{2, "SM100_U8x8_LDSM_T"}, {4, "SM100_U8x16_LDSM_T"}}) : "";
        });
      },
      "cute.nvgpu.warp.LdMatrix16x8x8bOp(transpose=True, num_matrices=2)");
  // ldmatrix .m16n16 .trans .b8 as PTX gives it, without that permutation (CUTLASS 4.x renamed
  // the permuted Op LdMatrix16x8x8bOp): CuTe C++ has no such atom.
  r.add(
      "cute.nvgpu.warp.LdMatrix16x16x8bOp",
      [](Evaluator& ev, const Node& n) {
        ev.fail(n,
                "cute.nvgpu.warp.LdMatrix16x16x8bOp is ldmatrix.m16n16.trans without CuTe C++'s register permutation, "
                "which no C++ atom "
                "models; CuTe C++'s SM100_U8x8_LDSM_T / SM100_U8x16_LDSM_T are "
                "cute.nvgpu.warp.LdMatrix16x8x8bOp(transpose=True, num_matrices=2 or 4)");
        return Value();
      },
      "cute.nvgpu.warp.LdMatrix16x16x8bOp(transpose=True, num_matrices=1)");
  r.add(
      "cute.nvgpu.warp.StMatrix16x8x8bOp",
      [](Evaluator& ev, const Node& n) {  // stmatrix .m16n8 .trans .b8
        return matrix_copy(ev, n, [](bool t, int64_t c, int64_t u) -> std::string {
          return t && !u ? pick(c, {{1, "SM100_U8x4_STSM_T"}, {2, "SM100_U8x8_STSM_T"}, {4, "SM100_U8x16_STSM_T"}})
                         : "";
        });
      },
      "cute.nvgpu.warp.StMatrix16x8x8bOp(transpose=True, num_matrices=1)");
  // atoms and tilings (cute/atom.py)
  r.add(
      "cute.make_mma_atom",
      [](Evaluator& ev, const Node& n) {
        auto a = bind_dsl_args(ev, n, {"op"}, 1);
        Value op = ev.eval(*a[0]);
        return mma_atom_value(mma_atom_arg(ev, *a[0], op));
      },
      "cute.make_mma_atom(op)");
  r.add(
      "cute.make_tiled_mma",
      [](Evaluator& ev, const Node& n) {
        auto a = bind_dsl_args(ev, n, {"op_or_atom", "atom_layout_mnk", "permutation_mnk"}, 1);
        const MmaAtom atom = mma_atom_arg(ev, *a[0], ev.eval(*a[0]));
        return tiled_mma_value(dsl_tiled_mma(ev, n, atom, a[1], a[2]));
      },
      "cute.make_tiled_mma(op_or_atom, atom_layout_mnk=(1, 1, 1), permutation_mnk=None)");
  r.add("cute.make_copy_atom", make_copy_atom_value,
        "cute.make_copy_atom(op, copy_internal_type, num_bits_per_copy=...)");
  r.add(
      "cute.make_tiled_copy_tv",
      [](Evaluator& ev, const Node& n) {  // C++ make_tiled_copy(atom, thr, val)
        auto a = bind_dsl_args(ev, n, {"atom", "thr_layout", "val_layout"}, 3);
        return tiled_copy_value(
            make_tiled_copy(copy_atom_arg(ev, *a[0]), ev.eval(*a[1]).to_layout(), ev.eval(*a[2]).to_layout()));
      },
      "cute.make_tiled_copy_tv(atom, thr_layout, val_layout)");
  r.add(
      "cute.make_tiled_copy",
      [](Evaluator& ev, const Node& n) {  // C++ make_tiled_copy_impl(atom, layout_tv, tiler)
        auto a = bind_dsl_args(ev, n, {"atom", "layout_tv", "tiler_mn"}, 3);
        return ev.eval(cpp_call(n, "make_tiled_copy_impl", {a[0], a[1], a[2]}));
      },
      "cute.make_tiled_copy(atom, layout_tv, tiler_mn)");
  for (const char* which : {"A", "B", "C", "C_atom"}) {
    const std::string cpp = std::string("make_tiled_copy_") + which;
    r.add(
        "cute." + cpp,
        [cpp](Evaluator& ev, const Node& n) {
          auto a = bind_dsl_args(ev, n, {"atom", "tiled_mma"}, 2);
          tiled_mma_arg(ev, *a[1]);  // the DSL's own message for a wrong argument
          return ev.eval(cpp_call(n, cpp, {a[0], a[1]}));
        },
        "cute." + cpp + "(atom, tiled_mma)");
  }
  for (const char* which : {"S", "D"}) {
    const std::string cpp = std::string("make_tiled_copy_") + which;
    r.add(
        "cute." + cpp,
        [cpp](Evaluator& ev, const Node& n) {
          auto a = bind_dsl_args(ev, n, {"atom", "tiled_copy"}, 2);
          return ev.eval(cpp_call(n, cpp, {a[0], a[1]}));
        },
        "cute." + cpp + "(atom, tiled_copy)");
  }
  // utils: the SM90 / SM100 helpers
  r.add("sm90_utils.make_trivial_tiled_mma", sm90_trivial_tiled_mma,
        "sm90_utils.make_trivial_tiled_mma(a_dtype, b_dtype, a_leading_mode, b_leading_mode, acc_dtype, "
        "atom_layout_mnk, tiler_mn, a_source=SMEM)");
  r.add("sm100_utils.make_trivial_tiled_mma", sm100_trivial_tiled_mma,
        "sm100_utils.make_trivial_tiled_mma(a_dtype, b_dtype, a_leading_mode, b_leading_mode, acc_dtype, cta_group, "
        "mma_tiler_mn, a_source=SMEM)");
  r.add("sm100_utils.make_blockscaled_trivial_tiled_mma", sm100_blockscaled_tiled_mma,
        "sm100_utils.make_blockscaled_trivial_tiled_mma(a_dtype, b_dtype, a_leading_mode, b_leading_mode, sf_dtype, "
        "sf_vec_size, cta_group, mma_tiler_mn, a_source=SMEM)");
  r.add("sm90_utils.get_smem_layout_atom", sm90_get_smem_layout_atom,
        "sm90_utils.get_smem_layout_atom(layout, element_type, major_mode_size)");
  r.add("sm100_utils.get_smem_layout_atom_ab", sm100_get_smem_layout_atom_ab,
        "sm100_utils.get_smem_layout_atom_ab(major_mode, element_type, smem_shape_mn_k)");
  r.add(
      "sm90_utils.make_smem_layout_a", [](Evaluator& ev, const Node& n) { return sm90_make_smem_layout(ev, n, true); },
      "sm90_utils.make_smem_layout_a(a_layout, mma_tiler_mnk, a_dtype, num_stages)");
  r.add(
      "sm90_utils.make_smem_layout_b", [](Evaluator& ev, const Node& n) { return sm90_make_smem_layout(ev, n, false); },
      "sm90_utils.make_smem_layout_b(b_layout, mma_tiler_mnk, b_dtype, num_stages)");
  r.add("sm90_utils.make_smem_layout_epi", sm90_make_smem_layout_epi,
        "sm90_utils.make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage, smem_trg_shape=None, "
        "smem_order=None)");
  r.add("sm100_utils.make_smem_layout", sm100_make_smem_layout,
        "sm100_utils.make_smem_layout(leading_mode, smem_tile_shape, a_dtype, num_stages)");
  r.add(
      "sm100_utils.make_smem_layout_a",
      [](Evaluator& ev, const Node& n) { return sm100_make_smem_layout_ab(ev, n, true); },
      "sm100_utils.make_smem_layout_a(tiled_mma, mma_tiler_mnk, a_dtype, num_stages, is_k_major=None)");
  r.add(
      "sm100_utils.make_smem_layout_b",
      [](Evaluator& ev, const Node& n) { return sm100_make_smem_layout_ab(ev, n, false); },
      "sm100_utils.make_smem_layout_b(tiled_mma, mma_tiler_mnk, b_dtype, num_stages, is_k_major=None)");
  r.add("sm100_utils.get_smem_layout_atom_epi", sm100_get_smem_layout_atom_epi,
        "sm100_utils.get_smem_layout_atom_epi(layout, element_type, epi_tile)");
  r.add("sm100_utils.make_smem_layout_epi", sm100_make_smem_layout_epi,
        "sm100_utils.make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage)");
  r.add("sm100_utils.get_smem_store_op", sm100_get_smem_store_op,
        "sm100_utils.get_smem_store_op(layout_d, elem_ty_d, elem_ty_acc, tiled_tmem_load)");
  r.add("sm90_utils.get_smem_store_op", sm90_get_smem_store_op,
        "sm90_utils.get_smem_store_op(layout_d, elem_ty_d, elem_ty_acc)");
  r.add(
      "cute.nvgpu.tcgen05.tile_to_mma_shape",
      [](Evaluator& ev, const Node& n) {
        auto a = bind_dsl_args(ev, n, {"atom", "mma_tile_shape", "order"}, 2);
        const AnyLayout atom = ev.eval(*a[0]).to_any_layout();
        const IntTuple shape = ev.eval(*a[1]).to_int_tuple();
        if (!a[2]) return dsl_tile_to_mma_shape(ev, n, atom, shape, nullptr);
        const IntTuple order = ev.eval(*a[2]).to_int_tuple();
        if (shape.is_leaf() || order.is_leaf() || order.rank() + 1 != shape.rank())
          ev.fail(*a[2],
                  "rank(order) must be rank(mma_tile_shape) - 1, got " + to_string(order) + " for " + to_string(shape));
        return dsl_tile_to_mma_shape(ev, n, atom, shape, &order);
      },
      "cute.nvgpu.tcgen05.tile_to_mma_shape(atom, mma_tile_shape, order=None)");
  add_at(
      r, {"cute.nvgpu.warpgroup.make_smem_layout_atom", "cute.nvgpu.tcgen05.make_smem_layout_atom"},
      [](Evaluator& ev, const Node& n) {
        auto a = bind_dsl_args(ev, n, {"kind", "element_type"}, 2);
        return V::layout(smem_layout_atom(ev, *a[0], enum_arg(ev, *a[0], "SmemLayoutAtomKind"), dtype_arg(ev, *a[1])));
      },
      "make_smem_layout_atom(kind, element_type)");
  register_dsl_attributes(r);
  register_dsl_tma(r);
}

}  // namespace cutevis
