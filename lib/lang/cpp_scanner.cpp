// The C++ declaration scanner (see lib/lang/cpp_scanner.hpp): comments blanked, a light token
// stream, statements split at `;` and blocks, and each statement read as a declaration
// or skipped.
#include "lib/lang/cpp_scanner.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <map>
#include <string_view>
#include <tuple>

#include "lib/error.hpp"
#include "lib/lang/cpp_text.hpp"

namespace cutevis {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Tok {              // 32 bytes: a 4 MB file has a million of them
  std::string_view text;  // into the blanked copy of the source
  uint32_t begin, end;    // (sources are at most 4 MB)
  enum class Kind : uint8_t { kIdent, kNumber, kPunct } kind;
};

bool one_of(std::string_view s, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words)
    if (s.size() == w.size() && s == w) return true;
  return false;
}

// CUTLASS's constexpr under C++17 (cutlass/cutlass.h), which its builders need: cutlass::round_up
bool is_cxx17_constexpr(std::string_view s) { return s.size() == 26 && s == "CUTLASS_CONSTEXPR_IF_CXX17"; }

// Words before a declaration that only qualify it.
bool is_specifier(std::string_view s) {
  return one_of(s, {"static",
                    "constexpr",
                    "const",
                    "inline",
                    "extern",
                    "volatile",
                    "thread_local",
                    "mutable",
                    "register",
                    "constinit",
                    "consteval",
                    "typename",
                    "CUTE_HOST_DEVICE",
                    "CUTE_DEVICE",
                    "CUTE_HOST",
                    "CUTLASS_HOST_DEVICE",
                    "CUTLASS_DEVICE",
                    "CUTLASS_HOST",
                    "CUTLASS_GLOBAL",
                    "__device__",
                    "__host__",
                    "__global__",
                    "__shared__",
                    "__constant__",
                    "__forceinline__",
                    "__inline__",
                    "__restrict__",
                    "CUTE_INLINE_CONSTANT",
                    "CUTLASS_INLINE_CONSTANT",
                    "CUTLASS_CONSTEXPR_IF_CXX17"});
}

// Specifiers with a parenthesized argument: alignas(16), __launch_bounds__(128), ...
bool is_specifier_call(std::string_view s) {
  return one_of(s, {"alignas", "__align__", "__launch_bounds__", "__attribute__", "__declspec"});
}

bool is_statement_keyword(std::string_view s) {
  return one_of(s, {"return",
                    "if",
                    "else",
                    "for",
                    "while",
                    "do",
                    "switch",
                    "case",
                    "default",
                    "goto",
                    "break",
                    "continue",
                    "throw",
                    "delete",
                    "new",
                    "static_assert",
                    "CUTE_STATIC_ASSERT",
                    "CUTE_STATIC_ASSERT_V",
                    "asm",
                    "namespace",
                    "enum",
                    "struct",
                    "class",
                    "union",
                    "friend",
                    "operator",
                    "co_return",
                    "co_yield",
                    "co_await",
                    "try",
                    "catch",
                    "sizeof",
                    "this",
                    "assert"});
}

// Scalar types: `int k;` declares a runtime variable, not a definition.
bool is_scalar_type(std::string_view s) {
  return one_of(s, {"int",        "unsigned",   "signed",  "long",        "short",       "char",    "bool",
                    "float",      "double",     "size_t",  "int32_t",     "uint32_t",    "int64_t", "uint64_t",
                    "int8_t",     "uint8_t",    "int16_t", "uint16_t",    "auto",        "void",    "half_t",
                    "bfloat16_t", "tfloat32_t", "dim3",    "cudaError_t", "cudaStream_t"});
}

class Walker {
 public:
  Walker(const std::string& text, const std::string& file, const std::map<std::string, std::string>& macros,
         const IncludeHook* include = nullptr, const std::map<std::string, std::string>* state = nullptr)
      : file_(file), src_(text), conditionals_(macros), include_(include) {
    if (state) {  // an included header
      conditionals_.set_macros(*state);
      file_tag_ = "@" + file.substr(file.find_last_of('/') + 1);
    }
    // lines first (blanking keeps every newline): blank() declares #defines as it meets them, with their line
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') line_starts_.push_back(i + 1);
    clean_ = blank(text);
    out_.notes = conditionals_.notes();
    out_.macros = conditionals_.macros();
    lex();
  }

  CppScan scan() {
    walk();
    return std::move(out_);
  }

  CppSnippet snippet() {
    walk();
    CppSnippet s;
    s.declarations = std::move(out_.declarations);
    s.functions = std::move(out_.functions);
    s.classes = std::move(out_.classes);
    if (last_begin_ == last_end_) throw Error("empty snippet: no statement gives a result", 0);
    if (last_decl_ >= 0) {
      const Declaration& d = s.declarations[static_cast<size_t>(last_decl_)];
      s.result_name = d.scope.empty() ? d.name : d.scope + "::" + d.name;
    } else {
      s.result_begin = toks_[last_begin_].begin;
      s.result_end = toks_[last_end_ - 1].end;
    }
    return s;
  }

 private:
  // Comments and literals become spaces (newlines kept: positions stay exact); preprocessor
  // lines are read (#if groups, `#define NAME VALUE`) and blanked, and so are the parts of #if
  // groups that are not read.
  std::string blank(const std::string& s) {
    std::string c = s;
    size_t i = 0;
    bool line_start = true;
    size_t skipped_from = 0;  // where the part not read began (while !conditionals_.active())
    while (i < c.size()) {
      char ch = c[i];
      if (ch == '\n') {
        line_start = true;
        ++i;
        continue;
      }
      if (line_start && ch == '#') {
        size_t end = i;
        while (end < c.size() && c[end] != '\n')
          end = (c[end] == '\\' && end + 1 < c.size() && c[end + 1] == '\n') ? end + 2 : end + 1;
        const bool was_active = conditionals_.active();
        if (was_active) define(s, i, end);
        std::string directive;  // continuation lines joined in one pass (a replace each was quadratic)
        directive.reserve(end - i);
        for (size_t k = i + 1; k < end; ++k) {
          const bool joins = s[k] == '\\' && k + 1 < end && s[k + 1] == '\n';
          directive += joins ? ' ' : s[k];
          k += joins;
        }
        conditionals_.directive(directive, line_col(i).first);
        std::string header;
        bool angled = false;
        if (was_active && include_ && include_directive(directive, header, angled)) {
          std::map<std::string, std::string> macros = conditionals_.macros();
          (*include_)(header, angled, line_col(i).first, macros);  // the header's #defines count from here on
          conditionals_.set_macros(std::move(macros));
        }
        for (size_t k = i; k < end; ++k)
          if (c[k] != '\n') c[k] = ' ';
        if (!was_active && conditionals_.active()) blank_span(c, skipped_from, i);
        if (was_active && !conditionals_.active()) skipped_from = end;
        i = end;
        continue;
      }
      if (!std::isspace(static_cast<unsigned char>(ch))) line_start = false;
      // a letter or digit in quotes ('N') is a char a declaration may hold (`char transA = 'N';`): kept
      if (ch == '\'' && i + 2 < c.size() && c[i + 2] == '\'' && std::isalnum(static_cast<unsigned char>(c[i + 1])) &&
          !(i > 0 && std::isalnum(static_cast<unsigned char>(c[i - 1])))) {
        i += 3;
        continue;
      }
      if (size_t next = blank_comment_or_literal(c, i); next != i) {
        i = next;
        continue;
      }
      ++i;
    }
    if (!conditionals_.active()) blank_span(c, skipped_from, c.size());
    return c;
  }

