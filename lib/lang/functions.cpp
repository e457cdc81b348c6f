// Constexpr functions of a user's file, run statement by statement (see lib/lang/functions.hpp).
#include "lib/lang/functions.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <utility>

#include "lib/lang/environment.hpp"
#include "lib/lang/explicit_specialization.hpp"
#include "lib/lang/floating.hpp"

namespace cutevis {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

constexpr int kMaxCallDepth = 64;
// Loop iterations one outermost call may run, its callees' included: g++'s -fconstexpr-loop-limit default.
constexpr int64_t kMaxLoopSteps = 262144;
// Calls one outermost call may make, its callees' included: a recursion that branches (fib(n - 1) + fib(n - 2))
// stays under kMaxCallDepth and would otherwise run for ever.  (CUTLASS's builders and FA3's traits make at
// most 50 per name; 16,384 calls cost about 0.3 s.)
constexpr int64_t kMaxCalls = 16384;
thread_local int64_t loop_steps = 0, calls_made = 0;
thread_local int calls_running = 0;
// A function call running: the outermost one starts fresh budgets.
struct CallFrame {
  CallFrame() {
    if (calls_running++ == 0) loop_steps = calls_made = 0;
  }
  ~CallFrame() { --calls_running; }
  CallFrame(const CallFrame&) = delete;
  CallFrame& operator=(const CallFrame&) = delete;
};

// A parameter's type as far as deduction reads it: `Layout const&` -> "Layout".
std::string bare_type(std::string t) {
  std::string out, word;
  auto flush = [&] {
    if (!word.empty() && word != "const" && word != "volatile" && word != "typename" && word != "constexpr")
      out += (out.empty() || out.back() == ':' || out.back() == '<' ? "" : " ") + word;
    word.clear();
  };
  for (char c : t) {
    if (ident_char(c)) {
      word += c;
      continue;
    }
    flush();
    if (c == '&' || c == '*' || std::isspace(static_cast<unsigned char>(c))) continue;
    out += c;
  }
  flush();
  return out;
}

// `v` stored into a variable that holds `old`: C++ keeps a variable's type (bool stays bool, an int
// truncates a float, a float rounds what it is given).
Value converted_like(const Value& old, const Value& v) {
  const FloatingValue* f = floating_of(v);
  if (old.is(Value::Kind::kBool) && v.is(Value::Kind::kInt) && v.leaf().basis().empty())
    return Value::boolean(v.as_int() != 0);
  if (old.is(Value::Kind::kBool) && f) return Value::boolean(f->value() != 0);
  if (old.is(Value::Kind::kInt) && v.is(Value::Kind::kBool)) return Value::dynamic_integer(v.as_bool() ? 1 : 0);
  if (old.is(Value::Kind::kInt) && f) return Value::dynamic_integer(truncated(*f, ValueType{"int64_t", 64}));
  if (const FloatingValue* was = floating_of(old)) return to_floating(v, was->type());
  return v;
}

// `v` as the local declared `Type name = v` holds it: converted where Type is an arithmetic type
// (float x = 1 holds 1.0f, int n = 2.5 holds 2), else as it is.
Value declared_as(const std::string& type, const Value& v) {
  ValueType t;
  if (type == "auto" || !lookup_value_type(type, t)) return v;
  if (is_floating_type(t)) return to_floating(v, t);
  if (const FloatingValue* f = floating_of(v)) return Value::dynamic_integer(truncated(*f, t));
  return v;
}

// One function call: the body of `f` run with bindings `b` (its template parameters, its
// parameters and its locals).
class Body {
 public:
  Body(Evaluator& caller, const FunctionDef& f, Evaluator::Bindings& b)
      : f_(f), text_(f.decl.text), b_(b), ev_(caller.registry()) {
    ev_.set_environment(caller.environment(), &f.decl, f.decl.scope);
    ev_.set_source(text_);
    ev_.set_bindings(&b_);
  }

  std::optional<Value> run() {
    size_t i = 0;
    while (skip_space(i) < text_.size()) {
      if (auto r = statement(i, true)) return r;
    }
    return std::nullopt;
  }

