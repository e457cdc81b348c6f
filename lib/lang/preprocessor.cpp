// The conditional preprocessor (see lib/lang/preprocessor.hpp): a condition is read by a small
// recursive-descent parser over its own tokens, C's precedence, 64-bit integers.
#include "lib/lang/preprocessor.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "lib/error.hpp"
#include "lib/stable_sort.hpp"

namespace cutevis {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct NotAnExpression {};                // thrown inside the parser; the condition then is 0 and unreadable
constexpr size_t kMaxExpansions = 10000;  // macro expansions for one condition
constexpr size_t kMaxNotes = 100;         // notes for one file
constexpr size_t kMaxNamed = 8;           // macros, and further lines, a note names (then "and N more")

class ConditionParser {
 public:
  struct Shared {
    std::set<std::string> noted;        // the names in undefined_
    size_t expansions = 0;              // macros expanded for this condition, all depths
    size_t* expansions_left = nullptr;  // the file's budget, when there is one
  };
  ConditionParser(std::string_view text, const std::map<std::string, std::string>& macros,
                  std::vector<std::string>& undefined, std::set<std::string>& expanding,
                  Shared* shared = nullptr)  // a macro's expansion shares its caller's
      : macros_(macros), undefined_(undefined), expanding_(expanding), shared_(shared ? *shared : own_) {
    tokenize(text);
  }

  int64_t parse() {
    int64_t v = conditional();
    if (i_ != toks_.size()) throw NotAnExpression{};
    return v;
  }

