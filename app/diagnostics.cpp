#include "app/diagnostics.hpp"

namespace cutevis {

std::string format_error(const Error& error, const std::string& source) {
  std::string out = "cutevis: error: ";
  out += error.what();
  out += "\n";
  if (!error.has_position() || source.empty()) return out;
  // Show one line of the expression around the bad spot, printable ASCII only.
  size_t pos = std::min<size_t>(static_cast<size_t>(error.position()), source.size());
  size_t begin = source.rfind('\n', pos == 0 ? 0 : pos - 1);
  begin = (begin == std::string::npos || begin >= pos) ? 0 : begin + 1;
  size_t end = source.find('\n', pos);
  if (end == std::string::npos) end = source.size();
  const size_t kWidth = 100;  // long expressions: a window around the caret
  size_t from = begin, to = end;
  if (to - from > kWidth) {
    from = pos > from + kWidth / 2 ? pos - kWidth / 2 : from;
    to = std::min(end, from + kWidth);
  }
  std::string line, caret;
  for (size_t i = from; i < to; ++i) {
    unsigned char c = static_cast<unsigned char>(source[i]);
    char shown = (c < 0x20 || c >= 0x7f) ? '?' : static_cast<char>(c);
    line += shown;
    if (i < pos) caret += ' ';
  }
  if (from > begin) {
    line.insert(0, "...");
    caret.insert(0, "   ");
  }
  if (to < end) line += "...";
  out += "  " + line + "\n  " + caret + "^\n";
  return out;
}

}  // namespace cutevis
