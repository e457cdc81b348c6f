// CuTeDSL (Python) expressions into the expression tree of lib/lang/expr.hpp (see lib/lang/dsl.hpp).
#include <algorithm>
#include <cctype>

#include "lib/lang/dsl.hpp"

namespace cutevis {

namespace {

constexpr int kMaxNesting = 200;

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

struct Token {
  enum class Kind { kNumber, kIdent, kPunct, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  int64_t value = 0;
  size_t begin = 0, end = 0;
};

// Python's tokens for the expressions CuTeDSL layouts are written in.
std::vector<Token> lex(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80)
      throw Error("non-ASCII character in expression", static_cast<int64_t>(i));
    if (std::isspace(static_cast<unsigned char>(c)) || (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n')) {
      ++i;
      continue;
    }
    if (c == '#') {  // a comment runs to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    Token t;
    t.begin = i;
    if (is_digit(c)) {
      size_t j = i;
      int64_t v = 0;
      while (j < s.size() && (is_digit(s[j]) || (s[j] == '_' && j + 1 < s.size() && is_digit(s[j + 1])))) {
        if (s[j] != '_' && (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[j] - '0', &v)))
          throw Error("integer too large (the limit is 2^63-1)", static_cast<int64_t>(i));
        ++j;
      }
      if (j < s.size() && (s[j] == '.' || s[j] == 'e' || s[j] == 'x' || is_ident_char(s[j])))
        throw Error("only decimal integers are layout values here", static_cast<int64_t>(i));
      t.kind = Token::Kind::kNumber;
      t.value = v;
      i = j;
    } else if (is_ident_start(c)) {
      size_t j = i;
      while (j < s.size() && is_ident_char(s[j])) ++j;
      t.kind = Token::Kind::kIdent;
      t.text = s.substr(i, j - i);
      i = j;
    } else if (c == '"' || c == '\'') {
      throw Error("strings are not part of a CuTeDSL layout expression", static_cast<int64_t>(i));
    } else {
      static const char* const kTwo[] = {"//", "==", "!=", "<=", ">=", "**", "::"};
      t.kind = Token::Kind::kPunct;
      t.text = std::string(1, c);
      for (const char* two : kTwo)
        if (s.compare(i, 2, two) == 0) t.text = two;
      if (std::string("()[]{},=.+-*/%:<>@").find(c) == std::string::npos)
        throw Error(std::string("unexpected character '") + c + "' in a CuTeDSL expression", static_cast<int64_t>(i));
      i += t.text.size();
    }
    t.end = i;
    out.push_back(std::move(t));
  }
  Token end;
  end.begin = end.end = s.size();
  out.push_back(end);
  return out;
}

// CuTeDSL programs import the same modules under several names; one spelling each.
std::string canonical_name(std::string name) {
  auto starts = [&](const char* p) { return name.rfind(p, 0) == 0; };
  auto swap_prefix = [&](const char* from, const std::string& to) {
    if (!starts(from)) return false;
    name = to + name.substr(std::string(from).size());
    return true;
  };
  if (starts("cutlass.") && name.find('.', 8) == std::string::npos) return name.substr(8);  // cutlass.Float16
  swap_prefix("cutlass.", "");
  for (const char* helpers : {"utils.hopper_helpers.", "hopper_helpers.", "utils.sm90.", "sm90_utils."})
    if (swap_prefix(helpers, "sm90_utils.")) return name;
  for (const char* helpers : {"utils.blackwell_helpers.", "blackwell_helpers.", "utils.sm100.", "sm100_utils."})
    if (swap_prefix(helpers, "sm100_utils.")) return name;
  swap_prefix("utils.LayoutEnum.", "LayoutEnum.");
  swap_prefix("nvgpu.", "cute.nvgpu.");
  for (const char* module : {"warp.", "warpgroup.", "tcgen05.", "cpasync."})
    swap_prefix(module, std::string("cute.nvgpu.") + module);
  return name;
}

class DslParser {
 public:
  explicit DslParser(const std::string& text) : text_(text), toks_(lex(text)) {}

