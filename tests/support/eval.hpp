// The printed result of a CuTe expression, as `cutevis eval` prints it: the one helper
// the algebra tests compare against CuTe's printed answers.
#pragma once

#include <string>

#include "lib/lang/expr.hpp"

namespace cutevis::test {

// eval("composition(20:2, (5,4):(4,1))") == "(5,4):(8,2)"
inline std::string eval(const std::string& text) { return evaluate_expression(text).to_string(); }

}  // namespace cutevis::test
