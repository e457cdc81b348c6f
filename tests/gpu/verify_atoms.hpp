// Atoms for verify's tests, written from CUTLASS's MMA_Traits / arch structs (layouts
// in CuTe notation), so the tests run where the reference data and the catalogue are
// not at hand (the GPU machine).  Also the deliberately wrong layouts the tests feed in.
#pragma once

#include <string>

#include "atoms/copy_atom.hpp"
#include "atoms/mma_atom.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis::test {

inline Layout layout_of(const std::string& text) { return evaluate_expression(text).to_layout(); }

inline ValueType value_type_of(const std::string& name) {
  ValueType t;
  if (!lookup_value_type(name, t)) throw Error("test: unknown type " + name);
  return t;
}

struct AtomSpec {
  std::string name, family, ptx;
  int sm;
  std::string shape, thr, a, b, c;
  std::string ta, tb, tc;
  RegisterSpec rd, ra, rb, rc;
};

inline MmaAtom make_test_atom(const AtomSpec& s) {
  MmaAtom atom;
  atom.name = atom.short_name = s.name;
  atom.family = s.family;
  atom.sm = s.sm;
  atom.shape_mnk = evaluate_expression(s.shape).to_int_tuple();
  atom.thr_id = layout_of(s.thr);
  atom.layout_a = layout_of(s.a);
  atom.layout_b = layout_of(s.b);
  atom.layout_c = layout_of(s.c);
  atom.type_a = value_type_of(s.ta);
  atom.type_b = value_type_of(s.tb);
  atom.type_c = atom.type_d = value_type_of(s.tc);
  atom.ptx = s.ptx;
  atom.regs_d = s.rd;
  atom.regs_a = s.ra;
  atom.regs_b = s.rb;
  atom.regs_c = s.rc;
  return atom;
}

// (T32,V8) -> (M16,K16)
inline MmaAtom sm80_16x8x16_f32f16() {
  return make_test_atom({"SM80_16x8x16_F32F16F16F32_TN",
                         "SM80",
                         "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                         80,
                         "(16,8,16)",
                         "32:1",
                         "((4,8),(2,2,2)):((32,1),(16,8,128))",
                         "((4,8),(2,2)):((16,1),(8,64))",
                         "((4,8),(2,2)):((32,1),(16,8))",
                         "half_t",
                         "half_t",
                         "float",
                         {"float", 4},
                         {"uint32_t", 4},
                         {"uint32_t", 2},
                         {"float", 4}});
}

inline MmaAtom sm80_16x8x16_f32bf16() {
  MmaAtom a = sm80_16x8x16_f32f16();
  a.name = a.short_name = "SM80_16x8x16_F32BF16BF16F32_TN";
  a.ptx = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
  a.type_a = a.type_b = value_type_of("bfloat16_t");
  return a;
}

inline MmaAtom sm75_16x8x8_f16f16() {
  return make_test_atom({"SM75_16x8x8_F16F16F16F16_TN",
                         "SM75",
                         "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16",
                         75,
                         "(16,8,8)",
                         "32:1",
                         "((4,8),(2,2)):((32,1),(16,8))",
                         "((4,8),2):((16,1),8)",
                         "((4,8),(2,2)):((32,1),(16,8))",
                         "half_t",
                         "half_t",
                         "half_t",
                         {"uint32_t", 2},
                         {"uint32_t", 2},
                         {"uint32_t", 1},
                         {"uint32_t", 2}});
}

inline MmaAtom sm80_16x8x8_tf32() {
  return make_test_atom({"SM80_16x8x8_F32TF32TF32F32_TN",
                         "SM80",
                         "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                         80,
                         "(16,8,8)",
                         "32:1",
                         "((4,8),(2,2)):((16,1),(8,64))",
                         "((4,8),2):((8,1),32)",
                         "((4,8),(2,2)):((32,1),(16,8))",
                         "tfloat32_t",
                         "tfloat32_t",
                         "float",
                         {"float", 4},
                         {"uint32_t", 4},
                         {"uint32_t", 2},
                         {"float", 4}});
}

