// cutevis — how errors reach the user: one line `cutevis: error: <what>`, and for
// expression input the expression with a caret under the bad spot.
#pragma once

#include <string>

#include "lib/error.hpp"

namespace cutevis {

// "cutevis: error: <what>\n" plus, when the error has a position into `source`,
//   "  <source>\n  <spaces>^\n".
std::string format_error(const Error& error, const std::string& source = "");

}  // namespace cutevis