 private:
  void tokenize(std::string_view s) {
    static const char* const two[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>"};
    size_t i = 0;
    while (i < s.size()) {
      char c = s[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      size_t j = i + 1;
      if (ident_start(c)) {
        while (j < s.size() && ident_char(s[j])) ++j;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        while (j < s.size() && (ident_char(s[j]) || s[j] == '\'')) ++j;
      } else if (i + 1 < s.size()) {
        for (const char* op : two)
          if (c == op[0] && s[i + 1] == op[1]) j = i + 2;
      }
      toks_.push_back(s.substr(i, j - i));
      i = j;
    }
  }

  std::string_view peek() const { return i_ < toks_.size() ? toks_[i_] : std::string_view(); }
  bool accept(std::string_view op) {
    if (peek() != op) return false;
    ++i_;
    return true;
  }
  void expect(std::string_view op) {
    if (!accept(op)) throw NotAnExpression{};
  }

  int64_t conditional() {
    int64_t c = logical_or();
    if (!accept("?")) return c;
    int64_t a = conditional();
    expect(":");
    int64_t b = conditional();
    return c ? a : b;
  }
  int64_t logical_or() {
    int64_t v = logical_and();
    while (accept("||")) {
      int64_t r = logical_and();  // both sides are read: their undefined macros are named
      v = (v || r) ? 1 : 0;
    }
    return v;
  }
  int64_t logical_and() {
    int64_t v = bit_or();
    while (accept("&&")) {
      int64_t r = bit_or();
      v = (v && r) ? 1 : 0;
    }
    return v;
  }
  int64_t bit_or() {
    int64_t v = bit_xor();
    while (peek() == "|") ++i_, v |= bit_xor();
    return v;
  }
  int64_t bit_xor() {
    int64_t v = bit_and();
    while (peek() == "^") ++i_, v ^= bit_and();
    return v;
  }
  int64_t bit_and() {
    int64_t v = equality();
    while (peek() == "&") ++i_, v &= equality();
    return v;
  }
  int64_t equality() {
    int64_t v = relational();
    for (;;) {
      if (accept("==")) v = v == relational();
      else if (accept("!=")) v = v != relational();
      else return v;
    }
  }
  int64_t relational() {
    int64_t v = shift();
    for (;;) {
      if (accept("<=")) v = v <= shift();
      else if (accept(">=")) v = v >= shift();
      else if (accept("<")) v = v < shift();
      else if (accept(">")) v = v > shift();
      else return v;
    }
  }
  int64_t shift() {
    int64_t v = additive();
    for (;;) {
      if (accept("<<")) {
        int64_t s = additive();
        v = (s < 0 || s > 62) ? 0 : static_cast<int64_t>(static_cast<uint64_t>(v) << s);
      } else if (accept(">>")) {
        int64_t s = additive();
        v = (s < 0 || s > 62) ? 0 : v >> s;
      } else {
        return v;
      }
    }
  }
  int64_t additive() {
    int64_t v = multiplicative();
    for (;;) {
      if (accept("+")) v = static_cast<int64_t>(static_cast<uint64_t>(v) + static_cast<uint64_t>(multiplicative()));
      else if (accept("-"))
        v = static_cast<int64_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(multiplicative()));
      else return v;
    }
  }
  int64_t multiplicative() {
    int64_t v = unary();
    for (;;) {
      if (accept("*")) {
        v = static_cast<int64_t>(static_cast<uint64_t>(v) * static_cast<uint64_t>(unary()));
      } else if (peek() == "/" || peek() == "%") {
        bool div = peek() == "/";
        ++i_;
        int64_t d = unary();
        if (d == 0) throw NotAnExpression{};  // a compile error in C
        v = div ? v / d : v % d;
      } else {
        return v;
      }
    }
  }
  int64_t unary() {
    if (accept("!")) return !unary();
    if (accept("~")) return ~unary();
    if (accept("-")) return -unary();
    if (accept("+")) return unary();
    return primary();
  }
  int64_t primary() {
    std::string_view t = peek();
    if (t.empty()) throw NotAnExpression{};
    ++i_;
    if (t == "(") {
      int64_t v = conditional();
      expect(")");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(t[0]))) return number(t);
    if (!ident_start(t[0])) throw NotAnExpression{};
    if (t == "defined") {
      bool paren = accept("(");
      std::string_view name = peek();
      if (name.empty() || !ident_start(name[0])) throw NotAnExpression{};
      ++i_;
      if (paren) expect(")");
      bool known = macros_.count(std::string(name)) > 0;
      if (!known) note_undefined(name);
      return known;
    }
    if (t == "true") return 1;
    if (t == "false") return 0;
    std::string name(t);
    if (peek() == "(" && !macros_.count(name)) {  // a function-like macro (__has_include(...)): unknown
      int depth = 0;
      for (; i_ < toks_.size(); ++i_) {
        if (toks_[i_] == "(") ++depth;
        if (toks_[i_] == ")" && --depth == 0) break;
      }
      expect(")");
      note_undefined(name);
      return 0;
    }
    auto it = macros_.find(name);
    if (it == macros_.end()) {
      note_undefined(name);
      return 0;
    }
    if (expanding_.count(name) || expanding_.size() > 32) return 0;  // #define X X: C stops expanding
    // #define M1 (M0+M0), M2 (M1+M1), ...: 2^N expansions; past the budget the condition is unreadable
    if (++shared_.expansions > kMaxExpansions) throw NotAnExpression{};
    if (shared_.expansions_left) {
      if (*shared_.expansions_left == 0) throw NotAnExpression{};
      --*shared_.expansions_left;
    }
    if (it->second.find_first_not_of(" \t") == std::string::npos) throw NotAnExpression{};  // #define X
    // Unmarked on the way out by a guard, not a catch and rethrow: an unreadable condition
    // 40 expansions deep would otherwise throw 40 times (a 4 MB file of them: 1 s).
    struct Unmark {
      std::set<std::string>& set;
      const std::string& name;
      ~Unmark() { set.erase(name); }
    } unmark{expanding_, name};
    expanding_.insert(name);
    return ConditionParser(it->second, macros_, undefined_, expanding_, &shared_).parse();
  }

