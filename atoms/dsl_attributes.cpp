// The attributes and methods of CuTeDSL's atoms and tilings (cutlass/cute/atom.py), as
// expressions: each is the builtin "py.attr.NAME" (lib/lang/dsl.hpp), called with the object first,
// and answers with the C++ object's member of the same meaning.
//
//   MmaAtom    .thr_id (ThrID)  .shape_mnk (Shape_MNK)  .tv_layout_A/B/C (ALayout/BLayout/CLayout)
//              .op (the Op: the atom itself)  .a_major_mode / .b_major_mode (OperandMajorMode)
//   TiledMma   the atom's, and .tv_layout_A/B/C_tiled (get_layoutA/B/C_TV)  .thr_layout_vmnk
//              .permutation_mnk  .size (threads)  .get_tile_size(i) (tile_size<i>)
//              .partition_shape_A/B/C(shape)
//   CopyAtom   .thr_id  .layout_src_tv / .layout_dst_tv (ValLayoutSrc/Dst)  .value_type
//   TiledCopy  the atom's, and .layout_tv_tiled (TiledLayout_TV)  .tiler_mn (Tiler_MN)
//              .layout_src_tv_tiled / .layout_dst_tv_tiled (get_layoutS/D_TV)  .size (threads)
// A TiledMma is an MmaAtom in CuTeDSL (class TiledMma(MmaAtom)), so tiled_mma.tv_layout_A is
// the atom's ALayout and tiled_mma.tv_layout_A_tiled the tiling's; likewise for copies.
#include <functional>
#include <string_view>
#include <utility>

#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/dsl.hpp"

