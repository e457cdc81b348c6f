// cutevis — stable_sort_by(v, less): std::stable_sort of a vector, with std::stable_sort itself
// instantiated once for the whole program.
//
// Each std::stable_sort instantiation is about 3 KB of code (its merges, buffers and insertion
// sorts for one element type and one comparison); eleven of them were 36 KB of the web page's
// .wasm, 12 KB gzipped (README, "In the browser").  Here the one instantiation sorts indices
// through a plain function pointer; each element type adds only the small loop that moves its
// elements into their sorted places.  The order is std::stable_sort's: elements that compare
// equal keep their order.  Meant for the few sorts off the hot paths (candidates, notes, owners
// once per picture): an indirect call per comparison.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

namespace cutevis {

namespace detail {

// ORDER (indices) sorted stably by less(context, a, b).
inline void stable_sort_indices(std::vector<size_t>& order, bool (*less)(const void* context, size_t a, size_t b),
                                const void* context) {
  std::stable_sort(order.begin(), order.end(), [=](size_t a, size_t b) { return less(context, a, b); });
}

}  // namespace detail

template <class T, class Less>
void stable_sort_by(std::vector<T>& v, const Less& less) {
  if (v.size() < 2) return;
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const std::pair<const std::vector<T>*, const Less*> context{&v, &less};
  detail::stable_sort_indices(
      order,
      [](const void* c, size_t a, size_t b) {
        const auto& [values, by] = *static_cast<const std::pair<const std::vector<T>*, const Less*>*>(c);
        return (*by)((*values)[a], (*values)[b]);
      },
      &context);
  std::vector<T> sorted;
  sorted.reserve(v.size());
  for (size_t i : order) sorted.push_back(std::move(v[i]));
  v = std::move(sorted);
}

}  // namespace cutevis
