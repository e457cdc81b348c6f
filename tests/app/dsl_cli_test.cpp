// CuTeDSL at the command line: detected or forced with --dsl, the same pictures and JSON as
// the C++ spelling, and bad input as one `cutevis: error:` line with a caret (exit 2).
#include <doctest/doctest.h>

#include <algorithm>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using cutevis::test::run_cutevis;

namespace {

const char* const kDslMma =
    "cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), (2, 2, 1))";
const char* const kCppMma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";

int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("cutevis reads CuTeDSL without being told, and with --dsl") {
  auto r = run_cutevis({"eval", "cute.make_layout((4, 8), stride=(1, 4))"});
  CHECK(r.exit_code == kExitOk);
  CHECK(r.out == "(4,8):(1,4)\n");
  // (4,) is a Python one-tuple; only --dsl reads it so
  r = run_cutevis({"eval", "--dsl", "(4,)"});
  CHECK(r.exit_code == kExitOk);
  CHECK(r.out == "(4)\n");
  CHECK(run_cutevis({"eval", "(4,)"}).exit_code == kExitBadInput);
  r = run_cutevis({"layout", "--dsl", "--json", "cute.make_layout((2, 4), stride=(4, 1))"});
  CHECK(r.exit_code == kExitOk);
  CHECK(r.out == run_cutevis({"layout", "--json", "(2,4):(4,1)"}).out);
  r = run_cutevis({"tv", "cute.make_layout(((4, 8), 4), stride=((8, 1), 32))", "(8, 16)", "--json"});
  CHECK(r.exit_code == kExitOk);
  CHECK(r.out.find("\"tv_layout\":\"((4,8),4):((8,1),32)\"") != std::string::npos);
}

TEST_CASE("a CuTeDSL TiledMMA and TiledCopy draw exactly as their C++ spelling") {
  CHECK(run_cutevis({"mma", "--json", kDslMma}).out == run_cutevis({"mma", "--json", kCppMma}).out);
  auto dsl = run_cutevis({"mma", "--svg", "--style", "cute", kDslMma});
  CHECK(dsl.exit_code == kExitOk);
  CHECK(dsl.out.find("<svg") != std::string::npos);
  CHECK(dsl.out == run_cutevis({"mma", "--svg", "--style", "cute", kCppMma}).out);
  const char* dsl_copy =
      "cute.make_tiled_copy_tv(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, "
      "num_bits_per_copy=128), "
      "cute.make_layout((32, 8), stride=(8, 1)), cute.make_layout((1, 8)))";
  const char* cpp_copy =
      "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_8>>{})";
  CHECK(run_cutevis({"copy", "--json", dsl_copy}).out == run_cutevis({"copy", "--json", cpp_copy}).out);
  CHECK(run_cutevis({"copy", "--txt", dsl_copy}).exit_code == kExitOk);
}

TEST_CASE("CuTeDSL errors are one line and a caret, exit 2") {
  auto r = run_cutevis({"eval", "cute.make_layout((4, 8), strid=(1, 4))"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "cutevis: error: cute.make_layout has no parameter 'strid' (its parameters: shape, stride)\n"
        "  cute.make_layout((4, 8), strid=(1, 4))\n"
        "                           ^\n");
  r = run_cutevis({"mma", "--dsl", "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("looks like C++") != std::string::npos);
  CHECK(count_lines(r.err) == 3);
  // a CuTeDSL spelling in C++ suggests the DSL form
  r = run_cutevis({"eval", "make_layout((4,8), stride=(1,4))"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("keyword arguments are CuTeDSL") != std::string::npos);
  CHECK(count_lines(r.err) == 3);
}

TEST_CASE("--from a CuTeDSL Blackwell kernel: sm100 SMEM helpers and tiled-MMA attributes equal their C++ spelling") {
  const std::string kernel = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/dsl_kernel_sm100.py";
  const std::string tiler = "self.mma_tiler_mnk=(128, 256, 64)";
  const std::string cpp_mma =
      "make_tiled_mma(SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::MN>{})";
  auto from = [&](std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--from", kernel, "-D", tiler});
    return run_cutevis(args);
  };
  // A: K-major, half: K_SW128 (what real CuTe gives: tests/data/dsl_oracle.jsonl's first sm100 row)
  auto r = from({"eval", "a_smem_layout_staged"});
  CHECK(r.exit_code == kExitOk);
  CHECK(r.out == "Sw<3,4,3> o 0 o ((128,16),1,4,4):((64,1),0,16,8192)\n");
  // B: MN-major, N = 256 halves: MN_SW128, the N mode first
  const std::string b_shape = "append(partition_shape_B(" + cpp_mma + ", make_shape(_256{},_64{})), _4{})";
  r = from({"eval", "b_smem_layout_staged"});
  CHECK(r.exit_code == kExitOk);
  CHECK(
      r.out ==
      run_cutevis(
          {"eval",
           "coalesce(UMMA::tile_to_mma_shape(composition(Swizzle<3,4,3>{}, Layout<Shape<_64,_8>,Stride<_1,_64>>{}), " +
               b_shape + ", Step<_2,_1,_3>{}), " + b_shape + ")"})
          .out);
  CHECK(from({"eval", "a_major"}).out == "OperandMajorMode.K\n");
  CHECK(from({"eval", "tile_n"}).out == "256\n");
  CHECK(from({"eval", "a_shape"}).out ==
        run_cutevis({"eval", "partition_shape_A(" + cpp_mma + ", make_shape(_128{},_64{}))"}).out);
  // an attribute's layout draws and serialises as the C++ member's
  r = from({"layout", "--json", "c_tv"});
  CHECK(r.exit_code == kExitOk);
  CHECK(r.out == run_cutevis({"layout", "--json", "get_layoutC_TV(" + cpp_mma + ")"}).out);
  CHECK(from({"eval", "--dsl", "c_tv.shape"}).out == "(1,((128,256),(1,1)))\n");
  CHECK(from({"mma", "--json", "tiled_mma"}).out == run_cutevis({"mma", "--json", cpp_mma}).out);
  r = from({"names"});
  CHECK(r.exit_code == kExitOk);
  for (const char* name : {"a_smem_layout_staged", "b_smem_layout_staged", "a_major", "c_tv", "epi_smem_layout"}) {
    CAPTURE(name);
    CHECK(r.out.find(name) != std::string::npos);
  }
  // an attribute of `self` that the file never sets is what -D must give, not `self`
  r = from({"eval", "-D", "self.num_ab_stage=2", "tile_n"});
  CHECK(r.exit_code == kExitOk);
  r = run_cutevis({"eval", "--from", kernel, "-D", tiler, "--dsl", "self.size"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("self.size") != std::string::npos);
  CHECK(r.err.find("unknown name 'self'") == std::string::npos);
  // the attribute of a value that has none: one line and a caret
  r = run_cutevis({"eval", "cute.make_layout((4, 8)).tv_layout_C_tiled"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("attribute of a TiledMma") != std::string::npos);
  CHECK(count_lines(r.err) == 3);
}

TEST_CASE("CuTeDSL attribute expressions draw as their C++ spelling") {
  const std::string dsl = std::string("(") + kDslMma + ").tv_layout_A_tiled";
  auto r = run_cutevis({"layout", "--svg", "--style", "cute", dsl});  // style cute: no title naming the expression
  CHECK(r.exit_code == kExitOk);
  CHECK(r.out.find("<svg") != std::string::npos);
  CHECK(r.out ==
        run_cutevis({"layout", "--svg", "--style", "cute", std::string("get_layoutA_TV(") + kCppMma + ")"}).out);
}

TEST_CASE(
    "--from a CuTeDSL TMA set-up: the atom equals C++'s make_tma_atom, the gmem tensor given with -D in either "
    "spelling") {
  const std::string kernel = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/dsl_kernel_tma.py";
  const std::string cpp =
      "make_tma_atom(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(A), make_shape(1024, 256), GenRowMajor{}), "
      "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{},_64{})), make_shape(_128{},_64{}))";
  const auto want = run_cutevis({"copy", "--json", cpp});
  REQUIRE(want.exit_code == kExitOk);
  for (const char* tensor : {"mA=make_tensor(make_gmem_ptr<half_t>(A), make_shape(1024, 256), GenRowMajor{})",
                             "mA=cute.make_tensor(cute.make_ptr(cutlass.Float16, A, cute.AddressSpace.gmem), "
                             "cute.make_layout((1024, 256), stride=(256, 1)))"}) {
    CAPTURE(tensor);
    auto r = run_cutevis({"copy", "--json", "--from", kernel, "-D", tensor, "tma_atom_a"});
    CHECK(r.exit_code == kExitOk);
    CHECK(r.out == want.out);
  }
  auto r = run_cutevis({"copy", "--from", kernel, "tma_atom_a"});  // no -D: the missing argument is named
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("mA") != std::string::npos);
}
