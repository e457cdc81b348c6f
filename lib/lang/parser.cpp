// Lexer and recursive-descent parser for the expression language (see expr.hpp).
#include <algorithm>
#include <cctype>
#include <map>
#include <memory>

#include "lib/lang/dsl.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis {

namespace {

// Levels of nesting a user can write: each level, and the innermost term, is three parser
// frames (composed(), cond() and primary()), so the frame guard below allows
// kFramesPerLevel * (kMaxNesting + 1).
constexpr int kMaxNesting = 100;
constexpr int kFramesPerLevel = 3;

struct Token {
  enum class Kind { kNumber, kIdent, kUnderscore, kPunct, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;  // identifier text or the punctuation character
  int64_t value = 0;
  size_t begin = 0, end = 0;
};

// At most one line and 40 bytes of `s` from `pos`, to quote in a one-line message.
std::string excerpt(const std::string& s, size_t pos) {
  size_t end = std::min(s.find_first_of("\r\n", pos), pos + 40);
  return s.substr(pos, end - pos) + (end < s.size() ? "..." : "");
}

// Int<N>, C<N>: CuTe's static integers written as types
bool is_static_int_template(const std::string& name) {
  return name == "Int" || name == "C" || name == "cute::Int" || name == "cute::C" || name == "integral_constant" ||
         name == "cute::integral_constant";
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `>>` and `>=` are two tokens (they may close template argument lists); these are one.
bool is_two_char_operator(char a, char b) {
  static const char* const ops[] = {"<<", "<=", "==", "!=", "&&", "||"};
  for (const char* op : ops)
    if (a == op[0] && b == op[1]) return true;
  return false;
}

// CuTe's template names: `Name<` after one of these always opens template arguments
// (a failed parse is an error there, not a comparison `Name < x`).
bool is_known_template(const std::string& name) {
  static const char* const names[] = {"Layout",
                                      "Shape",
                                      "Stride",
                                      "Step",
                                      "Coord",
                                      "Tile",
                                      "Int",
                                      "C",
                                      "Swizzle",
                                      "Sw",
                                      "S",
                                      "ComposedLayout",
                                      "Copy_Atom",
                                      "MMA_Atom",
                                      "TiledMMA",
                                      "TiledCopy",
                                      "get",
                                      "structured_binding",
                                      "size",
                                      "rank",
                                      "depth",
                                      "shape",
                                      "stride",
                                      "take",
                                      "select",
                                      "group",
                                      "upcast",
                                      "downcast",
                                      "recast_layout",
                                      "conditional_t",
                                      "sizeof_bits",
                                      "sizeof_bits_v",
                                      "static_cast",
                                      "reinterpret_cast",
                                      "const_cast",
                                      "recast_ptr",
                                      "smem_ptr_flag_bits",
                                      "tuple"};
  std::string base = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
  for (const char* n : names)
    if (base == n) return true;
  return base.rfind("SM", 0) == 0 || base.rfind("Layout_", 0) == 0 || base.rfind("make_", 0) == 0;
}

// Where a floating literal whose digits s[i, j) begin ends (1.5, 1e30f, 2.f, 1e-3): past j, or j if none.
size_t float_literal_end(const std::string& s, size_t i, size_t j) {
  auto digits = [&](size_t k) {
    while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
    return k;
  };
  size_t k = j;
  if (k < s.size() && s[k] == '.') k = digits(k + 1);
  if (k < s.size() && (s[k] == 'e' || s[k] == 'E')) {
    size_t e = k + 1;
    if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
    if (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) k = digits(e);
  }
  if (k == j || k == i) return j;
  while (k < s.size() && (s[k] == 'f' || s[k] == 'F' || s[k] == 'l' || s[k] == 'L')) ++k;
  return k < s.size() && is_ident_char(s[k]) ? j : k;
}

std::vector<Token> lex(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) throw Error("non-ASCII character in expression", static_cast<int64_t>(i));
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) {  // C++ comments are space
      size_t close = s[i + 1] == '/' ? s.find('\n', i) : s.find("*/", i + 2);
      if (close == std::string::npos && s[i + 1] == '*')
        throw Error("unterminated /* comment", static_cast<int64_t>(i));
      i = close == std::string::npos ? s.size() : close + (s[i + 1] == '/' ? 1 : 2);
      continue;
    }
    Token t;
    t.begin = i;
    if (c == '_' && i + 2 < s.size() && (s[i + 1] == '-' || s[i + 1] == 'm') &&
        std::isdigit(static_cast<unsigned char>(s[i + 2])) && [&] {
          size_t j = i + 2;  // CuTe's `_m1` (Int<-1>) is one name, `_m1x` another
          while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
          return s[i + 1] == '-' || j >= s.size() || !is_ident_char(s[j]);
        }()) {
      // CuTe prints a negative static int as `_-1` and names it `_m1`: lex both as `-1`
      t.kind = Token::Kind::kPunct;
      t.text = "-";
      t.end = i += 2;
      out.push_back(std::move(t));
      continue;
    }
    if (std::isdigit(c) || (c == '_' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) &&
                            [&] {  // `_4` is a static int, `_4x` would be an identifier
                              size_t j = i + 1;
                              while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
                              return j >= s.size() || !is_ident_char(s[j]);
                            }())) {
      size_t j = (c == '_') ? i + 1 : i;
      int64_t v = 0;
      int base = (c == '0' && i + 2 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
                  std::isxdigit(static_cast<unsigned char>(s[i + 2])))
                     ? 16
                     : 10;
      if (base == 16) j += 2;
      while (j < s.size() && (base == 16 ? std::isxdigit(static_cast<unsigned char>(s[j]))
                                         : std::isdigit(static_cast<unsigned char>(s[j])))) {
        int digit = std::isdigit(static_cast<unsigned char>(s[j]))
                        ? s[j] - '0'
                        : std::tolower(static_cast<unsigned char>(s[j])) - 'a' + 10;
        if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, digit, &v))
          throw Error("integer too large (the limit is 2^63-1)", static_cast<int64_t>(i));
        ++j;
      }
      if (size_t end = float_literal_end(s, i, j); base == 10 && c != '_' && end > j) {
        t.kind = Token::Kind::kIdent;  // 1e30f, 0.5: a name the evaluator keeps as written (builtins.cpp)
        t.text = s.substr(i, end - i);
        t.end = i = end;
        out.push_back(std::move(t));
        continue;
      }
      size_t suffix = j;  // C++ literal suffixes: 128u, 64ull, 4L
      while (suffix < s.size() && std::string("uUlL").find(s[suffix]) != std::string::npos) ++suffix;
      if (suffix > j && (suffix >= s.size() || !is_ident_char(s[suffix]))) j = suffix;
      t.kind = Token::Kind::kNumber;
      t.value = v;
      t.end = j;
      i = j;
    } else if (c == '\'' && i + 2 < s.size() && s[i + 1] != '\\' && s[i + 1] != '\'' && s[i + 2] == '\'') {
      // a character literal ('N'): C++'s char, an integer (its code), as `transA == 'N'` compares it
      t.kind = Token::Kind::kNumber;
      t.value = static_cast<unsigned char>(s[i + 1]);
      t.end = i += 3;
    } else if (c == '_' && (i + 1 >= s.size() || !is_ident_char(s[i + 1]))) {
      t.kind = Token::Kind::kUnderscore;
      t.text = "_";
      t.end = ++i;
    } else if (is_ident_start(static_cast<char>(c))) {
      size_t j = i;
      while (j < s.size() && is_ident_char(s[j])) ++j;
      // `cutevis names` calls a second overload's scope `f#2`: `f#2::sA` names its sA
      if (j + 3 < s.size() && s[j] == '#' && std::isdigit(static_cast<unsigned char>(s[j + 1]))) {
        size_t k = j + 1;
        while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
        if (s.compare(k, 2, "::") == 0) j = k;
      }
      t.kind = Token::Kind::kIdent;
      t.text = s.substr(i, j - i);
      // C++'s alternative tokens (`not cute::is_void_v<ElementC>`, `a and b` in CUTLASS's epilogues)
      if (t.text == "not" || t.text == "and" || t.text == "or") {
        t.kind = Token::Kind::kPunct;
        t.text = t.text == "not" ? "!" : t.text == "and" ? "&&" : "||";
      }
      t.end = j;
      i = j;
    } else if (i + 1 < s.size() && is_two_char_operator(s[i], s[i + 1])) {
      t.kind = Token::Kind::kPunct;
      t.text = s.substr(i, 2);
      t.end = i += 2;
    } else if (std::string("()[]{}<>,:@-+*/%?!~&|^=.;").find(static_cast<char>(c)) != std::string::npos) {
      t.kind = Token::Kind::kPunct;
      t.text = std::string(1, static_cast<char>(c));
      t.end = ++i;
    } else {
      throw Error(std::string("unexpected character '") + static_cast<char>(c) + "'", static_cast<int64_t>(i));
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.kind = Token::Kind::kEnd;
  end.begin = end.end = s.size();
  out.push_back(end);
  return out;
}

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text), toks_(lex(text)) {}

  Node parse() {
    Node n;
    try {
      n = composed();
    } catch (const Error&) {
      if (pending_template_error_) throw *pending_template_error_;  // `X<...` was not a comparison either
      throw;
    }
    while (is_punct(";") && peek(1).kind == Token::Kind::kEnd) next();  // C++ as written: a trailing `;`
    if (is_punct(";"))
      fail("unexpected character ';' (several statements are a snippet: give them to cutevis eval, layout, ...)",
           peek());
    if (peek().kind != Token::Kind::kEnd) {
      if (pending_template_error_) throw *pending_template_error_;
      if (is_punct(")") || is_punct("]") || is_punct("}") || is_punct(">"))
        fail("unbalanced '" + peek().text + "'", peek());
      fail("unexpected trailing text '" + excerpt(text_, peek().begin) + "'", peek());
    }
    return n;
  }

 private:
  const Token& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Token& next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool is_punct(const char* p, size_t k = 0) const { return peek(k).kind == Token::Kind::kPunct && peek(k).text == p; }
  [[noreturn]] void fail(const std::string& msg, const Token& at) const {
    throw Error(msg, static_cast<int64_t>(at.begin));
  }

  void expect(const char* p, const Token& opener) {
    if (is_punct(p)) {
      next();
      return;
    }
    if (peek().kind == Token::Kind::kEnd)
      fail(std::string("unbalanced '") + opener.text + "': expected '" + p + "' before the end", opener);
    fail(std::string("expected '") + p + "', got '" +
             (peek().text.empty() ? text_.substr(peek().begin, 1) : peek().text) + "'",
         peek());
  }

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > kFramesPerLevel * (kMaxNesting + 1))
        p.fail("expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)", p.peek());
    }
    ~DepthGuard() { --p.depth_; }
  };

  // composed := layout ('o' layout)*
  Node composed() {
    DepthGuard guard(*this);
    Node first = layout_expr();
    if (!(peek().kind == Token::Kind::kIdent && peek().text == "o")) return first;
    Node n;
    n.kind = Node::Kind::kComposed;
    n.begin = first.begin;
    n.children.push_back(std::move(first));
    while (peek().kind == Token::Kind::kIdent && peek().text == "o") {
      // A o O o B o ... nests one ComposedLayout per `o o`: bound it like parentheses
      if (n.children.size() > static_cast<size_t>(2 * kMaxNesting))
        fail("composed layout nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)", peek());
      next();
      n.children.push_back(layout_expr());
    }
    n.end = n.children.back().end;
    return n;
  }

  // layout := cond (':' cond)?
  Node layout_expr() {
    Node shape = cond();
    if (!is_punct(":") || is_punct(":", 1)) return shape;
    next();
    Node stride = cond();
    Node n;
    n.kind = Node::Kind::kLayout;
    n.begin = shape.begin;
    n.end = stride.end;
    n.children.push_back(std::move(shape));
    n.children.push_back(std::move(stride));
    return n;
  }

  Node op_node(const std::string& op, std::vector<Node> operands) {
    Node n;
    n.kind = Node::Kind::kOperator;
    n.name = op;
    n.begin = operands.front().begin;
    n.end = operands.back().end;
    n.children = std::move(operands);
    return n;
  }

  // cond := binary(0) ('?' cond ':' cond)?      C++'s conditional operator
  Node cond() {
    DepthGuard guard(*this);
    Node c = binary(0);
    if (!is_punct("?")) return c;
    const Token& q = next();
    bool saved = no_greater_;
    no_greater_ = false;
    Node yes = cond();
    no_greater_ = saved;
    if (!is_punct(":")) fail("expected ':' of '?:'", peek().kind == Token::Kind::kEnd ? q : peek());
    next();
    Node no = cond();
    Node n = op_node("?:", {std::move(c), std::move(yes), std::move(no)});
    return n;
  }

  // After `*` or `&` at token k-1: the end of a pointer/reference declarator (`T*>`, `T const*,`,
  // `(T*)x`), never arithmetic.
  bool declarator_follows(size_t k) const {
    const Token& t = peek(k);
    if (t.kind == Token::Kind::kIdent) return t.text == "const" || t.text == "volatile";
    if (t.kind != Token::Kind::kPunct) return false;
    if (t.text == "*" || t.text == "&") return declarator_follows(k + 1);
    return t.text == ">" || t.text == "," || t.text == ")";
  }
  // Skips `const`, `volatile`, `*`, `&` after a type; true when it was a pointer or reference.
  bool skip_declarator() {
    bool pointer = false;
    while ((peek().kind == Token::Kind::kIdent && (peek().text == "const" || peek().text == "volatile")) ||
           ((is_punct("*") || is_punct("&")) && declarator_follows(1))) {
      pointer = pointer || peek().kind == Token::Kind::kPunct;
      next();
    }
    return pointer;
  }

  // The binary operator at the cursor and its level (C++ precedence, lowest first): ||, &&,
  // |, ^, &, == !=, < > <= >=, << >>, + -, * / %; "" if none.  `>` closes a template
  // argument list unless parenthesized (`>=` does not: conditional_t<D >= 128, A, B>); `>>`
  // and `>=` are two adjacent tokens.
  std::string binary_operator(int& level) const {
    const Token& t = peek();
    if (t.kind != Token::Kind::kPunct) return "";
    auto adjacent = [&](const char* second) { return is_punct(second, 1) && peek(1).begin == t.end; };
    static const std::map<std::string, int> levels = {{"||", 0}, {"&&", 1}, {"|", 2}, {"^", 3},  {"&", 4},  {"==", 5},
                                                      {"!=", 5}, {"<", 6},  {">", 6}, {"<=", 6}, {">=", 6}, {"<<", 7},
                                                      {">>", 7}, {"+", 8},  {"-", 8}, {"*", 9},  {"/", 9},  {"%", 9}};
    std::string op = t.text;
    if ((op == "*" || op == "&") && declarator_follows(1)) return "";  // T const*, T*: a pointer type
    if (op == ">") {  // (`>=` is one token in C++: it compares inside template arguments too)
      if (adjacent("=")) op = ">=";
      else if (no_greater_) return "";
      else if (adjacent(">")) op = ">>";
    }
    auto it = levels.find(op);
    if (it == levels.end()) return "";
    level = it->second;
    return op;
  }

  // The operators of level >= `level`, left-associative (precedence climbing: one frame per
  // level actually written, not one per level of the grammar).
  Node binary(int level) {
    Node lhs = unary();
    int chain = 0;
    int op_level = 0;
    for (std::string op = binary_operator(op_level); !op.empty() && op_level >= level; op = binary_operator(op_level)) {
      // a left-nested chain: bound it as nesting (the evaluator recurses on it)
      if (++chain > 5 * kMaxNesting)
        fail("expression nested too deeply (a chain of more than " + std::to_string(5 * kMaxNesting) + " operators)",
             peek());
      next();
      if (op == ">>" || op == ">=") next();
      Node rhs = binary(op_level + 1);
      lhs = op_node(op, {std::move(lhs), std::move(rhs)});
    }
    return lhs;
  }

  // unary := ('-' | '+' | '!' | '~') unary | postfix      (-4 stays the number -4)
  Node unary() {
    if (is_punct("-") && (peek(1).kind == Token::Kind::kNumber || peek(1).kind == Token::Kind::kEnd))
      return postfix(number());
    for (const char* op : {"-", "+", "!", "~"}) {
      if (!is_punct(op)) continue;
      DepthGuard guard(*this);
      const Token& t = next();
      Node operand = unary();
      Node n = op_node(std::string(op) == "-" ? "neg" : op, {std::move(operand)});
      n.begin = t.begin;
      return n;
    }
    if (is_punct("*") && peek(1).kind == Token::Kind::kIdent) {
      // *reinterpret_cast<SharedStorage*>(smem): the object at a pointer a cast gave its class, SharedStorage{}
      // (a kernel's shared storage, whose member functions build its smem tensors); another * is unexpected
      const Token& star = next();
      Node operand = unary();
      if (operand.kind != Node::Kind::kName || operand.name != "recast_ptr" || operand.template_args.size() != 1)
        fail("unexpected '*'", star);
      Node object = operand.template_args[0];
      object.call = Node::Call::kBrace;
      object.args.clear();
      object.begin = star.begin;
      object.end = operand.end;
      return postfix(std::move(object));
    }
    return postfix(primary());
  }

  // postfix := primary ('.' name | '::' name | '{}' | '()')*
  //   x.shape() is shape(x); sizeof_bits<T>::value and decltype(E)::type name a member.
  Node postfix(Node n) {
    while (true) {
      if (is_punct(".") && peek(1).kind == Token::Kind::kIdent) {
        next();
        if (peek().text == "template") next();
        Node call = name();
        if (call.call == Node::Call::kNone) {
          // x.member: a run-time value, an error where it is evaluated (cpp_syntax.cpp's eval_operator),
          // but a pointer only named is fine: make_smem_ptr(smem.A.begin())
          Node member = op_node("." + call.name, {std::move(n)});
          member.end = call.end;
          n = std::move(member);
          continue;
        }
        call.begin = n.begin;
        call.args.insert(call.args.begin(), std::move(n));
        n = std::move(call);
      } else if (is_punct(":") && is_punct(":", 1) && peek(2).kind == Token::Kind::kIdent &&
                 (n.kind != Node::Kind::kName || n.has_template_args || n.call != Node::Call::kNone)) {
        next();
        next();
        if (peek().text == "template") next();
        Node m;
        m.kind = Node::Kind::kScope;
        m.name = next().text;
        m.begin = n.begin;
        m.end = toks_[pos_ - 1].end;
        m.children.push_back(std::move(n));
        if (is_punct("(") && !is_punct(")", 1)) {  // Cfg<32>::tile_atom_to_shape_SFA(shape): a static member call
          const Token& open = next();
          m.call = Node::Call::kParen;
          m.args = comma_list(open, ")", m.end);
        }  // (Cfg<32>::deduce_layoutSFA() with no arguments: the value itself, below)
        n = std::move(m);
      } else if (is_punct("(") && n.kind == Node::Kind::kName && n.call != Node::Call::kNone) {
        n = call_operator(std::move(n));  // SmemLayout{}(_,_,0), local_tile(...)(_,_,k): lib/lang/tensor.cpp
      } else if (n.kind != Node::Kind::kName && (is_punct("{") || is_punct("(")) &&
                 is_punct(is_punct("{") ? "}" : ")", 1) &&
                 (n.kind == Node::Kind::kScope || n.kind == Node::Kind::kDecltype)) {
        next();  // decltype(E){} and X::type{} are the value itself
        n.end = next().end;
      } else {
        return n;
      }
    }
  }

  // `a, b, ...` after `open`, up to `close`: the items; `end` is set past the closing token.
  std::vector<Node> comma_list(const Token& open, const char* close, size_t& end) {
    std::vector<Node> items;
    bool saved = no_greater_;
    no_greater_ = false;
    if (!is_punct(close)) {
      items.push_back(composed());
      while (is_punct(",")) {
        next();
        items.push_back(composed());
      }
    }
    no_greater_ = saved;
    end = peek().end;
    expect(close, open);
    return items;
  }

  // callee(args): the call operator of a value, a node named "operator()" with the callee as its child.
  Node call_operator(Node callee) {
    DepthGuard guard(*this);
    Node n;
    n.kind = Node::Kind::kName;
    n.name = "operator()";
    n.call = Node::Call::kParen;
    n.begin = callee.begin;
    const Token& open = next();
    n.args = comma_list(open, ")", n.end);
    n.children.push_back(std::move(callee));
    return n;
  }

  Node number() {
    Node n;
    n.kind = Node::Kind::kNumber;
    const Token& t = peek();
    n.begin = t.begin;
    bool negative = false;
    if (is_punct("-")) {
      negative = true;
      next();
      if (peek().kind != Token::Kind::kNumber) fail("expected a number after '-'", peek());
    }
    const Token& num = next();
    n.value = negative ? -num.value : num.value;
    n.underscore = text_[n.begin] == '_' || text_[num.begin] == '_';  // _4, _-1, -_4
    writes_static_ = writes_static_ || n.underscore;
    n.end = num.end;
    if ((text_[num.begin] == '_' || (negative && text_[n.begin] == '_')) && is_punct("{") &&
        is_punct("}", 1)) {  // _4{} is the value of the type _4 (and _m1{} of _m1)
      next();
      n.end = next().end;
    }
    while (is_punct("@")) {
      const Token& at = next();
      if (peek().kind != Token::Kind::kNumber) fail("expected a mode index after '@'", at);
      const Token& m = next();
      if (m.value > 255) fail("basis mode index too large", m);
      n.basis.push_back(static_cast<int>(m.value));
      n.end = m.end;
    }
    return n;
  }

  Node primary() {
    DepthGuard guard(*this);
    const Token& t = peek();
    switch (t.kind) {
      case Token::Kind::kNumber: return number();
      case Token::Kind::kUnderscore: {
        next();
        Node n;
        n.kind = Node::Kind::kUnderscore;
        n.begin = t.begin;
        n.end = t.end;
        return n;
      }
      case Token::Kind::kIdent: return name();
      case Token::Kind::kEnd: fail("unexpected end of expression", t);
      case Token::Kind::kPunct: break;
    }
    if (is_punct("-")) return number();
    if (is_punct(":") && is_punct(":", 1) && peek(2).kind == Token::Kind::kIdent && peek(1).begin == peek().end) {
      next();  // ::cutlass::... names from the global namespace
      next();
      return name();
    }
    if (is_punct("(") && c_style_pointer_cast()) return pointer_cast();
    if (is_punct("(")) {
      const Token& open = next();
      Node n;
      n.kind = Node::Kind::kTuple;
      n.begin = open.begin;
      n.children = comma_list(open, ")", n.end);
      // (x) is x inside C++ arithmetic: `(bM + 4) * 2`; a one-element tuple stays a tuple
      // in CuTe's printed notation ((4):(1) is a rank-1 layout)
      if (n.children.size() == 1 &&
          (n.children[0].kind == Node::Kind::kOperator || n.children[0].kind == Node::Kind::kName ||
           n.children[0].kind == Node::Kind::kDecltype || n.children[0].kind == Node::Kind::kScope))
        return std::move(n.children[0]);
      return n;
    }
    if (is_punct(")") || is_punct("]") || is_punct("}") || is_punct(">")) fail("unbalanced '" + t.text + "'", t);
    fail("unexpected '" + t.text + "'", t);
  }

  // `(T*)x`, `(T const*)nullptr`, `(const T*)p`: ident(::ident)* with a `*` or `&` before `)`.
  bool c_style_pointer_cast() const {
    size_t k = 1;
    while (peek(k).kind == Token::Kind::kIdent && (peek(k).text == "const" || peek(k).text == "volatile")) ++k;
    if (peek(k).kind != Token::Kind::kIdent) return false;
    ++k;
    while (is_punct(":", k) && is_punct(":", k + 1) && peek(k + 2).kind == Token::Kind::kIdent) k += 3;
    bool pointer = false;
    for (;; ++k) {
      if (peek(k).kind == Token::Kind::kIdent && (peek(k).text == "const" || peek(k).text == "volatile")) continue;
      if (is_punct("*", k) || is_punct("&", k)) {
        pointer = true;
        continue;
      }
      break;
    }
    return pointer && is_punct(")", k);
  }
  Node pointer_cast() {
    const Token& open = next();
    Node n;
    n.kind = Node::Kind::kName;
    n.name = "recast_ptr";
    n.begin = open.begin;
    n.has_template_args = true;
    n.template_args.push_back(name());
    skip_declarator();
    expect(")", open);
    DepthGuard guard(*this);
    n.args.push_back(unary());
    n.call = Node::Call::kParen;
    n.end = n.args.back().end;
    return n;
  }

  // ident(::ident)* [<targs>] [(args) | {args}]   and smem_ptr[16b](unset)
  Node name() {
    // C++ keywords that only disambiguate: typename X::type, X::template foo<...>, struct X
    while (peek().kind == Token::Kind::kIdent &&
           (peek().text == "typename" || peek().text == "template" || peek().text == "struct" ||
            peek().text == "class" || peek().text == "const" || peek().text == "constexpr") &&
           peek(1).kind == Token::Kind::kIdent)
      next();
    if (peek().text == "decltype" && is_punct("(", 1)) return decltype_expr();
    Node n;
    n.kind = Node::Kind::kName;
    n.begin = peek().begin;
    n.name = next().text;
    n.end = toks_[pos_ - 1].end;
    if (n.name == "cute" && is_punct(":") && is_punct(":", 1) && peek(2).kind == Token::Kind::kNumber &&
        text_[peek(2).begin] == '_') {
      next();  // cute::_4 is the static int _4
      next();
      return number();
    }
    while (is_punct(":") && is_punct(":", 1) && peek(2).kind == Token::Kind::kIdent) {
      next();
      next();
      if (peek().text == "template" && peek(1).kind == Token::Kind::kIdent) next();
      n.name += "::" + next().text;
      n.end = toks_[pos_ - 1].end;
    }
    if (n.name == "smem_ptr" && is_punct("[")) return smem_flag(n);
    pointer_targ_ = false;
    if (is_punct("<") && !template_args(n)) return n;  // `bM < 128`: a comparison
    if (n.has_template_args && is_static_int_template(n.name)) writes_static_ = true;
    const bool pointer_cast = pointer_targ_ && (n.name == "static_cast" || n.name == "reinterpret_cast" ||
                                                n.name == "const_cast" || n.name == "std::launder");
    if (is_punct("(") || is_punct("{")) {
      const Token& open = next();
      const char* close = open.text == "(" ? ")" : "}";
      n.call = open.text == "(" ? Node::Call::kParen : Node::Call::kBrace;
      n.args = comma_list(open, close, n.end);
    }
    if (pointer_cast && n.call == Node::Call::kParen)
      n.name = "recast_ptr";  // static_cast<T const*>(p): CuTe's recast_ptr<T>(p)
    return n;
  }

  // <targs> after a name.  C++ decides `a < b` versus `a<b>` by whether `a` names a template;
  // here: CuTe's templates always take arguments, any other name only when the arguments
  // parse and are followed by something a template-id can be followed by.
  bool template_args(Node& n) {
    size_t start = pos_;
    int depth = depth_;
    bool saved = no_greater_;
    const Token& open = peek();
    bool known = is_known_template(n.name);
    bool tried_before = std::find(failed_templates_.begin(), failed_templates_.end(), start) != failed_templates_.end();
    if (!known && tried_before) return false;
    try {
      next();
      no_greater_ = true;
      std::vector<Node> targs;
      bool pointer = false;
      if (!is_punct(">")) {
        targs.push_back(composed());
        pointer = skip_declarator();
        while (is_punct(",")) {
          next();
          targs.push_back(composed());
          pointer = skip_declarator() || pointer;
        }
      }
      size_t end = peek().end;
      expect(">", open);
      no_greater_ = saved;
      const Token& follower = peek();
      if (!known &&
          (follower.kind == Token::Kind::kNumber || (follower.kind == Token::Kind::kIdent && follower.text != "o")))
        throw Error("not a template argument list", static_cast<int64_t>(open.begin));
      n.has_template_args = true;
      n.template_args = std::move(targs);
      n.end = end;
      pointer_targ_ = pointer && n.template_args.size() == 1;
      return true;
    } catch (const Error& e) {
      no_greater_ = saved;
      if (known) throw;
      if (!pending_template_error_) pending_template_error_ = std::make_unique<Error>(e);
      failed_templates_.push_back(start);
      pos_ = start;
      depth_ = depth;
      return false;
    }
  }

  // decltype(E) is E: a runtime engine has no types apart from values
  Node decltype_expr() {
    const Token& kw = next();
    const Token& open = next();
    bool saved = no_greater_;
    no_greater_ = false;
    Node inner = composed();
    no_greater_ = saved;
    Node n;
    n.kind = Node::Kind::kDecltype;
    n.begin = kw.begin;
    n.end = peek().end;
    expect(")", open);
    n.children.push_back(std::move(inner));
    return n;
  }

  Node smem_flag(Node n) {
    const Token& open = next();  // [
    if (peek().kind != Token::Kind::kNumber) fail("expected the element width in smem_ptr[Nb]", peek());
    int64_t bits = next().value;
    if (!(peek().kind == Token::Kind::kIdent && peek().text == "b")) fail("expected 'b' in smem_ptr[Nb]", peek());
    next();
    expect("]", open);
    const Token& paren = peek();
    expect("(", paren);
    if (!(peek().kind == Token::Kind::kIdent && peek().text == "unset")) fail("expected smem_ptr[Nb](unset)", peek());
    next();
    n.end = peek().end;
    expect(")", paren);
    n.kind = Node::Kind::kSmemFlag;
    n.value = bits;
    return n;
  }

  const std::string& text_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool no_greater_ = false;                        // inside <...>: `>` closes, it does not compare
  std::vector<size_t> failed_templates_;           // `<` tokens already found not to open template arguments
  bool pointer_targ_ = false;                      // the last template argument list was one pointer type (T const*)
  std::unique_ptr<Error> pending_template_error_;  // why the first of them failed

 public:
  bool writes_static_ = false;  // a `_N` or Int<N> was parsed (see writes_static_integer)
};

}  // namespace

bool writes_static_integer(const Node& n) {
  if (n.kind == Node::Kind::kNumber && n.underscore) return true;
  if (n.kind == Node::Kind::kName && n.has_template_args && is_static_int_template(n.name)) return true;
  for (const auto* children : {&n.children, &n.args, &n.template_args})
    for (const auto& c : *children)
      if (writes_static_integer(c)) return true;
  return false;
}

Node parse_expression(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw Error("empty expression", 0);
  try {
    return Parser(text).parse();
  } catch (const Error& e) {  // a CuTeDSL spelling in C++: say so (lib/lang/dsl_parser.cpp)
    throw Error(e.what() + dsl_hint_for_cpp_error(text), e.position());
  }
}

Node parse_expression(const std::string& text, bool& writes_static) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw Error("empty expression", 0);
  try {
    Parser p(text);
    Node n = p.parse();
    writes_static = p.writes_static_;
    return n;
  } catch (const Error& e) {  // a CuTeDSL spelling in C++: say so (lib/lang/dsl_parser.cpp)
    throw Error(e.what() + dsl_hint_for_cpp_error(text), e.position());
  }
}

}  // namespace cutevis