namespace cutevis {

namespace {

using V = Value;

// The MMA atom of an MmaAtom or TiledMma value (nullptr for anything else).
const MmaAtom* mma_atom_of(const Value& v) {
  if (const TiledMma* m = as_tiled_mma(v)) return &m->atom;
  return as_mma_atom(v);
}

const CopyAtom* copy_atom_of(const Value& v) {
  if (const TiledCopy* c = as_tiled_copy(v)) return &c->atom;
  return as_copy_atom(v);
}

[[noreturn]] void not_an_attribute(Evaluator& ev, const Node& n, const std::string& attr, const std::string& of,
                                   const Value& v) {
  ev.fail(n, "." + attr + " is an attribute of " + of + ", got " + v.describe());
}

using Getter = std::function<Value(Evaluator&, const Node&, const Value&)>;

// obj.ATTR (no arguments): the getter applied to the evaluated object.
void attribute(Registry& r, const std::string& attr, const Getter& get, const std::string& doc) {
  r.add(
      "py.attr." + attr,
      [attr, get](Evaluator& ev, const Node& n) {
        if (n.args.size() != 1) ev.fail(n, "." + attr + " is an attribute, not a method: write x." + attr);
        return get(ev, n, ev.eval(n.args[0]));
      },
      doc);
}

Value mma_attribute(Evaluator& ev, const Node& n, const Value& v, const std::string& attr) {
  const MmaAtom* a = mma_atom_of(v);
  if (!a) not_an_attribute(ev, n, attr, "an MMA atom or TiledMma", v);
  // name -> getter: plain function pointers, a constant table (no std::function per entry)
  static constexpr std::pair<std::string_view, Value (*)(const MmaAtom&)> members[] = {
      {"thr_id", [](const MmaAtom& m) { return V::layout(m.thr_id); }},
      {"shape_mnk", [](const MmaAtom& m) { return V::from(m.shape_mnk); }},
      {"tv_layout_A", [](const MmaAtom& m) { return V::layout(m.layout_a); }},
      {"tv_layout_B", [](const MmaAtom& m) { return V::layout(m.layout_b); }},
      {"tv_layout_C", [](const MmaAtom& m) { return V::layout(m.layout_c); }},
      {"op",
       [](const MmaAtom& m) {
         return mma_atom_value(m);
       }},  // a CuTeDSL MMA Op evaluates to its atom (atoms/dsl_ops.cpp)
  };
  for (const auto& [name, get] : members)
    if (attr == name) return get(*a);
  // a_major_mode / b_major_mode: the Op's OperandMajorMode (warpgroup and tcgen05 Ops only)
  const std::string& major = attr == "a_major_mode" ? a->major_a : a->major_b;
  if (major.empty()) ev.fail(n, a->name + " has no operand major mode (warpgroup and tcgen05 MMAs have one)");
  return V::tag("OperandMajorMode." + major);
}

// A tiler as CuTeDSL hands it back: integers stay integers, `_` is None, layouts are layouts.
Value tiler_value(const Tiler& t) {
  if (t.is_tuple()) {
    std::vector<Value> modes;
    for (const auto& m : t.modes()) modes.push_back(tiler_value(m));
    return V::tuple(std::move(modes));
  }
  if (t.is_layout() && t.is_integer()) return V::from(shape(t.layout()));
  return V::from(t);
}

const TiledMma& tiled_mma_of(Evaluator& ev, const Node& n, const Value& v, const std::string& attr) {
  if (const TiledMma* m = as_tiled_mma(v)) return *m;
  not_an_attribute(ev, n, attr, "a TiledMma (cute.make_tiled_mma(...))", v);
}

Value tiled_mma_attribute(Evaluator& ev, const Node& n, const Value& v, const std::string& attr) {
  const TiledMma& m = tiled_mma_of(ev, n, v, attr);
  if (attr == "permutation_mnk") return tiler_value(m.permutation);
  return V::layout(attr == "tv_layout_A_tiled"   ? m.tv_layout_a
                   : attr == "tv_layout_B_tiled" ? m.tv_layout_b
                   : attr == "tv_layout_C_tiled" ? m.tv_layout_c
                                                 : m.thr_layout_vmnk);  // or thr_layout_vmnk
}

Value copy_attribute(Evaluator& ev, const Node& n, const Value& v, const std::string& attr) {
  const CopyAtom* a = copy_atom_of(v);
  if (!a) not_an_attribute(ev, n, attr, "a copy atom or TiledCopy", v);
  if (attr == "value_type") return V::type(a->value_type);
  return V::layout(attr == "layout_src_tv"   ? a->val_layout_src
                   : attr == "layout_dst_tv" ? a->val_layout_dst
                                             : a->thr_id);  // or thr_id
}

Value tiled_copy_attribute(Evaluator& ev, const Node& n, const Value& v, const std::string& attr) {
  const TiledCopy* c = as_tiled_copy(v);
  if (!c) not_an_attribute(ev, n, attr, "a TiledCopy (cute.make_tiled_copy_tv(...))", v);
  if (attr == "tiler_mn") return c->tiler_is_shape ? V::from(c->tile_mn) : tiler_value(c->tiler_mn);
  return V::layout(attr == "layout_tv_tiled"       ? c->tiled_layout_tv
                   : attr == "layout_src_tv_tiled" ? c->layout_s_tv
                                                   : c->layout_d_tv);
}

// The one argument of a method call obj.NAME(arg) (keyword `keyword` allowed).
const Node& method_arg(Evaluator& ev, const Node& n, const char* keyword) {
  if (n.args.size() != 2 || (!n.args[1].keyword.empty() && n.args[1].keyword != keyword))
    ev.fail(n, n.name.substr(std::string("py.attr.").size()) + "(" + keyword + ") takes one argument");
  return n.args[1];
}

}  // namespace

void register_dsl_attributes(Registry& r) {
  for (const char* attr : {"thr_id"}) {  // MmaAtom and CopyAtom both have one
    attribute(
        r, attr,
        [](Evaluator& ev, const Node& n, const Value& v) {
          if (copy_atom_of(v)) return copy_attribute(ev, n, v, "thr_id");
          return mma_attribute(ev, n, v, "thr_id");
        },
        "atom.thr_id");
  }
  for (const char* attr :
       {"shape_mnk", "tv_layout_A", "tv_layout_B", "tv_layout_C", "op", "a_major_mode", "b_major_mode"}) {
    const std::string a = attr;
    attribute(
        r, a, [a](Evaluator& ev, const Node& n, const Value& v) { return mma_attribute(ev, n, v, a); },
        "mma_atom." + a);
  }
  for (const char* attr :
       {"tv_layout_A_tiled", "tv_layout_B_tiled", "tv_layout_C_tiled", "thr_layout_vmnk", "permutation_mnk"}) {
    const std::string a = attr;
    attribute(
        r, a, [a](Evaluator& ev, const Node& n, const Value& v) { return tiled_mma_attribute(ev, n, v, a); },
        "tiled_mma." + a);
  }
  for (const char* attr : {"layout_src_tv", "layout_dst_tv", "value_type"}) {
    const std::string a = attr;
    attribute(
        r, a, [a](Evaluator& ev, const Node& n, const Value& v) { return copy_attribute(ev, n, v, a); },
        "copy_atom." + a);
  }
  for (const char* attr : {"layout_tv_tiled", "layout_src_tv_tiled", "layout_dst_tv_tiled", "tiler_mn"}) {
    const std::string a = attr;
    attribute(
        r, a, [a](Evaluator& ev, const Node& n, const Value& v) { return tiled_copy_attribute(ev, n, v, a); },
        "tiled_copy." + a);
  }
  attribute(
      r, "size",
      [](Evaluator& ev, const Node& n, const Value& v) {  // the number of threads, as C++'s size(tiled)
        if (const TiledMma* m = as_tiled_mma(v)) return V::integer(m->num_threads);
        if (const TiledCopy* c = as_tiled_copy(v)) return V::integer(c->num_threads);
        not_an_attribute(ev, n, "size", "a TiledMma or TiledCopy (cute.size(x) for layouts)", v);
      },
      "tiled.size");
  // tiled_mma.get_tile_size(i): tile_size<i>(tiled_mma)
  r.add(
      "py.attr.get_tile_size",
      [](Evaluator& ev, const Node& n) {
        const Node& i_at = method_arg(ev, n, "mode_idx");
        const Value v = ev.eval(n.args[0]);  // keeps the TiledMma alive
        const TiledMma& m = tiled_mma_of(ev, n, v, "get_tile_size");
        const int64_t i = ev.eval(i_at).as_int();
        if (i < 0 || i > 2) ev.fail(i_at, "get_tile_size(mode_idx): mode_idx is 0, 1 or 2");
        return V::from(m.tile_mnk[static_cast<size_t>(i)]);
      },
      "tiled_mma.get_tile_size(mode_idx)");
  // tiled_mma.partition_shape_A/B/C(shape): C++'s partition_shape_A/B/C(tiled_mma, shape)
  for (char op : {'A', 'B', 'C'}) {
    const char* keyword = op == 'A' ? "shape_mk" : op == 'B' ? "shape_nk" : "shape_mn";
    r.add(
        std::string("py.attr.partition_shape_") + op,
        [op, keyword](Evaluator& ev, const Node& n) {
          const Node& shape_at = method_arg(ev, n, keyword);
          const Value v = ev.eval(n.args[0]);  // keeps the TiledMma alive
          const TiledMma& m = tiled_mma_of(ev, n, v, std::string("partition_shape_") + op);
          Value s = ev.eval(shape_at);
          try {
            return V::from(partition_shape(m, op, s.is(V::Kind::kLayout) ? shape(s.any_layout()) : s.to_int_tuple()));
          } catch (const Error& e) {
            if (e.has_position()) throw;
            ev.fail(shape_at, e.what());
          }
        },
        std::string("tiled_mma.partition_shape_") + op + "(" + keyword + ")");
  }
}

}  // namespace cutevis
