// Comments and literals blanked (see lib/lang/cpp_text.hpp).
#include "lib/lang/cpp_text.hpp"

#include <algorithm>
#include <cctype>

namespace cutevis {

size_t blank_comment_or_literal(std::string& c, size_t i) {
  const char ch = c[i];
  if (ch == '/' && i + 1 < c.size() && c[i + 1] == '/') {
    while (i < c.size() && c[i] != '\n') c[i++] = ' ';
    return i;
  }
  if (ch == '/' && i + 1 < c.size() && c[i + 1] == '*') {
    size_t end = c.find("*/", i + 2);
    end = end == std::string::npos ? c.size() : end + 2;
    for (; i < end; ++i)
      if (c[i] != '\n') c[i] = ' ';
    return i;
  }
  if (ch == '"' || (ch == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(c[i - 1]))))) {
    size_t k = i + 1;
    while (k < c.size() && c[k] != ch && c[k] != '\n') k += (c[k] == '\\') ? 2 : 1;
    for (size_t m = i + 1; m < std::min(k, c.size()); ++m) c[m] = ' ';
    return std::min(k + 1, c.size());
  }
  return i;
}

}  // namespace cutevis
