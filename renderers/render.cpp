#include "renderers/render.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "lib/error.hpp"
#include "lib/float_text.hpp"
#include "renderers/backends.hpp"

namespace cutevis {

namespace {

// CuTe's pictures have no colour keys: the scene without them.
const Scene& without_keys(const Scene& scene, Scene& storage) {
  bool any = false;
  for (const Panel& p : scene.panels) any |= p.role == PanelRole::kKey;
  if (!any) return scene;
  storage = scene;
  std::erase_if(storage.panels, [](const Panel& p) { return p.role == PanelRole::kKey; });
  return storage;
}

// --- text every backend can carry ---------------------------------------------------
// Scene text comes from the user (an expression's comment, a file's name): invalid UTF-8
// becomes U+FFFD and control characters a visible \xNN, so an SVG stays XML and a text
// table sends no terminal escapes.  Cell labels keep their '\n' (line breaks).

// The length of the valid UTF-8 sequence at s[i], or 0.
size_t utf8_length(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  uint32_t cp = 0;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  if (cp >= 0x80 && cp <= 0x9F) return 0;  // C1 controls: escaped as bytes below
  return n;
}

bool clean(std::string_view s, bool newlines) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      ++i;
      continue;
    }
    if (c == '\n' && newlines) {
      ++i;
      continue;
    }
    const size_t n = c >= 0x80 ? utf8_length(s, i) : 0;
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void clean_into(std::string& s, bool newlines) {
  if (clean(s, newlines)) return;
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c >= 0x20 && c < 0x7f) || (c == '\n' && newlines)) {
      out += s[i++];
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      out += "\\x" + hex_text(c, 2);
      ++i;
      continue;
    }
    const size_t n = utf8_length(s, i);
    if (n == 0) {
      // C1 controls (U+0080-U+009F, two bytes) and bytes that are not UTF-8: U+FFFD
      const bool c1 = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                      static_cast<unsigned char>(s[i + 1]) <= 0x9F;
      out += "\xEF\xBF\xBD";
      i += c1 ? 2 : 1;
      continue;
    }
    out.append(s, i, n);
    i += n;
  }
  s = std::move(out);
}

bool scene_is_clean(const Scene& scene) {
  if (!clean(scene.title, false)) return false;
  for (const std::string& l : scene.legend)
    if (!clean(l, false)) return false;
  for (const Panel& p : scene.panels) {
    if (!clean(p.name, false) || !clean(p.cute_text, false) || !clean(p.caption, false)) return false;
    for (const AxisLabels* a : {&p.row_axis, &p.col_axis})
      for (const std::string& t : a->text)
        if (!clean(t, false)) return false;
    for (const Cell& c : p.cells)
      if (!clean(c.label, true) || !clean(c.tooltip, true)) return false;
  }
  return true;
}

void clean_scene(Scene& scene) {
  clean_into(scene.title, false);
  for (std::string& l : scene.legend) clean_into(l, false);
  for (Panel& p : scene.panels) {
    clean_into(p.name, false);
    clean_into(p.cute_text, false);
    clean_into(p.caption, false);
    for (AxisLabels* a : {&p.row_axis, &p.col_axis})
      for (std::string& t : a->text) clean_into(t, false);
    for (Cell& c : p.cells) {
      clean_into(c.label, true);
      clean_into(c.tooltip, true);
    }
  }
}

}  // namespace

std::string clean_text(std::string text, bool keep_newlines) {
  clean_into(text, keep_newlines);
  return text;
}

std::string render(const Scene& scene_in, Format format, const RenderOptions& options) {
  const bool cute = options.style == Style::kCute;
  if (cute && scene_in.kind == SceneKind::kDiff)
    throw Error("CuTe has no picture of a verify report: use the default style");
  if (!(options.scale > 0 && options.scale <= 16)) throw Error("--scale must be in (0, 16]");
  if (options.cell != 0 && !(options.cell >= 2 && options.cell <= 512))
    throw Error("--cell must be between 2 and 512 px");
  Scene storage, cleaned;
  const Scene* source = &scene_in;
  if (!scene_is_clean(scene_in)) {
    cleaned = scene_in;
    clean_scene(cleaned);
    source = &cleaned;
  }
  const Scene& scene = cute ? without_keys(*source, storage) : *source;
  switch (format) {
    case Format::kTex: return cute ? detail::render_tikz_cute(scene) : detail::render_tikz(scene);
    case Format::kSvg: return cute ? detail::render_svg_cute(scene) : detail::render_svg(scene, options);
    case Format::kTxt: return cute ? detail::render_text_cute(scene) : detail::render_text(scene, options);
    case Format::kPng:
    case Format::kPdf:
      if (cute) throw Error("CuTe draws no PNG or PDF: --style cute applies to --tex, --svg and --txt");
      return detail::render_cairo(scene, format, options);
    case Format::kHtml:
      if (cute) throw Error("CuTe draws no HTML: --style cute applies to --tex, --svg and --txt");
      return detail::render_html(scene, options);
  }
  throw Error("unknown format");
}

