// `cutevis copy ... --analyze / --thread / --mma` on the command line (issue 9).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {
const std::string kCopy128 =
    "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
    "Layout<Shape<_1,_8>>{})";
const std::string kMma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";
}  // namespace

TEST_CASE("copy --analyze --json: the documented fields, per instruction and in total") {
  auto r = test::run_cutevis({"copy", kCopy128, "--src", "gmem:(128,64):(64,1)", "--dst",
                              "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})", "--analyze",
                              "--json"});
  REQUIRE(r.exit_code == kExitOk);
  json j = json::parse(r.out);
  CHECK(j["vector_bits"] == 128);
  CHECK(j["smem"]["instructions"] == 32);
  CHECK(j["smem"]["wavefronts"] == 128);
  CHECK(j["smem"]["ideal_wavefronts"] == 128);
  CHECK(j["smem"]["bank_conflicts"] == 0);
  CHECK(j["gmem"]["requests"] == 32);
  CHECK(j["gmem"]["sectors"] == 512);
  CHECK(j["gmem"]["efficiency"] == 1.0);
  CHECK(j["src"]["space"] == "gmem");
  CHECK(j["dst"]["space"] == "smem");
  REQUIRE(j["instructions"].size() == 64);
  CHECK(j["instructions"][0]["ptx"] == "ld.global.v4.b32");
  CHECK(j["instructions"][1]["ptx"] == "st.shared.v4.b32");
  CHECK_FALSE(j["instructions"][0].contains("address"));
  auto with =
      test::run_cutevis({"copy", kCopy128, "--src", "gmem:(128,64):(64,1)", "--analyze", "--json", "--addresses"});
  REQUIRE(with.exit_code == kExitOk);
  json a = json::parse(with.out)["instructions"][0]["address"];
  REQUIRE(a.size() == 32);
  CHECK(a[0] == 0);
  CHECK(a[1] == 16);  // thread 1: the next 8 halves of row 0
}

TEST_CASE("copy --analyze text names the #1882 conflict") {
  auto r = test::run_cutevis(
      {"copy", "make_tiled_copy(Copy_Atom<DefaultCopy, half_t>{}, Layout<Shape<_16,_16>>{}, Layout<Shape<_1,_2>>{})",
       "--dst", "smem:(16,32):(32,1)", "--analyze"});
  REQUIRE(r.exit_code == kExitOk);
  CHECK(r.out.find("128 wavefronts (ideal 16), 112 bank conflicts") != std::string::npos);
  CHECK(r.out.find("st.shared.b16") != std::string::npos);
}

TEST_CASE("copy --thread: partition_S and partition_D with offsets") {
  auto r = test::run_cutevis(
      {"copy", kCopy128, "--src", "gmem:(128,64):(64,1)", "--dst", "smem:(128,64):(64,1)", "--thread", "17", "--json"});
  REQUIRE(r.exit_code == kExitOk);
  json j = json::parse(r.out);
  CHECK(j["partition_S"]["layout"] == "((8,1),8,1):((1,0),1024,0)");  // CuTe's, as its partition_S prints it
  CHECK(j["partition_S"]["offset"] == 136);                           // row 2, column 8
  CHECK(j["partition_D"]["offsets"].size() == 64);
  CHECK(j["partition_S"]["cells"][0] == json::array({2, 8}));
}

TEST_CASE("copy --mma: the destination fragment check names the first mismatch") {
  auto ok = test::run_cutevis(
      {"copy", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, " + kMma + ")", "--mma", kMma});
  REQUIRE(ok.exit_code == kExitOk);
  CHECK(ok.out.find("matches for all 128 threads") != std::string::npos);
  auto bad = test::run_cutevis({"copy", "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, " + kMma + ")",
                                "--mma", kMma, "--operand", "B"});
  REQUIRE(bad.exit_code == kExitDisagree);  // retile_D would hand the MMA the wrong values: exit 1 (issue 24)
  CHECK(bad.out.find("MISMATCH, thread 0") != std::string::npos);
}

TEST_CASE("copy inspector: bad input is one error line, exit 2") {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"copy", kCopy128, "--src", "gmem:(100,64):(64,1)", "--analyze"},  // not a multiple of the tile
           {"copy", kCopy128, "--src", "gmem:(128,64", "--analyze"},          // does not parse
           {"copy", kCopy128, "--analyze"},                                   // no tensor
           {"copy", kCopy128, "--thread", "3"},                               // nothing to partition
           {"copy", kCopy128, "--src", "gmem:(128,64):(64,1)", "--analyze", "--color-by",
            "conflict"},  // no picture format
           {"copy", kCopy128, "--src", "gmem:(128,64):(64,1)", "--analyze", "--color-by", "conflict",
            "--svg"},  // no smem tensor
           {"copy", kCopy128, "--mma", kMma, "--operand", "C"}}) {
    auto r = test::run_cutevis(args);
    CAPTURE(args[args.size() - 1]);
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.err.rfind("cutevis: error: ", 0) == 0);
    CHECK(r.out.empty());
  }
}

