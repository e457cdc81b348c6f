// diff_scene: a verify report drawn, in every format.
#include <doctest/doctest.h>

#include "renderers/render.hpp"
#include "renderers/views.hpp"

using namespace cutevis;

namespace {

DiffPicture two_operands() {
  DiffPicture pic;
  for (int k = 0; k < 2; ++k) {
    DiffOperand op;
    op.name = k == 0 ? "A" : "C";
    op.row_name = "M";
    op.col_name = k == 0 ? "K" : "N";
    op.rows = 16;
    op.cols = k == 0 ? 16 : 8;
    for (int64_t c = 0; c < op.cols; ++c)
      for (int64_t r = 0; r < op.rows; ++r) {
        Owner want{static_cast<int32_t>((r % 8) * 4 + c % 4), static_cast<int32_t>(c / 4)};
        bool wrong = k == 1 && (r == 8 || c == 1);
        op.expected.push_back({want});
        if (!wrong) op.actual.push_back({want});
        else if (r == 8) op.actual.push_back({});  // the hardware puts it nowhere
        else op.actual.push_back({Owner{want.thr, static_cast<int32_t>(want.val + 1)}, Owner{0, 0}});
        op.wrong.push_back(wrong);
      }
    pic.operands.push_back(op);
  }
  pic.notes.push_back("functionally equivalent");
  return pic;
}

}  // namespace

TEST_CASE("diff_scene marks the disagreeing cells and draws in every format") {
  Scene s = diff_scene(two_operands(), {.title = "verify SM80_16x8x16_F32F16F16F32_TN"});
  REQUIRE(s.panels.size() == 2);
  const Panel& c = *s.find("C");
  CHECK(c.cell(8, 3).label.find("≠none") != std::string::npos);
  CHECK(c.cell(0, 0).fill != c.cell(8, 0).fill);
  CHECK(c.cell(8, 0).tooltip.find("the hardware puts nothing") != std::string::npos);
  CHECK(s.legend[0].rfind("23 of 384 cells disagree", 0) == 0);
  for (Format f : {Format::kSvg, Format::kTex, Format::kTxt}) {
    std::string bytes = render(s, f);
    CHECK(bytes.size() > 1000);
  }
  std::string svg = render(s, Format::kSvg);
  CHECK(svg.find("the hardware puts") != std::string::npos);
  if (png_supported()) CHECK(render(s, Format::kPng).substr(1, 3) == "PNG");
  CHECK_THROWS_AS(render(s, Format::kSvg, {.style = Style::kCute}), Error);
}
