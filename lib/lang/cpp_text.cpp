// Comments and literals blanked (see lib/lang/cpp_text.hpp).
#include "lib/lang/cpp_text.hpp"

#include <algorithm>
#include <cctype>

namespace cutevis {

size_t blank_comment_or_literal_at(std::string& c, size_t i) {
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

size_t offset_of(const std::string& text, int line, int column) {
  size_t pos = 0;
  for (int l = 1; l < line && pos != std::string::npos; ++l) {
    pos = text.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  if (pos == std::string::npos) return text.size();
  return std::min(text.size(), pos + static_cast<size_t>(std::max(column, 1) - 1));
}

std::pair<int, int> line_column(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
  size_t start = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  start = start == std::string::npos ? 0 : start + 1;
  return {line, static_cast<int>(offset - start) + 1};
}

std::vector<std::string> split_text(const std::string& text, char delimiter) {
  std::vector<std::string> pieces;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find(delimiter, start), text.size());
    pieces.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return pieces;
}

}  // namespace cutevis
