// verify's plan: which lane, register and bit hold every entry; GMMA shared-memory
// tiles and descriptors; placement, decoding and the host reference.
#include <doctest/doctest.h>

#include <set>

#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/verify/plan.hpp"
#include "atoms/verify/verify.hpp"
#include "lib/error.hpp"
#include "tests/gpu/verify_atoms.hpp"
#include "tests/verify/verify_sim.hpp"

using namespace cutevis;
using namespace cutevis::verify;
using cutevis::test::layout_of;

TEST_CASE("verify plan: SM80 16x8x16 registers, lanes and bits") {
  MmaPlan p = plan_mma(test::sm80_16x8x16_f32f16());
  CHECK(p.cls == MmaClass::kMmaSync);
  CHECK(p.physical_threads == 32);
  CHECK((p.m == 16 && p.n == 8 && p.k == 16));
  CHECK(p.a.format.ptx == "f16");
  CHECK(p.format_d.ptx == "f32");
  CHECK(p.a.regs == 4);
  CHECK(p.b.regs == 2);
  CHECK(p.c.regs == 4);
  CHECK(p.a.entries.size() == 32 * 8);
  // (T1,V1): the high half of register 0 of lane 1; ALayout puts it at (M0,K3).
  size_t i = 1 * 8 + 1;
  REQUIRE(p.a.entries[i] == Entry{1, 1});
  CHECK(p.a.slots[i].lane == 1);
  CHECK(p.a.slots[i].word == 0);
  CHECK(p.a.slots[i].bit == 16);
  CHECK(p.a.cell_of[i] == 0 + 16 * 3);
  // (T5,V2) is register 1: row 8 + 5/4 = 9, k = 2*(5%4) = 2
  size_t j = 5 * 8 + 2;
  CHECK(p.a.slots[j].word == 1);
  CHECK(p.a.cell_of[j] == 9 + 16 * 2);
}

TEST_CASE("verify plan: the ThrID places logical threads on lanes (SM70 quad-pairs)") {
  MmaPlan p = plan_mma(test::sm70_8x8x4_nt());
  CHECK(p.logical_threads == 8);
  std::set<int64_t> lanes;
  for (const auto& s : p.a.slots) lanes.insert(s.lane);
  CHECK(lanes == std::set<int64_t>{0, 1, 2, 3, 16, 17, 18, 19});
}

TEST_CASE("verify plan: the instruction's types are checked against the atom's") {
  MmaAtom a = test::sm80_16x8x16_f32f16();
  a.type_a = test::value_type_of("bfloat16_t");
  CHECK_THROWS_AS(plan_mma(a), Error);
  MmaAtom s4 = test::sm80_16x8x32_s4();
  MmaPlan p = plan_mma(s4);
  CHECK(p.a.format.ptx == "s4");
  CHECK(p.a.slots[1].bit == 4);  // eight 4-bit values per register
}

TEST_CASE("verify plan: hand-written layouts must fit the atom") {
  MmaAtom a = test::sm80_16x8x16_f32f16();
  MmaOverrides ov;
  ov.layout_a = layout_of("((4,8),(2,2)):((32,1),(16,8))");  // 4 values, the atom has 8
  CHECK_THROWS_AS(plan_mma(a, ov), Error);
  ov.layout_a = layout_of("((8,8),(2,2,2)):((32,1),(16,8,128))");  // 64 threads
  CHECK_THROWS_AS(plan_mma(a, ov), Error);
  ov.layout_a = layout_of("((4,8),(2,2,2)):((32,1),(16,8,256))");  // beyond the 16x16 tile
  CHECK_THROWS_AS(plan_mma(a, ov), Error);
  MmaOverrides bad_thr;
  bad_thr.thr_id = layout_of("(4,2):(1,32)");  // lane 32 does not exist in a warp
  CHECK_THROWS_AS(plan_mma(test::sm70_8x8x4_nt(), bad_thr), Error);
  MmaOverrides smem;
  smem.layout_a = layout_of("((4,8,4),(2,2,2)):((128,1,16),(64,8,512))");
  CHECK_THROWS_AS(plan_mma(test::sm90_gmma_f32f16(16, true), smem), Error);  // A is in shared memory
}

