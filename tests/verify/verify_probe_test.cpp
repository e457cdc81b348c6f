// verify's localization, against a host model of the hardware (tests/verify/verify_sim.hpp):
// deliberately wrong layouts must be caught and exactly the wrong entries named, with
// the cells the hardware really uses.
#include <doctest/doctest.h>

#include <set>

#include "atoms/verify/probe.hpp"
#include "tests/gpu/verify_atoms.hpp"
#include "tests/verify/verify_sim.hpp"

using namespace cutevis;
using namespace cutevis::verify;
using cutevis::test::layout_of;

namespace {

// Entries whose localized cell differs from the layout's.
std::set<size_t> wrong_entries(const OperandPlan& op, const std::vector<int64_t>& actual) {
  std::set<size_t> out;
  for (size_t i = 0; i < actual.size(); ++i)
    if (actual[i] != op.cell_of[i]) out.insert(i);
  return out;
}

std::set<size_t> differing(const OperandPlan& a, const OperandPlan& b) {
  std::set<size_t> out;
  for (size_t i = 0; i < a.cell_of.size(); ++i)
    if (a.cell_of[i] != b.cell_of[i]) out.insert(i);
  return out;
}

}  // namespace

TEST_CASE("verify localize: right layouts pass the model") {
  for (const MmaAtom& atom : {test::sm80_16x8x16_f32f16(), test::sm70_8x8x4_nt(), test::sm80_8x8x128_b1_xor(),
                              test::sm90_gmma_f32f16(16, true, "MN", "MN"), test::sm90_gmma_f32f16(24, false)}) {
    CAPTURE(atom.name);
    MmaPlan p = plan_mma(atom);
    CHECK(test::mismatches(p, p) == 0);
  }
}

TEST_CASE("verify localize: two A registers swapped (value modes exchanged)") {
  MmaAtom atom = test::sm80_16x8x16_f32f16();
  MmaOverrides ov;
  ov.layout_a = layout_of("((4,8),(2,2,2)):((32,1),(16,128,8))");  // a1 <-> a2: rows 8-15 and k 8-15 confused
  MmaPlan placed = plan_mma(atom, ov), truth = plan_mma(atom);
  CHECK(test::mismatches(placed, truth) > 0);
  MmaLocalization loc = test::simulate_localization(placed, truth);
  CHECK(loc.anchors.rows == 'C');
  CHECK(loc.anchors.k == 'B');
  CHECK(wrong_entries(placed.a, loc.actual_a) == differing(placed.a, truth.a));
  CHECK(loc.actual_a == truth.a.cell_of);  // where the hardware really puts every A entry
  CHECK(wrong_entries(placed.b, loc.actual_b).empty());
  CHECK(wrong_entries(placed.c, loc.actual_c).empty());
}

TEST_CASE("verify localize: threads swapped in C") {
  MmaAtom atom = test::sm80_16x8x16_f32f16();
  MmaOverrides ov;
  ov.layout_c = layout_of("((2,2,8),(2,2)):((64,32,1),(16,8))");  // T1<->T2, T5<->T6, ...
  MmaPlan placed = plan_mma(atom, ov), truth = plan_mma(atom);
  CHECK(test::mismatches(placed, truth) > 0);
  MmaLocalization loc = test::simulate_localization(placed, truth);
  CHECK(loc.anchors.rows == 'A');  // C is the hand-written one: A and B name rows and columns
  CHECK(loc.anchors.cols == 'B');
  std::set<size_t> wrong = wrong_entries(placed.c, loc.actual_c);
  CHECK(wrong == differing(placed.c, truth.c));
  for (size_t i : wrong) {
    int64_t t = placed.c.entries[i].thr;
    CHECK((t % 4 == 1 || t % 4 == 2));
  }
  CHECK(loc.actual_c == truth.c.cell_of);
  CHECK(wrong_entries(placed.a, loc.actual_a).empty());
}

TEST_CASE("verify localize: A transposed") {
  MmaAtom atom = test::sm80_16x8x16_f32f16();
  MmaOverrides ov;
  ov.layout_a = composition(layout_of("(16,16):(16,1)"), atom.layout_a);  // (m,k) -> (k,m)
  MmaPlan placed = plan_mma(atom, ov), truth = plan_mma(atom);
  CHECK(test::mismatches(placed, truth) > 0);
  MmaLocalization loc = test::simulate_localization(placed, truth);
  CHECK(loc.actual_a == truth.a.cell_of);
  CHECK(wrong_entries(placed.a, loc.actual_a).size() == differing(placed.a, truth.a).size());
  CHECK(wrong_entries(placed.b, loc.actual_b).empty());
}

TEST_CASE("verify localize: a wrong B under XOR-POPC (b1)") {
  MmaAtom atom = test::sm80_8x8x128_b1_xor();
  MmaOverrides ov;
  ov.layout_b = layout_of("((2,2,8),32):((512,256,1),8)");  // T1<->T2 in B
  MmaPlan placed = plan_mma(atom, ov), truth = plan_mma(atom);
  CHECK(test::mismatches(placed, truth) > 0);
  MmaLocalization loc = test::simulate_localization(placed, truth);
  CHECK(loc.anchors.k == 'A');
  CHECK(loc.actual_b == truth.b.cell_of);
  CHECK(wrong_entries(placed.a, loc.actual_a).empty());
}

