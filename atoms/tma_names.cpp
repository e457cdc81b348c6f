// CuTe's TMA constructors in the expression language, as kernels write them:
//   make_tma_copy(SM90_TMA_LOAD{}, gtensor, slayout[, cta_tiler[, cluster_size]])
//   make_tma_atom<T>(SM90_TMA_LOAD{}, gtensor, slayout, cta_tiler[, cluster_size])
//   make_tma_copy_A_sm90(GmemTiledCopyA{}, tensor_a, SmemLayoutA{}(_,_,0), TileShape{}, ClusterShape{})
// The gmem tensor may be make_tensor(ptr, layout) (its type from make_gmem_ptr<T> or the <T>
// template argument) or a bare layout with <T>.
#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tma.hpp"
#include "atoms/tmem.hpp"

namespace cutevis {

namespace {

using V = Value;

std::string strip_cute(const std::string& name) { return name.rfind("cute::", 0) == 0 ? name.substr(6) : name; }

std::string op_arg(Evaluator& ev, const Node& call) {
  std::string got;
  try {
    Value v = ev.eval(call.args[0]);
    if (v.is(V::Kind::kTag) && is_tma_op(v.tag())) return v.tag();
    got = v.describe();
  } catch (const Error&) {
    got = "'" + ev.text_of(call.args[0]) + "'";  // another copy operation, or nothing known
  }
  ev.fail(call.args[0],
          call.name +
              ": the first argument is a TMA operation (SM90_TMA_LOAD{}, SM90_TMA_LOAD_MULTICAST{}, SM90_TMA_STORE{}, "
              "SM90_TMA_REDUCE_ADD{}, SM100_TMA_2SM_LOAD{}, SM100_TMA_2SM_LOAD_MULTICAST{}), got " +
              got);
}

// A tiler without mode `drop` (CuTe's remove<I>(cta_tiler)), or the whole tiler for drop < 0.
Tiler tiler_without(Evaluator& ev, const Node& at, const Value& t, int drop) {
  if (drop < 0) return t.to_tiler();
  if (t.is(V::Kind::kLayout)) {
    const Layout& l = as_layout(t.any_layout(), "a CTA tiler");
    if (l.shape.is_leaf()) ev.fail(at, "the CTA tiler " + t.to_string() + " has no mode " + std::to_string(drop));
    return Tiler::from_shape(remove_mode(l.shape, static_cast<size_t>(drop)));
  }
  if (!t.is(V::Kind::kTuple) || t.elements().size() <= static_cast<size_t>(drop))
    ev.fail(at, "the CTA tiler is (M,N,K), got " + t.describe());
  std::vector<Value> rest = t.elements();
  rest.erase(rest.begin() + drop);
  return V::tuple(rest).to_tiler();
}

int64_t cluster_size(Evaluator& ev, const Node& at, const Value& v, int mode) {
  if (mode < 0) {
    if (v.is(V::Kind::kInt)) return v.as_int();
    return size(v.to_any_layout());
  }
  if (v.is(V::Kind::kLayout)) return size(get(v.any_layout(), static_cast<size_t>(mode)));
  if (v.is(V::Kind::kTuple) && static_cast<size_t>(mode) < v.elements().size())
    return size(v.elements()[static_cast<size_t>(mode)].to_int_tuple());
  ev.fail(at, "the cluster shape is (M,N,K), got " + v.describe());
}

// The operation, the gmem tensor (its layout and element type, or <TmaInternalType>) and the
// smem layout: the first three arguments of every TMA constructor.
TmaRequest tma_request(Evaluator& ev, const Node& n) {
  TmaRequest r;
  r.op = op_arg(ev, n);
  Value g = ev.eval(n.args[1]);
  Tensor gt = tensor_from(g);
  r.gmem = as_layout(gt.layout, "the gmem tensor's layout");
  r.element = gt.element;
  if (n.template_args.size() == 1) {
    Value t = ev.eval(n.template_args[0]);
    if (!t.is(V::Kind::kType))
      ev.fail(n.template_args[0], n.name + "<TmaInternalType>: an element type such as half_t, got " + t.describe());
    r.internal = t.type();
    if (r.element.bits == 0) r.element = r.internal;
  }
  if (r.element.bits == 0)
    ev.fail(
        n.args[1],
        n.name +
            ": the gmem tensor's element type is unknown; write make_tensor(make_gmem_ptr<half_t>(ptr), layout) or " +
            strip_cute(n.name) + "<half_t>(...)");
  r.smem = tensor_from(ev.eval(n.args[2])).layout;
  return r;
}

// `which`: 0 make_tma_copy, 1 make_tma_atom, 'A'/'B'/'C' make_tma_copy_X_sm90.
Value tma_call(Evaluator& ev, const Node& n, int which) {
  bool abc = which == 'A' || which == 'B' || which == 'C';
  if (which == 0) ev.expect_args(n, 3, 5);
  else if (which == 1) ev.expect_args(n, 4, 5);
  else ev.expect_args(n, which == 'C' ? 4 : 5, which == 'C' ? 4 : 5);
  TmaRequest r = tma_request(ev, n);
  int64_t multicast = 1;
  if (abc) {
    Value tiler = ev.eval(n.args[3]);
    r.cta_tiler = tiler_without(ev, n.args[3], tiler, which == 'A' ? 1 : which == 'B' ? 0 : 2);
    if (which != 'C') multicast = cluster_size(ev, n.args[4], ev.eval(n.args[4]), which == 'A' ? 1 : 0);
    r.cta_t_map = which == 'C' ? Layout(IntTuple(1), IntTuple(0)) : make_layout(IntTuple(multicast));
  } else {
    // make_tma_copy(op, g, s[, cluster_size]) and (op, g, s, cta_tiler, cluster_size); make_tma_atom(op, g, s,
    // cta_tiler[, cluster_size])
    bool has_tiler = which == 1 || n.args.size() == 5;
    r.cta_tiler = has_tiler ? ev.eval(n.args[3]).to_tiler() : Tiler::from_shape(product_each(shape(r.smem)));
    size_t cluster_at = has_tiler ? 4 : 3;
    if (n.args.size() > cluster_at) multicast = cluster_size(ev, n.args[cluster_at], ev.eval(n.args[cluster_at]), -1);
    r.cta_t_map = make_layout(IntTuple(multicast));
  }
  try {
    if (which == 1) return copy_atom_value(make_tma_atom(r));
    return tiled_copy_value(make_tma_copy(r));
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, e.what());
  }
}

// make_tma_copy_X_sm100(op, gtensor, slayout, cluster_tiler_mnk, tiled_mma) and
// make_tma_atom_X_sm100(op, gtensor, slayout, mma_tiler_mnk, tiled_mma, cluster_layout_vmnk).
Value tma_sm100_call(Evaluator& ev, const Node& n, char x, bool atom) {
  ev.expect_args(n, atom ? 6 : 5, atom ? 6 : 5);
  TmaRequest r = tma_request(ev, n);
  if (x == 'C' && is_tma_multicast_op(r.op))
    ev.fail(n.args[0],
            n.name + ": unsupported TMA op " + r.op + ", expected a non-multicast TMA (CuTe's static_assert)");
  Tiler tiler_xy = tiler_without(ev, n.args[3], ev.eval(n.args[3]), x == 'A' ? 1 : x == 'B' ? 0 : 2);
  Value m = ev.eval(n.args[4]);
  const TiledMma* mma = as_tiled_mma(m);
  if (!mma) ev.fail(n.args[4], n.name + ": the fifth argument is a TiledMMA, got " + m.describe());
  try {
    r.cta_v_map = tma_sm100_cta_v_map(*mma, x, r.gmem, tiler_xy);
    if (atom) {  // num_multicast: size<2>(cluster_shape) (N) for A, size<1> (M) for B, of a multicast op
      int64_t multicast =
          is_tma_multicast_op(r.op) ? cluster_size(ev, n.args[5], ev.eval(n.args[5]), x == 'A' ? 2 : 1) : 1;
      r.cta_t_map = make_layout(IntTuple(multicast));
      return copy_atom_value(make_tma_atom(r));
    }
    r.cta_t_map = x == 'C' ? Layout(IntTuple(1), IntTuple(0)) : tma_sm100_cta_t_map(*mma, x, r.op);
    return tiled_copy_value(make_tma_copy(r));
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, e.what());
  }
}

