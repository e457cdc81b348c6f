#include "lib/layout.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <cstdlib>

#include "lib/layout_dynamic.hpp"
#include "lib/small_vec.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

namespace {

using TNode = IntTuple::Node;
// The flat modes of a layout (its leaves), on the stack for the usual sizes.
using Leaves = SmallVec<TNode, 32>;

bool is_int(const IntTuple& t, int64_t v) { return t.is_integer() && t.value() == v; }
bool is_int(const TNode& n, int64_t v) { return n.is_integer() && n.value == v; }

int64_t abs_checked(int64_t v) {
  if (v == INT64_MIN) throw Error("integer overflow in abs");
  return v < 0 ? -v : v;
}
int64_t signum(int64_t v) { return (v > 0) - (v < 0); }

std::string str(const TNode* p) { return to_string(IntTuple::of(p)); }

// A stride leaf times an integer, keeping its basis (leaf_mul on a node).
TNode leaf_mul(const TNode* d, int64_t factor) {
  if (d->is_tuple()) throw Error("expected an integer, got the tuple " + str(d));
  TNode r = *d;
  r.value = checked_mul(d->value, factor);
  return r;
}

// A layout's flat modes: its shape and stride leaves side by side, read in place
// when the layout is a single mode or a flat tuple, gathered otherwise.
class FlatModes {
 public:
  explicit FlatModes(const Layout& l) {
    const TNode* s = l.shape.nodes();
    const TNode* d = l.stride.nodes();
    if (s->is_leaf()) {
      set(s, d, 1);
    } else if (s->span() == s->rank() + 1) {  // flat: every mode a leaf
      set(s + 1, d + 1, s->rank());
    } else {
      for (size_t i = 0; i < l.shape.node_count(); ++i)
        if (s[i].is_leaf()) gs_.push_back(s[i]);
      for (size_t i = 0; i < l.stride.node_count(); ++i)
        if (d[i].is_leaf()) gd_.push_back(d[i]);
      set(gs_.data(), gd_.data(), gs_.size());
    }
  }
  const TNode* shape() const { return s_; }
  const TNode* stride() const { return d_; }
  size_t size() const { return n_; }

 private:
  void set(const TNode* s, const TNode* d, size_t n) {
    s_ = s;
    d_ = d;
    n_ = n;
  }
  const TNode* s_ = nullptr;
  const TNode* d_ = nullptr;
  size_t n_ = 0;
  Leaves gs_, gd_;
};

// Flat modes computed by an operation, kept at the back of their buffers so that a
// tuple header fits before the first one: modes [first, first + count); none is the
// layout _1:_0.
struct ModeList {
  Leaves s, d;
  size_t first = 1, count = 0;

