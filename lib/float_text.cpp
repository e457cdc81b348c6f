// Decimal text <-> binary floating point, exact and correctly rounded (see lib/float_text.hpp).
#include "lib/float_text.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace cutevis {

namespace {

// A non-negative integer of any size: 32-bit limbs, least significant first, no zero limb on top.
class BigInt {
 public:
  explicit BigInt(uint64_t v = 0) {
    for (; v != 0; v >>= 32) limbs_.push_back(static_cast<uint32_t>(v));
  }

  bool is_zero() const { return limbs_.empty(); }
  int bit_length() const {
    return limbs_.empty() ? 0 : 32 * static_cast<int>(limbs_.size()) - std::countl_zero(limbs_.back());
  }

  // *this = *this * factor + addend
  void multiply_add(uint32_t factor, uint32_t addend = 0) {
    uint64_t carry = addend;
    for (uint32_t& limb : limbs_) {
      const uint64_t t = uint64_t{limb} * factor + carry;
      limb = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0) limbs_.push_back(static_cast<uint32_t>(carry));
  }
  void multiply_pow5(int k) {
    constexpr uint32_t kPow5_13 = 1220703125;  // the largest power of 5 below 2^32
    for (; k >= 13; k -= 13) multiply_add(kPow5_13);
    uint32_t rest = 1;
    for (; k > 0; --k) rest *= 5;
    multiply_add(rest);
  }
  void shift_left(int bits) {
    if (is_zero() || bits == 0) return;
    const int words = bits / 32, b = bits % 32;
    if (b != 0) {
      uint32_t carry = 0;
      for (uint32_t& limb : limbs_) {
        const uint32_t next = limb >> (32 - b);
        limb = (limb << b) | carry;
        carry = next;
      }
      if (carry != 0) limbs_.push_back(carry);
    }
    limbs_.insert(limbs_.begin(), static_cast<size_t>(words), 0u);
  }
  void shift_right_one() {
    for (size_t i = 0; i < limbs_.size(); ++i)
      limbs_[i] = (limbs_[i] >> 1) | (i + 1 < limbs_.size() ? limbs_[i + 1] << 31 : 0u);
    trim();
  }
  int compare(const BigInt& o) const {
    if (limbs_.size() != o.limbs_.size()) return limbs_.size() < o.limbs_.size() ? -1 : 1;
    for (size_t i = limbs_.size(); i-- > 0;)
      if (limbs_[i] != o.limbs_[i]) return limbs_[i] < o.limbs_[i] ? -1 : 1;
    return 0;
  }
  void subtract(const BigInt& o) {  // *this >= o
    int64_t borrow = 0;
    for (size_t i = 0; i < limbs_.size(); ++i) {
      const int64_t t = int64_t{limbs_[i]} - (i < o.limbs_.size() ? int64_t{o.limbs_[i]} : 0) - borrow;
      borrow = t < 0;
      limbs_[i] = static_cast<uint32_t>(t);
    }
    trim();
  }

