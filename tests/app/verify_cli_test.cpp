// `cutevis verify` on the command line: exit codes with and without a GPU, bad input.
#include <doctest/doctest.h>

#include "app/exit_codes.hpp"
#include "atoms/verify/verify.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;

TEST_CASE("cutevis verify: exit 0 on a GPU, 3 with a clear message without one") {
  const bool gpu = probe_gpu().available;
  auto r = test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TN"});
  if (gpu) {
    CHECK(r.exit_code == kExitOk);
    CHECK(r.out.find("agree") != std::string::npos);
  } else {
    CHECK(r.exit_code == kExitNoGpu);
    CHECK(r.err.find("no usable GPU") != std::string::npos);
    CHECK(r.out.find("no-gpu") != std::string::npos);
  }
}

TEST_CASE("cutevis verify: an atom verify cannot run says why, not 'no GPU', whatever the machine (exit 3)") {
  // (on an H200 the sparse GMMA's refusal ended in "no usable GPU or CUDA")
  auto r =
      test::run_cutevis({"verify", "SM90::GMMA::SPARSE::GMMA_64x64x32_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"});
  CHECK(r.exit_code == kExitNoGpu);
  CHECK(r.err.find("cutevis: skipped: sparse MMA") != std::string::npos);
  CHECK(r.err.find("no usable GPU") == std::string::npos);
}

TEST_CASE("cutevis verify: bad input is exit 2 whatever the machine") {
  auto wrong_flags =
      test::run_cutevis({"verify", "Copy_Atom<SM75_U32x4_LDSM_N, half_t>", "--layout-a", "(32,4):(4,1)"});
  CHECK(wrong_flags.exit_code == kExitBadInput);
  CHECK(wrong_flags.err.find("copy atom") != std::string::npos);

  auto bad_layout =
      test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TN", "--layout-a", "((4,8),(2,2,2):((32,1),(16,8,128))"});
  CHECK(bad_layout.exit_code == kExitBadInput);
  CHECK(bad_layout.err.find("--layout-a") != std::string::npos);

  auto wrong_size = test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TN", "--layout-a", "(32,4):(4,1)"});
  CHECK(wrong_size.exit_code == kExitBadInput);

  auto unknown = test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TX"});
  CHECK(unknown.exit_code == kExitBadInput);

  auto both = test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TN", "--all"});
  CHECK(both.exit_code == kExitBadInput);

  auto arch = test::run_cutevis({"verify", "--all", "--arch", "banana"});
  CHECK(arch.exit_code == kExitBadInput);
}
