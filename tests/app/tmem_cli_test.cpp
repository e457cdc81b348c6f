// `cutevis tmem`: an UMMA accumulator in tensor memory and the tcgen05 copy that moves it, through the
// binary (the numbers themselves are checked against CuTe in tests/analysis/tmem_map_test.cpp).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;
using test::run_cutevis;

TEST_CASE("tmem cli: text, JSON and the CuTeDSL spelling of the same copy agree") {
  auto text = run_cutevis({"tmem", "make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tCtAcc)", "--acc", "128x256"});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("lanes used: 0-127") != std::string::npos);
  CHECK(text.out.find("rule (warp w reaches lanes 32*(w%4)..+31): holds") != std::string::npos);
  auto j = run_cutevis({"tmem", "make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tCtAcc)", "--json"});
  REQUIRE(j.exit_code == 0);
  const json a = json::parse(j.out);
  CHECK(a["cells"].size() == 128 * 256);
  CHECK(a["quarter_rule"] == true);
  // (m,n) = (33,5): lane 33, column 5, thread 33 (warp 1) register 5
  CHECK(a["cells"][33 * 256 + 5] == json::array({33, 5, 33, 5, 0, 33, 5}));
  auto dsl = run_cutevis({"tmem",
                          "tcgen05.make_tmem_copy(cute.make_copy_atom(tcgen05.Ld32x32bOp(tcgen05.Repetition.x8), "
                          "cutlass.Float32), tCtAcc)",
                          "--json"});
  REQUIRE(dsl.exit_code == 0);
  CHECK(json::parse(dsl.out)["cells"] == a["cells"]);
}

TEST_CASE("tmem cli: M = 64 and a CTA pair") {
  auto half =
      run_cutevis({"tmem", "make_tmem_copy(SM100_TMEM_LOAD_16dp256b1x{}, tCtAcc)", "--acc", "64x128", "--json"});
  REQUIRE(half.exit_code == 0);
  CHECK(json::parse(half.out)["lanes_used"] == "0-15,32-47,64-79,96-111");
  auto wrong = run_cutevis({"tmem", "make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tCtAcc)", "--acc", "64x128"});
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("use a 16dp atom") != std::string::npos);
  auto pair =
      run_cutevis({"tmem", "make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tCtAcc)", "--mma",
                   "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,128,128,UMMA::Major::K,UMMA::Major::K>", "--json"});
  REQUIRE(pair.exit_code == 0);
  const json p = json::parse(pair.out);
  CHECK(p["accumulator"]["m_per_cta"] == 64);
  CHECK(p["cells"][5 * 128 + 70] == json::array({5, 70, 69, 6, 0, 69, 6}));  // n >= 64 in lanes 64-127
}

TEST_CASE("tmem cli: --choose, pictures and bad input") {
  auto choose = run_cutevis({"tmem", "--choose", "--acc", "128x128", "--type", "half_t", "--json"});
  REQUIRE(choose.exit_code == 0);
  const json c = json::parse(choose.out);
  REQUIRE(!c["atoms"].empty());
  for (const auto& a : c["atoms"]) CHECK(a["op"].get<std::string>().find("_16b") != std::string::npos);
  auto svg = run_cutevis({"tmem", "make_tmem_copy(SM100_TMEM_LOAD_16dp256b1x{}, tCtAcc)", "--acc", "64x32", "--svg"});
  REQUIRE(svg.exit_code == 0);
  CHECK(svg.out.find("<svg") != std::string::npos);
  CHECK(svg.out.find("lane 32 column 0") != std::string::npos);  // row m = 16 lives in lane 32
  CHECK(run_cutevis({"tmem", "make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, tCtAcc)", "--acc", "96x128"}).exit_code == 2);
  CHECK(run_cutevis({"tmem", "--choose", "--epilogue-threads", "96"}).exit_code == 2);
  CHECK(run_cutevis({"tmem", "make_layout(4)"}).exit_code == 2);
}