Format parse_format(const std::string& text) {
  if (text == "tex" || text == "tikz") return Format::kTex;
  if (text == "svg") return Format::kSvg;
  if (text == "png") return Format::kPng;
  if (text == "pdf") return Format::kPdf;
  if (text == "txt" || text == "text") return Format::kTxt;
  if (text == "html" || text == "htm") return Format::kHtml;
  throw Error("unknown format '" + text + "': expected tex, svg, png, pdf, txt or html");
}

std::optional<Format> format_of_path(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot + 1 == path.size())
    return std::nullopt;
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "json") return std::nullopt;  // not a picture: the caller's --json
  try {
    return parse_format(ext);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string format_name(Format format) { return file_extension(format).substr(1); }

Style parse_style(const std::string& text) {
  if (text == "default") return Style::kDefault;
  if (text == "cute") return Style::kCute;
  throw Error("unknown style '" + text + "': expected default or cute");
}

std::string file_extension(Format format) {
  switch (format) {
    case Format::kTex: return ".tex";
    case Format::kSvg: return ".svg";
    case Format::kPng: return ".png";
    case Format::kPdf: return ".pdf";
    case Format::kTxt: return ".txt";
    case Format::kHtml: return ".html";
  }
  return "";
}

namespace {
std::string number(double v) { return general_text(v); }  // printf's %g
}  // namespace

LabelFit fit_labels(const Scene& scene, Format format, const RenderOptions& opt) {
  constexpr double kAdvance = 0.6;  // DejaVu Sans Mono and most monospace fonts: 0.6 em
  const bool png = format == Format::kPng, pdf = format == Format::kPdf;
  const double base = png ? 28 : pdf ? 20 : 30;  // the cell of a picture whose labels fit anyway
  const double max_font = png || pdf ? 13 : 11;
  LabelFit fit;
  const double wanted = opt.cell > 0 ? opt.cell : std::max(base, detail::cell_for_labels(scene, kMinLabelPx, kAdvance));
  fit.cell = png || pdf ? wanted : std::round(wanted);
  const Scene::Bounds b = scene.bounds();
  const double cols = static_cast<double>(b.cols()), rows = static_cast<double>(b.rows());
  if (png) {
    // The text block (title 16 px, legend 13 px lines, monospace) beside and under the grid.
    size_t chars = detail::display_width(scene.title) * 16 / 13;
    for (const auto& line : scene.legend) chars = std::max(chars, detail::display_width(line));
    const double text_w = static_cast<double>(chars) * kAdvance * 13 + 120, margin = 12;
    const double text_h = (scene.title.empty() ? 0 : 28) + 8 + 19 * static_cast<double>(scene.legend.size() + 2);
    const double s = opt.scale, side = static_cast<double>(opt.max_png_side),
                 budget = static_cast<double>(opt.max_png_pixels);
    auto area = [&](double u) {
      return (std::max(cols * u, text_w) + 2 * margin) * s * (rows * u + text_h + 2 * margin) * s;
    };
    double cell = std::min(
        {wanted, std::floor((side / s - 2 * margin) / cols), std::floor((side / s - 2 * margin - text_h) / rows)});
    while (cell > 1 && area(cell) > budget) cell -= 1;
    if (cell < 1 || area(cell) > budget)
      throw Error("the picture has " + std::to_string(b.rows()) + " x " + std::to_string(b.cols()) +
                  " cells: too large for a PNG of " + std::to_string(opt.max_png_pixels) +
                  " pixels; use --svg, --html, --pdf or --tex");
    if (cell < wanted)
      fit.limit_note = "cells shrunk from " + number(wanted) + " to " + number(cell) + " px to stay under " +
                       std::to_string(opt.max_png_side) + " px a side and " +
                       std::to_string(opt.max_png_pixels / 1'000'000) + " megapixels";
    fit.cell = cell;
  } else if (pdf) {
    constexpr double kMaxPdfSide = 14000;  // points; PDF viewers stop at 14,400 (200 inches)
    fit.cell = std::min(wanted, (kMaxPdfSide / opt.scale - 24) / std::max(cols, rows));
    if (fit.cell < wanted)
      fit.limit_note =
          "cells shrunk from " + number(wanted) + " to " + number(fit.cell) + " pt to keep the page under 200 inches";
  }
  for (const Panel& p : scene.panels) {
    fit.label_font.push_back(detail::fitting_font_size(detail::label_extent(p), fit.cell, kAdvance, max_font));
    if (fit.label_font.back() < kMinLabelPx - 1e-9 && !p.cells.empty())
      fit.omitted.push_back(p.name.empty() ? "cells" : p.name);
  }
  return fit;
}

bool terminal_wants_color(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(fd) != 0;
}

namespace detail {

Out& Out::operator<<(double v) {
  // Fixed point with at most 4 decimals, trailing zeros dropped: 12.5, 3, 0.3333.
  int64_t scaled = std::llround(v * 10000.0);
  if (scaled < 0) {
    buf_ += '-';
    scaled = -scaled;
  }
  *this << scaled / 10000;
  int64_t frac = scaled % 10000;
  if (frac) {
    char digits[5] = {'.', 0, 0, 0, 0};
    int n = 1;
    for (int64_t div = 1000; div > 0 && frac; div /= 10, ++n) {
      digits[n] = static_cast<char>('0' + frac / div);
      frac %= div;
    }
    buf_.append(digits, static_cast<size_t>(n));
  }
  return *this;
}

std::vector<std::string> split_lines(const std::string& label) {
  std::vector<std::string> lines;
  if (label.empty()) return lines;
  size_t start = 0;
  while (true) {
    size_t nl = label.find('\n', start);
    lines.push_back(label.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return lines;
}

size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
  return n;
}

LabelExtent label_extent(const Panel& panel) {
  LabelExtent e;
  for (const Cell& cell : panel.cells) {
    if (cell.label.empty()) continue;
    size_t lines = 1, width = 0;
    for (unsigned char ch : cell.label) {
      if (ch == '\n') {
        e.chars = std::max(e.chars, width);
        width = 0;
        ++lines;
      } else {
        width += (ch & 0xC0) != 0x80;  // UTF-8 code points
      }
    }
    e.chars = std::max(e.chars, width);
    e.lines = std::max(e.lines, lines);
  }
  return e;
}

double cell_for_labels(const LabelExtent& extent, double font, double advance) {
  if (extent.chars == 0) return 0;
  return std::ceil(std::max(advance * font * static_cast<double>(extent.chars) / 0.86,
                            1.18 * font * static_cast<double>(extent.lines) / 0.84));
}

double cell_for_labels(const Scene& scene, double font, double advance) {
  double cell = 0;
  for (const Panel& p : scene.panels) cell = std::max(cell, cell_for_labels(label_extent(p), font, advance));
  return cell;
}

double fitting_font_size(const LabelExtent& extent, double cell, double advance, double max_size) {
  if (extent.chars == 0) return max_size;
  const double by_width = 0.86 * cell / (advance * static_cast<double>(extent.chars));
  const double by_height = 0.84 * cell / (1.18 * static_cast<double>(extent.lines));
  return std::min({by_width, by_height, max_size});
}

std::vector<std::pair<int64_t, int64_t>> cute_order(const Panel& panel) {
  struct Entry {
    int64_t thr, val, r, c;
  };
  std::vector<Entry> entries;
  entries.reserve(static_cast<size_t>(panel.rows * panel.cols));
  for (int64_t c = 0; c < panel.cols; ++c)
    for (int64_t r = 0; r < panel.rows; ++r) {
      auto owners = panel.owners(r, c);
      if (!owners.empty()) entries.push_back({owners[0].thr, owners[0].val, r, c});
    }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.thr != b.thr ? a.thr < b.thr : a.val < b.val; });
  std::vector<std::pair<int64_t, int64_t>> order;
  order.reserve(entries.size());
  for (const Entry& e : entries) order.emplace_back(e.r, e.c);
  return order;
}

void check_cute_rank(const Scene& scene) {
  if (scene.layout_rank > 2)
    throw Error("CuTe's print_latex and print_layout draw layouts of rank <= 2; draw rank " +
                std::to_string(scene.layout_rank) + " with the default style");
}

std::string cute_tile_text(const Scene& scene) { return to_string(scene.tile, /*underscore=*/true); }

std::string cell_description(const Panel& panel, int64_t r, int64_t c) {
  if (!panel.cell(r, c).tooltip.empty()) return panel.cell(r, c).tooltip;
  if (panel.role == PanelRole::kLayout) {
    const Cell& cell = panel.cell(r, c);
    std::string value = cell.label.substr(0, cell.label.find('\n'));
    std::string s = "(" + std::to_string(r) + "," + std::to_string(c) + ") -> " + value;
    if (cell.label.find('\n') != std::string::npos) s += ", bank " + cell.label.substr(cell.label.find('\n') + 2);
    return s;
  }
  // Coordinates in the TV's own tile: B is (N,K) although drawn K x N.
  const int64_t m = panel.transposed ? c : r, n = panel.transposed ? r : c;
  const int64_t extent = panel.transposed ? panel.cols : panel.rows;
  std::string s = panel.name + "(" + std::to_string(m) + "," + std::to_string(n) + ") index " +
                  std::to_string(m + extent * n) + ": ";
  auto owners = panel.owners(r, c);
  s += owners.empty() ? "no owner" : describe_owners(owners);
  return s;
}

}  // namespace detail

}  // namespace cutevis
