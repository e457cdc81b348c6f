// Dynamic integers against real CuTe: tests/data/dynamic_oracle.jsonl.
//
// How the data was made: a host-only C++17 program (not committed) built each case
// with CuTe's own headers (CUTLASS 4.x, g++ 12), mixing static ints (`Int<N>{}`,
// printed `_N`) and run-time ints (`int`, printed `N`), called the operation named
// in `op` and wrote CuTe's `print` of every argument (`args`) and of the result
// (`result`).  Each line is {op, args, result}.  Cases cover coalesce, filter,
// make_layout, size, cosize, composition, complement, the inverses, every divide
// and product, tile_to_shape, make_tiled_copy's TV layout (`make_layout_tv`:
// (tiler_mn, layout_tv)), shape_div and ceil_div.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "lib/lang/expr.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

std::vector<json> oracle_rows() {
  std::vector<json> rows;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/dynamic_oracle.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) rows.push_back(json::parse(line));
  return rows;
}

std::string expression_for(const json& row) {
  std::string e = row["op"].get<std::string>() + "(";
  for (size_t i = 0; i < row["args"].size(); ++i) e += (i ? ", " : "") + row["args"][i].get<std::string>();
  return e + ")";
}

Value eval_as(const std::string& text, Literals literals) {
  std::vector<Warning> w;
  return evaluate_expression(text, w, literals);
}

// The values a result takes: every index of a layout (each layout of a tuple), or the integers.
std::vector<int64_t> values_of(const Value& v) {
  std::vector<int64_t> out;
  if (v.is(Value::Kind::kLayout)) return layout_values(std::get<Layout>(v.any_layout()));
  if (v.is(Value::Kind::kTuple)) {
    for (const auto& e : v.elements()) {
      auto x = values_of(e);
      out.insert(out.end(), x.begin(), x.end());
    }
    return out;
  }
  out.push_back(v.as_int());
  return out;
}

}  // namespace

TEST_CASE("dynamic integers: every dynamic_oracle.jsonl case prints and evaluates as CuTe") {
  auto rows = oracle_rows();
  REQUIRE(rows.size() > 100);
  std::ostringstream failures;
  size_t pass = 0;
  for (const auto& row : rows) {
    std::string expr = expression_for(row), want = row["result"];
    try {
      Value got = eval_as(expr, Literals::kDynamic);  // CuTe's print: a bare int is a run-time int
      Value expected = eval_as(want, Literals::kDynamic);
      bool ok = got.to_cute_string() == want && values_of(got) == values_of(expected);
      if (ok &&
          writes_static_integer(parse_expression(expr))) {  // the default rule reads a print with `_N` the same way
        Value again = eval_as(expr, Literals::kAuto);
        ok = again.to_cute_string() == want;
      }
      if (ok) ++pass;
      else failures << expr << " -> CuTe " << want << ", cutevis " << got.to_cute_string() << "\n";
    } catch (const std::exception& e) {
      failures << expr << " -> CuTe " << want << ", cutevis error: " << e.what() << "\n";
    }
  }
  CHECK_MESSAGE(pass == rows.size(), failures.str());
}
