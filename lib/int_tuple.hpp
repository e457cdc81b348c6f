// cutevis — IntTuple: an integer or a tuple of IntTuples, as in CuTe.
//
// A leaf is a 64-bit integer, optionally scaled onto a basis element: CuTe's
// ScaledBasis strides `1@0`, `2@1`, `1@0@1` (E<1,0>, printed innermost first) of
// identity / coordinate layouts.  Shapes and coordinates never carry a basis.
// A tuple of one element, `(4)`, is distinct from the leaf `4`, as in CuTe.
//
// Stored flat, as its nodes in pre-order (a tuple's header, then its modes), in an
// inline buffer of 16 nodes and on the heap beyond: no allocation per node, a copy
// copies the nodes in use, and the algebra builds results node by node (Builder,
// PairBuilder: lib/detail/tuple_builder.hpp).  Modes are read as copies (operator[],
// modes()) or as nodes (nodes()).
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
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
  // One node of the pre-order encoding: a leaf (its value and basis) or a tuple
  // header (its rank and its span, the nodes of its subtree with itself), so the
  // modes of a tuple are the subtrees that follow its header, one span after the
  // other.  Plain bytes (unused path bytes zero), so equal trees are equal bytes;
  // two words, so that a node is made and copied in registers.
  struct Node {
    int64_t value;  // leaf: the value; tuple: rank | span << 32
    // byte 0: bit 0 set for a tuple header, bit 1 set for a dynamic leaf (CuTe's `int`;
    // clear: a static `Int<N>`, the default); a leaf's basis: byte 1 its depth, bytes 2.. its path
    uint64_t meta;
    static constexpr uint64_t kTuple = 1, kDynamic = 2;

    static Node leaf(int64_t v) { return Node{v, 0}; }  // static, as Int<v>
    static Node leaf(int64_t v, bool dynamic) { return Node{v, dynamic ? kDynamic : 0}; }
    static Node dynamic_leaf(int64_t v) { return Node{v, kDynamic}; }
    static Node leaf(int64_t v, const Basis& b);
    static Node header(size_t rank, size_t span) {  // a tuple's header
      if (rank > UINT32_MAX || span > UINT32_MAX) too_large();
      return Node{static_cast<int64_t>(static_cast<uint64_t>(rank) | (static_cast<uint64_t>(span) << 32)), kTuple};
    }
    [[noreturn]] static void too_large();
    bool is_tuple() const { return (meta & kTuple) != 0; }
    bool is_leaf() const { return (meta & kTuple) == 0; }
    bool is_integer() const { return (meta & ~kDynamic) == 0; }                // a leaf without a basis
    bool is_dynamic() const { return (meta & kDynamic) != 0; }                 // a leaf CuTe holds as a run-time int
    bool is_static_value(int64_t v) const { return meta == 0 && value == v; }  // is_constant<v>: static, no basis
    int depth() const { return static_cast<int>((meta >> 8) & 0xff); }         // of a leaf's basis
    int path(int i) const { return static_cast<int>((meta >> (16 + 8 * i)) & 0xff); }
    size_t rank() const { return is_tuple() ? static_cast<uint32_t>(value) : 1; }
    size_t span() const { return is_tuple() ? static_cast<size_t>(static_cast<uint64_t>(value) >> 32) : 1; }
    const Node* next() const { return this + span(); }  // the following sibling
    Basis basis() const;
  };

  // The top modes of a tuple, each as an IntTuple (a copy); none for a leaf.
  class Modes {
   public:
    class iterator {
     public:
      explicit iterator(const Node* p) : p_(p) {}
      IntTuple operator*() const { return IntTuple::of(p_); }
      iterator& operator++() {
        p_ = p_->next();
        return *this;
      }
      bool operator==(const iterator& o) const { return p_ == o.p_; }
      bool operator!=(const iterator& o) const { return p_ != o.p_; }

     private:
      const Node* p_;
    };
    Modes(const Node* root) : root_(root) {}  // NOLINT
    iterator begin() const { return iterator(root_ + 1); }
    iterator end() const { return iterator(root_->is_tuple() ? root_->next() : root_ + 1); }
    size_t size() const { return root_->is_tuple() ? root_->rank() : 0; }
    bool empty() const { return size() == 0; }
    IntTuple operator[](size_t i) const;

   private:
    const Node* root_;
  };

  class Builder;      // lib/detail/tuple_builder.hpp
  class PairBuilder;  // lib/detail/tuple_builder.hpp

  IntTuple() : size_(1), cap_(kInline), data_(small_) { small_[0] = Node::leaf(0); }  // the leaf 0
  IntTuple(int64_t value) : size_(1), cap_(kInline), data_(small_) {
    small_[0] = Node::leaf(value);
  }                                                               // NOLINT: an int is an IntTuple
  IntTuple(int value) : IntTuple(static_cast<int64_t>(value)) {}  // NOLINT
  IntTuple(const IntTuple& o) : size_(o.size_), cap_(kInline), data_(small_) {
    if (size_ > kInline) {
      data_ = new Node[size_];
      cap_ = size_;
    }
    copy_nodes(data_, o.data_, size_);
  }
  IntTuple(IntTuple&& o) noexcept : size_(o.size_), cap_(kInline), data_(small_) {
    if (o.on_heap()) {
      data_ = o.data_;
      cap_ = o.cap_;
      o.reset();
    } else {
      copy_nodes(small_, o.small_, size_);
    }
  }
  // Assignment to an lvalue only: `t[i] = x` assigns to a copy and is refused.
  IntTuple& operator=(const IntTuple& o) & {
    if (this != &o) assign(o.data_, o.size_);
    return *this;
  }
  IntTuple& operator=(IntTuple&& o) & noexcept {
    if (this == &o) return *this;
    if (o.on_heap()) {
      if (on_heap()) delete[] data_;
      data_ = o.data_;
      cap_ = o.cap_;
      size_ = o.size_;
      o.reset();
    } else {
      assign(o.small_, o.size_);
    }
    return *this;
  }
  ~IntTuple() {
    if (on_heap()) delete[] data_;
  }

  static IntTuple tuple(std::initializer_list<IntTuple> modes);
  static IntTuple tuple(const std::vector<IntTuple>& modes);
  static IntTuple scaled_basis(int64_t value, Basis basis);
  // A dynamic integer (CuTe's run-time `int`); IntTuple(v) is the static Int<v>.
  static IntTuple dynamic(int64_t value);
  // A copy of the subtree at `subtree` (a node of another IntTuple).
  static IntTuple of(const Node* subtree);
  // The tuple of `n` leaves, in order; with `unwrap_one`, one leaf stays a leaf.
  static IntTuple of_leaves(const Node* leaves, size_t n, bool unwrap_one = false);
  // The same, in place.
  void assign_leaves(const Node* leaves, size_t n, bool unwrap_one = false);

  bool is_leaf() const { return root().is_leaf(); }
  bool is_tuple() const { return root().is_tuple(); }
  // A leaf without a basis.
  bool is_integer() const { return root().is_integer(); }
  int64_t value() const;  // leaf only
  Basis basis() const { return root().basis(); }

  // CuTe's rank: number of top modes; 1 for a leaf.
  size_t rank() const { return root().rank(); }
  // get<i>: a copy of a mode; for a leaf, get<0> is the leaf itself.
  IntTuple operator[](size_t i) const;
  // The node of mode i (range-checked as operator[]).
  const Node* mode_node(size_t i) const;
  Modes modes() const { return Modes(nodes()); }
  // Append a top mode to a tuple.
  void push_back(const IntTuple& mode);

  bool operator==(const IntTuple& other) const {
    return size_ == other.size_ && std::memcmp(data(), other.data(), size_ * sizeof(Node)) == 0;
  }
  bool operator!=(const IntTuple& other) const { return !(*this == other); }

  // n nodes from src to dst (not overlapping): the usual few without a call to memcpy
  static void copy_nodes(Node* dst, const Node* src, size_t n) {
    switch (n) {
      case 8: dst[7] = src[7]; [[fallthrough]];
      case 7: dst[6] = src[6]; [[fallthrough]];
      case 6: dst[5] = src[5]; [[fallthrough]];
      case 5: dst[4] = src[4]; [[fallthrough]];
      case 4: dst[3] = src[3]; [[fallthrough]];
      case 3: dst[2] = src[2]; [[fallthrough]];
      case 2: dst[1] = src[1]; [[fallthrough]];
      case 1: dst[0] = src[0]; [[fallthrough]];
      case 0: return;
      default: std::memcpy(static_cast<void*>(dst), src, n * sizeof(Node));
    }
  }

  // The pre-order nodes; nodes()[0] is the root.
  const Node* nodes() const { return data(); }
  size_t node_count() const { return size_; }
  // The same, writable: leaves may be rewritten in place; headers must stay as they are.
  Node* mutable_nodes() { return data(); }

 private:
  static constexpr uint32_t kInline = 16;  // nodes held without a heap allocation
  const Node& root() const { return data()[0]; }
  Node* data() { return data_; }
  const Node* data() const { return data_; }
  bool on_heap() const { return data_ != small_; }
  void reset() {  // the leaf 0, inline (what a moved-from tuple holds)
    data_ = small_;
    cap_ = kInline;
    size_ = 1;
    small_[0] = Node::leaf(0);
  }
  void assign(const Node* src, size_t n);
  // room for n more nodes at the end; size_ grows by n
  Node* grow_by(size_t n) {
    if (size_ + n <= cap_) {
      Node* p = data_ + size_;
      size_ += static_cast<uint32_t>(n);
      return p;
    }
    return grow_slow(n);
  }
  Node* grow_slow(size_t n);

  uint32_t size_;
  uint32_t cap_;
  Node* data_;  // small_ or the heap: one load per access, no test
  union {
    Node small_[kInline];
  };
};

