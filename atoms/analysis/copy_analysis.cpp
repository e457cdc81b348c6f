// A TiledCopy over tensors: the instructions every thread issues, their addresses, and their
// cost (see copy_analysis.hpp).
#include "atoms/analysis/copy_analysis.hpp"

#include <algorithm>
#include <numeric>

#include "lib/error.hpp"
#include "lib/float_text.hpp"

namespace cutevis {

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// How the atom executes: which instruction each side issues, and how many values one call moves.
struct AtomPlan {
  AccessKind src_kind = AccessKind::kLoad, dst_kind = AccessKind::kStore;
  int64_t vals_per_call = 1;  // values of one thread per instruction (the memory side's, for LDSM/STSM)
  int matrices = 0;           // ldmatrix / stmatrix xN
  bool trans = false;
  int64_t max_vec_bits = 0;  // AutoVectorizingCopyWithAssumedAlignment<N>: copy() picks the width (<= N)
  bool bypass_l1 = false;    // cp.async.cg (SM80_CP_ASYNC_CACHEGLOBAL)
};

int64_t auto_vectorizing_limit(const std::string& op) {
  if (op == "DefaultCopy") return 8;
  if (op == "AutoVectorizingCopy") return 128;
  if (starts_with(op, "AutoVectorizingCopyWithAssumedAlignment<")) return std::stoll(op.substr(op.find('<') + 1));
  return 0;
}

AtomPlan plan_of(const CopyAtom& atom) {
  AtomPlan p;
  const int64_t bits = atom.value_type.bits;
  if (atom.family == "SM75_LDSM" || atom.family == "SM90_STSM") {
    const bool load = atom.family == "SM75_LDSM";
    p.src_kind = load ? AccessKind::kLdmatrix : AccessKind::kLoad;
    p.dst_kind = load ? AccessKind::kStore : AccessKind::kStmatrix;
    p.vals_per_call = load ? atom.num_val_src : atom.num_val_dst;  // one 16-byte row
    // registers per thread: 32 bits per 8x8 matrix
    p.matrices = static_cast<int>((load ? atom.num_val_dst : atom.num_val_src) * bits / 32);
    p.trans = atom.op.size() > 2 && atom.op.substr(atom.op.size() - 2) == "_T";
    return p;
  }
  if (atom.family == "SM80_CP_ASYNC") {
    p.src_kind = p.dst_kind = AccessKind::kCpAsync;
    p.bypass_l1 = atom.op.find("CACHEGLOBAL") != std::string::npos;
    p.vals_per_call = atom.num_val_src;
    return p;
  }
  if (atom.family == "Universal") {
    p.max_vec_bits = auto_vectorizing_limit(atom.op);
    if (p.max_vec_bits > 0) return p;
    if (starts_with(atom.op, "UniversalCopy<")) {
      p.vals_per_call = atom.num_val_src;
      return p;
    }
  }
  throw Error("the inspector does not model " + atom.op +
              " (UniversalCopy, DefaultCopy, AutoVectorizingCopy, LDSM, STSM and cp.async are)");
}

// The leading run of values 0, 1, ... that stay contiguous in memory (offset(v+1) == offset(v)+1).
int64_t contiguous_run(const std::vector<int64_t>& offsets) {
  int64_t run = 1;
  while (run < static_cast<int64_t>(offsets.size()) && offsets[run] == offsets[run - 1] + 1) ++run;
  return run;
}

// Whether offsets[c*n .. c*n+n-1] are contiguous and start at a multiple of n, for every chunk c.
bool chunks_vectorize(const std::vector<int64_t>& offsets, int64_t n) {
  for (size_t c = 0; c + n <= offsets.size(); c += n) {
    if (offsets[c] % n != 0) return false;
    for (int64_t k = 1; k < n; ++k)
      if (offsets[c + k] != offsets[c] + k) return false;
  }
  return true;
}

struct Side {
  const CopyTensor* tensor = nullptr;
  std::vector<int64_t> tv;       // the side's TV layout, index t + T*v -> tile index
  std::vector<int64_t> offset;   // tensor index -> element offset
  std::vector<int64_t> cell_of;  // element offset -> tensor index (-1: none), for ldmatrix rows
  AccessKind kind = AccessKind::kLoad;
};

int64_t mode_size(const IntTuple& shape, size_t mode) { return shape.rank() > mode ? size(shape[mode]) : 1; }

}  // namespace

