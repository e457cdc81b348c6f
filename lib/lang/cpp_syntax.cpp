// C++ operators and type-level helpers of the expression language (see lib/lang/cpp_syntax.hpp).
#include "lib/lang/cpp_syntax.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <utility>

#include "lib/lang/environment.hpp"
#include "lib/lang/floating.hpp"
#include "lib/lang/functions.hpp"
#include "lib/lang/tensor.hpp"

namespace cutevis {

namespace {

using V = Value;

// An operand of integer arithmetic: an integer (no basis) or a bool (C++ promotes it).
int64_t int_operand(Evaluator& ev, const Node& at, const Value& v, const std::string& op) {
  if (v.is(V::Kind::kBool)) return v.as_bool() ? 1 : 0;
  if (v.is(V::Kind::kInt) && v.leaf().basis().empty()) return v.leaf().value();
  ev.fail(at, "operator " + op + " needs integers, got " + v.describe());
}

bool truth(Evaluator& ev, const Node& at, const Value& v, const std::string& op) {
  if (const FloatingValue* f = floating_of(v)) return f->value() != 0;
  return int_operand(ev, at, v, op) != 0;
}

int64_t shift(Evaluator& ev, const Node& at, int64_t a, int64_t b, bool left) {
  if (b < 0 || b > 62) ev.fail(at, "shift by " + std::to_string(b) + " is out of range");
  if (!left) return a >> b;
  if (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b))) throw_overflow(a, '<', b);
  return a * (int64_t{1} << b);
}

// x == y for values other than integers: the same kind printing the same (is_same for types)
bool same_value(const Value& a, const Value& b) { return a.kind() == b.kind() && a.to_string() == b.to_string(); }

// Whether d is b or derives from it: the bases of the structs the sources define, followed by name
// (a base written with template arguments cutevis does not compare: an error, not a guess).
bool derives_from(Evaluator& ev, const Node& at, const Value& d, const Value& b, int hops = 0) {
  if (same_value(d, b)) return true;
  const auto* instance = d.is(Value::Kind::kObject) ? dynamic_cast<const ClassInstance*>(d.object().get()) : nullptr;
  const Environment* env = ev.environment();
  if (!instance || !env) return false;
  if (hops > 16) ev.fail(at, "base classes nested more than 16 deep");
  const ClassDef* c = env->class_of_members(instance->scope());
  if (!c) return false;
  for (const std::string& base : c->bases) {
    const std::vector<const ClassDef*> defs = env->classes(base, c->scope);
    if (defs.empty()) continue;  // a base the sources do not define (CuTe's, the standard library's)
    if (defs.front()->is_template)
      ev.fail(at, "is_base_of_v: " + instance->to_string() + " derives from the template " + base +
                      ", which cutevis does not compare");
    Value v = Value::object(std::make_shared<ClassInstance>(defs.front()->members_scope, std::vector<std::string>{},
                                                            std::map<std::string, Value>{}));
    if (derives_from(ev, at, v, b, hops + 1)) return true;
  }
  return false;
}

Value template_value(Evaluator& ev, const Node& n, size_t i, const char* usage) {
  if (n.template_args.size() <= i) ev.fail(n, std::string("usage: ") + usage);
  return ev.eval(n.template_args[i]);
}

const ValueType& type_arg(Evaluator& ev, const Node& at, const Value& v, const char* usage) {
  if (!v.is(V::Kind::kType))
    ev.fail(at, std::string(usage) + " needs an element type such as half_t, got " + v.describe());
  return v.type();
}

// cute::is_static<T>: an empty type. An element type holds data; a tuple is static when each element is.
bool is_static_type(const Value& v) {
  if (v.is(V::Kind::kType)) return false;
  if (v.is(V::Kind::kTuple)) return std::all_of(v.elements().begin(), v.elements().end(), is_static_type);
  return !v.has_dynamic();
}

Value reversed(const Value& v) {
  if (v.is(V::Kind::kTuple)) {
    std::vector<Value> e(v.elements().rbegin(), v.elements().rend());
    return V::tuple(std::move(e));
  }
  if (v.is(V::Kind::kLayout)) {
    Layout l = v.to_layout();
    return V::layout(Layout(reverse(l.shape), reverse(l.stride)));
  }
  return v;
}

}  // namespace

// CuTe's rule for integer arithmetic: static op static is static (Int<a>{} + Int<b>{}),
// any run-time operand (an `int`, a -D value) makes the result a run-time int.
Value integer_result(int64_t value, const Value& a, const Value* b) {
  auto dynamic = [](const Value& v) { return v.is(Value::Kind::kInt) && v.as_integer().dynamic; };
  return dynamic(a) || (b && dynamic(*b)) ? Value::dynamic_integer(value) : Value::integer(value);
}

// blockIdx.x/.y/.z: a run-time int (CuTe prints it as its value), -D blockIdx.x=N's or else CTA 0, said in
// a warning.  What depends on it is the CTA's tile: its shape is the tiler's, its offset the CTA's.
Value block_index(Evaluator& ev, const Node& n, const std::string& name) {
  if (Environment* env = ev.environment())
    if (const Declaration* d = env->find(name, ev.scope())) {
      try {
        size_t used = 0;
        const int64_t b = std::stoll(d->text, &used);
        if (d->text.find_first_not_of(" \t", used) == std::string::npos && b >= 0) return V::dynamic_integer(b);
      } catch (const std::exception&) {
      }
      ev.fail(n, "-D " + name + "=N takes a CTA index (an integer >= 0), got '" + d->text + "'");
    }
  ev.warn(n, name + " is a run-time value: read as 0 (-D " + name + "=N for another CTA's)");
  return V::dynamic_integer(0);
}

