// cutevis — Swizzle<B,M,S> and ComposedLayout (A o O o B), as in CuTe's
// swizzle.hpp, layout_composed.hpp, swizzle_layout.hpp and pointer_flagged.hpp.
//
// A ComposedLayout evaluates A(O + B(c)).  A is a Swizzle or a Layout; O is an
// integer offset or CuTe's `smem_ptr_flag_bits<N>` (printed `smem_ptr[Nb](unset)`,
// the GMMA shared-memory atoms), in which case the swizzle acts on byte addresses
// and is evaluated position-independently (as print_latex does) by recasting it
// to N-bit elements.  O may also be CuTe's `smem_sparse_ptr_flag_bits<S,N>` (printed
// `smem_sparse<S>_ptr[Nb](unset)`, the sparse GMMA atoms' A): B then counts logical elements,
// S of which share one stored N-bit element (N/S bits each), and CuTe refuses upcast/downcast.
// B is a Layout or another ComposedLayout; B gives the domain.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "lib/layout.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

struct Swizzle {
  int bits = 0;   // B: number of bits in the mask
  int base = 0;   // M: least-significant bits kept constant
  int shift = 0;  // S: distance to shift the YYY mask (negative: to the left)

  Swizzle() = default;
  Swizzle(int b, int m, int s);  // throws unless B, M >= 0 and |S| >= B
  int64_t yyy_mask() const;
  int64_t zzz_mask() const;
  // ZZZ ^= YYY
  int64_t operator()(int64_t offset) const;
  bool operator==(const Swizzle& o) const { return bits == o.bits && base == o.base && shift == o.shift; }
  bool operator!=(const Swizzle& o) const { return !(*this == o); }
  // 2^(M+B+|S|): the smallest domain on which the swizzle is a permutation.
  int64_t domain() const;
};

std::string to_string(const Swizzle& s);  // CuTe prints Sw<B,M,S>
// make_swizzle<Y,Z>(): the swizzle whose YYY and ZZZ masks are Y and Z.
Swizzle make_swizzle(int64_t yyy, int64_t zzz);
Swizzle composition(const Swizzle& a, const Swizzle& b);  // same shift only
Swizzle upcast(const Swizzle& s, int64_t n);
Swizzle downcast(const Swizzle& s, int64_t n);
Swizzle recast_swizzle(const Swizzle& s, int64_t old_bits, int64_t new_bits);

class ComposedLayout;
using AnyLayout = std::variant<Layout, ComposedLayout>;

class ComposedLayout {
 public:
  ComposedLayout(const Swizzle& a, int64_t offset, const AnyLayout& b);
  ComposedLayout(const Layout& a, int64_t offset, const AnyLayout& b);
  // A o smem_ptr[Nb](unset) o B
  static ComposedLayout smem(const Swizzle& a, int smem_bits, const AnyLayout& b);
  // A o smem_sparse<S>_ptr[Nb](unset) o B (cute/pointer_flagged.hpp: smem_sparse_ptr_flag_bits<S,N>)
  static ComposedLayout smem_sparse(const Swizzle& a, int sparsity, int smem_bits, const AnyLayout& b);

  bool a_is_swizzle() const { return a_is_swizzle_; }
  const Swizzle& swizzle() const { return swizzle_; }
  const Layout& layout_a() const { return layout_a_; }
  int64_t offset() const { return offset_; }
  int smem_bits() const { return smem_bits_; }  // 0 unless the offset is an smem_ptr flag
  int sparsity() const { return sparsity_; }    // S of an smem_sparse<S>_ptr flag; 1 otherwise
  // The bits of one element of B: smem_bits / sparsity (0 without an smem flag).
  int element_bits() const { return smem_bits_ / sparsity_; }
  const AnyLayout& layout_b() const { return *b_; }

  // A(O + B(i)); with an smem flag, position-independently.
  int64_t operator()(int64_t index) const;
  bool operator==(const ComposedLayout& o) const;