  Node parse() {
    Node n = expression();
    if (peek().kind != Token::Kind::kEnd) {
      if (is(")") || is("]") || is("}")) fail("unbalanced '" + peek().text + "'", peek());
      if (is(":"))
        fail("':' is CuTe's printed notation; in CuTeDSL a layout is cute.make_layout(shape, stride=...)", peek());
      if (is_python_keyword(peek())) python_only(peek());
      if (is("="))
        fail("an assignment is not an expression; give the right-hand side, or the file with --from", peek());
      fail("unexpected '" + (peek().text.empty() ? text_.substr(peek().begin, 1) : peek().text) +
               "' after a complete expression",
           peek());
    }
    return n;
  }

 private:
  const Token& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Token& next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool is(const char* p, size_t k = 0) const { return peek(k).kind == Token::Kind::kPunct && peek(k).text == p; }
  [[noreturn]] void fail(const std::string& msg, const Token& at) const {
    throw Error(msg, static_cast<int64_t>(at.begin));
  }

  static bool is_python_keyword(const Token& t) {
    static const char* const kWords[] = {"lambda", "if", "else", "for",   "in",   "not",
                                         "and",    "or", "is",   "yield", "await"};
    if (t.kind != Token::Kind::kIdent) return false;
    for (const char* w : kWords)
      if (t.text == w) return true;
    return false;
  }
  [[noreturn]] void python_only(const Token& t) const {
    fail("'" + t.text + "' is Python that cutevis does not evaluate; give the layout expression itself", t);
  }

  struct DepthGuard {
    DslParser& p;
    explicit DepthGuard(DslParser& parser) : p(parser) {
      if (++p.depth_ > kMaxNesting)
        p.fail("expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)", p.peek());
    }
    ~DepthGuard() { --p.depth_; }
  };

  void expect(const char* p, const Token& opener) {
    if (is(p)) {
      next();
      return;
    }
    if (peek().kind == Token::Kind::kEnd)
      fail("unbalanced '" + opener.text + "': expected '" + p + "' before the end", opener);
    if (is_python_keyword(peek())) python_only(peek());
    fail(std::string("expected '") + p + "', got '" +
             (peek().text.empty() ? text_.substr(peek().begin, 1) : peek().text) + "'",
         peek());
  }

  static Node call(const std::string& name, std::vector<Node> args, size_t begin, size_t end) {
    Node n;
    n.kind = Node::Kind::kName;
    n.name = name;
    n.call = Node::Call::kParen;
    n.args = std::move(args);
    n.begin = begin;
    n.end = end;
    return n;
  }

  // expression := term (('+' | '-') term)*
  Node expression() {
    DepthGuard guard(*this);
    Node lhs = term();
    while (is("+") || is("-")) {
      const std::string op = next().text == "+" ? "py.add" : "py.sub";
      Node rhs = term();
      size_t b = lhs.begin, e = rhs.end;
      lhs = call(op, {std::move(lhs), std::move(rhs)}, b, e);
    }
    return lhs;
  }

  // term := unary (('*' | '//' | '%') unary)*
  Node term() {
    Node lhs = unary();
    while (is("*") || is("//") || is("%") || is("/")) {
      if (is("/")) fail("'/' is Python's true division; layouts use integers: write '//'", peek());
      const std::string t = next().text;
      const std::string op = t == "*" ? "py.mul" : t == "//" ? "py.floordiv" : "py.mod";
      Node rhs = unary();
      size_t b = lhs.begin, e = rhs.end;
      lhs = call(op, {std::move(lhs), std::move(rhs)}, b, e);
    }
    return lhs;
  }

  // unary := '-' unary | postfix   (a negative literal stays a number)
  Node unary() {
    DepthGuard guard(*this);
    if (!is("-")) return postfix();
    const Token& minus = next();
    Node x = unary();
    if (x.kind == Node::Kind::kNumber) {
      x.value = -x.value;
      x.begin = minus.begin;
      return x;
    }
    const size_t end = x.end;
    return call("py.neg", {std::move(x)}, minus.begin, end);
  }