TEST_CASE("verify plan: GMMA shared-memory tiles follow CuTe's canonical layouts") {
  // K-major 16-bit: a 64x16 tile is one 32-byte row per m: CuTe's selector picks SW32.
  MmaPlan p = plan_mma(test::sm90_gmma_f32f16(16, true));
  REQUIRE(p.a.in_smem);
  CHECK(p.a.smem.swizzle == "SW32");
  CHECK(p.a.smem.bytes == 64 * 16 * 2);
  for (int64_t m = 0; m < 64; ++m)
    for (int64_t k = 0; k < 16; ++k) {
      int64_t plain = (m / 8) * 256 + (m % 8) * 32 + k * 2;
      int64_t swizzled = plain ^ (((plain >> 7) & 1) << 4);  // Swizzle<1,4,3> on bytes
      CHECK(p.a.smem.byte_offset(m, k) == swizzled);
    }
  CHECK(p.a.smem.sbo == 256);               // the next 8 rows
  CHECK(p.a.smem.lbo == 16);                // unused for swizzled K-major ("assumed 1")
  CHECK((p.a.smem.descriptor >> 62) == 3);  // SWIZZLE_32B
  CHECK(((p.a.smem.descriptor >> 32) & 0x3fff) == 256 / 16);
  CHECK((p.a.smem.descriptor & 0x3fff) == 0);  // the start address is added on the GPU

  // MN-major A (64 halves = 128 bytes along M): SW128; k-groups of 8 are 1024 bytes apart.
  MmaPlan mn = plan_mma(test::sm90_gmma_f32f16(64, true, "MN", "K"));
  CHECK(mn.a.smem.swizzle == "SW128");
  CHECK(mn.a.smem.sbo == 1024);
  CHECK(mn.transpose_a);
  CHECK_FALSE(mn.transpose_b);
  CHECK(mn.a.smem.byte_offset(1, 0) == 2);  // contiguous along M
  // INTER by request: K-major core matrices of 8 rows x 16 bytes.
  MmaOverrides inter;
  inter.smem_swizzle = "INTER";
  MmaPlan pi = plan_mma(test::sm90_gmma_f32f16(16, true), inter);
  CHECK(pi.a.smem.byte_offset(1, 0) == 16);
  CHECK(pi.a.smem.sbo == pi.a.smem.byte_offset(8, 0));
  CHECK(pi.a.smem.lbo == pi.a.smem.byte_offset(0, 8));
  CHECK((pi.a.smem.descriptor >> 62) == 0);
  MmaOverrides wide;
  wide.smem_swizzle = "SW128";  // a 128-byte K row does not tile K = 16 halves
  CHECK_THROWS_AS(plan_mma(test::sm90_gmma_f32f16(16, true), wide), Error);
}

TEST_CASE("verify plan: packing and unpacking are inverse, the reference is A*B+C") {
  for (const MmaAtom& atom : {test::sm80_16x8x16_f32f16(), test::sm75_16x8x8_f16f16(), test::sm80_8x8x4_f64(),
                              test::sm80_16x8x32_s4(), test::sm80_8x8x128_b1_xor(), test::sm89_16x8x32_e5m2_f16(),
                              test::sm90_gmma_f32f16(24, false), test::sm90_gmma_s8(16, true), test::sm61_dp4a()}) {
    CAPTURE(atom.name);
    MmaPlan p = plan_mma(atom);
    MmaData data = verify::random_data(p, 7);
    // never all ones, never constant
    std::set<int64_t> distinct(data.a.begin(), data.a.end());
    CHECK(distinct.size() > 1);
    // the model of correct hardware reproduces the host reference exactly
    auto got = test::simulate(p, p, data);
    auto want = reference_d(p, data);
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      REQUIRE(got[i].has_value());
      CHECK(*got[i] == want[i]);
    }
    // C round-trips through its registers
    auto words = pack_operand(p.c, p.physical_threads, data.c);
    auto back = unpack_d(p, words.data());
    for (size_t i = 0; i < back.size(); ++i) CHECK(back[i] == data.c[i]);
  }
}

