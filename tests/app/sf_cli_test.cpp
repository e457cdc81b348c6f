// `cutevis mma BLOCKSCALED --sf` and UMMA template arguments given by -D, through the binary
// (the layouts themselves are checked against CUTLASS in tests/atoms/blockscaled_test.cpp).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;
using test::run_cutevis;

namespace {
const char* kMx =
    "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,256,UMMA::Major::K,UMMA::Major::K>";
}

TEST_CASE("sf cli: every A and B element names its scale factor in gmem and smem") {
  auto r = run_cutevis({"mma", kMx, "--sf", "--sf-tile", "128x256x256", "--json"});
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  CHECK(j["sf_vec_size"] == 32);
  REQUIRE(j["sf_a"].size() == 128 * 256);
  REQUIRE(j["sf_b"].size() == 256 * 256);
  // A(m=33, k=70): row 33 = 1 + 32*1 -> 16*1 + 4*1 = 20, k block 70/32 = 2 -> +2; second K block of 128 -> +512
  // in gmem (M = 128: one 512-element block per K block) and in smem (the next MMA-K group: +1 per MMA)
  CHECK(j["sf_a"][33 + 128 * 70][0] == 20 + 2);
  CHECK(j["sf_a"][33 + 128 * 200][0] == 20 + 2 + 512);  // k = 200: K block 1, SF 2
  // TMEM after UTCCP: row 33 -> lane 1 (33 % 32), column 1 (33 / 32), byte 2 (k 70 / 32); B's rows follow
  // SFA's 4 columns: n = 200 -> lane 8, column 4 + 6
  CHECK(j["sf_a"][33 + 128 * 70][2] == 1);
  CHECK(j["sf_a"][33 + 128 * 70][3] == 1);
  CHECK(j["sf_a"][33 + 128 * 70][4] == 2);
  CHECK(j["sf_a"][33 + 128 * 200][3] == 1 + 4);  // the second k-block of 128: 4 columns on
  CHECK(j["tmem_columns"][0] == 8);
  CHECK(j["sf_b"][200][2] == 8);
  CHECK(j["sf_b"][200][3] == 8 + 6);
  // B's rows 128-255 are the second 128-row block; the blocks go along K first (Step<_2,_1>): with two
  // K blocks, the next row block is 2 x 512 further in gmem
  CHECK(j["sf_b"][130][0] == j["sf_b"][2][0].get<int64_t>() + 1024);
  auto png = run_cutevis({"mma", kMx, "--sf", "--svg"});
  REQUIRE(png.exit_code == 0);
  CHECK(png.out.find("SFA in shared memory") != std::string::npos);
  CHECK(png.out.find("SFB in tensor memory") != std::string::npos);
  CHECK(run_cutevis({"mma", "SM80_16x8x16_F32F16F16F32_TN", "--sf"}).exit_code == 2);
  CHECK(run_cutevis({"mma", kMx, "--sf", "--sf-tile", "128x256"}).exit_code == 2);
}

TEST_CASE("sf cli: a tile of a 4-mode problem, and N = 192's odd tiles 64 rows into SFB") {
  const char* mx4 =
      "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,192,16,UMMA::Major::K,UMMA::Major::K>";
  auto r = run_cutevis({"mma", mx4, "--sf", "--sf-tile", "128x192x256", "--sf-problem", "256x768x512x2", "--sf-coord",
                        "1,1,1,1", "--json"});
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  CHECK(j["problem"] == "(256,768,512,2)");
  CHECK(j["sfb_row_shift"] == 64);
  // A(0,0) of tile (1,_,1,1): row 128 -> the second 128-row block (stride 4096), k 256 -> SF 16 = k block 4
  // (stride 512), l = 1 (stride 8192)
  CHECK(j["sf_a"][0][0] == 4096 + 4 * 512 + 8192);
  // B(0,0) of n tile 1: n = 192 = block 1, row 64 -> 16*0 + 4*2 = 8; l = 1 -> 24576; k block 4 -> 2048
  CHECK(j["sf_b"][0][0] == 4096 + 8 + 2048 + 24576);
  CHECK(j["sf_b"][0][3] == j["tmem_columns"][0].get<int64_t>() + 2);  // tCtSFB + 2 columns
  CHECK(run_cutevis({"mma", mx4, "--sf", "--sf-coord", "1,1"}).exit_code == 2);
  CHECK(run_cutevis(
            {"mma", mx4, "--sf", "--sf-tile", "128x192x256", "--sf-problem", "256x768x512x2", "--sf-coord", "0,4"})
            .exit_code == 2);
  CHECK(run_cutevis({"mma", mx4, "--sf", "--sf-problem", "256x768"}).exit_code == 2);
}