  // postfix := atom ('(' args ')' | '[' expression ']' | '.' IDENT)*
  Node postfix() {
    Node x = atom();
    while (true) {
      if (is("(")) {
        if (x.kind == Node::Kind::kName && x.name == "py.attr") {  // (..).method(args): "py.attr.method"(obj, args)
          Node obj = std::move(x.args[0]);
          const size_t b = obj.begin;
          x = call("py.attr." + x.args[1].name, {}, b, x.end);
          x.call = Node::Call::kNone;
          x.args.push_back(std::move(obj));
        }
        if (x.kind != Node::Kind::kName || x.call != Node::Call::kNone)
          fail("only named functions can be called here", peek());
        arguments(x);
      } else if (is("[")) {
        const Token& open = next();
        if (is("]")) fail("expected an index", peek());
        Node index = expression();
        if (is(":")) fail("slices (a[i:j]) are not supported; use cute.select or cute.get", peek());
        size_t end = peek().end;
        expect("]", open);
        size_t b = x.begin;
        x = call("py.getitem", {std::move(x), std::move(index)}, b, end);
      } else if (is(".")) {
        next();
        if (peek().kind != Token::Kind::kIdent) fail("expected a name after '.'", peek());
        const Token& attr = next();
        if (x.kind == Node::Kind::kName && x.call == Node::Call::kNone && x.name.rfind("py.", 0) != 0) {
          x.name = canonical_name(x.name + "." + attr.text);  // a module path or a dotted name
          x.end = attr.end;
        } else {  // an attribute of a computed value: (..).shape
          Node a;
          a.kind = Node::Kind::kName;
          a.name = attr.text;
          a.begin = attr.begin;
          a.end = attr.end;
          size_t b = x.begin;
          x = call("py.attr", {std::move(x), std::move(a)}, b, attr.end);
        }
      } else {
        return x;
      }
    }
  }

  // '(' [arg (',' arg)* [',']] ')', arg := [IDENT '='] expression
  void arguments(Node& f) {
    const Token& open = next();
    f.call = Node::Call::kParen;
    bool seen_keyword = false;
    while (!is(")")) {
      if (is("*") || is("**")) fail("argument unpacking (*args, **kwargs) is not supported", peek());
      std::string keyword;
      const Token& start = peek();
      if (peek().kind == Token::Kind::kIdent && is("=", 1)) {
        keyword = next().text;
        next();
      } else if (seen_keyword) {
        fail("a positional argument follows a keyword argument", start);
      }
      Node a = expression();
      if (!keyword.empty()) {
        for (const auto& prev : f.args)
          if (prev.keyword == keyword) fail("keyword argument '" + keyword + "' given twice", start);
        a.keyword = keyword;
        a.begin = start.begin;
        seen_keyword = true;
      }
      f.args.push_back(std::move(a));
      if (!is(",")) break;
      next();
    }
    f.end = peek().end;
    expect(")", open);
    if (f.name == "min" || f.name == "max") f.name = "py." + f.name;  // Python's builtins, not C++'s
    if (seen_keyword && f.name.find('.') == std::string::npos)
      fail("keyword arguments are CuTeDSL's, for cute.* functions: write cute." + f.name + "(...)", open);
  }

  // atom := NUMBER | IDENT | None | True | False | '(' ... ')' | '[' ... ']'
  Node atom() {
    const Token& t = peek();
    Node n;
    n.begin = t.begin;
    n.end = t.end;
    if (t.kind == Token::Kind::kNumber) {
      next();
      n.kind = Node::Kind::kNumber;
      n.value = t.value;
      return n;
    }
    if (t.kind == Token::Kind::kIdent) {
      next();
      if (t.text == "None") {
        n.kind = Node::Kind::kUnderscore;
        n.name = "None";
        return n;
      }
      if (is_python_keyword(t)) python_only(t);
      n.kind = Node::Kind::kName;
      n.name = t.text;
      return n;
    }
    if (t.kind == Token::Kind::kEnd) fail("unexpected end of expression", t);
    if (is("(") || is("[")) return sequence();
    if (is(")") || is("]") || is("}")) fail("unbalanced '" + t.text + "'", t);
    if (is("<") || is("::") || is("{"))
      fail("'" + t.text + "' is C++; in CuTeDSL write e.g. cute.make_layout((4, 8), stride=(1, 4))", t);
    fail("unexpected '" + t.text + "'", t);
  }