  // The value of the expression [a, b) of the body.
  Value eval(size_t a, size_t b) { return eval(parsed(a, b)); }
  Value eval(const Node& root) {
    ev_.use_literals(f_.decl.file == kSnippetFile ? Literals::kAuto : Literals::kDynamic, root);
    return ev_.eval(root);
  }
  // The value of a text outside the body (a default argument).
  Value eval_text(const std::string& text) {
    Evaluator ev(ev_.registry());
    ev.set_environment(ev_.environment(), &f_.decl, f_.decl.scope);
    ev.set_source(text);
    ev.set_bindings(&b_);
    Node root = parse_expression(text);
    ev.use_literals(Literals::kDynamic, root);
    return ev.eval(root);
  }
  const std::vector<Warning>& warnings() const { return ev_.warnings(); }

 private:
  [[noreturn]] void fail(size_t at, const std::string& message) const {
    throw Error(message, static_cast<int64_t>(at));
  }
  // The expression [a, b) parsed, once per span and text (a loop evaluates its condition many times).
  const Node& parsed(size_t a, size_t b) {
    std::string key = std::to_string(a) + ':' + text_.substr(a, b - a);
    auto it = parsed_.find(key);
    if (it != parsed_.end()) return it->second;
    std::string padded(text_.size(), ' ');  // positions stay the body's
    std::copy(text_.begin() + static_cast<long>(a), text_.begin() + static_cast<long>(b),
              padded.begin() + static_cast<long>(a));
    return parsed_.emplace(std::move(key), parse_expression(padded)).first->second;
  }
  bool blank(size_t a, size_t b) const {
    for (size_t k = a; k < b; ++k)
      if (!std::isspace(static_cast<unsigned char>(text_[k]))) return false;
    return true;
  }

  // Locals: a block's end restores the names it declared (shadowed ones to their outer value);
  // an assignment to a name of an enclosing block stays.
  struct Shadowed {
    std::string name;
    std::optional<Value> before;
  };
  void declare(const std::string& name, Value v) {
    if (!scopes_.empty()) {
      auto it = b_.values.find(name);
      scopes_.back().push_back({name, it == b_.values.end() ? std::nullopt : std::optional<Value>(it->second)});
    }
    b_.values[name] = std::move(v);
  }
  void open_scope() { scopes_.emplace_back(); }
  void close_scope() {
    std::vector<Shadowed>& s = scopes_.back();
    for (auto it = s.rbegin(); it != s.rend(); ++it) {
      if (it->before) b_.values[it->name] = std::move(*it->before);
      else b_.values.erase(it->name);
    }
    scopes_.pop_back();
  }
  // One more iteration of the loop at `at`: past kMaxLoopSteps in one call (its callees' loops
  // included), an error rather than a hang.
  void count_step(size_t at, const std::string& loop) {
    if (++loop_steps <= kMaxLoopSteps) return;
    fail(at, "the '" + loop + "' loop in " + f_.decl.name + " ran past " + std::to_string(kMaxLoopSteps) +
                 " iterations (g++'s constexpr loop limit): does it end?");
  }
  size_t skip_space(size_t& i) const {
    while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
    return i;
  }
  std::string word(size_t i) const {
    size_t j = i;
    while (j < text_.size() && ident_char(text_[j])) ++j;
    return text_.substr(i, j - i);
  }
  // The index of the bracket closing the one at i (( [ {), every kind nested.
  size_t match(size_t i) const {
    int depth = 0;
    for (size_t k = i; k < text_.size(); ++k) {
      char c = text_[k];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && --depth == 0) return k;
    }
    fail(i, "unbalanced bracket in the body of " + f_.decl.name);
  }
  // The `;` ending the statement that starts at i.
  size_t semicolon(size_t i) const {
    for (size_t k = i; k < text_.size(); ++k) {
      char c = text_[k];
      if (c == '(' || c == '[' || c == '{') k = match(k);
      else if (c == ';') return k;
    }
    fail(i, "a statement without its ';' in the body of " + f_.decl.name);
  }
  bool truth(size_t a, size_t b) {
    Value v = eval(a, b);
    if (v.is(Value::Kind::kBool)) return v.as_bool();
    if (v.is(Value::Kind::kInt)) return v.as_int() != 0;
    if (const FloatingValue* f = floating_of(v)) return f->value() != 0;
    fail(a, "a condition must be a bool, an integer or a floating value, got " + v.describe());
  }

