// The layout algebra as named functions of the expression language.
//
// Each entry takes CuTe's spelling, in either dialect: `coalesce(L)`,
// `get<1>(L)`, `Layout<Shape<_4,_8>,Stride<_1,_4>>{}`, `Int<8>{}`.
#include <algorithm>

#include "lib/lang/cpp_syntax.hpp"
#include "lib/lang/expr.hpp"
#include "lib/lang/floating.hpp"
#include "lib/lang/tensor.hpp"

namespace cutevis {

namespace {

using V = Value;

// A __global__ function named with its template arguments (`&gemm_device<decltype(sA), ...>`): a
// pointer to the kernel that instance is, shown as its parameters' values.
class KernelPointer : public Object {
 public:
  KernelPointer(std::string name, std::vector<std::string> params, std::vector<Value> values)
      : name_(std::move(name)), params_(std::move(params)), values_(std::move(values)) {}
  std::string kind() const override { return "kernel"; }
  std::string brief() const override { return name_ + "<" + std::to_string(values_.size()) + " template arguments>"; }
  std::string to_string() const override {
    std::string out = name_ + "<";
    for (size_t i = 0; i < values_.size(); ++i) out += (i ? ", " : "") + param(i);
    out += ">";
    for (size_t i = 0; i < values_.size(); ++i) {
      const Value& v = values_[i];
      std::string shown = v.is(V::Kind::kObject) ? v.object()->brief() : v.to_cute_string();
      if (const size_t nl = shown.find('\n'); nl != std::string::npos) shown = shown.substr(0, nl) + " ...";
      out += "\n  " + param(i) + " = " + shown;
    }
    return out;
  }

