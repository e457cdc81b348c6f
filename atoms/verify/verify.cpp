// cutevis — verify: plan, JIT, run, compare, localize (see verify.hpp).
#include "atoms/verify/verify.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "atoms/verify/cuda/driver.hpp"
#include "atoms/verify/plan.hpp"
#include "atoms/verify/probe.hpp"
#include "atoms/verify/ptx.hpp"
#include "atoms/verify/report.hpp"
#include "lib/error.hpp"

namespace cutevis {

using namespace verify;

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// --- device access: atoms/verify/cuda/ (driver.cpp, or driver_unavailable.cpp in a build without CUDA)
const cuda::DeviceInfo& device_info() { return cuda::device(); }

std::vector<cuda::Module> jit(const std::vector<std::string>& ptx, int workers) {
  return cuda::load_modules(ptx, workers);
}

std::string run_kernel(int module, const std::string& entry, int blocks, int threads,
                       std::vector<cuda::Buffer>& buffers) {
  return cuda::launch(module, entry, blocks, threads, buffers);
}

std::string device_target(int sm) { return sm == 90 ? "sm_90a" : "sm_" + std::to_string(sm); }

// --- one atom in a batch ---------------------------------------------------------------------------
struct Job {
  const MmaAtom* mma = nullptr;
  const CopyAtom* copy = nullptr;
  VerifyOverrides overrides;
  VerifyReport report;
  std::optional<MmaPlan> mplan;
  std::optional<CopyPlan> cplan;
  std::string entry, kernel;
  int version = 70;
  int64_t window = 0;  // copies: shared-memory window bytes
  int module = -1;
  bool cells = false;
};

std::string mnemonic_of(const std::string& ptx) {
  std::istringstream in(ptx);
  std::string first;
  in >> first;
  auto brace = first.find_first_of("{%");
  return brace == std::string::npos ? first : first.substr(0, brace);
}

MmaOverrides mma_overrides(const VerifyOverrides& o) {
  MmaOverrides m;
  m.layout_a = o.layout_a;
  m.layout_b = o.layout_b;
  m.layout_c = o.layout_c;
  m.thr_id = o.thr_id;
  m.smem_swizzle = o.smem_layout;
  return m;
}

bool has_mma_overrides(const VerifyOverrides& o) {
  return o.layout_a || o.layout_b || o.layout_c || o.thr_id || !o.smem_layout.empty();
}

// Plan and generate the kernel.  With `rethrow` (hand-written layouts) a planning
// Error is bad input and propagates, even without a GPU.
void prepare(Job& job, const cuda::DeviceInfo& dev, bool rethrow) {
  VerifyReport& r = job.report;
  if (job.mma && job.mma->type_e.bits > 0) {  // with or without a GPU: never run, never an agreement
    r.status = VerifyStatus::kSkipped;
    r.reason = "sparse MMA (metadata operand) is not supported by verify: nothing was run";
    return;
  }
  if (dev.usable) {
    std::string why = job.mma ? mma_unsupported_reason(*job.mma, dev.sm) : copy_unsupported_reason(*job.copy, dev.sm);
    if (!why.empty()) {
      r.status = VerifyStatus::kSkipped;
      r.reason = why;
      return;
    }
  } else if (!rethrow) {
    r.status = VerifyStatus::kNoGpu;
    r.reason = dev.message;
    return;
  }
  try {
    if (job.mma) {
      if (job.overrides.layout_src || job.overrides.layout_dst)
        throw Error("verify: --layout-src/--layout-dst apply to copy atoms");
      job.mplan = plan_mma(*job.mma, mma_overrides(job.overrides));
    } else {
      if (has_mma_overrides(job.overrides))
        throw Error("verify: --layout-a/-b/-c, --thr-id and --smem-layout apply to MMA atoms");
      CopyOverrides co;
      co.layout_src = job.overrides.layout_src;
      co.layout_dst = job.overrides.layout_dst;
      job.cplan = plan_copy(*job.copy, co);
    }
  } catch (const Error& e) {
    if (rethrow) throw;
    r.status = VerifyStatus::kError;
    r.reason = e.what();
    return;
  }
  if (!dev.usable) {
    r.status = VerifyStatus::kNoGpu;
    r.reason = dev.message;
    return;
  }
  if (job.mplan) {
    job.kernel = mma_kernel_ptx(*job.mplan, job.entry);
    job.version = job.mplan->ptx_version;
  } else {
    int64_t tile_bytes = job.cplan->tile_units * 2;
    job.window = std::max<int64_t>(512, (tile_bytes + 15) / 16 * 16);
    job.kernel = copy_kernel_ptx(*job.cplan, job.entry, job.window);
    job.version = job.cplan->ptx_version;
  }
}

// The line of a JIT log that says what is wrong ("... error   : ..."), else its first line.
std::string jit_error(const std::string& log) {
  std::istringstream in(log);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty()) first = line;
    auto at = line.find("error   : ");
    if (at != std::string::npos) return "the assembler rejected the kernel: " + line.substr(at + 10);
  }
  return "the driver rejected the kernel: " + first;
}

