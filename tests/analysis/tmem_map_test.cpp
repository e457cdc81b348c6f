// tcgen05.ld / st over UMMA accumulators against real CuTe.
//  tests/data/tmem_partition_oracle.jsonl: a host-only program built against CUTLASS (commit 7107b05,
//  g++ 12) made, for each UMMA (`mma`, 1 or 2 CTAs, float or half_t accumulators, M = 64/128/256) and
//  tcgen05 copy (`op`): tCtAcc = cta_mma.make_fragment_C(cta_mma.partition_C(gC)) (`acc`, its layout),
//  tCgC (`gC`), make_tmem_copy(op, tCtAcc)'s TiledLayout_TV (`tv`), and for every thread t
//  thr_copy.partition_S(tCtAcc) (`s`: layout and element offset, the TMEM tensor read through a gmem
//  pointer so the offset is plain) and thr_copy.partition_D(tCgC) (`d`). Three pairs CuTe refuses
//  at compile time (32dp atoms over M = 64, ...) are tested as errors below.
#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "atoms/analysis/partition.hpp"
#include "atoms/analysis/tmem_map.hpp"
#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/tmem.hpp"
#include "lib/lang/expr.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

std::vector<json> oracle_rows() {
  std::vector<json> out;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/tmem_partition_oracle.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

Layout parse_layout(const std::string& s) {  // threads of a warp share their layouts: parse each once
  static std::map<std::string, Layout> seen;
  auto it = seen.find(s);
  if (it == seen.end()) it = seen.emplace(s, evaluate_expression(s).to_layout()).first;
  return it->second;
}

// offset + layout(i) for every i, as one list: two partitions are equal as functions when these are.
std::vector<int64_t> addresses(const Layout& l, int64_t offset) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < size(l); ++i) out.push_back(offset + l(i));
  return out;
}

}  // namespace

TEST_CASE("tmem map: accumulators and partition_S/D equal CuTe's for every thread (tmem_partition_oracle.jsonl)") {
  auto all = oracle_rows();
  REQUIRE(all.size() == 14);
  int m64 = 0, pairs = 0, halves = 0;
  for (const auto& row : all) {
    const std::string mma = row["mma"], op = row["op"];
    CAPTURE(mma);
    CAPTURE(op);
    const MmaAtom atom = find_mma_atom(mma);
    const int cta = row["cta_group"];
    const TmemAccumulator acc =
        umma_accumulator(atom.shape_mnk[0].value(), atom.shape_mnk[1].value(), cta, atom.type_c);
    CHECK(to_string(acc.layout, true) == row["acc"].get<std::string>());
    const TiledCopy copy = make_tmem_copy(make_copy_atom(op, acc.type), acc.layout, acc.type.bits);
    CHECK(to_string(copy.tiled_layout_tv, true) == row["tv"].get<std::string>());
    const Layout gc = parse_layout(row["gC"]);
    REQUIRE(row["s"].size() == 128);
    int64_t differ = 0;
    for (int64_t t = 0; t < 128; ++t) {
      const auto& s = row["s"][static_cast<size_t>(t)];
      const auto& d = row["d"][static_cast<size_t>(t)];
      const ThreadPartition ps = partition_S(copy, acc.layout, t), pd = partition_D(copy, gc, t);
      differ += addresses(ps.layout, ps.offset) != addresses(parse_layout(s[0]), s[1].get<int64_t>());
      differ += addresses(pd.layout, pd.offset) != addresses(parse_layout(d[0]), d[1].get<int64_t>());
    }
    CHECK(differ == 0);
    const TmemCopyMap map = map_tmem_copy(copy, acc);
    CHECK(map.quarter_rule);
    int64_t unowned = 0;
    for (const auto& c : map.cells) unowned += c.thread < 0;
    CHECK(unowned == 0);
    m64 += acc.m_cta() == 64;
    pairs += cta == 2;
    halves += acc.type.bits == 16;
  }
  CHECK(m64 >= 4);
  CHECK(pairs >= 4);
  CHECK(halves == 2);
}

TEST_CASE("tmem map: M = 64 uses lanes 0-15, 32-47, 64-79, 96-111; a CTA pair's M = 128 splits N over 128 lanes") {
  const TmemAccumulator acc = umma_accumulator(64, 128, 1, ValueType{"float", 32});
  const TiledCopy copy = make_tmem_copy(make_copy_atom("SM100_TMEM_LOAD_16dp256b1x", acc.type), acc.layout, 32);
  const TmemCopyMap map = map_tmem_copy(copy, acc);
  REQUIRE(map.lanes_used.size() == 64);
  CHECK(map.lanes_used[15] == 15);
  CHECK(map.lanes_used[16] == 32);
  CHECK(map.lanes_used.back() == 111);
  // row m = 20 sits in lane 36 (the second quarter), read by warp 1
  const TmemCell& c = map.cells[20 * 128 + 0];
  CHECK(c.lane == 36);
  CHECK(c.thread / 32 == 1);
  // a 32-lane atom reaches lanes the accumulator does not hold: CuTe's static_assert, an error here
  CHECK_THROWS_WITH_AS(make_tmem_copy(make_copy_atom("SM100_TMEM_LOAD_32dp32b4x", acc.type), acc.layout, 32),
                       doctest::Contains("does not exist in the data layout"), Error);
  const TmemAccumulator pair = umma_accumulator(128, 128, 2, ValueType{"float", 32});
  CHECK(pair.m_cta() == 64);
  const TmemCopyMap pm =
      map_tmem_copy(make_tmem_copy(make_copy_atom("SM100_TMEM_LOAD_32dp32b8x", pair.type), pair.layout, 32), pair);
  CHECK(pm.cells[5 * 128 + 70].lane == 64 + 5);  // n >= 64: lanes 64-127, column n - 64
  CHECK(pm.cells[5 * 128 + 70].column == 6);
}

TEST_CASE("tmem map: --choose lists the loads that fit, with values and contiguous n per thread") {
  const TmemAccumulator acc = umma_accumulator(128, 256, 1, ValueType{"float", 32});
  auto choices = choose_tmem_copies(acc, 128, true);
  auto find = [&](const std::string& op) -> const TmemChoice* {
    for (const auto& c : choices)
      if (c.op == op) return &c;
    return nullptr;
  };
  const TmemChoice* x8 = find("SM100_TMEM_LOAD_32dp32b8x");
  REQUIRE(x8 != nullptr);
  CHECK(x8->values_per_instruction == 8);
  CHECK(x8->values_per_thread == 256);  // a thread holds one whole row of N = 256
  CHECK(x8->contiguous_n == 256);
  CHECK(find("SM100_TMEM_LOAD_32dp32b8x_16b") == nullptr);  // packing is for 16-bit accumulators
  CHECK(find("SM100_TMEM_STORE_32dp32b8x") == nullptr);
  auto wide = choose_tmem_copies(acc, 256, true);
  REQUIRE(!wide.empty());
  CHECK(wide[0].values_per_thread * 256 == 128 * 256);
  CHECK_THROWS_WITH_AS(choose_tmem_copies(acc, 96, true), doctest::Contains("multiple of 4 warps"), Error);
}