  // Runs (or, run == false, steps over) the statement at i; a `return` gives its value.
  std::optional<Value> statement(size_t& i, bool run) {
    skip_space(i);
    if (i >= text_.size()) return std::nullopt;
    const size_t at = i;
    if (text_[i] == ';') {
      ++i;
      return std::nullopt;
    }
    if (text_[i] == '{') {
      size_t close = match(i);
      i = at + 1;
      std::optional<Value> r;
      open_scope();  // its locals end with it
      while (!r && jump_ == Jump::kNone && skip_space(i) < close) r = statement(i, run);
      close_scope();
      i = close + 1;
      return r;
    }
    const std::string w = word(i);
    if (w == "if") {
      i += 2;
      skip_space(i);
      if (word(i) == "constexpr") i += 9;
      skip_space(i);
      if (i >= text_.size() || text_[i] != '(') fail(i, "expected '(' after if");
      const size_t close = match(i);
      const bool taken = run && truth(i + 1, close);
      i = close + 1;
      std::optional<Value> r = statement(i, run && taken);
      size_t after = i;
      if (word(skip_space(after)) == "else") {
        i = after + 4;
        std::optional<Value> e = statement(i, run && !taken);
        if (!r) r = std::move(e);
      }
      return r;
    }
    if (w == "for" || w == "while") return loop(i, run, w);
    if (w == "do") return do_loop(i, run);
    if (w == "switch" || w == "goto" || w == "try" || w == "throw")
      fail(at, "cutevis does not run '" + w + "' in a constexpr function (" + f_.decl.name +
                   "): only if/if constexpr, for, while, do, return, assignments, local constexpr/auto/using and "
                   "static_assert");
    const size_t end = semicolon(i);
    i = end + 1;
    if (!run) return std::nullopt;
    if (w == "break" || w == "continue") {
      if (loops_ == 0) fail(at, "'" + w + "' outside a loop in " + f_.decl.name);
      jump_ = w == "break" ? Jump::kBreak : Jump::kContinue;
      return std::nullopt;
    }
    if (w == "return") return eval(at + 6, end);
    if (w == "static_assert" || w == "CUTE_STATIC_ASSERT" || w == "CUTE_STATIC_ASSERT_V") {
      static_assertion(at, at + w.size(), end);
      return std::nullopt;
    }
    if (w == "using") {
      size_t k = at + 5;
      if (word(skip_space(k)) == "namespace") return std::nullopt;  // using namespace cute;
      const std::string name = word(k);
      size_t eq = k + name.size();
      if (name.empty() || skip_space(eq) >= end || text_[eq] != '=') return std::nullopt;  // using Base::X;
      size_t value = eq + 1;
      if (word(skip_space(value)) == "typename") value += 8;
      declare(name, eval(value, end));
      return std::nullopt;
    }
    if (w == "typedef") {
      size_t name_end = end;
      while (name_end > at && std::isspace(static_cast<unsigned char>(text_[name_end - 1]))) --name_end;
      size_t name_begin = name_end;
      while (name_begin > at && ident_char(text_[name_begin - 1])) --name_begin;
      declare(text_.substr(name_begin, name_end - name_begin), eval(at + 7, name_begin));
      return std::nullopt;
    }
    simple(at, end);
    return std::nullopt;
  }

