// cutevis mma --sf; see app/sf_command.hpp.
#include "app/sf_command.hpp"

#include <algorithm>
#include <cctype>

#include "app/sources.hpp"
#include "atoms/analysis/json.hpp"
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

OrderedJson per_element(const std::vector<int64_t>& gmem, const std::vector<int64_t>& smem,
                        const std::vector<SfTmemCell>& tmem) {
  auto a = OrderedJson::array();
  for (size_t i = 0; i < gmem.size(); ++i) a.push_back({gmem[i], smem[i], tmem[i].lane, tmem[i].column, tmem[i].byte});
  return a;
}

// SM120 block-scaled mma.sync (SM120::BLOCKSCALED::SM120_16x8x{32,64}_TN_VS): MMA_Traits' SFALayout
// (T32,V_K) -> (M16,K) and SFBLayout (T32,V_K) -> (N8,K) say which thread's scale-factor register serves each row
// and k; a thread's K values repeat each scale factor SFVecSize times, so after filter_zeros its register holds
// the K/SFVecSize scale factors of its row, byte kb for k-block kb (one 32-bit register, "r"(sfa0)).
struct Sm120Side {
  std::string x, row;
  int64_t rows = 0;
  std::vector<std::vector<int64_t>> holders;  // per SF (row + rows*kb): the threads whose register holds it
  std::vector<int64_t> row_of;                // per (thread + 32*kb): the row its byte kb serves, -1 none
};

Sm120Side sm120_side(const std::string& x, const std::string& row, const Layout& tv, int64_t rows, int64_t k, int vec) {
  Sm120Side s;
  s.x = x;
  s.row = row;
  s.rows = rows;
  const int64_t blocks = k / vec;
  s.holders.resize(static_cast<size_t>(rows * blocks));
  s.row_of.assign(static_cast<size_t>(32 * blocks), -1);
  for (int64_t t = 0; t < 32; ++t)
    for (int64_t v = 0; v < size(get(tv, 1)); ++v) {
      const int64_t c = tv(t + 32 * v), r = c % rows, kb = (c / rows) / vec;
      auto& h = s.holders[static_cast<size_t>(r + rows * kb)];
      if (std::find(h.begin(), h.end(), t) == h.end()) h.push_back(t);
      s.row_of[static_cast<size_t>(t + 32 * kb)] = r;
    }
  return s;
}

std::string thread_list(const std::vector<int64_t>& ts) {
  std::string out;
  for (int64_t t : ts) out += (out.empty() ? "T" : ",") + str(t);
  return out;
}

void sm120_panels(std::vector<GridPanel>& out, const Sm120Side& s, int64_t k, int vec) {
  const int64_t blocks = k / vec;
  GridPanel op;
  op.name = s.x;
  op.caption = s.x + " (" + s.row + " x k): its scale factor (" + s.row + " + " + str(s.rows) + "*k-block)";
  op.row_name = s.row;
  op.col_name = "k";
  op.rows = s.rows;
  op.cols = k;
  op.col_block = vec;
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t r = 0; r < s.rows; ++r) {
      const int64_t sf = r + s.rows * (kk / vec);
      op.labels.push_back(str(sf));
      op.colour.push_back(sf);
      op.tooltips.push_back("scaled by SF" + s.x + " " + str(sf) + ", in byte " + str(kk / vec) +
                            " of the SF register of " + thread_list(s.holders[static_cast<size_t>(sf)]));
    }
  out.push_back(op);
  GridPanel sf;
  sf.name = "SF" + s.x;
  sf.caption = "SF" + s.x + ": the threads whose register holds it";
  sf.row_name = s.row;
  sf.col_name = "k-block";
  sf.rows = s.rows;
  sf.cols = blocks;
  for (int64_t kb = 0; kb < blocks; ++kb)
    for (int64_t r = 0; r < s.rows; ++r) {
      const int64_t i = r + s.rows * kb;
      sf.labels.push_back(thread_list(s.holders[static_cast<size_t>(i)]));
      sf.colour.push_back(i);
      sf.tooltips.push_back("SF" + s.x + " of " + s.row + str(r) + ", k " + str(kb * vec) + "-" +
                            str(kb * vec + vec - 1) + ": byte " + str(kb) + " of " +
                            thread_list(s.holders[static_cast<size_t>(i)]));
    }
  out.push_back(sf);
  GridPanel regs;
  regs.name = "SF" + s.x + " registers";
  regs.caption = "each thread's SF" + s.x + " register: the " + s.row + " its byte serves";
  regs.row_name = "thread";
  regs.col_name = "byte";
  regs.rows = 32;
  regs.cols = blocks;
  regs.row_block = 4;
  for (int64_t kb = 0; kb < blocks; ++kb)
    for (int64_t t = 0; t < 32; ++t) {
      const int64_t r = s.row_of[static_cast<size_t>(t + 32 * kb)];
      regs.labels.push_back(r < 0 ? "" : s.row + str(r));
      regs.colour.push_back(r < 0 ? -1 : r + s.rows * kb);
      regs.tooltips.push_back(r < 0 ? ""
                                    : "thread " + str(t) + ", byte " + str(kb) + ": SF" + s.x + " of " + s.row +
                                          str(r) + ", k-block " + str(kb));
    }
  out.push_back(regs);
}

