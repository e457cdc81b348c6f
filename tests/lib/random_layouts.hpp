// Deterministic generators of random layouts for the property tests of lib/.
//
// Every generator draws from a seeded std::mt19937_64, so a failing case is
// reproducible: the tests print the layout (to_string) with the failure.  The draws
// from it are ours, not <random>'s distributions (whose algorithms each standard
// library chooses): libstdc++, libc++ (clang, emscripten) draw the same cases.  Shapes
// are small (size <= max_size) so that every property can be checked at every index.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "lib/layout.hpp"

namespace cutevis::test {

class LayoutGen {
 public:
  explicit LayoutGen(uint64_t seed) : rng_(seed) {}

  int64_t pick(std::initializer_list<int64_t> choices) {
    return *(choices.begin() + static_cast<std::ptrdiff_t>(below(choices.size())));
  }
  int64_t uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
  }
  bool chance(double p) { return static_cast<double>(rng_() >> 11) * 0x1.0p-53 < p; }  // 53 random bits in [0, 1)
  template <class T>
  void shuffle(std::vector<T>& v) {  // Fisher-Yates
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

  // A shape of nesting depth <= depth, rank <= max_rank per level, size <= max_size.
  IntTuple shape(int depth = 2, int max_rank = 3, int64_t max_size = 256) {
    for (int attempt = 0; attempt < 64; ++attempt) {
      IntTuple s = shape_once(depth, max_rank);
      if (size(s) <= max_size) return s;
    }
    return IntTuple(pick({2, 4, 8}));
  }

  // Column-major strides over a random permutation of the leaves: an injective layout
  // (with `gaps`, holes between modes; `zeros`/`negatives`: that fraction of leaves
  // gets stride 0 / a negated stride).
  IntTuple permuted_stride(const IntTuple& s, bool gaps = false, double zeros = 0, double negatives = 0) {
    std::vector<IntTuple> leaves = flatten_leaves(s);
    std::vector<size_t> order(leaves.size());
    std::iota(order.begin(), order.end(), size_t{0});
    shuffle(order);
    std::vector<IntTuple> strides(leaves.size());
    int64_t current = 1;
    for (size_t i : order) {
      if (gaps && chance(0.3)) current *= pick({2, 4});
      int64_t d = current;
      if (chance(zeros)) d = 0;
      if (chance(negatives)) d = -d;
      strides[i] = IntTuple(d);
      current *= leaves[i].value();
    }
    return rebuild(strides, s);
  }

  // Arbitrary small strides (may be non-injective, negative or zero).
  IntTuple random_stride(const IntTuple& s) {
    std::vector<IntTuple> strides;
    for (size_t i = 0; i < flatten_leaves(s).size(); ++i)
      strides.emplace_back(pick({0, 1, 1, 2, 3, 4, 8, 16, 32, -1, -2}));
    return rebuild(strides, s);
  }

  // An injective layout (permuted column-major, optionally with holes).
  Layout injective(int depth = 2, int64_t max_size = 256, bool gaps = true) {
    IntTuple s = shape(depth, 3, max_size);
    return Layout(s, permuted_stride(s, gaps && chance(0.5)));
  }

  // Any layout: compact, holey, with zero strides, negative strides or arbitrary strides.
  Layout any(int depth = 2, int64_t max_size = 256) {
    IntTuple s = shape(depth, 3, max_size);
    switch (uniform(0, 5)) {
      case 0:
      case 1: return Layout(s, permuted_stride(s));
      case 2: return Layout(s, permuted_stride(s, true));
      case 3: return Layout(s, permuted_stride(s, false, 0.3));
      case 4: return Layout(s, permuted_stride(s, chance(0.5), 0, 0.4));
      default: return Layout(s, random_stride(s));
    }
  }

  // A compact layout whose size divides `n` (a tiler or a right-hand side of composition).
  Layout dividing(int64_t n, int depth = 1) {
    for (int attempt = 0; attempt < 64; ++attempt) {
      IntTuple s = shape(depth, 2, n);
      if (n % size(s) == 0) return Layout(s, permuted_stride(s));
    }
    return Layout(IntTuple(1), IntTuple(0));
  }

 private:
  // Uniform in [0, n), n >= 1: the top bits of a 128-bit product (Lemire's method, without
  // the rejection step: a bias below n / 2^64 is nothing to a test).
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(rng_()) * n) >> 64); }

  IntTuple shape_once(int depth, int max_rank) {
    if (depth == 0 || chance(0.35)) return IntTuple(pick({1, 2, 2, 2, 3, 4, 4, 4, 8, 8, 16, 6, 5}));
    std::vector<IntTuple> modes;
    int64_t r = uniform(1, max_rank);
    for (int64_t i = 0; i < r; ++i) modes.push_back(shape_once(depth - 1, max_rank));
    return IntTuple::tuple(std::move(modes));
  }

  static IntTuple rebuild(const std::vector<IntTuple>& leaves, const IntTuple& profile) {
    if (profile.is_leaf()) return leaves.at(0);
    return unflatten(IntTuple::tuple(leaves), profile);
  }

  std::mt19937_64 rng_;
};

// Every value of L as a set (its image).
inline std::set<int64_t> image(const Layout& l) {
  std::vector<int64_t> v = layout_values(l);
  return {v.begin(), v.end()};
}

inline bool is_injective(const Layout& l) { return static_cast<int64_t>(image(l).size()) == size(l); }

// Whether every mode s:d of B walks the flat modes of coalesce(A) exactly: a stride
// past a mode must be a multiple of it, a stride inside a mode must divide it (or the
// whole mode of B must fit inside).  CuTe checks only the weaker `d % s == 0 or d < s`,
// so for the rest its composition is not A o B (composition_test.cpp shows a case).
inline bool exactly_admissible(const Layout& a, const Layout& b) {
  Layout ca = coalesce_x(a);
  auto as = flatten_values(ca.shape);
  auto bs = flatten_values(b.shape);
  auto bd = flatten_values(b.stride);
  for (size_t k = 0; k < bs.size(); ++k) {
    int64_t s = bs[k], d = bd[k] < 0 ? -bd[k] : bd[k];
    if (s == 1 || d == 0) continue;
    for (size_t i = 0; i + 1 < as.size() && s > 1; ++i) {
      int64_t cur = as[i];
      if (d >= cur) {
        if (d % cur != 0) return false;
        d /= cur;
        continue;
      }
      if (s * d <= cur) break;  // the rest of this mode of B fits inside
      if (cur % d != 0) return false;
      int64_t fit = cur / d;
      if (s % fit != 0) return false;
      s /= fit;
      d = 1;
    }
  }
  return true;
}

}  // namespace cutevis::test