  static void blank_span(std::string& c, size_t a, size_t b) {
    for (size_t k = a; k < b; ++k)
      if (c[k] != '\n') c[k] = ' ';
  }

  // #define NAME VALUE (object-like, one line) is a declaration of NAME.
  void define(const std::string& s, size_t hash, size_t end) {
    size_t i = hash + 1;
    auto skip_space = [&] {
      while (i < end && (s[i] == ' ' || s[i] == '\t')) ++i;
    };
    skip_space();
    if (s.compare(i, 6, "define") != 0) return;
    i += 6;
    skip_space();
    size_t name_begin = i;
    while (i < end && ident_char(s[i])) ++i;
    if (i == name_begin || i >= end || s[i] == '(') return;
    std::string name = s.substr(name_begin, i - name_begin);
    skip_space();
    std::string value = s.substr(i, end - i);
    if (value.find('\\') != std::string::npos || value.find("//") != std::string::npos ||
        value.find("/*") != std::string::npos)
      return;
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
    if (value.empty()) return;
    add(name, "", value, i);
  }

  void lex() {
    const std::string& c = clean_;
    toks_.reserve(c.size() / 3 + 16);  // pages not written are not touched: no regrowth copies
    static const char* const two[] = {"::", "->", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=",
                                      "*=", "/=", "%=", "|=", "&=", "^=", "++", "--", "<<"};
    size_t i = 0;
    while (i < c.size()) {
      char ch = c[i];
      if (std::isspace(static_cast<unsigned char>(ch))) {
        ++i;
        continue;
      }
      Tok t{"", static_cast<uint32_t>(i), static_cast<uint32_t>(i), Tok::Kind::kPunct};
      if (ident_start(ch)) {
        size_t j = i;
        while (j < c.size() && ident_char(c[j])) ++j;
        t.kind = Tok::Kind::kIdent;
        t.end = j;
      } else if (std::isdigit(static_cast<unsigned char>(ch))) {
        size_t j = i;
        while (j < c.size() && (ident_char(c[j]) || c[j] == '.' || c[j] == '\'')) ++j;
        t.kind = Tok::Kind::kNumber;
        t.end = j;
      } else {
        t.end = i + 1;
        if (i + 1 < c.size() && std::strchr(":-=!<>&|+*/%^", ch) && std::strchr(":>=&|+-<", c[i + 1]))
          for (const char* op : two)
            if (ch == op[0] && c[i + 1] == op[1]) t.end = i + 2;
      }
      t.text = std::string_view(c).substr(i, t.end - i);
      i = t.end;
      toks_.push_back(std::move(t));
    }
  }

  // --- positions -------------------------------------------------------------------------
  std::pair<int, int> line_col(size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    size_t line = static_cast<size_t>(it - line_starts_.begin());
    return {static_cast<int>(line), static_cast<int>(offset - line_starts_[line - 1] + 1)};
  }

  void add(const std::string& name, const std::string& scope, const std::string& text, size_t offset,
           bool parameter = false) {
    Declaration d;
    d.name = name;
    d.scope = scope;
    d.text = text;
    d.language = SourceLanguage::kCpp;
    d.file = file_;
    auto [line, col] = line_col(offset);
    d.line = line;
    d.column = col;
    if (!parameter && !scopes_.empty() && !scopes_.back().tscope.empty()) {
      d.template_scope = scopes_.back().tscope;
      d.template_params = scopes_.back().tparams;
      d.template_defaults = scopes_.back().tdefaults;
    }
    (parameter ? out_.parameters : out_.declarations).push_back(std::move(d));
  }

  // The parameters of a template header [a, b) in order, with their defaults ("" none).
  void header_parameters(size_t a, size_t b, std::vector<std::string>& names,
                         std::vector<std::string>& defaults) const {
    for_each_template_parameter(a, b, [&](size_t i, size_t end, size_t name_at) {
      if (name_at > i && is_ident(name_at - 1)) {
        names.push_back(str(name_at - 1));
        defaults.push_back(name_at < end ? span(name_at + 1, end) : "");
      }
    });
  }

  std::string span(size_t a, size_t b) const {  // the text of tokens [a, b)
    if (a >= b) return "";
    return clean_.substr(toks_[a].begin, toks_[b - 1].end - toks_[a].begin);
  }
  std::string_view t(size_t i) const { return toks_[i].text; }
  std::string str(size_t i) const { return std::string(toks_[i].text); }
  bool is_ident(size_t i) const { return toks_[i].kind == Tok::Kind::kIdent; }

  // The index after the bracket that opens at `i` ( ( [ { < ), within [i, b); b if unbalanced.
  size_t skip_balanced(size_t i, size_t b) const {
    const std::string_view open = t(i);
    const std::string_view close = open == "(" ? ")" : open == "[" ? "]" : open == "{" ? "}" : ">";
    int depth = 0, parens = 0;
    for (size_t k = i; k < b; ++k) {
      if (open == "<" && (t(k) == "(" || t(k) == "[")) ++parens;
      if (open == "<" && (t(k) == ")" || t(k) == "]")) --parens;
      if (open == "<" && parens > 0) continue;
      if (t(k) == open) ++depth;
      if (t(k) == close && --depth == 0) return k + 1;
    }
    return b;
  }

