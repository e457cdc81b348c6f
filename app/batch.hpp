// cutevis — batch specs: many pictures from one JSON file in one process, for
// documentation images generated in CI (see samples/docs.json).
//
//   {"pictures": [
//     {"command": "atom", "input": "SM70_8x8x4_F32F16F16F32_NT", "format": "svg",
//      "output": "sm70.svg"},
//     {"command": "layout", "input": "S<3,4,3> o 0 o (8,64):(64,1)", "format": "png",
//      "output": "swizzle.png", "color_by": "bank", "element_bits": 16},
//     {"command": "mma", "input": "make_tiled_mma(...)", "format": "tex", "style": "cute",
//      "output": "mma.tex", "threads": "0-3"},
//     {"command": "tv", "input": "((4,8),4):((8,1),32)", "tile": "(32,4)", ...}]}
//
// command: layout | tv | atom | mma | copy; format: tex | svg | png | pdf | txt | json;
// optional: style, color_by, threads, element_bits, tile (for tv), from ("FILE" or
// ["FILE", ...]) and defines (["NAME=VALUE", ...]) as --from and -D (app/sources.hpp).  Output paths are
// relative to the output folder.
#pragma once

#include <string>
#include <vector>

namespace cutevis {

struct BatchResult {
  std::vector<std::string> written;  // the files written, in order
};

// Reads the spec, draws every picture and writes each file atomically.  Throws Error
// naming the entry ("pictures[3] (atom ...): ...") on the first bad one.
BatchResult run_batch(const std::string& spec_path, const std::string& output_dir);

}  // namespace cutevis