// The first argument of get_tma_tensor / tma_partition: a TMA atom, or a TMA TiledCopy's atom.
CopyAtom tma_atom_arg(Evaluator& ev, const Node& n, const std::string& fn) {
  Value tma = ev.eval(n.args[0]);
  if (const TiledCopy* c = as_tiled_copy(tma); c && c->atom.num_bits_per_tma > 0) return c->atom;
  if (const CopyAtom* a = as_copy_atom(tma); a && a->num_bits_per_tma > 0) return *a;
  ev.fail(n.args[0], fn + ": a TMA atom or copy (make_tma_atom / make_tma_copy), got " + tma.describe());
}

// make_tmem_copy(Copy_Atom<Op, T>{} | Op{}, tmem_tensor)
Value tmem_call(Evaluator& ev, const Node& n) {
  ev.expect_args(n, 2, 2);
  Value a = ev.eval(n.args[0]);
  Tensor t = tensor_from(ev.eval(n.args[1]));
  const Layout& layout = as_layout(t.layout, "the tmem tensor's layout");
  CopyAtom atom;
  if (const CopyAtom* given = as_copy_atom(a)) {
    atom = *given;
    if (t.element.bits == 0) t.element = atom.value_type;  // a bare layout: the atom's type
  } else if (a.is(V::Kind::kTag) && is_tmem_op(a.tag())) {
    if (t.element.bits == 0)
      ev.fail(
          n.args[1],
          "make_tmem_copy(" + a.tag() +
              "{}, tensor): the tensor's element type is unknown; write make_tensor(make_tmem_ptr<float>(0), layout) "
              "or pass Copy_Atom<" +
              a.tag() + ", float>{}");
    atom = make_copy_atom(a.tag(), t.element);
  } else {
    ev.fail(n.args[0],
            "make_tmem_copy: the first argument is a tensor-memory copy such as SM100_TMEM_LOAD_32dp32b8x{} or "
            "Copy_Atom<SM100_TMEM_LOAD_32dp32b8x, float>{}, got " +
                a.describe());
  }
  try {
    return tiled_copy_value(make_tmem_copy(atom, layout, t.element.bits));
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, e.what());
  }
}

}  // namespace

