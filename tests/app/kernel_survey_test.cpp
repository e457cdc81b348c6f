// Gaps found by running `cutevis names` over CUTLASS's tutorials, collectives, epilogues and
// unit tests (issue 13's survey), each on CUTLASS-style code written here (not copied).
//
// Expected values are CuTe's: a host-only program built against CUTLASS 4 made the same
// declarations (template parameters instantiated as the -D below give them) and printed each
// with cute::print; its output is copied here as it printed (eval --json's "cute" field is
// CuTe's print).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = "/tmp/cutevis_survey_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// CuTe's print of `expr` evaluated with the names of `file` and `defines`.
std::string cute_print(const std::string& file, const std::vector<std::string>& defines, const std::string& expr) {
  std::vector<std::string> args{"eval", "--json", "--from", file};
  for (const auto& d : defines) args.insert(args.end(), {"-D", d});
  args.push_back(expr);
  auto r = test::run_cutevis(args);
  CAPTURE(expr);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  return j.contains("cute") ? j["cute"].get<std::string>() : j["text"].get<std::string>();
}

json names_of(const std::string& file, const std::vector<std::string>& defines = {}) {
  std::vector<std::string> args{"names", "--json", "--from", file};
  for (const auto& d : defines) args.insert(args.end(), {"-D", d});
  auto r = test::run_cutevis(args);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out)["names"];
}

json entry(const json& names, const std::string& name) {
  for (const auto& n : names)
    if (n["name"] == name) return n;
  FAIL("no declaration " << name);
  return {};
}

// Two overloads of a host function, as the sgemm tutorials write them: a half_t one and a
// template one, and a main() whose variables have the parameters' names.
const char* const kTutorial = R"(
template <class Alpha> void gemm_nt(int m, Alpha alpha) {
  auto M = int(m);
  auto bM = Int<128>{};
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{}, Tile<_32,_32,_16>{});
}
template <class TA, class TB, class TC> void gemm_nt(int m, TA const* A) {
  auto M = int(m);                      // m: this overload's parameter, not main's
  auto bM = Int<128>{};
  auto bK = Int<8>{};
  auto sA = make_layout(make_shape(bM, bK, Int<3>{}));
  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, TA>{},
                                    Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});
  TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<TB>, TB>{},
                                    Layout<Shape<_32,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{});
  TiledMMA mmaC = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<_16,_16,_1>>{});
}
int main() {
  int m = 5120;
  using TA = cute::half_t;
}
)";

}  // namespace

TEST_CASE("survey: a second overload's parameters shadow other functions' variables; f#2::x names them") {
  std::string f = write_temp("tutorial.cu", kTutorial);
  json n = names_of(f);
  // before: gemm_nt#2::M took main's `int m = 5120` (the parameters were recorded for gemm_nt only)
  CHECK(entry(n, "gemm_nt#2::M")["kind"] == "unresolved");
  CHECK(entry(n, "gemm_nt#2::M")["needs"] == json::array({"m"}));
  CHECK(entry(n, "gemm_nt#2::copyA")["needs"] == json::array({"TA"}));  // not main's TA
  CHECK(entry(n, "gemm_nt::M")["needs"] == json::array({"m"}));
  CHECK(cute_print(f, {}, "gemm_nt#2::sA") == "(_128,_8,_3):(_1,_128,_1024)");
  std::remove(f.c_str());
}

TEST_CASE("survey: an atom's template arguments may be the kernel's parameters (UniversalFMA<TC,TA,TB>)") {
  std::string f = write_temp("atoms.cu", kTutorial);
  const std::vector<std::string> d{"TA=float", "TB=float", "TC=float"};
  CHECK(cute_print(f, d, "get_layoutA_TV(gemm_nt#2::mmaC)") == "((_16,_16),(_1,(_1,_1))):((_1,_0),(_0,(_0,_0)))");
  CHECK(cute_print(f, d, "get_layoutB_TV(gemm_nt#2::mmaC)") == "((_16,_16),(_1,(_1,_1))):((_0,_1),(_0,(_0,_0)))");
  CHECK(cute_print(f, d, "get_layoutC_TV(gemm_nt#2::mmaC)") == "(_256,(_1,(_1,_1))):(_1,(_0,(_0,_0)))");
  CHECK(cute_print(f, d, "typename decltype(gemm_nt#2::copyA)::TiledLayout_TV{}") == "(_256,_4):(_4,_1)");
  CHECK(cute_print(f, d, "typename decltype(gemm_nt#2::copyA)::Tiler_MN{}") == "(_128,_8)");
  CHECK(cute_print(f, d, "typename decltype(gemm_nt#2::copyB)::TiledLayout_TV{}") == "((_8,_32),_1):((_32,_1),_0)");
  CHECK(cute_print(f, d, "typename decltype(gemm_nt#2::copyB)::Tiler_MN{}") == "(_32,_8)");
  // without the -D the atom names the parameter it needs
  json n = names_of(f);
  CHECK(entry(n, "gemm_nt#2::mmaC")["needs"] == json::array({"TC", "TA", "TB"}));
  CHECK(entry(n, "gemm_nt#2::copyB")["error"] == "unknown name 'TB'");
  std::remove(f.c_str());
}

