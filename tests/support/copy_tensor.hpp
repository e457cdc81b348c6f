// A copy's tensor for the analysis tests, written as the CLI's --src/--dst take it:
// "[smem:|gmem:]LAYOUT" (no prefix: the atom's space; rmem there means smem; empty: registers).
// The analysis itself takes values (atoms/analysis/copy_analysis.hpp); the text is the tests'.
#pragma once

#include <string>
#include <string_view>

#include "atoms/analysis/copy_analysis.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis::test {

inline CopyTensor copy_tensor(const std::string& text_, MemorySpace implied) {
  std::string_view text = text_;
  CopyTensor t;
  if (text.empty()) return t;
  t.space = implied == MemorySpace::kRmem ? MemorySpace::kSmem : implied;
  if (text.starts_with("smem:")) t.space = MemorySpace::kSmem;
  if (text.starts_with("gmem:")) t.space = MemorySpace::kGmem;
  if (text.starts_with("smem:") || text.starts_with("gmem:")) text.remove_prefix(5);
  t.layout = evaluate_expression(std::string(text)).to_any_layout();
  return t;
}

}  // namespace cutevis::test
