// CUTLASS's own SM100 collective builders read through -I, as CUTLASS writes them, against what real CuTe
// printed for the same template arguments (tests/data/cutlass_builders/sm100_builder_oracle.tsv, outputs only).
// The builders are CUTLASS's text: the test needs a checkout (CUTLASS_PATH) and skips, visibly, without one.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Config {
  const char* file;  // under include/cutlass/gemm/collective/builders/
  std::vector<std::string> defines;
};

// The template arguments of each oracle configuration, as a user gives them to `names`.
std::map<std::string, Config> configs() {
  const std::vector<std::string> common = {"ArchTag=cutlass::arch::Sm100", "ElementAccumulator=float",
                                           "StageCountType=cutlass::gemm::collective::StageCountAuto"};
  auto with = [&](const char* file, std::vector<std::string> d) {
    d.insert(d.end(), common.begin(), common.end());
    return Config{file, d};
  };
  const char* dense = "sm100_umma_builder.inl";
  const char* bs = "sm100_blockscaled_umma_builder.inl";
  const std::string rm = "cutlass::layout::RowMajor", cm = "cutlass::layout::ColumnMajor";
  return {
      {"d1", with(dense, {"ElementA=cutlass::half_t", "ElementB=cutlass::half_t", "GmemLayoutATag=" + rm,
                          "GmemLayoutBTag=" + cm, "AlignmentA=8", "AlignmentB=8",
                          "TileShape_MNK=cute::Shape<cute::_256,cute::_128,cute::_64>",
                          "ClusterShape_MNK=cute::Shape<cute::_2,cute::_1,cute::_1>",
                          "BuilderScheduleTag=cutlass::gemm::KernelTmaWarpSpecialized2SmSm100"})},
      {"d2", with(dense, {"ElementA=cutlass::half_t", "ElementB=cutlass::half_t", "GmemLayoutATag=" + cm,
                          "GmemLayoutBTag=" + rm, "AlignmentA=8", "AlignmentB=8",
                          "TileShape_MNK=cute::Shape<cute::_128,cute::_256,cute::_64>",
                          "ClusterShape_MNK=cute::Shape<cute::_1,cute::_2,cute::_1>",
                          "BuilderScheduleTag=cutlass::gemm::KernelTmaWarpSpecialized1SmSm100"})},
      {"d3", with(dense, {"ElementA=float", "ElementB=float", "GmemLayoutATag=" + rm, "GmemLayoutBTag=" + cm,
                          "AlignmentA=4", "AlignmentB=4", "TileShape_MNK=cute::Shape<cute::_128,cute::_128,cute::_32>",
                          "ClusterShape_MNK=cute::Shape<cute::_1,cute::_1,cute::_1>",
                          "BuilderScheduleTag=cutlass::gemm::KernelTmaWarpSpecialized1SmSm100"})},
      {"d4", with(dense, {"ElementA=cutlass::float_e4m3_t", "ElementB=cutlass::float_e4m3_t", "GmemLayoutATag=" + rm,
                          "GmemLayoutBTag=" + cm, "AlignmentA=16", "AlignmentB=16",
                          "TileShape_MNK=cute::Shape<cute::_64,cute::_128,cute::_128>",
                          "ClusterShape_MNK=cute::Shape<cute::_1,cute::_1,cute::_1>",
                          "BuilderScheduleTag=cutlass::gemm::KernelTmaWarpSpecialized1SmSm100"})},
      {"b1", with(bs, {"ElementPairA=cutlass::mx_float8_t<cutlass::float_e4m3_t>",
                       "ElementPairB=cutlass::mx_float8_t<cutlass::float_e4m3_t>", "GmemLayoutATag=" + rm,
                       "GmemLayoutBTag=" + cm, "AlignmentA=16", "AlignmentB=16",
                       "TileShape_MNK=cute::Shape<cute::_256,cute::_128,cute::_128>",
                       "ClusterShape_MNK=cute::Shape<cute::_2,cute::_1,cute::_1>",
                       "BuilderScheduleTag=cutlass::gemm::KernelTmaWarpSpecialized2SmMxf8f6f4Sm100"})},
      {"b2", with(bs, {"ElementPairA=cutlass::nv_float4_t<cutlass::float_e2m1_t>",
                       "ElementPairB=cutlass::nv_float4_t<cutlass::float_e2m1_t>", "GmemLayoutATag=" + rm,
                       "GmemLayoutBTag=" + cm, "AlignmentA=32", "AlignmentB=32",
                       "TileShape_MNK=cute::Shape<cute::_128,cute::_128,cute::_256>",
                       "ClusterShape_MNK=cute::Shape<cute::_1,cute::_1,cute::_1>",
                       "BuilderScheduleTag=cutlass::gemm::KernelTmaWarpSpecialized1SmNvf4Sm100"})},
  };
}

// CuTe's print and cutevis's `names` agree up to the static marker (`_8` / `8`), the namespace a typeid
// names (cute::, cutlass::) and the spacing of TiledMMA's lines.
std::string normalized(std::string s) {
  s = std::regex_replace(s, std::regex("_([0-9])"), "$1");
  s = std::regex_replace(s, std::regex("\\b(cute|cutlass)::"), "");
  s = std::regex_replace(s, std::regex("[\\s|]+"), " ");
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

TEST_CASE(
    "real CUTLASS headers (CUTLASS_PATH): the SM100 collective builders' TiledMma, smem atoms, TMA ops, "
    "stage counts and scale-factor layouts equal real CuTe's") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  if (!cutlass || !fs::exists(fs::path(cutlass) / "include/cutlass/gemm/collective/builders/sm100_umma_builder.inl"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  const std::string include = (fs::path(cutlass) / "include").string();
  std::map<std::string, json> names;  // config -> its `names --json`
  for (const auto& [tag, c] : configs()) {
    // the builder files rely on collective_builder.hpp having read the declarations first (StageCountAuto)
    std::vector<std::string> args = {"names",  "--json",
                                     "--from", include + "/cutlass/gemm/collective/collective_builder_decl.hpp",
                                     "--from", include + "/cutlass/gemm/collective/builders/" + c.file,
                                     "-I",     include};
    for (const auto& d : c.defines) args.insert(args.end(), {"-D", d});
    auto r = test::run_cutevis(args);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    names[tag] = json::parse(r.out)["names"];
  }
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/cutlass_builders/sm100_builder_oracle.tsv");
  REQUIRE(in);
  std::string line;
  int compared = 0;
  std::string unresolved;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    const std::string tag = line.substr(0, t1), member = line.substr(t1 + 1, t2 - t1 - 1),
                      expected = line.substr(t2 + 1);
    CAPTURE(tag);
    CAPTURE(member);
    const std::string full = "cutlass::gemm::collective::CollectiveBuilder::" + member;
    const json* found = nullptr;
    for (const auto& n : names.at(tag))
      if (n["name"] == full) found = &n;
    REQUIRE(found != nullptr);
    CAPTURE((*found).dump());
    if ((*found)["kind"] == "unresolved") {  // counted below: what resolves must be right
      unresolved += " " + tag + "." + member;
      continue;
    }
    CHECK(normalized((*found)["value"].get<std::string>()) == normalized(expected));
    ++compared;
  }
  MESSAGE(compared << " resolved values compared with real CuTe; unresolved:" << unresolved);
  CHECK(compared >= 68);  // every value of the sample resolves
}
