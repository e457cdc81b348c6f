// GMMA's and UMMA's shared-memory layout atoms (`GMMA::Layout_K_SW128_Atom<half_t>`) are atom
// names (atoms/smem_atoms.cpp), not lib's: a test that evaluates them through lib's default
// registry registers the atoms' names first, once.
#pragma once

#include "atoms/names.hpp"
#include "lib/error.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis::test {

inline Registry& registry_with_atoms() {
  static Registry& r = []() -> Registry& {
    register_mma_names(default_registry());
    return default_registry();
  }();
  return r;
}

// The layout an expression evaluates to, atom names included.
inline AnyLayout layout_with_atoms(const std::string& text) {
  registry_with_atoms();
  return evaluate_expression(text).to_any_layout();
}

inline ValueType half_type() {
  ValueType t;
  if (!lookup_value_type("half_t", t)) throw Error("half_t is not an element type");
  return t;
}

}  // namespace cutevis::test
