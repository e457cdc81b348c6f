// The TMA oracle files (tests/data/tma_oracle.jsonl, tma_sm100_oracle.jsonl, tma_tensor_oracle.jsonl):
// their rows, their C++ with typed pointers, and the check of one row's TiledCopy or Copy_Atom
// against what CuTe printed.  Include after doctest.
#pragma once

#include <fstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "atoms/copy_names.hpp"
#include "atoms/tiled_copy.hpp"

namespace cutevis::test {

// The oracle's typed pointers (`half_t* gptr`, ...), written as cutevis learns a pointer's type.
inline std::string typed(std::string e) {
  for (auto [from, to] : {std::pair<std::string, std::string>{"make_gmem_ptr(gptr)", "make_gmem_ptr<half_t>(gptr)"},
                          {"make_gmem_ptr(fptr)", "make_gmem_ptr<float>(fptr)"},
                          {"make_gmem_ptr(iptr)", "make_gmem_ptr<int8_t>(iptr)"}}) {
    for (size_t at = e.find(from); at != std::string::npos; at = e.find(from, at + to.size()))
      e.replace(at, from.size(), to);
  }
  return e;
}

// Calls f(row) for every row of tests/data/<file>; returns the number of rows.
template <class F>
int for_each_oracle_row(const std::string& file, F f) {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/" + file);
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    f(nlohmann::json::parse(line));
    ++rows;
  }
  return rows;
}

// A "tiled_copy" row: Tiler_MN, TiledLayout_TV, the atom's ValLayoutSrc (and ThrID when given) and
// value bits; a "copy_atom" row: ValLayoutSrc (and ThrID) and value bits.
inline void check_tma_row(const nlohmann::json& row, const Value& v) {
  const CopyAtom* atom = as_copy_atom(v);
  if (row["kind"] == "tiled_copy") {
    const TiledCopy* c = as_tiled_copy(v);
    REQUIRE(c != nullptr);
    CHECK(tiler_to_string(*c, true) == row["tiler"].get<std::string>());
    CHECK(to_string(c->tiled_layout_tv, true) == row["tv"].get<std::string>());
    atom = &c->atom;
  }
  REQUIRE(atom != nullptr);
  CHECK(to_string(atom->val_layout_src, true) == row["val_layout_src"].get<std::string>());
  if (row.contains("thr_id")) CHECK(to_string(atom->thr_id, true) == row["thr_id"].get<std::string>());
  CHECK(atom->value_type.bits == row["value_bits"].get<int>());
}

}  // namespace cutevis::test