  const TNode* shape() const { return s.data() + first; }
  const TNode* stride() const { return d.data() + first; }
  // The modes as a tree (nodes of shape and stride): a leaf for one mode, a flat
  // tuple for more (its header written before the first mode), _1:_0 for none.
  void tree(const TNode*& shape_node, const TNode*& stride_node) {
    if (count == 0) {
      if (s.empty()) {
        s.resize(1);
        d.resize(1);
      }
      s[0] = TNode::leaf(1);
      d[0] = TNode::leaf(0);
      shape_node = &s[0];
      stride_node = &d[0];
    } else if (count == 1) {
      shape_node = &s[first];
      stride_node = &d[first];
    } else {
      const TNode header = TNode::header(count, count + 1);
      s[first - 1] = header;
      d[first - 1] = header;
      shape_node = &s[first - 1];
      stride_node = &d[first - 1];
    }
  }
  Layout layout() const {
    Layout r;  // _1:_0
    if (count) {
      r.shape.assign_leaves(shape(), count, true);
      r.stride.assign_leaves(stride(), count, true);
    }
    return r;
  }
};

// CuTe's detail::exchange_sort by key (not stable: replicate it exactly).
SmallVec<size_t, 32> exchange_sort_by_stride(const TNode* strides, size_t n) {
  SmallVec<size_t, 32> idx;
  SmallVec<int64_t, 32> key;
  for (size_t i = 0; i < n; ++i) {
    idx.push_back(i);
    if (!strides[i].is_integer()) throw Error("inverse requires integer strides, got " + str(&strides[i]));
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

// A layout built mode by mode into `result`, shape and stride in lockstep
// (congruent by construction: no check afterwards).
struct LayoutBuilder : IntTuple::PairBuilder {
  explicit LayoutBuilder(Layout& result) : PairBuilder(result.shape, result.stride) {}
  void mode(TNode s, TNode d) { leaf(s, d); }
  using PairBuilder::append;
  void append(const Layout& l) { PairBuilder::append(l.shape.nodes(), l.stride.nodes()); }
};

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

Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order) {
  return Layout(shape, compact_order(shape, order));
}

Layout make_layout_like(const Layout& l) {
  return Layout(l.shape, compact_order(filter_zeros(l.stride, l.shape), l.stride));
}

Layout make_fragment_like(const Layout& l) {
  if (rank(l) > 1) {
    Layout mode0 = get(l, 0);
    Layout head(mode0.shape, compact_col_major(filter_zeros(mode0.stride, mode0.shape)));
    Layout rest = make_ordered_layout(take(l.shape, 1, rank(l)), take(l.stride, 1, rank(l)));
    return tiled_product(head, Tiler(rest));
  }
  return make_layout(l.shape);
}

Layout make_identity_layout(const IntTuple& shape) { return Layout(shape, make_basis_like(shape)); }

// --- structure ------------------------------------------------------------------------

namespace {

// cosize of integer strides: 1 + sum((s - 1) * |d|), the sums of coshape in its order
int64_t cosize_of_leaves(const TNode* s, const TNode* d, size_t n) {
  int64_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc = checked_add(acc, checked_mul(checked_sub(s[i].value, 1), abs_checked(d[i].value)));
  return checked_add(acc, 1);
}

}  // namespace

IntTuple coshape(const Layout& l) {
  // co_coord = inner_product(shape - 1, |stride|), each coordinate + 1
  FlatModes m(l);
  if (!has_basis(l.stride)) return cosize_of_leaves(m.shape(), m.stride(), m.size());
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

Integer cosize_integer(const Layout& l) {
  if (has_dynamic(l)) return dynamic::cosize(l);
  return Integer{cosize(l), false};
}

int64_t cosize(const Layout& l) {
  if (has_basis(l.stride)) return size(coshape(l));
  FlatModes m(l);
  return cosize_of_leaves(m.shape(), m.stride(), m.size());
}

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

namespace {

// zip2_by on shape and stride at once: the first halves into `first`, the second into
// `second`.  Errors name the stride's mode (zip2_by ran on the stride first).
void zip2_split(const TNode* s, const TNode* d, const TNode* guide, LayoutBuilder& first, LayoutBuilder& second) {
  if (guide->is_leaf()) {
    if (s->is_leaf() || s->rank() != 2) throw Error("zip2_by: expected a rank-2 mode, got " + str(d));
    first.append(s + 1, d + 1);
    second.append((s + 1)->next(), (d + 1)->next());
    return;
  }
  if (s->is_leaf() || s->rank() < guide->rank()) throw Error("zip2_by: mismatched ranks");
  first.open();
  second.open();
  const TNode* cs = s + 1;
  const TNode* cd = d + 1;
  for (const TNode *g = guide + 1, *e = guide->next(); g != e; g = g->next(), cs = cs->next(), cd = cd->next())
    zip2_split(cs, cd, g, first, second);
  for (const TNode* e = s->next(); cs != e; cs = cs->next(), cd = cd->next()) second.append(cs, cd);
  first.close();
  second.close();
}

}  // namespace

Layout tile_unzip(const Layout& l, const Tiler& tiler) {
  IntTuple guide = tiler.profile();
  if (guide.is_leaf()) {
    if (l.shape.rank() != 2 || l.shape.is_leaf()) throw Error("zip2_by: expected a rank-2 mode, got " + to_string(l.stride));
    return l;
  }
  Layout first, second;
  LayoutBuilder a(first), b(second);
  zip2_split(l.shape.nodes(), l.stride.nodes(), guide.nodes(), a, b);
  a.finish();
  b.finish();
  Layout result;
  LayoutBuilder out(result);
  out.open();
  out.append(first);
  out.append(second);
  out.close();
  out.finish();
  return result;
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
  if (!w.by_index) (void)cosize(l);  // overflow check of the codomain: values below are then in range
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

// --- coalesce / filter --------------------------------------------------------------------

namespace {

// CuTe's detail::bw_coalesce over the flat modes (s, d), walking from the back; with
// `extend` (coalesce_x) a last mode of size 1 starts as the sentinel size 2.
ModeList coalesce_modes(const TNode* s, const TNode* d, size_t n, bool extend) {
  ModeList out;
  if (n == 0) return out;  // empty tuple: nothing to coalesce
  out.s.resize(n + 1);
  out.d.resize(n + 1);
  TNode* rs = out.s.data();
  TNode* rd = out.d.data();
  size_t f = n;  // the front mode of the result so far; it grows towards 1
  rs[f] = extend && is_int(s[n - 1], 1) ? TNode::leaf(2) : s[n - 1];
  rd[f] = d[n - 1];
  for (size_t k = n - 1; k-- > 0;) {
    if (is_int(s[k], 1)) continue;  // skip size-1 modes
    if (f == n && is_int(rs[f], 1)) {  // replace our shape-1
      rs[f] = s[k];
      rd[f] = d[k];
      continue;
    }
    TNode merged = leaf_mul(&d[k], s[k].value);
    if (std::memcmp(&merged, &rd[f], sizeof(TNode)) == 0) {  // s*d == front stride: merge
      rs[f] = TNode::leaf(checked_mul(s[k].value, rs[f].value));
      rd[f] = d[k];
      continue;
    }
    --f;
    rs[f] = s[k];
    rd[f] = d[k];
  }
  if (f == n && is_int(rs[f], 1)) return out;  // _1:_0
  out.first = f;
  out.count = n + 1 - f;
  return out;
}

ModeList coalesce_modes(const Layout& l, bool extend) {
  FlatModes m(l);
  return coalesce_modes(m.shape(), m.stride(), m.size(), extend);
}

// filter(L) as flat modes: stride-0 modes get size 1 (filter_zeros), then coalesce.
ModeList filter_modes(const Layout& l) {
  FlatModes m(l);
  Leaves s;
  s.append(m.shape(), m.size());
  for (size_t i = 0; i < m.size(); ++i)
    if (is_int(m.stride()[i], 0)) s[i] = TNode::leaf(1);
  return coalesce_modes(s.data(), m.stride(), m.size(), false);
}

// transform_layout(L, profile, f): f on the first rank(profile) modes, the rest kept.
template <class F>
Layout by_profile(const Layout& l, const IntTuple& profile, F&& f) {
  if (profile.is_leaf()) return f(l);
  if (profile.rank() > rank(l)) throw Error("profile " + to_string(profile) + " has more modes than " + to_string(l));
  Layout result;
  LayoutBuilder out(result);
  out.open();
  for (size_t i = 0; i < rank(l); ++i) {
    if (i < profile.rank()) out.append(by_profile(get(l, i), profile[i], f));
    else out.append(l.shape.mode_node(i), l.stride.mode_node(i));
  }
  out.close();
  out.finish();
  return result;
}

}  // namespace

Layout coalesce(const Layout& l) {
  if (has_dynamic(l)) return dynamic::coalesce(l, false);
  return coalesce_modes(l, false).layout();
}
Layout coalesce_x(const Layout& l) {
  if (has_dynamic(l)) return dynamic::coalesce(l, true);
  return coalesce_modes(l, true).layout();
}

Layout coalesce(const Layout& l, const IntTuple& profile) {
  return by_profile(l, profile, [](const Layout& x) { return coalesce(x); });
}

Layout coalesce_x(const Layout& l, const IntTuple& profile) {
  return by_profile(l, profile, [](const Layout& x) { return coalesce_x(x); });
}

Layout filter_zeros(const Layout& l) { return Layout(filter_zeros(l.stride, l.shape), l.stride); }

Layout filter(const Layout& l) {
  if (has_dynamic(l)) return dynamic::filter(l);
  return filter_modes(l).layout();
}

Layout filter(const Layout& l, const IntTuple& profile) {
  return by_profile(l, profile, [](const Layout& x) { return filter(x); });
}

// --- composition ---------------------------------------------------------------------------

namespace {

// composition(lhs, rhs) for lhs (coalesced) and one mode of rhs, as nodes; the result
// mode goes into `out`.
// `weak`, when given, is set where a divisibility condition that CuTe does not enforce fails.
void composition_into(const TNode* lhs_s, const TNode* lhs_d, const TNode* rhs_s, const TNode* rhs_d, LayoutBuilder& out,
                      bool* weak = nullptr) {
  if (rhs_s->is_tuple()) {  // right-distributivity over the modes of rhs
    out.open();
    const TNode* d = rhs_d + 1;
    for (const TNode *c = rhs_s + 1, *e = rhs_s->next(); c != e; c = c->next(), d = d->next()) composition_into(lhs_s, lhs_d, c, d, out, weak);
    out.close();
    return;
  }
  if (rhs_d->depth()) {  // a basis stride selects a mode of lhs
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
    TNode plain = TNode::leaf(rhs_d->value);
    composition_into(s, d, rhs_s, &plain, out, weak);
    return;
  }
  if (rhs_d->value == 0) {  // static stride-0 shortcut
    out.mode(*rhs_s, *rhs_d);
    return;
  }
  if (lhs_s->is_leaf()) {
    out.mode(*rhs_s, leaf_mul(lhs_d, rhs_d->value));
    return;
  }

  // General case: lhs a flat tuple, rhs an integer mode.
  const size_t R = lhs_s->rank();
  SmallVec<TNode, 16> result_shape, result_stride;
  int64_t rest_shape = rhs_s->value;
  int64_t rest_stride = rhs_d->value;
  const TNode* cs = lhs_s + 1;
  const TNode* cd = lhs_d + 1;
  for (size_t i = 0; i + 1 < R; ++i, cs = cs->next(), cd = cd->next()) {
    if (cs->is_tuple()) throw Error("composition: left layout is not flat at mode " + std::to_string(i));
    int64_t curr_shape = cs->value;
    if (!(checked_mod(rest_stride, curr_shape) == 0 || rest_stride < curr_shape))
      throw Error("stride divisibility condition violated: stride " + std::to_string(rest_stride) + " against shape " + std::to_string(curr_shape));
    if (weak && checked_mod(rest_stride, curr_shape) != 0 && curr_shape % rest_stride != 0) *weak = true;  // `d < s` let it pass
    int64_t next_shape = ceil_div(curr_shape, abs_checked(rest_stride));
    int64_t next_stride = checked_mul(ceil_div(abs_checked(rest_stride), curr_shape), signum(rest_stride));
    if (next_shape == 1 || rest_shape == 1) {
      rest_stride = next_stride;
      continue;
    }
    int64_t new_shape = std::min(next_shape, rest_shape);
    if (checked_mod(rest_shape, new_shape) != 0)
      throw Error("shape divisibility condition violated: shape " + std::to_string(rest_shape) + " against " + std::to_string(new_shape));
    result_shape.push_back(TNode::leaf(new_shape));
    result_stride.push_back(leaf_mul(cd, rest_stride));
    rest_shape = checked_div(rest_shape, new_shape);
    rest_stride = next_stride;
  }
  if (R == 0) (void)IntTuple::of(lhs_d).mode_node(R - 1);  // no last mode: the out-of-range error
  const TNode* last_stride = cd;
  if (result_shape.empty()) {
    out.mode(TNode::leaf(rest_shape), leaf_mul(last_stride, rest_stride));
    return;
  }
  if (rest_shape != 1) {
    result_shape.push_back(TNode::leaf(rest_shape));
    result_stride.push_back(leaf_mul(last_stride, rest_stride));
  }
  if (result_shape.size() == 1) {  // unwrap
    out.mode(result_shape[0], result_stride[0]);
    return;
  }
  out.open();
  for (size_t i = 0; i < result_shape.size(); ++i) out.mode(result_shape[i], result_stride[i]);
  out.close();
}

Layout composition_impl(const IntTuple& lhs_shape, const IntTuple& lhs_stride, const IntTuple& rhs_shape, const IntTuple& rhs_stride,
                        bool* weak = nullptr) {
  Layout result;
  LayoutBuilder out(result);
  composition_into(lhs_shape.nodes(), lhs_stride.nodes(), rhs_shape.nodes(), rhs_stride.nodes(), out, weak);
  out.finish();
  return result;
}

// composition(coalesce_x(a), rhs) for rhs given as nodes (a mode, or a whole layout)
void compose_flat_into(const Layout& a, const TNode* rhs_s, const TNode* rhs_d, LayoutBuilder& out, bool* weak = nullptr) {
  ModeList lhs = coalesce_modes(a, true);
  const TNode *s, *d;
  lhs.tree(s, d);
  composition_into(s, d, rhs_s, rhs_d, out, weak);
}

// coprofile(L): the codomain's profile, all zeros: 0 for integer strides.
IntTuple coprofile(const Layout& l) {
  if (!has_basis(l.stride)) return IntTuple(0);
  // repeat_like(as_arithmetic_tuple(sum(stride)), 0): every basis stride adds its mode
  IntTuple sum_tuple(0);
  for (const auto& d : flatten_leaves(l.stride))
    if (!d.basis().empty()) add_scaled_basis(sum_tuple, 1, d.basis());
  return repeat_like(sum_tuple, 0);
}

}  // namespace

namespace {

// composition of two all-static layouts
Layout composition_static(const Layout& a, const Layout& b) {
  if (!has_basis(b.stride)) {  // coprofile(b) is 0: a coalesced as a whole
    Layout result;
    LayoutBuilder out(result);
    compose_flat_into(a, b.shape.nodes(), b.stride.nodes(), out);
    out.finish();
    return result;
  }
  Layout flat = coalesce_x(a, coprofile(b));
  return composition_impl(flat.shape, flat.stride, b.shape, b.stride);
}

}  // namespace

Layout composition(const Layout& a, const Layout& b) {
  if (has_dynamic(a) || has_dynamic(b)) return dynamic::composition(a, b, nullptr);
  return composition_static(a, b);
}

Layout composition(const Layout& a, const Layout& b, CompositionCheck& check) {
  // The same computation, noting each divisibility condition CuTe lets through; only
  // then is the result compared with A(B(i)).
  check = CompositionCheck();
  Layout r;
  if (has_dynamic(a) || has_dynamic(b)) {
    r = dynamic::composition(a, b, &check);
  } else if (!has_basis(b.stride)) {
    LayoutBuilder out(r);
    compose_flat_into(a, b.shape.nodes(), b.stride.nodes(), out, &check.weak);
    out.finish();
  } else {
    Layout flat = coalesce_x(a, coprofile(b));
    r = composition_impl(flat.shape, flat.stride, b.shape, b.stride, &check.weak);
  }
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

Layout composition(const Layout& a, const Tiler& b) {
  switch (b.kind()) {
    case Tiler::Kind::kUnderscore:
      return a;
    case Tiler::Kind::kLayout: {
      if (!b.is_integer()) return composition(a, b.layout());
      if (has_dynamic(a) || has_dynamic(b.layout())) return dynamic::composition_with_integer(a, b.layout().shape, nullptr);
      Layout result;
      LayoutBuilder out(result);  // composition_impl(flat, n, _1): no stride-0 shortcut for n == 1
      TNode one = TNode::leaf(1);
      compose_flat_into(a, b.layout().shape.nodes(), &one, out);
      out.finish();
      return result;
    }
    case Tiler::Kind::kTuple: {
      if (b.rank() > rank(a)) throw Error("composition: tiler " + to_string(b) + " has more modes than " + to_string(a));
      Layout result;
      LayoutBuilder out(result);  // modes of a not hit by the tiler are dropped, as in CuTe
      out.open();
      for (size_t i = 0; i < b.rank(); ++i) out.append(composition(get(a, i), b.modes()[i]));
      out.close();
      out.finish();
      return result;
    }
  }
  return a;
}

Layout with_shape(const Layout& l, const IntTuple& shape) { return composition(l, make_layout(shape)); }

// --- complement ------------------------------------------------------------------------------

namespace {

// size(ceil_div(cotarget, b)): in place for a leaf or a flat tuple
int64_t size_of_ceil_div(const TNode* cotarget, int64_t b) {
  if (cotarget->is_leaf()) return ceil_div(cotarget->value, b);
  if (cotarget->span() != cotarget->rank() + 1) return size(ceil_div(IntTuple::of(cotarget), IntTuple(b)));
  SmallVec<int64_t, 32> quotients;  // ceil_div mode by mode, the rest carried
  int64_t rest = b;
  for (const TNode *c = cotarget + 1, *e = cotarget->next(); c != e; ++c) {
    quotients.push_back(ceil_div(c->value, rest));
    rest = ceil_div(rest, c->value);
  }
  int64_t product = 1;
  for (int64_t q : quotients) product = checked_mul(product, q);
  return product;
}

// complement of the filtered flat modes f (@pre no stride-0, no size-1 modes)
Layout complement_impl(const ModeList& f, const TNode* cotarget) {
  if (f.count == 0 || (f.count == 1 && f.stride()[0].value == 0)) return make_layout(IntTuple(size(IntTuple::of(cotarget))));
  SmallVec<int64_t, 32> sh, st;
  for (size_t i = 0; i < f.count; ++i) {
    sh.push_back(f.shape()[i].value);
    st.push_back(f.stride()[i].value);
  }
  const size_t R = sh.size();
  // (result_shape..., rest) : (result_stride..., rest_stride), then coalesced
  Leaves shapes, strides;
  strides.push_back(TNode::leaf(1));
  for (size_t i = 0; i + 1 < R; ++i) {
    size_t min_idx = static_cast<size_t>(std::min_element(st.begin(), st.end()) - st.begin());
    int64_t min_stride = st[min_idx];
    int64_t new_shape = checked_div(min_stride, strides[i].value);
    if (new_shape == 0) throw Error("complement: the layout is not injective");
    int64_t new_stride = checked_mul(min_stride, sh[min_idx]);
    sh.erase(min_idx);
    st.erase(min_idx);
    shapes.push_back(TNode::leaf(new_shape));
    strides.push_back(TNode::leaf(new_stride));
  }
  int64_t last_shape = checked_div(st[0], strides[R - 1].value);
  if (last_shape == 0) throw Error("complement: the layout is not injective");
  shapes.push_back(TNode::leaf(last_shape));
  int64_t new_stride = checked_mul(st[0], sh[0]);
  int64_t rest_shape = size_of_ceil_div(cotarget, new_stride);  // coalesce(shape) of static ints: the product
  shapes.push_back(TNode::leaf(rest_shape));
  // compact_col_major(rest_shape, new_stride), whose next stride must not overflow either
  if (rest_shape != 1) (void)checked_mul(new_stride, rest_shape);
  strides.push_back(TNode::leaf(rest_shape == 1 ? 0 : new_stride));
  return coalesce_modes(shapes.data(), strides.data(), shapes.size(), false).layout();
}

Layout complement_of(const Layout& l, const TNode* cotarget) {
  if (has_basis(l.stride)) throw Error("complement requires integer strides");
  return complement_impl(filter_modes(l), cotarget);
}

}  // namespace

Layout complement(const Layout& l, const IntTuple& cotarget) {
  if (has_dynamic(l) || has_dynamic(cotarget)) return dynamic::complement(l, cotarget);
  return complement_of(l, cotarget.nodes());
}

Layout complement(const Layout& l) {
  if (has_dynamic(l)) return dynamic::complement(l);
  if (has_basis(l.stride)) throw Error("complement requires integer strides");
  ModeList f = filter_modes(l);
  TNode cotarget = TNode::leaf(f.count ? cosize_of_leaves(f.shape(), f.stride(), f.count) : 1);  // cosize(filter(l))
  return complement_impl(f, &cotarget);
}

// --- inverses ----------------------------------------------------------------------------------

namespace {

// coalesce(L) as flat modes: `_1:_0` is one mode too
ModeList coalesced_modes(const Layout& l) {
  ModeList c = coalesce_modes(l, false);
  if (c.count == 0) {
    const TNode *s, *d;
    c.tree(s, d);  // _1:_0 at the front
    c.first = 0;
    c.count = 1;
  }
  return c;
}

// preprod[i]: the product of the shapes before mode i
SmallVec<int64_t, 32> prefix_products(const TNode* s, size_t n) {
  SmallVec<int64_t, 32> preprod;
  preprod.push_back(1);
  for (size_t i = 0; i < n; ++i) preprod.push_back(checked_mul(preprod.back(), s[i].value));
  return preprod;
}

}  // namespace

Layout right_inverse(const Layout& l) {
  if (has_dynamic(l)) return dynamic::right_inverse(l);
  ModeList c = coalesced_modes(l);
  const TNode* lshape = c.shape();
  const TNode* lstride = c.stride();
  SmallVec<int64_t, 32> preprod = prefix_products(lshape, c.count);
  SmallVec<size_t, 32> order = exchange_sort_by_stride(lstride, c.count);
  Leaves rshape, rstride;
  rshape.push_back(TNode::leaf(1));
  rstride.push_back(TNode::leaf(0));
  int64_t curr = 1;
  for (size_t i : order) {
    if (lstride[i].value == curr) {
      rshape.push_back(lshape[i]);
      rstride.push_back(TNode::leaf(preprod[i]));
      curr = checked_mul(lshape[i].value, lstride[i].value);
    }
  }
  return coalesce_modes(rshape.data(), rstride.data(), rshape.size(), false).layout();
}

Layout left_inverse(const Layout& l) {
  if (has_dynamic(l)) return dynamic::left_inverse(l);
  ModeList c = coalesced_modes(l);
  const TNode* lshape = c.shape();
  const TNode* lstride = c.stride();
  SmallVec<int64_t, 32> preprod = prefix_products(lshape, c.count);
  SmallVec<size_t, 32> order = exchange_sort_by_stride(lstride, c.count);
  Leaves rshape, rstride;
  rstride.push_back(TNode::leaf(0));
  int64_t rsize = 1;
  for (size_t i : order) {
    int64_t istride = lstride[i].value;
    if (istride == 0) continue;
    if (checked_mod(istride, rsize) != 0)
      throw Error("left_inverse: divisibility condition violated (stride " + std::to_string(istride) + " by " + std::to_string(rsize) + ")");
    int64_t s = checked_div(istride, rsize);
    rshape.push_back(TNode::leaf(s));
    rstride.push_back(TNode::leaf(preprod[i]));
    rsize = checked_mul(rsize, s);
  }
  rshape.push_back(lshape[order.back()]);
  return coalesce_modes(rshape.data(), rstride.data(), rshape.size(), false).layout();
}

Layout max_common_layout(const Layout& a, const Layout& b) {
  Layout inv_b = right_inverse(b);
  Layout common = coalesce(composition(a, inv_b));
  Layout first = get(common, 0);
  if (is_int(first.stride, 1)) return composition(inv_b, first);
  return Layout();
}

int64_t max_common_vector(const Layout& a, const Layout& b) {
  Layout common = coalesce(composition(a, right_inverse(b)));
  Layout first = get(common, 0);
  if (is_int(first.stride, 1)) return first.shape.value();
  return 1;
}

Layout nullspace(const Layout& l) {
  auto shapes = flatten_leaves(l.shape);
  auto strides = flatten_leaves(l.stride);
  IntTuple rstride = compact_col_major(IntTuple::tuple(shapes));
  std::vector<IntTuple> s, d;
  for (size_t i = 0; i < strides.size(); ++i)
    if (strides[i].is_integer() && strides[i].value() == 0) {
      s.push_back(shapes[i]);
      d.push_back(rstride[i]);
    }
  if (s.empty()) return Layout();
  return Layout(unwrap(IntTuple::tuple(s)), unwrap(IntTuple::tuple(d)));
}

// --- divides ------------------------------------------------------------------------------------

namespace {

template <class F>
Layout by_tiler(const Layout& l, const Tiler& tiler, F&& f) {
  if (tiler.rank() > rank(l)) throw Error("tiler " + to_string(tiler) + " has more modes than the layout " + to_string(l));
  Layout result;
  LayoutBuilder out(result);
  out.open();
  for (size_t i = 0; i < rank(l); ++i) {
    if (i < tiler.rank()) out.append(f(get(l, i), tiler.modes()[i]));
    else out.append(l.shape.mode_node(i), l.stride.mode_node(i));
  }
  out.close();
  out.finish();
  return result;
}

// Mode m of r into `out`: a rank >= 2 mode spliced (its modes one by one), else whole.
void unpack_mode(const Layout& r, size_t m, LayoutBuilder& out) {
  const TNode* s = r.shape.mode_node(m);
  const TNode* d = r.stride.mode_node(m);
  if (s->is_leaf() || s->rank() == 1) {
    out.append(s, d);
    return;
  }
  const TNode* cd = d + 1;
  for (const TNode *c = s + 1, *e = s->next(); c != e; c = c->next(), cd = cd->next()) out.append(c, cd);
}

// result(_, repeat<R1>(_)): keep mode 0, unpack mode 1.  repeat<1>(_) is `_`, so a
// rank-1 mode such as `(4)` stays one mode, as it is: only rank >= 2 modes are spliced.
Layout unpack_second(const Layout& r) {
  Layout result;
  LayoutBuilder out(result);
  out.open();
  out.append(r.shape.mode_node(0), r.stride.mode_node(0));
  unpack_mode(r, 1, out);
  out.close();
  out.finish();
  return result;
}

// result(repeat<R0>(_), repeat<R1>(_)): unpack both modes
Layout unpack_both(const Layout& r) {
  Layout result;
  LayoutBuilder out(result);
  out.open();
  unpack_mode(r, 0, out);
  unpack_mode(r, 1, out);
  out.close();
  out.finish();
  return result;
}

}  // namespace

Layout logical_divide(const Layout& l, const Tiler& tiler) {
  switch (tiler.kind()) {
    case Tiler::Kind::kUnderscore:
      return l;
    case Tiler::Kind::kTuple:
      return by_tiler(l, tiler, [](const Layout& x, const Tiler& t) { return logical_divide(x, t); });
    case Tiler::Kind::kLayout: {
      const Layout& t = tiler.layout();
      if (has_dynamic(l) || has_dynamic(t))  // CuTe's definition, each step taking its dynamic path
        return composition(l, make_layout(std::vector<Layout>{t, complement(t, coalesce(l).shape)}));
      FlatModes modes(l);
      ModeList flat = coalesce_modes(modes.shape(), modes.stride(), modes.size(), false);
      const TNode *s, *d;
      flat.tree(s, d);
      Layout comp = complement_of(t, s);  // complement(t, shape(coalesce(l)))
      // composition(l, (t, comp)): integer strides, so l coalesced as a whole (coalesce_x,
      // the same as coalesce unless the last mode has size 1), by mode of (t, comp)
      ModeList extended;
      if (modes.size() && is_int(modes.shape()[modes.size() - 1], 1)) {
        extended = coalesce_modes(modes.shape(), modes.stride(), modes.size(), true);
        extended.tree(s, d);
      }
      Layout result;
      LayoutBuilder out(result);
      out.open();
      composition_into(s, d, t.shape.nodes(), t.stride.nodes(), out);
      composition_into(s, d, comp.shape.nodes(), comp.stride.nodes(), out);
      out.close();
      out.finish();
      return result;
    }
  }
  return l;
}

Layout zipped_divide(const Layout& l, const Tiler& tiler) { return tile_unzip(logical_divide(l, tiler), tiler); }
Layout tiled_divide(const Layout& l, const Tiler& tiler) { return unpack_second(zipped_divide(l, tiler)); }
Layout flat_divide(const Layout& l, const Tiler& tiler) { return unpack_both(zipped_divide(l, tiler)); }

// --- products --------------------------------------------------------------------------------------

Layout logical_product(const Layout& block, const Tiler& tiler) {
  switch (tiler.kind()) {
    case Tiler::Kind::kUnderscore:
      return block;
    case Tiler::Kind::kTuple:
      return by_tiler(block, tiler, [](const Layout& x, const Tiler& t) { return logical_product(x, t); });
    case Tiler::Kind::kLayout: {
      const Layout& t = tiler.layout();
      if (has_dynamic(block) || has_dynamic(t)) {
        IntTuple::Node cotarget = (size_integer(block) * cosize_integer(t)).node();
        return make_layout(std::vector<Layout>{block, composition(complement(block, IntTuple::of(&cotarget)), t)});
      }
      TNode cotarget = TNode::leaf(checked_mul(size(block), cosize(t)));
      Layout comp = complement_of(block, &cotarget);
      Layout result;
      LayoutBuilder out(result);
      out.open();
      out.append(block);
      out.append(composition_static(comp, t));
      out.close();
      out.finish();
      return result;
    }
  }
  return block;
}

Layout zipped_product(const Layout& block, const Tiler& tiler) { return tile_unzip(logical_product(block, tiler), tiler); }
Layout tiled_product(const Layout& block, const Tiler& tiler) { return unpack_second(zipped_product(block, tiler)); }
Layout flat_product(const Layout& block, const Tiler& tiler) { return unpack_both(zipped_product(block, tiler)); }

Layout blocked_product(const Layout& block, const Layout& tiler) {
  size_t R = std::max(rank(block), rank(tiler));
  Layout r = logical_product(append_to_rank(block, R), Tiler(append_to_rank(tiler, R)));
  return zip(get(r, 0), get(r, 1));
}

Layout raked_product(const Layout& block, const Layout& tiler) {
  size_t R = std::max(rank(block), rank(tiler));
  Layout r = logical_product(append_to_rank(block, R), Tiler(append_to_rank(tiler, R)));
  return zip(get(r, 1), get(r, 0));
}

namespace {

// `order` null: the tiles repeat column-major (CuTe's default GenColMajor)
Layout tile_to_shape_impl(const Layout& block, const IntTuple& target_shape, const IntTuple* order) {
  size_t R = target_shape.rank();
  if (rank(block) > R) throw Error("tile_to_shape: rank of " + to_string(block) + " exceeds rank of " + to_string(target_shape));
  Layout padded = append_to_rank(block, R);
  IntTuple block_shape = product_each(padded.shape);
  IntTuple trg = product_each(target_shape);
  for (size_t i = 0; i < trg.rank() && is_static(trg); ++i)  // CuTe checks a static target only
    if (checked_mod(trg[i].value(), block_shape[i].value()) != 0)
      throw Error("tile_to_shape: block shape " + to_string(block_shape) + " does not divide the target shape " + to_string(trg));
  IntTuple product_shape = ceil_div(trg, block_shape);
  Layout tiles = order ? make_ordered_layout(product_shape, *order) : make_layout(product_shape);
  return blocked_product(padded, tiles);
}

}  // namespace

Layout tile_to_shape(const Layout& block, const IntTuple& target_shape) {
  return tile_to_shape_impl(block, target_shape, nullptr);
}

Layout tile_to_shape(const Layout& block, const IntTuple& target_shape, const IntTuple& order) {
  return tile_to_shape_impl(block, target_shape, &order);
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
  if (d == 0) return Layout(shape, stride);
  if (d % n != 0 && n % d != 0) throw Error("upcast<" + std::to_string(n) + ">: stride " + std::to_string(d) + " violates the divisibility condition");
  return Layout(ceil_div(shape, IntTuple(ceil_div(n, abs_checked(d)))),
                IntTuple::scaled_basis(signum(d) * ceil_div(abs_checked(d), n), stride.basis()));
}

Layout downcast_impl(const IntTuple& shape, const IntTuple& stride, int64_t n) {
  if (shape.is_tuple()) {
    std::vector<Layout> out;
    for (size_t i = 0; i < shape.rank(); ++i) out.push_back(downcast_impl(shape[i], stride[i], n));
    return make_layout(out);
  }
  if (stride.is_integer() && (stride.value() == 1 || stride.value() == -1)) return Layout(checked_mul(shape.value(), n), stride);
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
    throw Error("downcast<" + std::to_string(n) + ">: " + to_string(l) + " has no stride-1 mode (downcast requires adjacent elements)");
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

// --- Tiler ---------------------------------------------------------------------------------------------

Tiler Tiler::tuple(std::vector<Tiler> modes) {
  Tiler t;
  t.kind_ = Kind::kTuple;
  t.modes_ = std::move(modes);
  return t;
}

Tiler Tiler::integer(int64_t n) { return integer(IntTuple(n)); }

Tiler Tiler::integer(const IntTuple& n) {
  Tiler t(make_layout(n));
  t.integer_ = true;
  return t;
}

Tiler Tiler::from_shape(const IntTuple& shape) {
  if (shape.is_leaf()) return integer(shape);
  std::vector<Tiler> m;
  for (const auto& s : shape.modes()) m.push_back(from_shape(s));
  return tuple(std::move(m));
}

bool Tiler::operator==(const Tiler& other) const {
  if (kind_ != other.kind_) return false;
  if (kind_ == Kind::kLayout) return layout_ == other.layout_;
  if (kind_ == Kind::kTuple) return modes_ == other.modes_;
  return true;
}

namespace {

void profile_into(const Tiler& t, IntTuple::Builder& out) {
  if (!t.is_tuple()) {
    out.leaf(0);
    return;
  }
  out.open();
  for (const auto& m : t.modes()) profile_into(m, out);
  out.close();
}

}  // namespace

IntTuple Tiler::profile() const {
  IntTuple::Builder out;
  profile_into(*this, out);
  return out.finish();
}

std::string to_string(const Tiler& tiler, bool underscore) {
  switch (tiler.kind()) {
    case Tiler::Kind::kUnderscore:
      return "_";
    case Tiler::Kind::kLayout:
      return to_string(tiler.layout(), underscore);
    case Tiler::Kind::kTuple: {
      std::string s = "(";
      for (size_t i = 0; i < tiler.modes().size(); ++i) {
        if (i) s += ",";
        s += to_string(tiler.modes()[i], underscore);
      }
      return s + ")";
    }
  }
  return "";
}

}  // namespace cutevis
