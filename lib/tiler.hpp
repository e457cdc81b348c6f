// cutevis — Tiler: what CuTe's divides, products and by-mode composition take.
//
// A tiler is `_` (keep the mode), a Layout, or a tuple of tilers applied mode by
// mode.  An integer n in a tiler means the layout n:1, so a shape `(4,8)` is a
// tiler too.  Printed as CuTe prints a Tile: `(2:2,8:1)`, `(_,4:1)`.
#pragma once

#include <string>
#include <vector>

#include "lib/layout.hpp"

namespace cutevis {

class Tiler {
 public:
  enum class Kind { kUnderscore, kLayout, kTuple };

  Tiler() : kind_(Kind::kUnderscore) {}
  Tiler(const Layout& layout) : kind_(Kind::kLayout), layout_(layout) {}  // NOLINT
  static Tiler underscore() { return Tiler(); }
  static Tiler tuple(std::vector<Tiler> modes);
  // A shape as a tiler: n -> n:1, tuples mode by mode.
  static Tiler from_shape(const IntTuple& shape);
  // An integer n, as CuTe takes an integral tiler: make_layout(n) for divides and
  // products, but composition(L, n) keeps stride 1 even for n == 1 (`_1:_1`, not `_1:_0`).
  static Tiler integer(int64_t n);
  static Tiler integer(const IntTuple& n);  // a leaf, static or dynamic
  bool is_integer() const { return integer_; }

  Kind kind() const { return kind_; }
  bool is_underscore() const { return kind_ == Kind::kUnderscore; }
  bool is_layout() const { return kind_ == Kind::kLayout; }
  bool is_tuple() const { return kind_ == Kind::kTuple; }
  const Layout& layout() const { return layout_; }
  const std::vector<Tiler>& modes() const { return modes_; }
  size_t rank() const { return is_tuple() ? modes_.size() : 1; }
  bool operator==(const Tiler& other) const;

  // The guide for zip2_by: a tuple's profile, a leaf for a layout or `_`.
  IntTuple profile() const;

 private:
  Kind kind_;
  Layout layout_;
  std::vector<Tiler> modes_;
  bool integer_ = false;
};

std::string to_string(const Tiler& tiler, bool underscore = false);

}  // namespace cutevis
