// The per-instruction rules of atoms/analysis/memory_model.hpp on hand-computed warps.
// Every expectation here was worked out by hand from the rules (32 banks x 4 bytes; phases of
// 32/16/8 lanes for <=32/64/128-bit accesses; one 8x16-byte matrix per phase for ldmatrix;
// 32-byte sectors), and the same patterns agree with Nsight Compute on an H100
// (tests/data/inspect_h100.jsonl, checked in copy_analysis_test.cpp).
#include <doctest/doctest.h>

#include <functional>

#include "atoms/analysis/memory_model.hpp"

using namespace cutevis;

namespace {

MemoryInstruction warp(AccessKind kind, MemorySpace space, int bits, const std::function<int64_t(int)>& address,
                       int matrices = 0) {
  MemoryInstruction i;
  i.kind = kind;
  i.space = space;
  i.bits = bits;
  i.matrices = matrices;
  i.address.assign(32, -1);
  for (int l = 0; l < 32; ++l) i.address[l] = address(l);
  cost(i);
  return i;
}

MemoryInstruction lds(int bits, const std::function<int64_t(int)>& address) {
  return warp(AccessKind::kLoad, MemorySpace::kSmem, bits, address);
}

}  // namespace

TEST_CASE("32-bit shared loads: one wavefront per distinct word on the busiest bank") {
  auto consecutive = lds(32, [](int l) { return 4 * l; });
  CHECK(consecutive.wavefronts == 1);
  CHECK(consecutive.ideal_wavefronts == 1);
  CHECK(consecutive.bank_conflicts == 0);
  // a column of a 32-float row-major tile: every lane on bank 0, 32 distinct words
  auto column = lds(32, [](int l) { return 128 * l; });
  CHECK(column.wavefronts == 32);
  CHECK(column.bank_conflicts == 31);
  // stride 2 words: banks 0,2,..,30 twice -> 2-way
  CHECK(lds(32, [](int l) { return 8 * l; }).wavefronts == 2);
  // the same word for all lanes broadcasts
  CHECK(lds(32, [](int) { return 64; }).wavefronts == 1);
  // pairs of lanes on one word, 16 words on 16 banks: no conflict
  CHECK(lds(32, [](int l) { return 4 * (l / 2); }).wavefronts == 1);
  // a padded column (row pitch 33 words) is conflict-free
  CHECK(lds(32, [](int l) { return 132 * l; }).wavefronts == 1);
}

TEST_CASE("narrow accesses share words; 64- and 128-bit accesses go by half- and quarter-warps") {
  // 16-bit: lanes 2k, 2k+1 share a word; a row of 64 halves is 32 words, one wavefront
  CHECK(lds(16, [](int l) { return 2 * l; }).wavefronts == 1);
  // 16-bit down a column of a 32-half-wide row-major tile: 64-byte rows, two rows per bank
  // cycle -> 16 lanes on bank 0, 16 on bank 16: 16 wavefronts
  CHECK(lds(16, [](int l) { return 64 * l; }).wavefronts == 16);
  auto v2 = lds(64, [](int l) { return 8 * l; });
  CHECK(v2.wavefronts == 2);
  CHECK(v2.ideal_wavefronts == 2);
  CHECK(v2.bank_conflicts == 0);
  auto v4 = lds(128, [](int l) { return 16 * l; });
  CHECK(v4.wavefronts == 4);
  CHECK(v4.ideal_wavefronts == 4);
  // 128-bit down a column with 128-byte rows: each quarter-warp's 8 rows on banks 0-3 -> 8 each
  auto v4_column = lds(128, [](int l) { return 128 * l; });
  CHECK(v4_column.wavefronts == 32);
  CHECK(v4_column.bank_conflicts == 28);
  // a conflict only inside the second half-warp counts once for that phase
  auto half = lds(64, [](int l) { return l < 16 ? 8 * l : 256 * (l - 16); });
  CHECK(half.wavefronts == 1 + 16);
  // inactive lanes are skipped; an instruction with one lane costs one wavefront
  CHECK(lds(128, [](int l) { return l == 5 ? 48 : -1; }).wavefronts == 1);
}

