// renderers/panels: caller-labelled grids side by side (cutevis tmem, mma --sf).
#include <doctest/doctest.h>

#include "renderers/panels.hpp"
#include "renderers/render.hpp"

using namespace cutevis;

TEST_CASE("panels: grids are placed left to right, keep their labels, and refuse a wrong cell count") {
  GridPanel a;
  a.name = "TMEM";
  a.caption = "lanes";
  a.row_name = "lane ";
  a.col_name = "col ";
  a.rows = 2;
  a.cols = 3;
  a.labels = {"T0", "", "T1", "", "T2", ""};
  a.colour = {0, -1, 1, -1, 2, -1};
  a.tooltips = {"x", "", "y", "", "z", ""};
  a.row_block = 1;
  GridPanel b = a;
  b.name = "C";
  const Scene s = grid_panels_scene("title", {a, b}, {"legend line"});
  REQUIRE(s.panels.size() == 2);
  CHECK(s.panels[1].col0 == 3 + 3);  // three cells apart
  CHECK(s.panels[0].cell(0, 1).label == "T1");
  CHECK(s.panels[0].cell(0, 1).tooltip == "TMEM(lane 0,col 1): y");
  CHECK(s.panels[0].cell(1, 0).fill == Rgb{});  // -1: blank, white
  CHECK(s.panels[0].cell(0, 0).fill != Rgb{});
  CHECK(s.panels[0].row_rules[1] == 1);
  const std::string svg = render(s, Format::kSvg);
  CHECK(svg.find("legend line") != std::string::npos);
  CHECK(svg.find("TMEM(lane 0,col 2): z") != std::string::npos);
  a.labels.pop_back();
  CHECK_THROWS_WITH_AS(grid_panels_scene("t", {a}, {}), doctest::Contains("5 labels for 2 x 3 cells"), Error);
}
