// verify on a real GPU: known-good atoms agree with the hardware, and deliberately
// wrong hand-written layouts (registers swapped, threads swapped, A transposed, a wrong
// ThrID, swapped row addresses) disagree with exactly the wrong entries named and the
// cells the hardware really uses.  Skips visibly (exit 77 under ctest) without a GPU.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <set>

#include "app/verify_json.hpp"
#include "atoms/verify/plan.hpp"
#include "tests/gpu/verify_atoms.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using cutevis::test::layout_of;

namespace {

#define REQUIRE_GPU(min_sm)                                                                           \
  do {                                                                                                \
    GpuStatus gpu_ = probe_gpu();                                                                     \
    if (!gpu_.available) CUTEVIS_SKIP("no usable GPU: " + gpu_.message);                              \
    if (gpu_.sm < (min_sm)) CUTEVIS_SKIP("needs sm_" + std::to_string(min_sm) + ", " + gpu_.message); \
  } while (0)

const VerifyOperand& operand(const VerifyReport& r, const std::string& name) {
  for (const auto& op : r.operands)
    if (op.name == name) return op;
  FAIL("no operand " << name);
  return r.operands.front();
}

// The entries a wrong layout misplaces: where it and the catalogue's differ.
std::set<std::pair<int64_t, int64_t>> differing(const verify::OperandPlan& a, const verify::OperandPlan& b) {
  std::set<std::pair<int64_t, int64_t>> out;
  for (size_t i = 0; i < a.cell_of.size(); ++i)
    if (a.cell_of[i] != b.cell_of[i]) out.insert({a.entries[i].thr, a.entries[i].val});
  return out;
}
std::set<std::pair<int64_t, int64_t>> named(const VerifyOperand& op) {
  std::set<std::pair<int64_t, int64_t>> out;
  for (const auto& e : op.wrong) out.insert({e.owner.thr, e.owner.val});
  return out;
}
// The hardware's cell for every wrong entry is where the catalogue's layout puts it.
void check_actual_cells(const VerifyOperand& op, const verify::OperandPlan& truth) {
  for (const auto& e : op.wrong)
    for (size_t i = 0; i < truth.entries.size(); ++i)
      if (truth.entries[i].thr == e.owner.thr && truth.entries[i].val == e.owner.val)
        CHECK_MESSAGE(e.actual_cell == truth.cell_of[i], e.entry);
}

}  // namespace

TEST_CASE("verify: the device") {
  GpuStatus gpu = probe_gpu();
  if (!gpu.available) CUTEVIS_SKIP("no usable GPU: " + gpu.message);
  MESSAGE(gpu.message);
  CHECK(gpu.sm > 0);
}

TEST_CASE("verify: warp-level MMA atoms agree with the hardware") {
  REQUIRE_GPU(89);
  for (const MmaAtom& atom :
       {test::sm80_16x8x16_f32f16(), test::sm80_16x8x16_f32bf16(), test::sm75_16x8x8_f16f16(), test::sm80_16x8x8_tf32(),
        test::sm80_8x8x4_f64(), test::sm80_16x8x32_s4(), test::sm80_8x8x16_u8s8(), test::sm80_8x8x128_b1_xor(),
        test::sm89_16x8x32_e4m3(), test::sm89_16x8x32_e5m2_f16(), test::sm70_8x8x4_nt(), test::sm61_dp4a()}) {
    VerifyReport r = verify_mma(atom);
    INFO(to_text(r));
    CHECK(r.status == VerifyStatus::kAgree);
    CHECK(r.mismatches == 0);
    CHECK(r.checked > 0);
    CHECK(r.established.find("functionally equivalent") != std::string::npos);
  }
}

TEST_CASE("verify: GMMA SS and RS atoms agree (sm_90a)") {
  REQUIRE_GPU(90);
  if (probe_gpu().sm != 90) CUTEVIS_SKIP("wgmma needs compute capability 9.0");
  for (const MmaAtom& atom :
       {test::sm90_gmma_f32f16(8, true), test::sm90_gmma_f32f16(64, true, "MN", "K"),
        test::sm90_gmma_f32f16(256, true, "MN", "MN"), test::sm90_gmma_f32f16(24, true, "K", "MN"),
        test::sm90_gmma_f32f16(16, false), test::sm90_gmma_f32f16(64, false, "K", "MN"), test::sm90_gmma_s8(16, true),
        test::sm90_gmma_s8(32, false)}) {
    VerifyReport r = verify_mma(atom);
    INFO(to_text(r));
    CHECK(r.status == VerifyStatus::kAgree);
  }
  // every canonical shared-memory layout that tiles the atom
  for (const char* swizzle : {"INTER", "SW32"}) {
    VerifyOverrides ov;
    ov.smem_layout = swizzle;
    VerifyReport r = verify_mma(test::sm90_gmma_f32f16(64, true), ov);
    INFO(to_text(r));
    CHECK(r.status == VerifyStatus::kAgree);
  }
  for (const char* swizzle : {"INTER", "SW32", "SW64", "SW128"}) {
    VerifyOverrides ov;
    ov.smem_layout = swizzle;
    VerifyReport r = verify_mma(test::sm90_gmma_f32f16(64, true, "MN", "MN"), ov);
    INFO(to_text(r));
    CHECK(r.status == VerifyStatus::kAgree);
  }
}

