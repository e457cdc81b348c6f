// cutevis — side-by-side grids whose every cell the caller has labelled and coloured: the
// pictures of tensor memory (`cutevis tmem`) and of block-scaled scale factors (`mma --sf`).
// The caller (app/) computed every number from the algebra; a renderer only places and colours.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "renderers/scene.hpp"

namespace cutevis {

struct GridPanel {
  std::string name;      // "TMEM", "C", "A", "SFA gmem", ...
  std::string caption;   // drawn above the panel
  std::string row_name;  // axis names for tooltips: "lane", "m"
  std::string col_name;
  int64_t rows = 0, cols = 0;
  std::vector<std::string> labels;       // per cell r + rows*c; "" leaves it blank
  std::vector<int64_t> colour;           // per cell: a category (palette's thread colour by default); -1 blank
  std::vector<std::string> tooltips;     // per cell, optional
  int64_t row_block = 0, col_block = 0;  // heavier rules every row_block rows / col_block columns (0: none)
};

enum class GridColours { kThread, kCategory };

// Panels left to right, three cells apart; cells coloured by thread_color (kThread) or category_color.
Scene grid_panels_scene(const std::string& title, const std::vector<GridPanel>& panels,
                        const std::vector<std::string>& legend, GridColours colours = GridColours::kThread);

}  // namespace cutevis