// A CuTe integer leaf: its value and whether CuTe would hold it as a run-time `int`.
// The arithmetic follows CuTe's operator overloads: static op static is static, any
// dynamic operand makes the result dynamic, except that _0 * x, x * _0, _0 / x,
// x % _1 and _0 % x stay the static _0.  Values are checked for overflow.
struct Integer {
  int64_t value = 0;
  bool dynamic = false;

  static Integer of(const IntTuple::Node& n) { return {n.value, n.is_dynamic()}; }
  IntTuple::Node node() const { return IntTuple::Node::leaf(value, dynamic); }
  bool is_constant(int64_t v) const { return !dynamic && value == v; }  // CuTe's is_constant<v>
};
inline Integer operator+(Integer a, Integer b) { return {checked_add(a.value, b.value), a.dynamic || b.dynamic}; }
inline Integer operator-(Integer a, Integer b) { return {checked_sub(a.value, b.value), a.dynamic || b.dynamic}; }
inline Integer operator*(Integer a, Integer b) {
  if (a.is_constant(0) || b.is_constant(0)) return {0, false};
  return {checked_mul(a.value, b.value), a.dynamic || b.dynamic};
}
inline Integer operator/(Integer a, Integer b) {
  if (a.is_constant(0)) return {0, false};
  return {checked_div(a.value, b.value), a.dynamic || b.dynamic};
}
inline Integer operator%(Integer a, Integer b) {
  if (b.is_constant(1) || b.is_constant(-1) || a.is_constant(0)) return {0, false};
  return {checked_mod(a.value, b.value), a.dynamic || b.dynamic};
}
// (a + b - _1) / b, CuTe's ceil_div of two integers
inline Integer ceil_div(Integer a, Integer b) { return (a + b - Integer{1, false}) / b; }
inline Integer min(Integer a, Integer b) { return {a.value < b.value ? a.value : b.value, a.dynamic || b.dynamic}; }
inline Integer abs(Integer a) {
  if (a.value == INT64_MIN) throw Error("integer overflow in abs");
  return {a.value < 0 ? -a.value : a.value, a.dynamic};
}
inline Integer signum(Integer a) { return {(a.value > 0) - (a.value < 0), a.dynamic}; }
// size(t): the product of the leaves
Integer size_integer(const IntTuple& t);

