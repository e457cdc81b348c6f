#include "app/commands.hpp"

#include <algorithm>
#include <cctype>
#include <variant>

#include "app/atom_json.hpp"
#include "app/diagnostics.hpp"
#include "app/exit_codes.hpp"
#include "app/inspect.hpp"
#include "app/json_values.hpp"
#include "app/sources.hpp"
#include "app/verify_json.hpp"
#include "app/verify_pipeline.hpp"
#include "atoms/analysis/banks.hpp"
#include "atoms/analysis/json.hpp"
#include "atoms/analysis/partition.hpp"
#include "atoms/atom_lookup.hpp"
#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/tma.hpp"
#include "lib/element_types.hpp"
#include "lib/lang/expr.hpp"
#include "lib/lang/tensor.hpp"
#include "lib/threads.hpp"

namespace cutevis {

void register_catalogue_names() {
  static OnceFlag once;
  call_once(once, [] {
    register_mma_names(default_registry());
    register_copy_names(default_registry());
    register_cpp_atom_names(default_registry());
    register_partition_names(default_registry());  // after cpp_atom_names: partition_fragment_C(tiled_mma, shape)
    register_dsl_names(default_registry());
  });
}

namespace {

std::vector<Warning>& pending_warnings() {
  static std::vector<Warning> w;
  return w;
}

// The sources' lines for a picture's legend (an #if branch read without --arch/-D), until the
// command's warnings are taken.
std::vector<std::string>& pending_legend_notes() {
  static std::vector<std::string> notes;
  return notes;
}

// An expression or snippet, with the --from / -D names (app/sources.cpp).
Value evaluate(const std::string& expression, const std::shared_ptr<Environment>& env = nullptr,
               Syntax syntax = Syntax::kAuto) {
  if (env)
    for (const std::string& note : env->source_notes())
      if (std::find(pending_legend_notes().begin(), pending_legend_notes().end(), note) == pending_legend_notes().end())
        pending_legend_notes().push_back(note);
  return evaluate_source(expression, env.get(), syntax, &pending_warnings());
}

// The bank picture's numbers come from the analysis beside atoms/; the view draws them.
BankShading bank_model(std::span<const int64_t> values, int64_t rows, int element_bits) {
  LayoutBanks b = layout_banks(values, rows, element_bits);
  return {std::move(b.bank), b.worst_row, b.worst_col};
}

ViewOptions view_options(const ShowOptions& o) {
  ViewOptions v;
  v.banks = bank_model;
  v.title = o.input;
  v.color_by = parse_color_by(o.picture.color_by);
  if (!o.picture.threads.empty())  // errors point into the --threads text, not the expression
    v.threads = with_source("--threads", o.picture.threads, [&] { return ThreadSet::parse(o.picture.threads); });
  v.bank_element_bits = o.picture.bank_element_bits;
  return v;
}

Output draw(const Scene& scene, const PictureOptions& p, Format fallback) {
  Format f = p.format.value_or(fallback);
  RenderOptions r;
  r.style = p.style;
  r.scale = p.scale;
  r.cell = p.cell;
  r.ansi_color = p.ansi_color && f == Format::kTxt;
  Output out;
  if (pending_legend_notes().empty()) {
    out.bytes = render(scene, f, r);
  } else {  // the picture says which #if branch it was drawn from
    Scene with_notes = scene;
    for (const std::string& note : pending_legend_notes()) with_notes.legend.push_back(note);
    out.bytes = render(with_notes, f, r);
  }
  out.binary = f == Format::kPng || f == Format::kPdf;
  return out;
}

Output text(std::string s) {
  if (s.empty() || s.back() != '\n') s += '\n';
  return Output{std::move(s), false};
}

MmaPicture mma_picture(const TiledMma& m) {
  MmaPicture p;
  p.tv_a = m.tv_layout_a;
  p.tv_b = m.tv_layout_b;
  p.tv_c = m.tv_layout_c;
  p.m = size(m.tile_mnk[0]);
  p.n = size(m.tile_mnk[1]);
  p.k = size(m.tile_mnk[2]);
  p.num_threads = m.num_threads;
  p.bits_a = m.atom.type_a.bits;
  p.bits_b = m.atom.type_b.bits;
  p.bits_c = m.atom.type_c.bits;
  p.atom_values_a = size(m.atom.layout_a.shape[1]);
  p.atom_values_b = size(m.atom.layout_b.shape[1]);
  p.atom_values_c = size(m.atom.layout_c.shape[1]);
  p.registers_a = m.atom.source_a == OperandSource::kRegister;
  p.registers_b = m.atom.source_b == OperandSource::kRegister;
  p.registers_c = m.atom.source_c == OperandSource::kRegister;
  auto memory = [](OperandSource s) -> std::string {
    return s == OperandSource::kSharedMemory   ? "shared memory"
           : s == OperandSource::kTensorMemory ? "tensor memory"
                                               : "";
  };
  p.memory_a = memory(m.atom.source_a);
  p.memory_b = memory(m.atom.source_b);
  p.memory_c = memory(m.atom.source_c);
  if (m.atom.family == "SM100_UMMA" && size(m.atom.thr_id) == 2)  // cta_group::2: the atom's "threads" are CTAs
    p.notes.push_back(
        "2-SM UMMA (cta_group::2): a thread here is a CTA -- T" +
        std::string(
            "2i (even cta rank, issues "
            "tcgen05.mma) and T2i+1 (its peer CTA) are pair i; each holds its half of A's and C's M and of B's N "
            "in its own shared and tensor memory"));
  if (m.atom.family == "SM70")  // what the stride-0 thread mode of its TV layouts is for
    p.notes.push_back("SM70: quad-pairs 1-3 (lanes 4-15, 20-31) each compute their own copy of the tile");
  return p;
}

CopyPicture copy_picture(const TiledCopy& c) {
  CopyPicture p;
  p.tv_s = tma_issued_tv(c, c.layout_s_tv);  // a multicast TMA: each element under the CTA that issues it
  p.tv_d = tma_issued_tv(c, c.layout_d_tv);
  p.m = size(c.tile_mn[0]);
  p.n = size(c.tile_mn) / p.m;  // rank-1 thr/val layouts tile an (M,1) tile; rank 3+: (M,(N,K...)) columns
  p.num_threads = c.num_threads;
  p.notes = tma_picture_notes(c);
  if (c.tile_mn.rank() > 2)
    p.notes.push_back("tile " + to_string(c.tile_mn) + ": columns are its modes after M, column-major");
  return p;
}

// ThrMMA: a thread's coordinate in ThrLayoutVMNK and its cells of A, B and C in value order.
Output show_thread_slice(const TiledMma& m, const ShowOptions& o) {
  if (o.picture.format)
    throw Error("--thread prints a thread's slice as text or JSON; to draw threads use --threads " +
                std::to_string(*o.thread));
  ThrMmaSlice s = thread_slice(m, *o.thread);
  struct Operand {
    const char* name;
    const std::vector<int64_t>* cells;
    int64_t rows;
    const char* row_name;
    const char* col_name;
  };
  const Operand ops[] = {{"a", &s.cells_a, size(m.tile_mnk[0]), "M", "K"},
                         {"b", &s.cells_b, size(m.tile_mnk[1]), "N", "K"},
                         {"c", &s.cells_c, size(m.tile_mnk[0]), "M", "N"}};
  if (o.json) {
    Json j;
    j["thread"] = s.thr_idx;
    j["thr_vmnk"] = int_tuple_to_json(s.thr_vmnk);
    for (const auto& op : ops) {
      Json coords = Json::array();
      for (int64_t cell : *op.cells) coords.push_back({cell % op.rows, cell / op.rows});
      j[op.name] = coords;  // [row, col] of value 0, 1, ...
    }
    return text(j.dump());
  }
  std::string t = "thread " + std::to_string(s.thr_idx) + ": (V,M,N,K) coordinate " + to_string(s.thr_vmnk) + "\n";
  for (const auto& op : ops) {
    t +=
        std::string("  ") + static_cast<char>(std::toupper(op.name[0])) + " (" + op.row_name + "," + op.col_name + "):";
    for (size_t v = 0; v < op.cells->size(); ++v) {
      int64_t cell = (*op.cells)[v];
      t +=
          " V" + std::to_string(v) + "=(" + std::to_string(cell % op.rows) + "," + std::to_string(cell / op.rows) + ")";
    }
    t += "\n";
  }
  return text(t);
}

// --threads naming threads the tiling does not have (0-3,200 on 128 threads): said once.
void warn_threads_outside(const ShowOptions& o, int64_t num_threads) {
  if (o.picture.threads.empty() || num_threads <= 0) return;
  const std::string canon =
      with_source("--threads", o.picture.threads, [&] { return ThreadSet::parse(o.picture.threads); }).to_string();
  const size_t cut = canon.find_last_of(",-");
  const int64_t last = std::stoll(canon.substr(cut == std::string::npos ? 0 : cut + 1));
  if (last >= num_threads)
    pending_warnings().push_back(Warning{"--threads " + canon.substr(0, 80) + " names threads past the tiling's " +
                                         std::to_string(num_threads) + " (0-" + std::to_string(num_threads - 1) +
                                         "); they are not drawn"});
}

Output show_tiled_mma(const TiledMma& m, const ShowOptions& o, bool atom_only_text) {
  if (o.thread && o.picture.format && !atom_only_text)
    return draw_mma_thread(m, o, o.mma_inspect);  // mma --thread: app/inspect.cpp
  if (o.thread) return show_thread_slice(m, o);
  if (o.json) return text(tiled_mma_json(m));
  if (o.picture.format) {
    warn_threads_outside(o, m.num_threads);
    return draw(mma_scene(mma_picture(m), view_options(o)), o.picture, Format::kTxt);
  }
  return text(atom_only_text ? to_string(m.atom) : to_string(m));
}

Output show_tiled_copy(const TiledCopy& c, const ShowOptions& o) {
  if (o.json) return text(tiled_copy_json(c));
  if (o.picture.format) {
    warn_threads_outside(o, c.num_threads);
    return draw(copy_scene(copy_picture(c), view_options(o)), o.picture, Format::kTxt);
  }
  return text(to_string(c));
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// ASCII lower case (atom names are ASCII): `list` compares 18,000 names without a copy of each.
char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Case-insensitive glob (* and ?) when the pattern has wildcards, else a substring.
bool name_matches(const std::string& n, const std::string& p) {
  if (p.empty()) return true;
  auto same = [](char a, char b) { return lower_ascii(a) == lower_ascii(b); };
  if (std::none_of(p.begin(), p.end(), [](char c) { return c == '*' || c == '?'; }))
    return std::search(n.begin(), n.end(), p.begin(), p.end(), same) != n.end();
  // iterative wildcard match
  size_t i = 0, j = 0, star = std::string::npos, mark = 0;
  while (i < n.size()) {
    if (j < p.size() && (p[j] == '?' || same(p[j], n[i]))) {
      ++i;
      ++j;
    } else if (j < p.size() && p[j] == '*') {
      star = j++;
      mark = i;
    } else if (star != std::string::npos) {
      j = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (j < p.size() && p[j] == '*') ++j;
  return j == p.size();
}

int parse_arch(const std::string& arch) {
  if (arch.empty()) return -1;
  std::string a = lower(arch);
  if (a.rfind("sm_", 0) == 0) a = a.substr(3);
  else if (a.rfind("sm", 0) == 0) a = a.substr(2);
  while (!a.empty() && std::isalpha(static_cast<unsigned char>(a.back()))) a.pop_back();    // sm90a
  if (a.empty() || a.size() > 4 || a.find_first_not_of("0123456789") != std::string::npos)  // sm1..sm9999
    throw Error("--arch expects an architecture such as sm80 or sm90, got '" + arch + "'");
  return std::stoi(a);
}

// The token CuTe's atom names use (F16, U1, E2M1, ...), else the C++ name.
std::string short_type(const ValueType& t) {
  const ElementTypeInfo* e = find_element_type(t.name);
  return e && *e->token ? e->token : t.name;
}

}  // namespace

std::vector<std::string> take_warnings() {
  std::vector<std::string> lines;
  for (const Warning& w : pending_warnings()) lines.push_back(w.message);
  pending_warnings().clear();
  pending_legend_notes().clear();
  return lines;
}

std::optional<Format> format_for_output(std::optional<Format> flag, bool& json, const std::string& path) {
  if (path.empty() || path == "-") return flag;
  const std::optional<Format> by_name = format_of_path(path);
  const bool json_name = path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  auto given = [&] { return json ? std::string("--json") : "--" + format_name(*flag); };
  if ((json || flag) && (by_name || json_name)) {
    const bool agree = json ? json_name : (by_name && *by_name == *flag);
    if (!agree)
      throw Error(given() + " contradicts the file name " + path + " (" +
                  (json_name ? std::string("JSON") : format_name(*by_name)) + "): drop the flag or rename the file");
  }
  if (json || flag) return flag;
  if (json_name) json = true;
  return by_name;
}

Output run_eval(const EvalOptions& options, const std::shared_ptr<Environment>& env) {
  return eval_output(evaluate(options.expression, env, options.syntax), options.json);
}

Output eval_output(const Value& v, bool json) {
  if (json) {
    if (const TiledMma* m = as_tiled_mma(v)) return text(tiled_mma_json(*m));
    if (const MmaAtom* a = as_mma_atom(v)) return text(mma_atom_json(*a).dump());
    if (const TiledCopy* c = as_tiled_copy(v)) return text(tiled_copy_json(*c));
    if (const CopyAtom* a = as_copy_atom(v)) return text(copy_atom_json(*a).dump());
    return text(value_to_json(v).dump());
  }
  // all static: CuTe's notation without underscores; with a dynamic integer, CuTe's
  // print itself (`(_8,6):(_1,_8)`), which reads back as the same value
  return text(v.has_dynamic() ? v.to_cute_string() : v.to_string());
}

Output run_layout(const ShowOptions& o) { return show_layout_value(evaluate(o.input, o.env, o.syntax), o); }

Output show_layout_value(Value v, const ShowOptions& o) {
  if (const Tensor* t = as_tensor(v)) v = Value::layout(memory_layout(*t));  // its memory, as the inspector sees it
  if (v.is(Value::Kind::kSwizzle))                                           // a bare swizzle: over its smallest domain
    v = Value::layout(compose3(v.swizzle(), 0, AnyLayout(make_layout(IntTuple(v.swizzle().domain())))));
  if (!v.is_layout_like())
    throw Error("cutevis layout draws a layout; '" + o.input + "' is " + v.kind_name() + " " + v.to_string() +
                (v.is(Value::Kind::kObject) ? " (use cutevis mma / copy for tilings)" : ""));
  if (o.json) return text(value_to_json(Value::layout(v.to_any_layout())).dump());
  return draw(layout_scene(v.to_any_layout(), view_options(o)), o.picture, Format::kTxt);
}

Output run_tv(const ShowOptions& o, const std::string& tile) {
  Layout tv = evaluate(o.input, o.env, o.syntax).to_layout();
  Value t = with_source("the tile", tile, [&] { return evaluate(tile, o.env); });  // the caret goes under the tile
  IntTuple tile_mn = t.is(Value::Kind::kLayout) ? shape(t.any_layout()) : t.to_int_tuple();
  if (tile_mn.is_leaf()) tile_mn = tup(tile_mn.value(), 1);
  if (tile_mn.rank() != 2) throw Error("the tile of a TV picture has two modes (M,N), got " + to_string(tile_mn));
  IntTuple flat_tile = tup(size(tile_mn[0]), size(tile_mn[1]));
  if (o.json) {
    OwnershipView view = json_ownership_view(tv, flat_tile[0].value(), flat_tile[1].value());
    Json j;
    j["kind"] = "tv_layout";
    j["tv_layout"] = to_string(tv);
    j["tile"] = int_tuple_to_json(tile_mn);
    j["num_threads"] = view.num_threads();
    j["num_values"] = view.num_values();
    std::string s = j.dump();
    s.pop_back();
    return text(s + ",\"owners\":" + owners_json(view) + "}");
  }
  ShowOptions with_title = o;
  with_title.input = o.input + " over " + tile;
  return draw(tv_scene(tv, flat_tile, view_options(with_title)), o.picture, Format::kTxt);
}

Output run_atom(const ShowOptions& o) {
  register_catalogue_names();
  auto atom = find_atom(o.input);
  if (const MmaAtom* mma = std::get_if<MmaAtom>(&atom))
    return show_tiled_mma(make_tiled_mma(*mma), o, /*atom_only_text=*/true);
  const CopyAtom& copy = std::get<CopyAtom>(atom);
  if (o.thread) throw Error("--thread is for MMA atoms and TiledMMAs");
  if (o.json) return text(copy_atom_json(copy).dump());
  if (o.picture.format)
    throw Error("a copy atom alone has no tile to draw; draw a tiling of it: cutevis copy 'make_tiled_copy(" +
                copy.name + "{}, Layout<Shape<_32,_1>>{})'");
  return text(to_string(copy));
}

std::string mma_expression(const std::string& atom, const std::string& atom_layout, const std::string& tile) {
  std::string a = atom;
  if (a.size() < 2 || a.compare(a.size() - 2, 2, "{}") != 0) a += "{}";
  std::string e = "make_tiled_mma(" + a;
  if (!atom_layout.empty() || !tile.empty())
    e += ", " + (atom_layout.empty() ? std::string("Layout<Shape<_1,_1,_1>>{}") : atom_layout);
  if (!tile.empty()) e += ", " + tile;
  return e + ")";
}

Output run_mma(const ShowOptions& o) { return show_mma_value(evaluate(o.input, o.env, o.syntax), o); }

Output show_mma_value(const Value& v, const ShowOptions& o) {
  if (o.mma_inspect && o.mma_inspect->any()) {
    if (const TiledMma* m = as_tiled_mma(v)) return run_mma_inspection(*m, o, *o.mma_inspect);
    if (const MmaAtom* a = as_mma_atom(v)) return run_mma_inspection(make_tiled_mma(*a), o, *o.mma_inspect);
  }
  if (const TiledMma* m = as_tiled_mma(v)) return show_tiled_mma(*m, o, false);
  if (const MmaAtom* a = as_mma_atom(v)) return show_tiled_mma(make_tiled_mma(*a), o, false);
  throw Error(
      "cutevis mma needs a TiledMMA or an MMA atom, e.g. make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
      "Layout<Shape<_2,_2,_1>>{}); got " +
      v.kind_name() + " " + v.to_string());
}

Output run_copy(const ShowOptions& o) { return show_copy_value(evaluate(o.input, o.env, o.syntax), o); }

Output show_copy_value(const Value& v, const ShowOptions& o) {
  if (const TiledCopy* c = as_tiled_copy(v)) {
    if (o.inspect && (wants_inspection(*o.inspect) || o.thread)) return run_copy_inspection(*c, o, *o.inspect);
    return show_tiled_copy(*c, o);
  }
  if (const CopyAtom* a = as_copy_atom(v)) {
    if (o.json) return text(copy_atom_json(*a).dump());
    if (o.picture.format)
      throw Error("a copy atom alone has no tile to draw; draw a tiling of it, e.g. make_tiled_copy(" + a->name +
                  "{}, Layout<Shape<_32,_1>>{})");
    return text(to_string(*a));
  }
  throw Error(
      "cutevis copy needs a TiledCopy, e.g. make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, <tiled mma>); "
      "got " +
      v.kind_name() + " " + v.to_string());
}

Output run_list(const ListOptions& o) {
  // A glob costs |pattern| x |name| per atom: no real pattern is longer than a name.
  if (o.pattern.size() > kMaxSuggestedNameLength)
    throw Error("the pattern is " + std::to_string(o.pattern.size()) + " characters long; atom names are under " +
                std::to_string(kMaxSuggestedNameLength));
  int sm = parse_arch(o.arch);
  Json rows = Json::array();
  std::string table;
  size_t count = 0;
  // Filter the listing by name and architecture first and build only the atoms kept: building
  // all 9,093 to filter took 0.2-0.3 s, `list 'SM90_64x256x16_F32F16F16*'` now builds 6.
  for (const ListedMmaAtom& listed : mma_listing()) {
    if (sm >= 0 && listed.sm != sm) continue;
    if (!name_matches(listed.short_name, o.pattern) && !name_matches(listed.cpp_name, o.pattern)) continue;
    const MmaAtom a = find_mma_atom(listed.short_name);
    const std::string& name = a.short_name.empty() ? a.name : a.short_name;
    ++count;
    std::string types = short_type(a.type_d) + " = " + short_type(a.type_a) + " * " + short_type(a.type_b) + " + " +
                        short_type(a.type_c);
    if (o.json) {
      rows.push_back({{"kind", "mma_atom"},
                      {"name", name},
                      {"cpp_type", a.name},
                      {"sm", a.sm},
                      {"shape_mnk", to_string(a.shape_mnk)},
                      {"threads", size(a.thr_id)},
                      {"types", types},
                      {"ptx", a.ptx}});
    } else {
      table += "mma   sm" + (a.sm ? std::to_string(a.sm) : std::string("--")) + "  " + name + "  MNK " +
               to_string(a.shape_mnk) + "  " + types + "  " + std::to_string(size(a.thr_id)) + " threads\n";
    }
  }
  for (const CopyAtom& a : copy_catalogue()) {
    if (sm >= 0 && a.sm != sm) continue;
    if (!name_matches(a.name, o.pattern) && !name_matches(a.op, o.pattern)) continue;
    ++count;
    if (o.json) {
      rows.push_back({{"kind", "copy_atom"},
                      {"name", a.name},
                      {"op", a.op},
                      {"sm", a.sm},
                      {"value_type", a.value_type.name},
                      {"threads", size(a.thr_id)},
                      {"ptx", a.ptx}});
    } else {
      table += "copy  sm" + (a.sm ? std::to_string(a.sm) : std::string("--")) + "  " + a.name + "  " +
               std::to_string(size(a.thr_id)) + " threads" + (a.ptx.empty() ? "" : "  " + a.ptx) + "\n";
    }
  }
  if (o.json) return text(rows.dump());
  if (count == 0) throw Error("no atom matches '" + o.pattern + "'" + (o.arch.empty() ? "" : " on " + o.arch));
  table += std::to_string(count) + " atoms\n";
  return text(std::move(table));
}

namespace {

std::optional<Layout> layout_flag(const std::string& text, const char* flag, const std::shared_ptr<Environment>& env) {
  if (text.empty()) return std::nullopt;
  try {
    return evaluate(text, env).to_layout();
  } catch (const LocatedError&) {  // their own place in a file or -D says where
    throw;
  } catch (const UndefinedNames&) {
    throw;
  } catch (const Error& e) {
    throw Error(std::string(flag) + ": " + e.what());
  }
}

DiffPicture diff_picture(const VerifyReport& r) {
  DiffPicture pic;
  for (const VerifyOperand& op : r.operands) {
    if (op.cells.empty() || op.rows <= 0 || op.cols <= 0) continue;
    DiffOperand d;
    d.name = op.name;
    d.row_name = op.row_name;
    d.col_name = op.col_name;
    d.rows = op.rows;
    d.cols = op.cols;
    for (const VerifyCell& c : op.cells) {
      d.expected.push_back(c.expected);
      d.actual.push_back(c.actual);
      d.wrong.push_back(c.wrong);
    }
    pic.operands.push_back(std::move(d));
  }
  if (pic.operands.empty())
    throw Error("nothing to draw: the report has no per-cell data (" + to_string(r.status) +
                (r.reason.empty() ? "" : ": " + r.reason) + ")");
  pic.notes.push_back(r.atom + ": " + to_string(r.status) + (r.device.empty() ? "" : " on " + r.device));
  if (!r.established.empty()) pic.notes.push_back(r.established);
  return pic;
}

}  // namespace

VerifyOutcome run_verify(const VerifyOptions& o) {
  register_catalogue_names();
  VerifyOutcome out;
  const VerifyPipelineOptions& vp = o.pipeline_flags;
  if (!vp.on && !(vp.mma + vp.smem_a + vp.smem_b + vp.data_a + vp.data_b + vp.copy_a + vp.copy_b + vp.g2s + vp.g2s_a +
                  vp.g2s_b + vp.gmem_a + vp.gmem_b)
                     .empty())
    throw Error("--mma, --smem-a/-b, --data-a/-b, --copy-a/-b, --g2s, --g2s-a/-b and --gmem-a/-b go with --pipeline");
  if (o.pipeline_flags.on) {
    VerifyReport report = verify_pipeline(pipeline_spec(o));
    out.exit_code = verify_exit_code({report});
    if (o.picture.format && report.operands.empty()) {
      out.output = Output{};  // nothing ran: no picture, only the notice below
      if (out.exit_code == kExitEnvironment)
        out.notice = "cutevis: the GPU environment failed: " + report.reason + " (exit 5)";
    } else if (o.picture.format) {
      ShowOptions show;
      show.input = "verify --pipeline " + o.pipeline_flags.mma;
      show.picture = o.picture;
      out.output = draw(diff_scene(diff_picture(report), view_options(show)), o.picture, Format::kTxt);
    } else {
      out.output = text(o.json ? to_json(report).dump() : to_text(report));
    }
  } else if (o.all) {
    if (!o.name.empty()) throw Error("give an atom name or --all, not both");
    if (o.picture.format) throw Error("--all prints a table or JSON; draw one atom at a time");
    VerifyFilter f;
    int sm = parse_arch(o.arch);
    if (sm >= 0) f.sm = sm;
    f.contains = o.contains;
    VerifySummary summary = verify_all(f);
    out.output = text(o.json ? to_json(summary).dump() : to_text(summary, o.every));
    out.exit_code = verify_exit_code(summary.reports);
  } else {
    if (o.name.empty()) throw Error("cutevis verify needs an atom name, --all or --pipeline");
    if (!o.arch.empty() || !o.contains.empty() || o.every) throw Error("--arch, --contains and --every go with --all");
    VerifyOverrides ov;
    ov.layout_a = layout_flag(o.layout_a, "--layout-a", o.env);
    ov.layout_b = layout_flag(o.layout_b, "--layout-b", o.env);
    ov.layout_c = layout_flag(o.layout_c, "--layout-c", o.env);
    ov.thr_id = layout_flag(o.thr_id, "--thr-id", o.env);
    ov.layout_src = layout_flag(o.layout_src, "--layout-src", o.env);
    ov.layout_dst = layout_flag(o.layout_dst, "--layout-dst", o.env);
    ov.smem_layout = o.smem_layout;
    bool mma_flags = ov.layout_a || ov.layout_b || ov.layout_c || ov.thr_id || !ov.smem_layout.empty();
    bool copy_flags = ov.layout_src || ov.layout_dst;
    VerifyReport report;
    auto atom = find_atom(o.name);
    if (const MmaAtom* mma = std::get_if<MmaAtom>(&atom)) {
      if (copy_flags)
        throw Error("--layout-src/--layout-dst are for copy atoms; " + mma->short_name +
                    " is an MMA atom (use --layout-a/-b/-c)");
      report = verify_mma(*mma, ov);
    } else {
      const CopyAtom& copy = std::get<CopyAtom>(atom);
      if (mma_flags)
        throw Error("--layout-a/-b/-c, --thr-id and --smem-layout are for MMA atoms; " + copy.name +
                    " is a copy atom (use --layout-src/--layout-dst)");
      report = verify_copy(copy, ov);
    }
    out.exit_code = verify_exit_code({report});
    if (report.status == VerifyStatus::kSkipped)  // (a sparse MMA, or SM100 on Hopper: a GPU may be here)
      out.notice = "cutevis: skipped: " + report.reason + " (exit 3)";
    if (o.picture.format && (out.exit_code == kExitNoGpu || out.exit_code == kExitEnvironment)) {
      out.output = Output{};  // nothing ran: no picture, only the notice below
      if (out.exit_code == kExitEnvironment)
        out.notice = "cutevis: the GPU environment failed: " + report.reason + " (exit 5)";
    } else if (o.picture.format) {
      ShowOptions show;
      show.input = "verify " + o.name;
      show.picture = o.picture;
      out.output = draw(diff_scene(diff_picture(report), view_options(show)), o.picture, Format::kTxt);
    } else {
      out.output = text(o.json ? to_json(report).dump() : to_text(report));
    }
  }
  if (out.exit_code == kExitNoGpu && out.notice.empty())
    out.notice = "cutevis: no usable GPU or CUDA: nothing was run on hardware (exit 3)";
  else if (out.exit_code == kExitEnvironment && out.notice.empty())
    out.notice = "cutevis: the GPU environment failed (a driver rejected a kernel or a launch failed): exit 5";
  return out;
}

}  // namespace cutevis
