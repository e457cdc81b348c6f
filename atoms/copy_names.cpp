// Copy atoms and TiledCopy in the expression language, so a user can paste CuTe's own
// construction:  make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
//                                Layout<Shape<_32,_8>>{}, Layout<Shape<_1,_8>>{})
#include "atoms/copy_names.hpp"

#include <memory>

#include "atoms/atom_template_args.hpp"
#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "lib/lang/explicit_specialization.hpp"

namespace cutevis {

namespace {

class CopyAtomObject : public Object {
 public:
  explicit CopyAtomObject(CopyAtom a) : atom(std::move(a)) {}
  std::string kind() const override { return "copy_atom"; }
  std::string to_string() const override { return cutevis::to_string(atom); }
  CopyAtom atom;
};

class TiledCopyObject : public Object {
 public:
  explicit TiledCopyObject(TiledCopy c) : copy(std::move(c)) {}
  std::string kind() const override { return "tiled_copy"; }
  std::string to_string() const override { return cutevis::to_string(copy); }
  TiledCopy copy;
};

// A copy operation named alone (`using CopyOpR2S = SM90_U16x8_STSM_T;`): an atom once
// Copy_Atom<CopyOpR2S, T> gives it its value type.  `op` is its name with the kernel's
// parameters resolved (SM80_CP_ASYNC_CACHEALWAYS<TA> with -D TA=float).
class CopyOpObject : public Object {
 public:
  CopyOpObject(Node op, std::string text) : op(std::move(op)), text_(std::move(text)) {}
  std::string kind() const override { return "copy_op"; }
  std::string to_string() const override { return text_; }
  std::string brief() const override {
    return "copy operation " + text_ + " (a copy atom also names its value type: Copy_Atom<" + text_ + ", half_t>{})";
  }
  Node op;

