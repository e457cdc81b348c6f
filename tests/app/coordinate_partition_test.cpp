// Coordinate tensors (make_identity_tensor, a TMA's get_tma_tensor: an ArithTuple iterator and strides
// k@i) partitioned per thread (atoms/analysis/partition_names.cpp), C++17 structured bindings
// (lib/lang/cpp_scanner.cpp) and a kernel's __grid_constant__ parameter bound from its launch, from a
// hand-written file in CuTe's tutorial style (tests/data/kernels/coordinate_partition.cu) and from CUTLASS's
// own tutorials; the expected prints are real CuTe's (tests/data/kernels/coordinate_partition_oracle.tsv).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"
#include "tests/support/tsv_oracle.hpp"

using nlohmann::json;

namespace {

std::map<std::string, std::string> oracle() {
  return cutevis::test::tsv_oracle("tests/data/kernels/coordinate_partition_oracle.tsv");
}

// name -> the first line of its value, or "unresolved: why"
std::map<std::string, std::string> names(const std::vector<std::string>& args) {
  std::vector<std::string> all{"names", "--json"};
  all.insert(all.end(), args.begin(), args.end());
  auto r = cutevis::test::run_cutevis(all, "CUTEVIS_CACHE_DIR=off");
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  std::map<std::string, std::string> out;
  const json parsed = json::parse(r.out);  // (a range-for over a temporary's member would dangle)
  for (const json& n : parsed["names"]) {
    const std::string v = n.contains("value") ? n["value"].get<std::string>() : "unresolved: " + n.value("error", "");
    out[n["name"].get<std::string>()] = v.substr(0, v.find('\n'));
  }
  return out;
}

// "ptr o L" -> "L": the layout of a tensor whose iterator (an smem pointer, a TMEM address) is checked apart
std::string layout_of(const std::string& print) { return print.substr(print.find(" o ") + 3); }

}  // namespace

TEST_CASE("an identity tensor partitioned by a TiledMMA and a TiledCopy is CuTe's, threads 0 and 37") {
  const auto cute = oracle();
  const std::string file = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/coordinate_partition.cu";
  for (int t : {0, 37}) {
    const auto v = names({"--from", file, "-D", "threadIdx.x=" + std::to_string(t)});
    const std::string th = ".t" + std::to_string(t) + ".";
    for (const char* x : {"tCcC", "tCcA"}) CHECK(v.at(std::string("coord_kernel::") + x) == cute.at("id.mma" + th + x));
    for (const char* x : {"tScT", "tDcT"})
      CHECK(v.at(std::string("coord_kernel::") + x) == cute.at("id.copy" + th + x));
    // zipped_divide / flat_divide of a tensor: the tensor over the divided layout
    CHECK(v.at("coord_kernel::cC_tiles") == cute.at("id.zipped_divide.cC"));
    CHECK(v.at("coord_kernel::cC_flat") == cute.at("id.flat_divide.cC"));
  }
}

TEST_CASE("local_tile of a coordinate tensor at a run-time block coordinate: only the components it moves are int") {
  // CuTe adds coord * stride to the ArithTuple iterator: a blockIdx (a run-time int) makes the component its
  // stride reaches an int, even at block 0 (ArithTuple(0,_0)); a static coordinate keeps it static (_256)
  const auto cute = oracle();
  const std::string file = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/coordinate_partition.cu";
  for (int b : {0, 3}) {
    CAPTURE(b);
    const auto v =
        names({"--from", file, "-D", "blockIdx.x=" + std::to_string(b), "-D", "blockIdx.y=" + std::to_string(b)});
    for (const char* x : {"cA", "gA", "gB", "gS", "gT", "c2", "c3"}) {
      CAPTURE(x);
      CHECK(v.at(std::string("tile_kernel::") + x) == cute.at("tile.b" + std::to_string(b) + "." + x));
    }
  }
}

