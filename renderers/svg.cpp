// SVG: CuTe's print_svg (style cute) and a self-contained picture with tooltips (default).
#include <algorithm>
#include <cmath>

#include "lib/error.hpp"
#include "renderers/backends.hpp"
#include "renderers/palette.hpp"
#include "renderers/views.hpp"

namespace cutevis::detail {

namespace {

// ---------------------------------------------------------------------------------------
// Style cute: include/cute/util/print_svg.hpp.  CuTe draws MMAs only; layouts, TV
// layouts and copies get the same look (cells of 20, T/V at font 8, indices at 12).
// ---------------------------------------------------------------------------------------

constexpr int64_t kCuteCell = 20;

// TSVGColor_BWx8: a layout's colour of index idx.
const char* svg_bw8(int64_t idx) {
  static const char* map[8] = {"255,255,255", "230,230,230", "205,205,205", "180,180,180",
                               "155,155,155", "130,130,130", "105,105,105", "080,080,080"};
  return map[((idx % 8) + 8) % 8];
}

struct CuteFrame {
  int64_t row_min, col_min;
  int64_t x(int64_t col) const { return (col - col_min) * kCuteCell; }
  int64_t y(int64_t row) const { return (row - row_min) * kCuteCell; }
};

void cute_svg_open(Out& o, const Scene::Bounds& b) {
  o << "<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 " << b.cols() * kCuteCell << " " << b.rows() * kCuteCell
    << "\" preserveAspectRatio=\"xMidYMid meet\" xmlns=\"http://www.w3.org/2000/svg\">\n";
}

void cute_svg_rect(Out& o, int64_t x, int64_t y, const std::string& fill, bool spaced_close) {
  o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCuteCell << "\" height=\"" << kCuteCell
    << "\" fill=\"rgb(" << fill << ")\" stroke=\"black\"" << (spaced_close ? " />\n" : "/>\n");
}

void cute_svg_text(Out& o, int64_t x, int64_t y, int font, const std::string& prefix, int64_t value) {
  o << "<text x=\"" << x << "\" y=\"" << y << "\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\""
    << font << "\">" << prefix << value << "</text>\n";
}

// print_svg_mma draws C's rects with "/>" and A's and B's with " />".
void cute_svg_tv_cells(Out& o, const Panel& p, const CuteFrame& f, bool spaced_close) {
  for (auto [r, c] : cute_order(p)) {
    const Owner first = p.owners(r, c)[0];
    const Rgb color = cute_tv_color(first.thr);
    const int64_t x = f.x(p.col0 + c), y = f.y(p.row0 + r);
    cute_svg_rect(o, x, y, std::to_string(color.r) + "," + std::to_string(color.g) + "," + std::to_string(color.b),
                  spaced_close);
    cute_svg_text(o, x + kCuteCell / 2, y + 1 * kCuteCell / 4, 8, "T", first.thr);
    cute_svg_text(o, x + kCuteCell / 2, y + 3 * kCuteCell / 4, 8, "V", first.val);
  }
}

void cute_svg_axis_label(Out& o, const CuteFrame& f, int64_t row, int64_t col, const std::string& text) {
  o << "<text x=\"" << f.x(col) + kCuteCell / 2 << "\" y=\"" << f.y(row) + kCuteCell / 2
    << "\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"12\">" << text << "</text>\n";
}

void cute_svg_labels(Out& o, const Panel& p, const CuteFrame& f) {
  auto rows = [&] {
    if (p.row_axis.side == AxisLabels::Side::kNone) return;
    const int64_t col = p.row_axis.side == AxisLabels::Side::kRight ? p.col0 + p.cols : p.col0 - 1;
    for (int64_t r = 0; r < p.rows; ++r)
      cute_svg_axis_label(o, f, p.row0 + r, col, p.row_axis.text[static_cast<size_t>(r)]);
  };
  auto cols = [&] {
    if (p.col_axis.side == AxisLabels::Side::kNone) return;
    for (int64_t c = 0; c < p.cols; ++c)
      cute_svg_axis_label(o, f, p.row0 - 1, p.col0 + c, p.col_axis.text[static_cast<size_t>(c)]);
  };
  if (p.col_axis_first) {
    cols();
    rows();
  } else {
    rows();
    cols();
  }
}

// ---------------------------------------------------------------------------------------
// Default style.
// ---------------------------------------------------------------------------------------

constexpr int64_t kMargin = 12;
constexpr int64_t kLazyCells = 6000;  // HTML: beyond this many cells, cells painted on canvases, elements made on zoom
constexpr double kTitleFont = 15, kLegendFont = 12, kCaptionFont = 14;
constexpr double kAdvance = 0.6;  // DejaVu Sans Mono and most monospace fonts: 0.6 em

// Text for XML character data and attribute values.
void xml_text(Out& o, std::string_view s) {
  size_t plain = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    const char* entity = nullptr;
    switch (ch) {
      case '&': entity = "&amp;"; break;
      case '<': entity = "&lt;"; break;
      case '>': entity = "&gt;"; break;
      case '"': entity = "&quot;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) entity = " ";  // XML 1.0 forbids control characters
    }
    if (!entity) continue;
    o << s.substr(plain, i - plain) << entity;
    plain = i + 1;
  }
  o << s.substr(plain);
}

// A label's lines as one attribute value: its line breaks as &#10; (an attribute keeps
// them; xml_text would make them spaces).
void label_attribute(Out& o, const std::string& label) {
  const std::vector<std::string> lines = split_lines(label);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) o << "&#10;";
    xml_text(o, lines[i]);
  }
}

