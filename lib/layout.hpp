// cutevis — Layout: a shape and a congruent stride, and CuTe's layout algebra.
//
// Every integer is static (CuTe's Int<N>) unless marked dynamic (a run-time `int`,
// see IntTuple::Node); CuTe's algebra branches on that, and so does this one, inside
// each operation (Integer carries the static-ness through the arithmetic).  Every
// function is named as in CuTe (include/cute/layout.hpp) and carries its defining
// property as a one-line comment.  Where each family lives:
//   layout.cpp       construction, structure, cosize, casts, make_layout_tv
//   coalesce.cpp     coalesce, coalesce_x, filter, filter_zeros
//   composition.cpp  composition, with_shape
//   complement.cpp   complement
//   inverse.cpp      right_inverse, left_inverse, max_common_layout/vector, nullspace
//   divide.cpp       logical_divide, zipped_/tiled_/flat_divide
//   product.cpp      logical_product, zipped_/tiled_/flat_/blocked_/raked_product, tile_to_shape
//   tiler.cpp        Tiler, tile_unzip
#pragma once

#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "lib/int_tuple.hpp"

namespace cutevis {

struct Layout {
  IntTuple shape{1};
  IntTuple stride{0};

  Layout() = default;                                     // _1:_0
  Layout(const IntTuple& shape, const IntTuple& stride);  // throws unless congruent
  Layout(IntTuple&& shape, IntTuple&& stride);
  bool operator==(const Layout& other) const { return shape == other.shape && stride == other.stride; }
  bool operator!=(const Layout& other) const { return !(*this == other); }

  // L(i) for an integer index, integer strides only.
  int64_t operator()(int64_t index) const;
  // L(c) for any coordinate; basis strides give a coordinate (arithmetic tuple).
  IntTuple operator()(const IntTuple& coord) const;
};

// --- construction ---------------------------------------------------------------
Layout make_layout(const IntTuple& shape);  // column-major (LayoutLeft)
Layout make_layout(const IntTuple& shape, const IntTuple& stride);
Layout make_layout_right(const IntTuple& shape);  // LayoutRight
// make_layout(L0, L1, ...): concatenate layouts as modes: (s0,s1,...):(d0,d1,...)
Layout make_layout(const std::vector<Layout>& modes);
Layout make_layout(const Layout& a, const Layout& b);  // (a,b)
// Strides follow `order` (smaller order = smaller stride).
Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order);
// Same shape, compact strides ordered like L's, stride-0 modes kept at 0.
Layout make_layout_like(const Layout& layout);
// Mode 0 column-major, the rest ordered like L (CuTe's make_fragment_like).
Layout make_fragment_like(const Layout& layout);
// (s...):(1@0,1@1,...): maps a coordinate to itself.
Layout make_identity_layout(const IntTuple& shape);

std::string to_string(const Layout& layout, bool underscore = false);
// Some integer of the shape or stride is dynamic (one pass: congruent tuples have as many nodes).
inline bool has_dynamic(const Layout& l) {
  if (l.shape.node_count() != l.stride.node_count()) return has_dynamic(l.shape) || has_dynamic(l.stride);
  const IntTuple::Node* s = l.shape.nodes();
  const IntTuple::Node* d = l.stride.nodes();
  uint64_t any = 0;
  for (size_t i = 0, n = l.shape.node_count(); i < n; ++i) any |= s[i].meta | d[i].meta;
  return (any & IntTuple::Node::kDynamic) != 0;
}