std::pair<MemorySpace, MemorySpace> default_spaces(const CopyAtom& atom) {
  if (atom.family == "SM75_LDSM") return {MemorySpace::kSmem, MemorySpace::kRmem};
  if (atom.family == "SM90_STSM") return {MemorySpace::kRmem, MemorySpace::kSmem};
  return {MemorySpace::kGmem, MemorySpace::kSmem};
}

namespace {

// A plain (M,N) layout's row pitch: the stride of the mode that is not contiguous (0 if neither is).
int64_t row_pitch(const AnyLayout& tensor) {
  const Layout* l = std::get_if<Layout>(&tensor);
  if (l == nullptr || rank(*l) != 2 || !l->stride[0].is_leaf() || !l->stride[1].is_leaf()) return 0;
  if (l->stride[1].value() == 1) return l->stride[0].value();
  if (l->stride[0].value() == 1) return l->stride[1].value();
  return 0;
}

void add_findings(CopyAnalysis& a, const CopyTensor& src, const CopyTensor& dst) {
  const int64_t value_bytes = std::max(1, a.value_bits / 8);
  for (const CopySide* side : {&a.src, &a.dst}) {
    const CopyTensor& tensor = side == &a.src ? src : dst;
    const char* name = side == &a.src ? "src" : "dst";
    if (side->space == MemorySpace::kRmem) continue;
    std::string ptx;
    for (const MemoryInstruction& i : a.instructions)
      if (i.space == side->space && (i.is_store() == (side == &a.dst))) {
        ptx = i.ptx();
        break;
      }
    const int64_t access = side->bits / 8;
    if (!side->vectorizes)
      a.findings.push_back({true,
                            std::string(name) + " (" + to_string(side->space) + "): each thread's " +
                                std::to_string(side->bits) + "-bit access needs " +
                                std::to_string(side->bits / std::max(1, a.value_bits)) +
                                " contiguous values, this layout keeps " + std::to_string(side->max_common_vector) +
                                ": CuTe refuses to vectorize it (the copy does not compile)",
                            "a layout whose contiguous mode runs along the copy's values (see --suggest), or a "
                            "narrower copy atom"});
    if (!side->aligned) {
      CopyAnalysis::Finding f{true, "", ""};
      const int64_t pitch = row_pitch(tensor.layout);
      const int64_t pitch_bytes = pitch * value_bytes;
      if (pitch > 0 && access > 0 && pitch_bytes % access != 0) {
        const int64_t padded = (pitch_bytes + access - 1) / access * access;
        f.message = std::string(name) + ": rows are " + std::to_string(pitch_bytes) + " B apart; " +
                    std::to_string(access) + "-byte " + ptx + " needs " + std::to_string(access) +
                    "-byte aligned rows (it would fault: misaligned address)";
        f.fix = "pad to " + std::to_string(padded) + " B (stride " + std::to_string(padded / value_bytes) + ")";
      } else {
        f.message = std::string(name) + ": some " + std::to_string(access) + "-byte " + ptx +
                    " address is not a multiple of " + std::to_string(access) + " bytes (it would fault)";
        f.fix = "start the tensor and every row on a " + std::to_string(access) + "-byte boundary";
      }
      a.findings.push_back(f);
    }
  }
  if (a.smem.bank_conflicts > 0) {
    const std::string ways = fixed_text(
        static_cast<double>(a.smem.wavefronts) / static_cast<double>(std::max<int64_t>(1, a.smem.ideal_wavefronts)), 1);
    a.findings.push_back({false,
                          "shared memory: " + std::to_string(a.smem.bank_conflicts) + " bank conflicts, " +
                              std::to_string(a.smem.wavefronts) + " wavefronts where " +
                              std::to_string(a.smem.ideal_wavefronts) + " would do (" + ways + "x)",
                          "--suggest searches swizzles, GMMA atoms and padding for a conflict-free layout"});
  }
  if (a.gmem.instructions && a.gmem.efficiency() < 1.0) {
    const std::string eff = fixed_text(100.0 * a.gmem.efficiency(), 1) + "%";
    a.findings.push_back({false,
                          "global memory: " + std::to_string(a.gmem.bytes_used) + " bytes used of " +
                              std::to_string(a.gmem.bytes_moved()) + " moved (" + eff + " of each 32-byte sector)",
                          "let each warp's lanes read consecutive 16-byte pieces of a row"});
  }
}

}  // namespace

