// The findings of one copy or gemm statement, from values (see kernel_check.hpp).
#include "atoms/analysis/kernel_check.hpp"

#include <cstdio>

#include "atoms/analysis/partition.hpp"
#include "lib/error.hpp"

namespace cutevis {

namespace {

std::string fixed(double x, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

void declared_here(Finding& f, const SourceLocation& at, const std::string& what) {
  if (!at.known() || (at.file == f.at.file && at.line == f.at.line)) return;
  for (const Finding::Related& r : f.related)
    if (r.at.file == at.file && r.at.line == at.line) return;
  f.related.push_back({at, what});
}

// The first lane address of a misaligned instruction, for the message.
const MemoryInstruction* first_misaligned(const CopyAnalysis& a, MemorySpace space, int64_t& address) {
  for (const MemoryInstruction& inst : a.instructions) {
    if (inst.space != space || inst.aligned) continue;
    const int64_t width = inst.bits / 8;
    for (int64_t addr : inst.address)
      if (addr >= 0 && width > 0 && addr % width != 0) {
        address = addr;
        return &inst;
      }
  }
  return nullptr;
}

// A padded layout's stride that breaks the vector width: the smallest multiple of `vector`
// elements above it (a fix the analysis can state; the advisor checks alternatives).
std::string padding_fix(const AnyLayout& l, int64_t vector_elements, const std::string& name) {
  if (!std::holds_alternative<Layout>(l) || vector_elements <= 1) return "";
  const Layout& layout = std::get<Layout>(l);
  const std::vector<int64_t> strides = flatten_values(layout.stride);
  for (int64_t s : strides)
    if (s > 1 && s % vector_elements != 0) {
      const int64_t up = (s + vector_elements - 1) / vector_elements * vector_elements;
      return "pad " + (name.empty() ? std::string("the layout") : name) + "'s stride " + std::to_string(s) + " to " +
             std::to_string(up) + " elements (a multiple of the " + std::to_string(vector_elements) +
             "-element vector)";
    }
  return "";
}

bool fixed_width(const CopyAtom& atom) {
  return atom.op != "DefaultCopy" && atom.op.rfind("AutoVectorizingCopy", 0) != 0;
}

}  // namespace

std::vector<Finding> check_copy(const CopyEvent& e, CopyAnalysisCache* cache) {
  std::vector<Finding> out;
  auto finding = [&](const char* severity, const char* kind, std::string message) -> Finding& {
    out.push_back({severity, kind, std::move(message), "", e.at, {}});
    return out.back();
  };
  const std::string copy_label = e.copy_name.empty() ? e.copy.atom.name : e.copy_name;
  if (e.kernel_mma && e.kernel_mma->num_threads != e.copy.num_threads) {
    const int64_t c = e.copy.num_threads, m = e.kernel_mma->num_threads;
    Finding& f =
        finding("error", "thread-count",
                "size(" + copy_label + ") = " + std::to_string(c) + " threads but size(" +
                    (e.kernel_mma_name.empty() ? "mma" : e.kernel_mma_name) + ") = " + std::to_string(m) +
                    ": CUTE_STATIC_ASSERT_V(size(copy) == size(mma)) fails; " +
                    (c > m ? "a CTA of " + std::to_string(m) + " threads never runs the copy's threads " +
                                 std::to_string(m) + ".." + std::to_string(c - 1) + ": part of the tile is not copied"
                           : "threads " + std::to_string(c) + ".." + std::to_string(m - 1) +
                                 " index past the copy's thread layout"));
    f.fix = "make the TiledCopy's thread layout " + std::to_string(e.kernel_mma->num_threads) + " threads";
    declared_here(f, e.copy_decl, "declared here: " + copy_label);
    declared_here(f, e.mma_decl, "the TiledMMA");
  }
  if (e.mma && (e.operand == 'A' || e.operand == 'B')) {
    FragmentCheck fc = check_fragment(e.copy, *e.mma, e.operand);
    if (!fc.matches) {
      Finding& f = finding(
          "error", "fragment",
          std::string("the copy's destination is not the MMA's ") + e.operand + " fragment: " + fc.first_mismatch);
      f.fix = std::string("build the copy with make_tiled_copy_") + e.operand + "(atom, mma)";
      declared_here(f, e.copy_decl, "declared here: " + copy_label);
    }
  }
  CopyAnalysis own;
  const CopyAnalysis* found = nullptr;
  std::string key, failure;
  if (cache) {
    key = e.copy.atom.name + "|" + to_string(e.copy.tiled_layout_tv) + "|" + to_string(e.copy.tile_mn) + "|" +
          to_string(e.src.tensor.space) + ":" + to_string(e.src.tensor.layout) + "|" + to_string(e.dst.tensor.space) +
          ":" + to_string(e.dst.tensor.layout);
    if (auto it = cache->analyses.find(key); it != cache->analyses.end()) {
      found = &it->second;
      ++cache->hits;
    } else if (auto f = cache->failures.find(key); f != cache->failures.end()) {
      failure = f->second;
      ++cache->hits;
    }
  }
  if (!found && failure.empty()) {
    try {
      own = analyze_copy(e.copy, e.src.tensor, e.dst.tensor);
      found = cache ? &cache->analyses.emplace(key, std::move(own)).first->second : &own;
    } catch (const Error& err) {
      failure = err.what();
      if (cache) cache->failures.emplace(key, failure);
    }
  }
  if (!failure.empty()) {
    Finding& f = finding("error", "partition",
                         copy_label + " over " + (e.src.name.empty() ? "?" : e.src.name) + " -> " +
                             (e.dst.name.empty() ? "?" : e.dst.name) + ": " + failure);
    declared_here(f, e.src.layout_decl, "declared here: " + e.src.layout_name);
    declared_here(f, e.copy_decl, "declared here: " + copy_label);
    return out;
  }
  const CopyAnalysis& a = *found;
  const int64_t vector_elements = a.value_bits > 0 ? a.vector_bits / a.value_bits : 1;
  bool compiles = true;  // a copy CuTe does not compile costs nothing: no cost warnings beside its error
  for (int i = 0; i < 2; ++i) {
    const CopySide& side = i == 0 ? a.src : a.dst;
    const CheckedTensor& t = i == 0 ? e.src : e.dst;
    if (side.space == MemorySpace::kRmem) continue;
    if (!side.vectorizes && fixed_width(e.copy.atom)) {
      Finding& f = finding("error", "vectorize",
                           std::string("Copy_Traits: ") + (i == 0 ? "src" : "dst") +
                               " failed to vectorize into registers. Layout is incompatible with this CopyOp. (" +
                               e.copy.atom.op + " moves " + std::to_string(a.vector_bits) +
                               " bits per thread; a thread's values of " +
                               (t.name.empty() ? std::string("the tensor") : t.name) + " are contiguous for " +
                               std::to_string(side.max_common_vector) + ")");
      compiles = false;
      f.fix = "make " + (t.layout_name.empty() ? std::string("the layout") : t.layout_name) +
              " contiguous along the copy's value mode, or use a narrower atom";
      declared_here(f, t.layout_decl, "declared here: " + t.layout_name);
    } else if (!side.aligned) {
      int64_t address = 0;
      const MemoryInstruction* inst = first_misaligned(a, side.space, address);
      const int64_t width = inst ? inst->bits / 8 : a.vector_bits / 8;
      Finding& f = finding("error", "misaligned",
                           (inst ? inst->ptx() : std::string("the access")) + " of " + std::to_string(width) +
                               " bytes at " + to_string(side.space) + " byte " + std::to_string(address) + " of " +
                               (t.name.empty() ? std::string("the tensor") : t.name) + ", not a multiple of " +
                               std::to_string(width) + ": misaligned address (the kernel faults)");
      f.fix = padding_fix(t.tensor.layout, vector_elements, t.layout_name);
      declared_here(f, t.layout_decl, "declared here: " + t.layout_name);
    }
  }
  // cp.async.ca may write each source line in its own pass: only conflicts every pass has count
  if (!compiles) return out;
  if (a.smem.instructions > 0 && a.smem.bank_conflicts_min > 0) {
    const bool range = a.smem.bank_conflicts_min != a.smem.bank_conflicts;
    const CheckedTensor& t = a.src.space == MemorySpace::kSmem ? e.src : e.dst;
    std::string ptx;
    for (const MemoryInstruction& inst : a.instructions)
      if (inst.space == MemorySpace::kSmem && inst.bank_conflicts > 0) {
        ptx = inst.ptx();
        break;
      }
    Finding& f = finding("warning", "bank-conflict",
                         ptx + " on " + (t.name.empty() ? std::string("shared memory") : t.name) + ": " +
                             std::to_string(a.smem.wavefronts) + " wavefronts where " +
                             std::to_string(a.smem.ideal_wavefronts) + " are ideal (" +
                             fixed(static_cast<double>(a.smem.wavefronts) /
                                       static_cast<double>(std::max<int64_t>(1, a.smem.ideal_wavefronts)),
                                   1) +
                             "x), " + (range ? std::to_string(a.smem.bank_conflicts_min) + " to " : "") +
                             std::to_string(a.smem.bank_conflicts) + " bank conflicts per copy");
    f.fix = "swizzle " + (t.layout_name.empty() ? std::string("the layout") : t.layout_name) +
            " (composition(Swizzle<B,M,S>{}, ...)) so that each phase's rows fall on distinct banks";
    declared_here(f, t.layout_decl, "declared here: " + t.layout_name);
  }
  if (a.gmem.instructions > 0 && a.gmem.efficiency() < 0.999) {
    const CheckedTensor& t = a.src.space == MemorySpace::kGmem ? e.src : e.dst;
    Finding& f =
        finding("warning", "uncoalesced",
                "global " + std::string(a.src.space == MemorySpace::kGmem ? "loads" : "stores") + " of " +
                    (t.name.empty() ? std::string("the tensor") : t.name) + " use " +
                    fixed(100.0 * a.gmem.efficiency(), 0) + "% of the bytes they move (" +
                    std::to_string(a.gmem.sectors) + " sectors for " + std::to_string(a.gmem.bytes_used) + " bytes)");
    f.fix = "give consecutive threads consecutive addresses along the tensor's contiguous mode";
    declared_here(f, e.copy_decl, "declared here: " + copy_label);
  }
  return out;
}

std::vector<Finding> check_gemm(const GemmEvent& e) {
  std::vector<Finding> out;
  const char* want = "ABC";
  for (int i = 0; i < 3; ++i) {
    if (e.from[i] != 0 && e.from[i] != want[i]) {
      Finding f{
          "error",
          "operand",
          "gemm's " + std::string(1, want[i]) + " operand " + e.names[i] + " is the MMA's " +
              std::string(1, e.from[i]) + " partition",
          "pass the " + std::string(1, want[i]) + " fragment (partition_fragment_" + std::string(1, want[i]) + ")",
          e.at,
          {}};
      out.push_back(f);
    }
    if (e.threads[i] != 0 && e.threads[i] != e.mma.num_threads) {
      Finding f{"error",
                "thread-count",
                e.names[i] + " was partitioned by a TiledMMA of " + std::to_string(e.threads[i]) + " threads; gemm's " +
                    (e.mma_name.empty() ? "TiledMMA" : e.mma_name) + " has " + std::to_string(e.mma.num_threads),
                "",
                e.at,
                {}};
      out.push_back(f);
    }
  }
  return out;
}

}  // namespace cutevis