// --- structure ---------------------------------------------------------------------
inline int64_t size(const Layout& l) { return size(l.shape); }
int64_t cosize(const Layout& l);  // max(L(i)) + 1 over the domain (|strides|)
// size and cosize with CuTe's static-ness (static when every integer involved is)
inline Integer size_integer(const Layout& l) { return size_integer(l.shape); }
Integer cosize_integer(const Layout& l);
IntTuple coshape(const Layout& l);
inline size_t rank(const Layout& l) { return l.shape.rank(); }
inline int depth(const Layout& l) { return depth(l.shape); }
Layout get(const Layout& l, size_t mode);  // layout<I>(L)
Layout get(const Layout& l, const std::vector<size_t>& path);
Layout select(const Layout& l, const std::vector<size_t>& modes);
Layout take(const Layout& l, size_t begin, size_t end);
Layout flatten(const Layout& l);
Layout append(const Layout& l, const Layout& x = Layout());
Layout prepend(const Layout& l, const Layout& x = Layout());
Layout append_to_rank(const Layout& l, size_t n, const Layout& x = Layout());   // append<N>
Layout prepend_to_rank(const Layout& l, size_t n, const Layout& x = Layout());  // prepend<N>
Layout replace(const Layout& l, size_t mode, const Layout& x);
Layout group(const Layout& l, size_t begin, size_t end);
Layout zip(const Layout& l);
Layout zip(const Layout& a, const Layout& b);
Layout tile_unzip(const Layout& l, const class Tiler& tiler);
// Coordinate of index i in the shape of L (its 1-D coordinate).
IntTuple get_1d_coord(const Layout& l, int64_t index);

// Every value L(0) .. L(size-1) (integer strides).
std::vector<int64_t> layout_values(const Layout& l);
// The walk behind for_each_value: the flat extents and strides of L, or by_index when
// an extent is negative (CuTe can build those), where only L(i) itself is right.
struct ValueWalk {
  std::vector<int64_t> shapes, strides;
  int64_t size = 0;
  int64_t cosize = 0;  // of L, unless by_index; computing it checks the codomain for overflow
  bool by_index = false;
};
ValueWalk value_walk(const Layout& l);  // checks the codomain for overflow

// f(L(i)) for i = 0 .. size-1 in order, without storing the values: an odometer over
// the flat modes, no division per index.  Inline, so f is inlined into the loop (a
// 2x2 GMMA picture walks 2.6 million values).
template <class F>
void for_each_value(const Layout& l, F&& f) {
  const ValueWalk w = value_walk(l);
  if (w.by_index) {
    for (int64_t i = 0; i < w.size; ++i) f(l(i));
    return;
  }
  const size_t r = w.shapes.size();
  std::vector<int64_t> coord(r, 0);
  int64_t value = 0;
  for (int64_t i = 0; i < w.size; ++i) {
    f(value);
    for (size_t m = 0; m < r; ++m) {  // colexicographic increment
      if (++coord[m] < w.shapes[m]) {
        value += w.strides[m];
        break;
      }
      coord[m] = 0;
      value -= (w.shapes[m] - 1) * w.strides[m];
    }
  }
}
// Whether two layouts agree as functions on their (common-size) domain.
bool same_function(const Layout& a, const Layout& b);

// --- coalesce / filter -------------------------------------------------------------
// coalesce(L): depth <= 1, same size, L(i) unchanged for i < size(L).
Layout coalesce(const Layout& l);
// coalesce at the terminals of `profile` (by-mode coalesce).
Layout coalesce(const Layout& l, const IntTuple& profile);
// coalesce_x: as coalesce, but also preserves L(i) beyond its domain.
Layout coalesce_x(const Layout& l);
Layout coalesce_x(const Layout& l, const IntTuple& profile);
// filter_zeros(L): stride-0 modes get size 1.
Layout filter_zeros(const Layout& l);
// filter(L): no stride-0 or size-1 modes; `_1:_0` when nothing remains.
Layout filter(const Layout& l);
Layout filter(const Layout& l, const IntTuple& profile);