TEST_CASE("verify localize: a wrong ThrID (SM70 quad-pair)") {
  MmaAtom atom = test::sm70_8x8x4_nt();
  MmaOverrides ov;
  ov.thr_id = layout_of("(4,2):(1,8)");  // threads 4-7 on lanes 8-11: another quad-pair
  MmaPlan placed = plan_mma(atom, ov), truth = plan_mma(atom);
  const std::vector<int64_t> quad_pairs = {0, 4, 8, 12};
  CHECK(test::mismatches(placed, truth, quad_pairs) > 0);
  MmaLocalization loc = test::simulate_localization(placed, truth, quad_pairs);
  // every entry of threads 4-7 ran in a separate product: nowhere in this one
  for (const auto* op_actual : {&loc.actual_a, &loc.actual_b, &loc.actual_c}) {
    const OperandPlan& op = op_actual == &loc.actual_a ? placed.a : op_actual == &loc.actual_b ? placed.b : placed.c;
    for (size_t i = 0; i < op.entries.size(); ++i)
      if (op.entries[i].thr >= 4) CHECK((*op_actual)[i] == -1);
  }
  // threads 0-3 keep their A and B positions; their C entries in columns 4-7, which only
  // B's threads 4-7 could feed, are nowhere too
  for (size_t i = 0; i < placed.a.entries.size(); ++i)
    if (placed.a.entries[i].thr < 4) CHECK(loc.actual_a[i] == placed.a.cell_of[i]);
  for (size_t i = 0; i < placed.c.entries.size(); ++i)
    if (placed.c.entries[i].thr < 4) CHECK((loc.actual_c[i] == -1) == (placed.c.cell_of[i] / 8 >= 4));
}

TEST_CASE("verify localize: RS GMMA with a wrong C") {
  MmaAtom atom = test::sm90_gmma_f32f16(16, false);
  MmaOverrides ov;
  ov.layout_c = layout_of("((4,8,4),(2,2,2)):((128,1,16),(8,64,512))");  // c0/c1 <-> c2/c3
  MmaPlan placed = plan_mma(atom, ov), truth = plan_mma(atom);
  CHECK(test::mismatches(placed, truth) > 0);
  MmaLocalization loc = test::simulate_localization(placed, truth);
  CHECK(loc.anchors.cols == 'B');  // B is in shared memory
  CHECK(loc.actual_c == truth.c.cell_of);
}

TEST_CASE("verify localize: copies, a swapped row address and a swapped register") {
  CopyAtom ld = test::ldsm_n(4);
  CopyPlan truth = plan_copy(ld);
  CopyRelation rel = test::simulate_copy(truth);
  CopyLocalization same = localize_copy(truth, rel);
  CHECK(same.actual_src == truth.src.unit_of);
  CHECK(same.actual_dst == truth.dst.unit_of);

  CopyOverrides swap_rows;  // threads 1<->2, 5<->6, ... give each other's rows
  swap_rows.layout_src = layout_of("((2,2,8),8):((16,8,32),1)");
  CopyPlan placed = plan_copy(ld, swap_rows);
  CopyLocalization loc = localize_copy(placed, rel);
  CHECK(loc.anchor == 'r');
  CHECK(loc.actual_src == truth.src.unit_of);
  CHECK(loc.actual_dst == placed.dst.unit_of);
  size_t wrong = 0;
  for (size_t i = 0; i < placed.src.entries.size(); ++i) wrong += loc.actual_src[i] != placed.src.unit_of[i];
  CHECK(wrong == 16 * 8);  // 16 threads x 8 elements of their rows

  CopyOverrides swap_regs;  // registers 1 and 2 exchanged
  swap_regs.layout_dst = layout_of("(32,(2,2,2)):(2,(1,128,64))");
  CopyPlan placed2 = plan_copy(ld, swap_regs);
  CopyLocalization loc2 = localize_copy(placed2, rel);
  CHECK(loc2.anchor == 'a');  // the register side is the hand-written one
  CHECK(loc2.actual_dst == truth.dst.unit_of);

  // .x1: threads 8-31 give addresses the hardware ignores; CuTe repeats rows 0-7 for them
  CopyPlan x1 = plan_copy(test::ldsm_n(1));
  CopyLocalization l1 = localize_copy(x1, test::simulate_copy(x1));
  CHECK(l1.actual_src == x1.src.unit_of);

  // stmatrix.trans: registers tagged, rows observed
  CopyPlan st = plan_copy(test::stsm_t(4));
  CopyLocalization ls = localize_copy(st, test::simulate_copy(st));
  CHECK(ls.actual_dst == st.dst.unit_of);
  CHECK(ls.actual_src == st.src.unit_of);
}
