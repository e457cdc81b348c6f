// verify --pipeline without a GPU: planning (addresses, the cells each register should hold,
// the retile_D gather), failures found before running (misaligned ldmatrix rows, cp.async
// vectors, fragments the copy does not deliver), the kernels as PTX (assembled with ptxas where
// the toolkit is installed), and the checker on results built from the prediction and then
// corrupted in one place.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>

#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/verify/pipeline.hpp"
#include "atoms/verify/ptx.hpp"
#include "lib/error.hpp"
#include "lib/lang/expr.hpp"
#include "tests/support/atom_names.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using namespace cutevis::verify;

namespace {

AnyLayout L(const std::string& text) { return test::layout_with_atoms(text); }
ValueType half() { return test::half_type(); }

TiledMma sm80_2x2() {
  return make_tiled_mma(find_mma_atom("SM80_16x8x16_F32F16F16F32_TN"), Layout(tup(2, 2, 1), tup(1, 2, 0)));
}

PipelineSpec sm80(const std::string& smem_a, const std::string& smem_b, const std::string& copy_a,
                  const std::string& copy_b) {
  PipelineSpec s;
  s.mma = sm80_2x2();
  s.a.smem = L(smem_a);
  s.b.smem = L(smem_b);
  s.a.smem_text = smem_a;
  s.b.smem_text = smem_b;
  s.a.s2r = make_copy_atom(copy_a, half());
  s.b.s2r = make_copy_atom(copy_b, half());
  return s;
}

PipelineSpec sm90(const std::string& smem_a, const std::string& smem_b) {
  PipelineSpec s;
  s.mma = make_tiled_mma(find_mma_atom("SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"));
  s.a.smem = L(smem_a);
  s.b.smem = L(smem_b);
  s.a.smem_text = smem_a;
  s.b.smem_text = smem_b;
  return s;
}

TiledCopy g2s_128(int threads_m, int threads_k) {
  // threads (threads_m, threads_k) K-major, 8 halves (16 bytes) along K each
  return make_tiled_copy(make_copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", half()),
                         Layout(tup(threads_m, threads_k), tup(threads_k, 1)), Layout(tup(1, 8), tup(0, 1)));
}

// What a correct machine returns: smem as the layout says, registers as the copy promises,
// D = A*B; the identity data sets as the descriptor reads the (here: canonical) layout.
std::vector<PipelineResult> predicted(const PipelinePlan& p, const std::vector<PipelineData>& data) {
  std::vector<PipelineResult> out;
  const int64_t reg_words = pipeline_reg_words(p);
  for (const auto& d : data) {
    PipelineResult r;
    for (const PipelineOperand* op : {&p.a, &p.b}) {
      std::vector<uint32_t> img(static_cast<size_t>(op->smem_bytes / 4), 0);
      for (size_t c = 0; c < op->smem_offset.size(); ++c) {
        const uint32_t bits = d.tags ? static_cast<uint32_t>(op == &p.a ? d.a[c] : d.b[c]) : 0;
        img[static_cast<size_t>(op->smem_offset[c] / 2)] |= bits << (16 * (op->smem_offset[c] % 2));
      }
      (op == &p.a ? r.smem_a : r.smem_b) = img;
    }
    r.regs.assign(static_cast<size_t>(p.threads * reg_words), 0);
    for (int t = 0; t < p.threads; ++t) {
      int64_t half_index = t * reg_words * 2;
      for (const PipelineOperand* op : {&p.a, &p.b}) {
        for (int64_t u = 0; u < op->copy_values; ++u) {
          const int64_t cell = op->copy_cell[static_cast<size_t>(t)][static_cast<size_t>(u)];
          const uint32_t tag =
              static_cast<uint32_t>(op == &p.a ? d.a[static_cast<size_t>(cell)] : d.b[static_cast<size_t>(cell)]);
          r.regs[static_cast<size_t>((half_index + u) / 2)] |= (tag & 0xffffu) << (16 * ((half_index + u) % 2));
        }
        half_index += (op->copy_values + 1) / 2 * 2;
      }
    }
    r.d.assign(static_cast<size_t>(p.threads * p.d_words), 0);
    for (int t = 0; t < p.threads; ++t)
      for (size_t s = 0; s < p.d_slot[static_cast<size_t>(t)].size(); ++s) {
        auto [v, bit] = p.d_slot[static_cast<size_t>(t)][s];
        if (v < 0) continue;
        const int64_t cell = p.c_cell[static_cast<size_t>(t)][static_cast<size_t>(v)];
        int64_t sum = 0;
        for (int64_t k = 0; k < p.a.k; ++k)
          sum += d.a[static_cast<size_t>(cell % p.m + p.m * k)] * d.b[static_cast<size_t>(cell / p.m + p.n * k)];
        if (d.tags) sum = 0;
        r.d[static_cast<size_t>(t * p.d_words + static_cast<int64_t>(s / 2))] =
            static_cast<uint32_t>(encode(p.atom.format_d, sum));
      }
    out.push_back(std::move(r));
  }
  return out;
}

const VerifyOperand& panel(const VerifyReport& r, const std::string& name) {
  for (const auto& op : r.operands)
    if (op.name == name) return op;
  FAIL("no panel " << name);
  return r.operands.front();
}

}  // namespace

