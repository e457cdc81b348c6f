// `cutevis check` (issue 21): hand-made SM80 kernels with known defects, each found at its line with
// its severity and nothing else; the corrected kernel is clean; sweeps; JSON and SARIF.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "app/check.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

const std::string kData = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/check/";
const std::vector<std::string> kSizes{"-D", "M=4096", "-D", "N=4096", "-D", "K=4096"};

// The line of the first line of `file` containing `marker` (1-based).
int line_of(const std::string& file, const std::string& marker) {
  std::ifstream in(kData + file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(marker) != std::string::npos) return n;
  FAIL("no line with " << marker);
  return 0;
}

test::RunResult check(const std::string& file, std::vector<std::string> extra) {
  std::vector<std::string> args{"check", "--from", kData + file};
  args.insert(args.end(), kSizes.begin(), kSizes.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return test::run_cutevis(args);
}

using Key = std::tuple<int, std::string, std::string>;  // line, severity, kind

}  // namespace

TEST_CASE("check: every defect of the SM80 kernel at its line with its severity, nothing else") {
  const std::string f = "sm80_gemm_defects.cu";
  auto r = check(f, {"--json"});
  CAPTURE(r.err);
  CHECK(r.exit_code == 1);  // errors: would not compile or would fault
  json j = json::parse(r.out);
  const int g2s_a = line_of(f, "copy(copy_a,"), g2s_b = line_of(f, "copy(copy_b,");
  const int s2r_a = line_of(f, "copy(s2r_copy_a,"), s2r_b = line_of(f, "copy(s2r_copy_b,");
  const int gemm = line_of(f, "gemm(mma,"), comment = line_of(f, "(BLK_N,BLK_K) DEFECT");
  std::multiset<Key> want{
      {g2s_a, "error", "vectorize"},     // M-major A under a K-major 128-bit cp.async
      {g2s_a, "error", "misaligned"},    // 136-byte rows: cp.async 16 B faults
      {g2s_b, "error", "thread-count"},  // 256-thread copy, 128-thread MMA
      {s2r_a, "error", "misaligned"},    // ldmatrix rows at byte 136
      {s2r_a, "warning", "bank-conflict"},
      {s2r_b, "error", "fragment"},         // make_tiled_copy_A for B
      {s2r_b, "warning", "bank-conflict"},  // 128-byte unswizzled rows: 8-way
      {gemm, "error", "operand"},           // B's fragment as A
      {gemm, "error", "operand"},           // and A's as B
      {comment, "warning", "layout-comment"},
  };
  std::multiset<Key> got;
  for (const json& x : j["findings"]) {
    CHECK(x["file"] == kData + f);
    got.insert({x["line"].get<int>(), x["severity"].get<std::string>(), x["kind"].get<std::string>()});
  }
  CHECK(got == want);
  CHECK(j["summary"]["errors"] == 7);
  CHECK(j["summary"]["warnings"] == 3);  // no cost warnings beside a copy that does not compile
  CHECK(j["summary"]["copies_checked"] == 4);
  CHECK(j["summary"]["gemms_checked"] == 1);
  for (const json& x : j["findings"]) {
    const std::string kind = x["kind"];
    if (kind == "misaligned" && x["line"] == g2s_a) {
      CHECK(x["message"].get<std::string>().find("smem byte 136") != std::string::npos);
      CHECK(x["fix"] == "pad SmemLayoutA's stride 68 to 72 elements (a multiple of the 8-element vector)");
      REQUIRE(x["related"].size() == 1);  // the declaration to change
      CHECK(x["related"][0]["line"] == line_of(f, "using SmemLayoutA ="));
    }
    if (kind == "bank-conflict" && x["line"] == s2r_b)  // ldmatrix on 128-byte rows: 8 wavefronts per phase
      CHECK(x["message"].get<std::string>().find("2048 wavefronts where 256 are ideal (8.0x)") != std::string::npos);
    if (kind == "vectorize")  // CuTe's own words
      CHECK(x["message"].get<std::string>().rfind(
                "Copy_Traits: src failed to vectorize into registers. Layout is incompatible with this CopyOp.", 0) ==
            0);
    if (kind == "thread-count") {
      REQUIRE(x["related"].size() == 2);  // the copy's declaration and the MMA's
      CHECK(x["related"][0]["line"] == line_of(f, "using GmemCopyB ="));
      CHECK(x["related"][1]["line"] == line_of(f, "using TiledMma ="));
    }
    if (kind == "fragment") CHECK(x["related"][0]["line"] == line_of(f, "TiledCopy s2r_copy_b ="));
  }
}

