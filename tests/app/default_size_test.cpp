// A program's problem size read at its default: a host local only the command line changes (`int Gemm_M = 512;
// if (argc >= 2) sscanf(argv[1], "%d", &Gemm_M);`, `m = atoi(argv[2])`, `cmd.get_cmd_line_argument("m", m)`) is
// its initializer's value, said in a note beside the value in names (text and JSON's "note") and as a warning
// elsewhere; -D gives another; every other change at run time stays a run-time value (lib/lang/kernel_body.cpp
// argv_read, lib/lang/launch_binding.cpp mark_changed_locals, lib/lang/environment.cpp).  The expected values
// are real CuTe's (tests/data/kernels/default_size_oracle.tsv).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/support/cutlass_oracle.hpp"
#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"
#include "tests/support/tsv_oracle.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

const std::string kFile = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/tutorial_style_default_size.cu";

std::map<std::string, std::string> oracle() { return test::tsv_oracle("tests/data/kernels/default_size_oracle.tsv"); }

// names --json of `args`, by qualified name
std::map<std::string, json> names(std::vector<std::string> args) {
  args.insert(args.begin(), {"names", "--json"});
  std::map<std::string, json> out;
  for (const json& row : test::names_of_run(args)) out[row["name"].get<std::string>()] = row;
  return out;
}

std::string value_of(const json& row) {  // the value without the notes under it
  const std::string v = row.value("value", "unresolved: " + row.value("error", std::string()));
  return v.substr(0, v.find('\n'));
}

std::string layout_of(const std::string& print) { return print.substr(print.find(" o ") + 3); }

}  // namespace

TEST_CASE("a problem size only the command line changes is read at the program's default, said beside the value") {
  register_catalogue_names();
  const auto cute = oracle();
  const auto v = names({"--from", kFile});
  // each default's own row: its value and where the command line changes it
  const std::map<std::string, std::pair<std::string, std::string>> defaults = {
      {"Gemm_M", {"256", "its initializer at line 25); argv[1] changes it at line 27"}},
      {"Gemm_N", {"128", "its initializer at line 29); argv[2] changes it at line 31"}},  // atoi
      {"Gemm_K", {"512", "its initializer at line 33); argv[3] changes it at line 35"}},  // std::stoi
      {"stages", {"4", "its initializer at line 38); --stages changes it at line 39"}}};  // cutlass::CommandLine
  for (const auto& entry : defaults) {  // (not a structured binding: clang 14 cannot CAPTURE one)
    const std::string& name = entry.first;
    const auto& expected = entry.second;
    CAPTURE(name);
    const json& row = v.at("main::" + name);
    REQUIRE(row["kind"] == "int");
    const std::string note = name + " = " + expected.first + ", the program's default (" + expected.second + " (-D " +
                             name + "=N for another)";
    CHECK(row["note"] == note);
    CHECK(row["value"] == expected.first + "\n  " + note);
  }
  // a value read at them: CuTe's, with one line naming the defaults it was read at
  CHECK(test::function_of(value_of(v.at("main::layout_A"))) == test::function_of(cute.at("file.layout_A")));
  CHECK(v.at("main::layout_A")["note"] ==
        "at the program's default problem size: Gemm_M = 256, Gemm_K = 512 (the command line changes them; -D NAME=N "
        "for others)");
  CHECK(test::function_of(value_of(v.at("main::layout_C"))) == test::function_of(cute.at("file.layout_C")));
  CHECK(test::function_of(value_of(v.at("main::layout_S"))) == test::function_of(cute.at("file.layout_S")));
  CHECK(v.at("main::layout_S")["note"] ==
        "at the program's default problem size: stages = 4 (the command line changes it; -D stages=N for another)");
  CHECK(v.at("main::ldA")["note"].get<std::string>().find("Gemm_K = 512") != std::string::npos);  // through ldA
  CHECK(layout_of(value_of(v.at("main::mA"))) == cute.at("file.mA.layout"));
  // the kernel's tile, bound from its launch in main: CTA 0's, read at the default, both said
  const json& gA = v.at("gemm_device::gA");
  CHECK(layout_of(value_of(gA)) == cute.at("file.gA.layout"));
  CHECK(gA["note"].get<std::string>().find("Gemm_M = 256, Gemm_K = 512") != std::string::npos);
  CHECK(v.at("main::cta_tiler").count("note") == 0);  // nothing read at run time: no note
  // the text form says it under the value
  auto text = test::run_cutevis({"names", "--from", kFile});
  CHECK(text.out.find("main::Gemm_M            int              256\n"
                      "                                           Gemm_M = 256, the program's default") !=
        std::string::npos);
  // an expression read at the default says so in a warning
  auto eval = test::run_cutevis({"eval", "--from", kFile, "main::layout_A"});
  CHECK(eval.exit_code == 0);
  CHECK(eval.out == "(256,512):(512,_1)\n");
  CHECK(eval.err.find("cutevis: warning: Gemm_M = 256, the program's default (its initializer at line 25); argv[1] "
                      "changes it at line 27 (-D Gemm_M=N for another)") != std::string::npos);
}