TEST_CASE("verify pipeline: SM80 plan, ldmatrix addresses and the cells each register should hold") {
  PipelinePlan p = plan_pipeline(sm80("(32,32):(32,1)", "(16,32):(32,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N"));
  CHECK(p.static_failures.empty());
  CHECK(p.threads == 128);
  CHECK(p.a.k_tiles == 2);
  CHECK(p.a.s2r == S2RKind::kLdmatrix);
  CHECK(p.a.matrices == 4);
  CHECK_FALSE(p.a.trans);
  CHECK(p.a.s2r_opcode == "ldmatrix.sync.aligned.x4.m8n8.shared.b16");  // as CuTe spells it
  // thread 0's first row starts at A(0,0), thread 1's at A(1,0): row-major rows of 32 halves
  REQUIRE(!p.a.s2r_calls.empty());
  CHECK(p.a.s2r_calls[0][0].smem == 0);
  CHECK(p.a.s2r_calls[0][1].smem == 64);
  // every value of every thread: a distinct cell; per thread the MMA's fragment is all there
  for (int t = 0; t < p.threads; ++t) {
    std::set<int64_t> cells(p.a.copy_cell[static_cast<size_t>(t)].begin(), p.a.copy_cell[static_cast<size_t>(t)].end());
    CHECK(cells.size() == p.a.copy_cell[static_cast<size_t>(t)].size());
  }
  // the MMA's A value 0 of thread 0 is A(0,0) (SM80 ALayout), gathered from a copy value holding it
  CHECK(p.a.mma_cell[0][0][0] == 0);
  CHECK(p.a.copy_cell[0][static_cast<size_t>(p.a.gather[0][0][0])] == 0);
  CHECK(p.rest_m == 1);
  CHECK(p.d_words == 4);
}

TEST_CASE("verify pipeline: wrong atoms fail before running, with the thread and address named") {
  // K-major A read with the transposing ldmatrix: thread 1's row address is 2 bytes in
  PipelinePlan t = plan_pipeline(sm80("(32,16):(16,1)", "(16,16):(16,1)", "SM75_U16x8_LDSM_T", "SM75_U32x2_LDSM_N"));
  REQUIRE_FALSE(t.static_failures.empty());
  CHECK(t.static_failures[0].find("thread 1") != std::string::npos);
  CHECK(t.static_failures[0].find("not 16-byte aligned") != std::string::npos);
  VerifyReport r = static_pipeline_report(t);
  CHECK(r.status == VerifyStatus::kDisagree);
  CHECK(r.reason.find("before running: --copy-a") != std::string::npos);
  CHECK(panel(r, "A").cells_disagree > 0);
  CHECK(panel(r, "B").cells_disagree == 0);
  // MN-major B with the non-transposing ldmatrix
  PipelinePlan n = plan_pipeline(sm80("(32,16):(16,1)", "(16,16):(1,16)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N"));
  REQUIRE_FALSE(n.static_failures.empty());
  CHECK(n.static_failures[0].find("--copy-b") != std::string::npos);
  // a 16-byte cp.async whose 8 values run down M in a K-major tile: misaligned smem
  PipelineSpec g = sm80("(32,16):(16,1)", "(16,16):(16,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N");
  g.a.g2s = make_tiled_copy(make_copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", half()),
                            Layout(tup(4, 16), tup(16, 1)), Layout(tup(8, 1), tup(1, 0)));
  PipelinePlan gp = plan_pipeline(g);
  REQUIRE_FALSE(gp.static_failures.empty());
  CHECK(gp.static_failures[0].find("--g2s-a") != std::string::npos);
}

