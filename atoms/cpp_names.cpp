// What kernels ask of TiledMMA and TiledCopy objects in C++, as expressions:
//   size(TiledMma{})  (threads)       tile_size<0>(mma)   tile_shape(mma)
//   partition_shape_A(mma, Shape<_128,_64>{})   (FrgV, RestM, RestK)
//   mma.get_layoutA_TV()   TiledCopy<Copy_Atom<...>, LayoutTV, Tiler>{}
#include <functional>

#include "atoms/blockscaled.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/tma.hpp"
#include "lib/lang/environment.hpp"

namespace cutevis {

namespace {

const TiledMma& mma_arg(Evaluator& ev, const Node& n, const Value& v) {
  if (const TiledMma* m = as_tiled_mma(v)) return *m;
  ev.fail(n.args.empty() ? n : n.args[0], n.name + " needs a TiledMMA, got " + v.describe());
}

}  // namespace

void register_cpp_atom_names(Registry& r) {
  register_blockscaled_names(r);  // cutlass::detail::Sm1xxBlockScaledConfig<32>::... (atoms/blockscaled_names.cpp)
  register_tma_names(r);          // make_tma_copy, make_tma_atom, make_tma_copy_A/B/C_sm90 (atoms/tma_names.cpp)
  // size(TiledMMA) / size(TiledCopy): the number of threads (CuTe: size(get_thr_layout_vmnk()))
  if (const Builtin* base = r.find("size")) {
    Builtin layout_size = *base;
    r.add(
        "size",
        [layout_size](Evaluator& ev, const Node& n) {
          if (n.args.size() == 1 && !n.has_template_args) {
            Value v = ev.eval(n.args[0]);
            if (const TiledMma* m = as_tiled_mma(v)) return Value::integer(m->num_threads);
            if (const TiledCopy* c = as_tiled_copy(v)) return Value::integer(c->num_threads);
            if (!v.is(Value::Kind::kObject)) {  // lib's size, static or dynamic as CuTe's
              if (v.is(Value::Kind::kLayout)) return Value::integer(size_integer(shape(v.any_layout())));
              return Value::integer(size_integer(v.to_int_tuple()));
            }
          }
          return layout_size(ev, n);
        },
        r.signature("size"));
  }
  for (const char* name : {"tile_size", "tile_shape"}) {
    bool one = std::string(name) == "tile_size";
    r.add(
        name,
        [one](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 1);
          const Value v = ev.eval(n.args[0]);  // m refers into v: keep it alive
          const TiledMma& m = mma_arg(ev, n, v);
          if (!one) return Value::from(m.tile_mnk);
          auto t = ev.eval_template_args(n);
          if (t.size() != 1) ev.fail(n, "tile_size<I>(mma) takes one template argument");
          int64_t i = t[0].as_int();
          if (i < 0 || i > 2) ev.fail(n, "tile_size<I>: I is 0, 1 or 2");
          return Value::from(m.tile_mnk[static_cast<size_t>(i)]);
        },
        std::string(name) + (one ? "<I>(tiled_mma)" : "(tiled_mma)"));
  }
  for (char op : {'A', 'B', 'C'}) {
    r.add(
        std::string("get_layout") + op + "_TV",
        [op](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 1, 1);
          const Value v = ev.eval(n.args[0]);  // m refers into v: keep it alive
          const TiledMma& m = mma_arg(ev, n, v);
          return Value::layout(op == 'A' ? m.tv_layout_a : op == 'B' ? m.tv_layout_b : m.tv_layout_c);
        },
        std::string("get_layout") + op + "_TV(tiled_mma)");
    r.add(
        std::string("partition_shape_") + op,
        [op](Evaluator& ev, const Node& n) {
          ev.expect_args(n, 2, 2);
          auto a = ev.eval_args(n);
          const TiledMma& m = mma_arg(ev, n, a[0]);
          IntTuple shape = a[1].is(Value::Kind::kLayout) ? cutevis::shape(a[1].any_layout()) : a[1].to_int_tuple();
          return Value::from(partition_shape(m, op, shape));
        },
        std::string("partition_shape_") + op + "(tiled_mma, shape)");
  }
  // partition_fragment_C(tiled_mma, shape_MN) is make_tensor<FrgTypeC>(partition_shape_C(mma, shape_MN))
  // (include/cute/atom/mma_atom.hpp): a register tensor, here its layout, compact column-major
  r.add(
      "partition_fragment_C",
      [](Evaluator& ev, const Node& n) {
        ev.expect_args(n, 2, 2);
        auto a = ev.eval_args(n);
        const TiledMma& m = mma_arg(ev, n, a[0]);
        IntTuple shape = a[1].is(Value::Kind::kLayout) ? cutevis::shape(a[1].any_layout()) : a[1].to_int_tuple();
        return Value::layout(make_layout(partition_shape(m, 'C', shape)));
      },
      "partition_fragment_C(tiled_mma, shape)");
  // Member types a collective reads off its TiledMMA and TiledCopy types (`typename TiledMma::AtomThrID`):
  // TiledMMA derives from MMA_Atom, so the atom's own (ThrID, LayoutA_TV, ValTypeA, ...) are members too.
  using MmaMember = std::function<Value(const MmaAtom&)>;
  const std::vector<std::pair<std::vector<const char*>, MmaMember>> atom_members = {
      {{"AtomShape_MNK", "Shape_MNK"}, [](const MmaAtom& a) { return Value::from(a.shape_mnk); }},
      {{"AtomThrID", "ThrID"}, [](const MmaAtom& a) { return Value::layout(a.thr_id); }},
      {{"AtomLayoutA_TV", "LayoutA_TV", "ALayout"}, [](const MmaAtom& a) { return Value::layout(a.layout_a); }},
      {{"AtomLayoutB_TV", "LayoutB_TV", "BLayout"}, [](const MmaAtom& a) { return Value::layout(a.layout_b); }},
      {{"AtomLayoutC_TV", "LayoutC_TV", "CLayout"}, [](const MmaAtom& a) { return Value::layout(a.layout_c); }},
      {{"ValTypeA"}, [](const MmaAtom& a) { return Value::type(a.type_a); }},
      {{"ValTypeB"}, [](const MmaAtom& a) { return Value::type(a.type_b); }},
      {{"ValTypeC"}, [](const MmaAtom& a) { return Value::type(a.type_c); }},
      {{"ValTypeD"}, [](const MmaAtom& a) { return Value::type(a.type_d); }},
  };
  // a sparse atom's metadata (MMA_Traits<SM90::GMMA::SPARSE::GMMA_...>::ValTypeE / ELayout), read by CUTLASS's builders
  r.add("::ValTypeE", [](Evaluator& ev, const Node& n) {
    const Value base = ev.eval(n.children[0]);
    const MmaAtom* a = as_tiled_mma(base) ? &as_tiled_mma(base)->atom : as_mma_atom(base);
    if (a && a->type_e.bits > 0) return Value::type(a->type_e);
    ev.fail(n, "cannot take '::ValTypeE' of " + base.describe() + (a ? " (not a sparse MMA)" : ""));
  });
  r.add("::ELayout", [](Evaluator& ev, const Node& n) {
    const Value base = ev.eval(n.children[0]);
    const MmaAtom* a = as_tiled_mma(base) ? &as_tiled_mma(base)->atom : as_mma_atom(base);
    if (a && a->type_e.bits > 0) return Value::layout(a->layout_e);
    ev.fail(n, "cannot take '::ELayout' of " + base.describe() + (a ? " (not a sparse MMA)" : ""));
  });
  for (const auto& entry : atom_members)
    for (const char* member : entry.first) {
      MmaMember get = entry.second;
      std::string name = member;
      r.add("::" + name, [get, name](Evaluator& ev, const Node& n) {
        const Value base = ev.eval(n.children[0]);  // kept alive: the atom refers into it
        if (const TiledMma* m = as_tiled_mma(base)) return get(m->atom);
        if (const MmaAtom* a = as_mma_atom(base)) return get(*a);
        ev.fail(n, "cannot take '::" + name + "' of " + base.describe());
      });
    }
  // a block-scaled atom's SFVecSize (MMA_Traits<SM100_MMA_MXF8F6F4_SS<...>>::SFVecSize), read by CUTLASS's builders
  r.add("::SFVecSize", [](Evaluator& ev, const Node& n) {
    const Value base = ev.eval(n.children[0]);
    const MmaAtom* a = nullptr;
    if (const TiledMma* m = as_tiled_mma(base)) a = &m->atom;
    else a = as_mma_atom(base);
    if (a && a->sf_vec_size > 0) return Value::integer(a->sf_vec_size);
    ev.fail(n, "cannot take '::SFVecSize' of " + base.describe() + (a ? " (not a block-scaled MMA)" : ""));
  });
  r.add("::ThrLayoutVMNK", [](Evaluator& ev, const Node& n) {
    const Value base = ev.eval(n.children[0]);
    if (const TiledMma* m = as_tiled_mma(base)) return Value::layout(m->thr_layout_vmnk);
    ev.fail(n, "cannot take '::ThrLayoutVMNK' of " + base.describe());
  });
  r.add("::Atom", [](Evaluator& ev, const Node& n) {
    const Value base = ev.eval(n.children[0]);
    if (const TiledMma* m = as_tiled_mma(base)) return mma_atom_value(m->atom);
    ev.fail(n, "cannot take '::Atom' of " + base.describe());
  });
  for (const char* member : {"TiledLayout_TV", "Tiler_MN"}) {
    bool layout = std::string(member) == "TiledLayout_TV";
    std::string name = member;
    r.add("::" + name, [layout, name](Evaluator& ev, const Node& n) {
      const Value base = ev.eval(n.children[0]);
      if (const TiledCopy* c = as_tiled_copy(base))
        return layout              ? Value::layout(c->tiled_layout_tv)
               : c->tiler_is_shape ? Value::from(c->tile_mn)
                                   : Value::from(c->tiler_mn);
      ev.fail(n, "cannot take '::" + name + "' of " + base.describe());
    });
  }
  // The same members through a declared name: TiledMma::AtomThrID{} reads as one qualified name.
  r.add_resolver([](Evaluator& ev, const Node& n, Value& out) {
    size_t cut = n.name.rfind("::");
    if (cut == std::string::npos || cut == 0 || n.has_template_args || !n.args.empty()) return false;
    const Builtin* member = ev.registry().find(n.name.substr(cut));
    if (!member) return false;
    Node scope;
    scope.kind = Node::Kind::kScope;
    scope.name = n.name.substr(cut + 2);
    scope.begin = n.begin;
    scope.end = n.end;
    Node base = n;
    base.name = n.name.substr(0, cut);
    base.call = Node::Call::kNone;
    base.end = base.begin + cut;
    try {
      if (!ev.eval(base).is(Value::Kind::kObject)) return false;
    } catch (const UnknownName&) {
      return false;  // not a declared name: the whole X::M is what is undefined
    }
    scope.children = {std::move(base)};
    out = (*member)(ev, scope);
    return true;
  });
  // TiledCopy<Copy_Atom<...>, LayoutCopy_TV, ShapeTiler_MN>{}: make_tiled_copy_impl's type
  r.add(
      "TiledCopy",
      [](Evaluator& ev, const Node& n) {
        if (n.template_args.size() != 3)
          ev.fail(n, "TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>{} takes three template arguments");
        auto t = ev.eval_template_args(n);
        const CopyAtom* atom = as_copy_atom(t[0]);
        if (!atom)
          ev.fail(n.template_args[0],
                  "TiledCopy's first template argument is a Copy_Atom<Op, T>, got " + t[0].describe());
        Layout tv = t[1].to_layout();
        if (t[2].is_int_tuple()) return tiled_copy_value(make_tiled_copy_impl(*atom, tv, t[2].to_int_tuple()));
        return tiled_copy_value(make_tiled_copy_impl(*atom, tv, t[2].to_tiler()));
      },
      "TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>{}");
}

}  // namespace cutevis
