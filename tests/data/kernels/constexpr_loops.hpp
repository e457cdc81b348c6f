// Hand-written in the style of CUTLASS's integer helpers and FA3's backward kernel traits (read by
// tests/lang/constexpr_loops_test.cpp): constexpr functions with loops and compound assignments, CuTe's
// round_up in a stride, and floating values in casts.  It is valid C++: constexpr_loops_oracle.tsv
// beside it holds what g++ and real CuTe computed for each name.
#pragma once

#include <cute/tensor.hpp>

namespace my_attn {
namespace util {

// The greatest common divisor, by Euclid's remainders.
template <typename Int_t>
CUTE_HOST_DEVICE constexpr Int_t gcd_euclid(Int_t a, Int_t b) {
  while (b != Int_t{0}) {
    Int_t r = a % b;
    a = b;
    b = r;
  }
  return a < Int_t{0} ? -a : a;
}

template <typename Int_t>
CUTE_HOST_DEVICE constexpr Int_t lcm_euclid(Int_t a, Int_t b) {
  Int_t g = gcd_euclid(a, b);
  return g == Int_t{0} ? Int_t{0} : a / g * b;
}

// floor(log2(x)) for x >= 1
CUTE_HOST_DEVICE constexpr int log2_floor(int x) {
  int r = 0;
  for (; x > 1; x >>= 1) ++r;
  return r;
}

// The leading zero bits of a 32-bit value.
CUTE_HOST_DEVICE constexpr int leading_zeros(int x) {
  for (int bit = 31; bit >= 0; --bit) {
    if ((x >> bit) & 1) return 31 - bit;
  }
  return 32;
}

// Every compound assignment, and the increments, once.
CUTE_HOST_DEVICE constexpr int mixed(int x) {
  int v = x;
  v += 7;
  v -= 2;
  v *= 6;
  v /= 4;
  v %= 11;
  v <<= 3;
  v >>= 1;
  v |= 0x41;
  v &= 0x7d;
  v ^= 0x12;
  v++;
  ++v;
  v--;
  return v;
}

// 1 + 2 + ... + n without the multiples of 4, stopping once past `cap`.
CUTE_HOST_DEVICE constexpr int capped_sum(int n, int cap) {
  int sum = 0;
  for (int i = 1; i <= n; ++i) {
    if (i % 4 == 0) continue;
    sum += i;
    if (sum > cap) break;
  }
  return sum;
}

CUTE_HOST_DEVICE constexpr int decimal_digits(int x) {
  int n = 0;
  do {
    x /= 10;
    ++n;
  } while (x != 0);
  return n;
}

// A float accumulated in a loop: each step rounds to float.
CUTE_HOST_DEVICE constexpr float tenths(int n) {
  float f = 0;
  for (int i = 0; i < n; ++i) f += 0.1f;
  return f;
}

// A loop that never ends for x >= 0 (never called here: cutevis stops it with an error).
CUTE_HOST_DEVICE constexpr int spin(int x) {
  while (x >= 0) {
    x += 0;
  }
  return x;
}

}  // namespace util

using namespace cute;

template <int kBlockM_, int kBlockN_, int kHeadDim_, int kStages_, int NumEpilogueThreads_, class Element_>
struct BwdTraits {
  static constexpr int kBlockM = kBlockM_;
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kHeadDim = kHeadDim_;
  static constexpr int kStages = kStages_;
  static constexpr int NumEpilogueThreads = NumEpilogueThreads_;
  using Element = Element_;

  static constexpr int kGmemElemsPerStore = sizeof(cute::uint128_t) / sizeof(Element);
  static constexpr int kGmemThreadsPerRow = util::gcd_euclid(kHeadDim / kGmemElemsPerStore, NumEpilogueThreads);
  using GmemLayoutAtom = Layout<Shape<Int<NumEpilogueThreads / kGmemThreadsPerRow>, Int<kGmemThreadsPerRow>>,
                                Stride<Int<kGmemThreadsPerRow>, _1>>;
  // the LSE rows padded to a multiple of 64 (TMA wants 32-element-aligned strides)
  using SmemLayoutLSE = Layout<Shape<Int<kBlockM>, Int<kStages>>, Stride<_1, Int<cute::round_up(kBlockM, 64)>>>;
  using SmemLayoutLSEMma =
      Layout<Shape<Int<kBlockM>, Int<kBlockN>, Int<kStages>>, Stride<_1, _0, Int<cute::round_up(kBlockM, 64)>>>;
  static constexpr int kLog2Threads = util::log2_floor(NumEpilogueThreads);
};

using Traits80 = BwdTraits<80, 128, 96, 2, 256, cutlass::half_t>;
using Traits64 = BwdTraits<64, 128, 128, 2, 128, float>;

constexpr int kGcd = util::gcd_euclid(-84, 36);
constexpr int kLcm = util::lcm_euclid(12, 18);
constexpr int kLog2 = util::log2_floor(1000);
constexpr int kLeadingZeros = util::leading_zeros(1000);
constexpr int kMixed = util::mixed(13);
constexpr int kCappedSum = util::capped_sum(100, 500);
constexpr int kDigits = util::decimal_digits(40960);
constexpr float kTenths = util::tenths(10);
constexpr int kRoundUpStatic = decltype(cute::round_up(Int<200>{}, Int<64>{}))::value;
constexpr int kRoundUp = cute::round_up(200, 48);
using RoundUpShape =
    decltype(cute::round_up(make_shape(Int<100>{}, Int<7>{}, Int<5>{}), make_shape(Int<64>{}, Int<4>{})));
using RowsLayout = decltype(make_layout(make_shape(Int<util::log2_floor(256)>{}, Int<cute::ceil_div(100, 32)>{})));

// Floating values: a GEMM's alpha and beta as the tutorials write them, and casts both ways.
using TI = cute::half_t;
TI alpha = static_cast<TI>(1.0f);
TI beta = TI(0.0);
using Alpha = decltype(alpha);
constexpr int kAlphaBits = cute::sizeof_bits_v<Alpha>;
constexpr float kScale = 0.1f;
constexpr double kScaleDouble = 0.1;
constexpr float kTwo = float(2);
constexpr float kNegInf = -1e30f;
constexpr int kTruncated = static_cast<int>(2.9f);
constexpr int kTruncatedNeg = int(-2.9);
constexpr int kScaledRows = int(kScale * 640);
constexpr bool kScaleSmall = kScale < 0.125;
constexpr float kMixedSum = kScale * 3 + 1;
TI kHalfRounded = TI(1.0009765625f * 1.5f);
TI kHalfSum = TI(0.1f) + TI(0.2f);
TI kHalfOverflow = TI(65520.0f);
float kHalfPlusBf16 = TI(0.1f) + cutlass::bfloat16_t(0.1f);  // both through float: a float
cutlass::bfloat16_t kBf16FromInt = cutlass::bfloat16_t(259);
cutlass::bfloat16_t kBf16FromFloat = cutlass::bfloat16_t(259.0f);
using SmemRows = decltype(make_layout(make_shape(Int<int(kScale * 640)>{}, Int<static_cast<int>(2.5)>{})));

}  // namespace my_attn
