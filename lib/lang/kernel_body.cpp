#include "lib/lang/kernel_body.hpp"
#include "lib/lang/cpp_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace cutevis {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

struct Tok {
  std::string text;
  size_t begin = 0, end = 0;
  bool ident = false;
};

class Reader {
 public:
  Reader(const std::string& text) : src_(text) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') line_starts_.push_back(i + 1);
    clean_ = blank(text);
    lex();
    match_brackets();
  }

  KernelFile read() {
    KernelFile out;
    out.conditionals = conditionals_;
    for (size_t i = 0; i < toks_.size(); ++i) {
      if (t(i) == "__global__") {
        size_t end = i;
        if (auto k = kernel(i, end)) out.kernels.push_back(std::move(*k));
        i = end;
      }
    }
    launches(out);
    return out;
  }

 private:
  const std::string& src_;
  std::string clean_;
  std::vector<Tok> toks_;
  std::vector<size_t> line_starts_;
  std::map<int, std::string> comments_;  // line -> its // comment
  std::vector<Conditional> conditionals_;

  const std::string& t(size_t i) const {
    static const std::string none;
    return i < toks_.size() ? toks_[i].text : none;
  }
  std::pair<int, int> line_col(size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    size_t line = static_cast<size_t>(it - line_starts_.begin());
    return {static_cast<int>(line), static_cast<int>(offset - line_starts_[line - 1] + 1)};
  }
  std::string span(size_t a, size_t b) const {  // source text of tokens [a, b)
    if (a >= b) return "";
    return src_.substr(toks_[a].begin, toks_[b - 1].end - toks_[a].begin);
  }

  std::string blank(const std::string& s) {
    std::string c = s;
    size_t i = 0;
    bool line_start = true;
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
        std::string directive = trim(s.substr(i, end - i));
        size_t cut = directive.find("//");
        if (cut != std::string::npos) directive = trim(directive.substr(0, cut));
        for (const char* d : {"#if", "#ifdef", "#ifndef", "#elif", "#else"})
          if (directive.rfind(d, 0) == 0 &&
              (directive.size() == std::string(d).size() || !ident_char(directive[std::string(d).size()]))) {
            conditionals_.push_back({directive, line_col(i).first});
            break;
          }
        for (size_t k = i; k < end; ++k)
          if (c[k] != '\n') c[k] = ' ';
        i = end;
        continue;
      }
      if (!std::isspace(static_cast<unsigned char>(ch))) line_start = false;
      const bool line_comment = ch == '/' && i + 1 < c.size() && c[i + 1] == '/';
      if (size_t next = blank_comment_or_literal(c, i); next != i) {
        if (line_comment) comments_[line_col(i).first] = trim(s.substr(i + 2, next - i - 2));
        i = next;
        continue;
      }
      ++i;
    }
    return c;
  }

  void lex() {
    const std::string& c = clean_;
    static const char* const two[] = {
        "::", "->", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "++", "--"};
    size_t i = 0;
    while (i < c.size()) {
      char ch = c[i];
      if (std::isspace(static_cast<unsigned char>(ch))) {
        ++i;
        continue;
      }
      Tok tok;
      tok.begin = i;
      if (ident_start(ch)) {
        size_t j = i;
        while (j < c.size() && ident_char(c[j])) ++j;
        tok.ident = true;
        tok.end = j;
      } else if (std::isdigit(static_cast<unsigned char>(ch))) {
        size_t j = i;
        while (j < c.size() && (ident_char(c[j]) || c[j] == '.' || c[j] == '\'')) ++j;
        tok.end = j;
      } else {
        tok.end = i + 1;
        if (i + 1 < c.size())
          for (const char* op : two)
            if (ch == op[0] && c[i + 1] == op[1]) tok.end = i + 2;
      }
      tok.text = c.substr(i, tok.end - i);
      i = tok.end;
      toks_.push_back(std::move(tok));
    }
  }

  // The index of the token closing the bracket opened at i ((, {, [), or toks_.size(): matched once,
  // in one pass (a stack per bracket kind), so deep nesting costs no rescans.
  std::vector<size_t> match_;
  void match_brackets() {
    match_.assign(toks_.size(), toks_.size());
    std::vector<size_t> open[3];
    for (size_t k = 0; k < toks_.size(); ++k) {
      const std::string& x = toks_[k].text;
      if (x.size() != 1) continue;
      const char* opens = "({[";
      const char* shuts = ")}]";
      if (const char* o = std::strchr(opens, x[0])) open[o - opens].push_back(k);
      if (const char* c = std::strchr(shuts, x[0]); c && !open[c - shuts].empty()) {
        match_[open[c - shuts].back()] = k;
        open[c - shuts].pop_back();
      }
    }
  }
  size_t close(size_t i) const { return i < match_.size() ? match_[i] : toks_.size(); }

  std::optional<KernelFunction> kernel(size_t g, size_t& end) {
    // __global__ [static] [__launch_bounds__(...)] void NAME(params) {body}
    size_t i = g + 1;
    size_t name = 0;
    while (i < toks_.size() && t(i) != ";" && t(i) != "{") {
      if (t(i) == "(") {
        if (i > 0 && toks_[i - 1].ident && t(i - 1) != "__launch_bounds__" && t(i - 1) != "decltype" &&
            t(i - 1) != "alignas") {
          name = i - 1;
          break;
        }
        i = close(i);
      }
      ++i;
    }
    if (name == 0) {
      end = i;
      return std::nullopt;
    }
    size_t p_end = close(name + 1);
    size_t b = p_end + 1;
    while (b < toks_.size() && t(b) != "{" && t(b) != ";") ++b;
    if (b >= toks_.size() || t(b) == ";") {  // a declaration without a body
      end = b;
      return std::nullopt;
    }
    KernelFunction k;
    k.name = t(name);
    if (g > 0 && t(g - 1) == ">") {  // template <class A, int N = 4, ...> __global__ ...
      size_t open = g - 1;
      int depth = 0;
      for (;; --open) {
        if (t(open) == ">") ++depth;
        if (t(open) == "<" && --depth == 0) break;
        if (open == 0) break;
      }
      if (open > 0 && t(open - 1) == "template")
        for (auto& [type, p] : params(open, g - 1)) k.template_params.push_back(p);
    }
    k.line = line_col(toks_[name].begin).first;
    for (auto& [type, p] : params(name + 1, p_end)) {
      k.params.push_back(p);
      k.param_types.push_back(type);
    }
    size_t body_end = close(b);
    block(b + 1, body_end, {}, k.body);
    end = body_end;
    return k;
  }

  // (type, name) of each parameter of the list between tokens ( at a and ) at b.
  std::vector<std::pair<std::string, std::string>> params(size_t a, size_t b) const {
    std::vector<std::pair<std::string, std::string>> out;
    size_t start = a + 1;
    int depth = 0, angle = 0;
    for (size_t k = a + 1; k <= b; ++k) {
      const std::string& x = t(k);
      if (x == "(" || x == "[" || x == "{") ++depth;
      if (x == ")" || x == "]" || x == "}") --depth;
      if (x == "<" && k > 0 && toks_[k - 1].ident) ++angle;
      if (x == ">" && angle > 0) --angle;
      if ((depth == 0 && angle == 0 && x == ",") || k == b) {
        size_t stop = k;
        for (size_t m = start; m < k; ++m)
          if (t(m) == "=") {
            stop = m;
            break;
          }
        std::string name, type = span(start, stop);
        if (stop > start + 1 && toks_[stop - 1].ident) {
          name = t(stop - 1);
          type = span(start, stop - 1);
        }
        if (!(k == b && start == k)) out.emplace_back(type, name);
        start = k + 1;
      }
    }
    return out;
  }

  static bool is_macro(const std::string& s) {  // CUTE_UNROLL, CUTLASS_PRAGMA_NO_UNROLL
    if (s.size() < 3) return false;
    for (char c : s)
      if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
        return false;
    return true;
  }

  // The statements of tokens [a, b), loop bodies once.
  void block(size_t a, size_t b, const std::vector<std::string>& vars, std::vector<KernelStatement>& out,
             int depth = 0) {
    if (depth > 200) return;  // blocks nested deeper than any kernel: not read (no unbounded recursion)
    size_t i = a;
    while (i < b) {
      const std::string& x = t(i);
      if (x == ";") {
        ++i;
      } else if (x == "{") {
        size_t e = std::min(close(i), b);
        block(i + 1, e, vars, out, depth + 1);
        i = e + 1;
      } else if (x == "if" || x == "while" || x == "switch") {
        size_t j = i + 1;
        if (t(j) == "constexpr") ++j;
        i = t(j) == "(" ? close(j) + 1 : j;
      } else if (x == "else" || x == "do" || x == "case" || x == "default" || x == ":") {
        ++i;
        if (x == "case")
          while (i < b && t(i) != ":") ++i;
      } else if (x == "for") {
        size_t open = i + 1, shut = close(open);
        std::vector<std::string> inner = vars;
        for (size_t k = open + 1; k < shut; ++k)  // for (int k = 0; ...) / for (auto k : ...)
          if ((t(k + 1) == "=" || t(k + 1) == ":") && toks_[k].ident) {
            inner.push_back(t(k));
            break;
          } else if (t(k) == ";") {
            break;
          }
        i = shut + 1;
        if (t(i) == "{") {
          size_t e = std::min(close(i), b);
          block(i + 1, e, inner, out, depth + 1);
          i = e + 1;
        } else {
          size_t e = statement_end(i, b);
          statement(i, e, inner, out);
          i = e + 1;
        }
      } else if (is_macro(x) && (t(i + 1) == "for" || t(i + 1) == "while" || t(i + 1) == "{" || t(i + 1) == "if")) {
        ++i;
      } else {
        size_t e = statement_end(i, b);
        statement(i, e, vars, out);
        i = e + 1;
      }
    }
  }

  size_t statement_end(size_t i, size_t b) const {
    int depth = 0;
    for (size_t k = i; k < b; ++k) {
      const std::string& x = t(k);
      if (x == "(" || x == "[" || x == "{") ++depth;
      if (x == ")" || x == "]" || x == "}") --depth;
      if (depth == 0 && x == ";") return k;
      if (depth < 0) return k;
    }
    return b;
  }

  void statement(size_t a, size_t b, const std::vector<std::string>& vars, std::vector<KernelStatement>& out) {
    if (a >= b) return;
    KernelStatement s;
    std::tie(s.line, s.column) = line_col(toks_[a].begin);
    s.loop_vars = vars;
    int last_line = line_col(toks_[b - 1].begin).first;
    if (auto it = comments_.find(last_line); it != comments_.end()) s.comment = it->second;
    if (t(a) == "using" && b > a + 3 && toks_[a + 1].ident && t(a + 2) == "=") {
      s.kind = KernelStatement::Kind::kUsing;
      s.name = t(a + 1);
      std::tie(s.name_line, s.name_column) = line_col(toks_[a + 1].begin);
      size_t r = a + 3;
      if (t(r) == "typename") ++r;
      s.text = span(r, b);
      out.push_back(std::move(s));
      return;
    }
    // a top-level `=` (not ==, <=, ...): a declaration or an assignment
    int depth = 0, angle = 0;
    for (size_t k = a; k < b; ++k) {
      const std::string& x = t(k);
      if (x == "(" || x == "[" || x == "{") ++depth;
      if (x == ")" || x == "]" || x == "}") --depth;
      if (x == "<" && k > a && toks_[k - 1].ident && toks_[k].begin == toks_[k - 1].end) ++angle;
      if (x == ">" && angle > 0) --angle;
      if (depth == 0 && angle == 0 && x == "=") {
        if (k == a || !toks_[k - 1].ident) return;  // a[i] = ..., *p = ...
        s.name = t(k - 1);
        std::tie(s.name_line, s.name_column) = line_col(toks_[k - 1].begin);
        s.type = span(a, k - 1);
        // [[maybe_unused]] and the like are not the type
        while (s.type.rfind("[[", 0) == 0 && s.type.find("]]") != std::string::npos)
          s.type = trim(s.type.substr(s.type.find("]]") + 2));
        s.kind = s.type.empty() ? KernelStatement::Kind::kAssign : KernelStatement::Kind::kDeclare;
        s.text = span(k + 1, b);
        out.push_back(std::move(s));
        return;
      }
    }
    // Type name;  Type name{};  (a default-constructed TiledCopy / TiledMMA / atom)
    size_t last = b - 1;
    if (last >= a + 2 && t(last) == "}" && t(last - 1) == "{") last -= 2;
    if (last > a && toks_[last].ident && (toks_[last - 1].ident || t(last - 1) == ">") &&
        !(t(a) == "return" || t(a) == "goto" || t(a) == "delete" || t(a) == "throw" || t(a) == "extern")) {
      s.kind = KernelStatement::Kind::kDeclare;
      s.name = t(last);
      std::tie(s.name_line, s.name_column) = line_col(toks_[last].begin);
      s.type = span(a, last);
      s.text = s.type + "{}";
      out.push_back(std::move(s));
      return;
    }
    // NAME(args) or ns::NAME(args)
    size_t n = a;
    while (n + 2 < b && toks_[n].ident && t(n + 1) == "::") n += 2;
    if (toks_[n].ident && t(n + 1) == "(" && close(n + 1) == b - 1) {
      s.kind = KernelStatement::Kind::kCall;
      s.name = span(a, n + 1);
      s.text = span(a, b);
      size_t open = n + 1, start = open + 1;
      int d = 0, ang = 0;
      for (size_t k = open + 1; k < b; ++k) {
        const std::string& x = t(k);
        if (x == "(" || x == "[" || x == "{") ++d;
        if (x == ")" || x == "]" || x == "}") --d;
        if (x == "<" && toks_[k - 1].ident && toks_[k].begin == toks_[k - 1].end) ++ang;
        if (x == ">" && ang > 0) --ang;
        if ((d == 0 && ang == 0 && x == ",") || (d < 0 && k == b - 1)) {
          if (k > start) {
            s.args.push_back(span(start, k));
            s.arg_columns.push_back(line_col(toks_[start].begin).second);
          }
          start = k + 1;
        }
      }
      out.push_back(std::move(s));
    }
  }

  // The function whose name is token `name`, parameters open at `open`, body [body, shut].
  FunctionDefinition definition(size_t name, size_t open, size_t body, size_t shut) const {
    FunctionDefinition f;
    f.name = t(name);
    f.line = line_col(toks_[name].begin).first;
    f.begin_line = line_col(toks_[body].begin).first;
    f.end_line = line_col(toks_[shut < toks_.size() ? shut : toks_.size() - 1].begin).first;
    // template <...> between the previous declaration's end and the name
    size_t k = name;
    while (k > 0 && t(k - 1) != ";" && t(k - 1) != "}" && t(k - 1) != "{") --k;
    if (t(k) == "template" && t(k + 1) == "<") {
      int depth = 0;
      size_t e = k + 1;
      for (; e < name; ++e) {
        if (t(e) == "(") e = close(e);
        if (t(e) == "<") ++depth;
        if (t(e) == ">" && --depth == 0) break;
      }
      for (auto& [type, p] : params(k + 1, e)) {
        (void)type;
        f.template_params.push_back(p);
      }
      for (const std::string& piece : split_arguments(span(k + 2, e))) {
        size_t eq = piece.find('=');
        f.template_defaults.push_back(eq == std::string::npos ? "" : trim(piece.substr(eq + 1)));
      }
    }
    const size_t p_end = close(open);
    for (auto& [type, p] : params(open, p_end)) {
      f.params.push_back(p);
      f.param_types.push_back(type);
    }
    for (const std::string& piece : split_arguments(span(open + 1, p_end))) {
      size_t eq = piece.find('=');
      f.param_defaults.push_back(eq == std::string::npos ? "" : trim(piece.substr(eq + 1)));
    }
    f.param_defaults.resize(f.params.size());
    // writes to names in the body: x = / x op= / ++x / x++ / &x passed
    const std::string argv = f.name == "main" && f.params.size() >= 2 ? f.params[1] : "argv";
    static const std::set<std::string> assign = {"=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^="};
    const std::vector<Chain> chains = if_chains(body, shut);
    for (size_t j = body + 1; j < shut; ++j) {
      if (!toks_[j].ident) continue;
      const std::string& before = t(j - 1);
      if (before == "." || before == "->" || before == "::") continue;  // a member
      const std::string& after = t(j + 1);
      bool write = assign.count(after) > 0 || after == "++" || after == "--" || before == "++" || before == "--";
      write = write || (before == "&" && (t(j - 2) == "(" || t(j - 2) == ",") && (after == ")" || after == ","));
      write = write || (before == "&" && t(j - 2) == "=" && after == ";");  // int* p = &x;  then *p = ...: anything
      const std::string option = command_line_option(j);                    // (passed by reference: no & to see)
      write = write || command_line_argument(j);  // (the three-argument form: a write, not only a read)
      if (!write && option.empty()) continue;
      size_t a = j, b = j;
      while (a > body + 1 && t(a - 1) != ";" && t(a - 1) != "{" && t(a - 1) != "}") --a;
      if (assign.count(after)) {  // a declaration is no write: int x = 0, y = 1;  T<..> x =  T* x =  T& x =
        if (toks_[j - 1].ident && before != "else" && before != "return" && before != "do") continue;
        if (before == ">" || before == "*" || before == "&" || before == "]") continue;
        if (before == "," && a + 1 < j && toks_[a].ident && toks_[a + 1].ident) continue;
      }
      while (b < shut && t(b) != ";") ++b;
      LocalWrite w;
      w.name = t(j);
      std::tie(w.line, w.column) = line_col(toks_[j].begin);
      std::string text = span(a, b);
      std::replace(text.begin(), text.end(), '\n', ' ');
      w.statement = text.size() > 80 ? text.substr(0, 77) + "..." : text;
      w.command_line = option.empty() ? argv_read(j, argv) : option;
      if (after == "=") branch_assignment(chains, j, w);
      f.writes.push_back(std::move(w));
    }
    return f;
  }

  // An if / else-if / else chain among a function body's own statements: its branches, each with the tokens
  // [begin, end) of its statement (a `{...}` block or one statement up to its `;`).
  struct Chain {
    std::vector<IfBranch> branches;
    std::vector<std::pair<size_t, size_t>> spans;
  };
  std::vector<Chain> if_chains(size_t body, size_t shut) const {
    std::vector<Chain> out;
    for (size_t k = body + 1; k < shut; ++k) {
      if (t(k) == "(" || t(k) == "[" || t(k) == "{") {  // a block, a loop's body, a lambda: not the function's own
        k = close(k);
        continue;
      }
      const std::string& prev = t(k - 1);
      if (t(k) != "if" || t(k + 1) != "(" || (k > body + 1 && prev != ";" && prev != "}")) continue;
      Chain c;
      size_t at = k;
      bool ok = true;
      while (ok) {
        IfBranch b;
        b.line = line_col(toks_[at].begin).first;
        if (t(at) == "if") {
          if (t(at + 1) != "(") {  // if constexpr: not a run-time chain
            ok = false;
            break;
          }
          const size_t cond = close(at + 1);
          b.condition = span(at + 2, cond);
          std::replace(b.condition.begin(), b.condition.end(), '\n', ' ');
          at = cond + 1;
        } else {
          at = at + 1;  // else
        }
        const size_t last = t(at) == "{" ? close(at) : statement_end(at, shut);
        if (last >= shut || t(at) == "if" || t(at) == "else") ok = false;  // `if (a) if (b) ...`: whose else?
        for (size_t x = at; x < last; ++x)
          b.fails = b.fails || t(x) == "throw" || (t(x) == "assert" && t(x + 2) == "false" && t(x + 3) == ")");
        c.branches.push_back(std::move(b));
        c.spans.emplace_back(at, last + 1);
        k = last;
        if (t(last + 1) != "else") break;
        at = last + 2;
        if (t(at) != "if") {  // the closing else
          c.branches.push_back(IfBranch{"", line_col(toks_[last + 1].begin).first, false});
          const size_t end = t(at) == "{" ? close(at) : statement_end(at, shut);
          if (end >= shut || t(at) == "if") ok = false;
          for (size_t x = at; x < end; ++x)
            c.branches.back().fails = c.branches.back().fails || t(x) == "throw" ||
                                      (t(x) == "assert" && t(x + 2) == "false" && t(x + 3) == ")");
          c.spans.emplace_back(at, end + 1);
          k = end;
          break;
        }
      }
      if (ok) out.push_back(std::move(c));
    }
    return out;
  }

  // Fills w.chain / branch / assigned where the `x = E;` at token j is a statement of its own directly in a
  // branch of one of `chains` (not inside a loop or block there, nor part of a longer statement).
  void branch_assignment(const std::vector<Chain>& chains, size_t j, LocalWrite& w) const {
    for (const Chain& c : chains)
      for (size_t i = 0; i < c.spans.size(); ++i) {
        const auto [begin, end] = c.spans[i];
        if (j < begin || j >= end) continue;
        const bool braced = t(begin) == "{";
        size_t x = braced ? begin + 1 : begin;  // the branch's statements at its own depth
        while (x < end && x < j) x = (t(x) == "(" || t(x) == "[" || t(x) == "{") ? close(x) + 1 : x + 1;
        const std::string& prev = t(j - 1);
        if (x != j || (j != begin && prev != ";" && prev != "}" && !(braced && j == begin + 1))) return;
        const size_t semi = statement_end(j, end);
        if (semi >= end) return;
        for (size_t y = j + 2; y < semi; y = (t(y) == "(" || t(y) == "[" || t(y) == "{") ? close(y) + 1 : y + 1)
          if (t(y) == "=" || t(y) == ",") return;  // a = b = c, a = b, c: not one plain assignment
        w.chain = c.branches;
        w.branch = i;
        w.assigned = span(j + 2, semi);
        std::replace(w.assigned.begin(), w.assigned.end(), '\n', ' ');
        return;
      }
  }

  // Token j is the value argument of `cmd.get_cmd_line_argument("m", j)` or `(..., j, default)`: a write
  bool command_line_argument(size_t j) const {
    return j >= 6 && t(j - 1) == "," && t(j - 2) == "\"" && t(j - 3) == "\"" && t(j - 4) == "(" &&
           t(j - 5) == "get_cmd_line_argument" && (t(j - 6) == "." || t(j - 6) == "->") &&
           (t(j + 1) == ")" || t(j + 1) == ",");
  }

  // "--m" where token j is the value argument of cutlass::CommandLine's `cmd.get_cmd_line_argument("m", j)`
  // (a reference it sets from `--m=...`, left as it was without one), else "". The three-argument form
  // `get_cmd_line_argument("m", j, 256)` sets j to 256 without `--m`: not its initializer, so not read here.
  std::string command_line_option(size_t j) const {
    if (!command_line_argument(j) || t(j + 1) != ")") return "";
    return "--" + src_.substr(toks_[j - 3].end, toks_[j - 2].begin - toks_[j - 3].end);
  }

  // "argv[1]" where the write at token j only reads the program's command line (`argv` names main's second
  // parameter): `sscanf(argv[1], "%d", &j)` or `j = atoi(argv[1]);` (atol, atoll, strtol, strtoul, std::stoi,
  // ...: the whole right side one such call), else "" (a loop's ++k, `ldA = m`, `parse_args(argv, &m)`).
  std::string argv_read(size_t j, const std::string& argv) const {
    // the argument [a, b) is argv[...] itself, or holds it as the one thing converted (std::string(argv[1]))
    auto argv_in = [&](size_t a, size_t b, bool exactly) -> std::string {
      for (size_t k = a; k + 1 < b; ++k)
        if (t(k) == argv && t(k + 1) == "[" && (!exactly || (k == a && close(k + 1) + 1 == b)))
          return span(k, close(k + 1) + 1);
      return "";
    };
    auto first_argument_end = [&](size_t open) {
      size_t k = open + 1;
      while (k < close(open) && t(k) != ",") k = (t(k) == "(" || t(k) == "[" || t(k) == "{") ? close(k) + 1 : k + 1;
      return k;
    };
    auto unqualified_or_std = [&](size_t name) { return t(name - 1) != "::" || t(name - 2) == "std"; };
    if (t(j - 1) == "&") {  // sscanf(argv[1], "%d", &j): the call whose argument it is
      size_t open = j - 2;
      for (int depth = 0; open > 0; --open) {
        const std::string& x = t(open);
        if (x == ")" || x == "]" || x == "}") ++depth;
        if (x == "(" || x == "[" || x == "{") {
          if (depth == 0) break;
          --depth;
        }
      }
      if (t(open) != "(" || t(open - 1) != "sscanf" || !unqualified_or_std(open - 1)) return "";
      return argv_in(open + 1, first_argument_end(open), true);
    }
    static const std::set<std::string> converters = {"atoi",     "atol", "atoll", "strtol", "strtoll", "strtoul",
                                                     "strtoull", "stoi", "stol",  "stoll",  "stoul",   "stoull"};
    size_t call = j + 2;
    if (t(j + 1) != "=") return "";
    if (t(call) == "std" && t(call + 1) == "::") call += 2;
    if (!converters.count(t(call)) || t(call + 1) != "(" || t(close(call + 1) + 1) != ";") return "";
    return argv_in(call + 2, first_argument_end(call + 1), false);
  }

  // f(args) and f<targs>(args) of a function the file defines, from another function's body
  template <class Bodies>
  void calls(KernelFile& out, const Bodies& bodies) {
    std::set<std::string> defined;
    for (const FunctionDefinition& f : out.functions) defined.insert(f.name);
    for (const auto& body : bodies)
      for (size_t j = body.open + 1; j < body.shut; ++j) {
        if (!toks_[j].ident || !defined.count(t(j)) || t(j) == body.name) continue;
        const std::string& before = t(j - 1);
        if (before == "." || before == "->" || before == "&") continue;
        if (before == "::" && t(j - 2) != "cute" && toks_[j - 2].ident) continue;  // other::f
        size_t open = j + 1;
        std::vector<std::string> targs;
        if (t(open) == "<" && toks_[open].begin == toks_[j].end) {
          int depth = 0;
          size_t e = open;
          for (; e < body.shut; ++e) {
            if (t(e) == "(") e = close(e);
            if (t(e) == "<") ++depth;
            if (t(e) == ">" && --depth == 0) break;
          }
          if (e >= body.shut) continue;
          targs = split_arguments(span(open + 1, e));
          open = e + 1;
        }
        if (t(open) != "(") continue;
        KernelLaunch c;
        c.kernel = t(j);
        c.template_args = std::move(targs);
        std::tie(c.line, c.column) = line_col(toks_[j].begin);
        c.args = split_arguments(span(open + 1, close(open)));
        c.function = body.name;
        c.function_begin_line = line_col(toks_[body.open].begin).first;
        c.function_end_line = line_col(toks_[body.shut < toks_.size() ? body.shut : toks_.size() - 1].begin).first;
        out.calls.push_back(std::move(c));
      }
  }

  void launches(KernelFile& out) {
    // function bodies at namespace level: NAME(...) [qualifiers] {  ... }
    struct Body {
      std::string name;
      size_t open, shut;
    };
    std::vector<Body> bodies;
    for (size_t i = 0; i < toks_.size(); ++i) {
      if (t(i) != "{" || i == 0) continue;
      size_t k = i - 1;
      while (k > 0 && toks_[k].ident && t(k) != "struct" && t(k) != "class") --k;  // const, noexcept, override
      if (t(k) != ")") continue;
      int depth = 0;
      size_t m = k;
      for (;; --m) {
        if (t(m) == ")") ++depth;
        if (t(m) == "(" && --depth == 0) break;
        if (m == 0) break;
      }
      if (m == 0 || !toks_[m - 1].ident) continue;
      const std::string& fn = t(m - 1);
      if (fn == "if" || fn == "for" || fn == "while" || fn == "switch" || fn == "catch") continue;
      size_t shut = close(i);
      bodies.push_back({fn, i, shut});
      out.functions.push_back(definition(m - 1, m, i, shut));
      i = shut;  // functions do not nest here
    }
    calls(out, bodies);
    // auto fptr = kernel<...>;  auto* p = &kernel<...>;  void const* p = reinterpret_cast<void const*>(&kernel<...>);
    std::set<std::string> kernels;
    for (const KernelFunction& k : out.kernels) kernels.insert(k.name);
    std::map<std::string, std::string> aliases;
    std::map<std::string, std::vector<std::string>> alias_targs;  // auto p = &kernel<decltype(sA), ...>
    for (size_t i = 0; i + 2 < toks_.size(); ++i) {
      if (!toks_[i].ident || t(i + 1) != "=" || kernels.count(t(i))) continue;
      for (size_t k = i + 2; k < toks_.size() && t(k) != ";"; ++k)
        if (toks_[k].ident && kernels.count(t(k))) {
          aliases[t(i)] = t(k);
          if (t(k + 1) == "<") {
            int depth = 0, paren = 0;
            size_t e = k + 1;
            for (; e < toks_.size() && t(e) != ";"; ++e) {
              if (t(e) == "(") ++paren;
              if (t(e) == ")") --paren;
              if (paren == 0 && t(e) == "<") ++depth;
              if (paren == 0 && t(e) == ">" && --depth == 0) break;
            }
            if (e < toks_.size() && t(e) == ">") alias_targs[t(i)] = split_arguments(span(k + 2, e));
          }
          break;
        }
    }
    std::vector<std::string> named_targs;  // the template arguments of the alias kernel_named found
    auto kernel_named = [&](const std::string& text) -> std::string {  // the last kernel or alias named in text
      std::string found;
      named_targs.clear();
      for (size_t i = 0; i < text.size();) {
        if (!ident_start(text[i])) {
          ++i;
          continue;
        }
        size_t j = i;
        while (j < text.size() && ident_char(text[j])) ++j;
        std::string id = text.substr(i, j - i);
        if (kernels.count(id)) found = id;
        if (auto it = aliases.find(id); it != aliases.end()) {
          found = it->second;
          if (auto a = alias_targs.find(id); a != alias_targs.end()) named_targs = a->second;
        }
        i = j;
      }
      return found;
    };
    auto enclose = [&](KernelLaunch& l, size_t at) {
      for (const Body& f : bodies)
        if (f.open < at && at < f.shut) {
          l.function = f.name;
          l.function_begin_line = line_col(toks_[f.open].begin).first;
          l.function_end_line = line_col(toks_[f.shut].begin).first;
        }
    };
    // cutlass::launch_kernel_on_cluster(params, kernel_ptr, args...)
    for (size_t i = 0; i + 1 < toks_.size(); ++i) {
      if (t(i) != "launch_kernel_on_cluster" || t(i + 1) != "(") continue;
      const size_t shut = close(i + 1);
      std::vector<std::string> args = split_arguments(span(i + 2, shut));
      if (args.size() < 2) continue;
      KernelLaunch l;
      l.kernel = kernel_named(args[1]);
      if (l.kernel.empty()) continue;
      l.template_args = named_targs;
      std::tie(l.line, l.column) = line_col(toks_[i].begin);
      l.args.assign(args.begin() + 2, args.end());
      enclose(l, i);
      out.launches.push_back(std::move(l));
    }
    for (size_t i = 1; i + 3 < toks_.size(); ++i) {
      if (!(t(i) == "<" && t(i + 1) == "<" && t(i + 2) == "<" && toks_[i - 1].ident)) continue;
      size_t k = i + 3;
      int chevrons = 0;
      while (k < toks_.size() && chevrons < 3) {  // >>>
        chevrons = t(k) == ">" ? chevrons + 1 : 0;
        if (t(k) == "(") k = close(k);
        ++k;
      }
      if (t(k) != "(") continue;
      KernelLaunch l;
      l.kernel = t(i - 1);
      if (auto a = alias_targs.find(l.kernel); a != alias_targs.end()) l.template_args = a->second;
      if (auto it = aliases.find(l.kernel); it != aliases.end()) l.kernel = it->second;
      if (!kernels.count(l.kernel)) continue;
      std::tie(l.line, l.column) = line_col(toks_[i - 1].begin);
      size_t shut = close(k);
      l.args = split_arguments(span(k + 1, shut));
      enclose(l, i);
      out.launches.push_back(std::move(l));
      i = shut;
    }
  }
};

}  // namespace

std::vector<std::string> split_arguments(const std::string& text) {
  std::vector<std::string> out;
  int depth = 0, angle = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == '<' && i > 0 && ident_char(text[i - 1]) && !(i + 1 < text.size() && text[i + 1] == '<')) ++angle;
    if (c == '>' && angle > 0) --angle;
    if (depth == 0 && angle == 0 && c == ',') {
      std::string piece = trim(text.substr(start, i - start));
      if (!piece.empty() || i < text.size()) out.push_back(piece);
      start = i + 1;
    }
  }
  if (out.size() == 1 && out[0].empty()) out.clear();
  return out;
}

KernelFile read_kernels(const std::string& text, const std::string& file) {
  (void)file;
  Reader r(text);
  return r.read();
}

}  // namespace cutevis
