// Alias templates and struct templates instantiated with arguments (issue 13):
//   template <class T, int BK = 64> using SmemLayoutAtom = ...;   SmemLayoutAtom<half_t, 32>{}
//   template <class T, ...> struct Cfg { using SmemLayoutA = ...; };   Cfg<half_t>::SmemLayoutA{}
// Expected values: a host-only program built against CUTLASS 4 (g++ 12) with the same
// declarations as tests/data/templates_config.hpp printed each expression with cute::print.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run.hpp"

using namespace cutevis;

namespace {

const std::string kTemplates = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/templates_config.hpp";

std::string cute_print(const std::string& expr) {
  auto r = test::run_cutevis({"eval", "--json", "--from", kTemplates, expr});
  CAPTURE(expr);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out)["cute"].get<std::string>();
}

}  // namespace

TEST_CASE("templates: alias templates and Struct<Args>::Member instantiate as CuTe does") {
  CHECK(cute_print("SmemLayoutAtom<half_t, 32>{}") == "Sw<3,3,3> o _0 o (_8,_32):(_32,_1)");
  CHECK(cute_print("SmemLayoutAtom<float>{}") == "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");  // BK's default
  CHECK(cute_print("Cfg<half_t>::SmemLayoutA{}") ==
        "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_2),(_1,_3)):((_64,_512),(_1,_8192),(_0,_16384))");
  CHECK(cute_print("Cfg<float, 64, 2>::SmemLayoutA{}") ==
        "Sw<3,4,3> o smem_ptr[32b](unset) o ((_8,_8),(_32,_2),(_1,_2)):((_32,_256),(_1,_2048),(_0,_4096))");
  CHECK(cute_print("typename Cfg<cutlass::bfloat16_t, 256>::SmemLayoutAtomA") ==
        "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  CHECK(cute_print("Cfg<float>::kBlockK") == "64");
}

TEST_CASE("templates: too many arguments and a parameter without a default are errors") {
  auto r = test::run_cutevis({"eval", "--from", kTemplates, "SmemLayoutAtom<half_t, 32, 4>{}"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("takes 2 template arguments, got 3") != std::string::npos);
  r = test::run_cutevis({"eval", "--from", kTemplates, "Cfg<>::SmemLayoutA{}"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("'T' of Cfg has no default") != std::string::npos);
}
