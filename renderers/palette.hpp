// cutevis — the default style's colours, and the contrast rule every one of them keeps.
//
// Thread colours: hue by lane, lightness by warp.  The 32 lanes of a warp get 32
// distinct hues, neighbours far apart on the wheel (lane * 7 mod 32: T0 and T1 differ
// by 79 degrees, T0 and T16 by 180), and the warps of a block cycle through four
// saturation/brightness levels, so T0 and T32 share a hue but not a shade.  Every fill
// keeps black label text at a WCAG contrast of at least 4.5:1 (tests check all of them).
#pragma once

#include <cstdint>

#include "renderers/scene.hpp"

namespace cutevis {

Rgb thread_color(int64_t thread);  // hue by lane, lightness by warp
Rgb value_color(int64_t value);    // the lane palette over value indices
Rgb warp_color(int64_t warp);      // eight hues far apart, by warp mod 8
Rgb several_warps_color();         // a cell owned by threads of several warps
Rgb bank_color(int64_t bank);      // 32 distinct colours: 16 hues, two shades (bank / 16)
Rgb category_color(int64_t k);     // externally given per-cell values (colour-by conflicts, ...)

// Label text on a faded cell (thread highlighting): grey, still readable.
constexpr Rgb kFadedText{89, 89, 89};
// How much of a fill survives when its cell is faded.
constexpr double kFadeToWhite = 0.78;

// WCAG 2 relative luminance and contrast ratio (1..21).
double relative_luminance(const Rgb& c);
double contrast_ratio(const Rgb& a, const Rgb& b);
// The least contrast a label keeps on its fill (WCAG AA for normal text).
constexpr double kMinLabelContrast = 4.5;

}  // namespace cutevis
