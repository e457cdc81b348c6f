// CuTe's coalesce and filter (include/cute/layout.hpp).  One function per operation for
// static and dynamic integers: CuTe merges two modes only where the merge is a static
// truth, so an all-static layout merges wherever pycute would.  CuTe's algorithm,
// detail::bw_coalesce (from the back, mode k joins the front mode when s_k * d_k equals
// its stride), is detail::coalesce_modes in lib/detail/flat_modes.hpp: inline, because
// every operation coalesces, some twice.
#include "lib/detail/flat_modes.hpp"
#include "lib/layout.hpp"

namespace cutevis {

using detail::FlatModes;
using detail::Leaves;
using detail::ModeList;
using detail::TNode;

namespace detail {

// filter(L) as flat modes: static stride-_0 modes get size _1, then bw_coalesce.
ModeList filter_modes(const Layout& l) {
  FlatModes m(l);
  Leaves s;
  s.append(m.shape(), m.size());
  for (size_t i = 0; i < m.size(); ++i)
    if (m.stride()[i].is_static_value(0)) s[i] = TNode::leaf(1);
  return coalesce_modes(s.data(), m.stride(), m.size(), false);
}

}  // namespace detail

namespace {

// transform_layout(L, profile, f): f on the first rank(profile) modes, the rest kept.
template <class F>
Layout by_profile(const Layout& l, const IntTuple& profile, F&& f) {
  if (profile.is_leaf()) return f(l);
  if (profile.rank() > rank(l)) throw Error("profile " + to_string(profile) + " has more modes than " + to_string(l));
  std::vector<Layout> modes;
  for (size_t i = 0; i < rank(l); ++i)
    modes.push_back(i < profile.rank() ? by_profile(get(l, i), profile[i], f) : get(l, i));
  return make_layout(modes);
}

}  // namespace

// CuTe: layout.hpp:coalesce
Layout coalesce(const Layout& l) { return detail::coalesce_modes(l, false).layout(); }

// CuTe: layout.hpp:coalesce_x
Layout coalesce_x(const Layout& l) { return detail::coalesce_modes(l, true).layout(); }

// CuTe: layout.hpp:coalesce(layout, trg_profile)
Layout coalesce(const Layout& l, const IntTuple& profile) {
  return by_profile(l, profile, [](const Layout& x) { return coalesce(x); });
}

// CuTe: layout.hpp:coalesce_x(layout, trg_profile)
Layout coalesce_x(const Layout& l, const IntTuple& profile) {
  return by_profile(l, profile, [](const Layout& x) { return coalesce_x(x); });
}

// CuTe: layout.hpp:filter_zeros
Layout filter_zeros(const Layout& l) { return Layout(filter_zeros(l.stride, l.shape), l.stride); }

// CuTe: layout.hpp:filter — coalesce(filter_zeros(L)); only static _0 strides are zeros
Layout filter(const Layout& l) { return detail::filter_modes(l).layout(); }

Layout filter(const Layout& l, const IntTuple& profile) {
  return by_profile(l, profile, [](const Layout& x) { return filter(x); });
}

}  // namespace cutevis
