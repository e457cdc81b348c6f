// Golden test: every case of ../shared/reference/algebra.jsonl, produced by real
// CuTe, run through the expression language.  Layouts are compared as functions
// (every value) and as strings after normalisation (coalesce both sides).
#include <doctest/doctest.h>

#include <sstream>

#include "lib/expr.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

// The expression that computes a reference case.
std::string expression_for(const json& row) {
  const std::string op = row["op"];
  std::vector<std::string> args = row["args_nous"].get<std::vector<std::string>>();
  if (op == "swizzle") return args[0];
  if (op == "gmma_atom") {
    const json& spec = row["spec"][0];
    return "GMMA::" + spec[1].get<std::string>() + "<" + spec[2].get<std::string>() + ">{}";
  }
  std::string e = op + "(";
  for (size_t i = 0; i < args.size(); ++i) e += (i ? ", " : "") + args[i];
  return e + ")";
}

std::string normalised(const std::string& layout_text) {
  Value v = evaluate_expression(layout_text);
  return to_string(coalesce(v.to_any_layout()));
}

// Unit-test inputs keep CuTe's dynamic ints: a stride printed without `_`.
bool has_dynamic_int(const json& row) {
  for (const auto& a : row["args"]) {
    std::string s = a;
    for (size_t i = 0; i < s.size(); ++i)
      if (std::isdigit(static_cast<unsigned char>(s[i])) && (i == 0 || (s[i - 1] != '_' && !std::isdigit(static_cast<unsigned char>(s[i - 1])) && s[i - 1] != '-'))) return true;
  }
  return false;
}

struct Outcome {
  bool dynamic = false;
  bool ok = true;
  bool exact_string = false;
  std::string why;
};

Outcome check_row(const json& row) {
  Outcome out;
  std::string expr = expression_for(row);
  Value v;
  try {
    v = evaluate_expression(expr);
  } catch (const Error& e) {
    out.ok = false;
    out.why = "error: " + std::string(e.what());
    return out;
  }
  const std::string expect = row.value("result_nous", std::string());
  std::string got = v.to_string();
  out.exact_string = got == expect;
  if (row.contains("result_int")) {
    if (v.as_int() != row["result_int"].get<int64_t>()) {
      out.ok = false;
      out.why = "got " + got;
    }
    return out;
  }
  if (v.is(Value::Kind::kSwizzle)) {
    const Swizzle& sw = v.swizzle();
    std::vector<int64_t> want = row["result_values"];
    for (size_t i = 0; i < want.size(); ++i)
      if (sw(static_cast<int64_t>(i)) != want[i]) {
        out.ok = false;
        out.why = "swizzle value " + std::to_string(i);
        return out;
      }
    if (got != row["result"].get<std::string>()) out.ok = false, out.why = "got " + got;
    return out;
  }
  if (!v.is(Value::Kind::kLayout)) {  // idx2crd and friends: compare text
    if (!out.exact_string) out.ok = false, out.why = "got " + got;
    return out;
  }
  AnyLayout l = v.any_layout();
  if (row["result_values"].is_null()) {  // too large to tabulate: size and the normalised text
    if (size(l) != row["result_size"].get<int64_t>()) out.ok = false, out.why = "size differs; got " + got;
    else if (!out.exact_string && normalised(got) != normalised(expect)) out.ok = false, out.why = "got " + got;
    return out;
  }
  std::vector<int64_t> want = row["result_values"];
  std::vector<int64_t> have = layout_values(as_position_independent(l));
  if (row["op"] == "right_inverse" && has_dynamic_int(row) && have != want) {
    // Dynamic CuTe drops dynamic strides from right_inverse; static CuTe (ours) keeps
    // them.  Ours must agree with CuTe's on CuTe's domain and be a right inverse.
    Layout arg = evaluate_expression(row["args_nous"][0].get<std::string>()).to_layout();
    Layout inv = std::get<Layout>(l);
    bool prefix = have.size() >= want.size() && std::equal(want.begin(), want.end(), have.begin());
    bool inverse = true;
    for (int64_t i = 0; i < size(inv); ++i) inverse = inverse && arg(inv(i)) == i;
    if (!prefix || !inverse) out.ok = false, out.why = "static right_inverse " + got + " is not an extension of CuTe's";
    out.dynamic = true;
    return out;
  }
  if (have != want) {
    out.ok = false;
    out.why = "values differ; got " + got;
    return out;
  }
  if (row.contains("result_position_independent_nous")) {
    std::string pi = to_string(as_position_independent(l));
    if (pi != row["result_position_independent_nous"].get<std::string>()) {
      out.ok = false;
      out.why = "position-independent form " + pi;
      return out;
    }
  }
  if (!out.exact_string && normalised(got) != normalised(expect)) {
    out.ok = false;
    out.why = "strings differ after coalesce; got " + got;
  } else if (!out.exact_string && !has_dynamic_int(row)) {
    out.ok = false;  // all-static inputs: we are static CuTe, so the text is identical
    out.why = "static case prints differently: got " + got;
  }
  return out;
}

}  // namespace

TEST_CASE("golden: every algebra.jsonl case matches CuTe") {
  auto rows = test::read_jsonl("algebra.jsonl");
  REQUIRE_MESSAGE(!rows.empty(), "reference data missing: " << test::reference_dir());
  size_t pass = 0, exact = 0, dynamic = 0;
  std::ostringstream failures, inexact;
  for (const auto& row : rows) {
    Outcome o;
    try {
      o = check_row(row);
    } catch (const std::exception& e) {
      o.ok = false;
      o.why = std::string("exception: ") + e.what();
    }
    if (o.ok) ++pass;
    if (o.exact_string) ++exact;
    if (o.dynamic) ++dynamic;
    else if (o.ok && !o.exact_string && row.contains("result_nous")) inexact << row["id"].get<std::string>() << ": " << expression_for(row) << " -> CuTe " << row.value("result_nous", std::string()) << "\n";
    if (!o.ok) failures << row["id"].get<std::string>() << ": " << expression_for(row) << " -> expected " << row.value("result_nous", std::string()) << "; " << o.why << "\n";
  }
  MESSAGE("algebra.jsonl: " << pass << "/" << rows.size() << " match (" << dynamic << " dynamic-stride right_inverse cases checked as static extensions); "
                             << exact << " print identically; equal after coalesce (dynamic ints in CuTe's input):\n" << inexact.str());
  CHECK_MESSAGE(pass == rows.size(), failures.str());
}