// JIT every prepared job: batches of kernels per module, compiled in parallel; a module
// that fails is retried kernel by kernel so one bad instruction names only its atom.
void compile(std::vector<Job*>& jobs, int sm, int workers, VerifySummary* summary) {
  const size_t per_module = 24;
  const std::string target = device_target(sm);
  std::vector<std::vector<Job*>> groups;
  for (Job* j : jobs) {
    if (groups.empty() || groups.back().size() == per_module) groups.emplace_back();
    groups.back().push_back(j);
  }
  auto module_text = [&](const std::vector<Job*>& g) {
    std::vector<std::string> kernels;
    int version = 70;
    for (Job* j : g) kernels.push_back(j->kernel), version = std::max(version, j->version);
    return ptx_module(kernels, version, target);
  };
  std::vector<std::string> texts;
  for (const auto& g : groups) texts.push_back(module_text(g));
  auto t0 = Clock::now();
  std::vector<cuda::Module> modules = jit(texts, workers);
  std::vector<Job*> retry;
  for (size_t i = 0; i < groups.size(); ++i) {
    for (Job* j : groups[i]) {
      if (modules[i].handle >= 0) j->module = modules[i].handle;
      else if (groups[i].size() > 1) retry.push_back(j);
      else j->report.status = VerifyStatus::kError, j->report.reason = jit_error(modules[i].error);
    }
  }
  if (!retry.empty()) {
    std::vector<std::string> single;
    for (Job* j : retry) single.push_back(module_text({j}));
    std::vector<cuda::Module> again = jit(single, workers);
    for (size_t i = 0; i < retry.size(); ++i) {
      if (again[i].handle >= 0) retry[i]->module = again[i].handle;
      else retry[i]->report.status = VerifyStatus::kError, retry[i]->report.reason = jit_error(again[i].error);
    }
  }
  if (summary) {
    summary->jit_seconds = since(t0);
    summary->modules = static_cast<int>(groups.size());
  }
}

