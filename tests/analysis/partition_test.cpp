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

TiledCopy tiled_copy(const std::string& expr) {
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
