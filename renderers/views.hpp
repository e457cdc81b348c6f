// cutevis — views: runtime objects to scenes.
//
//   layout_scene(L)         the grid of L(m,n): mode 0 down, the other modes across
//                           (CuTe's print_layout / print_latex(Layout)); swizzled and
//                           smem-flagged layouts evaluated position-independently.
//   tv_scene(TV, tile)      each cell of the tile with its (thread, value) owners
//                           (print_latex_tv).
//   mma_scene(picture)      C at the origin, A to the left, B above (print_latex(TiledMMA)).
//   copy_scene(picture)     source and destination side by side (print_latex(TiledCopy)).
//
// TV layouts map (thr, val) to the column-major index m + M*n of their tile, as
// get_layoutC_TV and friends do.  The caller turns its objects into pictures:
//
//   MmaPicture p{tm.tv_layout_a, tm.tv_layout_b, tm.tv_layout_c,
//                size(tm.tile_mnk[0]), size(tm.tile_mnk[1]), size(tm.tile_mnk[2]), tm.num_threads};
//   std::string svg = render(mma_scene(p, {.title = expression}), Format::kSvg);
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lib/layout.hpp"
#include "lib/swizzle.hpp"
#include "renderers/scene.hpp"

namespace cutevis {

enum class ColorBy {
  kAuto,    // thread for TV pictures, index for layouts
  kThread,  // thread: hue by lane, lightness by warp (renderers/palette.hpp)
  kValue,   // value index, the same palette
  kWarp,    // thread / 32 over all owners (a cell of several warps is grey)
  kIndex,   // layouts: L(m,n) mod 8
  kBank,    // layouts: the shared-memory bank of element L(m,n) (32 banks of 4 bytes)
  kNone,    // white
};
ColorBy parse_color_by(const std::string& text);  // "thread", "value", "warp", "index", "bank", "none"
std::string to_string(ColorBy c);

// A set of thread indices, written "0,5,32-35".
class ThreadSet {
 public:
  ThreadSet() = default;
  static ThreadSet parse(const std::string& text);  // throws Error (with position) on bad text
  bool empty() const { return ranges_.empty(); }
  bool contains(int64_t thread) const;
  std::string to_string() const;  // canonical: sorted, merged

 private:
  std::vector<std::pair<int64_t, int64_t>> ranges_;  // inclusive, sorted, disjoint
};

// Colours from values computed elsewhere (an analysis beside atoms/: bank conflicts,
// sectors, ...): one small integer per drawn cell, or none.  A view that is given a
// shading colours by it instead of `color_by`, keys the values present and says
// `name` in the legend.  Coordinates are the panel's drawn (row, col); `panel` is
// "C", "A", "B", "S", "D", or "" for a single layout or TV panel.
struct CellShading {
  std::string name;  // "bank conflicts of one ldmatrix"
  std::function<std::optional<int64_t>(const std::string& panel, int64_t row, int64_t col)> value;
  std::function<std::string(int64_t)> key_label;  // how the key names a value ("2-way"); default: the number
};

// ColorBy::kBank's numbers, from the bank model beside atoms/ (atoms/analysis/banks.hpp),
// handed in by the app: renderers draw banks, they do not model them.  Given the
// layout's values L(i) (i = r + rows*c) and the element width, the bank of each
// element and the worst conflict of a warp reading one row, or one column, at once.
struct BankShading {
  std::vector<int64_t> bank;
  int64_t worst_row = 0, worst_col = 0;
};
using BankModel = std::function<BankShading(std::span<const int64_t> values, int64_t rows, int element_bits)>;

struct ViewOptions {
  std::string title{};  // the expression as the user wrote it
  ColorBy color_by = ColorBy::kAuto;
  ThreadSet threads{};         // highlighted threads; the rest faded (empty: none)
  int bank_element_bits = 16;  // ColorBy::kBank: bits per element of L's codomain
  CellShading shading{};       // when shading.value is set: colours from it
  BankModel banks{};           // ColorBy::kBank: required (an Error without it)
};

Scene layout_scene(const AnyLayout& layout, const ViewOptions& options = {});
Scene tv_scene(const Layout& tv, const IntTuple& tile_mn, const ViewOptions& options = {});

struct MmaPicture {
  Layout tv_a;                  // get_layoutA_TV: (thr, val) -> m + M*k
  Layout tv_b;                  // get_layoutB_TV: (thr, val) -> n + N*k
  Layout tv_c;                  // get_layoutC_TV: (thr, val) -> m + M*n
  int64_t m = 0, n = 0, k = 0;  // tile_shape(TiledMMA)
  int64_t num_threads = 0;      // size(TiledMMA); 0 means size<0>(tv_c)
  // Where a value lives, for the HTML page's hover (0: not given): the bits of each
  // operand's element, the values one thread holds per MMA instruction (the atom's
  // value mode), and whether the operand is in registers (not shared/tensor memory).
  int bits_a = 0, bits_b = 0, bits_c = 0;
  int64_t atom_values_a = 0, atom_values_b = 0, atom_values_c = 0;
  bool registers_a = true, registers_b = true, registers_c = true;
  // Where an operand that is not in registers lives ("shared memory", read through a
  // descriptor; "tensor memory"), or "": such a panel's cells show each element's place V in
  // the operand's order instead of its owners (every thread of a warpgroup owns every cell of
  // an SS GMMA's A and B), and the legend says once who reads it.
  std::string memory_a{}, memory_b{}, memory_c{};
  std::vector<std::string> notes{};  // legend lines the caller adds (what the atom's threads are)
};
Scene mma_scene(const MmaPicture& picture, const ViewOptions& options = {});

struct CopyPicture {
  Layout tv_s;                     // get_layoutS_TV: (thr, val) -> m + M*n
  Layout tv_d;                     // get_layoutD_TV
  int64_t m = 0, n = 0;            // the tile (Tiler_MN's sizes)
  int64_t num_threads = 0;         // size(TiledCopy); 0 means size<0>(tv_s)
  std::vector<std::string> notes;  // legend lines the caller adds (what a TMA picture shows)
};
Scene copy_scene(const CopyPicture& picture, const ViewOptions& options = {});

// A verify report drawn: per operand, who the layout says owns each cell and who the
// hardware shows; disagreeing cells are marked.
struct DiffOperand {
  std::string name;                // "A", "B", "C", "src", "dst"
  std::string row_name, col_name;  // "M", "K", ...
  int64_t rows = 0, cols = 0;
  std::vector<std::vector<Owner>> expected, actual;  // per cell, column-major (r + rows*c)
  std::vector<bool> wrong;                           // per cell
};
struct DiffPicture {
  std::vector<DiffOperand> operands;
  std::vector<std::string> notes;  // legend lines (what was established, ...)
};
Scene diff_scene(const DiffPicture& picture, const ViewOptions& options = {});

// CuTe's 8-colour TV palette (SVGColor_TV / TikzColor_TV), by index mod 8.
Rgb cute_tv_color(int64_t i);

// A multi-owner label line: every id when it fits in `budget` characters ("T0-127"
// a range, "T0,64" a list, "T0-3,16-19"), else the first and the count ("T0 ×4",
// "T0×256" when the space does not fit), else the count alone ("×256").  `ids` sorted, possibly with repeats.
std::string owner_line(char letter, std::span<const int64_t> ids, int64_t first, size_t budget);

}  // namespace cutevis
