// Issue 19's survey, Hopper part, checked: `names --from` CUTLASS's own sm90_gmma_builder.inl with
// -I $CUTLASS_PATH/include and a builder's template arguments as -D evaluates CUTLASS's text (its
// is_major, ss_smem_selector, ss_op_selector, compute_stage_count_or_override) to what real CuTe
// builds: the TiledMma, the smem layout atoms, the TMA ops and the stage count of six builders
// (tests/data/cutlass_sm90_builder_oracle.jsonl: CuTe's prints from a host-only program against the
// same CUTLASS headers; outputs only). The builder is CUTLASS's file: without a checkout
// (CUTLASS_PATH) the test skips, visibly.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "tests/support/cutlass_oracle.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string without_namespace(std::string s, const std::string& ns) {
  return s.rfind(ns, 0) == 0 ? s.substr(ns.size()) : s;
}

}  // namespace

TEST_CASE("CUTLASS's sm90 collective builder with -I: TiledMma, smem atoms, TMA ops, stages are CuTe's") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  const std::string builder =
      std::string(cutlass ? cutlass : "") + "/include/cutlass/gemm/collective/builders/sm90_gmma_builder.inl";
  if (!cutlass || !fs::exists(builder))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass (with include/cutlass/gemm/collective)");
  register_catalogue_names();
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/cutlass_sm90_builder_oracle.jsonl");
  std::map<std::string, json> names_of;  // one names run per builder configuration
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    const json row = json::parse(line);
    const std::string config = row["config"];
    if (!names_of.count(config)) {
      std::vector<std::string> args{"names", "--json", "--from", builder, "-I", std::string(cutlass) + "/include"};
      for (const auto& d : row["defines"]) args.insert(args.end(), {"-D", d.get<std::string>()});
      names_of[config] = test::names_of_run(args);
    }
    CAPTURE(config);
    CAPTURE(row["name"]);
    const json found = test::find_name(names_of[config], row["name"]);
    REQUIRE(found.is_object());
    CAPTURE(found.value("error", ""));
    REQUIRE(found["kind"] != "unresolved");
    const std::string cute = row["cute"], value = found["value"];
    const std::string name = row["name"];
    if (row.contains("part")) {  // a TiledMMA: each of its layouts, as functions
      CHECK(found["kind"] == "tiled_mma");
      CHECK(test::function_of(test::tiled_mma_part(value, row["part"])) == test::function_of(cute));
    } else if (name.find("SmemLayoutAtom") != std::string::npos) {
      CHECK(test::function_of(value) == test::function_of(cute));
    } else if (name.find("DispatchPolicy") != std::string::npos) {  // the policy's template (its Stages below)
      CHECK(value.substr(0, value.find('<')) == cute);
    } else {  // the TMA op (CuTe's typeid name), the stage count
      CHECK(value == without_namespace(cute, "cute::"));
    }
    ++compared;
  }
  CHECK(compared >= 60);
}
