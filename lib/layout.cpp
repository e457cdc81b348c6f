// CuTe's Layout (include/cute/layout.hpp): construction, structure, evaluation, casts
// and make_layout_tv.  The algebra lives by family beside it: coalesce.cpp,
// composition.cpp, complement.cpp, inverse.cpp, divide.cpp, product.cpp, tiler.cpp.
#include "lib/layout.hpp"

#include <algorithm>
#include <cstdlib>

#include "lib/detail/flat_modes.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

using detail::FlatModes;
using detail::LayoutBuilder;
using detail::TNode;

namespace {

bool is_int(const IntTuple& t, int64_t v) { return t.is_integer() && t.value() == v; }

int64_t abs_checked(int64_t v) {
  if (v == INT64_MIN) throw Error("integer overflow in abs");
  return v < 0 ? -v : v;
}
int64_t signum(int64_t v) { return (v > 0) - (v < 0); }

}  // namespace

// --- Layout ------------------------------------------------------------------------

Layout::Layout(const IntTuple& shape_, const IntTuple& stride_) : shape(shape_), stride(stride_) {
  if (!congruent(shape, stride))
    throw Error("shape " + to_string(shape) + " and stride " + to_string(stride) + " are not congruent");
}

Layout::Layout(IntTuple&& shape_, IntTuple&& stride_) : shape(std::move(shape_)), stride(std::move(stride_)) {
  if (!congruent(shape, stride))
    throw Error("shape " + to_string(shape) + " and stride " + to_string(stride) + " are not congruent");
}

int64_t Layout::operator()(int64_t index) const {
  if (!has_basis(stride)) return crd2idx_integer(index, shape, stride);
  IntTuple r = crd2idx(IntTuple(index), shape, stride);
  if (!r.is_integer()) throw Error("layout " + to_string(*this) + " maps to a coordinate, not an integer");
  return r.value();
}

IntTuple Layout::operator()(const IntTuple& coord) const { return crd2idx(coord, shape, stride); }

std::string to_string(const Layout& layout, bool underscore) {
  return to_string(layout.shape, underscore) + ":" + to_string(layout.stride, underscore);
}

// --- construction -------------------------------------------------------------------

Layout make_layout(const IntTuple& shape) { return Layout(shape, compact_col_major(shape)); }
Layout make_layout(const IntTuple& shape, const IntTuple& stride) { return Layout(shape, stride); }
Layout make_layout_right(const IntTuple& shape) { return Layout(shape, compact_row_major(shape)); }

Layout make_layout(const std::vector<Layout>& modes) {
  Layout result;
  LayoutBuilder out(result);
  out.open();
  for (const auto& m : modes) out.append(m);
  out.close();
  out.finish();
  return result;
}

Layout make_layout(const Layout& a, const Layout& b) {
  Layout result;  // as make_layout({a, b}), without copying a and b into a vector first
  LayoutBuilder out(result);
  out.open();
  out.append(a);
  out.append(b);
  out.close();
  out.finish();
  return result;
}

Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order) {
  return Layout(shape, compact_order(shape, order));
}

Layout make_layout_like(const Layout& l) {
  return Layout(l.shape, compact_order(filter_zeros(l.stride, l.shape), l.stride));
}

Layout make_fragment_like(const Layout& l) {
  if (rank(l) > 1 && !has_dynamic(l.shape)) {  // CuTe: R > 1 && is_static<Shape>, else make_layout(shape)
    Layout mode0 = get(l, 0);
    Layout head(mode0.shape, compact_col_major(filter_zeros(mode0.stride, mode0.shape)));
    Layout rest = make_ordered_layout(take(l.shape, 1, rank(l)), take(l.stride, 1, rank(l)));
    return tiled_product(head, Tiler(rest));
  }
  return make_layout(l.shape);
}

Layout make_identity_layout(const IntTuple& shape) { return Layout(shape, make_basis_like(shape)); }

// --- structure ------------------------------------------------------------------------

namespace detail {

Integer cosize_of_modes(const TNode* s, const TNode* d, size_t n) {
  Integer acc{0, false};
  for (size_t i = 0; i < n; ++i) {
    const Integer extent = Integer::of(s[i]) - Integer{1, false};
    acc = acc + extent * abs(Integer::of(d[i]));
  }
  return acc + Integer{1, false};
}

}  // namespace detail

