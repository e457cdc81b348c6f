// A TiledCopy over tensors (atoms/analysis/copy_analysis.hpp): hand-computed cases, the
// CUTLASS #1882 layout, and every case measured by Nsight Compute on an H100.
#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "atoms/analysis/copy_analysis.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "lib/lang/expr.hpp"
#include "tests/support/copy_tensor.hpp"

using namespace cutevis;

namespace {

TiledCopy tiled(const std::string& expr) {
  static const bool registered = [] {
    register_mma_names(default_registry());
    register_copy_names(default_registry());
    return true;
  }();
  (void)registered;
  Value v = evaluate_expression(expr);
  REQUIRE(as_tiled_copy(v) != nullptr);
  return *as_tiled_copy(v);
}

CopyAnalysis analyze(const std::string& copy, const std::string& src, const std::string& dst) {
  TiledCopy c = tiled(copy);
  auto [s, d] = default_spaces(c.atom);
  return analyze_copy(c, test::copy_tensor(src, s), test::copy_tensor(dst, d));
}

}  // namespace

TEST_CASE("CUTLASS #1882: 16x16 threads storing 1x2 DefaultCopy halves into a 16x32 row-major tile") {
  // Layout<Shape<_16,_16>> puts threads 0-15 down the 16 rows of column pair 0: DefaultCopy
  // (8-bit assumed alignment) stores one half per instruction; lanes 0-15 hit rows 0-15 at
  // 64-byte pitch, i.e. banks 0 and 16 in turn, 8 distinct words each -> 8 wavefronts, 1 ideal.
  CopyAnalysis a =
      analyze("make_tiled_copy(Copy_Atom<DefaultCopy, half_t>{}, Layout<Shape<_16,_16>>{}, Layout<Shape<_1,_2>>{})", "",
              "smem:(16,32):(32,1)");
  CHECK(a.vector_bits == 16);
  CHECK(a.dst.max_common_vector == 2);
  CHECK(a.smem.instructions == 16);  // 8 warps x 2 values
  CHECK(a.smem.wavefronts == 128);
  CHECK(a.smem.ideal_wavefronts == 16);
  CHECK(a.smem.bank_conflicts == 112);
  for (const MemoryInstruction& i : a.instructions) {
    CHECK(i.ptx() == "st.shared.b16");
    CHECK(i.wavefronts == 8);
  }
  // Threads along the rows instead (row-major thread layout): conflict-free.
  CopyAnalysis rows = analyze(
      "make_tiled_copy(Copy_Atom<DefaultCopy, half_t>{}, Layout<Shape<_16,_16>,Stride<_16,_1>>{}, "
      "Layout<Shape<_1,_2>>{})",
      "", "smem:(16,32):(32,1)");
  CHECK(rows.smem.wavefronts == 16);
  CHECK(rows.smem.bank_conflicts == 0);
  // AutoVectorizingCopy (128-bit assumed alignment) stores both halves at once: 32-bit stores.
  CopyAnalysis vec = analyze(
      "make_tiled_copy(Copy_Atom<AutoVectorizingCopy, half_t>{}, Layout<Shape<_16,_16>,Stride<_16,_1>>{}, "
      "Layout<Shape<_1,_2>>{})",
      "", "smem:(16,32):(32,1)");
  CHECK(vec.vector_bits == 32);
  CHECK(vec.smem.instructions == 8);
  CHECK(vec.smem.wavefronts == 8);
}

TEST_CASE("128-bit gmem -> smem: swizzled GMMA layout is conflict-free, plain K-major column walk is not") {
  const std::string copy =
      "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_8>>{})";
  CopyAnalysis sw =
      analyze(copy, "gmem:(128,64):(64,1)", "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})");
  CHECK(sw.vector_bits == 128);
  CHECK(sw.tiles == 8);
  CHECK(sw.src.space == MemorySpace::kGmem);
  CHECK(sw.dst.space == MemorySpace::kSmem);
  CHECK(sw.smem.instructions == 32);  // 4 warps x 8 tiles
  CHECK(sw.smem.wavefronts == 128);   // 4 per 128-bit instruction
  CHECK(sw.smem.bank_conflicts == 0);
  CHECK(sw.gmem.requests == 32);
  CHECK(sw.gmem.sectors == 32 * 16);  // 512 bytes per warp, all used
  CHECK(sw.gmem.efficiency() == doctest::Approx(1.0));
  // Threads walking down columns (8 values along M per thread) of a row-major smem tile do not vectorize.
  CopyAnalysis col = analyze(
      "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_8,_16>>{}, Layout<Shape<_8,_1>>{})",
      "gmem:(64,64):(1,64)", "smem:(64,64):(64,1)");
  CHECK(col.src.vectorizes);
  CHECK_FALSE(col.dst.vectorizes);
}

