// "did you mean" (lib/lang/suggestions.hpp).
#include "lib/lang/suggestions.hpp"

#include <algorithm>

#include "lib/lang/expr.hpp"

namespace cutevis {

std::vector<std::string> nearest_words(const std::string& name, const std::vector<std::string>& words, size_t max) {
  if (name.size() > kMaxSuggestedNameLength) return {};  // no plausible name is that long
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& w : words) scored.emplace_back(edit_distance(name, w), w);
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  const size_t limit = std::max<size_t>(2, name.size() / 3);
  for (const auto& [distance, w] : scored) {
    if (out.size() >= max || distance > limit) break;
    if (w != name && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  }
  return out;
}

std::string quoted_alternatives(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i)
    out += (i ? (i + 1 == words.size() ? " or " : ", ") : "") + ("'" + words[i] + "'");
  return out;
}

}  // namespace cutevis
