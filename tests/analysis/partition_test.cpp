// One thread's partition_S / partition_D against CuTe's.
//
// tests/data/partition_oracle.jsonl was produced by a small host-only C++ program built against
// CUTLASS (not part of this repository): for each TiledCopy, tensor and thread it printed
// shape(part), part.layout() and the value of every element of thr_copy.partition_S/D(tensor),
// where the tensor held its own element offsets (smem tensors through make_smem_ptr on a
// 1024-byte aligned buffer, so swizzles act exactly as on the GPU).
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "atoms/analysis/copy_analysis.hpp"
#include "atoms/analysis/partition.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/expr.hpp"
#include "tests/support/copy_tensor.hpp"

using namespace cutevis;

namespace {

// The MMA and copy names in the default registry (the parser of tensors uses it too).
void register_names() {
  static const bool registered = [] {
    register_mma_names(default_registry());
    register_copy_names(default_registry());
    return true;
  }();
  (void)registered;
}

TiledCopy tiled_copy(const std::string& expr) {
  register_names();
  Value v = evaluate_expression(expr);
  REQUIRE(as_tiled_copy(v) != nullptr);
  return *as_tiled_copy(v);
}

}  // namespace

TEST_CASE("partition_S/D equal CuTe's for every recorded copy, tensor and thread") {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/partition_oracle.jsonl");
  REQUIRE(in.good());
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    nlohmann::json c = nlohmann::json::parse(line);
    CAPTURE(line.substr(0, 160));
    TiledCopy copy = tiled_copy(c["copy"]);
    CopyTensor tensor = test::copy_tensor(c["tensor"], MemorySpace::kSmem);
    const int64_t t = c["thread"];
    ThreadPartition p = c["side"] == "S" ? partition_S(copy, tensor.layout, t) : partition_D(copy, tensor.layout, t);
    // the same function: element i reads the same offset
    CHECK(p.offsets == c["values"].get<std::vector<int64_t>>());
    // the same (CPY, CPY_M, CPY_N) sizes
    std::string shape = c["shape"];
    std::erase(shape, '_');
    CHECK(size(p.layout.shape) == static_cast<int64_t>(p.offsets.size()));
    CHECK(rank(p.layout) == 3);
    if (std::holds_alternative<Layout>(tensor.layout)) {
      // plain tensors: CuTe's layout, as a function (the pointer offset lives in p.offset)
      std::string cute = c["cute_layout"];
      std::erase(cute, '_');
      Layout expected = evaluate_expression(cute).to_layout();
      CHECK(same_function(p.layout, expected));
      CHECK(to_string(p.layout.shape) == to_string(expected.shape));
    }
    ++checked;
  }
  CHECK(checked >= 25);
}

TEST_CASE("a thread outside the copy is an error") {
  TiledCopy copy = tiled_copy(
      "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_8>>{})");
  CHECK_THROWS_AS(partition_S(copy, make_layout(tup(128, 64), tup(64, 1)), 128), Error);
  CHECK_NOTHROW(partition_S(copy, make_layout(tup(128, 64), tup(64, 1)), 127));
}

TEST_CASE("make_tiled_copy_A/B deliver the MMA's fragments; a hand-made LDSM tiling does not") {
  register_names();
  const std::string mma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";
  Value m = evaluate_expression(mma);
  REQUIRE(as_tiled_mma(m) != nullptr);
  const TiledMma& tiled_mma = *as_tiled_mma(m);
  FragmentCheck a = check_fragment(tiled_copy("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, " + mma + ")"),
                                   tiled_mma, 'A');
  CHECK(a.matches);
  CHECK(a.threads_checked == 128);
  FragmentCheck b = check_fragment(tiled_copy("make_tiled_copy_B(Copy_Atom<SM75_U16x4_LDSM_T, half_t>{}, " + mma + ")"),
                                   tiled_mma, 'B');
  CHECK(b.matches);
  // The #1953 pattern: an int8 B operand through a transposing LDSM keeps the MMA's fragment.
  const std::string mma8 =
      "make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_4,_1,_1>>{}, Tile<_64,_32,_32>{})";
  Value m8 = evaluate_expression(mma8);
  CHECK(check_fragment(tiled_copy("make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, int8_t>{}, " + mma8 + ")"),
                       *as_tiled_mma(m8), 'B')
            .matches);
  // A's copy checked against B, and a plain row tiling of the A tile: named mismatches.
  FragmentCheck wrong = check_fragment(
      tiled_copy("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, " + mma + ")"), tiled_mma, 'B');
  CHECK_FALSE(wrong.matches);
  FragmentCheck rows = check_fragment(tiled_copy("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, "
                                                 "Layout<Shape<_32,_4>,Stride<_1,_32>>{}, Layout<Shape<_1,_8>>{})"),
                                      tiled_mma, 'A');
  CHECK_FALSE(rows.matches);
  CHECK(rows.first_mismatch.rfind("thread 0:", 0) == 0);
}

