// cutevis — backends: a Scene to the bytes of one format.
//
//   std::string bytes = render(scene, Format::kSvg, {.style = Style::kCute});
//
// Formats: TikZ (a standalone LaTeX document for pdflatex), SVG, PNG and PDF
// (through Cairo, when built with it: png_supported()), and a text table in the
// style of CuTe's print_layout (ANSI colours when asked).
//
// Styles:
//   kDefault  legend and title, every owner shown (ranges or counts, all of them in
//             SVG tooltips), thread highlighting, compact TikZ that pdflatex compiles
//             at any size (rows of short macros frozen into PDF forms as they are read).
//   kCute     CuTe's print_latex / print_svg / print_layout byte for byte, and the same
//             look for the SVGs CuTe lacks (layouts, TV layouts, copies).  It labels each
//             cell with its first owner only, as CuTe does; CuTe draws no PNG or PDF.
#pragma once

#include <cstdint>
#include <string>

#include "renderers/scene.hpp"

namespace cutevis {

enum class Format { kTex, kSvg, kPng, kPdf, kTxt };
enum class Style { kDefault, kCute };

struct RenderOptions {
  Style style = Style::kDefault;
  bool ansi_color = false;               // kTxt: colour cells with ANSI escapes
  int64_t max_png_pixels = 16'000'000;   // kPng: cells shrink to keep the image under this
  int64_t max_png_side = 16'384;         //       and under this many pixels a side
};

// The bytes of `scene` in `format`.  Throws Error for what cannot be drawn (PNG/PDF
// without Cairo, CuTe style for a picture CuTe cannot make, ...).
std::string render(const Scene& scene, Format format, const RenderOptions& options = {});

// Whether PNG and PDF are available (cutevis built with Cairo).
bool png_supported();

Format parse_format(const std::string& text);  // "tex", "svg", "png", "pdf", "txt"
Style parse_style(const std::string& text);    // "default", "cute"
std::string file_extension(Format format);     // ".tex", ".svg", ...

// ANSI colour for the text format: `fd` is a terminal and NO_COLOR is unset or empty.
bool terminal_wants_color(int fd);

}  // namespace cutevis