// --- running MMA data sets ------------------------------------------------------------------------
std::string run_mma_sets(const MmaPlan& p, int module, const std::string& entry, const std::vector<MmaData>& sets,
                         std::vector<std::vector<std::optional<int64_t>>>& out) {
  const int threads = p.physical_threads;
  auto words_of = [&](const OperandPlan& op) {
    return op.in_smem ? static_cast<size_t>(op.smem.bytes / 4) : static_cast<size_t>(threads * op.words_per_thread());
  };
  const size_t wa = words_of(p.a), wb = words_of(p.b), wc = words_of(p.c);
  const size_t per_set = wa + wb + 2 * wc;
  const size_t chunk = std::max<size_t>(1, std::min<size_t>(8192, (size_t{256} << 20) / (4 * per_set)));
  out.assign(sets.size(), {});
  for (size_t first = 0; first < sets.size(); first += chunk) {
    size_t count = std::min(chunk, sets.size() - first);
    std::vector<cuda::Buffer> buffers(4);
    for (auto& b : buffers) b.words.reserve(count * wc);
    for (size_t s = first; s < first + count; ++s) {
      auto a = pack_operand(p.a, threads, sets[s].a), b = pack_operand(p.b, threads, sets[s].b),
           c = pack_operand(p.c, threads, sets[s].c);
      buffers[0].words.insert(buffers[0].words.end(), a.begin(), a.end());
      buffers[1].words.insert(buffers[1].words.end(), b.begin(), b.end());
      buffers[2].words.insert(buffers[2].words.end(), c.begin(), c.end());
    }
    buffers[3].words.assign(count * wc, 0xffffffffu);  // NaN/garbage unless written
    buffers[3].read_back = true;
    std::string error = run_kernel(module, entry, static_cast<int>(count), threads, buffers);
    if (!error.empty()) return error;
    for (size_t s = 0; s < count; ++s) out[first + s] = unpack_d(p, buffers[3].words.data() + s * wc);
  }
  return "";
}

// --- reports --------------------------------------------------------------------------------------
OperandFacts mma_facts(const OperandPlan& op, const std::vector<int64_t>& actual) {
  OperandFacts f;
  f.name = op.name;
  f.row_name = op.row_name;
  f.col_name = op.col_name;
  f.rows = op.rows;
  f.cols = op.cols;
  f.overridden = op.overridden;
  if (op.in_smem) {
    char desc[32];
    std::snprintf(desc, sizeof desc, "0x%016llx", static_cast<unsigned long long>(op.smem.descriptor));
    f.storage = "shared memory: " + op.smem.swizzle + " " + op.smem.major + "-major canonical GMMA layout (" +
                op.row_name + "," + op.col_name + ") -> element, descriptor " + desc + " + start address";
    f.layout = to_string(op.smem.layout);
  } else {
    f.storage = std::to_string(op.regs) + " x " + std::to_string(op.reg_bits) + "-bit registers per thread";
    f.layout = to_string(op.tv);
  }
  for (size_t i = 0; i < op.entries.size(); ++i) {
    f.owners.push_back({static_cast<int32_t>(op.entries[i].thr), static_cast<int32_t>(op.entries[i].val)});
    f.labels.push_back(op.describe_entry(i));
  }
  f.believed = op.cell_of;
  f.actual = actual;
  return f;
}

std::string mma_established(const MmaPlan& p) {
  if (p.a.in_smem && p.b.in_smem)
    return "C/D ownership identical to the hardware's: its rows are pinned by A and its columns by B, both in shared "
           "memory at known addresses (" +
           p.a.smem.swizzle + "/" + p.b.smem.swizzle +
           " canonical layouts); the shared-memory layouts agree with the descriptor's reading up to a permutation "
           "of k common to A and B, which no product can reveal.";
  if (p.b.in_smem)
    return "Columns of C/D and k of A are pinned by B in shared memory (" + p.b.smem.swizzle +
           " canonical layout): identical to the hardware's. Rows are established up to a permutation applied to A "
           "and C together: functionally equivalent, not proven identical to the PTX figures.";
  return "D = A*B + C holds in every element: the layouts are functionally equivalent to the hardware's. Identity "
         "with the PTX figures is not established: a permutation of rows applied to A and C together, of columns to "
         "B and C, or of k to A and B would pass as well.";
}

