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
#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// eval --json of a CuTe print (kind, shape and, for layouts, the index at every coordinate).
json function_of(const std::string& text) {
  EvalOptions o;
  o.expression = text;
  o.json = true;
  json j = json::parse(run_eval(o).bytes);
  json f = {{"kind", j["kind"]}};
  for (const char* key : {"shape", "values", "value"})
    if (j.contains(key)) f[key] = j[key];
  return f;
}

}  // namespace

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
      auto r = test::run_cutevis(args, "CUTEVIS_CACHE_DIR=off");
      CAPTURE(r.err);
      REQUIRE(r.exit_code == 0);
      names_of[key] = json::parse(r.out)["names"];
    }
    CAPTURE(key);
    CAPTURE(row["name"]);
    json found;
    for (const auto& n : names_of[key])
      if (n["name"] == row["name"]) found = n;
    REQUIRE(found.is_object());
    REQUIRE(found["kind"] != "unresolved");
    CHECK(function_of(found["value"].get<std::string>()) == function_of(row["cute"].get<std::string>()));
    ++compared;
  }
  CHECK(compared >= 50);
}
