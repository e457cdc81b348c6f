#include "renderers/panels.hpp"

#include "lib/error.hpp"
#include "renderers/palette.hpp"

namespace cutevis {

Scene grid_panels_scene(const std::string& title, const std::vector<GridPanel>& panels,
                        const std::vector<std::string>& legend, GridColours colours) {
  Scene s;
  s.kind = SceneKind::kDiff;  // panels of our own, no CuTe counterpart (the CuTe style refuses them)
  s.title = title;
  s.legend = legend;
  int64_t col0 = 0;
  for (const GridPanel& g : panels) {
    const size_t n = static_cast<size_t>(g.rows * g.cols);
    if (g.rows <= 0 || g.cols <= 0 || g.labels.size() != n || g.colour.size() != n ||
        (!g.tooltips.empty() && g.tooltips.size() != n))
      throw Error("panel " + g.name + ": " + std::to_string(g.labels.size()) + " labels for " + std::to_string(g.rows) +
                  " x " + std::to_string(g.cols) + " cells");
    Panel p;
    p.role = PanelRole::kLayout;
    p.name = g.name;
    p.rows = g.rows;
    p.cols = g.cols;
    p.col0 = col0;
    p.cells.resize(n);
    p.row_rules.assign(static_cast<size_t>(g.rows) + 1, 0);
    p.col_rules.assign(static_cast<size_t>(g.cols) + 1, 0);
    if (g.row_block > 0)
      for (int64_t r = g.row_block; r < g.rows; r += g.row_block) p.row_rules[static_cast<size_t>(r)] = 1;
    if (g.col_block > 0)
      for (int64_t c = g.col_block; c < g.cols; c += g.col_block) p.col_rules[static_cast<size_t>(c)] = 1;
    p.row_axis.side = AxisLabels::Side::kLeft;
    for (int64_t r = 0; r < g.rows; ++r) p.row_axis.text.push_back(std::to_string(r));
    p.col_axis.side = AxisLabels::Side::kTop;
    for (int64_t c = 0; c < g.cols; ++c) p.col_axis.text.push_back(std::to_string(c));
    p.caption = g.caption;
    p.caption_row = -2;
    p.caption_col = static_cast<double>(col0) + static_cast<double>(g.cols) / 2 - 0.5;
    for (size_t i = 0; i < n; ++i) {
      Cell& c = p.cells[i];
      c.label = g.labels[i];
      if (g.colour[i] >= 0)
        c.fill = colours == GridColours::kThread ? thread_color(g.colour[i]) : category_color(g.colour[i]);
      if (!g.tooltips.empty()) {
        const int64_t r = static_cast<int64_t>(i) % g.rows, col = static_cast<int64_t>(i) / g.rows;
        c.tooltip = g.name + "(" + g.row_name + std::to_string(r) + "," + g.col_name + std::to_string(col) +
                    "): " + g.tooltips[i];
      }
    }
    col0 += g.cols + 3;
    s.panels.push_back(std::move(p));
  }
  return s;
}

}  // namespace cutevis
