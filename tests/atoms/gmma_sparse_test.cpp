// SM90 2:4 structured-sparse GMMA atoms (SM90::GMMA::SPARSE::GMMA_64xNxK_..., atoms/mma_gmma.cpp) against real CuTe:
// tests/data/gmma_sparse_oracle.jsonl holds what a host-only program built against CUTLASS 4.7.0 (g++ 12) printed
// for 112 of them (MMA_Traits<Op>::Shape_MNK/ALayout/BLayout/CLayout/ELayout, sizeof_bits of ValTypeA/ValTypeE,
// ValTypeA::sparsity) and for the TiledMMA sm90_sparse_gmma_builder.inl builds in 3 configurations
// (make_tiled_mma(GMMA::ss_op_selector_sparse<...>(), AtomLayoutMNK)).
#include <doctest/doctest.h>

#include <map>

#include "atoms/mma_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_mma.hpp"
#include "tests/atoms/mma_support.hpp"

using namespace cutevis;
using namespace cutevis::test;
using nlohmann::json;

namespace {
// the MMA names and the C++ members CUTLASS reads off a TiledMma (TiledMma::ValTypeE)
Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    register_algebra(*reg);
    register_mma_names(*reg);
    register_cpp_atom_names(*reg);
    return reg;
  }();
  return *r;
}
std::string eval(const std::string& text) { return evaluate_expression(text, registry()).to_string(); }
}  // namespace

TEST_CASE("gmma sparse: 112 atoms' traits equal CuTe's, as functions and as printed (gmma_sparse_oracle.jsonl)") {
  int atoms = 0;
  for (const auto& row : read_source_jsonl("tests/data/gmma_sparse_oracle.jsonl")) {
    if (!row.contains("name")) continue;
    const std::string name = row["name"];
    INFO(name);
    ++atoms;
    const MmaAtom a = find_mma_atom(name);
    CHECK(find_mma_atom(a.short_name).name == a.name);
    CHECK(to_string(a.shape_mnk, true) == row["shape_mnk"].get<std::string>());
    CHECK(same_layout(a.layout_a, row["a"].get<std::string>()));
    CHECK(same_layout(a.layout_b, row["b"].get<std::string>()));
    CHECK(same_layout(a.layout_c, row["c"].get<std::string>()));
    CHECK(same_layout(a.layout_e, row["e"].get<std::string>()));
    CHECK(a.type_a.bits == row["bits_a"].get<int>());
    CHECK(a.type_a.name.find("sparse_elem<" + std::to_string(row["sparsity"].get<int>()) + ",") == 0);
    CHECK(a.type_e.bits == row["bits_e"].get<int>());
    CHECK(a.ptx.find("wgmma.mma_async.sp.sync.aligned.m64n") == 0);
    CHECK(a.asm_operands.find("\"r\"(e), \"n\"(int32_t(spsel))") != std::string::npos);
  }
  CHECK(atoms == 112);
}