std::string xml_escape(const std::string& s) {
  Out o;
  xml_text(o, s);
  return o.take();
}

// A text centred on a cell: lines stacked around its middle.
void centred_lines(Out& o, double cx, double cy, double font, const std::vector<std::string>& lines, const char* cls) {
  const double step = 1.15 * font, n = static_cast<double>(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const double baseline = cy + (static_cast<double>(i) - (n - 1) / 2) * step + 0.35 * font;
    o << "<text class=\"" << cls << "\" x=\"" << cx << "\" y=\"" << baseline << "\">";
    xml_text(o, lines[i]);
    o << "</text>\n";
  }
}

}  // namespace

std::string render_svg_cute(const Scene& scene) {
  const Scene::Bounds b = scene.bounds(/*with_captions=*/false);
  const CuteFrame f{b.row_min, b.col_min};
  Out o;
  switch (scene.kind) {
    case SceneKind::kMma: {
      const Panel &c = *scene.find("C"), &a = *scene.find("A"), &bp = *scene.find("B");
      o << "<!--  Tile: " << cute_tile_text(scene) << "  -->\n";
      o << "<!--     A: " << a.cute_text << "  -->\n";
      o << "<!--     B: " << bp.cute_text << "  -->\n";
      o << "<!--     C: " << c.cute_text << "  -->\n";
      cute_svg_open(o, b);
      cute_svg_tv_cells(o, c, f, false);
      cute_svg_tv_cells(o, a, f, true);
      cute_svg_labels(o, a, f);
      cute_svg_tv_cells(o, bp, f, true);
      cute_svg_labels(o, bp, f);
      break;
    }
    case SceneKind::kCopy: {
      const Panel &s = *scene.find("S"), &d = *scene.find("D");
      o << "<!--  Tile: " << cute_tile_text(scene) << "  -->\n";
      o << "<!--     S: " << s.cute_text << "  -->\n";
      o << "<!--     D: " << d.cute_text << "  -->\n";
      cute_svg_open(o, b);
      for (const Panel* p : {&s, &d}) {
        cute_svg_tv_cells(o, *p, f, false);
        cute_svg_labels(o, *p, f);
      }
      break;
    }
    case SceneKind::kDiff: throw Error("CuTe has no picture of a verify report: use the default style");
    case SceneKind::kTv: {
      const Panel& p = scene.panels.at(0);
      o << "<!--  Tile: " << cute_tile_text(scene) << "  -->\n";
      o << "<!--    TV: " << p.cute_text << "  -->\n";
      cute_svg_open(o, b);
      cute_svg_tv_cells(o, p, f, false);
      cute_svg_labels(o, p, f);
      break;
    }
    case SceneKind::kLayout: {
      check_cute_rank(scene);
      const Panel& p = scene.panels.at(0);
      o << "<!--  Layout: " << p.cute_text << "  -->\n";
      cute_svg_open(o, b);
      for (int64_t r = 0; r < p.rows; ++r)
        for (int64_t c = 0; c < p.cols; ++c) {
          const Cell& cell = p.cell(r, c);
          if (cell.value < 0 && !cell.label.empty() && cell.label[0] == '(')
            throw Error("CuTe's pictures draw integer-valued layouts; this one maps to coordinates");
          const int64_t x = f.x(p.col0 + c), y = f.y(p.row0 + r);
          cute_svg_rect(o, x, y, svg_bw8(cell.value), false);
          cute_svg_text(o, x + kCuteCell / 2, y + kCuteCell / 2, 8, "", cell.value);
        }
      cute_svg_labels(o, p, f);
      break;
    }
  }
  o << "</svg>\n";
  return o.take();
}

