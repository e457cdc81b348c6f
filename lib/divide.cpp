// CuTe's divides (include/cute/layout.hpp): logical_divide splits each mode of L into
// (tile, rest); zipped_, tiled_ and flat_divide regroup that result.
#include "lib/detail/tiling.hpp"
#include "lib/layout.hpp"
#include "lib/tiler.hpp"

namespace cutevis {

namespace {

// CuTe: layout.hpp:logical_divide — composition(L, make_layout(T, complement(T, shape(coalesce(L)))))
Layout logical_divide_by_layout(const Layout& l, const Layout& t) {
  return composition(l, make_layout(t, complement(t, coalesce(l).shape)));
}

}  // namespace

// CuTe: layout.hpp:logical_divide — by mode for a tuple tiler, `_` keeps the mode
Layout logical_divide(const Layout& l, const Tiler& tiler) {
  return detail::by_tiler(l, tiler, logical_divide, logical_divide_by_layout);
}

// CuTe: layout.hpp:zipped_divide — ((tile),(rest))
Layout zipped_divide(const Layout& l, const Tiler& tiler) { return tile_unzip(logical_divide(l, tiler), tiler); }

// CuTe: layout.hpp:tiled_divide — ((tile),rest0,rest1,...)
Layout tiled_divide(const Layout& l, const Tiler& tiler) { return detail::unpack_second(zipped_divide(l, tiler)); }

// CuTe: layout.hpp:flat_divide — (tile0,tile1,...,rest0,rest1,...)
Layout flat_divide(const Layout& l, const Tiler& tiler) { return detail::unpack_both(zipped_divide(l, tiler)); }

}  // namespace cutevis