  std::string scope() const {
    std::string s;
    for (const auto& sc : scopes_)
      if (!sc.name.empty()) s += (s.empty() ? "" : "::") + sc.name;
    return s;
  }
  std::string join(const std::string& a, const std::string& b) const {
    return a.empty() ? b : b.empty() ? a : a + "::" + b;
  }

  // --- statements ------------------------------------------------------------------------
  void walk() {
    size_t n = toks_.size(), start = 0;
    int depth = 0;
    for (size_t i = 0; i < n; ++i) {
      // one character (a punctuator of interest) or none: the loop visits every token of the file
      const char x = toks_[i].text.size() == 1 ? toks_[i].text[0] : '\0';
      if (x == '(' || x == '[') ++depth;
      else if ((x == ')' || x == ']') && depth > 0) --depth;
      if (depth > 0) continue;
      if (x == ';') {
        statement(start, i);
        start = i + 1;
      } else if (x == '{') {
        if (is_initializer(start, i)) {
          i = skip_balanced(i, n) - 1;
          continue;
        }
        if (size_t close = function_definition(start, i)) {  // its body is run when called, not scanned
          i = close - 1;
          start = close;
          continue;
        }
        open_block(start, i);
        start = i + 1;
      } else if (x == '}') {
        if (!scopes_.empty() && scopes_.back().is_enum) enumerators(start, i, scopes_.back().enum_scope);
        after_class_ = SIZE_MAX;
        if (!scopes_.empty()) {
          if (scopes_.back().class_index >= 0 || scopes_.back().is_enum) after_class_ = i + 1;  // struct X {} x;
          scopes_.pop_back();
        }
        start = i + 1;
      }
    }
    if (start < n) statement(start, n);
  }

  // Skips access labels, attributes and template headers (recording their parameters);
  // returns the first token of what remains.
  size_t strip_prefix(size_t a, size_t b, std::vector<std::pair<size_t, size_t>>* headers = nullptr) {
    while (a < b) {
      if (a + 1 < b && t(a + 1) == ":" && one_of(t(a), {"public", "private", "protected", "default"})) {
        a += 2;
      } else if (t(a) == "[" && a + 1 < b && t(a + 1) == "[") {
        a = skip_balanced(a, b);
      } else if (t(a) == "template" && a + 1 < b && t(a + 1) == "<") {
        size_t close = skip_balanced(a + 1, b);
        if (headers) headers->push_back({a + 2, close - 1});
        a = close;
      } else {
        return a;
      }
    }
    return a;
  }

  // The name of what a statement opening a block (or ending in `;`) defines: struct X, a
  // function f(...); "" otherwise.
  std::string entity_name(size_t a, size_t b) const {
    for (size_t i = a; i < b; ++i) {
      if (one_of(t(i), {"struct", "class", "union"})) {
        for (size_t k = i + 1; k < b; ++k) {
          if (is_specifier_call(t(k)) && k + 1 < b && t(k + 1) == "(") {
            k = skip_balanced(k + 1, b) - 1;
            continue;
          }
          if (is_ident(k) && !is_specifier(t(k))) return str(k);
        }
        return "";
      }
      if (t(i) == "(") {
        if (i > a && is_specifier_call(t(i - 1))) {  // __launch_bounds__(128) f(...)
          i = skip_balanced(i, b) - 1;
          continue;
        }
        if (i > a && is_ident(i - 1) && !is_statement_keyword(t(i - 1))) return str(i - 1);
        return "";
      }
      if (t(i) == "=") return "";
    }
    return "";
  }

  // Each parameter of a template header [a, b): f(first token, end, the `=` or end).
  template <class F>
  void for_each_template_parameter(size_t a, size_t b, F&& f) const {
    size_t i = a;
    while (i < b) {
      size_t end = i, eq = b;
      int angle = 0, paren = 0;
      for (; end < b; ++end) {
        std::string_view x = t(end);
        if (x == "(" || x == "[" || x == "{") ++paren;
        if (x == ")" || x == "]" || x == "}") --paren;
        if (paren == 0 && x == "<") ++angle;
        if (paren == 0 && x == ">") --angle;
        if (paren == 0 && angle == 0 && x == ",") break;
        if (paren == 0 && angle == 0 && x == "=" && eq == b) eq = end;
      }
      f(i, end, eq < end ? eq : end);
      i = end + 1;
    }
  }

  void template_parameters(size_t a, size_t b, const std::string& where) {
    for_each_template_parameter(a, b, [&](size_t i, size_t end, size_t name_at) {
      if (name_at > i && is_ident(name_at - 1) &&
          !one_of(t(name_at - 1), {"class", "typename", "int", "bool", "auto"}) &&
          !(name_at >= i + 2 && t(name_at - 2) == "...")) {
        if (name_at < end)
          add(str(name_at - 1), where, span(name_at + 1, end), toks_[name_at + 1 < end ? name_at + 1 : name_at].begin);
        else add(str(name_at - 1), where, "", toks_[name_at - 1].begin, /*parameter=*/true);
      }
    });
  }

  // A function's parameters: names -D must give.
  void function_parameters(size_t open, size_t close, const std::string& where) {
    size_t i = open + 1;
    while (i < close) {
      size_t end = i;
      int depth = 0;
      for (; end < close; ++end) {
        std::string_view x = t(end);
        if (x == "(" || x == "[" || x == "{" || x == "<") ++depth;
        if (x == ")" || x == "]" || x == "}" || x == ">") --depth;
        if (depth == 0 && x == ",") break;
      }
      size_t last = end;
      for (size_t k = i; k < end; ++k)
        if (t(k) == "=") {
          last = k;
          break;
        }
      if (last > i + 1 && is_ident(last - 1) && !is_scalar_type(t(last - 1)) && !is_specifier(t(last - 1)))
        add(str(last - 1), where, "", toks_[last - 1].begin, /*parameter=*/true);
      i = end + 1;
    }
  }

  void record_headers(const std::vector<std::pair<size_t, size_t>>& headers, size_t a, size_t b) {
    if (headers.empty()) return;
    std::string where = join(scope(), entity_name(a, b));
    for (const auto& [h0, h1] : headers) template_parameters(h0, h1, where);
  }

