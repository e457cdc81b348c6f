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
#include "lib/expr.hpp"

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
    CopyTensor tensor = parse_copy_tensor(c["tensor"], MemorySpace::kSmem);
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
  TiledCopy copy = tiled_copy("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})");
  CHECK_THROWS_AS(partition_S(copy, make_layout(tup(128, 64), tup(64, 1)), 128), Error);
  CHECK_NOTHROW(partition_S(copy, make_layout(tup(128, 64), tup(64, 1)), 127));
}

TEST_CASE("make_tiled_copy_A/B deliver the MMA's fragments; a hand-made LDSM tiling does not") {
  register_names();
  const std::string mma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";
  Value m = evaluate_expression(mma);
  REQUIRE(as_tiled_mma(m) != nullptr);
  const TiledMma& tiled_mma = *as_tiled_mma(m);
  FragmentCheck a = check_fragment(tiled_copy("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, " + mma + ")"), tiled_mma, 'A');
  CHECK(a.matches);
  CHECK(a.threads_checked == 128);
  FragmentCheck b = check_fragment(tiled_copy("make_tiled_copy_B(Copy_Atom<SM75_U16x4_LDSM_T, half_t>{}, " + mma + ")"), tiled_mma, 'B');
  CHECK(b.matches);
  // The #1953 pattern: an int8 B operand through a transposing LDSM keeps the MMA's fragment.
  const std::string mma8 = "make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_4,_1,_1>>{}, Tile<_64,_32,_32>{})";
  Value m8 = evaluate_expression(mma8);
  CHECK(check_fragment(tiled_copy("make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, int8_t>{}, " + mma8 + ")"), *as_tiled_mma(m8), 'B').matches);
  // A's copy checked against B, and a plain row tiling of the A tile: named mismatches.
  FragmentCheck wrong = check_fragment(tiled_copy("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, " + mma + ")"), tiled_mma, 'B');
  CHECK_FALSE(wrong.matches);
  FragmentCheck rows = check_fragment(
      tiled_copy("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_4>,Stride<_1,_32>>{}, Layout<Shape<_1,_8>>{})"), tiled_mma, 'A');
  CHECK_FALSE(rows.matches);
  CHECK(rows.first_mismatch.rfind("thread 0:", 0) == 0);
}