 private:
  std::string param(size_t i) const { return i < params_.size() ? params_[i] : "#" + std::to_string(i); }
  std::string name_;
  std::vector<std::string> params_;
  std::vector<Value> values_;
};

std::vector<int64_t> template_ints(Evaluator& ev, const Node& n) {
  std::vector<int64_t> out;  // (a bool is an integer in C++: Int<is_same_v<A, B>>)
  for (const auto& v : ev.eval_template_args(n)) out.push_back(v.is(V::Kind::kBool) ? v.as_bool() : v.as_int());
  return out;
}

void no_template_args(Evaluator& ev, const Node& n) {
  if (n.has_template_args) ev.fail(n, n.name + " takes no template arguments");
}

size_t to_index(int64_t v, const char* what) {
  if (v < 0) throw Error(std::string(what) + ": negative mode index " + std::to_string(v));
  return static_cast<size_t>(v);
}

// Value-level get: a mode of a tuple, a layout, ...
Value value_get(const Value& v, size_t i) {
  if (v.is(V::Kind::kLayout)) return V::layout(get(v.any_layout(), i));
  if (v.is(V::Kind::kTuple)) {
    if (i >= v.elements().size()) throw Error("get<" + std::to_string(i) + ">: out of range for " + v.to_string());
    return v.elements()[i];
  }
  if (v.is(V::Kind::kInt) && i == 0) return v;
  throw Error("get<" + std::to_string(i) + ">: cannot take a mode of " + v.describe());
}

// CuTe's slice / dice of an IntTuple by a coordinate holding underscores.
void lift(const Value& c, const IntTuple& t, bool keep_underscore, std::vector<IntTuple>& out) {
  if (c.is(V::Kind::kTuple)) {
    if (t.is_leaf() || t.rank() != c.elements().size())
      throw Error("slice: coordinate " + c.to_string() + " does not match " + to_string(t));
    for (size_t i = 0; i < t.rank(); ++i) lift(c.elements()[i], t[i], keep_underscore, out);
    return;
  }
  if (c.is(V::Kind::kUnderscore) == keep_underscore) out.push_back(t);
}

IntTuple slice_tuple(const Value& c, const IntTuple& t, bool keep_underscore) {
  if (!c.is(V::Kind::kTuple)) {
    if (c.is(V::Kind::kUnderscore) == keep_underscore) return t;
    return IntTuple::tuple({});
  }
  std::vector<IntTuple> out;
  lift(c, t, keep_underscore, out);
  return IntTuple::tuple(std::move(out));
}

// The node of argument i: a template argument of Layout<Shape, Stride>{}, else a call
// argument (for error positions; never past the end).
const Node& arg_node(const Node& n, size_t i) {
  const std::vector<Node>& from = n.has_template_args ? n.template_args : n.args;
  return i < from.size() ? from[i] : n;
}

// Argument i used as a shape (or a cotarget): integers, no extent negative, as the
// shape of shape:stride must be (an extent may be 0, as CuTe's default-constructed int is).
IntTuple shape_arg(Evaluator& ev, const Node& n, size_t i, const Value& v) {
  IntTuple s = v.to_int_tuple();
  if (has_basis(s)) ev.fail(arg_node(n, i), "a shape cannot hold basis elements");
  for (const auto& leaf : flatten_leaves(s))
    if (leaf.value() < 0)
      ev.fail(arg_node(n, i), "shape " + to_string(s) + " has a negative extent " + std::to_string(leaf.value()));
  return s;
}

Value make_layout_value(Evaluator& ev, const Node& n, const std::vector<Value>& a) {
  if (a.empty()) return V::layout(Layout());
  if (a[0].is(V::Kind::kLayout)) {  // make_layout(L0, L1, ...): concatenation
    std::vector<Layout> modes;
    for (const auto& x : a) modes.push_back(x.to_layout());
    if (modes.size() == 1) return V::layout(make_layout(std::vector<Layout>{modes[0]}));
    return V::layout(make_layout(modes));
  }
  IntTuple shape = a[0].to_int_tuple();
  for (const auto& leaf : flatten_leaves(shape))
    if (leaf.value() < 0)
      ev.fail(arg_node(n, 0), "shape " + to_string(shape) + " has a negative extent " + std::to_string(leaf.value()));
  if (a.size() == 1) return V::layout(make_layout(shape));
  if (a.size() > 2)
    ev.fail(n, "make_layout(shape, stride) takes at most 2 arguments unless every argument is a layout");
  if (a[1].is(V::Kind::kTag)) {
    if (a[1].tag() == "LayoutRight" || a[1].tag() == "GenRowMajor") return V::layout(make_layout_right(shape));
    if (a[1].tag() == "LayoutLeft" || a[1].tag() == "GenColMajor") return V::layout(make_layout(shape));
    ev.fail(arg_node(n, 1), "expected a stride, LayoutLeft{} or LayoutRight{}, got " + a[1].tag());
  }
  IntTuple stride = a[1].to_int_tuple();
  if (!congruent(shape, stride))
    ev.fail(arg_node(n, 1), "shape " + to_string(shape) + " and stride " + to_string(stride) + " are not congruent");
  return V::layout(Layout(shape, stride));
}

// A tuple-building name: make_shape(...), Shape<...>{}, Tile<...>{}, ...
Value tuple_of(Evaluator& ev, const Node& n) {
  std::vector<Value> e = n.has_template_args ? ev.eval_template_args(n) : ev.eval_args(n);
  if (n.has_template_args && !n.args.empty()) ev.fail(n, n.name + "<...>{} takes no constructor arguments here");
  return V::tuple(std::move(e));
}

AnyLayout layout_arg(const Value& v) { return v.to_any_layout(); }

// Functions of (layout, tiler) on Layout or ComposedLayout.
using TilerOp = AnyLayout (*)(const AnyLayout&, const Tiler&);

void add_tiler_op(Registry& r, const char* name, TilerOp op) {
  r.add(
      name,
      [name, op](Evaluator& ev, const Node& n) {
        no_template_args(ev, n);
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        (void)name;
        return V::layout(op(layout_arg(a[0]), a[1].to_tiler()));
      },
      std::string(name) + "(L, tiler)");
}

Value tag_or_type(const char* tag) { return V::tag(tag); }

// cute::round_up (cute/int_tuple.hpp): ((a + b - 1) / b) * b, mode by mode for two tuples (b's missing modes 1)
Value round_up(Evaluator& ev, const Node& n, const Value& a, const Value& b) {
  const bool ta = a.is(V::Kind::kTuple), tb = b.is(V::Kind::kTuple);
  if (ta && tb) {
    if (a.elements().size() < b.elements().size())
      ev.fail(n, "round_up: " + b.to_string() + " has more modes than " + a.to_string());
    std::vector<Value> out;
    for (size_t i = 0; i < a.elements().size(); ++i)
      out.push_back(round_up(ev, n, a.elements()[i], i < b.elements().size() ? b.elements()[i] : V::integer(1)));
    return V::tuple(std::move(out));
  }
  if (ta || tb)
    ev.fail(n, "round_up takes two integers or two tuples (CuTe's a + b needs both alike), got " + a.describe() +
                   " and " + b.describe());
  const Integer x = a.as_integer(), y = b.as_integer();
  if (y.value == 0) ev.fail(n, "round_up: division by zero");
  return V::integer((x + y - Integer{1, false}) / y * y);
}

}  // namespace

void register_algebra(Registry& r) {
  // --- integers and tuples ------------------------------------------------------------
  for (const char* name : {"Int", "C"}) {
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          auto t = template_ints(ev, n);
          if (t.size() != 1) ev.fail(n, "Int<N> takes one template argument");
          if (!n.args.empty()) ev.fail(n, "Int<N>{} takes no constructor arguments");
          return V::integer(t[0]);
        },
        "Int<N>{}");
  }
  for (const char* name : {"make_shape", "make_stride", "make_coord", "make_step", "make_tile", "make_tuple", "Shape",
                           "Stride", "Step", "Coord", "Tile", "tuple", "cute::tuple", "make_pair"})
    r.add(
        name, [](Evaluator& ev, const Node& n) { return tuple_of(ev, n); }, std::string(name) + "(...)");
  for (const char* name : {"LayoutLeft", "LayoutRight", "GenColMajor", "GenRowMajor"})
    r.add(
        name, [name](Evaluator&, const Node&) { return tag_or_type(name); }, std::string(name) + "{}");
  // int(x): a run-time int, CuTe's dynamic integer; int{} is 0; `int` alone is the element type
  for (const char* name : {"int", "int32_t", "int64_t", "uint32_t", "uint64_t", "size_t"}) {
    r.add(
        name,
        [name](Evaluator& ev, const Node& n) {
          if (n.call == Node::Call::kNone) {
            ValueType t;
            if (lookup_value_type(name, t)) return V::type(t);
            ev.fail(n, std::string(name) + " is used here as a type; write " + name + "(N) for a run-time integer");
          }
          if (n.args.empty()) return V::dynamic_integer(0);  // int{}, int32_t(): value-initialized, CuTe's 0 extent
          ev.expect_args(n, 1, 1);
          Value v = ev.eval_args(n)[0];                   // size_t(IsMixedInput): a bool converts
          if (const FloatingValue* f = floating_of(v)) {  // int(2.9f): 2, toward zero
            ValueType t{name, 64};
            lookup_value_type(name, t);
            try {
              return V::dynamic_integer(truncated(*f, t));
            } catch (const Error& e) {
              ev.fail(n, e.what());
            }
          }
          return V::dynamic_integer(v.is(V::Kind::kBool) ? (v.as_bool() ? 1 : 0) : v.as_int());
        },
        std::string(name) + "(N)");
  }
  r.add("true_type", [](Evaluator&, const Node&) { return V::boolean(true); });
  r.add("false_type", [](Evaluator&, const Node&) { return V::boolean(false); });

  // --- layouts -----------------------------------------------------------------------------
  r.add(
      "Layout",
      [](Evaluator& ev, const Node& n) {
        auto t = ev.eval_template_args(n);
        if (t.empty() || t.size() > 2) ev.fail(n, "Layout<Shape, Stride> takes one or two template arguments");
        if (!n.args.empty()) ev.fail(n, "Layout<...>{} takes no constructor arguments");
        return make_layout_value(ev, n, t);
      },
      "Layout<Shape[, Stride]>{}");
  r.add(
      "make_layout",
      [](Evaluator& ev, const Node& n) {
        no_template_args(ev, n);
        ev.expect_args(n, 1, SIZE_MAX);
        return make_layout_value(ev, n, ev.eval_args(n));
      },
      "make_layout(shape[, stride | LayoutLeft{} | LayoutRight{}]) or make_layout(L0, L1, ...)");
  r.add(
      "make_identity_layout",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return V::layout(make_identity_layout(shape_arg(ev, n, 0, ev.eval_args(n)[0])));
      },
      "make_identity_layout(shape)");
  r.add(
      "make_ordered_layout",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        return V::layout(make_ordered_layout(shape_arg(ev, n, 0, a[0]), a[1].to_int_tuple()));
      },
      "make_ordered_layout(shape, order)");
  r.add(
      "make_layout_like",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return V::layout(make_layout_like(ev.eval_args(n)[0].to_layout()));
      },
      "make_layout_like(L)");
  r.add(
      "make_fragment_like",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        auto a = ev.eval_args(n);
        if (const Tensor* t = as_tensor(a[0])) {
          // CuTe: make_tensor<value_type>(make_fragment_like(tensor.layout())), registers of one thread
          const Layout* l = std::get_if<Layout>(&t->layout);
          if (!l || t->swizzled)
            ev.fail(n, "make_fragment_like of a swizzled tensor: its register order is not modelled");
          Tensor out;
          out.space = Tensor::Space::kRmem;
          out.element = t->element;
          out.layout = make_fragment_like(*l);
          if (!t->note.empty())
            out.note = "registers of one thread (made from " + t->note.substr(0, t->note.find(" (")) + ")";
          return tensor_value(std::move(out));
        }
        if (!a[0].is(V::Kind::kLayout)) return V::layout(make_layout(shape_arg(ev, n, 0, a[0])));
        return V::layout(make_fragment_like(a[0].to_layout()));
      },
      "make_fragment_like(L) / make_fragment_like(tensor)");
  r.add(
      "make_layout_tv",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        LayoutTV tv = make_layout_tv(a[0].to_layout(), a[1].to_layout());
        return V::tuple({V::from(tv.tiler_mn), V::layout(tv.layout_tv)});
      },
      "make_layout_tv(thr_layout, val_layout) -> (tiler_mn, layout_tv)");

  // --- swizzles and composed layouts ----------------------------------------------------
  for (const char* name : {"Swizzle", "Sw", "S"}) {
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          auto t = template_ints(ev, n);
          if (t.size() != 3) ev.fail(n, "Swizzle<B,M,S> takes three template arguments");
          if (!n.args.empty()) ev.fail(n, "Swizzle<B,M,S>{} takes no constructor arguments");
          for (int64_t x : t)
            if (x < -64 || x > 64) ev.fail(n, "Swizzle parameter out of range");
          return V::swizzle(Swizzle(static_cast<int>(t[0]), static_cast<int>(t[1]), static_cast<int>(t[2])));
        },
        "Swizzle<B,M,S>{}");
  }
  r.add(
      "make_composed_layout",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 3, 3);
        auto a = ev.eval_args(n);
        AnyLayout b = a[2].to_any_layout();
        if (a[1].is(V::Kind::kTag) && a[1].tag().rfind("smem_ptr[", 0) == 0) {
          int bits = std::stoi(a[1].tag().substr(9));
          if (!a[0].is(V::Kind::kSwizzle)) ev.fail(n.args[0], "an smem_ptr flag needs a swizzle");
          return V::layout(ComposedLayout::smem(a[0].swizzle(), bits, b));
        }
        int64_t o = a[1].as_int();
        if (a[0].is(V::Kind::kSwizzle)) return V::layout(ComposedLayout(a[0].swizzle(), o, b));
        return V::layout(ComposedLayout(a[0].to_layout(), o, b));
      },
      "make_composed_layout(A, offset, B)");
  r.add(
      "composition",
      [](Evaluator& ev, const Node& n) {
        no_template_args(ev, n);
        ev.expect_args(n, 2, 3);
        auto a = ev.eval_args(n);
        if (a.size() == 3) {  // composition(A, O, B) with CuTe's simplification
          AnyLayout b = a[2].to_any_layout();
          int64_t o = a[1].as_int();
          if (a[0].is(V::Kind::kSwizzle)) return V::layout(compose3(a[0].swizzle(), o, b));
          return V::layout(compose3(a[0].to_layout(), o, b));
        }
        if (a[0].is(V::Kind::kSwizzle)) {
          if (a[1].is(V::Kind::kSwizzle)) return V::swizzle(composition(a[0].swizzle(), a[1].swizzle()));
          return V::layout(composition(a[0].swizzle(), a[1].to_any_layout()));
        }
        AnyLayout lhs = a[0].to_any_layout();
        if (a[1].is(V::Kind::kSwizzle)) return V::layout(composition(lhs, a[1].swizzle()));
        const Layout* plain_a = std::get_if<Layout>(&lhs);
        if (plain_a && a[1].is(V::Kind::kLayout) && std::holds_alternative<Layout>(a[1].any_layout())) {
          CompositionCheck check;  // CuTe's weak divisibility check: keep its answer, say where it is wrong
          Layout r = composition(*plain_a, std::get<Layout>(a[1].any_layout()), check);
          if (check.index >= 0)
            ev.warn(n, "composition(" + ev.text_of(n.args[0]) + ", " + ev.text_of(n.args[1]) +
                           ") = " + to_string(r, true) + " is not A o B at index " + std::to_string(check.index) +
                           ": A(B(" + std::to_string(check.index) + ")) = " + std::to_string(check.expected) +
                           ", the result gives " + std::to_string(check.got) +
                           " (CuTe's divisibility check lets it through; this is CuTe's answer)");
          return V::layout(r);
        }
        if (a[1].is(V::Kind::kLayout)) return V::layout(composition(lhs, a[1].any_layout()));
        return V::layout(composition(lhs, a[1].to_tiler()));
      },
      "composition(A, B) or composition(A, offset, B)");
  r.add(
      "as_position_independent_swizzle_layout",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return V::layout(as_position_independent(ev.eval_args(n)[0].to_any_layout()));
      },
      "as_position_independent_swizzle_layout(L)");

  // --- queries ------------------------------------------------------------------------------
  r.add(
      "size",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval_args(n)[0];
        for (int64_t i : template_ints(ev, n)) v = value_get(v, to_index(i, "size"));
        if (v.is(V::Kind::kLayout)) return V::integer(size_integer(shape(v.any_layout())));
        return V::integer(size_integer(v.to_int_tuple()));
      },
      "size(x) or size<I...>(x)");
  r.add(
      "cosize",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval_args(n)[0];
        for (int64_t i : template_ints(ev, n)) v = value_get(v, to_index(i, "cosize"));
        AnyLayout l = v.to_any_layout();
        if (const Layout* plain = std::get_if<Layout>(&l)) return V::integer(cosize_integer(*plain));
        return V::integer(cosize(l));
      },
      "cosize(L)");
  r.add(
      "coshape",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return V::from(coshape(ev.eval_args(n)[0].to_layout()));
      },
      "coshape(L)");
  r.add(
      "rank",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval_args(n)[0];
        for (int64_t i : template_ints(ev, n)) v = value_get(v, to_index(i, "rank"));
        if (v.is(V::Kind::kLayout)) return V::integer(static_cast<int64_t>(rank(v.any_layout())));
        return V::integer(static_cast<int64_t>(v.to_int_tuple().rank()));
      },
      "rank(x) or rank<I...>(x)");
  r.add(
      "depth",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval_args(n)[0];
        for (int64_t i : template_ints(ev, n)) v = value_get(v, to_index(i, "depth"));
        if (v.is(V::Kind::kLayout)) return V::integer(depth(v.any_layout()));
        return V::integer(depth(v.to_int_tuple()));
      },
      "depth(x) or depth<I...>(x)");
  for (const char* name : {"get", "layout"}) {
    r.add(
        name,
        [](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 1);
          Value v = ev.eval_args(n)[0];
          for (int64_t i : template_ints(ev, n)) v = value_get(v, to_index(i, "get"));
          return v;
        },
        std::string(name) + "<I...>(x)");
  }
  // layout.get_hier_coord(idx) / layout.get_flat_coord(idx) (cute/layout.hpp): the coordinate whose image
  // is idx (idx2crd with the layout's strides); flat: each top mode's coordinate made one index of that mode
  for (const char* name : {"get_hier_coord", "get_flat_coord"}) {
    const bool flat = std::string(name) == "get_flat_coord";
    r.add(
        name,
        [flat](Evaluator& ev, const Node& n) {
          no_template_args(ev, n);
          ev.expect_args(n, 2, 2);
          const auto a = ev.eval_args(n);
          const Layout l = as_layout(layout_arg(a[0]), "get_flat_coord's layout");
          const IntTuple idx = a[1].to_int_tuple();
          // a run-time idx (block_rank_in_cluster()) gives run-time coordinates, except that CuTe's idx2crd
          // answers the static _0 for a mode of static extent 1: (_0,1,1,_0) for ((_1),_4,_4,_1)
          const bool runtime = has_dynamic(idx);
          const auto mark = [runtime](const IntTuple& c, const IntTuple& extent) {
            return runtime && !size_integer(extent).is_constant(1) ? make_dynamic(c) : c;
          };
          const IntTuple hier = idx2crd(idx, l.shape, l.stride);
          if (!l.shape.is_tuple()) return V::from(mark(hier, l.shape));
          std::vector<IntTuple> modes;
          for (size_t i = 0; i < l.shape.rank(); ++i)
            modes.push_back(mark(flat ? IntTuple(crd2idx(hier[i], l.shape[i], compact_col_major(l.shape[i]))) : hier[i],
                                 l.shape[i]));
          return V::from(IntTuple::tuple(modes));
        },
        std::string(name) + "(layout, idx): layout." + name + "(idx)");
  }
  // auto kernel_fptr = gemm_device<decltype(prob_shape), ...>;  (lib/lang/launch_binding.cpp,
  // mark_kernel_pointers, writes it __kernel_function<targs...>(gemm_device, ProblemShape, ...)): the
  // kernel and what each of its template parameters the pointer names is; nothing is run.
  r.add(
      "__kernel_function",
      [](Evaluator& ev, const Node& n) {
        if (n.args.empty() || n.args[0].kind != Node::Kind::kName)
          ev.fail(n, "__kernel_function<targs...>(kernel, params...) names a kernel");
        std::vector<std::string> params;
        for (size_t i = 1; i < n.args.size(); ++i) params.push_back(n.args[i].name);
        std::vector<Value> values;
        for (const Node& t : n.template_args) values.push_back(ev.eval(t));
        return V::object(std::make_shared<KernelPointer>(n.args[0].name, params, values));
      },
      "__kernel_function<targs...>(kernel, params...)");
  // auto [a, b] = e;  (a C++17 structured binding, read by lib/lang/cpp_scanner.cpp): the I-th of the N
  // names is get<I>(e), and e must decompose into exactly N elements, as g++ requires
  r.add(
      "structured_binding",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        const std::vector<int64_t> in = template_ints(ev, n);
        if (in.size() != 2 || in[0] < 0 || in[0] >= in[1]) ev.fail(n, "structured_binding<I, N>(e) with 0 <= I < N");
        Value v = ev.eval_args(n)[0];
        size_t count = 0;
        if (v.is(V::Kind::kLayout))  // cute::Layout keeps its shape and stride in a private base: g++ refuses
          ev.fail(n,
                  "a structured binding cannot decompose a layout (g++: cannot decompose class type "
                  "'cute::Layout<...>'); take its modes with get<I>(layout)");
        if (v.is(V::Kind::kTuple)) count = v.elements().size();
        else ev.fail(n, "a structured binding cannot decompose " + v.describe());
        if (count != static_cast<size_t>(in[1]))
          ev.fail(n, std::to_string(in[1]) + " names provided for a structured binding, while " + v.describe() +
                         " decomposes into " + std::to_string(count) + " elements");
        return value_get(v, static_cast<size_t>(in[0]));
      },
      "structured_binding<I, N>(e): the I-th name of `auto [n0, ..., nN-1] = e;`");
  // front(t) / back(t) (cute/algorithm/tuple_algorithms.hpp): the first / last leaf of a tuple,
  // recursively (front((_1,(2,3))) = _1); a non-tuple is itself
  for (const char* name : {"front", "back"}) {
    const bool first = std::string(name) == "front";
    r.add(
        name,
        [first](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 1);
          Value v = ev.eval_args(n)[0];
          while (v.is(V::Kind::kTuple)) {
            if (v.elements().empty()) ev.fail(n, n.name + "(t) of an empty tuple");
            v = first ? v.elements().front() : v.elements().back();
          }
          return v;
        },
        std::string(name) + "(t)");
  }
  r.add(
      "shape",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval_args(n)[0];
        for (int64_t i : template_ints(ev, n)) v = value_get(v, to_index(i, "shape"));
        if (v.is(V::Kind::kLayout)) return V::from(shape(v.any_layout()));
        return V::from(v.to_int_tuple());
      },
      "shape(L) or shape<I...>(L)");
  r.add(
      "stride",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval_args(n)[0];
        for (int64_t i : template_ints(ev, n)) v = value_get(v, to_index(i, "stride"));
        return V::from(v.to_layout().stride);
      },
      "stride(L) or stride<I...>(L)");
  r.add(
      "select",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval_args(n)[0];
        std::vector<size_t> modes;
        for (int64_t i : template_ints(ev, n)) modes.push_back(to_index(i, "select"));
        if (v.is(V::Kind::kLayout)) return V::layout(select(v.to_layout(), modes));
        if (v.is(V::Kind::kTuple)) {  // a coordinate with `_` (SM100's select<1,2,3>(mma_coord_vmnk))
          std::vector<V> picked;
          for (size_t m : modes) picked.push_back(value_get(v, m));
          return V::tuple(std::move(picked));
        }
        return V::from(select(v.to_int_tuple(), modes));
      },
      "select<I...>(x)");
  r.add(
      "take",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        auto t = template_ints(ev, n);
        if (t.size() != 2) ev.fail(n, "take<B,E>(x) takes two template arguments");
        Value v = ev.eval_args(n)[0];
        size_t b = to_index(t[0], "take"), e = to_index(t[1], "take");
        if (v.is(V::Kind::kLayout)) return V::layout(take(v.any_layout(), b, e));
        return V::from(take(v.to_int_tuple(), b, e));
      },
      "take<B,E>(x)");
  r.add(
      "group",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        auto t = template_ints(ev, n);
        if (t.size() != 2) ev.fail(n, "group<B,E>(x) takes two template arguments");
        Value v = ev.eval_args(n)[0];
        size_t b = to_index(t[0], "group"), e = to_index(t[1], "group");
        if (v.is(V::Kind::kLayout)) return V::layout(group(v.any_layout(), b, e));
        return V::from(group(v.to_int_tuple(), b, e));
      },
      "group<B,E>(x)");
  r.add(
      "flatten",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval_args(n)[0];
        if (v.is(V::Kind::kLayout)) return V::layout(flatten(v.any_layout()));
        return V::from(flatten(v.to_int_tuple()));
      },
      "flatten(x)");
  for (const char* name : {"append", "prepend"}) {
    bool is_append = std::string(name) == "append";
    r.add(
        name,
        [is_append](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 2);
          auto a = ev.eval_args(n);
          auto t = template_ints(ev, n);
          if (a[0].is(V::Kind::kLayout)) {
            Layout x = a.size() > 1 ? a[1].to_layout() : Layout();
            Layout l = a[0].to_layout();
            if (!t.empty())
              return V::layout(is_append ? append_to_rank(l, to_index(t[0], "append"), x)
                                         : prepend_to_rank(l, to_index(t[0], "prepend"), x));
            return V::layout(is_append ? append(l, x) : prepend(l, x));
          }
          IntTuple l = a[0].to_int_tuple();
          if (a.size() < 2) ev.fail(n, "appending to a tuple needs the element to append");
          IntTuple x = a[1].to_int_tuple();
          if (!t.empty())
            return V::from(is_append ? append_to_rank(l, to_index(t[0], "append"), x)
                                     : prepend_to_rank(l, to_index(t[0], "prepend"), x));
          return V::from(is_append ? append(l, x) : prepend(l, x));
        },
        std::string(name) + "[<N>](x[, elem])");
  }
  r.add(
      "replace",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto t = template_ints(ev, n);
        if (t.size() != 1) ev.fail(n, "replace<N>(x, elem) takes one template argument");
        auto a = ev.eval_args(n);
        if (a[0].is(V::Kind::kLayout))
          return V::layout(replace(a[0].to_layout(), to_index(t[0], "replace"), a[1].to_layout()));
        return V::from(replace_mode(a[0].to_int_tuple(), to_index(t[0], "replace"), a[1].to_int_tuple()));
      },
      "replace<N>(x, elem)");
  r.add(
      "zip",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 2);
        auto a = ev.eval_args(n);
        if (a[0].is(V::Kind::kLayout))
          return V::layout(a.size() == 1 ? zip(a[0].to_layout()) : zip(a[0].to_layout(), a[1].to_layout()));
        return V::from(a.size() == 1 ? zip(a[0].to_int_tuple()) : zip(a[0].to_int_tuple(), a[1].to_int_tuple()));
      },
      "zip(x[, y])");

  // --- coordinates ---------------------------------------------------------------------------
  r.add(
      "crd2idx",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 3);
        auto a = ev.eval_args(n);
        IntTuple c = a[0].to_int_tuple();
        IntTuple shape_ = a.size() == 2 && a[1].is(V::Kind::kLayout) ? a[1].to_layout().shape : a[1].to_int_tuple();
        IntTuple stride_ = a.size() == 2
                               ? (a[1].is(V::Kind::kLayout) ? a[1].to_layout().stride : compact_col_major(shape_))
                               : a[2].to_int_tuple();
        IntTuple r = crd2idx(c, shape_, stride_);
        // static when every term is: the coordinate, shape and stride static, or every stride _0
        auto strides = flatten_leaves(stride_);
        bool zero = std::all_of(strides.begin(), strides.end(), [](const IntTuple& d) { return d == IntTuple(0); });
        bool dynamic = !zero && (has_dynamic(c) || has_dynamic(shape_) || has_dynamic(stride_));
        return V::from(dynamic ? make_dynamic(r) : r);
      },
      "crd2idx(coord, shape[, stride]) or crd2idx(coord, L)");
  r.add(
      "idx2crd",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 3);
        auto a = ev.eval_args(n);
        IntTuple idx = a[0].to_int_tuple(), s = a[1].to_int_tuple();
        IntTuple r = a.size() == 2 ? idx2crd(idx, s) : idx2crd(idx, s, a[2].to_int_tuple());
        bool dynamic = has_dynamic(idx) || has_dynamic(s) || (a.size() == 3 && has_dynamic(a[2].to_int_tuple()));
        return V::from(dynamic ? make_dynamic(r) : r);
      },
      "idx2crd(index, shape[, stride])");
  r.add(
      "get_1d_coord",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        return V::from(get_1d_coord(a[0].to_layout(), a[1].as_int()));
      },
      "get_1d_coord(L, index)");
  for (const char* name : {"slice", "dice"}) {
    bool keep = std::string(name) == "slice";
    r.add(
        name,
        [keep](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 2, 2);
          auto a = ev.eval_args(n);
          if (a[1].is(V::Kind::kLayout)) {
            Layout l = a[1].to_layout();
            return V::layout(Layout(slice_tuple(a[0], l.shape, keep), slice_tuple(a[0], l.stride, keep)));
          }
          return V::from(slice_tuple(a[0], a[1].to_int_tuple(), keep));
        },
        std::string(name) + "(coord, x)");
  }
  r.add(
      "ceil_div",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        return V::from(ceil_div(a[0].to_int_tuple(), a[1].to_int_tuple()));
      },
      "ceil_div(a, b)");
  r.add(
      "round_up",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        return round_up(ev, n, a[0], a[1]);
      },
      "round_up(a, b)");
  r.add(
      "shape_div",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        return V::from(shape_div(a[0].to_int_tuple(), a[1].to_int_tuple()));
      },
      "shape_div(a, b)");
  r.add(
      "product_each",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return V::from(product_each(ev.eval_args(n)[0].to_int_tuple()));
      },
      "product_each(shape)");
  for (const char* name : {"congruent", "weakly_congruent", "compatible"}) {
    std::string which = name;
    r.add(
        name,
        [which](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 2, 2);
          auto a = ev.eval_args(n);
          IntTuple x = a[0].is(V::Kind::kLayout) ? shape(a[0].any_layout()) : a[0].to_int_tuple();
          IntTuple y = a[1].is(V::Kind::kLayout) ? shape(a[1].any_layout()) : a[1].to_int_tuple();
          if (which == "congruent") return V::boolean(congruent(x, y));
          if (which == "weakly_congruent") return V::boolean(weakly_congruent(x, y));
          return V::boolean(compatible(x, y));
        },
        which + "(a, b)");
  }

  // --- algebra -------------------------------------------------------------------------------
  r.add(
      "coalesce",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 2);
        auto a = ev.eval_args(n);
        if (!a[0].is(V::Kind::kLayout)) {  // coalesce(Shape): the static modes multiply out
          IntTuple s = a[0].to_int_tuple();
          return V::integer(size_integer(s));
        }
        if (a.size() == 1) return V::layout(coalesce(a[0].any_layout()));
        return V::layout(coalesce(a[0].any_layout(), a[1].to_int_tuple()));
      },
      "coalesce(L[, profile])");
  r.add(
      "filter",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 2);
        auto a = ev.eval_args(n);
        if (a.size() == 1) return V::layout(filter(layout_arg(a[0])));
        return V::layout(filter(layout_arg(a[0]), a[1].to_int_tuple()));
      },
      "filter(L[, profile])");
  r.add(
      "filter_zeros",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return V::layout(filter_zeros(ev.eval_args(n)[0].to_layout()));
      },
      "filter_zeros(L)");
  r.add(
      "complement",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 2);
        auto a = ev.eval_args(n);
        if (a.size() == 1) return V::layout(complement(layout_arg(a[0])));
        return V::layout(complement(layout_arg(a[0]), shape_arg(ev, n, 1, a[1])));
      },
      "complement(L[, cotarget])");
  r.add(
      "right_inverse",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        auto a = ev.eval_args(n);
        if (a[0].is(V::Kind::kUnderscore)) return a[0];
        if (a[0].is(V::Kind::kSwizzle)) return a[0];
        return V::layout(right_inverse(layout_arg(a[0])));
      },
      "right_inverse(L)");
  r.add(
      "left_inverse",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        auto a = ev.eval_args(n);
        if (a[0].is(V::Kind::kUnderscore)) return a[0];
        if (a[0].is(V::Kind::kSwizzle)) return a[0];
        return V::layout(left_inverse(layout_arg(a[0])));
      },
      "left_inverse(L)");
  r.add(
      "max_common_vector",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        return V::integer(max_common_vector(layout_arg(a[0]), layout_arg(a[1])));
      },
      "max_common_vector(A, B)");
  r.add(
      "max_common_layout",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        return V::layout(max_common_layout(a[0].to_layout(), a[1].to_layout()));
      },
      "max_common_layout(A, B)");
  r.add(
      "nullspace",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        return V::layout(nullspace(ev.eval_args(n)[0].to_layout()));
      },
      "nullspace(L)");
  add_tiler_op(r, "logical_divide", &logical_divide);
  add_tiler_op(r, "zipped_divide", &zipped_divide);
  add_tiler_op(r, "tiled_divide", &tiled_divide);
  add_tiler_op(r, "flat_divide", &flat_divide);
  add_tiler_op(r, "logical_product", &logical_product);
  add_tiler_op(r, "zipped_product", &zipped_product);
  add_tiler_op(r, "tiled_product", &tiled_product);
  add_tiler_op(r, "flat_product", &flat_product);
  for (const char* name : {"blocked_product", "raked_product"}) {
    bool blocked = std::string(name) == "blocked_product";
    r.add(
        name,
        [blocked](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 2, 2);
          auto a = ev.eval_args(n);
          Layout t = a[1].to_layout();
          return V::layout(blocked ? blocked_product(layout_arg(a[0]), t) : raked_product(layout_arg(a[0]), t));
        },
        std::string(name) + "(block, tiler)");
  }
  r.add(
      "tile_to_shape",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 3);
        auto a = ev.eval_args(n);
        if (a[1].is(V::Kind::kLayout)) a[1] = V::from(shape(a[1].any_layout()));  // CuTe takes shape(trg_shape)
        IntTuple trg = shape_arg(ev, n, 1, a[1]);
        if (a.size() == 2) return V::layout(tile_to_shape(layout_arg(a[0]), trg));
        if (a[2].is(V::Kind::kTag)) {
          if (a[2].tag() == "LayoutLeft" || a[2].tag() == "GenColMajor")
            return V::layout(tile_to_shape(layout_arg(a[0]), trg));
          if (a[2].tag() == "LayoutRight" || a[2].tag() == "GenRowMajor") {
            std::vector<IntTuple> order;  // row-major: the last mode first
            for (size_t i = 0; i < trg.rank(); ++i) order.emplace_back(static_cast<int64_t>(trg.rank() - 1 - i));
            return V::layout(tile_to_shape(layout_arg(a[0]), trg, IntTuple::tuple(order)));
          }
        }
        return V::layout(tile_to_shape(layout_arg(a[0]), trg, a[2].to_int_tuple()));
      },
      "tile_to_shape(block, shape[, order])");
  r.add(
      "with_shape",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        return V::layout(composition(layout_arg(a[0]), AnyLayout(make_layout(shape_arg(ev, n, 1, a[1])))));
      },
      "with_shape(L, shape)");
  for (const char* name : {"upcast", "downcast"}) {
    bool up = std::string(name) == "upcast";
    r.add(
        name,
        [up](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 1);
          auto t = template_ints(ev, n);
          if (t.size() != 1) ev.fail(n, std::string(up ? "upcast" : "downcast") + "<N>(L) takes one template argument");
          Value v = ev.eval_args(n)[0];
          if (v.is(V::Kind::kSwizzle)) return V::swizzle(up ? upcast(v.swizzle(), t[0]) : downcast(v.swizzle(), t[0]));
          return V::layout(up ? upcast(layout_arg(v), t[0]) : downcast(layout_arg(v), t[0]));
        },
        std::string(name) + "<N>(L)");
  }
  r.add(
      "recast_layout",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        auto t = ev.eval_template_args(n);
        if (t.size() != 2 || !t[0].is(V::Kind::kType) || !t[1].is(V::Kind::kType))
          ev.fail(n, "recast_layout<OldType,NewType>(L) takes two element types");
        Value v = ev.eval_args(n)[0];
        if (v.is(V::Kind::kSwizzle)) return V::swizzle(recast_swizzle(v.swizzle(), t[0].type().bits, t[1].type().bits));
        return V::layout(recast_layout(layout_arg(v), t[0].type().bits, t[1].type().bits));
      },
      "recast_layout<Old,New>(L)");

  register_cpp_syntax(r);  // C++ as kernels write it (lib/lang/cpp_syntax.cpp)
}

}  // namespace cutevis