 private:
  std::string text_;
};

std::string strip_cute(const std::string& name) { return name.rfind("cute::", 0) == 0 ? name.substr(6) : name; }

// The copy operation of Copy_Atom<Op, T>: Op as written, or the alias of one (its parameters resolved).
Node copy_op_of(Evaluator& ev, const Node& op) {
  if (strip_cute(op.name) == "Copy_Traits" && op.template_args.size() == 1)
    return copy_op_of(ev, op.template_args[0]);  // Copy_Traits<Op> of an alias `using Op = SM75_U32x4_LDSM_N;`
  const std::string base = op.name.substr(op.name.rfind(':') == std::string::npos ? 0 : op.name.rfind(':') + 1);
  if (op.kind == Node::Kind::kName && (base == "conditional_t" || base == "conditional") &&
      op.template_args.size() == 3 && op.args.empty()) {  // Copy_Atom<std::conditional_t<B, OpA, OpB>, T>
    const Value c = ev.eval(op.template_args[0]);
    if (!c.is(Value::Kind::kBool) && !c.is(Value::Kind::kInt))
      ev.fail(op.template_args[0], op.name + "<B, X, Y>: B must be a bool, got " + c.describe());
    const bool holds = c.is(Value::Kind::kBool) ? c.as_bool() : c.as_int() != 0;
    return copy_op_of(ev, op.template_args[holds ? 1 : 2]);  // only the chosen one is read, as C++ does
  }
  if (is_open_name(op) && !is_copy_op_name(op.name)) {
    Value v = ev.eval(op);
    if (v.is(Value::Kind::kObject))
      if (auto* o = dynamic_cast<const CopyOpObject*>(v.object().get())) return o->op;
    ev.fail(op,
            "Copy_Atom's first template argument is a copy operation such as SM75_U32x4_LDSM_N, got " + v.describe());
  }
  return with_resolved_template_args(ev, op);
}

const CopyAtom& atom_arg(Evaluator& ev, const Node& call, const Value& v, size_t i) {
  if (const CopyAtom* a = as_copy_atom(v)) return *a;
  ev.fail(call.args[i], call.name + ": argument " + std::to_string(i + 1) +
                            " must be a copy atom such as Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, got " +
                            v.kind_name() + " " + v.to_string());
}

const TiledMma& tiled_mma_arg(Evaluator& ev, const Node& call, const Value& v, size_t i) {
  if (const TiledMma* m = as_tiled_mma(v)) return *m;
  ev.fail(call.args[i], call.name + ": argument " + std::to_string(i + 1) +
                            " must be a TiledMMA such as make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}), got " +
                            v.kind_name() + " " + v.to_string());
}

const TiledCopy& tiled_copy_arg(Evaluator& ev, const Node& call, const Value& v, size_t i) {
  if (const TiledCopy* c = as_tiled_copy(v)) return *c;
  ev.fail(call.args[i], call.name + ": argument " + std::to_string(i + 1) + " must be a tiled copy, got " +
                            v.kind_name() + " " + v.to_string());
}

// A home-made copy operation: `struct MyCopy { ... }; template <> struct Copy_Traits<MyCopy> { using ThrID = ...;
// using SrcLayout = ...; using DstLayout = ...; using RefLayout = ...; };` (bit layouts) in the sources, named
// as `MyCopy` or `Copy_Traits<MyCopy>`; false if `op` names none.
bool user_copy_traits(Evaluator& ev, const Node& op, CopyAtom& out) {
  const Node& named = strip_cute(op.name) == "Copy_Traits" && op.template_args.size() == 1 ? op.template_args[0] : op;
  if (named.kind != Node::Kind::kName || named.has_template_args || !named.args.empty()) return false;
  const ClassDef* c = explicit_specialization(ev, "Copy_Traits", named.name);
  if (!c) return false;
  auto layout = [&](const char* m) {
    return specialization_member(ev, *c, m, op,
                                 "a copy's traits give ThrID, SrcLayout, DstLayout and RefLayout (in bits)")
        .to_layout();
  };
  out = CopyAtom{};
  out.op = strip_cute(named.name);
  out.family = "User";
  out.thr_id = layout("ThrID");
  out.src_layout_bits = layout("SrcLayout");
  out.dst_layout_bits = layout("DstLayout");
  out.ref_layout_bits = layout("RefLayout");
  return true;
}

// Copy_Atom<Op, T>{} and the bare op names (which need a value type to be an atom).
bool resolve_copy_atom(Evaluator& ev, const Node& n, Value& out) {
  const std::string name = strip_cute(n.name);
  if (name == "Copy_Atom" && n.template_args.size() == 2 && n.args.empty()) {
    CopyAtom traits;
    if (user_copy_traits(ev, n.template_args[0], traits)) {
      Value t = ev.eval(n.template_args[1]);
      if (!t.is(Value::Kind::kType))
        ev.fail(n.template_args[1],
                "Copy_Atom's second template argument must be a value type such as half_t, got " + t.to_string());
      try {
        out = copy_atom_value(with_value_type(traits, t.type()));
      } catch (const Error& e) {
        if (e.has_position()) throw;
        ev.fail(n, e.what());
      }
      return true;
    }
  }
  if (name == "Copy_Atom") {
    if (n.template_args.size() != 2)
      ev.fail(n,
              "Copy_Atom takes two template arguments, the operation and the value type: Copy_Atom<SM75_U32x4_LDSM_N, "
              "half_t>{}");
    if (!n.args.empty()) ev.fail(n.args[0], "Copy_Atom<...>{} takes no constructor arguments");
    Value t = ev.eval(n.template_args[1]);
    if (!t.is(Value::Kind::kType))
      ev.fail(n.template_args[1],
              "Copy_Atom's second template argument must be a value type such as half_t, got " + t.to_string());
    try {
      out = copy_atom_value(make_copy_atom(copy_op_of(ev, n.template_args[0]), t.type()));
    } catch (const Error& e) {
      if (e.has_position()) throw;
      ev.fail(n, e.what());
    }
    return true;
  }
  if (!is_copy_op_name(name)) return false;
  if (!n.args.empty()) ev.fail(n.args[0], n.name + "{} takes no constructor arguments");
  Node op = with_resolved_template_args(ev, n);
  op.call = Node::Call::kNone;
  std::string text = resolved_name_text(ev, n, ", ");
  try {
    copy_operation(op);  // checked now: SM80_CP_ASYNC_CACHEALWAYS<TA> with a TA that is no element type fails here
    if (strip_cute(op.name) == "AutoVectorizingCopyWithAssumedAlignment" && !op.has_template_args)
      text += "<128>";  // its default MaxVecBits is part of the type, as is_same_v and CuTe's type name see it
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, e.what());
  }
  out = Value::object(std::make_shared<CopyOpObject>(std::move(op), text));
  return true;
}

// A tiler argument: a shape (printed as a shape) or a tuple of layouts.
TiledCopy impl_with(const CopyAtom& atom, const Layout& layout_tv, const Value& tiler) {
  if (tiler.is_int_tuple()) return make_tiled_copy_impl(atom, layout_tv, tiler.to_int_tuple());
  return make_tiled_copy_impl(atom, layout_tv, tiler.to_tiler());
}

}  // namespace