TEST_CASE("verify pipeline: bad specs are errors (exit 2)") {
  CHECK_THROWS_AS(plan_pipeline(sm80("(16,16):(16,1)", "(16,16):(16,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N")),
                  Error);  // M 16, tile 32
  CHECK_THROWS_AS(plan_pipeline(sm80("(32,24):(24,1)", "(16,24):(24,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N")),
                  Error);  // K not whole tiles
  CHECK_THROWS_AS(plan_pipeline(sm80("(32,16):(8,1)", "(16,16):(16,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N")),
                  Error);  // not injective
  CHECK_THROWS_AS(plan_pipeline(sm80("(32,16):(16,1)", "(16,32):(32,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N")),
                  Error);  // K differs
  PipelineSpec no_copy = sm80("(32,16):(16,1)", "(16,16):(16,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N");
  no_copy.b.s2r.reset();
  CHECK_THROWS_WITH_AS(plan_pipeline(no_copy), doctest::Contains("--copy-b is needed"), Error);
  PipelineSpec stsm = sm80("(32,16):(16,1)", "(16,16):(16,1)", "SM75_U32x4_LDSM_N", "SM90_U32x2_STSM_N");
  CHECK_THROWS_AS(plan_pipeline(stsm), Error);
  PipelineSpec ss = sm90("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})",
                         "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})");
  ss.a.s2r = make_copy_atom("SM75_U32x4_LDSM_N", half());
  CHECK_THROWS_WITH_AS(plan_pipeline(ss), doctest::Contains("no S2R copy"), Error);
  PipelineSpec scalar;
  scalar.mma = make_tiled_mma(find_mma_atom("SM80_8x8x4_F64F64F64F64_TN"));
  scalar.a.smem = L("(8,4):(4,1)");
  scalar.b.smem = L("(8,4):(4,1)");
  CHECK_THROWS_AS(plan_pipeline(scalar), Error);  // 64-bit operands
}

TEST_CASE("verify pipeline: SM90 SS plans the descriptor of the layout's swizzle and the atom's major") {
  const std::string sw128 = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})";
  PipelinePlan p = plan_pipeline(sm90(sw128, sw128));
  CHECK(p.wgmma);
  CHECK(p.static_failures.empty());
  CHECK(p.a.canonical.swizzle == "SW128");
  CHECK(p.a.canonical.major == "K");
  CHECK(p.a.canonical.offsets == p.a.smem_offset);  // the layout is the canonical one
  CHECK(p.a.k == 64);
  PipelinePlan mn = plan_pipeline(sm90("tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64,_64>{})", sw128));
  CHECK(mn.a.canonical.swizzle == "SW128");
  CHECK(mn.a.canonical.offsets != mn.a.smem_offset);  // MN-major data, K-major descriptor
  std::string k = pipeline_kernel_ptx(p, "k");
  CHECK(k.find("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16") != std::string::npos);
  CHECK(k.find("fence.proxy.async.shared::cta") != std::string::npos);
  size_t calls = 0;
  for (size_t at = k.find("wgmma.mma_async"); at != std::string::npos; at = k.find("wgmma.mma_async", at + 1)) ++calls;
  CHECK(calls == 4);                                          // K = 64: four k-blocks of 16
  CHECK(k.find("add.u32 %s, %s, 32;") != std::string::npos);  // k-block 1 starts 32 bytes into the SW128 row
}

TEST_CASE("verify pipeline: wgmma identity data sets place the operand not under test where the descriptor reads it") {
  const std::string sw128 = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})";
  PipelineSpec s = sm90(sw128, sw128);
  s.b.data = L("(64,64):(64,1)");  // the producer wrote B unswizzled
  PipelinePlan p = plan_pipeline(s);
  std::vector<PipelineData> data = pipeline_data(p);
  REQUIRE(data.size() == 2 + 2 + 2);  // tags, random, A row/col, B row/col (K 64 = N = M)
  // in A's first identity set, B as placed (data layout) must read as [k == n] through SW128
  const std::vector<int64_t>& b = data[2].b;
  std::map<int64_t, int64_t> value_at;  // smem element offset -> value placed there
  for (size_t c = 0; c < b.size(); ++c) value_at[p.b.data_offset[c]] = b[c];
  for (int64_t n = 0; n < 64; ++n)
    for (int64_t k = 0; k < 64; ++k)
      CHECK(value_at[p.b.canonical.offsets[static_cast<size_t>(n + 64 * k)]] == (k == n ? 1 : 0));
  std::vector<int64_t> plain;
  for (int64_t c = 0; c < 64 * 64; ++c) plain.push_back(c / 64 == c % 64 ? 1 : 0);
  CHECK(b != plain);  // B's data layout differs from the descriptor's: not the plain identity
}

