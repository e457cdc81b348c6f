// cutevis mma --sf; see app/sf_command.hpp.
#include "app/sf_command.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "app/sources.hpp"
#include "atoms/blockscaled.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/tiled_mma.hpp"
#include "renderers/panels.hpp"

namespace cutevis {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// "128x256x128" (sep 'x') or "0,1,0,2" (sep ','): min..max non-negative integers (positive unless allow_zero)
std::vector<int64_t> int_list(const std::string& text, char sep, size_t min, size_t max, bool allow_zero,
                              const std::string& what) {
  std::vector<int64_t> v;
  size_t at = 0;
  while (true) {
    size_t used = 0;
    int64_t x = 0;
    try {
      if (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])))
        x = std::stoll(text.substr(at), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || x < 0 || (x == 0 && !allow_zero) || v.size() == max) throw Error(what + ", not '" + text + "'");
    v.push_back(x);
    at += used;
    if (at == text.size()) break;
    if (text[at] != sep) throw Error(what + ", not '" + text + "'");
    ++at;
  }
  if (v.size() < min) throw Error(what + ", not '" + text + "'");
  return v;
}

IntTuple sf_tile(const std::string& text, const TiledMma& mma) {
  const int64_t m = mma.atom.shape_mnk[0].value(), n = mma.atom.shape_mnk[1].value();
  if (text.empty()) return tup(m, n, 4 * mma.atom.sf_vec_size);  // one 128x4 block of scale factors per row
  const auto v = int_list(text, 'x', 3, 3, false, "--sf-tile is MxNxK, e.g. 128x256x128");
  return tup(v[0], v[1], v[2]);
}

IntTuple sf_problem(const std::string& text) {
  if (text.empty()) return IntTuple();
  const auto v = int_list(text, 'x', 3, 4, false, "--sf-problem is MxNxK or MxNxKxL, e.g. 1024x512x256x3");
  std::vector<IntTuple> modes;
  for (int64_t x : v) modes.push_back(IntTuple::dynamic(x));  // run-time extents, as a kernel's problem shape
  return IntTuple::tuple(modes);
}

// SFx in tensor memory after UTCCP: 128 lanes x (4 bytes of each 32-bit column), each scale factor where the
// MMA reads it, labelled and coloured like the operand (its gmem offset); the four subpartitions hold copies.
GridPanel tmem_panel(const std::string& x, const std::string& row, int64_t rows, int64_t k, int vec,
                     const std::vector<int64_t>& gmem, const std::vector<SfTmemCell>& tmem) {
  int64_t first = tmem.empty() ? 0 : tmem[0].column, last = first;
  for (const SfTmemCell& c : tmem) {
    first = std::min(first, c.column);
    last = std::max(last, c.column);
  }
  GridPanel p;
  p.name = "SF" + x + " tmem";
  p.caption = "SF" + x + " in tensor memory (columns " + str(first) + "-" + str(last) + " after the accumulators)";
  p.row_name = "lane";
  p.col_name = "column.byte";
  p.rows = 128;
  p.cols = 4 * (last - first + 1);
  p.row_block = 32;
  p.col_block = 4;
  p.labels.assign(static_cast<size_t>(p.rows * p.cols), "");
  p.colour.assign(p.labels.size(), -1);
  p.tooltips.assign(p.labels.size(), "");
  for (int64_t s = 0; s < k / vec; ++s)
    for (int64_t r = 0; r < rows; ++r) {
      const size_t i = static_cast<size_t>(r + rows * s * vec);
      const SfTmemCell& c = tmem[i];
      for (int64_t copy = 0; copy < 4; ++copy) {
        const int64_t lane = c.lane + 32 * copy, col = 4 * (c.column - first) + c.byte;
        const size_t cell = static_cast<size_t>(lane + p.rows * col);
        p.labels[cell] = str(gmem[i]);
        p.colour[cell] = gmem[i];
        p.tooltips[cell] = "lane " + str(lane) + ", column " + str(c.column) + ", byte " + str(c.byte) + ": SF" + x +
                           " of " + x + "(" + row + str(r) + ", k" + str(s * vec) + "-" + str(s * vec + vec - 1) +
                           "), gmem offset " + str(gmem[i]) + (copy ? " (subpartition copy)" : "");
      }
    }
  return p;
}

