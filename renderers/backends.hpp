// cutevis — the backends behind render() (internal to renderers/).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "renderers/render.hpp"
#include "renderers/scene.hpp"

namespace cutevis::detail {

std::string render_tikz(const Scene& scene);
std::string render_tikz_cute(const Scene& scene);
std::string render_svg_cute(const Scene& scene);
std::string render_text(const Scene& scene, const RenderOptions& options);
std::string render_text_cute(const Scene& scene);
std::string render_cairo(const Scene& scene, Format format, const RenderOptions& options);  // kPng, kPdf
std::string render_svg(const Scene& scene, const RenderOptions& options);
// The default SVG; interactive: for the HTML page.  Given cells_json, a big page's
// cells are written there as data instead of as elements (see svg.cpp).
std::string svg_document(const Scene& scene, const RenderOptions& options, bool interactive,
                         std::string* cells_json = nullptr);
std::string render_html(const Scene& scene, const RenderOptions& options);

// --- shared helpers -------------------------------------------------------------------------
// An append-only byte buffer with cheap integer formatting.
class Out {
 public:
  Out& operator<<(std::string_view s) {
    buf_.append(s);
    return *this;
  }
  Out& operator<<(char c) {
    buf_.push_back(c);
    return *this;
  }
  Out& operator<<(int64_t v) {
    char tmp[24];
    auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, res.ptr);
    return *this;
  }
  Out& operator<<(int v) { return *this << static_cast<int64_t>(v); }
  Out& operator<<(double v);  // shortest of %.4g-like fixed output ("12.5", "0.3333")
  std::string take() { return std::move(buf_); }
  std::string& str() { return buf_; }

 private:
  std::string buf_;
};

// Label lines of a cell ("T0\nV1" -> {"T0", "V1"}).
std::vector<std::string> split_lines(const std::string& label);
// Characters on screen (UTF-8 code points).
size_t display_width(const std::string& s);
// The longest label line and the most lines over the cells of a panel.
struct LabelExtent {
  size_t chars = 0;
  size_t lines = 0;
};
LabelExtent label_extent(const Panel& panel);
// The font size (in the unit of `cell`) that fits `extent` into a cell of size `cell`
// for a font whose glyphs advance `advance` em, capped at `max_size`.
double fitting_font_size(const LabelExtent& extent, double cell, double advance, double max_size);
// The least cell size (same unit as `font`) in which `extent` fits at `font`: the
// inverse of fitting_font_size.  Over a scene: the largest any panel needs.
double cell_for_labels(const LabelExtent& extent, double font, double advance);
double cell_for_labels(const Scene& scene, double font, double advance);
// The cells of a TV panel in CuTe's drawing order: by first owner, threads outer,
// values inner (print_latex's loop with its `filled` check).  Unowned cells are left out.
std::vector<std::pair<int64_t, int64_t>> cute_order(const Panel& panel);
// The CuTe picture's Tile: "(_8,_8,_4)".
std::string cute_tile_text(const Scene& scene);
// CuTe's print_latex and print_layout take layouts of rank <= 2 only.
void check_cute_rank(const Scene& scene);
// A cell's tooltip: coordinate, index and every owner (or the layout's value).
std::string cell_description(const Panel& panel, int64_t r, int64_t c);

}  // namespace cutevis::detail
