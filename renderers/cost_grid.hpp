// cutevis — a tensor's cells coloured by a number per cell that the caller computed (the
// inspector's --color-by conflict / sector): the renderers only colour what they are given.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "renderers/scene.hpp"

namespace cutevis {

struct CostGrid {
  std::string title;                // the command's expression
  std::string prefix;               // label prefix: "w" (wavefront), "s" (sector)
  int64_t rows = 0, cols = 0;       // the (M,N) tensor
  std::vector<int64_t> value;       // per cell (m + M*n): the number to colour by; -1 untouched
  std::vector<int64_t> marked;      // per cell: 1 draws it marked (a conflicting instruction)
  std::vector<std::string> legend;  // what the colours and marks mean
};

// One layout-style panel, cell (m,n) labelled PREFIX<value> ("!" when marked), filled by the
// palette's category colour per value, marked cells tinted red, untouched cells white.
Scene cost_grid_scene(const CostGrid& grid);

}  // namespace cutevis