  // Is the `{` at i an initializer (Type x{...}, = {...}, Shape<..>{}) rather than a block?
  bool is_initializer(size_t a, size_t i) const {
    if (i == a) return false;
    std::string_view prev = t(i - 1);
    size_t first = a;
    while (first < i && (one_of(t(first), {"public", "private", "protected"}) || t(first) == ":")) ++first;
    if (first < i &&
        one_of(t(first), {"namespace", "struct", "class", "union", "enum", "extern", "template", "inline"})) {
      bool has_eq = false;
      for (size_t k = first; k < i; ++k) has_eq = has_eq || t(k) == "=";
      if (!has_eq || t(first) == "template") {
        // template <...> struct X {  /  template <...> auto f(...) {  are blocks; template <...> X v = T{...} is not
        if (t(first) != "template") return false;
        for (size_t k = first; k < i; ++k)
          if (one_of(t(k), {"struct", "class", "union"})) return false;
      }
    }
    if (prev == ")") {  // decltype(x){} initializes; f(...) {, if (...) { open blocks
      int depth = 0;
      for (size_t k = i - 1;; --k) {
        if (t(k) == ")") ++depth;
        if (t(k) == "(" && --depth == 0) return k > a && t(k - 1) == "decltype";
        if (k == a) return false;
      }
    }
    if (prev == "]") {  // auto [x, y]{E};  initializes; a lambda's [x]{ opens a block
      size_t first = a;
      while (first < i && is_specifier(t(first)) && !one_of(t(first), {"const", "volatile"})) ++first;
      return !binding_names(first, i).empty();
    }
    if (one_of(prev, {"else", "do", "try", "const", "noexcept", "override", "final", "mutable", "}", ";"}))
      return false;
    for (size_t k = a; k < i; ++k)
      if (t(k) == "->") return false;  // auto f() -> T {
    return true;
  }

  // A constexpr function's definition opening its body at `open`: recorded (lib/lang/functions.hpp),
  // and the index after its body returned; 0 if [a, open) is something else.
  [[gnu::noinline]] size_t function_definition(size_t a, size_t open) {  // (out of walk's loop: it stays small)
    if (!scopes_.empty() && scopes_.back().skip) return 0;
    // a struct's `static auto f(...)` is read as well: its type is what decltype(f(x)) asks of its body
    // (a CUTLASS builder's get_stride), though it is not constexpr
    const bool in_class = !scopes_.empty() && scopes_.back().class_index >= 0;
    bool has_constexpr = false;  // (most blocks: none, and nothing more is looked at)
    for (size_t k = a; k < open && !has_constexpr; ++k)
      has_constexpr = (toks_[k].text.size() == 9 && (t(k) == "constexpr" || t(k) == "consteval")) ||
                      is_cxx17_constexpr(t(k)) || (in_class && toks_[k].text.size() == 4 && t(k) == "auto");
    if (!has_constexpr) return 0;
    std::vector<std::pair<size_t, size_t>> headers;
    size_t s = strip_prefix(a, open, &headers);
    bool is_constexpr = false, is_static = false;
    size_t paren = open;
    for (size_t k = s; k < open && paren == open; ++k) {
      std::string_view x = t(k);
      if (one_of(x, {"struct", "class", "union", "namespace", "enum", "operator", "=", "[", "extern"})) return 0;
      if (x == "constexpr" || x == "consteval" || is_cxx17_constexpr(x)) is_constexpr = true;
      if (x == "static") is_static = true;
      if (x == "auto" && in_class && is_static && paren == open && k + 2 < open && is_ident(k + 1) && t(k + 2) == "(")
        is_constexpr = true;  // static auto f(...)
      if (x == "<") k = skip_balanced(k, open) - 1;
      if (x == "(") {
        if (k > s && (is_specifier_call(t(k - 1)) || t(k - 1) == "decltype")) k = skip_balanced(k, open) - 1;
        else paren = k;
      }
    }
    if (!is_constexpr || paren == open || paren == s || !is_ident(paren - 1) || is_statement_keyword(t(paren - 1)) ||
        is_specifier(t(paren - 1)))
      return 0;
    const size_t close_paren = skip_balanced(paren, open), close = skip_balanced(open, toks_.size());
    if (close_paren > open || t(close - 1) != "}") return 0;
    FunctionDef f;
    f.decl.name = str(paren - 1);
    f.decl.scope = scope();
    f.decl.file = file_;
    const size_t body = toks_[open].end, body_end = toks_[close - 1].begin;
    f.decl.text = clean_.substr(body, body_end - body);
    f.raw_body = src_.substr(body, body_end - body);
    std::tie(f.decl.line, f.decl.column) = line_col(body);
    if (!scopes_.empty() && !scopes_.back().tscope.empty()) {
      f.decl.template_scope = scopes_.back().tscope;
      f.decl.template_params = scopes_.back().tparams;
      f.decl.template_defaults = scopes_.back().tdefaults;
    }
    for (const auto& [h0, h1] : headers) header_parameters(h0, h1, f.tparams, f.tdefaults);
    for_each_template_parameter(paren + 1, close_paren - 1, [&](size_t i, size_t end, size_t name_at) {
      if (name_at <= i || (name_at - 1 == i && t(i) == "void")) return;
      // unnamed (Int<N>, int, T const&) when the last token is no name after a type
      const bool named = name_at - 1 > i && is_ident(name_at - 1) && !is_specifier(t(name_at - 1)) &&
                         t(name_at - 2) != "::" && !is_scalar_type(t(name_at - 1));
      f.params.push_back(named ? str(name_at - 1) : "");
      f.param_types.push_back(span(i, named ? name_at - 1 : name_at));
      f.param_defaults.push_back(name_at < end ? span(name_at + 1, end) : "");
    });
    out_.functions.push_back(std::move(f));
    return close;
  }

