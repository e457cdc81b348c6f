// CuTeDSL's TMA (cute/nvgpu/cpasync/) bound to the C++ constructors of atoms/tma.hpp, and the
// gmem tensor they start from:
//
//   cpasync.CopyBulkTensorTileG2SOp()            SM90_TMA_LOAD{}
//   cpasync.CopyBulkTensorTileG2SMulticastOp()   SM90_TMA_LOAD_MULTICAST{}
//   cpasync.CopyBulkTensorTileS2GOp()            SM90_TMA_STORE{}
//   cpasync.CopyReduceBulkTensorTileS2GOp()      SM90_TMA_REDUCE_ADD{}
//   cpasync.make_tiled_tma_atom(op, mA, smem_layout, cta_tiler, num_multicast=1, internal_type=T)
//       make_tma_atom<T>(op, mA, smem_layout, cta_tiler, num_multicast), a staged smem layout
//       (rank(cta_tiler) + 1 modes) taken at stage 0 as CuTeDSL selects its first modes
//   cute.make_tensor(cute.make_ptr(cutlass.Float16, A, cute.AddressSpace.gmem), layout)
//       make_tensor(make_gmem_ptr<half_t>(A), layout)
//
// CuTeDSL's make_tiled_tma_atom returns the atom and the TMA coordinate tensor; cutevis gives
// the atom (the layout parts: ThrID, ValLayoutSrc/Dst with the box's NumBitsPerTMA), not the
// coordinate tensor.  CtaGroup.TWO (SM100's 2-SM TMA) has no C++ counterpart here yet.
#include "atoms/copy_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tma.hpp"
#include "lib/lang/dsl.hpp"
#include "lib/lang/tensor.hpp"

namespace cutevis {

namespace {

using V = Value;

ValueType dtype_of(Evaluator& ev, const Node& at) {
  Value v = ev.eval(at);
  if (!v.is(V::Kind::kType)) ev.fail(at, "expected an element type such as cutlass.Float16, got " + v.describe());
  return v.type();
}

// The member of enum `cls` (e.g. "CtaGroup") an argument names, or `fallback` when left out.
std::string member_of(Evaluator& ev, const Node* at, const std::string& cls, const std::string& fallback) {
  if (!at) return fallback;
  Value v = ev.eval(*at);
  if (v.is(V::Kind::kTag) && v.tag().rfind(cls + ".", 0) == 0) return v.tag().substr(cls.size() + 1);
  ev.fail(*at, "expected a " + cls + ", got " + v.describe());
}

// A TMA load Op: cta_group=CtaGroup.ONE is SM90's TMA; TWO is SM100's 2-SM TMA, not modelled.
Builtin tma_load_op(const std::string& cpp) {
  return [cpp](Evaluator& ev, const Node& n) {
    auto a = bind_dsl_args(ev, n, {"cta_group"}, 0);
    if (member_of(ev, a[0], "CtaGroup", "ONE") != "ONE")
      ev.fail(*a[0], n.name +
                         " with CtaGroup.TWO is SM100's 2-SM TMA, which cutevis does not model yet (CtaGroup.ONE is " +
                         cpp + ")");
    return V::tag(cpp);
  };
}

// cpasync.make_tiled_tma_atom(op, gmem_tensor, smem_layout, cta_tiler, num_multicast=1, internal_type=None)
Value make_tiled_tma_atom(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"op", "gmem_tensor", "smem_layout", "cta_tiler", "num_multicast", "internal_type"}, 4);
  TmaRequest r;
  const Value op = ev.eval(*a[0]);
  if (!op.is(V::Kind::kTag) || !is_tma_op(op.tag()))
    ev.fail(*a[0], "op is a TMA Op such as cpasync.CopyBulkTensorTileG2SOp(), got " + op.describe());
  r.op = op.tag();
  const Tensor g = tensor_from(ev.eval(*a[1]));
  if (!std::holds_alternative<Layout>(g.layout))
    ev.fail(*a[1], "the gmem tensor's layout is a plain layout, got " + to_string(g.layout));
  r.gmem = as_layout(g.layout, "the gmem tensor's layout");
  r.element = g.element;
  if (a[5]) r.internal = dtype_of(ev, *a[5]);
  if (r.element.bits == 0) r.element = r.internal;
  if (r.element.bits == 0)
    ev.fail(*a[1],
            "the gmem tensor's element type is unknown: make it with cute.make_tensor(cute.make_ptr(cutlass.Float16, "
            "A, cute.AddressSpace.gmem), layout)");
  const Value smem = ev.eval(*a[2]), tiler = ev.eval(*a[3]);
  if (!smem.is(V::Kind::kLayout)) ev.fail(*a[2], "smem_layout is a layout, got " + smem.describe());
  const size_t smem_rank = rank(smem.any_layout());
  const size_t tiler_rank = tiler.is(V::Kind::kTuple) ? tiler.elements().size() : 1;
  if (smem_rank != tiler_rank && smem_rank != tiler_rank + 1)
    ev.fail(*a[2], "smem_layout must be non-staged (rank " + std::to_string(tiler_rank) +
                       ", the cta_tiler's) or staged (rank " + std::to_string(tiler_rank + 1) + "), got rank " +
                       std::to_string(smem_rank));
  r.smem = smem.any_layout();
  if (smem_rank == tiler_rank + 1) {  // core.select(smem_layout, mode=range(tiler_rank)): stage 0's layout
    std::vector<Value> coord(tiler_rank, V::underscore());
    coord.push_back(V::integer(0));
    r.smem = slice(r.smem, V::tuple(coord));
  }
  r.cta_tiler = tiler.to_tiler();
  r.cta_t_map = make_layout(IntTuple(a[4] ? ev.eval(*a[4]).as_int() : 1));
  try {
    return copy_atom_value(make_tma_atom(r));
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, n.name + ": " + e.what());
  }
}

