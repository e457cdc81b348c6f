// Scale factors in tensor memory against real CUTLASS.
//  - tests/data/utccp_oracle.jsonl: what a host-only program built against CUTLASS 4.7.0 (commit 7107b05,
//    g++ 12) printed for six block-scaled UMMAs (MXF8F6F4 and MXF4/NVF4, 1 and 2 SMs, N = 192), doing what
//    sm100_blockscaled_mma_warpspecialized.hpp does: smem_X = deduce_smem_layoutSFX(tiled_mma, tile),
//    tmem_X = make_tensor<TiledMma::FrgTypeSFX>(shape(smem_X)).layout(), tmem_cols_X =
//    find_tmem_tensor_col_offset, the compact (filter_zeros) tensors, make_utccp_copy(UtccpOp{}, tmem
//    compact)'s TiledLayout_TV and Tiler_MN, thread 0's partition_S(smem compact) and partition_D(tmem
//    compact), how many (smem value, TMEM value) pairs they make, and every 61st pair as (smem offset, lane,
//    32-bit column, byte).
//  - tests/data/utccp_traits.jsonl: the same program's print of Copy_Traits<SM100_UTCCP_*>::ThrID, ValID,
//    SrcLayout, DstLayout, RefLayout for the 12 operations.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "atoms/blockscaled.hpp"
#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tmem.hpp"
#include "atoms/utccp.hpp"
#include "lib/lang/expr.hpp"
#include "tests/atoms/copy_support.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

std::vector<json> oracle_rows() {
  std::vector<json> out;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/utccp_oracle.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

Value eval_cpp(const std::string& text) {
  std::vector<Warning> w;
  return evaluate_expression(text, w, Literals::kDynamic, test::cpp_atom_registry());
}

Layout layout_of(const json& text) { return eval_cpp(text.get<std::string>()).to_layout(); }

using Pair = std::tuple<int64_t, int64_t, int64_t, int64_t>;  // smem offset, lane, column, byte

// What the copy moves, physically: thread 0's partition_S / partition_D give each tcgen05.cp's source (a
// descriptor of 32 smem rows of 16 bytes) and TMEM destination -- copy_unpack passes only src[0] and dst[0]. The
// 4x32dp128bit instruction puts byte 4c+b of smem row l in lane l (+32r in every subpartition r), column c, byte
// b. (CuTe's value-by-value pairing of the two partitions is bookkeeping: for NSF > 1 it pairs other bytes.)
std::set<Pair> cute_pairs(const Layout& s, const Layout& d) {
  std::set<Pair> out;
  const int64_t dp = tmem_dp(8), per = size(get(s, 0));
  REQUIRE(size(get(d, 0)) == per);
  for (int64_t j = 0; j < size(s) / per; ++j) {
    const int64_t src = s(per * j), dst = d(per * j);
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t l = 0; l < 32; ++l)
        for (int64_t c = 0; c < 4; ++c)
          for (int64_t b = 0; b < 4; ++b)
            out.insert({src + 16 * l + 4 * c + b, dst / dp + l + 32 * r, (dst % dp) / 4 + c, b});
  }
  return out;
}

// CuTe's own pairing of values, for the rows where it is the physical one (NSF = 1)
std::set<Pair> cute_value_pairs(const Layout& s, const Layout& d) {
  std::set<Pair> out;
  const int64_t dp = tmem_dp(8);
  for (int64_t i = 0; i < size(s); ++i) out.insert({s(i), d(i) / dp, (d(i) % dp) / 4, (d(i) % dp) % 4});
  return out;
}

// ours: every smem element of a stage (mn, k in the MMA, k block) and the TMEM homes of its scale factor
std::set<Pair> our_pairs(const Layout& smem, const Layout& tmem) {
  std::set<Pair> out;
  const Layout mma = get(smem, 0);
  const int64_t mn = size(get(mma, 0)), k_in = size(get(mma, 1)), blocks = size(get(smem, 2));
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t k = 0; k < k_in; ++k)
      for (int64_t r = 0; r < mn; ++r) {
        const int64_t off = get(mma, 0)(r) + get(mma, 1)(k) + get(smem, 2)(b);
        for (const SfTmemAddress& a : sf_tmem_addresses(tmem, mn, r, k, b)) out.insert({off, a.lane, a.column, a.byte});
      }
  return out;
}

}  // namespace

