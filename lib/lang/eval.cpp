// Values, the name registry and the evaluator of the expression language.
#include <algorithm>
#include <exception>
#include <unordered_map>

#include "lib/element_types.hpp"
#include "lib/lang/cpp_syntax.hpp"
#include "lib/lang/dsl.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/expr.hpp"
#include "lib/lang/floating.hpp"
#include "lib/lang/functions.hpp"
#include "lib/lang/suggestions.hpp"

namespace cutevis {

// --- Value -----------------------------------------------------------------------------

Value Value::integer(int64_t v) {
  Value x;
  x.kind_ = Kind::kInt;
  x.leaf_ = IntTuple(v);
  return x;
}

Value Value::integer(const Integer& v) {
  Value x;
  x.kind_ = Kind::kInt;
  x.leaf_ = IntTuple(v.value);
  if (v.dynamic) x.leaf_.mutable_nodes()[0] = v.node();
  return x;
}

Value Value::dynamic_integer(int64_t v) { return integer(Integer{v, true}); }

Value Value::scaled_basis(const IntTuple& leaf) {
  Value x;
  x.kind_ = Kind::kInt;
  x.leaf_ = leaf;
  return x;
}

Value Value::boolean(bool b) {
  Value x;
  x.kind_ = Kind::kBool;
  x.b_ = b;
  return x;
}

Value Value::underscore() {
  Value x;
  x.kind_ = Kind::kUnderscore;
  return x;
}

Value Value::tuple(std::vector<Value> elements) {
  Value x;
  x.kind_ = Kind::kTuple;
  x.elements_ = std::move(elements);
  return x;
}

Value Value::layout(const AnyLayout& l) {
  Value x;
  x.kind_ = Kind::kLayout;
  x.layout_ = std::make_shared<const AnyLayout>(l);
  return x;
}

Value Value::swizzle(const Swizzle& s) {
  Value x;
  x.kind_ = Kind::kSwizzle;
  x.swizzle_ = s;
  return x;
}

Value Value::type(const ValueType& t) {
  Value x;
  x.kind_ = Kind::kType;
  x.type_ = t;
  return x;
}

Value Value::tag(const std::string& name) {
  Value x;
  x.kind_ = Kind::kTag;
  x.tag_ = name;
  return x;
}

Value Value::object(std::shared_ptr<const Object> o) {
  Value x;
  x.kind_ = Kind::kObject;
  x.object_ = std::move(o);
  return x;
}

Value Value::from(const IntTuple& t) {
  if (t.is_leaf()) return scaled_basis(t);
  std::vector<Value> e;
  for (const auto& m : t.modes()) e.push_back(from(m));
  return tuple(std::move(e));
}

Value Value::from(const Tiler& t) {
  switch (t.kind()) {
    case Tiler::Kind::kUnderscore: return underscore();
    case Tiler::Kind::kLayout: return layout(t.layout());
    case Tiler::Kind::kTuple: {
      std::vector<Value> e;
      for (const auto& m : t.modes()) e.push_back(from(m));
      return tuple(std::move(e));
    }
  }
  return underscore();
}

int64_t Value::as_int() const { return as_integer().value; }

Integer Value::as_integer() const {
  if (kind_ != Kind::kInt || !leaf_.basis().empty()) throw Error("expected an integer, got " + describe());
  return Integer::of(*leaf_.nodes());
}

bool Value::is_int_tuple() const {
  if (kind_ == Kind::kInt) return true;
  if (kind_ != Kind::kTuple) return false;
  return std::all_of(elements_.begin(), elements_.end(), [](const Value& v) { return v.is_int_tuple(); });
}

IntTuple Value::to_int_tuple() const {
  if (kind_ == Kind::kInt) return leaf_;
  if (kind_ == Kind::kBool) return IntTuple::dynamic(b_ ? 1 : 0);  // C++'s bool as an integer: size(Int<128>{} > 64)
  if (kind_ == Kind::kTuple) {
    std::vector<IntTuple> m;
    for (const auto& e : elements_) m.push_back(e.to_int_tuple());
    return IntTuple::tuple(std::move(m));
  }
  throw Error("expected an integer or a tuple of integers, got " + describe());
}

bool Value::is_layout_like() const { return kind_ == Kind::kLayout || is_int_tuple(); }

namespace {
// A tuple used as a layout is its shape: no extent negative, as for `shape:stride`
// (a negative extent reached std::vector with a negative size, found by fuzzing); 0 is
// CuTe's: a default-constructed run-time int, a layout of size 0.
void check_shape_extents(const IntTuple& shape, const IntTuple& whole) {
  if (shape.is_leaf()) {
    if (shape.basis().empty() && shape.value() < 0)
      throw Error("shape " + to_string(whole) + " has a negative extent " + std::to_string(shape.value()));
    return;
  }
  for (const auto& m : shape.modes()) check_shape_extents(m, whole);
}
}  // namespace

AnyLayout Value::to_any_layout() const {
  if (kind_ == Kind::kLayout) return *layout_;
  if (is_int_tuple()) {
    const IntTuple shape = to_int_tuple();
    check_shape_extents(shape, shape);
    return make_layout(shape);
  }
  throw Error("expected a layout, got " + describe());
}

Layout Value::to_layout() const {
  AnyLayout l = to_any_layout();
  if (const Layout* p = std::get_if<Layout>(&l)) return *p;
  throw Error("expected a plain layout, got the composed layout " + cutevis::to_string(l));
}

Tiler Value::to_tiler() const {
  switch (kind_) {
    case Kind::kUnderscore: return Tiler::underscore();
    case Kind::kInt:
      // 0 is CuTe's 0:_1 (composition(8:1, 0) == 0:_1; a divide by it faults in CuTe, an error here)
      if (as_int() < 0) throw Error("a tiler's extent must not be negative, got " + to_string());
      return Tiler::integer(leaf_);
    case Kind::kLayout: return Tiler(to_layout());
    case Kind::kTuple: {
      std::vector<Tiler> m;
      for (const auto& e : elements_) m.push_back(e.to_tiler());
      return Tiler::tuple(std::move(m));
    }
    default: throw Error("expected a tiler (a layout, a shape, `_` or a tuple of them), got " + describe());
  }
}

std::string Value::to_string() const {
  switch (kind_) {
    case Kind::kInt: return cutevis::to_string(leaf_);
    case Kind::kBool: return b_ ? "true" : "false";
    case Kind::kUnderscore: return "_";
    case Kind::kTuple: {
      std::string s = "(";
      for (size_t i = 0; i < elements_.size(); ++i) s += (i ? "," : "") + elements_[i].to_string();
      return s + ")";
    }
    case Kind::kLayout: return cutevis::to_string(*layout_);
    case Kind::kSwizzle: return cutevis::to_string(swizzle_);
    case Kind::kType: return type_.name;
    case Kind::kTag: return tag_;
    case Kind::kObject: return object_->to_string();
  }
  return "";
}

std::string Value::to_cute_string() const {
  switch (kind_) {
    case Kind::kInt: return cutevis::to_string(leaf_, true);
    case Kind::kTuple: {
      std::string s = "(";
      for (size_t i = 0; i < elements_.size(); ++i) s += (i ? "," : "") + elements_[i].to_cute_string();
      return s + ")";
    }
    case Kind::kLayout: return cutevis::to_string(*layout_, true);
    default: return to_string();
  }
}

namespace {

bool any_dynamic(const AnyLayout& l) {
  if (const Layout* p = std::get_if<Layout>(&l)) return has_dynamic(*p);
  const auto& c = std::get<ComposedLayout>(l);
  return (!c.a_is_swizzle() && has_dynamic(c.layout_a())) || any_dynamic(c.layout_b());
}

}  // namespace

bool Value::has_dynamic() const {
  switch (kind_) {
    case Kind::kInt: return cutevis::has_dynamic(leaf_);
    case Kind::kTuple:
      return std::any_of(elements_.begin(), elements_.end(), [](const Value& v) { return v.has_dynamic(); });
    case Kind::kLayout: return any_dynamic(*layout_);
    default: return false;
  }
}

std::string Value::describe() const {
  if (kind_ == Kind::kObject) return object_->brief();  // an object may print on many lines
  return kind_name() + " " + to_string();
}

std::string Value::kind_name() const {
  switch (kind_) {
    case Kind::kInt: return "int";
    case Kind::kBool: return "bool";
    case Kind::kUnderscore: return "underscore";
    case Kind::kTuple: return "tuple";
    case Kind::kLayout: return std::holds_alternative<Layout>(*layout_) ? "layout" : "composed_layout";
    case Kind::kSwizzle: return "swizzle";
    case Kind::kType: return "type";
    case Kind::kTag: return "tag";
    case Kind::kObject: return object_->kind();
  }
  return "";
}

// --- Registry ------------------------------------------------------------------------------

void Registry::add(const std::string& name, Builtin fn, const std::string& signature) {
  fns_[name] = {std::move(fn), signature};
}

const Builtin* Registry::find(const std::string& name) const {
  auto it = fns_.find(name);
  return it == fns_.end() ? nullptr : &it->second.first;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : fns_) out.push_back(k);
  return out;
}

