// cutevis — the one error type of the project.
//
// Every failure that reaches a user is an Error: a one-line message and, when it
// comes from parsing text, the byte offset of the bad spot (so the CLI can draw a
// caret under it).  The CLI maps Error to exit code 2 (bad input).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cutevis {

class Error : public std::runtime_error {
 public:
  static constexpr int64_t kNoPosition = -1;

  explicit Error(const std::string& message, int64_t position = kNoPosition)
      : std::runtime_error(message), position_(position) {}

  // Byte offset into the expression text, or kNoPosition.
  int64_t position() const { return position_; }
  bool has_position() const { return position_ >= 0; }

 private:
  int64_t position_;
};

// The errors of checked arithmetic (out of line: the checks below stay small).
[[noreturn]] void throw_overflow(int64_t a, char op, int64_t b);
[[noreturn]] void throw_division_error(int64_t a, int64_t b);

// Checked 64-bit arithmetic: any overflow is an Error, never a wrap.
inline int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw_overflow(a, '+', b);
  return r;
}
inline int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw_overflow(a, '-', b);
  return r;
}
inline int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw_overflow(a, '*', b);
  return r;
}
// C++ truncating division and remainder (as CuTe's `/` and `%` on ints).
inline int64_t checked_div(int64_t a, int64_t b) {
  if (b == 0 || (b == -1 && a == INT64_MIN)) throw_division_error(a, b);
  return a / b;
}
inline int64_t checked_mod(int64_t a, int64_t b) {
  if (b == 0) throw Error("modulo by zero");
  if (b == -1) return 0;
  return a % b;
}
// (a + b - 1) / b, CuTe's ceil_div on integers.
inline int64_t ceil_div(int64_t a, int64_t b) { return checked_div(checked_sub(checked_add(a, b), 1), b); }

}  // namespace cutevis
