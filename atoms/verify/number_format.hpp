// cutevis — element formats for `verify`: exact integers in and out of every type an
// MMA or copy instruction reads (fp64 .. b1).  Test data is integer-valued and small
// enough that every product and sum is exact, so the hardware's answer either equals
// the host's bit for bit or a layout is wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lib/lang/expr.hpp"

namespace cutevis::verify {

enum class NumberKind { kFloat, kSigned, kUnsigned };

struct NumberFormat {
  std::string ptx;  // PTX type name: f16, bf16, tf32, f32, f64, e4m3, e5m2, s32, s8, u8, s4, u4, b1
  int bits = 0;     // storage bits (tf32 is stored in 32)
  NumberKind kind = NumberKind::kFloat;
  int exponent_bits = 0;  // floats only
  int mantissa_bits = 0;  // floats only: explicit mantissa bits the hardware reads
  int64_t max_exact = 0;  // every integer in [min_value, max_exact] is exactly representable
  int64_t min_value = 0;
};

// The format named by a PTX type token ("f16", "e4m3", "b1", ...); nullopt if unknown.
std::optional<NumberFormat> format_from_ptx(const std::string& ptx_type);
// The format of a C++ element type (half_t, cutlass::half_t, signed char,
// cutlass::integer_subbyte<4, true>, ...); nullopt for types verify cannot place (complex).
std::optional<NumberFormat> format_of(const ValueType& type);
// The PTX type token of a C++ element type verify can place, "" if none (complex, e2m1, ...).
std::string ptx_type_of(const ValueType& type);

// encode(f, v): the bits of integer v in format f (low `bits` bits); Error unless exact.
uint64_t encode(const NumberFormat& format, int64_t value);
// decode(f, bits): the integer the bits hold; nullopt if they hold a non-integer (or NaN).
std::optional<int64_t> decode(const NumberFormat& format, uint64_t bits);

}  // namespace cutevis::verify
