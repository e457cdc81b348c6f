// The advisor on the command line (issue 24): descriptor-fed operands, `cutevis desc`, exit codes.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "atoms/analysis/ownership.hpp"
#include "atoms/mma_names.hpp"
#include "lib/lang/expr.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {
const std::string kGmma = "make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{})";
const std::string kSw128A = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})";
const std::string kSw128B = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})";
}  // namespace

TEST_CASE("mma --analyze: SS GMMA operands are read by descriptors and not modelled as ld.shared") {
  auto r = test::run_cutevis({"mma", kGmma, "--smem-a", kSw128A, "--smem-b", kSw128B, "--analyze", "--json"});
  REQUIRE(r.exit_code == kExitOk);
  json j = json::parse(r.out);
  for (const char* op : {"A", "B"}) {
    CAPTURE(op);
    CHECK(j[op]["read_by"] == "descriptor");
    CHECK(j[op]["canonical"] == "K_SW128");
    CHECK_FALSE(j[op].contains("instructions"));
    REQUIRE(j[op]["descriptors"].size() == 4);  // one MMA block, four k-blocks of 16
    const json& d = j[op]["descriptors"][1];
    CHECK(d["mn"] == 0);
    CHECK(d["k"] == 1);
    CHECK(d["desc"] == "0x4000004000010002");
    CHECK(d["start"] == 2);
    CHECK(d["lbo"] == 1);
    CHECK(d["sbo"] == 64);
    CHECK(d["base_offset"] == 0);
    CHECK(d["layout_type"] == "B128");
  }
}

TEST_CASE("mma --analyze: a layout CuTe rejects exits 1 with CuTe's reason first and a canonical fix") {
  auto r = test::run_cutevis({"mma", kGmma, "--smem-a", "Layout<Shape<_64,_64>,Stride<_64,_1>>{}", "--analyze"});
  CHECK(r.exit_code == kExitDisagree);
  CHECK(r.out.rfind("error: A: Not a canonical GMMA_K Layout: Expected stride failure.", 0) == 0);
  CHECK(r.out.find("fix: " + kSw128A) != std::string::npos);
  auto j =
      test::run_cutevis({"mma", kGmma, "--smem-a", "Layout<Shape<_64,_64>,Stride<_64,_1>>{}", "--analyze", "--json"});
  CHECK(j.exit_code == kExitDisagree);
  json a = json::parse(j.out)["A"];
  CHECK(a["canonical"].is_null());
  CHECK(a["descriptors"].empty());
  CHECK(a["nearest"] == kSw128A);
  // a copy atom for a descriptor operand is bad input
  auto bad = test::run_cutevis({"mma", kGmma, "--smem-a", kSw128A, "--copy-a", "SM75_U32x4_LDSM_N", "--analyze"});
  CHECK(bad.exit_code == kExitBadInput);
}

TEST_CASE("desc decodes a descriptor and draws what it addresses") {
  auto r = test::run_cutevis({"desc", "0x4000004000010000", "--json"});
  REQUIRE(r.exit_code == kExitOk);
  json j = json::parse(r.out);
  CHECK(j["family"] == "gmma");
  CHECK(j["layout_type"] == "B128");
  CHECK(j["sbo"] == 64);
  CHECK(j["lbo"] == 1);
  CHECK(j["swizzle"] == "Sw<3,4,3>");
  CHECK(j["layout"] == "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(8,2)):((64,512),(1,8))");
  // UMMA: the version bits say so; SWIZZLE_32B is layout_type 6 at bits 61..63
  auto u = test::run_cutevis({"desc", "0xc000401000010000", "--json"});
  REQUIRE(u.exit_code == kExitOk);
  json k = json::parse(u.out);
  CHECK(k["family"] == "umma");
  CHECK(k["layout_type"] == "SWIZZLE_32B");
  CHECK(k["version"] == 1);
  auto txt = test::run_cutevis({"desc", "0x4000004000010000", "--txt"});
  REQUIRE(txt.exit_code == kExitOk);
  CHECK(txt.out.find("|   72 |") != std::string::npos);  // row 1 starts at byte 144: Sw<3,4,3> moved it
  CHECK(test::run_cutevis({"desc", "zz"}).exit_code == kExitBadInput);
  CHECK(test::run_cutevis({"desc", "0x4000004000010000", "--type", "nope"}).exit_code == kExitBadInput);
}

namespace {
const std::string kLdsmA =
    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
    "Layout<Shape<_2,_2,_1>>{}))";
const std::string kCpAsync =
    "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, Layout<Shape<_8,_4>,Stride<_4,_1>>{}, "
    "Layout<Shape<_1,_8>>{})";
}  // namespace