  // for (init; cond; step) body  /  while (cond) body, at i (the keyword).
  std::optional<Value> loop(size_t& i, bool run, const std::string& keyword) {
    const size_t at = i;
    i += keyword.size();
    skip_space(i);
    if (i >= text_.size() || text_[i] != '(') fail(i, "expected '(' after " + keyword);
    const size_t open = i, close = match(i);
    size_t init_end = open + 1, cond_begin = open + 1, cond_end = close;
    if (keyword == "for") {
      init_end = semicolon(open + 1);
      cond_begin = init_end + 1;
      cond_end = init_end < close ? semicolon(cond_begin) : close + 1;
      if (cond_end > close)
        fail(open, "cutevis runs for (init; condition; step) in a constexpr function, not a range-based for");
    }
    const size_t body = close + 1;
    size_t after = body;
    statement(after, false);  // where the loop ends
    i = after;
    if (!run) return std::nullopt;
    open_scope();  // the init's variables live as long as the loop
    if (!blank(open + 1, init_end)) simple(open + 1, init_end);
    ++loops_;
    std::optional<Value> r;
    while (blank(cond_begin, cond_end) || truth(cond_begin, cond_end)) {
      count_step(at, keyword);
      size_t k = body;
      r = statement(k, true);
      if (r) break;
      const Jump jump = std::exchange(jump_, Jump::kNone);
      if (jump == Jump::kBreak) break;
      if (keyword == "for") expressions(cond_end + 1, close);
    }
    --loops_;
    close_scope();
    return r;
  }
  // do body while (cond);
  std::optional<Value> do_loop(size_t& i, bool run) {
    const size_t at = i;
    const size_t body = i + 2;
    size_t k = body;
    statement(k, false);
    if (word(skip_space(k)) != "while") fail(k, "expected 'while' after the body of 'do'");
    k += 5;
    skip_space(k);
    if (k >= text_.size() || text_[k] != '(') fail(k, "expected '(' after while");
    const size_t open = k, close = match(k);
    i = semicolon(close) + 1;
    if (!run) return std::nullopt;
    ++loops_;
    std::optional<Value> r;
    do {
      count_step(at, "do");
      size_t b = body;
      r = statement(b, true);
      if (r) break;
      if (std::exchange(jump_, Jump::kNone) == Jump::kBreak) break;
    } while (truth(open + 1, close));
    --loops_;
    return r;
  }
  // e1, e2, ...: a for loop's step (assignments, increments, or expressions evaluated for nothing)
  void expressions(size_t a, size_t b) {
    size_t start = a;
    for (size_t k = a; k <= b; ++k) {
      if (k < b && (text_[k] == '(' || text_[k] == '[' || text_[k] == '{')) k = match(k);
      else if (k == b || text_[k] == ',') {
        if (!blank(start, k) && !assignment(start, k)) eval(start, k);
        start = k + 1;
      }
    }
  }
  // A declaration or an assignment, [at, end).
  void simple(size_t at, size_t end) {
    if (!assignment(at, end)) declaration(at, end);
  }
  // x = e, x op= e, ++x, x++, --x, x-- on a local or a parameter; false if [a, b) is none of these.
  bool assignment(size_t a, size_t b) {
    size_t k = a;
    skip_space(k);
    const size_t at = k;
    std::string prefix;
    if (text_.compare(k, 2, "++") == 0 || text_.compare(k, 2, "--") == 0) {
      prefix = text_.substr(k, 2);
      k += 2;
      skip_space(k);
    }
    const std::string name = word(k);
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    const size_t name_at = k;
    k += name.size();
    skip_space(k);
    std::string op;
    size_t rhs = b;
    if (!prefix.empty()) {
      if (!blank(k, b)) return false;
      op = prefix.substr(0, 1);
    } else if ((text_.compare(k, 2, "++") == 0 || text_.compare(k, 2, "--") == 0) && blank(k + 2, b)) {
      op = text_.substr(k, 1);
    } else {
      for (const char* o : {"<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "="}) {
        const size_t n = std::strlen(o);
        if (k + n <= b && text_.compare(k, n, o) == 0 && !(n == 1 && k + 1 < b && text_[k + 1] == '=')) {
          op = std::string(o, n - 1);  // "+" for +=, "" for =
          rhs = k + n;
          break;
        }
      }
      if (rhs == b) return false;
    }
    auto it = b_.values.find(name);
    if (it == b_.values.end())
      fail(name_at, "cutevis assigns only to a local or a parameter of " + f_.decl.name + ", not to '" + name + "'");
    Node target;
    target.kind = Node::Kind::kName;
    target.name = name;
    target.begin = name_at;
    target.end = name_at + name.size();
    Node value;
    if (rhs != b) {
      value = parsed(rhs, b);
    } else {  // ++x, x--: x op 1
      value.kind = Node::Kind::kNumber;
      value.value = 1;
      value.begin = at;
      value.end = b;
    }
    if (!op.empty()) {
      Node combined;
      combined.kind = Node::Kind::kOperator;
      combined.name = op;
      combined.begin = at;
      combined.end = b;
      combined.children = {std::move(target), std::move(value)};
      value = std::move(combined);
    }
    Value result = eval(value);
    try {
      b_.values[name] = converted_like(it->second, result);
    } catch (const Error& e) {
      fail(at, e.what());
    }
    return true;
  }

  // static_assert(cond, "message"): a failure is an error at the assertion.
  void static_assertion(size_t at, size_t open, size_t end) {
    skip_space(open);
    if (open >= end || text_[open] != '(') fail(at, "expected '(' after static_assert");
    const size_t close = match(open);
    size_t cond_end = close, message = std::string::npos;
    int depth = 0;
    for (size_t k = open + 1; k < close; ++k) {  // the message: a string literal after the last top-level comma
      char c = text_[k];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (c == ',' && depth == 0) {
        size_t q = k + 1;
        if (skip_space(q) < close && text_[q] == '"') {
          cond_end = k;
          message = q;
        }
      }
    }
    if (truth(open + 1, cond_end)) return;
    std::string said;
    if (message != std::string::npos) {
      size_t q = text_.find('"', message + 1);
      said = f_.raw_body.substr(message + 1, (q == std::string::npos ? close : q) - message - 1);
    }
    fail(at, "static_assert failed" + (said.empty() ? std::string() : ": " + said));
  }

  // [constexpr|static|const] Type name = E;  Type name{...};  (void)x;
  void declaration(size_t at, size_t end) {
    size_t eq = std::string::npos;
    int depth = 0;
    for (size_t k = at; k < end; ++k) {
      char c = text_[k];
      if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
      if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
      if (c == '=' && depth == 0 && text_[k + 1] != '=' && k > at && !std::strchr("=!<>", text_[k - 1])) {
        eq = k;
        break;
      }
    }
    size_t name_end = eq == std::string::npos ? end : eq;
    size_t open = std::string::npos;
    if (eq == std::string::npos) {
      size_t last = end;
      while (last > at && std::isspace(static_cast<unsigned char>(text_[last - 1]))) --last;
      if (last > at && text_[last - 1] == '}') {  // Type name{...}
        int d = 0;
        for (size_t k = last; k-- > at;) {
          if (text_[k] == '}') ++d;
          if (text_[k] == '{' && --d == 0) {
            open = k;
            break;
          }
        }
        name_end = open == std::string::npos ? at : open;
      } else if (text_[at] == '(') {
        return;  // (void)x;
      } else {
        fail(at, "cutevis cannot run this statement in a constexpr function (" + f_.decl.name + ")");
      }
    }
    while (name_end > at && std::isspace(static_cast<unsigned char>(text_[name_end - 1]))) --name_end;
    size_t name_begin = name_end;
    while (name_begin > at && ident_char(text_[name_begin - 1])) --name_begin;
    if (name_begin == name_end || name_begin == at)
      fail(at, "cutevis cannot run this statement in a constexpr function (" + f_.decl.name + ")");
    const std::string name = text_.substr(name_begin, name_end - name_begin);
    if (eq != std::string::npos) {
      size_t type_begin = skip_specifiers(at, name_begin), type_end = name_begin;
      while (type_end > type_begin && std::isspace(static_cast<unsigned char>(text_[type_end - 1]))) --type_end;
      try {
        declare(name, declared_as(text_.substr(type_begin, type_end - type_begin), eval(eq + 1, end)));
      } catch (const Error& e) {
        if (e.has_position()) throw;
        fail(at, e.what());
      }
      return;
    }
    // Type name{args}: the value of Type{args} (the name blanked), or of args for auto and scalars
    size_t type_end = name_begin;
    while (type_end > at && std::isspace(static_cast<unsigned char>(text_[type_end - 1]))) --type_end;
    size_t type_begin = type_end;
    while (type_begin > at && (ident_char(text_[type_begin - 1]) || text_[type_begin - 1] == ':')) --type_begin;
    const std::string type = text_.substr(type_begin, type_end - type_begin);
    static const char* const scalars[] = {"auto", "int", "bool", "int64_t", "int32_t", "uint32_t", "size_t", "long"};
    for (const char* s : scalars)
      if (type == s) {
        declare(name, eval(open + 1, match(open)));
        return;
      }
    std::string saved = text_.substr(name_begin, name_end - name_begin);
    std::fill(text_.begin() + static_cast<long>(name_begin), text_.begin() + static_cast<long>(name_end), ' ');
    try {
      declare(name, eval(skip_specifiers(at, name_begin), end));
    } catch (...) {
      text_.replace(name_begin, saved.size(), saved);
      throw;
    }
    text_.replace(name_begin, saved.size(), saved);
  }
  size_t skip_specifiers(size_t i, size_t limit) const {
    while (i < limit) {
      size_t k = i;
      skip_space(k);
      std::string w = word(k);
      if (w != "constexpr" && w != "static" && w != "const" && w != "CUTE_STATIC_V") return k;
      i = k + w.size();
    }
    return i;
  }

  const FunctionDef& f_;
  std::string text_;
  Evaluator::Bindings& b_;
  Evaluator ev_;
  std::map<std::string, Node> parsed_;
  std::vector<std::vector<Shadowed>> scopes_;
  enum class Jump { kNone, kBreak, kContinue };
  Jump jump_ = Jump::kNone;  // a break / continue on its way to its loop
  int loops_ = 0;            // loops running (break and continue need one)
};

}  // namespace