 private:
  void trim() {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }
  std::vector<uint32_t> limbs_;
};

void strip_trailing_zeros(DecimalDigits& d) {
  const size_t last = d.digits.find_last_not_of('0');
  d.digits.resize(last == std::string::npos ? 0 : last + 1);
  if (d.digits.empty()) d.point = 0;
}

// The exact decimal value of m 2^e: m 2^e itself (e >= 0) or m 5^-e / 10^-e (e < 0), the integer
// computed in base 10^9 (its digits without a conversion).
DecimalDigits exact_decimal(uint64_t m, int e) {
  if (m == 0) return {};
  const int zeros = std::countr_zero(m);
  m >>= zeros, e += zeros;
  constexpr uint32_t kBase = 1000000000;
  std::vector<uint32_t> n;  // base 10^9 digits, the lowest first
  for (; m != 0; m /= kBase) n.push_back(static_cast<uint32_t>(m % kBase));
  auto multiply = [&n](uint32_t factor) {  // factor < 2^32: a limb's product and carry fit 64 bits
    uint64_t carry = 0;
    for (uint32_t& limb : n) {
      const uint64_t t = uint64_t{limb} * factor + carry;
      limb = static_cast<uint32_t>(t % kBase);
      carry = t / kBase;
    }
    for (; carry != 0; carry /= kBase) n.push_back(static_cast<uint32_t>(carry % kBase));
  };
  const uint32_t big = e >= 0 ? uint32_t{1} << 31 : 1220703125;  // 2^31, 5^13
  const int big_power = e >= 0 ? 31 : 13, small = e >= 0 ? 2 : 5;
  int k = std::abs(e);
  for (; k >= big_power; k -= big_power) multiply(big);
  uint32_t rest = 1;
  for (; k > 0; --k) rest *= static_cast<uint32_t>(small);
  multiply(rest);
  DecimalDigits d{std::to_string(n.back()), 0};
  for (size_t i = n.size() - 1; i-- > 0;) {
    const std::string nine = std::to_string(n[i]);
    d.digits.append(9 - nine.size(), '0');
    d.digits += nine;
  }
  d.point = static_cast<int>(d.digits.size()) + std::min(e, 0);
  strip_trailing_zeros(d);
  return d;
}

// A double's bits: |x| = mantissa 2^exponent, mantissa < 2^53.
struct Bits {
  int field;  // the biased exponent field: 0 for zero and subnormals, 2047 for inf and NaN
  uint64_t mantissa;
  int exponent;
};

Bits bits_of(double x) {
  uint64_t u = 0;
  std::memcpy(&u, &x, sizeof u);
  const int field = static_cast<int>((u >> 52) & 0x7FF);
  const uint64_t fraction = u & ((uint64_t{1} << 52) - 1);
  if (field == 0) return {field, fraction, -1074};
  return {field, fraction | (uint64_t{1} << 52), field - 1075};
}

DecimalDigits exact_decimal(double x) {  // of |x|, finite
  const Bits b = bits_of(x);
  return exact_decimal(b.mantissa, b.exponent);
}

// D rounded to its first KEEP digits (KEEP <= 0: to a multiple of 10^(point - KEEP)), halves to even.
DecimalDigits rounded(const DecimalDigits& d, int keep) {
  if (keep >= static_cast<int>(d.digits.size())) return d;
  if (keep < 0) return {};  // below half the unit: d < 10^point <= 10^(point - keep) / 10
  DecimalDigits r{d.digits.substr(0, static_cast<size_t>(keep)), d.point};
  const char next = d.digits[static_cast<size_t>(keep)];
  const bool more = keep + 1 < static_cast<int>(d.digits.size());  // trailing zeros are stripped
  const bool odd = keep > 0 && (d.digits[static_cast<size_t>(keep) - 1] - '0') % 2 == 1;
  if (next > '5' || (next == '5' && (more || odd))) {
    size_t i = r.digits.size();
    while (i > 0 && r.digits[i - 1] == '9') r.digits[--i] = '0';
    if (i == 0) {  // 99.5 -> 100
      r.digits.insert(r.digits.begin(), '1');
      ++r.point;
    } else {
      ++r.digits[i - 1];
    }
  }
  strip_trailing_zeros(r);
  return r;
}

char digit_at(const DecimalDigits& d, int i) {  // the i-th digit, '0' past the ends
  return i >= 0 && i < static_cast<int>(d.digits.size()) ? d.digits[static_cast<size_t>(i)] : '0';
}

// A finite |x|'s exact digits with printf's sign, or the whole text for inf and NaN.
bool start(double x, std::string& out, DecimalDigits& d) {
  if (std::signbit(x)) out += '-';
  if (std::isinf(x)) {
    out += "inf";
    return false;
  }
  if (std::isnan(x)) {
    out += "nan";
    return false;
  }
  d = exact_decimal(x);
  return true;
}

void append_fixed(std::string& out, const DecimalDigits& exact, int decimals) {
  const DecimalDigits d = rounded(exact, exact.point + decimals);
  if (d.point <= 0) out += '0';
  for (int i = 0; i < d.point; ++i) out += digit_at(d, i);
  if (decimals > 0) out += '.';
  for (int i = 0; i < decimals; ++i) out += digit_at(d, d.point + i);
}

void append_exponent(std::string& out, const DecimalDigits& exact, int decimals) {
  const DecimalDigits d = rounded(exact, decimals + 1);
  out += digit_at(d, 0);
  if (decimals > 0) out += '.';
  for (int i = 1; i <= decimals; ++i) out += digit_at(d, i);
  const int x = d.digits.empty() ? 0 : d.point - 1;
  out += x < 0 ? "e-" : "e+";
  if (std::abs(x) < 10) out += '0';
  out += std::to_string(std::abs(x));
}

void strip_fraction_zeros(std::string& s, size_t from) {  // %g: "1.500" -> "1.5", "2.000" -> "2"
  const size_t point = s.find('.', from);
  if (point == std::string::npos) return;
  size_t end = s.find('e', point);
  if (end == std::string::npos) end = s.size();
  size_t last = end;
  while (last > point + 1 && s[last - 1] == '0') --last;
  if (last == point + 1) last = point;
  s.erase(last, end - last);
}

// --- reading ---------------------------------------------------------------------------------------

// A binary format: PRECISION bits of mantissa; its smallest subnormal is 2^MIN_LSB; values of
// 2^MAX_EXPONENT and above are infinite.
struct BinaryFormat {
  int precision, min_lsb, max_exponent;
};
constexpr BinaryFormat kDoubleFormat{53, -1074, 1024}, kFloatFormat{24, -149, 128};

// The format's value nearest to (Q + f) 2^B, halves to even, where 0 <= f < 1 and f > 0 only if
// STICKY; Q has at least precision + 2 bits where STICKY is set (so f never decides a tie alone).
double nearest(uint64_t q, bool sticky, int b, BinaryFormat f) {
  if (q == 0) return 0;
  int lsb = std::max(static_cast<int>(std::bit_width(q)) + b - f.precision, f.min_lsb);  // the result's last bit
  const int drop = lsb - b;
  uint64_t m = 0;
  if (drop <= 0) {
    m = q << -drop;
  } else if (drop <= 64) {
    m = drop == 64 ? 0 : q >> drop;
    const uint64_t rest = drop == 64 ? q : q & ((uint64_t{1} << drop) - 1), half = uint64_t{1} << (drop - 1);
    if (rest > half || (rest == half && (sticky || (m & 1) != 0))) ++m;
    if (m >> f.precision != 0) m >>= 1, ++lsb;  // 1.11..1 rounded up to 10.00..0
  }                                             // else q < 2^64 <= half the last bit: 0
  if (m != 0 && lsb + f.precision > f.max_exponent) return std::numeric_limits<double>::infinity();
  return std::ldexp(static_cast<double>(m), lsb);
}

constexpr int kMaxDigits = 800;  // more than any half-way point between two doubles has (767)

// DIGITS (a decimal integer, no leading zero) x 10^EXP10 in the format.
double decimal_value(const std::string& digits, int64_t exp10, BinaryFormat f) {
  if (digits.empty()) return 0;
  const int64_t magnitude = static_cast<int64_t>(digits.size()) + exp10;  // 10^(magnitude-1) <= value < 10^magnitude
  if (magnitude > 310) return std::numeric_limits<double>::infinity();
  if (magnitude < -324) return 0;  // below 10^-324, less than half of 2^-1074
  if (f.precision == 53 && digits.size() <= 15 && exp10 >= -22 && exp10 <= 22) {
    // both exact in a double: one correctly rounded operation (Clinger's fast path)
    double power = 1;
    for (int64_t i = 0; i < std::abs(exp10); ++i) power *= 10;
    uint64_t n = 0;
    for (char c : digits) n = n * 10 + static_cast<uint64_t>(c - '0');
    return exp10 < 0 ? static_cast<double>(n) / power : static_cast<double>(n) * power;
  }
  BigInt num, den(1);
  for (size_t i = 0; i < digits.size(); i += 9) {  // nine digits at a time
    uint32_t chunk = 0, scale = 1;
    for (size_t j = i; j < std::min(i + 9, digits.size()); ++j)
      chunk = chunk * 10 + static_cast<uint32_t>(digits[j] - '0'), scale *= 10;
    num.multiply_add(scale, chunk);
  }
  // value = num / den x 2^b
  const int e10 = static_cast<int>(exp10);
  int b = e10;
  (e10 >= 0 ? num : den).multiply_pow5(std::abs(e10));
  // scale num / den into [2^(precision+2), 2^(precision+4)): q has precision + 3 or + 4 bits
  const int shift = f.precision + 3 - (num.bit_length() - den.bit_length());
  (shift > 0 ? num : den).shift_left(std::abs(shift));
  b -= shift;
  const int top = f.precision + 3;  // q < 2^(precision+4)
  den.shift_left(top);
  uint64_t q = 0;
  for (int i = top; i >= 0; --i, den.shift_right_one()) {
    if (num.compare(den) >= 0) {
      num.subtract(den);
      q |= uint64_t{1} << i;
    }
  }
  return nearest(q, !num.is_zero(), b, f);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
int hex_value(char c) {  // -1: not a hexadecimal digit
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  char at(size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  size_t used() const { return i_; }
  void skip(size_t n = 1) { i_ += n; }
  bool word(std::string_view w) {  // case-insensitive
    for (size_t k = 0; k < w.size(); ++k)
      if (lower(at(k)) != w[k]) return false;
    i_ += w.size();
    return true;
  }
  // MARKER ('e' or 'p', either case), [sign], digits: the exponent, saturated at 10^15 (past
  // any text's length: the value is 0 or inf long before); 0 and nothing read where no digit follows.
  int64_t exponent(char marker) {
    const size_t sign = at(1) == '+' || at(1) == '-' ? 1 : 0;
    if (lower(at(0)) != marker || !is_digit(at(1 + sign))) return 0;
    const bool negative = at(1) == '-';
    i_ += 1 + sign;
    int64_t e = 0;
    for (; is_digit(at(0)); ++i_) e = std::min<int64_t>(e * 10 + (at(0) - '0'), 1000000000000000);
    return negative ? -e : e;
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

// strtod's grammar: the bytes read; in VALUE the number rounded to format F (held in a double).
size_t parse(std::string_view text, double& value, BinaryFormat f) {
  Reader r(text);
  value = 0;
  while (r.at(0) == ' ' || (r.at(0) >= '\t' && r.at(0) <= '\r')) r.skip();
  const bool negative = r.at(0) == '-';
  if (r.at(0) == '+' || r.at(0) == '-') r.skip();
  auto signed_value = [&](double v) {
    value = negative ? -v : v;
    return r.used();
  };
  if (r.word("inf")) {
    r.word("inity");
    return signed_value(std::numeric_limits<double>::infinity());
  }
  if (r.word("nan")) {
    if (r.at(0) == '(') {  // nan(n-char-sequence)
      size_t k = 1;
      while (is_digit(r.at(k)) || (lower(r.at(k)) >= 'a' && lower(r.at(k)) <= 'z') || r.at(k) == '_') ++k;
      if (r.at(k) == ')') r.skip(k + 1);
    }
    return signed_value(std::numeric_limits<double>::quiet_NaN());
  }
  if (r.at(0) == '0' && lower(r.at(1)) == 'x' &&
      (hex_value(r.at(2)) >= 0 || (r.at(2) == '.' && hex_value(r.at(3)) >= 0))) {
    r.skip(2);
    uint64_t q = 0;  // value = (q + some of the digits dropped) 2^b
    int64_t b = 0;
    bool sticky = false;
    auto take = [&](int v, bool fraction) {
      if (q >> 60 == 0) {
        q = q * 16 + static_cast<uint64_t>(v);
        b -= fraction ? 4 : 0;
      } else {
        sticky |= v != 0;
        b += fraction ? 0 : 4;
      }
    };
    for (; hex_value(r.at(0)) >= 0; r.skip()) take(hex_value(r.at(0)), false);
    if (r.at(0) == '.')
      for (r.skip(); hex_value(r.at(0)) >= 0; r.skip()) take(hex_value(r.at(0)), true);
    b += r.exponent('p');
    if (q == 0) return signed_value(0);
    if (b > 1100) return signed_value(std::numeric_limits<double>::infinity());
    return signed_value(nearest(q, sticky, static_cast<int>(std::max<int64_t>(b, -1200)), f));
  }
  std::string digits;  // the significant digits kept: value = digits x 10^exp10
  int64_t exp10 = 0;
  bool any = false, sticky = false;
  auto take = [&](char c, bool fraction) {
    any = true;
    if (digits.empty() && c == '0') {
      exp10 -= fraction ? 1 : 0;
    } else if (digits.size() < kMaxDigits) {
      digits += c;
      exp10 -= fraction ? 1 : 0;
    } else {
      sticky |= c != '0';
      exp10 += fraction ? 0 : 1;
    }
  };
  for (; is_digit(r.at(0)); r.skip()) take(r.at(0), false);
  if (r.at(0) == '.')
    for (r.skip(); is_digit(r.at(0)); r.skip()) take(r.at(0), true);
  if (!any) return 0;  // no digit: no number
  exp10 += r.exponent('e');
  if (sticky) {  // a digit past the kept ones: a little more than them, less than the next
    digits += '1';
    --exp10;
  }
  return signed_value(decimal_value(digits, exp10, f));
}

}  // namespace

std::string fixed_text(double x, int decimals) {
  std::string out;
  DecimalDigits d;
  if (start(x, out, d)) append_fixed(out, d, decimals);
  return out;
}

std::string exponent_text(double x, int decimals) {
  std::string out;
  DecimalDigits d;
  if (start(x, out, d)) append_exponent(out, d, decimals);
  return out;
}

std::string general_text(double x, int precision) {
  std::string out;
  DecimalDigits d;
  if (!start(x, out, d)) return out;
  const int p = std::max(precision, 1);
  const DecimalDigits r = rounded(d, p);
  const int exponent = r.digits.empty() ? 0 : r.point - 1;  // as "%.*e" with p - 1 decimals writes it
  const size_t from = out.size();
  if (exponent >= -4 && exponent < p) append_fixed(out, d, p - 1 - exponent);
  else append_exponent(out, d, p - 1);
  strip_fraction_zeros(out, from);
  return out;
}

DecimalDigits shortest_digits(double x) {
  const Bits b = bits_of(x);
  const DecimalDigits exact = exact_decimal(b.mantissa, b.exponent);
  // the doubles' half-way points below and above x: a decimal strictly between them reads back
  // as x; one on them, only if x's mantissa is even (ties to even)
  const bool closer_below = b.mantissa == uint64_t{1} << 52 && b.field > 1;  // a power of 2: the gap below is half
  const DecimalDigits low = closer_below ? exact_decimal(4 * b.mantissa - 1, b.exponent - 2)
                                         : exact_decimal(2 * b.mantissa - 1, b.exponent - 1);
  const DecimalDigits high = exact_decimal(2 * b.mantissa + 1, b.exponent - 1);
  const bool even = b.mantissa % 2 == 0;
  auto compare = [](const DecimalDigits& a, const DecimalDigits& c) {  // both > 0
    if (a.point != c.point) return a.point < c.point ? -1 : 1;
    return a.digits.compare(c.digits);
  };
  for (int n = 1;; ++n) {
    DecimalDigits r = rounded(exact, n);
    const int above_low = compare(r, low), below_high = compare(high, r);
    if ((above_low > 0 || (above_low == 0 && even)) && (below_high > 0 || (below_high == 0 && even))) return r;
  }
}

size_t parse_double(std::string_view text, double& value) { return parse(text, value, kDoubleFormat); }

size_t parse_float(std::string_view text, float& value) {
  double v = 0;
  const size_t used = parse(text, v, kFloatFormat);
  value = static_cast<float>(v);  // exact: a float's value, inf or NaN
  return used;
}

std::string hex_text(uint64_t v, int min_digits) {
  std::string s;
  for (; v != 0 || static_cast<int>(s.size()) < std::max(min_digits, 1); v >>= 4)
    s.insert(s.begin(), "0123456789abcdef"[v & 0xF]);
  return s;
}

}  // namespace cutevis