void finish_mma(Job& job) {
  const MmaPlan& p = *job.mplan;
  VerifyReport& r = job.report;
  auto t0 = Clock::now();
  std::vector<MmaData> sets = {random_data(p, 1), random_data(p, 2)};
  std::vector<std::vector<std::optional<int64_t>>> d;
  std::string error = run_mma_sets(p, job.module, job.entry, sets, d);
  if (!error.empty()) {
    r.status = VerifyStatus::kError;
    r.reason = "the kernel failed: " + error;
    return;
  }
  for (size_t s = 0; s < sets.size(); ++s) {
    std::vector<int64_t> want = reference_d(p, sets[s]);
    for (size_t i = 0; i < want.size(); ++i) {
      ++r.checked;
      if (!d[s][i] || *d[s][i] != want[i]) ++r.mismatches;
    }
  }
  std::vector<int64_t> actual_a = p.a.cell_of, actual_b = p.b.cell_of, actual_c = p.c.cell_of;
  if (r.mismatches > 0) {
    ProbeSet probes = make_probes(p);
    std::vector<std::vector<std::optional<int64_t>>> pd;
    error = run_mma_sets(p, job.module, job.entry, probes.sets, pd);
    if (!error.empty()) {
      r.status = VerifyStatus::kError;
      r.reason = "a probe kernel failed: " + error;
      return;
    }
    MmaLocalization loc = localize_mma(p, probes, pd);
    actual_a = loc.actual_a;
    actual_b = loc.actual_b;
    actual_c = loc.actual_c;
    r.anchors = loc.anchors.text() + " (the hardware shows only which entries share a row, a column or a k)";
  }
  r.operands.push_back(make_operand(mma_facts(p.a, actual_a), job.cells));
  r.operands.push_back(make_operand(mma_facts(p.b, actual_b), job.cells));
  r.operands.push_back(make_operand(mma_facts(p.c, actual_c), job.cells));
  bool any_wrong = false;
  for (const auto& op : r.operands) any_wrong = any_wrong || op.status == VerifyStatus::kDisagree;
  if (r.mismatches == 0) {
    r.status = VerifyStatus::kAgree;
    r.established = mma_established(p);
  } else {
    r.status = VerifyStatus::kDisagree;
    std::string which;
    for (const auto& op : r.operands)
      if (op.status == VerifyStatus::kDisagree) which += (which.empty() ? "" : ", ") + op.name;
    r.reason = std::to_string(r.mismatches) + " of " + std::to_string(r.checked) + " D elements differ" +
               (which.empty() ? "; every probed entry sits where its layout says (a numeric or encoding difference, "
                                "not an ownership one)"
                              : "; wrong: " + which);
    if (!any_wrong) r.operands.back().status = VerifyStatus::kDisagree;
  }
  r.seconds += since(t0);
}

// --- running copies ---------------------------------------------------------------------------------
uint32_t half_of(const std::vector<uint32_t>& words, size_t unit) {
  return (words[unit / 2] >> (16 * (unit % 2))) & 0xffffu;
}
void set_half(std::vector<uint32_t>& words, size_t unit, uint32_t v) {
  words[unit / 2] |= (v & 0xffffu) << (16 * (unit % 2));
}