namespace {

// The top-level template arguments of a template-id as bare_type writes it: "A<x, B<y, z>>" ->
// {"x", "B<y, z>"}; empty when `type` is no template-id.
std::vector<std::string> template_id_args(const std::string& type) {
  std::vector<std::string> out;
  size_t open = type.find('<');
  if (open == std::string::npos || type.back() != '>') return out;
  int depth = 0;
  size_t start = open + 1;
  for (size_t k = open + 1; k + 1 < type.size(); ++k) {
    char c = type[k];
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(type.substr(start, k - start));
      start = k + 1;
    }
  }
  out.push_back(type.substr(start, type.size() - 1 - start));
  for (std::string& a : out) {
    a.erase(0, a.find_first_not_of(' '));
    a.erase(a.find_last_not_of(' ') + 1);
  }
  return out;
}

std::string last_component(const std::string& name) {
  const std::string plain = name.substr(0, name.find('#'));  // (a specialization's scope is Name#2)
  const size_t colon = plain.rfind("::");
  return colon == std::string::npos ? plain : plain.substr(colon + 2);
}

// Deduces f's template parameters from the call's arguments, as C++ matches a parameter's type
// against an argument's: T, T const& (anything), Int<N> / C<N> (a static integer), Swizzle<B, M, S>,
// Layout<Shape, Stride> (a layout, not a composed one), and a class template's instance, Tmpl<a, N>
// against Tmpl<half_t, 4> (its template arguments by position).
// False where an argument cannot match its parameter (another overload is then tried):
// StageCount<stages> does not take a StageCountAutoCarveout<0>.
bool deduce(const FunctionDef& f, size_t explicit_count, const std::vector<Value>& args, Evaluator::Bindings& b) {
  auto is_unbound_tparam = [&](const std::string& name) {
    for (size_t k = explicit_count; k < f.tparams.size(); ++k)
      if (f.tparams[k] == name) return !b.values.count(name);
    return false;
  };
  for (size_t k = 0; k < args.size(); ++k) {
    std::string type = bare_type(f.param_types[k]);
    for (const char* prefix : {"cute::", "std::"})
      if (type.rfind(prefix, 0) == 0) type = type.substr(std::string(prefix).size());
    const std::vector<std::string> targs = template_id_args(type);
    const std::string tmpl = type.substr(0, type.find('<'));
    const auto* instance =
        args[k].is(Value::Kind::kObject) ? dynamic_cast<const ClassInstance*>(args[k].object().get()) : nullptr;
    if (is_unbound_tparam(type)) {
      b.values[type] = args[k];
    } else if ((tmpl == "Int" || tmpl == "C") && targs.size() == 1) {
      if (!args[k].is(Value::Kind::kInt)) return false;  // Int<N> takes an integer only
      if (is_unbound_tparam(targs[0])) b.values[targs[0]] = Value::dynamic_integer(args[k].as_int());
    } else if (tmpl == "Swizzle" && targs.size() == 3) {  // Swizzle<B, M, S>
      if (!args[k].is(Value::Kind::kSwizzle)) return false;
      const Swizzle& z = args[k].swizzle();
      const int bms[] = {z.bits, z.base, z.shift};
      for (size_t i = 0; i < 3; ++i)
        if (is_unbound_tparam(targs[i])) b.values[targs[i]] = Value::dynamic_integer(bms[i]);
    } else if (tmpl == "Layout" && targs.size() == 2) {  // Layout<Shape, Stride>: a plain layout only
      const Layout* l = args[k].is(Value::Kind::kLayout) ? std::get_if<Layout>(&args[k].any_layout()) : nullptr;
      if (!l) return false;
      if (is_unbound_tparam(targs[0])) b.values[targs[0]] = Value::from(l->shape);
      if (is_unbound_tparam(targs[1])) b.values[targs[1]] = Value::from(l->stride);
    } else if (!targs.empty()) {
      const bool deduces = std::any_of(targs.begin(), targs.end(), is_unbound_tparam);
      if (!instance) {
        if (deduces) return false;  // Count<N> from no class instance: not this overload
        continue;
      }
      if (last_component(instance->scope()) != last_component(tmpl)) return false;
      if (instance->params().size() != targs.size()) continue;  // (a specialization's own parameters)
      for (size_t i = 0; i < targs.size(); ++i) {
        auto it = instance->values().find(instance->params()[i]);
        if (is_unbound_tparam(targs[i]) && it != instance->values().end()) b.values[targs[i]] = it->second;
      }
    }
  }
  return true;
}