// x.member where x is an object of a struct the sources define and the member is storage: a struct
// (x.tensors.mainloop) or one of CuTe's owning arrays (x.smem_q). Other members hold run-time values.
std::optional<Value> storage_member(Evaluator& ev, const Node& n) {
  Value owner;
  try {
    owner = ev.eval(n.children[0]);
  } catch (const Error&) {
    return std::nullopt;  // (a parameter, a run-time object: the caller says why it has no value)
  }
  const auto* instance =
      owner.is(V::Kind::kObject) ? dynamic_cast<const ClassInstance*>(owner.object().get()) : nullptr;
  if (!instance) return std::nullopt;
  Node member;
  member.kind = Node::Kind::kName;
  member.name = instance->scope() + "::" + n.name.substr(1);
  member.begin = n.begin;
  member.end = n.end;
  // a class template's instance (SharedStorage<TA, TB, ...>): its member with the instance's parameters bound
  Evaluator::Bindings bound{instance->scope(), instance->values(), ev.bindings() ? ev.bindings()->depth + 1 : 1};
  const Evaluator::Bindings* saved = ev.bindings();
  if (!instance->params().empty()) ev.set_bindings(&bound);
  Value v;
  try {
    v = ev.eval(member);
  } catch (const Error&) {
    ev.set_bindings(saved);
    return std::nullopt;
  }
  ev.set_bindings(saved);
  const Object* o = v.is(V::Kind::kObject) ? v.object().get() : nullptr;
  if (dynamic_cast<const ClassInstance*>(o) || dynamic_cast<const ArrayStorageType*>(o)) return v;
  return std::nullopt;
}

Value eval_operator(Evaluator& ev, const Node& n) {
  const std::string& op = n.name;
  const Node& l = n.children[0];
  if ((op == ".x" || op == ".y" || op == ".z") && l.kind == Node::Kind::kName && l.name == "blockIdx")
    return block_index(ev, n, "blockIdx" + op);
  if (op.size() > 1 && op[0] == '.') {  // x.member (the parser keeps it for a pointer that is only named)
    // storage.smem_q of a struct the sources define (`SharedStorage& storage = *reinterpret_cast<...>`):
    // a member that is itself storage (a struct, a cute::array) is its type, as a pointer to it needs
    if (std::optional<Value> m = storage_member(ev, n)) return *m;
    const std::string object = ev.text_of(l);
    ev.fail(n, "'" + (object.size() <= 60 ? object : std::string("x")) + op +
                   "' reads a data member, a run-time value to cutevis: give what uses it with -D (member "
                   "functions such as x.shape(), x.stride() work)");
  }
  if (op == "?:") return truth(ev, l, ev.eval(l), "?:") ? ev.eval(n.children[1]) : ev.eval(n.children[2]);
  Value a = ev.eval(l);
  if (n.children.size() == 1) {
    if (op == "!") return V::boolean(!truth(ev, l, a, op));
    if (floating_of(a) && (op == "+" || op == "neg")) return op == "+" ? a : floating_negate(a);  // -1e30f
    if (op == "+") return integer_result(int_operand(ev, l, a, op), a);
    if (op == "~") return integer_result(~int_operand(ev, l, a, op), a);
    return integer_result(checked_sub(0, int_operand(ev, l, a, "-")), a);  // neg
  }
  const Node& r = n.children[1];
  if (op == "&&") return V::boolean(truth(ev, l, a, op) && truth(ev, r, ev.eval(r), op));
  if (op == "||") return V::boolean(truth(ev, l, a, op) || truth(ev, r, ev.eval(r), op));
  Value b = ev.eval(r);
  if (floating_of(a) || floating_of(b)) {  // 2 * kScale, alpha == 1.0f: C++'s usual arithmetic conversions
    try {
      return floating_operator(op, a, b);
    } catch (const Error& e) {
      if (e.has_position()) throw;
      ev.fail(n, e.what());
    }
  }
  bool ints = (a.is(V::Kind::kInt) || a.is(V::Kind::kBool)) && (b.is(V::Kind::kInt) || b.is(V::Kind::kBool));
  if ((op == "==" || op == "!=") && !ints) return V::boolean(same_value(a, b) == (op == "=="));
  int64_t x = int_operand(ev, l, a, op), y = int_operand(ev, r, b, op);
  if (op == "==") return V::boolean(x == y);
  if (op == "!=") return V::boolean(x != y);
  if (op == "<") return V::boolean(x < y);
  if (op == ">") return V::boolean(x > y);
  if (op == "<=") return V::boolean(x <= y);
  if (op == ">=") return V::boolean(x >= y);
  int64_t out = 0;
  try {
    if (op == "+") out = checked_add(x, y);
    else if (op == "-") out = checked_sub(x, y);
    else if (op == "*") out = checked_mul(x, y);
    else if (op == "/") out = checked_div(x, y);
    else if (op == "%") out = checked_mod(x, y);
    else if (op == "<<") out = shift(ev, n, x, y, true);
    else if (op == ">>") out = shift(ev, n, x, y, false);
    else if (op == "&") out = x & y;
    else if (op == "|") out = x | y;
    else if (op == "^") out = x ^ y;
    else ev.fail(n, "unknown operator " + op);
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, e.what());
  }
  return integer_result(out, a, &b);
}

