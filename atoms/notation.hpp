// cutevis — catalogue rows written as CuTe prints them ("((4,8),(2,2)):((32,1),(16,8))"),
// read by lib's own expression parser, so a row reads like CuTe's MMA_Traits / Copy_Traits.
#pragma once

#include "lib/expr.hpp"
#include "lib/layout.hpp"

namespace cutevis {

// layout_of_notation("(4,2):(1,16)") == Layout(tup(4, 2), tup(1, 16)); Error on bad text.
inline Layout layout_of_notation(const char* cute_notation) {
  return evaluate_expression(cute_notation, default_registry(), Syntax::kCpp).to_layout();
}

}  // namespace cutevis