TEST_CASE("verify plan: unsupported atoms say why") {
  MmaAtom gmma = test::sm90_gmma_f32f16(8, true);
  CHECK(mma_unsupported_reason(gmma, 90) == "");
  CHECK(mma_unsupported_reason(gmma, 80).find("sm_90a") != std::string::npos);
  CHECK(mma_unsupported_reason(test::sm89_16x8x32_e4m3(), 80).find("sm_89") != std::string::npos);
  MmaAtom umma = gmma;
  umma.ptx = "tcgen05.mma.cta_group::1.kind::f16";
  CHECK(mma_unsupported_reason(umma, 90).find("SM100") != std::string::npos);
  // a sparse GMMA is never run: verify says so (skipped, so exit 3, never an agreement)
  MmaAtom sparse = find_mma_atom("SM90_SPARSE_64x64x32_F32F16F16_SS<K,K>");
  CHECK(mma_unsupported_reason(sparse, 90).find("sparse MMA") != std::string::npos);
  const VerifyReport skipped = verify_mma(sparse, VerifyOverrides{});  // with or without a GPU here
  CHECK(skipped.status == VerifyStatus::kSkipped);
  CHECK(skipped.reason.find("sparse MMA") != std::string::npos);
  MmaAtom fma = gmma;
  fma.ptx = "";
  CHECK(mma_unsupported_reason(fma, 90).find("no PTX") != std::string::npos);
  MmaAtom cplx = test::sm80_8x8x4_f64();
  cplx.type_a = test::value_type_of("complex<double>");
  CHECK(mma_unsupported_reason(cplx, 90).find("complex") != std::string::npos);
  CHECK(copy_unsupported_reason(test::stsm_n(4), 80).find("sm_90") != std::string::npos);
  CHECK(copy_unsupported_reason(test::ldsm_n(4), 90) == "");
  CopyAtom universal = test::ldsm_n(1);
  universal.ptx = "";
  universal.op = "UniversalCopy<uint128_t>";
  CHECK(copy_unsupported_reason(universal, 90).find("ldmatrix") != std::string::npos);
  // every listed tcgen05.ld/st atom is skipped, on an SM100 GPU too, saying why
  int tmem = 0;
  for (const CopyAtom& a : copy_catalogue())
    if (a.family == "SM100_TMEM") {
      ++tmem;
      CHECK(copy_unsupported_reason(a, 100).find("tensor memory") != std::string::npos);
    }
  CHECK(tmem == 222);
}

TEST_CASE("verify plan: copy sides in 16-bit elements") {
  CopyPlan p = plan_copy(test::ldsm_n(4));
  CHECK(p.cls == CopyClass::kLdmatrix);
  CHECK(p.matrices == 4);
  CHECK(p.regs == 4);
  CHECK(p.tile_units == 256);
  CHECK(p.src.addresses);
  CHECK_FALSE(p.dst.addresses);
  // thread 9 points at row 9 (16 bytes = 8 elements); its register 2 holds matrix 2, row 2, elements 2-3
  CHECK(p.src.unit_of[9 * 8] == 72);
  CHECK(p.dst.unit_of[9 * 8 + 4] == 128 + 2 * 8 + 2);
  // overrides come in value_type units, as ValLayoutSrc/Dst: the atom's own ones change nothing
  CopyOverrides same;
  same.layout_src = layout_of("(32,8):(8,1)");
  same.layout_dst = layout_of("(32,(2,4)):(2,(1,64))");
  CopyPlan q = plan_copy(test::ldsm_n(4), same);
  CHECK(q.src.unit_of == p.src.unit_of);
  CHECK(q.dst.unit_of == p.dst.unit_of);
  CopyPlan t = plan_copy(test::stsm_t(2));
  CHECK(t.cls == CopyClass::kStmatrix);
  CHECK(t.trans);
  CHECK(t.dst.addresses);
  CopyOverrides few;
  few.layout_dst = layout_of("(16,(2,4)):(2,(1,32))");  // 16 threads: ldmatrix runs on 32
  CHECK_THROWS_AS(plan_copy(test::ldsm_n(4), few), Error);
}