  static int64_t number(std::string_view t) {
    std::string digits;
    for (char c : t)
      if (c != '\'') digits += c;
    while (!digits.empty() && std::strchr("uUlL", digits.back())) digits.pop_back();
    int base = 10;
    size_t start = 0;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, start = 2;
    else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, start = 2;
    else if (digits.size() > 1 && digits[0] == '0') base = 8, start = 1;
    uint64_t v = 0;
    for (size_t k = start; k < digits.size(); ++k) {
      char c = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[k])));
      int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : 99;
      if (d >= base) throw NotAnExpression{};
      v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
    }
    return static_cast<int64_t>(v);
  }

  void note_undefined(std::string_view name) {  // each once, found in a set (a long #if names many)
    if (shared_.noted.insert(std::string(name)).second) undefined_.emplace_back(name);
  }

  const std::map<std::string, std::string>& macros_;
  std::vector<std::string>& undefined_;
  std::set<std::string>& expanding_;
  Shared own_;
  Shared& shared_;
  std::vector<std::string_view> toks_;
  size_t i_ = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The directive's word and the rest: "if", "defined(X) && X >= 800".
std::pair<std::string_view, std::string_view> split_directive(std::string_view text) {
  text = trim(text);
  size_t e = 0;
  while (e < text.size() && ident_char(text[e])) ++e;
  return {text.substr(0, e), trim(text.substr(e))};
}

std::string_view first_identifier(std::string_view s) {
  s = trim(s);
  size_t e = 0;
  while (e < s.size() && ident_char(s[e])) ++e;
  return s.substr(0, e);
}

// A condition as a note quotes it: at most 160 bytes, then its length.
std::string shortened(std::string_view text) {
  if (text.size() <= 160) return std::string(text);
  return std::string(text.substr(0, 120)) + "... [" + std::to_string(text.size()) + " bytes]";
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  const size_t shown = std::min(names.size(), kMaxNamed);
  for (size_t i = 0; i < shown; ++i) s += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + names[i];
  if (shown < names.size()) s += " and " + std::to_string(names.size() - shown) + " more";
  return s;
}

// Whether `expression` names a macro of `macros` (reading it would expand one).
bool names_a_macro(std::string_view expression, const std::map<std::string, std::string>& macros) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < expression.size();) {
    if (!word_char(expression[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < expression.size() && word_char(expression[end])) ++end;
    if (!std::isdigit(static_cast<unsigned char>(expression[i])) &&
        macros.count(std::string(expression.substr(i, end - i))))
      return true;
    i = end;
  }
  return false;
}

}  // namespace

ConditionValue evaluate_condition(std::string_view expression, const std::map<std::string, std::string>& macros,
                                  size_t* expansions_left) {
  ConditionValue v;
  if (expansions_left && *expansions_left == 0 && names_a_macro(expression, macros)) {
    v.readable = false;  // the file's budget is spent: unreadable without parsing (and throwing)
    return v;
  }
  std::set<std::string> expanding;
  ConditionParser::Shared shared;
  shared.expansions_left = expansions_left;
  try {
    v.value = ConditionParser(expression, macros, v.undefined, expanding, &shared).parse();
  } catch (const NotAnExpression&) {
    v.value = 0;
    v.readable = false;
  }
  return v;
}

std::map<std::string, std::string> arch_macros(const std::string& arch) {
  std::string a;
  for (char c : arch) a += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (a.rfind("sm_", 0) == 0) a = a.substr(3);
  else if (a.rfind("sm", 0) == 0) a = a.substr(2);
  while (!a.empty() && (a.back() == 'a' || a.back() == 'f')) a.pop_back();  // sm90a, sm100f
  if (a.empty() || a.size() > 4 || a.find_first_not_of("0123456789") != std::string::npos)
    throw Error("--arch expects an architecture such as sm80 or sm90a, got '" + arch + "'");
  return {{"__CUDA_ARCH__", std::to_string(std::stoi(a) * 10)}, {"__CUDACC__", "1"}};
}

Conditionals::Conditionals(std::map<std::string, std::string> given) : given_(std::move(given)), macros_(given_) {}

void Conditionals::open(bool value, int line) {
  Group g;
  g.parent_active = active();
  g.active = g.parent_active && value;
  g.taken = value;
  g.line = line;
  if (!g.active) ++inactive_depth_;
  groups_.push_back(g);
}

