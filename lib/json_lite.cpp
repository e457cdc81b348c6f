#include "lib/json_lite.hpp"

#include <cmath>
#include <cstdlib>

#include "lib/float_text.hpp"

namespace cutevis::json_lite::detail {

void throw_type_error(int id, const std::string& message) {
  throw type_error(id, "[json.exception.type_error." + std::to_string(id) + "] " + message);
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kNull: return "null";
    case Kind::kObject: return "object";
    case Kind::kArray: return "array";
    case Kind::kString: return "string";
    case Kind::kBool: return "boolean";
    default: return "number";
  }
}

void throw_cannot_use(int id, const char* use, Kind k) {
  throw_type_error(id, std::string("cannot use ") + use + " with " + kind_name(k));
}

void append_indent(std::string& out, int spaces, char c) { out.append(static_cast<size_t>(spaces), c); }

namespace {

std::string hex_byte(uint8_t b) {
  const char* hex = "0123456789ABCDEF";
  return {hex[b / 16], hex[b % 16]};
}

void append_u(std::string& out, uint32_t unit) {  // \u00e9: four lower-case hex digits
  out += "\\u" + hex_text(unit, 4);
}

// One code point decoded, escaped as nlohmann escapes it; BYTE is its last byte (copied when the
// code point needs no escape; the bytes before it were copied as they came).
void append_code_point(std::string& out, uint32_t cp, char byte, bool ensure_ascii) {
  switch (cp) {
    case 0x08: out += "\\b"; return;
    case 0x09: out += "\\t"; return;
    case 0x0A: out += "\\n"; return;
    case 0x0C: out += "\\f"; return;
    case 0x0D: out += "\\r"; return;
    case 0x22: out += "\\\""; return;
    case 0x5C: out += "\\\\"; return;
    default: break;
  }
  if (cp <= 0x1F || (ensure_ascii && cp >= 0x7F)) {
    if (cp <= 0xFFFF) {
      append_u(out, cp);
    } else {  // a surrogate pair
      append_u(out, 0xD7C0u + (cp >> 10u));
      append_u(out, 0xDC00u + (cp & 0x3FFu));
    }
    return;
  }
  out += byte;
}

}  // namespace

// Well-formed UTF-8 as Unicode's table 3-7 has it: a sequence is rejected at its first byte
// that cannot continue it (nlohmann's decoder, Hoehrmann's automaton, rejects at the same byte).
// nlohmann's handling of a rejected sequence: strict throws; replace and ignore drop the bytes
// of the sequence written so far (replace writes U+FFFD in their place), and the rejected byte
// starts a new sequence unless it was a sequence's first byte.
void append_string(std::string& out, std::string_view s, bool ensure_ascii, error_handler_t handler) {
  out += '"';
  size_t last_accept = out.size();
  uint32_t cp = 0;
  int need = 0;                  // continuation bytes still to come
  uint8_t lo = 0x80, hi = 0xBF;  // the range of the next continuation byte
  auto replace = [&] {
    out.resize(last_accept);
    if (handler == error_handler_t::replace) out += ensure_ascii ? "\\ufffd" : "\xEF\xBF\xBD";
    last_accept = out.size();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    const auto b = static_cast<uint8_t>(s[i]);
    bool rejected = false;
    if (need == 0) {
      lo = 0x80, hi = 0xBF;
      if (b < 0x80) {
        cp = b;
      } else if (b >= 0xC2 && b <= 0xDF) {
        cp = b & 0x1Fu, need = 1;
      } else if (b >= 0xE0 && b <= 0xEF) {
        cp = b & 0x0Fu, need = 2;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;
      } else if (b >= 0xF0 && b <= 0xF4) {
        cp = b & 0x07u, need = 3;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
      } else {
        rejected = true;
      }
      if (rejected) {
        if (handler == error_handler_t::strict)
          throw_type_error(316, "invalid UTF-8 byte at index " + std::to_string(i) + ": 0x" + hex_byte(b));
        replace();
        continue;
      }
      if (need > 0) {
        if (!ensure_ascii) out += static_cast<char>(b);
        continue;
      }
    } else if (b < lo || b > hi) {
      if (handler == error_handler_t::strict)
        throw_type_error(316, "invalid UTF-8 byte at index " + std::to_string(i) + ": 0x" + hex_byte(b));
      replace();
      need = 0;
      --i;  // the byte starts the next sequence
      continue;
    } else {
      cp = (cp << 6u) | (b & 0x3Fu);
      lo = 0x80, hi = 0xBF;
      if (--need > 0) {
        if (!ensure_ascii) out += static_cast<char>(b);
        continue;
      }
    }
    append_code_point(out, cp, static_cast<char>(b), ensure_ascii);
    last_accept = out.size();
  }
  if (need > 0) {
    if (handler == error_handler_t::strict)
      throw_type_error(316, "incomplete UTF-8 string; last byte: 0x" + hex_byte(static_cast<uint8_t>(s.back())));
    replace();
  }
  out += '"';
}

// The shortest digits that read back as D (printf's correctly rounded %.*e, at the first
// precision strtod reads back exactly: shortest_digits, lib/float_text.hpp), laid out by
// nlohmann's rules (its format_buffer and append_exponent): a decimal point between 1e-5 and
// 1e15, else an exponent of at least two digits.  nlohmann takes its digits from Grisu2
// instead, which nearly always gives the same.
void append_double(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  if (std::signbit(d)) {
    out += '-';
    d = -d;
  }
  if (d == 0) {
    out += "0.0";
    return;
  }
  const auto [digits, n] = shortest_digits(d);  // n: the decimal point's place after the first digit
  const int k = static_cast<int>(digits.size());
  constexpr int kMinExp = -4, kMaxExp = 15;
  if (k <= n && n <= kMaxExp) {  // digits[000].0
    out += digits;
    out.append(static_cast<size_t>(n - k), '0');
    out += ".0";
  } else if (0 < n && n <= kMaxExp) {  // dig.its
    out.append(digits, 0, static_cast<size_t>(n));
    out += '.';
    out.append(digits, static_cast<size_t>(n));
  } else if (kMinExp < n && n <= 0) {  // 0.[000]digits
    out += "0.";
    out.append(static_cast<size_t>(-n), '0');
    out += digits;
  } else {  // d[.igits]e+dd
    out += digits[0];
    if (k > 1) {
      out += '.';
      out.append(digits, 1);
    }
    const int x = n - 1;
    out += x < 0 ? "e-" : "e+";
    const int a = std::abs(x);
    if (a < 10) out += '0';
    out += std::to_string(a);
  }
}

}  // namespace cutevis::json_lite::detail
