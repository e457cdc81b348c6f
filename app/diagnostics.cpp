#include "app/diagnostics.hpp"

#include <algorithm>

#include "lib/float_text.hpp"
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
  return "\\x" + hex_text(c, 2);
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

std::string shorten_lines(const std::string& text, size_t max_line) {
  if (text.size() <= max_line) return text;
  std::string out;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    const bool newline = end != std::string::npos;
    if (!newline) end = text.size();
    const size_t n = end - start;
    if (n > max_line) out += printable_line(text.substr(start, n), max_line - 40);
    else out.append(text, start, n);
    if (newline) out += '\n';
    start = end + 1;
  }
  return out;
}

std::string format_error_lines(const Error& error, size_t max_lines) {
  const std::string what = error.what();
  std::string out;
  size_t start = 0, lines = 0, total = 1 + static_cast<size_t>(std::count(what.begin(), what.end(), '\n'));
  while (start <= what.size() && lines < max_lines) {
    size_t end = what.find('\n', start);
    if (end == std::string::npos) end = what.size();
    out += (lines == 0 ? "cutevis: error: " : "") + printable_line(what.substr(start, end - start), 320) + "\n";
    ++lines;
    start = end + 1;
  }
  if (total > lines) out += "  ... " + std::to_string(total - lines) + " more lines\n";
  return out;
}

std::string cli_error_message(const std::string& m) {
  auto starts = [&](const std::string& p) { return m.rfind(p, 0) == 0; };
  auto between = [&](const std::string& a, const std::string& b) {
    const size_t i = m.find(a);
    if (i == std::string::npos) return std::string();
    const size_t j = b.empty() ? m.size() : m.find(b, i + a.size());
    return m.substr(i + a.size(), (j == std::string::npos ? m.size() : j) - i - a.size());
  };
  auto name_before = [&](const std::string& sep) { return m.substr(0, m.find(sep)); };
  std::string out;
  if (m.find(": At Most ") != std::string::npos) {
    const std::string most = between(": At Most ", " required"), got = between("received ", "");
    out = name_before(": At Most ") + " is given " + got + " times; give it " +
          (most == "1" ? "once" : "at most " + most + " times");
  } else if (m.find(": At least ") != std::string::npos) {
    out = name_before(": At least ") + " needs at least " + between(": At least ", " required") + " values";
  } else if (m.find(" required ") != std::string::npos && m.size() > 8 && m.compare(m.size() - 8, 8, " missing") == 0) {
    out = name_before(": ") + " needs a value";
  } else if (starts("Expected exactly ") || starts("Expected at least ")) {
    out = between(" arguments to ", ",") + " takes " + between("Expected ", " arguments") + " values";
  } else if (starts("A subcommand is required") || starts("Requires at least 1 subcommand")) {
    out = "a command is required: cutevis COMMAND ...";
  } else if (starts("Requires at most 1 options be given from [") || starts("Requires at most")) {
    std::string list = between("[", "]");
    for (size_t k = 0; (k = list.find(',', k)) != std::string::npos; k += 2) list.replace(k, 1, ", ");
    out = "give at most one of " + list;
    if (list.empty()) out = "too many of a set of options that exclude each other";
  } else if (starts("Exactly 1 option from [")) {
    out = "give exactly one of " + between("[", "]");
  } else if (starts("Could not convert: ")) {
    const std::string rest = m.substr(19);
    const size_t eq = rest.find(" = ");
    out = eq == std::string::npos ? "cannot read " + rest
                                  : rest.substr(0, eq) + ": '" + rest.substr(eq + 3) + "' is not a valid value";
  } else if (starts("The value ") && m.find(" is not an allowed value for ") != std::string::npos) {
    out = between(" is not an allowed value for ", "") + ": '" + between("The value ", " is not") + "' is not allowed";
  } else if (m.find(": Should be true/false or a number") != std::string::npos ||
             m.find(": too many inputs for a flag") != std::string::npos) {
    out = name_before(": ") + " is a flag: give it without a value";
  } else if (m.size() > 12 && m.compare(m.size() - 12, 12, " is required") == 0) {
    out = "missing " + m.substr(0, m.size() - 12);
  } else if (m.find(" excludes ") != std::string::npos) {
    out = name_before(" excludes ") + " and " + between(" excludes ", "") + " exclude each other";
  } else if (m.find(" requires ") != std::string::npos) {
    out = name_before(" requires ") + " needs " + between(" requires ", "");
  } else if (starts("The following argument") || starts("The following arguments")) {
    const std::string extras = between(": ", "");
    out = std::string(m.find("arguments were") != std::string::npos ? "arguments" : "argument") +
          " not expected: " + (extras.empty() ? "'' (an empty word)" : extras);
  } else {
    out = m;
  }
  std::replace(out.begin(), out.end(), '\n', ' ');
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