std::string Registry::signature(const std::string& name) const {
  auto it = fns_.find(name);
  return it == fns_.end() ? "" : it->second.second;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> Registry::suggestions(const std::string& name, size_t max) const {
  if (name.size() > kMaxSuggestedNameLength) return {};  // before building the word list
  std::vector<std::string> words;
  for (const auto& [k, v] : fns_) words.push_back(k);
  for (const auto& vocabulary : vocab_)
    for (auto& w : vocabulary()) words.push_back(std::move(w));
  return nearest_words(name, words, max);
}

Registry& default_registry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    register_algebra(*reg);
    register_dsl_algebra(*reg);
    return reg;
  }();
  return *r;
}

// --- element types: the rows of lib/element_types.cpp -------------------------------------------

bool lookup_value_type(const std::string& name, ValueType& out) {
  const ElementTypeInfo* e = find_element_type(name);
  if (!e || !e->in_expressions) return false;
  out.name = e->name;
  out.bits = e->bits;
  return true;
}

std::vector<std::string> value_type_names() {
  std::vector<std::string> out;
  for (const auto& e : element_type_table())
    if (e.in_expressions) out.push_back(e.name);
  return out;
}

// --- Evaluator --------------------------------------------------------------------------------

void Evaluator::fail(const Node& at, const std::string& message) const {
  throw Error(message, static_cast<int64_t>(at.begin));
}

