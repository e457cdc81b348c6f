// cutevis — a layout's flat modes as lib/'s algorithms walk them (internals, not API).
//
// pycute's algorithms walk flatten(shape) and flatten(stride) side by side.  These are
// the same lists without copying each leaf into an IntTuple of its own: a layout's
// leaves read in place (FlatModes), an operation's result modes in one buffer with room
// for a tuple header before them (ModeList), a layout built mode by mode
// (LayoutBuilder).  A leaf is an IntTuple::Node, so its static-ness (CuTe's Int<N> or
// int) and its basis (1@0) travel with it.
#pragma once

#include <cstring>
#include <string>

#include "lib/detail/small_vec.hpp"
#include "lib/detail/tuple_builder.hpp"
#include "lib/layout.hpp"

namespace cutevis::detail {

using TNode = IntTuple::Node;
using Leaves = SmallVec<TNode, 32>;

inline std::string str(const TNode* p) { return to_string(IntTuple::of(p)); }

// k * d for a stride leaf d, keeping its basis: CuTe's k * ScaledBasis, static unless
// either is dynamic.
inline TNode scale(Integer k, const TNode& d) {
  Integer r = k * Integer::of(d);
  TNode n = d;
  n.value = r.value;
  n.meta = r.dynamic ? (d.meta | TNode::kDynamic) : (d.meta & ~TNode::kDynamic);
  return n;
}

// A layout's flat modes, read in place when the layout is a single mode or a flat
// tuple, gathered otherwise.
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

// A layout built mode by mode into `result`, shape and stride in lockstep
// (congruent by construction: no check afterwards).
struct LayoutBuilder : IntTuple::PairBuilder {
  explicit LayoutBuilder(Layout& result) : PairBuilder(result.shape, result.stride) {}
  void mode(TNode s, TNode d) { leaf(s, d); }
  using PairBuilder::append;
  void append(const Layout& l) { PairBuilder::append(l.shape.nodes(), l.stride.nodes()); }
};

// composition_impl(s:d, B) for a single-mode lhs and a B without basis strides (every
// call once lhs is coalesced to one mode): B's shape, and each stride leaf b of B
// becomes b * d, keeping d's basis, except a static _0, which stays as it is.
inline Layout compose_with_mode(const TNode& d, const TNode* rhs_s, const TNode* rhs_d) {
  Layout result;
  IntTuple::PairBuilder out(result.shape, result.stride);
  out.append(rhs_s, rhs_d);
  TNode* p = result.stride.mutable_nodes();
  for (size_t i = 0, n = result.stride.node_count(); i < n; ++i)
    if (p[i].is_leaf() && !p[i].is_static_value(0)) p[i] = scale(Integer::of(p[i]), d);
  return result;
}

// CuTe: layout.hpp:detail::bw_coalesce over flat modes; `extend` gives coalesce_x (a last
// mode of size _1 starts as the sentinel _2).  Inline: every operation coalesces, some twice.
// bw_coalesce: from the back, mode k joins the front mode f
// when s_k * d_k == d_f (f's shape and both strides static); static _1 modes vanish.
inline ModeList coalesce_modes(const TNode* s, const TNode* d, size_t n, bool extend) {
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

inline ModeList coalesce_modes(const Layout& l, bool extend) {
  FlatModes m(l);
  return coalesce_modes(m.shape(), m.stride(), m.size(), extend);
}
// filter(L) as flat modes: static stride-_0 modes get size _1, then coalesce.
ModeList filter_modes(const Layout& l);

// cosize over flat modes with integer strides: _1 + sum((s - _1) * |d|) (lib/layout.cpp)
Integer cosize_of_modes(const TNode* s, const TNode* d, size_t n);

// CuTe's detail::exchange_sort of mode indices by stride value (not stable: CuTe's
// order exactly); `skip_dynamic` leaves dynamic strides out, as right_inverse does.
SmallVec<size_t, 32> exchange_sort_by_stride(const TNode* strides, size_t n, bool skip_dynamic = false);

}  // namespace cutevis::detail