TEST_CASE("survey: SM100 UMMA atoms with TypeA/TypeB/TypeC parameters, and the smem layouts built from them") {
  std::string f = write_temp("sm100.cu", R"(
template <class TypeA, class TypeB, class TypeC>
void host() {
  TiledMMA tiled_mma = make_tiled_mma(SM100_MMA_F16BF16_SS<TypeA, TypeB, TypeC, 128, 256,
                                                           UMMA::Major::K, UMMA::Major::K>{});
  auto mma_tiler = make_shape(tile_size<0>(tiled_mma), tile_size<1>(tiled_mma), tile_size<2>(tiled_mma) * Int<4>{});
  auto mma_shape_B = partition_shape_B(tiled_mma, make_shape(size<1>(mma_tiler), size<2>(mma_tiler)));
  auto sB_layout = UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<TypeB>{}, mma_shape_B);
}
)");
  const std::vector<std::string> d{"TypeA=half_t", "TypeB=half_t", "TypeC=float"};
  CHECK(cute_print(f, d, "get_layoutB_TV(tiled_mma)") == "(_1,((_256,_16),(_1,_1))):(_0,((_1,_256),(_0,_0)))");
  CHECK(cute_print(f, d, "sB_layout") == "Sw<3,4,3> o smem_ptr[16b](unset) o ((_256,_16),_1,_4):((_64,_1),_0,_16)");
  json n = names_of(f);
  CHECK(entry(n, "host::tiled_mma")["needs"] == json::array({"TypeA", "TypeB", "TypeC"}));  // not UMMA::Major::K
  std::remove(f.c_str());
}

TEST_CASE("survey: a copy operation's alias in Copy_Atom<CopyOp, T> (epilogue style)") {
  std::string f = write_temp("epilogue.hpp", R"(
template <class CopyOpR2S_>
struct Epilogue {
  using CopyOpR2S = CopyOpR2S_;
  using TiledMma = decltype(make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}));
  using TiledCopyR2S = decltype(make_tiled_copy_C(Copy_Atom<CopyOpR2S, half_t>{}, TiledMma{}));
};
using LdsmOp = SM75_U32x4_LDSM_N;
)");
  CHECK(cute_print(f, {"CopyOpR2S_=SM90_U32x4_STSM_N"}, "typename Epilogue::TiledCopyR2S::TiledLayout_TV{}") ==
        "((_4,_8,_4),((_2,_2,_16),(_1,_1))):((_128,_1,_16),((_64,_8,_512),(_0,_0)))");
  CHECK(cute_print(f, {"CopyOpR2S_=SM90_U32x4_STSM_N"}, "typename Epilogue::TiledCopyR2S::Tiler_MN{}") == "(_64,_128)");
  json n = names_of(f);
  CHECK(entry(n, "LdsmOp")["kind"] == "copy_op");  // before: "a copy atom also names its value type" (unresolved)
  CHECK(entry(n, "LdsmOp")["value"] == "SM75_U32x4_LDSM_N");
  CHECK(entry(n, "Epilogue::TiledCopyR2S")["needs"] == json::array({"CopyOpR2S_"}));
  std::remove(f.c_str());
}

