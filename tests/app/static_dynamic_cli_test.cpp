// The CLI side of issue 13's integers: CuTe's print for dynamic results, the JSON `cute`
// field, composition's warning, and the two plain bugs (rank-1 tiled copies, a layout
// as tile_to_shape's target).
#include <doctest/doctest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

TEST_CASE("cutevis eval: a dynamic result prints as CuTe prints it, --json keeps `text` and adds `cute`") {
  auto r = test::run_cutevis({"eval", "coalesce((_8,6):(_1,_8))"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "(_8,6):(_1,_8)\n");
  CHECK(r.err.empty());
  CHECK(test::run_cutevis({"eval", "coalesce((8,6):(1,8))"}).out == "48:1\n");  // hand-typed: static
  json j = json::parse(test::run_cutevis({"eval", "(_8,6):(_1,_8)", "--json"}).out);
  CHECK(j["text"] == "(8,6):(1,8)");  // the documented contract: no underscores
  CHECK(j["cute"] == "(_8,6):(_1,_8)");
  json s = json::parse(test::run_cutevis({"eval", "(4,8):(1,4)", "--json"}).out);
  CHECK(s["cute"] == "(_4,_8):(_1,_4)");
  json i = json::parse(test::run_cutevis({"eval", "size((_4,8):(_1,_4))", "--json"}).out);
  CHECK(i["value"] == 32);
  CHECK(i["cute"] == "32");
}

TEST_CASE("cutevis eval: composition where CuTe's weak check is wrong warns once and keeps CuTe's answer") {
  auto r = test::run_cutevis({"eval", "composition((6,2):(2,1), (4,2):(1,4))"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "(4,2):(2,8)\n");  // CuTe: (_4,_2):(_2,_8)
  CHECK(r.err.rfind("cutevis: warning: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find("index 6") != std::string::npos);
  CHECK(r.err.find("A(B(6)) = 1") != std::string::npos);
  CHECK(r.err.find("gives 12") != std::string::npos);
  auto ok = test::run_cutevis({"eval", "composition((4,8):(1,4), (2,2):(1,2))"});
  CHECK(ok.err.empty());
}

TEST_CASE("cutevis copy: rank-1 thread and value layouts (regression: was 'mode 1 out of range')") {
  std::string e =
      "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>,float>{}, Layout<Shape<_32>>{}, Layout<Shape<_1>>{})";
  auto r = test::run_cutevis({"copy", e, "--json"});
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["layout_s_tv"] == "(32,(1,1)):(1,(0,0))");  // CuTe: (_32,(_1,_1)):(_1,(_0,_0))
  CHECK(j["layout_d_tv"] == "(32,(1,1)):(1,(0,0))");
  CHECK(j["tiled_layout_tv"] == "(32,1):(1,0)");
  CHECK(j["owners_s"]["shape"] == json::array({32, 1}));
  auto t = test::run_cutevis({"copy", e, "--txt"});
  CHECK(t.exit_code == 0);
  CHECK(t.out.find("32 x 1") != std::string::npos);
}

TEST_CASE("cutevis eval: tile_to_shape takes a layout as its target (regression)") {
  auto r = test::run_cutevis(
      {"eval",
       "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_layout(Shape<Int<128>,Int<128>>{}, LayoutRight{}))"});
  CHECK(r.exit_code == 0);
  CHECK(r.out ==
        test::run_cutevis({"eval", "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_128>{})"}).out);
}