IntTuple make_tuple(std::vector<IntTuple> modes);
template <class... Ts>
IntTuple tup(Ts const&... ts) {
  return IntTuple::tuple({IntTuple(ts)...});
}

// --- printing -------------------------------------------------------------
// CuTe notation: `(4,(2,8))`, basis leaves `1@0`.  With `underscore`, as CuTe's
// print: a static integer `_4`, a dynamic one `4`.
std::string to_string(const IntTuple& t, bool underscore = false);

// --- structure --------------------------------------------------------------
int depth(const IntTuple& t);
int64_t size_by_modes(const IntTuple& t);  // the product mode by mode, checked at every step
// The product of the leaves (checked).  Inline, one pass: with positive leaves no
// partial product exceeds the whole, so it overflows iff the mode-by-mode product
// does; anything else (zeros, negatives, overflow) takes the mode-by-mode path.
inline int64_t size(const IntTuple& t) {
  const IntTuple::Node* p = t.nodes();
  int64_t s = 1;
  for (size_t i = 0, n = t.node_count(); i < n; ++i)
    if (p[i].is_leaf() && (p[i].value <= 0 || __builtin_mul_overflow(s, p[i].value, &s))) return size_by_modes(t);
  return s;
}
int64_t sum(const IntTuple& t);
IntTuple flatten(const IntTuple& t);  // a leaf stays a leaf
std::vector<IntTuple> flatten_leaves(const IntTuple& t);
std::vector<int64_t> flatten_values(const IntTuple& t);  // integers only
// Rebuild a flat tuple into the profile of `profile`.
IntTuple unflatten(const IntTuple& flat, const IntTuple& profile);
bool congruent(const IntTuple& a, const IntTuple& b);
bool weakly_congruent(const IntTuple& a, const IntTuple& b);
bool compatible(const IntTuple& a, const IntTuple& b);
// Some leaf is a basis element (a stride like 1@0).  Inline, one pass over the nodes:
// a header's meta has no depth byte, so the OR of all metas has one iff a leaf does.
inline bool has_basis(const IntTuple& t) {
  const IntTuple::Node* p = t.nodes();
  uint64_t any = 0;
  for (size_t i = 0, n = t.node_count(); i < n; ++i) any |= p[i].meta;
  return (any & 0xff00) != 0;
}
// CuTe's is_static: no dynamic leaf.  has_dynamic is its negation.
inline bool has_dynamic(const IntTuple& t) {  // inline: every algebra call asks it of its operands
  const IntTuple::Node* p = t.nodes();
  uint64_t any = 0;
  for (size_t i = 0, n = t.node_count(); i < n; ++i) any |= p[i].meta;
  return (any & IntTuple::Node::kDynamic) != 0;
}
inline bool is_static(const IntTuple& t) { return !has_dynamic(t); }
// Every leaf dynamic (as a run-time value would be), or every leaf static.
IntTuple make_dynamic(const IntTuple& t);
IntTuple make_static(const IntTuple& t);

IntTuple wrap(const IntTuple& t);    // a leaf becomes (leaf)
IntTuple unwrap(const IntTuple& t);  // (x) becomes x, recursively
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
// crd2idx(index, shape, stride) for integer strides only (the same checked sums).
int64_t crd2idx_integer(int64_t index, const IntTuple& shape, const IntTuple& stride);
// crd2idx(coord, shape): colexicographic index.
int64_t crd2idx(const IntTuple& coord, const IntTuple& shape);
// idx2crd(idx, shape): the natural coordinate of idx in shape.
IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape);
IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape, const IntTuple& stride);

// --- compact strides ---------------------------------------------------------
// A static _1 gets the stride _0 (CuTe's compact_major); strides are static while
// `current` and the shapes before them are.
IntTuple compact_col_major(const IntTuple& shape, Integer current = {1, false});
IntTuple compact_row_major(const IntTuple& shape, Integer current = {1, false});
inline IntTuple compact_col_major(const IntTuple& shape, int64_t current) {
  return compact_col_major(shape, Integer{current, false});
}
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
