// CUTLASS's block-scaled scale-factor configs against real CUTLASS.
//  - tests/data/blockscaled_oracle.jsonl: what a host-only program built against CUTLASS
//    (commit 7107b05, g++ 12) printed for each `expr` evaluated as C++ (bare integers are C++ ints:
//    dynamic): Sm1xxBlockScaledConfig<16/32> and Sm103BlockScaledConfig<16/32> tile_atom_to_shape_SFA/SFB
//    over 3- and 4-mode problem shapes (L > 1, N = 192, shapes that are not multiples of 128),
//    deduce_layoutSFA/SFB/SFD, the output config (K- and MN-major), the tensor config, and
//    deduce_smem_layoutSFA/SFB for MXF8F6F4, MXF4 and NVF4 UMMAs (1 and 2 SMs, N = 192 padded to 256).
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "atoms/blockscaled.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "lib/lang/expr.hpp"
#include "tests/atoms/copy_support.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

std::vector<json> oracle_rows() {
  std::vector<json> out;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/blockscaled_oracle.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

Value eval_cpp(const std::string& text) {
  std::vector<Warning> w;
  return evaluate_expression(text, w, Literals::kDynamic, test::cpp_atom_registry());
}

}  // namespace

TEST_CASE("blockscaled: every config function equals CUTLASS's (blockscaled_oracle.jsonl)") {
  auto all = oracle_rows();
  REQUIRE(all.size() == 81);
  int smem = 0, padded = 0;
  for (const auto& row : all) {
    const std::string expr = row["expr"];
    CAPTURE(expr);
    const Layout got = eval_cpp(expr).to_layout();
    const std::string want = row["layout"];
    CHECK(to_string(got, true) == want);  // the same text: shape, stride and static-ness
    // and the same function (the text could hide nothing, but say so for the smem rows too)
    const Layout ref = eval_cpp(want).to_layout();
    REQUIRE(size(got) == size(ref));
    int64_t differ = 0;
    for (int64_t i = 0; i < size(ref); ++i) differ += got(i) != ref(i);
    CHECK(differ == 0);
    smem += row["kind"] == "smem";
    padded += expr.find("deduce_smem_layoutSFB") != std::string::npos && expr.find(",192,") != std::string::npos;
  }
  CHECK(smem == 12);
  CHECK(padded == 2);
}

TEST_CASE("blockscaled: N = 192 pads SFB to 256 in shared memory, SFA of a 2-SM MMA is one CTA's half") {
  const std::string mma =
      "make_tiled_mma(SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,192,UMMA::Major::K,"
      "UMMA::Major::K>{})";
  const Layout sfb = eval_cpp("cutlass::detail::Sm1xxBlockScaledConfig<32>::deduce_smem_layoutSFB(" + mma +
                              ", Shape<_128,_192,_128>{})")
                         .to_layout();
  CHECK(size(get(get(sfb, 0), 0)) == 256);  // 256 rows of scale factors for 192 columns of B
  BlockScaledConfig c;
  const Value pair = eval_cpp(
      "make_tiled_mma(SM100_MMA_MXF8F6F4_2x1SM_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,256,256,UMMA::Major::K,"
      "UMMA::Major::K>{})");
  REQUIRE(as_tiled_mma(pair) != nullptr);
  const MmaAtom pair_atom = as_tiled_mma(pair)->atom;
  const Layout sfa = deduce_smem_layout_sf(c, 'A', make_tiled_mma(pair_atom), tup(256, 256, 128));
  CHECK(size(get(get(sfa, 0), 0)) == 128);
}

