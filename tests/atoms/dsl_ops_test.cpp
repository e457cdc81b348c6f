// CuTeDSL's Ops, atoms, tilings and helpers (atoms/dsl_ops.cpp) build the same objects as their
// C++ CuTe spelling: the same atom, the same TV layouts, the same tiles.  The C++ side is the
// catalogue, itself checked against real CuTe (tests/atoms/*_reference_test.cpp); where
// CuTeDSL builds something of its own (the SMEM layout helpers), tests/data/dsl_oracle.jsonl
// holds what real C++ CuTe gives for the same construction.
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/dsl.hpp"

using namespace cutevis;

namespace {

Registry& dsl_registry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    register_algebra(*reg);
    register_dsl_algebra(*reg);
    register_mma_names(*reg);
    register_copy_names(*reg);
    register_cpp_atom_names(*reg);  // partition_shape_A, get_layoutA_TV, tile_size: the C++ spellings compared with
    register_dsl_names(*reg);
    return reg;
  }();
  return *r;
}

Value eval(const std::string& text, Syntax syntax = Syntax::kAuto) {
  return evaluate_expression(text, dsl_registry(), syntax);
}

std::string error_of(const std::string& text) {
  try {
    eval(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// What a TiledMMA is: its print (atom, ThrLayoutVMNK, permutation) and its three TV layouts.
std::string tiled_mma_text(const Value& v) {
  const TiledMma* m = as_tiled_mma(v);
  if (!m) {
    const MmaAtom* a = as_mma_atom(v);
    REQUIRE(a);
    return to_string(*a);
  }
  return to_string(*m) + "\nA " + to_string(m->tv_layout_a) + "\nB " + to_string(m->tv_layout_b) + "\nC " +
         to_string(m->tv_layout_c) + "\ntile " + to_string(m->tile_mnk);
}

std::string tiled_copy_text(const Value& v) {
  if (const CopyAtom* a = as_copy_atom(v)) return to_string(*a);
  const TiledCopy* c = as_tiled_copy(v);
  REQUIRE(c);
  return to_string(*c) + "\nS " + to_string(c->layout_s_tv) + "\nD " + to_string(c->layout_d_tv);
}

const char* const kOpK = "cute.nvgpu.OperandMajorMode.K";
const char* const kOpMN = "cute.nvgpu.OperandMajorMode.MN";

}  // namespace

TEST_CASE("CuTeDSL MMA Ops are the catalogue's atoms") {
  const std::pair<std::string, std::string> same[] = {
      {"cute.make_mma_atom(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)))",
       "SM80_16x8x16_F32F16F16F32_TN{}"},
      {"cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float16, (16, 8, 8))", "SM80_16x8x8_F16F16F16F16_TN{}"},
      {"cute.nvgpu.warp.MmaF16BF16Op(ab_dtype=cutlass.BFloat16, acc_dtype=cutlass.Float32, shape_mnk=(16, 8, 16))",
       "SM80_16x8x16_F32BF16BF16F32_TN{}"},
      {"cute.nvgpu.warp.MmaTF32Op((16, 8, 8))", "SM80_16x8x8_F32TF32TF32F32_TN{}"},
      {"cute.nvgpu.warp.MmaFP8Op(cutlass.Float8E4M3FN, cutlass.Float32, (16, 8, 32))",
       "SM89_16x8x32_F32E4M3E4M3F32_TN{}"},
      {"warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16))",
       "SM80_16x8x16_F32F16F16F32_TN{}"},  // from cutlass.cute.nvgpu import warp
      {"cute.make_mma_atom(cute.nvgpu.MmaUniversalOp(cutlass.Float32))", "UniversalFMA<float,float,float,float>{}"},
      {"cute.nvgpu.MmaUniversalOp(abacc_dtype=cutlass.Float64)", "UniversalFMA<double,double,double>{}"},
      {"warp.MmaMXF4Op(cutlass.Float4E2M1FN, cutlass.Float32, cutlass.Float8E8M0FNU)",
       "SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,32>{}"},
      {"warp.MmaMXF4NVF4Op(cutlass.Float4E2M1FN, cutlass.Float32, cutlass.Float8E4M3FN)",
       "SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,16>{}"},
      {"warp.MmaMXF8Op(cutlass.Float8E4M3FN, cutlass.Float32, cutlass.Float8E8M0FNU)",
       "SM120_16x8x32_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,32>{}"},
      {"warp.MmaMXF8F6F4Op(cutlass.Float4E2M1FN, cutlass.Float8E4M3FN, cutlass.Float32, cutlass.Float8E8M0FNU)",
       "SM120_16x8x32_TN_VS<float_e2m1_t,float_e4m3_t,float,float_ue8m0_t,32>{}"},
      {std::string("cute.nvgpu.warpgroup.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (64, 128), "
                   "cute.nvgpu.OperandSource.SMEM, ") +
           kOpK + ", " + kOpMN + ")",
       "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>{}"},
      {std::string("cute.nvgpu.warpgroup.MmaF16BF16Op(cutlass.BFloat16, cutlass.Float32, (64, 256, 16), "
                   "cute.nvgpu.warpgroup.OperandSource.RMEM, "
                   "cute.nvgpu.warpgroup.OperandMajorMode.K, cute.nvgpu.warpgroup.OperandMajorMode.K)"),
       "SM90_64x256x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>{}"},
      {std::string(
           "cute.nvgpu.warpgroup.MmaF8Op(cutlass.Float8E4M3FN, cutlass.Float8E5M2, cutlass.Float32, (64, 64, 32), "
           "cute.nvgpu.OperandSource.SMEM, ") +
           kOpK + ", " + kOpK + ")",
       "SM90_64x64x32_F32E4M3E5M2_SS_TN{}"},
      {std::string("cute.nvgpu.warpgroup.MmaI8Op(cutlass.Int8, cutlass.Int8, cutlass.Int32, (64, 32), "
                   "cute.nvgpu.OperandSource.SMEM, ") +
           kOpK + ", " + kOpK + ")",
       "SM90_64x32x32_S32S8S8_SS_TN{}"},
      {std::string("cute.nvgpu.tcgen05.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (128, 256, 16), "
                   "cute.nvgpu.tcgen05.CtaGroup.ONE, "
                   "cute.nvgpu.tcgen05.OperandSource.SMEM, ") +
           kOpK + ", " + kOpMN + ")",
       "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::MN>{}"},
      {std::string("tcgen05.MmaF16BF16Op(cutlass.BFloat16, cutlass.Float32, (256, 128), tcgen05.CtaGroup.TWO, "
                   "tcgen05.OperandSource.TMEM, "
                   "tcgen05.OperandMajorMode.K, tcgen05.OperandMajorMode.K)"),
       "SM100_MMA_F16BF16_2x1SM_TS<bfloat16_t,bfloat16_t,float,256,128,UMMA::Major::K,UMMA::Major::K>{}"},
      {std::string("tcgen05.MmaTF32Op((128, 128, 8), tcgen05.CtaGroup.ONE, tcgen05.OperandSource.SMEM, ") + kOpMN +
           ", " + kOpK + ")",
       "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,128,UMMA::Major::MN,UMMA::Major::K>{}"},
      {std::string("tcgen05.MmaI8Op(cutlass.Int8, (128, 64, 32), tcgen05.CtaGroup.ONE, tcgen05.OperandSource.SMEM, ") +
           kOpK + ", " + kOpK + ")",
       "SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,64,UMMA::Major::K,UMMA::Major::K>{}"},
      {std::string("tcgen05.MmaFP8Op(cutlass.Float8E4M3FN, cutlass.Float32, (128, 128, 32), tcgen05.CtaGroup.ONE, "
                   "tcgen05.OperandSource.SMEM, ") +
           kOpK + ", " + kOpK + ")",
       "SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e4m3_t,float,128,128,UMMA::Major::K,UMMA::Major::K>{}"},
      {std::string("tcgen05.MmaF8F6F4Op(cutlass.Float8E4M3FN, cutlass.Float8E5M2, cutlass.Float32, (128, 128), "
                   "tcgen05.CtaGroup.ONE, "
                   "tcgen05.OperandSource.SMEM, ") +
           kOpK + ", " + kOpK + ")",
       "SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e5m2_t,float,128,128,UMMA::Major::K,UMMA::Major::K>{}"},
      {std::string(
           "tcgen05.MmaMXF8Op(cutlass.Float8E4M3FN, (128, 256), tcgen05.CtaGroup.ONE, tcgen05.OperandSource.SMEM, ") +
           kOpK + ", " + kOpMN + ")",
       "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,256,UMMA::Major::K,UMMA::Major::MN>{}"},
      {std::string("tcgen05.MmaMXF8F6F4Op(cutlass.Float6E2M3FN, cutlass.Float8E5M2, (256, 128, 32), "
                   "tcgen05.CtaGroup.TWO, tcgen05.OperandSource.SMEM, ") +
           kOpK + ", " + kOpK + ")",
       "SM100_MMA_MXF8F6F4_2x1SM_SS<float_e2m3_t,float_e5m2_t,float,float_ue8m0_t,256,128,UMMA::Major::K,UMMA::Major::"
       "K>{}"},
      {"tcgen05.MmaMXF4Op((128, 128), tcgen05.CtaGroup.ONE, tcgen05.OperandSource.SMEM)",
       "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,128,32,UMMA::Major::K,UMMA::Major::K>{}"},
      {"tcgen05.MmaMXF4NVF4Op(cutlass.Float8E4M3FN, (128, 64, 64), tcgen05.CtaGroup.ONE, tcgen05.OperandSource.SMEM)",
       "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,16,UMMA::Major::K,UMMA::Major::K>{}"},
  };
  for (const auto& [dsl, cpp] : same) {
    const auto& dsl_text = dsl;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(dsl_text);
    CHECK(tiled_mma_text(eval(dsl)) == tiled_mma_text(eval(cpp)));
  }
}

TEST_CASE("CuTeDSL's WGMMA N=8 C layout has CuTeDSL's rank, the same function") {
  Value dsl = eval(std::string("cute.nvgpu.warpgroup.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (64, 8), "
                               "cute.nvgpu.OperandSource.SMEM, ") +
                   kOpK + ", " + kOpK + ")");
  Value cpp = eval("SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}");
  const Layout& c_dsl = as_mma_atom(dsl)->layout_c;
  const Layout& c_cpp = as_mma_atom(cpp)->layout_c;
  CHECK(to_string(c_dsl) == "((4,8,4),(2,2)):((128,1,16),(64,8))");
  CHECK(to_string(c_cpp) == "((4,8,4),(2,2,1)):((128,1,16),(64,8,512))");
  REQUIRE(size(c_dsl) == size(c_cpp));
  for (int64_t i = 0; i < size(c_dsl); ++i) CHECK(c_dsl(i) == c_cpp(i));
  // the other N keep their (2,2,N/8) value mode, as in C++
  Value n16 = eval(std::string("cute.nvgpu.warpgroup.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (64, 16), "
                               "cute.nvgpu.OperandSource.SMEM, ") +
                   kOpK + ", " + kOpK + ")");
  CHECK(to_string(as_mma_atom(n16)->layout_c) ==
        to_string(as_mma_atom(eval("SM90_64x16x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}"))->layout_c));
}

TEST_CASE("CuTeDSL tilings are the C++ TiledMMA") {
  const std::string sm80 = "cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16))";
  const std::pair<std::string, std::string> same[] = {
      {"cute.make_tiled_mma(" + sm80 + ")", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})"},
      {"cute.make_tiled_mma(cute.make_mma_atom(" + sm80 + "), (2, 2, 1))",
       "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})"},
      {"cute.make_tiled_mma(" + sm80 +
           ", atom_layout_mnk=cute.make_layout((2, 2, 1), stride=(2, 1, 0)), permutation_mnk=(32, 32, 16))",
       "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>,Stride<_2,_1,_0>>{}, "
       "Tile<_32,_32,_16>{})"},
      {"cute.make_tiled_mma(" + sm80 +
           ", (2, 2, 1), permutation_mnk=(32, cute.make_layout((8, 2, 2), stride=(1, 16, 8)), None))",
       "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32, "
       "Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>, _>{})"},
      {std::string("sm90_utils.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, ") + kOpK + ", " + kOpMN +
           ", cutlass.Float32, (2, 1, 1), (64, 128))",
       "make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>{}, Layout<Shape<_2,_1,_1>>{})"},
      {std::string("sm90_utils.make_trivial_tiled_mma(cutlass.Float8E4M3FN, cutlass.Float8E4M3FN, ") + kOpK + ", " +
           kOpK + ", cutlass.Float32, (1, 1, 1), (64, 256), a_source=cute.nvgpu.OperandSource.RMEM)",
       "make_tiled_mma(SM90_64x256x32_F32E4M3E4M3_RS_TN{})"},
      {std::string("cutlass.utils.hopper_helpers.make_trivial_tiled_mma(cutlass.Int8, cutlass.Uint8, ") + kOpK + ", " +
           kOpK + ", cutlass.Int32, (1, 2, 1), (64, 64))",
       "make_tiled_mma(SM90_64x64x32_S32S8U8_SS_TN{}, Layout<Shape<_1,_2,_1>>{})"},
      {std::string("sm100_utils.make_trivial_tiled_mma(cutlass.BFloat16, cutlass.BFloat16, ") + kOpK + ", " + kOpK +
           ", cutlass.Float32, cute.nvgpu.tcgen05.CtaGroup.ONE, (128, 256))",
       "make_tiled_mma(SM100_MMA_F16BF16_SS<bfloat16_t,bfloat16_t,float,128,256,UMMA::Major::K,UMMA::Major::K>{})"},
      {std::string("sm100_utils.make_trivial_tiled_mma(cutlass.Float16, ") + kOpMN + ", " +
           kOpK +  // the legacy one-ab_dtype form
           ", cutlass.Float16, tcgen05.CtaGroup.TWO, (256, 128))",
       "make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,half_t,256,128,UMMA::Major::MN,UMMA::Major::K>{})"},
      {std::string("sm100_utils.make_trivial_tiled_mma(cutlass.TFloat32, cutlass.TFloat32, ") + kOpK + ", " + kOpK +
           ", cutlass.Float32, tcgen05.CtaGroup.ONE, (128, 128), a_source=tcgen05.OperandSource.TMEM)",
       "make_tiled_mma(SM100_MMA_TF32_TS<tfloat32_t,tfloat32_t,float,128,128,UMMA::Major::K,UMMA::Major::K>{})"},
      {std::string("sm100_utils.make_blockscaled_trivial_tiled_mma(cutlass.Float4E2M1FN, cutlass.Float4E2M1FN, ") +
           kOpK + ", " + kOpK + ", cutlass.Float8E8M0FNU, 32, tcgen05.CtaGroup.ONE, (128, 256))",
       "make_tiled_mma(SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,256,32,UMMA::Major::K,UMMA::"
       "Major::K>{})"},
      {std::string("sm100_utils.make_blockscaled_trivial_tiled_mma(cutlass.Float4E2M1FN, cutlass.Float4E2M1FN, ") +
           kOpK + ", " + kOpK + ", cutlass.Float8E4M3FN, 16, tcgen05.CtaGroup.ONE, (128, 128))",
       "make_tiled_mma(SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,128,16,UMMA::Major::K,UMMA::"
       "Major::K>{})"},
      {std::string("sm100_utils.make_blockscaled_trivial_tiled_mma(cutlass.Float8E4M3FN, ") + kOpMN + ", " +
           kOpK +  // the legacy one-ab_dtype form
           ", cutlass.Float8E8M0FNU, 32, tcgen05.CtaGroup.TWO, (256, 128))",
       "make_tiled_mma(SM100_MMA_MXF8F6F4_2x1SM_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,256,128,UMMA::Major::"
       "MN,UMMA::Major::K>{})"},
  };
  for (const auto& [dsl, cpp] : same) {
    const auto& dsl_text = dsl;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(dsl_text);
    CHECK(tiled_mma_text(eval(dsl)) == tiled_mma_text(eval(cpp)));
  }
}

TEST_CASE("CuTeDSL copy Ops and tiled copies are the C++ Copy_Atom and TiledCopy") {
  const std::string mma =
      "cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), (2, 2, 1))";
  const std::string mma_cpp = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";
  const std::pair<std::string, std::string> same[] = {
      {"cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, num_bits_per_copy=128)",
       "Copy_Atom<UniversalCopy<uint128_t>, half_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32, num_bits_per_copy=32)",
       "Copy_Atom<UniversalCopy<uint32_t>, float>{}"},
      {"cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32)",
       "Copy_Atom<UniversalCopy<float>, float>{}"},
      // G2R / R2G / S2R / R2S: memory order, scope and cache hints move the same bits as UniversalCopy
      {"cute.make_copy_atom(cute.nvgpu.CopyG2ROp(), cutlass.Float16, num_bits_per_copy=64, "
       "memory_order=cute.nvgpu.MemoryOrder.VOLATILE, "
       "memory_scope=cute.nvgpu.MemoryScope.SYS, invariant=False)",
       "Copy_Atom<UniversalCopy<uint64_t>, half_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.CopyR2GOp(), cutlass.Float32, num_bits_per_copy=128, "
       "store_cache_mode=cute.nvgpu.StoreCacheMode.WRITE_BACK)",
       "Copy_Atom<UniversalCopy<uint128_t>, float>{}"},
      {"cute.make_copy_atom(cute.nvgpu.CopyS2ROp(), cutlass.BFloat16)",
       "Copy_Atom<UniversalCopy<bfloat16_t>, bfloat16_t>{}"},
      {"cute.make_copy_atom(nvgpu.CopyR2SOp(), cutlass.Float16, num_bits_per_copy=32)",
       "Copy_Atom<UniversalCopy<uint32_t>, half_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.cpasync.CopyG2SOp(), cutlass.Float16, num_bits_per_copy=128)",
       "Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}"},
      {"cute.make_copy_atom(cpasync.CopyG2SOp(cache_mode=cute.nvgpu.LoadCacheMode.GLOBAL), cutlass.Float32, "
       "num_bits_per_copy=128)",
       "Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, float>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose=False, num_matrices=4), cutlass.Float16)",
       "Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(False, 2), cutlass.BFloat16)",
       "Copy_Atom<SM75_U32x2_LDSM_N, bfloat16_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose=True, num_matrices=4), cutlass.Float16)",
       "Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.StMatrix8x8x16bOp(transpose=False, num_matrices=4), cutlass.Float16)",
       "Copy_Atom<SM90_U32x4_STSM_N, half_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.StMatrix8x8x16bOp(True, 1), cutlass.Float16)",
       "Copy_Atom<SM90_U16x2_STSM_T, half_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x16x8bOp(num_matrices=2, unpack_bits=4), cutlass.Uint8)",
       "Copy_Atom<SM100_SU4_DU8x16_x2_LDSM_N, uint8_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x16x8bOp(num_matrices=4, unpack_bits=6), cutlass.Float8E4M3FN)",
       "Copy_Atom<SM100_SU6_DU8x16_x4_LDSM_N, float_e4m3_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x16x8bOp(num_matrices=4), cutlass.Float16)",
       "Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}"},
      // CuTeDSL's LdMatrix16x8x8bOp is the permuted ldmatrix.m16n16.trans C++ calls SM100_U8x8/16_LDSM_T
      // (CUTLASS's CHANGELOG: "Permuted variant is renamed to LdMatrix16x8x8bOp")
      {"cute.make_copy_atom(cute.nvgpu.warp.LdMatrix16x8x8bOp(transpose=True, num_matrices=4), cutlass.Uint8)",
       "Copy_Atom<SM100_U8x16_LDSM_T, uint8_t>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.LdMatrix16x8x8bOp(transpose=True, num_matrices=2), cutlass.Float8E4M3FN)",
       "Copy_Atom<SM100_U8x8_LDSM_T, float_e4m3_t>{}"},
      {"sm90_utils.get_smem_store_op(utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, cutlass.Float32)",
       "Copy_Atom<SM90_U32x4_STSM_N, half_t>{}"},
      {"sm90_utils.get_smem_store_op(utils.LayoutEnum.COL_MAJOR, cutlass.BFloat16, cutlass.Float32)",
       "Copy_Atom<SM90_U16x8_STSM_T, bfloat16_t>{}"},
      {"sm90_utils.get_smem_store_op(utils.LayoutEnum.ROW_MAJOR, cutlass.Float32, cutlass.Float32)",
       "Copy_Atom<UniversalCopy<float>, float>{}"},
      {"cute.make_copy_atom(cute.nvgpu.warp.StMatrix16x8x8bOp(transpose=True, num_matrices=4), cutlass.Float8E4M3FN)",
       "Copy_Atom<SM100_U8x16_STSM_T, float_e4m3_t>{}"},
      {"cute.make_tiled_copy_tv(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, "
       "num_bits_per_copy=128), "
       "cute.make_layout((32, 8), stride=(8, 1)), cute.make_layout((1, 8)))",
       "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, "
       "Layout<Shape<_1,_8>>{})"},
      {"cute.make_tiled_copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32), cute.make_layout((32, "
       "4), stride=(4, 1)), (4, 32))",
       "make_tiled_copy_impl(Copy_Atom<UniversalCopy<float>, float>{}, (32,4):(4,1), make_shape(4,32))"},
      {"cute.make_tiled_copy_A(cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=4), "
       "cutlass.Float16), " +
           mma + ")",
       "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, " + mma_cpp + ")"},
      {"cute.make_tiled_copy_B(cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=2), "
       "cutlass.Float16), " +
           mma + ")",
       "make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, " + mma_cpp + ")"},
      {"cute.make_tiled_copy_C(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32), " + mma + ")",
       "make_tiled_copy_C(Copy_Atom<UniversalCopy<float>, float>{}, " + mma_cpp + ")"},
      {"cute.make_tiled_copy_C_atom(cute.make_copy_atom(cute.nvgpu.warp.StMatrix8x8x16bOp(num_matrices=2), "
       "cutlass.Float16), " +
           mma + ")",
       "make_tiled_copy_C_atom(Copy_Atom<SM90_U32x2_STSM_N, half_t>{}, " + mma_cpp + ")"},
      {"cute.make_tiled_copy_S(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16), "
       "cute.make_tiled_copy_A(cute.make_copy_atom("
       "cute.nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=4), cutlass.Float16), " +
           mma + "))",
       "make_tiled_copy_S(Copy_Atom<UniversalCopy<half_t>, half_t>{}, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, "
       "half_t>{}, " +
           mma_cpp + "))"},
      {"cute.make_tiled_copy_D(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16), "
       "cute.make_tiled_copy_A(cute.make_copy_atom("
       "cute.nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=4), cutlass.Float16), " +
           mma + "))",
       "make_tiled_copy_D(Copy_Atom<UniversalCopy<half_t>, half_t>{}, make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, "
       "half_t>{}, " +
           mma_cpp + "))"},
  };
  for (const auto& [dsl, cpp] : same) {
    const auto& dsl_text = dsl;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(dsl_text);
    CHECK(tiled_copy_text(eval(dsl)) == tiled_copy_text(eval(cpp)));
  }
}

TEST_CASE("CuTeDSL's SMEM layout helpers give what C++ CuTe gives for the same construction") {
  // tests/data/dsl_oracle.jsonl: for each helper call, the equivalent C++ CuTe construction and
  // what real CuTe printed for it.  Produced by a small host-only C++ program built against
  // CUTLASS's include/ (cute::print of composition(Swizzle<B,M,S>{}, Layout<...>{}) and
  // tile_to_shape(atom, Shape<...>{}, Step<...>{}), coalesced as the helper does); the
  // program is not part of this repository.
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/dsl_oracle.jsonl");
  REQUIRE(in.good());
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto row = nlohmann::json::parse(line);
    const std::string dsl = row["dsl"], cpp = row["cpp"], cute = row["cute"];
    const auto& dsl_text = dsl;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(dsl_text);
    const std::string got = eval(dsl).to_string();
    CHECK(got == cute);                   // what real CuTe printed (underscores dropped)
    CHECK(got == eval(cpp).to_string());  // and what our C++ path gives
    ++rows;
  }
  CHECK(rows >= 32);  // 12 SM90 rows, 16 sm100 make_smem_layout_a/b rows, 4 sm100 epilogue rows
}

