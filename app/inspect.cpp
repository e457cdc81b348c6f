#include "app/inspect.hpp"

#include <cctype>
#include <charconv>
#include <string_view>

#include "app/exit_codes.hpp"
#include "app/sources.hpp"
#include "atoms/analysis/copy_analysis.hpp"
#include "atoms/analysis/descriptor.hpp"
#include "atoms/analysis/json.hpp"
#include "atoms/analysis/ownership.hpp"
#include "atoms/analysis/partition.hpp"
#include "atoms/analysis/suggest.hpp"
#include "atoms/atom_lookup.hpp"
#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/element_types.hpp"
#include "lib/lang/expr.hpp"
#include "lib/lang/tensor.hpp"
#include "renderers/cost_grid.hpp"
#include "renderers/render.hpp"
#include "renderers/views.hpp"

namespace cutevis {

AnyLayout memory_layout(const Tensor& tensor) {
  if (!tensor.swizzled) return tensor.layout;
  return ComposedLayout::smem(tensor.swizzle, tensor.element.bits, tensor.layout);
}

bool wants_inspection(const InspectOptions& o) {
  return o.analyze || !o.src.empty() || !o.dst.empty() || !o.mma.empty();
}

namespace {

// A tensor argument "[smem:|gmem:]LAYOUT" (an expression of the layout algebra, seeing the command's
// --from / -D names and its --dsl choice); without a prefix, the space `implied` (the atom's; rmem
// there means smem).  Empty text: registers.  The analysis takes the value, never the text.
CopyTensor tensor_arg(const std::string& text, MemorySpace implied, const ShowOptions& show) {
  CopyTensor t;
  if (text.empty()) return t;
  std::string_view body = text;
  t.space = implied == MemorySpace::kRmem ? MemorySpace::kSmem : implied;
  for (auto [prefix, space] : {std::pair{"smem:", MemorySpace::kSmem}, std::pair{"gmem:", MemorySpace::kGmem}}) {
    if (body.starts_with(prefix)) {
      body.remove_prefix(5);
      t.space = space;
    }
  }
  const Value v = evaluate_source(std::string(body), show.env.get(), show.syntax);
  if (const Tensor* tensor = as_tensor(v)) {  // a tensor: its memory (a swizzled pointer acts on bytes)
    t.layout = memory_layout(*tensor);
    if (tensor->space == Tensor::Space::kSmem) t.space = MemorySpace::kSmem;
    if (tensor->space == Tensor::Space::kGmem) t.space = MemorySpace::kGmem;
    return t;
  }
  if (!v.is_layout_like()) throw Error("a tensor needs a layout (M,N) -> element offset; got " + v.describe());
  t.layout = v.to_any_layout();
  return t;
}

Json partition_json(const ThreadPartition& p, const IntTuple& shape) {
  Json cells = Json::array();
  const int64_t rows = size(shape[0]);
  for (int64_t c : p.cells) cells.push_back({c % rows, c / rows});
  return {{"thread", p.thread}, {"layout", to_string(p.layout)}, {"offset", p.offset}, {"text", p.text},
          {"cells", cells},     {"offsets", p.offsets}};
}

std::string partition_text(const char* name, const ThreadPartition& p, const IntTuple& shape) {
  std::string s = std::string(name) + " of thread " + std::to_string(p.thread) + " (CPY,CPY_M,CPY_N): " + p.text +
                  "\n  (m,n)->offset:";
  const int64_t rows = size(shape[0]);
  for (size_t i = 0; i < p.cells.size(); ++i)
    s += (i % 8 == 0 ? "\n   " : "") + std::string(" (") + std::to_string(p.cells[i] % rows) + "," +
         std::to_string(p.cells[i] / rows) + ")->" + std::to_string(p.offsets[i]);
  return s + "\n";
}

// A scene in the picture format the command asked for.
Output draw_picture(const Scene& scene, const ShowOptions& show) {
  RenderOptions r;
  r.style = show.picture.style;
  r.scale = show.picture.scale;
  r.cell = show.picture.cell;
  r.ansi_color = show.picture.ansi_color && *show.picture.format == Format::kTxt;
  Output pic;
  pic.bytes = render(scene, *show.picture.format, r);
  pic.binary = *show.picture.format == Format::kPng || *show.picture.format == Format::kPdf;
  return pic;
}

// Thread T highlighted, the rest faded; colours as the command's --color-by says.
ViewOptions thread_view(const ShowOptions& show) {
  ViewOptions v;
  v.title = show.input;
  v.color_by = parse_color_by(show.picture.color_by);
  v.threads = ThreadSet::parse(std::to_string(*show.thread));
  return v;
}

// `copy --thread T --svg ...`: source and destination tensors with T's partition_S/D cells
// highlighted, each labelled with its value index (element i of the partition).
Output draw_copy_thread(const TiledCopy& copy, const ShowOptions& show, const CopyTensor& src, const CopyTensor& dst,
                        bool has_src, bool has_dst) {
  const IntTuple sh = shape(has_src ? src.layout : dst.layout);
  if (sh.rank() != 2) throw Error("--thread draws an (M,N) tensor; got " + to_string(sh));
  (void)partition_S(copy, make_layout(sh), *show.thread);  // names a thread outside the copy
  CopyPicture pic;
  pic.tv_s = tensor_layout_tv(copy, 'S', sh);
  pic.tv_d = tensor_layout_tv(copy, 'D', sh);
  pic.m = size(sh[0]);
  pic.n = size(sh[1]);
  pic.num_threads = copy.num_threads;
  Scene scene = copy_scene(pic, thread_view(show));
  if (has_src)
    scene.legend.push_back("S: partition_S of thread " + std::to_string(*show.thread) + " = " +
                           partition_S(copy, src.layout, *show.thread).text);
  if (has_dst)
    scene.legend.push_back("D: partition_D of thread " + std::to_string(*show.thread) + " = " +
                           partition_D(copy, dst.layout, *show.thread).text);
  scene.legend.push_back("Vi = element i of the thread's (CPY,CPY_M,CPY_N) partition, over the whole " + to_string(sh) +
                         " tensor");
  return draw_picture(scene, show);
}

// The --also copies of one shared-memory (M,N) tensor: each reads it (LDSM & co) or writes it; their
// other side is --also-gmem, by default a row-major (M,N) global tensor, or registers.
std::vector<SmemUse> also_uses(const std::vector<std::string>& exprs, const std::string& gmem, int64_t m, int64_t n,
                               const ShowOptions& show) {
  std::vector<SmemUse> uses;
  for (const std::string& expr : exprs) {
    Value v = evaluate_source(expr, show.env.get(), show.syntax);
    const TiledCopy* also = as_tiled_copy(v);
    if (also == nullptr) throw Error("--also needs a TiledCopy of the same shared-memory tensor; got " + v.describe());
    auto [s_space, d_space] = default_spaces(also->atom);
    const bool reads = s_space == MemorySpace::kSmem;
    const MemorySpace other_space = reads ? d_space : s_space;
    CopyTensor other;
    if (other_space != MemorySpace::kRmem)
      other = gmem.empty() ? CopyTensor{MemorySpace::kGmem, Layout(tup(m, n), tup(n, 1))}
                           : tensor_arg(gmem.rfind("gmem:", 0) == 0 ? gmem : "gmem:" + gmem, MemorySpace::kGmem, show);
    uses.push_back({*also, other, reads});
  }
  return uses;
}

// The search's answer as text (cheapest first, C++ and with --dsl the CuTeDSL spelling) and into
// `j` ("current", "suggestions").
std::string print_suggestions(const std::vector<LayoutSuggestion>& found, const IntTuple& sh, size_t copies, bool dsl,
                              Json& j) {
  Json list = Json::array();
  std::string lines;
  bool any_free = false;
  for (const LayoutSuggestion& s : found) {
    if (s.kind == "as given") {
      j["current"] = to_json(s);
      lines += "  as given: " + std::to_string(s.wavefronts) + " wavefronts (ideal " +
               std::to_string(s.ideal_wavefronts) + "), " + std::to_string(s.bank_conflicts) + " conflicts\n";
      continue;
    }
    any_free = any_free || s.bank_conflicts == 0;
    list.push_back(to_json(s));
    std::string per;
    for (const auto& p : s.per_copy)
      per += (per.empty() ? "" : ", ") + std::to_string(p.wavefronts) + "/" + std::to_string(p.ideal_wavefronts);
    lines += "  " + std::to_string(list.size()) + ". " + s.cpp + "\n     " + std::to_string(s.wavefronts) +
             " wavefronts (ideal " + std::to_string(s.ideal_wavefronts) + "), " + std::to_string(s.bank_conflicts) +
             " conflicts; per copy " + per + "; +" + std::to_string(s.padding_bytes) + " B; " + s.kind + "\n";
    if (dsl && !s.dsl.empty()) lines += "     CuTeDSL: " + s.dsl + "\n";
  }
  j["suggestions"] = list;
  std::string text = "suggestions for the shared-memory " + to_string(sh) + " tensor over " + std::to_string(copies) +
                     " cop" + (copies == 1 ? "y" : "ies") + " (cheapest first; wavefronts per copy: used/ideal):\n" +
                     lines;
  if (!list.empty() && !any_free) text += "  no candidate is conflict-free; the first is the least costly\n";
  if (list.empty()) text += "  no legal candidate (every one breaks a copy's alignment or vectorization)\n";
  return text;
}

}  // namespace

Output draw_mma_thread(const TiledMma& mma, const ShowOptions& show, const MmaInspectOptions* o) {
  register_catalogue_names();
  (void)thread_slice(mma, *show.thread);  // names a thread outside the TiledMMA
  std::optional<CopyTensor> a, b;
  if (o && !o->smem_a.empty()) a = tensor_arg(o->smem_a, MemorySpace::kSmem, show);
  if (o && !o->smem_b.empty()) b = tensor_arg(o->smem_b, MemorySpace::kSmem, show);
  for (const auto* t : {&a, &b})
    if (*t && rank((*t)->layout) != 2)
      throw Error("--smem-a/--smem-b are (M,K) / (N,K) tensors; got " + to_string((*t)->layout));
  const int64_t m = a ? size(shape(a->layout)[0]) : tile_m(mma), n = b ? size(shape(b->layout)[0]) : tile_n(mma);
  // K from whichever tensor is given (both: they must agree), else the tile's
  const int64_t k_given = a ? size(shape(a->layout)[1]) : b ? size(shape(b->layout)[1]) : tile_k(mma);
  const int64_t ka = a ? size(shape(a->layout)[1]) : k_given, kb = b ? size(shape(b->layout)[1]) : k_given;
  if (ka != kb)
    throw Error("A has K = " + std::to_string(ka) + ", B has K = " + std::to_string(kb) + ": give tensors of one K");
  MmaPicture pic;
  pic.tv_a = tensor_layout_tv(mma, 'A', tup(m, ka));
  pic.tv_b = tensor_layout_tv(mma, 'B', tup(n, ka));
  pic.tv_c = tensor_layout_tv(mma, 'C', tup(m, n));
  pic.m = m;
  pic.n = n;
  pic.k = ka;
  pic.num_threads = mma.num_threads;
  pic.bits_a = mma.atom.type_a.bits;
  pic.bits_b = mma.atom.type_b.bits;
  pic.bits_c = mma.atom.type_c.bits;
  Scene scene = mma_scene(pic, thread_view(show));
  const int64_t t = *show.thread;
  auto line = [&](char op, const AnyLayout& tensor) {
    scene.legend.push_back(std::string(1, op) + ": partition_" + op + " of thread " + std::to_string(t) + " = " +
                           partition_mma(mma, op, tensor, t).text);
  };
  line('A', a ? a->layout : AnyLayout(make_layout(tup(m, ka))));
  line('B', b ? b->layout : AnyLayout(make_layout(tup(n, ka))));
  line('C', AnyLayout(make_layout(tup(m, n), tup(n, 1))));
  scene.legend.push_back(
      "Vi = element i of the thread's (MMA,MMA_M,MMA_K) / (MMA,MMA_N,MMA_K) / (MMA,MMA_M,MMA_N) partition");
  return draw_picture(scene, show);
}

Output run_copy_inspection(const TiledCopy& copy, const ShowOptions& show, const InspectOptions& o) {
  if (!o.analyze && !show.thread && o.mma.empty())
    throw Error("--src/--dst place the copy over tensors: add --analyze, or --thread T for that thread's partitions");
  auto [src_space, dst_space] = default_spaces(copy.atom);
  const CopyTensor src = tensor_arg(o.src, src_space, show), dst = tensor_arg(o.dst, dst_space, show);
  const std::string& color_by = show.picture.color_by;
  const bool cost_picture = color_by == "conflict" || color_by == "sector";
  if (show.thread && show.picture.format && !cost_picture) {
    if (o.src.empty() && o.dst.empty()) throw Error("--thread needs --src and/or --dst: the tensors to partition");
    if (o.analyze || !o.mma.empty())
      throw Error("--thread with a picture draws the thread's partitions; --analyze and --mma print text or --json");
    return draw_copy_thread(copy, show, src, dst, !o.src.empty(), !o.dst.empty());
  }
  Json j = Json::object();
  std::string text;
  int exit_code = kExitOk;
  if (show.thread) {
    if (o.src.empty() && o.dst.empty()) throw Error("--thread needs --src and/or --dst: the tensors to partition");
    if (!o.src.empty()) {
      ThreadPartition p = partition_S(copy, src.layout, *show.thread);
      j["partition_S"] = partition_json(p, shape(src.layout));
      text += partition_text("partition_S", p, shape(src.layout));
    }
    if (!o.dst.empty()) {
      ThreadPartition p = partition_D(copy, dst.layout, *show.thread);
      j["partition_D"] = partition_json(p, shape(dst.layout));
      text += partition_text("partition_D", p, shape(dst.layout));
    }
  }
  if (!o.mma.empty()) {
    if (o.operand != "A" && o.operand != "B") throw Error("--operand is A or B, not " + o.operand);
    register_catalogue_names();
    Value v = evaluate_source(o.mma, show.env.get(), show.syntax);
    const TiledMma* mma = as_tiled_mma(v);
    if (mma == nullptr)
      throw Error(
          "--mma needs a TiledMMA, e.g. make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}); "
          "got " +
          v.describe());
    FragmentCheck f = check_fragment(copy, *mma, o.operand[0]);
    j["fragment_check"] = {{"operand", f.operand},
                           {"matches", f.matches},
                           {"threads", f.threads_checked},
                           {"first_mismatch", f.first_mismatch}};
    text += "destination fragment vs the MMA's " + f.operand + ": " +
            (f.matches ? "matches for all " + std::to_string(f.threads_checked) + " threads\n"
                       : "MISMATCH, " + f.first_mismatch + "\n");
    if (!f.matches) exit_code = kExitDisagree;  // retile_D would hand the MMA the wrong values
  }
  if (cost_picture && !show.picture.format)
    throw Error("--color-by " + color_by + " colours a picture: add --svg, --tex, --png, --pdf or --txt");
  if (show.picture.format && !cost_picture)
    throw Error("copy --analyze draws --color-by conflict (shared memory) or --color-by sector (global memory)");
  if (cost_picture && !o.analyze) throw Error("--color-by " + color_by + " needs --analyze");
  if (o.analyze) {
    CopyAnalysis a = analyze_copy(copy, src, dst);
    if (cost_picture) {
      const MemorySpace want = color_by == "conflict" ? MemorySpace::kSmem : MemorySpace::kGmem;
      const bool use_src = src.space == want;
      if (!use_src && dst.space != want)
        throw Error("--color-by " + color_by + " needs a " + to_string(want) + " tensor");
      const CopyAnalysis::CellCosts& cells = use_src ? a.src_cells : a.dst_cells;
      CostGrid g;
      g.title = show.input;
      g.rows = size(a.tensor_shape[0]);
      g.cols = size(a.tensor_shape[1]);
      if (want == MemorySpace::kSmem) {
        g.prefix = "w";
        g.value = cells.wavefront;
        g.marked = cells.conflicted;
        g.legend = {std::string(use_src ? "src" : "dst") +
                        " smem: wN = the wavefront (within its instruction) that serves the cell; ! = its instruction "
                        "has bank conflicts",
                    "smem: " + std::to_string(a.smem.wavefronts) + " wavefronts, ideal " +
                        std::to_string(a.smem.ideal_wavefronts) + ", " + std::to_string(a.smem.bank_conflicts) +
                        " bank conflicts"};
      } else {
        g.prefix = "s";
        int64_t first = -1;
        for (int64_t s : cells.sector)
          if (s >= 0 && (first < 0 || s < first)) first = s;
        g.value = cells.sector;
        for (int64_t& s : g.value)
          if (s >= 0) s -= first;
        g.legend = {
            std::string(use_src ? "src" : "dst") + " gmem: sN = the cell's 32-byte sector (from the first)",
            "gmem: " + std::to_string(a.gmem.requests) + " requests, " + std::to_string(a.gmem.sectors) + " sectors"};
      }
      return draw_picture(cost_grid_scene(g), show);
    }
    if (show.thread) {
      j["analysis"] = to_json(a, o.addresses);
    } else {
      j = to_json(a, o.addresses);
    }
    text += to_text(a, o.instructions);
    if (a.has_errors()) exit_code = kExitDisagree;  // CuTe would not compile it, or it would fault
    if (o.suggest) {
      const bool src_smem = src.space == MemorySpace::kSmem, dst_smem = dst.space == MemorySpace::kSmem;
      if (!src_smem && !dst_smem) throw Error("--suggest needs a shared-memory --src or --dst");
      const CopyTensor& smem = src_smem ? src : dst;
      std::vector<SmemUse> uses = {{copy, src_smem ? dst : src, src_smem}};
      const IntTuple sh = shape(smem.layout);
      if (rank(smem.layout) != 2) throw Error("--suggest needs an (M,N) shared-memory tensor");
      const int64_t m = size(sh[0]), n = size(sh[1]);
      for (SmemUse& u : also_uses(o.also, o.also_gmem, m, n, show)) uses.push_back(std::move(u));
      SuggestOptions so;
      so.element_type = copy.atom.value_type.name;
      text += print_suggestions(suggest_smem_layouts(smem.layout, copy.atom.value_type.bits, uses, so), sh, uses.size(),
                                show.syntax == Syntax::kDsl, j);
    }
  } else if (o.suggest) {
    throw Error("--suggest goes with --analyze");
  }
  Output out;
  out.exit_code = exit_code;
  out.bytes = show.json ? j.dump() + "\n" : text;
  return out;
}

namespace {

// The S2R copy of an operand: make_tiled_copy_A/B(atom, mma); default copy() of the MMA's partition.
TiledCopy operand_copy(const TiledMma& mma, char operand, const std::string& atom_name) {
  const ValueType& type = operand == 'A' ? mma.atom.type_a : mma.atom.type_b;
  CopyAtom atom = atom_name.empty() ? make_copy_atom("AutoVectorizingCopy", type)
                  : atom_name.find('<') != std::string::npos && atom_name.rfind("Copy_Atom", 0) == 0
                      ? find_copy_atom(atom_name)
                      : make_copy_atom(atom_name, type);
  return operand == 'A' ? make_tiled_copy_A(atom, mma) : make_tiled_copy_B(atom, mma);
}

// `mma --thread T`: the thread's partition_A/B/C of the given tensors (C: a row-major (M,N) tile),
// its fragments, and retile_D of the --copy-a/--copy-b copies; as text and as JSON.
struct Partitions {
  std::string text;
  Json json;
};

Partitions mma_partitions(const TiledMma& mma, const ShowOptions& show, const MmaInspectOptions& o) {
  const int64_t t = *show.thread;
  Json j = {{"thread", t}};
  std::string text = "thread " + std::to_string(t) + " of the TiledMMA\n";
  int64_t m = tile_m(mma), n = tile_n(mma);
  for (char operand : {'A', 'B', 'C'}) {
    const std::string& given = operand == 'A' ? o.smem_a : operand == 'B' ? o.smem_b : std::string();
    const std::string& atom_name = operand == 'A' ? o.copy_a : o.copy_b;
    if (operand != 'C' && given.empty()) {
      if (!atom_name.empty())
        throw Error(std::string("--copy-") + char(operand + 32) + " needs --smem-" + char(operand + 32));
      continue;
    }
    const std::string tensor_text =
        operand == 'C' ? "(" + std::to_string(m) + "," + std::to_string(n) + "):(" + std::to_string(n) + ",1)" : given;
    const CopyTensor tensor = tensor_arg(tensor_text, MemorySpace::kSmem, show);
    if (operand == 'A') m = size(shape(tensor.layout)[0]);
    if (operand == 'B') n = size(shape(tensor.layout)[0]);
    const ThreadPartition p = partition_mma(mma, operand, tensor.layout, t);
    const std::string name = std::string("partition_") + operand;
    const char* modes = operand == 'A'   ? "(MMA,MMA_M,MMA_K)"
                        : operand == 'B' ? "(MMA,MMA_N,MMA_K)"
                                         : "(MMA,MMA_M,MMA_N)";
    const IntTuple sh = shape(tensor.layout);
    Json e = partition_json(p, sh);
    e["tensor"] = tensor_text;
    std::string s = partition_text(name.c_str(), p, sh);
    s.replace(s.find("(CPY,CPY_M,CPY_N)"), 17, modes);
    s.replace(s.find("(m,n)->"), 5, operand == 'A' ? "(m,k)" : operand == 'B' ? "(n,k)" : "(m,n)");
    text += s;
    if (p.tensor_memory) {
      text += "  partition_fragment_" + std::string(1, operand) + ": none (tensor memory)\n";
      j[std::string(1, operand)] = e;
      continue;
    }
    const Layout fragment = partition_fragment(p);
    e["fragment"] = to_string(fragment);
    text += "  partition_fragment_" + std::string(1, operand) + ": " + to_string(fragment) +
            (p.descriptor_elements ? "  (shared-memory descriptors, one per MMA)" : "") + "\n";
    if (operand != 'C' && !atom_name.empty()) {
      const TiledCopy copy = operand_copy(mma, operand, atom_name);
      const Layout retiled = retile(copy, fragment);
      e["retile_D"] = {{"copy", copy.atom.name}, {"layout", to_string(retiled)}};
      text += "  retile_D (make_tiled_copy_" + std::string(1, operand) + "(" + copy.atom.name +
              "{}, mma)): " + to_string(retiled) + "  ((CPY_V,rest),CPY_M,CPY_K) -> register\n";
    }
    j[std::string(1, operand)] = e;
  }
  return {std::move(text), std::move(j)};
}

Output partitions_output(const Partitions& p, bool json) {
  Output out;
  out.bytes = json ? p.json.dump() + "\n" : p.text;
  return out;
}

}  // namespace

Output run_mma_inspection(const TiledMma& mma, const ShowOptions& show, const MmaInspectOptions& o) {
  if (show.thread && show.picture.format) return draw_mma_thread(mma, show, &o);
  if (show.thread && !o.analyze) {
    register_catalogue_names();
    return partitions_output(mma_partitions(mma, show, o), show.json);
  }
  if (!o.analyze)
    throw Error(
        "--smem-a/--smem-b/--copy-a/--copy-b go with --analyze, or with --thread T for that thread's partitions");
  if (o.smem_a.empty() && o.smem_b.empty())
    throw Error("mma --analyze needs --smem-a and/or --smem-b: the operands' shared-memory layouts");
  if (show.picture.format)
    throw Error(
        "mma --analyze prints text or --json; draw one operand's copy with `cutevis copy ... --color-by conflict`");
  register_catalogue_names();
  Json j = Json::object();
  std::string text, errors;
  for (char operand : {'A', 'B'}) {
    const std::string& smem = operand == 'A' ? o.smem_a : o.smem_b;
    const std::string& atom_name = operand == 'A' ? o.copy_a : o.copy_b;
    if (smem.empty()) {
      if (!atom_name.empty())
        throw Error(std::string("--copy-") + char(operand + 32) + " needs --smem-" + char(operand + 32));
      continue;
    }
    if (reads_by_descriptor(mma, operand)) {  // wgmma / tcgen05.mma read shared memory themselves
      if (!atom_name.empty())
        throw Error(std::string("--copy-") + char(operand + 32) + ": the MMA reads " + operand +
                    " from shared memory through a descriptor; no copy loads it into registers");
      const CopyTensor tensor = tensor_arg(smem, MemorySpace::kSmem, show);
      const OperandDescriptors d = operand_descriptors(mma, operand, tensor.layout);
      j[std::string(1, operand)] = to_json(d);
      text += std::string(1, operand) + ": " + smem + "\n" + to_text(d);
      if (o.suggest && !o.also.empty() && rank(tensor.layout) == 2) {  // the writers' cost, canonical layouts only
        const IntTuple sh = shape(tensor.layout);
        SuggestOptions so;
        so.element_type = d.element_type;
        so.legal = [&](const AnyLayout& l) { return operand_descriptors(mma, operand, l).match.ok; };
        const std::vector<SmemUse> uses = also_uses(o.also, o.also_gmem, size(sh[0]), size(sh[1]), show);
        text += print_suggestions(suggest_smem_layouts(tensor.layout, d.element_bits, uses, so), sh, uses.size(),
                                  show.syntax == Syntax::kDsl, j[std::string(1, operand)]);
      }
      if (!d.match.ok)
        errors += std::string("error: ") + operand + ": " + d.match.reason + "\n" +
                  (d.nearest.empty() ? "" : "  fix: " + d.nearest + "\n");
      continue;
    }
    TiledCopy copy = operand_copy(mma, operand, atom_name);
    const CopyAtom& atom = copy.atom;
    const CopyTensor tensor = tensor_arg(smem, MemorySpace::kSmem, show);
    CopyAnalysis a = analyze_copy(copy, tensor, CopyTensor{});
    FragmentCheck f = check_fragment(copy, mma, operand);
    Json e = to_json(a, false);
    e["fragment_check"] = {{"matches", f.matches}, {"first_mismatch", f.first_mismatch}};
    j[std::string(1, operand)] = e;
    text += std::string(1, operand) + ": make_tiled_copy_" + operand + "(" + atom.name + "{}, mma) over " + smem +
            "\n" + to_text(a, o.instructions) + "  destination fragment vs the MMA's " + operand + ": " +
            (f.matches ? "matches" : "MISMATCH, " + f.first_mismatch) + "\n";
    if (a.has_errors()) errors += std::string("error: ") + operand + ": the copy would not compile or would fault\n";
    if (o.suggest && rank(tensor.layout) == 2) {  // the S2R copy and the --also writers
      const IntTuple sh = shape(tensor.layout);
      std::vector<SmemUse> uses = {{copy, CopyTensor{}, true}};
      for (SmemUse& u : also_uses(o.also, o.also_gmem, size(sh[0]), size(sh[1]), show)) uses.push_back(std::move(u));
      SuggestOptions so;
      so.element_type = copy.atom.value_type.name;
      text += print_suggestions(suggest_smem_layouts(tensor.layout, copy.atom.value_type.bits, uses, so), sh,
                                uses.size(), show.syntax == Syntax::kDsl, j[std::string(1, operand)]);
    }
    if (!f.matches)
      errors +=
          std::string("error: ") + operand + ": the copy's fragment is not the MMA's (" + f.first_mismatch + ")\n";
  }
  Output out;
  out.exit_code = errors.empty() ? kExitOk : kExitDisagree;  // CuTe would not compile it
  text = errors + text;
  if (show.thread) {  // --thread with --analyze: the thread's partitions, the analysis beside them
    Partitions parts = mma_partitions(mma, show, o);
    if (!show.json) {
      out.bytes = parts.text + text;
      return out;
    }
    Json both = std::move(parts.json);
    both["analysis"] = j;
    out.bytes = both.dump() + "\n";
    return out;
  }
  out.bytes = show.json ? j.dump() + "\n" : text;
  return out;
}

Output run_desc(const DescOptions& o, const ShowOptions& show) {
  if (o.gmma && o.umma) throw Error("--gmma and --umma exclude each other");
  uint64_t bits = 0;
  try {
    size_t used = 0;
    bits = std::stoull(o.value, &used, 0);
    if (used != o.value.size()) throw Error("");
  } catch (const std::exception&) {
    throw Error("a descriptor is a 64-bit integer, e.g. 0x4000004000010000; got '" + o.value + "'");
  }
  const bool guessed = !o.gmma && !o.umma;
  const DescriptorFamily family =
      o.umma || (guessed && ((bits >> 46) & 3) == 1) ? DescriptorFamily::kUmma : DescriptorFamily::kGmma;
  const ElementTypeInfo* type = find_element_type(o.type);
  if (type == nullptr || type->bits <= 0 || 128 % type->bits != 0)
    throw Error("--type names an element type of 1 to 128 bits, e.g. half_t, tfloat32_t, float_e4m3_t; got " + o.type);
  if (o.major != "K" && o.major != "MN") throw Error("--major is K or MN, not " + o.major);
  const OperandMajor major = o.major == "K" ? OperandMajor::kK : OperandMajor::kMN;
  const SmemDescriptor d = decode_descriptor(bits, family);
  const AnyLayout layout = descriptor_layout(d, major, type->bits, o.mn);
  const std::string what = "(MN,K) = (" + std::to_string(o.mn) + "," + std::to_string(size(shape(layout)[1])) + ") " +
                           type->name + ", " + o.major + "-major";
  if (show.picture.format) {
    ViewOptions v;
    v.title = "descriptor " + descriptor_hex(bits) + ": " + what + ", offsets from the start address";
    v.color_by = parse_color_by(show.picture.color_by);
    Scene scene = layout_scene(layout, v);
    scene.legend.push_back(to_text(d));
    return draw_picture(scene, show);
  }
  Output out;
  if (show.json) {
    Json j = to_json(d);
    j["family"] = family == DescriptorFamily::kGmma ? "gmma" : "umma";
    j["swizzle"] = to_string(d.swizzle());
    j["type"] = type->name;
    j["major"] = o.major;
    j["layout"] = to_string(layout);
    out.bytes = j.dump() + "\n";
    return out;
  }
  out.bytes = to_text(d) +
              (guessed ? "  (" + std::string(family == DescriptorFamily::kGmma ? "GMMA" : "UMMA") +
                             ": read from the version bits; --gmma/--umma to choose)"
                       : std::string()) +
              "\n  swizzle " + to_string(d.swizzle()) + " on byte addresses (start address + offset)\n  " + what +
              ": " + to_string(layout) + "\n";
  return out;
}

namespace {

struct CellArg {
  char tensor = 'A';
  int64_t row = 0, col = 0;
};

// "A(5,3)", spaces allowed around each part: the letter and the coordinate.  (Read by hand, not
// with sscanf, which with its scanner was 8 KB of the page's .wasm for this one use.)
bool read_cell(std::string_view text, char& letter, int64_t& row, int64_t& col) {
  const char* const end = text.data() + text.size();
  const char* at = text.data();
  auto skip = [&] {
    while (at < end && std::isspace(static_cast<unsigned char>(*at))) ++at;
  };
  auto expect = [&](char c) {
    skip();
    return at < end && *at == c ? (++at, true) : false;
  };
  auto number = [&](int64_t& v) {  // as %lld: an optional sign, decimal digits
    skip();
    if (at < end && *at == '+' && at + 1 < end && *(at + 1) != '-') ++at;
    auto [next, ec] = std::from_chars(at, end, v);
    at = next;
    return ec == std::errc();
  };
  skip();
  if (at == end) return false;
  letter = *at++;
  if (!(expect('(') && number(row) && expect(',') && number(col) && expect(')'))) return false;
  while (at < end && *at == ' ') ++at;
  return at == end;
}

// "A(5,3)": a tensor letter among `letters` and a (row, col) coordinate.
CellArg parse_cell(const std::string& text, const std::string& letters, const char* flag) {
  CellArg c;
  if (!read_cell(text, c.tensor, c.row, c.col) || letters.find(c.tensor) == std::string::npos)
    throw Error(std::string(flag) + " names a cell as " + letters.substr(0, 1) + "(m,n) with the tensor one of " +
                letters + ", e.g. '" + letters.substr(0, 1) + "(5,3)'; got '" + text + "'");
  return c;
}

Json owners_json(const std::vector<CellOwner>& owners) {
  Json pairs = Json::array(), regs = Json::array(), calls = Json::array();
  for (const CellOwner& o : owners) {
    pairs.push_back({o.thread, o.value});
    regs.push_back(o.reg);
    calls.push_back(o.call);
  }
  return {{"owners", pairs}, {"registers", regs}, {"mma", calls}};
}

std::string owners_text(const std::vector<CellOwner>& owners) {
  std::string s;
  for (const CellOwner& o : owners)
    s += (s.empty() ? "" : ", ") + std::string("T") + std::to_string(o.thread) + " V" + std::to_string(o.value) +
         (o.reg.empty() ? "" : " (" + o.reg + (o.call ? " of MMA " + std::to_string(o.call) : "") + ")");
  return s;
}

std::string cell_name(char t, int64_t r, int64_t c) {
  return std::string(1, t) + "(" + std::to_string(r) + "," + std::to_string(c) + ")";
}

}  // namespace

Output run_who(const ShowOptions& show, const WhoOptions& o, const std::string& command) {
  register_catalogue_names();
  if (show.picture.format) throw Error("--who and --feeds print text or --json");
  Json j = Json::object();
  std::string text;
  if (command == "copy") {
    if (!o.feeds.empty()) throw Error("--feeds follows an MMA's C cell back to A and B; on a copy use --who S(m,n)");
    const Value v = evaluate_source(show.input, show.env.get(), show.syntax);
    const TiledCopy* copy = as_tiled_copy(v);
    if (copy == nullptr) throw Error("--who needs a TiledCopy; got " + v.describe());
    const CellArg c = parse_cell(o.who, "SD", "--who");
    const std::vector<CellOwner> owners = copy_owners(*copy, c.tensor, c.row, c.col);
    j = owners_json(owners);
    j.erase("registers");
    j.erase("mma");
    j["cell"] = cell_name(c.tensor, c.row, c.col);
    text = j["cell"].get<std::string>() + ": " + std::to_string(owners.size()) + " owner" +
           (owners.size() == 1 ? "" : "s") + ": " + owners_text(owners) + "\n";
  } else {
    TiledMma mma;
    if (command == "atom") {
      auto atom = find_atom(show.input);
      if (!std::holds_alternative<MmaAtom>(atom))
        throw Error("--who on a copy atom: use cutevis copy with a TiledCopy");
      mma = make_tiled_mma(std::get<MmaAtom>(atom));
    } else {
      const Value v = evaluate_source(show.input, show.env.get(), show.syntax);
      if (const TiledMma* m = as_tiled_mma(v)) mma = *m;
      else if (const MmaAtom* a = as_mma_atom(v)) mma = make_tiled_mma(*a);
      else throw Error("--who needs a TiledMMA or an MMA atom; got " + v.describe());
    }
    if (!o.who.empty()) {
      const CellArg c = parse_cell(o.who, "ABC", "--who");
      const std::vector<CellOwner> owners = mma_owners(mma, c.tensor, c.row, c.col);
      j = owners_json(owners);
      j["cell"] = cell_name(c.tensor, c.row, c.col);
      text += j["cell"].get<std::string>() + ": " + std::to_string(owners.size()) + " owner" +
              (owners.size() == 1 ? "" : "s") + ": " + owners_text(owners) + "\n";
    }
    if (!o.feeds.empty()) {
      const CellArg c = parse_cell(o.feeds, "C", "--feeds");
      const std::vector<CellOwner> owners = mma_owners(mma, 'C', c.row, c.col);
      Json f = owners_json(owners);
      f["cell"] = cell_name('C', c.row, c.col);
      text += f["cell"].get<std::string>() + " (" + owners_text(owners) + ") = sum over k of A(" +
              std::to_string(c.row) + ",k) * B(" + std::to_string(c.col) + ",k):\n";
      Json a = Json::array(), b = Json::array();
      for (const CellFeed& feed : mma_feeds(mma, c.row, c.col)) {
        Json e = owners_json(feed.owners);
        e["cell"] = {feed.row, feed.col};
        (feed.operand == 'A' ? a : b).push_back(e);
        text += "  " + cell_name(feed.operand, feed.row, feed.col) + ": " + owners_text(feed.owners) + "\n";
      }
      f["A"] = a;
      f["B"] = b;
      if (o.who.empty()) j = f;
      else j["feeds"] = f;
    }
  }
  Output out;
  out.bytes = show.json ? j.dump() + "\n" : text;
  return out;
}

}  // namespace cutevis