Value eval_scope(Evaluator& ev, const Node& n) {
  Value base = ev.eval(n.children[0]);
  // ::value of an integral constant, ::type of a type-level result: the value itself
  if (n.name == "value" || n.name == "type") return base;
  // a member type of another module's object (TiledMma::AtomThrID, atoms/cpp_names.cpp)
  if (base.is(V::Kind::kObject))
    if (const Builtin* member = ev.registry().find("::" + n.name)) return (*member)(ev, n);
  ev.fail(n, "cannot take '::" + n.name + "' of " + base.describe());
}

Value cast_value(Evaluator& ev, const Node& n, const ValueType& to) {
  Value v = ev.eval(n.args.back());
  if (to.name == "bool" || to.bits == 1) return V::boolean(truth(ev, n.args.back(), v, "cast"));
  try {
    if (is_floating_type(to)) return to_floating(v, to);  // static_cast<half_t>(1.0f), float(2)
    if (const FloatingValue* f = floating_of(v)) return V::dynamic_integer(truncated(*f, to));  // int(2.9): 2
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, e.what());
  }
  return integer_result(int_operand(ev, n.args.back(), v, "cast"), v);
}

Value value_initialized(const Value& v) {
  if (v.is(V::Kind::kType)) {
    static const char* const integers[] = {"int8_t",  "uint8_t",  "int16_t", "uint16_t",
                                           "int32_t", "uint32_t", "int64_t", "uint64_t"};
    for (const char* name : integers)
      if (v.type().name == name) return V::dynamic_integer(0);
    return v;
  }
  if (!v.is(V::Kind::kTuple)) return v;
  std::vector<Value> e;
  for (const Value& x : v.elements()) e.push_back(value_initialized(x));
  return V::tuple(std::move(e));
}

// UMMA::tile_to_mma_shape (cute/atom/mma_traits_sm100.hpp): tile the atom to (BLK_M,BLK_N,...) =
// zip((MMA_M,MMA_N), (M_MMAs,N_MMAs)) ++ the rest, then tiled_divide by the MMA's (MMA_M,MMA_N).
AnyLayout tile_to_mma_shape(const AnyLayout& atom, const IntTuple& mma_tile_shape, const IntTuple* order) {
  if (mma_tile_shape.is_leaf() || mma_tile_shape.rank() < 3)
    throw Error("the MMA tile shape is ((MMA_M,MMA_N),M_MMAs,N_MMAs,...), got " + to_string(mma_tile_shape));
  std::vector<IntTuple> mn;
  IntTuple zipped = zip(mma_tile_shape[0], take(mma_tile_shape, 1, 3));
  for (size_t i = 0; i < zipped.rank(); ++i) mn.push_back(zipped[i]);
  for (size_t i = 3; i < mma_tile_shape.rank(); ++i) mn.push_back(mma_tile_shape[i]);
  const IntTuple mn_shape = IntTuple::tuple(mn);
  AnyLayout tiled = order ? tile_to_shape(atom, mn_shape, *order) : tile_to_shape(atom, mn_shape);
  return tiled_divide(tiled, Tiler::from_shape(product_each(mma_tile_shape[0])));
}

ArrayStorageType::ArrayStorageType(std::string spelled, ValueType element, int64_t count, int64_t element_align,
                                   int64_t array_align)
    : spelled_(std::move(spelled)),
      element_(std::move(element)),
      count_(count),
      align_(count > 0 ? std::max(array_align, element_align) : array_align),  // array<T, 0> holds no T
      array_align_(array_align) {
  const int64_t bytes = std::max<int64_t>(1, checked_mul(count_, element_.bits / 8));  // array<T, 0>: one byte
  size_ = checked_mul((bytes + align_ - 1) / align_, align_);
}

std::string ArrayStorageType::to_string() const {
  std::string s = spelled_ + "<" + element_.name + "," + std::to_string(count_);
  return s + (spelled_ == "array_aligned" ? "," + std::to_string(array_align_) + ">" : ">");
}

