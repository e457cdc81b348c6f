// Floating values: literals, conversions and arithmetic as C++ and CUTLASS do them (see lib/lang/floating.hpp).
#include "lib/lang/floating.hpp"

#include <algorithm>
#include <cmath>

#include "lib/element_types.hpp"
#include "lib/float_text.hpp"

namespace cutevis {

namespace {

// An IEEE-style binary format: exponent and mantissa bits (float 8/23, half_t 5/10, bfloat16_t 8/7).
struct Format {
  int exponent_bits = 0, mantissa_bits = 0;
};

bool format_of(const ValueType& t, Format& f) {
  const ElementTypeInfo* e = find_element_type(t.name);
  if (!e || e->exact != ExactValues::kFloat || e->exponent_bits == 0) return false;
  f = {e->exponent_bits, e->mantissa_bits};
  return true;
}

const ValueType kFloat{"float", 32}, kDouble{"double", 64};

// x in the format: to the nearest value, ties to even (to_even) or toward zero; subnormals kept,
// a finite value past the largest becomes infinity (to nearest) or the largest (toward zero).
double round_to(double x, Format f, bool to_even = true) {
  if (x == 0 || !std::isfinite(x) || f.mantissa_bits >= 52) return x;
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  int e = 0;
  std::frexp(std::fabs(x), &e);  // |x| = m 2^e, m in [0.5, 1): its leading bit is 2^(e-1)
  const int quantum = std::max(e - 1, 1 - bias) - f.mantissa_bits;  // the weight of the last mantissa bit
  const double scaled = std::ldexp(std::fabs(x), -quantum);
  double r = std::ldexp(to_even ? std::nearbyint(scaled) : std::trunc(scaled), quantum);
  const double largest = std::ldexp(2.0 - std::ldexp(1.0, -f.mantissa_bits), bias);
  if (r > largest) r = to_even ? INFINITY : largest;
  return std::copysign(r, x);
}

constexpr Format kFloatFormat{8, 23};

std::string printed(double x) { return fixed_text(x); }  // printf("%f", x), whatever its length

// The number v holds (a floating value, an integer without basis, a bool); its type in `type`
// (nullptr type: an integer or a bool).
double number_of(const Value& v, const ValueType** type) {
  if (const FloatingValue* f = floating_of(v)) {
    *type = &f->type();
    return f->value();
  }
  *type = nullptr;
  if (v.is(Value::Kind::kBool)) return v.as_bool() ? 1 : 0;
  if (v.is(Value::Kind::kInt) && v.leaf().basis().empty()) return static_cast<double>(v.leaf().value());
  throw Error("a floating operation needs numbers, got " + v.describe());
}

}  // namespace

std::string FloatingValue::to_string() const { return printed(value_); }

std::string FloatingValue::brief() const { return type_.name + " " + to_string(); }

const FloatingValue* floating_of(const Value& v) {
  return v.is(Value::Kind::kObject) ? dynamic_cast<const FloatingValue*>(v.object().get()) : nullptr;
}

bool is_floating_type(const ValueType& t) {
  Format f;
  return format_of(t, f);
}

Value floating_literal(const std::string& text) {
  size_t digits = text.size();
  while (digits > 0 && std::string("fFlL").find(text[digits - 1]) != std::string::npos) --digits;
  const std::string suffix = text.substr(digits), number = text.substr(0, digits);
  if (suffix.find_first_of("lL") != std::string::npos)
    throw Error(text + " is a long double: cutevis keeps float and double values");
  if (suffix.size() > 1) throw Error("bad floating literal " + text);
  // a float literal is the float nearest its decimal value (strtof), not the double's nearest float;
  // past the type's range, inf (as strtod and strtof answer)
  double v = 0;
  float f = 0;
  const size_t used = suffix.empty() ? parse_double(number, v) : parse_float(number, f);
  if (!suffix.empty()) v = f;
  if (used != number.size()) throw Error("bad floating literal " + text);
  return Value::object(std::make_shared<FloatingValue>(v, suffix.empty() ? kDouble : kFloat));
}

Value to_floating(const Value& v, const ValueType& to) {
  Format f;
  if (!format_of(to, f)) throw Error(to.name + " is not a floating type");
  const ValueType* from = nullptr;
  const double x = number_of(v, &from);
  if (to.name == "double") return Value::object(std::make_shared<FloatingValue>(x, to));
  const double as_float = round_to(x, kFloatFormat);  // half_t(double), bfloat16_t(int): through float
  double r = as_float;
  if (to.name == "bfloat16_t" && !from && v.is(Value::Kind::kInt)) {
    r = round_to(as_float, f, false);  // bfloat16_t(int): the float's top 16 bits (cutlass/bfloat16.h)
  } else if (to.name == "half_t" || to.name == "bfloat16_t") {
    r = round_to(as_float, f);
  } else if (to.name != "float") {
    r = round_to(as_float, f);
    if (r != x)
      throw Error("cutevis converts to " + to.name + " only the values it holds exactly, not " + printed(x) +
                  " (it rounds to float, double, half_t and bfloat16_t)");
  }
  return Value::object(std::make_shared<FloatingValue>(r, to));
}

int64_t truncated(const FloatingValue& f, const ValueType& to) {
  const double x = f.value();
  if (!std::isfinite(x)) throw Error(f.brief() + " has no value as " + to.name);
  const double t = std::trunc(x);
  const bool is_unsigned = to.name.rfind("uint", 0) == 0 || to.name == "size_t" || to.name == "unsigned";
  const int bits = std::clamp(to.bits, 1, 64);
  const double low = is_unsigned ? 0 : -std::ldexp(1.0, bits - 1);
  const double high = std::ldexp(1.0, is_unsigned ? bits : bits - 1);  // exclusive
  if (t < low || t >= high)
    throw Error(f.brief() + " is outside the range of " + to.name + ": the conversion is undefined in C++");
  if (t >= std::ldexp(1.0, 63)) throw Error(f.brief() + " is past cutevis's integers (64-bit, signed)");
  return static_cast<int64_t>(t);
}

Value floating_operator(const std::string& op, const Value& a, const Value& b) {
  const ValueType *ta = nullptr, *tb = nullptr;
  const double x = number_of(a, &ta), y = number_of(b, &tb);
  auto named = [](const ValueType* t, const std::string& name) { return t && t->name == name; };
  // the type both operands convert to; `narrow`: a 16-bit type computed in float, then rounded to it
  ValueType common = kFloat;
  const ValueType* narrow = nullptr;
  if (named(ta, "double") || named(tb, "double")) {
    common = kDouble;
  } else if (ta && tb && ta->name == tb->name && ta->name != "float") {
    narrow = ta;  // half_t op half_t is half_t; half_t op int, half_t op bfloat16_t are float
  }
  const Format f = common.name == "double" ? Format{11, 52} : kFloatFormat;
  const double u = round_to(x, f), v = round_to(y, f);  // the int operand converted
  if (op == "==") return Value::boolean(u == v);
  if (op == "!=") return Value::boolean(u != v);
  if (op == "<") return Value::boolean(u < v);
  if (op == ">") return Value::boolean(u > v);
  if (op == "<=") return Value::boolean(u <= v);
  if (op == ">=") return Value::boolean(u >= v);
  double r = 0;
  if (op == "+") r = u + v;
  else if (op == "-") r = u - v;
  else if (op == "*") r = u * v;
  else if (op == "/") {
    if (v == 0) throw Error("division by zero (not a constant expression in C++)");
    r = u / v;
  } else {
    throw Error("operator " + op + " needs integers, got " + (ta ? a.describe() : b.describe()));
  }
  // (a float result computed in double and rounded once is the float C++ computes: 53 >= 2 * 24 + 2)
  Value out = Value::object(std::make_shared<FloatingValue>(round_to(r, f), common));
  return narrow ? to_floating(out, *narrow) : out;
}

Value floating_negate(const Value& a) {
  const FloatingValue* f = floating_of(a);
  if (!f) throw Error("a floating operation needs a floating value, got " + a.describe());
  return Value::object(std::make_shared<FloatingValue>(-f->value(), f->type()));
}

}  // namespace cutevis