namespace {

// A JSON string literal that is also safe inside an HTML <script> element.
void json_string(Out& o, std::string_view s) {
  o << '"';
  for (char ch : s) {
    switch (ch) {
      case '"': o << "\\\""; break;
      case '\\': o << "\\\\"; break;
      case '\n': o << "\\n"; break;
      case '<': o << "\\u003c"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) o << ' ';
        else o << ch;
    }
  }
  o << '"';
}

// A cell's owners as runs "t:v" or "t-u:v" (threads t..u, each with value v), in the
// order the ownership view lists them: the page expands them back into data-owners.
void owner_runs(Out& o, std::span<const Owner> owners) {
  for (size_t i = 0; i < owners.size();) {
    size_t j = i;
    while (j + 1 < owners.size() && owners[j + 1].val == owners[i].val && owners[j + 1].thr == owners[j].thr + 1) ++j;
    if (i) o << ' ';
    o << int64_t{owners[i].thr};
    if (j > i) o << '-' << int64_t{owners[j].thr};
    o << ':' << int64_t{owners[i].val};
    i = j + 1;
  }
}

}  // namespace

// The default SVG, plain (tooltips) or for the HTML page (every cell carries its
// owners in data-owners, its panel and coordinates, and its label in data-label for the
// page to draw on a canvas; no per-cell <title> or <text>).  A page of
// more than kLazyCells cells holds no cell elements: its cells go to `cells_json`
// (fills, owner runs, labels) for the page to paint on canvases and materialise.
std::string svg_document(const Scene& scene, const RenderOptions& options, bool interactive, std::string* cells_json) {
  const Scene::Bounds b = scene.bounds();
  const LabelFit fit = fit_labels(scene, Format::kSvg, options);
  const int64_t kCell = static_cast<int64_t>(fit.cell);
  const std::vector<double>& label_font = fit.label_font;
  std::string unlabelled;
  for (const std::string& name : fit.omitted) unlabelled += (unlabelled.empty() ? "" : ", ") + name;
  size_t axis_chars = 1;
  for (const Panel& p : scene.panels) {
    for (const auto& t : p.row_axis.text) axis_chars = std::max(axis_chars, t.size());
    for (const auto& t : p.col_axis.text) axis_chars = std::max(axis_chars, t.size());
  }
  const double axis_font =
      std::min(11.0, 0.95 * static_cast<double>(kCell) / (kAdvance * static_cast<double>(axis_chars)));

  std::vector<std::string> legend = scene.legend;
  bool owners = false;
  for (const Panel& p : scene.panels) owners |= p.role == PanelRole::kTv || !p.cell(0, 0).tooltip.empty();
  if (!unlabelled.empty())
    legend.push_back("labels omitted (" + unlabelled + "): --cell " + std::to_string(kCell) +
                     " is too small for them at " + std::to_string(static_cast<int>(kMinLabelPx)) +
                     " px; hover a cell for its owners");
  if (owners)
    legend.push_back(interactive ? "hover a cell for every owner; click a cell or type threads to highlight them"
                                 : "hover a cell for every owner (tooltip)");

  const double title_h = scene.title.empty() ? 0 : std::ceil(kTitleFont * 1.6);
  const double legend_h = legend.empty() ? 0 : 8 + std::ceil(kLegendFont * 1.4) * static_cast<double>(legend.size());
  size_t text_chars = static_cast<size_t>(static_cast<double>(display_width(scene.title)) * kTitleFont / kLegendFont);
  for (const auto& line : legend) text_chars = std::max(text_chars, display_width(line));
  const int64_t grid_w = b.cols() * kCell, grid_h = b.rows() * kCell;
  const int64_t width =
      2 * kMargin + std::max<int64_t>(grid_w, static_cast<int64_t>(
                                                  std::ceil(static_cast<double>(text_chars) * kAdvance * kLegendFont)));
  const int64_t height = 2 * kMargin + static_cast<int64_t>(title_h + legend_h) + grid_h;
  const int64_t x0 = kMargin - b.col_min * kCell;
  const int64_t y0 = kMargin + static_cast<int64_t>(title_h) - b.row_min * kCell;

  // A page with thousands of cells holds them as data (cells_json): a browser takes
  // about 3 s to parse, style, lay out and paint 75,000 SVG rectangles, and well under
  // one to paint the same cells on one canvas per panel (1 px a cell, scaled by CSS)
  // and to make elements for the few thousand cells on screen once zoomed in.
  const bool lazy = interactive && cells_json && scene.cell_count() > kLazyCells;
  Out o;
  o.str().reserve(static_cast<size_t>(lazy ? 0 : scene.cell_count()) * (interactive ? 160 : 220) + 4096);
  if (!interactive) o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\"" << (interactive ? " id=\"picture\"" : "")
    << (lazy ? " class=\"lazy\"" : "") << " data-cell=\"" << kCell << "\" width=\""
    << static_cast<double>(width) * options.scale << "\" height=\"" << static_cast<double>(height) * options.scale
    << "\" viewBox=\"0 0 " << width << " " << height << "\">\n";
  o << "<title>" << xml_escape(scene.title) << "</title>\n";
  o << "<style>\n"
    << "text{font-family:'DejaVu Sans Mono',Menlo,Consolas,'Liberation Mono',monospace;fill:#000}\n"
    << ".c{text-anchor:middle;pointer-events:none}\n"
    << ".f{fill:" << to_hex(kFadedText) << "}\n"
    << ".a{text-anchor:middle;font-size:" << axis_font << "px}\n"
    << ".p{text-anchor:middle;font-size:" << kCaptionFont << "px;font-weight:bold}\n"
    << ".t{font-size:" << kTitleFont << "px;font-weight:bold}\n"
    << ".l{font-size:" << kLegendFont << "px}\n"
    << ".g{fill:none;stroke:#000;stroke-width:0.6;pointer-events:none}\n"
    << ".r{fill:none;stroke:#000;pointer-events:none}\n"
    << (interactive ? "rect.k{width:" + std::to_string(kCell) + "px;height:" + std::to_string(kCell) + "px}\n"
                    : std::string())
    << "</style>\n";
  // A lazy page's canvases lie under the picture: the page, not the picture, is white.
  if (!lazy) o << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  if (!scene.title.empty())
    o << "<text class=\"t\" x=\"" << kMargin << "\" y=\"" << kMargin + kTitleFont << "\">" << xml_escape(scene.title)
      << "</text>\n";

  Out cells;  // lazy: {"panels":[{...},...]}, one object per panel, cells at r + rows*c
  if (lazy) cells << "{\"panels\":[";
  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const Panel& p = scene.panels[i];
    const double font = label_font[i];
    const bool labels = font >= kMinLabelPx - 1e-9;
    const int64_t px = x0 + p.col0 * kCell, py = y0 + p.row0 * kCell;
    o << "<g font-size=\"" << font << "\"";
    if (interactive) {
      o << " data-panel=\"";
      xml_text(o, p.name);
      o << "\"" << (p.role == PanelRole::kTv ? " data-tv=\"1\"" : "") << (p.transposed ? " data-transposed=\"1\"" : "")
        << (p.value_bits > 0 ? " data-bits=\"" + std::to_string(p.value_bits) + "\" data-atom-values=\"" +
                                   std::to_string(p.atom_values) + "\""
                             : std::string())
        << " data-rows=\"" << p.rows << "\" data-cols=\"" << p.cols << "\" data-x0=\"" << px << "\" data-y0=\"" << py
        << "\"";
    }
    o << ">\n";
    if (lazy) {
      // Fills as indices into the panel's distinct colours; owners as runs; labels
      // only where the picture would draw them.
      std::vector<Rgb> colours;
      Out fill, owners, label, info;
      bool faded = false;
      for (size_t k = 0; k < p.cells.size(); ++k) {
        const Cell& cell = p.cells[k];
        const int64_t r = static_cast<int64_t>(k) % p.rows, c = static_cast<int64_t>(k) / p.rows;
        size_t idx = std::find(colours.begin(), colours.end(), cell.fill) - colours.begin();
        if (idx == colours.size()) colours.push_back(cell.fill);
        fill << (k ? "," : "") << static_cast<int64_t>(idx);
        owners << (k ? ",\"" : "\"");
        owner_runs(owners, p.owners(r, c));
        owners << '"';
        if (labels) {
          label << (k ? "," : "");
          json_string(label, cell.label);
        }
        if (p.role != PanelRole::kTv) {
          info << (k ? "," : "");
          json_string(info, p.role == PanelRole::kKey ? cell.label : cell_description(p, r, c));
        }
        faded |= cell.emphasis == Emphasis::kFaded;
      }
      cells << (i ? "," : "") << "{\"colours\":[";
      for (size_t k = 0; k < colours.size(); ++k) cells << (k ? ",\"" : "\"") << to_hex(colours[k]) << '"';
      cells << "],\"fill\":[" << fill.str() << "],\"owners\":[" << owners.str() << "]";
      if (labels) cells << ",\"labels\":[" << label.str() << "]";
      if (p.role != PanelRole::kTv) cells << ",\"info\":[" << info.str() << "]";
      if (faded) {
        cells << ",\"faded\":[";
        for (size_t k = 0; k < p.cells.size(); ++k)
          cells << (k ? "," : "") << int64_t{p.cells[k].emphasis == Emphasis::kFaded};
        cells << "]";
      }
      cells << "}";
    }
    for (int64_t c = 0; c < p.cols && !lazy; ++c)
      for (int64_t r = 0; r < p.rows; ++r) {
        const Cell& cell = p.cell(r, c);
        const int64_t x = px + c * kCell, y = py + r * kCell;
        // The page sizes its cells in CSS (rect.k): fewer pairs of attributes to parse.
        o << "<rect x=\"" << x << "\" y=\"" << y << "\"";
        if (!interactive) o << " width=\"" << kCell << "\" height=\"" << kCell << "\"";
        o << " fill=\"" << to_hex(cell.fill) << "\"";
        if (interactive) {
          o << " class=\"k\" data-owners=\"";
          bool first = true;
          for (const Owner& ow : p.owners(r, c)) {
            if (!first) o << ' ';
            first = false;
            o << ow.thr << ':' << ow.val;
          }
          o << "\"";
          if (p.role != PanelRole::kTv) {
            o << " data-info=\"";
            xml_text(o, p.role == PanelRole::kKey ? cell.label : cell_description(p, r, c));
            o << "\"";
          }
          // The label as data, drawn by the page on one canvas: 1,024 <text> elements (an
          // SM80 atom) cost Chromium ~5x the rest of the page to lay out.
          if (labels && !cell.label.empty()) {
            o << " data-label=\"";
            label_attribute(o, cell.label);
            o << "\"" << (cell.emphasis == Emphasis::kFaded ? " data-faded=\"1\"" : "");
          }
          o << "/>\n";
        } else {
          o << "><title>";
          xml_text(o, cell_description(p, r, c));
          o << "</title></rect>\n";
        }
        if (labels && !cell.label.empty() && !interactive)
          centred_lines(o, static_cast<double>(x) + static_cast<double>(kCell) / 2.0,
                        static_cast<double>(y) + static_cast<double>(kCell) / 2.0, font, split_lines(cell.label),
                        cell.emphasis == Emphasis::kFaded ? "c f" : "c");
      }
    // Grid: the border and every line between cells in one path; heavier rules after.
    o << "<path class=\"g\" d=\"M" << px << " " << py << "h" << p.cols * kCell << "v" << p.rows * kCell << "h"
      << -p.cols * kCell << "z";
    for (int64_t r = 1; r < p.rows; ++r) o << "M" << px << " " << py + r * kCell << "h" << p.cols * kCell;
    for (int64_t c = 1; c < p.cols; ++c) o << "M" << px + c * kCell << " " << py << "v" << p.rows * kCell;
    o << "\"/>\n";
    for (int64_t r = 1; r < p.rows; ++r)
      if (uint8_t w = p.row_rules[static_cast<size_t>(r)])
        o << "<path class=\"r\" stroke-width=\"" << 0.6 + 1.2 * w << "\" d=\"M" << px << " " << py + r * kCell << "h"
          << p.cols * kCell << "\"/>\n";
    for (int64_t c = 1; c < p.cols; ++c)
      if (uint8_t w = p.col_rules[static_cast<size_t>(c)])
        o << "<path class=\"r\" stroke-width=\"" << 0.6 + 1.2 * w << "\" d=\"M" << px + c * kCell << " " << py << "v"
          << p.rows * kCell << "\"/>\n";
    // Axis labels and caption.
    const double half = static_cast<double>(kCell) / 2.0;
    if (p.row_axis.side != AxisLabels::Side::kNone) {
      const double cx = p.row_axis.side == AxisLabels::Side::kRight ? static_cast<double>(px + p.cols * kCell) + half
                                                                    : static_cast<double>(px) - half;
      for (int64_t r = 0; r < p.rows; ++r)
        centred_lines(o, cx, static_cast<double>(py + r * kCell) + half, axis_font,
                      {p.row_axis.text[static_cast<size_t>(r)]}, "a");
    }
    if (p.col_axis.side == AxisLabels::Side::kTop)
      for (int64_t c = 0; c < p.cols; ++c)
        centred_lines(o, static_cast<double>(px + c * kCell) + half, static_cast<double>(py) - half, axis_font,
                      {p.col_axis.text[static_cast<size_t>(c)]}, "a");
    if (!p.caption.empty())
      centred_lines(o, static_cast<double>(x0) + (p.caption_col + 0.5) * static_cast<double>(kCell),
                    static_cast<double>(y0) + (p.caption_row + 0.5) * static_cast<double>(kCell), kCaptionFont,
                    {p.caption}, "p");
    o << "</g>\n";
  }

  const double legend_y = static_cast<double>(kMargin) + title_h + static_cast<double>(grid_h) + 8;
  for (size_t i = 0; i < legend.size(); ++i)
    o << "<text class=\"l\" x=\"" << kMargin << "\" y=\""
      << legend_y + std::ceil(kLegendFont * 1.4) * static_cast<double>(i + 1) - 3 << "\">" << xml_escape(legend[i])
      << "</text>\n";
  o << "</svg>\n";
  if (lazy) *cells_json = cells.take() + "]}";
  return o.take();
}

std::string render_svg(const Scene& scene, const RenderOptions& options) { return svg_document(scene, options, false); }

}  // namespace cutevis::detail