inline MmaAtom sm80_8x8x4_f64() {
  return make_test_atom({"SM80_8x8x4_F64F64F64F64_TN",
                         "SM80",
                         "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64",
                         80,
                         "(8,8,4)",
                         "32:1",
                         "((4,8),1):((8,1),0)",
                         "((4,8),1):((8,1),0)",
                         "((4,8),2):((16,1),8)",
                         "double",
                         "double",
                         "double",
                         {"double", 2},
                         {"double", 1},
                         {"double", 1},
                         {"double", 2}});
}

inline MmaAtom sm80_16x8x32_s4() {
  return make_test_atom({"SM80_16x8x32_S32S4S4S32_TN_SATURATE",
                         "SM80",
                         "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32.satfinite",
                         80,
                         "(16,8,32)",
                         "32:1",
                         "((4,8),(8,2)):((128,1),(16,8))",
                         "((4,8),8):((64,1),8)",
                         "((4,8),(2,2)):((32,1),(16,8))",
                         "int4b_t",
                         "int4b_t",
                         "int32_t",
                         {"uint32_t", 4},
                         {"uint32_t", 2},
                         {"uint32_t", 1},
                         {"uint32_t", 4}});
}

inline MmaAtom sm80_8x8x128_b1_xor() {
  return make_test_atom({"SM80_8x8x128_S32U1U1S32_TN_XORPOPC",
                         "SM80",
                         "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc",
                         80,
                         "(8,8,128)",
                         "32:1",
                         "((4,8),32):((256,1),8)",
                         "((4,8),32):((256,1),8)",
                         "((4,8),2):((16,1),8)",
                         "uint1b_t",
                         "uint1b_t",
                         "int32_t",
                         {"uint32_t", 2},
                         {"uint32_t", 1},
                         {"uint32_t", 1},
                         {"uint32_t", 2}});
}

inline MmaAtom sm80_8x8x16_u8s8() {
  return make_test_atom({"SM80_8x8x16_S32U8S8S32_TN",
                         "SM80",
                         "mma.sync.aligned.m8n8k16.row.col.s32.u8.s8.s32",
                         80,
                         "(8,8,16)",
                         "32:1",
                         "((4,8),4):((32,1),8)",
                         "((4,8),4):((32,1),8)",
                         "((4,8),2):((16,1),8)",
                         "uint8_t",
                         "int8_t",
                         "int32_t",
                         {"uint32_t", 2},
                         {"uint32_t", 1},
                         {"uint32_t", 1},
                         {"uint32_t", 2}});
}

inline MmaAtom sm89_16x8x32_e4m3() {
  return make_test_atom({"SM89_16x8x32_F32E4M3E4M3F32_TN",
                         "SM89",
                         "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
                         89,
                         "(16,8,32)",
                         "32:1",
                         "((4,8),(4,2,2)):((64,1),(16,8,256))",
                         "((4,8),(4,2)):((32,1),(8,128))",
                         "((4,8),(2,2)):((32,1),(16,8))",
                         "float_e4m3_t",
                         "float_e4m3_t",
                         "float",
                         {"float", 4},
                         {"uint32_t", 4},
                         {"uint32_t", 2},
                         {"float", 4}});
}

inline MmaAtom sm89_16x8x32_e5m2_f16() {
  return make_test_atom({"SM89_16x8x32_F16E5M2E4M3F16_TN",
                         "SM89",
                         "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16",
                         89,
                         "(16,8,32)",
                         "32:1",
                         "((4,8),(4,2,2)):((64,1),(16,8,256))",
                         "((4,8),(4,2)):((32,1),(8,128))",
                         "((4,8),(2,2)):((32,1),(16,8))",
                         "float_e5m2_t",
                         "float_e4m3_t",
                         "half_t",
                         {"uint32_t", 2},
                         {"uint32_t", 4},
                         {"uint32_t", 2},
                         {"uint32_t", 2}});
}