// Binds f's template parameters and parameters for the call (its arguments' values `args`, its
// template parameters deduced into `b` by deduce), then runs its body.
Value run_function(Evaluator& caller, const FunctionDef& f, const Node& call, const std::vector<Value>& args,
                   Evaluator::Bindings b) {
  CallFrame frame;
  if (++calls_made > kMaxCalls)
    caller.fail(call, "more than " + std::to_string(kMaxCalls) +
                          " calls of the sources' functions in one evaluation (" + f.decl.name +
                          "): does its recursion end?");
  Body body(caller, f, b);
  try {
    for (size_t k = 0; k < f.tparams.size(); ++k) {
      if (b.values.count(f.tparams[k])) continue;
      if (f.tdefaults[k].empty())
        caller.fail(call, "cannot deduce template parameter '" + f.tparams[k] + "' of " + f.decl.name + ": give it, " +
                              f.decl.name + "<...>(...)");
      b.values[f.tparams[k]] = body.eval_text(f.tdefaults[k]);
    }
    for (size_t k = 0; k < f.params.size(); ++k) {
      if (f.params[k].empty()) continue;  // unnamed: f(Int<N>)
      if (k < args.size()) b.values[f.params[k]] = args[k];
      else b.values[f.params[k]] = body.eval_text(f.param_defaults[k]);
    }
    std::optional<Value> r = body.run();
    for (const Warning& w : body.warnings()) caller.warn(call, w.message);
    if (!r) throw Error(f.decl.name + " reached the end of its body without a return");
    return *r;
  } catch (const LocatedError& e) {
    throw e.at(static_cast<int64_t>(call.begin));
  } catch (const Error& e) {
    SourceSpot spot = Environment::spot_of(f.decl, e.has_position() ? static_cast<size_t>(e.position()) : 0);
    LocatedError located(std::string(e.what()) + (e.has_position() ? "" : " (in " + f.decl.name + ")"), spot,
                         static_cast<int64_t>(call.begin));
    located.set_unknown_name(dynamic_cast<const UnknownName*>(&e) != nullptr);
    throw located;
  }
}