TEST_CASE("blockscaled: an alias declared for the config, and bad input") {
  // `using Cfg = ...;` then Cfg::member(...): the resolver takes the alias's value
  Registry r = test::cpp_atom_registry();
  r.add("Cfg", [](Evaluator& ev, const Node&) { return ev.eval_text("cutlass::detail::Sm1xxBlockScaledConfig<16>"); });
  std::vector<Warning> w;
  const Layout sfa =
      evaluate_expression("Cfg::tile_atom_to_shape_SFA(make_shape(256,192,512,3))", w, Literals::kDynamic, r)
          .to_layout();
  CHECK(to_string(sfa, true) == "(((_32,_4),2),((_16,_4),8),(_1,3)):(((_16,_4),4096),((_0,_1),_512),(_0,8192))");
  CHECK_THROWS_WITH_AS(eval_cpp("cutlass::detail::Sm1xxBlockScaledConfig<24>::deduce_layoutSFA()"),
                       doctest::Contains("SFVecSize is 16"), Error);
  CHECK_THROWS_WITH_AS(eval_cpp("cutlass::detail::Sm1xxBlockScaledConfig<32>::tile_atom_to_shape_SFA(make_shape(1,2))"),
                       doctest::Contains("(M,N,K) or (M,N,K,L)"), Error);
  CHECK_THROWS_WITH_AS(
      eval_cpp("cutlass::detail::Sm1xxBlockScaledConfig<32>::tile_atom_to_shape_SFD(make_shape(1,2,3))"),
      doctest::Contains("has no member 'tile_atom_to_shape_SFD'"), Error);
  // MXF8F6F4's K is 32: a 16-element scale-factor vector would need two per MMA -- fine; 64 does not divide it
  CHECK_THROWS_WITH_AS(
      eval_cpp(
          "cutlass::detail::Sm1xxBlockScaledConfig<64>::deduce_smem_layoutSFA(make_tiled_mma(SM100_MMA_MXF8F6F4_SS<"
          "float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,256,UMMA::Major::K,UMMA::Major::K>{}), "
          "Shape<_128,_256,_256>{})"),
      doctest::Contains("not a multiple of SFVecSize"), Error);
}

TEST_CASE("blockscaled: what CUTLASS's sm100 builder reads off its TiledMMA and config: SFVecSize, Blk_MN, Blk_SF") {
  // TiledMma::SFVecSize is the atom's (MMA_Traits<SM100_MMA_MXF8F6F4_SS<...>>::SFVecSize = 32, MXF4 NVF4 16)
  CHECK(eval_cpp("decltype(make_tiled_mma(SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,"
                 "128,UMMA::Major::K,UMMA::Major::K>{}))::SFVecSize")
            .as_int() == 32);
  CHECK(eval_cpp("decltype(make_tiled_mma(SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,128,"
                 "16,UMMA::Major::K,UMMA::Major::K>{}))::SFVecSize")
            .as_int() == 16);
  CHECK_THROWS_WITH_AS(
      eval_cpp("decltype(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128,UMMA::Major::K,"
               "UMMA::Major::K>{}))::SFVecSize"),
      doctest::Contains("not a block-scaled MMA"), Error);
  CHECK(eval_cpp("cutlass::detail::Sm1xxBlockScaledConfig<32>::Blk_MN{} * cutlass::detail::Sm1xxBlockScaledConfig<"
                 "32>::Blk_SF{}")
            .to_cute_string() == "_512");
}