TEST_CASE("CuTeDSL helper choices follow hopper_helpers.py / blackwell_helpers.py") {
  CHECK(eval("sm90_utils.get_smem_layout_atom(utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, 64)").to_string() ==
        "SmemLayoutAtomKind.K_SW128");
  CHECK(eval("sm90_utils.get_smem_layout_atom(utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, 32)").to_string() ==
        "SmemLayoutAtomKind.K_SW64");
  CHECK(eval("sm90_utils.get_smem_layout_atom(utils.LayoutEnum.COL_MAJOR, cutlass.Float32, 8)").to_string() ==
        "SmemLayoutAtomKind.MN_SW32");
  CHECK(eval("sm90_utils.get_smem_layout_atom(utils.LayoutEnum.COL_MAJOR, cutlass.Float8E4M3FN, 8)").to_string() ==
        "SmemLayoutAtomKind.MN_INTER");
  CHECK(
      eval(std::string("sm100_utils.get_smem_layout_atom_ab(") + kOpMN + ", cutlass.Float32, (128, 32))").to_string() ==
      "SmemLayoutAtomKind.MN_SW128_32B");
  CHECK(
      eval(std::string("sm100_utils.get_smem_layout_atom_ab(") + kOpK + ", cutlass.BFloat16, (128, 64))").to_string() ==
      "SmemLayoutAtomKind.K_SW128");
  // the epilogue's: a layout mode counts only its contiguous run (what TMA can use)
  CHECK(eval("sm100_utils.get_smem_layout_atom_epi(utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, (128, 64))")
            .to_string() == "SmemLayoutAtomKind.K_SW128");
  CHECK(eval("sm100_utils.get_smem_layout_atom_epi(utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, "
             "(cute.make_layout(64), cute.make_layout((16, 2), stride=(1, 64))))")
            .to_string() == "SmemLayoutAtomKind.K_SW32");
  CHECK(eval("sm100_utils.get_smem_layout_atom_epi(utils.LayoutEnum.COL_MAJOR, cutlass.Float32, (128, 32))")
            .to_string() == "SmemLayoutAtomKind.MN_SW128_32B");
}