TEST_CASE("copy --analyze --color-by conflict draws the smem tensor") {
  auto r = test::run_cutevis(
      {"copy", "make_tiled_copy(Copy_Atom<DefaultCopy, half_t>{}, Layout<Shape<_16,_16>>{}, Layout<Shape<_1,_2>>{})",
       "--dst", "smem:(16,32):(32,1)", "--analyze", "--color-by", "conflict", "--svg"});
  REQUIRE(r.exit_code == kExitOk);
  CHECK(r.out.find("<svg") != std::string::npos);
  CHECK(r.out.find("w7!") != std::string::npos);  // rows 14/15 in the 8th wavefront of a conflicting store
}

TEST_CASE("mma --smem-a/--smem-b --analyze: the operands' S2R copies, LDSM or the MMA's own partition") {
  auto r = test::run_cutevis({"mma", kMma, "--smem-a", "(32,32):(32,1)", "--smem-b",
                              "tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_16,_32>{})", "--copy-a",
                              "SM75_U32x4_LDSM_N", "--analyze", "--json"});
  REQUIRE(r.exit_code == kExitOk);
  json j = json::parse(r.out);
  // A: ldmatrix.x4 rows at a 64-byte pitch, two rows per 128 bytes -> 4-way per matrix
  CHECK(j["A"]["instructions"][0]["ptx"] == "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  CHECK(j["A"]["smem"]["wavefronts"] == 4 * j["A"]["smem"]["ideal_wavefronts"].get<int>());
  CHECK(j["A"]["fragment_check"]["matches"] == true);
  // B: copy() of the MMA's own partition: pairs of halves, 32-bit loads, conflict-free in SW64
  CHECK(j["B"]["vector_bits"] == 32);
  CHECK(j["B"]["smem"]["bank_conflicts"] == 0);
  auto bad = test::run_cutevis({"mma", kMma, "--copy-a", "SM75_U32x4_LDSM_N", "--analyze"});
  CHECK(bad.exit_code == kExitBadInput);
}

TEST_CASE("mma --thread with --smem-a/--smem-b: partition_A/B/C, fragments and retile_D of the LDSM copies") {
  auto r = test::run_cutevis({"mma", kMma, "--thread", "5", "--smem-a", "(64,64):(64,1)", "--smem-b", "(64,64):(64,1)",
                              "--copy-a", "SM75_U32x4_LDSM_N", "--copy-b", "SM75_U32x2_LDSM_N", "--json"});
  REQUIRE(r.exit_code == kExitOk);
  json j = json::parse(r.out);
  CHECK(j["thread"] == 5);
  // lane 5: A rows 1 and 9, columns 2..3 of each 16x16 atom (the values CuTe's oracle gives)
  CHECK(j["A"]["offset"] == 66);
  CHECK(j["A"]["layout"] == "((2,2,2),2,4):((1,512,8),2048,16)");
  CHECK(j["A"]["offsets"][2] == 578);
  CHECK(j["A"]["cells"][0] == json::array({1, 2}));
  CHECK(j["A"]["fragment"] == "((2,2,2),2,4):((1,2,4),32,8)");
  CHECK(j["A"]["retile_D"]["layout"] == "((8,1),2,4):((1,0),32,8)");
  CHECK(j["B"]["retile_D"]["layout"] == "((4,1),4,4):((1,0),16,4)");
  // C over the row-major (M,N) = (64,64) tile: accumulators compact column-major
  CHECK(j["C"]["tensor"] == "(64,64):(64,1)");
  CHECK(j["C"]["fragment"] == "((2,2),2,4):((1,2),4,8)");
  auto text = test::run_cutevis({"mma", kMma, "--thread", "5", "--smem-a", "(64,64):(64,1)"});
  REQUIRE(text.exit_code == kExitOk);
  CHECK(text.out.find("partition_A of thread 5 (MMA,MMA_M,MMA_K): 66 + ((2,2,2),2,4):((1,512,8),2048,16)") !=
        std::string::npos);
  CHECK(text.out.find("(m,k)->offset") != std::string::npos);
  CHECK(text.out.find("partition_B") == std::string::npos);
  CHECK(text.out.find("partition_C of thread 5 (MMA,MMA_M,MMA_N)") != std::string::npos);
  // with --analyze too: the partitions and, under "analysis", the operands' S2R costs
  auto both = test::run_cutevis({"mma", kMma, "--thread", "5", "--smem-a", "(64,64):(64,1)", "--copy-a",
                                 "SM75_U32x4_LDSM_N", "--analyze", "--json"});
  REQUIRE(both.exit_code == kExitOk);
  json jb = json::parse(both.out);
  CHECK(jb["A"]["offset"] == 66);
  CHECK(jb["analysis"]["A"]["smem"]["instructions"].get<int64_t>() > 0);
  // a thread outside the MMA, and a copy without its tensor: bad input
  CHECK(test::run_cutevis({"mma", kMma, "--thread", "128", "--smem-a", "(64,64):(64,1)"}).exit_code == kExitBadInput);
  CHECK(test::run_cutevis({"mma", kMma, "--thread", "0", "--copy-b", "SM75_U32x2_LDSM_N", "--smem-a", "(64,64):(64,1)"})
            .exit_code == kExitBadInput);
}

TEST_CASE("copy --thread T and mma --thread T draw the thread's partitions, value indices in its cells") {
  const std::string copy32 =
      "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_4,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_2>>{})";
  auto r = test::run_cutevis({"copy", copy32, "--src", "gmem:(8,32):(32,1)", "--thread", "9", "--txt"});
  REQUIRE(r.exit_code == kExitOk);
  // thread 9: row 1, columns 2-3 of each 4x16 tile; the tensor holds 2x2 tiles: V0-1 (1,2-3),
  // V2-3 (5,2-3), V4-5 (1,18-19), V6-7 (5,18-19); everyone else is faded to '.'
  CHECK(r.out.find("partition_S of thread 9 = 34 + ((2,1),2,2):((1,0),128,16)") != std::string::npos);
  const size_t row1 = r.out.find("\n 1  |");
  REQUIRE(row1 != std::string::npos);
  const std::string line1 = r.out.substr(row1, r.out.find('\n', row1 + 1) - row1);
  CHECK(line1.find("|  T9 V0 |  T9 V1 |") != std::string::npos);
  CHECK(line1.find("|  T9 V4 |  T9 V5 |") != std::string::npos);
  CHECK(r.out.find("T9 V7") != std::string::npos);
  CHECK(r.out.find("T8 V") == std::string::npos);
  CHECK(r.out.find("highlighted threads 9 (16 cells)") != std::string::npos);  // 8 in S, 8 in D
  // mma: thread 5 of one SM80 16x8x16 atom over a 16x32 A: its V8 is A(1,18)
  auto m = test::run_cutevis({"mma", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})", "--thread", "5", "--smem-a",
                              "(16,32):(32,1)", "--txt"});
  REQUIRE(m.exit_code == kExitOk);
  CHECK(m.out.find("A: partition_A of thread 5 = 34 + ((2,2,2),1,2):((1,256,8),0,16)") != std::string::npos);
  CHECK(m.out.find("T5 V8") != std::string::npos);
  CHECK(m.out.find("T5 V15") != std::string::npos);
  CHECK(m.out.find("T5 V16") == std::string::npos);  // A holds 16 values of thread 5, B 8, C 4
  auto svg = test::run_cutevis({"mma", kMma, "--thread", "5", "--svg"});
  REQUIRE(svg.exit_code == kExitOk);
  CHECK(svg.out.rfind("<?xml", 0) == 0);
  CHECK(svg.out.find("partition_C of thread 5") != std::string::npos);
  // --analyze still prints text; a thread outside the copy is bad input
  CHECK(test::run_cutevis({"copy", copy32, "--src", "gmem:(8,32):(32,1)", "--thread", "32", "--txt"}).exit_code ==
        kExitBadInput);
}