TEST_CASE("check: the SM90 wgmma kernel's defects at their lines; the corrected one is clean") {
  const std::string f = "sm90_gemm_defects.cu";
  auto r = check(f, {"--json"});
  CAPTURE(r.err);
  CHECK(r.exit_code == 1);
  json j = json::parse(r.out);
  const int g2s_a = line_of(f, "copy(copy_a,"), g2s_b = line_of(f, "copy(copy_b,");
  const int gemm = line_of(f, "gemm(mma,"), comment = line_of(f, "(MMA,MMA_M,MMA_K) DEFECT");
  std::multiset<Key> want{
      {g2s_a, "error", "thread-count"},  // 128-thread copies, two warpgroups in the TiledMMA
      {g2s_b, "error", "thread-count"}, {g2s_b, "error", "vectorize"},  // K-major 128-bit copy into MN-major SW128 B
      {gemm, "error", "operand"},       {gemm, "error", "operand"},    {comment, "warning", "layout-comment"},
  };
  std::multiset<Key> got;
  for (const json& x : j["findings"])
    got.insert({x["line"].get<int>(), x["severity"].get<std::string>(), x["kind"].get<std::string>()});
  CHECK(got == want);
  for (const json& x : j["findings"])
    if (x["kind"] == "vectorize") {
      CHECK(x["message"].get<std::string>().rfind("Copy_Traits: dst failed to vectorize", 0) == 0);
      CHECK(x["related"][0]["line"] == line_of(f, "using SmemLayoutB ="));
    }
  auto clean = check("sm90_gemm.cu", {"--json"});
  CHECK(clean.exit_code == 0);
  json c = json::parse(clean.out);
  CHECK(c["findings"].empty());
  CHECK(c["summary"]["copies_checked"] == 2);
  CHECK(c["summary"]["gemms_checked"] == 1);
}

TEST_CASE("check: the corrected kernel is clean, compiler-style text otherwise") {
  auto r = check("sm80_gemm.cu", {});
  CAPTURE(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out ==
        "cutevis check: 4 copy and 1 gemm statements checked (once per launch and configuration): 0 errors, 0 "
        "warnings, 0 notes\n");
  auto bad = check("sm80_gemm_defects.cu", {});
  const std::string line = kData +
                           "sm80_gemm_defects.cu:" + std::to_string(line_of("sm80_gemm_defects.cu", "copy(copy_b,")) +
                           ":5: error: size(GmemCopyB) = 256 threads but size(mma) = 128";
  CHECK(bad.out.find(line) != std::string::npos);
  CHECK(bad.out.find("[thread-count]\n") != std::string::npos);
}