TEST_CASE("copy --analyze --suggest --also: a layout conflict-free for the LDSM reader and the cp.async writer") {
  auto r = test::run_cutevis(
      {"copy", kLdsmA, "--src", "smem:(32,32):(32,1)", "--analyze", "--suggest", "--also", kCpAsync, "--json"});
  REQUIRE(r.exit_code == kExitOk);  // conflicts are a warning, not a failure
  json j = json::parse(r.out);
  CHECK(j["current"]["bank_conflicts"] == 96);
  REQUIRE(!j["suggestions"].empty());
  const json& best = j["suggestions"][0];
  CHECK(best["bank_conflicts"] == 0);
  REQUIRE(best["per_copy"].size() == 2);
  CHECK(best["per_copy"][0]["bank_conflicts"] == 0);
  CHECK(best["per_copy"][1]["bank_conflicts"] == 0);
  CHECK(best["padding_bytes"] == 0);
  CHECK(best["layout"].get<std::string>().rfind("composition(Swizzle<", 0) == 0);
  CHECK(best["dsl"].get<std::string>().rfind("cute.make_composed_layout(cute.make_swizzle(", 0) == 0);
  // the pasted layout, analysed on its own, has no conflicts either
  auto again =
      test::run_cutevis({"copy", kLdsmA, "--src", "smem:" + best["layout"].get<std::string>(), "--analyze", "--json"});
  REQUIRE(again.exit_code == kExitOk);
  CHECK(json::parse(again.out)["smem"]["bank_conflicts"] == 0);
  // text: the summary and the warning come before the instructions, the suggestions after
  auto t = test::run_cutevis({"copy", kLdsmA, "--src", "smem:(32,32):(32,1)", "--analyze", "--suggest"});
  REQUIRE(t.exit_code == kExitOk);
  CHECK(t.out.find("warning: shared memory: 96 bank conflicts") < t.out.find("instructions (count x ptx"));
  CHECK(t.out.find("suggestions for the shared-memory (32,32) tensor over 1 copy") != std::string::npos);
  CHECK(test::run_cutevis({"copy", kLdsmA, "--src", "smem:(32,32):(32,1)", "--suggest"}).exit_code == kExitBadInput);
}

TEST_CASE("copy --analyze: a 16-byte cp.async into 136-byte rows would fault: exit 1 with the padding that fixes it") {
  auto r = test::run_cutevis(
      {"copy", kCpAsync, "--src", "gmem:(32,64):(64,1)", "--dst", "smem:(32,64):(68,1)", "--analyze"});
  CHECK(r.exit_code == kExitDisagree);
  CHECK(r.out.find("error: dst: rows are 136 B apart; 16-byte cp.async") != std::string::npos);
  CHECK(r.out.find("fix: pad to 144 B (stride 72)") != std::string::npos);
  auto fixed = test::run_cutevis(
      {"copy", kCpAsync, "--src", "gmem:(32,64):(64,1)", "--dst", "smem:(32,64):(72,1)", "--analyze", "--json"});
  CHECK(fixed.exit_code == kExitOk);
  const json fj = json::parse(fixed.out);
  CHECK(fj["findings"].size() == 1);  // only the global-memory efficiency warning
  // cp.async's global half is the copy's source, its shared half the destination
  CHECK(fj["instructions"][0]["space"] == "gmem");
  CHECK(fj["instructions"][0]["side"] == "src");
  CHECK(fj["instructions"][1]["side"] == "dst");
  // identical instructions collapsed, every one with --instructions
  auto collapsed = test::run_cutevis(
      {"copy", kCpAsync, "--src", "gmem:(32,64):(64,1)", "--dst", "smem:(32,64):(72,1)", "--analyze"});
  CHECK(collapsed.out.find("8 x cp.async") != std::string::npos);
  auto every = test::run_cutevis({"copy", kCpAsync, "--src", "gmem:(32,64):(64,1)", "--dst", "smem:(32,64):(72,1)",
                                  "--analyze", "--instructions"});
  CHECK(every.out.find("per instruction (warp.index  ptx  cost)") != std::string::npos);
}

TEST_CASE("copy --analyze: a 128-bit copy over a column-major source does not compile in CuTe: exit 1") {
  auto r = test::run_cutevis(
      {"copy",
       "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
       "Layout<Shape<_1,_8>>{})",
       "--src", "gmem:(128,64):(1,128)", "--analyze"});
  CHECK(r.exit_code == kExitDisagree);
  CHECK(r.out.find("CuTe refuses to vectorize it") != std::string::npos);
}

namespace {
const std::string kSm80x22 = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";
}  // namespace