// (T8,V4) -> (M8,K4), ThrID = the quad-pair lanes 0-3 and 16-19
inline MmaAtom sm70_8x8x4_nt() {
  return make_test_atom({"SM70_8x8x4_F32F16F16F32_NT",
                         "SM70",
                         "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32",
                         70,
                         "(8,8,4)",
                         "(4,2):(1,16)",
                         "((4,2),4):((8,4),1)",
                         "((4,2),4):((8,4),1)",
                         "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))",
                         "half_t",
                         "half_t",
                         "float",
                         {"float", 8},
                         {"uint32_t", 2},
                         {"uint32_t", 2},
                         {"float", 8}});
}

inline MmaAtom sm61_dp4a() {
  return make_test_atom({"SM61_DP4A",
                         "SM61",
                         "dp4a.s32.s32",
                         61,
                         "(1,1,4)",
                         "1:0",
                         "(1,4):(0,1)",
                         "(1,4):(0,1)",
                         "(1,1):(0,0)",
                         "int8_t",
                         "int8_t",
                         "int32_t",
                         {"int32_t", 1},
                         {"uint32_t", 1},
                         {"uint32_t", 1},
                         {"int32_t", 1}});
}

// GMMA 64xN: C layout ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)); A/B in shared memory
// are owned by all 128 threads, A in registers (RS) by CuTe's ALayout_64xK.
inline MmaAtom make_gmma(const std::string& name, const std::string& ptx, int n, int k, bool ss, const std::string& ta,
                         const std::string& tc, const std::string& rs_a, const std::string& c_reg_type, int c_regs) {
  const std::string nn = std::to_string(n), kk = std::to_string(k);
  MmaAtom atom;
  atom.name = atom.short_name = name;
  atom.family = "SM90_GMMA";
  atom.sm = 90;
  atom.shape_mnk = evaluate_expression("(64," + nn + "," + kk + ")").to_int_tuple();
  atom.thr_id = layout_of("128:1");
  atom.layout_a = layout_of(ss ? "(128,(64," + kk + ")):(0,(1,64))" : rs_a);
  atom.layout_b = layout_of("(128,(" + nn + "," + kk + ")):(0,(1," + nn + "))");
  atom.layout_c = layout_of("((4,8,4),(2,2," + std::to_string(n / 8) + ")):((128,1,16),(64,8,512))");
  atom.type_a = atom.type_b = value_type_of(ta);
  atom.type_c = atom.type_d = value_type_of(tc);
  atom.ptx = ptx;
  atom.regs_a.c_type = ss ? "uint64_t" : "uint32_t";
  atom.regs_a.count = ss ? 1 : 4;
  atom.regs_b.c_type = "uint64_t";
  atom.regs_b.count = 1;
  atom.regs_c.c_type = c_reg_type;
  atom.regs_c.count = c_regs;
  atom.source_a = ss ? OperandSource::kSharedMemory : OperandSource::kRegister;
  atom.source_b = OperandSource::kSharedMemory;
  return atom;
}

// GMMA 64xNx16 F32+=F16*F16, SS or RS, majors "K"/"MN".
inline MmaAtom sm90_gmma_f32f16(int n, bool ss, const std::string& major_a = "K", const std::string& major_b = "K") {
  std::string nn = std::to_string(n);
  MmaAtom a = make_gmma("SM90_64x" + nn + "x16_F32F16F16_" + (ss ? "SS" : "RS") + "<" + major_a + "," + major_b + ">",
                        "wgmma.mma_async.sync.aligned.m64n" + nn + "k16.f32.f16.f16", n, 16, ss, "half_t", "float",
                        "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))", "float", n / 2);
  a.major_a = major_a;
  a.major_b = major_b;
  return a;
}

