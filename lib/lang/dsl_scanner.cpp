// scan_python: the assignments of a CuTeDSL kernel file, as text (see lib/lang/dsl.hpp).
//
// One linear pass splits the source into Python's logical lines (brackets and backslashes
// join physical lines; strings and comments are skipped, `;` separates statements), keeps
// the enclosing `class` / `def` names by indentation, and records each `target = value`.
#include <cctype>

#include "lib/lang/dsl.hpp"

namespace cutevis {

namespace {

struct LogicalLine {
  size_t begin = 0, end = 0;    // [begin, end) in the source, comments and the newline excluded
  size_t indent = 0;            // columns before the first character of its first physical line
  bool continues_line = false;  // after a `;` on the same physical line: same block as the last
};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The end of the string literal opening at `i` (quote char or triple quote), past its closing quote.
size_t skip_string(const std::string& s, size_t i) {
  const char q = s[i];
  const bool triple = s.compare(i, 3, std::string(3, q)) == 0;
  i += triple ? 3 : 1;
  while (i < s.size()) {
    if (s[i] == '\\') {
      i += 2;
      continue;
    }
    if (triple ? s.compare(i, 3, std::string(3, q)) == 0 : s[i] == q) return i + (triple ? 3 : 1);
    if (!triple && s[i] == '\n') return i;  // an unterminated string ends with its line
    ++i;
  }
  return s.size();
}

std::vector<LogicalLine> logical_lines(const std::string& s) {
  std::vector<LogicalLine> out;
  size_t i = 0;
  while (i < s.size()) {
    // the start of a physical line: measure the indentation
    size_t indent = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) {
      indent += s[i] == '\t' ? 8 - indent % 8 : 1;
      ++i;
    }
    bool after_semicolon = false;
    while (true) {
      LogicalLine line;
      line.begin = i;
      line.indent = indent;
      line.continues_line = after_semicolon;
      int depth = 0;
      size_t last = i;  // end of the last meaningful character
      bool done = false, semicolon = false;
      while (i < s.size() && !done) {
        const char c = s[i];
        if (c == '#') {
          while (i < s.size() && s[i] != '\n') ++i;
          continue;
        }
        if (c == '"' || c == '\'') {
          i = skip_string(s, i);
          last = i;
          continue;
        }
        if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
          i += 2;
          continue;
        }
        if (c == '\n') {
          ++i;
          if (depth <= 0) done = true;
          continue;
        }
        if (c == ';' && depth <= 0) {
          ++i;
          done = semicolon = true;
          continue;
        }
        if (c == '(' || c == '[' || c == '{') ++depth;
        if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
        ++i;
        if (!std::isspace(static_cast<unsigned char>(c))) last = i;
      }
      line.end = last;
      if (line.end > line.begin) out.push_back(line);
      if (!semicolon) break;
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
      after_semicolon = true;
    }
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// An assignment target: a name or a dotted name (self.tile_shape), with an optional
// annotation (`x: int`); "" if `part` is not one.
std::string target_name(const std::string& part) {
  std::string t = trim(part);
  size_t colon = t.find(':');
  if (colon != std::string::npos) t = trim(t.substr(0, colon));
  if (t.empty() || !is_ident_start(t[0])) return "";
  for (size_t i = 0; i < t.size(); ++i) {
    if (is_ident_char(t[i])) continue;
    if (t[i] == '.' && i + 1 < t.size() && is_ident_start(t[i + 1])) continue;
    return "";
  }
  static const char* const kKeywords[] = {"if",  "elif",   "while",    "for",    "return",  "with",  "assert", "lambda",
                                          "del", "global", "nonlocal", "import", "from",    "raise", "yield",  "print",
                                          "not", "else",   "try",      "except", "finally", "pass"};
  for (const char* k : kKeywords)
    if (t == k) return "";
  return t;
}

// The offsets of `=` at bracket depth 0 that are assignments (not ==, <=, >=, !=, +=, :=, ...).
std::vector<size_t> assignment_signs(const std::string& s, size_t begin, size_t end) {
  std::vector<size_t> out;
  int depth = 0;
  for (size_t i = begin; i < end; ++i) {
    const char c = s[i];
    if (c == '"' || c == '\'') {
      i = skip_string(s, i) - 1;
      continue;
    }
    if (c == '#') {
      while (i < end && s[i] != '\n') ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c != '=' || depth != 0) continue;
    const char before = i > begin ? s[i - 1] : ' ', after = i + 1 < end ? s[i + 1] : ' ';
    if (after == '=') {
      ++i;  // ==
      continue;
    }
    if (std::string("=<>!+-*/%&|^@:").find(before) != std::string::npos) continue;  // <=, +=, :=, ...
    out.push_back(i);
  }
  return out;
}

// 1-based line and column of `offset`.
std::pair<int, int> position(const std::string& s, size_t offset, size_t& cursor, int& line, size_t& line_start) {
  for (; cursor < offset; ++cursor)
    if (s[cursor] == '\n') {
      ++line;
      line_start = cursor + 1;
    }
  return {line, static_cast<int>(offset - line_start) + 1};
}

}  // namespace

std::vector<Declaration> scan_python(const std::string& text, const std::string& file) {
  std::vector<Declaration> out;
  struct Scope {
    size_t indent;
    std::string name;
    bool is_class;
  };
  std::vector<Scope> scopes;  // the enclosing classes and functions
  size_t cursor = 0, line_start = 0;
  int line_no = 1;
  for (const LogicalLine& l : logical_lines(text)) {
    if (!l.continues_line)
      while (!scopes.empty() && scopes.back().indent >= l.indent) scopes.pop_back();
    std::string head = text.substr(l.begin, std::min<size_t>(l.end - l.begin, 200));
    for (const char* opener : {"class ", "def ", "async def "}) {
      if (head.rfind(opener, 0) != 0) continue;
      size_t b = std::string(opener).size();
      while (b < head.size() && head[b] == ' ') ++b;
      size_t e = b;
      while (e < head.size() && is_ident_char(head[e])) ++e;
      if (e > b) scopes.push_back({l.indent, head.substr(b, e - b), opener[0] == 'c'});
      break;
    }
    std::vector<size_t> signs = assignment_signs(text, l.begin, l.end);
    if (signs.empty()) continue;
    // a = b = value: every leading part that is a target names the value
    std::vector<std::string> targets;
    size_t from = l.begin, value_begin = std::string::npos;
    for (size_t sign : signs) {
      std::string name = target_name(text.substr(from, sign - from));
      if (name.empty()) break;
      targets.push_back(name);
      from = sign + 1;
      value_begin = from;
    }
    if (targets.empty()) continue;
    while (value_begin < l.end && std::isspace(static_cast<unsigned char>(text[value_begin]))) ++value_begin;
    if (value_begin >= l.end) continue;
    // a local's scope is every enclosing class and function; an attribute (self.x) belongs to
    // the instance, so its scope ends at the innermost class (visible from every method)
    std::string scope, class_scope;
    for (const Scope& sc : scopes) {
      scope += (scope.empty() ? "" : "::") + sc.name;
      if (sc.is_class) class_scope = scope;
    }
    auto [line, column] = position(text, value_begin, cursor, line_no, line_start);
    for (const std::string& name : targets) {
      Declaration d;
      d.name = name;
      d.scope = name.rfind("self.", 0) == 0 ? class_scope : scope;
      d.text = text.substr(value_begin, l.end - value_begin);
      d.language = SourceLanguage::kPython;
      d.file = file;
      d.line = line;
      d.column = column;
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace cutevis