TEST_CASE("verify: ldmatrix and stmatrix ownership is exact") {
  REQUIRE_GPU(75);
  std::vector<CopyAtom> atoms = {test::ldsm_n(1), test::ldsm_n(2), test::ldsm_n(4),
                                 test::ldsm_t(1), test::ldsm_t(2), test::ldsm_t(4)};
  if (probe_gpu().sm >= 90)
    for (int x : {1, 2, 4}) atoms.push_back(test::stsm_n(x)), atoms.push_back(test::stsm_t(x));
  for (const CopyAtom& atom : atoms) {
    VerifyReport r = verify_copy(atom);
    INFO(to_text(r));
    CHECK(r.status == VerifyStatus::kAgree);
    CHECK(r.established.find("Exact") != std::string::npos);
  }
}

TEST_CASE("verify: two A registers swapped are named, with the hardware's cells") {
  REQUIRE_GPU(80);
  MmaAtom atom = test::sm80_16x8x16_f32f16();
  VerifyOverrides ov;
  ov.layout_a = layout_of("((4,8),(2,2,2)):((32,1),(16,128,8))");
  VerifyReport r = verify_mma(atom, ov);
  INFO(to_text(r));
  CHECK(r.status == VerifyStatus::kDisagree);
  CHECK(verify_exit_code({r}) == 1);
  verify::MmaOverrides mov;
  mov.layout_a = ov.layout_a;
  verify::MmaPlan placed = verify::plan_mma(atom, mov), truth = verify::plan_mma(atom);
  const VerifyOperand& a = operand(r, "A");
  CHECK(a.status == VerifyStatus::kDisagree);
  CHECK(named(a) == differing(placed.a, truth.a));
  check_actual_cells(a, truth.a);
  CHECK(operand(r, "B").status == VerifyStatus::kAgree);
  CHECK(operand(r, "C").status == VerifyStatus::kAgree);
  // the diff picture's data: every cell with expected and actual owners
  REQUIRE(a.cells.size() == 16 * 16);
  int64_t wrong_cells = 0;
  for (const auto& c : a.cells) wrong_cells += c.wrong;
  CHECK(wrong_cells == a.cells_disagree);
  CHECK(wrong_cells > 0);
}

TEST_CASE("verify: threads swapped in C, and A transposed") {
  REQUIRE_GPU(80);
  MmaAtom atom = test::sm80_16x8x16_f32f16();
  verify::MmaPlan truth = verify::plan_mma(atom);
  {
    VerifyOverrides ov;
    ov.layout_c = layout_of("((2,2,8),(2,2)):((64,32,1),(16,8))");  // T1<->T2, T5<->T6, ...
    VerifyReport r = verify_mma(atom, ov);
    INFO(to_text(r));
    CHECK(r.status == VerifyStatus::kDisagree);
    verify::MmaOverrides mov;
    mov.layout_c = ov.layout_c;
    const VerifyOperand& c = operand(r, "C");
    CHECK(named(c) == differing(verify::plan_mma(atom, mov).c, truth.c));
    for (const auto& e : c.wrong) CHECK((e.owner.thr % 4 == 1 || e.owner.thr % 4 == 2));
    check_actual_cells(c, truth.c);
    CHECK(operand(r, "A").status == VerifyStatus::kAgree);
  }
  {
    VerifyOverrides ov;
    ov.layout_a = composition(layout_of("(16,16):(16,1)"), atom.layout_a);
    VerifyReport r = verify_mma(atom, ov);
    INFO(to_text(r));
    CHECK(r.status == VerifyStatus::kDisagree);
    const VerifyOperand& a = operand(r, "A");
    verify::MmaOverrides mov;
    mov.layout_a = ov.layout_a;
    CHECK(named(a) == differing(verify::plan_mma(atom, mov).a, truth.a));
    check_actual_cells(a, truth.a);
  }
}

