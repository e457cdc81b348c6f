// TikZ: CuTe's print_latex (style cute) and a compact picture for any size (default).
#include <algorithm>
#include <cmath>
#include <map>

#include "lib/error.hpp"
#include "lib/float_text.hpp"
#include "renderers/backends.hpp"
#include "renderers/views.hpp"

namespace cutevis::detail {

namespace {

// ---------------------------------------------------------------------------------------
// Style cute: include/cute/util/print_latex.hpp, statement for statement.
// ---------------------------------------------------------------------------------------

const char* kCuteHeader =
    "\\documentclass[convert]{standalone}\n"
    "\\usepackage{tikz}\n\n"
    "\\begin{document}\n"
    "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";
const char* kCuteFooter = "\\end{tikzpicture}\n\\end{document}\n";

// TikzColor_BWx8: print_latex(Layout)'s colour of index idx.
const char* tikz_bw8(int64_t idx) {
  static const char* map[8] = {"black!00", "black!40", "black!20", "black!60",
                               "black!10", "black!50", "black!30", "black!70"};
  return map[((idx % 8) + 8) % 8];
}

// TikzColor_TV: the colour of thread tid.
void tikz_tv_color(Out& o, int64_t tid) {
  const Rgb c = cute_tv_color(tid);
  o << "{rgb,255:red," << int{c.r} << ";green," << int{c.g} << ";blue," << int{c.b} << "}";
}

void cute_grid(Out& o, const Panel& p) {
  o << "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (" << p.row0 << "," << p.col0 << ") grid (" << p.row0 + p.rows
    << "," << p.col0 + p.cols << ");\n\n";
}

void cute_label(Out& o, int64_t x, int64_t y, const std::string& text) {
  o << "\\node at (" << x << "," << y << ") {\\Large{\\texttt{" << text << "}}};\n";
}

void cute_row_labels(Out& o, const Panel& p) {
  const int64_t col = p.row_axis.side == AxisLabels::Side::kRight ? p.col0 + p.cols : p.col0 - 1;
  for (int64_t r = 0; r < p.rows; ++r) cute_label(o, p.row0 + r, col, p.row_axis.text[static_cast<size_t>(r)]);
}

void cute_col_labels(Out& o, const Panel& p) {
  for (int64_t c = 0; c < p.cols; ++c) cute_label(o, p.row0 - 1, p.col0 + c, p.col_axis.text[static_cast<size_t>(c)]);
}

void cute_labels(Out& o, const Panel& p) {
  const bool rows = p.row_axis.side != AxisLabels::Side::kNone, cols = p.col_axis.side != AxisLabels::Side::kNone;
  if (p.col_axis_first) {
    if (cols) cute_col_labels(o, p);
    if (rows) cute_row_labels(o, p);
  } else {
    if (rows) cute_row_labels(o, p);
    if (cols) cute_col_labels(o, p);
  }
}

// The TV nodes of a panel in print_latex's order.
void cute_tv_nodes(Out& o, const Panel& p) {
  for (auto [r, c] : cute_order(p)) {
    const Owner first = p.owners(r, c)[0];
    o << "\\node[fill=";
    tikz_tv_color(o, first.thr);
    o << "] at (" << p.row0 + r << "," << p.col0 + c << ") {\\shortstack{T" << first.thr << " \\\\ V" << first.val
      << "}};\n";
  }
}

void check_cute_layout(const Panel& p) {
  for (const Cell& cell : p.cells)
    if (cell.value < 0 && !cell.label.empty() && cell.label[0] == '(')
      throw Error("CuTe's print_latex draws integer-valued layouts; this one maps to coordinates");
}

}  // namespace

std::string render_tikz_cute(const Scene& scene) {
  Out o;
  switch (scene.kind) {
    case SceneKind::kLayout: {
      check_cute_rank(scene);
      const Panel& p = scene.panels.at(0);
      check_cute_layout(p);
      o << "% Layout: " << p.cute_text << "\n" << kCuteHeader;
      for (int64_t r = 0; r < p.rows; ++r)
        for (int64_t c = 0; c < p.cols; ++c) {
          const int64_t idx = p.cell(r, c).value;
          o << "\\node[fill=" << tikz_bw8(idx) << "] at (" << r << "," << c << ") {" << idx << "};\n";
        }
      cute_grid(o, p);
      cute_labels(o, p);
      break;
    }
    case SceneKind::kDiff: throw Error("CuTe has no picture of a verify report: use the default style");
    case SceneKind::kTv: {
      const Panel& p = scene.panels.at(0);
      o << "% Layout TV: " << p.cute_text << "\n" << kCuteHeader;
      cute_tv_nodes(o, p);
      cute_grid(o, p);
      cute_labels(o, p);
      break;
    }
    case SceneKind::kMma: {
      const Panel &c = *scene.find("C"), &a = *scene.find("A"), &b = *scene.find("B");
      o << "% LayoutC: " << c.cute_text << "\n% LayoutA: " << a.cute_text << "\n% LayoutB: " << b.cute_text << "\n"
        << kCuteHeader;
      for (const Panel* p : {&c, &a, &b}) {
        cute_tv_nodes(o, *p);
        cute_grid(o, *p);
        cute_labels(o, *p);
      }
      break;
    }
    case SceneKind::kCopy: {
      const Panel &s = *scene.find("S"), &d = *scene.find("D");
      o << "% Layout S TV: " << s.cute_text << "\n% Layout D TV: " << d.cute_text << "\n" << kCuteHeader;
      for (const Panel* p : {&s, &d}) {
        cute_tv_nodes(o, *p);
        cute_grid(o, *p);
        cute_labels(o, *p);
      }
      break;
    }
  }
  o << kCuteFooter;
  return o.take();
}

// ---------------------------------------------------------------------------------------
// Default style: a compact picture that pdflatex compiles at any size.
//
// TikZ nodes cost TeX several hundred words of main memory each and TeX keeps the
// whole picture in memory until the page ships out, which is how CuTe's output for a
// 128x32x32 tiled MMA exhausts it (CUTLASS PR #1733).  Here the cells never become
// nodes: each row of a panel is an \hbox of short macros (fills merged into runs of
// equal colour, then the labels), and under pdfTeX each row is frozen into a PDF form
// XObject (\immediate\pdfxform) as soon as it is read, which releases its memory.  The
// grid, rules, axis labels, captions, title and legend are ordinary TikZ.  A 128x512
// C tile with its A and B (75,776 labelled cells) compiles in about a second within
// TeX Live's stock 5,000,000 words.  Other engines take the same rows unfrozen.
// ---------------------------------------------------------------------------------------

namespace {

constexpr double kMaxExtentCm = 500;  // TeX's largest dimension is about 575 cm
constexpr double kCellCm = 1.0;       // CuTe's cell
constexpr double kMinLabelPt = 3.0;   // smaller labels are dropped (said in the legend)

// Text for TeX in typewriter type: cmtt has every ASCII glyph at its ASCII code, so
// specials become \char<code>; U+00D7 becomes $\times$.
std::string tex_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (static_cast<unsigned char>(ch) == 0xC3 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x97) {
      out += "$\\times$";
      ++i;
      continue;
    }
    switch (ch) {
      case '\\':
      case '{':
      case '}':
      case '_':
      case '#':
      case '%':
      case '&':
      case '$':
      case '^':
      case '~':
      case '<':
      case '>':
      case '|':
      case '"': out += "\\char" + std::to_string(static_cast<int>(ch)) + "{}"; break;
      case '\n': out += ' '; break;
      default:
        if (static_cast<unsigned char>(ch) >= 0x80) out += '?';  // the fonts here are 7-bit
        else out += ch;
    }
  }
  return out;
}