bool Conditionals::condition(std::string_view word, std::string_view expression, int line) {
  ConditionValue v = evaluate_condition(expression, macros_, &expansions_left_);
  if (!v.readable) {
    problems_.push_back({line,
                         "#" + std::string(word) + " " + shortened(expression) +
                             ": not a condition cutevis can read; its branch is skipped (as if false)",
                         ""});
  } else if (!v.undefined.empty()) {
    note_unasked(v, "#" + std::string(word) + " " + shortened(expression), line);
  }
  return v.readable && v.value != 0;
}

void Conditionals::note_unasked(const ConditionValue& v, std::string_view expression, int line) {
  // one note per set of macros, found by its sorted names (a file of 25,000 distinct #if's
  // compared each with every earlier one: 14 s for 1 MB)
  std::vector<std::string> names = v.undefined;
  std::sort(names.begin(), names.end());
  std::string key;
  for (const std::string& n : names) key += n + '\n';
  auto [slot, fresh] = unasked_index_.try_emplace(std::move(key), unasked_.size());
  if (!fresh) {
    unasked_[slot->second].lines.push_back(line);
    return;
  }
  Unasked u;
  u.macros = v.undefined;
  u.lines = {line};
  u.first_condition = std::string(expression);
  u.first_value = v.value != 0;
  std::vector<std::string> ignored;
  std::set<std::string> expanding;
  // the architecture a condition on __CUDA_ARCH__ compares with (>= 800: sm80)
  for (size_t i = 0; i < expression.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(expression[i])) && (i == 0 || !ident_char(expression[i - 1]))) {
      size_t j = i;
      while (j < expression.size() && std::isdigit(static_cast<unsigned char>(expression[j]))) ++j;
      int64_t n = std::stoll(std::string(expression.substr(i, std::min<size_t>(j - i, 12))));
      if (n >= 300 && n % 10 == 0 && !u.compared) u.compared = n;
      i = j;
    }
  unasked_.push_back(std::move(u));
}

void Conditionals::directive(std::string_view raw, int line) {
  std::string text;  // without its comments, in one pass (a replace each was quadratic)
  text.reserve(raw.size());
  for (size_t k = 0; k < raw.size(); ++k) {
    if (raw.compare(k, 2, "//") == 0) break;
    if (raw.compare(k, 2, "/*") == 0) {
      const size_t e = raw.find("*/", k + 2);
      text += ' ';
      if (e == std::string_view::npos) break;
      k = e + 1;
    } else {
      text += raw[k];
    }
  }
  auto [word, rest] = split_directive(text);
  // #ifndef X then #define X: an include guard, which needs no note
  if (!pending_guard_.empty()) {
    bool guard = word == "define" && first_identifier(rest) == pending_guard_;
    if (!guard) note_unasked(pending_guard_value_, "#ifndef " + pending_guard_, pending_guard_line_);
    pending_guard_.clear();
  }
  if (word == "if") {
    open(active() && condition(word, rest, line), line);
  } else if (word == "ifdef" || word == "ifndef") {
    std::string name(first_identifier(rest));
    bool defined = macros_.count(name) > 0;
    bool value = (word == "ifdef") == defined;
    if (active() && !defined && !name.empty()) {
      ConditionValue v;
      v.value = value;
      v.undefined = {name};
      if (word == "ifndef") {
        pending_guard_ = name, pending_guard_line_ = line, pending_guard_value_ = v;
      } else {
        note_unasked(v, "#ifdef " + name, line);
      }
    }
    open(value, line);
  } else if (word == "elif" || word == "elifdef" || word == "elifndef" || word == "else") {
    if (groups_.empty()) {
      problems_.push_back({line, "#" + std::string(word) + " without #if: ignored", ""});
      return;
    }
    Group& g = groups_.back();
    bool was_active = g.active;
    bool now = false;
    if (g.parent_active && !g.taken) {
      if (word == "else") {
        now = true;
      } else if (word == "elif") {
        now = condition(word, rest, line);
      } else {
        std::string name(first_identifier(rest));
        now = (word == "elifdef") == (macros_.count(name) > 0);
      }
    }
    if (word == "else") g.saw_else = true;
    g.active = now;
    g.taken = g.taken || now;
    if (was_active && !now) ++inactive_depth_;
    if (!was_active && now) --inactive_depth_;
  } else if (word == "endif") {
    if (groups_.empty()) {
      problems_.push_back({line, "#endif without #if: ignored", ""});
      return;
    }
    if (!groups_.back().active) --inactive_depth_;
    groups_.pop_back();
  } else if (!active()) {
    return;
  } else if (word == "define") {
    std::string_view name = first_identifier(rest);
    if (name.empty() || given_.count(std::string(name))) return;  // -D wins
    std::string_view value = rest.substr(name.size());
    if (!value.empty() && value.front() == '(') {  // a function-like macro: defined, no value to read
      macros_[std::string(name)] = "";
      return;
    }
    macros_[std::string(name)] = std::string(trim(value));
  } else if (word == "undef") {
    std::string name(first_identifier(rest));
    if (!given_.count(name)) macros_.erase(name);
  }
}

