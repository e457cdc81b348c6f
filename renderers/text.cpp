// Text: CuTe's print_layout table (style cute) and the same table for every panel,
// with owners, sub-mode rules and ANSI colours (default).
#include <algorithm>

#include "lib/error.hpp"
#include "renderers/backends.hpp"

namespace cutevis::detail {

namespace {

// CuTe's num_digits (util/print.hpp).
int num_digits(int64_t x) {
  int d = 1;
  for (int64_t p = 10; x >= p && d < 10; p *= 10) ++d;
  return d;
}

void pad_left(Out& o, const std::string& s, size_t width) {
  for (size_t n = display_width(s); n < width; ++n) o << ' ';
  o << s;
}

// print_layout's table for any panel: `content(r,c)` is a cell's text, `cell_width`
// the width between the bars (CuTe: num_digits(cosize)+2, the text right-aligned
// with one space each side).
struct TableStyle {
  size_t cell_width = 0;
  size_t row_label_width = 2;  // CuTe prints rows with %2d
  bool rules = false;          // heavier rules at sub-mode boundaries ('=' and '||')
  bool ansi = false;
  bool hide_faded = false;  // without colour, faded cells print '.'
};

void table(Out& o, const Panel& p, const TableStyle& t) {
  auto heavy_col = [&](int64_t c) { return t.rules && c > 0 && p.col_rules[static_cast<size_t>(c)] > 0; };
  auto heavy_row = [&](int64_t r) { return t.rules && r > 0 && r < p.rows && p.row_rules[static_cast<size_t>(r)] > 0; };
  const std::string indent(t.row_label_width + 2, ' ');
  // Column indices
  o << indent;
  for (int64_t c = 0; c < p.cols; ++c) {
    o << (heavy_col(c) ? "   " : "  ");
    pad_left(o, p.col_axis.text.empty() ? std::to_string(c) : p.col_axis.text[static_cast<size_t>(c)],
             t.cell_width - 2);
    o << ' ';
  }
  o << "\n";
  auto border = [&](int64_t r) {
    o << indent;
    const char dash = heavy_row(r) ? '=' : '-';
    for (int64_t c = 0; c < p.cols; ++c) {
      o << (heavy_col(c) ? "++" : "+");
      for (size_t i = 0; i < t.cell_width; ++i) o << dash;
    }
    o << "+\n";
  };
  for (int64_t r = 0; r < p.rows; ++r) {
    border(r);
    pad_left(o, p.row_axis.text.empty() ? std::to_string(r) : p.row_axis.text[static_cast<size_t>(r)],
             t.row_label_width);
    o << "  ";
    for (int64_t c = 0; c < p.cols; ++c) {
      const Cell& cell = p.cell(r, c);
      std::string text = cell.label;
      std::replace(text.begin(), text.end(), '\n', ' ');
      const bool faded = cell.emphasis == Emphasis::kFaded;
      if (faded && t.hide_faded) text = ".";
      o << (heavy_col(c) ? "||" : "|");
      if (t.ansi) {
        o << "\x1b[48;2;" << int{cell.fill.r} << ";" << int{cell.fill.g} << ";" << int{cell.fill.b} << "m"
          << (faded ? "\x1b[38;2;140;140;140m" : "\x1b[38;2;0;0;0m");
      }
      o << ' ';
      pad_left(o, text, t.cell_width - 2);
      o << ' ';
      if (t.ansi) o << "\x1b[0m";
    }
    o << "|\n";
  }
  border(p.rows);
}

size_t widest_label(const Panel& p) {
  size_t w = 1;
  for (const Cell& cell : p.cells) w = std::max(w, display_width(cell.label));  // '\n' becomes ' ': same width
  return w;
}

}  // namespace

std::string render_text_cute(const Scene& scene) {
  Out o;
  if (scene.kind == SceneKind::kLayout) {
    // print_layout (util/print_tensor.hpp)
    check_cute_rank(scene);
    const Panel& p = scene.panels.at(0);
    for (const Cell& cell : p.cells)
      if (cell.value < 0 && !cell.label.empty() && cell.label[0] == '(')
        throw Error("CuTe's print_layout prints integer-valued layouts; this one maps to coordinates");
    TableStyle t;
    t.cell_width = static_cast<size_t>(num_digits(scene.layout_cosize)) + 2;
    o << p.cute_text << "\n";
    // print_layout's rows print with %2d and values with %*d: ours are the same strings.
    Panel plain = p;
    plain.row_axis.text.clear();
    plain.col_axis.text.clear();
    for (Cell& cell : plain.cells) cell.label = std::to_string(cell.value);
    table(o, plain, t);
    return o.take();
  }
  // CuTe prints no TV tables; the same table with CuTe's first-owner labels.
  for (const Panel& p : scene.panels) {
    Panel first = p;
    for (int64_t r = 0; r < p.rows; ++r)
      for (int64_t c = 0; c < p.cols; ++c) {
        auto owners = p.owners(r, c);
        first.cell(r, c).label =
            owners.empty() ? "" : "T" + std::to_string(owners[0].thr) + "V" + std::to_string(owners[0].val);
      }
    // the comment print_latex writes above the picture: "Layout TV:", "LayoutC:", "Layout S TV:"
    o << (scene.kind == SceneKind::kMma    ? "Layout" + p.name + ": "
          : scene.kind == SceneKind::kCopy ? "Layout " + p.name + " TV: "
                                           : std::string("Layout TV: "))
      << p.cute_text << "\n";
    TableStyle t;
    t.cell_width = widest_label(first) + 2;
    t.row_label_width = std::max<size_t>(2, static_cast<size_t>(num_digits(std::max<int64_t>(p.rows - 1, 0))));
    table(o, first, t);
  }
  return o.take();
}

std::string render_text(const Scene& scene, const RenderOptions& options) {
  Out o;
  if (!scene.title.empty()) o << scene.title << "\n";
  for (const std::string& line : scene.legend) o << "  " << line << "\n";
  bool any_faded = false;
  for (const Panel& p : scene.panels)
    for (const Cell& cell : p.cells) any_faded |= cell.emphasis == Emphasis::kFaded;
  if (any_faded && !options.ansi_color) o << "  ('.' marks the cells of threads not highlighted)\n";
  for (const Panel& p : scene.panels) {
    if (p.role == PanelRole::kKey && !options.ansi_color) continue;  // a colour key without colours says nothing
    o << "\n";
    if (p.role == PanelRole::kKey) o << p.caption << "\n";
    else if (!p.name.empty())
      o << p.name << " (" << p.rows << " x " << p.cols << (p.transposed ? ", transposed" : "") << ")\n";
    TableStyle t;
    t.cell_width = widest_label(p) + 2;
    for (const auto& s : p.col_axis.text) t.cell_width = std::max(t.cell_width, s.size() + 2);
    t.row_label_width = 2;
    for (const auto& s : p.row_axis.text) t.row_label_width = std::max(t.row_label_width, s.size());
    t.rules = true;
    t.ansi = options.ansi_color;
    t.hide_faded = !options.ansi_color;
    table(o, p, t);
  }
  return o.take();
}

}  // namespace cutevis::detail