std::string comment_safe(const std::string& s) {
  std::string out = s;
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

const char* kPreamble =
    "\\RequirePackage{fix-cm}  % Computer Modern at any size (LaTeX base)\n"
    "\\documentclass[border=6pt]{standalone}\n"
    "\\usepackage{tikz}\n"
    "% Each panel is a stack of rows; \\cvR{fill runs}{labels} appends one row (standalone\n"
    "% typesets the body in horizontal mode, hence \\ignorespaces).  Under pdfTeX\n"
    "% the row is frozen into a PDF form at once (\\immediate\\pdfxform), so TeX's memory\n"
    "% does not grow with the picture.\n"
    "\\newbox\\cvrow \\newbox\\cvpanel\n"
    "\\newdimen\\cvw\n"
    "\\def\\cvfreeze{}\n"
    "\\ifdefined\\pdfxform\\ifnum\\pdfoutput>0\n"
    "  \\def\\cvfreeze{\\immediate\\pdfxform\\cvrow\\setbox\\cvrow\\hbox{\\pdfrefxform\\pdflastxform}}\n"
    "\\fi\\fi\n"
    "\\def\\cvR#1#2{\\setbox\\cvrow\\hbox{\\vrule width0pt height\\cvw depth0pt\\rlap{#1}#2}\\cvfreeze\n"
    "  \\global\\setbox\\cvpanel\\vbox{\\offinterlineskip\\unvbox\\cvpanel\\box\\cvrow}\\ignorespaces}\n"
    "\\def\\cvstart{\\global\\setbox\\cvpanel\\vbox{}}\n"
    "% fill run: colour, number of cells; blank run: number of cells\n"
    "\\def\\cvF#1#2{{\\color{cv#1}\\vrule width#2\\cvw height\\cvw depth0pt}}\n"
    "\\def\\cvE#1{\\kern#1\\cvw}\n"
    "% one- and two-line labels; the f variants are faded (thread highlighting)\n"
    "\\def\\cvA#1{\\vbox to\\cvw{\\vss\\hbox to\\cvw{\\hss#1\\hss}\\vss}}\n"
    "\\def\\cvB#1#2{\\vbox to\\cvw{\\vss\\hbox to\\cvw{\\hss#1\\hss}\\hbox to\\cvw{\\hss#2\\hss}\\vss}}\n"
    "\\def\\cvAf#1{\\cvA{\\color{cvfaded}#1}}\n"
    "\\def\\cvBf#1#2{\\cvB{\\color{cvfaded}#1}{\\color{cvfaded}#2}}\n"
    "\\definecolor{cvfaded}{RGB}{150,150,150}\n";

struct TikzColors {
  std::map<uint32_t, int> ids;
  Out defs;
  int id(const Rgb& c) {
    const uint32_t key = (uint32_t{c.r} << 16) | (uint32_t{c.g} << 8) | c.b;
    auto [it, inserted] = ids.emplace(key, static_cast<int>(ids.size()));
    if (inserted)
      defs << "\\definecolor{cv" << it->second << "}{RGB}{" << int{c.r} << "," << int{c.g} << "," << int{c.b} << "}\n";
    return it->second;
  }
};

// One row of a panel: fill runs, then labels.
void tikz_row(Out& o, const Panel& p, int64_t r, bool labels, TikzColors& colors) {
  o << "\\cvR{";
  const Rgb white{};
  for (int64_t c = 0; c < p.cols;) {
    const Rgb fill = p.cell(r, c).fill;
    int64_t run = 1;
    while (c + run < p.cols && p.cell(r, c + run).fill == fill) ++run;
    if (fill == white) o << "\\cvE{" << run << "}";
    else o << "\\cvF{" << colors.id(fill) << "}{" << run << "}";
    c += run;
  }
  o << "}{";
  if (labels) {
    int64_t blank = 0;
    for (int64_t c = 0; c < p.cols; ++c) {
      const Cell& cell = p.cell(r, c);
      if (cell.label.empty()) {
        ++blank;
        continue;
      }
      if (blank) o << "\\cvE{" << blank << "}";
      blank = 0;
      const auto lines = split_lines(cell.label);
      const char* faded = cell.emphasis == Emphasis::kFaded ? "f" : "";
      if (lines.size() == 1) o << "\\cvA" << faded << "{" << tex_escape(lines[0]) << "}";
      else o << "\\cvB" << faded << "{" << tex_escape(lines[0]) << "}{" << tex_escape(lines[1]) << "}";
    }
  }
  o << "}\n";
}

// Grid lines of a panel, then its heavier sub-mode rules.
void tikz_grid(Out& o, const Panel& p) {
  const int64_t r0 = p.row0, r1 = p.row0 + p.rows, c0 = p.col0, c1 = p.col0 + p.cols;
  o << "\\draw[cvgrid] (" << c0 << "," << r0 << ") rectangle (" << c1 << "," << r1 << ")";
  for (int64_t r = 1; r < p.rows; ++r) o << " (" << c0 << "," << r0 + r << ")--(" << c1 << "," << r0 + r << ")";
  for (int64_t c = 1; c < p.cols; ++c) o << " (" << c0 + c << "," << r0 << ")--(" << c0 + c << "," << r1 << ")";
  o << ";\n";
  for (int64_t r = 1; r < p.rows; ++r)
    if (uint8_t w = p.row_rules[static_cast<size_t>(r)])
      o << "\\draw[line width=" << 0.4 + 0.6 * w << "pt] (" << c0 << "," << r0 + r << ")--(" << c1 << "," << r0 + r
        << ");\n";
  for (int64_t c = 1; c < p.cols; ++c)
    if (uint8_t w = p.col_rules[static_cast<size_t>(c)])
      o << "\\draw[line width=" << 0.4 + 0.6 * w << "pt] (" << c0 + c << "," << r0 << ")--(" << c0 + c << "," << r1
        << ");\n";
}

void tikz_axes(Out& o, const Panel& p) {
  if (p.row_axis.side != AxisLabels::Side::kNone) {
    const double x = p.row_axis.side == AxisLabels::Side::kRight ? static_cast<double>(p.col0 + p.cols) + 0.5
                                                                 : static_cast<double>(p.col0) - 0.5;
    for (int64_t r = 0; r < p.rows; ++r)
      o << "\\node[cvaxis] at (" << x << "," << static_cast<double>(p.row0 + r) + 0.5 << ") {"
        << tex_escape(p.row_axis.text[static_cast<size_t>(r)]) << "};\n";
  }
  if (p.col_axis.side == AxisLabels::Side::kTop)
    for (int64_t c = 0; c < p.cols; ++c)
      o << "\\node[cvaxis] at (" << static_cast<double>(p.col0 + c) + 0.5 << "," << static_cast<double>(p.row0) - 0.5
        << ") {" << tex_escape(p.col_axis.text[static_cast<size_t>(c)]) << "};\n";
  if (!p.caption.empty())
    o << "\\node[cvcaption] at (" << p.caption_col + 0.5 << "," << p.caption_row + 0.5 << ") {" << tex_escape(p.caption)
      << "};\n";
}

}  // namespace