TEST_CASE("a 2-SM UMMA's picture says its threads are the CTAs of a pair; sparse UMMA atoms draw") {
  auto r =
      run_cutevis({"mma",
                   "make_tiled_mma(SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,128,32,UMMA::Major::K,UMMA::Major::"
                   "K>{}, Layout<Shape<_2,_1,_1>>{})",
                   "--svg"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("a thread here is a CTA") != std::string::npos);
  auto one =
      run_cutevis({"mma", "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,32,UMMA::Major::K,UMMA::Major::K>", "--svg"});
  REQUIRE(one.exit_code == 0);
  CHECK(one.out.find("a thread here is a CTA") == std::string::npos);
  auto sp = run_cutevis(
      {"mma", "SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,64,16,UMMA::Major::K,UMMA::Major::K>", "--json"});
  REQUIRE(sp.exit_code == 0);
  CHECK(sp.out.find("tcgen05.mma.sp.cta_group::1.kind::f16") != std::string::npos);
}

TEST_CASE("sf cli: an SM120 block-scaled mma.sync atom's scale-factor registers") {
  const char* a = "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,16>";
  auto r = run_cutevis({"mma", a, "--sf", "--json"});
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["sf_a"].size() == 16 * 64);
  // A(m=9, k=40): SF 9 + 16*2, byte 2 of the registers of threads 5 and 7 (8*(t%2) + t/4 = 9)
  CHECK(j["sf_a"][9 + 16 * 40][0] == 9 + 16 * 2);
  CHECK(j["sf_a"][9 + 16 * 40][1] == 2);
  CHECK(j["sf_a"][9 + 16 * 40][2] == json::array({5, 7}));
  // B(n=3, k=0): the quad of threads 12-15
  CHECK(j["sf_b"][3][2] == json::array({12, 13, 14, 15}));
  CHECK(j["sfa_registers"][5] == json::array({9, 9, 9, 9}));
  auto svg = run_cutevis({"mma", a, "--sf", "--svg"});
  REQUIRE(svg.exit_code == 0);
  CHECK(svg.out.find("each thread's SFA register") != std::string::npos);
  CHECK(run_cutevis({"mma", a, "--sf", "--sf-tile", "16x8x64"}).exit_code == 2);
}

TEST_CASE("UMMA atoms take their majors and ScaleIn arguments from -D") {
  auto r = run_cutevis({"mma", "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UmmaMajorA,UmmaMajorB,ANeg,BNeg>",
                        "-D", "UmmaMajorA=UMMA::Major::K", "-D", "UmmaMajorB=UMMA::Major::MN", "-D",
                        "ANeg=UMMA::ScaleIn::Neg", "-D", "BNeg=UMMA::ScaleIn::One", "--json"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("ScaleIn::Neg") != std::string::npos);
  CHECK(r.out.find("Major::MN") != std::string::npos);
}

TEST_CASE("a kernel file's constexpr majors and ScaleIn, and its alias of the scale-factor config") {
  const std::string path = "/tmp/cutevis_sf_kernel_" + std::to_string(::getpid()) + ".cu";
  {
    std::ofstream f(path);
    f << "constexpr UMMA::Major UmmaMajorA = UMMA::Major::K;\n"
         "static constexpr UMMA::ScaleIn ANeg = UMMA::ScaleIn::Neg;\n"
         "using MmaOp = SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UmmaMajorA,UmmaMajorA,ANeg,ANeg>;\n"
         "using Cfg = cutlass::detail::Sm1xxBlockScaledConfig<32>;\n"
         "auto sfa = Cfg::tile_atom_to_shape_SFA(make_shape(M,N,K,L));\n";
  }
  auto mma = run_cutevis({"mma", "--from", path, "MmaOp{}", "--json"});
  CHECK(mma.exit_code == 0);
  CHECK(mma.out.find("ScaleIn::Neg") != std::string::npos);
  auto sfa = run_cutevis({"eval", "--from", path, "sfa", "-D", "M=512", "-D", "N=256", "-D", "K=256", "-D", "L=2"});
  CHECK(sfa.exit_code == 0);
  CHECK(sfa.out == "(((_32,_4),4),((_32,_4),2),(_1,2)):(((_16,_4),1024),((_0,_1),_512),(_0,4096))\n");
  std::remove(path.c_str());
}
