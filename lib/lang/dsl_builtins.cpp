// CuTeDSL's names of the layout algebra (cutlass/cute/core.py), each bound to the C++
// builtin of the same meaning (lib/lang/builtins.cpp): one meaning, two spellings.
//
//   cute.make_layout(shape, stride=None)        -> make_layout(shape[, stride])
//   cute.size(a, mode=[0, 1])                   -> size<0,1>(a)
//   cute.slice_(src, coord)                     -> slice(coord, src)
//   cute.recast_layout(new_bits, old_bits, L)   -> recast_layout of L from old_bits to new_bits
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <span>

#include "lib/lang/dsl.hpp"
#include "lib/lang/environment.hpp"

namespace cutevis {

namespace {

using V = Value;

}  // namespace

std::vector<const Node*> bind_dsl_args(Evaluator& ev, const Node& n, const std::vector<const char*>& params,
                                       size_t required) {
  std::vector<const Node*> bound(params.size(), nullptr);
  std::vector<bool> given(params.size(), false);
  size_t positional = 0;
  for (const auto& a : n.args) {
    size_t i = 0;
    if (a.keyword == "loc" || a.keyword == "ip") continue;  // MLIR's source location and insertion point
    if (a.keyword.empty()) {
      if (positional >= params.size())
        ev.fail(a, n.name + " takes at most " + std::to_string(params.size()) + " arguments");
      i = positional++;
    } else {
      auto it = std::find_if(params.begin(), params.end(), [&](const char* p) { return a.keyword == p; });
      if (it == params.end()) {
        std::string known;
        for (const char* p : params) known += (known.empty() ? "" : ", ") + std::string(p);
        ev.fail(a, n.name + " has no parameter '" + a.keyword + "' (its parameters: " + known + ")");
      }
      i = static_cast<size_t>(it - params.begin());
      if (given[i]) ev.fail(a, n.name + ": parameter '" + a.keyword + "' given twice");
    }
    given[i] = true;
    const bool is_none = a.kind == Node::Kind::kUnderscore && a.name == "None";
    bound[i] = is_none ? nullptr : &a;
  }
  for (size_t i = 0; i < required; ++i)
    if (!given[i]) ev.fail(n, n.name + " needs its '" + params[i] + "' argument");
  return bound;
}

Node cpp_call(const Node& n, const std::string& cpp, const std::vector<const Node*>& args, const Node* modes) {
  Node c;
  c.kind = Node::Kind::kName;
  c.name = cpp;
  c.call = Node::Call::kParen;
  c.begin = n.begin;
  c.end = n.end;
  for (const Node* a : args) {
    if (!a) break;  // the C++ function takes a prefix of them
    c.args.push_back(*a);
    c.args.back().keyword.clear();
  }
  if (modes) {
    c.has_template_args = true;
    if (modes->kind == Node::Kind::kTuple) c.template_args = modes->children;
    else c.template_args.push_back(*modes);
  }
  return c;
}

namespace {

const auto bind = bind_dsl_args;

// cute.NAME(params...) is the C++ NAME(params...) (or `cpp`), in the same order.
void alias(Registry& r, const std::string& dsl, const std::string& cpp, std::vector<const char*> params,
           size_t required) {
  std::string sig = dsl + "(";
  for (size_t i = 0; i < params.size(); ++i)
    sig += (i ? ", " : "") + std::string(params[i]) + (i < required ? "" : "=None");
  sig += ")";
  r.add(
      dsl,
      [cpp, params, required](Evaluator& ev, const Node& n) {
        std::vector<const Node*> a = bind(ev, n, params, required);
        for (size_t i = 1; i < a.size(); ++i)
          if (a[i] && !a[i - 1]) ev.fail(*a[i], n.name + ": '" + params[i] + "' needs '" + params[i - 1] + "' too");
        return ev.eval(cpp_call(n, cpp, a));
      },
      sig);
}

// cute.NAME(a, mode=[i, j]) is the C++ NAME<i,j>(a).
void alias_with_modes(Registry& r, const std::string& dsl, const std::string& cpp) {
  r.add(
      dsl,
      [cpp](Evaluator& ev, const Node& n) {
        std::vector<const Node*> a = bind(ev, n, {"a", "mode"}, 1);
        return ev.eval(cpp_call(n, cpp, {a[0]}, a[1]));
      },
      dsl + "(a, mode=[...])");
}

int64_t int_arg(Evaluator& ev, const Node& at) { return ev.eval(at).as_int(); }

// Python's integer operators; `+` on tuples concatenates, as in Python.
Value binary(Evaluator& ev, const Node& n, char op) {
  Value a = ev.eval(n.args[0]), b = ev.eval(n.args[1]);
  if (op == '+' && a.is(V::Kind::kTuple) && b.is(V::Kind::kTuple)) {
    std::vector<Value> e = a.elements();
    e.insert(e.end(), b.elements().begin(), b.elements().end());
    return V::tuple(std::move(e));
  }
  int64_t x = a.as_int(), y = b.as_int();
  switch (op) {
    case '+': return V::integer(checked_add(x, y));
    case '-': return V::integer(checked_sub(x, y));
    case '*': return V::integer(checked_mul(x, y));
    default: {  // Python floors: -7 // 2 == -4, -7 % 2 == 1
      if (y == 0) ev.fail(n, "integer division or modulo by zero");
      int64_t q = checked_div(x, y), m = checked_mod(x, y);
      if (m != 0 && ((m < 0) != (y < 0))) {
        q = checked_sub(q, 1);
        m = checked_add(m, y);
      }
      return V::integer(op == '/' ? q : m);
    }
  }
}

// --- CuTeDSL's enums --------------------------------------------------------------------
// Constant data (no vector built per row at first use): the member lists, brace-initialized in
// a static table, live as long as it.
struct EnumClass {
  const char* name;
  std::initializer_list<const char*> members;
};

std::span<const EnumClass> enum_classes() {
  static constexpr EnumClass e[] = {
      {"OperandMajorMode", {"K", "MN"}},
      {"OperandSource", {"RMEM", "SMEM", "TMEM"}},
      {"CtaGroup", {"ONE", "TWO"}},
      {"LayoutEnum", {"ROW_MAJOR", "COL_MAJOR"}},
      {"SmemLayoutAtomKind",
       {"MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128", "MN_SW128_32B", "K_INTER", "K_SW32", "K_SW64", "K_SW128"}},
      {"LoadCacheMode", {"ALWAYS", "GLOBAL", "STREAMING", "LAST_USE", "NONE"}},
      {"AddressSpace", {"generic", "gmem", "smem", "rmem", "tmem", "dsmem", "cmem"}},
      {"ReductionKind", {"ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR"}},
      {"Repetition", {"x1", "x2", "x4", "x8", "x16", "x32", "x64", "x128"}},
      {"Pack", {"NONE", "PACK_16b_IN_32b"}},
      {"Unpack", {"NONE", "UNPACK_32b_IN_16b"}},
  };
  return e;
}

// `...OperandMajorMode.K` is the tag "OperandMajorMode.K", whichever module it was reached through.
bool resolve_enum(Evaluator& ev, const Node& n, Value& out) {
  const size_t dot = n.name.rfind('.');
  if (dot == std::string::npos || dot == 0 || n.call != Node::Call::kNone) return false;
  const size_t cls_begin = n.name.rfind('.', dot - 1) == std::string::npos ? 0 : n.name.rfind('.', dot - 1) + 1;
  const std::string cls = n.name.substr(cls_begin, dot - cls_begin), member = n.name.substr(dot + 1);
  for (const auto& e : enum_classes()) {
    if (cls != e.name) continue;
    for (const char* m : e.members)
      if (member == m) {
        out = V::tag(cls + "." + member);
        return true;
      }
    std::string known;
    for (const char* m : e.members) known += (known.empty() ? "" : ", ") + std::string(m);
    ev.fail(n, cls + " has no member " + member + " (it has " + known + ")");
  }
  return false;
}

// A node calling the attribute or method builtin "py.attr.ATTR" with `object` first (lib/lang/dsl.hpp).
Node attribute_call(const Node& at, const Node& object, const std::string& attr) {
  Node c;
  c.kind = Node::Kind::kName;
  c.name = "py.attr." + attr;
  c.call = Node::Call::kParen;
  c.begin = at.begin;
  c.end = at.end;
  c.args.push_back(object);
  return c;
}

// CuTeDSL's attributes of a value (layout.shape, tiled_mma.tv_layout_A, ...): the builtin "py.attr.ATTR".
Value attribute(Evaluator& ev, const Node& at, const Node& object, const std::string& attr) {
  const Builtin* fn = ev.registry().find("py.attr." + attr);
  if (!fn) ev.fail(at, "cutevis knows no attribute ." + attr + " of " + ev.eval(object).describe());
  return (*fn)(ev, attribute_call(at, object, attr));
}

// layout.shape / layout.stride
Value layout_attribute(Evaluator& ev, const Node& n, const std::string& attr) {
  Value v = ev.eval(n.args.at(0));
  if (v.is(V::Kind::kLayout) && attr == "shape") return V::from(shape(v.any_layout()));
  if (v.is(V::Kind::kLayout) && attr == "stride") return V::from(v.to_layout().stride);
  ev.fail(n, "." + attr + " is an attribute of a layout, got " + v.describe());
}

Value get_item(const Value& v, int64_t i) {
  if (v.is(V::Kind::kTuple)) {
    const int64_t size = static_cast<int64_t>(v.elements().size());
    if (i < 0) i += size;  // Python's negative indices
    if (i < 0 || i >= size) throw Error("index " + std::to_string(i) + " out of range for " + v.to_string());
    return v.elements()[static_cast<size_t>(i)];
  }
  if (v.is(V::Kind::kLayout) && i >= 0) return V::layout(get(v.any_layout(), static_cast<size_t>(i)));
  throw Error("cannot index " + v.describe());
}

}  // namespace

std::vector<std::string> dsl_enum_members(const std::string& cls) {
  for (const auto& e : enum_classes())
    if (cls == e.name) return std::vector<std::string>(e.members.begin(), e.members.end());
  return {};
}

void register_dsl_algebra(Registry& r) {
  // --- Python itself ------------------------------------------------------------------
  r.add("True", [](Evaluator&, const Node&) { return V::boolean(true); });
  r.add("False", [](Evaluator&, const Node&) { return V::boolean(false); });
  for (auto [name, op] : {std::pair<const char*, char>{"py.add", '+'},
                          {"py.sub", '-'},
                          {"py.mul", '*'},
                          {"py.floordiv", '/'},
                          {"py.mod", '%'}})
    r.add(name, [op = op](Evaluator& ev, const Node& n) { return binary(ev, n, op); });
  r.add("py.neg", [](Evaluator& ev, const Node& n) { return V::integer(checked_sub(0, ev.eval(n.args[0]).as_int())); });
  for (const char* name : {"py.min", "py.max"}) {  // Python's min(a, b, ...) / max on integers
    const bool is_min = std::string(name) == "py.min";
    r.add(name, [is_min](Evaluator& ev, const Node& n) {
      if (n.args.empty()) ev.fail(n, std::string(is_min ? "min" : "max") + " needs arguments");
      int64_t best = int_arg(ev, n.args[0]);
      for (size_t i = 1; i < n.args.size(); ++i)
        best = is_min ? std::min(best, int_arg(ev, n.args[i])) : std::max(best, int_arg(ev, n.args[i]));
      return V::integer(best);
    });
  }
  r.add("py.getitem",
        [](Evaluator& ev, const Node& n) { return get_item(ev.eval(n.args[0]), int_arg(ev, n.args[1])); });
  r.add("py.attr", [](Evaluator& ev, const Node& n) { return attribute(ev, n.args[1], n.args[0], n.args[1].name); });
  for (const char* attr : {"shape", "stride"})
    r.add(
        std::string("py.attr.") + attr, [attr](Evaluator& ev, const Node& n) { return layout_attribute(ev, n, attr); },
        std::string("layout.") + attr);
  // CuTeDSL's enum members and Numeric names (Float16, BFloat16, Int8, ...) before the atom
  // catalogue's resolvers, which would otherwise build their name tables to decline them
  r.add_resolver(resolve_enum);
  // (upper case: C++'s half_t, float are lower case)
  r.add_resolver([](Evaluator&, const Node& n, Value& out) {
    ValueType t;
    if (n.call != Node::Call::kNone || n.has_template_args || n.name.empty() ||
        !std::isupper(static_cast<unsigned char>(n.name[0])) || n.name.find(':') != std::string::npos ||
        !lookup_value_type(n.name, t))
      return false;
    out = V::type(t);
    return true;
  });
  // name.attr / name.method(...) where `name` is a declared value (--from): a dotted name the
  // parser could not tell from a module path.  Only attributes some builtin defines are claimed.
  r.add_resolver([](Evaluator& ev, const Node& n, Value& out) {
    const size_t dot = n.name.rfind('.');
    if (dot == std::string::npos || dot == 0 || n.name.rfind("py.", 0) == 0 || n.call == Node::Call::kBrace ||
        n.has_template_args)
      return false;
    const std::string attr = n.name.substr(dot + 1);
    const Builtin* fn = ev.registry().find("py.attr." + attr);
    if (!fn) return false;
    Node owner;
    owner.kind = Node::Kind::kName;
    owner.name = n.name.substr(0, dot);
    owner.begin = n.begin;
    owner.end = n.begin + dot;
    try {  // `self.size` with no `self`: the whole dotted name is what is undefined (give -D self.size=...)
      ev.eval(owner);
    } catch (const UnknownName&) {
      return false;
    }
    Node c = attribute_call(n, owner, attr);
    for (const auto& a : n.args) c.args.push_back(a);  // a method's own arguments
    out = (*fn)(ev, c);
    return true;
  });

  // --- cute.* (cutlass/cute/core.py) ----------------------------------------------------
  alias(r, "cute.make_layout", "make_layout", {"shape", "stride"}, 1);
  alias(r, "cute.make_ordered_layout", "make_ordered_layout", {"shape", "order"}, 2);
  alias(r, "cute.make_identity_layout", "make_identity_layout", {"shape"}, 1);
  alias(r, "cute.make_composed_layout", "make_composed_layout", {"inner", "offset", "outer"}, 3);
  alias(r, "cute.composition", "composition", {"lhs", "rhs"}, 2);
  alias(r, "cute.complement", "complement", {"input", "cotarget"}, 1);
  alias(r, "cute.coalesce", "coalesce", {"input", "target_profile"}, 1);
  alias(r, "cute.right_inverse", "right_inverse", {"input"}, 1);
  alias(r, "cute.left_inverse", "left_inverse", {"input"}, 1);
  for (const char* op : {"logical_divide", "zipped_divide", "tiled_divide", "flat_divide"})
    alias(r, std::string("cute.") + op, op, {"target", "tiler"}, 2);
  for (const char* op :
       {"logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product"})
    alias(r, std::string("cute.") + op, op, {"block", "tiler"}, 2);
  alias(r, "cute.tile_to_shape", "tile_to_shape", {"atom", "trg_shape", "order"}, 3);
  alias(r, "cute.make_layout_tv", "make_layout_tv", {"thr_layout", "val_layout"}, 2);
  alias(r, "cute.filter", "filter", {"input"}, 1);
  alias(r, "cute.filter_zeros", "filter_zeros", {"input"}, 1);
  alias(r, "cute.flatten", "flatten", {"a"}, 1);
  alias(r, "cute.max_common_vector", "max_common_vector", {"a", "b"}, 2);
  alias(r, "cute.max_common_layout", "max_common_layout", {"a", "b"}, 2);
  alias(r, "cute.ceil_div", "ceil_div", {"input", "tiler"}, 2);
  alias(r, "cute.shape_div", "shape_div", {"lhs", "rhs"}, 2);
  alias(r, "cute.product_each", "product_each", {"a"}, 1);
  alias(r, "cute.crd2idx", "crd2idx", {"coord", "layout"}, 2);
  alias(r, "cute.shape", "shape", {"input"}, 1);
  alias(r, "cute.zip", "zip", {"a", "b"}, 1);
  r.add(
      "cute.dice",
      [](Evaluator& ev, const Node& n) {  // the C++ dice takes the coordinate first
        auto a = bind(ev, n, {"src", "dicer"}, 2);
        return ev.eval(cpp_call(n, "dice", {a[1], a[0]}));
      },
      "cute.dice(src, dicer)");
  for (const char* op : {"size", "cosize", "rank", "get", "select"}) alias_with_modes(r, std::string("cute.") + op, op);
  alias(r, "cute.depth", "depth", {"a"}, 1);
  alias(r, "cute.make_fragment_like", "make_fragment_like", {"src"}, 1);
  r.add(
      "cute.round_up",
      [](Evaluator& ev, const Node& n) {  // the multiple of b at or above a
        auto a = bind(ev, n, {"a", "b"}, 2);
        const int64_t x = int_arg(ev, *a[0]), y = int_arg(ev, *a[1]);
        if (y <= 0) ev.fail(*a[1], "cute.round_up needs a positive multiple");
        return V::integer(checked_mul(ceil_div(x, y), y));
      },
      "cute.round_up(a, b)");
  r.add(
      "cute.make_swizzle",
      [](Evaluator& ev, const Node& n) {
        auto a = bind(ev, n, {"b", "m", "s"}, 3);
        int64_t b = int_arg(ev, *a[0]), m = int_arg(ev, *a[1]), s = int_arg(ev, *a[2]);
        for (int64_t x : {b, m, s})
          if (x < -64 || x > 64) ev.fail(n, "cute.make_swizzle: parameter out of range");
        return V::swizzle(Swizzle(static_cast<int>(b), static_cast<int>(m), static_cast<int>(s)));
      },
      "cute.make_swizzle(b, m, s)");
  r.add(
      "cute.recast_layout",
      [](Evaluator& ev, const Node& n) {
        auto a = bind(ev, n, {"new_type_bits", "old_type_bits", "src_layout"}, 3);
        int64_t new_bits = int_arg(ev, *a[0]), old_bits = int_arg(ev, *a[1]);
        Value v = ev.eval(*a[2]);
        if (v.is(V::Kind::kSwizzle)) return V::swizzle(recast_swizzle(v.swizzle(), old_bits, new_bits));
        return V::layout(recast_layout(v.to_any_layout(), old_bits, new_bits));
      },
      "cute.recast_layout(new_type_bits, old_type_bits, src_layout)");
  r.add(
      "cute.slice_",
      [](Evaluator& ev, const Node& n) {  // the C++ slice takes the coordinate first
        auto a = bind(ev, n, {"src", "coord"}, 2);
        return ev.eval(cpp_call(n, "slice", {a[1], a[0]}));
      },
      "cute.slice_(src, coord)");
  r.add(
      "cute.group_modes",
      [](Evaluator& ev, const Node& n) {  // group<begin,end>(input)
        auto a = bind(ev, n, {"input", "begin", "end"}, 3);
        Node modes;
        modes.kind = Node::Kind::kTuple;
        modes.children = {*a[1], *a[2]};
        return ev.eval(cpp_call(n, "group", {a[0]}, &modes));
      },
      "cute.group_modes(input, begin, end)");
  for (const char* op : {"append", "prepend"}) {
    r.add(
        std::string("cute.") + op,
        [op](Evaluator& ev, const Node& n) {  // append<up_to_rank>(input, elem)
          auto a = bind(ev, n, {"input", "elem", "up_to_rank"}, 2);
          return ev.eval(cpp_call(n, op, {a[0], a[1]}, a[2]));
        },
        std::string("cute.") + op + "(input, elem, up_to_rank=None)");
  }
}

}  // namespace cutevis
