#include "renderers/cost_grid.hpp"

#include "lib/error.hpp"
#include "renderers/palette.hpp"

namespace cutevis {

Scene cost_grid_scene(const CostGrid& g) {
  const size_t cells = static_cast<size_t>(g.rows * g.cols);
  if (g.value.size() != cells || (!g.marked.empty() && g.marked.size() != cells))
    throw Error("cost grid: " + std::to_string(g.value.size()) + " values for " + std::to_string(cells) + " cells");
  Scene s;
  s.kind = SceneKind::kLayout;
  s.title = g.title;
  s.legend = g.legend;
  s.tile = tup(g.rows, g.cols);
  s.layout_rank = 2;
  Panel p;
  p.rows = g.rows;
  p.cols = g.cols;
  p.cells.resize(cells);
  p.row_rules.assign(static_cast<size_t>(g.rows) + 1, 0);
  p.col_rules.assign(static_cast<size_t>(g.cols) + 1, 0);
  for (size_t i = 0; i < cells; ++i) {
    Cell& c = p.cells[i];
    const bool marked = !g.marked.empty() && g.marked[i] != 0;
    if (g.value[i] < 0) {
      c.label = ".";
      continue;
    }
    c.value = g.value[i];
    c.label = g.prefix + std::to_string(g.value[i]) + (marked ? "!" : "");
    c.fill = marked ? mix(category_color(g.value[i]), Rgb{255, 40, 40}, 0.25) : category_color(g.value[i]);
  }
  p.row_axis.side = AxisLabels::Side::kLeft;
  for (int64_t r = 0; r < g.rows; ++r) p.row_axis.text.push_back(std::to_string(r));
  p.col_axis.side = AxisLabels::Side::kTop;
  for (int64_t c = 0; c < g.cols; ++c) p.col_axis.text.push_back(std::to_string(c));
  s.panels.push_back(std::move(p));
  return s;
}

}  // namespace cutevis