// tests/data/sf_problem_oracle.jsonl: the same host-only program (CUTLASS 4.7.0) built the collective's gmem views
// of the scale factors (sm100_blockscaled_mma_warpspecialized.hpp): layout_SFA/SFB = tile_atom_to_shape_SFA/SFB of
// a 4-mode problem (L > 1), gSFA_mkl = local_tile(mSFA, TileShape, (_,_,_), Step<_1,X,_1>) and gSFB_nkl =
// local_tile(mSFB, TileShape_SF, ..., Step<X,_1,_1>), mSFB re-viewed for N = 192 as the collective does (256-row
// SFB tiles starting in the 128-row block of the 192-column tile), over plain gmem tensors.
TEST_CASE(
    "blockscaled: a tile of a 4-mode problem reads the scale factors CUTLASS's collective tiles (L > 1, N = 192)") {
  std::vector<json> all;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/sf_problem_oracle.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) all.push_back(json::parse(line));
  REQUIRE(all.size() == 3);
  // (m,k,tile m,tile k,l) of a 5-mode gmem view: each mode at its own coordinate
  auto at = [](const Layout& g, int64_t a, int64_t b, int64_t c, int64_t d, int64_t e) {
    return get(g, 0)(a) + get(g, 1)(b) + get(g, 2)(c) + get(g, 3)(d) + get(g, 4)(e);
  };
  const std::vector<std::vector<std::vector<int64_t>>> coords = {
      {{0, 0, 0, 0}, {1, 1, 1, 2}, {0, 1, 0, 1}},  // 256x512x256x3, tile 128x256x128
      {{0, 1, 0, 1}, {1, 2, 1, 0}, {1, 3, 1, 1}},  // 256x768x512x2, tile 128x192x256: odd and even n tiles
      {{0, 1, 0, 0}, {0, 2, 0, 0}},                // 128x576x256, 3 tiles of 192 over 5 blocks of 128 SFB rows
  };
  int odd = 0;
  for (size_t r = 0; r < all.size(); ++r) {
    const json& row = all[r];
    const std::string mma_text = "make_tiled_mma(" + row["mma"].get<std::string>() + "{})";
    CAPTURE(mma_text);
    const TiledMma mma = *as_tiled_mma(eval_cpp(mma_text));
    const IntTuple tile =
        tup(row["tile"][0].get<int64_t>(), row["tile"][1].get<int64_t>(), row["tile"][2].get<int64_t>());
    const std::string p = row["problem"];
    std::vector<IntTuple> dims;
    for (size_t a = 0, b; a < p.size(); a = b + 1) {
      b = p.find('x', a);
      if (b == std::string::npos) b = p.size();
      dims.push_back(IntTuple::dynamic(std::stoll(p.substr(a, b - a))));
    }
    const IntTuple problem = IntTuple::tuple(dims);
    const Layout ga = eval_cpp(row["g_sfa_mkl"].get<std::string>()).to_layout();
    const Layout gb = eval_cpp(row["g_sfb_nkl"].get<std::string>()).to_layout();
    for (const auto& c : coords[r]) {
      CAPTURE(c[1]);
      const ScaleFactorMap s = scale_factor_map(mma, tile, problem, c);
      CHECK(to_string(s.gmem_sfa, true) == row["layout_sfa"].get<std::string>());
      CHECK(to_string(s.gmem_sfb, true) == row["layout_sfb"].get<std::string>());
      int64_t differ = 0;
      for (int64_t k = 0; k < s.k; ++k)
        for (int64_t m = 0; m < s.m; ++m) differ += s.gmem_a[m + s.m * k] != at(ga, m, k, c[0], c[2], c[3]);
      // the collective's MMA reads an odd N = 192 tile's SFB from tCtSFB + 2 columns: rows 64.. of its 256
      const int64_t shift = s.n == 192 && c[1] % 2 == 1 ? 64 : 0;
      CHECK(s.sfb_row_shift == shift);
      odd += shift != 0;
      for (int64_t k = 0; k < s.k; ++k)
        for (int64_t n = 0; n < s.n; ++n) differ += s.gmem_b[n + s.n * k] != at(gb, n + shift, k, c[1], c[2], c[3]);
      CHECK(differ == 0);
      if (shift) CHECK(s.tmem_b[0].column == s.tmem_cols_a + 2);  // B's row 0 is the SFB tile's row 64
    }
  }
  CHECK(odd == 3);
  const TiledMma mx = *as_tiled_mma(eval_cpp(
      "make_tiled_mma(SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,256,UMMA::Major::K,"
      "UMMA::Major::K>{})"));
  CHECK_THROWS_WITH_AS(scale_factor_map(mx, tup(128, 256, 128), tup(256, 256, 256, 2), {2, 0, 0, 0}),
                       doctest::Contains("reaches past the problem"), Error);
  CHECK_THROWS_WITH_AS(scale_factor_map(mx, tup(128, 256, 128), tup(256, 256, 256, 2), {0, 0, 0, 2}),
                       doctest::Contains("l coordinate 2"), Error);
}

// tests/data/sm120_sf_oracle.jsonl: the same program's print of MMA_Traits<SM120::BLOCKSCALED::...>::SFALayout,
// SFBLayout and SFVecSize for the three SM120 block-scaled mma.sync shapes (16x8x32 VS 32, 16x8x64 VS 16 and 32).
TEST_CASE("blockscaled: SM120 block-scaled mma.sync atoms' SF register layouts equal CuTe's (sm120_sf_oracle.jsonl)") {
  std::vector<json> all;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/sm120_sf_oracle.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) all.push_back(json::parse(line));
  REQUIRE(all.size() == 5);
  for (const auto& row : all) {
    const std::string name = row["name"];
    CAPTURE(name);
    const MmaAtom atom = find_mma_atom(name);
    CHECK(atom.sf_vec_size == row["sf_vec_size"].get<int>());
    CHECK(to_string(atom.layout_sfa, true) == row["sfa"].get<std::string>());
    CHECK(to_string(atom.layout_sfb, true) == row["sfb"].get<std::string>());
    // thread t's SFA is row 8*(t%2) + t/4 at every k; its SFB row t/4
    for (int64_t t = 0; t < 32; ++t) {
      CHECK(atom.layout_sfa(t) % 16 == 8 * (t % 2) + t / 4);
      CHECK(atom.layout_sfb(t) % 8 == t / 4);
    }
  }
}