std::string render_tikz(const Scene& scene) {
  const Scene::Bounds bounds = scene.bounds();
  const double extent = static_cast<double>(std::max(bounds.rows(), bounds.cols()));
  const double cell_cm = std::min(kCellCm, kMaxExtentCm / std::max(1.0, extent));
  const double cell_pt = cell_cm * 72.27 / 2.54;
  const double axis_pt = std::clamp(cell_pt * 0.42, 2.0, 14.0);

  std::vector<std::string> legend = scene.legend;
  std::string unlabelled;

  TikzColors colors;
  Out rows;
  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const Panel& p = scene.panels[i];
    // Each panel's labels as large as its longest label allows (cmtt advances 0.525 em).
    const double font_pt = fitting_font_size(label_extent(p), cell_pt, 0.6, 10.0);  // 0.525 em, and room for $\times$
    const bool labels = font_pt >= kMinLabelPt;
    if (!labels) unlabelled += (unlabelled.empty() ? "" : ", ") + (p.name.empty() ? std::string("cells") : p.name);
    rows << "\\fontsize{" << font_pt << "pt}{" << font_pt * 1.18 << "pt}\\selectfont\\cvstart\n";
    for (int64_t r = 0; r < p.rows; ++r) tikz_row(rows, p, r, labels, colors);
    rows << "\\newbox\\cvpanel" << static_cast<char>('a' + i) << " \\global\\setbox\\cvpanel"
         << static_cast<char>('a' + i) << "\\box\\cvpanel\n";
  }

  if (!unlabelled.empty())
    legend.push_back("labels omitted (" + unlabelled + "): cells of " + fixed_text(cell_cm).substr(0, 4) +
                     " cm are too small to label; see the SVG or a smaller tile");

  Out o;
  o << "% cutevis: " << comment_safe(scene.title) << "\n";
  for (const std::string& line : legend) o << "% " << comment_safe(line) << "\n";
  o << kPreamble << colors.defs.str();
  o << "\\begin{document}\n";
  o << "\\cvw=" << cell_cm << "cm\n";
  o << "\\ttfamily\n";
  o << rows.str();
  o << "\\begin{tikzpicture}[x=" << cell_cm << "cm,y=-" << cell_cm << "cm,\n"
    << "  cvgrid/.style={line width=0.4pt},\n"
    << "  cvaxis/.style={inner sep=0,font=\\ttfamily\\fontsize{" << axis_pt << "pt}{" << axis_pt
    << "pt}\\selectfont},\n"
    << "  cvcaption/.style={inner sep=0,font=\\rmfamily\\bfseries\\fontsize{" << axis_pt * 1.4 << "pt}{"
    << axis_pt * 1.4 << "pt}\\selectfont},\n"
    << "  cvtext/.style={inner sep=0,align=left,font=\\ttfamily\\fontsize{10pt}{12pt}\\selectfont}]\n";
  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const Panel& p = scene.panels[i];
    o << "\\node[anchor=north west,inner sep=0,outer sep=0] at (" << p.col0 << "," << p.row0 << ") {\\box\\cvpanel"
      << static_cast<char>('a' + i) << "};\n";
    tikz_grid(o, p);
    tikz_axes(o, p);
  }
  // Title above, legend below, both at the left edge.
  o << "\\node[cvtext,anchor=south west,font=\\ttfamily\\fontsize{13pt}{15pt}\\selectfont] at (" << bounds.col_min
    << "," << bounds.row_min << ") [yshift=8pt] {" << tex_escape(scene.title) << "};\n";
  if (!legend.empty()) {
    o << "\\node[cvtext,anchor=north west] at (" << bounds.col_min << "," << bounds.row_max << ") [yshift=-8pt] {";
    for (size_t i = 0; i < legend.size(); ++i) o << (i ? "\\\\\n" : "") << tex_escape(legend[i]);
    o << "};\n";
  }
  o << "\\end{tikzpicture}\n\\end{document}\n";
  return o.take();
}

}  // namespace cutevis::detail
