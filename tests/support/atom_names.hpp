// GMMA's and UMMA's shared-memory layout atoms (`GMMA::Layout_K_SW128_Atom<half_t>`) are atom
// names (atoms/smem_atoms.cpp), not lib's: a test that evaluates them through lib's default
// registry registers the atoms' names first, once.
#pragma once

#include "atoms/names.hpp"
#include "lib/expr.hpp"

namespace cutevis::test {

inline Registry& registry_with_atoms() {
  static Registry& r = []() -> Registry& {
    register_mma_names(default_registry());
    return default_registry();
  }();
  return r;
}

}  // namespace cutevis::test