TEST_CASE("survey: member types of a TiledMMA type (typename TiledMma::ThrLayoutVMNK, AtomLayoutB_TV, ...)") {
  std::string f = write_temp("collective.hpp", R"(
template <class TiledMma_, class TileShape_>
struct CollectiveMma {
  using TiledMma = TiledMma_;
  using TileShape = TileShape_;
  using AtomThrShapeMNK = Shape<decltype(shape<0>(typename TiledMma::ThrLayoutVMNK{})), _1, _1>;
  using CtaShape_MNK = decltype(shape_div(TileShape{}, AtomThrShapeMNK{}));
  using ThrID = typename TiledMma::AtomThrID;
};
void test() {
  auto tiled_mma = make_tiled_mma(SM70_8x8x4_F16F16F16F16_TN{}, Layout<Shape<_4,_4,_1>>{});
  auto b_atom_layout = typename decltype(tiled_mma)::AtomLayoutB_TV{};
}
)");
  const std::vector<std::string> d{
      "TiledMma_=decltype(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::"
      "K>{}))",
      "TileShape_=Shape<_128,_256,_64>"};
  CHECK(cute_print(f, d, "CollectiveMma::AtomThrShapeMNK{}") == "(_1,_1,_1)");
  CHECK(cute_print(f, d, "CollectiveMma::CtaShape_MNK{}") == "(_128,_256,_64)");
  CHECK(cute_print(f, d, "CollectiveMma::ThrID{}") == "_1:_0");
  CHECK(cute_print(f, {}, "b_atom_layout") == "(_8,_4):(_1,_8)");
  json n = names_of(f);
  CHECK(entry(n, "CollectiveMma::AtomThrShapeMNK")["needs"] ==
        json::array({"TiledMma_"}));  // the parameter, not TiledMma::...
  std::remove(f.c_str());
}

TEST_CASE("survey: CuTe's negative constants _m1, _m2 (core unit tests)") {
  std::string f = write_temp("negative.cpp", R"(
void test() {
  auto a = make_layout(Shape<_4,_3>{}, Stride<_3,_m1>{});
  auto ab = composition(a, Layout<Shape<_12>>{});
  auto m = make_layout(_4{}, _m1{});
}
)");
  CHECK(cute_print(f, {}, "a") == "(_4,_3):(_3,_-1)");
  CHECK(cute_print(f, {}, "ab") == "((_4,_3)):((_3,_-1))");
  CHECK(cute_print(f, {}, "m") == "_4:_-1");  // _m1{} as a value, as _4{}
  std::remove(f.c_str());
}

TEST_CASE("survey: group<B,E> of a swizzled smem layout (the SM100 epilogue tutorial's sC_layout)") {
  std::string f = write_temp("epi_smem.cu", R"(
template <class TypeC>
void host() {
  auto sC_layout_mn = tile_to_shape(UMMA::Layout_K_SW128_Atom<TypeC>{}, make_shape(Int<128>{}, Int<64>{}));
  auto sC_layout = group<0,2>(sC_layout_mn);
}
)");
  CHECK(cute_print(f, {"TypeC=float"}, "sC_layout") ==
        "Sw<3,4,3> o smem_ptr[32b](unset) o (((_8,_16),(_32,_2))):(((_32,_256),(_1,_4096)))");  // rank 1: both modes
  CHECK(cute_print(f, {}, "group<1,3>(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_8,_4>>{}))") ==
        "Sw<3,3,3> o _0 o (_8,(_8,_4)):(_1,(_8,_64))");
  std::remove(f.c_str());
}

TEST_CASE("survey: a data member (args.dA) is named as a run-time value, with the -D way out; blockIdx.x reads as 0") {
  std::string f = write_temp("kernel.cu", R"(
__global__ void kernel(Params params) {
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);
  auto dA = params.dA;
}
)");
  json n = names_of(f);
  CHECK(entry(n, "kernel::dA")["error"].get<std::string>().find("'params.dA' reads a data member") == 0);
  // blockIdx: CTA 0 unless -D blockIdx.x=N, said in the value
  CHECK(entry(n, "kernel::cta_coord")["value"].get<std::string>().rfind(
            "(0,0,_)\n  blockIdx.x is a run-time value: read as 0 (-D blockIdx.x=N for another CTA's)", 0) == 0);
  std::remove(f.c_str());
}

