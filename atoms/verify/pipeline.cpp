// cutevis — verify's pipeline mode (see pipeline.hpp): plan, PTX, data, check.
#include "atoms/verify/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>

#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/verify/cuda/driver.hpp"
#include "atoms/verify/ptx.hpp"
#include "atoms/verify/report.hpp"
#include "lib/error.hpp"

namespace cutevis {

namespace verify {

namespace {

[[noreturn]] void fail(const std::string& message) { throw Error("verify --pipeline: " + message); }

std::string coord(char op, int64_t cell, int64_t rows) {
  if (cell < 0) return "nothing";
  return std::string(1, op) + "(" + std::to_string(cell % rows) + "," + std::to_string(cell / rows) + ")";
}

std::string hex(int64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The tile cell (row + rows*col) of a TV layout's (thr, val), moved to tile (tr, tc) of a
// (rows x cols) tensor tiled by (tile_rows x tile_cols).
int64_t tensor_cell(const Layout& tv, int64_t thr, int64_t val, int64_t tile_rows, int64_t rows, int64_t tr, int64_t tc,
                    int64_t tile_cols) {
  const int64_t threads = size(tv.shape[0]);
  const int64_t in_tile = tv(thr + threads * val);
  return (tr * tile_rows + in_tile % tile_rows) + rows * (tc * tile_cols + in_tile / tile_rows);
}

// GMMA swizzle mode of a shared-memory layout: Sw<B,4,3> in bytes (Sw<B,3,3> on 16-bit elements).
std::string swizzle_mode(const AnyLayout& l) {
  const ComposedLayout* c = std::get_if<ComposedLayout>(&l);
  if (c == nullptr || !c->a_is_swizzle()) return "INTER";
  switch (c->swizzle().bits) {
    case 0: return "INTER";
    case 1: return "SW32";
    case 2: return "SW64";
    case 3: return "SW128";
  }
  return "INTER";
}

// The element offset of every cell of an (MN,K) layout; Error unless it is one and injective.
std::vector<int64_t> offsets_of(const PipelineOperand& op, const AnyLayout& l, const std::string& flag, int64_t& top) {
  const IntTuple& s = shape(l);
  if (s.rank() != 2) fail(flag + " must be an (MN,K) layout of rank 2, got " + to_string(l));
  const int64_t rows = size(s[0]), cols = size(s[1]);
  if (rows != op.mn || cols != op.k)
    fail(flag + " is (" + std::to_string(rows) + "," + std::to_string(cols) + "); it must be (" +
         std::to_string(op.mn) + "," + std::to_string(op.k) + ")");
  std::vector<int64_t> out(static_cast<size_t>(rows * cols));
  std::map<int64_t, int64_t> seen;
  for (int64_t c = 0; c < rows * cols; ++c) {
    const int64_t off = evaluate(l, c);
    if (off < 0) fail(flag + " maps " + coord(op.name, c, rows) + " to a negative offset");
    auto [it, fresh] = seen.emplace(off, c);
    if (!fresh)
      fail(flag + " maps " + coord(op.name, it->second, rows) + " and " + coord(op.name, c, rows) +
           " to the same offset " + std::to_string(off) + ": shared memory cannot hold both");
    out[static_cast<size_t>(c)] = off;
    top = std::max(top, off);
  }
  return out;
}

void place_smem(PipelineOperand& op, const PipelineOperandSpec& spec, const std::string& flag) {
  const IntTuple& s = shape(spec.smem);
  if (s.rank() != 2) fail(flag + " must be an (MN,K) layout of rank 2, got " + to_string(spec.smem));
  const int64_t rows = size(s[0]), cols = size(s[1]);
  if (rows != op.mn || cols % op.k != 0)
    fail(flag + " is (" + std::to_string(rows) + "," + std::to_string(cols) + "); the TiledMMA needs (" +
         std::to_string(op.mn) + ", a multiple of " + std::to_string(op.k) + ")");
  op.k_tiles = cols / op.k;
  op.k = cols;
  int64_t top = 0;
  op.smem_offset = offsets_of(op, spec.smem, flag, top);
  op.data_offset =
      spec.data ? offsets_of(op, *spec.data, "--data-" + std::string(1, char(op.name + 32)), top) : op.smem_offset;
  op.data_text = spec.data ? spec.data_text : spec.smem_text;
  op.smem_bytes = ((top + 1) * 2 + 1023) / 1024 * 1024;
}

// The calls of a TiledCopy over an (rows x cols) tensor, tile by tile (column-major tiles),
// call by call within a thread's values.  `cell_of(thr, tile_r, tile_c, val)` gives the cell.
struct CopyWalk {
  int64_t tiles_r = 0, tiles_c = 0, calls_per_tile = 0, vals_per_call = 0;
};

CopyWalk walk_of(const TiledCopy& c, int64_t rows, int64_t cols, int64_t vals_per_call, const std::string& what) {
  const int64_t tr = size(c.tile_mn[0]), tc = size(c.tile_mn[1]);
  if (rows % tr != 0 || cols % tc != 0)
    fail(what + "'s tile (" + std::to_string(tr) + "," + std::to_string(tc) + ") does not divide (" +
         std::to_string(rows) + "," + std::to_string(cols) + ")");
  CopyWalk w;
  w.tiles_r = rows / tr;
  w.tiles_c = cols / tc;
  const int64_t vals = size(c.layout_s_tv.shape[1]);
  if (vals_per_call <= 0 || vals % vals_per_call != 0)
    fail(what + ": " + std::to_string(vals) + " values per thread are not whole calls of " +
         std::to_string(vals_per_call));
  w.vals_per_call = vals_per_call;
  w.calls_per_tile = vals / vals_per_call;
  return w;
}

void plan_g2s(PipelineOperand& op, const PipelineOperandSpec& spec, int threads, PipelinePlan& plan) {
  const TiledCopy& c = *spec.g2s;
  const std::string what = std::string("--g2s-") + char(op.name + 32);
  if (c.atom.value_type.bits != 16)
    fail(what + ": the copy's value type has " + std::to_string(c.atom.value_type.bits) + " bits; the MMA's is 16");
  if (c.atom.family == "SM80_CP_ASYNC")
    op.cp_async = true, op.cache_global = c.atom.op.find("CACHEGLOBAL") != std::string::npos;
  else if (c.atom.family != "Universal")
    fail(what + ": " + c.atom.name + " is not a global -> shared copy this mode runs (cp.async or UniversalCopy)");
  if (c.num_threads > threads)
    fail(what + " has " + std::to_string(c.num_threads) + " threads; the TiledMMA " + std::to_string(threads));
  AnyLayout g = spec.gmem ? *spec.gmem : AnyLayout(Layout(tup(op.mn, op.k), tup(op.k, 1)));
  const IntTuple& gs = shape(g);
  if (gs.rank() != 2 || size(gs[0]) != op.mn || size(gs[1]) != op.k)
    fail("--gmem-" + std::string(1, char(op.name + 32)) + " must be (" + std::to_string(op.mn) + "," +
         std::to_string(op.k) + "), like the shared-memory tile; got " + to_string(g));
  op.gmem_offset = layout_values(g);
  int64_t top = 0;
  for (int64_t o : op.gmem_offset) top = std::max(top, o);
  op.gmem_bytes = ((top + 1) * 2 + 15) / 16 * 16;
  op.g2s = true;
  op.g2s_threads = static_cast<int>(c.num_threads);
  const int64_t vpc = c.atom.num_val_src;
  const int bytes = static_cast<int>(vpc * 2);
  if (bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
    fail(what + ": " + std::to_string(bytes) + "-byte accesses are not one instruction");
  if (op.cp_async && bytes < 4) fail(what + ": cp.async moves 4, 8 or 16 bytes");
  if (op.cache_global && bytes != 16) fail(what + ": cp.async.cg moves 16 bytes");
  CopyWalk w = walk_of(c, op.mn, op.k, vpc, what);
  const int64_t trows = size(c.tile_mn[0]), tcols = size(c.tile_mn[1]);
  for (int64_t tc = 0; tc < w.tiles_c; ++tc)
    for (int64_t tr = 0; tr < w.tiles_r; ++tr)
      for (int64_t j = 0; j < w.calls_per_tile; ++j) {
        std::vector<PipelineCall> call(static_cast<size_t>(threads));
        for (int64_t t = 0; t < c.num_threads; ++t) {
          const int64_t src = tensor_cell(c.layout_s_tv, t, j * vpc, trows, op.mn, tr, tc, tcols);
          const int64_t dst = tensor_cell(c.layout_d_tv, t, j * vpc, trows, op.mn, tr, tc, tcols);
          PipelineCall& pc = call[static_cast<size_t>(t)];
          pc.bytes = bytes;
          pc.gmem = op.gmem_offset[static_cast<size_t>(src)] * 2;
          pc.smem = op.data_offset[static_cast<size_t>(dst)] * 2;
          if ((pc.gmem % bytes != 0 || pc.smem % bytes != 0) && plan.static_failures.size() < 8) {
            plan.static_failures.push_back(
                what + " thread " + std::to_string(t) + ", call " +
                std::to_string(tc * w.tiles_r * w.calls_per_tile + tr * w.calls_per_tile + j) + " (" +
                coord(op.name, dst, op.mn) +
                " ...): " + (pc.smem % bytes ? "smem " + hex(pc.smem) : "gmem " + hex(pc.gmem)) + " is not " +
                std::to_string(bytes) + "-byte aligned (the instruction would fault)");
          }
          if (pc.gmem % bytes != 0 || pc.smem % bytes != 0) {
            auto& wrong = op.name == 'A' ? plan.static_wrong_a : plan.static_wrong_b;
            for (int64_t v = 0; v < vpc; ++v)
              wrong.push_back(tensor_cell(c.layout_d_tv, t, j * vpc + v, trows, op.mn, tr, tc, tcols));
          }
        }
        op.g2s_calls.push_back(std::move(call));
      }
}

void plan_s2r(PipelineOperand& op, const CopyAtom& atom, const TiledMma& mma, PipelinePlan& plan) {
  const std::string what = std::string("--copy-") + char(op.name + 32);
  if (atom.value_type.bits != 16)
    fail(what + ": " + atom.name + " copies " + std::to_string(atom.value_type.bits) +
         "-bit values; the MMA's are 16-bit");
  TiledCopy c = op.name == 'A' ? make_tiled_copy_A(atom, mma) : make_tiled_copy_B(atom, mma);
  int bytes = 0;
  if (atom.family == "SM75_LDSM") {
    op.s2r = S2RKind::kLdmatrix;
    op.s2r_opcode = atom.ptx.substr(0, atom.ptx.find_first_of(" {"));
    const auto x = op.s2r_opcode.find(".x");
    op.matrices = x == std::string::npos ? 1 : op.s2r_opcode[x + 2] - '0';
    op.trans = op.s2r_opcode.find(".trans") != std::string::npos;
    bytes = 16;
    if (atom.num_val_dst != 2 * op.matrices)
      fail(what + ": " + atom.name + " delivers " + std::to_string(atom.num_val_dst) +
           " values per call, not 2 per matrix");
  } else if (atom.family == "Universal") {
    op.s2r = S2RKind::kLoad;
    bytes = static_cast<int>(atom.num_val_src * 2);
    if (bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
      fail(what + ": " + std::to_string(bytes) + "-byte loads are not one instruction");
    op.s2r_opcode = bytes == 16  ? "ld.shared.v4.b32"
                    : bytes == 8 ? "ld.shared.v2.b32"
                    : bytes == 4 ? "ld.shared.b32"
                                 : "ld.shared.b16";
  } else {
    fail(what + ": " + atom.name +
         " is not a shared -> register copy this mode runs (ldmatrix: SM75_*_LDSM_*, or UniversalCopy)");
  }
  const int threads = plan.threads;
  if (c.num_threads != threads)
    fail(what + ": the copy has " + std::to_string(c.num_threads) + " threads, the TiledMMA " +
         std::to_string(threads));
  const int64_t vps = atom.num_val_src;
  const int64_t vpd = atom.num_val_dst;
  CopyWalk w = walk_of(c, op.mn, op.k, vps, what);
  const int64_t trows = size(c.tile_mn[0]), tcols = size(c.tile_mn[1]);
  op.copy_cell.assign(static_cast<size_t>(threads), {});
  int failures = 0;
  for (int64_t tc = 0; tc < w.tiles_c; ++tc)
    for (int64_t tr = 0; tr < w.tiles_r; ++tr)
      for (int64_t j = 0; j < w.calls_per_tile; ++j) {
        std::vector<PipelineCall> call(static_cast<size_t>(threads));
        for (int64_t t = 0; t < threads; ++t) {
          const int64_t src = tensor_cell(c.layout_s_tv, t, j * vps, trows, op.mn, tr, tc, tcols);
          PipelineCall& pc = call[static_cast<size_t>(t)];
          pc.bytes = bytes;
          pc.smem = op.smem_offset[static_cast<size_t>(src)] * 2;
          // ldmatrix reads the rows of lanes 0..8N-1; every lane's own vector for loads
          const bool used = op.s2r == S2RKind::kLoad || t % 32 < 8 * op.matrices;
          if (used && pc.smem % bytes != 0) {
            if (failures++ < 4)
              plan.static_failures.push_back(what + " " + op.s2r_opcode + " thread " + std::to_string(t) + ", call " +
                                             std::to_string((tc * w.tiles_r + tr) * w.calls_per_tile + j) + ": the " +
                                             (op.s2r == S2RKind::kLdmatrix ? "row" : "vector") + " starting at " +
                                             coord(op.name, src, op.mn) + " sits at smem " + hex(pc.smem) + ", not " +
                                             std::to_string(bytes) + "-byte aligned (the instruction would fault)");
            auto& wrong = op.name == 'A' ? plan.static_wrong_a : plan.static_wrong_b;
            for (int64_t v = 0; v < vps; ++v)
              wrong.push_back(tensor_cell(c.layout_s_tv, t, j * vps + v, trows, op.mn, tr, tc, tcols));
          }
          for (int64_t u = 0; u < vpd; ++u)
            op.copy_cell[static_cast<size_t>(t)].push_back(
                tensor_cell(c.layout_d_tv, t, j * vpd + u, trows, op.mn, tr, tc, tcols));
        }
        op.s2r_calls.push_back(std::move(call));
      }
  op.copy_values = static_cast<int64_t>(op.copy_cell[0].size());
}

// The MMA's fragment values of every call, and which copy value holds each (retile_D).
void plan_gather(PipelineOperand& op, const Layout& tv, int64_t frg, int64_t rest_mn, int64_t rest_k, int64_t tile_k,
                 PipelinePlan& plan) {
  const int threads = plan.threads;
  const int64_t tv_threads = size(tv.shape[0]);
  op.gather.assign(static_cast<size_t>(threads), {});
  op.mma_cell.assign(static_cast<size_t>(threads), {});
  bool reported = false;
  for (int64_t t = 0; t < threads; ++t) {
    std::map<int64_t, int64_t> value_of;  // cell -> copy value
    for (size_t u = 0; u < op.copy_cell[static_cast<size_t>(t)].size(); ++u)
      value_of.emplace(op.copy_cell[static_cast<size_t>(t)][u], static_cast<int64_t>(u));
    for (int64_t kt = 0; kt < op.k_tiles; ++kt)
      for (int64_t rk = 0; rk < rest_k; ++rk)
        for (int64_t rm = 0; rm < rest_mn; ++rm) {
          std::vector<int64_t> idx, cells;
          for (int64_t fv = 0; fv < frg; ++fv) {
            const int64_t v = fv + frg * (rm + rest_mn * rk);
            const int64_t in_tile = tv(t % tv_threads + tv_threads * v);
            const int64_t cell = in_tile % op.mn + op.mn * (kt * tile_k + in_tile / op.mn);
            cells.push_back(cell);
            auto it = value_of.find(cell);
            if (it == value_of.end()) {
              if (!reported)
                plan.static_failures.push_back(
                    "thread " + std::to_string(t) + ": the MMA's " + std::string(1, op.name) + " value " +
                    std::to_string(v) + " is " + coord(op.name, cell, op.mn) +
                    ", which the copy does not deliver to this thread (retile_D cannot line them up)");
              reported = true;
              (op.name == 'A' ? plan.static_wrong_a : plan.static_wrong_b).push_back(cell);
              idx.push_back(0);
            } else {
              idx.push_back(it->second);
            }
          }
          op.gather[static_cast<size_t>(t)].push_back(idx);
          op.mma_cell[static_cast<size_t>(t)].push_back(cells);
        }
  }
}

// (lane, value) -> register slot of an atom operand.
std::map<std::pair<int64_t, int64_t>, OperandPlan::Slot> slots_of(const OperandPlan& op) {
  std::map<std::pair<int64_t, int64_t>, OperandPlan::Slot> m;
  for (size_t i = 0; i < op.entries.size(); ++i) m[{op.entries[i].thr, op.entries[i].val}] = op.slots[i];
  return m;
}

}  // namespace

PipelinePlan plan_pipeline(const PipelineSpec& spec) {
  PipelinePlan p;
  const TiledMma& mma = spec.mma;
  const MmaAtom& atom = mma.atom;
  p.name = "pipeline " + (spec.mma_text.empty() ? atom.short_name : spec.mma_text);
  const bool ss = atom.source_a == OperandSource::kSharedMemory && atom.source_b == OperandSource::kSharedMemory;
  p.wgmma = atom.family == "SM90_GMMA";
  const std::string short_name = atom.short_name.empty() ? atom.name : atom.short_name;
  if (p.wgmma && !ss)
    fail(short_name +
         " reads A from registers (RS); the pipeline mode runs SS GMMA (both operands in shared memory) or mma.sync");
  if (!p.wgmma && atom.ptx.rfind("mma.sync", 0) != 0)
    fail(short_name + " is not an mma.sync (SM80) or SS wgmma (SM90) atom; the pipeline mode runs those");
  if (atom.type_a.bits != 16 || atom.type_b.bits != 16)
    fail(short_name + " multiplies " + atom.type_a.name + " x " + atom.type_b.name +
         "; the pipeline mode runs 16-bit A and B (half_t, bfloat16_t)");
  const std::string mode_a = swizzle_mode(spec.a.smem), mode_b = swizzle_mode(spec.b.smem);
  MmaOverrides ov;
  p.atom = plan_mma(atom, ov);
  p.threads = static_cast<int>(mma.num_threads);
  p.m = tile_m(mma);
  p.n = tile_n(mma);
  const int64_t tk = tile_k(mma);
  p.ptx_version = std::max(p.atom.ptx_version, 70);
  p.target = p.atom.target;
  if (p.wgmma && (p.threads != 128 || p.m != p.atom.m || p.n != p.atom.n || tk != p.atom.k))
    fail("the SM90 pipeline runs one warpgroup's atom (a TiledMMA of one " + short_name + "), got " +
         std::to_string(p.threads) + " threads and tile (" + std::to_string(p.m) + "," + std::to_string(p.n) + "," +
         std::to_string(tk) + ")");
  auto fmt_a = format_of(atom.type_a), fmt_b = format_of(atom.type_b);
  if (!fmt_a || !fmt_b) fail("element types " + atom.type_a.name + " / " + atom.type_b.name + " cannot be placed");
  for (PipelineOperand* op : {&p.a, &p.b}) {
    const bool is_a = op == &p.a;
    const PipelineOperandSpec& s = is_a ? spec.a : spec.b;
    op->name = is_a ? 'A' : 'B';
    op->mn = is_a ? p.m : p.n;
    op->k = tk;
    op->format = is_a ? *fmt_a : *fmt_b;
    op->smem_text = s.smem_text;
    place_smem(*op, s, is_a ? "--smem-a" : "--smem-b");
    if (op->mn * op->k > 16383)
      fail(std::string(1, op->name) + " has " + std::to_string(op->mn * op->k) +
           " elements; the tags of one data set hold 16383");
    if (s.g2s) plan_g2s(*op, s, p.threads, p);
    else if (s.gmem) fail(std::string("--gmem-") + char(op->name + 32) + " is the source of a --g2s copy: add --g2s");
    if (p.wgmma) {
      if (s.s2r)
        fail(std::string("--copy-") + char(op->name + 32) + ": " + short_name + " reads " + op->name +
             " from shared memory itself (no S2R copy)");
      const std::string& major = is_a ? p.atom.a.smem.major : p.atom.b.smem.major;
      op->canonical = make_smem_tile(major, is_a ? mode_a : mode_b, op->mn, op->k, 16);
    } else {
      if (!s.s2r)
        fail(std::string("--copy-") + char(op->name + 32) +
             " is needed: the S2R copy atom (e.g. SM75_U32x4_LDSM_N) for " + op->name);
      plan_s2r(*op, *s.s2r, mma, p);
    }
  }
  if (p.a.k != p.b.k)
    fail("--smem-a has K = " + std::to_string(p.a.k) + ", --smem-b K = " + std::to_string(p.b.k) + ": A and B share K");
  if (p.a.smem_bytes + p.b.smem_bytes > 48 * 1024)
    fail("sA and sB need " + std::to_string(p.a.smem_bytes + p.b.smem_bytes) +
         " bytes of shared memory; the kernel has 48 KB");
  // C / D
  const Layout& tvc = mma.tv_layout_c;
  const int64_t tvc_threads = size(tvc.shape[0]), c_vals = size(tvc.shape[1]);
  p.c_cell.assign(static_cast<size_t>(p.threads), {});
  for (int64_t t = 0; t < p.threads; ++t)
    for (int64_t v = 0; v < c_vals; ++v)
      p.c_cell[static_cast<size_t>(t)].push_back(tvc(t % tvc_threads + tvc_threads * v));
  p.frg_a = size(atom.layout_a.shape[1]);
  p.frg_b = size(atom.layout_b.shape[1]);
  p.frg_c = size(atom.layout_c.shape[1]);
  auto c_slots = slots_of(p.atom.c);
  p.d_slot.assign(static_cast<size_t>(p.threads), {});
  if (p.wgmma) {
    p.d_words = p.atom.c.words_per_thread();
    for (int64_t t = 0; t < p.threads; ++t) {
      auto& ds = p.d_slot[static_cast<size_t>(t)];
      ds.assign(static_cast<size_t>(p.d_words * 2), {-1, 0});
      for (int64_t v = 0; v < c_vals; ++v) {
        auto it = c_slots.find({t, v});
        if (it == c_slots.end()) fail("no D register for T" + std::to_string(t) + " V" + std::to_string(v));
        ds[static_cast<size_t>(it->second.word * 2 + it->second.bit / 16)] = {v, it->second.bit};
      }
    }
  } else {
    p.rest_k = tk / p.atom.k;
    p.rest_m = size(mma.tv_layout_a.shape[1]) / p.frg_a / p.rest_k;
    p.rest_n = size(mma.tv_layout_b.shape[1]) / p.frg_b / p.rest_k;
    if (p.rest_m * p.rest_n * p.frg_c != c_vals)
      fail("the TiledMMA's C values (" + std::to_string(c_vals) + ") are not its A x B calls");
    plan_gather(p.a, mma.tv_layout_a, p.frg_a, p.rest_m, p.rest_k, tk, p);
    plan_gather(p.b, mma.tv_layout_b, p.frg_b, p.rest_n, p.rest_k, tk, p);
    const int64_t words_per_call = p.atom.c.words_per_thread();
    p.d_words = words_per_call * p.rest_m * p.rest_n;
    for (int64_t t = 0; t < p.threads; ++t) {
      auto& ds = p.d_slot[static_cast<size_t>(t)];
      ds.assign(static_cast<size_t>(p.d_words * 2), {-1, 0});
      for (int64_t rn = 0; rn < p.rest_n; ++rn)
        for (int64_t rm = 0; rm < p.rest_m; ++rm)
          for (int64_t fv = 0; fv < p.frg_c; ++fv) {
            auto it = c_slots.find({t % 32, fv});
            if (it == c_slots.end())
              fail("no D register for lane " + std::to_string(t % 32) + " value " + std::to_string(fv));
            const int64_t word = (rm + p.rest_m * rn) * words_per_call + it->second.word;
            ds[static_cast<size_t>(word * 2 + it->second.bit / 16)] = {fv + p.frg_c * (rm + p.rest_m * rn),
                                                                       it->second.bit};
          }
    }
  }
  if (p.a.g2s || p.b.g2s) p.ptx_version = std::max(p.ptx_version, 70);
  return p;
}

// --- PTX ---------------------------------------------------------------------------------------

namespace {

// This thread's table word `index` into %w (tables are [index][thread] u32).
void table_word(std::ostringstream& o, int64_t index, int threads) {
  o << "  ld.global.u32 %w, [%tab+" << index * threads * 4 << "];\n";
}

void zero_smem(std::ostringstream& o, const std::string& smem, int64_t bytes, int threads, const std::string& label) {
  o << "  mov.u32 %i, %th;\n  mov.u32 %v, 0;\n" << label << ":\n";
  o << "  setp.ge.u32 %pl, %i, " << bytes / 4 << ";\n  @%pl bra " << label << "_done;\n";
  o << "  mov.u32 %s, " << smem << ";\n  mad.lo.u32 %s, %i, 4, %s;\n  st.shared.b32 [%s], %v;\n";
  o << "  add.u32 %i, %i, " << threads << ";\n  bra " << label << ";\n" << label << "_done:\n";
}

// words between global array `param` (this block's slice of `bytes`) and shared `smem`.
void move_smem(std::ostringstream& o, const std::string& param, const std::string& smem, int64_t bytes,
               int64_t block_bytes, int threads, bool into_smem, const std::string& label) {
  o << "  ld.param.u64 %base, [" << param << "];\n";
  o << "  mul.wide.u32 %off, %bk, " << block_bytes << ";\n  add.u64 %base, %base, %off;\n";
  o << "  mov.u32 %i, %th;\n" << label << ":\n";
  o << "  setp.ge.u32 %pl, %i, " << bytes / 4 << ";\n  @%pl bra " << label << "_done;\n";
  o << "  mul.wide.u32 %off, %i, 4;\n  add.u64 %addr, %base, %off;\n";
  o << "  mov.u32 %s, " << smem << ";\n  mad.lo.u32 %s, %i, 4, %s;\n";
  if (into_smem) o << "  ld.global.b32 %v, [%addr];\n  st.shared.b32 [%s], %v;\n";
  else o << "  ld.shared.b32 %v, [%s];\n  st.global.b32 [%addr], %v;\n";
  o << "  add.u32 %i, %i, " << threads << ";\n  bra " << label << ";\n" << label << "_done:\n";
}

std::string vec(const std::string& prefix, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + prefix + std::to_string(i);
  return s + "}";
}

}  // namespace

int64_t pipeline_reg_words(const PipelinePlan& p) { return (p.a.copy_values + 1) / 2 + (p.b.copy_values + 1) / 2; }

// Table layout (u32 per thread): G2S A calls (gmem, smem), G2S B, S2R A (smem), S2R B,
// gather A [thread's calls][fv], gather B.
std::vector<uint32_t> pipeline_table(const PipelinePlan& p) {
  std::vector<std::vector<uint32_t>> rows;  // [index][thread]
  auto add = [&](const std::vector<PipelineCall>& call, bool gmem) {
    std::vector<uint32_t> r(static_cast<size_t>(p.threads), 0xffffffffu);
    for (size_t t = 0; t < call.size(); ++t) {
      const int64_t v = gmem ? call[t].gmem : call[t].smem;
      if (v >= 0) r[t] = static_cast<uint32_t>(v);
    }
    rows.push_back(std::move(r));
  };
  for (const PipelineOperand* op : {&p.a, &p.b})
    for (const auto& call : op->g2s_calls) add(call, true), add(call, false);
  for (const PipelineOperand* op : {&p.a, &p.b})
    for (const auto& call : op->s2r_calls) add(call, false);
  for (const PipelineOperand* op : {&p.a, &p.b}) {
    if (op->gather.empty()) continue;
    const size_t calls = op->gather[0].size(), frg = calls ? op->gather[0][0].size() : 0;
    for (size_t c = 0; c < calls; ++c)
      for (size_t f = 0; f < frg; ++f) {
        std::vector<uint32_t> r(static_cast<size_t>(p.threads), 0);
        for (int t = 0; t < p.threads; ++t)
          r[static_cast<size_t>(t)] = static_cast<uint32_t>(op->gather[static_cast<size_t>(t)][c][f]);
        rows.push_back(std::move(r));
      }
  }
  std::vector<uint32_t> out;
  for (const auto& r : rows) out.insert(out.end(), r.begin(), r.end());
  if (out.empty()) out.push_back(0);
  return out;
}

std::string pipeline_kernel_ptx(const PipelinePlan& p, const std::string& entry) {
  std::ostringstream o;
  const int T = p.threads;
  const int64_t reg_words = pipeline_reg_words(p);
  const int64_t frag_a_bytes = std::max<int64_t>(4, (p.a.copy_values * 2 + 15) / 16 * 16);
  const int64_t frag_b_bytes = std::max<int64_t>(4, (p.b.copy_values * 2 + 15) / 16 * 16);
  o << "// cutevis verify --pipeline: " << p.name << "\n";
  o << ".visible .entry " << entry
    << "(.param .u64 pga, .param .u64 pgb, .param .u64 ptab, .param .u64 psmem, .param .u64 pregs, .param .u64 "
       "pd)\n{\n";
  o << "  .reg .pred %pl, %psd;\n  .reg .b32 %th, %bk, %i, %s, %v, %w, %x<4>, %fa<8>, %fb<8>;\n  .reg .b16 %h;\n";
  o << "  .reg .b64 %base, %off, %addr, %tab, %ga, %gb, %la, %lb, %t64, %desc_a, %desc_b;\n";
  const int c_words = static_cast<int>(p.atom.c.words_per_thread());
  const int64_t c_calls = p.wgmma ? 1 : p.rest_m * p.rest_n;
  o << "  .reg .b32 %d<" << c_calls * c_words << ">;\n";
  o << "  .shared .align 1024 .b8 smem_a[" << p.a.smem_bytes << "];\n  .shared .align 1024 .b8 smem_b["
    << p.b.smem_bytes << "];\n";
  if (!p.wgmma)
    o << "  .local .align 16 .b8 frag_a[" << frag_a_bytes << "];\n  .local .align 16 .b8 frag_b[" << frag_b_bytes
      << "];\n";
  o << "  mov.u32 %th, %tid.x;\n  mov.u32 %bk, %ctaid.x;\n";
  o << "  ld.param.u64 %tab, [ptab];\n  mul.wide.u32 %off, %th, 4;\n  add.u64 %tab, %tab, %off;\n";
  // 1. shared memory: zeroed, then filled (the host image, or the G2S copy's instructions)
  int64_t index = 0;
  for (const PipelineOperand* op : {&p.a, &p.b}) {
    const std::string smem = op->name == 'A' ? "smem_a" : "smem_b";
    const std::string param = op->name == 'A' ? "pga" : "pgb";
    const std::string g = op->name == 'A' ? "%ga" : "%gb";
    if (!op->g2s) {
      move_smem(o, param, smem, op->smem_bytes, op->smem_bytes, T, true, std::string("$fill_") + op->name);
      continue;
    }
    zero_smem(o, smem, op->smem_bytes, T, std::string("$zero_") + op->name);
    o << "  bar.sync 0;\n";
    o << "  ld.param.u64 " << g << ", [" << param << "];\n  mul.wide.u32 %off, %bk, " << op->gmem_bytes
      << ";\n  add.u64 " << g << ", " << g << ", %off;\n";
    for (size_t c = 0; c < op->g2s_calls.size(); ++c) {
      const int bytes = op->g2s_calls[c][0].bytes;
      const std::string skip = "$g2s_" + std::string(1, op->name) + std::to_string(c);
      table_word(o, index++, T);
      o << "  setp.eq.u32 %pl, %w, -1;\n  @%pl bra " << skip << ";\n";
      o << "  cvt.u64.u32 %off, %w;\n  add.u64 %addr, " << g << ", %off;\n";
      table_word(o, index++, T);
      o << "  mov.u32 %s, " << smem << ";\n  add.u32 %s, %s, %w;\n";
      if (op->cp_async) {
        o << "  cp.async." << (op->cache_global ? "cg" : "ca") << ".shared.global [%s], [%addr], " << bytes << ";\n";
      } else if (bytes == 16) {
        o << "  ld.global.v4.b32 {%x0, %x1, %x2, %x3}, [%addr];\n  st.shared.v4.b32 [%s], {%x0, %x1, %x2, %x3};\n";
      } else if (bytes == 8) {
        o << "  ld.global.v2.b32 {%x0, %x1}, [%addr];\n  st.shared.v2.b32 [%s], {%x0, %x1};\n";
      } else if (bytes == 4) {
        o << "  ld.global.b32 %x0, [%addr];\n  st.shared.b32 [%s], %x0;\n";
      } else {
        o << "  ld.global.b16 %h, [%addr];\n  st.shared.b16 [%s], %h;\n";
      }
      o << skip << ":\n";
    }
    if (op->cp_async) o << "  cp.async.commit_group;\n  cp.async.wait_all;\n";
  }
  if (p.wgmma) o << "  fence.proxy.async.shared::cta;\n";
  o << "  bar.sync 0;\n";
  // 2. the shared images as they are now, for the G2S check
  move_smem(o, "psmem", "smem_a", p.a.smem_bytes, p.a.smem_bytes + p.b.smem_bytes, T, false, "$out_a");
  o << "  ld.param.u64 %t64, [psmem];\n  add.u64 %t64, %t64, " << p.a.smem_bytes << ";\n";
  {
    // smem_b goes after smem_a in the block's slice
    o << "  mul.wide.u32 %off, %bk, " << p.a.smem_bytes + p.b.smem_bytes << ";\n  add.u64 %t64, %t64, %off;\n";
    o << "  mov.u32 %i, %th;\n$out_b:\n  setp.ge.u32 %pl, %i, " << p.b.smem_bytes / 4 << ";\n  @%pl bra $out_b_done;\n";
    o << "  mul.wide.u32 %off, %i, 4;\n  add.u64 %addr, %t64, %off;\n  mov.u32 %s, smem_b;\n  mad.lo.u32 %s, %i, 4, "
         "%s;\n";
    o << "  ld.shared.b32 %v, [%s];\n  st.global.b32 [%addr], %v;\n  add.u32 %i, %i, " << T
      << ";\n  bra $out_b;\n$out_b_done:\n";
  }
  for (int w = 0; w < c_calls * c_words; ++w) o << "  mov.b32 %d" << w << ", 0;\n";
  if (p.wgmma) {
    // 3. wgmma SS: one descriptor pair per K tile of the atom
    o << "  setp.eq.u32 %psd, %th, %th;\n  wgmma.fence.sync.aligned;\n";
    for (int64_t kb = 0; kb < p.a.k / p.atom.k; ++kb) {
      for (const PipelineOperand* op : {&p.a, &p.b}) {
        const std::string reg = op->name == 'A' ? "%desc_a" : "%desc_b";
        o << "  mov.u32 %s, " << (op->name == 'A' ? "smem_a" : "smem_b") << ";\n  add.u32 %s, %s, "
          << op->canonical.byte_offset(0, kb * p.atom.k) << ";\n";
        o << "  shr.u32 %s, %s, 4;\n  and.b32 %s, %s, 16383;\n  cvt.u64.u32 %t64, %s;\n";
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(op->canonical.descriptor));
        o << "  mov.b64 " << reg << ", " << buf << ";\n  or.b64 " << reg << ", " << reg << ", %t64;\n";
      }
      o << "  " << p.atom.opcode << " " << vec("%d", c_words) << ", %desc_a, %desc_b, %psd";
      if (p.atom.has_scale_imms) o << ", 1, 1";
      if (p.atom.has_transpose_imms) o << ", " << (p.atom.transpose_a ? 1 : 0) << ", " << (p.atom.transpose_b ? 1 : 0);
      o << ";\n";
    }
    o << "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n";
  } else {
    // 3. S2R: every call of the copy into the thread's fragment (local memory, value order)
    o << "  mov.u64 %la, frag_a;\n  mov.u64 %lb, frag_b;\n";
    for (const PipelineOperand* op : {&p.a, &p.b}) {
      const std::string smem = op->name == 'A' ? "smem_a" : "smem_b", frag = op->name == 'A' ? "%la" : "%lb";
      const int64_t vpc = op->copy_values / static_cast<int64_t>(std::max<size_t>(1, op->s2r_calls.size()));
      for (size_t c = 0; c < op->s2r_calls.size(); ++c) {
        table_word(o, index++, T);
        o << "  mov.u32 %s, " << smem << ";\n  add.u32 %s, %s, %w;\n";
        const int64_t at = static_cast<int64_t>(c) * vpc * 2;  // byte offset in the fragment
        if (op->s2r == S2RKind::kLdmatrix) {
          o << "  " << op->s2r_opcode << " " << vec("%x", op->matrices) << ", [%s];\n";
          for (int r = 0; r < op->matrices; ++r)
            o << "  st.local.b32 [" << frag << "+" << at + 4 * r << "], %x" << r << ";\n";
        } else {
          const int bytes = op->s2r_calls[c][0].bytes;
          if (bytes == 16)
            o << "  ld.shared.v4.b32 {%x0, %x1, %x2, %x3}, [%s];\n  st.local.v4.b32 [" << frag << "+" << at
              << "], {%x0, %x1, %x2, %x3};\n";
          else if (bytes == 8)
            o << "  ld.shared.v2.b32 {%x0, %x1}, [%s];\n  st.local.v2.b32 [" << frag << "+" << at << "], {%x0, %x1};\n";
          else if (bytes == 4) o << "  ld.shared.b32 %x0, [%s];\n  st.local.b32 [" << frag << "+" << at << "], %x0;\n";
          else o << "  ld.shared.b16 %h, [%s];\n  st.local.b16 [" << frag << "+" << at << "], %h;\n";
        }
      }
    }
    // the fragments as loaded, for the register check
    o << "  ld.param.u64 %base, [pregs];\n  mad.lo.u32 %i, %bk, " << T << ", %th;\n  mul.wide.u32 %off, %i, "
      << reg_words * 4 << ";\n  add.u64 %base, %base, %off;\n";
    int64_t w = 0;
    for (const PipelineOperand* op : {&p.a, &p.b})
      for (int64_t i = 0; i < (op->copy_values + 1) / 2; ++i, ++w)
        o << "  ld.local.b32 %v, [" << (op->name == 'A' ? "%la" : "%lb") << "+" << 4 * i
          << "];\n  st.global.b32 [%base+" << 4 * w << "], %v;\n";
    // 4. mma.sync over every (K tile, rest_k, rest_m, rest_n), fragments gathered by retile_D
    auto slots_a = slots_of(p.atom.a), slots_b = slots_of(p.atom.b);
    const int64_t gather_a = index, calls_a = p.a.gather.empty() ? 0 : static_cast<int64_t>(p.a.gather[0].size());
    const int64_t gather_b = gather_a + calls_a * p.frg_a;
    // which register word/half each fragment value goes to (lane 0's packing: the same on every lane for mma.sync)
    auto gather = [&](const PipelineOperand& op, int64_t first_row, int64_t call, int64_t frg,
                      const std::map<std::pair<int64_t, int64_t>, OperandPlan::Slot>& slots, const std::string& dst,
                      int regs) {
      for (int r = 0; r < regs; ++r) o << "  mov.b32 " << dst << r << ", 0;\n";
      for (int64_t fv = 0; fv < frg; ++fv) {
        auto it = slots.find({0, fv});
        if (it == slots.end()) fail("no register for value " + std::to_string(fv) + " of " + std::string(1, op.name));
        table_word(o, first_row + call * frg + fv, T);
        o << "  mul.wide.u32 %off, %w, 2;\n  add.u64 %t64, " << (op.name == 'A' ? "%la" : "%lb") << ", %off;\n";
        o << "  ld.local.b16 %h, [%t64];\n  cvt.u32.u16 %v, %h;\n";
        if (it->second.bit) o << "  shl.b32 %v, %v, " << it->second.bit << ";\n";
        o << "  or.b32 " << dst << it->second.word << ", " << dst << it->second.word << ", %v;\n";
      }
    };
    const int regs_a = p.atom.a.regs, regs_b = p.atom.b.regs;
    if (regs_a > 8 || regs_b > 8) fail("the atom's A/B fragments take more than 8 registers");
    for (int64_t kt = 0; kt < p.a.k_tiles; ++kt)
      for (int64_t rk = 0; rk < p.rest_k; ++rk)
        for (int64_t rm = 0; rm < p.rest_m; ++rm) {
          gather(p.a, gather_a, (kt * p.rest_k + rk) * p.rest_m + rm, p.frg_a, slots_a, "%fa", regs_a);
          for (int64_t rn = 0; rn < p.rest_n; ++rn) {
            gather(p.b, gather_b, (kt * p.rest_k + rk) * p.rest_n + rn, p.frg_b, slots_b, "%fb", regs_b);
            std::string d = "{";
            const int64_t first = (rm + p.rest_m * rn) * c_words;
            for (int i = 0; i < c_words; ++i) d += (i ? ", %d" : "%d") + std::to_string(first + i);
            d += "}";
            o << "  " << p.atom.opcode << " " << d << ", " << vec("%fa", regs_a) << ", " << vec("%fb", regs_b) << ", "
              << d << ";\n";
          }
        }
  }
  // 5. D
  o << "  ld.param.u64 %base, [pd];\n  mad.lo.u32 %i, %bk, " << T << ", %th;\n  mul.wide.u32 %off, %i, "
    << p.d_words * 4 << ";\n  add.u64 %base, %base, %off;\n";
  for (int64_t w = 0; w < c_calls * c_words; ++w) o << "  st.global.b32 [%base+" << 4 * w << "], %d" << w << ";\n";
  o << "  ret;\n}\n";
  return o.str();
}

// --- data --------------------------------------------------------------------------------------

namespace {
constexpr uint32_t kTagB = 0x4000;  // B's tags follow A's: 1 + cell for A, 0x4000 + 1 + cell for B
}

// Values for `op` such that the tensor core, reading through the descriptor's canonical layout,
// sees `want`: want[c] goes on the cell whose data sits where the descriptor reads c.  The
// identity data sets place the operand not under test this way, so that a wrong layout of one
// operand does not blur the localization of the other.
std::vector<int64_t> as_read(const PipelineOperand& op, const std::vector<int64_t>& want) {
  std::map<int64_t, size_t> cell_at;
  for (size_t c = 0; c < op.data_offset.size(); ++c) cell_at[op.data_offset[c]] = c;
  std::vector<int64_t> out(want.size(), 0);
  for (size_t c = 0; c < want.size(); ++c) {
    auto it = cell_at.find(op.canonical.offsets[c]);
    if (it != cell_at.end()) out[it->second] = want[c];
  }
  return out;
}

std::vector<PipelineData> pipeline_data(const PipelinePlan& p) {
  std::vector<PipelineData> sets;
  const size_t na = static_cast<size_t>(p.m * p.a.k), nb = static_cast<size_t>(p.n * p.b.k);
  PipelineData tags;
  tags.tags = true;
  for (size_t c = 0; c < na; ++c) tags.a.push_back(static_cast<int64_t>(1 + c));
  for (size_t c = 0; c < nb; ++c) tags.b.push_back(static_cast<int64_t>(kTagB + 1 + c));
  sets.push_back(tags);
  PipelineData random;
  uint64_t s = 0x9e3779b97f4a7c15ull;
  auto next = [&](int64_t lo, int64_t hi) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return lo + static_cast<int64_t>(s % static_cast<uint64_t>(hi - lo + 1));
  };
  for (size_t c = 0; c < na; ++c) random.a.push_back(next(-3, 3));
  for (size_t c = 0; c < nb; ++c) random.b.push_back(next(-2, 2));
  sets.push_back(random);
  if (p.wgmma) {
    // D(m,n) = A(m, n+o) with B(n,k) = [k == n+o]: A's row+1 and col+1 as read; the same for B.
    for (int64_t o = 0; o < p.a.k; o += p.n)
      for (int which = 0; which < 2; ++which) {
        PipelineData d;
        for (int64_t c = 0; c < p.m * p.a.k; ++c) d.a.push_back(which == 0 ? c % p.m + 1 : c / p.m + 1);
        for (int64_t c = 0; c < p.n * p.b.k; ++c) d.b.push_back(c / p.n == c % p.n + o ? 1 : 0);
        d.b = as_read(p.b, d.b);
        sets.push_back(d);
      }
    for (int64_t o = 0; o < p.b.k; o += p.m)
      for (int which = 0; which < 2; ++which) {
        PipelineData d;
        for (int64_t c = 0; c < p.m * p.a.k; ++c) d.a.push_back(c / p.m == c % p.m + o ? 1 : 0);
        d.a = as_read(p.a, d.a);
        for (int64_t c = 0; c < p.n * p.b.k; ++c) d.b.push_back(which == 0 ? c % p.n + 1 : c / p.n + 1);
        sets.push_back(d);
      }
  }
  return sets;
}

std::vector<uint32_t> pipeline_image(const PipelineOperand& op, const std::vector<int64_t>& values, bool tags) {
  const int64_t bytes = op.g2s ? op.gmem_bytes : op.smem_bytes;
  std::vector<uint32_t> words(static_cast<size_t>(bytes / 4), 0);
  const std::vector<int64_t>& where = op.g2s ? op.gmem_offset : op.data_offset;
  for (size_t c = 0; c < values.size(); ++c) {
    const uint32_t bits =
        tags ? static_cast<uint32_t>(values[c]) & 0xffffu : static_cast<uint32_t>(encode(op.format, values[c]));
    const int64_t at = where[c];
    words[static_cast<size_t>(at / 2)] |= bits << (16 * (at % 2));
  }
  return words;
}

// --- checking ----------------------------------------------------------------------------------

namespace {

uint32_t half_at(const std::vector<uint32_t>& words, int64_t index) {
  const size_t w = static_cast<size_t>(index / 2);
  return w < words.size() ? (words[w] >> (16 * (index % 2))) & 0xffffu : 0;
}

// The cell a tag names in operand `op`, or -1.
int64_t cell_of_tag(const PipelineOperand& op, uint32_t tag) {
  const uint32_t first = op.name == 'A' ? 1 : kTagB + 1;
  if (tag < first || tag >= first + static_cast<uint32_t>(op.mn * op.k)) return -1;
  return static_cast<int64_t>(tag - first);
}

// One panel of the report: per entry (owner, believed cell, actual cell) -> make_operand.
struct Panel {
  OperandFacts f;
  Panel(const std::string& name, const std::string& storage, const std::string& layout, int64_t rows, int64_t cols,
        const std::string& rn, const std::string& cn) {
    f.name = name, f.storage = storage, f.layout = layout;
    f.rows = rows, f.cols = cols, f.row_name = rn, f.col_name = cn;
  }
  void add(Owner owner, const std::string& label, int64_t believed, int64_t actual, const std::string& expected_text,
           const std::string& actual_text) {
    f.owners.push_back(owner);
    f.labels.push_back(label);
    f.believed.push_back(believed);
    f.actual.push_back(actual);
    f.expected_text.push_back(expected_text);
    f.actual_text.push_back(actual_text);
  }
  VerifyOperand finish() const { return make_operand(f, true); }
};

std::string mn_name(char op) { return op == 'A' ? "M" : "N"; }

// G2S: where every element of the operand landed in shared memory.
VerifyOperand check_smem(const PipelineOperand& op, const std::vector<uint32_t>& image) {
  const std::string rn = mn_name(op.name);
  Panel panel(std::string("s") + op.name,
              "shared memory after the G2S copy (cell = the element the layout puts at that offset)", op.data_text,
              op.mn, op.k, rn, "K");
  std::map<int64_t, int64_t> cell_at;  // smem element offset -> cell
  for (size_t c = 0; c < op.data_offset.size(); ++c) cell_at[op.data_offset[c]] = static_cast<int64_t>(c);
  std::map<int64_t, int64_t> found;  // cell -> offset holding its tag
  for (int64_t off = 0; off < op.smem_bytes / 2; ++off) {
    const int64_t c = cell_of_tag(op, half_at(image, off));
    if (c >= 0) found.emplace(c, off);
  }
  for (int64_t c = 0; c < op.mn * op.k; ++c) {
    auto f = found.find(c);
    int64_t actual = -1;
    std::string actual_text = "nowhere in shared memory";
    if (f != found.end()) {
      auto at = cell_at.find(f->second);
      actual = at == cell_at.end() ? -1 : at->second;
      actual_text = "smem " + hex(f->second * 2) +
                    (actual >= 0 ? " = the layout's " + cell_text(actual, op.mn, rn, "K") : " (outside the layout)");
    }
    panel.add({-1, static_cast<int32_t>(op.data_offset[static_cast<size_t>(c)])},
              std::string(1, op.name) + cell_text(c, op.mn, rn, "K"), c, actual,
              "smem " + hex(op.data_offset[static_cast<size_t>(c)] * 2), actual_text);
  }
  return panel.finish();
}

// S2R: every thread's copy values against the cells the copy's layouts promise.
VerifyOperand check_registers(const PipelinePlan& p, const PipelineOperand& op, const std::vector<uint32_t>& regs,
                              int64_t first_word) {
  const std::string rn = mn_name(op.name);
  Panel panel(std::string(1, op.name),
              "registers after " + op.s2r_opcode + " (T = thread, V = the copy's destination value)", op.smem_text,
              op.mn, op.k, rn, "K");
  const int64_t reg_words = pipeline_reg_words(p);
  for (int t = 0; t < p.threads; ++t)
    for (int64_t u = 0; u < op.copy_values; ++u) {
      const int64_t believed = op.copy_cell[static_cast<size_t>(t)][static_cast<size_t>(u)];
      const uint32_t tag = half_at(regs, (static_cast<int64_t>(t) * reg_words + first_word) * 2 + u);
      const int64_t actual = cell_of_tag(op, tag);
      panel.add({t, static_cast<int32_t>(u)},
                "T" + std::to_string(t) + " " + op.name + " register " + std::to_string(u / 2) + " bits " +
                    (u % 2 ? "16-31" : "0-15"),
                believed, actual, std::string(1, op.name) + cell_text(believed, op.mn, rn, "K"),
                actual >= 0 ? std::string(1, op.name) + cell_text(actual, op.mn, rn, "K")
                            : "a value that is no element of " + std::string(1, op.name));
    }
  return panel.finish();
}

// wgmma SS: which element the tensor core used at every (mn,k), from the identity data sets.
VerifyOperand check_read(const PipelinePlan& p, const PipelineOperand& op,
                         const std::vector<std::vector<int64_t>>& d_sets, size_t first_set) {
  const std::string rn = mn_name(op.name);
  const std::string storage = "shared memory read by " + p.atom.opcode + " through a " + op.canonical.swizzle + " " +
                              op.canonical.major + "-major descriptor (" + to_string(op.canonical.layout) + ")";
  Panel panel(std::string(1, op.name), storage, op.smem_text, op.mn, op.k, rn, "K");
  const bool is_a = op.name == 'A';
  const int64_t other = is_a ? p.n : p.m;                               // D columns (A) / rows (B) per identity shift
  std::vector<int64_t> used_at(static_cast<size_t>(op.mn * op.k), -1);  // element -> position read as
  std::vector<int64_t> read(static_cast<size_t>(op.mn * op.k), -1);     // position -> element
  size_t set = first_set;
  for (int64_t o = 0; o < op.k; o += other, set += 2) {
    for (int64_t i = 0; i < op.mn; ++i)
      for (int64_t j = 0; j < other && o + j < op.k; ++j) {
        const int64_t dcell = is_a ? i + p.m * j : j + p.m * i;  // D(m,n)
        const int64_t r = d_sets[set][static_cast<size_t>(dcell)], c = d_sets[set + 1][static_cast<size_t>(dcell)];
        const int64_t pos = i + op.mn * (o + j);
        if (r >= 1 && r <= op.mn && c >= 1 && c <= op.k) read[static_cast<size_t>(pos)] = (r - 1) + op.mn * (c - 1);
      }
  }
  for (int64_t pos = 0; pos < op.mn * op.k; ++pos)
    if (read[static_cast<size_t>(pos)] >= 0 && used_at[static_cast<size_t>(read[static_cast<size_t>(pos)])] < 0)
      used_at[static_cast<size_t>(read[static_cast<size_t>(pos)])] = pos;
  for (int64_t e = 0; e < op.mn * op.k; ++e) {
    const int64_t actual = used_at[static_cast<size_t>(e)];
    panel.add({-1, static_cast<int32_t>(op.data_offset[static_cast<size_t>(e)])},
              std::string(1, op.name) + cell_text(e, op.mn, rn, "K") + " at smem " +
                  hex(op.data_offset[static_cast<size_t>(e)] * 2),
              e, actual, "read as " + std::string(1, op.name) + cell_text(e, op.mn, rn, "K"),
              actual >= 0 ? "read as " + std::string(1, op.name) + cell_text(actual, op.mn, rn, "K") : "never read");
  }
  return panel.finish();
}

// D of one block as values per (thread, C value); nullopt where not an exact integer.
std::vector<std::vector<std::optional<int64_t>>> unpack(const PipelinePlan& p, const std::vector<uint32_t>& d) {
  std::vector<std::vector<std::optional<int64_t>>> out(static_cast<size_t>(p.threads));
  const NumberFormat& f = p.atom.format_d;
  for (int t = 0; t < p.threads; ++t) {
    out[static_cast<size_t>(t)].assign(p.c_cell[static_cast<size_t>(t)].size(), std::nullopt);
    for (size_t s = 0; s < p.d_slot[static_cast<size_t>(t)].size(); ++s) {
      auto [v, bit] = p.d_slot[static_cast<size_t>(t)][s];
      if (v < 0) continue;
      const uint32_t word = d[static_cast<size_t>(t * p.d_words + static_cast<int64_t>(s / 2))];
      const uint64_t bits = f.bits >= 32 ? word : (word >> bit) & ((1u << f.bits) - 1);
      out[static_cast<size_t>(t)][static_cast<size_t>(v)] = decode(f, bits);
    }
  }
  return out;
}

// D as a matrix (m + M*n) from one block; -1000000 where missing.
std::vector<int64_t> d_matrix(const PipelinePlan& p, const std::vector<uint32_t>& d) {
  std::vector<int64_t> m(static_cast<size_t>(p.m * p.n), -1000000);
  auto values = unpack(p, d);
  for (int t = 0; t < p.threads; ++t)
    for (size_t v = 0; v < values[static_cast<size_t>(t)].size(); ++v)
      if (values[static_cast<size_t>(t)][v])
        m[static_cast<size_t>(p.c_cell[static_cast<size_t>(t)][v])] = *values[static_cast<size_t>(t)][v];
  return m;
}

VerifyOperand check_d(const PipelinePlan& p, const PipelineData& data, const std::vector<uint32_t>& d,
                      std::string& first) {
  Panel panel("C", "D registers of " + p.atom.opcode + " (T = thread, V = get_layoutC_TV value)",
              "D = A*B over K = " + std::to_string(p.a.k), p.m, p.n, "M", "N");
  auto values = unpack(p, d);
  for (int t = 0; t < p.threads; ++t)
    for (size_t v = 0; v < p.c_cell[static_cast<size_t>(t)].size(); ++v) {
      const int64_t cell = p.c_cell[static_cast<size_t>(t)][v];
      const int64_t m = cell % p.m, n = cell / p.m;
      int64_t want = 0;
      for (int64_t k = 0; k < p.a.k; ++k)
        want += data.a[static_cast<size_t>(m + p.m * k)] * data.b[static_cast<size_t>(n + p.n * k)];
      const auto& got = values[static_cast<size_t>(t)][v];
      const bool ok = got && *got == want;
      const std::string label = "T" + std::to_string(t) + " D value " + std::to_string(v);
      panel.add({t, static_cast<int32_t>(v)}, label, cell, ok ? cell : -1,
                "D" + cell_text(cell, p.m, "M", "N") + " = " + std::to_string(want),
                got ? std::to_string(*got) : "not an integer");
      if (!ok && first.empty())
        first = label + " = D" + cell_text(cell, p.m, "M", "N") + ": expected " + std::to_string(want) + ", got " +
                (got ? std::to_string(*got) : "a non-integer");
    }
  return panel.finish();
}

std::string instruction_text(const PipelinePlan& p) {
  std::string s;
  for (const PipelineOperand* op : {&p.a, &p.b})
    if (op->g2s) {
      s = op->cp_async ? "cp.async" : "ld.global+st.shared";
      break;
    }
  for (const PipelineOperand* op : {&p.a, &p.b})
    if (op->s2r != S2RKind::kNone) {
      s += (s.empty() ? "" : " + ") + op->s2r_opcode.substr(0, op->s2r_opcode.find('.'));
      break;
    }
  return s + (s.empty() ? "" : " + ") + p.atom.opcode;
}

VerifyReport base_report(const PipelinePlan& p) {
  VerifyReport r;
  r.atom = p.name;
  r.kind = "pipeline";
  r.family = p.atom.atom_name;
  r.sm = p.wgmma ? 90 : 80;
  r.instruction = instruction_text(p);
  return r;
}

}  // namespace

VerifyReport static_pipeline_report(const PipelinePlan& p) {
  VerifyReport r = base_report(p);
  r.status = VerifyStatus::kDisagree;
  r.reason = "before running: " + p.static_failures.front() +
             (p.static_failures.size() > 1 ? " (and " + std::to_string(p.static_failures.size() - 1) + " more)" : "");
  for (const PipelineOperand* op : {&p.a, &p.b}) {
    const std::string rn = mn_name(op->name);
    Panel panel(std::string(1, op->name), "cells the failing instructions would carry (found without running)",
                op->smem_text, op->mn, op->k, rn, "K");
    const auto& bad = op->name == 'A' ? p.static_wrong_a : p.static_wrong_b;
    std::vector<bool> is_bad(static_cast<size_t>(op->mn * op->k), false);
    for (int64_t c : bad)
      if (c >= 0 && c < op->mn * op->k) is_bad[static_cast<size_t>(c)] = true;
    for (int64_t c = 0; c < op->mn * op->k; ++c)
      panel.add({-1, static_cast<int32_t>(op->smem_offset[static_cast<size_t>(c)])},
                std::string(1, op->name) + cell_text(c, op->mn, rn, "K"), c, is_bad[static_cast<size_t>(c)] ? -1 : c,
                "smem " + hex(op->smem_offset[static_cast<size_t>(c)] * 2), "a faulting or missing instruction");
    r.operands.push_back(panel.finish());
  }
  r.anchors = "the addresses the layouts give each instruction (nothing ran)";
  return r;
}

VerifyReport check_pipeline(const PipelinePlan& p, const std::vector<PipelineData>& data,
                            const std::vector<PipelineResult>& results) {
  VerifyReport r = base_report(p);
  const PipelineResult& tags = results.at(0);
  std::string first_d;
  for (const PipelineOperand* op : {&p.a, &p.b})
    if (op->g2s) r.operands.push_back(check_smem(*op, op->name == 'A' ? tags.smem_a : tags.smem_b));
  if (p.wgmma) {
    std::vector<std::vector<int64_t>> mats;
    for (const auto& res : results) mats.push_back(d_matrix(p, res.d));
    r.operands.push_back(check_read(p, p.a, mats, 2));
    r.operands.push_back(check_read(p, p.b, mats, 2 + 2 * static_cast<size_t>((p.a.k + p.n - 1) / p.n)));
  } else {
    r.operands.push_back(check_registers(p, p.a, tags.regs, 0));
    r.operands.push_back(check_registers(p, p.b, tags.regs, (p.a.copy_values + 1) / 2));
  }
  r.operands.push_back(check_d(p, data.at(1), results.at(1).d, first_d));
  for (const auto& op : r.operands) {
    r.checked += static_cast<int64_t>(op.cells.size());
    r.mismatches += op.cells_disagree;
  }
  std::string first;
  for (const auto& op : r.operands)
    if (first.empty() && !op.wrong.empty() && op.name != "C")
      first = op.name + ": " + op.wrong.front().entry + ": expected " + op.wrong.front().expected + ", got " +
              op.wrong.front().actual;
  if (first.empty()) first = first_d.empty() ? "" : "C: " + first_d;
  if (first.empty()) {
    r.status = VerifyStatus::kAgree;
    r.established = p.wgmma ? "every element of A and B read by the tensor core where the layouts put it, and D = A*B "
                              "exact in every element"
                            : "every register of every thread holds the element the copy's layouts promise, and D = "
                              "A*B exact in every element";
  } else {
    r.status = VerifyStatus::kDisagree;
    std::string which;
    for (const auto& op : r.operands)
      if (op.status == VerifyStatus::kDisagree) which += (which.empty() ? "" : ", ") + op.name;
    r.reason = "first wrong: " + first + "; wrong: " + which;
  }
  return r;
}

}  // namespace verify

VerifyReport verify_pipeline(const PipelineSpec& spec) {
  using namespace verify;
  const auto t0 = std::chrono::steady_clock::now();
  PipelinePlan p = plan_pipeline(spec);
  if (!p.static_failures.empty()) return static_pipeline_report(p);
  VerifyReport r;
  const cuda::DeviceInfo& dev = cuda::device();
  if (!dev.usable) {
    r.atom = p.name;
    r.kind = "pipeline";
    r.status = VerifyStatus::kNoGpu;
    r.reason = dev.message;
    return r;
  }
  if (dev.sm < (p.wgmma ? 90 : 80) || (p.wgmma && dev.sm != 90)) {
    r.atom = p.name;
    r.kind = "pipeline";
    r.device = dev.message;
    r.status = VerifyStatus::kSkipped;
    r.reason = std::string(p.wgmma ? "wgmma needs sm_90a" : "cp.async/ldmatrix/mma.sync need sm_80 or newer") +
               "; this GPU is sm_" + std::to_string(dev.sm);
    return r;
  }
  const std::string entry = "cutevis_pipeline";
  const std::string target = p.target.empty() ? (dev.sm == 90 ? "sm_90a" : "sm_" + std::to_string(dev.sm)) : p.target;
  std::vector<cuda::Module> modules =
      cuda::load_modules({ptx_module({pipeline_kernel_ptx(p, entry)}, p.ptx_version, target)}, 1);
  if (modules[0].handle < 0) {
    r.atom = p.name;
    r.kind = "pipeline";
    r.status = VerifyStatus::kError;
    r.reason = "the driver rejected the kernel: " + modules[0].error.substr(0, modules[0].error.find('\n'));
    return r;
  }
  std::vector<PipelineData> data = pipeline_data(p);
  std::vector<cuda::Buffer> buffers(6);
  for (const auto& d : data) {
    auto a = pipeline_image(p.a, d.a, d.tags), b = pipeline_image(p.b, d.b, d.tags);
    buffers[0].words.insert(buffers[0].words.end(), a.begin(), a.end());
    buffers[1].words.insert(buffers[1].words.end(), b.begin(), b.end());
  }
  buffers[2].words = pipeline_table(p);
  const size_t blocks = data.size(), T = static_cast<size_t>(p.threads);
  const size_t smem_words = static_cast<size_t>((p.a.smem_bytes + p.b.smem_bytes) / 4),
               reg_words = static_cast<size_t>(std::max<int64_t>(1, pipeline_reg_words(p)));
  buffers[3].words.assign(blocks * smem_words, 0);
  buffers[4].words.assign(blocks * T * reg_words, 0);
  buffers[5].words.assign(blocks * T * static_cast<size_t>(p.d_words), 0xffffffffu);
  for (size_t i = 3; i < 6; ++i) buffers[i].read_back = true;
  std::string error = cuda::launch(modules[0].handle, entry, static_cast<int>(blocks), p.threads, buffers);
  if (!error.empty()) {
    r.atom = p.name;
    r.kind = "pipeline";
    r.status = VerifyStatus::kError;
    r.reason = "the kernel failed: " + error;
    return r;
  }
  std::vector<PipelineResult> results(blocks);
  const size_t a_words = static_cast<size_t>(p.a.smem_bytes / 4);
  for (size_t b = 0; b < blocks; ++b) {
    auto s = buffers[3].words.begin() + static_cast<long>(b * smem_words);
    results[b].smem_a.assign(s, s + static_cast<long>(a_words));
    results[b].smem_b.assign(s + static_cast<long>(a_words), s + static_cast<long>(smem_words));
    auto g = buffers[4].words.begin() + static_cast<long>(b * T * reg_words);
    results[b].regs.assign(g, g + static_cast<long>(T * reg_words));
    auto d = buffers[5].words.begin() + static_cast<long>(b * T * static_cast<size_t>(p.d_words));
    results[b].d.assign(d, d + static_cast<long>(T * static_cast<size_t>(p.d_words)));
  }
  r = check_pipeline(p, data, results);
  r.device = dev.message;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace cutevis