TEST_CASE("CuTeDSL atom errors name the DSL call and what C++ would need") {
  CHECK(error_of("cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 32))")
            .find("SM80_16x8x32_F32F16F16F32_TN") != std::string::npos);
  CHECK(error_of("cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32)")
            .find("needs its 'shape_mnk' argument") != std::string::npos);
  CHECK(error_of(std::string("cute.nvgpu.warpgroup.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (64, 128), "
                             "cute.nvgpu.OperandSource.TMEM, ") +
                 kOpK + ", " + kOpK + ")")
            .find("SMEM or RMEM") != std::string::npos);
  CHECK(error_of(std::string("cute.nvgpu.warpgroup.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (64, 128, 32), "
                             "cute.nvgpu.OperandSource.SMEM, ") +
                 kOpK + ", " + kOpK + ")")
            .find("K is 16") != std::string::npos);
  CHECK(error_of("cute.nvgpu.OperandMajorMode.KM").find("has no member KM") != std::string::npos);
  CHECK(error_of("cute.make_tiled_mma(cute.nvgpu.warp.MmaTF32Op((16, 8, 8)), (2, 2))").find("rank-3") !=
        std::string::npos);
  CHECK(error_of("cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, num_bits_per_copy=96)")
            .find("8, 16, 32, 64 or 128") != std::string::npos);
  CHECK(error_of("cute.make_copy_atom(cute.nvgpu.cpasync.CopyG2SOp(), cutlass.Float16)").find("num_bits_per_copy") !=
        std::string::npos);
  CHECK(error_of("cute.nvgpu.MmaUniversalOp(cutlass.Int8)").find("Float16, Float32 or Float64") != std::string::npos);
  CHECK(error_of("cute.make_copy_atom(cute.nvgpu.CopyG2ROp(), cutlass.Float16, num_bits_per_copy=96)")
            .find("8, 16, 32, 64 or 128") != std::string::npos);
  CHECK(error_of("cute.make_copy_atom(cute.nvgpu.CopyG2ROp(), cutlass.Float16, memory_ordr=1)")
            .find("no parameter 'memory_ordr'") != std::string::npos);
  CHECK(error_of("cute.make_tiled_copy_tv(cute.nvgpu.CopyUniversalOp(), cute.make_layout(32), cute.make_layout(4))")
            .find("needs an element type") != std::string::npos);
  CHECK(error_of("cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=3), cutlass.Float16)")
            .find("not an instruction") != std::string::npos);
  // the unpermuted m16n16 ldmatrix has no C++ atom: say which Op is C++'s
  CHECK(
      error_of("cute.make_copy_atom(cute.nvgpu.warp.LdMatrix16x16x8bOp(transpose=True, num_matrices=1), cutlass.Uint8)")
          .find("LdMatrix16x8x8bOp") != std::string::npos);
  CHECK(
      error_of("cute.make_copy_atom(cute.nvgpu.warp.LdMatrix16x8x8bOp(transpose=True, num_matrices=1), cutlass.Uint8)")
          .find("not an instruction") != std::string::npos);
  CHECK(
      error_of("cute.make_copy_atom(cute.nvgpu.warp.LdMatrix16x8x8bOp(transpose=False, num_matrices=2), cutlass.Uint8)")
          .find("not an instruction") != std::string::npos);
  // sm100 helpers: a tiled MMA whose Op has no major mode needs is_k_major
  CHECK(error_of("sm100_utils.make_smem_layout_a(cute.make_tiled_mma(cute.nvgpu.warp.MmaTF32Op((16, 8, 8))), (128, "
                 "128, 32), cutlass.TFloat32, 2)")
            .find("is_k_major") != std::string::npos);
  CHECK(error_of("sm100_utils.make_smem_layout_a(cute.make_layout(4), (128, 128, 32), cutlass.TFloat32, 2)")
            .find("TiledMma") != std::string::npos);
  CHECK(error_of("sm100_utils.get_smem_layout_atom_epi(utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, (128, 4))")
            .find("multiple of 8") != std::string::npos);
}

