#include "app/diagnostics.hpp"

#include <algorithm>
#include <cstdio>

#include "lib/lang/expr.hpp"
#include "lib/lang/suggestions.hpp"

namespace cutevis {

namespace {

// A byte as it appears in a message: itself if printable ASCII, else an escape.
std::string shown_byte(unsigned char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\0': return "\\0";
    default: break;
  }
  if (c >= 0x20 && c < 0x7f) return std::string(1, static_cast<char>(c));
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  return buf;
}

}  // namespace

std::string printable_line(const std::string& text, size_t max_bytes) {
  // Keep the start (what failed) and the end (the "did you mean" part) of long texts.
  const size_t head = max_bytes * 3 / 4, tail = max_bytes - head;
  std::string out;
  auto append = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) out += shown_byte(static_cast<unsigned char>(text[i]));
  };
  if (text.size() <= max_bytes + 24) {
    append(0, text.size());
  } else {
    append(0, head);
    out += "...[" + std::to_string(text.size() - head - tail) + " bytes]...";
    append(text.size() - tail, text.size());
  }
  return out;
}

std::string format_error(const Error& error, const std::string& source_in) {
  std::string out = "cutevis: error: " + printable_line(error.what(), kMaxMessageBytes + 120) + "\n";
  const auto* sourced = dynamic_cast<const SourcedError*>(&error);
  const std::string& source = sourced ? sourced->source() : source_in;
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

std::string unknown_command_message(const std::string& name, const std::vector<std::string>& commands) {
  std::string msg = "unknown command '" + name + "'";
  auto near = nearest_words(name, commands, 1);
  if (!near.empty()) return msg + "; did you mean '" + near[0] + "'?";
  std::string list;
  for (const auto& c : commands) list += (list.empty() ? "" : ", ") + c;
  return msg + " (commands: " + list + ")";
}

std::string unknown_option_message(const std::string& option, const std::vector<std::string>& options) {
  std::string flag = option.substr(0, option.find('='));  // --form=FILE
  std::string msg = "unknown option '" + flag + "'";
  auto near = nearest_words(flag, options, 1);
  return near.empty() ? msg : msg + "; did you mean '" + near[0] + "'?";
}

}  // namespace cutevis