TEST_CASE("-D NAME=N gives a command-line default another value, without the note") {
  register_catalogue_names();
  const auto cute = oracle();
  const auto v = names({"--from", kFile, "-D", "Gemm_M=1024", "-D", "stages=3"});
  CHECK(v.at("main::Gemm_M")["value"] == "1024");
  CHECK(v.at("main::Gemm_M").count("note") == 0);
  CHECK(test::function_of(value_of(v.at("main::layout_A"))) == test::function_of(cute.at("file.D.layout_A")));
  CHECK(v.at("main::layout_A")["note"] ==
        "at the program's default problem size: Gemm_K = 512 (the command line changes it; -D Gemm_K=N for another)");
  CHECK(test::function_of(value_of(v.at("main::layout_S"))) == test::function_of(cute.at("file.D.layout_S")));
  CHECK(v.at("main::layout_S").count("note") == 0);
}

TEST_CASE("other changes at run time stay run-time values: a loop, another run-time value, a helper through &x") {
  register_catalogue_names();
  const auto v = names({"--from", kFile});
  const std::map<std::string, std::string> refused = {
      {"split", "split changes at run time (`parse_split(argc, argv, &split)` at line 42)"},  // not a known reader
      {"ldB",
       "ldB changes at run time (`if (argc >= 5)     ldB = Gemm_K` at line 47, in the if at line 46 on "
       "`argc >= 5`, known only when the program runs"},  // a condition on a run-time value
      {"ld_argc", "ld_argc changes at run time (`ld_argc = Gemm_M` at line 82, in the if at line 81 on `argc >= 8`"},
      {"ld_loop", "ld_loop changes at run time (`ld_loop = Gemm_M` at line 87)"},        // an if in a loop
      {"ld_ptr", "ld_ptr changes at run time (`int* p = &ld_ptr` at line 92)"},          // through a pointer
      {"ld_lambda", "ld_lambda changes at run time (`ld_lambda = Gemm_M` at line 96)"},  // in a nested function
      {"k_tiles", "k_tiles changes at run time (`k += 64)     ++k_tiles` at line 51)"},  // a loop's counter
      {"mixed", "mixed changes at run time (`mixed *= 2` at line 56)"}};                 // the command line, then more
  for (const auto& entry : refused) {
    const std::string &name = entry.first, &error = entry.second;
    CAPTURE(name);
    const json& row = v.at("main::" + name);
    CHECK(row["kind"] == "unresolved");
    CHECK(row["error"].get<std::string>().rfind(error, 0) == 0);
  }
  for (const char* name : {"layout_B", "layout_T", "layout_X"}) {
    CAPTURE(name);
    CHECK(v.at(std::string("main::") + name)["kind"] == "unresolved");
    CHECK(v.at(std::string("main::") + name)["error"].get<std::string>().find("changes at run time") !=
          std::string::npos);
  }
}

