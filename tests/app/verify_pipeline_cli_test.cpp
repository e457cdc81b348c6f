// `cutevis verify --pipeline` on the command line: flags validated (exit 2, the caret in the
// flag's text), failures found before running (exit 1 with a diff picture, GPU or not), exit 3
// without a GPU for a kernel that must run, --from / -D names in the layouts.
#include <doctest/doctest.h>

#include <fstream>

#include "app/exit_codes.hpp"
#include "atoms/verify/verify.hpp"
#include "tests/support/run.hpp"
#include "tests/support/scratch.hpp"

using namespace cutevis;

namespace {
const std::string kMma = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";
std::vector<std::string> sm80(std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"verify",   "--pipeline",        "--mma",    kMma,
                                "--smem-a", "(32,16):(16,1)",    "--smem-b", "(16,16):(16,1)",
                                "--copy-a", "SM75_U32x4_LDSM_N", "--copy-b", "SM75_U32x2_LDSM_N"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
}  // namespace

TEST_CASE("cutevis verify --pipeline: bad input is exit 2 with the flag named") {
  auto no_flag = test::run_cutevis({"verify", "--mma", kMma});
  CHECK(no_flag.exit_code == kExitBadInput);
  CHECK(no_flag.err.find("go with --pipeline") != std::string::npos);
  auto no_mma = test::run_cutevis({"verify", "--pipeline", "--smem-a", "(32,16):(16,1)"});
  CHECK(no_mma.exit_code == kExitBadInput);
  CHECK(no_mma.err.find("needs --mma") != std::string::npos);
  auto not_mma = test::run_cutevis(
      {"verify", "--pipeline", "--mma", "(4,8):(1,4)", "--smem-a", "(32,16):(16,1)", "--smem-b", "(16,16):(16,1)"});
  CHECK(not_mma.exit_code == kExitBadInput);
  CHECK(not_mma.err.find("--mma: needs a TiledMMA") != std::string::npos);
  auto typo = test::run_cutevis({"verify", "--pipeline", "--mma", kMma, "--smem-a", "(32,16):(16,1", "--smem-b",
                                 "(16,16):(16,1)", "--copy-a", "SM75_U32x4_LDSM_N", "--copy-b", "SM75_U32x2_LDSM_N"});
  CHECK(typo.exit_code == kExitBadInput);
  CHECK(typo.err.find("--smem-a") != std::string::npos);
  CHECK(typo.err.find("^") != std::string::npos);
  auto shape = test::run_cutevis(sm80({"--data-a", "(16,16):(16,1)"}));
  CHECK(shape.exit_code == kExitBadInput);
  CHECK(shape.err.find("--data-a is (16,16); it must be (32,16)") != std::string::npos);
  auto atom = test::run_cutevis({"verify", "--pipeline", "--mma", kMma, "--smem-a", "(32,16):(16,1)", "--smem-b",
                                 "(16,16):(16,1)", "--copy-a", "SM75_U32x4_LDSM_X", "--copy-b", "SM75_U32x2_LDSM_N"});
  CHECK(atom.exit_code == kExitBadInput);
  CHECK(atom.err.find("--copy-a") != std::string::npos);
  auto all = test::run_cutevis(sm80({"--all"}));
  CHECK(all.exit_code == kExitBadInput);
  auto g2s = test::run_cutevis(sm80({"--g2s", "(4,8):(1,4)"}));
  CHECK(g2s.exit_code == kExitBadInput);
  CHECK(g2s.err.find("--g2s: needs a TiledCopy") != std::string::npos);
}

TEST_CASE("cutevis verify --pipeline: a wrong atom fails before running, with a picture, GPU or not") {
  test::Scratch dir("verify_pipeline_cli");
  const std::string svg = dir / "diff.svg";
  auto r = test::run_cutevis({"verify", "--pipeline", "--mma", kMma, "--smem-a", "(32,16):(16,1)", "--smem-b",
                              "(16,16):(16,1)", "--copy-a", "SM75_U16x8_LDSM_T", "--copy-b", "SM75_U32x2_LDSM_N", "-o",
                              svg});
  CHECK(r.exit_code == kExitDisagree);
  std::ifstream in(svg);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("<svg") != std::string::npos);
  auto t = test::run_cutevis({"verify", "--pipeline", "--mma", kMma, "--smem-a", "(32,16):(16,1)", "--smem-b",
                              "(16,16):(16,1)", "--copy-a", "SM75_U16x8_LDSM_T", "--copy-b", "SM75_U32x2_LDSM_N"});
  CHECK(t.exit_code == kExitDisagree);
  CHECK(t.out.find("before running: --copy-a ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 thread 1") !=
        std::string::npos);
}

TEST_CASE("cutevis verify --pipeline: exit 0 on a GPU, 3 without one; names from --from / -D") {
  const bool gpu = probe_gpu().available && probe_gpu().sm >= 80;
  auto r = test::run_cutevis({"verify", "--pipeline", "--mma", kMma, "--smem-a", "SmemA", "--smem-b", "(16,BK):(BK,1)",
                              "-D", "BK=16", "-D", "SmemA=Layout<Shape<_32,Int<BK>>,Stride<Int<BK>,_1>>", "--copy-a",
                              "SM75_U32x4_LDSM_N", "--copy-b", "SM75_U32x2_LDSM_N", "--json"});
  if (gpu) {
    CHECK(r.exit_code == kExitOk);
    CHECK(r.out.find("\"status\":\"agree\"") != std::string::npos);
  } else {
    CHECK(r.exit_code == kExitNoGpu);
    CHECK(r.out.find("\"status\":\"no-gpu\"") != std::string::npos);
  }
}