std::string Evaluator::text_of(const Node& n) const {
  if (n.end <= source_.size() && n.begin <= n.end) return source_.substr(n.begin, n.end - n.begin);
  return n.name;
}

std::vector<Value> Evaluator::eval_args(const Node& call) {
  std::vector<Value> out;
  out.reserve(call.args.size());
  for (const auto& a : call.args) out.push_back(eval(a));
  return out;
}

std::vector<Value> Evaluator::eval_template_args(const Node& call) {
  std::vector<Value> out;
  for (const auto& a : call.template_args) out.push_back(eval(a));
  return out;
}

void Evaluator::expect_args(const Node& call, size_t min, size_t max) const {
  size_t n = call.args.size();
  if (n >= min && n <= max) return;
  std::string want = min == max ? std::to_string(min)
                                : (max == SIZE_MAX ? "at least " + std::to_string(min)
                                                   : std::to_string(min) + " to " + std::to_string(max));
  std::string sig = registry_.signature(call.name);
  fail(call, call.name + " takes " + want + " argument" + (min == 1 && max == 1 ? "" : "s") + ", got " +
                 std::to_string(n) + (sig.empty() ? "" : " (usage: " + sig + ")"));
}

namespace {
// One eval frame.  Only the outermost frame catches: it gives a position-less Error the
// position of the innermost node that was being evaluated when it was thrown (recorded by
// that frame's scope as the exception passed it).  Inner frames do not catch and rethrow,
// so a failure (an unresolved name in a kernel file, by the hundred) unwinds once.
struct FrameScope {
  FrameScope(int& depth, int64_t& fault, int64_t begin)
      : depth_(depth), fault_(fault), begin_(begin), uncaught_(std::uncaught_exceptions()) {
    if (depth_++ == 0) fault_ = -1;
  }
  ~FrameScope() {
    --depth_;
    if (std::uncaught_exceptions() > uncaught_ && fault_ < 0) fault_ = begin_;  // the innermost frame unwound first
  }
  FrameScope(const FrameScope&) = delete;
  FrameScope& operator=(const FrameScope&) = delete;
  int& depth_;
  int64_t& fault_;
  int64_t begin_;
  int uncaught_;
};
}  // namespace

