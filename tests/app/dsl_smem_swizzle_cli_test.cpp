// CuTeDSL's swizzled shared memory on byte addresses (issue 20): `S o 0 o L` over an smem pointer
// is C++'s `S o smem_ptr[bits](unset) o L` to the inspector and to --color-by bank.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {
const std::string kLdsm =
    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, "
    "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))";
const std::string kCpp = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_32,_64>{})";
const std::string kDslLayout =
    "cute.tile_to_shape(cute.nvgpu.warpgroup.make_smem_layout_atom(cute.nvgpu.warpgroup.SmemLayoutAtomKind.K_SW128, "
    "cutlass.Float16), (32, 64), (0, 1))";
const std::string kDslTensor =
    "cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), " + kDslLayout + ")";

json analyze(const std::string& src) {
  auto r = test::run_cutevis({"copy", kLdsm, "--src", src, "--analyze", "--json"});
  REQUIRE(r.exit_code == kExitOk);
  return json::parse(r.out);
}
}  // namespace

TEST_CASE("a CuTeDSL SW128 atom used as smem is analysed as GMMA::Layout_K_SW128_Atom<half_t>") {
  const json cpp = analyze("smem:" + kCpp), dsl = analyze(kDslTensor);
  CHECK(dsl == cpp);
  CHECK(cpp["smem"]["bank_conflicts"] == 0);
  CHECK(cpp["smem"]["wavefronts"] == 64);
  // the same composed layout as a function of element offsets is another layout: 64 conflicts
  const json elements = analyze("smem:" + kDslLayout);
  CHECK(elements["smem"]["bank_conflicts"] == 64);
}

TEST_CASE("a CuTeDSL SW128 smem tensor gets the C++ atom's bank colours; its layout keeps CuTeDSL's values") {
  auto cpp = test::run_cutevis({"layout", kCpp, "--color-by", "bank", "--txt"});
  auto dsl = test::run_cutevis({"layout", kDslTensor, "--color-by", "bank", "--txt"});
  REQUIRE(cpp.exit_code == kExitOk);
  REQUIRE(dsl.exit_code == kExitOk);
  auto body = [](const std::string& s) { return s.substr(s.find('\n')); };  // after the title (the input text)
  CHECK(body(dsl.out) == body(cpp.out));
  auto plain_banks = test::run_cutevis({"layout", kDslLayout, "--color-by", "bank", "--txt"});
  CHECK(body(plain_banks.out) != body(cpp.out));
  auto plain = test::run_cutevis({"eval", kDslLayout});
  CHECK(plain.out == "Sw<3,4,3> o 0 o ((8,4),(64,1)):((64,512),(1,0))\n");
  auto tensor = test::run_cutevis({"eval", kDslTensor});
  CHECK(tensor.out.find("Sw<3,4,3>_smem_ptr[16b]") != std::string::npos);
}
