// CuTe's complement (include/cute/layout.hpp): C = complement(L, cotarget) has C(i)
// disjoint from L's image, increasing, size(C) >= cotarget / size(L).  Written as
// CuTe's: walk the filtered modes by increasing stride, filling each gap.
#include "lib/detail/flat_modes.hpp"
#include "lib/layout.hpp"

namespace cutevis {

using detail::Leaves;
using detail::ModeList;
using detail::TNode;

namespace {

// CuTe's coalesce of a shape: neighbouring leaves of the same static-ness multiply out
// (all-static: one leaf, the size).
IntTuple coalesce_shape(const IntTuple& shape) {
  SmallVec<TNode, 16> out;
  const TNode* p = shape.nodes();
  for (size_t i = 0; i < shape.node_count(); ++i) {
    if (!p[i].is_leaf()) continue;
    const Integer a = Integer::of(p[i]);
    if (!out.empty() && out.back().is_dynamic() == a.dynamic) out.back() = (Integer::of(out.back()) * a).node();
    else out.push_back(a.node());
  }
  if (out.empty()) return IntTuple(1);  // the empty shape: size _1
  return IntTuple::of_leaves(out.data(), out.size(), true);
}

// complement of the filtered flat modes f (no static stride-_0 or size-_1 mode left)
Layout complement_of_filtered(const ModeList& f, const IntTuple& cotarget) {
  if (f.count == 0 || (f.count == 1 && f.stride()[0].is_static_value(0))) return make_layout(coalesce_shape(cotarget));
  const size_t R = f.count;
  if (R > 1)
    for (size_t i = 0; i < R; ++i)
      if (f.stride()[i].is_dynamic())
        throw Error("complement: CuTe takes dynamic strides only in rank-1 layouts, got " +
                    to_string(f.layout(), true));
  Leaves shape, stride;  // the modes not placed yet
  shape.append(f.shape(), R);
  stride.append(f.stride(), R);
  // (result_shape..., rest_shape) : (result_stride..., rest_stride), coalesced
  Leaves result_shape, result_stride;
  result_stride.push_back(TNode::leaf(1));
  for (size_t i = 0; i + 1 < R; ++i) {  // static strides here: the smallest one fills the next gap
    size_t min_idx = 0;
    for (size_t j = 1; j < stride.size(); ++j)
      if (stride[j].value < stride[min_idx].value) min_idx = j;
    const Integer min_stride = Integer::of(stride[min_idx]);
    const Integer new_shape = min_stride / Integer::of(result_stride[i]);
    if (new_shape.is_constant(0)) throw Error("complement: the layout is not injective");
    const Integer new_stride = min_stride * Integer::of(shape[min_idx]);
    shape.erase(min_idx);
    stride.erase(min_idx);
    result_shape.push_back(new_shape.node());
    result_stride.push_back(new_stride.node());
  }
  const Integer last_shape = Integer::of(stride[0]) / Integer::of(result_stride[R - 1]);
  if (last_shape.is_constant(0)) throw Error("complement: the layout is not injective");
  result_shape.push_back(last_shape.node());
  const Integer new_stride = Integer::of(stride[0]) * Integer::of(shape[0]);
  // rest_shape = coalesce(ceil_div(cotarget, new_stride)), rest_stride = compact_col_major(rest_shape, new_stride)
  const TNode* c = cotarget.nodes();
  if (c->is_leaf() ||
      c->span() == c->rank() + 1) {  // a leaf or flat cotarget, without building tuples (the bench's complement)
    SmallVec<TNode, 16> rest;  // ceil_div leaf by leaf, the divisor carried; neighbours of one static-ness multiplied
    Integer divisor = new_stride;
    for (const TNode *x = c->is_leaf() ? c : c + 1, *e = c->is_leaf() ? c + 1 : c->next(); x != e; ++x) {
      const Integer q = ceil_div(Integer::of(*x), divisor);
      // CuTe's ceil_div(tuple, int) carries the divisor through every leaf (and so divides by an extent
      // 0 as CuTe does: an error here); a leaf cotarget is one division, which a cotarget 0 passes
      if (!c->is_leaf()) divisor = ceil_div(divisor, Integer::of(*x));
      if (!rest.empty() && rest.back().is_dynamic() == q.dynamic) rest.back() = (Integer::of(rest.back()) * q).node();
      else rest.push_back(q.node());
    }
    if (rest.empty()) rest.push_back(TNode::leaf(1));
    Integer current = new_stride;  // compact_col_major: a static _1 gets the stride _0
    for (const TNode& r : rest) {
      result_shape.push_back(r);
      result_stride.push_back(r.is_static_value(1) ? TNode::leaf(0) : current.node());
      if (!r.is_static_value(1)) current = current * Integer::of(r);
    }
  } else {
    const TNode new_stride_node = new_stride.node();
    const IntTuple rest_shape = coalesce_shape(ceil_div(cotarget, IntTuple::of(&new_stride_node)));
    const IntTuple rest_stride = compact_col_major(rest_shape, new_stride);
    for (size_t i = 0; i < rest_shape.node_count(); ++i)
      if (rest_shape.nodes()[i].is_leaf()) {
        result_shape.push_back(rest_shape.nodes()[i]);
        result_stride.push_back(rest_stride.nodes()[i]);
      }
  }
  return detail::coalesce_modes(result_shape.data(), result_stride.data(), result_shape.size(), false).layout();
}

}  // namespace

// CuTe: layout.hpp:complement(layout, cotarget)
Layout complement(const Layout& l, const IntTuple& cotarget) {
  if (has_basis(l.stride)) throw Error("complement requires integer strides");
  return complement_of_filtered(detail::filter_modes(l), cotarget);
}

// CuTe: layout.hpp:complement(layout) — complement(L, cosize(filter(L)))
Layout complement(const Layout& l) {
  if (has_basis(l.stride)) throw Error("complement requires integer strides");
  const ModeList f = detail::filter_modes(l);
  const TNode cotarget = (f.count ? detail::cosize_of_modes(f.shape(), f.stride(), f.count) : Integer{1, false}).node();
  return complement_of_filtered(f, IntTuple::of(&cotarget));
}

}  // namespace cutevis
