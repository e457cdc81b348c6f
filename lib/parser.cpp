// Lexer and recursive-descent parser for the expression language (see expr.hpp).
#include <algorithm>
#include <cctype>

#include "lib/dsl.hpp"
#include "lib/expr.hpp"

namespace cutevis {

namespace {

constexpr int kMaxNesting = 200;

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

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

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
    Token t;
    t.begin = i;
    if (c == '_' && i + 2 < s.size() && s[i + 1] == '-' && std::isdigit(static_cast<unsigned char>(s[i + 2]))) {
      // CuTe prints a negative static int as `_-1`: lex it as `-1`
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
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[j] - '0', &v))
          throw Error("integer too large (the limit is 2^63-1)", static_cast<int64_t>(i));
        ++j;
      }
      t.kind = Token::Kind::kNumber;
      t.value = v;
      t.end = j;
      i = j;
    } else if (c == '_' && (i + 1 >= s.size() || !is_ident_char(s[i + 1]))) {
      t.kind = Token::Kind::kUnderscore;
      t.text = "_";
      t.end = ++i;
    } else if (is_ident_start(static_cast<char>(c))) {
      size_t j = i;
      while (j < s.size() && is_ident_char(s[j])) ++j;
      t.kind = Token::Kind::kIdent;
      t.text = s.substr(i, j - i);
      t.end = j;
      i = j;
    } else if (std::string("()[]{}<>,:@-").find(static_cast<char>(c)) != std::string::npos) {
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
    Node n = composed();
    if (peek().kind != Token::Kind::kEnd) {
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
  [[noreturn]] void fail(const std::string& msg, const Token& at) const { throw Error(msg, static_cast<int64_t>(at.begin)); }

  void expect(const char* p, const Token& opener) {
    if (is_punct(p)) {
      next();
      return;
    }
    if (peek().kind == Token::Kind::kEnd)
      fail(std::string("unbalanced '") + opener.text + "': expected '" + p + "' before the end", opener);
    fail(std::string("expected '") + p + "', got '" + (peek().text.empty() ? text_.substr(peek().begin, 1) : peek().text) + "'", peek());
  }

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxNesting) p.fail("expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)", p.peek());
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

  // layout := primary (':' primary)?
  Node layout_expr() {
    Node shape = primary();
    if (!is_punct(":")) return shape;
    next();
    Node stride = primary();
    Node n;
    n.kind = Node::Kind::kLayout;
    n.begin = shape.begin;
    n.end = stride.end;
    n.children.push_back(std::move(shape));
    n.children.push_back(std::move(stride));
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
    n.end = num.end;
    if (text_[num.begin] == '_' && is_punct("{") && is_punct("}", 1)) {  // _4{} is the value of the type _4
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
      case Token::Kind::kNumber:
        return number();
      case Token::Kind::kUnderscore: {
        next();
        Node n;
        n.kind = Node::Kind::kUnderscore;
        n.begin = t.begin;
        n.end = t.end;
        return n;
      }
      case Token::Kind::kIdent:
        return name();
      case Token::Kind::kEnd:
        fail("unexpected end of expression", t);
      case Token::Kind::kPunct:
        break;
    }
    if (is_punct("-")) return number();
    if (is_punct("(")) {
      const Token& open = next();
      Node n;
      n.kind = Node::Kind::kTuple;
      n.begin = open.begin;
      if (!is_punct(")")) {
        n.children.push_back(composed());
        while (is_punct(",")) {
          next();
          n.children.push_back(composed());
        }
      }
      n.end = peek().end;
      expect(")", open);
      return n;
    }
    if (is_punct(")") || is_punct("]") || is_punct("}") || is_punct(">")) fail("unbalanced '" + t.text + "'", t);
    fail("unexpected '" + t.text + "'", t);
  }

  // ident(::ident)* [<targs>] [(args) | {args}]   and smem_ptr[16b](unset)
  Node name() {
    Node n;
    n.kind = Node::Kind::kName;
    n.begin = peek().begin;
    n.name = next().text;
    n.end = toks_[pos_ - 1].end;
    if (n.name == "cute" && is_punct(":") && is_punct(":", 1) && peek(2).kind == Token::Kind::kNumber && text_[peek(2).begin] == '_') {
      next();  // cute::_4 is the static int _4
      next();
      return number();
    }
    while (is_punct(":") && is_punct(":", 1) && peek(2).kind == Token::Kind::kIdent) {
      next();
      next();
      n.name += "::" + next().text;
      n.end = toks_[pos_ - 1].end;
    }
    if (n.name == "smem_ptr" && is_punct("[")) return smem_flag(n);
    if (is_punct("<")) {
      const Token& open = next();
      n.has_template_args = true;
      if (!is_punct(">")) {
        n.template_args.push_back(composed());
        while (is_punct(",")) {
          next();
          n.template_args.push_back(composed());
        }
      }
      n.end = peek().end;
      expect(">", open);
    }
    if (is_punct("(") || is_punct("{")) {
      const Token& open = next();
      const char* close = open.text == "(" ? ")" : "}";
      n.call = open.text == "(" ? Node::Call::kParen : Node::Call::kBrace;
      if (!is_punct(close)) {
        n.args.push_back(composed());
        while (is_punct(",")) {
          next();
          n.args.push_back(composed());
        }
      }
      n.end = peek().end;
      expect(close, open);
    }
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
};

}  // namespace

Node parse_expression(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw Error("empty expression", 0);
  try {
    return Parser(text).parse();
  } catch (const Error& e) {  // a CuTeDSL spelling in C++: say so (lib/dsl_parser.cpp)
    throw Error(e.what() + dsl_hint_for_cpp_error(text), e.position());
  }
}

}  // namespace cutevis