// tests/data/mma_partition_oracle.jsonl was produced the same way (a host-only program built against
// CUTLASS, not part of this repository): for each TiledMMA, smem tensors A (M,K) and B (N,K) and a
// row-major C (M,N) holding their own element offsets, and each thread, it printed
// thr_mma.partition_A/B/C(tensor).layout() and values, partition_fragment_A/B/C(tensor).layout(),
// and make_tiled_copy_A/B(Copy_Atom<LDSM, half_t>, mma).get_slice(t).retile_D(fragment).layout().
// The SM90 SS GMMA rows (no copies) check the descriptor fragments of shared-memory operands.
TEST_CASE("partition_A/B/C, partition_fragment and retile_D equal CuTe's for every recorded MMA, tensor and thread") {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/mma_partition_oracle.jsonl");
  REQUIRE(in.good());
  std::string line;
  int checked = 0;
  auto cute_layout = [](std::string text) {
    std::erase(text, '_');
    return evaluate_expression(text).to_layout();
  };
  while (std::getline(in, line)) {
    nlohmann::json c = nlohmann::json::parse(line);
    CAPTURE(line.substr(0, 200));
    register_names();
    Value mv = evaluate_expression(c["mma"]);
    REQUIRE(as_tiled_mma(mv) != nullptr);
    const TiledMma& mma = *as_tiled_mma(mv);
    const int64_t t = c["thread"];
    for (const char* op : {"A", "B", "C"}) {
      CAPTURE(op);
      const nlohmann::json& want = c[op];
      const std::string tensor_text = c[std::string(op) == "A" ? "smem_a" : std::string(op) == "B" ? "smem_b" : "c"];
      CopyTensor tensor = test::copy_tensor(tensor_text, MemorySpace::kSmem);
      ThreadPartition p = partition_mma(mma, op[0], tensor.layout, t);
      CHECK(p.offsets == want["values"].get<std::vector<int64_t>>());
      CHECK(rank(p.layout) == 3);
      if (std::holds_alternative<Layout>(tensor.layout)) {
        Layout expected = cute_layout(want["layout"]);
        CHECK(same_function(p.layout, expected));
        CHECK(to_string(p.layout.shape) == to_string(expected.shape));
      }
      const Layout fragment = partition_fragment(p);
      CHECK(to_string(fragment) == to_string(cute_layout(want["fragment"])));
      if (std::string(op) == "C" || !c.contains(std::string("copy_") + char(op[0] + 32))) continue;
      const std::string copy = std::string("make_tiled_copy_") + op + "(Copy_Atom<" +
                               c[std::string("copy_") + char(op[0] + 32)].get<std::string>() + ", half_t>{}, " +
                               c["mma"].get<std::string>() + ")";
      const Layout retiled = retile(tiled_copy(copy), fragment);
      const Layout expected = cute_layout(want["retile_D"]);
      CHECK(to_string(retiled.shape) == to_string(expected.shape));
      CHECK(same_function(retiled, expected));
    }
    ++checked;
  }
  CHECK(checked >= 17);
}

TEST_CASE("partition_A by hand: SM80 16x8x16, thread 0 of a 2x2 tiling over a 64x64 row-major A") {
  register_names();
  Value mv = evaluate_expression("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})");
  const TiledMma& mma = *as_tiled_mma(mv);
  // thread 0 holds A(0,0..1), A(8,0..1), A(0,8..9), A(8,8..9) of the atom: offsets 0,1,512,513,8,9,520,521
  // (row 8 is 512 elements on); the 2x2 tiling repeats the atom every 32 rows (MMA_M = 64/32 = 2, stride
  // 32*64) and every 16 columns (MMA_K = 4, stride 16)
  ThreadPartition p = partition_mma(mma, 'A', make_layout(tup(64, 64), tup(64, 1)), 0);
  CHECK(std::vector<int64_t>(p.offsets.begin(), p.offsets.begin() + 8) ==
        std::vector<int64_t>{0, 1, 512, 513, 8, 9, 520, 521});
  CHECK(to_string(p.layout.shape) == "((2,2,2),2,4)");
  CHECK(p.offset == 0);
  // thread 5 = lane 5: row 5/4 = 1, columns 2*(5%4) = 2,3
  CHECK(partition_mma(mma, 'A', make_layout(tup(64, 64), tup(64, 1)), 5).offsets[0] == 64 + 2);
  CHECK_THROWS_AS(partition_mma(mma, 'A', make_layout(tup(64, 64), tup(64, 1)), 128), Error);
}

TEST_CASE("the TV layouts over a whole tensor give each thread's partition, value for value") {
  register_names();
  TiledCopy copy = tiled_copy(
      "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_4,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_2>>{})");
  const Layout tensor = make_layout(tup(8, 32), tup(32, 1));
  const Layout tv = tensor_layout_tv(copy, 'S', shape(tensor));
  CHECK(size(tv) == 256);
  for (int64_t t = 0; t < 32; ++t) {
    ThreadPartition p = partition_S(copy, tensor, t);
    for (size_t i = 0; i < p.cells.size(); ++i) CHECK(tv(t + 32 * static_cast<int64_t>(i)) == p.cells[i]);
  }
  Value mv = evaluate_expression("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})");
  const TiledMma& mma = *as_tiled_mma(mv);
  for (char op : {'A', 'B', 'C'}) {
    const IntTuple sh = op == 'A' ? tup(64, 32) : op == 'B' ? tup(32, 32) : tup(64, 32);
    const Layout mtv = tensor_layout_tv(mma, op, sh);
    for (int64_t t : {0, 5, 37, 127}) {
      ThreadPartition p = partition_mma(mma, op, make_layout(sh), t);
      for (size_t i = 0; i < p.cells.size(); ++i) CHECK(mtv(t + 128 * static_cast<int64_t>(i)) == p.cells[i]);
    }
  }
}