CopyAnalysis analyze_copy(const TiledCopy& copy, const CopyTensor& src, const CopyTensor& dst) {
  const CopyAtom& atom = copy.atom;
  CopyAnalysis a;
  a.atom = atom.name;
  a.value_bits = atom.value_type.bits;
  a.threads = copy.num_threads;
  if (a.value_bits % 8 != 0)
    throw Error("the inspector needs whole-byte value types; " + atom.value_type.name + " has " +
                std::to_string(a.value_bits) + " bits");
  AtomPlan plan = plan_of(atom);
  if (src.space == MemorySpace::kRmem && dst.space == MemorySpace::kRmem)
    throw Error("nothing to analyze: give --src and/or --dst tensors in shared or global memory");
  if (plan.src_kind == AccessKind::kLdmatrix && src.space != MemorySpace::kSmem)
    throw Error(atom.op + " reads shared memory: --src must be smem");
  if (plan.dst_kind == AccessKind::kStmatrix && dst.space != MemorySpace::kSmem)
    throw Error(atom.op + " writes shared memory: --dst must be smem");
  if (plan.src_kind == AccessKind::kCpAsync && (src.space != MemorySpace::kGmem || dst.space != MemorySpace::kSmem))
    throw Error(atom.op + " copies global to shared memory: --src gmem, --dst smem");

  // (M,N) of the tensors: the same on both sides.
  const CopyTensor* shaped = src.space != MemorySpace::kRmem ? &src : &dst;
  a.tensor_shape = shape(shaped->layout);
  for (const CopyTensor* t : {&src, &dst}) {
    if (t->space == MemorySpace::kRmem) continue;
    const IntTuple& s = shape(t->layout);
    if (s.rank() > 2 || mode_size(s, 0) != mode_size(a.tensor_shape, 0) ||
        mode_size(s, 1) != mode_size(a.tensor_shape, 1))
      throw Error("the tensors must both be (M,N) of one shape; got " + to_string(a.tensor_shape) + " and " +
                  to_string(s));
  }
  const IntTuple mn = tup(mode_size(a.tensor_shape, 0), mode_size(a.tensor_shape, 1));
  // Every cell's instruction, address and bank is kept: bounded, as pictures are (4096x4096
  // took 16 s and 1.5 GB).  A kernel's CTA tile is far below it.
  if (int64_t cells = 0; __builtin_mul_overflow(size(mn[0]), size(mn[1]), &cells) || cells > kMaxAnalyzedElements)
    throw Error("the tensor " + to_string(mn) + " has " + std::to_string(cells) + " elements; the inspector analyzes " +
                "up to " + std::to_string(kMaxAnalyzedElements) + " (one CTA's tile is enough)");
  const int64_t tile_m = mode_size(copy.tile_mn, 0), tile_n = mode_size(copy.tile_mn, 1);
  if (size(mn[0]) % tile_m != 0 || size(mn[1]) % tile_n != 0)
    throw Error("the tensor " + to_string(mn) + " is not a multiple of the copy's tile " + to_string(copy.tile_mn));
  // ((TileM,TileN),(RestM,RestN)) -> m + M*n: the tiles partition_S/D walk.
  const Layout tiles = zipped_divide(make_layout(a.tensor_shape), copy.tiler_mn);
  const std::vector<int64_t> tile_to_cell = layout_values(tiles);
  const int64_t tile_size = tile_m * tile_n;
  a.tiles = size(tiles) / tile_size;

  const int64_t threads = copy.num_threads;
  // The values each thread holds on the side(s) in memory (LDSM/STSM: the register side's count differs).
  int64_t vals = 0;
  for (auto [tensor, tv] : {std::pair{&src, &copy.layout_s_tv}, std::pair{&dst, &copy.layout_d_tv}}) {
    if (tensor->space == MemorySpace::kRmem) continue;
    const int64_t v = size(tv->shape[1]);
    if (vals != 0 && v != vals) throw Error("source and destination TV layouts hold different value counts");
    vals = v;
  }
  Side sides[2];
  sides[0].tensor = &src;
  sides[1].tensor = &dst;
  sides[0].tv = layout_values(copy.layout_s_tv);
  sides[1].tv = layout_values(copy.layout_d_tv);
  sides[0].kind = plan.src_kind;
  sides[1].kind = plan.dst_kind;
  for (Side& s : sides) {
    if (s.tensor->space == MemorySpace::kRmem) continue;
    s.offset = layout_values(s.tensor->layout);
    int64_t top = 0;
    for (int64_t o : s.offset) {
      if (o < 0) throw Error("a tensor layout with negative offsets: " + to_string(s.tensor->layout));
      top = std::max(top, o);
    }
    s.cell_of.assign(top + 1, -1);
    for (size_t cell = 0; cell < s.offset.size(); ++cell) s.cell_of[s.offset[cell]] = static_cast<int64_t>(cell);
  }

  // A thread's element offsets for the values of one tile, in value order (the rmem side: compact).
  auto thread_offsets = [&](const Side& s, int64_t t, int64_t tile) {
    std::vector<int64_t> out(vals);
    for (int64_t v = 0; v < vals; ++v)
      out[v] = s.offset.empty() ? v : s.offset[tile_to_cell[s.tv[t + threads * v] + tile_size * tile]];
    return out;
  };

  // max_common_vector per side and, for copy()'s auto-vectorization, the vector both sides share.
  int64_t common = vals;
  for (int i = 0; i < 2; ++i) {
    CopySide& out = i == 0 ? a.src : a.dst;
    out.space = sides[i].tensor->space;
    out.kind = sides[i].kind;
    int64_t run = vals;
    if (out.space != MemorySpace::kRmem)
      for (int64_t t = 0; t < threads; ++t) run = std::min(run, contiguous_run(thread_offsets(sides[i], t, 0)));
    out.max_common_vector = run;
    common = std::min(common, run);
  }
  if (plan.max_vec_bits > 0) {
    // copy(AutoVectorizingCopyWithAssumedAlignment<N>): vec_bits = gcd(common * bits, N), used when
    // it is whole bytes and wider than one value (pointers assumed aligned to N bits).
    int64_t n = 1;
    while (n * 2 <= common && vals % (n * 2) == 0) n *= 2;
    auto all_chunks = [&](int64_t k) {
      for (const Side& s : sides)
        for (int64_t t = 0; t < threads; ++t)
          if (!chunks_vectorize(thread_offsets(s, t, 0), k)) return false;
      return true;
    };
    while (n > 1 && !all_chunks(n)) n /= 2;
    int64_t vec_bits = std::gcd(n * a.value_bits, plan.max_vec_bits);
    plan.vals_per_call = (vec_bits % 8 == 0 && vec_bits > a.value_bits) ? vec_bits / a.value_bits : 1;
    a.notes.push_back(atom.op + ": copy() vectorizes to " + std::to_string(plan.vals_per_call * a.value_bits) +
                      " bits (max_common_vector " + std::to_string(common) + " values, at most " +
                      std::to_string(plan.max_vec_bits) + " bits assumed aligned)");
  }
  if (plan.vals_per_call <= 0 || vals % plan.vals_per_call != 0)
    throw Error("each thread holds " + std::to_string(vals) + " values, not a multiple of the atom's " +
                std::to_string(plan.vals_per_call));
  const int bits = static_cast<int>(plan.vals_per_call * a.value_bits);
  a.vector_bits = bits;
  const int64_t calls = vals / plan.vals_per_call;
  const int64_t bytes_per_value = a.value_bits / 8;

  const int64_t cells = size(a.tensor_shape);
  auto init_cells = [&](CopyAnalysis::CellCosts& c) {
    c.wavefront.assign(cells, -1);
    c.conflicted.assign(cells, 0);
    c.sector.assign(cells, -1);
  };
  init_cells(a.src_cells);
  init_cells(a.dst_cells);

  const int64_t warps = (threads + 31) / 32;
  for (int i = 0; i < 2; ++i) {
    CopySide& out = i == 0 ? a.src : a.dst;
    out.bits = bits;
    out.vectorizes = true;
  }
  // Instructions in issue order: warp by warp, tile by tile, call by call; source side first.
  for (int64_t w = 0; w < warps; ++w) {
    for (int64_t tile = 0; tile < a.tiles; ++tile) {
      for (int64_t call = 0; call < calls; ++call) {
        // Both sides' instructions first: cp.async costs its source and destination together.
        MemoryInstruction insts[2];
        std::vector<std::vector<int64_t>> lane_cells[2];
        for (int i = 0; i < 2; ++i) {
          const Side& s = sides[i];
          if (s.tensor->space == MemorySpace::kRmem) continue;
          CopySide& out = i == 0 ? a.src : a.dst;
          MemoryInstruction& inst = insts[i];
          inst.kind = s.kind;
          inst.space = s.tensor->space;
          inst.bits = bits;
          inst.matrices = plan.matrices;
          inst.trans = plan.trans;
          inst.bypass_l1 = plan.bypass_l1;
          inst.warp = static_cast<int>(w);
          inst.index = static_cast<int>(tile * calls + call);
          inst.address.assign(32, -1);
          const bool matrix = s.kind == AccessKind::kLdmatrix || s.kind == AccessKind::kStmatrix;
          if (matrix) inst.bits = 128;  // each address is one 16-byte row
          lane_cells[i].assign(32, {});
          for (int lane = 0; lane < 32; ++lane) {
            const int64_t t = w * 32 + lane;
            if (t >= threads) continue;
            std::vector<int64_t> offs(plan.vals_per_call);
            for (int64_t k = 0; k < plan.vals_per_call; ++k) {
              const int64_t v = call * plan.vals_per_call + k;
              const int64_t cell = tile_to_cell[s.tv[t + threads * v] + tile_size * tile];
              offs[k] = s.offset[cell];
              lane_cells[i][lane].push_back(cell);
            }
            if (!chunks_vectorize(offs, 1) || contiguous_run(offs) < plan.vals_per_call) out.vectorizes = false;
            if (matrix && lane >= 8 * plan.matrices) continue;  // rows come from lanes 0 .. 8N-1
            inst.address[lane] = offs[0] * bytes_per_value;
          }
        }
        if (plan.src_kind == AccessKind::kCpAsync) cost_cp_async(insts[0], insts[1]);
        else
          for (int i = 0; i < 2; ++i)
            if (sides[i].tensor->space != MemorySpace::kRmem) cost(insts[i]);
        for (int i = 0; i < 2; ++i) {
          const Side& s = sides[i];
          if (s.tensor->space == MemorySpace::kRmem) continue;
          CopySide& out = i == 0 ? a.src : a.dst;
          CopyAnalysis::CellCosts& cell_costs = i == 0 ? a.src_cells : a.dst_cells;
          MemoryInstruction& inst = insts[i];
          const bool matrix = s.kind == AccessKind::kLdmatrix || s.kind == AccessKind::kStmatrix;
          if (!inst.aligned) out.aligned = false;
          const std::vector<int64_t> served = lane_wavefront(inst);
          for (int lane = 0; lane < 32; ++lane) {
            for (size_t k = 0; k < lane_cells[i][lane].size(); ++k) {
              const int64_t cell = lane_cells[i][lane][k];
              const int64_t byte = s.offset[cell] * bytes_per_value;
              if (inst.space == MemorySpace::kGmem) {
                cell_costs.sector[cell] = byte / 32;
              } else if (!matrix || lane < 8 * plan.matrices) {
                cell_costs.wavefront[cell] = served[lane];
                cell_costs.conflicted[cell] = inst.bank_conflicts > 0;
              }
            }
          }
          // ldmatrix/stmatrix rows come from other lanes than the values' owners: colour a row by its row lane
          if (matrix) {
            for (int lane = 0; lane < 8 * plan.matrices && lane < 32; ++lane) {
              if (inst.address[lane] < 0) continue;
              const int64_t first = inst.address[lane] / bytes_per_value;
              for (int64_t e = first; e < first + 16 / bytes_per_value; ++e) {
                const int64_t cell = e < static_cast<int64_t>(s.cell_of.size()) ? s.cell_of[e] : -1;
                if (cell < 0) continue;
                cell_costs.wavefront[cell] = served[lane];
                cell_costs.conflicted[cell] = inst.bank_conflicts > 0;
              }
            }
          }
          SideTotals& side = out.totals;
          SideTotals& all = inst.space == MemorySpace::kSmem ? a.smem : a.gmem;
          for (SideTotals* tot : {&side, &all}) {
            tot->instructions += 1;
            tot->wavefronts += inst.wavefronts;
            tot->ideal_wavefronts += inst.ideal_wavefronts;
            tot->bank_conflicts += inst.bank_conflicts;
            tot->bank_conflicts_min += inst.bank_conflicts_min;
            tot->requests += inst.requests;
            tot->sectors += inst.sectors;
            tot->bytes_used += inst.bytes_used;
          }
          a.instructions.push_back(std::move(inst));
        }
      }
    }
  }
  if (!a.src.vectorizes || !a.dst.vectorizes)
    a.notes.push_back("some thread's values of one instruction are not contiguous in memory: the atom's " +
                      std::to_string(bits) +
                      "-bit access does not vectorize over this tensor (CuTe would not compile this copy)");
  add_findings(a, src, dst);
  return a;
}

