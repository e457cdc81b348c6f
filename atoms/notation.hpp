// cutevis — catalogue rows written as CuTe prints them ("((4,8),(2,2)):((32,1),(16,8))"),
// read by lib's own expression parser, so a row reads like CuTe's MMA_Traits / Copy_Traits.
#pragma once

#include <map>

#include "lib/lang/expr.hpp"
#include "lib/layout.hpp"
#include "lib/threads.hpp"

namespace cutevis {

// layout_of_notation("(4,2):(1,16)") == Layout(tup(4, 2), tup(1, 16)); Error on bad text.
inline Layout layout_of_notation(const char* cute_notation) {
  return evaluate_expression(cute_notation, default_registry(), Syntax::kCpp).to_layout();
}

// The layout a catalogue row writes, parsed on its first use and kept for the process:
// rows are string literals, so their address names them (`cutevis atom` parses one row).
inline const Layout& row_layout(const char* cute_notation) {
  static Mutex guard;
  static std::map<const char*, Layout> parsed;
  std::lock_guard<Mutex> lock(guard);
  auto it = parsed.find(cute_notation);
  if (it == parsed.end()) it = parsed.emplace(cute_notation, layout_of_notation(cute_notation)).first;
  return it->second;
}

}  // namespace cutevis