  // A struct or class opening at `open` ([s, open) after its template headers): its record.
  [[gnu::noinline]] void class_definition(size_t s, size_t open, const std::vector<std::pair<size_t, size_t>>& headers,
                                          const std::string& members_scope) {
    size_t k = s;
    while (k < open && !one_of(t(k), {"struct", "class", "union"})) ++k;
    for (++k; k < open; ++k) {  // the name: after attributes and alignas(...)
      if (is_specifier_call(t(k)) && k + 1 < open && t(k + 1) == "(") {
        k = skip_balanced(k + 1, open) - 1;
        continue;
      }
      if (t(k) == "[") {
        k = skip_balanced(k, open) - 1;
        continue;
      }
      if (is_ident(k) && !is_specifier(t(k))) break;
    }
    if (k >= open) return;
    ClassDef c;
    c.name = str(k);
    c.scope = scope();
    c.members_scope = members_scope;
    c.is_template = !headers.empty();
    for (const auto& [h0, h1] : headers) header_parameters(h0, h1, c.tparams, c.tdefaults);
    size_t after = k + 1;
    if (after < open && t(after) == "<") {
      size_t close = skip_balanced(after, open);
      c.specialization = span(after + 1, close - 1);
      after = close;
    }
    while (after < open && one_of(t(after), {"final", "alignas"})) ++after;
    if (after < open && t(after) == ":") {
      for (size_t i = after + 1; i < open;) {
        size_t end = i;
        int depth = 0;
        for (; end < open; ++end) {
          std::string_view x = t(end);
          if (x == "(" || x == "[" || x == "{" || x == "<") ++depth;
          if (x == ")" || x == "]" || x == "}" || x == ">") --depth;
          if (depth == 0 && x == ",") break;
        }
        size_t b = i;
        while (b < end && one_of(t(b), {"public", "private", "protected", "virtual", "typename"})) ++b;
        if (b < end) c.bases.push_back(span(b, end));
        i = end + 1;
      }
    }
    c.file = file_;
    c.line = line_col(toks_[k].begin).first;
    out_.classes.push_back(std::move(c));
  }

  // Is [s, i) `struct name<...>` (after its template headers): a class template's specialization?
  bool is_specialization(size_t s, size_t i, const std::string& name) const {
    bool is_struct = false;
    for (size_t k = s; k + 1 < i; ++k) {
      is_struct = is_struct || one_of(t(k), {"struct", "class", "union"});
      if (is_struct && t(k) == std::string_view(name)) return t(k + 1) == "<";
    }
    return false;
  }