void finish_copy(Job& job) {
  const CopyPlan& p = *job.cplan;
  VerifyReport& r = job.report;
  auto t0 = Clock::now();
  const bool ld = p.cls == CopyClass::kLdmatrix, st = p.cls == CopyClass::kStmatrix;
  const CopySide& regs = ld || !st ? p.dst : p.src;  // register side the tags go into / come out of
  const CopySide& addr = ld || !st ? p.src : p.dst;
  const size_t window_words = static_cast<size_t>(job.window / 4);
  const size_t reg_words = static_cast<size_t>(32 * p.regs);
  const int blocks = p.cls == CopyClass::kMovmatrix ? 1 : 2;  // block 0: the layouts; block 1: one row per thread
  std::vector<cuda::Buffer> buffers(3);
  std::vector<uint32_t>& in = buffers[0].words;
  std::vector<uint32_t>& offs = buffers[1].words;
  std::vector<uint32_t>& out = buffers[2].words;
  buffers[2].read_back = true;
  const int64_t units = addr.units_per_thread;
  for (int b = 0; b < blocks; ++b) {
    std::vector<uint32_t> block_in(ld ? window_words : reg_words, 0);
    if (ld) {
      if (b == 0)
        for (int64_t u = 0; u < p.tile_units; ++u)
          set_half(block_in, static_cast<size_t>(u), static_cast<uint32_t>(u + 1));
      else
        for (int64_t t = 0; t < 32; ++t)
          for (int64_t o = 0; o < 8; ++o) set_half(block_in, static_cast<size_t>(t * 8 + o), copy_tag(t, o, 8));
    } else {
      // registers hold the tag of their own (thread, unit) entry
      const CopySide& src = p.src;
      for (size_t e = 0; e < src.entries.size(); ++e)
        set_half(block_in, static_cast<size_t>(src.entries[e].thr * p.regs * 2 + src.entries[e].val),
                 copy_tag(src.entries[e].thr, src.entries[e].val, src.units_per_thread));
    }
    in.insert(in.end(), block_in.begin(), block_in.end());
    for (int64_t t = 0; t < 32; ++t) {
      uint32_t off = 0;
      if (p.cls != CopyClass::kMovmatrix)
        off = b == 0 ? static_cast<uint32_t>(addr.unit_of[static_cast<size_t>(t * units)] * 2)
                     : static_cast<uint32_t>(16 * t);
      offs.push_back(off);
    }
  }
  out.assign(static_cast<size_t>(blocks) * (st ? window_words : reg_words), 0);
  std::string error = run_kernel(job.module, job.entry, blocks, 32, buffers);
  if (!error.empty()) {
    r.status = VerifyStatus::kError;
    r.reason = "the kernel failed: " + error;
    return;
  }
  // Main block: every element must be where the layouts say.
  std::vector<uint32_t> main_out(out.begin(), out.begin() + static_cast<long>(st ? window_words : reg_words));
  if (ld) {
    for (size_t e = 0; e < p.dst.entries.size(); ++e) {
      ++r.checked;
      uint32_t got = half_of(main_out, static_cast<size_t>(p.dst.entries[e].thr * p.regs * 2 + p.dst.entries[e].val));
      if (got != static_cast<uint32_t>(p.dst.unit_of[e] + 1)) ++r.mismatches;
    }
  } else if (st) {
    std::map<int64_t, std::set<uint32_t>> expected;
    for (size_t e = 0; e < p.src.entries.size(); ++e)
      expected[p.src.unit_of[e]].insert(copy_tag(p.src.entries[e].thr, p.src.entries[e].val, p.src.units_per_thread));
    for (int64_t u = 0; u < p.tile_units; ++u) {
      ++r.checked;
      uint32_t got = half_of(main_out, static_cast<size_t>(u));
      auto it = expected.find(u);
      if (it == expected.end() ? got != 0 : !it->second.count(got)) ++r.mismatches;
    }
  } else {
    for (size_t e = 0; e < p.dst.entries.size(); ++e) {
      ++r.checked;
      uint32_t got = half_of(main_out, static_cast<size_t>(p.dst.entries[e].thr * p.regs * 2 + p.dst.entries[e].val));
      int64_t src_index = static_cast<int64_t>(got) - 1;
      bool ok = src_index >= 0 && src_index < static_cast<int64_t>(p.src.entries.size()) &&
                p.src.unit_of[static_cast<size_t>(src_index)] == p.dst.unit_of[e];
      if (!ok) ++r.mismatches;
    }
  }
  // The relation register entry -> address entry, from the tagged block.
  CopyRelation rel;
  rel.partner.assign(regs.entries.size(), -1);
  const size_t probe_at = blocks == 2 ? (st ? window_words : reg_words) : 0;
  std::vector<uint32_t> probe_out(out.begin() + static_cast<long>(probe_at),
                                  out.begin() + static_cast<long>(probe_at + (st ? window_words : reg_words)));
  if (st) {
    for (int64_t h = 0; h < 32; ++h)
      for (int64_t o = 0; o < 8; ++o) {
        uint32_t tag = half_of(probe_out, static_cast<size_t>(h * 8 + o));
        if (tag >= 1 && tag <= regs.entries.size()) rel.partner[tag - 1] = h * 8 + o;
      }
  } else {
    for (size_t e = 0; e < regs.entries.size(); ++e) {
      uint32_t tag = half_of(probe_out, static_cast<size_t>(regs.entries[e].thr * p.regs * 2 + regs.entries[e].val));
      if (tag >= 1 && tag <= addr.entries.size()) rel.partner[e] = tag - 1;
    }
  }
  CopyLocalization loc = localize_copy(p, rel);
  const int64_t rows = (p.tile_units + 7) / 8;
  auto side_facts = [&](const CopySide& side, const std::vector<int64_t>& actual) {
    OperandFacts f;
    f.name = side.name;
    f.storage = side.addresses ? "row addresses (each thread points at one 16-byte row)"
                               : std::to_string(p.regs) + " x 32-bit registers per thread";
    f.layout = to_string(side.bits) + " (bits)";
    f.overridden = side.overridden;
    f.rows = rows;
    f.cols = 8;
    f.row_name = "row";
    f.col_name = "elem";
    auto cell = [&](int64_t unit) { return unit < 0 ? int64_t{-1} : (unit / 8) + rows * (unit % 8); };
    for (size_t i = 0; i < side.entries.size(); ++i) {
      f.owners.push_back({static_cast<int32_t>(side.entries[i].thr), static_cast<int32_t>(side.entries[i].val)});
      f.labels.push_back("T" + std::to_string(side.entries[i].thr) + " V" + std::to_string(side.entries[i].val));
      f.believed.push_back(cell(side.unit_of[i]));
      f.actual.push_back(cell(actual[i]));
    }
    return f;
  };
  r.operands.push_back(make_operand(side_facts(p.src, loc.actual_src), job.cells));
  r.operands.push_back(make_operand(side_facts(p.dst, loc.actual_dst), job.cells));
  const CopySide& named_by = loc.anchor == 'r' ? regs : addr;
  r.anchors = "tile elements named by the " + named_by.name + " layout (" +
              (loc.anchor == 'r' ? "CuTe's RefLayout side" : "the one not hand-written") + ")";
  bool any_wrong = false;
  for (const auto& op : r.operands) any_wrong = any_wrong || op.status == VerifyStatus::kDisagree;
  if (r.mismatches == 0 && !any_wrong) {
    r.status = VerifyStatus::kAgree;
    r.established =
        "Exact: every 16-bit element was tagged and every thread pointed at its own row, so the hardware's "
        "thread/register ownership is observed directly; src and dst are identical to it.";
  } else {
    r.status = VerifyStatus::kDisagree;
    std::string which;
    for (const auto& op : r.operands)
      if (op.status == VerifyStatus::kDisagree) which += (which.empty() ? "" : ", ") + op.name;
    r.reason = std::to_string(r.mismatches) + " of " + std::to_string(r.checked) + " elements land elsewhere" +
               (which.empty() ? "" : "; wrong: " + which);
  }
  r.seconds += since(t0);
}