// --- composition / complement / inverses ------------------------------------------
// R = composition(A, B): R(c) == A(B(c)) for c in the domain of B; shape(R) ~ shape(B).
Layout composition(const Layout& a, const Layout& b);
Layout composition(const Layout& a, const class Tiler& b);
// CuTe checks composition's divisibility conditions weakly: `rest_stride < curr_shape`
// passes without the stride dividing the shape, and nothing is checked on dynamic
// integers.  Where such a condition fails, R may differ from A∘B; the check says
// where, so the caller can warn while keeping CuTe's answer.
struct CompositionCheck {
  bool weak = false;     // a condition that CuTe does not enforce failed
  int64_t index = -1;    // then: the first i < size(B) where R(i) != A(B(i)), or -1
  int64_t expected = 0;  // A(B(index))
  int64_t got = 0;       // R(index)
};
Layout composition(const Layout& a, const Layout& b, CompositionCheck& check);
// C = complement(L, cotarget): C(i) disjoint from L's image, increasing, size >= cotarget/size(L).
Layout complement(const Layout& l, const IntTuple& cotarget);
Layout complement(const Layout& l);
// R = right_inverse(L): L(R(i)) == i for i < size(R).
Layout right_inverse(const Layout& l);
// R = left_inverse(L): R(L(i)) == i for i < size(L) when L is injective.
Layout left_inverse(const Layout& l);
// R with a(R(i)) == i and b(R(i)) == i for the longest contiguous i.
Layout max_common_layout(const Layout& a, const Layout& b);
int64_t max_common_vector(const Layout& a, const Layout& b);
// Layout of the stride-0 modes (CuTe's nullspace).
Layout nullspace(const Layout& l);

// --- divides and products ------------------------------------------------------------
// logical_divide(L, T) = composition(L, (T, complement(T, shape(coalesce(L)))))
Layout logical_divide(const Layout& l, const class Tiler& tiler);
Layout zipped_divide(const Layout& l, const class Tiler& tiler);  // ((tile),(rest))
Layout tiled_divide(const Layout& l, const class Tiler& tiler);   // ((tile),rest0,rest1,...)
Layout flat_divide(const Layout& l, const class Tiler& tiler);    // (tile0,tile1,...,rest0,...)
// logical_product(A, B) = (A, composition(complement(A, size(A)*cosize(B)), B))
Layout logical_product(const Layout& block, const class Tiler& tiler);
Layout zipped_product(const Layout& block, const class Tiler& tiler);
Layout tiled_product(const Layout& block, const class Tiler& tiler);
Layout flat_product(const Layout& block, const class Tiler& tiler);
// rank-sensitive products: rank(result) == max(rank(block), rank(tiler))
Layout blocked_product(const Layout& block, const Layout& tiler);
Layout raked_product(const Layout& block, const Layout& tiler);
// Repeat `block` to fill `target_shape`, tiles ordered by `order` (default column-major).
Layout tile_to_shape(const Layout& block, const IntTuple& target_shape);
Layout tile_to_shape(const Layout& block, const IntTuple& target_shape, const IntTuple& order);

// --- casts ---------------------------------------------------------------------------------
Layout upcast(const Layout& l, int64_t n);
Layout downcast(const Layout& l, int64_t n);
// recast_layout<Old,New>: from elements of old_bits to elements of new_bits.
Layout recast_layout(const Layout& l, int64_t old_bits, int64_t new_bits);

// CuTe's recast rule for anything with an upcast and a downcast: with new/old reduced
// to num/den, 1/1 keeps x, num == 1 downcasts by den, den == 1 upcasts by num, else both.
template <class T, class Up, class Down>
T recast_by_ratio(const T& x, int64_t old_bits, int64_t new_bits, Up&& up, Down&& down) {
  if (old_bits <= 0 || new_bits <= 0) throw Error("recast_layout: widths must be positive");
  int64_t g = std::gcd(new_bits, old_bits);
  int64_t num = new_bits / g, den = old_bits / g;
  if (num == 1 && den == 1) return x;
  if (num == 1) return down(x, den);
  if (den == 1) return up(x, num);
  return down(up(x, num), den);
}

// --- TV layouts --------------------------------------------------------------------------
// make_layout_tv(thr, val) as make_tiled_copy builds it:
//   layout_mn = raked_product(thr, val); tv = right_inverse(layout_mn) with shape (size(thr), size(val)).
struct LayoutTV {
  Layout layout_mn;   // (M,N) -> (thr_idx, val_idx)
  Layout layout_tv;   // (thr_idx, val_idx) -> (M,N)
  IntTuple tiler_mn;  // product_each(shape(layout_mn))
};
LayoutTV make_layout_tv(const Layout& thr, const Layout& val);
// composition(L, make_layout(shape)): L viewed with a new shape.
Layout with_shape(const Layout& l, const IntTuple& shape);

}  // namespace cutevis