void register_tma_names(Registry& r) {
  for (const char* op : {"SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM90_TMA_STORE", "SM90_TMA_REDUCE_ADD",
                         "SM100_TMA_2SM_LOAD", "SM100_TMA_2SM_LOAD_MULTICAST"}) {
    std::string name = op;
    r.add(
        name, [name](Evaluator&, const Node&) { return V::tag(name); },
        name + "{} (an operation for make_tma_copy; an atom is Copy_Atom<Copy_Traits<" + name +
            ", NumBitsPerTMA>, T>)");
  }
  for (const auto& name : tmem_copy_op_names()) {  // SM100_TMEM_LOAD_32dp32b8x{}: an operation for make_tmem_copy
    r.add(
        name, [name](Evaluator&, const Node&) { return V::tag(name); }, name + "{} (an operation for make_tmem_copy)");
  }
  // Named, so that a kernel that uses them gets a clear refusal instead of an unknown name.
  for (const char* op : {"SM100_TMA_LOAD_2D_GATHER4", "SM100_TMA_LOAD_MULTICAST_2D_GATHER4",
                         "SM100_TMA_STORE_2D_SCATTER4", "SM90_TMA_LOAD_IM2COL", "SM90_TMA_LOAD_IM2COL_MULTICAST",
                         "SM90_TMA_STORE_IM2COL", "SM100_TMA_2SM_LOAD_IM2COL", "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST"}) {
    std::string name = op;
    r.add(
        name,
        [name](Evaluator& ev, const Node& n) -> Value {
          ev.fail(n, "not supported: " + name +
                         " (gather4/scatter4 and im2col TMA are not modelled; cutevis models "
                         "the tiled TMA ops SM90_TMA_LOAD[_MULTICAST], SM90_TMA_STORE, "
                         "SM90_TMA_REDUCE_ADD, SM100_TMA_2SM_LOAD[_MULTICAST])");
        },
        name + "{} (not modelled)");
  }
  for (const char* fn : {"make_im2col_tma_copy", "make_tma_copy_im2col", "make_tma_atom_im2col",
                         "make_im2col_tma_copy_A_sm100", "make_im2col_tma_copy_B_sm100"}) {
    std::string name = fn;
    r.add(
        name,
        [name](Evaluator& ev, const Node& n) -> Value {
          ev.fail(n, "not supported: " + name + " (im2col TMA is not modelled; make_tma_copy and make_tma_atom are)");
        },
        name + "(...) (not modelled)");
  }
  r.add(
      "get_tma_tensor",
      [](Evaluator& ev, const Node& n) -> Value {
        ev.expect_args(n, 2, 2);
        const CopyAtom atom = tma_atom_arg(ev, n, "get_tma_tensor");
        IntTuple g_shape = ev.eval(n.args[1]).to_int_tuple();
        try {
          return tensor_value(get_tma_tensor(atom, g_shape));
        } catch (const Error& e) {
          if (e.has_position()) throw;
          ev.fail(n, e.what());
        }
      },
      "tma.get_tma_tensor(shape(gtensor)): the TMA coordinate tensor");
  r.add(
      "tma_partition",
      [](Evaluator& ev, const Node& n) -> Value {
        if (n.args.size() < 3) ev.fail(n, "tma_partition(atom, [cta_coord, cta_layout,] stensor, gtensor...)");
        const CopyAtom atom = tma_atom_arg(ev, n, "tma_partition");
        // (atom, stensor, gtensor) or (atom, cta_coord, cta_layout, stensor, gtensors...)
        const bool defaults = n.args.size() == 3;
        const Value coord_value = defaults ? V::integer(0) : ev.eval(n.args[1]);
        const int64_t cta_coord = coord_value.as_int();
        const bool runtime_coord = has_dynamic(coord_value.to_int_tuple());  // get<2>(cta_in_cluster_coord_vmnk)
        Layout cta_layout = defaults ? Layout(IntTuple(1), IntTuple(0)) : ev.eval(n.args[2]).to_layout();
        const size_t s_at = defaults ? 1 : 3;
        if (n.args.size() <= s_at + 1) ev.fail(n, "tma_partition: an smem tensor and at least one gmem tensor");
        Tensor stensor = tensor_from(ev.eval(n.args[s_at]));
        std::vector<Tensor> gtensors;
        for (size_t i = s_at + 1; i < n.args.size(); ++i) gtensors.push_back(tensor_from(ev.eval(n.args[i])));
        try {
          std::vector<Value> parts;
          for (Tensor& t : tma_partition(atom, cta_coord, cta_layout, stensor, gtensors, runtime_coord))
            parts.push_back(tensor_value(std::move(t)));
          return V::tuple(parts);
        } catch (const Error& e) {
          if (e.has_position()) throw;
          ev.fail(n, e.what());
        }
      },
      "tma_partition(atom, cta_coord, cta_layout, stensor, gtensor...): (gtensor parts..., stensor part)");
  r.add("make_tmem_copy", tmem_call, "make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{} | Copy_Atom<Op, T>{}, tmem_tensor)");
  r.add(
      "make_tma_copy", [](Evaluator& ev, const Node& n) { return tma_call(ev, n, 0); },
      "make_tma_copy<T>(SM90_TMA_LOAD{}, gtensor, slayout[, cta_tiler[, cluster_size]])");
  r.add(
      "make_tma_atom", [](Evaluator& ev, const Node& n) { return tma_call(ev, n, 1); },
      "make_tma_atom<T>(SM90_TMA_LOAD{}, gtensor, slayout, cta_tiler[, cluster_size])");
  for (char x : {'A', 'B', 'C'}) {
    std::string name = std::string("make_tma_copy_") + x + "_sm100";
    r.add(
        name, [x](Evaluator& ev, const Node& n) { return tma_sm100_call(ev, n, x, false); },
        name + "<T>(op, gtensor, slayout, cluster_tiler_mnk, tiled_mma)");
    if (x != 'C') {
      std::string atom = std::string("make_tma_atom_") + x + "_sm100";
      r.add(
          atom, [x](Evaluator& ev, const Node& n) { return tma_sm100_call(ev, n, x, true); },
          atom + "<T>(op, gtensor, slayout, mma_tiler_mnk, tiled_mma, cluster_layout_vmnk)");
    }
  }
  for (char x : {'A', 'B', 'C'}) {
    std::string name = std::string("make_tma_copy_") + x + "_sm90";
    r.add(
        name, [x](Evaluator& ev, const Node& n) { return tma_call(ev, n, x); },
        name + "<T>(op, gtensor, slayout, cta_tiler_mnk" + (x == 'C' ? ")" : ", cluster_shape)"));
  }
}

}  // namespace cutevis
