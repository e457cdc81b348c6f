// "did you mean" for a mistyped MMA atom (atoms/mma_catalogue.cpp): the search skips whole
// families by the letters a typo lacks, and only the catalogue whose message is shown searches
// (atoms/atom_lookup.cpp).  Both must leave the suggestions exactly those of a search of every name.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "atoms/atom_lookup.hpp"
#include "atoms/atom_suggestions.hpp"
#include "atoms/mma_catalogue.hpp"
#include "lib/error.hpp"

using namespace cutevis;

namespace {

size_t levenshtein(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The three nearest of every catalogue name, the first listed first on a tie, none farther than
// max(16, |name|/2): the rule of the search, without its shortcuts.
std::string every_name_search(const std::string& wanted) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string& n : mma_atom_names()) scored.emplace_back(levenshtein(wanted, n), n);
  std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> kept;
  for (size_t i = 0; i < 3 && i < scored.size(); ++i)
    if (scored[i].first <= std::max<size_t>(16, wanted.size() / 2)) kept.push_back(scored[i].second);
  std::string s;
  for (size_t i = 0; i < kept.size(); ++i) s += (i ? (i + 1 == kept.size() ? " or " : ", ") : "") + kept[i];
  return s;
}

std::string error_of(const std::string& name) {
  try {
    find_atom(name);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("mma suggestions: every family's names have the letters the search skips families by") {
  CHECK(mma_family_texts_hold());
}

TEST_CASE("mma suggestions: typical typos get what a search of every name gives") {
  for (const std::string typo :
       {"SM80_16x8x16_F32F16F16F32_TX", "SM80_16x8x16_F32F16F16F32", "SM80_16x8x16_F16F16F16F16_NT",
        "SM90_64x128x16_F32F16F16_SX", "SM90_64x128x16_F32BF16BF16", "SM100_MMA_F16BF16_SX", "SM75_16x8x8_F32F16F16F32",
        "SM89_16x8x32_F32E4M3E4M3F32_TNN", "Universal_FMA", "SM61_DP4", "SM120_16x8x32_TN"}) {
    INFO(typo);
    const std::string e = error_of(typo);
    const std::string expected = every_name_search(typo);
    REQUIRE_FALSE(expected.empty());
    CHECK(e.find("; did you mean " + expected + "?") != std::string::npos);
  }
  // the fixed answer for the example
  CHECK(error_of("SM80_16x8x16_F32F16F16F32_TX")
            .find("did you mean SM80_16x8x16_F32F16F16F32_TN, SM80_16x8x8_F32F16F16F32_TN or "
                  "SM80_16x8x16_F32BF16BF16F32_TN?") != std::string::npos);
}

TEST_CASE("mma suggestions: a copy-like typo still gets the copy catalogue's suggestions") {
  const std::string e = error_of("Copy_Atom<SM75_U32x4_LDSM_X, half_t>");
  CHECK(e.find("did you mean") != std::string::npos);
}
