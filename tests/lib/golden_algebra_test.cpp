// Golden test: every case of tests/data/reference/algebra.jsonl, produced by real
// CuTe, run through the expression language twice:
//  - as CuTe printed it (`args`, static ints `_4`, dynamic ints `4`), read with bare
//    literals dynamic (Literals::kDynamic): the result must print exactly as CuTe
//    printed it (`result`) and agree with it as a function (every value);
//  - for the all-static cases, as typed without underscores (`args_nous`, the default
//    rule reads them static): the result must print exactly as `result_nous`.
#include <doctest/doctest.h>

#include <sstream>

#include "lib/lang/expr.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

// The expression that computes a reference case, from its CuTe-printed arguments
// (`args`) or the same without underscores (`args_nous`).
std::string expression_for(const json& row, const char* field = "args") {
  const std::string op = row["op"];
  std::vector<std::string> args = row[field].get<std::vector<std::string>>();
  if (op == "swizzle") return args[0];
  if (op == "gmma_atom") {
    const json& spec = row["spec"][0];
    return "GMMA::" + spec[1].get<std::string>() + "<" + spec[2].get<std::string>() + ">{}";
  }
  std::string e = op + "(";
  for (size_t i = 0; i < args.size(); ++i) e += (i ? ", " : "") + args[i];
  return e + ")";
}

// CuTe's print of the inputs holds a dynamic int (a digit not after `_`, outside Sw<...>).
bool has_dynamic_int(const json& row) {
  for (const auto& a : row["args"]) {
    std::string s = a;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.compare(i, 3, "Sw<") == 0) i = s.find('>', i);
      if (i == std::string::npos) break;
      if (std::isdigit(static_cast<unsigned char>(s[i])) &&
          (i == 0 || (s[i - 1] != '_' && !std::isdigit(static_cast<unsigned char>(s[i - 1])) && s[i - 1] != '-' &&
                      s[i - 1] != '@')))
        return true;
    }
  }
  return false;
}

struct Outcome {
  bool ok = true;
  std::string why;
};

void fail(Outcome& o, const std::string& why) {
  if (o.ok) o.why = why;
  o.ok = false;
}

Value evaluate_as(const std::string& expr, Literals literals) {
  std::vector<Warning> warnings;
  return evaluate_expression(expr, warnings, literals);
}

Outcome check_row(const json& row) {
  Outcome out;
  Value v;
  try {
    v = evaluate_as(expression_for(row), Literals::kDynamic);
  } catch (const Error& e) {
    fail(out, "error: " + std::string(e.what()));
    return out;
  }
  const std::string expect = row["result"];
  std::string got = v.to_cute_string();
  if (got != expect) fail(out, "prints " + got);
  if (row.contains("result_int")) {
    if (v.as_int() != row["result_int"].get<int64_t>()) fail(out, "value " + got);
  } else if (v.is(Value::Kind::kSwizzle)) {
    const Swizzle& sw = v.swizzle();
    std::vector<int64_t> want = row["result_values"];
    for (size_t i = 0; i < want.size(); ++i)
      if (sw(static_cast<int64_t>(i)) != want[i]) fail(out, "swizzle value " + std::to_string(i));
  } else if (v.is(Value::Kind::kLayout)) {
    AnyLayout l = v.any_layout();
    if (size(l) != row["result_size"].get<int64_t>()) fail(out, "size differs");
    if (!row["result_values"].is_null()) {
      std::vector<int64_t> want = row["result_values"];
      if (layout_values(as_position_independent(l)) != want) fail(out, "values differ");
    }
    if (row.contains("result_position_independent_nous") &&
        to_string(as_position_independent(l)) != row["result_position_independent_nous"].get<std::string>())
      fail(out, "position-independent form " + to_string(as_position_independent(l)));
  }
  if (!has_dynamic_int(row)) {  // all static: typed without underscores it reads static and prints as before
    try {
      Value s = evaluate_as(expression_for(row, "args_nous"), Literals::kAuto);
      std::string want =
          row.contains("result_nous") ? row["result_nous"].get<std::string>() : expect;  // swizzles have one form
      if (s.to_string() != want) fail(out, "typed without underscores, prints " + s.to_string());
      if (s.has_dynamic()) fail(out, "typed without underscores, holds a dynamic int: " + s.to_cute_string());
    } catch (const Error& e) {
      fail(out, "typed without underscores: error: " + std::string(e.what()));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("golden: every algebra.jsonl case matches CuTe, as a string and as a function") {
  auto rows = test::read_jsonl("algebra.jsonl");
  REQUIRE_MESSAGE(!rows.empty(), "reference data missing: " << test::reference_dir());
  size_t pass = 0, dynamic = 0, atom_rows = 0;
  std::ostringstream failures;
  for (const auto& row : rows) {
    if (row["op"] == "gmma_atom") {  // atom knowledge: tests/atoms/smem_atoms_test.cpp checks these rows
      ++atom_rows;
      continue;
    }
    Outcome o;
    try {
      o = check_row(row);
    } catch (const std::exception& e) {
      fail(o, std::string("exception: ") + e.what());
    }
    if (o.ok) ++pass;
    if (has_dynamic_int(row)) ++dynamic;
    if (!o.ok)
      failures << row["id"].get<std::string>() << ": " << expression_for(row) << " -> expected "
               << row["result"].get<std::string>() << "; " << o.why << "\n";
  }
  MESSAGE("algebra.jsonl: " << pass << "/" << rows.size() - atom_rows << " print exactly as CuTe (" << dynamic
                            << " with dynamic ints in CuTe's input; " << atom_rows
                            << " GMMA atom rows are atoms' tests)");
  CHECK(dynamic > 30);  // the dynamic cases are really exercised
  CHECK_MESSAGE(pass + atom_rows == rows.size(), failures.str());
}