IntTuple coshape(const Layout& l) {
  // co_coord = inner_product(shape - 1, |stride|), each coordinate + 1
  FlatModes m(l);
  if (!has_basis(l.stride)) {  // its static-ness as CuTe's: (4,0):(_1,4) has the run-time coshape 0
    const TNode n = cosize_integer(l).node();
    return IntTuple::of(&n);
  }
  IntTuple acc(0);
  for (size_t i = 0; i < m.size(); ++i) {
    int64_t m1 = checked_sub(m.shape()[i].value, 1);
    IntTuple term = IntTuple::scaled_basis(checked_mul(m1, abs_checked(m.stride()[i].value)), m.stride()[i].basis());
    acc = tuple_add(acc, term);
  }
  if (acc.is_leaf()) return checked_add(acc.value(), 1);
  IntTuple r = acc;  // every coordinate + 1
  TNode* p = r.mutable_nodes();
  for (size_t i = 0; i < r.node_count(); ++i)
    if (p[i].is_leaf()) p[i] = TNode::leaf(checked_add(p[i].value, 1));
  return r;
}

// CuTe: layout.hpp:cosize — size(coshape(L)): _1 + sum((s - _1) * |d|) for integer strides
Integer cosize_integer(const Layout& l) {
  if (has_basis(l.stride)) return Integer{size(coshape(l)), has_dynamic(l)};
  FlatModes m(l);
  return detail::cosize_of_modes(m.shape(), m.stride(), m.size());
}

int64_t cosize(const Layout& l) { return cosize_integer(l).value; }

Layout get(const Layout& l, size_t mode) {
  Layout r;  // a mode of a layout is congruent; an out-of-range mode is reported on the stride, as before
  r.stride = IntTuple::of(l.stride.mode_node(mode));
  r.shape = IntTuple::of(l.shape.mode_node(mode));
  return r;
}

Layout get(const Layout& l, const std::vector<size_t>& path) {
  Layout r = l;
  for (size_t m : path) r = get(r, m);
  return r;
}

Layout select(const Layout& l, const std::vector<size_t>& modes) {
  return Layout(cutevis::select(l.shape, modes), cutevis::select(l.stride, modes));
}

Layout take(const Layout& l, size_t begin, size_t end) {
  return Layout(cutevis::take(l.shape, begin, end), cutevis::take(l.stride, begin, end));
}

Layout flatten(const Layout& l) { return Layout(flatten(l.shape), flatten(l.stride)); }

Layout append(const Layout& l, const Layout& x) {
  return Layout(cutevis::append(l.shape, x.shape), cutevis::append(l.stride, x.stride));
}

Layout prepend(const Layout& l, const Layout& x) {
  return Layout(cutevis::prepend(l.shape, x.shape), cutevis::prepend(l.stride, x.stride));
}

Layout append_to_rank(const Layout& l, size_t n, const Layout& x) {
  return Layout(cutevis::append_to_rank(l.shape, n, x.shape), cutevis::append_to_rank(l.stride, n, x.stride));
}

Layout prepend_to_rank(const Layout& l, size_t n, const Layout& x) {
  return Layout(cutevis::prepend_to_rank(l.shape, n, x.shape), cutevis::prepend_to_rank(l.stride, n, x.stride));
}

Layout replace(const Layout& l, size_t mode, const Layout& x) {
  return Layout(replace_mode(l.shape, mode, x.shape), replace_mode(l.stride, mode, x.stride));
}

Layout group(const Layout& l, size_t begin, size_t end) {
  return Layout(cutevis::group(l.shape, begin, end), cutevis::group(l.stride, begin, end));
}

Layout zip(const Layout& l) { return Layout(cutevis::zip(l.shape), cutevis::zip(l.stride)); }
Layout zip(const Layout& a, const Layout& b) {
  return Layout(cutevis::zip(a.shape, b.shape), cutevis::zip(a.stride, b.stride));
}

IntTuple get_1d_coord(const Layout& l, int64_t index) { return idx2crd(IntTuple(index), l.shape); }