TEST_CASE("gmma sparse: the builder's TiledMMA (ss_op_selector_sparse) equals CuTe's in 3 configurations") {
  const std::map<std::string, std::string> exprs = {
      {"f16 128x128x64 K,K cooperative",
       "make_tiled_mma(GMMA::ss_op_selector_sparse<half_t, half_t, float, Shape<_128,_128,_64>, GMMA::Major::K, "
       "GMMA::Major::K>(), Layout<Shape<_2,_1,_1>>{})"},
      {"e4m3 128x256x128 pingpong",
       "make_tiled_mma(GMMA::ss_op_selector_sparse<float_e4m3_t, float_e4m3_t, float, Shape<_128,_256,_128>>(), "
       "Layout<Shape<_1,_1,_1>>{})"},
      {"bf16 64x96x64 MN,MN",
       "make_tiled_mma(cute::GMMA::ss_op_selector_sparse<bfloat16_t, bfloat16_t, float, Shape<_64,_96,_64>, "
       "GMMA::Major::MN, GMMA::Major::MN>(), Layout<Shape<_1,_1,_1>>{})"},
  };
  int configs = 0;
  for (const auto& row : read_source_jsonl("tests/data/gmma_sparse_oracle.jsonl")) {
    if (!row.contains("builder")) continue;
    const std::string cfg = row["builder"];
    INFO(cfg);
    ++configs;
    const Value v = evaluate_expression(exprs.at(cfg), mma_registry());
    const TiledMma* m = as_tiled_mma(v);
    REQUIRE(m);
    CHECK(same_layout(m->thr_layout_vmnk, row["ThrLayoutVMNK"].get<std::string>()));
    CHECK(to_string(m->atom.shape_mnk, true) == row["Shape_MNK"].get<std::string>());
    CHECK(same_layout(m->atom.layout_a, row["ALayout"].get<std::string>()));
    CHECK(same_layout(m->atom.layout_b, row["BLayout"].get<std::string>()));
    CHECK(same_layout(m->atom.layout_c, row["CLayout"].get<std::string>()));
    CHECK(same_layout(m->atom.layout_e, row["ELayout"].get<std::string>()));
    CHECK(std::to_string(m->atom.type_a.bits) == row["sizeof_bits ValTypeA"].get<std::string>());
    CHECK(std::to_string(m->atom.type_e.bits) == row["sizeof_bits ValTypeE"].get<std::string>());
  }
  CHECK(configs == 3);
}

TEST_CASE("gmma sparse: names, K doubled, metadata members, sparse_elem in the language") {
  const MmaAtom dense = find_mma_atom("SM90_64x64x16_F32F16F16_SS<K,MN>");
  const MmaAtom sparse =
      find_mma_atom("SM90::GMMA::SPARSE::GMMA_64x64x32_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>");
  CHECK(sparse.short_name == "SM90_SPARSE_64x64x32_F32F16F16_SS<K,MN>");
  CHECK(sparse.shape_mnk[2].value() == 2 * dense.shape_mnk[2].value());
  CHECK(sparse.family == "SM90_GMMA_SPARSE");
  CHECK(dense.type_e.bits == 0);
  // SparseSel comes last, after the scales; a dense K is an error that names the sparse one
  CHECK(find_mma_atom("SM90_SPARSE_64x8x64_S32S8S8_SS_TN<GMMA::SparseSel::One>").name ==
        "SM90::GMMA::SPARSE::GMMA_64x8x64_S32S8S8_SS_TN<GMMA::SparseSel::One>");
  CHECK(find_mma_atom("SPARSE::GMMA_64x8x32_F16F16F16_SS<K,K,One,Neg,One>").short_name ==
        "SM90_SPARSE_64x8x32_F16F16F16_SS<K,K,One,Neg,One>");
  CHECK_THROWS_WITH_AS(find_mma_atom("SM90_SPARSE_64x8x16_F16F16F16_SS<K,K>"),
                       doctest::Contains("sparse GMMA has K=32"), Error);
  CHECK_THROWS_AS(find_mma_atom("SM90_SPARSE_64x8x32_F16F16F16_RS<MN,K>"), Error);  // register A is K-major
  // what CUTLASS's sparse builder reads off its TiledMma and the sparse element types
  CHECK(eval("decltype(make_tiled_mma(SM90_SPARSE_64x128x64_F32E4M3E4M3_SS_TN{}))::ValTypeE") ==
        "sparse_elem<8,uint8_t>");
  CHECK(eval("sizeof_bits_v<sparse_elem<2, half_t>>") == "8");
  CHECK(eval("is_sparse_v<sparse_elem<2, float_e4m3_t>>") == "true");
  CHECK(eval("is_sparse_v<half_t>") == "false");
  CHECK_THROWS_AS(eval("decltype(make_tiled_mma(SM90_64x128x16_F32F16F16_SS<K,K>{}))::ValTypeE"), Error);
  // the listing has every sparse atom CuTe defines: 32 N x 16/8/4 majors-and-sources per float type, 18 N x 4 integer
  size_t listed = 0;
  for (const auto& a : mma_listing()) listed += a.short_name.rfind("SM90_SPARSE_", 0) == 0;
  CHECK(listed == 32 * 6 * 3 + 32 * 2 * 9 + 18 * 4 * 4);
}
