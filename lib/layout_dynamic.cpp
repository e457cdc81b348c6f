// CuTe's algebra with dynamic integers: layout.hpp's code, step by step, with every
// integer's static-ness carried along (Integer).  See layout_dynamic.hpp.
#include "lib/layout_dynamic.hpp"

#include <algorithm>
#include <deque>

namespace cutevis::dynamic {


namespace {

using TNode = IntTuple::Node;

struct Mode {
  TNode s, d;
};
using Modes = std::vector<Mode>;

std::string str(const TNode& n) { return to_string(IntTuple::of(&n), true); }

// The flat modes of l: its shape and stride leaves side by side.
Modes flat_modes(const Layout& l) {
  Modes m;
  const TNode* s = l.shape.nodes();
  const TNode* d = l.stride.nodes();
  for (size_t i = 0; i < l.shape.node_count(); ++i)
    if (s[i].is_leaf()) m.push_back({s[i], d[i]});  // congruent: the same node positions
  return m;
}

// modes as a layout: one mode a leaf, more a flat tuple
template <class Container>
Layout layout_of(const Container& modes) {
  Layout r;
  IntTuple::PairBuilder out(r.shape, r.stride);
  if (modes.size() != 1) out.open();
  for (const Mode& m : modes) out.leaf(m.s, m.d);
  if (modes.size() != 1) out.close();
  out.finish();
  return r;
}

// A stride times an integer, keeping its basis: CuTe's k * ScaledBasis.
TNode scale(Integer k, const TNode& d) {
  Integer r = k * Integer::of(d);
  TNode n = d;
  n.value = r.value;
  n.meta = r.dynamic ? (d.meta | TNode::kDynamic) : (d.meta & ~TNode::kDynamic);
  return n;
}

bool same_basis(const TNode& a, const TNode& b) { return (a.meta & ~TNode::kDynamic) == (b.meta & ~TNode::kDynamic); }

Integer of(const TNode& n) { return Integer::of(n); }

// CuTe's coalesce(Shape): neighbouring leaves of the same static-ness multiply out.
IntTuple coalesce_shape(const IntTuple& shape) {
  std::vector<Integer> out;
  const TNode* p = shape.nodes();
  for (size_t i = 0; i < shape.node_count(); ++i) {
    if (!p[i].is_leaf()) continue;
    Integer a = of(p[i]);
    if (!out.empty() && out.back().dynamic == a.dynamic) out.back() = out.back() * a;
    else out.push_back(a);
  }
  if (out.size() == 1) {
    TNode n = out[0].node();
    return IntTuple::of(&n);
  }
  std::vector<TNode> nodes;
  for (const Integer& x : out) nodes.push_back(x.node());
  return IntTuple::of_leaves(nodes.data(), nodes.size());
}

// the tuple (a, b, ...) of integers
IntTuple tuple_of(const std::vector<Integer>& xs) {
  std::vector<TNode> nodes;
  for (const Integer& x : xs) nodes.push_back(x.node());
  return IntTuple::of_leaves(nodes.data(), nodes.size());
}

void require_integer_strides(const Layout& l, const char* what) {
  if (has_basis(l.stride)) throw Error(std::string(what) + " requires integer strides");
}

// CuTe's detail::exchange_sort by stride value (as layout.cpp's static path sorts).
std::vector<size_t> sorted_by_stride(const std::vector<Integer>& strides, const std::vector<size_t>& seq) {
  std::vector<size_t> idx = seq;
  for (size_t i = 0; i < idx.size(); ++i)
    for (size_t j = i + 1; j < idx.size(); ++j)
      if (strides[idx[j]].value < strides[idx[i]].value) std::swap(idx[i], idx[j]);
  return idx;
}

// --- composition -------------------------------------------------------------------

void composition_impl(const TNode* ls, const TNode* ld, const TNode* rs, const TNode* rd, IntTuple::PairBuilder& out,
                      CompositionCheck* check) {
  if (rs->is_tuple()) {  // right-distributivity over the modes of rhs
    out.open();
    const TNode* d = rd + 1;
    for (const TNode *c = rs + 1, *e = rs->next(); c != e; c = c->next(), d = d->next()) composition_impl(ls, ld, c, d, out, check);
    out.close();
    return;
  }
  if (rd->depth()) {  // a basis stride selects a mode of lhs
    const TNode* s = ls;
    const TNode* d = ld;
    for (int k = 0; k < rd->depth(); ++k) {
      size_t m = static_cast<size_t>(rd->path(k));
      if ((s->is_leaf() && m != 0) || (s->is_tuple() && m >= s->rank()))
        throw Error("basis stride " + str(*rd) + " selects a mode that " + to_string(IntTuple::of(ls)) + " lacks");
      if (s->is_leaf()) continue;
      s = s + 1;
      d = d + 1;
      for (size_t skip = m; skip > 0; --skip) {
        s = s->next();
        d = d->next();
      }
    }
    TNode plain = TNode::leaf(rd->value, rd->is_dynamic());
    composition_impl(s, d, rs, &plain, out, check);
    return;
  }
  if (rd->is_static_value(0)) {  // any static stride-0 rhs
    out.leaf(*rs, *rd);
    return;
  }
  if (ls->is_leaf()) {
    out.leaf(*rs, scale(of(*rd), *ld));
    return;
  }

  // General case: lhs a flat tuple, rhs an integer mode.
  const size_t R = ls->rank();
  if (R == 0) throw Error("composition: the left layout has no modes");
  std::vector<Mode> result;
  Integer rest_shape = of(*rs), rest_stride = of(*rd);
  const TNode* cs = ls + 1;
  const TNode* cd = ld + 1;
  for (size_t i = 0; i + 1 < R; ++i, cs = cs->next(), cd = cd->next()) {
    if (cs->is_tuple()) throw Error("composition: left layout is not flat at mode " + std::to_string(i));
    Integer curr_shape = of(*cs);
    // CuTe's weak divisibility condition: checked only where both are static
    bool divides = (rest_stride % curr_shape).value == 0;
    bool below = rest_stride.value < curr_shape.value;
    if (!curr_shape.dynamic && !rest_stride.dynamic && !(divides || below))
      throw Error("stride divisibility condition violated: stride " + std::to_string(rest_stride.value) + " against shape " +
                  std::to_string(curr_shape.value));
    if (check && !divides && !(below && rest_stride.value != 0 && curr_shape.value % rest_stride.value == 0)) check->weak = true;
    if (rest_stride.value == 0) throw Error("composition: division by the dynamic stride 0");
    Integer next_shape = ceil_div(curr_shape, abs(rest_stride));
    Integer next_stride = ceil_div(abs(rest_stride), curr_shape) * signum(rest_stride);
    if (next_shape.is_constant(1) || rest_shape.is_constant(1)) {
      rest_stride = next_stride;
      continue;
    }
    Integer new_shape = min(next_shape, rest_shape);
    bool shape_divides = checked_mod(rest_shape.value, new_shape.value) == 0;
    if (!new_shape.dynamic && !rest_shape.dynamic && !shape_divides)
      throw Error("shape divisibility condition violated: shape " + std::to_string(rest_shape.value) + " against " +
                  std::to_string(new_shape.value));
    if (check && !shape_divides) check->weak = true;
    result.push_back({new_shape.node(), scale(rest_stride, *cd)});
    rest_shape = rest_shape / new_shape;
    rest_stride = next_stride;
  }
  const TNode& last_stride = *cd;
  if (result.empty()) {
    out.leaf(rest_shape.node(), scale(rest_stride, last_stride));
    return;
  }
  if (!rest_shape.is_constant(1)) result.push_back({rest_shape.node(), scale(rest_stride, last_stride)});
  if (result.size() == 1) {  // unwrap
    out.leaf(result[0].s, result[0].d);
    return;
  }
  out.open();
  for (const Mode& m : result) out.leaf(m.s, m.d);
  out.close();
}

Layout compose(const Layout& flat_lhs, const TNode* rs, const TNode* rd, CompositionCheck* check) {
  Layout r;
  IntTuple::PairBuilder out(r.shape, r.stride);
  composition_impl(flat_lhs.shape.nodes(), flat_lhs.stride.nodes(), rs, rd, out, check);
  out.finish();
  return r;
}

// coprofile(L) as composition needs it: 0 for integer strides, else by mode
IntTuple coprofile(const Layout& l) {
  if (!has_basis(l.stride)) return IntTuple(0);
  IntTuple sum_tuple(0);
  for (const auto& d : flatten_leaves(l.stride))
    if (!d.basis().empty()) add_scaled_basis(sum_tuple, 1, d.basis());
  return repeat_like(sum_tuple, 0);
}

// coalesce_x at the terminals of a profile
Layout coalesce_x_by(const Layout& l, const IntTuple& profile) {
  if (profile.is_leaf()) return dynamic::coalesce(l, true);
  if (profile.rank() > rank(l)) throw Error("profile " + to_string(profile) + " has more modes than " + to_string(l));
  std::vector<Layout> modes;
  for (size_t i = 0; i < rank(l); ++i) modes.push_back(i < profile.rank() ? coalesce_x_by(get(l, i), profile[i]) : get(l, i));
  return make_layout(modes);
}

}  // namespace

// --- coalesce ----------------------------------------------------------------------------

Layout coalesce(const Layout& l, bool extend) {
  Modes m = flat_modes(l);
  if (m.empty()) return l;  // an empty tuple: nothing to coalesce
  std::deque<Mode> out;
  Mode front = m.back();
  if (extend && front.s.is_static_value(1)) front.s = TNode::leaf(2);
  out.push_front(front);
  bool single = true;  // the result so far is one mode, not yet a tuple
  for (size_t k = m.size() - 1; k-- > 0;) {
    const Mode& x = m[k];
    if (x.s.is_static_value(1)) continue;  // skip static _1 modes
    if (single && out.front().s.is_static_value(1)) {  // replace our _1
      out.front() = x;
      continue;
    }
    Mode& f = out.front();
    if (!f.s.is_dynamic()) {  // merge only where s * d == front stride is a static truth
      TNode prod = scale(of(x.s), x.d);
      if (!prod.is_dynamic() && !f.d.is_dynamic() && prod.value == f.d.value && same_basis(prod, f.d)) {
        f.s = (of(x.s) * of(f.s)).node();
        f.d = x.d;
        continue;
      }
    }
    out.push_front(x);
    single = false;
  }
  if (single && out.front().s.is_static_value(1)) return Layout();  // _1:_0
  return layout_of(out);
}

Layout filter(const Layout& l) {  // coalesce(filter_zeros(L)): only static _0 strides are filtered
  Layout z = l;
  TNode* s = z.shape.mutable_nodes();
  const TNode* d = z.stride.nodes();
  for (size_t i = 0; i < z.shape.node_count(); ++i)
    if (s[i].is_leaf() && d[i].is_static_value(0)) s[i] = TNode::leaf(1);
  return dynamic::coalesce(z, false);
}

// --- composition -----------------------------------------------------------------------

Layout composition(const Layout& a, const Layout& b, CompositionCheck* check) {
  Layout flat = coalesce_x_by(a, coprofile(b));
  return compose(flat, b.shape.nodes(), b.stride.nodes(), check);
}

Layout composition_with_integer(const Layout& a, const IntTuple& n, CompositionCheck* check) {
  TNode one = TNode::leaf(1);
  return compose(dynamic::coalesce(a, true), n.nodes(), &one, check);
}

// --- complement ------------------------------------------------------------------------

Layout complement(const Layout& l, const IntTuple& cotarget) {
  require_integer_strides(l, "complement");
  Layout f = dynamic::filter(l);
  Modes m = flat_modes(f);
  if (m.size() == 1 && m[0].d.is_static_value(0)) return make_layout(coalesce_shape(cotarget));  // _1:_0
  const size_t R = m.size();
  if (R > 1)
    for (const Mode& x : m)
      if (x.d.is_dynamic())
        throw Error("complement: CuTe takes dynamic strides only in rank-1 layouts, got " + to_string(f, true));
  std::vector<Integer> shape, stride;
  for (const Mode& x : m) {
    shape.push_back(of(x.s));
    stride.push_back(of(x.d));
  }
  std::vector<Integer> result_shape, result_stride{Integer{1, false}};
  for (size_t i = 0; i + 1 < R; ++i) {
    Integer min_stride = stride[0];
    for (size_t j = 1; j < stride.size(); ++j) min_stride = min(min_stride, stride[j]);
    size_t min_idx = 0;
    while (stride[min_idx].value != min_stride.value) ++min_idx;
    Integer new_shape = min_stride / result_stride[i];
    if (new_shape.is_constant(0)) throw Error("complement: the layout is not injective");
    Integer new_stride = min_stride * shape[min_idx];
    shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(min_idx));
    stride.erase(stride.begin() + static_cast<std::ptrdiff_t>(min_idx));
    result_shape.push_back(new_shape);
    result_stride.push_back(new_stride);
  }
  Integer new_shape = stride[0] / result_stride[R - 1];
  if (new_shape.is_constant(0)) throw Error("complement: the layout is not injective");
  result_shape.push_back(new_shape);
  Integer new_stride = stride[0] * shape[0];
  TNode ns = new_stride.node();
  IntTuple rest_shape = coalesce_shape(ceil_div(cotarget, IntTuple::of(&ns)));
  IntTuple rest_stride = compact_col_major(rest_shape, new_stride);
  return dynamic::coalesce(Layout(IntTuple::tuple({tuple_of(result_shape), rest_shape}), IntTuple::tuple({tuple_of(result_stride), rest_stride})),
                  false);
}

