// What the tests that compare `names` on CUTLASS's own files with real CuTe's prints share: the layout a
// print stands for as a function, one layout of a TiledMMA's print, and the names of one `names --json`
// run. The oracles themselves (tests/data/cutlass_*_oracle.jsonl) are outputs only.
#pragma once

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "tests/support/run.hpp"

namespace cutevis::test {

// eval --json of a CuTe print: its kind, shape and, for a layout, the index at every coordinate, so two
// prints compare as functions, not as strings.
inline nlohmann::json function_of(const std::string& text) {
  EvalOptions o;
  o.expression = text;
  o.json = true;
  nlohmann::json j = nlohmann::json::parse(run_eval(o).bytes);
  nlohmann::json f = {{"kind", j["kind"]}};
  for (const char* key : {"shape", "values", "value"})
    if (j.contains(key)) f[key] = j[key];
  return f;
}

// One line of a TiledMMA's print: "  LayoutC_TV: ((4,8,4),...):(...)" -> "((4,8,4),...):(...)".
inline std::string tiled_mma_part(const std::string& print, const std::string& part) {
  size_t at = print.find(part + ":");
  if (at == std::string::npos) return "";
  size_t begin = print.find_first_not_of(' ', at + part.size() + 1);
  return print.substr(begin, print.find('\n', begin) - begin);
}

// The "names" array of `cutevis ARGS` (a `names --json` run, header cache off); the run must succeed.
inline nlohmann::json names_of_run(const std::vector<std::string>& args) {
  auto r = run_cutevis(args, "CUTEVIS_CACHE_DIR=off");
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out)["names"];
}

// The entry called NAME in a names array, or null.
inline nlohmann::json find_name(const nlohmann::json& names, const std::string& name) {
  for (const auto& n : names)
    if (n["name"] == name) return n;
  return nullptr;
}

}  // namespace cutevis::test