Job make_job(const MmaAtom* mma, const CopyAtom* copy, size_t index) {
  Job j;
  j.mma = mma;
  j.copy = copy;
  j.entry = "verify_" + std::to_string(index);
  VerifyReport& r = j.report;
  if (mma) {
    r.atom = mma->short_name.empty() ? mma->name : mma->short_name;
    r.kind = "mma";
    r.family = mma->family;
    r.sm = mma->sm;
    r.instruction = mnemonic_of(mma->ptx);
  } else {
    r.atom = copy->name.empty() ? copy->op : copy->name;
    r.kind = "copy";
    r.family = copy->family;
    r.sm = copy->sm;
    r.instruction = mnemonic_of(copy->ptx);
  }
  return j;
}

void run_jobs(std::vector<Job>& jobs, bool rethrow, int workers, VerifySummary* summary) {
  auto t0 = Clock::now();
  const cuda::DeviceInfo& dev = device_info();
  for (auto& j : jobs) {
    prepare(j, dev, rethrow);
    j.report.device = dev.usable ? dev.message : "";
  }
  std::vector<Job*> ready;
  for (auto& j : jobs)
    if (!j.kernel.empty()) ready.push_back(&j);
  if (workers <= 0) workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (summary) summary->workers = workers;
  if (!ready.empty()) compile(ready, dev.sm, workers, summary);
  auto t_run = Clock::now();
  for (Job* j : ready) {
    if (j->module < 0) continue;
    if (!device_info().usable) {
      j->report.status = VerifyStatus::kError;
      j->report.reason = device_info().message;
      continue;
    }
    if (j->mplan) finish_mma(*j);
    else finish_copy(*j);
  }
  if (summary) {
    summary->run_seconds = since(t_run);
    summary->seconds = since(t0);
    summary->device = dev.usable ? dev.message : "";
  }
}

