// Issue 19's survey, checked: `names --from` CUTLASS's own Hopper and Blackwell tutorials with
// -I $CUTLASS_PATH/include and the -D a user gives resolves their shared-memory layouts, MMA
// tilers and cluster layouts to what real CuTe prints (tests/data/cutlass_tutorials_oracle.jsonl:
// CuTe's prints, made by a host-only program against the same CUTLASS checkout; outputs only).
// The tutorials are CUTLASS's files: without a checkout (CUTLASS_PATH) the test skips, visibly.
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

TEST_CASE("CUTLASS's tutorials with -I: the values names resolves are CuTe's, compared as functions") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  if (!cutlass || !fs::exists(fs::path(cutlass) / "examples/cute/tutorial/hopper/wgmma_sm90.cu"))
    CUTEVIS_SKIP("needs a CUTLASS checkout with its examples: CUTLASS_PATH=path/to/cutlass");
  register_catalogue_names();
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/cutlass_tutorials_oracle.jsonl");
  std::map<std::string, json> names_of;  // one names run per file and -D set
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    const json row = json::parse(line);
    const std::string file = std::string(cutlass) + "/" + row["file"].get<std::string>();
    std::vector<std::string> args{"names",  "--json",
                                  "--from", file,
                                  "-I",     std::string(cutlass) + "/include",
                                  "-I",     std::string(cutlass) + "/examples/cute/tutorial/blackwell"};
    std::string key = file;
    for (const auto& d : row["defines"]) {
      args.insert(args.end(), {"-D", d.get<std::string>()});
      key += " " + d.get<std::string>();
    }
    if (!names_of.count(key)) {
      names_of[key] = test::names_of_run(args);
    }
    CAPTURE(key);
    CAPTURE(row["name"]);
    const json found = test::find_name(names_of[key], row["name"]);
    REQUIRE(found.is_object());
    REQUIRE(found["kind"] != "unresolved");
    CHECK(test::function_of(found["value"].get<std::string>()) == test::function_of(row["cute"].get<std::string>()));
    ++compared;
  }
  CHECK(compared >= 50);
}
