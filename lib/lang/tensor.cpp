// CuTe's Tensor (iterator o layout) in the expression language; see lib/lang/tensor.hpp.
#include "lib/lang/tensor.hpp"

#include "lib/lang/cpp_syntax.hpp"
#include "lib/lang/environment.hpp"

namespace cutevis {

namespace {

using V = Value;

class TensorObject : public Object {
 public:
  explicit TensorObject(Tensor t) : tensor(std::move(t)) {}
  std::string kind() const override { return "tensor"; }
  std::string to_string() const override {
    return cutevis::to_string(tensor, true) + (tensor.note.empty() ? "" : "\n  " + tensor.note);
  }
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
  if (t.space == Tensor::Space::kDescriptor) return t.base;  // GMMA::DescriptorIterator: one descriptor per MMA
  std::string bits = t.element.bits > 0 ? std::to_string(t.element.bits) : "?";
  std::string where = t.base.empty() ? (t.space == Tensor::Space::kRmem ? "rmem" : "?") : t.base;
  if (t.offset != 0) where += (t.offset > 0 ? "+" : "") + std::to_string(t.offset);
  std::string ptr = std::string(space_prefix(t.space)) + "[" + bits + "b](" + where + ")";
  return t.swizzled ? cutevis::to_string(t.swizzle) + "_" + ptr : ptr;
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
    if (t.is_leaf() || t.rank() != c.elements().size())
      throw Error("slice: coordinate " + c.to_string() + " does not match " + to_string(t));
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

// The one element type a builtin's <T> names (recast<NewType>, recast_ptr<T>), or the error it gives.
ValueType element_type_arg(Evaluator& ev, const Node& n, const std::string& not_one, const std::string& not_a_type) {
  if (n.template_args.size() != 1) ev.fail(n, not_one);
  const Value ty = ev.eval(n.template_args[0]);
  if (!ty.is(V::Kind::kType)) ev.fail(n.template_args[0], not_a_type + ty.describe());
  return ty.type();
}

Value coord_of(std::vector<Value> a) { return a.size() == 1 ? a[0] : V::tuple(std::move(a)); }

// CuTe's dice(proj, x): the modes of x where proj is not `_` (X), as a tuple.
Value dice_value(const Value& proj, const Value& x) {
  if (!proj.is(V::Kind::kTuple)) return proj.is(V::Kind::kUnderscore) ? V::tuple({}) : x;
  if (!x.is(V::Kind::kTuple) || x.elements().size() != proj.elements().size())
    throw Error("dice: projection " + proj.to_string() + " does not match " + x.to_string());
  std::vector<V> out;
  for (size_t i = 0; i < x.elements().size(); ++i) {
    const V& p = proj.elements()[i];
    if (p.is(V::Kind::kUnderscore)) continue;
    V d = p.is(V::Kind::kTuple) ? dice_value(p, x.elements()[i]) : x.elements()[i];
    if (d.is(V::Kind::kTuple) && p.is(V::Kind::kTuple)) {
      for (const auto& e : d.elements()) out.push_back(e);  // lift_dice flattens into the result
    } else {
      out.push_back(d);
    }
  }
  return V::tuple(std::move(out));
}

IntTuple dice_tuple(const Value& proj, const IntTuple& t) {
  if (!proj.is(V::Kind::kTuple)) return proj.is(V::Kind::kUnderscore) ? IntTuple::tuple({}) : t;
  std::vector<IntTuple> out;
  for (size_t i = 0; i < proj.elements().size() && i < t.rank(); ++i)
    if (!proj.elements()[i].is(V::Kind::kUnderscore)) out.push_back(t[i]);
  return IntTuple::tuple(std::move(out));
}

size_t rank_of(const IntTuple& t) { return t.is_leaf() ? 1 : t.rank(); }

// repeat<R>(_) and append<R>(coord, _)
Value underscores(size_t r) { return r == 1 ? V::underscore() : V::tuple(std::vector<V>(r, V::underscore())); }
Value append_underscores(const Value& coord, size_t r) {
  std::vector<V> e = coord.is(V::Kind::kTuple) ? coord.elements() : std::vector<V>{coord};
  while (e.size() < r) e.push_back(V::underscore());
  return V::tuple(std::move(e));
}

Tensor zipped(const Tensor& t, const Tiler& tiler) {
  Tensor out = t;
  out.layout = zipped_divide(t.layout, tiler);
  return out;
}

// Wraps the builtin `name`: called with `args` arguments whose first is a name holding a tensor (only a
// name may hold one; it is evaluated once), `on_tensor(ev, n, tensor)` answers; anything else goes to the
// builtin as it was.
template <class F>
void answer_for_tensor(Registry& r, const char* name, size_t args, F on_tensor) {
  const Builtin* base = r.find(name);
  if (!base) return;
  Builtin plain = *base;
  r.add(
      name,
      [plain, args, on_tensor](Evaluator& ev, const Node& n) -> Value {
        if (n.args.size() == args && n.args[0].kind == Node::Kind::kName) {
          Value v = ev.eval(n.args[0]);
          if (const Tensor* t = as_tensor(v)) return on_tensor(ev, n, *t);
        }
        return plain(ev, n);
      },
      r.signature(name));
}

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
  if (const Layout* p = std::get_if<Layout>(&l))
    return Layout(slice_tuple(coord, p->shape), slice_tuple(coord, p->stride));
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

// CuTe adds coord * stride leaf by leaf to an ArithTuple iterator, each product an `int` where either factor is
// (a blockIdx, a run-time extent) and not the static _0: mark the components such a product lands in.  So
// local_tile at a run-time block coordinate prints ArithTuple(_0,0): only the blocked component is run-time.
void runtime_components(const Integer& c, const IntTuple& shape, const IntTuple& stride, std::vector<bool>& dyn) {
  if (c.is_constant(0)) return;
  if (shape.is_tuple()) {  // an integer split colexicographically over the modes, as crd2idx does
    if (stride.is_leaf() || stride.rank() != shape.rank()) return;
    Integer rest = c;
    for (size_t i = 0; i < shape.rank(); ++i) {
      if (i + 1 == shape.rank()) {
        runtime_components(rest, shape[i], stride[i], dyn);
      } else {
        const Integer n = size_integer(shape[i]);
        runtime_components(rest % n, shape[i], stride[i], dyn);
        rest = rest / n;
      }
    }
    return;
  }
  if (!stride.is_leaf() || stride.basis().empty()) return;
  const Integer s{stride.value(), has_dynamic(stride)};
  if ((c * s).dynamic && stride.basis().path[0] < dyn.size()) dyn[stride.basis().path[0]] = true;
}

void runtime_components(const IntTuple& c, const IntTuple& shape, const IntTuple& stride, std::vector<bool>& dyn) {
  if (c.is_leaf()) {
    runtime_components(Integer{c.value(), has_dynamic(c)}, shape, stride, dyn);
    return;
  }
  if (shape.is_leaf() || stride.is_leaf() || c.rank() != shape.rank() || stride.rank() != shape.rank()) return;
  for (size_t i = 0; i < c.rank(); ++i) runtime_components(c[i], shape[i], stride[i], dyn);
}

Tensor slice(const Tensor& t, const Value& coord) {
  Tensor out = t;
  if (const Layout* p = std::get_if<Layout>(&t.layout)) {
    out.layout = Layout(slice_tuple(coord, p->shape), slice_tuple(coord, p->stride));
    const IntTuple at = zero_underscores(coord);
    IntTuple idx = crd2idx(at, p->shape, p->stride);
    if (t.space == Tensor::Space::kCounting) {
      // ArithTuple iterators add coordinates: idx is a coordinate (a tuple, or one basis leaf)
      std::vector<int64_t> add(t.coord.rank(), 0);
      if (idx.is_tuple()) {
        for (size_t i = 0; i < idx.rank() && i < add.size(); ++i)
          add[i] = idx[i].is_leaf() ? IntTuple(idx[i]).value() : 0;
      } else if (idx.basis().depth == 1 && idx.basis().path[0] < add.size()) {
        add[idx.basis().path[0]] = idx.value();
      }
      std::vector<bool> runtime(add.size(), false);
      runtime_components(at, p->shape, p->stride, runtime);
      std::vector<IntTuple> m;
      for (size_t i = 0; i < add.size(); ++i) {
        IntTuple c(t.coord[i]);
        if (add[i] == 0 && !runtime[i]) {
          m.push_back(c);
        } else {
          const int64_t v = checked_add(c.value(), add[i]);
          m.push_back(runtime[i] || has_dynamic(c) ? IntTuple::dynamic(v) : IntTuple(v));
        }
      }
      out.coord = IntTuple::tuple(std::move(m));
    } else {
      if (!idx.is_leaf() || !idx.basis().empty()) throw Error("slice: offset " + to_string(idx) + " is not an integer");
      out.offset = checked_add(t.offset, idx.value());
    }
    return out;
  }
  out.layout = slice(t.layout, coord);  // composed: the offset stays in the layout
  return out;
}

Tensor local_tile(const Tensor& t, const Value& tiler, const Value& coord) {
  // inner_partition: zipped_divide, then the coordinate slices the rest mode
  Tensor tiled = zipped(t, tiler.to_tiler());
  const IntTuple& sh = shape(tiled.layout);
  size_t r0 = rank_of(sh[0]), r1 = rank_of(sh[1]);
  Value c = coord.is(V::Kind::kTuple) ? append_underscores(coord, r1) : coord;
  return slice(tiled, V::tuple({underscores(r0), c}));
}

Tensor local_partition(const Tensor& t, const Layout& tile, int64_t index) {
  // outer_partition(tensor, product_each(shape(tile)), tile.get_flat_coord(index))
  IntTuple tile_shape = product_each(tile.shape);
  IntTuple hier = idx2crd(IntTuple(index), tile.shape, tile.stride);
  std::vector<V> flat;
  if (tile.shape.is_leaf()) {
    flat.push_back(V::from(hier));
  } else {
    for (size_t i = 0; i < tile.shape.rank(); ++i) flat.push_back(V::integer(crd2idx(hier[i], tile.shape[i])));
  }
  Tensor tiled = zipped(t, Tiler::from_shape(tile_shape));
  const IntTuple& sh = shape(tiled.layout);
  size_t r0 = rank_of(sh[0]), r1 = rank_of(sh[1]);
  Value c = flat.size() == 1 ? flat[0] : append_underscores(V::tuple(flat), r0);
  return slice(tiled, V::tuple({c, underscores(r1)}));
}

void register_tensor_names(Registry& r) {
  // local_tile(tensor, tiler, coord[, proj]): the CTA's tile
  r.add(
      "local_tile",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 3, 4);
        auto a = ev.eval_args(n);
        Value tiler = a[1], coord = a[2];
        if (a.size() == 4) {
          tiler = dice_value(a[3], tiler.is(V::Kind::kLayout) ? V::from(shape(tiler.any_layout())) : tiler);
          coord = dice_value(a[3], coord);
        }
        return tensor_value(local_tile(tensor_from(a[0]), tiler, coord));
      },
      "local_tile(tensor, tiler, coord[, proj])");
  // local_partition(tensor, thr_layout, thr_idx[, proj]): one thread's elements
  // as_position_independent_swizzle_tensor(t) (cute/pointer_flagged.hpp): the swizzle moves from the
  // pointer (acting on byte addresses) into the layout, recast to elements, over a plain smem_ptr:
  // `smem_ptr[16b](p) o Sw<3,3,3> o _0 o L` for `Sw<3,4,3>_smem_ptr[16b](p) o L`
  r.add(
      "as_position_independent_swizzle_tensor",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval(n.args[0]);
        const Tensor* t = as_tensor(v);
        if (!t || t->space != Tensor::Space::kSmem)
          ev.fail(n.args[0], "as_position_independent_swizzle_tensor expects an smem tensor, got " + v.describe());
        if (!t->swizzled || t->swizzle.bits == 0) return v;  // no swizzle: the tensor itself
        if (t->element.bits <= 0)
          ev.fail(n.args[0], "as_position_independent_swizzle_tensor: the element type is unknown");
        Tensor out = *t;
        out.swizzled = false;
        out.swizzle = Swizzle();
        out.layout = as_position_independent(ComposedLayout::smem(t->swizzle, t->element.bits, t->layout));
        return tensor_value(std::move(out));
      },
      "as_position_independent_swizzle_tensor(smem_tensor)");
  // as_position_independent_swizzle_layout(Sw o smem_ptr[B] o L) = Sw' o _0 o L, Sw' recast from bytes to B bits
  r.add(
      "as_position_independent_swizzle_layout",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Value v = ev.eval(n.args[0]);
        const AnyLayout l = v.to_any_layout();
        const auto* c = std::get_if<ComposedLayout>(&l);
        if (!c || !c->smem_bits())
          ev.fail(n.args[0],
                  "as_position_independent_swizzle_layout expects Sw o smem_ptr[B] o L, got " + v.describe());
        return V::layout(as_position_independent(l));
      },
      "as_position_independent_swizzle_layout(Sw o smem_ptr[B] o L)");
  // recast<NewType>(tensor) (cute/tensor_impl.hpp): the same memory read as NewType. The layout is
  // recast_layout<OldType,NewType> (refused where CuTe's upcast/downcast static_assert); the pointer keeps
  // its space and its swizzle; an upcast of a plain layout with negative strides first moves the pointer
  // by the extent the layout loses, as CuTe does. CuTe recasts tensors only: a layout is recast_layout's.
  r.add(
      "recast",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        const ValueType to = element_type_arg(ev, n, "recast<NewType>(tensor) takes one element type",
                                              "recast<NewType>: NewType must be an element type, got ");
        Value v = ev.eval(n.args[0]);
        const Tensor* t = as_tensor(v);
        if (!t)
          ev.fail(n.args[0], "recast<" + to.name + "> takes a tensor (its element type is the old type), got " +
                                 v.describe() + "; a layout is recast with recast_layout<OldType,NewType>(layout)");
        if (t->space == Tensor::Space::kCounting || t->space == Tensor::Space::kDescriptor)
          ev.fail(n.args[0], "recast: this tensor's iterator is no pointer (" + iterator_string(*t, true) + ")");
        if (t->element.bits <= 0)
          ev.fail(n.args[0], "recast<" + to.name + ">: the tensor's element type is unknown (" +
                                 iterator_string(*t, true) + "); name it, e.g. make_gmem_ptr<T>(p)");
        const int64_t old_bits = t->element.bits, new_bits = to.bits;
        Tensor out = *t;
        out.element = to;
        if (to.name == t->element.name) return tensor_value(std::move(out));
        out.layout = recast_layout(t->layout, old_bits, new_bits);
        int64_t offset = t->offset;  // in old elements
        if (new_bits > old_bits && std::holds_alternative<Layout>(t->layout)) {
          const Layout& from = std::get<Layout>(t->layout);
          const std::vector<int64_t> old_shape = flatten_values(from.shape), old_stride = flatten_values(from.stride),
                                     new_shape = flatten_values(std::get<Layout>(out.layout).shape);
          for (size_t i = 0; i < old_shape.size() && i < new_shape.size(); ++i)
            offset += std::min<int64_t>(0, (old_shape[i] - new_shape[i]) * old_stride[i]);
        }
        if ((offset * old_bits) % new_bits != 0)
          ev.fail(n.args[0], "recast<" + to.name + ">: the pointer is " + std::to_string(offset) + " " +
                                 t->element.name + " past its base, no whole number of " + to.name);
        out.offset = offset * old_bits / new_bits;
        return tensor_value(std::move(out));
      },
      "recast<NewType>(tensor)");
  r.add(
      "local_partition",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 3, 4);
        auto a = ev.eval_args(n);
        Layout tile = a[1].to_layout();
        if (a.size() == 4) tile = Layout(dice_tuple(a[3], tile.shape), dice_tuple(a[3], tile.stride));
        return tensor_value(local_partition(tensor_from(a[0]), tile, a[2].as_int()));
      },
      "local_partition(tensor, thr_layout, thr_idx[, proj])");
  // make_gmem_ptr<T>(p), make_smem_ptr<T>(p), make_tmem_ptr<T>(p): the argument is named, not evaluated
  for (auto [name, space] : {std::pair<const char*, Tensor::Space>{"make_gmem_ptr", Tensor::Space::kGmem},
                             {"make_smem_ptr", Tensor::Space::kSmem},
                             {"make_tmem_ptr", Tensor::Space::kTmem}}) {
    Tensor::Space sp = space;  // clang 14 cannot capture a structured binding
    r.add(
        name,
        [sp](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 0, 1);
          Tensor t;
          t.space = sp;
          if (n.template_args.size() == 1) {
            Value ty = ev.eval(n.template_args[0]);
            if (!ty.is(V::Kind::kType))
              ev.fail(n.template_args[0],
                      n.name + "<T>: T must be an element type such as half_t, got " + ty.describe());
            t.element = ty.type();
          }
          const Node* arg = n.args.empty() ? nullptr : &n.args[0];
          if (arg && arg->name == "recast_ptr" && arg->call == Node::Call::kParen) {  // make_gmem_ptr((T const*)p)
            Value cast = ev.eval(*arg);
            if (const Tensor* p = as_pointer(cast)) {
              if (t.element.bits == 0) t.element = p->element;
              t.base = p->base;
              return V::object(std::make_shared<PointerObject>(t));
            }
          }
          if (arg && arg->kind == Node::Kind::kName && arg->args.empty() && !arg->has_template_args &&
              arg->call != Node::Call::kParen && t.element.bits == 0) {
            try {  // a name bound to a typed pointer (a host function's `TA const* A`, lib/lang/launch_binding.cpp)
              if (const Tensor* p = as_pointer(ev.eval(*arg))) {
                t.element = p->element;
                t.base = p->base;
                return V::object(std::make_shared<PointerObject>(t));
              }
            } catch (const Error&) {  // a kernel's pointer (ptr_A, params.ptr): its name is all we have
            }
          }
          if (arg && (arg->name == "data" || arg->name == "begin") && arg->call == Node::Call::kParen &&
              arg->args.size() == 1 && t.element.bits == 0) {
            try {  // storage.smem_q.data(): the element type of the cute::array it points into
              Value storage = ev.eval(arg->args[0]);
              if (const auto* a = storage.is(V::Kind::kObject)
                                      ? dynamic_cast<const ArrayStorageType*>(storage.object().get())
                                      : nullptr)
                t.element = a->element();
            } catch (const Error&) {  // a parameter's member (shared_storage of a template): name only
            }
          }
          t.base = arg ? ev.text_of(*arg) : "";
          return V::object(std::make_shared<PointerObject>(t));
        },
        std::string(name) + "<T>(ptr)");
  }
  // group_modes<B,E>(tensor | layout | shape): modes [B,E) as one mode (E = -1: to the end)
  r.add(
      "group_modes",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        if (n.template_args.size() != 2) ev.fail(n, "group_modes<B,E>(x) takes two template arguments");
        Value v = ev.eval(n.args[0]);
        int64_t b = ev.eval(n.template_args[0]).as_int(), e = ev.eval(n.template_args[1]).as_int();
        const Tensor* t = as_tensor(v);
        const bool layout = t || v.is(V::Kind::kLayout);
        Layout l = layout ? as_layout(t ? t->layout : v.any_layout(), "group_modes: the layout") : Layout();
        IntTuple x = layout ? l.shape : v.to_int_tuple();
        const int64_t r = static_cast<int64_t>(x.is_leaf() ? 1 : x.rank());
        if (e < 0) e = r + 1 + e;
        if (b < 0 || b > e || e > r) ev.fail(n, "group_modes<B,E>: modes out of range for " + v.to_string());
        const size_t bu = static_cast<size_t>(b), eu = static_cast<size_t>(e);
        if (!layout) return V::from(group(x, bu, eu));
        if (!t) return V::layout(group(l, bu, eu));
        Tensor out = *t;
        out.layout = group(l, bu, eu);
        return tensor_value(std::move(out));
      },
      "group_modes<B,E>(tensor | layout | shape)");
  // recast_ptr<T>(p): a pointer to T; C++'s pointer casts (static_cast<T const*>(p), reinterpret_cast<T*>(p),
  // (T*)p) are parsed as it (lib/lang/parser.cpp).  p is a pointer value or a name (nullptr, a kernel's pointer).
  r.add(
      "recast_ptr",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        const ValueType type = element_type_arg(ev, n, "recast_ptr<T>(ptr) takes the element type T",
                                                "a pointer cast's type is an element type such as half_t, got ");
        Tensor t;
        try {
          if (const Tensor* p = as_pointer(ev.eval(n.args[0]))) t = *p;
          else t.base = ev.text_of(n.args[0]);
        } catch (const UnknownName&) {
          t.base = ev.text_of(n.args[0]);  // nullptr, ptr_A: its name is all we have
        }
        t.element = type;
        return V::object(std::make_shared<PointerObject>(t));
      },
      "recast_ptr<T>(ptr), static_cast<T const*>(ptr), (T*)ptr");
  // make_tensor(ptr, layout | shape[, stride | LayoutLeft/LayoutRight]) and make_tensor<T>(layout | shape)
  r.add(
      "make_tensor",
      [](Evaluator& ev, const Node& n) {
        Tensor t;
        size_t first = 0;
        if (n.template_args.size() == 1) {
          Value ty = ev.eval(n.template_args[0]);
          if (!ty.is(V::Kind::kType))
            ev.fail(n.template_args[0],
                    "make_tensor<T>: T must be an element type such as float, got " + ty.describe());
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
            ev.fail(n.args[0],
                    "make_tensor's first argument is a pointer (make_gmem_ptr<T>(p), make_smem_ptr(p), a name), got " +
                        p.describe());
          }
        }
        std::vector<Value> rest;
        for (size_t i = first; i < n.args.size(); ++i) rest.push_back(ev.eval(n.args[i]));
        if (rest.size() == 1) {
          t.layout = rest[0].to_any_layout();
          const auto* c = std::get_if<ComposedLayout>(&t.layout);
          if (c && c->smem_bits() != 0 && c->a_is_swizzle() &&
              (t.space == Tensor::Space::kSmem || t.space == Tensor::Space::kPointer)) {
            t.swizzled = true;  // Sw o smem_ptr[16b](unset) o L over a pointer: the swizzle moves into the pointer
            t.swizzle = c->swizzle();
            t.space = Tensor::Space::kSmem;
            if (t.element.bits == 0) t.element.bits = c->smem_bits();
            AnyLayout inner = c->layout_b();
            t.layout = inner;
          }
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
      },
      "make_tensor(ptr, layout) / make_tensor(ptr, shape[, stride]) / make_tensor<T>(layout)");
  r.add(
      "make_identity_tensor",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        IntTuple shape = ev.eval_args(n)[0].to_int_tuple();
        Tensor t;
        t.space = Tensor::Space::kCounting;
        std::vector<IntTuple> zeros(shape.is_leaf() ? 1 : shape.rank(), IntTuple(0));
        t.coord = IntTuple::tuple(std::move(zeros));
        t.layout = make_identity_layout(shape);
        return tensor_value(std::move(t));
      },
      "make_identity_tensor(shape)");
  // x(coord...) after a value: a tensor or layout sliced (with `_`) or evaluated (lib/lang/parser.cpp's "operator()")
  r.add(
      "operator()",
      [](Evaluator& ev, const Node& n) {
        Value callee = ev.eval(n.children.at(0));
        Value coord = coord_of(ev.eval_args(n));
        if (const Tensor* t = as_tensor(callee)) {
          if (!has_underscore(coord))
            ev.fail(n, "indexing a tensor reads memory cutevis does not have; slice it with `_`: tensor(_,_,k)");
          return tensor_value(slice(*t, coord));
        }
        if (!callee.is(V::Kind::kLayout))
          ev.fail(n.children[0], "only a layout or a tensor can be called with a coordinate, got " + callee.describe());
        if (has_underscore(coord)) return V::layout(slice(callee.any_layout(), coord));
        const AnyLayout& l = callee.any_layout();
        if (const Layout* p = std::get_if<Layout>(&l)) {
          IntTuple c = coord.to_int_tuple(), idx = crd2idx(c, p->shape, p->stride);
          return V::from(has_dynamic(c) ? make_dynamic(idx) : idx);  // a run-time coordinate gives a run-time index
        }
        if (coord.is(V::Kind::kInt)) return V::integer(evaluate(l, coord.as_int()));
        ev.fail(n, "a composed layout is evaluated at an index here: L(i)");
      },
      "x(coord...)");
  // tensor.layout(), tensor.data(), shape/stride/size/rank of a tensor
  if (const Builtin* base = r.find("layout")) {
    Builtin plain = *base;
    r.add(
        "layout",
        [plain](Evaluator& ev, const Node& n) {
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
        },
        r.signature("layout"));
  }
  for (const char* name : {"shape", "stride", "size", "rank", "cosize", "depth"}) {
    const std::string fn = name;
    answer_for_tensor(r, name, 1, [fn](Evaluator& ev, const Node& n, const Tensor& t) {
      AnyLayout l = t.layout;
      for (const auto& i : ev.eval_template_args(n)) l = get(l, static_cast<size_t>(i.as_int()));
      if (fn == "shape") return V::from(shape(l));
      if (fn == "stride") return V::from(as_layout(l, "stride of a tensor").stride);
      if (fn == "size") return V::integer(size_integer(shape(l)));
      if (fn == "rank") return V::integer(static_cast<int64_t>(rank(l)));
      if (fn == "depth") return V::integer(depth(l));
      return V::integer(cosize(l));
    });
  }
  // zipped_divide(tensor, tiler) and the other divides: the tensor over its divided layout, as CuTe's
  // tensor overloads do (5_mma_tma_epi's zipped_divide(tCgC, epi_tiler))
  using Divide = AnyLayout (*)(const AnyLayout&, const Tiler&);
  for (auto [name, op] : {std::pair<const char*, Divide>{"logical_divide", &logical_divide},
                          std::pair<const char*, Divide>{"zipped_divide", &zipped_divide},
                          std::pair<const char*, Divide>{"tiled_divide", &tiled_divide},
                          std::pair<const char*, Divide>{"flat_divide", &flat_divide}}) {
    const Divide divide = op;  // clang 14 cannot capture a structured binding
    answer_for_tensor(r, name, 2, [divide](Evaluator& ev, const Node& n, const Tensor& t) {
      Tensor out = t;
      out.layout = divide(t.layout, ev.eval(n.args[1]).to_tiler());
      return tensor_value(std::move(out));
    });
  }
  r.add(
      "data",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 1, 1);
        Tensor t = tensor_from(ev.eval_args(n)[0]);
        return V::object(std::make_shared<PointerObject>(t));
      },
      "tensor.data()");
}

}  // namespace cutevis