TEST_CASE("verify: a wrong ThrID puts threads in another quad-pair's product") {
  REQUIRE_GPU(70);
  MmaAtom atom = test::sm70_8x8x4_nt();
  VerifyOverrides ov;
  ov.thr_id = layout_of("(4,2):(1,8)");
  VerifyReport r = verify_mma(atom, ov);
  INFO(to_text(r));
  CHECK(r.status == VerifyStatus::kDisagree);
  for (const char* name : {"A", "B"}) {
    const VerifyOperand& op = operand(r, name);
    std::set<int64_t> moved;
    for (const auto& e : op.wrong)
      if (e.actual == "nowhere") moved.insert(e.owner.thr);
    CHECK(moved == std::set<int64_t>{4, 5, 6, 7});
    CHECK(op.wrong.size() == 16);  // 4 threads x 4 values, nothing else
  }
  // C: all of threads 4-7 ran elsewhere; of threads 0-3 only the columns 4-7 fed by B's threads 4-7
  const VerifyOperand& c = operand(r, "C");
  std::set<int64_t> threads;
  for (const auto& e : c.wrong) {
    threads.insert(e.owner.thr);
    CHECK(e.actual == "nowhere");
    if (e.owner.thr < 4) CHECK(e.expected_cell / 8 >= 4);
  }
  CHECK(threads == std::set<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(c.wrong.size() == 4 * 8 + 4 * 4);
}

TEST_CASE("verify: a wrong C of an RS GMMA") {
  REQUIRE_GPU(90);
  if (probe_gpu().sm != 90) CUTEVIS_SKIP("wgmma needs compute capability 9.0");
  MmaAtom atom = test::sm90_gmma_f32f16(16, false);
  VerifyOverrides ov;
  ov.layout_c = layout_of("((4,8,4),(2,2,2)):((128,1,16),(8,64,512))");
  VerifyReport r = verify_mma(atom, ov);
  INFO(to_text(r));
  CHECK(r.status == VerifyStatus::kDisagree);
  verify::MmaOverrides mov;
  mov.layout_c = ov.layout_c;
  const VerifyOperand& c = operand(r, "C");
  CHECK(named(c) == differing(verify::plan_mma(atom, mov).c, verify::plan_mma(atom).c));
  check_actual_cells(c, verify::plan_mma(atom).c);
}

TEST_CASE("verify: swapped row addresses of ldmatrix") {
  REQUIRE_GPU(75);
  VerifyOverrides ov;
  ov.layout_src = layout_of("((2,2,8),8):((16,8,32),1)");  // threads 1<->2, 5<->6, ...
  VerifyReport r = verify_copy(test::ldsm_n(4), ov);
  INFO(to_text(r));
  CHECK(r.status == VerifyStatus::kDisagree);
  const VerifyOperand& src = operand(r, "src");
  CHECK(src.wrong.size() == 16 * 8);
  for (const auto& e : src.wrong) CHECK((e.owner.thr % 4 == 1 || e.owner.thr % 4 == 2));
  CHECK(operand(r, "dst").status == VerifyStatus::kAgree);
  // dst tile (32 rows of 8 elements): thread 1 points at row 2, so row 1 is expected from T1
  const VerifyCell& cell = src.cells[static_cast<size_t>(1 + src.rows * 0)];
  REQUIRE(!cell.expected.empty());
  CHECK(cell.wrong);
}

TEST_CASE("verify: a batch in one process, timed") {
  REQUIRE_GPU(80);
  std::vector<MmaAtom> mma = {test::sm80_16x8x16_f32f16(), test::sm80_16x8x8_tf32(), test::sm80_8x8x4_f64(),
                              test::sm80_16x8x32_s4(), test::sm61_dp4a()};
  if (probe_gpu().sm == 90)
    for (int n = 8; n <= 256; n += 8)
      mma.push_back(test::sm90_gmma_f32f16(n, true)), mma.push_back(test::sm90_gmma_f32f16(n, false));
  std::vector<CopyAtom> copies = {test::ldsm_n(4), test::ldsm_t(4)};
  auto t0 = std::chrono::steady_clock::now();
  VerifySummary s = verify_batch(mma, copies);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE(to_text(s));
  MESSAGE("batch of " << s.reports.size() << " atoms: " << seconds << " s");
  CHECK(verify_exit_code(s.reports) == 0);
  for (const auto& r : s.reports) CHECK_MESSAGE(r.status == VerifyStatus::kAgree, r.atom << ": " << r.reason);
}

TEST_CASE("verify: the whole catalogue on this GPU") {
  REQUIRE_GPU(90);
  auto t0 = std::chrono::steady_clock::now();
  VerifySummary s = verify_all();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE(to_text(s));
  MESSAGE("verify_all: " << seconds << " s");
  int64_t agree = 0;
  for (const auto& r : s.reports) {
    agree += r.status == VerifyStatus::kAgree;
    if (r.status == VerifyStatus::kAgree || r.status == VerifyStatus::kSkipped) continue;
    // Known defects of CuTe itself, established on an H100 (see the report text):
    //  - SM75_U32x1_MOVM_T: its traits give identical src/dst layouts, movmatrix transposes;
    //  - SM61_DP2A: its asm "dp2a.s32.s32" lacks the required .lo/.hi and does not assemble.
    bool known = r.atom.find("SM75_U32x1_MOVM_T") != std::string::npos ? r.status == VerifyStatus::kDisagree
                 : r.atom == "SM61_DP2A"                               ? r.status == VerifyStatus::kError
                                                                       : false;
    CHECK_MESSAGE(known, r.atom << ": " << to_string(r.status) << " " << r.reason);
  }
  CHECK(agree > 1500);
  CHECK(seconds < 60);
}