TEST_CASE("get_flat_coord of a run-time CTA rank: run-time coordinates, the static _0 along a mode of extent 1") {
  const auto cute = oracle();
  CHECK(cute.at("sm100_03.cluster_layout_vmnk") == "((_1),_4,_4,_1):((_0),_1,_4,_0)");
  for (int rank : {0, 5}) {
    CAPTURE(rank);
    const auto r = cutevis::test::run_cutevis({"eval",
                                               "get_flat_coord(make_layout(make_shape(make_shape(_1{}),_4{},_4{},_1{}),"
                                               " make_stride(make_stride(_0{}),_1{},_4{},_0{})), " +
                                                   std::to_string(rank) + ")"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == cute.at("sm100_03.r" + std::to_string(rank) + ".cta_in_cluster_coord_vmnk") + "\n");
  }
}

TEST_CASE("structured bindings: each name is its element; a count that differs is g++'s error; grid-constant params") {
  const auto v = names({"--from", std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/coordinate_partition.cu"});
  // auto [first, second] = pair;  (pair: a CUTLASS_GRID_CONSTANT kernel parameter, bound from the launch)
  CHECK(v.at("coord_kernel::first") == "3");
  CHECK(v.at("coord_kernel::second") == "(4,5)");
  CHECK(v.at("coord_kernel::m") == "64");  // auto const& [m, n] = shape(cC);
  CHECK(v.at("coord_kernel::n") == "32");
  CHECK(v.at("coord_kernel::tile") == "128");
  CHECK(v.at("coord_kernel::rest") == "(8,2):(1,8)");
  // layout.get_flat_coord(block_rank_in_cluster()): CTA rank 0 unless -D, said beside the value; printed as
  // CuTe prints it, the size-1 modes' _0 static (the same cluster layout as blackwell/03's, whose prints the
  // oracle holds)
  const auto cute = oracle();
  CHECK(v.at("coord_kernel::cta_in_cluster") == cute.at("sm100_03.r0.cta_in_cluster_coord_vmnk"));
  CHECK(v.at("coord_kernel::cta_in_cluster") == "(_0,0,0,_0)");
  const std::string file = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/coordinate_partition.cu";
  CHECK(names({"--from", file, "-D", "block_rank_in_cluster=5"}).at("coord_kernel::cta_in_cluster") ==
        cute.at("sm100_03.r5.cta_in_cluster_coord_vmnk"));
  auto r = cutevis::test::run_cutevis({"names", "--from", file});
  CHECK(r.out.find("block_rank_in_cluster is a run-time value: read as 0 (-D block_rank_in_cluster=N") !=
        std::string::npos);
  CHECK(v.at("coord_kernel::p") == "6");  // auto [p, q] = std::make_pair(_6, _7);
  CHECK(v.at("coord_kernel::q") == "7");
  // a Layout is no tuple to g++ (its shape and stride sit in a private base)
  CHECK(v.at("coord_kernel::lay_shape").rfind("unresolved: a structured binding cannot decompose a layout", 0) == 0);
  for (const char* x : {"x", "y", "z"})  // auto [x, y, z] = make_tuple(_1, _2);
    CHECK(v.at(std::string("coord_kernel::") + x) ==
          "unresolved: 3 names provided for a structured binding, while tuple (1,2) decomposes into 2 elements");
}

TEST_CASE("real CUTLASS tutorials (CUTLASS_PATH): TMA coordinate tensors and tma_partition's structured bindings") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  namespace fs = std::filesystem;
  if (!cutlass || !fs::exists(fs::path(cutlass) / "examples/cute/tutorial/blackwell/02_mma_tma_sm100.cu"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  const auto cute = oracle();
  const std::string root = cutlass, tut = root + "/examples/cute/tutorial/";
  const auto bw = names({"--from", tut + "blackwell/02_mma_tma_sm100.cu", "-I", root + "/include", "-D",
                         "TypeA=cutlass::half_t", "-D", "TypeB=cutlass::half_t", "-D", "TypeC=float", "-D",
                         "TypeD=float", "-D", "Gemm_M=512", "-D", "Gemm_N=1024", "-D", "Gemm_K=256"});
  for (const char* x : {"gA", "tCgA", "tCgB", "tAgA", "tBgB"}) {  // ArithTuple(_0,0): M's block coordinate is an int
    CAPTURE(x);
    CHECK(bw.at(std::string("gemm_device::") + x) == cute.at(std::string("sm100_02.") + x));
  }
  for (const char* x : {"tAsA", "tBsB"})
    CHECK(layout_of(bw.at(std::string("gemm_device::") + x)) == cute.at(std::string("sm100_02.") + x + ".layout"));
  const auto h = names({"--from", tut + "hopper/wgmma_tma_sm90.cu",
                        "-I",     root + "/include",
                        "-D",     "TA=cute::half_t",
                        "-D",     "TB=cute::half_t",
                        "-D",     "TC=cute::half_t",
                        "-D",     "m=512",
                        "-D",     "n=256",
                        "-D",     "k=1024",
                        "-D",     "ldA=512",
                        "-D",     "ldB=256",
                        "-D",     "ldC=512"});
  for (const char* x : {"mA", "gA", "tAgA"})
    CHECK(h.at(std::string("gemm_device::") + x) == cute.at(std::string("wgmma_tma.") + x));
  CHECK(layout_of(h.at("gemm_device::tAsA")) == cute.at("wgmma_tma.tAsA.layout"));
  CHECK(h.at("gemm_device::K_PIPE_MAX") == "3");  // size<1>(tAsA): CuTe's _3
  CHECK(cute.at("wgmma_tma.K_PIPE_MAX") == "_3");
  // blackwell/05's epilogue: zipped_divide of the TMEM accumulator and of the TMA coordinate tensors, their
  // tma_partition and the TMEM load's partition
  const auto e = names({"--from", tut + "blackwell/05_mma_tma_epi_sm100.cu", "-I", root + "/include", "-D",
                        "TypeA=cutlass::half_t", "-D", "TypeB=cutlass::half_t", "-D", "TypeC=float", "-D",
                        "TypeD=float", "-D", "Gemm_M=512", "-D", "Gemm_N=1024", "-D", "Gemm_K=256"});
  for (const char* x : {"tCgC", "gC_epi", "gD_epi", "tGS_gC", "tSG_gD"}) {
    CAPTURE(x);
    CHECK(e.at(std::string("gemm_device::") + x) == cute.at(std::string("sm100_05.") + x));
  }
  for (const char* x : {"tCtAcc", "tAcc_epi", "sC_epi", "tGS_sC", "tSG_sD", "tTR_tAcc"}) {
    CAPTURE(x);
    CHECK(layout_of(e.at(std::string("gemm_device::") + x)) == cute.at(std::string("sm100_05.") + x + ".layout"));
  }
  // blackwell/03's multicast: cluster_layout_vmnk.get_flat_coord(block_rank_in_cluster()), CTA rank 0 (unless -D)
  // and 5: the coordinate, and tma_partition's gmem coordinates and smem offsets for that CTA
  for (int rank : {0, 5}) {
    std::vector<std::string> args{"--from", tut + "blackwell/03_mma_tma_multicast_sm100.cu",
                                  "-I",     root + "/include",
                                  "-D",     "TypeA=cutlass::half_t",
                                  "-D",     "TypeB=cutlass::half_t",
                                  "-D",     "TypeC=float",
                                  "-D",     "TypeD=float",
                                  "-D",     "Gemm_M=512",
                                  "-D",     "Gemm_N=1024",
                                  "-D",     "Gemm_K=256"};
    if (rank) args.insert(args.end(), {"-D", "block_rank_in_cluster=5"});
    const auto m = names(args);
    const std::string r = "sm100_03.r" + std::to_string(rank) + ".";
    CAPTURE(rank);
    // CuTe's print, the size-1 modes' _0 static: (_0,1,1,_0)
    CHECK(m.at("gemm_device::cta_in_cluster_coord_vmnk") == cute.at(r + "cta_in_cluster_coord_vmnk"));
    // the multicast offset is cta_layout(cta_coord) * ..., an int (the CTA's rank is one): ArithTuple(0,32)
    for (const char* x : {"tAgA", "tBgB"}) CHECK(m.at(std::string("gemm_device::") + x) == cute.at(r + x));
    for (const char* x : {"tAsA", "tBsB"}) {
      const std::string ours = m.at(std::string("gemm_device::") + x);
      CHECK(layout_of(ours) == cute.at(r + x + ".layout"));
      const std::string offset = cute.at(r + x + ".offset");
      CHECK(ours.find(offset == "0" ? std::string(".begin())") : ".begin()+" + offset + ")") != std::string::npos);
    }
  }
}
