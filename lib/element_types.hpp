// cutevis — the one table of element types.  The expression parser (lookup_value_type),
// the atom catalogue (atom-name tokens such as F16 in SM80_16x8x16_F32F16F16F32_TN, PTX
// types), verify (how exact test integers are written) and the CLI's `list` all read it.
// Adding a spelling is a one-line edit of its row in lib/element_types.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string>

namespace cutevis {

// How verify writes exact integers in a type: a binary float (IEEE-style bias), two's
// complement, plain unsigned bits, or not at all.
enum class ExactValues { kNone, kFloat, kSigned, kUnsigned };

// A type's other spellings, at most five; the unused slots are null.  Constant data, not a
// vector: the table is read from the binary, not built by code (the web page's .wasm).
struct Spellings {
  std::array<const char*, 5> list{};
  const char* const* begin() const { return list.data(); }
  const char* const* end() const { return std::find(list.begin(), list.end(), nullptr); }
};

struct ElementTypeInfo {
  const char* name;                  // CuTe's spelling, the canonical one: "half_t"
  int bits;                          // sizeof_bits: 16
  Spellings spellings;               // also accepted in expressions: "cutlass::half_t", "half"
  const char* ptx;                   // PTX operand type: "f16"; "" when no instruction reads it
  const char* token;                 // in CuTe's atom names (..._F32F16F16F32_TN): "F16"; "" none
  const char* real;                  // a complex's real type, whose instruction CuTe issues; "" else
  ExactValues exact;                 // how verify writes exact integers in it
  int exponent_bits, mantissa_bits;  // floats: the bits the hardware reads (tf32: 8, 10 in 32)
  bool in_expressions;               // nameable in an expression (false: catalogue-only names)
};

// Every element type, in the parser's order (value_type_names() lists them so).
std::span<const ElementTypeInfo> element_type_table();
// The row whose name or one of whose spellings is exactly `name`; nullptr if none.
const ElementTypeInfo* find_element_type(const std::string& name);

}  // namespace cutevis
