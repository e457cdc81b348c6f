// Sparse SM100 UMMA atoms (SM100_MMA_*_SS_SPARSE) against real CuTe: tests/data/umma_sparse_oracle.jsonl holds
// what a host-only program built against CUTLASS 4.7.0 (commit 7107b05, g++ 12) printed for 12 of them (every
// kind that has one, 1 and 2 CTAs, both majors, ScaleIn arguments): print(MMA_Atom<Op>{}), the TiledMMA's
// get_layoutA/B/C_TV and tile size -- the same fields as mma_oracle.jsonl. tests/data/umma_sm103_oracle.jsonl: the
// same for 4 SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS atoms (K = 96).
#include <doctest/doctest.h>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "tests/atoms/mma_support.hpp"

using namespace cutevis;
using namespace cutevis::test;
using nlohmann::json;

TEST_CASE("umma sparse: every _SS_SPARSE atom equals CuTe's (umma_sparse_oracle.jsonl)") {
  auto rows = read_source_jsonl("tests/data/umma_sparse_oracle.jsonl");
  REQUIRE(rows.size() == 12);
  for (const auto& row : rows) {
    const std::string name = row["name"];
    INFO(name);
    const MmaAtom atom = find_mma_atom(name);
    CHECK(atom.name == name);
    CHECK(find_mma_atom(atom.short_name).name == atom.name);
    CHECK(to_string(atom, true) == row["print_atom"].get<std::string>());
    const TiledMma m = make_tiled_mma(atom);
    CHECK(same_layout(m.tv_layout_a, row["tv_a"].get<std::string>()));
    CHECK(same_layout(m.tv_layout_b, row["tv_b"].get<std::string>()));
    CHECK(same_layout(m.tv_layout_c, row["tv_c"].get<std::string>()));
    CHECK(m.tile_mnk ==
          tup(row["tile_mnk"][0].get<int64_t>(), row["tile_mnk"][1].get<int64_t>(), row["tile_mnk"][2].get<int64_t>()));
    CHECK(atom.ptx.find("tcgen05.mma.sp.") == 0);
    CHECK(atom.asm_operands.find("tmem_e") != std::string::npos);
  }
}

TEST_CASE("umma sparse: K is the dense atom's twice; the structs' M and N rules; what is not modelled") {
  const MmaAtom dense = find_mma_atom("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>");
  const MmaAtom sparse = find_mma_atom("SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,256,K,K>");
  CHECK(sparse.shape_mnk[2].value() == 2 * dense.shape_mnk[2].value());
  // F8F6F4 sparse with M = 128 takes N in steps of 16 (M = 64: 8); the 2-SM S8 one in steps of 32
  CHECK_NOTHROW(find_mma_atom("SM100_MMA_F8F6F4_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,64,8,K,K>"));
  CHECK_THROWS_WITH_AS(find_mma_atom("SM100_MMA_F8F6F4_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,128,8,K,K>"),
                       doctest::Contains("multiple of 16"), Error);
  CHECK_THROWS_WITH_AS(find_mma_atom("SM100_MMA_S8_2x1SM_SS_SPARSE<int8_t,int8_t,int32_t,256,16,K,K>"),
                       doctest::Contains("multiple of 32"), Error);
  CHECK_THROWS_WITH_AS(find_mma_atom("SM100_MMA_MXF4NVF4_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,"
                                     "128,32,K,K>"),
                       doctest::Contains("not modelled"), Error);
  CHECK_THROWS_WITH_AS(find_mma_atom("SM100_MMA_F16BF16_TS_SPARSE<half_t,half_t,float,128,256,K,K>"),
                       doctest::Contains("expected SM100_MMA_F16BF16"), Error);
}

TEST_CASE("umma sm103: SM103_MXF4_ULTRA_*_SS_VS atoms equal CuTe's (umma_sm103_oracle.jsonl)") {
  auto rows = read_source_jsonl("tests/data/umma_sm103_oracle.jsonl");
  REQUIRE(rows.size() == 4);
  for (const auto& row : rows) {
    const std::string name = row["name"];
    INFO(name);
    const MmaAtom atom = find_mma_atom(name);
    CHECK("SM103::" + atom.name == name);  // the namespace is folded, as SM120::BLOCKSCALED:: is
    CHECK(find_mma_atom(atom.short_name).name == atom.name);
    CHECK(to_string(atom, true) == row["print_atom"].get<std::string>());
    const TiledMma m = make_tiled_mma(atom);
    CHECK(same_layout(m.tv_layout_a, row["tv_a"].get<std::string>()));
    CHECK(same_layout(m.tv_layout_b, row["tv_b"].get<std::string>()));
    CHECK(same_layout(m.tv_layout_c, row["tv_c"].get<std::string>()));
    CHECK(atom.ptx.find("kind::mxf4nvf4.block_scale.block") != std::string::npos);
    CHECK(atom.asm_template.find(atom.ptx) != std::string::npos);
  }
  CHECK_THROWS_WITH_AS(find_mma_atom("SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,"
                                     "256,32,UMMA::Major::MN,UMMA::Major::K>"),
                       doctest::Contains("transpose"), Error);
  CHECK_THROWS_WITH_AS(find_mma_atom("SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,"
                                     "256,32,UMMA::Major::K,UMMA::Major::K>"),
                       doctest::Contains("VS is 16"), Error);
  CHECK_THROWS_WITH_AS(find_mma_atom("SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,256,"
                                     "256,32,UMMA::Major::K,UMMA::Major::K>"),
                       doctest::Contains("M is 128"), Error);
}