Value Evaluator::eval(const Node& node) {
  if (depth_ > 0) {
    FrameScope frame(depth_, fault_, static_cast<int64_t>(node.begin));
    if (fault_ >= 0) fault_ = -1;  // a failure a builtin caught and went past
    return eval_node(node);
  }
  try {
    FrameScope frame(depth_, fault_, static_cast<int64_t>(node.begin));
    return eval_node(node);
  } catch (const Error& e) {
    if (e.has_position()) throw;
    throw Error(e.what(), fault_ >= 0 ? fault_ : static_cast<int64_t>(node.begin));
  }
}

Value Evaluator::eval_node(const Node& node) {
  {
    switch (node.kind) {
      case Node::Kind::kNumber: {
        bool dynamic = !node.underscore && bare_dynamic_;  // see Literals
        if (node.basis.empty()) return Value::integer(Integer{node.value, dynamic});
        std::vector<int> path(node.basis.rbegin(), node.basis.rend());  // printed innermost first
        IntTuple leaf = IntTuple::scaled_basis(node.value, Basis::of(path));
        return Value::scaled_basis(dynamic ? make_dynamic(leaf) : leaf);
      }
      case Node::Kind::kUnderscore: return Value::underscore();
      case Node::Kind::kTuple: {
        std::vector<Value> e;
        for (const auto& c : node.children) e.push_back(eval(c));
        return Value::tuple(std::move(e));
      }
      case Node::Kind::kLayout: {
        Value shape = eval(node.children[0]);
        Value stride = eval(node.children[1]);
        if (!shape.is_int_tuple()) fail(node.children[0], "a layout's shape must be integers, got " + shape.describe());
        if (!stride.is_int_tuple())
          fail(node.children[1], "a layout's stride must be integers, got " + stride.describe());
        IntTuple s = shape.to_int_tuple(), d = stride.to_int_tuple();
        if (has_basis(s)) fail(node.children[0], "a shape cannot hold basis elements");
        for (const auto& leaf : flatten_leaves(s))
          if (leaf.value() < 0)
            fail(node.children[0], "shape " + to_string(s) + " has a negative extent " + std::to_string(leaf.value()));
        if (!congruent(s, d))
          fail(node.children[1], "shape " + to_string(s) + " and stride " + to_string(d) + " are not congruent");
        return Value::layout(Layout(s, d));
      }
      case Node::Kind::kSmemFlag: return Value::tag("smem_ptr[" + std::to_string(node.value) + "b]");
      case Node::Kind::kComposed: {
        // A o O o B, right-associative: A o O o (C o P o D)
        if (node.children.size() % 2 == 0)
          fail(node,
               "a composed layout is written A o offset o B (got " + std::to_string(node.children.size()) + " parts)");
        std::function<AnyLayout(size_t)> build = [&](size_t i) -> AnyLayout {
          if (i + 1 == node.children.size()) return eval(node.children[i]).to_any_layout();
          Value a = eval(node.children[i]);
          const Node& onode = node.children[i + 1];
          AnyLayout b = build(i + 2);
          if (onode.kind == Node::Kind::kSmemFlag) {
            if (!a.is(Value::Kind::kSwizzle)) fail(node.children[i], "an smem_ptr flag needs a swizzle on its left");
            if (onode.value <= 0) fail(onode, "smem_ptr width must be positive");
            return ComposedLayout::smem(a.swizzle(), static_cast<int>(onode.value), b);
          }
          int64_t offset = eval(onode).as_int();
          if (a.is(Value::Kind::kSwizzle)) return ComposedLayout(a.swizzle(), offset, b);
          return ComposedLayout(a.to_layout(), offset, b);
        };
        return Value::layout(build(0));
      }
      case Node::Kind::kName:  // X and X{} name the same value here, but X{} is value-initialized
        return node.call == Node::Call::kBrace && node.args.empty() ? value_initialized(eval_name(node))
                                                                    : eval_name(node);
      case Node::Kind::kOperator: return eval_operator(*this, node);
      case Node::Kind::kScope:
        if (env_ && node.children[0].kind == Node::Kind::kName &&
            node.children[0].has_template_args) {  // Cfg<half_t>::SmemLayoutA
          const Node& t = node.children[0];
          Value instance, member;
          if (!env_->classes(t.name, scope_).empty() && class_instance(t, instance) &&
              member_of(instance, node.name, node, member))
            return member;  // Policy<Sm90<3>>::Stages (a specialization), Traits<4>::X (maybe inherited)
          if (const Declaration* d = env_->find(t.name + "::" + node.name, scope_, within_))
            if (!d->template_scope.empty()) return instantiate(*d, node, &t.template_args);
        }
        return eval_scope(*this, node);
      case Node::Kind::kDecltype: {  // a static value is its own type (Int<4>); a floating value's is its type
        Value v = eval(node.children[0]);
        if (const FloatingValue* f = floating_of(v)) return Value::type(f->type());
        return v;
      }
    }
  }
  fail(node, "cannot evaluate this expression");
}

