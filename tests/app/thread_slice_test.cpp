// atom/mma --thread T: one thread's slice (ThrMMA) against the PTX fragment figures.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"

using namespace cutevis;
using nlohmann::json;

TEST_CASE("--thread gives the thread's fragment of mma.m16n8k16 as the PTX ISA draws it") {
  ShowOptions o;
  o.input = "SM80_16x8x16_F32F16F16F32_TN";
  o.json = true;
  for (int64_t t : {0, 5, 31}) {
    o.thread = t;
    json j = json::parse(run_atom(o).bytes);
    const int64_t group = t / 4, lane = t % 4;
    // PTX ISA, m16n8k16 f16: a_i at row group (+8 for a2,a3,a6,a7), col 2*lane + (i&1) (+8 for a4..a7)
    for (int64_t i = 0; i < 8; ++i) {
      int64_t row = group + ((i / 2) % 2) * 8, col = 2 * lane + (i % 2) + (i / 4) * 8;
      CHECK(j["a"][i] == json::array({row, col}));
    }
    // c_i at row group (+8 for c2,c3), col 2*lane + (i&1)
    for (int64_t i = 0; i < 4; ++i) CHECK(j["c"][i] == json::array({group + (i / 2) * 8, 2 * lane + (i % 2)}));
    // b_i at n = group, k = 2*lane + (i&1) (+8 for b2,b3)
    for (int64_t i = 0; i < 4; ++i) CHECK(j["b"][i] == json::array({group, 2 * lane + (i % 2) + (i / 2) * 8}));
  }
  o.thread = 32;
  CHECK_THROWS_AS(run_atom(o), Error);
  o.thread = 0;
  o.json = false;
  o.picture.format = Format::kSvg;
  CHECK_THROWS_AS(run_atom(o), Error);
}

TEST_CASE("--thread on a 2x2 tiling names the thread's atom coordinate") {
  ShowOptions o;
  o.input = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";
  o.json = true;
  o.thread = 37;  // lane 5 of the atom at (M=1, N=0)
  json j = json::parse(run_mma(o).bytes);
  CHECK(j["thr_vmnk"] == json::array({5, 1, 0, 0}));
  CHECK(j["c"][0] == json::array({16 + 1, 2}));
}
