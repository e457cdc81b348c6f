// CuTe's composition (include/cute/layout.hpp): R = A o B, R(c) == A(B(c)) for c in
// the domain of B.  One function for static and dynamic integers: every integer
// carries its static-ness (Integer), and CuTe's divisibility conditions are checked
// where CuTe checks them, on static integers.
#include "lib/detail/flat_modes.hpp"
#include "lib/layout.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

using detail::LayoutBuilder;
using detail::ModeList;
using detail::scale;
using detail::str;
using detail::TNode;

namespace {

// CuTe: layout.hpp:detail::composition_impl — lhs (coalesced) with one mode of rhs, as
// nodes, the result mode into `out`.  `check`, when given, notes a divisibility
// condition that CuTe lets through (see CompositionCheck).
void composition_impl(const TNode* lhs_s, const TNode* lhs_d, const TNode* rhs_s, const TNode* rhs_d,
                      LayoutBuilder& out, CompositionCheck* check) {
  if (rhs_s->is_tuple()) {  // right-distributivity over the modes of rhs
    out.open();
    const TNode* d = rhs_d + 1;
    for (const TNode *c = rhs_s + 1, *e = rhs_s->next(); c != e; c = c->next(), d = d->next())
      composition_impl(lhs_s, lhs_d, c, d, out, check);
    out.close();
    return;
  }
  if (rhs_d->depth()) {  // a basis stride E<i,...> selects a mode of lhs
    const TNode* s = lhs_s;
    const TNode* d = lhs_d;
    for (int k = 0; k < rhs_d->depth(); ++k) {
      size_t m = static_cast<size_t>(rhs_d->path(k));
      if ((s->is_leaf() && m != 0) || (s->is_tuple() && m >= s->rank()))
        throw Error("basis stride " + str(rhs_d) + " selects a mode that " + str(lhs_s) + " lacks");
      if (s->is_leaf()) continue;  // get<0> of a leaf is the leaf
      s = s + 1;
      d = d + 1;
      for (size_t skip = m; skip > 0; --skip) {
        s = s->next();
        d = d->next();
      }
    }
    const TNode plain = TNode::leaf(rhs_d->value, rhs_d->is_dynamic());
    composition_impl(s, d, rhs_s, &plain, out, check);
    return;
  }
  if (rhs_d->is_static_value(0)) {  // any static stride-_0 rhs
    out.mode(*rhs_s, *rhs_d);
    return;
  }
  if (lhs_s->is_leaf()) {
    out.mode(*rhs_s, scale(Integer::of(*rhs_d), *lhs_d));
    return;
  }

  // General case: lhs a flat tuple, rhs an integer mode.
  const size_t R = lhs_s->rank();
  if (R == 0) throw Error("composition: the left layout has no modes");
  SmallVec<TNode, 16> result_shape, result_stride;
  Integer rest_shape = Integer::of(*rhs_s), rest_stride = Integer::of(*rhs_d);
  const TNode* cs = lhs_s + 1;
  const TNode* cd = lhs_d + 1;
  for (size_t i = 0; i + 1 < R; ++i, cs = cs->next(), cd = cd->next()) {
    if (cs->is_tuple()) throw Error("composition: left layout is not flat at mode " + std::to_string(i));
    const Integer curr_shape = Integer::of(*cs);
    // CuTe's weak divisibility condition, checked only where both are static
    const bool divides = (rest_stride % curr_shape).value == 0;
    const bool below = rest_stride.value < curr_shape.value;
    if (!curr_shape.dynamic && !rest_stride.dynamic && !(divides || below))
      throw Error("stride divisibility condition violated: stride " + std::to_string(rest_stride.value) +
                  " against shape " + std::to_string(curr_shape.value));
    if (check && !divides && !(below && rest_stride.value != 0 && curr_shape.value % rest_stride.value == 0))
      check->weak = true;
    if (rest_stride.value == 0) throw Error("composition: division by the dynamic stride 0");
    const Integer next_shape = ceil_div(curr_shape, abs(rest_stride));
    const Integer next_stride = ceil_div(abs(rest_stride), curr_shape) * signum(rest_stride);
    if (next_shape.is_constant(1) || rest_shape.is_constant(1)) {
      rest_stride = next_stride;
      continue;
    }
    const Integer new_shape = min(next_shape, rest_shape);
    const bool shape_divides = checked_mod(rest_shape.value, new_shape.value) == 0;
    if (!new_shape.dynamic && !rest_shape.dynamic && !shape_divides)
      throw Error("shape divisibility condition violated: shape " + std::to_string(rest_shape.value) + " against " +
                  std::to_string(new_shape.value));
    if (check && !shape_divides) check->weak = true;
    result_shape.push_back(new_shape.node());
    result_stride.push_back(scale(rest_stride, *cd));
    rest_shape = rest_shape / new_shape;
    rest_stride = next_stride;
  }
  if (result_shape.empty()) {
    out.mode(rest_shape.node(), scale(rest_stride, *cd));
    return;
  }
  if (!rest_shape.is_constant(1)) {
    result_shape.push_back(rest_shape.node());
    result_stride.push_back(scale(rest_stride, *cd));
  }
  if (result_shape.size() == 1) {  // unwrap
    out.mode(result_shape[0], result_stride[0]);
    return;
  }
  out.open();
  for (size_t i = 0; i < result_shape.size(); ++i) out.mode(result_shape[i], result_stride[i]);
  out.close();
}

// composition_impl(flat, rhs) for a whole lhs already coalesced to `flat`
Layout compose(const Layout& flat, const TNode* rhs_s, const TNode* rhs_d, CompositionCheck* check) {
  Layout result;
  LayoutBuilder out(result);
  composition_impl(flat.shape.nodes(), flat.stride.nodes(), rhs_s, rhs_d, out, check);
  out.finish();
  return result;
}

// composition_impl(coalesce_x(a), rhs): a coalesced as a whole, without building it
Layout compose_coalesced(const Layout& a, const TNode* rhs_s, const TNode* rhs_d, CompositionCheck* check) {
  ModeList lhs = detail::coalesce_modes(a, true);
  const TNode *s, *d;
  lhs.tree(s, d);
  if (s->is_leaf()) return detail::compose_with_mode(*d, rhs_s, rhs_d);  // rhs has no basis strides here
  Layout result;
  LayoutBuilder out(result);
  composition_impl(s, d, rhs_s, rhs_d, out, check);
  out.finish();
  return result;
}

// CuTe: layout.hpp:coprofile — the codomain's profile, all zeros: 0 for integer strides.
IntTuple coprofile(const Layout& l) {
  if (!has_basis(l.stride)) return IntTuple(0);
  // repeat_like(as_arithmetic_tuple(sum(stride)), 0): every basis stride adds its mode
  IntTuple sum_tuple(0);
  for (const auto& d : flatten_leaves(l.stride))
    if (!d.basis().empty()) add_scaled_basis(sum_tuple, 1, d.basis());
  return repeat_like(sum_tuple, 0);
}

// CuTe: layout.hpp:composition — composition_impl(coalesce_x(a, coprofile(b)), b)
Layout composition_checked(const Layout& a, const Layout& b, CompositionCheck* check) {
  if (!has_basis(b.stride)) return compose_coalesced(a, b.shape.nodes(), b.stride.nodes(), check);  // coprofile(b) is 0
  return compose(coalesce_x(a, coprofile(b)), b.shape.nodes(), b.stride.nodes(), check);
}

}  // namespace

