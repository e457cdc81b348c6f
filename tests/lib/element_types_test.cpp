// The element-type table: each name, spelling and atom-name token belongs to one row, and
// the parser, the catalogue and verify read the same row.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "lib/element_types.hpp"
#include "lib/lang/expr.hpp"

using namespace cutevis;

TEST_CASE("element types: every name, spelling and token names exactly one row") {
  std::set<std::string> names, tokens;
  for (const auto& e : element_type_table()) {
    CAPTURE(e.name);
    CHECK(names.insert(e.name).second);
    for (const char* s : e.spellings) CHECK(names.insert(s).second);
    if (*e.token) CHECK(tokens.insert(e.token).second);
    CHECK(e.bits > 0);
    if (*e.real) {  // a complex runs its real part's instruction
      const ElementTypeInfo* r = find_element_type(e.real);
      REQUIRE(r != nullptr);
      CHECK(*r->ptx);
    }
    if (e.exact == ExactValues::kFloat) CHECK(e.exponent_bits + e.mantissa_bits + 1 <= e.bits);
  }
}

TEST_CASE("element types: the parser reads the table's names and spellings") {
  ValueType t;
  REQUIRE(lookup_value_type("cutlass::half_t", t));
  CHECK(t.name == "half_t");
  CHECK(t.bits == 16);
  REQUIRE(lookup_value_type("cutlass::integer_subbyte<4, true>", t));
  CHECK(t.name == "int4b_t");
  CHECK(t.bits == 4);
  CHECK_FALSE(lookup_value_type("GaussComplex", t));  // a catalogue-only name
  CHECK(find_element_type("GaussComplex") != nullptr);
  CHECK_FALSE(lookup_value_type("half_tt", t));
  for (const auto& n : value_type_names()) CHECK(find_element_type(n) != nullptr);
}
