// find_atom: an atom by the name a user typed, from whichever catalogue has it.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "atoms/atom_lookup.hpp"
#include "lib/error.hpp"

using namespace cutevis;

namespace {

std::string error_of(const std::string& name) {
  try {
    find_atom(name);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("find_atom: MMA and copy atoms by name, with or without {}") {
  auto mma = find_atom("SM80_16x8x16_F32F16F16F32_TN{}  ");
  REQUIRE(std::holds_alternative<MmaAtom>(mma));
  CHECK(std::get<MmaAtom>(mma).shape_mnk == tup(16, 8, 16));
  auto copy = find_atom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  REQUIRE(std::holds_alternative<CopyAtom>(copy));
  CHECK(std::get<CopyAtom>(copy).value_type.bits == 16);
}

TEST_CASE("find_atom: an unknown name gets the error of the family it looks like") {
  CHECK(looks_like_copy("SM75_U32x4_LDSM_X"));
  CHECK_FALSE(looks_like_copy("SM80_16x8x16_F32F16F16F32_TM"));
  const std::string mma_error = error_of("SM80_16x8x16_F32F16F16F32_TM");
  CHECK(mma_error.find("SM80_16x8x16_F32F16F16F32_TN") != std::string::npos);  // the suggestion
  const std::string copy_error = error_of("Copy_Atom<SM75_U32x4_LDSM_X, half_t>");
  CHECK_FALSE(copy_error.empty());
  CHECK(copy_error != mma_error);
  CHECK(copy_error.find("SM80_16x8x16") == std::string::npos);  // not the MMA catalogue's suggestions
}