Integer cosize(const Layout& l) {  // _0 + sum((s - _1) * |d|) + _1
  require_integer_strides(l, "cosize");
  Integer acc{0, false};
  for (const Mode& x : flat_modes(l)) acc = acc + (of(x.s) - Integer{1, false}) * abs(of(x.d));
  return acc + Integer{1, false};
}

Layout complement(const Layout& l) {
  require_integer_strides(l, "complement");
  TNode c = dynamic::cosize(dynamic::filter(l)).node();
  return dynamic::complement(l, IntTuple::of(&c));
}

// --- inverses --------------------------------------------------------------------------

Layout right_inverse(const Layout& l) {
  require_integer_strides(l, "right_inverse");
  Modes m = flat_modes(dynamic::coalesce(l, false));
  std::vector<Integer> preprod{Integer{1, false}}, stride;
  std::vector<size_t> seq;
  for (size_t i = 0; i < m.size(); ++i) {
    preprod.push_back(of(m[i].s) * preprod.back());
    stride.push_back(of(m[i].d));
    if (!m[i].d.is_dynamic()) seq.push_back(i);  // dynamic strides are filtered out
  }
  std::vector<Integer> rshape{Integer{1, false}}, rstride{Integer{0, false}};
  Integer curr{1, false};
  for (size_t i : sorted_by_stride(stride, seq)) {
    if (!curr.dynamic && stride[i].value == curr.value) {  // is_constant<istride, curr>
      rshape.push_back(of(m[i].s));
      rstride.push_back(preprod[i]);
      curr = of(m[i].s) * stride[i];
    }
  }
  return dynamic::coalesce(Layout(tuple_of(rshape), tuple_of(rstride)), false);
}