  // The same A and O around a new B (no simplification).
  ComposedLayout with_b(const AnyLayout& b) const;

 private:
  ComposedLayout() = default;
  bool a_is_swizzle_ = true;
  Swizzle swizzle_;
  Layout layout_a_;
  int64_t offset_ = 0;
  int smem_bits_ = 0;
  int sparsity_ = 1;
  std::shared_ptr<const AnyLayout> b_;
};

// composition(A, O, B) with CuTe's simplification: Sw<0,M,S> o 0 o L is L.
AnyLayout compose3(const Swizzle& a, int64_t offset, const AnyLayout& b);
AnyLayout compose3(const Layout& a, int64_t offset, const AnyLayout& b);

// --- the whole algebra on Layout or ComposedLayout ------------------------------------
std::string to_string(const AnyLayout& l, bool underscore = false);
const IntTuple& shape(const AnyLayout& l);
int64_t size(const AnyLayout& l);
int64_t cosize(const AnyLayout& l);
size_t rank(const AnyLayout& l);
int depth(const AnyLayout& l);
int64_t evaluate(const AnyLayout& l, int64_t index);
std::vector<int64_t> layout_values(const AnyLayout& l);
// Only for Layout: the underlying layout, else an Error naming `what`.
const Layout& as_layout(const AnyLayout& l, const char* what);
// The position-independent form print_latex draws: A recast to element units.
AnyLayout as_position_independent(const AnyLayout& l);

AnyLayout get(const AnyLayout& l, size_t mode);
AnyLayout flatten(const AnyLayout& l);
AnyLayout group(const AnyLayout& l, size_t begin, size_t end);
AnyLayout take(const AnyLayout& l, size_t begin, size_t end);
AnyLayout coalesce(const AnyLayout& l);
AnyLayout coalesce(const AnyLayout& l, const IntTuple& profile);
AnyLayout filter(const AnyLayout& l);
AnyLayout filter(const AnyLayout& l, const IntTuple& profile);
AnyLayout composition(const AnyLayout& a, const AnyLayout& b);
AnyLayout composition(const AnyLayout& a, const Tiler& b);
AnyLayout composition(const Swizzle& a, const AnyLayout& b);
AnyLayout composition(const AnyLayout& a, const Swizzle& b);
Layout complement(const AnyLayout& l);
Layout complement(const AnyLayout& l, const IntTuple& cotarget);
AnyLayout right_inverse(const AnyLayout& l);
AnyLayout left_inverse(const AnyLayout& l);
AnyLayout logical_divide(const AnyLayout& l, const Tiler& t);
AnyLayout zipped_divide(const AnyLayout& l, const Tiler& t);
AnyLayout tiled_divide(const AnyLayout& l, const Tiler& t);
AnyLayout flat_divide(const AnyLayout& l, const Tiler& t);
AnyLayout logical_product(const AnyLayout& l, const Tiler& t);
AnyLayout zipped_product(const AnyLayout& l, const Tiler& t);
AnyLayout tiled_product(const AnyLayout& l, const Tiler& t);
AnyLayout flat_product(const AnyLayout& l, const Tiler& t);
AnyLayout blocked_product(const AnyLayout& l, const Layout& t);
AnyLayout raked_product(const AnyLayout& l, const Layout& t);
AnyLayout tile_to_shape(const AnyLayout& l, const IntTuple& shape);
AnyLayout tile_to_shape(const AnyLayout& l, const IntTuple& shape, const IntTuple& order);
AnyLayout upcast(const AnyLayout& l, int64_t n);
AnyLayout downcast(const AnyLayout& l, int64_t n);
AnyLayout recast_layout(const AnyLayout& l, int64_t old_bits, int64_t new_bits);
int64_t max_common_vector(const AnyLayout& a, const AnyLayout& b);

}  // namespace cutevis
