// cutevis — the expression language: CuTe's printed notation and CuTe's C++
// construction syntax, both accepted everywhere.
//
//   ((4,2),4):((8,4),1)                 S<3,4,3> o 0 o (8,64):(64,1)
//   composition((4,8):(1,4), (2,2):(1,2))
//   Layout<Shape<_4,_8>, Stride<_1,_4>>{}
//   make_layout(make_shape(Int<4>{},8), LayoutRight{})
//
// parse() builds an AST; an Evaluator turns it into a Value.  Functions and
// names live in a registry: lib registers the layout algebra (builtins.cpp), and
// other modules (the atom catalogue) add their own names and resolvers, so
// lib knows nothing of atoms.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/int_tuple.hpp"
#include "lib/layout.hpp"
#include "lib/swizzle.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

// --- AST ------------------------------------------------------------------------------
struct Node {
  enum class Kind {
    kNumber,      // 4, _4, -3, 1@0, _1@1@0
    kUnderscore,  // _
    kTuple,       // (a, b, ...)
    kLayout,      // shape:stride  (children[0], children[1])
    kComposed,    // a o b o c ...
    kName,        // ident[::ident]*[<targs>][(args) | {args}]
    kSmemFlag,    // smem_ptr[16b](unset)
    kOperator,    // C++ operators: name is "+", "<<", "neg", "!", "?:", ...; children the operands
    kScope,       // children[0]::name, e.g. sizeof_bits<T>::value (lib/lang/cpp_syntax.cpp)
    kDecltype,    // decltype(children[0])
  };
  enum class Call { kNone, kParen, kBrace };

  Kind kind = Kind::kNumber;
  int64_t value = 0;
  bool underscore = false;  // a number written `_4` (or `cute::_4`): CuTe's static Int<4>
  std::vector<int> basis;   // for numbers with @i@j: printed order (innermost first)
  std::string name;
  bool has_template_args = false;
  std::vector<Node> template_args;
  Call call = Call::kNone;
  std::vector<Node> args;
  std::vector<Node> children;
  size_t begin = 0, end = 0;  // byte span in the source text
  std::string keyword;        // CuTeDSL: this argument was written `keyword=value` (lib/lang/dsl.hpp)
};

// Which front end reads an expression: C++ and CuTe's printed notation, CuTeDSL (Python),
// or whichever the text is spelled in (looks_like_dsl, lib/lang/dsl.hpp).
enum class Syntax { kAuto, kCpp, kDsl };

// Parse a whole expression; throws Error with the position of the bad spot.
Node parse_expression(const std::string& text);
// The same, saying whether it writes a static integer (as writes_static_integer(root)).
Node parse_expression(const std::string& text, bool& writes_static);

// --- values ------------------------------------------------------------------------------
// An object of another module (a TiledMMA, a copy atom, ...), opaque to lib.
class Object {
 public:
  virtual ~Object() = default;
  virtual std::string kind() const = 0;                 // "mma_atom", "tiled_mma", ...
  virtual std::string to_string() const = 0;            // what CuTe's print would show
  virtual std::string brief() const { return kind(); }  // one line naming it, for error messages
};

struct ValueType {   // a C++ element type named in an expression: half_t, float, ...
  std::string name;  // canonical CuTe spelling
  int bits = 0;
};

class Value {
 public:
  enum class Kind { kInt, kBool, kUnderscore, kTuple, kLayout, kSwizzle, kType, kTag, kObject };

  Value() : kind_(Kind::kInt) {}
  static Value integer(int64_t v);                  // static, CuTe's Int<v>
  static Value integer(const Integer& v);           // static or dynamic
  static Value dynamic_integer(int64_t v);          // CuTe's run-time int (a C++ `int`, a -D value)
  static Value scaled_basis(const IntTuple& leaf);  // an int with a basis (1@0)
  static Value boolean(bool b);
  static Value underscore();
  static Value tuple(std::vector<Value> elements);
  static Value layout(const AnyLayout& l);
  static Value swizzle(const Swizzle& s);
  static Value type(const ValueType& t);
  static Value tag(const std::string& name);  // LayoutLeft, LayoutRight, K, MN, ...
  static Value object(std::shared_ptr<const Object> o);
  static Value from(const IntTuple& t);
  static Value from(const Tiler& t);

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }
  int64_t as_int() const;      // throws unless an integer
  Integer as_integer() const;  // the same, with its static-ness (Integer's arithmetic is CuTe's)
  const IntTuple& leaf() const { return leaf_; }
  bool as_bool() const { return b_; }
  const std::vector<Value>& elements() const { return elements_; }
  const AnyLayout& any_layout() const { return *layout_; }
  const Swizzle& swizzle() const { return swizzle_; }
  const ValueType& type() const { return type_; }
  const std::string& tag() const { return tag_; }
  const std::shared_ptr<const Object>& object() const { return object_; }

  // Conversions used by the builtins; each throws an Error naming what it wanted.
  bool is_int_tuple() const;  // an int or a tuple of int tuples
  IntTuple to_int_tuple() const;
  bool is_layout_like() const;      // a layout, composed layout, or an int tuple (as a shape)
  AnyLayout to_any_layout() const;  // int tuples become column-major layouts
  Layout to_layout() const;
  Tiler to_tiler() const;

  std::string to_string() const;       // CuTe notation, no underscores
  std::string to_cute_string() const;  // as CuTe's print: `_4` static, `4` dynamic
  bool has_dynamic() const;            // holds a dynamic integer somewhere
  std::string kind_name() const;       // "int", "tuple", "layout", ...
  std::string describe() const;        // kind and value on one line, for error messages

 private:
  Kind kind_;
  IntTuple leaf_;
  bool b_ = false;
  std::vector<Value> elements_;
  std::shared_ptr<const AnyLayout> layout_;
  Swizzle swizzle_;
  ValueType type_;
  std::string tag_;
  std::shared_ptr<const Object> object_;
};

