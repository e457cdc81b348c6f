// The MMA instructions' shared-memory layout atoms (atoms/smem_atoms.cpp): GMMA's, as
// CuTe prints them, and UMMA's names for them.
#include <doctest/doctest.h>

#include <algorithm>

#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/smem_atoms.hpp"
#include "lib/lang/expr.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;

namespace {

const Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    register_algebra(*reg);
    register_mma_names(*reg);  // registers the smem atoms' names
    return reg;
  }();
  return *r;
}

AnyLayout A(const std::string& text) { return evaluate_expression(text, registry()).to_any_layout(); }

}  // namespace

TEST_CASE("GMMA shared-memory layout atoms (CuTe's answers, every kind and major)") {
  struct Case {
    const char* name;
    const char* cute;
    const char* position_independent;
  };
  const Case cases[] = {
      {"GMMA::Layout_K_INTER_Atom<half_t>{}", "Sw<0,4,3> o smem_ptr[16b](unset) o (8,8):(8,1)", "(8,8):(8,1)"},
      {"GMMA::Layout_K_SW32_Atom<half_t>{}", "Sw<1,4,3> o smem_ptr[16b](unset) o (8,16):(16,1)",
       "Sw<1,3,3> o 0 o (8,16):(16,1)"},
      {"GMMA::Layout_K_SW64_Atom<half_t>{}", "Sw<2,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)",
       "Sw<2,3,3> o 0 o (8,32):(32,1)"},
      {"GMMA::Layout_K_SW128_Atom<half_t>{}", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)",
       "Sw<3,3,3> o 0 o (8,64):(64,1)"},
      {"GMMA::Layout_MN_SW128_Atom<half_t>{}", "Sw<3,4,3> o smem_ptr[16b](unset) o (64,8):(1,64)",
       "Sw<3,3,3> o 0 o (64,8):(1,64)"},
      {"GMMA::Layout_K_SW32_Atom<float>{}", "Sw<1,4,3> o smem_ptr[32b](unset) o (8,8):(8,1)",
       "Sw<1,2,3> o 0 o (8,8):(8,1)"},
      {"GMMA::Layout_MN_SW64_Atom<tfloat32_t>{}", "Sw<2,4,3> o smem_ptr[32b](unset) o (16,8):(1,16)",
       "Sw<2,2,3> o 0 o (16,8):(1,16)"},
      {"GMMA::Layout_K_SW128_Atom<float_e4m3_t>{}", "Sw<3,4,3> o smem_ptr[8b](unset) o (8,128):(128,1)",
       "Sw<3,4,3> o 0 o (8,128):(128,1)"},
      {"GMMA::Layout_MN_INTER_Atom<double>{}", "Sw<0,4,3> o smem_ptr[64b](unset) o (2,8):(1,2)", "(2,8):(1,2)"},
      {"GMMA::Layout_K_SW128_Atom<double>{}", "Sw<3,4,3> o smem_ptr[64b](unset) o (8,16):(16,1)",
       "Sw<3,1,3> o 0 o (8,16):(16,1)"},
      {"tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, (64,64))",
       "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(64,1)):((64,512),(1,0))",
       "Sw<3,3,3> o 0 o ((8,8),(64,1)):((64,512),(1,0))"},
      {"tile_to_shape(GMMA::Layout_K_SW32_Atom<uint8_t>{}, (16,64), (1,0))",
       "Sw<1,4,3> o smem_ptr[8b](unset) o ((8,2),(32,2)):((32,512),(1,256))",
       "Sw<1,4,3> o 0 o ((8,2),(32,2)):((32,512),(1,256))"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    AnyLayout l = A(c.name);
    CHECK(to_string(l) == c.cute);
    AnyLayout pi = as_position_independent(l);
    CHECK(to_string(pi) == c.position_independent);
    CHECK(layout_values(l) == layout_values(pi));
    // every atom is a bijection of [0, size): a permutation of its smem tile
    std::vector<int64_t> v = layout_values(l);
    std::sort(v.begin(), v.end());
    for (size_t i = 0; i < v.size(); ++i) REQUIRE(v[i] == static_cast<int64_t>(i));
  }
}