Layout left_inverse(const Layout& l) {
  require_integer_strides(l, "left_inverse");
  Modes m = flat_modes(dynamic::coalesce(l, false));
  std::vector<Integer> preprod{Integer{1, false}}, stride;
  std::vector<size_t> seq;
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i].d.is_dynamic())
      throw Error("left_inverse requires static strides (CuTe's static_assert), got " + to_string(l, true));
    preprod.push_back(of(m[i].s) * preprod.back());
    stride.push_back(of(m[i].d));
    seq.push_back(i);
  }
  std::vector<size_t> order = sorted_by_stride(stride, seq);
  std::vector<Integer> rshape, rstride{Integer{0, false}};
  Integer rsize{1, false};
  for (size_t i : order) {
    Integer istride = stride[i];
    if (istride.is_constant(0)) continue;
    if ((istride % rsize).value != 0)
      throw Error("left_inverse: divisibility condition violated (stride " + std::to_string(istride.value) + " by " +
                  std::to_string(rsize.value) + ")");
    Integer s = istride / rsize;
    rshape.push_back(s);
    rstride.push_back(preprod[i]);
    rsize = rsize * s;
  }
  rshape.push_back(of(m[order.back()].s));
  return dynamic::coalesce(Layout(tuple_of(rshape), tuple_of(rstride)), false);
}

}  // namespace cutevis::dynamic
