// cutevis tmem; see app/tmem_command.hpp.
#include "app/tmem_command.hpp"

#include <set>

#include "atoms/analysis/json.hpp"
#include "atoms/analysis/tmem_map.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/tmem.hpp"
#include "lib/element_types.hpp"
#include "renderers/panels.hpp"

namespace cutevis {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// printf's %-Ns and %Ns: TEXT and spaces up to WIDTH bytes, after it or before it.
std::string left_aligned(const std::string& text, size_t width) {
  return text + std::string(width > text.size() ? width - text.size() : 0, ' ');
}
std::string right_aligned(const std::string& text, size_t width) {
  return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
}

TmemAccumulator accumulator(const TmemOptions& o) {
  if (!o.mma.empty()) {
    if (!o.acc.empty()) throw Error("give the accumulator by --mma or by --acc, not both");
    const MmaAtom atom = find_mma_atom(o.mma);
    if (atom.family != "SM100_UMMA")
      throw Error("--mma: " + o.mma + " is not an SM100 UMMA (its accumulator is not in tensor memory)");
    return umma_accumulator(atom.shape_mnk[0].value(), atom.shape_mnk[1].value(), static_cast<int>(size(atom.thr_id)),
                            atom.type_c);
  }
  const std::string mn = o.acc.empty() ? "128x256" : o.acc;
  const size_t x = mn.find('x');
  int64_t m = 0, n = 0;
  try {
    if (x == std::string::npos) throw Error("");
    size_t used = 0;
    m = std::stoll(mn.substr(0, x), &used);
    if (used != x) throw Error("");
    n = std::stoll(mn.substr(x + 1), &used);
    if (used != mn.size() - x - 1) throw Error("");
  } catch (const std::exception&) {
    throw Error("--acc is MxN, e.g. 128x256, not '" + mn + "'");
  }
  ValueType t;
  if (!lookup_value_type(o.type, t)) throw Error("--type: unknown element type '" + o.type + "'");
  return umma_accumulator(m, n, o.cta_group, t);
}

// make_tensor(make_tmem_ptr<T>(0), layout): what `tCtAcc` stands for
std::string acc_tensor_text(const TmemAccumulator& acc) {
  return "make_tensor(make_tmem_ptr<" + acc.type.name + ">(0), " + to_string(acc.layout, true) + ")";
}

std::string lanes_text(const std::vector<int64_t>& lanes) {
  std::vector<int64_t> v(lanes.begin(), lanes.end());
  return compress_ranges(v);
}

std::string warps_note(const TmemCopyMap& map) {
  std::set<int64_t> quarters;
  for (const auto& c : map.cells)
    if (c.thread >= 0) quarters.insert(c.lane / 32);
  std::string q;
  for (int64_t x : quarters) q += (q.empty() ? "" : ", ") + str(x);
  return "warps 0-3 of a warp group (or any four with w%4 = 0..3, e.g. epilogue warps 4-7); lane quarters used: " + q;
}

Output choose_output(const TmemOptions& o, const TmemAccumulator& acc) {
  auto choices = choose_tmem_copies(acc, o.threads, !o.store);
  if (o.json) {
    OrderedJson j;
    j["accumulator"] = {{"m", acc.mma_m}, {"n", acc.n}, {"cta_group", acc.cta_group}, {"type", acc.type.name}};
    j["threads"] = o.threads;
    j["atoms"] = OrderedJson::array();
    for (const auto& c : choices)
      j["atoms"].push_back({{"op", c.op},
                            {"values_per_instruction", c.values_per_instruction},
                            {"registers_per_instruction", c.registers_per_instruction},
                            {"instructions_per_thread", c.instructions},
                            {"values_per_thread", c.values_per_thread},
                            {"contiguous_n", c.contiguous_n}});
    return Output{j.dump(2) + "\n", false};
  }
  std::string s = "tcgen05." + std::string(o.store ? "st" : "ld") + " atoms for a " + str(acc.mma_m) + "x" +
                  str(acc.n) + " " + acc.type.name + " accumulator (cta_group " + str(acc.cta_group) + ", " +
                  str(acc.m_cta()) + " rows per CTA), " + str(o.threads) + " epilogue threads:\n";
  // printf's "  %-34s %8s %8s %8s %10s %6s\n"
  auto row = [&s](const std::string& atom, const std::string& vals, const std::string& regs, const std::string& ins,
                  const std::string& vals_thr, const std::string& contn) {
    s += "  " + left_aligned(atom, 34) + " " + right_aligned(vals, 8) + " " + right_aligned(regs, 8) + " " +
         right_aligned(ins, 8) + " " + right_aligned(vals_thr, 10) + " " + right_aligned(contn, 6) + "\n";
  };
  row("atom", "vals/ins", "regs/ins", "ins/thr", "vals/thr", "contN");
  for (const auto& c : choices)
    row(c.op, str(c.values_per_instruction), str(c.registers_per_instruction), str(c.instructions),
        str(c.values_per_thread), str(c.contiguous_n));
  if (choices.empty()) s += "  (none: no tcgen05 atom's values lie in this accumulator)\n";
  s += "contN: the longest run of a thread's values along n in register order (a vectorized store's width).\n";
  return Output{s, false};
}

Scene tmem_picture(const TmemCopyMap& map, const std::string& title) {
  const TmemAccumulator& acc = map.acc;
  const int64_t m_cta = acc.m_cta(), n = acc.n;
  int64_t columns = 0;
  for (const auto& c : map.cells) columns = std::max(columns, c.column + 1);
  GridPanel tmem, tile;
  tmem.name = "TMEM";
  tmem.caption = "TMEM (lane x 32-bit column)";
  tmem.row_name = "lane ";
  tmem.col_name = "col ";
  tmem.rows = 128;
  tmem.cols = columns;
  tmem.row_block = 32;
  const size_t tn = static_cast<size_t>(tmem.rows * tmem.cols);
  tmem.labels.assign(tn, "");
  tmem.colour.assign(tn, -1);
  tmem.tooltips.assign(tn, "not this accumulator's");
  tile.name = "C";
  tile.caption = "accumulator (m x n) of this CTA";
  tile.row_name = "m";
  tile.col_name = "n";
  tile.rows = m_cta;
  tile.cols = n;
  tile.row_block = 32;
  const size_t cn = static_cast<size_t>(m_cta * n);
  tile.labels.assign(cn, "");
  tile.colour.assign(cn, -1);
  tile.tooltips.assign(cn, "");
  const bool halves = acc.type.bits == 16;
  for (const auto& c : map.cells) {
    const std::string label = "T" + str(c.thread) + "\nr" + str(c.reg);
    const std::string tip = "(m,n) = (" + str(c.m) + "," + str(c.n) + "), lane " + str(c.lane) + " column " +
                            str(c.column) + (halves ? (c.half ? " high half" : " low half") : "") + "; warp " +
                            str(c.thread / 32) + " thread " + str(c.thread) + " register " + str(c.reg) + " (value " +
                            str(c.value) + ")";
    const size_t ti = static_cast<size_t>(c.lane + 128 * c.column);
    // a 16-bit column holds two values: the cell shows the lower n
    if (tmem.labels[ti].empty() || !halves || c.half == 0) {
      tmem.labels[ti] = label + (halves ? "\n" + std::string(c.half ? "hi" : "lo") : "");
      tmem.colour[ti] = c.thread;
    }
    tmem.tooltips[ti] = tmem.tooltips[ti] == "not this accumulator's" ? tip : tmem.tooltips[ti] + "; " + tip;
    const size_t ci = static_cast<size_t>(c.m + m_cta * c.n);
    tile.labels[ci] = label;
    tile.colour[ci] = c.thread;
    tile.tooltips[ci] = tip;
  }
  std::vector<std::string> legend = {
      map.op + " over a " + str(acc.mma_m) + "x" + str(acc.n) + " " + acc.type.name + " accumulator" +
          (acc.cta_group == 2 ? " of a CTA pair: this CTA holds rows 0-" + str(m_cta - 1) +
                                    " of its half (the peer CTA the other " + str(m_cta) + " rows, same positions)"
                              : ""),
      "cell: T<thread> r<register> (thread t is lane t%32 of warp t/32); colour by thread",
      "lanes used: " + lanes_text(map.lanes_used) + "; " + warps_note(map),
      map.quarter_rule ? "warp-to-lane-quarter rule holds: warp w reads lanes 32*(w%4) to 32*(w%4)+31"
                       : "BREAKS the lane-quarter rule: " + map.violation};
  return grid_panels_scene(title, {tmem, tile}, legend);
}

OrderedJson map_json(const TmemCopyMap& map, const TiledCopy& copy) {
  OrderedJson j;
  const TmemAccumulator& acc = map.acc;
  j["accumulator"] = {{"m", acc.mma_m},
                      {"n", acc.n},
                      {"cta_group", acc.cta_group},
                      {"m_per_cta", acc.m_cta()},
                      {"type", acc.type.name},
                      {"layout", to_string(acc.layout, true)}};
  j["op"] = map.op;
  j["ptx"] = copy.atom.ptx;
  j["threads"] = map.threads;
  j["tiled_layout_tv"] = to_string(copy.tiled_layout_tv, true);
  j["quarter_rule"] = map.quarter_rule;
  if (!map.quarter_rule) j["violation"] = map.violation;
  j["lanes_used"] = lanes_text(map.lanes_used);
  j["values_per_thread"] = map.values_per_thread;
  j["values_per_instruction"] = map.values_per_instruction;
  j["registers_per_instruction"] = map.registers_per_instruction;
  j["instructions_per_thread"] = map.instructions;
  j["contiguous_n"] = map.contiguous_n;
  j["cells_fields"] = {"m", "n", "lane", "column", "half", "thread", "register"};
  auto& cells = j["cells"] = OrderedJson::array();
  for (const auto& c : map.cells) cells.push_back({c.m, c.n, c.lane, c.column, c.half, c.thread, c.reg});
  return j;
}

}  // namespace