bool CopyAnalysis::has_errors() const {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.error; });
}

namespace {

Json totals_json(const SideTotals& t, MemorySpace space) {
  if (space == MemorySpace::kSmem)
    return {{"instructions", t.instructions},
            {"wavefronts", t.wavefronts},
            {"ideal_wavefronts", t.ideal_wavefronts},
            {"bank_conflicts", t.bank_conflicts},
            {"bank_conflicts_min", t.bank_conflicts_min}};
  return {{"instructions", t.instructions}, {"requests", t.requests},         {"sectors", t.sectors},
          {"bytes_used", t.bytes_used},     {"bytes_moved", t.bytes_moved()}, {"efficiency", t.efficiency()}};
}

Json side_json(const CopySide& s) {
  Json j = {{"space", to_string(s.space)}, {"max_common_vector", s.max_common_vector}};
  if (s.space != MemorySpace::kRmem) {
    j["bits"] = s.bits;
    j["vectorizes"] = s.vectorizes;
    j["aligned"] = s.aligned;
    j["totals"] = totals_json(s.totals, s.space);
  }
  return j;
}

// An efficiency as the text prints it: "87.5%".
std::string percent(double fraction) { return fixed_text(100.0 * fraction, 1) + "%"; }

}  // namespace

Json to_json(const CopyAnalysis& a, bool with_addresses) {
  Json j;
  j["atom"] = a.atom;
  j["value_bits"] = a.value_bits;
  j["threads"] = a.threads;
  j["tensor_shape"] = to_string(a.tensor_shape);
  j["tiles"] = a.tiles;
  j["vector_bits"] = a.vector_bits;
  j["src"] = side_json(a.src);
  j["dst"] = side_json(a.dst);
  j["smem"] = totals_json(a.smem, MemorySpace::kSmem);
  j["gmem"] = totals_json(a.gmem, MemorySpace::kGmem);
  Json list = Json::array();
  for (const MemoryInstruction& i : a.instructions) {
    Json e = {{"warp", i.warp},
              {"index", i.index},
              {"ptx", i.ptx()},
              {"space", to_string(i.space)},
              {"side", i.kind == AccessKind::kCpAsync
                           ? (i.space == MemorySpace::kGmem ? "src" : "dst")  // its global half reads
                       : i.is_store() ? "dst"
                                      : "src"},
              {"bits", i.bits},
              {"aligned", i.aligned}};
    if (i.space == MemorySpace::kSmem) {
      e["wavefronts"] = i.wavefronts;
      e["ideal_wavefronts"] = i.ideal_wavefronts;
      e["bank_conflicts"] = i.bank_conflicts;
      e["bank_conflicts_min"] = i.bank_conflicts_min;
    } else {
      e["requests"] = i.requests;
      e["sectors"] = i.sectors;
      e["bytes_used"] = i.bytes_used;
    }
    if (with_addresses) e["address"] = i.address;
    list.push_back(std::move(e));
  }
  j["instructions"] = std::move(list);
  j["notes"] = a.notes;
  Json findings = Json::array();
  for (const CopyAnalysis::Finding& f : a.findings)
    findings.push_back({{"severity", f.error ? "error" : "warning"}, {"message", f.message}, {"fix", f.fix}});
  j["findings"] = findings;
  return j;
}

