// The default palette: every fill keeps its label readable (contrast checked here,
// not by eye), every lane of a warp has its own colour, warps differ by shade, the
// 32 banks are 32 colours.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "renderers/palette.hpp"
#include "renderers/scene.hpp"

using namespace cutevis;

namespace {

const Rgb kBlack{0, 0, 0};
const Rgb kWhite{255, 255, 255};

// Euclidean distance in sRGB bytes: a crude but monotone "can these be told apart".
double distance(const Rgb& a, const Rgb& b) {
  const double dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  return std::sqrt(dr * dr + dg * dg + db * db);
}

std::tuple<int, int, int> key(const Rgb& c) { return {c.r, c.g, c.b}; }

}  // namespace

TEST_CASE("palette: WCAG contrast of the formula against known values") {
  CHECK(contrast_ratio(kBlack, kWhite) == doctest::Approx(21.0));
  CHECK(contrast_ratio(kWhite, kWhite) == doctest::Approx(1.0));
  CHECK(contrast_ratio(Rgb{119, 119, 119}, kWhite) ==
        doctest::Approx(4.48).epsilon(0.01));  // #777 on white: just under AA
  CHECK(relative_luminance(Rgb{255, 0, 0}) == doctest::Approx(0.2126));
}

TEST_CASE("palette: black labels readable on every fill, grey labels on every faded fill") {
  for (int64_t t = 0; t < 1024; ++t) {
    CAPTURE(t);
    CHECK(contrast_ratio(kBlack, thread_color(t)) >= kMinLabelContrast);
    CHECK(contrast_ratio(kFadedText, mix(thread_color(t), kWhite, kFadeToWhite)) >= kMinLabelContrast);
    CHECK(contrast_ratio(kBlack, value_color(t)) >= kMinLabelContrast);
  }
  for (int64_t w = 0; w < 32; ++w) {
    CHECK(contrast_ratio(kBlack, warp_color(w)) >= kMinLabelContrast);
    CHECK(contrast_ratio(kFadedText, mix(warp_color(w), kWhite, kFadeToWhite)) >= kMinLabelContrast);
  }
  for (int64_t b = 0; b < 32; ++b) CHECK(contrast_ratio(kBlack, bank_color(b)) >= kMinLabelContrast);
  for (int64_t k = 0; k < 48; ++k) CHECK(contrast_ratio(kBlack, category_color(k)) >= kMinLabelContrast);
  CHECK(contrast_ratio(kBlack, several_warps_color()) >= kMinLabelContrast);
}

TEST_CASE("palette: the 32 lanes of a warp are 32 colours, neighbours and quad pairs far apart") {
  for (int64_t warp = 0; warp < 4; ++warp) {
    std::set<std::tuple<int, int, int>> lanes;
    for (int64_t lane = 0; lane < 32; ++lane) lanes.insert(key(thread_color(32 * warp + lane)));
    CHECK(lanes.size() == 32);
  }
  // CuTe's thread-mod-8 palette gives T0 and T16 (SM70's two quad pairs) one colour.
  CHECK(distance(thread_color(0), thread_color(16)) > 60);
  CHECK(distance(thread_color(0), thread_color(8)) > 60);
  for (int64_t lane = 0; lane < 31; ++lane) CHECK(distance(thread_color(lane), thread_color(lane + 1)) > 40);
  // Warps share hues and differ by shade: T0 and T32, T64, T96 are four colours.
  std::set<std::tuple<int, int, int>> warps;
  for (int64_t w = 0; w < 4; ++w) warps.insert(key(thread_color(32 * w)));
  CHECK(warps.size() == 4);
}

TEST_CASE("palette: 32 banks are 32 colours and eight warps eight") {
  std::set<std::tuple<int, int, int>> banks, warps;
  for (int64_t b = 0; b < 32; ++b) banks.insert(key(bank_color(b)));
  CHECK(banks.size() == 32);
  CHECK(bank_color(3) == bank_color(35));  // bank is an index mod 32
  for (int64_t b = 0; b < 31; ++b) CHECK(distance(bank_color(b), bank_color(b + 1)) > 40);
  for (int64_t w = 0; w < 8; ++w) warps.insert(key(warp_color(w)));
  CHECK(warps.size() == 8);
  CHECK(warps.count(key(several_warps_color())) == 0);
}
