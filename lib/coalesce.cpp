// CuTe's coalesce and filter (include/cute/layout.hpp).  One function per operation for
// static and dynamic integers: CuTe merges two modes only where the merge is a static
// truth, so an all-static layout merges wherever pycute would.
#include <cstring>

#include "lib/detail/flat_modes.hpp"
#include "lib/layout.hpp"

namespace cutevis {

using detail::FlatModes;
using detail::Leaves;
using detail::ModeList;
using detail::TNode;

namespace detail {

// CuTe: layout.hpp:detail::bw_coalesce — from the back, mode k joins the front mode f
// when s_k * d_k == d_f (f's shape and both strides static); static _1 modes vanish.
ModeList coalesce_modes(const TNode* s, const TNode* d, size_t n, bool extend) {
  ModeList out;
  if (n == 0) return out;  // empty tuple: _1:_0
  out.s.resize(n + 1);
  out.d.resize(n + 1);
  TNode* rs = out.s.data();
  TNode* rd = out.d.data();
  size_t f = n;  // the front mode of the result so far; it grows towards 1
  rs[f] = extend && s[n - 1].is_static_value(1) ? TNode::leaf(2) : s[n - 1];
  rd[f] = d[n - 1];
  for (size_t k = n - 1; k-- > 0;) {
    if (s[k].is_static_value(1)) continue;     // skip size-_1 modes
    if (f == n && rs[f].is_static_value(1)) {  // replace our _1
      rs[f] = s[k];
      rd[f] = d[k];
      continue;
    }
    if (!rs[f].is_dynamic()) {
      const TNode merged = scale(Integer::of(s[k]), d[k]);
      if (!merged.is_dynamic() &&
          std::memcmp(&merged, &rd[f], sizeof(TNode)) == 0) {  // s*d == front stride, same basis
        rs[f] = (Integer::of(s[k]) * Integer::of(rs[f])).node();
        rd[f] = d[k];
        continue;
      }
    }
    --f;
    rs[f] = s[k];
    rd[f] = d[k];
  }
  if (f == n && rs[f].is_static_value(1)) return out;  // _1:_0
  out.first = f;
  out.count = n + 1 - f;
  return out;
}

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