// cute.make_ptr(dtype, value, mem_space=AddressSpace.generic, assumed_align=None): a typed pointer,
// named as written (cutevis has no memory).
Value make_ptr(Evaluator& ev, const Node& n) {
  auto a = bind_dsl_args(ev, n, {"dtype", "value", "mem_space", "assumed_align"}, 2);
  const std::string space = member_of(ev, a[2], "AddressSpace", "generic");
  const char* cpp = space == "smem" ? "make_smem_ptr" : space == "tmem" ? "make_tmem_ptr" : "make_gmem_ptr";
  if (space != "generic" && space != "gmem" && space != "smem" && space != "tmem")
    ev.fail(*a[2], "cutevis models gmem, smem and tmem pointers, got AddressSpace." + space);
  Node call = cpp_call(n, cpp, {a[1]});
  call.has_template_args = true;
  call.template_args.push_back(*a[0]);
  return ev.eval(call);
}

// CuTeDSL's swizzled shared memory: a composed layout `S o 0 o L` (make_smem_layout_atom, the
// sm90/sm100 helpers' smem layouts) over a shared-memory pointer of T swizzles the pointer's BYTE
// address (CuTeDSL moves `layout.inner` into the pointer: get_tensor(outer, swizzle=inner),
// recast_ptr(ptr, swizzle)), exactly as C++'s `S o smem_ptr[bits(T)](unset) o L` does.  The
// tensor is made as C++ make_tensor makes that one: the swizzle in the pointer, L the layout.  As
// a plain function the composed layout keeps CuTeDSL's values (S applied to the element offset).
Value dsl_smem_tensor(const Value& made) {
  const Tensor* t = as_tensor(made);
  if (!t || t->swizzled || t->element.bits == 0 || t->space != Tensor::Space::kSmem) return made;
  const auto* c = std::get_if<ComposedLayout>(&t->layout);
  if (!c || !c->a_is_swizzle() || c->smem_bits() != 0 || c->offset() != 0) return made;
  Tensor s = *t;
  s.swizzled = true;
  s.swizzle = c->swizzle();
  s.layout = c->layout_b();
  return tensor_value(std::move(s));
}

}  // namespace

void register_dsl_tma(Registry& r) {
  r.add("cute.nvgpu.cpasync.CopyBulkTensorTileG2SOp", tma_load_op("SM90_TMA_LOAD"),
        "cute.nvgpu.cpasync.CopyBulkTensorTileG2SOp(cta_group=CtaGroup.ONE)");
  r.add("cute.nvgpu.cpasync.CopyBulkTensorTileG2SMulticastOp", tma_load_op("SM90_TMA_LOAD_MULTICAST"),
        "cute.nvgpu.cpasync.CopyBulkTensorTileG2SMulticastOp(cta_group=CtaGroup.ONE)");
  r.add(
      "cute.nvgpu.cpasync.CopyBulkTensorTileS2GOp",
      [](Evaluator& ev, const Node& n) {
        bind_dsl_args(ev, n, {}, 0);
        return V::tag("SM90_TMA_STORE");
      },
      "cute.nvgpu.cpasync.CopyBulkTensorTileS2GOp()");
  r.add(
      "cute.nvgpu.cpasync.CopyReduceBulkTensorTileS2GOp",
      [](Evaluator& ev, const Node& n) {
        auto a = bind_dsl_args(ev, n, {"reduction_kind"}, 0);
        if (member_of(ev, a[0], "ReductionKind", "ADD") != "ADD")
          ev.fail(*a[0], "CuTe C++'s TMA reduction is SM90_TMA_REDUCE_ADD: only ReductionKind.ADD has a C++ atom");
        return V::tag("SM90_TMA_REDUCE_ADD");
      },
      "cute.nvgpu.cpasync.CopyReduceBulkTensorTileS2GOp(reduction_kind=ReductionKind.ADD)");
  r.add("cute.nvgpu.cpasync.make_tiled_tma_atom", make_tiled_tma_atom,
        "cute.nvgpu.cpasync.make_tiled_tma_atom(op, gmem_tensor, smem_layout, cta_tiler, num_multicast=1, "
        "internal_type=None)");
  r.add("cute.make_ptr", make_ptr, "cute.make_ptr(dtype, value, mem_space=AddressSpace.generic, assumed_align=None)");
  r.add(
      "cute.make_tensor",
      [](Evaluator& ev, const Node& n) {  // C++ make_tensor(iterator, layout)
        auto a = bind_dsl_args(ev, n, {"iterator", "layout"}, 2);
        return dsl_smem_tensor(ev.eval(cpp_call(n, "make_tensor", {a[0], a[1]})));
      },
      "cute.make_tensor(iterator, layout)");
}

}  // namespace cutevis
