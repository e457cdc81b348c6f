// verify's element formats: exact integers in every type an instruction reads.
#include <doctest/doctest.h>

#include "atoms/verify/number_format.hpp"
#include "lib/error.hpp"

using namespace cutevis;
using namespace cutevis::verify;

namespace {
NumberFormat fmt(const std::string& ptx) {
  auto f = format_from_ptx(ptx);
  REQUIRE(f.has_value());
  return *f;
}
}  // namespace

TEST_CASE("verify formats: known bit patterns") {
  CHECK(encode(fmt("f16"), 1) == 0x3c00);
  CHECK(encode(fmt("f16"), -2) == 0xc000);
  CHECK(encode(fmt("f16"), 2048) == 0x6800);
  CHECK(encode(fmt("bf16"), 1) == 0x3f80);
  CHECK(encode(fmt("bf16"), 3) == 0x4040);
  CHECK(encode(fmt("tf32"), 3) == 0x40400000);  // an f32 container, low 13 bits zero
  CHECK(encode(fmt("f32"), -5) == 0xc0a00000);
  CHECK(encode(fmt("f64"), -2) == 0xc000000000000000ULL);
  CHECK(encode(fmt("e4m3"), 1) == 0x38);
  CHECK(encode(fmt("e4m3"), -3) == 0xc4);
  CHECK(encode(fmt("e5m2"), 1) == 0x3c);
  CHECK(encode(fmt("e5m2"), 6) == 0x46);
  CHECK(encode(fmt("s4"), -1) == 0xf);
  CHECK(encode(fmt("u4"), 9) == 0x9);
  CHECK(encode(fmt("s8"), -128) == 0x80);
  CHECK(encode(fmt("b1"), 1) == 1);
}

TEST_CASE("verify formats: every exact integer round-trips") {
  for (const char* t : {"f16", "bf16", "tf32", "f32", "f64", "e4m3", "e5m2", "s32", "s8", "u8", "s4", "u4", "b1"}) {
    NumberFormat f = fmt(t);
    int64_t lo = std::max<int64_t>(f.min_value, -300), hi = std::min<int64_t>(f.max_exact, 300);
    for (int64_t v = lo; v <= hi; ++v) {
      auto back = decode(f, encode(f, v));
      REQUIRE_MESSAGE(back.has_value(), t << " " << v);
      CHECK_MESSAGE(*back == v, t << " " << v);
    }
  }
}

TEST_CASE("verify formats: inexact values are refused, non-integers decode to nothing") {
  CHECK_THROWS_AS(encode(fmt("f16"), 4097), Error);
  CHECK_THROWS_AS(encode(fmt("e5m2"), 9), Error);
  CHECK_THROWS_AS(encode(fmt("u4"), -1), Error);
  CHECK_THROWS_AS(encode(fmt("s4"), 8), Error);
  CHECK_FALSE(decode(fmt("f16"), 0x3c01).has_value());  // 1.0009765625
  CHECK_FALSE(decode(fmt("f16"), 0x7e00).has_value());  // NaN
  CHECK_FALSE(decode(fmt("f32"), 0xffffffff).has_value());
  CHECK(decode(fmt("e4m3"), 0x7e) == 448);             // e4m3 has no infinities
  CHECK_FALSE(decode(fmt("e4m3"), 0x7f).has_value());  // its NaN
}

TEST_CASE("verify formats: C++ element types map to the instruction's") {
  auto of = [](const std::string& name) {
    ValueType t;
    t.name = name;
    return ptx_type_of(t);
  };
  CHECK(of("half_t") == "f16");
  CHECK(of("cutlass::bfloat16_t") == "bf16");
  CHECK(of("signed char") == "s8");
  CHECK(of("cutlass::integer_subbyte<4, true>") == "s4");
  CHECK(of("cutlass::integer_subbyte<4, false>") == "u4");
  CHECK(of("uint1b_t") == "b1");
  CHECK(of("float_e5m2_t") == "e5m2");
  CHECK(of("complex<double>") == "");
  ValueType c;
  c.name = "cutlass::complex<double>";
  CHECK_FALSE(format_of(c).has_value());
}
