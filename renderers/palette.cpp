#include "renderers/palette.hpp"

#include <algorithm>
#include <cmath>

namespace cutevis {

namespace {

int64_t mod(int64_t i, int64_t n) { return ((i % n) + n) % n; }

// HSV (h in turns) to RGB.
Rgb hsv(double h, double s, double v) {
  h = (h - std::floor(h)) * 6.0;
  const int i = static_cast<int>(h) % 6;
  const double f = h - std::floor(h);
  const double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  double r = 0, g = 0, b = 0;
  switch (i) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
  }
  auto byte = [](double x) { return static_cast<uint8_t>(std::lround(std::clamp(x, 0.0, 1.0) * 255)); };
  return {byte(r), byte(g), byte(b)};
}

double linear(uint8_t c) {
  const double s = c / 255.0;
  return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}

}  // namespace

Rgb thread_color(int64_t thread) {
  // (saturation, brightness) per warp mod 4; the lane's hue is the same in every warp.
  static const double shade[4][2] = {{0.42, 1.00}, {0.26, 0.93}, {0.55, 0.97}, {0.18, 0.86}};
  const int64_t lane = mod(thread, 32), warp = mod(thread / 32, 4);
  return hsv(static_cast<double>(mod(lane * 7, 32)) / 32.0, shade[warp][0], shade[warp][1]);
}

Rgb value_color(int64_t value) { return thread_color(value); }

Rgb warp_color(int64_t warp) { return hsv(static_cast<double>(mod(warp * 3, 8)) / 8.0 + 0.02, 0.45, 1.0); }

Rgb several_warps_color() { return {200, 200, 200}; }

Rgb bank_color(int64_t bank) {
  const int64_t b = mod(bank, 32);
  // 16 hues 5/16 of a turn apart for neighbouring banks; banks 16-31 a deeper shade.
  return hsv(static_cast<double>(mod(b * 5, 16)) / 16.0, b < 16 ? 0.30 : 0.55, b < 16 ? 1.0 : 0.93);
}

Rgb category_color(int64_t k) { return hsv(static_cast<double>(mod(k * 5, 12)) / 12.0, k / 12 % 2 ? 0.55 : 0.35, 1.0); }

double relative_luminance(const Rgb& c) { return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b); }

double contrast_ratio(const Rgb& a, const Rgb& b) {
  const double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace cutevis
