// cutevis — building IntTuples node by node (lib/ internals, not API).
//
// IntTuple stores its nodes in pre-order (int_tuple.hpp); these builders append nodes
// in that order, so an operation makes its result without intermediate tuples.
#pragma once

#include "lib/int_tuple.hpp"

namespace cutevis {

// Builds an IntTuple in pre-order without intermediate tuples:
// open(); leaf(4); open(); leaf(2); leaf(8); close(); close()  gives (4,(2,8)).
class IntTuple::Builder {
 public:
  Builder() { t_.size_ = 0; }
  void open();   // a new tuple: a mode of the open one, or the root
  void close();  // ends the innermost open tuple
  void leaf(int64_t value) { add(Node::leaf(value)); }
  void leaf(Node leaf_node) { add(leaf_node); }
  void append(const Node* subtree);  // a copy of a subtree as one mode
  void append(const IntTuple& t) { append(t.nodes()); }
  IntTuple finish();

 private:
  void add(Node n) {
    count_mode();
    *t_.grow_by(1) = n;
  }
  void count_mode() {
    if (open_ >= 0) t_.data()[open_].value += 1;  // the rank, in the low bits while open
    else root_mode();
  }
  void root_mode();
  IntTuple t_;
  int64_t open_ = -1;  // header index of the innermost open tuple
  int roots_ = 0;
};

// Builds two congruent tuples in lockstep (a layout's shape and stride), in place in
// `first` and `second`: one structure, two sets of leaves.
class IntTuple::PairBuilder {
 public:
  PairBuilder(IntTuple& first, IntTuple& second) : a_(first), b_(second) {
    a_.size_ = 0;
    b_.size_ = 0;
  }
  // Inline, with the leaf and the append: the algebra builds every result through them.
  void open() {
    count_mode();
    const Node h{static_cast<int64_t>(static_cast<uint64_t>(open_ + 1) << 32), 1};  // parent + 1 while open
    *a_.grow_by(1) = h;
    *b_.grow_by(1) = h;
    open_ = static_cast<int64_t>(a_.size_) - 1;
  }
  void close() {
    const uint64_t v = static_cast<uint64_t>(a_.data()[open_].value);
    const Node header = Node::header(static_cast<uint32_t>(v), a_.size_ - static_cast<size_t>(open_));
    a_.data()[open_] = header;  // both from the value, not one from the other: no store-to-load stall
    b_.data()[open_] = header;
    open_ = static_cast<int64_t>(v >> 32) - 1;
  }
  void leaf(Node x, Node y) {
    count_mode();
    *a_.grow_by(1) = x;
    *b_.grow_by(1) = y;
  }
  void append(const Node* x, const Node* y) {  // congruent subtrees, as one mode
    const size_t n = x->span();
    if (y->span() != n) not_congruent();
    count_mode();
    copy_nodes(a_.grow_by(n), x, n);
    copy_nodes(b_.grow_by(n), y, n);
  }
  void finish();  // checks that one root was built and every tuple closed

 private:
  void count_mode() {
    if (open_ >= 0) a_.data()[open_].value += 1;  // the rank, in the low bits while open
    else if (++roots_ > 1) more_roots();
  }
  [[noreturn]] static void more_roots();
  [[noreturn]] static void not_congruent();
  IntTuple& a_;
  IntTuple& b_;
  int64_t open_ = -1;  // header index of the innermost open tuple (the same in both)
  int roots_ = 0;
};

}  // namespace cutevis