void register_cpp_syntax(Registry& r) {
  // Floating literals (1e30f, 0.5): values of float or double (lib/lang/floating.hpp); INFINITY and NAN
  // are refused (no constant expression computes with them in a layout).
  r.add_resolver([](Evaluator& ev, const Node& n, Value& out) {
    if (n.name.empty() || n.has_template_args || !n.args.empty()) return false;
    if (std::isdigit(static_cast<unsigned char>(n.name[0]))) {
      try {
        out = floating_literal(n.name);
      } catch (const Error& e) {
        ev.fail(n, e.what());
      }
      return true;
    }
    if (n.name == "INFINITY" || n.name == "NAN" || n.name == "HUGE_VALF" || n.name == "HUGE_VAL")
      ev.fail(n, n.name + " is not a finite floating-point value: cutevis does not compute with it");
    return false;
  });
  r.add("true", [](Evaluator&, const Node&) { return V::boolean(true); });
  r.add("false", [](Evaluator&, const Node&) { return V::boolean(false); });
  // cute::block_rank_in_cluster(): this CTA's rank in its cluster, a run-time value as blockIdx is (0 unless
  // -D block_rank_in_cluster=N)
  r.add(
      "block_rank_in_cluster",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 0, 0);
        return block_index(ev, n, "block_rank_in_cluster");
      },
      "cute::block_rank_in_cluster()");
  // The calling thread's warp / lane / warp group and the warp's elected lane: run-time values with no
  // value here (nothing in a layout depends on them; not read as 0: a -D gives the declaration holding one)
  static const std::pair<const char*, const char*> per_thread[] = {
      {"canonical_warp_idx_sync", "the calling thread's warp index in its CTA, an int"},
      {"canonical_warp_idx", "the calling thread's warp index in its CTA, an int"},
      {"canonical_lane_idx", "the calling thread's lane in its warp, an int"},
      {"canonical_warp_group_idx", "the calling thread's warp group in its CTA, an int"},
      {"elect_one_sync", "1 in the one lane of the warp it elects, 0 in the others"}};
  for (const auto& [name, what] : per_thread) {
    const std::string shown = std::string(name == std::string("elect_one_sync") ? "cute::" : "cutlass::") + name;
    const std::string said = std::string(what);
    r.add(
        name,
        [shown, said](Evaluator& ev, const Node& n) -> Value {
          ev.fail(n, shown + "() is a run-time value (" + said +
                         "), known only when the kernel runs: give the name that holds it with -D");
        },
        shown + "(): a run-time value");
  }
  r.add(
      "Underscore", [](Evaluator&, const Node&) { return V::underscore(); }, "Underscore{}");
  r.add(
      "X", [](Evaluator&, const Node&) { return V::underscore(); },
      "X (CuTe's `using X = Underscore;`, as in Step<_1, X, _1>)");
  for (const char* name : {"min", "max"}) {
    bool is_min = std::string(name) == "min";
    r.add(
        name,
        [is_min](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, SIZE_MAX);
          auto a = ev.eval_args(n);
          size_t best = 0;
          for (size_t i = 1; i < a.size(); ++i) {
            int64_t x = int_operand(ev, n.args[i], a[i], n.name), y = int_operand(ev, n.args[best], a[best], n.name);
            if (is_min ? x < y : x > y) best = i;
          }
          int64_t v = int_operand(ev, n.args[best], a[best], n.name);
          return a.size() == 1 ? a[0] : integer_result(v, a[0], &a[1]);
        },
        std::string(name) + "(a, b, ...)");
  }
  // sizeof(T) in bytes, sizeof_bits<T>::value / sizeof_bits_v<T> in bits
  r.add(
      "sizeof",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval(n.args[0]);
        if (const auto* c = v.is(V::Kind::kObject) ? dynamic_cast<const ClassInstance*>(v.object().get()) : nullptr) {
          int64_t align = 1;  // a struct the sources define: PipelineTmaAsync<1>::SharedStorage
          return V::integer(class_size(ev, *c, n.args[0], align));
        }
        if (const auto* a = v.is(V::Kind::kObject) ? dynamic_cast<const ArrayStorageType*>(v.object().get()) : nullptr)
          return V::integer(a->size());
        const ValueType& t = type_arg(ev, n.args[0], v, "sizeof");
        return V::integer(std::max(1, t.bits / 8));
      },
      "sizeof(T)");
  for (const char* name : {"sizeof_bits", "sizeof_bits_v"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          Value t = template_value(ev, n, 0, "sizeof_bits<T>::value");
          return V::integer(type_arg(ev, n.template_args[0], t, "sizeof_bits").bits);
        },
        std::string(name) + "<T>");
  // conditional_t<B, X, Y>: only the chosen one is evaluated
  for (const char* name : {"conditional_t", "conditional"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 3) ev.fail(n, n.name + "<B, X, Y> takes three template arguments");
          Value c = ev.eval(n.template_args[0]);
          return ev.eval(n.template_args[truth(ev, n.template_args[0], c, n.name) ? 1 : 2]);
        },
        std::string(name) + "<B, X, Y>");
  // CuTe's basis elements E<i,j,...>{} = ScaledBasis<_1,i,j,...> (the 1@i@j of its prints)
  r.add(
      "E",
      [](Evaluator& ev, const Node& n) {
        if (!n.has_template_args || n.template_args.empty() || !n.args.empty())
          ev.fail(n, "E<i,...>{} names a basis element: one or more mode indices");
        std::vector<int> path;
        for (const auto& v : ev.eval_template_args(n)) {
          int64_t i = v.as_int();
          if (i < 0 || i > 64) ev.fail(n, "E<i,...>: a mode index is between 0 and 64");
          path.push_back(static_cast<int>(i));
        }
        return V::scaled_basis(IntTuple::scaled_basis(1, Basis::of(path)));
      },
      "E<i,...>{}");
  // CUTLASS's thread counts (static const int in cutlass/cutlass.h: run-time ints to CuTe)
  for (auto [name, value] : {std::pair<const char*, int64_t>{"NumThreadsPerWarp", 32},
                             {"NumThreadsPerWarpGroup", 128},
                             {"NumWarpsPerWarpGroup", 4}}) {
    int64_t v = value;  // clang 14: no structured binding in a lambda capture
    r.add(name, [v](Evaluator&, const Node&) { return V::dynamic_integer(v); });
  }
  // cosize_v<Layout> = cosize(Layout{}) (cute/layout.hpp), as the epilogues size their smem
  r.add(
      "cosize_v",
      [](Evaluator& ev, const Node& n) {
        if (n.template_args.size() != 1) ev.fail(n, "cosize_v<Layout> takes one template argument");
        Node call = n.template_args[0];
        call.kind = Node::Kind::kName;
        call.name = "cosize";
        call.has_template_args = false;
        call.template_args.clear();
        call.call = Node::Call::kParen;
        call.args = {n.template_args[0]};
        call.children.clear();
        return ev.eval(call);
      },
      "cosize_v<Layout>");
  // cute::array<T, N>, cute::array_aligned<T, N, A>, cute::ArrayEngine<T, N>: types (sizeof, SharedStorage
  // members), never storage cutevis holds
  for (const char* name : {"array", "array_aligned", "ArrayEngine"}) {
    const std::string spelled = name;
    const std::string usage = spelled + (spelled == "array_aligned" ? "<T, N[, Alignment]>" : "<T, N>");
    r.add(
        name,
        [spelled, usage](Evaluator& ev, const Node& n) {
          const size_t most = spelled == "array_aligned" ? 3 : 2;
          if (n.template_args.size() < 2 || n.template_args.size() > most)
            ev.fail(n, usage + " takes an element type and a count" + (most == 3 ? " (and an alignment)" : ""));
          Value t = ev.eval(n.template_args[0]);
          const ValueType& element = type_arg(ev, n.template_args[0], t, usage.c_str());
          const int64_t count = ev.eval(n.template_args[1]).as_int();
          // ArrayEngine<T, 0> does not compile (an empty engine is no array); array<T, 0> is an empty struct
          if (count < 0 || (count == 0 && spelled == "ArrayEngine"))
            ev.fail(n.template_args[1], usage + ": N is " + std::to_string(count));
          if (element.bits <= 0 || element.bits % 8 != 0)  // array_subbyte<T, N>: packed in integers
            ev.fail(n.template_args[0], usage + " of " + element.name +
                                            ": a sub-byte element type is stored as array_subbyte, whose size "
                                            "cutevis does not compute");
          const int64_t bytes = element.bits / 8;
          int64_t align = bytes;
          if (element.name.rfind("complex<", 0) == 0) align = bytes / 2;  // two of its element
          if (align > 16 || (align & (align - 1)) != 0)
            ev.fail(n.template_args[0],
                    usage + " of " + element.name + ": the alignment of " + element.name + " is unknown to cutevis");
          int64_t array_align = spelled == "array" ? 1 : 16;
          if (n.template_args.size() == 3) {
            array_align = ev.eval(n.template_args[2]).as_int();
            if (array_align <= 0 || (array_align & (array_align - 1)) != 0)
              ev.fail(n.template_args[2],
                      usage + ": the alignment " + std::to_string(array_align) + " is not a power of two");
          }
          return V::object(std::make_shared<ArrayStorageType>(spelled, element, count, align, array_align));
        },
        usage);
  }
  // cute::identity (cute/algorithm/functional.hpp): the do-nothing transform a CollectiveMma is given
  r.add("identity", [](Evaluator&, const Node&) { return V::tag("identity"); });
  // cute::TmaDescriptor (cute/arch/copy_sm90_desc.hpp): CUtensorMap, 128 bytes, as builders size their
  // tensor-map workspace with sizeof(cute::TmaDescriptor)
  r.add("TmaDescriptor", [](Evaluator&, const Node&) { return V::type(ValueType{"TmaDescriptor", 128 * 8}); });
  // `void` as CUTLASS's epilogues use it (ElementC = void: no source), and is_void_v<T> asking for it
  r.add("void", [](Evaluator&, const Node&) { return V::type(ValueType{"void", 0}); });
  for (const char* name : {"is_void_v", "is_void"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 1) ev.fail(n, n.name + "<T> takes one template argument");
          Value t = ev.eval(n.template_args[0]);
          return V::boolean(t.is(V::Kind::kType) && t.type().name == "void");
        },
        std::string(name) + "<T>");
  // enable_if_t<B, T = void> / enable_if<B, T>::type: T where B holds (SFINAE outside a compiler: an error)
  for (const char* name : {"enable_if_t", "enable_if"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.empty() || n.template_args.size() > 2)
            ev.fail(n, n.name + "<B, T> takes one or two template arguments");
          if (!truth(ev, n.template_args[0], ev.eval(n.template_args[0]), n.name))
            ev.fail(n.template_args[0], n.name + "<false, ...> has no type (the declaration is disabled)");
          return n.template_args.size() == 2 ? ev.eval(n.template_args[1]) : V::type(ValueType{"void", 0});
        },
        std::string(name) + "<B, T>");
  // cute::gcd / cute::lcm (cute/numeric/math.hpp), on integers and Int<N>
  for (const char* name : {"gcd", "lcm"}) {
    bool is_gcd = std::string(name) == "gcd";
    r.add(
        name,
        [is_gcd](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 2, 2);
          auto a = ev.eval_args(n);
          int64_t x = int_operand(ev, n.args[0], a[0], n.name), y = int_operand(ev, n.args[1], a[1], n.name);
          int64_t g = std::gcd(x, y);
          int64_t v = is_gcd ? g : (g == 0 ? 0 : std::abs(x / g * y));
          return integer_result(v, a[0], &a[1]);
        },
        std::string(name) + "(a, b)");
  }
  // cute::abs(x) (cute/numeric/math.hpp), as alignment_for_swizzle reads a swizzle's shift
  r.add(
      "abs",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value a = ev.eval(n.args[0]);
        int64_t x = int_operand(ev, n.args[0], a, n.name);
        return integer_result(x < 0 ? checked_sub(0, x) : x, a);
      },
      "abs(x)");
  // CUTE_STATIC_V(x) is decltype(x)::value: the static value of x
  r.add(
      "CUTE_STATIC_V",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return ev.eval(n.args[0]);
      },
      "CUTE_STATIC_V(x)");
  for (const char* name : {"is_same_v", "is_same"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 2) ev.fail(n, n.name + "<A, B> takes two template arguments");
          auto t = ev.eval_template_args(n);
          return V::boolean(same_value(t[0], t[1]));
        },
        std::string(name) + "<A, B>");
  // is_any_of_v<T, Ts...> (cute/util/type_traits.hpp): T is one of Ts
  for (const char* name : {"is_any_of_v", "is_any_of"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() < 2) ev.fail(n, n.name + "<T, Ts...> takes two or more template arguments");
          auto t = ev.eval_template_args(n);
          return V::boolean(std::any_of(t.begin() + 1, t.end(), [&](const Value& x) { return same_value(t[0], x); }));
        },
        std::string(name) + "<T, Ts...>");
  // is_static_v<T> (cute/numeric/integral_constant.hpp): T is empty, so its value is known from the type: static
  // integers, tuples and layouts of them, tags; an element type (half_t) or a run-time int holds data
  for (const char* name : {"is_static_v", "is_static"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 1) ev.fail(n, n.name + "<T> takes one template argument");
          return V::boolean(is_static_type(ev.eval(n.template_args[0])));
        },
        std::string(name) + "<T>");
  // conditional_return<B>(t, f) (cute/util/type_traits.hpp): t where B holds, else f
  r.add(
      "conditional_return",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        bool b = truth(ev, n, template_value(ev, n, 0, "conditional_return<B>(t, f)"), n.name);
        return ev.eval(n.args[b ? 0 : 1]);
      },
      "conditional_return<B>(t, f)");
  // tuple_size_v<T>, tuple_element_t<I, T>, is_tuple<T>::value on CuTe's tuples (cute/container/tuple.hpp)
  r.add(
      "tuple_size_v",
      [](Evaluator& ev, const Node& n) {
        Value t = template_value(ev, n, 0, "tuple_size_v<T>");
        if (!t.is(V::Kind::kTuple)) ev.fail(n.template_args[0], "tuple_size_v<T> needs a tuple, got " + t.describe());
        return V::integer(static_cast<int64_t>(t.elements().size()));
      },
      "tuple_size_v<T>");
  r.add(
      "tuple_element_t",
      [](Evaluator& ev, const Node& n) {
        if (n.template_args.size() != 2) ev.fail(n, "tuple_element_t<I, T> takes two template arguments");
        auto a = ev.eval_template_args(n);
        if (!a[1].is(V::Kind::kTuple))
          ev.fail(n.template_args[1], "tuple_element_t<I, T> needs a tuple, got " + a[1].describe());
        int64_t i = a[0].as_int();
        if (i < 0 || static_cast<size_t>(i) >= a[1].elements().size())
          ev.fail(n.template_args[0], "tuple_element_t: index " + std::to_string(i) + " out of range");
        return a[1].elements()[static_cast<size_t>(i)];
      },
      "tuple_element_t<I, T>");
  for (const char* name : {"is_tuple", "is_tuple_v"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 1) ev.fail(n, n.name + "<T> takes one template argument");
          return V::boolean(ev.eval(n.template_args[0]).is(V::Kind::kTuple));
        },
        std::string(name) + "<T>");
  // is_constant<n, T>::value (cute/numeric/integral_constant.hpp): T is a static integer (Int<v>, C<v>)
  // equal to n; a run-time int (int64_t in a stride) is not
  for (const char* name : {"is_constant", "is_constant_v"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 2) ev.fail(n, n.name + "<n, T> takes two template arguments");
          auto t = ev.eval_template_args(n);
          const Value& v = t[1];
          bool is_static = v.is(V::Kind::kInt) && v.leaf().basis().empty() && !v.as_integer().dynamic;
          return V::boolean(is_static && v.leaf().value() == t[0].as_int());
        },
        std::string(name) + "<n, T>");
  // is_layout<T>::value (cute/layout.hpp, layout_composed.hpp): a Layout or a ComposedLayout
  for (const char* name : {"is_layout", "is_layout_v"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 1) ev.fail(n, n.name + "<T> takes one template argument");
          Value v = ev.eval(n.template_args[0]);
          return V::boolean(v.is(V::Kind::kLayout));
        },
        std::string(name) + "<T>");
  // is_pointer_v<T>: cutevis's values carry no pointer (see remove_pointer_t below), so the answer
  // comes from the argument as written: `T *` / `T const*` is one (is_pointer_v<int*> was false);
  // a name is evaluated (a declaration `using P = T*;` does not parse, so no pointer hides behind it)
  for (const char* name : {"is_pointer_v", "is_pointer"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 1) ev.fail(n, n.name + "<T> takes one template argument");
          std::string written = ev.text_of(n);
          const size_t open = written.find('<'), close = written.rfind('>');
          written = open != std::string::npos && close != std::string::npos && close > open
                        ? written.substr(open + 1, close - open - 1)
                        : std::string();
          for (bool trimmed = true; trimmed;) {  // trailing blanks and cv-qualifiers: `int * const`
            trimmed = false;
            while (!written.empty() && std::isspace(static_cast<unsigned char>(written.back()))) written.pop_back();
            for (const std::string cv : {"const", "volatile"})
              if (written.size() > cv.size() && written.compare(written.size() - cv.size(), cv.size(), cv) == 0 &&
                  !(std::isalnum(static_cast<unsigned char>(written[written.size() - cv.size() - 1])) ||
                    written[written.size() - cv.size() - 1] == '_')) {
                written.resize(written.size() - cv.size());
                trimmed = true;
              }
          }
          if (!written.empty() && written.back() == '*') return V::boolean(true);
          ev.eval(n.template_args[0]);
          return V::boolean(false);
        },
        std::string(name) + "<T>");
  // is_base_of_v<B, D>: D is B or derives from it, through the bases of the structs the sources define
  for (const char* name : {"is_base_of_v", "is_base_of"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 2) ev.fail(n, n.name + "<B, D> takes two template arguments");
          auto t = ev.eval_template_args(n);
          return V::boolean(derives_from(ev, n, t[1], t[0]));
        },
        std::string(name) + "<B, D>");
  // remove_pointer_t, remove_cvref_t, ... : cutevis's values carry no pointer, reference or cv
  // qualifier (int* is int to it), so each is its argument
  for (const char* name : {"remove_pointer_t", "remove_pointer", "remove_cvref_t", "remove_cvref", "remove_reference_t",
                           "remove_reference", "remove_cv_t", "remove_cv", "remove_const_t", "remove_const", "decay_t",
                           "decay", "type_identity_t", "type_identity"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 1) ev.fail(n, n.name + "<T> takes one template argument");
          return ev.eval(n.template_args[0]);
        },
        std::string(name) + "<T>");
  // cute::uint_byte_t<N> (cute/numeric/int.hpp): the unsigned integer of N bytes
  for (const char* name : {"uint_byte_t", "uint_byte"})
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          int64_t bytes = template_value(ev, n, 0, "uint_byte_t<N>").as_int();
          if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
            ev.fail(n.template_args[0], "uint_byte_t<N> is defined for N = 1, 2, 4, 8, 16 bytes");
          Node type = n;
          type.name = "uint" + std::to_string(bytes * 8) + "_t";
          type.has_template_args = false;
          type.template_args.clear();
          type.call = Node::Call::kNone;
          type.args.clear();
          type.children.clear();
          return ev.eval(type);
        },
        "uint_byte_t<N>");
  r.add(
      "static_cast",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        if (n.template_args.size() == 1 &&
            (n.template_args[0].name == "size_t" || n.template_args[0].name == "std::size_t"))  // no element type
          return cast_value(ev, n, ValueType{"size_t", 64});
        Value t = template_value(ev, n, 0, "static_cast<T>(x)");
        return cast_value(ev, n, type_arg(ev, n.template_args[0], t, "static_cast"));
      },
      "static_cast<T>(x)");
  // CUTLASS's gemm::detail::is_major<I, Stride>(): mode I's first stride is the static 1
  auto is_major = [](Evaluator& ev, const Node& n, int64_t i, Value mode) {
    if (mode.is(V::Kind::kTuple)) {
      if (i < 0 || static_cast<size_t>(i) >= mode.elements().size())
        ev.fail(n, "is_major: mode " + std::to_string(i) + " out of range");
      mode = mode.elements()[static_cast<size_t>(i)];
    }
    while (mode.is(V::Kind::kTuple) && !mode.elements().empty()) mode = mode.elements()[0];
    return V::boolean(mode.is(V::Kind::kInt) && mode.leaf().basis().empty() && mode.leaf().value() == 1);
  };
  for (const char* name : {"cutlass::gemm::detail::is_major", "gemm::detail::is_major", "detail::is_major", "is_major"})
    r.add(
        name,
        [is_major](Evaluator& ev, const Node& n) {
          if (n.template_args.size() != 2) ev.fail(n, "is_major<I, Stride>() takes two template arguments");
          auto t = ev.eval_template_args(n);
          return is_major(ev, n, t[0].as_int(), t[1]);
        },
        "cutlass::gemm::detail::is_major<I, Stride>()");
  // its spellings by mode: is_m_major / is_n_major (epilogue::collective::detail), is_mn_major / is_k_major (gemm)
  for (auto [base, mode] :
       {std::pair<const char*, int64_t>{"is_m_major", 0}, {"is_n_major", 1}, {"is_mn_major", 0}, {"is_k_major", 1}}) {
    int64_t m = mode;  // clang 14: no structured binding in a lambda capture
    std::string b = base;
    for (const std::string& prefix :
         {std::string(), std::string("detail::"), std::string("gemm::detail::"), std::string("cutlass::gemm::detail::"),
          std::string("epilogue::collective::detail::"), std::string("cutlass::epilogue::collective::detail::")})
      r.add(
          prefix + b,
          [is_major, m, b](Evaluator& ev, const Node& n) {
            if (n.template_args.size() != 1) ev.fail(n, b + "<Stride>() takes one template argument");
            return is_major(ev, n, m, ev.eval(n.template_args[0]));
          },
          b + "<Stride>()");
  }
  // get_swizzle_portion(L) / get_nonswizzle_portion(L) (cute/swizzle_layout.hpp): a swizzled layout's
  // swizzle and its layout; a plain layout's are the identity Swizzle<0,4,3> and itself
  for (const char* name : {"get_swizzle_portion", "get_nonswizzle_portion"}) {
    const bool swizzle = std::string(name) == "get_swizzle_portion";
    r.add(
        name,
        [swizzle](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 1);
          Value v = ev.eval(n.args[0]);
          if (!v.is(V::Kind::kLayout)) ev.fail(n.args[0], n.name + "(L) needs a layout, got " + v.describe());
          const auto* c = std::get_if<ComposedLayout>(&v.any_layout());
          if (!c) return swizzle ? V::swizzle(Swizzle(0, 4, 3)) : v;
          if (!c->a_is_swizzle()) ev.fail(n.args[0], n.name + "(L) needs a swizzled layout, got " + v.describe());
          return swizzle ? V::swizzle(c->swizzle()) : V::layout(c->layout_b());
        },
        std::string(name) + "(L)");
  }
  // A ComposedLayout's parts, as its members name them: L.layout_a(), L.offset(), L.layout_b()
  for (const char* part : {"layout_a", "offset", "layout_b"}) {
    std::string which = part;
    r.add(
        part,
        [which](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 1);
          Value v = ev.eval(n.args[0]);
          const ComposedLayout* c = v.is(V::Kind::kLayout) ? std::get_if<ComposedLayout>(&v.any_layout()) : nullptr;
          if (!c) ev.fail(n, which + "() is a member of composed layouts, got " + v.describe());
          if (which == "layout_b") return V::layout(c->layout_b());
          if (which == "offset") {
            if (c->smem_bits()) return V::tag("smem_ptr[" + std::to_string(c->smem_bits()) + "b]");
            return V::integer(c->offset());
          }
          if (c->a_is_swizzle()) return V::swizzle(c->swizzle());
          return V::layout(c->layout_a());
        },
        std::string("L.") + part + "()");
  }
  r.add(
      "reverse",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return reversed(ev.eval(n.args[0]));
      },
      "reverse(x)");
  // smem_ptr_flag_bits<N>: the pointer flag of a swizzled smem layout's offset position
  r.add(
      "smem_ptr_flag_bits",
      [](Evaluator& ev, const Node& n) {
        int64_t bits = template_value(ev, n, 0, "smem_ptr_flag_bits<N>").as_int();
        if (bits <= 0 || bits > 1024) ev.fail(n, "smem_ptr_flag_bits<N> needs 0 < N <= 1024");
        return V::tag("smem_ptr[" + std::to_string(bits) + "b]");
      },
      "smem_ptr_flag_bits<N>");
  r.add(
      "smem_ptr_flag", [](Evaluator&, const Node&) { return V::tag("smem_ptr[1b]"); }, "smem_ptr_flag");
  // ComposedLayout<A, Offset, B>{}: the type CuTe's GMMA atoms are declared with
  r.add(
      "ComposedLayout",
      [](Evaluator& ev, const Node& n) {
        if (n.template_args.size() != 3) ev.fail(n, "ComposedLayout<A, Offset, B> takes three template arguments");
        if (!n.args.empty()) ev.fail(n, "ComposedLayout<...>{} takes no constructor arguments");
        auto a = ev.eval_template_args(n);
        AnyLayout b = a[2].to_any_layout();
        if (a[1].is(V::Kind::kTag) && a[1].tag().rfind("smem_ptr[", 0) == 0) {
          if (!a[0].is(V::Kind::kSwizzle)) ev.fail(n.template_args[0], "an smem_ptr flag needs a swizzle");
          return V::layout(ComposedLayout::smem(a[0].swizzle(), std::stoi(a[1].tag().substr(9)), b));
        }
        int64_t o = a[1].as_int();
        if (a[0].is(V::Kind::kSwizzle)) return V::layout(ComposedLayout(a[0].swizzle(), o, b));
        return V::layout(ComposedLayout(a[0].to_layout(), o, b));
      },
      "ComposedLayout<A, Offset, B>{}");
  // GMMA's and UMMA's shared-memory atoms are atom knowledge: atoms/smem_atoms.cpp
  // UMMA::tile_to_mma_shape(atom, ((MMA_M,MMA_N),M_MMAs,N_MMAs,...)[, order]):
  //   tile the atom to (BLK_M,BLK_N,...), then tiled_divide by the MMA's (MMA_M,MMA_N)
  for (const char* name : {"UMMA::tile_to_mma_shape", "SM100::UMMA::tile_to_mma_shape", "cute::UMMA::tile_to_mma_shape",
                           "tile_to_mma_shape"}) {
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 2, 3);
          auto a = ev.eval_args(n);
          IntTuple mma = a[1].is(V::Kind::kLayout) ? shape(a[1].any_layout()) : a[1].to_int_tuple();
          if (mma.is_leaf() || mma.rank() < 3)
            ev.fail(n.args[1], "the MMA tile shape is ((MMA_M,MMA_N),M_MMAs,N_MMAs,...), got " + to_string(mma));
          if (a.size() < 3 || (a[2].is(V::Kind::kTag) && (a[2].tag() == "GenColMajor" || a[2].tag() == "LayoutLeft")))
            return V::layout(tile_to_mma_shape(a[0].to_any_layout(), mma, nullptr));
          IntTuple order;
          if (a[2].is(V::Kind::kTag)) {  // GenRowMajor / LayoutRight: the last mode first
            std::vector<IntTuple> o;
            const size_t r = mma.rank() - 1;  // the rank of (BLK_M,BLK_N,...)
            for (size_t i = 0; i < r; ++i) o.emplace_back(static_cast<int64_t>(r - 1 - i));
            order = IntTuple::tuple(o);
          } else {
            order = a[2].to_int_tuple();
          }
          return V::layout(tile_to_mma_shape(a[0].to_any_layout(), mma, &order));
        },
        "UMMA::tile_to_mma_shape(atom, mma_tile_shape[, order])");
  }
  register_tensor_names(r);  // make_tensor, local_tile, tensor(_,_,k) (lib/lang/tensor.cpp)
}

}  // namespace cutevis