TEST_CASE("a CuTeDSL kernel file: scan_python's declarations evaluate to the C++ objects") {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/dsl_kernel.py");
  REQUIRE(in.good());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Declaration> decls = scan_python(text, "dsl_kernel.py");
  std::vector<std::string> names;
  for (const auto& d : decls) names.push_back(d.scope + "|" + d.name);
  CHECK(names == std::vector<std::string>{
                     "|NUM_STAGES", "|THREADS", "HopperGemm|self.acc_dtype", "HopperGemm|self.tile_shape_mnk",
                     "HopperGemm|self.atom_layout_mnk", "HopperGemm|self.a_dtype", "HopperGemm::__call__|tiled_mma",
                     "HopperGemm::__call__|a_smem_layout_staged", "HopperGemm::__call__|epi_tile",
                     "HopperGemm::__call__|copy_atom", "HopperGemm::__call__|tiled_copy", "sm80_fallback|mma"});
  // A stand-in for the --from name environment (helper i13a's lib/lang/environment.cpp): -D first,
  // then the last declaration of a name; each text parsed by the CuTeDSL front end.
  std::vector<Declaration> defines(2);
  defines[0].name = "self.acc_dtype";
  defines[0].text = "cutlass.Float32";
  defines[1].name = "self.tile_shape_mnk";
  defines[1].text = "(128, 128, 64)";
  Registry registry = dsl_registry();
  registry.add_resolver([&](Evaluator& ev, const Node& n, Value& out) {
    if (n.call != Node::Call::kNone) return false;
    for (const auto* list : {&defines, &decls})
      for (auto it = list->rbegin(); it != list->rend(); ++it)
        if (it->name == n.name) {
          out = Evaluator(ev.registry()).eval_text(it->text, Syntax::kDsl);
          return true;
        }
    return false;
  });
  auto named = [&](const std::string& name) { return evaluate_expression(name, registry, Syntax::kDsl); };
  CHECK(
      tiled_mma_text(named("tiled_mma")) ==
      tiled_mma_text(eval(
          "make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{})")));
  CHECK(named("a_smem_layout_staged").to_string() == "Sw<3,4,3> o 0 o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
  CHECK(named("epi_tile").to_string() == "(64,32)");
  CHECK(named("a_smem_layout_staged.shape").to_string() == "((8,16),(64,1),(1,4))");  // an attribute of a declared name
  CHECK(evaluate_expression("cute.size(a_smem_layout_staged, mode=[2])", registry).to_string() == "4");
  CHECK(tiled_copy_text(named("tiled_copy")) ==
        tiled_copy_text(eval("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, "
                             "Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})")));
  CHECK(tiled_mma_text(named("mma")) ==
        tiled_mma_text(
            eval("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})")));
}

TEST_CASE(
    "CuTeDSL's tcgen05.tile_to_mma_shape is C++'s UMMA::tile_to_mma_shape, coalesced to the MMA shape's profile") {
  const std::string atom =
      "cute.nvgpu.tcgen05.make_smem_layout_atom(cute.nvgpu.tcgen05.SmemLayoutAtomKind.K_SW128, cutlass.Float16)";
  const std::string cpp_atom = "composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})";
  const std::string shape = "((128, 16), 1, 4, 3)", cpp_shape = "make_shape(make_shape(_128{},_16{}),_1{},_4{},_3{})";
  CHECK(eval("cute.nvgpu.tcgen05.tile_to_mma_shape(" + atom + ", " + shape + ", order=(1, 2, 3))").to_string() ==
        eval("coalesce(UMMA::tile_to_mma_shape(" + cpp_atom + ", " + cpp_shape + ", Step<_1,_2,_3>{}), " + cpp_shape +
             ")")
            .to_string());
  CHECK(eval("tcgen05.tile_to_mma_shape(" + atom + ", " + shape + ")").to_string() ==
        eval("coalesce(UMMA::tile_to_mma_shape(" + cpp_atom + ", " + cpp_shape + "), " + cpp_shape + ")").to_string());
  CHECK(error_of("tcgen05.tile_to_mma_shape(" + atom + ", " + shape + ", order=(1, 2))").find("rank(order)") !=
        std::string::npos);
  CHECK(eval("cute.dice((128, 256, 64), (1, None, 1))").to_string() ==
        eval("dice(make_coord(1,_,1), make_shape(128,256,64))").to_string());
}

TEST_CASE("CuTeDSL's attributes of atoms and tilings are the C++ objects' members") {
  const std::string dsl =
      "cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), (2, 2, 1), "
      "permutation_mnk=(32, 32, 16))";
  const std::string cpp =
      "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})";
  const MmaAtom atom = *as_mma_atom(eval("SM80_16x8x16_F32F16F16F32_TN{}"));
  const TiledMma tiled = *as_tiled_mma(eval(cpp));
  const std::pair<std::string, std::string> same[] = {
      // CuTeDSL's TiledMma is an MmaAtom: tv_layout_A is the atom's ALayout, tv_layout_A_tiled the tiling's
      {"(" + dsl + ").tv_layout_A", to_string(atom.layout_a)},
      {"(" + dsl + ").tv_layout_B", to_string(atom.layout_b)},
      {"(" + dsl + ").tv_layout_C", to_string(atom.layout_c)},
      {"(" + dsl + ").thr_id", to_string(atom.thr_id)},
      {"(" + dsl + ").shape_mnk", to_string(atom.shape_mnk)},
      {"(" + dsl + ").tv_layout_A_tiled", eval("get_layoutA_TV(" + cpp + ")").to_string()},
      {"(" + dsl + ").tv_layout_B_tiled", eval("get_layoutB_TV(" + cpp + ")").to_string()},
      {"(" + dsl + ").tv_layout_C_tiled", eval("get_layoutC_TV(" + cpp + ")").to_string()},
      {"(" + dsl + ").thr_layout_vmnk", to_string(tiled.thr_layout_vmnk)},
      {"(" + dsl + ").permutation_mnk", "(32,32,16)"},
      {"(" + dsl + ").size", eval("size(" + cpp + ")").to_string()},
      {"(" + dsl + ").get_tile_size(0)", eval("tile_size<0>(" + cpp + ")").to_string()},
      {"(" + dsl + ").get_tile_size(mode_idx=2)", eval("tile_size<2>(" + cpp + ")").to_string()},
      {"(" + dsl + ").partition_shape_A((128, 64))",
       eval("partition_shape_A(" + cpp + ", make_shape(_128{},_64{}))").to_string()},
      {"(" + dsl + ").partition_shape_B((128, 64))",
       eval("partition_shape_B(" + cpp + ", make_shape(_128{},_64{}))").to_string()},
      {"(" + dsl + ").partition_shape_C(shape_mn=(128, 128))",
       eval("partition_shape_C(" + cpp + ", make_shape(_128{},_128{}))").to_string()},
      {"(" + dsl + ").tv_layout_C_tiled.shape", to_string(shape(tiled.tv_layout_c))},
  };
  for (const auto& [expr, want] : same) {
    const auto& expr_text = expr;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(expr_text);
    CHECK(eval(expr).to_string() == want);
  }
  // the Op of a tcgen05 tiled MMA carries its major modes (sm100_utils.make_smem_layout_a reads them)
  const std::string umma = std::string("sm100_utils.make_trivial_tiled_mma(cutlass.Float16, cutlass.Float16, ") + kOpK +
                           ", " + kOpMN + ", cutlass.Float32, tcgen05.CtaGroup.ONE, (128, 256))";
  CHECK(eval("(" + umma + ").op.a_major_mode").to_string() == "OperandMajorMode.K");
  CHECK(eval("(" + umma + ").op.b_major_mode").to_string() == "OperandMajorMode.MN");
  CHECK(tiled_mma_text(eval("(" + umma + ").op")) ==
        tiled_mma_text(eval("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::MN>{}")));

  const std::string copy =
      "cute.make_tiled_copy_A(cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=4), cutlass.Float16), "
      "cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), (2, 2, 1)))";
  const std::string cpp_copy =
      "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
      "Layout<Shape<_2,_2,_1>>{}))";
  const TiledCopy tc = *as_tiled_copy(eval(cpp_copy));
  const std::pair<std::string, std::string> same_copy[] = {
      {"(" + copy + ").layout_tv_tiled", to_string(tc.tiled_layout_tv)},
      {"(" + copy + ").tiler_mn", tiler_to_string(tc)},
      {"(" + copy + ").layout_src_tv_tiled", eval("get_layoutS_TV(" + cpp_copy + ")").to_string()},
      {"(" + copy + ").layout_dst_tv_tiled", eval("get_layoutD_TV(" + cpp_copy + ")").to_string()},
      {"(" + copy + ").layout_src_tv", to_string(tc.atom.val_layout_src)},
      {"(" + copy + ").layout_dst_tv", to_string(tc.atom.val_layout_dst)},
      {"(" + copy + ").thr_id", to_string(tc.atom.thr_id)},
      {"(" + copy + ").value_type", "half_t"},
      {"(" + copy + ").size", eval("size(" + cpp_copy + ")").to_string()},
      {"cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, num_bits_per_copy=128).layout_src_tv",
       to_string(as_copy_atom(eval("Copy_Atom<UniversalCopy<uint128_t>, half_t>{}"))->val_layout_src)},
  };
  for (const auto& [expr, want] : same_copy) {
    const auto& expr_text = expr;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(expr_text);
    CHECK(eval(expr).to_string() == want);
  }
  // wrong object, unknown attribute, an attribute called as a method
  CHECK(error_of("cute.make_layout(4).tv_layout_A").find("attribute of an MMA atom or TiledMma") != std::string::npos);
  CHECK(error_of("(" + dsl + ").layout_tv_tiled").find("attribute of a TiledCopy") != std::string::npos);
  CHECK(error_of("(" + dsl + ").tv_layout_Z").find("no attribute .tv_layout_Z") != std::string::npos);
  CHECK(error_of("(" + dsl + ").size(1)").find("not a method") != std::string::npos);
  CHECK(error_of("(" + dsl + ").get_tile_size(3)").find("0, 1 or 2") != std::string::npos);
  CHECK(error_of("(" + dsl + ").get_tile_size()").find("takes one argument") != std::string::npos);
}

TEST_CASE(
    "CuTeDSL's cpasync.make_tiled_tma_atom is C++'s make_tma_atom (layout parts, checked against tma_oracle.jsonl)") {
  // gmem tensors as CuTeDSL writes one; the C++ rows are tests/data/tma_oracle.jsonl's (real CuTe's
  // ValLayoutSrc given beside each), with the DSL's SMEM helpers standing for the GMMA atoms
  const std::string half_rows =
      "cute.make_tensor(cute.make_ptr(cutlass.Float16, gptr, cute.AddressSpace.gmem), cute.make_layout((1024, 256), "
      "stride=(256, 1)))";
  const std::string float_cols =
      "cute.make_tensor(cute.make_ptr(cutlass.Float32, fptr, cute.AddressSpace.gmem), cute.make_layout((1024, 256)))";
  struct Case {
    std::string dsl, cpp, oracle_src;
  };
  const Case cases[] = {
      {"cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), " + half_rows +
           ", sm90_utils.make_smem_layout_a(utils.LayoutEnum.ROW_MAJOR, (128, 128, 64), cutlass.Float16, 4), (128, "
           "64))",
       "make_tma_atom(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(gptr), make_shape(1024, 256), GenRowMajor{}), "
       "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{},_64{})), make_shape(_128{},_64{}))",
       "(1,8192):(0,1)"},
      {"cute.nvgpu.cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SMulticastOp(cta_group=tcgen05.CtaGroup.ONE)"
       ", " +
           float_cols +
           ", "
           "cute.tile_to_shape(cute.nvgpu.warpgroup.make_smem_layout_atom(cute.nvgpu.warpgroup.SmemLayoutAtomKind.MN_"
           "SW128, cutlass.Float32), "
           "(64, 32), order=(0, 1)), (64, 32), num_multicast=2)",
       "make_tma_atom(SM90_TMA_LOAD_MULTICAST{}, make_tensor(make_gmem_ptr<float>(fptr), make_shape(1024, 256)), "
       "tile_to_shape(GMMA::Layout_MN_SW128_Atom<float>{}, make_shape(_64{},_32{})), make_shape(_64{},_32{}), "
       "Int<2>{})",
       "(1,256):(0,1)"},
      {"cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileS2GOp(), " + half_rows +
           ", cute.make_layout((8, 64), stride=(64, 1)), (8, 64), internal_type=cutlass.Float16)",
       "make_tma_atom<half_t>(SM90_TMA_STORE{}, make_tensor(make_gmem_ptr<half_t>(gptr), make_shape(1024, 256), "
       "GenRowMajor{}), "
       "make_layout(make_shape(_8{}, _64{}), GenRowMajor{}), make_shape(_8{},_64{}))",
       "(1,512):(0,1)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.dsl);
    const Value dsl = eval(c.dsl);
    const CopyAtom* atom = as_copy_atom(dsl);
    REQUIRE(atom);
    CHECK(to_string(atom->val_layout_src) == c.oracle_src);
    CHECK(tiled_copy_text(dsl) == tiled_copy_text(eval(c.cpp)));
  }
  CHECK(eval("cpasync.CopyReduceBulkTensorTileS2GOp()").to_string() == "SM90_TMA_REDUCE_ADD");
  CHECK(error_of("cpasync.CopyReduceBulkTensorTileS2GOp(reduction_kind=cpasync.ReductionKind.MAX)")
            .find("only ReductionKind.ADD") != std::string::npos);
  CHECK(error_of("cpasync.CopyBulkTensorTileG2SOp(cta_group=tcgen05.CtaGroup.TWO)").find("2-SM TMA") !=
        std::string::npos);
  CHECK(error_of("cpasync.make_tiled_tma_atom(cute.nvgpu.CopyUniversalOp(), " + half_rows +
                 ", cute.make_layout((8, 64)), (8, 64))")
            .find("TMA Op") != std::string::npos);
  CHECK(error_of("cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), cute.make_tensor(gptr, "
                 "cute.make_layout((1024, 256))), "
                 "cute.make_layout((8, 64)), (8, 64))")
            .find("element type is unknown") != std::string::npos);
  CHECK(error_of("cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), " + half_rows +
                 ", cute.make_layout((8, 64, 2, 2)), (8, 64))")
            .find("non-staged") != std::string::npos);
}

TEST_CASE("CuTeDSL's tcgen05 TMEM copy Ops and tcgen05.make_tmem_copy are C++'s (checked against tmem_oracle.jsonl)") {
  // tmem tensors as CuTeDSL writes them; each row: the DSL call, its C++ spelling, and what real
  // CuTe printed for the C++ one (tests/data/tmem_oracle.jsonl: TiledLayout_TV, get_layoutD_TV)
  auto tmem = [](const std::string& type, const std::string& layout) {
    return "cute.make_tensor(cute.make_ptr(cutlass." + type + ", 0, cute.AddressSpace.tmem), " + layout + ")";
  };
  struct Case {
    std::string dsl, cpp, oracle_tv, oracle_d;
  };
  // tcgen05.make_tmem_copy(make_copy_atom(OP, T), a (128, cols) tmem tensor) and the C++ spelling
  auto row = [&](const std::string& op, const std::string& type, int cols, const std::string& cpp_op,
                 const std::string& tv, const std::string& d) {
    const bool half = type == "Float16";
    const std::string dp = half ? "131072" : "65536", n = std::to_string(cols);
    return Case{"tcgen05.make_tmem_copy(cute.make_copy_atom(tcgen05." + op + ", cutlass." + type + "), " +
                    tmem(type, "cute.make_layout((128, " + n + "), stride=(" + dp + ", 1))") + ")",
                "make_tmem_copy(" + cpp_op + "{}, make_tensor(make_tmem_ptr<" + (half ? "half_t" : "float") +
                    ">(0), Layout<Shape<_128,_" + n + ">, Stride<_" + dp + ",_1>>{}))",
                tv, d};
  };
  const Case cases[] = {
      row("Ld32x32bOp(tcgen05.Repetition.x8)", "Float32", 256, "SM100_TMEM_LOAD_32dp32b8x",
          "((32,4),(8,32)):((0,1),(128,4))", "((32,4),(8,1)):((4,1),(128,0))"),
      row("St32x32bOp(repeat=tcgen05.Repetition.x4)", "Float32", 128, "SM100_TMEM_STORE_32dp32b4x",
          "((32,4),(4,32)):((0,1),(128,4))", "((32,4),((4,32),1)):((0,1),((128,4),0))"),
      row("Ld16x256bOp()", "Float32", 256, "SM100_TMEM_LOAD_16dp256b1x", "((32,4),(8,16)):((0,1),(64,4))",
          "((4,8,4),((2,2),1)):((128,4,1),((64,32),0))"),
      row("Ld16x32bx2Op(tcgen05.Repetition.x2)", "Float32", 64, "SM100_TMEM_LOAD_16dp32b2x",
          "((32,4),(4,16)):((0,1),(64,4))", "((16,2,4),(2,1)):((4,128,1),(64,0))"),
      row("Ld32x32bOp(tcgen05.Repetition.x16, tcgen05.Pack.PACK_16b_IN_32b)", "Float16", 64,
          "SM100_TMEM_LOAD_32dp32b16x_16b", "((32,4),(32,32)):((0,1),(128,4))", "((32,4),(32,1)):((4,1),(128,0))"),
  };
  for (const auto& c : cases) {
    CAPTURE(c.dsl);
    const Value dsl = eval(c.dsl);
    const TiledCopy* tc = as_tiled_copy(dsl);
    REQUIRE(tc);
    CHECK(to_string(tc->tiled_layout_tv) == c.oracle_tv);
    CHECK(to_string(tc->layout_d_tv) == c.oracle_d);
    CHECK(tiled_copy_text(dsl) == tiled_copy_text(eval(c.cpp)));
  }
  CHECK(tiled_copy_text(eval("cute.make_copy_atom(tcgen05.St16x128bOp(tcgen05.Repetition.x2, "
                             "tcgen05.Unpack.UNPACK_32b_IN_16b), cutlass.BFloat16)")) ==
        tiled_copy_text(eval("Copy_Atom<SM100_TMEM_STORE_16dp128b2x_16b, bfloat16_t>{}")));
  CHECK(error_of("cute.make_copy_atom(tcgen05.Ld16x256bOp(tcgen05.Repetition.x128), cutlass.Float32)")
            .find("SM100_TMEM_LOAD_16dp256b128x") != std::string::npos);
  CHECK(error_of("tcgen05.Ld32x32bOp(tcgen05.Repetition.x3)").find("has no member x3") != std::string::npos);
  // sm100_utils.get_smem_store_op picks the stmatrix that matches the TMEM load (blackwell_helpers.py)
  auto load = [&](const std::string& op, const std::string& type) {
    return "tcgen05.make_tmem_copy(cute.make_copy_atom(" + op + ", cutlass." + type + "), " +
           tmem(type, "cute.make_layout((128, 256), stride=(" + std::string(type == "Float16" ? "131072" : "65536") +
                          ", 1))") +
           ")";
  };
  const std::pair<std::string, std::string> store_ops[] = {
      {"sm100_utils.get_smem_store_op(utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, cutlass.Float32, " +
           load("tcgen05.Ld16x256bOp(tcgen05.Repetition.x2)", "Float32") + ")",
       "Copy_Atom<SM90_U32x4_STSM_N, half_t>{}"},
      {"sm100_utils.get_smem_store_op(utils.LayoutEnum.COL_MAJOR, cutlass.Float16, cutlass.Float32, " +
           load("tcgen05.Ld16x256bOp(tcgen05.Repetition.x1)", "Float32") + ")",
       "Copy_Atom<SM90_U16x4_STSM_T, half_t>{}"},
      {"sm100_utils.get_smem_store_op(utils.LayoutEnum.COL_MAJOR, cutlass.Float8E4M3FN, cutlass.Float32, " +
           load("tcgen05.Ld16x256bOp(tcgen05.Repetition.x4)", "Float32") + ")",
       "Copy_Atom<SM100_U8x16_STSM_T, float_e4m3_t>{}"},
      {"sm100_utils.get_smem_store_op(utils.LayoutEnum.ROW_MAJOR, cutlass.Float32, cutlass.Float32, " +
           load("tcgen05.Ld32x32bOp(tcgen05.Repetition.x8)", "Float32") + ")",
       "Copy_Atom<UniversalCopy<float>, float>{}"},
      {"sm100_utils.get_smem_store_op(utils.LayoutEnum.ROW_MAJOR, cutlass.Float16, cutlass.Float16, " +
           load("tcgen05.Ld16x128bOp(tcgen05.Repetition.x4, tcgen05.Pack.PACK_16b_IN_32b)", "Float16") + ")",
       "Copy_Atom<SM90_U32x4_STSM_N, half_t>{}"},
  };
  for (const auto& [dsl, cpp] : store_ops) {
    const auto& dsl_text = dsl;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(dsl_text);
    CHECK(tiled_copy_text(eval(dsl)) == tiled_copy_text(eval(cpp)));
  }
  CHECK(error_of("tcgen05.make_tmem_copy(tcgen05.Ld32x32bOp(), " +
                 tmem("Float32", "cute.make_layout((128, 32), stride=(65536, 1))") + ")")
            .find("needs an element type") != std::string::npos);
}
