// CuTe's Tensor (iterator o layout) in the expression language; see lib/tensor.hpp.
#include "lib/tensor.hpp"

#include "lib/environment.hpp"

namespace cutevis {

namespace {

using V = Value;

class TensorObject : public Object {
 public:
  explicit TensorObject(Tensor t) : tensor(std::move(t)) {}
  std::string kind() const override { return "tensor"; }
  std::string to_string() const override { return cutevis::to_string(tensor, true); }
  Tensor tensor;
};

// A pointer named in the text (make_gmem_ptr<T>(p), make_smem_ptr(p), a bare name): a tensor
// without a layout yet.
class PointerObject : public Object {
 public:
  explicit PointerObject(Tensor t) : ptr(std::move(t)) {}
  std::string kind() const override { return "pointer"; }
  std::string to_string() const override;
  Tensor ptr;
};

const char* space_prefix(Tensor::Space s) {
  switch (s) {
    case Tensor::Space::kGmem: return "gmem_ptr";
    case Tensor::Space::kSmem: return "smem_ptr";
    case Tensor::Space::kTmem: return "tmem_ptr";
    default: return "ptr";
  }
}

std::string iterator_string(const Tensor& t, bool underscore) {
  if (t.space == Tensor::Space::kCounting) return "ArithTuple" + cutevis::to_string(t.coord, underscore);
  std::string bits = t.element.bits > 0 ? std::to_string(t.element.bits) : "?";
  std::string where = t.base.empty() ? (t.space == Tensor::Space::kRmem ? "rmem" : "?") : t.base;
  if (t.offset != 0) where += (t.offset > 0 ? "+" : "") + std::to_string(t.offset);
  return std::string(space_prefix(t.space)) + "[" + bits + "b](" + where + ")";
}

std::string PointerObject::to_string() const { return iterator_string(ptr, true); }

const Tensor* as_pointer(const Value& v) {
  if (!v.is(V::Kind::kObject)) return nullptr;
  auto* o = dynamic_cast<const PointerObject*>(v.object().get());
  return o ? &o->ptr : nullptr;
}

// --- coordinates with underscores --------------------------------------------------------

bool has_underscore(const Value& c) {
  if (c.is(V::Kind::kUnderscore)) return true;
  if (!c.is(V::Kind::kTuple)) return false;
  for (const auto& e : c.elements())
    if (has_underscore(e)) return true;
  return false;
}

// CuTe's lift_slice: the leaves of `t` paired with an underscore in `c`.
void lift(const Value& c, const IntTuple& t, std::vector<IntTuple>& out) {
  if (c.is(V::Kind::kTuple)) {
    if (t.is_leaf() || t.rank() != c.elements().size()) throw Error("slice: coordinate " + c.to_string() + " does not match " + to_string(t));
    for (size_t i = 0; i < t.rank(); ++i) lift(c.elements()[i], t[i], out);
    return;
  }
  if (c.is(V::Kind::kUnderscore)) out.push_back(t);
}

// slice(c, t): a tuple coordinate keeps the modes under `_` (a tuple, as CuTe's filter_tuple).
IntTuple slice_tuple(const Value& c, const IntTuple& t) {
  if (!c.is(V::Kind::kTuple)) return c.is(V::Kind::kUnderscore) ? t : IntTuple::tuple({});
  std::vector<IntTuple> out;
  lift(c, t, out);
  return IntTuple::tuple(std::move(out));
}

// The coordinate with every `_` read as 0 (CuTe's slice_and_offset offset).
IntTuple zero_underscores(const Value& c) {
  if (c.is(V::Kind::kUnderscore)) return IntTuple(0);
  if (c.is(V::Kind::kTuple)) {
    std::vector<IntTuple> m;
    for (const auto& e : c.elements()) m.push_back(zero_underscores(e));
    return IntTuple::tuple(std::move(m));
  }
  return c.to_int_tuple();
}

int64_t offset_of(const Layout& l, const Value& c) {
  IntTuple idx = crd2idx(zero_underscores(c), l.shape, l.stride);
  if (!idx.is_leaf() || has_basis(idx)) throw Error("a tensor with basis strides takes its offset as a coordinate");
  return idx.value();
}

Value coord_of(std::vector<Value> a) { return a.size() == 1 ? a[0] : V::tuple(std::move(a)); }

}  // namespace

std::string to_string(const Tensor& t, bool underscore) {
  return iterator_string(t, underscore) + " o " + cutevis::to_string(t.layout, underscore);
}

const Tensor* as_tensor(const Value& v) {
  if (!v.is(V::Kind::kObject)) return nullptr;
  auto* o = dynamic_cast<const TensorObject*>(v.object().get());
  return o ? &o->tensor : nullptr;
}

Value tensor_value(Tensor t) { return V::object(std::make_shared<TensorObject>(std::move(t))); }

Tensor tensor_from(const Value& v) {
  if (const Tensor* t = as_tensor(v)) return *t;
  Tensor t;
  t.layout = v.to_any_layout();
  return t;
}

AnyLayout slice(const AnyLayout& l, const Value& coord) {
  if (const Layout* p = std::get_if<Layout>(&l)) return Layout(slice_tuple(coord, p->shape), slice_tuple(coord, p->stride));
  const ComposedLayout& c = std::get<ComposedLayout>(l);
  const Layout& b = as_layout(c.layout_b(), "a composed layout's inner layout");
  Layout sliced(slice_tuple(coord, b.shape), slice_tuple(coord, b.stride));
  int64_t offset = checked_add(c.offset(), offset_of(b, coord));
  ComposedLayout out = c.with_b(sliced);
  if (offset == c.offset()) return out;
  if (c.smem_bits() != 0) throw Error("slicing a position-independent smem layout (smem_ptr flag) at a nonzero offset");
  if (c.a_is_swizzle()) return ComposedLayout(c.swizzle(), offset, sliced);
  return ComposedLayout(c.layout_a(), offset, sliced);
}

Tensor slice(const Tensor& t, const Value& coord) {
  Tensor out = t;
  if (const Layout* p = std::get_if<Layout>(&t.layout)) {
    out.layout = Layout(slice_tuple(coord, p->shape), slice_tuple(coord, p->stride));
    IntTuple idx = crd2idx(zero_underscores(coord), p->shape, p->stride);
    if (t.space == Tensor::Space::kCounting) {
      // ArithTuple iterators add coordinates
      out.coord = t.coord;
      if (!(idx.is_leaf() && idx.value() == 0 && idx.basis().empty())) {
        std::vector<IntTuple> m;
        for (size_t i = 0; i < t.coord.rank(); ++i) {
          int64_t add = 0;
          for (const auto& leaf : flatten_leaves(idx))
            if (leaf.basis().depth == 1 && static_cast<size_t>(leaf.basis().path[0]) == i) add += leaf.value();
          m.push_back(add == 0 ? t.coord[i] : IntTuple::dynamic(checked_add(t.coord[i].value(), add)));
        }
        out.coord = IntTuple::tuple(std::move(m));
      }
    } else {
      if (!idx.is_leaf() || !idx.basis().empty()) throw Error("slice: offset " + to_string(idx) + " is not an integer");
      out.offset = checked_add(t.offset, idx.value());
    }
    return out;
  }
  out.layout = slice(t.layout, coord);  // composed: the offset stays in the layout
  return out;
}

void register_tensor_names(Registry& r) {
  // make_gmem_ptr<T>(p), make_smem_ptr<T>(p), make_tmem_ptr<T>(p): the argument is named, not evaluated
  for (auto [name, space] : {std::pair<const char*, Tensor::Space>{"make_gmem_ptr", Tensor::Space::kGmem},
                             {"make_smem_ptr", Tensor::Space::kSmem}, {"make_tmem_ptr", Tensor::Space::kTmem}}) {
    Tensor::Space sp = space;  // clang 14 cannot capture a structured binding
    r.add(name, [sp](Evaluator& ev, const Node& n) {
      ev.expect_args(n, 0, 1);
      Tensor t;
      t.space = sp;
      if (n.template_args.size() == 1) {
        Value ty = ev.eval(n.template_args[0]);
        if (!ty.is(V::Kind::kType)) ev.fail(n.template_args[0], n.name + "<T>: T must be an element type such as half_t, got " + ty.describe());
        t.element = ty.type();
      }
      t.base = n.args.empty() ? "" : ev.text_of(n.args[0]);
      return V::object(std::make_shared<PointerObject>(t));
    }, std::string(name) + "<T>(ptr)");
  }
  // make_tensor(ptr, layout | shape[, stride | LayoutLeft/LayoutRight]) and make_tensor<T>(layout | shape)
  r.add("make_tensor", [](Evaluator& ev, const Node& n) {
    Tensor t;
    size_t first = 0;
    if (n.template_args.size() == 1) {
      Value ty = ev.eval(n.template_args[0]);
      if (!ty.is(V::Kind::kType)) ev.fail(n.template_args[0], "make_tensor<T>: T must be an element type such as float, got " + ty.describe());
      t.element = ty.type();
      t.space = Tensor::Space::kRmem;
      ev.expect_args(n, 1, 2);
    } else {
      ev.expect_args(n, 2, 3);
      first = 1;
      Value p;
      bool named = false;
      try {
        p = ev.eval(n.args[0]);
      } catch (const UnknownName&) {
        named = true;  // a kernel's pointer (ptr_A, params.ptr): its name is all we have
      }
      if (named || p.is(V::Kind::kInt)) {
        t.base = ev.text_of(n.args[0]);
      } else if (const Tensor* ptr = as_pointer(p)) {
        t = *ptr;
      } else if (const Tensor* other = as_tensor(p)) {
        t = *other;  // make_tensor(tensor.data(), ...) is written as the tensor's iterator
      } else {
        ev.fail(n.args[0], "make_tensor's first argument is a pointer (make_gmem_ptr<T>(p), make_smem_ptr(p), a name), got " + p.describe());
      }
    }
    std::vector<Value> rest;
    for (size_t i = first; i < n.args.size(); ++i) rest.push_back(ev.eval(n.args[i]));
    if (rest.size() == 1) {
      t.layout = rest[0].to_any_layout();
    } else {
      IntTuple shape = rest[0].to_int_tuple();
      if (rest[1].is(V::Kind::kTag)) {
        const std::string& tag = rest[1].tag();
        if (tag == "LayoutRight" || tag == "GenRowMajor") t.layout = make_layout_right(shape);
        else if (tag == "LayoutLeft" || tag == "GenColMajor") t.layout = make_layout(shape);
        else ev.fail(n.args.back(), "make_tensor: a major-ness is LayoutLeft or LayoutRight, got " + tag);
      } else {
        t.layout = make_layout(shape, rest[1].to_int_tuple());
      }
    }
    return tensor_value(std::move(t));
  }, "make_tensor(ptr, layout) / make_tensor(ptr, shape[, stride]) / make_tensor<T>(layout)");
  r.add("make_identity_tensor", [](Evaluator& ev, const Node& n) {
    ev.expect_args(n, 1, 1);
    IntTuple shape = ev.eval_args(n)[0].to_int_tuple();
    Tensor t;
    t.space = Tensor::Space::kCounting;
    std::vector<IntTuple> zeros(shape.is_leaf() ? 1 : shape.rank(), IntTuple(0));
    t.coord = IntTuple::tuple(std::move(zeros));
    t.layout = make_identity_layout(shape);
    return tensor_value(std::move(t));
  }, "make_identity_tensor(shape)");
  // x(coord...) after a value: a tensor or layout sliced (with `_`) or evaluated (lib/parser.cpp's "operator()")
  r.add("operator()", [](Evaluator& ev, const Node& n) {
    Value callee = ev.eval(n.children.at(0));
    Value coord = coord_of(ev.eval_args(n));
    if (const Tensor* t = as_tensor(callee)) {
      if (!has_underscore(coord)) ev.fail(n, "indexing a tensor reads memory cutevis does not have; slice it with `_`: tensor(_,_,k)");
      return tensor_value(slice(*t, coord));
    }
    if (!callee.is(V::Kind::kLayout)) ev.fail(n.children[0], "only a layout or a tensor can be called with a coordinate, got " + callee.describe());
    if (has_underscore(coord)) return V::layout(slice(callee.any_layout(), coord));
    const AnyLayout& l = callee.any_layout();
    if (const Layout* p = std::get_if<Layout>(&l)) return V::from(crd2idx(coord.to_int_tuple(), p->shape, p->stride));
    if (coord.is(V::Kind::kInt)) return V::integer(evaluate(l, coord.as_int()));
    ev.fail(n, "a composed layout is evaluated at an index here: L(i)");
  }, "x(coord...)");
  // tensor.layout(), tensor.data(), shape/stride/size/rank of a tensor
  if (const Builtin* base = r.find("layout")) {
    Builtin plain = *base;
    r.add("layout", [plain](Evaluator& ev, const Node& n) {
      if (n.args.size() == 1 && !n.has_template_args) {
        Value v = ev.eval(n.args[0]);
        if (const Tensor* t = as_tensor(v)) return V::layout(t->layout);
        return v;
      }
      if (n.args.size() == 1) {
        Value v = ev.eval(n.args[0]);
        if (const Tensor* t = as_tensor(v)) {
          AnyLayout l = t->layout;
          for (const auto& i : ev.eval_template_args(n)) l = get(l, static_cast<size_t>(i.as_int()));
          return V::layout(l);
        }
      }
      return plain(ev, n);
    }, r.signature("layout"));
  }
  for (const char* name : {"shape", "stride", "size", "rank", "cosize", "depth"}) {
    const Builtin* base = r.find(name);
    if (!base) continue;
    Builtin plain = *base;
    std::string fn = name;
    r.add(name, [plain, fn](Evaluator& ev, const Node& n) {
      if (n.args.size() == 1 && n.args[0].kind == Node::Kind::kName) {
        // only a name or call may be a tensor; evaluate once and answer from its layout
        Value v = ev.eval(n.args[0]);
        if (const Tensor* t = as_tensor(v)) {
          AnyLayout l = t->layout;
          for (const auto& i : ev.eval_template_args(n)) l = get(l, static_cast<size_t>(i.as_int()));
          if (fn == "shape") return V::from(shape(l));
          if (fn == "stride") return V::from(as_layout(l, "stride of a tensor").stride);
          if (fn == "size") return V::integer(size_integer(shape(l)));
          if (fn == "rank") return V::integer(static_cast<int64_t>(rank(l)));
          if (fn == "depth") return V::integer(depth(l));
          return V::integer(cosize(l));
        }
      }
      return plain(ev, n);
    }, r.signature(name));
  }
  r.add("data", [](Evaluator& ev, const Node& n) {
    ev.expect_args(n, 1, 1);
    Tensor t = tensor_from(ev.eval_args(n)[0]);
    return V::object(std::make_shared<PointerObject>(t));
  }, "tensor.data()");
}

}  // namespace cutevis