TEST_CASE("real CUTLASS tutorials (CUTLASS_PATH) without -D sizes: read at their default problem size, CuTe's values") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  namespace fs = std::filesystem;
  if (!cutlass || !fs::exists(fs::path(cutlass) / "examples/cute/tutorial/blackwell/02_mma_tma_sm100.cu"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  register_catalogue_names();
  const auto cute = oracle();
  const std::string root = cutlass, tut = root + "/examples/cute/tutorial/";
  const auto bw = names({"--from", tut + "blackwell/02_mma_tma_sm100.cu", "-I", root + "/include", "-D",
                         "TypeA=cutlass::half_t", "-D", "TypeB=cutlass::half_t", "-D", "TypeC=float", "-D",
                         "TypeD=float", "-D", "CUTLASS_ARCH_MMA_SM100_SUPPORTED=1"});
  CHECK(bw.at("main::Gemm_M")["note"].get<std::string>().rfind("Gemm_M = 512, the program's default", 0) == 0);
  for (const char* x : {"layout_A", "layout_B", "layout_C", "layout_D"}) {
    CAPTURE(x);
    CHECK(test::function_of(value_of(bw.at(std::string("main::") + x))) ==
          test::function_of(cute.at(std::string("sm100_02.") + x)));
  }
  for (const char* x : {"mA_tma", "mB_tma"})
    CHECK(value_of(bw.at(std::string("gemm_host_f16xf16_f32_f32_tnt::") + x)) == cute.at(std::string("sm100_02.") + x));
  for (const char* x : {"gA", "gB", "tCgA", "tCgB", "tAgA", "tBgB"}) {
    CAPTURE(x);
    CHECK(value_of(bw.at(std::string("gemm_device::") + x)) == cute.at(std::string("sm100_02.") + x));
  }
  for (const char* x : {"gC", "tCgC", "tAsA", "tBsB"}) {
    CAPTURE(x);
    CHECK(layout_of(value_of(bw.at(std::string("gemm_device::") + x))) ==
          cute.at(std::string("sm100_02.") + x + ".layout"));
  }
  const auto h = names({"--from", tut + "hopper/wgmma_sm90.cu", "-I", root + "/include", "-D", "TA=cute::half_t", "-D",
                        "TB=cute::half_t", "-D", "TC=cute::half_t", "-D", "CUTLASS_ARCH_MMA_SM90_SUPPORTED=1"});
  CHECK(test::function_of(value_of(h.at("gemm_nt::prob_shape"))) == test::function_of(cute.at("wgmma.prob_shape")));
  CHECK(layout_of(value_of(h.at("gemm_device::mC"))) == cute.at("wgmma.mC.layout"));
  CHECK(layout_of(value_of(h.at("gemm_device::gC"))) == cute.at("wgmma.gC.layout"));
  // ldA is assigned m or k by transA's branch: read at the branch its default 'N' takes
  CHECK(value_of(h.at("main::ldA")) == "5120");
  CHECK(h.at("main::ldA")["note"].get<std::string>().rfind("ldA = m = 5120: the branch transA == 'N' at line ", 0) ==
        0);
  // the TMA tutorial: its TMA atoms and smem partitions, read at ldA = m, ldB = n (they were unresolved)
  const auto t = names({"--from", tut + "hopper/wgmma_tma_sm90.cu", "-I", root + "/include", "-D", "TA=cute::half_t",
                        "-D", "TB=cute::half_t", "-D", "TC=cute::half_t", "-D", "CUTLASS_ARCH_MMA_SM90_SUPPORTED=1"});
  CHECK(value_of(t.at("main::ldA")) == "512");
  CHECK(value_of(t.at("main::ldB")) == "256");  // transB 'T': ldB = n
  CHECK(layout_of(value_of(t.at("gemm_device::tAsA"))) == cute.at("wgmma_tma.tAsA.layout"));
  CHECK(t.at("gemm_device::tAsA")["note"].get<std::string>().find("ldA = 512") != std::string::npos);
  CHECK("_" + value_of(t.at("gemm_device::K_PIPE_MAX")) == cute.at("wgmma_tma.K_PIPE_MAX"));
  // (cutevis prints a Copy_Atom's layouts without CuTe's `_` of a static int: compared as functions)
  for (const char* x : {"tmaA", "tmaB"}) {
    CAPTURE(x);
    const std::string v = t.at(std::string("gemm_nt::") + x)["value"];
    const size_t src = v.find("ValLayoutSrc: ");
    REQUIRE(src != std::string::npos);
    CHECK(test::function_of(v.substr(src + 14, v.find('\n', src) - src - 14)) ==
          test::function_of(cute.at(std::string("wgmma_tma.") + x + ".ValLayoutSrc")));
  }
}

TEST_CASE("a local an if-chain assigns is read at the branch the program's defaults take; -D switches the branch") {
  register_catalogue_names();
  const auto cute = oracle();
  const auto v = names({"--from", kFile});
  CHECK(v.at("main::trans")["note"].get<std::string>().rfind("trans = 'N', the program's default", 0) == 0);
  CHECK(value_of(v.at("main::ld")) == "256");
  CHECK(v.at("main::ld")["note"] ==
        "ld = Gemm_M = 256: the branch trans == 'N' at line 70, at the program's default trans = 'N' (-D ld=N for "
        "another)");
  CHECK(test::function_of(value_of(v.at("main::layout_L"))) == test::function_of(cute.at("file.layout_L")));
  CHECK(v.at("main::layout_L")["note"].get<std::string>().find("ld = 256, trans = 'N'") != std::string::npos);
  CHECK(value_of(v.at("main::pad")) == "8");  // no branch assigns it at 'N': its initializer
  CHECK(v.at("main::pad")["note"].get<std::string>().find("no branch of the if at line 78 assigns it") !=
        std::string::npos);
  // a char given with -D, as C++ writes it, takes the other branch
  const auto t = names({"--from", kFile, "-D", "trans='T'"});
  CHECK(value_of(t.at("main::ld")) == "512");
  CHECK(t.at("main::ld")["note"].get<std::string>().rfind("ld = Gemm_K = 512: the branch trans == 'T' at line 72", 0) ==
        0);
  CHECK(test::function_of(value_of(t.at("main::layout_L"))) == test::function_of(cute.at("file.T.layout_L")));
  CHECK(value_of(names({"--from", kFile, "-D", "trans=84"}).at("main::ld")) == "512");  // 'T' as its code
  // the branch taken stops the program: an error, not the initializer
  const auto q = names({"--from", kFile, "-D", "trans='Q'"});
  CHECK(q.at("main::ld")["kind"] == "unresolved");
  CHECK(q.at("main::ld")["error"] ==
        "ld: the branch else at line 74 is the one taken at these values, and it stops the program (assert(false) or "
        "throw)");
  // -D of the local itself still wins
  const auto d = names({"--from", kFile, "-D", "ld=7"});
  CHECK(value_of(d.at("main::ld")) == "7");
  CHECK(d.at("main::ld").count("note") == 0);
}
