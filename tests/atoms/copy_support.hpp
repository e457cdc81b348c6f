// Helpers shared by the copy tests (tests/atoms/copy_*_test.cpp).
#pragma once

#include <string>

#include "atoms/copy_names.hpp"
#include "atoms/names.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis::test {

// A layout from CuTe's printed text.
inline Layout layout_of(const std::string& text) { return evaluate_expression(text).to_layout(); }

// The layout algebra with the MMA and copy names: CuTe's constructions evaluate as written.
inline Registry& copy_registry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    register_algebra(*reg);
    register_mma_names(*reg);
    register_copy_names(*reg);
    return reg;
  }();
  return *r;
}

// copy_registry() and the C++ names of atoms/cpp_names.cpp (make_tma_copy, make_tmem_copy, ...).
inline Registry& cpp_atom_registry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    register_algebra(*reg);
    register_mma_names(*reg);
    register_copy_names(*reg);
    register_cpp_atom_names(*reg);
    return reg;
  }();
  return *r;
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace cutevis::test