TEST_CASE("ldmatrix: one phase per 8x16-byte matrix, rows from lanes 0..8N-1") {
  // x4 over a row-major tile of 64 halves (128-byte rows): 8 rows of a matrix on banks 0-3
  auto rows = warp(
      AccessKind::kLdmatrix, MemorySpace::kSmem, 128, [](int l) { return 128 * (l % 8) + 16 * (l / 8); }, 4);
  CHECK(rows.wavefronts == 32);
  CHECK(rows.ideal_wavefronts == 4);
  CHECK(rows.bank_conflicts == 28);
  // the same rows with Swizzle<3,4,3> on byte addresses (16-byte chunk ^= row): conflict-free
  auto swizzled = warp(
      AccessKind::kLdmatrix, MemorySpace::kSmem, 128,
      [](int l) {
        int64_t row = l % 8, chunk = l / 8;
        return 128 * row + 16 * (chunk ^ row);
      },
      4);
  CHECK(swizzled.wavefronts == 4);
  CHECK(swizzled.bank_conflicts == 0);
  // x1 uses lanes 0-7 only: whatever lanes 8-31 hold does not count
  auto x1 = warp(
      AccessKind::kLdmatrix, MemorySpace::kSmem, 128, [](int l) { return l < 8 ? 16 * l : -1; }, 1);
  CHECK(x1.wavefronts == 1);
  CHECK(x1.ptx() == "ldmatrix.sync.aligned.m8n8.x1.shared.b16");
}

TEST_CASE("global memory: one request, one sector per distinct 32 bytes") {
  auto coalesced = warp(AccessKind::kLoad, MemorySpace::kGmem, 32, [](int l) { return 4 * l; });
  CHECK(coalesced.requests == 1);
  CHECK(coalesced.sectors == 4);
  CHECK(coalesced.bytes_used == 128);
  auto strided = warp(AccessKind::kLoad, MemorySpace::kGmem, 32, [](int l) { return 512 * l; });
  CHECK(strided.sectors == 32);
  CHECK(strided.bytes_used == 128);
  auto wide = warp(AccessKind::kStore, MemorySpace::kGmem, 128, [](int l) { return 16 * l; });
  CHECK(wide.sectors == 16);
  CHECK(wide.bytes_used == 512);
  CHECK(wide.ptx() == "st.global.v4.b32");
  // misaligned start: 4-byte lanes from byte 16 on touch 5 sectors
  CHECK(warp(AccessKind::kLoad, MemorySpace::kGmem, 32, [](int l) { return 16 + 4 * l; }).sectors == 5);
  // duplicates: all lanes on one float
  auto same = warp(AccessKind::kLoad, MemorySpace::kGmem, 32, [](int) { return 64; });
  CHECK(same.sectors == 1);
  CHECK(same.bytes_used == 4);
  CHECK_FALSE(warp(AccessKind::kLoad, MemorySpace::kGmem, 64, [](int l) { return 4 + 8 * l; }).aligned);
}

TEST_CASE("lane_wavefront numbers the wavefronts that serve each lane") {
  auto column = lds(32, [](int l) { return 128 * l; });
  auto served = lane_wavefront(column);
  for (int l = 0; l < 32; ++l) CHECK(served[l] == l);
  auto v4 = lds(128, [](int l) { return 16 * l; });
  served = lane_wavefront(v4);
  CHECK(served[0] == 0);
  CHECK(served[8] == 1);
  CHECK(served[31] == 3);
}

namespace {

// One cp.async warp instruction: source and destination byte addresses per lane, costed together.
std::pair<MemoryInstruction, MemoryInstruction> cp_async(int bits, bool cg, const std::function<int64_t(int)>& src,
                                                         const std::function<int64_t(int)>& dst) {
  std::pair<MemoryInstruction, MemoryInstruction> p;
  for (MemoryInstruction* i : {&p.first, &p.second}) {
    i->kind = AccessKind::kCpAsync;
    i->bits = bits;
    i->bypass_l1 = cg;
    i->address.assign(32, -1);
  }
  p.first.space = MemorySpace::kGmem;
  p.second.space = MemorySpace::kSmem;
  for (int l = 0; l < 32; ++l) {
    p.first.address[l] = src(l);
    p.second.address[l] = dst(l);
  }
  cost_cp_async(p.first, p.second);
  return p;
}

}  // namespace