void Conditionals::set_macros(std::map<std::string, std::string> macros) {
  macros_ = std::move(macros);
  for (const auto& [name, value] : given_) macros_[name] = value;
}

bool include_directive(std::string_view directive, std::string& name, bool& angled) {
  size_t i = directive.find_first_not_of(" \t");
  if (i == std::string_view::npos || directive.compare(i, 7, "include") != 0) return false;
  i = directive.find_first_not_of(" \t", i + 7);
  if (i == std::string_view::npos || (directive[i] != '"' && directive[i] != '<')) return false;
  angled = directive[i] == '<';
  const size_t end = directive.find(angled ? '>' : '"', i + 1);
  if (end == std::string_view::npos || end == i + 1) return false;
  name = std::string(directive.substr(i + 1, end - i - 1));
  return true;
}

std::vector<PreprocessorNote> Conditionals::notes() const {
  std::vector<PreprocessorNote> out = problems_;
  for (const Unasked& u : unasked_) {
    bool arch = std::find(u.macros.begin(), u.macros.end(), "__CUDA_ARCH__") != u.macros.end();
    std::string m = u.first_condition + " is " + (u.first_value ? "true" : "false") + ": " + joined(u.macros) +
                    (u.macros.size() == 1 ? " has" : " have") + " no value, so the branch a host compile takes is read";
    if (u.lines.size() > 1) {
      m += " (also at line";
      m += u.lines.size() > 2 ? "s " : " ";
      const size_t shown = std::min(u.lines.size(), kMaxNamed + 1);
      for (size_t i = 1; i < shown; ++i) m += (i > 1 ? ", " : "") + std::to_string(u.lines[i]);
      if (shown < u.lines.size()) m += " and " + std::to_string(u.lines.size() - shown) + " more";
      m += ")";
    }
    m += "; choose with ";
    if (arch) {
      int64_t cc = u.compared ? *u.compared : 800;
      m += "--arch sm" + std::to_string(cc / 10) + " (or -D __CUDA_ARCH__=" + std::to_string(cc) + ")";
    } else {
      for (size_t i = 0; i < std::min(u.macros.size(), kMaxNamed); ++i)
        m += (i ? " " : "") + std::string("-D ") + u.macros[i] + "=1";
      if (u.macros.size() > kMaxNamed) m += " ...";
    }
    out.push_back({u.lines.front(), m, u.first_condition + " is " + (u.first_value ? "true" : "false")});
  }
  for (const Group& g : groups_) out.push_back({g.line, "#if without #endif", ""});
  stable_sort_by(out, [](const auto& a, const auto& b) { return a.line < b.line; });
  if (out.size() > kMaxNotes) {  // a file of 30,000 #if's: its first notes, then how many more
    const size_t more = out.size() - kMaxNotes;
    out.resize(kMaxNotes);
    out.push_back({out.back().line, std::to_string(more) + " more notes like these in this file (not listed)", ""});
  }
  return out;
}

}  // namespace cutevis
