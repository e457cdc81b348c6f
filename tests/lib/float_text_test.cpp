// lib/float_text: printf's and strtod's answers, compared with the C library's own (glibc
// natively, musl in the WebAssembly tests) on special values, powers of two and ten,
// subnormals, ties, half-way points and random bit patterns and strings.
#include "lib/float_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

namespace {

using cutevis::exponent_text;
using cutevis::fixed_text;
using cutevis::general_text;
using cutevis::parse_double;
using cutevis::parse_float;

// The test's own generator (splitmix64): the same draws under every standard library.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
};

double from_bits(uint64_t u) {
  double d = 0;
  std::memcpy(&d, &u, sizeof d);
  return d;
}
uint64_t bits(double d) {
  uint64_t u = 0;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

std::string c_printf(const char* format, int precision, double x) {
  const int n = std::snprintf(nullptr, 0, format, precision, x);
  std::string s(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(s.data(), s.size(), format, precision, x);
  s.resize(static_cast<size_t>(n));
  return s;
}

// Every format the callers use, and the precisions' extremes.
void check_formats(double x, std::initializer_list<int> precisions = {0, 1, 2, 6, 17}) {
  CAPTURE(x);
  for (int p : precisions) {
    REQUIRE(fixed_text(x, p) == c_printf("%.*f", p, x));
    REQUIRE(exponent_text(x, p) == c_printf("%.*e", p, x));
    REQUIRE(general_text(x, p) == c_printf("%.*g", p, x));
  }
}

// A NaN's sign read from text: glibc keeps it, musl drops it (parse_double keeps it).
const bool kLibcKeepsNanSign = std::signbit(std::strtod("-nan", nullptr));

bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) && (!kLibcKeepsNanSign || std::signbit(a) == std::signbit(b));
  return bits(a) == bits(b);
}

// TEXT read as strtod and strtof read it: the same value, the same bytes.
void check_parse(const std::string& text, bool as_strtof = true) {
  CAPTURE(text);
  char* end = nullptr;
  const double c = std::strtod(text.c_str(), &end);
  double v = 0;
  const size_t used = parse_double(text, v);
  REQUIRE(used == static_cast<size_t>(end - text.c_str()));
  REQUIRE(same(v, c));
  if (!as_strtof) return;
  const float cf = std::strtof(text.c_str(), &end);
  float f = 0;
  const size_t used_f = parse_float(text, f);
  REQUIRE(used_f == static_cast<size_t>(end - text.c_str()));
  REQUIRE(same(f, cf));
}

// json_lite's digits before: printf's "%.*e" at the first precision that strtod reads back.
std::string shortest_by_printf(double d) {
  char buf[40];
  for (int precision = 0; precision <= 16; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}
std::string as_exponent_text(const cutevis::DecimalDigits& d) {  // "1.25e+03", as printf writes it
  std::string s(1, d.digits[0]);
  if (d.digits.size() > 1) s += "." + d.digits.substr(1);
  const int x = d.point - 1;
  s += x < 0 ? "e-" : "e+";
  if (std::abs(x) < 10) s += '0';
  return s + std::to_string(std::abs(x));
}
std::string strip_mantissa_zeros(std::string s) {  // "1.500e+00" -> "1.5e+00", "2.0e+00" -> "2e+00"
  const size_t e = s.find('e');
  size_t last = e;
  while (s[last - 1] == '0' && s.find('.') < last - 1) --last;
  if (s[last - 1] == '.') --last;
  return s.erase(last, e - last);
}

// The exact decimal of the point half-way between X and the next double up (long double holds it:
// 64 bits natively, 113 under WebAssembly), all its digits.
std::string midpoint_text(double x) {
  const long double mid = (static_cast<long double>(x) + std::nextafter(x, INFINITY)) / 2;
  char buf[1000];
  std::snprintf(buf, sizeof buf, "%.800Le", mid);
  std::string s = buf;
  const size_t e = s.find('e');
  size_t last = e;
  while (s[last - 1] == '0') --last;
  return s.erase(last, e - last);
}

}  // namespace