  // A tuple (a, b) or (a,), a list [a, b], or a parenthesised expression (a).
  Node sequence() {
    const Token& open = next();
    const bool list = open.text == "[";
    const char* close = list ? "]" : ")";
    Node n;
    n.kind = Node::Kind::kTuple;
    n.begin = open.begin;
    bool trailing_comma = false;
    while (!is(close)) {
      n.children.push_back(expression());
      trailing_comma = false;
      if (!is(",")) break;
      next();
      trailing_comma = true;
    }
    n.end = peek().end;
    expect(close, open);
    if (!list && n.children.size() == 1 && !trailing_comma) {  // (x) is x, as in Python
      Node x = std::move(n.children[0]);
      return x;
    }
    return n;
  }

  const std::string& text_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
};

// A hint for a DSL parse error when the text was probably C++ or CuTe's printed notation.
std::string cpp_hint(const std::string& text, const std::string& message) {
  if (message.find("C++") != std::string::npos || message.find("printed notation") != std::string::npos) return "";
  if (text.find("::") != std::string::npos || text.find("{}") != std::string::npos ||
      text.find('<') != std::string::npos)
    return " (this looks like C++ CuTe: CuTeDSL writes shapes as tuples (4, 8) and strides as stride=(1, 4))";
  if (text.find(':') != std::string::npos)
    return " (this looks like CuTe's printed notation (4,8):(1,4); in CuTeDSL: cute.make_layout((4, 8), stride=(1, "
           "4)))";
  return "";
}

}  // namespace

Node parse_dsl_expression(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw Error("empty expression", 0);
  try {
    return DslParser(text).parse();
  } catch (const Error& e) {
    throw Error(std::string("CuTeDSL: ") + e.what() + cpp_hint(text, e.what()), e.position());
  }
}

bool looks_like_dsl(const std::string& text) {
  static const char* const kRoots[] = {
      "cute", "cutlass",   "sm90_utils", "sm100_utils", "hopper_helpers", "blackwell_helpers", "utils", "nvgpu",
      "warp", "warpgroup", "tcgen05",    "cpasync",     "self",           "LayoutEnum"};
  for (size_t i = 0; i < text.size();) {
    if (!is_ident_start(text[i]) || (i > 0 && (is_ident_char(text[i - 1]) || text[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && is_ident_char(text[j])) ++j;
    const std::string word = text.substr(i, j - i);
    if (word == "None" || word == "True" || word == "False") return true;
    if (j < text.size() && text[j] == '.' && j + 1 < text.size() && is_ident_start(text[j + 1]))
      for (const char* root : kRoots)
        if (word == root) return true;
    i = j;
  }
  return false;
}

Node parse_in_syntax(const std::string& text, Syntax syntax) {
  const bool dsl = syntax == Syntax::kDsl || (syntax == Syntax::kAuto && looks_like_dsl(text));
  return dsl ? parse_dsl_expression(text) : parse_expression(text);
}

std::string dsl_hint_for_cpp_error(const std::string& text) {
  // `name=value` (not ==, <=, >=, !=) is a keyword argument; `a.b` a Python attribute
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=') continue;
    const char before = i ? text[i - 1] : ' ', after = i + 1 < text.size() ? text[i + 1] : ' ';
    if (before != '=' && before != '<' && before != '>' && before != '!' && after != '=')
      return " (keyword arguments are CuTeDSL: write cute.make_layout((4, 8), stride=(1, 4)) or pass --dsl)";
  }
  if (text.find("None") != std::string::npos) return " (None is CuTeDSL's `_`: pass --dsl, or write _ in C++)";
  return "";
}

}  // namespace cutevis
