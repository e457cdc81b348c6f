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
    if (expr.find("::deduce_layoutSF") != std::string::npos) {  // extents 0: named, not drawn
      CHECK_THROWS_WITH_AS(eval_cpp(expr), doctest::Contains("tile_atom_to_shape_SF"), Error);
      continue;
    }
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