TEST_CASE("check: a sweep checks every combination in one process and names the failing ones") {
  auto r = check("sm80_gemm.cu", {"--json", "--sweep", "kPad=0|4|8|16", "--sweep", "kBlockK=32|64"});
  CAPTURE(r.err);
  CHECK(r.exit_code == 1);
  json j = json::parse(r.out);
  REQUIRE(j["summary"]["configs"].size() == 8);
  std::set<std::string> ok;
  for (const json& c : j["summary"]["configs"])
    if (c["ok"].get<bool>()) ok.insert(c["config"].get<std::string>());
  // BLK_K 32 is not a multiple of the G2S copy's 64 (and of the swizzle atom's); 4 halves of padding
  // misalign every 16-byte access; 16 halves leave 2-way conflicts (a warning: ok without --werror)
  CHECK(ok == std::set<std::string>{"kPad=0, kBlockK=64", "kPad=8, kBlockK=64", "kPad=16, kBlockK=64"});
  CHECK(j["summary"]["failing_configs"] == 5);
  for (const json& x : j["findings"]) CHECK(!x["config"].get<std::string>().empty());
  auto strict = check("sm80_gemm.cu", {"--json", "--werror", "--sweep", "kPad=8|16"});
  json s = json::parse(strict.out);
  CHECK(strict.exit_code == 1);
  CHECK(s["summary"]["configs"][0]["ok"] == true);
  CHECK(s["summary"]["configs"][1]["ok"] == false);  // kPad=16's conflicts under --werror
}

TEST_CASE("check: SARIF 2.1.0 with one result per finding; bad input is exit 2") {
  auto r = check("sm80_gemm_defects.cu", {"--sarif"});
  CHECK(r.exit_code == 1);
  json s = json::parse(r.out);
  CHECK(s["version"] == "2.1.0");
  REQUIRE(s["runs"].size() == 1);
  CHECK(s["runs"][0]["tool"]["driver"]["name"] == "cutevis");
  CHECK(s["runs"][0]["results"].size() == 10);
  for (const json& res : s["runs"][0]["results"]) {
    CHECK(res.contains("ruleId"));
    CHECK((res["level"] == "error" || res["level"] == "warning"));
    CHECK(res["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>() > 0);
  }
  CHECK(check("sm80_gemm.cu", {"--sweep", "kPad"}).exit_code == 2);
  auto missing = test::run_cutevis({"check", "--from", kData + "sm80_gemm.cu"});  // no -D M: notes, exit 0
  CHECK(missing.exit_code == 0);
  CHECK(missing.out.find("unknown name 'M'; give -D M=... [unresolved]") != std::string::npos);
  CHECK(test::run_cutevis({"check"}).exit_code == 2);
  CHECK(sweep_configs({"a=1|2", "b=x|y|z"}).size() == 6);
  CHECK(sweep_configs({"T=Shape<_1,_2>|int"}) == std::vector<std::vector<std::string>>{{"T=Shape<_1,_2>"}, {"T=int"}});
}

TEST_CASE("check: stale layout comments at file scope and in kernels, #if branches read without -D") {
  const std::string path = "/tmp/cutevis_check_" + std::to_string(::getpid()) + ".cu";
  std::ofstream(path) << "using TileLayout = Layout<Shape<_4, _8>>;  // (M,N,K)\n"
                         "using Fine = Layout<Shape<_4, _8>>;  // (M,N)\n"
                         "__global__ void k() {\n"
                         "  auto tv = Layout<Shape<_32, _8>>{};  // (T32,V4) -> (M16,K16)\n"
                         "#if __CUDA_ARCH__ >= 800\n"
                         "  auto x = Fine{};\n"
                         "#endif\n"
                         "}\n"
                         "#if CHECK_TEST_WIDE\n"
                         "using Extra = Layout<Shape<_2>>;\n"
                         "#endif\n";
  auto r = test::run_cutevis({"check", "--from", path, "--json"});
  std::remove(path.c_str());
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);  // warnings only
  json j = json::parse(r.out);
  std::multiset<Key> got;
  for (const json& x : j["findings"])
    got.insert({x["line"].get<int>(), x["severity"].get<std::string>(), x["kind"].get<std::string>()});
  CHECK(got == std::multiset<Key>{{1, "warning", "layout-comment"},  // rank 3 said, rank 2
                                  {4, "warning", "layout-comment"},  // V4 said, 8 values
                                  {5, "warning", "preprocessor"},    // inside the kernel: every branch read
                                  {9, "warning", "preprocessor"}});  // at file scope: the scanner's note, once
}