// The operand (rows x K) labelled and coloured by its SF's gmem offset, and the SF grids (rows x K/vec).
void operand_panels(std::vector<GridPanel>& out, const std::string& x, const std::string& row, int64_t rows, int64_t k,
                    int vec, const std::vector<int64_t>& gmem, const std::vector<int64_t>& smem,
                    const std::vector<SfTmemCell>& tmem) {
  GridPanel op;
  op.name = x;
  op.caption = x + " (" + row + " x k): SF" + x + " gmem offset";
  op.row_name = row;
  op.col_name = "k";
  op.rows = rows;
  op.cols = k;
  op.col_block = vec;
  op.row_block = 32;
  for (size_t i = 0; i < gmem.size(); ++i) {
    op.labels.push_back(str(gmem[i]));
    op.colour.push_back(gmem[i]);
    op.tooltips.push_back("scaled by SF" + x + " gmem offset " + str(gmem[i]) + ", smem offset " + str(smem[i]) +
                          ", TMEM lane " + str(tmem[i].lane) + " column " + str(tmem[i].column) + " byte " +
                          str(tmem[i].byte));
  }
  out.push_back(op);
  for (int pass = 0; pass < 2; ++pass) {
    GridPanel sf;
    sf.name = "SF" + x + (pass == 0 ? " gmem" : " smem");
    sf.caption = "SF" + x + (pass == 0 ? " in global memory" : " in shared memory");
    sf.row_name = row;
    sf.col_name = "sf";
    sf.rows = rows;
    sf.cols = k / vec;
    sf.row_block = 32;
    for (int64_t s = 0; s < sf.cols; ++s)
      for (int64_t r = 0; r < rows; ++r) {
        const size_t i = static_cast<size_t>(r + rows * s * vec);
        const int64_t off = pass == 0 ? gmem[i] : smem[i];
        sf.labels.push_back(str(off));
        sf.colour.push_back(gmem[i]);
        sf.tooltips.push_back("serves " + x + "(" + row + str(r) + ", k" + str(s * vec) + "-" + str(s * vec + vec - 1) +
                              "); gmem offset " + str(gmem[i]) + ", smem offset " + str(smem[i]));
      }
    out.push_back(sf);
  }
  out.push_back(tmem_panel(x, row, rows, k, vec, gmem, tmem));
}

nlohmann::ordered_json per_element(const std::vector<int64_t>& gmem, const std::vector<int64_t>& smem,
                                   const std::vector<SfTmemCell>& tmem) {
  auto a = nlohmann::ordered_json::array();
  for (size_t i = 0; i < gmem.size(); ++i) a.push_back({gmem[i], smem[i], tmem[i].lane, tmem[i].column, tmem[i].byte});
  return a;
}

}  // namespace