TEST_CASE("survey: a pointer that is a data member is only named: make_smem_ptr(smem.A.begin()) (the tutorials)") {
  std::string f = write_temp("smem_member.cu", R"(
template <class ASmemLayout>
__global__ void kernel(ASmemLayout sA_layout) {
  Tensor sA = make_tensor(make_smem_ptr(smem.A.begin()), sA_layout);
  auto stages = size<2>(sA);
  auto bad = size(smem.A) + 1;
}
)");
  json n = names_of(f, {"sA_layout=Layout<Shape<_64,_32,_3>>"});
  CHECK(entry(n, "kernel::sA")["value"] == "smem_ptr[?b](smem.A.begin()) o (_64,_32,_3):(_1,_64,_2048)");
  CHECK(entry(n, "kernel::stages")["value"] == "3");
  // a data member's value is still a run-time value, where it is evaluated
  CHECK(entry(n, "kernel::bad")["error"].get<std::string>().find("'smem.A' reads a data member") == 0);
  std::remove(f.c_str());
}

TEST_CASE("survey: not/and/or, is_void_v and void, static_cast<size_t> (CUTLASS's epilogue collectives)") {
  std::string f = write_temp("epi_flags.hpp", R"(
template <class ElementC, bool ReuseSmemC_>
struct Epi {
  constexpr static bool is_source_supported = not cute::is_void_v<ElementC>;
  constexpr static bool ReuseSmemC = ReuseSmemC_ and is_source_supported;
  using SmemLayoutC = cute::conditional_t<is_source_supported and (not ReuseSmemC),
                                          Layout<Shape<_64,_32>, Stride<_32,_1>>, Layout<_1,_0>>;
  static constexpr auto K = static_cast<size_t>(size<1>(SmemLayoutC{}));
};
)");
  // conditional_t picks as C++ does; the layouts print as CuTe prints Layout<Shape<_64,_32>, Stride<_32,_1>>{}
  CHECK(cute_print(f, {"ElementC=half_t", "ReuseSmemC_=false"}, "Epi::SmemLayoutC{}") == "(_64,_32):(_32,_1)");
  CHECK(cute_print(f, {"ElementC=half_t", "ReuseSmemC_=true"}, "Epi::SmemLayoutC{}") == "_1:_0");
  CHECK(cute_print(f, {"ElementC=void", "ReuseSmemC_=false"}, "Epi::SmemLayoutC{}") == "_1:_0");
  CHECK(entry(names_of(f, {"ElementC=half_t", "ReuseSmemC_=false"}), "Epi::K")["value"] == "32");
  std::remove(f.c_str());
}

TEST_CASE("survey: a parameter named like a CuTe function (Layout const& layout) is the parameter") {
  std::string f = write_temp("param_names.cpp", R"(
template <class Layout>
void test_coalesce(Layout const& layout) {
  auto result = coalesce(layout);
}
)");
  json n = names_of(f);  // before: "layout takes 1 argument, got 0" (CuTe's layout<I>(x))
  CHECK(entry(n, "test_coalesce::result")["needs"] == json::array({"layout"}));
  // coalesce of a compact column-major layout, as CuTe gives it
  CHECK(cute_print(f, {"layout=Layout<Shape<_2,_4>,Stride<_1,_2>>{}"}, "test_coalesce::result") == "_8:_1");
  std::remove(f.c_str());
}

TEST_CASE("survey: basis elements E<i,...> as strides (core composition test) and CUTLASS's thread counts") {
  std::string f = write_temp("basis.cpp", R"(
void test() {
  auto a = make_layout(Shape<_4,Shape<_2,_3>>{}, Stride<_6,Stride<_3,_1>>{});
  auto b = make_layout(Shape<_2,_4>{}, Stride<E<1,1>,E<0>>{});
  auto ab = composition(a, b);
  auto t = make_layout(Shape<_4,_4>{}, Stride<E<1>,E<0>>{});
  constexpr int MmaWarpGroups = 256 / NumThreadsPerWarpGroup;
}
)");
  CHECK(cute_print(f, {}, "b") == "(_2,_4):(_1@1@1,_1@0)");
  CHECK(cute_print(f, {}, "ab") == "(_2,_4):(_1,_6)");
  CHECK(cute_print(f, {}, "t") == "(_4,_4):(_1@1,_1@0)");
  CHECK(cute_print(f, {}, "composition(Layout<Shape<_4,_4>,Stride<_4,_1>>{}, t)") == "(_4,_4):(_1,_4)");
  CHECK(entry(names_of(f), "test::MmaWarpGroups")["value"] == "2");  // cutlass::NumThreadsPerWarpGroup is 128
  std::remove(f.c_str());
}