// GMMA 64xNx32 S32+=S8*S8 (K-major only)
inline MmaAtom sm90_gmma_s8(int n, bool ss) {
  std::string nn = std::to_string(n);
  MmaAtom a = make_gmma("SM90_64x" + nn + "x32_S32S8S8_" + std::string(ss ? "SS" : "RS") + "_TN",
                        "wgmma.mma_async.sync.aligned.m64n" + nn + "k32.s32.s8.s8", n, 32, ss, "int8_t", "int32_t",
                        "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))", "uint32_t", n / 2);
  a.major_a = a.major_b = "K";
  return a;
}

// --- copy atoms (CuTe's Copy_Traits in bits) -----------------------------------------------
inline CopyAtom ldsm_n(int x) {
  CopyAtom a;
  a.op = "SM75_U32x" + std::to_string(x) + "_LDSM_N";
  a.name = "Copy_Atom<" + a.op + ", half_t>";
  a.family = "SM75_LDSM";
  a.sm = 75;
  a.value_type = value_type_of("half_t");
  a.thr_id = layout_of("32:1");
  a.src_layout_bits = layout_of(x == 4   ? "(32,128):(128,1)"
                                : x == 2 ? "((16,2),128):((128,0),1)"
                                         : "((8,4),128):((128,0),1)");
  a.dst_layout_bits = layout_of(x == 1 ? "(32,32):(32,1)" : "(32,(32," + std::to_string(x) + ")):(32,(1,1024))");
  a.ref_layout_bits = a.dst_layout_bits;
  a.ptx = "ldmatrix.sync.aligned.x" + std::to_string(x) + ".m8n8.shared.b16 {%0}, [%1];";
  a.regs_src = {"uint128_t", 1};
  a.regs_dst = {"uint32_t", x};
  return a;
}

inline CopyAtom ldsm_t(int x) {  // SM75_U16x{2x}_LDSM_T
  CopyAtom a = ldsm_n(x);
  a.op = "SM75_U16x" + std::to_string(2 * x) + "_LDSM_T";
  a.name = "Copy_Atom<" + a.op + ", half_t>";
  a.dst_layout_bits = layout_of(x == 4   ? "((4,8),(16,2,4)):((256,16),(1,128,1024))"
                                : x == 2 ? "((4,8),(16,2,2)):((256,16),(1,128,1024))"
                                         : "((4,8),(16,2)):((256,16),(1,128))");
  a.ref_layout_bits = a.dst_layout_bits;
  a.ptx = "ldmatrix.sync.aligned.x" + std::to_string(x) + ".trans.m8n8.shared.b16 {%0}, [%1];";
  return a;
}

inline CopyAtom stsm_n(int x) {
  CopyAtom l = ldsm_n(x), a = l;
  a.op = "SM90_U32x" + std::to_string(x) + "_STSM_N";
  a.name = "Copy_Atom<" + a.op + ", half_t>";
  a.family = "SM90_STSM";
  a.sm = 90;
  a.src_layout_bits = l.dst_layout_bits;
  a.dst_layout_bits = l.src_layout_bits;
  a.ref_layout_bits = a.src_layout_bits;
  a.ptx = "stmatrix.sync.aligned.x" + std::to_string(x) + ".m8n8.shared.b16 [%0], {%1};";
  a.regs_src = {"uint32_t", x};
  a.regs_dst = {"uint128_t", 1};
  return a;
}

inline CopyAtom stsm_t(int x) {
  CopyAtom l = ldsm_t(x), a = stsm_n(x);
  a.op = "SM90_U16x" + std::to_string(2 * x) + "_STSM_T";
  a.name = "Copy_Atom<" + a.op + ", half_t>";
  a.src_layout_bits = l.dst_layout_bits;
  a.ref_layout_bits = a.src_layout_bits;
  a.ptx = "stmatrix.sync.aligned.x" + std::to_string(x) + ".trans.m8n8.shared.b16 [%0], {%1};";
  return a;
}

}  // namespace cutevis::test
