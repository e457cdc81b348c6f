// CuTe's products (include/cute/layout.hpp): logical_product repeats a block by a
// tiler's layout; zipped_, tiled_, flat_, blocked_ and raked_product regroup it, and
// tile_to_shape repeats a block to fill a shape.
#include <algorithm>

#include "lib/detail/tiling.hpp"
#include "lib/layout.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

namespace {

// CuTe: layout.hpp:logical_product — make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
Layout logical_product_by_layout(const Layout& block, const Layout& t) {
  const IntTuple::Node cotarget = (size_integer(block) * cosize_integer(t)).node();
  return make_layout(block, composition(complement(block, IntTuple::of(&cotarget)), t));
}

}  // namespace

// CuTe: layout.hpp:logical_product — by mode for a tuple tiler, `_` keeps the mode
Layout logical_product(const Layout& block, const Tiler& tiler) {
  return detail::by_tiler(block, tiler, logical_product, logical_product_by_layout);
}

// CuTe: layout.hpp:zipped_product — ((block),(rest))
Layout zipped_product(const Layout& block, const Tiler& tiler) {
  return tile_unzip(logical_product(block, tiler), tiler);
}

// CuTe: layout.hpp:tiled_product — ((block),rest0,rest1,...)
Layout tiled_product(const Layout& block, const Tiler& tiler) {
  return detail::unpack_second(zipped_product(block, tiler));
}

// CuTe: layout.hpp:flat_product — (block0,block1,...,rest0,rest1,...)
Layout flat_product(const Layout& block, const Tiler& tiler) {
  return detail::unpack_both(zipped_product(block, tiler));
}

// CuTe: layout.hpp:blocked_product — zip(logical_product(append<R>(A), append<R>(B))): mode i is (A_i, B_i)
Layout blocked_product(const Layout& block, const Layout& tiler) {
  size_t R = std::max(rank(block), rank(tiler));
  Layout r = logical_product(append_to_rank(block, R), Tiler(append_to_rank(tiler, R)));
  return zip(get(r, 0), get(r, 1));
}

// CuTe: layout.hpp:raked_product — as blocked_product with the tiler inside: mode i is (B_i, A_i)
Layout raked_product(const Layout& block, const Layout& tiler) {
  size_t R = std::max(rank(block), rank(tiler));
  Layout r = logical_product(append_to_rank(block, R), Tiler(append_to_rank(tiler, R)));
  return zip(get(r, 1), get(r, 0));
}

namespace {

// `order` null: the tiles repeat column-major (CuTe's default GenColMajor)
Layout tile_to_shape_impl(const Layout& block, const IntTuple& target_shape, const IntTuple* order) {
  size_t R = target_shape.rank();
  if (rank(block) > R)
    throw Error("tile_to_shape: rank of " + to_string(block) + " exceeds rank of " + to_string(target_shape));
  Layout padded = append_to_rank(block, R);
  IntTuple block_shape = product_each(padded.shape);
  IntTuple trg = product_each(target_shape);
  for (size_t i = 0; i < trg.rank() && is_static(trg); ++i)  // CuTe checks a static target only
    if (checked_mod(trg[i].value(), block_shape[i].value()) != 0)
      throw Error("tile_to_shape: block shape " + to_string(block_shape) + " does not divide the target shape " +
                  to_string(trg));
  IntTuple product_shape = ceil_div(trg, block_shape);
  Layout tiles = order ? make_ordered_layout(product_shape, *order) : make_layout(product_shape);
  return blocked_product(padded, tiles);
}

}  // namespace

// CuTe: layout.hpp:tile_to_shape — blocked_product(block, make_layout(target / block shape))
Layout tile_to_shape(const Layout& block, const IntTuple& target_shape) {
  return tile_to_shape_impl(block, target_shape, nullptr);
}

Layout tile_to_shape(const Layout& block, const IntTuple& target_shape, const IntTuple& order) {
  return tile_to_shape_impl(block, target_shape, &order);
}

}  // namespace cutevis
