// cutevis — float_text: decimal text <-> binary floating point, exact and correctly rounded,
// without printf, strtod or long double.
//
// The web page's .wasm carried musl's printf machinery, its strtod and the 128-bit long-double
// soft-float both use (about 21 KB of code) only because a few places formatted or read a double
// (README, "In the browser").  Here every conversion goes through the exact decimal value of
// a double (m 2^e is m 5^-e / 10^-e: a big integer's decimal digits) and the exact binary value
// of a decimal (a big integer quotient), so the results are those of glibc's and musl's printf
// and strtod in the default rounding mode: halves to even, subnormals kept.
//
//   fixed_text(0.125, 2) == "0.12"          printf("%.2f")
//   exponent_text(1e23, 3) == "1.000e+23"   printf("%.3e")
//   general_text(1e-5) == "1e-05"           printf("%g")
//   parse_double("0x1.8p3 rest", v) == 7, v == 12.0        strtod: the bytes it reads
//
// Non-finite values print as printf prints them: "inf", "-inf", "nan", "-nan" (a NaN with
// its sign bit set).  Speed: a few microseconds a conversion, tens for the longest (a
// subnormal's 767 exact digits); the parsers read at most 800 significant digits exactly
// and the rest only as "some non-zero digit follows" (enough: no half-way point between
// two doubles has more than 767).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cutevis {

std::string fixed_text(double x, int decimals = 6);     // printf("%.*f", decimals, x)
std::string exponent_text(double x, int decimals = 6);  // printf("%.*e", decimals, x)
std::string general_text(double x, int precision = 6);  // printf("%.*g", precision, x)

// A positive decimal: 0.DIGITS x 10^POINT (no leading or trailing zero digit; 0 has none).
struct DecimalDigits {
  std::string digits;
  int point = 0;
};

// The shortest digits that read back as X (finite, > 0): printf's "%.*e" at the first precision
// whose text strtod reads back as X (1e23: "1", point 24; 0.1: "1", point 0).
DecimalDigits shortest_digits(double x);

// strtod and strtof: the longest prefix of TEXT that is a floating number (after white space:
// a sign, then decimal digits with a point and an exponent, hexadecimal ones "0x1.8p3", "inf",
// "infinity", "nan", "nan(chars)", case-insensitive), rounded once to the type; past the
// largest finite value, +-inf; below the smallest subnormal's half, +-0.  Returns the bytes
// read, 0 (and VALUE 0) when no prefix is a number.  A NaN's payload is not kept.
size_t parse_double(std::string_view text, double& value);
size_t parse_float(std::string_view text, float& value);

// printf("%0*llx", min_digits, v): lower-case hexadecimal digits, zeros in front up to MIN_DIGITS.
std::string hex_text(uint64_t v, int min_digits = 1);

}  // namespace cutevis
