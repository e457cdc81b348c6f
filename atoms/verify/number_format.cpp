// cutevis — exact integer encodings of every element type verify places.
#include "atoms/verify/number_format.hpp"

#include <cmath>
#include <vector>

#include "lib/element_types.hpp"
#include "lib/error.hpp"

namespace cutevis::verify {

namespace {

// A binary float with `e` exponent bits, `m` mantissa bits and IEEE bias: integers up to
// 2^(m+1) are exact.
NumberFormat float_format(const std::string& ptx, int bits, int e, int m) {
  NumberFormat f;
  f.ptx = ptx;
  f.bits = bits;
  f.kind = NumberKind::kFloat;
  f.exponent_bits = e;
  f.mantissa_bits = m;
  f.max_exact = int64_t{1} << (m + 1);
  f.min_value = -f.max_exact;
  return f;
}

NumberFormat int_format(const std::string& ptx, int bits, bool is_signed) {
  NumberFormat f;
  f.ptx = ptx;
  f.bits = bits;
  f.kind = is_signed ? NumberKind::kSigned : NumberKind::kUnsigned;
  int value_bits = bits >= 63 ? 62 : bits;
  f.max_exact = is_signed ? (int64_t{1} << (value_bits - 1)) - 1 : (int64_t{1} << value_bits) - 1;
  f.min_value = is_signed ? -(int64_t{1} << (value_bits - 1)) : 0;
  return f;
}

std::string strip_namespaces(std::string name) {
  for (const char* ns : {"cutlass::", "cute::", "std::"}) {
    for (size_t at = name.find(ns); at != std::string::npos; at = name.find(ns)) name.erase(at, std::string(ns).size());
  }
  std::string out;
  for (char c : name)
    if (c != ' ') out += c;
  return out;
}

}  // namespace

// The first row of the element-type table with this PTX type and exact values.
std::optional<NumberFormat> format_from_ptx(const std::string& t) {
  for (const auto& e : element_type_table()) {
    if (t != e.ptx) continue;
    if (e.exact == ExactValues::kFloat) return float_format(e.ptx, e.bits, e.exponent_bits, e.mantissa_bits);
    if (e.exact != ExactValues::kNone) return int_format(e.ptx, e.bits, e.exact == ExactValues::kSigned);
  }
  return std::nullopt;
}

// Only types verify can place (exact values) have one here.  Names are compared without
// namespaces or spaces: cutlass::integer_subbyte<4, true> is int4b_t.
std::string ptx_type_of(const ValueType& type) {
  const std::string name = strip_namespaces(type.name);
  for (const auto& e : element_type_table()) {
    bool hit = name == strip_namespaces(e.name);
    for (const char* s : e.spellings) hit = hit || name == strip_namespaces(s);
    if (hit) return e.exact == ExactValues::kNone ? "" : e.ptx;
  }
  return "";
}

std::optional<NumberFormat> format_of(const ValueType& type) { return format_from_ptx(ptx_type_of(type)); }

uint64_t encode(const NumberFormat& f, int64_t v) {
  if (v < f.min_value || v > f.max_exact) throw Error("verify: " + std::to_string(v) + " is not exact in " + f.ptx);
  uint64_t mask = f.bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << f.bits) - 1;
  if (f.kind != NumberKind::kFloat) return static_cast<uint64_t>(v) & mask;
  if (v == 0) return 0;
  const int e_bits = f.exponent_bits;
  const int m_bits = f.ptx == "tf32" ? 23 : f.mantissa_bits;  // tf32 lives in an f32 container
  const int storage_e_bits = f.ptx == "tf32" ? 8 : e_bits;
  const int64_t bias = (int64_t{1} << (storage_e_bits - 1)) - 1;
  uint64_t sign = v < 0 ? 1 : 0;
  uint64_t a = static_cast<uint64_t>(v < 0 ? -v : v);
  int e = 63 - __builtin_clzll(a);
  uint64_t mantissa = a - (uint64_t{1} << e);
  mantissa = e <= m_bits ? mantissa << (m_bits - e) : mantissa >> (e - m_bits);
  uint64_t exponent = static_cast<uint64_t>(e + bias);
  return (sign << (storage_e_bits + m_bits)) | (exponent << m_bits) | mantissa;
}

std::optional<int64_t> decode(const NumberFormat& f, uint64_t bits) {
  if (f.bits < 64) bits &= (uint64_t{1} << f.bits) - 1;
  if (f.kind == NumberKind::kUnsigned) return static_cast<int64_t>(bits);
  if (f.kind == NumberKind::kSigned) {
    if (f.bits < 64 && (bits >> (f.bits - 1)) & 1) return static_cast<int64_t>(bits) - (int64_t{1} << f.bits);
    return static_cast<int64_t>(bits);
  }
  const int m_bits = f.ptx == "tf32" ? 23 : f.mantissa_bits;
  const int e_bits = f.ptx == "tf32" ? 8 : f.exponent_bits;
  const int64_t bias = (int64_t{1} << (e_bits - 1)) - 1;
  uint64_t mantissa = bits & ((uint64_t{1} << m_bits) - 1);
  int64_t exponent = static_cast<int64_t>((bits >> m_bits) & ((uint64_t{1} << e_bits) - 1));
  bool negative = (bits >> (m_bits + e_bits)) & 1;
  if (exponent == 0 && mantissa == 0) return 0;
  const bool top = exponent == (int64_t{1} << e_bits) - 1;
  // e4m3 has no infinities: only S.1111.111 is NaN
  bool special = f.ptx == "e4m3" ? top && mantissa == (uint64_t{1} << m_bits) - 1 : top;
  if (special || exponent == 0) return std::nullopt;  // inf/NaN, subnormals are never integers here
  int64_t e = exponent - bias;
  if (e < 0 || e > 62) return std::nullopt;
  uint64_t significand = mantissa | (uint64_t{1} << m_bits);
  int64_t value;
  if (e >= m_bits) {
    if (e - m_bits > 62 - m_bits) return std::nullopt;
    value = static_cast<int64_t>(significand << (e - m_bits));
  } else {
    uint64_t frac_mask = (uint64_t{1} << (m_bits - e)) - 1;
    if (significand & frac_mask) return std::nullopt;
    value = static_cast<int64_t>(significand >> (m_bits - e));
  }
  return negative ? -value : value;
}

}  // namespace cutevis::verify
