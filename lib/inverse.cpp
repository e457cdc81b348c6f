// CuTe's inverses (include/cute/layout.hpp): right_inverse, left_inverse, and what is
// built from them (max_common_layout, max_common_vector), plus nullspace.  Both
// inverses walk coalesce(L)'s modes by increasing stride, as CuTe's do.
#include "lib/detail/flat_modes.hpp"
#include "lib/layout.hpp"

namespace cutevis {

using detail::Leaves;
using detail::ModeList;
using detail::TNode;

namespace {

// coalesce(L) as flat modes: `_1:_0` is one mode too
ModeList coalesced_modes(const Layout& l) {
  ModeList c = detail::coalesce_modes(l, false);
  if (c.count == 0) {
    const TNode *s, *d;
    c.tree(s, d);  // _1:_0 at the front
    c.first = 0;
    c.count = 1;
  }
  return c;
}

// CuTe's test for the contiguous part of a common layout: a static shape with the static stride _1
// (a run-time extent, 0 included, leaves only _1:_0 / _1)
bool is_static_unit_mode(const Layout& mode) {
  return !has_dynamic(mode.shape) && mode.stride.is_leaf() && mode.stride.nodes()[0].is_static_value(1);
}

// preprod[i]: the product of the shapes before mode i
Leaves prefix_products(const TNode* s, size_t n) {
  Leaves preprod;
  preprod.push_back(TNode::leaf(1));
  for (size_t i = 0; i < n; ++i) preprod.push_back((Integer::of(s[i]) * Integer::of(preprod.back())).node());
  return preprod;
}

Layout coalesced(Leaves& shape, Leaves& stride) {
  return detail::coalesce_modes(shape.data(), stride.data(), shape.size(), false).layout();
}

}  // namespace

// CuTe: layout.hpp:right_inverse — L(R(i)) == i for i < size(R).  Dynamic strides are
// left out; a mode joins while its stride is the (static) size so far.
Layout right_inverse(const Layout& l) {
  const ModeList c = coalesced_modes(l);
  const TNode* lshape = c.shape();
  const TNode* lstride = c.stride();
  const Leaves preprod = prefix_products(lshape, c.count);
  Leaves rshape, rstride;
  rshape.push_back(TNode::leaf(1));
  rstride.push_back(TNode::leaf(0));
  Integer curr{1, false};
  for (size_t i : detail::exchange_sort_by_stride(lstride, c.count, true)) {
    if (!curr.dynamic && lstride[i].value == curr.value) {  // is_constant<istride, curr>
      rshape.push_back(lshape[i]);
      rstride.push_back(preprod[i]);
      curr = Integer::of(lshape[i]) * Integer::of(lstride[i]);
    }
  }
  return coalesced(rshape, rstride);
}

// CuTe: layout.hpp:left_inverse — R(L(i)) == i for i < size(L) when L is injective.
Layout left_inverse(const Layout& l) {
  const ModeList c = coalesced_modes(l);
  const TNode* lshape = c.shape();
  const TNode* lstride = c.stride();
  for (size_t i = 0; i < c.count; ++i)
    if (lstride[i].is_dynamic())
      throw Error("left_inverse requires static strides (CuTe's static_assert), got " + to_string(l, true));
  const Leaves preprod = prefix_products(lshape, c.count);
  const SmallVec<size_t, 32> order = detail::exchange_sort_by_stride(lstride, c.count);
  Leaves rshape, rstride;
  rstride.push_back(TNode::leaf(0));
  Integer rsize{1, false};
  for (size_t i : order) {
    const Integer istride = Integer::of(lstride[i]);
    if (istride.is_constant(0)) continue;
    if ((istride % rsize).value != 0)
      throw Error("left_inverse: divisibility condition violated (stride " + std::to_string(istride.value) + " by " +
                  std::to_string(rsize.value) + ")");
    const Integer s = istride / rsize;
    rshape.push_back(s.node());
    rstride.push_back(preprod[i]);
    rsize = rsize * s;
  }
  rshape.push_back(lshape[order.back()]);
  return coalesced(rshape, rstride);
}

// CuTe: layout.hpp:max_common_layout — R with a(R(i)) == i and b(R(i)) == i for the longest contiguous i
Layout max_common_layout(const Layout& a, const Layout& b) {
  Layout inv_b = right_inverse(b);
  Layout common = coalesce(composition(a, inv_b));
  Layout first = get(common, 0);  // kept only when static with the static stride _1, as CuTe's
  if (is_static_unit_mode(first)) return composition(inv_b, first);
  return Layout();
}

// CuTe: layout.hpp:max_common_vector
int64_t max_common_vector(const Layout& a, const Layout& b) {
  Layout common = coalesce(composition(a, right_inverse(b)));
  Layout first = get(common, 0);
  if (is_static_unit_mode(first)) return first.shape.value();
  return 1;
}

// CuTe: layout.hpp:nullspace — the stride-0 modes, strides compact over the whole shape
Layout nullspace(const Layout& l) {
  auto shapes = flatten_leaves(l.shape);
  auto strides = flatten_leaves(l.stride);
  IntTuple rstride = compact_col_major(IntTuple::tuple(shapes));
  std::vector<IntTuple> s, d;
  for (size_t i = 0; i < strides.size(); ++i)
    if (strides[i].nodes()[0].is_static_value(0)) {  // CuTe's is_constant<0>: a run-time 0 stride is no null mode
      s.push_back(shapes[i]);
      d.push_back(rstride[i]);
    }
  if (s.empty()) return Layout();
  return Layout(unwrap(IntTuple::tuple(s)), unwrap(IntTuple::tuple(d)));
}

namespace detail {

SmallVec<size_t, 32> exchange_sort_by_stride(const TNode* strides, size_t n, bool skip_dynamic) {
  SmallVec<size_t, 32> idx;
  SmallVec<int64_t, 32> key;
  for (size_t i = 0; i < n; ++i) {
    if (!strides[i].is_integer()) throw Error("inverse requires integer strides, got " + str(&strides[i]));
    if (skip_dynamic && strides[i].is_dynamic()) continue;
    idx.push_back(i);
    key.push_back(strides[i].value);
  }
  for (size_t i = 0; i < idx.size(); ++i)
    for (size_t j = i + 1; j < idx.size(); ++j)
      if (key[j] < key[i]) {
        std::swap(key[i], key[j]);
        std::swap(idx[i], idx[j]);
      }
  return idx;
}

}  // namespace detail

}  // namespace cutevis