Value Evaluator::eval_name(const Node& node) {
  if (bindings_ && !node.has_template_args && node.args.empty()) {  // a template parameter of the instance
    auto it = bindings_->values.find(node.name);
    if (it != bindings_->values.end()) return it->second;
  }
  if (bindings_ && !node.has_template_args && node.call != Node::Call::kNone && node.args.size() == 1) {
    auto it = bindings_->values.find(node.name);  // R(bits) where R is a type parameter: a functional cast
    if (it != bindings_->values.end()) {
      const Value& t = it->second;
      if (t.is(Value::Kind::kType)) return cast_value(*this, node, t.type());
      // value_t{0} where value_t was deduced from an argument: a cast to that argument's type
      if (const FloatingValue* f = floating_of(t)) return cast_value(*this, node, f->type());
      if (t.is(Value::Kind::kInt) && t.leaf().basis().empty()) return cast_value(*this, node, ValueType{"int", 32});
    }
  }
  Value member;
  if (env_ && node.name.find("::") != std::string::npos && instance_member(node, member))
    return member;  // Traits::SmemLayoutQ where Traits is a class template's instance
  if (env_ && !node.has_template_args && node.args.empty())  // a declared name, X or X{}
    if (const Declaration* d = env_->find(node.name, scope_, within_)) {
      if (bindings_ && !d->template_scope.empty() && d->template_scope == bindings_->scope)
        return instantiate(*d, node, nullptr);
      if (bindings_ && !d->template_scope.empty() && !bindings_->scope.empty() &&
          env_->class_of_members(bindings_->scope)) {  // a member of a base class template, as its instance has it
        Value self = Value::object(
            std::make_shared<ClassInstance>(bindings_->scope, std::vector<std::string>{}, bindings_->values));
        if (member_of(self, node.name, node, member, 1)) return member;
      }
      return declared_value(*d, node);
    }
  if (env_ && node.has_template_args && node.args.empty())  // an alias template: X<half_t, 32>{}
    if (const Declaration* d = env_->find(node.name, scope_, within_))
      if (!d->template_params.empty() && d->template_scope == (d->scope.empty() ? d->name : d->scope + "::" + d->name))
        return instantiate(*d, node, &node.template_args);
  if (env_ && node.has_template_args && class_instance(node, member)) return member;  // Traits<128, 64>{}
  if (env_ && node.call == Node::Call::kParen && call_user_function(*this, node, member))
    return member;  // a constexpr function of the sources (lib/lang/functions.cpp)
  if (env_ && !node.has_template_args && node.call != Node::Call::kNone && node.args.size() == 1 &&
      !registry_.find(node.name))
    if (const Declaration* d = env_->find(node.name, scope_, within_)) {  // TI(1.0), TI{1}: a cast to a declared type
      Value t;
      if (!env_->resolve(*d, registry_, t) && t.is(Value::Kind::kType)) return cast_value(*this, node, t.type());
    }
  if (env_ && !node.has_template_args && node.call == Node::Call::kParen && !node.args.empty() &&
      !registry_.find(node.name))
    if (env_->find(node.name, scope_,
                   within_)) {  // sA(_,_,k): a declared layout or tensor called (lib/lang/tensor.cpp)
      Node call = node, callee = node;
      callee.args.clear();
      callee.call = Node::Call::kNone;
      call.name = "operator()";
      call.children = {std::move(callee)};
      return eval(call);
    }
  if (env_ && !node.has_template_args && node.call == Node::Call::kNone &&
      env_->is_enclosing_parameter(node.name, scope_))
    throw UnknownName("unknown name '" + node.name + "'", static_cast<int64_t>(node.begin));  // `layout`: a parameter
  std::string name = node.name;
  // (cutlass::round_up is CUTLASS's own, cutlass/fast_math.h read with -I: not CuTe's round_up, built in)
  for (const char* prefix : {"cute::", "cutlass::", "std::"})
    if (name.rfind(prefix, 0) == 0 && registry_.find(name.substr(std::string(prefix).size())) &&
        name != "cutlass::round_up")
      name = name.substr(std::string(prefix).size());
  if (const Builtin* fn = registry_.find(name)) return (*fn)(*this, node);
  for (const auto& r : registry_.resolvers()) {
    Value out;
    if (r(*this, node, out)) return out;
  }
  ValueType t;
  if (lookup_value_type(node.name, t) && node.args.size() == 1) return cast_value(*this, node, t);  // int(6)
  if (lookup_value_type(node.name, t) && node.args.size() > 1)  // uint2{x, y}: an object, no type
    fail(node, "an object of " + t.name + " made at run time (" + text_of(node) + "): cutevis holds no such value");
  if (lookup_value_type(text_of(node), t) || lookup_value_type(node.name, t)) return Value::type(t);
  bool bare = node.call == Node::Call::kNone || (node.call == Node::Call::kBrace && node.args.empty());  // X or X{}
  if (env_ && bare &&
      !node.has_template_args)  // a struct the sources define (a tag: KernelTmaWarpSpecialized, RowMajor)
    for (const ClassDef* c : env_->classes(node.name, scope_))
      if (!c->is_template && c->specialization.empty())
        return Value::object(std::make_shared<ClassInstance>(c->members_scope, std::vector<std::string>{},
                                                             std::map<std::string, Value>{}));
  std::string msg = (bare ? "unknown name '" : "unknown function '") + node.name + "'";
  if (const char* header = cutlass_header_of(node.name))  // not CuTe: say so, rather than suggest look-alikes
    throw UnknownName(cutlass_code_message(node.name, env_ && env_->read_header(header)),
                      static_cast<int64_t>(node.begin));
  // (not inside a file's declarations: kernel bodies name runtime functions by the hundred)
  auto s = within_ ? std::vector<std::string>{} : registry_.suggestions(node.name);
  if (!s.empty()) msg += "; did you mean " + quoted_alternatives(s) + "?";
  throw UnknownName(msg, static_cast<int64_t>(node.begin));
}

Value Evaluator::eval_text(const std::string& text, Syntax syntax) {
  source_ = text;
  Node root = parse_in_syntax(text, syntax);
  use_literals(literals_, root);
  return eval(root);
}

Value evaluate_expression(const std::string& text, const Registry& registry, Syntax syntax) {
  Evaluator ev(registry);
  return ev.eval_text(text, syntax);
}

Value evaluate_expression(const std::string& text, std::vector<Warning>& warnings, Literals literals,
                          const Registry& registry, Syntax syntax) {
  Evaluator ev(registry);
  ev.set_literals(literals);
  Value v = ev.eval_text(text, syntax);
  warnings.insert(warnings.end(), ev.warnings().begin(), ev.warnings().end());
  return v;
}

}  // namespace cutevis