const CopyAtom* as_copy_atom(const Value& v) {
  if (!v.is(Value::Kind::kObject)) return nullptr;
  auto* o = dynamic_cast<const CopyAtomObject*>(v.object().get());
  return o ? &o->atom : nullptr;
}

const TiledCopy* as_tiled_copy(const Value& v) {
  if (!v.is(Value::Kind::kObject)) return nullptr;
  auto* o = dynamic_cast<const TiledCopyObject*>(v.object().get());
  return o ? &o->copy : nullptr;
}

Value copy_atom_value(const CopyAtom& atom) { return Value::object(std::make_shared<CopyAtomObject>(atom)); }
Value tiled_copy_value(const TiledCopy& copy) { return Value::object(std::make_shared<TiledCopyObject>(copy)); }

void register_copy_names(Registry& r) {
  r.add_resolver(resolve_copy_atom);
  r.add_vocabulary([] {
    std::vector<std::string> words = copy_op_names();
    words.push_back("Copy_Atom");
    return words;
  });
  // cute::make_tiled_copy etc. resolve to these too (the evaluator strips cute::).
  r.add(
      "make_tiled_copy",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 3);
        auto a = ev.eval_args(n);
        const CopyAtom& atom = atom_arg(ev, n, a[0], 0);
        Layout val = a.size() == 3 ? a[2].to_layout() : Layout();
        return tiled_copy_value(make_tiled_copy(atom, a[1].to_layout(), val));
      },
      "make_tiled_copy(copy_atom, thr_layout[, val_layout])");
  r.add(
      "make_tiled_copy_impl",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 3, 3);
        auto a = ev.eval_args(n);
        return tiled_copy_value(impl_with(atom_arg(ev, n, a[0], 0), a[1].to_layout(), a[2]));
      },
      "make_tiled_copy_impl(copy_atom, layout_tv, tiler)");
  using FromMma = TiledCopy (*)(const CopyAtom&, const TiledMma&);
  for (auto [name, fn] : {std::pair<const char*, FromMma>{"make_tiled_copy_A", &make_tiled_copy_A},
                          {"make_tiled_copy_B", &make_tiled_copy_B},
                          {"make_tiled_copy_C", &make_tiled_copy_C},
                          {"make_tiled_copy_C_atom", &make_tiled_copy_C_atom}}) {
    FromMma from_mma = fn;  // a plain variable: clang 14 cannot capture a structured binding
    r.add(
        name,
        [from_mma](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 2, 2);
          auto a = ev.eval_args(n);
          const CopyAtom& atom = atom_arg(ev, n, a[0], 0);
          return tiled_copy_value(from_mma(atom, tiled_mma_arg(ev, n, a[1], 1)));
        },
        std::string(name) + "(copy_atom, tiled_mma)");
  }
  for (const char side : {'S', 'D'}) {
    r.add(
        std::string("make_tiled_copy_") + side,
        [side](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 2, 2);
          auto a = ev.eval_args(n);
          const CopyAtom& atom = atom_arg(ev, n, a[0], 0);
          const TiledCopy& other = tiled_copy_arg(ev, n, a[1], 1);
          return tiled_copy_value(side == 'S' ? make_tiled_copy_S(atom, other) : make_tiled_copy_D(atom, other));
        },
        std::string("make_tiled_copy_") + side + "(copy_atom, tiled_copy)");
    r.add(
        std::string("get_layout") + side + "_TV",
        [side](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 1);
          auto a = ev.eval_args(n);  // kept alive: `c` refers into a[0] (ASan: use after free)
          const TiledCopy& c = tiled_copy_arg(ev, n, a[0], 0);
          return Value::layout(side == 'S' ? c.layout_s_tv : c.layout_d_tv);
        },
        std::string("get_layout") + side + "_TV(tiled_copy)");
  }
}

}  // namespace cutevis