VerifyReport verify_one(const MmaAtom* mma, const CopyAtom* copy, const VerifyOverrides& overrides) {
  auto t0 = Clock::now();
  std::vector<Job> jobs;
  jobs.push_back(make_job(mma, copy, 0));
  jobs[0].overrides = overrides;
  jobs[0].cells = true;
  const bool hand_written = has_mma_overrides(overrides) || overrides.layout_src || overrides.layout_dst;
  run_jobs(jobs, hand_written, 1, nullptr);
  jobs[0].report.seconds = since(t0);
  return jobs[0].report;
}

}  // namespace

std::string to_string(VerifyStatus s) {
  switch (s) {
    case VerifyStatus::kAgree: return "agree";
    case VerifyStatus::kDisagree: return "disagree";
    case VerifyStatus::kSkipped: return "skipped";
    case VerifyStatus::kNoGpu: return "no-gpu";
    case VerifyStatus::kError: return "error";
  }
  return "?";
}

GpuStatus probe_gpu() {
  const cuda::DeviceInfo& d = device_info();
  GpuStatus g;
  g.available = d.usable;
  g.message = d.message;
  g.device = d.name;
  g.sm = d.sm;
  return g;
}

VerifyReport verify_mma(const MmaAtom& atom, const VerifyOverrides& overrides) {
  return verify_one(&atom, nullptr, overrides);
}

VerifyReport verify_copy(const CopyAtom& atom, const VerifyOverrides& overrides) {
  return verify_one(nullptr, &atom, overrides);
}

VerifySummary verify_batch(const std::vector<MmaAtom>& mma, const std::vector<CopyAtom>& copies,
                           const VerifyFilter& filter) {
  VerifySummary summary;
  std::vector<Job> jobs;
  auto keep = [&](const std::string& name, int sm) {
    if (filter.sm && sm != *filter.sm) return false;
    return filter.contains.empty() || name.find(filter.contains) != std::string::npos;
  };
  if (filter.mma)
    for (const auto& a : mma)
      if (keep(a.short_name.empty() ? a.name : a.short_name, a.sm)) jobs.push_back(make_job(&a, nullptr, jobs.size()));
  if (filter.copy)
    for (const auto& c : copies)
      if (keep(c.name.empty() ? c.op : c.name, c.sm)) jobs.push_back(make_job(nullptr, &c, jobs.size()));
  for (auto& j : jobs) j.cells = filter.cells;
  run_jobs(jobs, false, filter.workers, &summary);
  for (auto& j : jobs) summary.reports.push_back(std::move(j.report));
  return summary;
}

// --- text -------------------------------------------------------------------------------------------

std::string to_text(const VerifyReport& r) {
  std::ostringstream o;
  o << "verify " << r.atom;
  if (!r.instruction.empty()) o << "  [" << r.instruction << "]";
  if (!r.device.empty()) o << "\n  on " << r.device;
  o << "\n";
  for (const auto& op : r.operands) {
    o << "  " << op.name << ": " << op.layout << (op.overridden ? "  (hand-written)" : "") << "\n";
    o << "     " << op.storage << "\n";
    if (op.status == VerifyStatus::kAgree) {
      o << "     agree\n";
    } else {
      o << "     DISAGREE: " << op.cells_disagree << " cell" << (op.cells_disagree == 1 ? "" : "s") << " differ, "
        << op.wrong.size() << " entr" << (op.wrong.size() == 1 ? "y" : "ies") << " misplaced\n";
      const size_t show = 24;
      for (size_t i = 0; i < op.wrong.size() && i < show; ++i)
        o << "       " << op.wrong[i].entry << ": layout " << op.wrong[i].expected << ", hardware "
          << op.wrong[i].actual << "\n";
      if (op.wrong.size() > show) o << "       ... and " << op.wrong.size() - show << " more (see --json)\n";
    }
  }
  o << "  result: " << to_string(r.status);
  if (r.status == VerifyStatus::kAgree)
    o << " (" << r.checked
      << (r.kind == "copy" ? " elements land where the layouts say)" : " elements of the product exact)");
  if (!r.reason.empty()) o << ": " << r.reason;
  o << "\n";
  if (!r.established.empty()) o << "  established: " << r.established << "\n";
  if (!r.anchors.empty() && r.status == VerifyStatus::kDisagree) o << "  localized with " << r.anchors << "\n";
  return o.str();
}