TEST_CASE("GMMA atoms: the contiguous mode spans 16 << B bytes for every element type") {
  for (const char* kind : {"INTER", "SW32", "SW64", "SW128"})
    for (const char* major : {"K", "MN"})
      for (int bits : {4, 8, 16, 32, 64}) {
        ComposedLayout c = gmma_smem_atom(major, kind, bits);
        int b = std::string(kind) == "INTER"  ? 0
                : std::string(kind) == "SW32" ? 1
                : std::string(kind) == "SW64" ? 2
                                              : 3;
        CAPTURE(to_string(AnyLayout(c)));
        CHECK(c.swizzle() == Swizzle(b, 4, 3));
        CHECK(c.smem_bits() == bits);
        IntTuple s = shape(c.layout_b());
        size_t contiguous = std::string(major) == "K" ? 1 : 0;
        CHECK(size(s[contiguous]) * bits == (int64_t{128} << b));
        CHECK(size(s[1 - contiguous]) == 8);
      }
  CHECK_THROWS_AS(gmma_smem_atom("K", "SW256", 16), Error);
  CHECK_THROWS_AS(gmma_smem_atom("N", "SW128", 16), Error);
  CHECK_THROWS_AS(gmma_smem_atom("K", "INTER", 48), Error);
}

TEST_CASE("UMMA's shared-memory atoms: GMMA's under UMMA's names, and the 32-bit MN SW128 atom") {
  CHECK(to_string(A("UMMA::Layout_K_SW128_Atom<half_t>{}")) == to_string(A("GMMA::Layout_K_SW128_Atom<half_t>{}")));
  CHECK(to_string(A("cute::UMMA::Layout_MN_SW64_Atom_Bits{}")) == "Sw<2,4,3> o smem_ptr[1b](unset) o (512,8):(1,512)");
  CHECK(to_string(A("UMMA::Layout_MN_SW128_32B_Atom<float>{}")) == "Sw<2,5,2> o smem_ptr[32b](unset) o (32,4):(1,32)");
  CHECK_THROWS_WITH_AS(A("UMMA::Layout_MN_SW128_32B_Atom{}"), doctest::Contains("usage"), Error);
  CHECK_THROWS_WITH_AS(A("GMMA::Layout_K_SW128_Atom{}"), doctest::Contains("one element type"), Error);
}

TEST_CASE("golden: algebra.jsonl's GMMA atom rows print and map as CuTe's") {
  size_t rows = 0;
  for (const auto& row : test::read_jsonl("algebra.jsonl")) {
    if (row["op"] != "gmma_atom") continue;
    ++rows;
    const nlohmann::json& spec = row["spec"][0];
    const std::string expr = "GMMA::" + spec[1].get<std::string>() + "<" + spec[2].get<std::string>() + ">{}";
    CAPTURE(expr);
    std::vector<Warning> warnings;
    const Value v = evaluate_expression(expr, warnings, Literals::kDynamic, registry());
    CHECK(v.to_cute_string() == row["result"].get<std::string>());
    const AnyLayout l = v.any_layout();
    CHECK(size(l) == row["result_size"].get<int64_t>());
    CHECK(layout_values(as_position_independent(l)) == row["result_values"].get<std::vector<int64_t>>());
    CHECK(to_string(as_position_independent(l)) == row["result_position_independent_nous"].get<std::string>());
    const Value typed =
        evaluate_expression(expr, warnings, Literals::kAuto, registry());  // as typed: static, CuTe's print
    CHECK(typed.to_string() == row["result_nous"].get<std::string>());
    CHECK_FALSE(typed.has_dynamic());
  }
  CHECK(rows == 3);
}
