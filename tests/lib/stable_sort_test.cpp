// stable_sort_by (lib/stable_sort.hpp): the order std::stable_sort gives, equal elements in
// their first order, elements that can only be moved.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/stable_sort.hpp"

using namespace cutevis;

TEST_CASE("stable_sort_by: std::stable_sort's order, ties kept in their first order") {
  uint32_t state = 12345;  // a generator of our own: the same cases on every standard library
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (size_t n : {0, 1, 2, 3, 17, 100, 1000}) {
    std::vector<std::pair<int, size_t>> v;  // (key, where it started): many equal keys
    for (size_t i = 0; i < n; ++i) v.emplace_back(static_cast<int>(next() >> 29), i);
    auto expected = v;
    auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::stable_sort(expected.begin(), expected.end(), by_key);
    stable_sort_by(v, by_key);
    CHECK(v == expected);
    for (size_t i = 1; i < v.size(); ++i)
      if (v[i - 1].first == v[i].first) CHECK(v[i - 1].second < v[i].second);
  }
}

TEST_CASE("stable_sort_by: descending, and elements that can only be moved") {
  std::vector<std::unique_ptr<std::string>> v;
  for (const char* s : {"bb", "a", "ccc", "dd", "e"}) v.push_back(std::make_unique<std::string>(s));
  stable_sort_by(v, [](const auto& a, const auto& b) { return a->size() > b->size(); });
  std::vector<std::string> got;
  for (const auto& p : v) got.push_back(*p);
  CHECK(got == std::vector<std::string>{"ccc", "bb", "dd", "a", "e"});
}