  void open_block(size_t a, size_t i) {
    std::vector<std::pair<size_t, size_t>> headers;
    size_t s = strip_prefix(a, i, &headers);
    Scope sc;
    if (s < i && t(s) == "namespace") {
      sc.name = span(s + 1, i);
      sc.name.erase(std::remove_if(sc.name.begin(), sc.name.end(),
                                   [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
                    sc.name.end());
    } else if (s < i && t(s) == "enum") {  // its enumerators are read at its `}`
      sc.skip = true;
      size_t k = s + 1;
      bool scoped = k < i && one_of(t(k), {"class", "struct"});
      if (scoped) ++k;
      while (k < i && is_specifier_call(t(k)) && k + 1 < i && t(k + 1) == "(") k = skip_balanced(k + 1, i);
      std::string name = k < i && is_ident(k) ? str(k) : "";
      sc.is_enum = scopes_.empty() || !scopes_.back().skip;
      sc.enum_scope = scoped ? join(scope(), name) : scope();  // enum class E: E::kA; enum E: kA
    } else if (s < i && t(s) != "extern") {
      sc.name = entity_name(s, i);
    }
    const std::string plain = sc.name;
    if (!sc.name.empty() && !(s < i && t(s) == "namespace")) {
      // overloads and specializations of one name are different scopes: f, f#2, ...
      // In an included header, a class template's specialization is never the plain name (its
      // primary's, maybe in another header), and numbered scopes are tagged with the header's
      // name: sizeof_bits<void> in numeric_size.h and sizeof_bits<bin1_t> in integer_subbyte.h
      // are no one scope.  (The file read keeps its names as `names` shows them: Builder, Builder#2.)
      int n = ++seen_scopes_[join(scope(), sc.name)];
      if (n > 1 || (!file_tag_.empty() && is_specialization(s, i, plain)))
        sc.name += "#" + std::to_string(n) + file_tag_;
    }
    // its template and function parameters are of that scope too (f#2's `m` shadows main's `m`)
    if (!headers.empty()) {
      std::string where = join(scope(), sc.name.empty() ? entity_name(s, i) : sc.name);
      for (const auto& [h0, h1] : headers) template_parameters(h0, h1, where);
    }
    if (!plain.empty() && !(s < i && t(s) == "namespace"))
      for (size_t k = s; k < i; ++k)
        if (t(k) == "(" && k > s && t(k - 1) == std::string_view(plain)) {
          bool is_struct = false;
          for (size_t m = s; m < k; ++m) is_struct = is_struct || one_of(t(m), {"struct", "class", "union"});
          if (!is_struct) function_parameters(k, skip_balanced(k, i) - 1, join(scope(), sc.name));
          break;
        }
    if (!scopes_.empty() && scopes_.back().skip) sc.skip = true;
    bool is_struct = false;
    for (size_t k = s; k < i; ++k) is_struct = is_struct || one_of(t(k), {"struct", "class", "union"});
    ClassDef* outer = !scopes_.empty() && scopes_.back().class_index >= 0
                          ? &out_.classes[static_cast<size_t>(scopes_.back().class_index)]
                          : nullptr;
    if (outer && is_struct && sc.name.empty())  // struct { int a; } x;  union { ... };
      unlaid(*outer, "an unnamed struct or union as a member");
    if (outer && headers.empty() && !is_struct && !sc.skip && s < i && !one_of(t(s), {"enum", "namespace", "extern"})) {
      bool call = false;  // a member function's body; else `T name[N]{...}`, a member's initializer
      for (size_t k = s; k < i && !call; ++k) call = t(k) == "(" && !(k > s && is_specifier_call(t(k - 1)));
      if (!call) data_member(a, s, i, *outer), sc.skip = true;
    }
    if (is_struct && !sc.name.empty() && !sc.skip) {
      const size_t before = out_.classes.size();
      class_definition(s, i, headers, join(scope(), sc.name));
      if (out_.classes.size() > before) {
        sc.class_index = static_cast<long>(before);
        class_layout(s, i, out_.classes.back());
      }
    }
    if (is_struct && !headers.empty() && !sc.name.empty()) {  // template <...> struct Cfg { ... }
      sc.tscope = join(scope(), sc.name);
      for (const auto& [h0, h1] : headers) header_parameters(h0, h1, sc.tparams, sc.tdefaults);
    } else if (!scopes_.empty()) {  // members of what a struct template encloses belong to it
      sc.tscope = scopes_.back().tscope;
      sc.tparams = scopes_.back().tparams;
      sc.tdefaults = scopes_.back().tdefaults;
    }
    scopes_.push_back(sc);
  }

  void statement(size_t a, size_t b) {
    if (!scopes_.empty() && scopes_.back().skip) return;
    std::vector<std::pair<size_t, size_t>> headers;
    size_t s = strip_prefix(a, b, &headers);
    if (s >= b) return;
    if (scopes_.empty()) {  // a snippet's result is its last statement
      last_begin_ = s;
      last_end_ = b;
      last_decl_ = -1;
    }
    record_headers(headers, s, b);
    if (headers.empty() && !scopes_.empty() && scopes_.back().class_index >= 0) {
      ClassDef& c = out_.classes[static_cast<size_t>(scopes_.back().class_index)];
      if (a == after_class_ && s < b)  // struct X { ... } x;  (the statement after a nested struct's `}`)
        unlaid(c, "a member declared with its struct's definition");
      else data_member(a, s, b, c);
    }
    size_t before = out_.declarations.size();
    if (!headers.empty() && t(s) == "using" && b > s + 3 && is_ident(s + 1) && t(s + 2) == "=") {
      // template <class T, int N = 4> using X = E;  an alias template: X<half_t>{} binds T and N
      size_t r = s + 3;
      while (r < b && t(r) == "typename") ++r;
      if (r < b) {
        add(str(s + 1), scope(), span(r, b), toks_[r].begin);
        Declaration& d = out_.declarations.back();
        d.template_scope = join(scope(), d.name);
        d.template_params.clear();
        d.template_defaults.clear();
        for (const auto& [h0, h1] : headers) header_parameters(h0, h1, d.template_params, d.template_defaults);
      }
    }
    declaration(s, b, !headers.empty());
    if (scopes_.empty() && out_.declarations.size() > before)
      last_decl_ = static_cast<long>(out_.declarations.size()) - 1;
  }

  // Why sizeof cannot lay out `c` (the first reason is kept): never a size that leaves something out.
  static void unlaid(ClassDef& c, const std::string& why) {
    if (c.unlaid.empty()) c.unlaid = why;
  }

  // What a struct's head [s, open) says of its layout: `struct alignas(64) X`, a union, a virtual base.
  void class_layout(size_t s, size_t open, ClassDef& c) {
    for (size_t k = s; k < open; ++k) {
      if (t(k) == "union") unlaid(c, "a union");
      if (t(k) == "virtual") unlaid(c, "a virtual base");
      if (t(k) == "__attribute__" || t(k) == "__declspec") unlaid(c, "an " + str(k) + "(...)");
      if ((t(k) == "alignas" || t(k) == "__align__") && k + 1 < open && t(k + 1) == "(") {
        const size_t close = skip_balanced(k + 1, open);
        const std::string a = span(k + 2, close - 1);
        c.align = c.align.empty() ? a : "cute::max(" + c.align + ", " + a + ")";
        k = close - 1;
      }
    }
  }

  // A statement [s, b) of a struct's body (`a` before its attributes), recorded when it declares a non-static
  // data member: `[alignas(A)] [const] Type name[N][M] [= init | {init}]`, for sizeof (lib/lang/functions.hpp).
  // Types, static members, functions and friends are no data; a data member not read makes the struct unlaid.
  void data_member(size_t a, size_t s, size_t b, ClassDef& c) {
    for (size_t k = a; k < s; ++k)
      if (t(k) == "no_unique_address") return unlaid(c, "a [[no_unique_address]] member");
    if (s < b && t(s) == "virtual") return unlaid(c, "a virtual function (a vtable pointer)");
    if (s >= b || one_of(t(s), {"using", "typedef", "static", "friend", "enum", "static_assert", "constexpr",
                                "consteval", "inline", "explicit", "operator", "~", "return", "template"}))
      return;
    if (one_of(t(s), {"struct", "class", "union"}) && b == s + 2) return;  // struct X;  (a declaration)
    ClassDef::DataMember m;
    size_t k = s;
    for (; k < b; ++k) {  // alignas(A) and cv before the type
      if ((t(k) == "alignas" || t(k) == "__align__") && k + 1 < b && t(k + 1) == "(") {
        const size_t close = skip_balanced(k + 1, b);
        const std::string x = span(k + 2, close - 1);
        m.align = m.align.empty() ? x : "cute::max(" + m.align + ", " + x + ")";
        k = close - 1;
      } else if (!one_of(t(k), {"const", "volatile", "mutable"})) {
        break;
      }
    }
    const size_t type_at = k;
    size_t e = b;  // the declarator ends at its initializer
    int angle = 0;
    for (k = type_at; k < b && e == b; ++k) {
      std::string_view x = t(k);
      if (x == "<") ++angle;
      if (x == ">") --angle;
      if (x == ">>") angle -= 2;
      if (x == "[") {  // an extent: static_cast<size_t>(Stages_)
        k = skip_balanced(k, b) - 1;
        continue;
      }
      if (x == "(" && angle == 0 && !(k > type_at && (t(k - 1) == "decltype" || is_specifier_call(t(k - 1))))) {
        if (k + 1 < b && (t(k + 1) == "*" || t(k + 1) == "&")) return unlaid(c, "a pointer to a function as a member");
        return;  // a member function, a constructor, a macro's call
      }
      if (x == "(") k = skip_balanced(k, b) - 1;
      if (angle > 0) continue;
      if (x == "=" || x == "{") e = k;
      if (x == ",") return unlaid(c, "several members in one declaration ('" + span(s, b) + "')");
      if (x == ":") return unlaid(c, "a bit-field ('" + span(s, b) + "')");
      if (x == "__attribute__" || x == "alignas" || x == "__align__")
        return unlaid(c, "an attribute inside the member '" + span(s, b) + "'");
    }
    size_t name_at = e - 1;
    std::vector<std::string> extents;                                // innermost first while read from the right
    while (name_at > type_at && name_at < b && t(name_at) == "]") {  // T x[D][L]: D * L elements
      size_t open = name_at;
      for (int depth = 0; open > type_at; --open) {
        if (t(open) == "]") ++depth;
        if (t(open) == "[" && --depth == 0) break;
      }
      if (open == name_at - 1) return unlaid(c, "an array of unknown bound ('" + span(s, b) + "')");
      extents.push_back(span(open + 1, name_at));
      name_at = open - 1;
    }
    m.extents.assign(extents.rbegin(), extents.rend());
    size_t type_end = name_at;  // T *p, T * const p: a pointer
    bool pointer = false;
    while (type_end > type_at && one_of(t(type_end - 1), {"*", "const", "volatile", "__restrict__"}))
      if (t(--type_end) == "*") pointer = true;
    if (name_at <= type_at || name_at >= b || !is_ident(name_at) || is_specifier(t(name_at)) ||
        !is_type(type_at, type_end))
      return unlaid(c, "a member cutevis does not read ('" + span(s, b) + "')");
    for (size_t q = type_at; q < type_end; ++q)
      if (t(q) == "&" || t(q) == "&&") return unlaid(c, "a reference member ('" + span(s, b) + "')");
    m.type = span(type_at, type_end) + (pointer ? " *" : "");
    c.data_members.push_back(std::move(m));
  }

  // Is [a, b) a type: names, ::, template arguments, decltype(...), & and const?
  bool is_type(size_t a, size_t b) const {
    if (a >= b || t(b - 1) == "::") return false;
    int angle = 0;
    for (size_t k = a; k < b; ++k) {
      std::string_view x = t(k);
      if (x == "<") ++angle;
      else if (x == ">") {
        if (--angle < 0) return false;
      } else if (x == "(" && k > a && (t(k - 1) == "decltype" || angle > 0 || is_specifier_call(t(k - 1)))) {
        k = skip_balanced(k, b) - 1;
      } else if (angle == 0 && !(is_ident(k) || x == "::" || x == "&" || x == "&&")) {
        return false;
      } else if (angle == 0 && is_ident(k) && is_statement_keyword(x)) {
        return false;
      }
    }
    return angle == 0;
  }

  // Tokens [a, b) are ns::...::Name (a leading :: allowed), with one :: at least.
  bool is_qualified_name(size_t a, size_t b) const {
    if (a < b && t(a) == "::") ++a;
    if (a >= b || (b - a) % 2 == 0 || b - a < 3) return false;
    for (size_t k = a; k < b; ++k)
      if ((k - a) % 2 == 0 ? !is_ident(k) : t(k) != "::") return false;
    return true;
  }

  // The names of a structured binding's head [s, close): `auto [cv] [&|&&] [n0, ..., nN-1]`, `]` at close - 1;
  // empty when [s, close) is something else (a lambda's `[x]`, an attribute, an array).
  std::vector<size_t> binding_names(size_t s, size_t close) const {
    size_t open = s;
    bool is_auto = false;
    for (; open < close && t(open) != "["; ++open) {
      if (!one_of(t(open), {"auto", "const", "volatile", "&", "&&"})) return {};
      is_auto = is_auto || t(open) == "auto";
    }
    if (!is_auto || open + 2 >= close || t(close - 1) != "]") return {};
    std::vector<size_t> names;
    for (size_t k = open + 1; k < close - 1; k += 2) {
      if (!is_ident(k) || (k + 1 < close - 1 && t(k + 1) != ",")) return {};
      names.push_back(k);
    }
    return names;
  }

  // auto [a, b] = E;  auto const& [m, n, k](E);  auto [x, y]{E};  (C++17): each name is the I-th of E's N
  // elements, structured_binding<I, N>(E) (lib/lang/builtins.cpp), which says so when E has not N elements.
  // false when [s, b) is not such a declaration.
  bool structured_binding(size_t s, size_t b) {
    if (!one_of(t(s), {"auto", "const", "volatile"})) return false;
    size_t open = s;
    while (open < b && t(open) != "[") ++open;
    if (open >= b) return false;
    const size_t close = skip_balanced(open, b);  // after the `]`
    if (close >= b) return false;
    const std::vector<size_t> names = binding_names(s, close);
    if (names.empty()) return false;
    std::string value;
    if (t(close) == "=" && close + 1 < b) value = span(close + 1, b);
    else if ((t(close) == "(" || t(close) == "{") && skip_balanced(close, b) == b && close + 2 < b)
      value = span(close + 1, b - 1);  // (E) or {E}
    if (value.empty()) return false;
    const std::string count = std::to_string(names.size());
    for (size_t i = 0; i < names.size(); ++i)
      add(str(names[i]), scope(), "structured_binding<" + std::to_string(i) + ", " + count + ">(" + value + ")",
          toks_[names[i]].begin);
    return true;
  }

  void declaration(size_t a, size_t b, bool templated) {
    std::string_view first = t(a);
    if (first == "using") {
      if (b > a + 3 && is_ident(a + 1) && t(a + 2) == "=" && !templated) {
        size_t r = a + 3;
        while (r < b && t(r) == "typename") ++r;
        if (r < b) add(str(a + 1), scope(), span(r, b), toks_[r].begin);
      } else if (!templated && b > a + 3 && t(a + 1) != "namespace" && is_qualified_name(a + 1, b)) {
        size_t q = t(a + 1) == "::" ? a + 2 : a + 1;  // using ns::Name; (::ns::Name: the same name)
        add(str(b - 1), scope(), span(q, b), toks_[q].begin);
        out_.declarations.back().using_declaration = true;
      }
      return;
    }
    if (first == "typedef") {
      if (b > a + 2 && is_ident(b - 1) && is_type(a + 1, b - 1))
        add(str(b - 1), scope(), span(a + 1, b - 1), toks_[a + 1].begin);
      return;
    }
    if (templated) return;  // variable templates and function declarations
    // specifiers
    size_t s = a;
    while (s < b) {
      if (is_specifier(t(s))) {
        ++s;
      } else if (is_specifier_call(t(s)) && s + 1 < b && t(s + 1) == "(") {
        s = skip_balanced(s + 1, b);
      } else {
        break;
      }
    }
    if (s >= b || is_statement_keyword(t(s))) return;
    size_t eq = b;
    int depth = 0;
    for (size_t k = s; k < b; ++k) {
      std::string_view x = t(k);
      if (x == "(" || x == "[" || x == "{") ++depth;
      if (x == ")" || x == "]" || x == "}") --depth;
      if (depth == 0 && x == "=") {
        eq = k;
        break;
      }
    }
    if (structured_binding(s, b)) return;
    if (eq < b) {  // Type name = E;
      if (eq < s + 2 || !is_ident(eq - 1) || is_specifier(t(eq - 1)) || !is_type(s, eq - 1) || eq + 1 >= b) return;
      std::string type = span(s, eq - 1);
      // int a = 1, b = 2;  each declarator ends at a top-level comma before `name =`
      size_t name_at = eq - 1, value_at = eq + 1;
      while (value_at < b) {
        size_t end = b;
        int nest = 0;
        for (size_t k = value_at; k < b; ++k) {
          std::string_view x = t(k);
          if (x == "(" || x == "[" || x == "{" || x == "<") ++nest;
          if (x == ")" || x == "]" || x == "}" || x == ">") nest = std::max(0, nest - 1);
          if (nest == 0 && x == "," && k + 2 < b && is_ident(k + 1) && t(k + 2) == "=") {
            end = k;
            break;
          }
        }
        if (end > value_at) {
          std::string text = span(value_at, end);
          if (t(value_at) == "{") text = type == "auto" ? "" : type + text;
          if (!text.empty()) add(str(name_at), scope(), text, toks_[value_at].begin);
        }
        if (end == b) break;
        name_at = end + 1;
        value_at = end + 3;
      }
      return;
    }
    if (t(b - 1) == "}") {  // Type name{...};
      size_t open = b - 1;
      int d = 0;
      for (size_t k = b - 1; k > s; --k) {
        if (t(k) == "}") ++d;
        if (t(k) == "{" && --d == 0) {
          open = k;
          break;
        }
      }
      if (open < s + 2 || !is_ident(open - 1) || !is_type(s, open - 1)) return;
      std::string type = span(s, open - 1);
      std::string inner = span(open + 1, b - 1);
      std::string text =
          (is_scalar_type(type) || type == "auto") ? inner : (inner.empty() ? type : type + "{" + inner + "}");
      if (text.empty()) return;
      add(str(open - 1), scope(), text, toks_[s].begin);
      return;
    }
    // Type name;
    if (b >= s + 2 && is_ident(b - 1) && !is_specifier(t(b - 1)) && is_type(s, b - 1)) {
      std::string type = span(s, b - 1);
      if (b - 1 == s + 1 && is_scalar_type(type)) return;  // int k; is a runtime variable
      // (CuTe's owning arrays are storage whatever their element: cute::array_aligned<float, N> smem_scale;)
      const size_t first = t(s) == "cute" && s + 2 < b && t(s + 1) == "::" ? s + 2 : s;
      const bool storage = one_of(t(first), {"array", "array_aligned", "ArrayEngine"});
      for (size_t k = s; k < b - 1 && !storage; ++k)
        if (is_scalar_type(t(k)) && t(k) != "half_t") return;
      add(str(b - 1), scope(), type, toks_[s].begin);
    }
  }

  // The enumerators of an enum body [a, b): kA, kB = 4, kC  ->  kA = 0, kB = 4, kC = int(4) + 1
  void enumerators(size_t a, size_t b, const std::string& where) {
    std::string base;
    int64_t offset = 0;
    for (size_t i = a; i < b;) {
      size_t end = i, eq = b;
      int depth = 0;
      for (; end < b; ++end) {
        std::string_view x = t(end);
        if (x == "(" || x == "[" || x == "{" || x == "<") ++depth;
        if (x == ")" || x == "]" || x == "}" || x == ">") --depth;
        if (depth == 0 && x == ",") break;
        if (depth == 0 && x == "=" && eq == b) eq = end;
      }
      if (i < end && is_ident(i)) {
        if (eq < end && eq + 1 < end) {
          base = span(eq + 1, end);
          offset = 0;
        }
        std::string text = base.empty()  ? std::to_string(offset)  // ((x) would be a tuple in CuTe's notation)
                           : offset == 0 ? base
                                         : "int(" + base + ") + " + std::to_string(offset);
        add(str(i), where, text, toks_[eq < end && eq + 1 < end ? eq + 1 : i].begin);
        ++offset;
      }
      i = end + 1;
    }
  }

  struct Scope {
    std::string name;   // "" for blocks that add no name (if, for, lambdas, anonymous namespaces)
    bool skip = false;  // enum bodies (and what is inside them)
    bool is_enum = false;
    std::string enum_scope;  // where its enumerators are declared
    std::string tscope;      // the enclosing struct template, with its parameters (Declaration::template_*)
    std::vector<std::string> tparams, tdefaults;
    long class_index = -1;  // a struct's body: its ClassDef in out_.classes (its data members)
  };

  std::string file_;
  size_t after_class_ = SIZE_MAX;  // the token after the `}` of a struct's body (SIZE_MAX: none)
  const std::string& src_;         // the source as written (the scan reads it while it lives)
  Conditionals conditionals_;
  const IncludeHook* include_ = nullptr;
  std::string clean_;
  std::vector<size_t> line_starts_{0};
  std::vector<Tok> toks_;
  std::vector<Scope> scopes_;
  std::map<std::string, int> seen_scopes_;
  std::string file_tag_;  // "@numeric_size.h" in an included header's numbered scopes
  CppScan out_;
  size_t last_begin_ = 0, last_end_ = 0;
  long last_decl_ = -1;
};

}  // namespace

CppScan scan_cpp(const std::string& text, const std::string& file, const std::map<std::string, std::string>& macros,
                 const IncludeHook* include, const std::map<std::string, std::string>* state) {
  return Walker(text, file, macros, include, state).scan();
}

CppSnippet scan_cpp_snippet(const std::string& text, const std::string& file) {
  return Walker(text, file, {}).snippet();
}

bool looks_like_snippet(const std::string& text) {
  size_t i = 0;
  bool in_line_comment = false, in_block_comment = false;
  for (; i < text.size(); ++i) {  // a `;` outside comments, not the last thing said
    char c = text[i];
    if (in_line_comment) {
      in_line_comment = c != '\n';
      continue;
    }
    if (in_block_comment) {
      if (c == '*' && i + 1 < text.size() && text[i + 1] == '/') in_block_comment = false;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') in_line_comment = true;
    else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') in_block_comment = true;
    else if (c == ';') return true;
  }
  size_t b = text.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return false;
  size_t e = b;
  while (e < text.size() && ident_char(text[e])) ++e;
  return one_of(text.substr(b, e - b),
                {"using", "typedef", "auto", "constexpr", "static", "template", "namespace", "struct", "class"});
}

}  // namespace cutevis