TEST_CASE("verify plan: the tests' hand-written atoms are the catalogue's") {
  // tests/gpu/verify_atoms.hpp builds atoms from CUTLASS's traits so the GPU tests run
  // anywhere; they must be the very atoms the catalogue gives.
  auto same = [](const MmaAtom& mine, const std::string& name) {
    CAPTURE(name);
    MmaAtom cat = find_mma_atom(name);
    CHECK(same_function(mine.layout_a, cat.layout_a));
    CHECK(same_function(mine.layout_b, cat.layout_b));
    CHECK(same_function(mine.layout_c, cat.layout_c));
    CHECK(same_function(mine.thr_id, cat.thr_id));
    CHECK(verify::plan_mma(mine).opcode == verify::plan_mma(cat).opcode);
    CHECK(mine.regs_a.count == cat.regs_a.count);
    CHECK(mine.regs_c.count == cat.regs_c.count);
    CHECK(mine.source_a == cat.source_a);
    CHECK(mine.major_a == cat.major_a);
    CHECK(mine.major_b == cat.major_b);
  };
  same(test::sm80_16x8x16_f32f16(), "SM80_16x8x16_F32F16F16F32_TN");
  same(test::sm80_16x8x16_f32bf16(), "SM80_16x8x16_F32BF16BF16F32_TN");
  same(test::sm75_16x8x8_f16f16(), "SM75_16x8x8_F16F16F16F16_TN");
  same(test::sm80_16x8x8_tf32(), "SM80_16x8x8_F32TF32TF32F32_TN");
  same(test::sm80_8x8x4_f64(), "SM80_8x8x4_F64F64F64F64_TN");
  same(test::sm80_16x8x32_s4(), "SM80_16x8x32_S32S4S4S32_TN_SATURATE");
  same(test::sm80_8x8x128_b1_xor(), "SM80_8x8x128_S32U1U1S32_TN_XORPOPC");
  same(test::sm80_8x8x16_u8s8(), "SM80_8x8x16_S32U8S8S32_TN");
  same(test::sm89_16x8x32_e4m3(), "SM89_16x8x32_F32E4M3E4M3F32_TN");
  same(test::sm89_16x8x32_e5m2_f16(), "SM89_16x8x32_F16E5M2E4M3F16_TN");
  same(test::sm70_8x8x4_nt(), "SM70_8x8x4_F32F16F16F32_NT");
  same(test::sm61_dp4a(), "SM61_DP4A");
  same(test::sm90_gmma_f32f16(24, false, "K", "MN"), "SM90_64x24x16_F32F16F16_RS<K,MN>");
  same(test::sm90_gmma_f32f16(256, true, "MN", "MN"), "SM90_64x256x16_F32F16F16_SS<MN,MN>");
  same(test::sm90_gmma_s8(32, false), "SM90_64x32x32_S32S8S8_RS_TN");
  auto same_copy = [](const CopyAtom& mine, const std::string& name) {
    CAPTURE(name);
    CopyAtom cat = find_copy_atom(name);
    CHECK(same_function(mine.src_layout_bits, cat.src_layout_bits));
    CHECK(same_function(mine.dst_layout_bits, cat.dst_layout_bits));
    CHECK(verify::plan_copy(mine).opcode == verify::plan_copy(cat).opcode);
  };
  for (int x : {1, 2, 4}) {
    same_copy(test::ldsm_n(x), "Copy_Atom<SM75_U32x" + std::to_string(x) + "_LDSM_N, half_t>");
    same_copy(test::ldsm_t(x), "Copy_Atom<SM75_U16x" + std::to_string(2 * x) + "_LDSM_T, half_t>");
    same_copy(test::stsm_n(x), "Copy_Atom<SM90_U32x" + std::to_string(x) + "_STSM_N, half_t>");
    same_copy(test::stsm_t(x), "Copy_Atom<SM90_U16x" + std::to_string(2 * x) + "_STSM_T, half_t>");
  }
}

TEST_CASE("verify plan: every catalogue atom an H100 runs can be planned") {
  int64_t planned = 0;
  for (const MmaAtom& atom : mma_catalogue()) {
    if (!verify::mma_unsupported_reason(atom, 90).empty()) continue;
    CAPTURE(atom.name);
    CHECK_NOTHROW(verify::plan_mma(atom));
    ++planned;
  }
  for (const CopyAtom& atom : copy_catalogue()) {
    if (!verify::copy_unsupported_reason(atom, 90).empty()) continue;
    CAPTURE(atom.name);
    CHECK_NOTHROW(verify::plan_copy(atom));
    ++planned;
  }
  CHECK(planned > 1500);  // 1440 GMMA + the SM61..SM90 warp-level atoms + ldmatrix/stmatrix/movmatrix
}