TEST_CASE("survey: an epilogue's smem layout by is_m_major<StrideC>(), and cosize_v") {
  std::string f = write_temp("epi_major.hpp", R"(
template <class StrideC_, class EpilogueTile_, int StagesC>
struct Epilogue {
  using StrideC = StrideC_;
  using EpilogueTile = EpilogueTile_;
  constexpr static bool is_m_major_C = detail::is_m_major<StrideC>();
  using SmemLayoutAtomC = GMMA::Layout_K_SW64_Atom<half_t>;
  using SmemLayoutC = decltype(tile_to_shape(SmemLayoutAtomC{},
      make_shape(size<0>(EpilogueTile{}), size<1>(EpilogueTile{}), Int<StagesC>{}),
      cute::conditional_t<is_m_major_C, Step<_2,_1,_3>, Step<_1,_2,_3>>{}));
  constexpr static int StageCBits = cosize_v<decltype(take<0,2>(SmemLayoutC{}))> * sizeof_bits_v<half_t>;
};
)");
  const std::vector<std::string> d{"StrideC_=Stride<int64_t,_1,int64_t>", "EpilogueTile_=Shape<_64,_32>", "StagesC=4"};
  CHECK(cute_print(f, d, "Epilogue::SmemLayoutC{}") ==
        "Sw<2,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_32,_1),(_1,_4)):((_32,_256),(_1,_0),(_0,_2048))");
  CHECK(entry(names_of(f, d), "Epilogue::is_m_major_C")["value"] == "false");  // N-major: stride 1 in mode 1
  CHECK(entry(names_of(f, d), "Epilogue::StageCBits")["value"] == "32768");    // 2048 halves
  CHECK(entry(names_of(f, {"StrideC_=Stride<_1,int64_t,int64_t>"}), "Epilogue::is_m_major_C")["value"] == "true");
  std::remove(f.c_str());
}

TEST_CASE("survey: Copy_Atom<std::conditional_t<B, OpA, OpB>, T> reads the chosen operation (FA3 style)") {
  // FA3's mainloops choose a copy operation by a condition inside Copy_Atom<...>, nested too; before, each was
  // "unknown copy operation 'std::conditional_t'" (6 definitions of FA3's hdim128 files)
  std::string f = write_temp("mainloop_cond.hpp", R"(
template <bool Has_cp_async, bool SdP_swapAB, int kNumPdSStore, class Element>
struct Mainloop {
  static constexpr GMMA::Major PdS_Major = GMMA::Major::K;
  using GmemCopyAtom = Copy_Atom<std::conditional_t<
      Has_cp_async, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<cute::uint128_t>, AutoVectorizingCopyWithAssumedAlignment<128>>,
      Element>;
  using SmemCopyAtomPdS = Copy_Atom<
      std::conditional_t<(!SdP_swapAB) ^ (PdS_Major == GMMA::Major::MN),
          std::conditional_t<kNumPdSStore % 8 == 0, cute::SM90_U32x4_STSM_N, cute::SM90_U32x2_STSM_N>,
          std::conditional_t<kNumPdSStore % 8 == 0, cute::SM90_U16x8_STSM_T, cute::SM90_U16x4_STSM_T>>,
      Element>;
  using GmemTiledCopyQKV = decltype(make_tiled_copy(GmemCopyAtom{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                                    Layout<Shape<_1, _8>>{}));
};
)");
  json n = names_of(f, {"Has_cp_async=true", "SdP_swapAB=false", "kNumPdSStore=32", "Element=cutlass::half_t"});
  // CuTe (CUTLASS 4.7.0, a host-only program with FA3's hdim128 values) prints for these:
  //   GmemCopyAtom     ThrID _1:_0, ValLayoutSrc (_1,_8):(_0,_1)  (SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>)
  //   SmemCopyAtomPdS  ThrID _32:_1, ValLayoutSrc (_32,(_2,_4)):(_2,(_1,_64)), ValLayoutDst (_32,_8):(_8,_1)
  //   GmemTiledCopyQKV Tiler_MN (_16,_64), TiledLayout_TV ((_8,_16),_8):((_128,_1),_16)
  auto op = [&](const std::vector<std::string>& d, const std::string& atom) {
    std::vector<std::string> args{"eval", "--json", "--from", f};
    for (const auto& x : d) args.insert(args.end(), {"-D", x});
    args.push_back("Mainloop::" + atom + "{}");
    auto r = test::run_cutevis(args);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out)["op"].get<std::string>();
  };
  const std::vector<std::string> fa3{"Has_cp_async=true", "SdP_swapAB=false", "kNumPdSStore=32",
                                     "Element=cutlass::half_t"};
  CHECK(op(fa3, "GmemCopyAtom") == "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>");
  const std::string gmem = entry(n, "Mainloop::GmemCopyAtom")["value"];
  CHECK(gmem.find("ValLayoutSrc: (1,8):(0,1)") != std::string::npos);
  CHECK(op(fa3, "SmemCopyAtomPdS") == "SM90_U32x4_STSM_N");
  const std::string pds = entry(n, "Mainloop::SmemCopyAtomPdS")["value"];
  CHECK(pds.find("ValLayoutSrc: (32,(2,4)):(2,(1,64))") != std::string::npos);
  CHECK(pds.find("ValLayoutDst: (32,8):(8,1)") != std::string::npos);
  const std::string tiled = entry(n, "Mainloop::GmemTiledCopyQKV")["value"];
  CHECK(tiled.find("Tiler_MN:       (16,64)") != std::string::npos);
  CHECK(tiled.find("TiledLayout_TV: ((8,16),8):((128,1),16)") != std::string::npos);
  // the other branches: only the chosen operation is read
  const std::vector<std::string> other{"Has_cp_async=false", "SdP_swapAB=true", "kNumPdSStore=4",
                                       "Element=cutlass::half_t"};
  CHECK(op(other, "GmemCopyAtom") == "AutoVectorizingCopyWithAssumedAlignment<128>");
  CHECK(op(other, "SmemCopyAtomPdS") == "SM90_U16x4_STSM_T");
  json bad = names_of(f, {"Has_cp_async=Element", "SdP_swapAB=false", "kNumPdSStore=32", "Element=cutlass::half_t"});
  CHECK(entry(bad, "Mainloop::GmemCopyAtom")["error"] ==
        "std::conditional_t<B, X, Y>: B must be a bool, got type half_t");
  std::remove(f.c_str());
}