ValueWalk value_walk(const Layout& l) {
  ValueWalk w;
  w.size = size(l);
  if (w.size <= 0) {  // CuTe can build negative sizes (left_inverse of a negative stride)
    w.size = 0;
    return w;
  }
  w.shapes = flatten_values(l.shape);
  w.strides = flatten_values(l.stride);
  // negative extents (an even number of them): no odometer; CuTe's divmod per index
  w.by_index = std::any_of(w.shapes.begin(), w.shapes.end(), [](int64_t s) { return s <= 0; });
  if (!w.by_index) w.cosize = cosize(l);  // checks the codomain for overflow: values below are then in range
  return w;
}

std::vector<int64_t> layout_values(const Layout& l) {
  std::vector<int64_t> out;
  if (size(l) > 0) out.reserve(static_cast<size_t>(size(l)));
  for_each_value(l, [&](int64_t v) { out.push_back(v); });
  return out;
}

bool same_function(const Layout& a, const Layout& b) {
  return size(a) == size(b) && layout_values(a) == layout_values(b);
}

// --- casts ------------------------------------------------------------------------------------------

namespace {

Layout upcast_impl(const IntTuple& shape, const IntTuple& stride, int64_t n) {
  if (shape.is_tuple()) {
    std::vector<Layout> out;
    for (size_t i = 0; i < shape.rank(); ++i) out.push_back(upcast_impl(shape[i], stride[i], n));
    return make_layout(out);
  }
  int64_t d = stride.value();
  const IntTuple::Node& leaf = *stride.nodes();
  if (leaf.is_dynamic()) {  // CuTe assumes a dynamic stride is a multiple of N: safe_div, a run-time d / N
    IntTuple::Node r = leaf;
    r.value = d / n;
    return Layout(shape, IntTuple::of(&r));
  }
  if (d == 0) return Layout(shape, stride);
  if (d % n != 0 && n % d != 0)
    throw Error("upcast<" + std::to_string(n) + ">: stride " + std::to_string(d) +
                " violates the divisibility condition");
  return Layout(ceil_div(shape, IntTuple(ceil_div(n, abs_checked(d)))),
                IntTuple::scaled_basis(signum(d) * ceil_div(abs_checked(d), n), stride.basis()));
}

Layout downcast_impl(const IntTuple& shape, const IntTuple& stride, int64_t n) {
  if (shape.is_tuple()) {
    std::vector<Layout> out;
    for (size_t i = 0; i < shape.rank(); ++i) out.push_back(downcast_impl(shape[i], stride[i], n));
    return make_layout(out);
  }
  if (stride.is_integer() && !stride.nodes()->is_dynamic() && (stride.value() == 1 || stride.value() == -1))
    return Layout(leaf_mul(shape, n), stride);  // shape * Int<N>: a run-time extent stays run-time
  return Layout(shape, leaf_mul(stride, n));
}

}  // namespace

Layout upcast(const Layout& l, int64_t n) {
  if (n <= 0) throw Error("upcast: factor must be positive");
  return upcast_impl(l.shape, l.stride, n);
}

Layout downcast(const Layout& l, int64_t n) {
  if (n <= 0) throw Error("downcast: factor must be positive");
  // CuTe: static_assert(has_int1<Stride>), some stride is exactly _1
  auto strides = flatten_leaves(l.stride);
  if (std::none_of(strides.begin(), strides.end(), [](const IntTuple& d) { return is_int(d, 1); }))
    throw Error("downcast<" + std::to_string(n) + ">: " + to_string(l) +
                " has no stride-1 mode (downcast requires adjacent elements)");
  return downcast_impl(l.shape, l.stride, n);
}

Layout recast_layout(const Layout& l, int64_t old_bits, int64_t new_bits) {
  return recast_by_ratio(
      l, old_bits, new_bits, [](const Layout& x, int64_t n) { return upcast(x, n); },
      [](const Layout& x, int64_t n) { return downcast(x, n); });
}

// --- TV ---------------------------------------------------------------------------------------------

LayoutTV make_layout_tv(const Layout& thr, const Layout& val) {
  LayoutTV r;
  r.layout_mn = raked_product(thr, val);
  IntTuple::Node sizes[2] = {size_integer(thr).node(), size_integer(val).node()};
  r.layout_tv = with_shape(right_inverse(r.layout_mn), IntTuple::of_leaves(sizes, 2));
  r.tiler_mn = product_each(r.layout_mn.shape);
  return r;
}

}  // namespace cutevis