TEST_CASE("verify pipeline: the checker agrees with a correct machine and names the first wrong register") {
  PipelinePlan p = plan_pipeline(sm80("tile_to_shape(GMMA::Layout_K_SW32_Atom<half_t>{}, Shape<_32,_32>{})",
                                      "(16,32):(32,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N"));
  REQUIRE(p.static_failures.empty());
  std::vector<PipelineData> data = pipeline_data(p);
  REQUIRE(data.size() == 2);
  std::vector<PipelineResult> res = predicted(p, data);
  VerifyReport ok = check_pipeline(p, data, res);
  CHECK_MESSAGE(ok.status == VerifyStatus::kAgree, ok.reason);
  CHECK(panel(ok, "A").cells_disagree == 0);
  // swap two A halves of thread 5: both cells wrong, T5 named first
  const int64_t rw = pipeline_reg_words(p);
  uint32_t& w = res[0].regs[static_cast<size_t>(5 * rw)];
  w = (w >> 16) | (w << 16);
  VerifyReport bad = check_pipeline(p, data, res);
  CHECK(bad.status == VerifyStatus::kDisagree);
  CHECK(bad.reason.find("first wrong: A: T5 A register 0 bits 0-15") != std::string::npos);
  CHECK(panel(bad, "A").cells_disagree == 2);
  CHECK(panel(bad, "B").cells_disagree == 0);
  // one wrong D element: only that cell of C
  res = predicted(p, data);
  res[1].d[static_cast<size_t>(7 * p.d_words + 1)] ^= 0x00800000u;
  VerifyReport dbad = check_pipeline(p, data, res);
  CHECK(dbad.status == VerifyStatus::kDisagree);
  CHECK(dbad.reason.find("C: T7 D value 1") != std::string::npos);
  CHECK(panel(dbad, "C").cells_disagree == 1);
}

TEST_CASE("verify pipeline: G2S plan and the shared-memory check") {
  PipelineSpec s = sm80("(32,32):(32,1)", "(16,32):(32,1)", "SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N");
  s.a.g2s = g2s_128(32, 4);
  s.b.g2s = g2s_128(16, 4);  // 64 threads over (16,32)
  PipelinePlan p = plan_pipeline(s);
  REQUIRE(p.static_failures.empty());
  CHECK(p.a.g2s);
  CHECK(p.a.cp_async);
  CHECK(p.a.cache_global);
  CHECK(p.a.g2s_calls.size() == 1);  // 128 threads x 8 halves = the whole 32x32 A
  CHECK(p.b.g2s_calls.size() == 1);
  CHECK(p.b.g2s_threads == 64);
  std::vector<PipelineData> data = pipeline_data(p);
  std::vector<PipelineResult> res = predicted(p, data);
  CHECK(check_pipeline(p, data, res).status == VerifyStatus::kAgree);
  res[0].smem_a[3] = 0;  // A(..) at smem +12 never arrived
  VerifyReport r = check_pipeline(p, data, res);
  CHECK(r.status == VerifyStatus::kDisagree);
  CHECK(r.reason.find("first wrong: sA") != std::string::npos);
  CHECK(panel(r, "sA").cells_disagree == 2);
  std::string k = pipeline_kernel_ptx(p, "g");
  CHECK(k.find("cp.async.cg.shared.global [%s], [%addr], 16;") != std::string::npos);
  CHECK(k.find("cp.async.wait_all;") != std::string::npos);
}

TEST_CASE("verify pipeline: the kernels assemble (ptxas)") {
  std::string ptxas = test::find_program("ptxas");
  if (ptxas.empty() && std::system("test -x /usr/local/cuda/bin/ptxas") == 0) ptxas = "/usr/local/cuda/bin/ptxas";
  if (ptxas.empty()) CUTEVIS_SKIP("ptxas (CUDA toolkit) not found");
  const std::string sw128 = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})";
  PipelineSpec g = sm80("(32,32):(32,1)", "(16,32):(32,1)", "SM75_U32x4_LDSM_N", "SM75_U16x4_LDSM_T");
  g.b.smem = L("(16,32):(1,16)");
  g.a.g2s = g2s_128(32, 4);
  PipelineSpec u = sm80("(32,32):(40,1)", "(16,32):(40,1)", "UniversalCopy<uint32_t>", "UniversalCopy<uint32_t>");
  for (const auto& case_ : {std::pair{sm90(sw128, sw128), "sm_90a"}, std::pair{g, "sm_80"}, std::pair{u, "sm_80"}}) {
    const std::string target = case_.second;  // a plain name: clang 14 cannot capture a structured binding
    PipelinePlan p = plan_pipeline(case_.first);
    CAPTURE(target);
    REQUIRE(p.static_failures.empty());
    std::string path = std::string(CUTEVIS_BINARY_DIR) + "/pipeline_test_" + target + ".ptx";
    {
      std::ofstream out(path);
      out << ptx_module({pipeline_kernel_ptx(p, "k")}, p.ptx_version, target);
    }
    std::string log = path + ".log";
    int rc =
        std::system((ptxas + " -arch=" + target + " " + path + " -o " + path + ".cubin > " + log + " 2>&1").c_str());
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_MESSAGE(rc == 0, text);
  }
}