std::string to_text(const VerifySummary& s, bool every_atom) {
  std::ostringstream o;
  struct Count {
    int total = 0, agree = 0, disagree = 0, skipped = 0, error = 0, no_gpu = 0;
  };
  std::map<std::string, Count> by_family;
  Count all;
  for (const auto& r : s.reports) {
    for (Count* c : {&by_family[r.family.empty() ? r.kind : r.family], &all}) {
      ++c->total;
      switch (r.status) {
        case VerifyStatus::kAgree: ++c->agree; break;
        case VerifyStatus::kDisagree: ++c->disagree; break;
        case VerifyStatus::kSkipped: ++c->skipped; break;
        case VerifyStatus::kError: ++c->error; break;
        case VerifyStatus::kNoGpu: ++c->no_gpu; break;
      }
    }
  }
  char line[256];
  o << "verify --all on " << (s.device.empty() ? "no GPU" : s.device) << "\n\n";
  std::snprintf(line, sizeof line, "%-18s %6s %6s %9s %8s %6s %7s\n", "family", "atoms", "agree", "disagree", "skipped",
                "error", "no-gpu");
  o << line;
  for (const auto& [family, c] : by_family) {
    std::snprintf(line, sizeof line, "%-18s %6d %6d %9d %8d %6d %7d\n", family.c_str(), c.total, c.agree, c.disagree,
                  c.skipped, c.error, c.no_gpu);
    o << line;
  }
  std::snprintf(line, sizeof line, "%-18s %6d %6d %9d %8d %6d %7d\n", "total", all.total, all.agree, all.disagree,
                all.skipped, all.error, all.no_gpu);
  o << line << "\n";
  std::map<std::string, std::vector<std::string>> skipped_by_reason;
  for (const auto& r : s.reports) {
    bool notable = r.status == VerifyStatus::kDisagree || r.status == VerifyStatus::kError;
    if (r.status == VerifyStatus::kSkipped || r.status == VerifyStatus::kNoGpu) {
      skipped_by_reason[r.reason].push_back(r.atom);
      if (!every_atom) continue;
    }
    if (!notable && !every_atom) continue;
    o << "  " << to_string(r.status) << "  " << r.atom;
    if (!r.reason.empty() && r.status != VerifyStatus::kSkipped) o << ": " << r.reason;
    o << "\n";
    if (r.status == VerifyStatus::kDisagree)
      for (const auto& op : r.operands)
        if (op.status == VerifyStatus::kDisagree)
          o << "      " << op.name << ": " << op.cells_disagree << " cells differ, " << op.wrong.size()
            << " entries misplaced\n";
  }
  for (const auto& [reason, atoms] : skipped_by_reason) {
    o << "  skipped " << atoms.size() << ": " << reason << "\n      e.g. " << atoms.front();
    if (atoms.size() > 1) o << ", ... " << atoms.back();
    o << "\n";
  }
  std::snprintf(line, sizeof line, "\n%.1f s in all: JIT %.1f s (%d modules, %d threads), runs %.1f s\n", s.seconds,
                s.jit_seconds, s.modules, s.workers, s.run_seconds);
  o << line;
  return o.str();
}

}  // namespace cutevis
