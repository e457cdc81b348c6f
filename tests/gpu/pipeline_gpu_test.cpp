// verify --pipeline on a real GPU: correct SM80 (cp.async -> smem -> ldmatrix/ld.shared ->
// mma.sync) and SM90 (smem -> wgmma SS) kernels agree in every register and every element of
// D; deliberately wrong shared-memory layouts and copy atoms disagree, with the wrong operand
// localized (the other operand's panel clean) and the first wrong thread/register/element
// named.  Skips visibly (exit 77 under ctest) without a GPU.
#include <doctest/doctest.h>

#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/verify/pipeline.hpp"
#include "lib/lang/expr.hpp"
#include "tests/support/atom_names.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;

namespace {

#define REQUIRE_SM(min_sm, exact)                                               \
  do {                                                                          \
    GpuStatus gpu_ = probe_gpu();                                               \
    if (!gpu_.available) CUTEVIS_SKIP("no usable GPU: " + gpu_.message);        \
    if (gpu_.sm < (min_sm) || ((exact) && gpu_.sm != (min_sm)))                 \
      CUTEVIS_SKIP("needs sm_" + std::to_string(min_sm) + ", " + gpu_.message); \
  } while (0)

AnyLayout L(const std::string& text) { return test::layout_with_atoms(text); }
ValueType half() { return test::half_type(); }

struct Operand {
  std::string smem, data = "", copy = "";
};

PipelineSpec sm80(const TiledMma& mma, const Operand& a, const Operand& b) {
  PipelineSpec s;
  s.mma = mma;
  for (auto [spec, op] : {std::pair{&s.a, &a}, std::pair{&s.b, &b}}) {
    spec->smem = L(op->smem);
    spec->smem_text = op->smem;
    if (!op->data.empty()) spec->data = L(op->data), spec->data_text = op->data;
    spec->s2r = make_copy_atom(op->copy, half());
  }
  return s;
}

TiledMma mma_2x2() {
  return make_tiled_mma(find_mma_atom("SM80_16x8x16_F32F16F16F32_TN"), Layout(tup(2, 2, 1), tup(1, 2, 4)));
}

PipelineSpec sm90(const std::string& atom, const Operand& a, const Operand& b) {
  PipelineSpec s;
  s.mma = make_tiled_mma(find_mma_atom(atom));
  for (auto [spec, op] : {std::pair{&s.a, &a}, std::pair{&s.b, &b}}) {
    spec->smem = L(op->smem);
    spec->smem_text = op->smem;
    if (!op->data.empty()) spec->data = L(op->data), spec->data_text = op->data;
  }
  return s;
}

TiledCopy cp_async_128(int64_t threads_mn, int64_t threads_k) {
  return make_tiled_copy(make_copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", half()),
                         Layout(tup(threads_mn, threads_k), tup(threads_k, 1)), Layout(tup(1, 8), tup(0, 1)));
}

const VerifyOperand& panel(const VerifyReport& r, const std::string& name) {
  for (const auto& op : r.operands)
    if (op.name == name) return op;
  FAIL("no panel " << name);
  return r.operands.front();
}

void agrees(const PipelineSpec& s) {
  VerifyReport r = verify_pipeline(s);
  CHECK_MESSAGE(r.status == VerifyStatus::kAgree, to_text(r));
  CHECK(r.mismatches == 0);
  CHECK(r.checked > 0);
}

// Disagrees, with `wrong` panels marked, the others clean, and `first` in the reason.
void disagrees(const PipelineSpec& s, const std::vector<std::string>& wrong, const std::vector<std::string>& clean,
               const std::string& first) {
  VerifyReport r = verify_pipeline(s);
  CHECK_MESSAGE(r.status == VerifyStatus::kDisagree, to_text(r));
  for (const auto& w : wrong) CHECK_MESSAGE(panel(r, w).cells_disagree > 0, w);
  for (const auto& c : clean) CHECK_MESSAGE(panel(r, c).cells_disagree == 0, c);
  CHECK_MESSAGE(r.reason.find(first) != std::string::npos, r.reason);
}

const char* kSw32A = "tile_to_shape(GMMA::Layout_K_SW32_Atom<half_t>{}, Shape<_32,_32>{})";
const char* kSw128 = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})";

}  // namespace