Output run_mma_sf(const ShowOptions& show, const SfOptions& options) {
  register_catalogue_names();
  if (show.picture.style == Style::kCute) throw Error("CuTe has no picture of scale factors: use the default style");
  const Value v = evaluate_source(show.input, show.env.get(), show.syntax);
  TiledMma mma;
  if (const TiledMma* m = as_tiled_mma(v)) mma = *m;
  else if (const MmaAtom* a = as_mma_atom(v)) mma = make_tiled_mma(*a);
  else throw Error("--sf needs a block-scaled UMMA or a TiledMMA of one, got " + v.describe());
  const IntTuple tile = sf_tile(options.tile, mma);
  const std::vector<int64_t> coord =
      options.coord.empty()
          ? std::vector<int64_t>{}
          : int_list(options.coord, ',', 1, 4, true, "--sf-coord is m,n,k,l (tile coordinates), e.g. 1,0,2,1");
  if (!options.coord.empty() && options.problem.empty())
    throw Error("--sf-coord places the tile in a problem: give --sf-problem MxNxK[xL] too");
  const ScaleFactorMap s = scale_factor_map(mma, tile, sf_problem(options.problem), coord);
  const std::string config = "Sm1xxBlockScaledConfig<" + str(s.vec_size) + ">";
  if (show.json) {
    nlohmann::ordered_json j;
    j["mma"] = mma.atom.name;
    j["sf_vec_size"] = s.vec_size;
    j["tile"] = {s.m, s.n, s.k};
    j["problem"] = to_string(s.problem, true);
    j["tile_coord"] = {s.coord[0], s.coord[1], s.coord[2], s.coord[3]};
    j["sfb_row_shift"] = s.sfb_row_shift;
    j["gmem_sfa"] = to_string(s.gmem_sfa, true);
    j["gmem_sfb"] = to_string(s.gmem_sfb, true);
    j["smem_sfa"] = to_string(s.smem_sfa, true);
    j["smem_sfb"] = to_string(s.smem_sfb, true);
    j["tmem_sfa"] = to_string(s.tmem_sfa, true);
    j["tmem_sfb"] = to_string(s.tmem_sfb, true);
    j["tmem_columns"] = {s.tmem_cols_a, s.tmem_cols_b};
    j["utccp"] = s.utccp;
    j["fields"] = {"gmem_offset", "smem_offset", "tmem_lane", "tmem_column", "tmem_byte"};
    j["tmem"] = "after make_utccp_copy(" + s.utccp +
                "): lane of subpartition 0 (copies in lanes +32, +64, +96), 32-bit column counted from tCtSFA (right "
                "after the accumulators; tCtSFB follows at column " +
                str(s.tmem_cols_a) + "), byte = the MMA's SF ID";
    j["sf_a"] = per_element(s.gmem_a, s.smem_a, s.tmem_a);  // element m + M*k
    j["sf_b"] = per_element(s.gmem_b, s.smem_b, s.tmem_b);  // element n + N*k
    return Output{j.dump() + "\n", false};
  }
  std::vector<GridPanel> panels;
  operand_panels(panels, "A", "m", s.m, s.k, s.vec_size, s.gmem_a, s.smem_a, s.tmem_a);
  operand_panels(panels, "B", "n", s.n, s.k, s.vec_size, s.gmem_b, s.smem_b, s.tmem_b);
  const std::vector<std::string> legend = {
      mma.atom.name + ", tile " + str(s.m) + "x" + str(s.n) + "x" + str(s.k) + ": one scale factor per " +
          str(s.vec_size) + " elements of k; colour: the scale factor (its offset in global memory)",
      "gmem: cutlass::detail::" + config + "::tile_atom_to_shape_SFA/SFB(" + to_string(s.problem, true) +
          "), tile (m,n,k,l) = (" + str(s.coord[0]) + "," + str(s.coord[1]) + "," + str(s.coord[2]) + "," +
          str(s.coord[3]) + ") = " + to_string(s.gmem_sfa, true) + " / " + to_string(s.gmem_sfb, true),
      "smem: " + config + "::deduce_smem_layoutSFA/SFB(tiled_mma, tile) = " + to_string(s.smem_sfa, true) + " / " +
          to_string(s.smem_sfb, true),
      "tmem: UMMA::tmem_sf_frg over the smem stage's shape = " + to_string(s.tmem_sfa, true) + " / " +
          to_string(s.tmem_sfb, true) + ", filled by make_utccp_copy(" + s.utccp +
          "): row r's 4 SFs of a k-block in lane r%32 of every subpartition, one byte each; SFB from column " +
          str(s.tmem_cols_a) +
          (s.sfb_row_shift ? " (N = 192, odd n tile: B's rows are SFB rows 64-255 of the 256 loaded; tCtSFB + 2 "
                             "columns)"
                           : "")};
  if (!show.picture.format) {
    std::string t;
    for (const auto& l : legend) t += l + "\n";
    return Output{t, false};
  }
  RenderOptions r;
  r.scale = show.picture.scale;
  r.cell = show.picture.cell;
  r.ansi_color = show.picture.ansi_color && *show.picture.format == Format::kTxt;
  Output out;
  out.bytes = render(grid_panels_scene(show.input, panels, legend, GridColours::kCategory), *show.picture.format, r);
  out.binary = *show.picture.format == Format::kPng || *show.picture.format == Format::kPdf;
  return out;
}

}  // namespace cutevis
