// cutlass/fast_math.h's integer helpers (gcd and lcm's loops, round_up, ceil_div, find_log2 through clz's
// for loop) evaluated as CUTLASS writes them, from a real checkout given by CUTLASS_PATH (the test skips,
// visibly, without one).  Expected values: what g++ computed with the same header
// (tests/data/kernels/constexpr_loops_oracle.tsv, rows fast_math.*).
#include <doctest/doctest.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"
#include "tests/support/tsv_oracle.hpp"

namespace fs = std::filesystem;

TEST_CASE("real CUTLASS headers (CUTLASS_PATH): fast_math.h's gcd, lcm, round_up, ceil_div, find_log2, clz") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  if (!cutlass || !fs::exists(fs::path(cutlass) / "include/cutlass/fast_math.h"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  const std::string path = (fs::temp_directory_path() / ("cutevis_fast_math_" + std::to_string(::getpid()) + ".cu"));
  std::ofstream(path) << "#include <cute/tensor.hpp>\n#include \"cutlass/fast_math.h\"\n"
                         "constexpr int kHeadDim = 96;\nconstexpr int kElemsPerLoad = 8;\n";
  const auto oracle = cutevis::test::tsv_oracle("tests/data/kernels/constexpr_loops_oracle.tsv");
  const std::pair<const char*, const char*> calls[] = {{"fast_math.gcd", "cutlass::gcd(kHeadDim / kElemsPerLoad, 256)"},
                                                       {"fast_math.lcm", "cutlass::lcm(12, 18)"},
                                                       {"fast_math.round_up", "cutlass::round_up(100, 8)"},
                                                       {"fast_math.ceil_div", "cutlass::ceil_div(100, 8)"},
                                                       {"fast_math.find_log2", "cutlass::find_log2(100)"},
                                                       {"fast_math.clz", "cutlass::clz(1000)"},
                                                       {"fast_math.round_nearest", "cutlass::round_nearest(100, 48)"}};
  for (const auto& entry : calls) {
    const char* key = entry.first;  // (clang 14 cannot CAPTURE a structured binding)
    const char* call = entry.second;
    CAPTURE(call);
    auto r = cutevis::test::run_cutevis({"eval", "--from", path, call}, std::string("CUTLASS_PATH=") + cutlass);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    REQUIRE(oracle.count(key) == 1);
    CHECK(r.out == oracle.at(key) + "\n");
  }
  std::remove(path.c_str());
}
