// cutevis — the scene: what every picture format draws.
//
// A view (views.hpp) turns a runtime object into a Scene; a backend (render.hpp)
// turns a Scene into bytes.  A scene is a list of panels; a panel is a grid of
// cells placed at a position measured in cells, with CuTe's orientation: row m
// goes down, column n goes right, and CuTe's MMA picture puts C at (0,0), A at
// column -K-1 and B at row -K-1 (print_latex's coordinates, x down and y right).
//
// Cells carry their label lines, fill and emphasis; TV panels also keep the
// OwnershipView they were drawn from, so every backend can reach *all* owners of a
// cell (tooltips, CuTe's first-owner labels) without recomputing any algebra.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lib/int_tuple.hpp"
#include "lib/ownership.hpp"

namespace cutevis {

struct Rgb {
  uint8_t r = 255, g = 255, b = 255;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
  bool operator!=(const Rgb& o) const { return !(*this == o); }
};
std::string to_hex(const Rgb& c);               // "#afafff"
Rgb mix(const Rgb& a, const Rgb& b, double t);  // a*(1-t) + b*t

enum class Emphasis : uint8_t {
  kNormal,       // no thread set given
  kHighlighted,  // an owner is in the highlighted thread set
  kFaded,        // a thread set is given and no owner of this cell is in it
};

struct Cell {
  std::string label;  // label lines joined by '\n' ("T0\nV1", "12"); may be empty
  Rgb fill;
  Emphasis emphasis = Emphasis::kNormal;
  int64_t value = -1;   // layout panels: L(m,n), the index CuTe prints; -1 in TV panels
  std::string tooltip;  // when set, the SVG tooltip instead of the generated description
};

// Row or column labels of a panel (the axis indices CuTe prints in \Large\texttt).
struct AxisLabels {
  enum class Side : uint8_t { kNone, kLeft, kRight, kTop };
  Side side = Side::kNone;
  std::vector<std::string> text;  // one per row (or column), in order
};

// What a panel shows, which is also what the CuTe backends print for it.
// kKey: a colour key (the 32 banks), drawn by the default style only.
enum class PanelRole : uint8_t { kLayout, kTv, kKey };

struct Panel {
  PanelRole role = PanelRole::kLayout;
  std::string name;       // "C", "A", "B", "S", "D", or "" for a single layout/TV panel
  std::string cute_text;  // CuTe's print of the object drawn: "ArithTuple(_0,_0) o ((_4,_8),...)"
  int64_t rows = 0, cols = 0;
  int64_t row0 = 0, col0 = 0;  // scene position of cell (0,0), in cells
  std::vector<Cell> cells;     // cell (r,c) at r + rows*c

  // TV panels: the ownership of the drawn (rows x cols) grid.  A transposed panel
  // draws the view's (c,r) at (r,c): B is (N,K) in CuTe and drawn K down, N across.
  std::shared_ptr<const OwnershipView> view;
  bool transposed = false;
  // MMA operands in registers: value v of a thread is element v % atom_values of the
  // fragment of MMA instruction v / atom_values, value_bits wide (0: not known).
  int value_bits = 0;
  int64_t atom_values = 0;

  AxisLabels row_axis, col_axis;
  bool col_axis_first = false;  // CuTe prints B's column labels before its row labels

  // Rule weights between rows / columns (size rows+1 / cols+1): 0 a thin grid
  // line, k > 0 a boundary of k nested sub-modes (drawn heavier).
  std::vector<uint8_t> row_rules, col_rules;

  // Default style: a short caption ("A", "B", "C") centred at (caption_row, caption_col).
  std::string caption;
  double caption_row = 0, caption_col = 0;

  const Cell& cell(int64_t r, int64_t c) const { return cells[static_cast<size_t>(r + rows * c)]; }
  Cell& cell(int64_t r, int64_t c) { return cells[static_cast<size_t>(r + rows * c)]; }
  // Every (thr, val) owner of drawn cell (r,c); empty for layout panels.
  std::span<const Owner> owners(int64_t r, int64_t c) const;
};

enum class SceneKind : uint8_t {
  kLayout,  // one layout panel (print_latex(Layout), print_layout)
  kTv,      // one TV panel over a tile (print_latex_tv)
  kMma,     // C, A, B panels (print_latex(TiledMMA), print_svg(TiledMMA))
  kCopy,    // S, D panels (print_latex(TiledCopy))
  kDiff,    // verify: one panel per operand, disagreeing cells marked (no CuTe counterpart)
};

struct Scene {
  SceneKind kind = SceneKind::kLayout;
  std::string title;                // the expression as given (default style heading)
  std::vector<std::string> legend;  // default style: tile, threads, colour key, notes
  IntTuple tile;                    // (M,N) or (M,N,K): what CuTe prints as the Tile
  int64_t num_threads = 0;          // TV scenes
  size_t layout_rank = 0;           // layout scenes: rank of the layout drawn
  int64_t layout_cosize = 0;        // layout scenes: cosize of the layout drawn (print_layout's width)
  std::vector<Panel> panels;

  const Panel* find(const std::string& name) const;
  // The box covered by cells, axis labels and (with_captions) captions, in cells:
  // [row_min, row_max) x [col_min, col_max).
  struct Bounds {
    int64_t row_min = 0, row_max = 0, col_min = 0, col_max = 0;
    int64_t rows() const { return row_max - row_min; }
    int64_t cols() const { return col_max - col_min; }
  };
  Bounds bounds(bool with_captions = true) const;
  int64_t cell_count() const;  // cells over all panels
};

// --- owner summaries (shared by views and backends) ---------------------------------
// Distinct integers as sorted ranges: {17,0,1,2,3,16,20} -> "0-3,16,17,20".
std::string compress_ranges(std::vector<int64_t> values);
// Every owner, grouped by value: "V0: T0-3,16-19; V2: T8".  At most `max_chars`
// characters (then "... (N owners)").
std::string describe_owners(std::span<const Owner> owners, size_t max_chars = 480);

}  // namespace cutevis