TEST_CASE("utccp: scale factors land in tensor memory as CUTLASS puts them (utccp_oracle.jsonl)") {
  auto all = oracle_rows();
  REQUIRE(all.size() == 6);
  for (const auto& row : all) {
    const std::string mma_text = "make_tiled_mma(" + row["mma"].get<std::string>() + "{})";
    const Value v = eval_cpp(mma_text);
    REQUIRE(as_tiled_mma(v) != nullptr);
    const TiledMma mma = *as_tiled_mma(v);
    const IntTuple tile =
        tup(row["tile"][0].get<int64_t>(), row["tile"][1].get<int64_t>(), row["tile"][2].get<int64_t>());
    BlockScaledConfig c;
    c.vec_size = row["vs"].get<int>();
    const CopyAtom op = utccp_copy_atom(row["utccp"].get<std::string>(), ValueType{"uint8_t", 8});
    for (const char* x : {"a", "b"}) {
      const std::string X = x;
      CAPTURE(mma_text);
      CAPTURE(X);
      const Layout smem = deduce_smem_layout_sf(c, X == "a" ? 'A' : 'B', mma, tile);
      REQUIRE(to_string(smem, true) == row["smem_" + X].get<std::string>());
      const Layout tmem = tmem_sf_layout(smem);
      CHECK(to_string(tmem, true) == row["tmem_" + X].get<std::string>());
      const Layout want = layout_of(row["tmem_" + X]);
      REQUIRE(size(tmem) == size(want));
      int64_t differ = 0;
      for (int64_t i = 0; i < size(want); ++i) differ += tmem(i) != want(i);
      CHECK(differ == 0);
      CHECK(sf_tmem_columns(tmem) == row["tmem_cols_" + X].get<int64_t>());
      // make_utccp_copy over the compact tensor: CuTe's TV layout and tiler
      const Layout compact = filter_zeros(tmem);
      CHECK(to_string(compact, true) == row["tmem_compact_" + X].get<std::string>());
      const TiledCopy copy = make_utccp_copy(op, compact);
      CHECK(to_string(copy.tiled_layout_tv, true) == row["copy_tv_" + X].get<std::string>());
      CHECK(tiler_to_string(copy, true) == row["copy_tiler_" + X].get<std::string>());
      // smem -> TMEM as functions: every pair CuTe's partitions make, and only those
      const Layout part_s = layout_of(row["part_s_" + X]), part_d = layout_of(row["part_d_" + X]);
      const std::set<Pair> moved = cute_pairs(part_s, part_d);
      CHECK(static_cast<int64_t>(moved.size()) == row["pairs_count_" + X].get<int64_t>());
      const std::set<Pair> ours = our_pairs(smem, tmem);
      CHECK(ours == moved);  // where tcgen05.cp puts each byte is where the MMA reads tmem_sf_frg's scale factor
      const std::set<Pair> logical = cute_value_pairs(part_s, part_d);
      for (const auto& p : row["pairs_sample_" + X]) {
        const Pair want_pair{p[0].get<int64_t>(), p[1].get<int64_t>(), p[2].get<int64_t>(), p[3].get<int64_t>()};
        CHECK(logical.count(want_pair) == 1);  // the printed partitions are what CuTe evaluated
      }
      const int64_t nsf = size(get(get(get(smem, 0), 1), 1));
      if (nsf == 1) CHECK(logical == moved);
      else CHECK(logical != moved);
    }
  }
}

TEST_CASE("utccp: every SM100_UTCCP Copy_Traits equals CuTe's (utccp_traits.jsonl)") {
  std::vector<json> all;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/utccp_traits.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) all.push_back(json::parse(line));
  REQUIRE(all.size() == 12);
  for (const auto& row : all) {
    const std::string op = row["op"];
    CAPTURE(op);
    REQUIRE(is_utccp_op(op));
    const CopyAtom a = utccp_copy_atom(op, ValueType{"uint8_t", 8});
    CHECK(to_string(a.thr_id, true) == row["thr_id"].get<std::string>());
    CHECK(to_string(a.val_id, true) == row["val_id"].get<std::string>());
    CHECK(to_string(a.src_layout_bits, true) == row["src"].get<std::string>());
    CHECK(to_string(a.dst_layout_bits, true) == row["dst"].get<std::string>());
    CHECK(to_string(a.ref_layout_bits, true) == row["ref"].get<std::string>());
  }
}

TEST_CASE("utccp: the 12 UTCCP operations, and bad input") {
  CHECK(utccp_copy_ops().size() == 12);
  CHECK(is_utccp_op("SM100_UTCCP_4x32dp128bit_2cta"));
  CHECK_FALSE(is_utccp_op("SM100_UTCCP_4x32dp128bit_3cta"));
  const CopyAtom op = utccp_copy_atom("SM100_UTCCP_4x32dp128bit_1cta", ValueType{"uint8_t", 8});
  CHECK(op.val_layout_src == recast_layout(op.src_layout_bits, 1, 8));
  CHECK_THROWS_WITH_AS(utccp_copy_atom("SM100_UTCCP_8dp_1cta", ValueType{"uint8_t", 8}),
                       doctest::Contains("unknown UTCCP"), Error);
  CHECK(op.ptx.find("tcgen05.cp.cta_group::1.32x128b.warpx4") == 0);
  CHECK_THROWS_WITH_AS(tmem_sf_layout(Layout(tup(128, 4), tup(1, 128))), doctest::Contains("MMA-SF partitioned"),
                       Error);
  CHECK_THROWS_WITH_AS(
      make_utccp_copy(make_copy_atom("SM100_TMEM_LOAD_32dp32b8x", ValueType{"float", 32}), Layout(128, 1)),
      doctest::Contains("not a UTCCP copy"), Error);
}