TEST_CASE("float_text: printf's answers for special values, ties and extremes") {
  CHECK(fixed_text(0.125, 2) == "0.12");  // a tie: to even
  CHECK(fixed_text(0.375, 2) == "0.38");
  CHECK(fixed_text(2.5, 0) == "2");
  CHECK(fixed_text(-0.0) == "-0.000000");
  CHECK(exponent_text(1e23, 3) == "1.000e+23");
  CHECK(general_text(1e-5) == "1e-05");
  CHECK(general_text(100000) == "100000");
  CHECK(general_text(1e6) == "1e+06");
  CHECK(general_text(0.0001234567) == "0.000123457");
  CHECK(general_text(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(fixed_text(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(fixed_text(-std::numeric_limits<double>::quiet_NaN()) == "-nan");
  const double specials[] = {0.0,
                             -0.0,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(),
                             -std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::denorm_min(),
                             std::numeric_limits<double>::min(),
                             std::nextafter(std::numeric_limits<double>::min(), 0.0),  // the largest subnormal
                             std::numeric_limits<double>::max(),
                             0.5,
                             1.5,
                             2.5,
                             0.125,
                             0.375,
                             1e23,
                             9.5,
                             99.5,
                             999999.5,
                             0.05,
                             0.00001,
                             123456789012345678.0,
                             9007199254740993.0,
                             4.35,
                             1e15,
                             1e16,
                             1e17};
  for (double x : specials) {
    check_formats(x);
    check_formats(-x);
  }
  for (int k = -1074; k <= 1023; ++k) check_formats(std::ldexp(1.0, k));
  for (int k = -323; k <= 308; ++k) check_formats(std::strtod(("1e" + std::to_string(k)).c_str(), nullptr));
  for (int k = 0; k <= 60; ++k) check_formats(std::ldexp(1.0, k) + 0.5);  // ties in %.0f as far as they exist
}

TEST_CASE("float_text: printf's answers for random doubles") {
  Random random{11};
  for (int i = 0; i < 8000; ++i) {
    const double x = from_bits(random.next());
    if (std::isnan(x)) continue;
    check_formats(x, {0, 1, 6, 17});
  }
  for (int i = 0; i < 8000; ++i) {  // numbers people print: integers, tenths, ratios
    const double x = random.below(1000000) / std::pow(10.0, random.below(9)) * (random.below(2) ? 1 : -1);
    check_formats(x, {0, 1, 6, 17});
    check_formats(random.below(1000) / static_cast<double>(1 + random.below(1000)), {0, 1, 6, 17});
  }
}

TEST_CASE("float_text: shortest digits as json_lite's printf loop found them") {
  Random random{12};
  std::vector<double> xs = {std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::min(),
                            std::numeric_limits<double>::max(),
                            1e23,
                            0.1,
                            1.0,
                            5e-324,
                            9007199254740993.0};
  for (int k = -1074; k <= 1023; ++k) xs.push_back(std::ldexp(1.0, k));
  for (int k = -323; k <= 308; ++k) xs.push_back(std::strtod(("1e" + std::to_string(k)).c_str(), nullptr));
  for (int i = 0; i < 30000; ++i) xs.push_back(std::fabs(from_bits(random.next())));
  for (int i = 0; i < 5000; ++i) xs.push_back(from_bits(random.next() >> 12));  // subnormal
  for (int i = 0; i < 10000; ++i) xs.push_back(random.below(100000) * 0.001);
  int checked = 0;
  for (double x : xs) {
    if (!std::isfinite(x) || x == 0) continue;
    CAPTURE(x);
    const cutevis::DecimalDigits d = cutevis::shortest_digits(x);
    REQUIRE(as_exponent_text(d) == strip_mantissa_zeros(shortest_by_printf(x)));
    ++checked;
  }
  CHECK(checked > 45000);
  CHECK(cutevis::shortest_digits(1e23).digits == "1");
  CHECK(cutevis::shortest_digits(1e23).point == 24);
  CHECK(cutevis::shortest_digits(0.3).digits == "3");
}

TEST_CASE("float_text: strtod's and strtof's answers for odd and edge text") {
  const char* texts[] = {"",
                         " ",
                         "+",
                         "-",
                         ".",
                         "+.",
                         "e5",
                         "1e",
                         "1e+",
                         "1e-x",
                         "1.e5",
                         ".5",
                         "5.",
                         " \t\n\v\f\r-0",
                         "-0.0e-0",
                         "0x",
                         "0X",
                         "0x.",
                         "0x.p1",
                         "0xg",
                         "0x1p",
                         "0x1p+",
                         "0x.8",
                         "0X1.8P3",
                         "0x1.8p3 rest",
                         "-0x1.fffffffffffffp1023",
                         "0x1.fffffffffffff7p1023",
                         "0x1.fffffffffffff8p1023",  // the tie past the largest: inf
                         "0x1.00000000000008p0",     // a tie: to even
                         "0x1.00000000000018p0",
                         "0x1.000000000000080000000000000000001p0",
                         "0x1.0000000000000800000000000000000000000001p0",
                         "0x0.0000000000001p-1022",
                         "0x1p-1074",
                         "0x1p-1075",  // the tie below the smallest subnormal: 0
                         "0x1.0000000000001p-1075",
                         "0x1p-1076",
                         "0x1.ffffffp127",
                         "0x1.fffffep127",
                         "0x1.ffffffp-127",
                         "0x1p-149",
                         "0x1p-150",
                         "0x123456789abcdef0123456789p-200",
                         "0x0000000000000000000000000001p0",
                         "0x1p99999999999999999999",
                         "0x1p-99999999999999999999",
                         "inf",
                         "-INF",
                         "infinity",
                         "INFINITYx",
                         "infinit",
                         "infx",
                         "inx",
                         "nan",
                         "-nan",
                         "NaN(123)",
                         "nan(",
                         "nan(abc",
                         "nan(a_b9)x",
                         "nan()",
                         "nan(-)",
                         "1e99999999999999999999",
                         "1e-99999999999999999999",
                         "0e999999",
                         "000000.000001e6",
                         "1e308",
                         "1.7976931348623157e308",
                         "1.7976931348623158e308",
                         "1.797693134862315807e308",
                         "1.7976931348623159e308",
                         "1e309",
                         "4.9406564584124654e-324",
                         "2.4703282292062327e-324",
                         "2.4703282292062328e-324",
                         "2.2250738585072011e-308",
                         "2.2250738585072012e-308",
                         "3.4028235e38",
                         "3.4028236e38",
                         "3.40282356779733661637539395458142568448e38",
                         "3.40282356779733661637539395458142568449e38",
                         "1.4e-45",
                         "7.006492321624085e-46",
                         "7.006492321624086e-46",
                         "1.17549435e-38",
                         "9007199254740993",
                         "9007199254740993.0000000000000000000000001",
                         "9007199254740992.9999999999999999999999999",
                         "1e23",
                         "8.589973e9",
                         "0.1",
                         "123456789012345678901234567890",
                         "1.5f",
                         "1,5"};
  for (const char* t : texts) check_parse(t);
  // glibc 2.36's strtof reads 2^-150 (1 + 2^-24), just above half the smallest subnormal, as 0:
  // strtod's answer here, and the exact one below
  check_parse("0x1.000001p-150", false);
  // many zeros before or after the digits
  check_parse("0." + std::string(1000, '0') + "1e1000");
  check_parse("1" + std::string(1000, '0') + "e-1000");
  check_parse("1" + std::string(5000, '0') + "1e-5000");
  check_parse("0." + std::string(330, '0') + "1");
  check_parse("0x0." + std::string(300, '0') + "1p1200");
  check_parse("0." + std::string(1100000, '0') + "1e1100100");  // an exponent past a million: 1e99
  // a few as numbers, whatever the C library says
  double v = 0;
  CHECK(parse_double("0x1.8p3 rest", v) == 7);
  CHECK(v == 12.0);
  CHECK(parse_double("  -1e400", v) == 8);
  CHECK(v == -std::numeric_limits<double>::infinity());
  CHECK(parse_double("nan(", v) == 3);
  CHECK(std::isnan(v));
  CHECK(parse_double("x", v) == 0);
  float f = 0;
  CHECK(parse_float("0x1.000001p-150", f) == 15);
  CHECK(f == std::numeric_limits<float>::denorm_min());
  CHECK(parse_float("0x1p-150", f) == 8);  // the tie: to even, 0
  CHECK(f == 0);
  CHECK(parse_float("1.00000005960464477550", f) == 22);  // just past float's half-way point: up,
  CHECK(f == std::nextafter(1.0f, 2.0f));                 // where rounding through double gives 1
}

TEST_CASE("float_text: strtod's and strtof's answers for random text") {
  Random random{13};
  auto digits = [&](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += static_cast<char>('0' + random.below(10));
    return s;
  };
  auto with_exponent = [&](std::string s, int range) {
    const int e = random.below(2 * range + 1) - range;
    return s + (random.below(2) ? "e" : "E") + std::to_string(e);
  };
  for (int i = 0; i < 60000; ++i) {  // short: 1 to 20 digits, a point somewhere, any exponent
    std::string s = digits(1 + random.below(20));
    s.insert(static_cast<size_t>(random.below(static_cast<int>(s.size()) + 1)), ".");
    check_parse(with_exponent((random.below(2) ? "-" : "") + s, 340));
  }
  for (int i = 0; i < 3000; ++i) {  // long: 20 to 800 digits
    std::string s = digits(20 + random.below(781));
    s.insert(1, ".");
    check_parse(with_exponent(s, 330));
  }
  for (int i = 0; i < 10000; ++i) {  // doubles as printf writes them, 17 digits and shortest
    const double x = from_bits(random.next());
    check_parse(c_printf("%.*e", 16, x));
    check_parse(c_printf("%.*g", 6, x));
    check_parse(c_printf("%.*a", 13, x));
  }
}

TEST_CASE("float_text: half-way points between doubles and between floats") {
  if (std::numeric_limits<long double>::digits < 54) {
    MESSAGE("long double cannot hold a double's half-way point here: skipped");
    return;
  }
  Random random{14};
  auto near_midpoint = [&](const std::string& mid) {
    check_parse(mid);  // exactly half-way: to even
    const size_t e = mid.find('e');
    std::string above = mid, below = mid;
    above.insert(e, "00000000000000000001");  // a little above
    below.insert(e, "99999999999999999999");  // a little below: its last digit one less (it is no 0)
    const size_t last = mid[e - 1] == '.' ? e - 2 : e - 1;
    below[last] = static_cast<char>(below[last] - 1);
    check_parse(above);
    check_parse(below);
  };
  std::vector<double> xs = {std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::min(),
                            std::nextafter(std::numeric_limits<double>::max(), 0.0),
                            1.0,
                            0.1,
                            1e23};
  for (int i = 0; i < 2500; ++i) xs.push_back(std::fabs(from_bits(random.next())));
  for (int i = 0; i < 500; ++i) xs.push_back(from_bits(random.next() >> 12));  // subnormal
  for (double x : xs)
    if (std::isfinite(x) && x < std::numeric_limits<double>::max()) near_midpoint(midpoint_text(x));
  for (int i = 0; i < 10000; ++i) {  // floats' half-way points: a double holds them
    uint32_t u = static_cast<uint32_t>(random.next()) & 0x7FFFFFFFu;
    if (u >= 0x7F7FFFFFu) continue;
    float f = 0;
    std::memcpy(&f, &u, sizeof f);
    const double mid = (static_cast<double>(f) + std::nextafter(f, INFINITY)) / 2;
    std::string s = c_printf("%.*e", 200, mid);
    const size_t e = s.find('e');
    size_t last = e;
    while (s[last - 1] == '0') --last;
    near_midpoint(s.erase(last, e - last));
  }
}

TEST_CASE("float_text: hex_text is printf's %0*llx") {
  Random random{15};
  for (int i = 0; i < 1000; ++i) {
    const uint64_t v = random.next() >> random.below(64);
    for (int width : {1, 2, 4, 16}) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%0*llx", width, static_cast<unsigned long long>(v));
      REQUIRE(cutevis::hex_text(v, width) == buf);
    }
  }
  CHECK(cutevis::hex_text(0, 2) == "00");
  CHECK(cutevis::hex_text(0xAB, 4) == "00ab");
}
