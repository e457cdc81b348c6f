// Helpers shared by the MMA tests: CuTe's printed layouts, type names and owners.
#pragma once

#include <cctype>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "lib/lang/expr.hpp"
#include "lib/ownership.hpp"

namespace cutevis::test {

// CuTe's text with the underscores of static integers removed: `(_4,_8):(_1,_4)` -> `(4,8):(1,4)`
// (`MMA_Atom`, `Shape_MNK` and the `_` of `(_,_,_)` stay).
inline std::string strip_static(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    bool prev_ident = i > 0 && (std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_');
    if (s[i] == '_' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) && !prev_ident) continue;
    out += s[i];
  }
  return out;
}

inline Layout parse_layout(const std::string& cute_text) { return evaluate_expression(cute_text).to_layout(); }

// Same function on every index, and the same text as CuTe prints (static ints: `_4`).
inline bool same_layout(const Layout& ours, const std::string& cute_text) {
  Layout ref = parse_layout(cute_text);
  return size(ours) == size(ref) && same_function(ours, ref) && to_string(ours, true) == cute_text;
}

// Our canonical name of a C++ type as CuTe's print spells it (demangled).
inline std::string canonical_type(const std::string& cute_name) {
  if (cute_name == "cutlass::integer_subbyte<4, true>") return "int4b_t";
  if (cute_name == "cutlass::integer_subbyte<4, false>") return "uint4b_t";
  if (cute_name == "cutlass::integer_subbyte<1, false>") return "uint1b_t";
  ValueType t;
  if (lookup_value_type(cute_name, t)) return t.name;
  return cute_name;
}

// A registry with the algebra and the MMA names.
inline Registry& mma_registry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    register_algebra(*reg);
    register_mma_names(*reg);
    return reg;
  }();
  return *r;
}

// Every owner of each cell matches CuTe's first owner (thread-major walk) and owner count.
inline void check_owners(const OwnershipView& view, const nlohmann::json& ref, const std::string& what) {
  INFO(what);
  REQUIRE(view.rows() == ref["shape"][0].get<int64_t>());
  REQUIRE(view.cols() == ref["shape"][1].get<int64_t>());
  const auto& thr = ref["thr"];
  const auto& val = ref["val"];
  const auto& per = ref["owners_per_elem"];
  int64_t bad = 0;
  for (int64_t c = 0; c < view.rows() * view.cols(); ++c) {
    auto owners = view.owners(c);
    const int64_t expect = per.is_array() ? per[static_cast<size_t>(c)].get<int64_t>() : per.get<int64_t>();
    if (owners.empty() || static_cast<int64_t>(owners.size()) != expect ||
        owners[0].thr != thr[static_cast<size_t>(c)].get<int64_t>() ||
        owners[0].val != val[static_cast<size_t>(c)].get<int64_t>())
      ++bad;
  }
  CHECK(bad == 0);
}

// tv(t + T*v) == values[t][v] for CuTe's forward table.
inline void check_values(const Layout& tv, const nlohmann::json& values, const std::string& what) {
  INFO(what);
  const int64_t threads = size(tv.shape[0]);
  REQUIRE(static_cast<int64_t>(values.size()) == threads);
  int64_t bad = 0;
  for (int64_t t = 0; t < threads; ++t)
    for (size_t v = 0; v < values[static_cast<size_t>(t)].size(); ++v)
      if (tv(t + threads * static_cast<int64_t>(v)) != values[static_cast<size_t>(t)][v].get<int64_t>()) ++bad;
  CHECK(bad == 0);
}

inline std::vector<nlohmann::json> read_source_jsonl(const std::string& relative) {
  std::vector<nlohmann::json> rows;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/" + relative);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

}  // namespace cutevis::test
