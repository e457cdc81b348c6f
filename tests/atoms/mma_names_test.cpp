// Atom names: every accepted spelling decodes to the same atom; a bad name is an Error
// that says what is wrong and suggests the nearest valid names; names in expressions.
#include <doctest/doctest.h>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "tests/atoms/mma_support.hpp"

using namespace cutevis;
using namespace cutevis::test;

namespace {

std::string error_of(const std::string& name) {
  try {
    find_mma_atom(name);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string eval_error(const std::string& text) {
  try {
    evaluate_expression(text, mma_registry());
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("names: all spellings of an atom decode to it") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> spellings = {
      {"SM80_16x8x16_F32F16F16F32_TN",
       {"SM80_16x8x16_F32F16F16F32_TN{}", "cute::SM80_16x8x16_F32F16F16F32_TN",
        "MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>", "cute::MMA_Atom<cute::SM80_16x8x16_F32F16F16F32_TN>{}",
        "MMA_Atom<MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>>", " SM80_16x8x16_F32F16F16F32_TN ( ) "}},
      {"SM90_64x128x16_F32F16F16_SS<K,MN>",
       {"SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>",
        "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::MN>{}",
        "SM90::GMMA::MMA_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>",
        "cute::SM90::GMMA::MMA_64x128x16_F32F16F16_SS<cute::GMMA::Major::K,cute::GMMA::Major::MN>",
        "MMA_Atom<SM90_64x128x16_F32F16F16_SS<K,MN>>", "SM90_64x128x16_F32F16F16_SS<Major::K,Major::MN>",
        "SM90_64x128x16_F32F16F16_SS<K,MN,GMMA::ScaleIn::One,GMMA::ScaleIn::One>"}},
      {"SM90_64x128x16_F32F16F16_SS<K,K>",
       {"SM90_64x128x16_F32F16F16_SS", "SM90_64x128x16_F32F16F16_SS{}",
        "MMA_Atom<SM90::GMMA::MMA_64x128x16_F32F16F16_SS<>>"}},
      {"SM90_64x64x32_F32E4M3E4M3_SS_TN",
       {"SM90_64x64x32_F32E4M3E4M3_SS_TN<>", "SM90_64x64x32_F32E4M3E4M3_SS_TN<>{}",
        "SM90::GMMA::MMA_64x64x32_F32E4M3E4M3_SS_TN<>"}},
      {"SM90_64x64x32_S32S8S8_RS_TN_SATURATE",
       {"SM90::GMMA::MMA_64x64x32_S32S8S8_RS_TN_SATURATE", "cute::SM90_64x64x32_S32S8S8_RS_TN_SATURATE{}"}},
      {"SM90_16x8x8_F64F64F64F64_TN",
       {"SM90::MMA_16x8x8_F64F64F64F64_TN", "MMA_Atom<SM90::MMA_16x8x8_F64F64F64F64_TN>{}"}},
      {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,MN>",
       {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::MN>",
        "SM100_MMA_F16BF16_SS<cutlass::half_t, cutlass::half_t, float, _128, Int<256>{}, UMMA::Major::K, "
        "UMMA::Major::MN>{}",
        "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,MN,UMMA::ScaleIn::One,UMMA::ScaleIn::One>"}},
      {"SM120_16x8x32_TN<float_e4m3_t,float_e2m1_t,float>",
       {"SM120_16x8x32_TN<cutlass::float_e4m3_t, cutlass::float_e2m1_t, float>{}"}},
      {"SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,32>",
       {"SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,32>"}},
      {"UniversalFMA<float,float,float>",
       {"UniversalFMA<float>", "UniversalFMA<float,float,float,float>", "cute::UniversalFMA<float, float>{}"}},
      {"UniversalFMA<float,half_t,half_t>",
       {"UniversalFMA<float,half_t>", "UniversalFMA<float, cutlass::half_t, half_t, float>"}},
      {"UniversalFMA<float,half_t,half_t,double>", {"UniversalFMA<float,half_t,half_t,double>{}"}},
  };
  for (const auto& [canonical, others] : spellings) {
    MmaAtom ref = find_mma_atom(canonical);
    CHECK(ref.short_name == canonical);
    for (const auto& s : others) {
      INFO(s);
      MmaAtom a = find_mma_atom(s);
      CHECK(a.name == ref.name);
      CHECK(a.short_name == ref.short_name);
      CHECK(a.layout_c == ref.layout_c);
    }
  }
  CHECK(find_mma_atom("SM90_64x128x16_F32F16F16_SS<MN,K>").name ==
        "SM90_64x128x16_F32F16F16_SS<GMMA::Major::MN,GMMA::Major::K>");
  CHECK(find_mma_atom("SM90_64x64x16_F32F16F16_SS<K,K,GMMA::ScaleIn::Neg,GMMA::ScaleIn::One>").short_name ==
        "SM90_64x64x16_F32F16F16_SS<K,K,Neg,One>");
  CHECK(find_mma_atom("SM90_64x64x8_F32TF32TF32_SS_TN<GMMA::ScaleIn::One,GMMA::ScaleIn::Neg>").scale_b == "Neg");
  // UMMA's optional ScaleIn / Saturate arguments: kept in both spellings, which round-trip.
  MmaAtom ts = find_mma_atom(
      "SM100_MMA_F16BF16_TS<half_t,half_t,float,128,128,K,K,UMMA::ScaleIn::Neg,UMMA::ScaleIn::One,UMMA::Saturate::"
      "True>");
  CHECK(ts.short_name == "SM100_MMA_F16BF16_TS<half_t,half_t,float,128,128,K,K,Neg,One,Saturate::True>");
  CHECK(ts.saturate);
  CHECK(find_mma_atom(ts.short_name).name == ts.name);
  CHECK(find_mma_atom("SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,128,K,K,UMMA::Saturate::True>").saturate);
  CHECK_THROWS_AS(
      find_mma_atom("SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,128,K,K,UMMA::ScaleIn::Neg,UMMA::ScaleIn::One>"), Error);
  CHECK_THROWS_AS(find_mma_atom("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128,K,K,UMMA::Saturate::True>"), Error);
}

TEST_CASE("names: bad names say what is wrong and suggest the nearest valid names") {
  struct Case {
    std::string name, reason, suggestion;
  };
  const std::vector<Case> cases = {
      {"SM90_64x7x16_F32F16F16_SS<K,K>", "N=7 is not a GMMA N", "SM90_64x8x16_F32F16F16_SS<K,K>"},
      {"SM90_64x40x32_S32S8S8_SS_TN", "N=40 is not a GMMA N", "SM90_64x48x32_S32S8S8_SS_TN"},
      {"SM90_64x64x16_F32F16F16_SS_TN", "majors as template arguments", "SM90_64x64x16_F32F16F16_SS<K,K>"},
      {"SM90_64x64x32_F32E4M3E4M3_SS", "K-major only (_TN)", "SM90_64x64x32_F32E4M3E4M3_SS_TN"},
      {"SM90_64x64x8_F32TF32TF32_SS<MN,K>", "K-major only", "SM90_64x64x8_F32TF32TF32_SS_TN"},
      {"SM90_64x64x8_F32TF32TF32_SS_TN<MN,K>", "K-major only", "SM90_64x64x8_F32TF32TF32_SS_TN"},
      {"SM90_64x64x16_F32F16F16_RS<MN,K>", "must be K-major", "SM90_64x64x16_F32F16F16_RS<K,K>"},
      {"SM90_64x64x32_F32F16F16_SS<K,K>", "K=16", "SM90_64x64x16_F32F16F16_SS<K,K>"},
      {"SM90_64x64x16_F32F16BF16_SS<K,K>", "GMMA has no F32F16BF16", "SM90_64x64x16_F32BF16BF16_SS<K,K>"},
      {"SM80_16x8x16_F32F16F16F16_TN", "takes F16F16F16F16, F32F16F16F32", "SM80_16x8x16_F32F16F16F32_TN"},
      {"SM80_16x8x16_F32F16F16F32", "expected SM80_", "SM80_16x8x16_F32F16F16F32_TN"},
      {"SM80_16x8x12_F32F16F16F32_TN", "no 16x8x12", "SM80_16x8x16_F32F16F16F32_TN"},
      {"SM80_16x8x16_S32S8S8S32_TN_SATURATED", "must end in _TN or _TN_SATURATE",
       "SM80_16x8x16_S32S8S8S32_TN_SATURATE"},
      {"SM70_8x8x4_F32F16F16F32_NX", "_TN, _NT, _NN or _TT", "SM70_8x8x4_F32F16F16F32_NT"},
      {"SM81_16x8x16_F32F16F16F32_TN", "unknown MMA atom", "SM80_16x8x16_F32F16F16F32_TN"},
      {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,100,K,K>", "N is a multiple of 8",
       "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,104,K,K>"},
      {"SM100_MMA_F16BF16_SS<half_t,half_t,float,96,128,K,K>", "M is 64 or 128",
       "SM100_MMA_F16BF16_SS<half_t,half_t,float,64,128,K,K>"},
      {"SM100_MMA_F16BF16_TS<half_t,half_t,float,128,128,MN,K>", "must be K-major",
       "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128,MN,K>"},
      {"SM100_MMA_F16BF16_SS<half_t,bfloat16_t,float,128,128,K,K>", "both half_t or both bfloat16_t",
       "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128,K,K>"},
      {"SM120_16x8x32_TN<half_t,half_t,float>", "float_e2m1_t", "SM120_16x8x32_TN<float_e2m1_t,float_e2m1_t,float>"},
      {"SM61_DP8A", "SM61_DP4A and SM61_DP2A", "SM61_DP4A"},
      {"UniversalFMA<flaot>", "unknown element type flaot", "UniversalFMA<float,float,float>"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    std::string e = error_of(c.name);
    CHECK(contains(e, c.reason));
    CHECK(contains(e, "did you mean"));
    CHECK(contains(e, c.suggestion));
    CHECK(e.find('\n') == std::string::npos);  // one line
  }
}

TEST_CASE("names: CuTe's inconsistent b1 16x8x128 traits are refused and we say why") {
  // MMA_Traits<SM80_16x8x128_S32U1U1S32_TN_{XOR,AND}POPC> pair ALayout shape ((4,8),(32,2))
  // with stride ((512,1),((16,8))): no CuTe program can build them, so neither do we.
  for (const char* name : {"SM80_16x8x128_S32U1U1S32_TN_XORPOPC", "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC"}) {
    INFO(name);
    std::string e = error_of(name);
    CHECK(contains(e, "inconsistent"));
    CHECK(contains(e, "SM80_16x8x256_S32U1U1S32_TN_"));
    auto names = mma_atom_names();
    CHECK(std::find(names.begin(), names.end(), name) == names.end());
  }
  // Their neighbours are fine.
  CHECK(find_mma_atom("SM80_16x8x256_S32U1U1S32_TN_ANDPOPC").ptx ==
        "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc");
}

TEST_CASE("names: what looks like an MMA atom") {
  for (const char* yes : {"SM80_16x8x16_F32F16F16F32_TN", "SM90_64x7x16_X", "SM100_MMA_WHATEVER", "UniversalFMA<float>",
                          "MMA_Atom<Foo>", "SM61_DP4A", "SM90::GMMA::MMA_64x8x16_F16F16F16_SS<K,K>"})
    CHECK_MESSAGE(looks_like_mma_atom(yes), yes);
  for (const char* no : {"SM75_U32x4_LDSM_N", "SM90_TMA_LOAD", "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
                         "SM100_TMEM_LOAD_32dp32b1x", "make_layout", "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", "half_t"})
    CHECK_MESSAGE(!looks_like_mma_atom(no), no);
}

TEST_CASE("names: atoms and TiledMMAs in expressions") {
  Value a = evaluate_expression("MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}", mma_registry());
  REQUIRE(as_mma_atom(a) != nullptr);
  CHECK(a.kind_name() == "mma_atom");
  CHECK(as_mma_atom(a)->name == "SM80_16x8x16_F32F16F16F32_TN");
  CHECK(a.to_string() == to_string(*as_mma_atom(a)));
  CHECK(as_tiled_mma(a) == nullptr);

  Value g = evaluate_expression("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>{}", mma_registry());
  REQUIRE(as_mma_atom(g) != nullptr);
  CHECK(as_mma_atom(g)->major_b == "MN");

  Value t = evaluate_expression(
      "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})", mma_registry());
  REQUIRE(as_tiled_mma(t) != nullptr);
  CHECK(t.kind_name() == "tiled_mma");
  CHECK(as_tiled_mma(t)->num_threads == 128);
  CHECK(to_string(as_tiled_mma(t)->permutation) != "");

  // An atom value passed on, a shape as the atom layout, TiledMMA<...>{} spelling.
  Value t2 = evaluate_expression(
      "make_tiled_mma(MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}, make_shape(2,2,1), make_tile(32,32,16))",
      mma_registry());
  Value t3 = evaluate_expression(
      "TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>{}", mma_registry());
  REQUIRE(as_tiled_mma(t2) != nullptr);
  REQUIRE(as_tiled_mma(t3) != nullptr);
  for (const Value* v : {&t2, &t3}) {
    CHECK(as_tiled_mma(*v)->tv_layout_a == as_tiled_mma(t)->tv_layout_a);
    CHECK(as_tiled_mma(*v)->tv_layout_c == as_tiled_mma(t)->tv_layout_c);
  }
}

TEST_CASE("names: misuse in expressions is a clear one-line error with a position") {
  struct Case {
    std::string text, message;
  };
  const std::vector<Case> cases = {
      {"make_tiled_mma(Layout<Shape<_2,_2,_1>>{})", "the first argument is an MMA atom"},
      {"make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, SM80_16x8x16_F32F16F16F32_TN{})",
       "got MMA atom SM80_16x8x16_F32F16F16F32_TN"},
      {"make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, SM80_16x8x8_F16F16F16F16_TN{})",
       "the permutation is a tuple"},
      {"make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1,_2>>{})", "at most three modes"},
      {"make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16,_4>{})",
       "more than three modes"},
      {"make_tiled_mma()", "make_tiled_mma takes 1 to 3 arguments"},
      {"SM90_64x7x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}", "N=7 is not a GMMA N"},
      {"SM80_16x8x16_F32F16F16F32_TN{4}", "no constructor arguments"},
      {"size(SM80_16x8x16_F32F16F16F32_TN{})", "got MMA atom SM80_16x8x16_F32F16F16F32_TN"},
      {"logical_divide((8,8):(1,8), make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}))",
       "got TiledMMA of SM80_16x8x16_F32F16F16F32_TN"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    std::string e = eval_error(c.text);
    CHECK(contains(e, c.message));
    CHECK(e.find('\n') == std::string::npos);
  }
  try {
    evaluate_expression("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, SM80_16x8x16_F32F16F16F32_TN{})",
                        mma_registry());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.position() ==
          static_cast<int64_t>(
              std::string("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, ").size()));  // the second argument
  }
  // An unknown copy-like name is not claimed by the MMA resolver.
  CHECK(!contains(eval_error("SM75_U32x4_LDSM_N{}"), "MMA atom"));
}