// --- evaluation --------------------------------------------------------------------------
class Evaluator;
class Environment;  // names from files, snippets and -D (lib/lang/environment.hpp)
struct Declaration;

// A registered name: called with the whole node (name, template args, call args).  Most are
// lambdas without captures, held as plain function pointers: a std::function per lambda type
// brings its own copy, destroy and type-query code and type name: 6 KB of the page's .wasm
// gzipped (web/; 52 KB before gzip).
class Builtin;
template <class F>  // what Builtin holds: called as a builtin is, returning a Value
concept BuiltinCallable = !std::is_same_v<F, Builtin> && std::is_invocable_r_v<Value, F&, Evaluator&, const Node&>;
class Builtin {
 public:
  using Function = Value (*)(Evaluator&, const Node&);
  Builtin() = default;
  template <BuiltinCallable F>
  Builtin(F f) {  // implicit, as std::function's
    if constexpr (std::is_convertible_v<F, Function>) function_ = f;
    else closure_ = std::move(f);
  }
  Value operator()(Evaluator& ev, const Node& node) const {
    return function_ ? function_(ev, node) : closure_(ev, node);
  }
  explicit operator bool() const { return function_ || closure_; }

 private:
  Function function_ = nullptr;                            // a lambda without captures, a function
  std::function<Value(Evaluator&, const Node&)> closure_;  // else
};
// A resolver may claim names that are not registered (e.g. atom names); it returns
// false to decline.
using Resolver = std::function<bool(Evaluator&, const Node&, Value& out)>;

class Registry {
 public:
  void add(const std::string& name, Builtin fn, const std::string& signature = "");
  void add_resolver(Resolver r) { resolvers_.push_back(std::move(r)); }
  // Name suggestions used by resolvers for their own vocabularies.
  void add_vocabulary(std::function<std::vector<std::string>()> words) { vocab_.push_back(std::move(words)); }
  const Builtin* find(const std::string& name) const;
  const std::vector<Resolver>& resolvers() const { return resolvers_; }
  std::vector<std::string> names() const;
  std::string signature(const std::string& name) const;
  std::vector<std::string> suggestions(const std::string& name, size_t max = 3) const;

 private:
  std::map<std::string, std::pair<Builtin, std::string>> fns_;
  std::vector<Resolver> resolvers_;
  std::vector<std::function<std::vector<std::string>()>> vocab_;
};

// The registry with lib's algebra (and whatever other modules added to it).
Registry& default_registry();
void register_algebra(Registry& r);  // called by default_registry()

// How a bare integer literal such as `6` is read.  `_6`, `_6{}`, `cute::_6`, `Int<6>{}`
// and `C<6>{}` are always static; `int(6)` is always dynamic.
enum class Literals {
  kAuto,     // dynamic when the expression writes a static integer anywhere, else static
  kDynamic,  // dynamic, as in C++ source and as CuTe prints a run-time int
  kStatic,   // static
};

// The expression writes a static integer (`_N`, `Int<N>`, `C<N>`) somewhere.
bool writes_static_integer(const Node& root);

// A note for the user that does not stop evaluation (the CLI prints `cutevis: warning: ...`).
struct Warning {
  std::string message;
  int64_t position = -1;  // into the source text, or -1
};