TEST_CASE("cp.async.cg: one sector per (global line, shared sector); no destination conflicts reported") {
  // 4 rows of 128 contiguous bytes each into 4 contiguous shared rows: 16 sectors, as ld.global
  const auto gs_pair = cp_async(
      128, true, [](int l) { return 16 * l; }, [](int l) { return 16 * l; });
  const MemoryInstruction& g = gs_pair.first;
  const MemoryInstruction& s = gs_pair.second;
  CHECK(g.sectors == 16);
  CHECK(s.bank_conflicts == 0);
  CHECK(g.ptx() == "cp.async.cg.shared.global [16 bytes]");
  // GMMA K-major INTER: each 16-byte chunk of a row 512 bytes from the next, every row on the
  // same 4 banks (8-way for st.shared); each lane's chunk is its own shared sector: 32 units
  const auto g2s2_pair = cp_async(
      128, true, [](int l) { return 16 * l; }, [](int l) { return 512 * (l % 8) + 16 * (l / 8); });
  const MemoryInstruction& g2 = g2s2_pair.first;
  const MemoryInstruction& s2 = g2s2_pair.second;
  CHECK(g2.sectors == 32);
  CHECK(s2.bank_conflicts == 0);
  CHECK(s2.wavefronts == s2.ideal_wavefronts);
  // pictures: each quarter-warp phase in its one wavefront, no 8-way spread
  const std::vector<int64_t> served = lane_wavefront(s2);
  CHECK(served[0] == 0);
  CHECK(served[7] == 0);
  CHECK(served[8] == 1);
  CHECK(served[31] == 3);
  // rows padded by 16 bytes in shared memory (a 144-byte pitch): row r starts 16r bytes into a
  // sector, so an odd row's 128 bytes touch 5 shared sectors, an even row's 4: 4 + 5 + 4 + 5
  const auto g3s3_pair = cp_async(
      128, true, [](int l) { return 16 * l; }, [](int l) { return 144 * (l / 8) + 16 * (l % 8); });
  const MemoryInstruction& g3 = g3s3_pair.first;
  CHECK(g3.sectors == 18);
  // the same rows from a 160-byte-pitch source: rows 1..3 span two global lines, and a shared
  // sector fed from both lines counts twice.  Row 0: 4; row 1 (lines 1|2 at byte 96, shared
  // sectors 4.5..8.5): 4 + 1 + 1 = 6; row 2 (split at 64; shared 9..13): 4; row 3 (split at 32,
  // shared 13.5..17.5): 6 -> 20
  const auto g4s4_pair = cp_async(
      128, true, [](int l) { return 160 * (l / 8) + 16 * (l % 8); },
      [](int l) { return 144 * (l / 8) + 16 * (l % 8); });
  const MemoryInstruction& g4 = g4s4_pair.first;
  CHECK(g4.sectors == 20);
}

TEST_CASE("cp.async.ca: destination conflicts as st.shared, as low as one pass per source line") {
  // one 128-byte row of 4-byte copies into GMMA K INTER: 8 chunks of 16 bytes 512 bytes apart,
  // all on banks 0..3: 8 wavefronts, 7 conflicts -- whatever the source
  const auto gs_pair = cp_async(
      32, false, [](int l) { return 4 * l; }, [](int l) { return 512 * (l / 4) + 4 * (l % 4); });
  const MemoryInstruction& g = gs_pair.first;
  const MemoryInstruction& s = gs_pair.second;
  CHECK(g.sectors == 4);
  CHECK(s.wavefronts == 8);
  CHECK(s.bank_conflicts == 7);
  CHECK(s.bank_conflicts_min == 7);  // one source line: one pass
  CHECK(g.ptx() == "cp.async.ca.shared.global [4 bytes]");
  // the source row starts 64 bytes into a line: lanes 0..15 and 16..31 come from two lines;
  // written line by line, 4 chunks each: 3 + 3 conflicts
  const auto g2s2_pair = cp_async(
      32, false, [](int l) { return 64 + 4 * l; }, [](int l) { return 512 * (l / 4) + 4 * (l % 4); });
  const MemoryInstruction& g2 = g2s2_pair.first;
  const MemoryInstruction& s2 = g2s2_pair.second;
  CHECK(g2.sectors == 4);  // bytes 64..191: sectors 2..5
  CHECK(s2.bank_conflicts == 7);
  CHECK(s2.bank_conflicts_min == 6);
}