TEST_CASE("ldmatrix over an MMA operand: row-major smem conflicts 8-way, the SW128 atom not at all") {
  const std::string copy =
      "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
      "Layout<Shape<_2,_2,_1>>{}))";
  CopyAnalysis row = analyze(copy, "smem:(32,64):(64,1)", "");
  CHECK(row.dst.space == MemorySpace::kRmem);
  REQUIRE_FALSE(row.instructions.empty());
  CHECK(row.instructions[0].ptx() == "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  CHECK(row.smem.wavefronts == 8 * row.smem.ideal_wavefronts);
  CopyAnalysis sw = analyze(copy, "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_32,_64>{})", "");
  CHECK(sw.smem.bank_conflicts == 0);
  CHECK(sw.smem.wavefronts == sw.smem.ideal_wavefronts);
  CHECK(sw.smem.instructions == row.smem.instructions);
}

TEST_CASE("bad placements are errors, not guesses") {
  const std::string copy =
      "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_8>>{})";
  CHECK_THROWS_AS(analyze(copy, "", ""), Error);                                         // nothing in memory
  CHECK_THROWS_AS(analyze(copy, "gmem:(100,64):(64,1)", ""), Error);                     // not a multiple of the tile
  CHECK_THROWS_AS(analyze(copy, "gmem:(128,64):(64,1)", "smem:(64,64):(64,1)"), Error);  // shapes differ
  CHECK_THROWS_AS(
      analyze(
          "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}))",
          "gmem:(16,16):(16,1)", ""),
      Error);  // ldmatrix reads smem
}

// Every case of scripts/gpu_inspect.py, measured by ncu 2025.3 on an H100 (serial replay: one warp's
// instruction at a time), recorded by `gpu_inspect.py record`.  The analysis must give the same
// wavefronts, bank conflicts, requests and sectors.  cp.async.cg's sectors are counted per (global
// line, shared sector) and must be equal too; cp.async.ca's destination conflicts must lie in the
// analysis' range [bank_conflicts_min, bank_conflicts] (README, "cp.async"): the hardware writes
// some source lines on their own, which no layout rule predicts.
TEST_CASE("the analysis equals Nsight Compute on every recorded H100 case") {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/inspect_h100.jsonl");
  REQUIRE(in.good());
  std::string line;
  int cases = 0, values = 0, ranged = 0;
  while (std::getline(in, line)) {
    nlohmann::json c = nlohmann::json::parse(line);
    CAPTURE(c["case"].get<std::string>());
    CopyAnalysis a = analyze(c["copy"], c["src"], c["dst"]);
    std::map<std::string, int64_t> want;
    int64_t ldgsts_min = 0;
    for (const MemoryInstruction& i : a.instructions) {
      const bool cp = i.kind == AccessKind::kCpAsync;
      const std::string op = i.is_store() && !cp ? "st" : "ld";
      if (i.space == MemorySpace::kSmem) {
        if (cp) {
          want["bc_ldgsts"] += i.bank_conflicts;
          ldgsts_min += i.bank_conflicts_min;
        } else {
          want["wf_" + op] += i.wavefronts;
          want["bc_" + op] += i.bank_conflicts;
        }
      } else {
        want["req_" + op] += i.requests;
        want["sec_" + op] += i.sectors;
      }
    }
    for (auto& item : c["ncu"].items()) {
      const std::string metric = item.key();  // not a structured binding: CHECK_MESSAGE captures it (clang 14)
      const auto& measured = item.value();
      const int64_t got = measured.get<int64_t>();
      if (metric == "bc_ldgsts") {
        CHECK(ldgsts_min <= got);
        CHECK(got <= want[metric]);
        ranged += ldgsts_min != want[metric];
      } else {
        CHECK_MESSAGE(want[metric] == got, metric);
      }
      ++values;
    }
    ++cases;
  }
  CHECK(cases >= 690);
  CHECK(values >= 9 * 690);
  CHECK(ranged <= 40);  // a range only where a phase's sources span several lines
}
