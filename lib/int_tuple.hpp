// cutevis — IntTuple: an integer or a tuple of IntTuples, as in CuTe.
//
// A leaf is a 64-bit integer, optionally scaled onto a basis element: CuTe's
// ScaledBasis strides `1@0`, `2@1`, `1@0@1` (E<1,0>, printed innermost first) of
// identity / coordinate layouts.  Shapes and coordinates never carry a basis.
// A tuple of one element, `(4)`, is distinct from the leaf `4`, as in CuTe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/error.hpp"

namespace cutevis {

// The mode path of a basis element E<i,j,...>: outermost mode first.
// The empty path is a plain integer.
struct Basis {
  static constexpr int kMaxDepth = 6;
  uint8_t depth = 0;
  uint8_t path[kMaxDepth] = {};

  bool empty() const { return depth == 0; }
  bool operator==(const Basis& other) const;
  bool operator!=(const Basis& other) const { return !(*this == other); }
  static Basis of(const std::vector<int>& modes);
  std::vector<int> modes() const { return {path, path + depth}; }
};

class IntTuple {
 public:
  IntTuple() = default;                              // the leaf 0
  IntTuple(int64_t value) : value_(value) {}         // NOLINT: an int is an IntTuple
  IntTuple(int value) : value_(value) {}             // NOLINT
  static IntTuple tuple(std::vector<IntTuple> modes);
  static IntTuple scaled_basis(int64_t value, Basis basis);

  bool is_leaf() const { return leaf_; }
  bool is_tuple() const { return !leaf_; }
  // A leaf without a basis.
  bool is_integer() const { return leaf_ && basis_.empty(); }
  int64_t value() const;           // leaf only
  const Basis& basis() const { return basis_; }

  // CuTe's rank: number of top modes; 1 for a leaf.
  size_t rank() const { return leaf_ ? 1 : modes_.size(); }
  // get<i>: a mode; for a leaf, get<0> is the leaf itself.
  const IntTuple& operator[](size_t i) const;
  IntTuple& operator[](size_t i);
  const std::vector<IntTuple>& modes() const { return modes_; }
  std::vector<IntTuple>& modes() { return modes_; }

  bool operator==(const IntTuple& other) const;
  bool operator!=(const IntTuple& other) const { return !(*this == other); }

 private:
  int64_t value_ = 0;
  Basis basis_;
  bool leaf_ = true;
  std::vector<IntTuple> modes_;
};

IntTuple make_tuple(std::vector<IntTuple> modes);
template <class... Ts>
IntTuple tup(Ts const&... ts) {
  return IntTuple::tuple({IntTuple(ts)...});
}

// --- printing -------------------------------------------------------------
// CuTe notation: `(4,(2,8))`, basis leaves `1@0`.  With `underscore`, every
// integer prints as CuTe prints a static one (`_4`).
std::string to_string(const IntTuple& t, bool underscore = false);

// --- structure --------------------------------------------------------------
int depth(const IntTuple& t);
int64_t size(const IntTuple& t);          // product of the leaves (checked)
int64_t sum(const IntTuple& t);
IntTuple flatten(const IntTuple& t);      // a leaf stays a leaf
std::vector<IntTuple> flatten_leaves(const IntTuple& t);
std::vector<int64_t> flatten_values(const IntTuple& t);  // integers only
// Rebuild a flat tuple into the profile of `profile`.
IntTuple unflatten(const IntTuple& flat, const IntTuple& profile);
bool congruent(const IntTuple& a, const IntTuple& b);
bool weakly_congruent(const IntTuple& a, const IntTuple& b);
bool compatible(const IntTuple& a, const IntTuple& b);
bool has_basis(const IntTuple& t);

IntTuple wrap(const IntTuple& t);         // a leaf becomes (leaf)
IntTuple unwrap(const IntTuple& t);       // (x) becomes x, recursively
IntTuple append(const IntTuple& t, const IntTuple& x);
IntTuple prepend(const IntTuple& t, const IntTuple& x);
// Pad to rank n with x (append<N> / prepend<N>); a leaf with n == 1 stays.
IntTuple append_to_rank(const IntTuple& t, size_t n, const IntTuple& x);
IntTuple prepend_to_rank(const IntTuple& t, size_t n, const IntTuple& x);
IntTuple take(const IntTuple& t, size_t begin, size_t end);
IntTuple select(const IntTuple& t, const std::vector<size_t>& modes);
IntTuple remove_mode(const IntTuple& t, size_t i);
IntTuple replace_mode(const IntTuple& t, size_t i, const IntTuple& x);
IntTuple group(const IntTuple& t, size_t begin, size_t end);
IntTuple reverse(const IntTuple& t);
IntTuple repeat_like(const IntTuple& t, int64_t value);
IntTuple product_each(const IntTuple& t);
// transform(a, f) on the top modes
IntTuple zip(const IntTuple& t);
IntTuple zip(const IntTuple& a, const IntTuple& b);
// zip2_by: ((A,a),((B,b),(C,c)),d) guided by (X,(X,X)) -> ((A,(B,C)),(a,(b,c),d))
IntTuple zip2_by(const IntTuple& t, const IntTuple& guide);

// --- arithmetic (CuTe's int_tuple.hpp) ------------------------------------
IntTuple ceil_div(const IntTuple& a, const IntTuple& b);
IntTuple shape_div(const IntTuple& a, const IntTuple& b);
IntTuple elem_scale(const IntTuple& a, const IntTuple& b);
// Replace the elements of b paired with a 0 in a by 1.
IntTuple filter_zeros(const IntTuple& a, const IntTuple& b);
IntTuple scale_leaves(const IntTuple& t, int64_t factor);  // every leaf * factor
// A stride leaf times an integer; keeps the basis.
IntTuple leaf_mul(const IntTuple& leaf, int64_t factor);
bool elem_less(const IntTuple& a, const IntTuple& b);

// --- coordinates ------------------------------------------------------------
// crd2idx(coord, shape, stride): integer strides give an integer IntTuple;
// basis strides give an arithmetic tuple (a coordinate).
IntTuple crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride);
// crd2idx(coord, shape): colexicographic index.
int64_t crd2idx(const IntTuple& coord, const IntTuple& shape);
// idx2crd(idx, shape): the natural coordinate of idx in shape.
IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape);
IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape, const IntTuple& stride);

// --- compact strides ---------------------------------------------------------
IntTuple compact_col_major(const IntTuple& shape, int64_t current = 1);
IntTuple compact_row_major(const IntTuple& shape, int64_t current = 1);
// Strides ordered by `order` (a tuple congruent to shape, or an int).
IntTuple compact_order(const IntTuple& shape, const IntTuple& order);
// E<i,...> strides for every leaf of shape (make_basis_like).
IntTuple make_basis_like(const IntTuple& shape);

// --- arithmetic tuples (results of basis-stride layouts) ----------------------
// Add value*E<path> into the coordinate accumulator `acc`.
void add_scaled_basis(IntTuple& acc, int64_t value, const Basis& basis);
// A basis leaf as an arithmetic tuple: 2@1 -> (0,2).
IntTuple as_arithmetic_tuple(const IntTuple& t);
// Sum of two values each an integer or an arithmetic tuple (elementwise, padded).
IntTuple tuple_add(const IntTuple& a, const IntTuple& b);

}  // namespace cutevis