TEST_CASE("--who equals the owners in mma --json for every cell of the SM80 2x2 TiledMMA; --feeds lists A and B") {
  auto r = test::run_cutevis({"mma", kSm80x22, "--json"});
  REQUIRE(r.exit_code == kExitOk);
  const json all = json::parse(r.out);
  register_catalogue_names();
  const TiledMma mma = *as_tiled_mma(evaluate_expression(kSm80x22));
  int cells = 0;
  for (const char* op : {"A", "B", "C"}) {
    const json& o = all[std::string("owners_") + char(op[0] + 32)];
    const int64_t rows = o["shape"][0], cols = o["shape"][1];
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t m = 0; m < rows; ++m) {
        json want = json::array();
        for (const json& p : o["owners"][m + rows * c]) want.push_back(p);
        json got = json::array();
        for (const CellOwner& w : mma_owners(mma, op[0], m, c)) got.push_back({w.thread, w.value});
        CAPTURE(op);
        CAPTURE(m);
        CAPTURE(c);
        CHECK(got == want);
        ++cells;
      }
  }
  CHECK(cells == 32 * 16 + 16 * 16 + 32 * 16);  // A (M,K), B (N,K), C (M,N) of the 32x16x16 tile
  // the command line gives the same, with registers: V1 of SM80 16x8x16's A is the upper half of a0
  auto w = test::run_cutevis({"mma", kSm80x22, "--who", "A(5,3)", "--json"});
  REQUIRE(w.exit_code == kExitOk);
  const json wj = json::parse(w.out);
  CHECK(wj["owners"] == json::array({json::array({21, 1}), json::array({85, 1})}));
  CHECK(wj["registers"] == json::array({"a0.hi", "a0.hi"}));
  CHECK(wj["owners"] == all["owners_a"]["owners"][5 + 32 * 3]);
  auto t = test::run_cutevis({"mma", kSm80x22, "--who", "A(5,3)"});
  CHECK(t.out == "A(5,3): 2 owners: T21 V1 (a0.hi), T85 V1 (a0.hi)\n");
  // C(9,4) = sum over the tile's 16 k of A(9,k) B(4,k)
  auto f = test::run_cutevis({"mma", kSm80x22, "--feeds", "C(9,4)", "--json"});
  REQUIRE(f.exit_code == kExitOk);
  const json fj = json::parse(f.out);
  CHECK(fj["owners"] == all["owners_c"]["owners"][9 + 32 * 4]);
  REQUIRE(fj["A"].size() == 16);
  REQUIRE(fj["B"].size() == 16);
  for (int k = 0; k < 16; ++k) {
    CHECK(fj["A"][k]["owners"] == all["owners_a"]["owners"][9 + 32 * k]);
    CHECK(fj["B"][k]["owners"] == all["owners_b"]["owners"][4 + 16 * k]);
  }
  CHECK(fj["A"][1]["registers"][0] == "a1.hi");  // row 9 = 8 + 1: a1; k = 1: the upper half
  // copies: S(m,n) / D(m,n); bad cells are bad input
  auto s = test::run_cutevis({"copy", kLdsmA, "--who", "S(0,0)", "--json"});
  REQUIRE(s.exit_code == kExitOk);
  CHECK(!json::parse(s.out)["owners"].empty());
  CHECK(test::run_cutevis({"mma", kSm80x22, "--who", "A(99,0)"}).exit_code == kExitBadInput);
  CHECK(test::run_cutevis({"mma", kSm80x22, "--who", "Q(1,1)"}).exit_code == kExitBadInput);
  CHECK(test::run_cutevis({"mma", kSm80x22, "--feeds", "A(1,1)"}).exit_code == kExitBadInput);
  // the cell as written by hand: spaces around each part and a + sign read, anything else refused
  for (const std::string same : {" A( 5 , 3 ) ", "A(+5,3)", "A(5, +3)  "}) {
    CAPTURE(same);
    CHECK(test::run_cutevis({"mma", kSm80x22, "--who", same}).out == t.out);
  }
  for (const std::string bad : {"A(5,3)x", "A(5,3", "A(5;3)", "A(5,)", "A(+-5,3)", "A(5,3))", "A", " ", "A(0x5,3)"}) {
    CAPTURE(bad);
    auto r = test::run_cutevis({"mma", kSm80x22, "--who", bad});
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.err.find("--who names a cell as A(m,n)") != std::string::npos);
  }
}

TEST_CASE("mma --analyze --suggest: with an LDSM reader and a G2S writer; canonical layouts only where wgmma reads") {
  const std::string g2s =
      "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, "
      "Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_8>>{})";
  auto r = test::run_cutevis({"mma", kSm80x22, "--smem-a", "(64,64):(64,1)", "--copy-a", "SM75_U32x4_LDSM_N",
                              "--analyze", "--suggest", "--also", g2s, "--json"});
  REQUIRE(r.exit_code == kExitOk);
  const json a = json::parse(r.out)["A"];
  CHECK(a["current"]["bank_conflicts"] == 896);
  REQUIRE(!a["suggestions"].empty());
  CHECK(a["suggestions"][0]["bank_conflicts"] == 0);
  CHECK(a["suggestions"][0]["per_copy"].size() == 2);
  // SS GMMA: every suggestion is one wgmma accepts
  auto s = test::run_cutevis({"mma", kGmma, "--smem-a", kSw128A, "--analyze", "--suggest", "--also", g2s, "--json"});
  REQUIRE(s.exit_code == kExitOk);
  const json sa = json::parse(s.out)["A"];
  REQUIRE(!sa["suggestions"].empty());
  for (const json& x : sa["suggestions"]) {
    CAPTURE(x["layout"]);
    auto check = test::run_cutevis({"mma", kGmma, "--smem-a", x["layout"].get<std::string>(), "--analyze"});
    CHECK(check.exit_code == kExitOk);
  }
}
