// The per-instruction cost rules (see memory_model.hpp).
#include "atoms/analysis/memory_model.hpp"

#include <algorithm>
#include <climits>

namespace cutevis {

std::string to_string(MemorySpace space) {
  switch (space) {
    case MemorySpace::kRmem: return "rmem";
    case MemorySpace::kSmem: return "smem";
    case MemorySpace::kGmem: return "gmem";
  }
  return "?";
}

namespace {

std::string vector_suffix(int bits) {
  switch (bits) {
    case 8: return ".b8";
    case 16: return ".b16";
    case 32: return ".b32";
    case 64: return ".v2.b32";
    case 128: return ".v4.b32";
  }
  return ".b" + std::to_string(bits);
}

// The 4-byte words a lane touches: [address, address + bytes) rounded out to words.
void words_of(int64_t address, int bits, std::vector<int64_t>& out) {
  const int64_t bytes = std::max(1, bits / 8);
  for (int64_t w = address / 4; w <= (address + bytes - 1) / 4; ++w) out.push_back(w);
}

void sort_unique(std::vector<int64_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Wavefronts of one phase: the most distinct words any one bank must deliver (words distinct).
int64_t phase_wavefronts(const std::vector<int64_t>& words) {
  int64_t per_bank[32] = {};
  int64_t most = 0;
  for (int64_t w : words) most = std::max(most, ++per_bank[w % 32]);
  return most;
}

// The distinct words of one phase.
std::vector<int64_t> phase_words(const MemoryInstruction& inst, const std::vector<int>& lanes) {
  std::vector<int64_t> words;
  words.reserve(lanes.size() * 4);
  for (int l : lanes) words_of(inst.address[l], inst.bits, words);
  sort_unique(words);
  return words;
}

}  // namespace

std::string MemoryInstruction::ptx() const {
  const std::string x = ".x" + std::to_string(matrices);
  switch (kind) {
    case AccessKind::kLdmatrix: return "ldmatrix.sync.aligned.m8n8" + x + (trans ? ".trans" : "") + ".shared.b16";
    case AccessKind::kStmatrix: return "stmatrix.sync.aligned.m8n8" + x + (trans ? ".trans" : "") + ".shared.b16";
    case AccessKind::kCpAsync:
      return std::string("cp.async.") + (bypass_l1 ? "cg" : "ca") + ".shared.global [" + std::to_string(bits / 8) +
             " bytes]";
    case AccessKind::kLoad:
      return std::string("ld.") + (space == MemorySpace::kSmem ? "shared" : "global") + vector_suffix(bits);
    case AccessKind::kStore:
      return std::string("st.") + (space == MemorySpace::kSmem ? "shared" : "global") + vector_suffix(bits);
  }
  return "?";
}

std::vector<std::vector<int>> smem_phases(const MemoryInstruction& inst) {
  // ldmatrix/stmatrix: one 8-row matrix per phase, rows from lanes 8i..8i+7.
  // Others: as many lanes per phase as move 128 bytes (at most the warp).
  int lanes_per_phase = 32;
  int phases = 1;
  if (inst.kind == AccessKind::kLdmatrix || inst.kind == AccessKind::kStmatrix) {
    lanes_per_phase = 8;
    phases = inst.matrices;
  } else {
    lanes_per_phase = inst.bits >= 128 ? 8 : inst.bits == 64 ? 16 : 32;
    phases = 32 / lanes_per_phase;
  }
  std::vector<std::vector<int>> out;
  for (int p = 0; p < phases; ++p) {
    std::vector<int> lanes;
    for (int l = p * lanes_per_phase; l < (p + 1) * lanes_per_phase; ++l)
      if (l < static_cast<int>(inst.address.size()) && inst.address[l] >= 0) lanes.push_back(l);
    if (!lanes.empty()) out.push_back(std::move(lanes));
  }
  return out;
}

void cost(MemoryInstruction& inst) {
  inst.aligned = true;
  const int64_t bytes = std::max(1, inst.bits / 8);
  for (int64_t a : inst.address)
    if (a >= 0 && a % bytes != 0) inst.aligned = false;
  if (inst.space == MemorySpace::kSmem) {
    inst.wavefronts = inst.ideal_wavefronts = 0;
    for (const auto& lanes : smem_phases(inst)) {
      const std::vector<int64_t> words = phase_words(inst, lanes);
      inst.wavefronts += phase_wavefronts(words);
      // the fewest wavefronts that could carry this phase's distinct words: 32 words each
      inst.ideal_wavefronts += std::max<int64_t>(1, (static_cast<int64_t>(words.size()) + 31) / 32);
    }
    inst.bank_conflicts = inst.wavefronts - inst.ideal_wavefronts;
    inst.bank_conflicts_min = inst.bank_conflicts;
    return;
  }
  if (inst.space == MemorySpace::kGmem) {
    std::vector<int64_t> sectors, starts;
    for (int64_t a : inst.address) {
      if (a < 0) continue;
      starts.push_back(a);
      for (int64_t s = a / 32; s <= (a + bytes - 1) / 32; ++s) sectors.push_back(s);
    }
    sort_unique(sectors);
    sort_unique(starts);
    // distinct bytes: the union of the lanes' [a, a + bytes) intervals
    int64_t used = 0, covered_to = INT64_MIN;
    for (int64_t a : starts) {
      used += a + bytes - std::max(a, covered_to);
      covered_to = a + bytes;
    }
    inst.requests = starts.empty() ? 0 : 1;
    inst.sectors = static_cast<int64_t>(sectors.size());
    inst.bytes_used = used;
  }
}

void cost_cp_async(MemoryInstruction& global, MemoryInstruction& shared) {
  cost(global);
  cost(shared);
  if (!global.bypass_l1) {
    // each phase's lanes grouped by their source line, each group written on its own
    shared.bank_conflicts_min = 0;
    for (const auto& lanes : smem_phases(shared)) {
      std::vector<std::pair<int64_t, int>> by_line;
      for (int l : lanes) by_line.emplace_back(global.address[l] / 128, l);
      std::sort(by_line.begin(), by_line.end());
      for (size_t i = 0; i < by_line.size();) {
        std::vector<int> group;
        size_t j = i;
        for (; j < by_line.size() && by_line[j].first == by_line[i].first; ++j) group.push_back(by_line[j].second);
        const std::vector<int64_t> words = phase_words(shared, group);
        shared.bank_conflicts_min +=
            phase_wavefronts(words) - std::max<int64_t>(1, (static_cast<int64_t>(words.size()) + 31) / 32);
        i = j;
      }
    }
    return;
  }
  // (global 128-byte line, shared 32-byte sector) pairs, byte by byte of every active lane
  std::vector<std::pair<int64_t, int64_t>> units;
  const int64_t bytes = std::max(1, global.bits / 8);
  for (size_t l = 0; l < global.address.size() && l < shared.address.size(); ++l) {
    if (global.address[l] < 0 || shared.address[l] < 0) continue;
    for (int64_t b = 0; b < bytes; ++b) units.emplace_back((global.address[l] + b) / 128, (shared.address[l] + b) / 32);
  }
  std::sort(units.begin(), units.end());
  global.sectors = std::unique(units.begin(), units.end()) - units.begin();
  shared.bank_conflicts = shared.bank_conflicts_min = 0;
  shared.wavefronts = shared.ideal_wavefronts;
}

std::vector<int64_t> lane_wavefront(const MemoryInstruction& inst) {
  std::vector<int64_t> out(inst.address.size(), -1);
  if (inst.space == MemorySpace::kGmem) {
    for (size_t l = 0; l < inst.address.size(); ++l)
      if (inst.address[l] >= 0) out[l] = inst.address[l] / 32;
    return out;
  }
  // Within a phase, the k-th distinct word of a bank goes out in the phase's k-th wavefront.
  int64_t first = 0;
  if (inst.kind == AccessKind::kCpAsync && inst.bypass_l1) {
    // cp.async.cg: costed at its ideal (no conflicts reported): each phase in its first wavefront(s)
    for (const auto& lanes : smem_phases(inst)) {
      for (int l : lanes) out[l] = first;
      first += std::max<int64_t>(1, (static_cast<int64_t>(phase_words(inst, lanes).size()) + 31) / 32);
    }
    return out;
  }
  for (const auto& lanes : smem_phases(inst)) {
    std::vector<std::vector<int64_t>> words_of_bank(32);  // bank -> distinct words in lane order
    for (int l : lanes) {
      int64_t w = inst.address[l] / 4;
      auto& ws = words_of_bank[w % 32];
      auto it = std::find(ws.begin(), ws.end(), w);
      int64_t k = it == ws.end() ? static_cast<int64_t>(ws.size()) : it - ws.begin();
      if (it == ws.end()) ws.push_back(w);
      out[l] = first + k;
    }
    // a lane's later words can need more wavefronts than its first: count the phase fully
    first += phase_wavefronts(phase_words(inst, lanes));
  }
  return out;
}

}  // namespace cutevis
