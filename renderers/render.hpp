// cutevis — backends: a Scene to the bytes of one format.
//
//   std::string bytes = render(scene, Format::kSvg, {.style = Style::kCute});
//
// Formats: TikZ (a standalone LaTeX document for pdflatex), SVG, PNG and PDF
// (through Cairo, when built with it: png_supported()), a text table in the
// style of CuTe's print_layout (ANSI colours when asked), and HTML (the SVG with a
// small script: hover, thread highlighting, zoom; one self-contained file).
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
#include <optional>
#include <string>
#include <vector>

#include "renderers/scene.hpp"

namespace cutevis {

enum class Format { kTex, kSvg, kPng, kPdf, kTxt, kHtml };
enum class Style { kDefault, kCute };

struct RenderOptions {
  Style style = Style::kDefault;
  bool ansi_color = false;  // kTxt: colour cells with ANSI escapes
  // kPng: cells are as large as the longest label needs at 9 px (times `scale`), and
  // shrink (labels dropped, said in the legend) only past these limits.  The image is
  // drawn in bands, so memory stays small whatever its size.
  int64_t max_png_pixels = 400'000'000;
  int64_t max_png_side = 32'768;
  double scale = 1.0;  // --scale: PNG pixels per unit, SVG/PDF size factor
  double cell = 0;     // --cell: cell size in px (pt for PDF); 0 = from the labels
};

// The least label font, in px at scale 1 (PNG) or in SVG user units: labels are never smaller.
constexpr double kMinLabelPx = 9.0;

// How a picture's cells and labels are sized in PNG, PDF, SVG and HTML: cells as large
// as the longest label needs at kMinLabelPx (or --cell), each panel's labels as large
// as its own longest label allows, and only past a format's size limit smaller cells,
// whose panels then go without labels (the legend says so).
struct LabelFit {
  double cell = 0;                   // PNG px at scale 1, PDF pt, SVG user units
  std::vector<double> label_font;    // per panel of the scene
  std::vector<std::string> omitted;  // panels drawn without labels ("C", "A", "cells")
  std::string limit_note;            // why cells are smaller than the labels need, or ""
};
LabelFit fit_labels(const Scene& scene, Format format, const RenderOptions& options = {});

// The bytes of `scene` in `format`.  Throws Error for what cannot be drawn (PNG/PDF
// without Cairo, CuTe style for a picture CuTe cannot make, ...).
// Every text of the scene is made safe first (clean_text): invalid UTF-8 as U+FFFD,
// control characters as \xNN.
std::string render(const Scene& scene, Format format, const RenderOptions& options = {});

// `text` as valid UTF-8 without control characters (kept: '\n' when keep_newlines).
std::string clean_text(std::string text, bool keep_newlines = false);

// Whether PNG and PDF are available (cutevis built with Cairo).
bool png_supported();

Format parse_format(const std::string& text);  // "tex", "svg", "png", "pdf", "txt", "html"
// The format a file name asks for by its extension (".png" -> kPng, ".tikz" -> kTex),
// or none (no extension, or one that is no picture format).
std::optional<Format> format_of_path(const std::string& path);
std::string format_name(Format format);      // "tex", "svg", ...
Style parse_style(const std::string& text);  // "default", "cute"
std::string file_extension(Format format);   // ".tex", ".svg", ...

// ANSI colour for the text format: `fd` is a terminal and NO_COLOR is unset or empty.
bool terminal_wants_color(int fd);

}  // namespace cutevis