Output run_tmem(const TmemOptions& o) {
  register_catalogue_names();
  if (o.picture.style == Style::kCute) throw Error("CuTe has no picture of tensor memory: use the default style");
  const TmemAccumulator acc = accumulator(o);
  if (o.choose) {
    if (!o.expression.empty()) throw Error("--choose lists atoms for the accumulator: give no expression");
    if (o.picture.format) throw Error("--choose prints a table (or --json), not a picture");
    return choose_output(o, acc);
  }
  if (o.expression.empty())
    throw Error(
        "cutevis tmem needs an expression, e.g. 'make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tCtAcc)', or --choose");
  SourceOptions sources = o.sources;
  sources.defines.push_back("tCtAcc=" + acc_tensor_text(acc));
  std::shared_ptr<Environment> env = load_sources(sources);
  Value v;
  try {
    v = evaluate_source(o.expression, env.get(), o.syntax);
  } catch (const Error& e) {
    if (acc.m_cta() == 64 && std::string(e.what()).find("does not exist in the data layout") != std::string::npos)
      throw Error(std::string(e.what()) + "; a 64-row accumulator holds half the data paths (lanes 0-15 of each " +
                      "quarter" + (acc.cta_group == 2 ? ", or N split over the lanes" : "") +
                      "): a 32dp atom reads lanes it does not have, use a 16dp atom (cutevis tmem --choose)",
                  e.position());
    throw;
  }
  const TiledCopy* copy = as_tiled_copy(v);
  if (copy == nullptr || copy->atom.family != "SM100_TMEM")
    throw Error("cutevis tmem draws a tcgen05 copy: make_tmem_copy(SM100_TMEM_LOAD_...{}, tCtAcc), got " +
                v.describe());
  const TmemCopyMap map = map_tmem_copy(*copy, acc);
  if (o.json) return Output{map_json(map, *copy).dump() + "\n", false};
  if (o.picture.format) {
    RenderOptions r;
    r.scale = o.picture.scale;
    r.cell = o.picture.cell;
    r.ansi_color = o.picture.ansi_color && *o.picture.format == Format::kTxt;
    Output out;
    out.bytes = render(tmem_picture(map, o.expression), *o.picture.format, r);
    out.binary = *o.picture.format == Format::kPng || *o.picture.format == Format::kPdf;
    return out;
  }
  std::string s;
  s += "accumulator: " + str(acc.mma_m) + "x" + str(acc.n) + " " + acc.type.name + ", cta_group " + str(acc.cta_group) +
       " (" + str(acc.m_cta()) + " rows per CTA), tCtAcc = " + to_string(acc.layout, true) + "\n";
  s += "copy: " + map.op + " (" + copy->atom.ptx + "), " + str(map.threads) + " threads, TiledLayout_TV " +
       to_string(copy->tiled_layout_tv, true) + "\n";
  s += "lanes used: " + lanes_text(map.lanes_used) + "\n";
  s += "needs: " + warps_note(map) + "\n";
  s += std::string("lane-quarter rule (warp w reaches lanes 32*(w%4)..+31): ") +
       (map.quarter_rule ? "holds" : "BROKEN: " + map.violation) + "\n";
  s += "per thread: " + str(map.values_per_thread) + " values in " + str(map.instructions) + " instructions of " +
       str(map.values_per_instruction) + " values (" + str(map.registers_per_instruction) +
       " registers); longest run along n: " + str(map.contiguous_n) + "\n";
  s += "thread 0 holds:";
  int shown = 0;
  for (const auto& c : map.cells)
    if (c.thread == 0 && shown < 8) {
      s += " (" + str(c.m) + "," + str(c.n) + ")->r" + str(c.reg);
      ++shown;
    }
  s += map.values_per_thread > 8 ? " ...\n" : "\n";
  return Output{s, false};
}

}  // namespace cutevis