TEST_CASE("survey: Traits::X where the -D value of Traits fails names Traits's blocker (flashinfer's Ktraits)") {
  // before: every Ktraits::X said "unknown name 'Ktraits::DTypeO'; give -D Ktraits::DTypeO=..."
  std::string f = write_temp("epilogue.cuh", R"(
template <typename Ktraits> struct CollectiveEpilogue {
  using DTypeO = typename Ktraits::DTypeO;
  static constexpr int NUM_WARPS = Ktraits::NUM_WARPS;
  using SmemLayoutO = decltype(make_layout(make_shape(Int<Ktraits::CTA_Q>{}, Int<Ktraits::HEAD_DIM>{})));
};
)");
  json bad = names_of(f, {"Ktraits=AttentionTraits<128, 64, cutlass::half_t, StandardVariant>"});
  for (const char* name :
       {"CollectiveEpilogue::DTypeO", "CollectiveEpilogue::NUM_WARPS", "CollectiveEpilogue::SmemLayoutO"}) {
    CAPTURE(name);
    const json e = entry(bad, name);
    CHECK(e["kind"] == "unresolved");
    CHECK(e["error"].get<std::string>().find("unknown name 'AttentionTraits'") != std::string::npos);
    CHECK(e["needs"] == json::array({"StandardVariant"}));  // Ktraits's own need, not -D Ktraits::DTypeO
  }
  // a -D of Traits that evaluates: its members resolve, and a missing member is named as such
  const std::string traits = write_temp("traits.cuh", R"(
struct StandardVariant {};
template <int Q, int D, class T, class V> struct AttentionTraits {
  using DTypeO = T;
  static constexpr int NUM_WARPS = 4;
  static constexpr int CTA_Q = Q;
  static constexpr int HEAD_DIM = D;
};
)");
  std::vector<std::string> args{
      "names",  "--json", "--from", traits,
      "--from", f,        "-D",     "Ktraits=AttentionTraits<128, 64, cutlass::half_t, StandardVariant>"};
  auto r = test::run_cutevis(args);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  json good = json::parse(r.out)["names"];
  CHECK(entry(good, "CollectiveEpilogue::NUM_WARPS")["value"] == "4");
  CHECK(entry(good, "CollectiveEpilogue::SmemLayoutO")["value"] == "(128,64):(1,128)");
  std::remove(f.c_str());
  std::remove(traits.c_str());
}