TEST_CASE("verify pipeline: correct SM80 kernels agree (ldmatrix, ld.shared, cp.async)") {
  REQUIRE_SM(80, false);
  const TiledMma m = mma_2x2();
  agrees(sm80(m, {"(32,32):(32,1)", "", "SM75_U32x4_LDSM_N"}, {"(16,32):(32,1)", "", "SM75_U32x2_LDSM_N"}));
  agrees(sm80(m, {kSw32A, "", "SM75_U32x4_LDSM_N"}, {"(16,32):(32,1)", "", "SM75_U32x2_LDSM_N"}));
  agrees(sm80(m, {"(32,16):(24,1)", "", "SM75_U32x4_LDSM_N"}, {"(16,16):(24,1)", "", "SM75_U32x2_LDSM_N"}));
  agrees(sm80(m, {"(32,16):(16,1)", "", "SM75_U32x4_LDSM_N"}, {"(16,16):(1,16)", "", "SM75_U16x4_LDSM_T"}));
  agrees(sm80(m, {"(32,16):(40,1)", "", "UniversalCopy<uint32_t>"}, {"(16,16):(40,1)", "", "UniversalCopy<uint32_t>"}));
  agrees(sm80(make_tiled_mma(find_mma_atom("SM80_16x8x16_F32F16F16F32_TN")),
              {"(16,16):(16,1)", "", "SM75_U32x4_LDSM_N"}, {"(8,16):(16,1)", "", "SM75_U32x2_LDSM_N"}));
  PipelineSpec g =
      sm80(m, {"tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_32,_64>{})", "", "SM75_U32x4_LDSM_N"},
           {"tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_16,_64>{})", "", "SM75_U32x2_LDSM_N"});
  g.a.g2s = cp_async_128(16, 8);  // 128 threads, 16x64 per call
  g.b.g2s = cp_async_128(16, 8);
  agrees(g);
}

TEST_CASE("verify pipeline: wrong SM80 layouts and atoms disagree, localized") {
  REQUIRE_SM(80, false);
  const TiledMma m = mma_2x2();
  // the data is swizzled, the kernel reads it as row-major
  disagrees(sm80(m, {"(32,32):(32,1)", kSw32A, "SM75_U32x4_LDSM_N"}, {"(16,32):(32,1)", "", "SM75_U32x2_LDSM_N"}),
            {"A", "C"}, {"B"}, "first wrong: A: T");
  // the kernel assumes padded rows, the data is packed
  disagrees(
      sm80(m, {"(32,16):(24,1)", "(32,16):(16,1)", "SM75_U32x4_LDSM_N"}, {"(16,16):(16,1)", "", "SM75_U32x2_LDSM_N"}),
      {"A", "C"}, {"B"}, "first wrong: A: T");
  // B's data is K-major, the kernel assumes MN-major and transposes
  disagrees(
      sm80(m, {"(32,16):(16,1)", "", "SM75_U32x4_LDSM_N"}, {"(16,16):(1,16)", "(16,16):(16,1)", "SM75_U16x4_LDSM_T"}),
      {"B", "C"}, {"A"}, "first wrong: B: T");
  // a transposing ldmatrix on K-major A: rows misaligned, found before running
  disagrees(sm80(m, {"(32,16):(16,1)", "", "SM75_U16x8_LDSM_T"}, {"(16,16):(16,1)", "", "SM75_U32x2_LDSM_N"}), {"A"},
            {"B"}, "before running: --copy-a");
  // the G2S copy writes packed rows into a kernel that reads SW128
  PipelineSpec g = sm80(
      m,
      {"tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_32,_64>{})", "(32,64):(64,1)", "SM75_U32x4_LDSM_N"},
      {"(16,64):(64,1)", "", "SM75_U32x2_LDSM_N"});
  g.a.g2s = cp_async_128(16, 8);
  g.b.g2s = cp_async_128(16, 8);
  disagrees(g, {"A", "C"}, {"sA", "sB", "B"}, "first wrong: A: T");
}

TEST_CASE("verify pipeline: correct SM90 wgmma SS kernels agree") {
  REQUIRE_SM(90, true);
  const std::string k = "SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>";
  agrees(sm90(k, {kSw128}, {kSw128}));
  agrees(sm90(k, {"tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_64,_32>{})"},
              {"tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_64,_32>{})"}));
  agrees(sm90(k, {"tile_to_shape(GMMA::Layout_K_INTER_Atom<half_t>{}, Shape<_64,_16>{})"},
              {"tile_to_shape(GMMA::Layout_K_SW32_Atom<half_t>{}, Shape<_64,_16>{})"}));
  const std::string mn = "SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>";
  const char* mn128 = "tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64,_64>{})";
  agrees(sm90(mn, {mn128}, {mn128}));
  PipelineSpec g = sm90(k, {kSw128}, {kSw128});
  g.a.g2s = cp_async_128(16, 8);
  g.b.g2s = cp_async_128(16, 8);
  agrees(g);
}

TEST_CASE("verify pipeline: wrong SM90 shared-memory layouts disagree, localized") {
  REQUIRE_SM(90, true);
  const std::string k = "SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>";
  // an MN-major A for a K-major atom: the descriptor reads SW128 K-major
  disagrees(sm90(k, {"tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64,_64>{})"}, {kSw128}), {"A", "C"},
            {"B"}, "first wrong: A: A(");
  // the producer wrote B unswizzled
  disagrees(sm90(k, {kSw128}, {kSw128, "(64,64):(64,1)"}), {"B", "C"}, {"A"}, "first wrong: B: B(");
}