bool accepts(const FunctionDef& f, const Node& call) {
  if (call.template_args.size() > f.tparams.size() || call.args.size() > f.params.size()) return false;
  for (size_t k = call.args.size(); k < f.params.size(); ++k)
    if (f.param_defaults[k].empty()) return false;
  return true;
}

// The bindings a call of f starts from: its owner's or sibling's names, the depth, the template
// arguments given.
Evaluator::Bindings call_bindings(Evaluator& caller, const FunctionDef& f, const Node& call,
                                  const Evaluator::Bindings* owner) {
  Evaluator::Bindings b;
  b.scope = f.decl.template_scope;
  const Evaluator::Bindings* outer = caller.bindings();
  b.depth = (outer ? outer->depth : 0) + 1;
  if (b.depth > kMaxCallDepth) caller.fail(call, "calls nested more than 64 deep (a recursive function?)");
  if (owner) b.values = owner->values;
  else if (outer && !b.scope.empty() && outer->scope == b.scope) b.values = outer->values;  // a sibling member
  for (size_t k = 0; k < call.template_args.size(); ++k) b.values[f.tparams[k]] = caller.eval(call.template_args[k]);
  return b;
}

}  // namespace

bool call_user_function(Evaluator& ev, const Node& call, Value& out) {
  Environment* env = ev.environment();
  if (!env || call.call != Node::Call::kParen) return false;
  const size_t colon = call.name.rfind("::");
  if (!env->has_function_named(colon == std::string::npos ? call.name : call.name.substr(colon + 2)))
    return false;  // (most calls: no function of the sources has the name)
  std::vector<const FunctionDef*> found = env->functions(call.name, ev.scope());
  const Evaluator::Bindings* owner = nullptr;
  Evaluator::Bindings owner_bindings;
  if (colon != std::string::npos && colon > 0) {  // Traits::f() where Traits is a class template's instance
    const std::string owner_name = call.name.substr(0, colon);
    Value v;
    bool have = false;
    if (ev.bindings() && ev.bindings()->values.count(owner_name)) {
      v = ev.bindings()->values.at(owner_name);
      have = true;
    } else if (env->find(owner_name, ev.scope(), ev.within())) {
      Node owner_node = call;
      owner_node.name = owner_name;
      owner_node.call = Node::Call::kNone;
      owner_node.args.clear();
      owner_node.template_args.clear();
      owner_node.has_template_args = false;
      try {
        v = ev.eval(owner_node);
        have = true;
      } catch (const Error&) {
      }
    }
    const auto* instance =
        have && v.is(Value::Kind::kObject) ? dynamic_cast<const ClassInstance*>(v.object().get()) : nullptr;
    if (instance) {
      found = env->functions(instance->scope() + "::" + call.name.substr(colon + 2), ev.scope());
      owner_bindings.scope = instance->scope();
      owner_bindings.values = instance->values();
      owner = &owner_bindings;
    }
  }
  // obj.f(args), read as f(obj, args): a member function of the class obj is an instance of
  // (shared_storage.tensor_sA(), with the instance's template parameters bound)
  if (colon == std::string::npos && !call.args.empty() &&
      std::none_of(found.begin(), found.end(), [&](const FunctionDef* f) { return accepts(*f, call); })) {
    Value self;
    try {
      self = ev.eval(call.args[0]);
    } catch (const Error&) {
    }
    const auto* instance =
        self.is(Value::Kind::kObject) ? dynamic_cast<const ClassInstance*>(self.object().get()) : nullptr;
    if (instance) {
      Node rest = call;
      rest.args.erase(rest.args.begin());
      owner_bindings.scope = instance->scope();
      owner_bindings.values = instance->values();
      std::vector<Value> args;
      for (const Node& a : rest.args) args.push_back(ev.eval(a));
      for (const FunctionDef* f : env->functions(instance->scope() + "::" + call.name, ev.scope())) {
        if (!accepts(*f, rest)) continue;
        Evaluator::Bindings b = call_bindings(ev, *f, rest, &owner_bindings);
        if (!deduce(*f, rest.template_args.size(), args, b)) continue;  // another overload's argument
        out = run_function(ev, *f, rest, args, std::move(b));
        return true;
      }
    }
  }
  if (found.empty()) return false;
  std::vector<Value> args;
  bool evaluated = false;
  for (const FunctionDef* f : found) {
    if (!accepts(*f, call)) continue;
    if (!evaluated) {
      for (const Node& a : call.args) args.push_back(ev.eval(a));
      evaluated = true;
    }
    Evaluator::Bindings b = call_bindings(ev, *f, call, owner);
    if (!deduce(*f, call.template_args.size(), args, b)) continue;  // another overload's argument
    out = run_function(ev, *f, call, args, std::move(b));
    return true;
  }
  if (evaluated) {
    std::string given;
    for (const Value& a : args) given += (given.empty() ? "" : ", ") + a.to_string();
    ev.fail(call, "no " + found.front()->decl.name + " of the sources takes (" + given + ")");
  }
  const FunctionDef& f = *found.front();
  auto count = [](size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  ev.fail(call, f.decl.name + " takes " + count(f.params.size(), "argument") + " and " +
                    count(f.tparams.size(), "template argument") + ", got " + count(call.args.size(), "argument") +
                    " and " + count(call.template_args.size(), "template argument"));
}

const ClassDef* explicit_specialization(Evaluator& ev, const std::string& traits, const std::string& name) {
  Environment* env = ev.environment();
  if (!env) return nullptr;
  const std::string bare = name.rfind("cute::", 0) == 0 ? name.substr(6) : name;
  for (const ClassDef* c : env->classes(traits, ev.scope())) {
    std::string spec;
    for (char ch : c->specialization)
      if (!std::isspace(static_cast<unsigned char>(ch))) spec += ch;
    if (c->tparams.empty() && (spec == bare || spec == "cute::" + bare)) return c;
  }
  return nullptr;
}

Value specialization_member(Evaluator& ev, const ClassDef& c, const std::string& member, const Node& at,
                            const std::string& needs) {
  Environment* env = ev.environment();
  const Declaration* d = env->find(c.members_scope + "::" + member, "");
  if (!d || d->scope != c.members_scope)
    ev.fail(at, c.name + "<" + c.specialization + "> (" + c.file + ":" + std::to_string(c.line) + ") has no " + member +
                    ": " + needs);
  return env->value_of(*d, ev.registry());
}

}  // namespace cutevis