OrderedJson sm120_json(const Sm120Side& s, int64_t k, int vec) {
  auto a = OrderedJson::array();
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t r = 0; r < s.rows; ++r) {
      const int64_t sf = r + s.rows * (kk / vec);
      a.push_back({sf, kk / vec, s.holders[static_cast<size_t>(sf)]});
    }
  return a;
}

// The panels as the picture format asks (both SF views end here).
Output draw_sf_panels(const ShowOptions& show, const std::vector<GridPanel>& panels,
                      const std::vector<std::string>& legend) {
  RenderOptions r;
  r.scale = show.picture.scale;
  r.cell = show.picture.cell;
  r.ansi_color = show.picture.ansi_color && *show.picture.format == Format::kTxt;
  Output out;
  out.bytes = render(grid_panels_scene(show.input, panels, legend, GridColours::kCategory), *show.picture.format, r);
  out.binary = *show.picture.format == Format::kPng || *show.picture.format == Format::kPdf;
  return out;
}

Output run_sm120_sf(const ShowOptions& show, const MmaAtom& atom) {
  const int vec = atom.sf_vec_size;
  const int64_t k = atom.shape_mnk[2].value();
  const Sm120Side a = sm120_side("A", "m", atom.layout_sfa, 16, k, vec);
  const Sm120Side b = sm120_side("B", "n", atom.layout_sfb, 8, k, vec);
  const std::vector<std::string> legend = {
      atom.name + ": one scale factor per " + str(vec) + " elements of k; a thread's SF register holds its row's " +
          str(k / vec) + " scale factor(s), byte kb for k-block kb",
      "SFALayout (T32,V" + str(k) + ") -> (M16,K" + str(k) + ") = " + to_string(atom.layout_sfa, true) +
          ": threads t and t+2 name the same scale factor (the 2:0 mode, 'effectively 16 threads')",
      "SFBLayout (T32,V" + str(k) + ") -> (N8,K" + str(k) + ") = " + to_string(atom.layout_sfb, true) +
          ": the four threads of a quad name the same one (the 4:0 mode); the instruction's byte and thread "
          "selectors (bidA/tidA, bidB/tidB) are 0"};
  if (show.json) {
    OrderedJson j;
    j["mma"] = atom.name;
    j["sf_vec_size"] = vec;
    j["sfa_layout"] = to_string(atom.layout_sfa, true);
    j["sfb_layout"] = to_string(atom.layout_sfb, true);
    j["fields"] = {"sf_index", "register_byte", "threads"};
    j["sf_a"] = sm120_json(a, k, vec);  // element m + 16*k
    j["sf_b"] = sm120_json(b, k, vec);  // element n + 8*k
    auto regs = [](const Sm120Side& s) {
      auto r = OrderedJson::array();  // per thread: the row each byte serves (null: none)
      const int64_t blocks = static_cast<int64_t>(s.row_of.size()) / 32;
      for (int64_t t = 0; t < 32; ++t) {
        auto bytes = OrderedJson::array();
        for (int64_t kb = 0; kb < blocks; ++kb) {
          const int64_t row = s.row_of[static_cast<size_t>(t + 32 * kb)];
          if (row < 0) bytes.push_back(nullptr);
          else bytes.push_back(row);
        }
        r.push_back(bytes);
      }
      return r;
    };
    j["sfa_registers"] = regs(a);
    j["sfb_registers"] = regs(b);
    return Output{j.dump() + "\n", false};
  }
  if (!show.picture.format) {
    std::string t;
    for (const auto& l : legend) t += l + "\n";
    const int64_t blocks = k / vec;
    const std::string bytes = blocks == 1 ? "byte 0" : "bytes 0-" + str(blocks - 1);
    for (int64_t tt = 0; tt < 32; ++tt)
      t += "T" + str(tt) + ": SFA register = m" + str(a.row_of[static_cast<size_t>(tt)]) + "'s " + bytes +
           ", SFB register = n" + str(b.row_of[static_cast<size_t>(tt)]) + "'s " + bytes + "\n";
    return Output{t, false};
  }
  std::vector<GridPanel> panels;
  sm120_panels(panels, a, k, vec);
  sm120_panels(panels, b, k, vec);
  return draw_sf_panels(show, panels, legend);
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
  if (mma.atom.family == "SM120" && mma.atom.sf_vec_size > 0) {
    if (!options.tile.empty() || !options.problem.empty() || !options.coord.empty())
      throw Error(
          "--sf-tile, --sf-problem and --sf-coord are for SM100 UMMA; an SM120 mma.sync atom's scale factors "
          "are registers of one 16x8 tile");
    return run_sm120_sf(show, mma.atom);
  }
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
    OrderedJson j;
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
  return draw_sf_panels(show, panels, legend);
}

}  // namespace cutevis
