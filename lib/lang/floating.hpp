// cutevis — values of floating type as C++ and CUTLASS compute them: literals, casts,
// arithmetic, and their conversion to integers.
//
//   TI alpha = static_cast<TI>(1.0f);     // TI = half_t: half_t 1, CuTe prints 1.000000
//   constexpr float kScale = 0.125f;      float(2)    int(2.9) == 2    half_t(65520.f) is inf
//
// A value keeps its type and the exact number that type holds (a double holds every float,
// half_t and bfloat16_t exactly): 0.1f is 0.100000001490116..., not 0.1.  Rounding is C++'s for
// float and double (to nearest, ties to even) and CUTLASS's for half_t and bfloat16_t (through
// float, to nearest even; bfloat16_t(int) truncates, as cutlass/bfloat16.h does).  Other floating
// types (tfloat32_t, the float8 types) take only values they hold exactly.  A cast to an integer
// type truncates toward zero; a value outside that type is an error (undefined in C++).
#pragma once

#include <string>

#include "lib/lang/expr.hpp"

namespace cutevis {

class FloatingValue : public Object {
 public:
  FloatingValue(double value, ValueType type) : value_(value), type_(std::move(type)) {}
  std::string kind() const override { return "float"; }
  std::string to_string() const override;  // CuTe's print: printf("%f"), 1.000000
  std::string brief() const override;      // half_t 1.000000
  double value() const { return value_; }
  const ValueType& type() const { return type_; }

 private:
  double value_;
  ValueType type_;
};

// The floating value v holds, or nullptr (v is no floating value).
const FloatingValue* floating_of(const Value& v);
// float, double, half_t, bfloat16_t, tfloat32_t, the float8 types.
bool is_floating_type(const ValueType& t);

// A floating literal as C++ reads it: 1.0f, 0.125, 1e30f, 2.f (float with f/F, else double).
// Throws for a long double literal (1.0L).
Value floating_literal(const std::string& text);
// v (an integer, a bool or a floating value) converted to the floating type `to`.
Value to_floating(const Value& v, const ValueType& to);
// f converted to the integer type `to` (toward zero); throws when out of its range.
int64_t truncated(const FloatingValue& f, const ValueType& to);

// a op b where a or b is floating, with C++'s usual arithmetic conversions and CUTLASS's operators
// (half_t op half_t is half_t, computed in float; half_t op int and half_t op bfloat16_t are float;
// anything op double is double): + - * / and the comparisons.  Throws Error (no position) for what
// C++ does not compute (%, a division by zero).
Value floating_operator(const std::string& op, const Value& a, const Value& b);
Value floating_negate(const Value& a);

}  // namespace cutevis
