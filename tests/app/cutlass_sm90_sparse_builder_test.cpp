// Issue 19's survey, the SM90 sparse builder: `names --from` CUTLASS's own sm90_sparse_gmma_builder.inl with
// -I $CUTLASS_PATH/include and the -D a user gives for an f16 and an e4m3 sparse GEMM evaluates its
// GMMA::ss_op_selector_sparse (the SPARSE GMMA atoms, atoms/mma_gmma.cpp), the TiledMma's ValTypeA/ValTypeE
// (sparse_elem), Sm90GemmSparseConfig (read from CUTLASS's header) and ss_smem_selector for B to what real CuTe
// builds (tests/data/cutlass_sm90_sparse_builder_oracle.jsonl: a host-only program against CUTLASS 4.7.0;
// outputs only). The builder is CUTLASS's file: without a checkout (CUTLASS_PATH) the test skips, visibly.
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

TEST_CASE("CUTLASS's sm90 sparse builder with -I: the sparse TiledMma and B's smem atom are CuTe's") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  const std::string builder =
      std::string(cutlass ? cutlass : "") + "/include/cutlass/gemm/collective/builders/sm90_sparse_gmma_builder.inl";
  if (!cutlass || !fs::exists(builder))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass (with include/cutlass/gemm/collective)");
  register_catalogue_names();
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/cutlass_sm90_sparse_builder_oracle.jsonl");
  std::map<std::string, json> names_of;
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    const json row = json::parse(line);
    if (!row.contains("config")) continue;  // the provenance line
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
    if (row.contains("part")) {
      CHECK(found["kind"] == "tiled_mma");
      CHECK(test::function_of(test::tiled_mma_part(value, row["part"])) == test::function_of(cute));
    } else {
      CHECK(test::function_of(value) == test::function_of(cute));
    }
    ++compared;
  }
  CHECK(compared == 10);
  // what the builder reads off the sparse TiledMma, for both configurations
  for (const auto& [config, names] : names_of)
    for (const auto& n : names) {
      const std::string name = n["name"];
      if (name.find("::ElementAMmaSparsity") != std::string::npos) CHECK(n.value("value", "") == "2");
      if (name.find("::ElementEMma") != std::string::npos) CHECK(n.value("value", "") == "sparse_elem<8,uint8_t>");
    }
}
