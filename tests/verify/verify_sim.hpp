// A host model of the hardware for verify's tests: the instruction reads its operands
// from the physical registers / shared-memory bytes as the *truth* plan (the right
// layouts) says, while the data was placed by another plan (the layouts under test).
// This lets the localization logic be tested exactly without a GPU; the GPU tests
// (tests/gpu) check the same scenarios against the real instructions.
#pragma once

#include <optional>
#include <vector>

#include "atoms/verify/plan.hpp"
#include "atoms/verify/probe.hpp"

namespace cutevis::test {

using namespace cutevis::verify;

inline int64_t read_entry(const OperandPlan& op, const std::vector<uint32_t>& words, size_t i, int64_t lane_offset) {
  const auto& s = op.slots[i];
  uint64_t bits = 0;
  if (op.in_smem) {
    for (int b = 0; b < op.format.bits / 8; ++b) {
      int64_t byte = s.byte + b;
      bits |= uint64_t{(words[static_cast<size_t>(byte / 4)] >> (8 * (byte % 4))) & 0xffu} << (8 * b);
    }
  } else {
    size_t at = static_cast<size_t>((s.lane + lane_offset) * op.words_per_thread() + s.word);
    bits = op.format.bits == 64 ? (uint64_t{words[at + 1]} << 32) | words[at] : uint64_t{words[at]} >> s.bit;
  }
  auto v = decode(op.format, bits);
  return v ? *v : 0;
}

// D at every entry of `placed.c` after the hardware (= `truth`) ran on data placed by
// `placed`.  lane_offsets: replicas of the product on other lanes (SM70 quad-pairs).
inline std::vector<std::optional<int64_t>> simulate(const MmaPlan& placed, const MmaPlan& truth, const MmaData& data,
                                                    const std::vector<int64_t>& lane_offsets = {0}) {
  const int threads = placed.physical_threads;
  auto wa = pack_operand(placed.a, threads, data.a), wb = pack_operand(placed.b, threads, data.b),
       wc = pack_operand(placed.c, threads, data.c);
  std::vector<uint32_t> wd(wc.size(), 0);
  for (int64_t offset : lane_offsets) {
    std::vector<int64_t> a(static_cast<size_t>(truth.m * truth.k)), b(static_cast<size_t>(truth.n * truth.k)),
        c(static_cast<size_t>(truth.m * truth.n));
    for (size_t i = 0; i < truth.a.entries.size(); ++i)
      a[static_cast<size_t>(truth.a.cell_of[i])] = read_entry(truth.a, wa, i, offset);
    for (size_t i = 0; i < truth.b.entries.size(); ++i)
      b[static_cast<size_t>(truth.b.cell_of[i])] = read_entry(truth.b, wb, i, offset);
    for (size_t i = 0; i < truth.c.entries.size(); ++i)
      c[static_cast<size_t>(truth.c.cell_of[i])] = read_entry(truth.c, wc, i, offset);
    for (size_t i = 0; i < truth.c.entries.size(); ++i) {
      int64_t cell = truth.c.cell_of[i], m = cell % truth.m, n = cell / truth.m;
      int64_t acc = c[static_cast<size_t>(cell)];
      for (int64_t k = 0; k < truth.k; ++k) {
        int64_t x = a[static_cast<size_t>(m + truth.m * k)], y = b[static_cast<size_t>(n + truth.n * k)];
        acc += truth.popc == PopcMode::kXor ? (x ^ y) : truth.popc == PopcMode::kAnd ? (x & y) : x * y;
      }
      const auto& s = truth.c.slots[i];
      size_t at = static_cast<size_t>((s.lane + offset) * truth.c.words_per_thread() + s.word);
      uint64_t bits = encode(truth.format_d, acc);
      if (truth.format_d.bits == 64) {
        wd[at] = static_cast<uint32_t>(bits);
        wd[at + 1] = static_cast<uint32_t>(bits >> 32);
      } else {
        uint32_t mask = truth.format_d.bits == 32 ? 0xffffffffu : ((1u << truth.format_d.bits) - 1) << s.bit;
        wd[at] = (wd[at] & ~mask) | (static_cast<uint32_t>(bits << s.bit) & mask);
      }
    }
  }
  return unpack_d(placed, wd.data());
}

// Run the probes of `placed` through the model and localize.
inline MmaLocalization simulate_localization(const MmaPlan& placed, const MmaPlan& truth,
                                             const std::vector<int64_t>& lane_offsets = {0}) {
  ProbeSet probes = make_probes(placed);
  std::vector<std::vector<std::optional<int64_t>>> d;
  for (const auto& set : probes.sets) d.push_back(simulate(placed, truth, set, lane_offsets));
  return localize_mma(placed, probes, d);
}

inline int64_t mismatches(const MmaPlan& placed, const MmaPlan& truth, const std::vector<int64_t>& lane_offsets = {0}) {
  int64_t bad = 0;
  for (uint64_t seed : {1, 2}) {
    MmaData data = verify::random_data(placed, seed);
    auto got = simulate(placed, truth, data, lane_offsets);
    auto want = reference_d(placed, data);
    for (size_t i = 0; i < want.size(); ++i) bad += (!got[i] || *got[i] != want[i]) ? 1 : 0;
  }
  return bad;
}

// ldmatrix/stmatrix/movmatrix as the truth plan describes them: each register entry
// pairs with the address entry whose row unit holds the same tile element (the lowest
// thread when a row is named by several threads, as the hardware reads threads 0-7 of .x1).
inline CopyRelation simulate_copy(const CopyPlan& truth) {
  const bool regs_are_dst = truth.cls != CopyClass::kStmatrix;
  const CopySide& regs = regs_are_dst ? truth.dst : truth.src;
  const CopySide& addr = regs_are_dst ? truth.src : truth.dst;
  CopyRelation rel;
  rel.partner.assign(regs.entries.size(), -1);
  for (size_t r = 0; r < regs.entries.size(); ++r)
    for (size_t a = 0; a < addr.entries.size(); ++a)
      if (addr.unit_of[a] == regs.unit_of[r]) {
        rel.partner[r] = static_cast<int64_t>(a);
        break;
      }
  return rel;
}

}  // namespace cutevis::test
