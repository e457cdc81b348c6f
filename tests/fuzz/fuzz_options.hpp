// Shared by the libFuzzer harnesses: splitting one input into fields and choosing the
// command's options from a leading byte, so one corpus file is one CLI invocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cutevis::fuzz {

// "a\x1fb\x1fc" -> {"a", "b", "c"}: the unit separator never occurs in real input.
inline std::vector<std::string> split_fields(const uint8_t* data, size_t size, size_t count) {
  std::vector<std::string> out(count);
  size_t field = 0;
  for (size_t i = 0; i < size; ++i) {
    char c = static_cast<char>(data[i]);
    if (c == '\x1f' && field + 1 < count) ++field;
    else out[field] += c;
  }
  return out;
}

inline const char* pick(uint8_t bits, const std::vector<const char*>& options) {
  return options[bits % options.size()];
}

}  // namespace cutevis::fuzz
