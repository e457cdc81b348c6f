// cutevis — CuTe's layout algebra where some integer is dynamic (a run-time `int`).
//
// CuTe decides much of its algebra on the *types* of integers: coalesce merges two
// modes only where the merge is provable at compile time, complement keeps a
// trailing `(...,1)` mode of dynamic size, right_inverse skips dynamic strides,
// left_inverse and a rank-2 complement refuse them.  These functions follow CuTe's
// code (layout.hpp) with every integer carrying its static-ness (Integer).
// layout.cpp calls them only when an operand holds a dynamic integer, so the
// all-static path stays as fast as it was; their results equal the static path's
// on all-static input.
#pragma once

#include "lib/layout.hpp"
#include "lib/tiler.hpp"

namespace cutevis::dynamic {

// detail::bw_coalesce over the flat modes; `extend`: coalesce_x (a last size-_1 mode
// starts as the sentinel _2, so L(i) is kept beyond the domain too).
Layout coalesce(const Layout& l, bool extend);
Layout filter(const Layout& l);
Layout composition(const Layout& a, const Layout& b, CompositionCheck* check);
// composition(a, n) for an integral tiler n: composition_impl(coalesce_x(a), n, _1)
Layout composition_with_integer(const Layout& a, const IntTuple& n, CompositionCheck* check);
Layout complement(const Layout& l, const IntTuple& cotarget);
Layout complement(const Layout& l);
Layout right_inverse(const Layout& l);
Layout left_inverse(const Layout& l);
Integer cosize(const Layout& l);

}  // namespace cutevis::dynamic
