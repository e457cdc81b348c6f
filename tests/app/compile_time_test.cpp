// What a kernel file computes at compile time, through --from (issue 19 item 2): constexpr
// functions (a CUTLASS-style smem selector), class template specializations, base classes,
// home-made MMA atoms and aliases of CuTe's, partition_fragment_C, floating constants.
//
// tests/data/kernels/constexpr_functions.hpp is hand-written in the style of CUTLASS's collective
// builders and FA3.  Expected values: real CuTe's print of the same declarations (g++ 12, host only,
// CUTLASS's headers; tests/data/kernels/oracle.tsv, rows fn.*), underscores removed where cutevis
// prints a value without dynamic integers.
#include <doctest/doctest.h>

#include <unistd.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;

namespace {

const std::string kFile = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/constexpr_functions.hpp";

std::string eval_ok(const std::string& expression) {
  auto r = test::run_cutevis({"eval", "--from", kFile, expression});
  CAPTURE(expression);
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  return r.out.empty() ? r.out : r.out.substr(0, r.out.size() - 1);
}

}  // namespace

TEST_CASE("constexpr functions of the file: an ss_smem_selector-style if-constexpr chain, static members") {
  CHECK(eval_ok("SmemLayoutQ") == "Sw<2,4,3> o smem_ptr[16b](unset) o ((8,16),(32,3)):((32,256),(1,4096))");
  CHECK(eval_ok("SmemLayoutVt") == "Sw<2,4,3> o smem_ptr[16b](unset) o ((32,3),(8,22)):((1,256),(32,768))");
  CHECK(eval_ok("AtomK32") == "Sw<2,4,3> o smem_ptr[32b](unset) o (8,16):(16,1)");
  CHECK(eval_ok("AtomMN8") == "Sw<2,4,3> o smem_ptr[8b](unset) o (64,8):(1,64)");
  CHECK(eval_ok("kRows") == "128");
  CHECK(eval_ok("kTwice") == "48");
  CHECK(eval_ok("kPadded") == "256");
  CHECK(eval_ok("kPadded128") == "256");
  CHECK(eval_ok("kQRows") == "128");
}

TEST_CASE("a failed static_assert in a constexpr function: the file, its line and its message") {
  std::string path = "/tmp/cutevis_compile_time_" + std::to_string(::getpid()) + ".cu";
  {
    std::ifstream in(kFile);
    std::ofstream out(path);
    out << in.rdbuf()
        << "using BadAtom = decltype(my_attn::detail::smem_atom_selector<GMMA::Major::K, half_t, _64, _12>());\n";
  }
  auto r = test::run_cutevis({"eval", "--from", path, "BadAtom"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find(path + ":19:") != std::string::npos);
  CHECK(r.err.find("static_assert failed: BLK_K0 must be a multiple of 8.") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("class templates: a partial specialization on a dispatch policy, a full one, base classes") {
  CHECK(eval_ok("kStagesSm90") == "4");
  CHECK(eval_ok("SmemShapeA") == "(128,64,3)");
  CHECK(eval_ok("kStagesSm80") == "20");
  CHECK(eval_ok("kStagesOther") == "1");
  CHECK(eval_ok("SmemLayoutQ64") == "Sw<3,3,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))");
  CHECK(eval_ok("kBlockM64") == "64");
  CHECK(eval_ok("kDerivedWarps") == "4");
  CHECK(eval_ok("Derived::kThreads") == "128");
}

TEST_CASE("MMA_Traits<Alias> (the tutorial's spelling) and a home-made atom's MMA_Traits specialization") {
  CHECK(eval_ok("size(TiledMmaTutorial{})") == "128");
  CHECK(eval_ok("get_layoutC_TV(TiledMmaTutorial{})") == "((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))");
  CHECK(eval_ok("get_layoutA_TV(TiledMmaTutorial{})") ==
        "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))");
  CHECK(eval_ok("FragC") == "((2,2),2,4):((1,2),4,8)");
  CHECK(eval_ok("size(TiledMmaMine{})") == "128");
  CHECK(eval_ok("get_layoutC_TV(TiledMmaMine{})") == "((4,16,2),(2,(1,1))):((32,1,128),(16,(0,0)))");
  CHECK(eval_ok("get_layoutA_TV(TiledMmaMine{})") == "((4,16,2),(1,(1,1))):((16,1,0),(0,(0,0)))");
  CHECK(eval_ok("get_layoutB_TV(TiledMmaMine{})") == "((4,8,2,2),(1,(1,1))):((16,1,0,8),(0,(0,0)))");
  CHECK(eval_ok("FragCMine") == "(2,2,2):(1,2,4)");
}

TEST_CASE("a home-made copy op's Copy_Traits specialization, and Copy_Traits<Alias> of CuTe's op") {
  CHECK(eval_ok("size(G2SCopy{})") == "128");
  CHECK(eval_ok("G2SCopy::TiledLayout_TV") == "((8,16),4):((64,1),16)");
  CHECK(eval_ok("G2SCopy::Tiler_MN") == "(16,32)");
  CHECK(eval_ok("S2RCopyA::TiledLayout_TV") == "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))");
  CHECK(eval_ok("S2RCopyA::Tiler_MN") == "(32,16)");
}

TEST_CASE("floating constants are values of their type, printed as CuTe prints them; INFINITY is refused") {
  CHECK(eval_ok("kScale") == "0.125000");
  CHECK(eval_ok("kNegInfApprox") == "-1000000015047466219876688855040.000000");  // -1e30f: the float nearest
  auto json = test::run_cutevis({"eval", "--json", "--from", kFile, "kScale"});  // its type and exact value
  REQUIRE(json.exit_code == 0);
  const nlohmann::json scale = nlohmann::json::parse(json.out);
  CHECK(scale["kind"] == "float");
  CHECK(scale["type"] == "float");
  CHECK(scale["value"] == 0.125);
  auto inf = test::run_cutevis({"eval", "--", "-INFINITY"});
  CHECK(inf.exit_code == kExitBadInput);
  CHECK(inf.err.find("INFINITY is not a finite floating-point value") != std::string::npos);
  // every declaration at file scope resolves (the templates' own members need their arguments)
  auto names = test::run_cutevis({"names", "--from", kFile, "--json"});
  CAPTURE(names.err);
  REQUIRE(names.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(names.out);
  size_t checked = 0;
  for (const auto& entry : j.at("names")) {
    const std::string name = entry.at("name");
    if (name.find("::") != std::string::npos || name.find("Registers") != std::string::npos) continue;
    CAPTURE(name);
    CHECK(!entry.contains("error"));
    ++checked;
  }
  CHECK(checked == 33);
}
