// verify's API: bad input is an Error (exit 2), GPU or not.  The reports' exit codes and
// JSON are app's: tests/app/verify_json_test.cpp.
#include <doctest/doctest.h>

#include "atoms/verify/verify.hpp"
#include "lib/error.hpp"
#include "tests/gpu/verify_atoms.hpp"

using namespace cutevis;
using cutevis::test::layout_of;

TEST_CASE("verify api: bad hand-written layouts are bad input, GPU or not") {
  VerifyOverrides ov;
  ov.layout_a = layout_of("((4,8),(2,2)):((32,1),(16,8))");  // 4 values, the atom has 8
  CHECK_THROWS_AS(verify_mma(test::sm80_16x8x16_f32f16(), ov), Error);
  VerifyOverrides copy_on_mma;
  copy_on_mma.layout_src = layout_of("(32,8):(8,1)");
  CHECK_THROWS_AS(verify_mma(test::sm80_16x8x16_f32f16(), copy_on_mma), Error);
  VerifyOverrides mma_on_copy;
  mma_on_copy.layout_c = layout_of("(32,8):(8,1)");
  CHECK_THROWS_AS(verify_copy(test::ldsm_n(4), mma_on_copy), Error);
}