// CuTe: layout.hpp:composition(Layout, Layout)
Layout composition(const Layout& a, const Layout& b) { return composition_checked(a, b, nullptr); }

Layout composition(const Layout& a, const Layout& b, CompositionCheck& check) {
  // The same computation, noting each divisibility condition CuTe lets through; only
  // then is the result compared with A(B(i)).
  check = CompositionCheck();
  Layout r = composition_checked(a, b, &check);
  if (!check.weak || has_basis(a.stride) || has_basis(b.stride)) return r;
  for (int64_t i = 0, n = size(b); i < n; ++i) {  // over B's domain: R's size may even differ from B's
    int64_t expected = a(b(i)), got = r(i);
    if (got != expected) {
      check.index = i;
      check.expected = expected;
      check.got = got;
      break;
    }
  }
  return r;
}

// CuTe: layout.hpp:composition(Layout, Tiler) — by mode for a tuple, `_` keeps the layout
Layout composition(const Layout& a, const Tiler& b) {
  switch (b.kind()) {
    case Tiler::Kind::kUnderscore: return a;
    case Tiler::Kind::kLayout: {
      if (!b.is_integer()) return composition(a, b.layout());
      const TNode one = TNode::leaf(1);  // composition_impl(coalesce_x(a), n, _1): no stride-0 shortcut for n == 1
      return compose_coalesced(a, b.layout().shape.nodes(), &one, nullptr);
    }
    case Tiler::Kind::kTuple: {
      if (b.rank() > rank(a))
        throw Error("composition: tiler " + to_string(b) + " has more modes than " + to_string(a));
      Layout result;  // make_layout(composition(get<i>(a), get<i>(b))...); modes of a not hit are dropped, as in CuTe
      LayoutBuilder out(result);
      out.open();
      for (size_t i = 0; i < b.rank(); ++i) out.append(composition(get(a, i), b.modes()[i]));
      out.close();
      out.finish();
      return result;
    }
  }
  return a;
}

// CuTe: layout.hpp:composition(layout, make_layout(shape)) as the atoms use it
Layout with_shape(const Layout& l, const IntTuple& shape) { return composition(l, make_layout(shape)); }

}  // namespace cutevis