class Evaluator {
 public:
  explicit Evaluator(const Registry& registry = default_registry()) : registry_(registry) {}
  void set_literals(Literals l) { literals_ = l; }
  // Whether a bare literal is dynamic in the text being evaluated (set by eval_text).
  bool bare_literals_dynamic() const { return bare_dynamic_; }
  void set_bare_literals_dynamic(bool d) { bare_dynamic_ = d; }
  // Apply the literal rule to `root`, the expression about to be evaluated.
  void use_literals(Literals l, const Node& root) {
    literals_ = l;
    bare_dynamic_ = l == Literals::kDynamic || (l == Literals::kAuto && writes_static_integer(root));
  }
  void warn(const Node& at, const std::string& message) {
    warnings_.push_back({message, static_cast<int64_t>(at.begin)});
  }
  const std::vector<Warning>& warnings() const { return warnings_; }
  Value eval(const Node& node);
  // Parse and evaluate `text` (errors carry positions into it).
  Value eval_text(const std::string& text, Syntax syntax = Syntax::kAuto);

  // Helpers for builtins.
  std::vector<Value> eval_args(const Node& call);           // the (args) / {args}
  std::vector<Value> eval_template_args(const Node& call);  // the <targs>
  // Arity check: throws "NAME takes N arguments, got M" at the call.
  void expect_args(const Node& call, size_t min, size_t max) const;
  [[noreturn]] void fail(const Node& at, const std::string& message) const;
  const std::string& source() const { return source_; }
  std::string text_of(const Node& n) const;  // the source text of a node
  const Registry& registry() const { return registry_; }

  // Declared names (lib/lang/environment.hpp), looked up from `scope`; `within` is the
  // declaration being evaluated, if any (source() is then its text).
  void set_environment(Environment* env, const Declaration* within = nullptr, std::string scope = "") {
    env_ = env;
    within_ = within;
    scope_ = std::move(scope);
  }
  Environment* environment() const { return env_; }
  // Template parameters bound while instantiating Cfg<half_t>::X or X<half_t> (lib/lang/environment.cpp).
  struct Bindings {
    std::string scope;  // the template's qualified name
    std::map<std::string, Value> values;
    int depth = 0;
  };
  void set_source(const std::string& text) { source_ = text; }
  // What a constexpr function's body is evaluated with (lib/lang/functions.cpp).
  const std::string& scope() const { return scope_; }
  const Declaration* within() const { return within_; }
  const Bindings* bindings() const { return bindings_; }
  void set_bindings(const Bindings* b) { bindings_ = b; }

 private:
  Value eval_node(const Node& node);  // eval without the outermost frame's error positioning
  // d inside its template with arguments `targs` (nullptr: the bindings in force), lib/lang/environment.cpp
  Value instantiate(const Declaration& d, const Node& use, const std::vector<Node>* targs);
  // The parameters of d's template bound to `targs`, then to the defaults (lib/lang/environment.cpp).
  Bindings bind(const Declaration& d, const Node& use, const std::vector<Node>& targs);
  // A class template of the environment as a value: Traits<128, 64>{} (its parameters bound), and
  // Owner::Member where Owner is one (an alias of it, a -D of it, a parameter bound to it).
  bool class_instance(const Node& node, Value& out);
  bool instance_member(const Node& node, Value& out);
  // `member` of `owner` when owner is a class instance: its own, else its bases' (false: not an instance).
  bool member_of(const Value& owner, const std::string& member, const Node& use, Value& out, int hops = 0);
  const Bindings* bindings_ = nullptr;
  Value eval_name(const Node& node);
  int depth_ = 0;                                              // eval frames active (only the outermost catches)
  int64_t fault_ = -1;                                         // where the failure being unwound was thrown
  Value declared_value(const Declaration& d, const Node& at);  // lib/lang/environment.cpp
  const Registry& registry_;
  std::string source_;
  Environment* env_ = nullptr;
  const Declaration* within_ = nullptr;
  std::string scope_;
  Literals literals_ = Literals::kAuto;
  bool bare_dynamic_ = false;
  std::vector<Warning> warnings_;
};

// Parse and evaluate `text`; errors carry positions into `text`.
Value evaluate_expression(const std::string& text, const Registry& registry = default_registry(),
                          Syntax syntax = Syntax::kAuto);
// The same, collecting the evaluator's warnings into `warnings`.
Value evaluate_expression(const std::string& text, std::vector<Warning>& warnings, Literals literals = Literals::kAuto,
                          const Registry& registry = default_registry(), Syntax syntax = Syntax::kAuto);

// Element types known by name (half_t, cutlass::bfloat16_t, float, float_e4m3_t, ...).
bool lookup_value_type(const std::string& name, ValueType& out);
std::vector<std::string> value_type_names();

// Edit distance, for "did you mean" suggestions.
size_t edit_distance(const std::string& a, const std::string& b);
// Suggestions are only looked for when a name is at most this long: the longest real
// CuTe name is under 100 characters, and edit distance costs |a| x |b| per candidate, so
// a hostile megabyte-long name must not be compared with every word we know.
constexpr size_t kMaxSuggestedNameLength = 160;

}  // namespace cutevis
