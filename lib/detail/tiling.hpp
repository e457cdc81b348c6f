// cutevis — how divides and products apply a tiler and regroup their result
// (lib/tiler.cpp; internals, not API).
#pragma once

#include "lib/layout.hpp"
#include "lib/tiler.hpp"

namespace cutevis::detail {

// How CuTe's divides and products take a tiler: `_` keeps L; a tuple applies `op` mode by
// mode (mode i of L with mode i of the tiler, the remaining modes of L kept); a layout T
// gives by_layout(L, T), the operation's own definition.
Layout by_tiler(const Layout& l, const Tiler& tiler, Layout (*op)(const Layout&, const Tiler&),
                Layout (*by_layout)(const Layout&, const Layout&));
// result(_, repeat<R1>(_)): keep mode 0, splice mode 1's modes (a rank-1 mode stays whole).
Layout unpack_second(const Layout& r);
// result(repeat<R0>(_), repeat<R1>(_)): splice both modes.
Layout unpack_both(const Layout& r);

}  // namespace cutevis::detail