std::string to_text(const CopyAnalysis& a, bool instructions) {
  using std::to_string;
  std::string o = a.atom + " over " + to_string(a.tensor_shape) + ": " + to_string(a.threads) + " threads, " +
                  to_string(a.tiles) + " tile" + (a.tiles == 1 ? "" : "s") + ", " + to_string(a.vector_bits) +
                  "-bit accesses\n";
  for (const CopySide* s : {&a.src, &a.dst}) {
    o += (s == &a.src ? "  src " : "  dst ") + to_string(s->space);
    if (s->space == MemorySpace::kRmem) {
      o += " (registers)\n";
      continue;
    }
    o += ": " + to_string(s->bits) + "-bit, max_common_vector " + to_string(s->max_common_vector) + ", " +
         (s->vectorizes ? "vectorizes" : "does NOT vectorize") + ", " + (s->aligned ? "aligned" : "MISALIGNED");
    const SideTotals& t = s->totals;
    if (s->space == MemorySpace::kSmem) {
      o += "; " + to_string(t.instructions) + " instructions, " + to_string(t.wavefronts) + " wavefronts (ideal " +
           to_string(t.ideal_wavefronts) + "), " + to_string(t.bank_conflicts) + " bank conflicts";
    } else {
      o += "; " + to_string(t.instructions) + " instructions, " + to_string(t.sectors) + " sectors, " +
           percent(t.efficiency()) + " efficiency";
    }
    o += "\n";
  }
  if (a.smem.instructions) {
    o += "  smem: " + to_string(a.smem.instructions) + " instructions, " + to_string(a.smem.wavefronts) +
         " wavefronts (ideal " + to_string(a.smem.ideal_wavefronts) + "), " + to_string(a.smem.bank_conflicts) +
         " bank conflicts";
    if (a.smem.bank_conflicts_min != a.smem.bank_conflicts)
      o += " (cp.async.ca: " + to_string(a.smem.bank_conflicts_min) +
           " if the hardware writes each source line on its own)";
    o += "\n";
  }
  if (a.gmem.instructions)
    o += "  gmem: " + to_string(a.gmem.requests) + " requests, " + to_string(a.gmem.sectors) + " sectors, " +
         to_string(a.gmem.bytes_used) + " bytes used / " + to_string(a.gmem.bytes_moved()) + " moved (" +
         percent(a.gmem.efficiency()) + ")\n";
  for (const CopyAnalysis::Finding& f : a.findings)
    o += (f.error ? "  error: " : "  warning: ") + f.message + (f.fix.empty() ? "" : "\n    fix: " + f.fix) + "\n";
  auto cost = [](const MemoryInstruction& i) {
    if (i.space == MemorySpace::kSmem)
      return to_string(i.wavefronts) + " wavefronts (ideal " + to_string(i.ideal_wavefronts) + ")" +
             (i.bank_conflicts ? ", " + to_string(i.bank_conflicts) + " conflicts" : "");
    return to_string(i.sectors) + " sectors, " + to_string(i.bytes_used) + " bytes used";
  };
  if (instructions) {
    o += "  per instruction (warp.index  ptx  cost):\n";
    for (const MemoryInstruction& i : a.instructions)
      o += "    " + to_string(i.warp) + "." + to_string(i.index) + "  " + i.ptx() + "  " + cost(i) + "\n";
  } else {  // identical instructions collapsed, in order of first appearance (--instructions: each one)
    std::vector<std::pair<std::string, int64_t>> groups;
    for (const MemoryInstruction& i : a.instructions) {
      const std::string key = i.ptx() + "  " + cost(i);
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
      if (it == groups.end()) groups.push_back({key, 1});
      else ++it->second;
    }
    o += "  instructions (count x ptx  cost each; --instructions lists every one):\n";
    for (const auto& [key, count] : groups) o += "    " + to_string(count) + " x " + key + "\n";
  }
  for (const std::string& n : a.notes) o += "  note: " + n + "\n";
  return o;
}

}  // namespace cutevis
