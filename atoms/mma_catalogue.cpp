// The MMA catalogue: decoding names through the family generators, listing them, and
// "did you mean" suggestions for the rest.
#include "atoms/mma_catalogue.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>

#include "atoms/atom_suggestions.hpp"
#include "atoms/mma_family.hpp"
#include "lib/lang/expr.hpp"
#include "lib/stable_sort.hpp"
#include "lib/threads.hpp"

namespace cutevis {

namespace {

const std::vector<mma::Family>& families() {
  static const std::vector<mma::Family> f = {
      {"scalar", &mma::decode_scalar, &mma::scalar_names},
      {"mma.sync", &mma::decode_sync, &mma::sync_names},
      {"GMMA", &mma::decode_gmma, &mma::gmma_names},
      {"UMMA", &mma::decode_umma, &mma::umma_names},
  };
  return f;
}

// Letters every short name of families()[i] has, each at least as many times as here
// (tests/atoms/mma_suggestions_test.cpp checks it): a typo lacking k of them is k edits from
// every name of the family.
constexpr const char* kFamilyText[] = {"", "SM", "SM90_", "SM100_MMA_<,,,>"};

// One family's atoms, listed once (the UMMA family's 7,000 names cost most of a listing).
const std::vector<ListedMmaAtom>& family_listing(size_t i) {
  static OnceFlag once[std::size(kFamilyText)];
  static std::vector<ListedMmaAtom> listed[std::size(kFamilyText)];
  call_once(once[i], [i] { families()[i].names(listed[i]); });
  return listed[i];
}

const std::vector<ListedMmaAtom>& listing() {
  static const std::vector<ListedMmaAtom> listed = [] {
    std::vector<ListedMmaAtom> out;
    for (size_t i = 0; i < families().size(); ++i)
      out.insert(out.end(), family_listing(i).begin(), family_listing(i).end());
    return out;
  }();
  return listed;
}

const std::vector<std::string>& cached_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    out.reserve(listing().size());
    for (const ListedMmaAtom& a : listing()) out.push_back(a.short_name);
    return out;
  }();
  return names;
}

// A lower bound of the edit distance from `wanted` to every name that has the letters of `text`:
// those `wanted` lacks (counted; each must be inserted or substituted).
size_t missing_letters(const std::string& wanted, const char* text) {
  int count[256] = {};
  for (unsigned char c : wanted) ++count[c];
  size_t missing = 0;
  for (const char* t = text; *t; ++t)
    if (--count[static_cast<unsigned char>(*t)] < 0) ++missing;
  return missing;
}

// A lower bound of the edit distance between `wanted` (its letters counted in `wanted_count`) and
// `name`: the letters one has more of than the other must each be inserted, deleted or substituted.
size_t letter_gap(const int (&wanted_count)[256], const std::string& name) {
  int count[256];
  std::copy(std::begin(wanted_count), std::end(wanted_count), std::begin(count));
  for (unsigned char c : name) --count[c];
  size_t extra = 0, lacking = 0;  // letters `wanted` has more of, letters `name` has more of
  for (int c : count) (c > 0 ? extra : lacking) += static_cast<size_t>(c > 0 ? c : -c);
  return std::max(extra, lacking);
}

// Levenshtein distance, giving up (returning bound + 1) once it must exceed `bound`.
size_t bounded_edit_distance(const std::string& a, const std::string& b, size_t bound) {
  CUTEVIS_THREAD_LOCAL std::vector<size_t> prev, cur;  // one search calls this 8,771 times
  prev.resize(b.size() + 1);
  cur.resize(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    size_t row_min = cur[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > bound) return bound + 1;
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The nearest catalogue names to `wanted` (its normalized text), by edit distance.
std::vector<std::string> search_nearest_names(const std::string& wanted, size_t max) {
  std::vector<std::pair<size_t, const std::string*>> best;  // sorted, at most `max`
  int wanted_count[256] = {};
  for (unsigned char c : wanted) ++wanted_count[c];
  for (size_t family = 0; family < families().size(); ++family) {
    // a family whose every name is as far as the farthest kept is not listed (a typo of an
    // SM80 atom lists neither the UMMA nor, mostly, the GMMA family)
    if (best.size() == max && missing_letters(wanted, kFamilyText[family]) >= best.back().first) continue;
    for (const ListedMmaAtom& listed : family_listing(family)) {
      const std::string& n = listed.short_name;
      if (best.size() == max && best.back().first == 0) break;  // nothing beats exact matches
      const size_t len_gap = n.size() > wanted.size() ? n.size() - wanted.size() : wanted.size() - n.size();
      if (best.size() == max && len_gap >= best.back().first) continue;  // cannot beat the worst kept
      // Nothing further than half the name's length (or 16 edits, for short names such as
      // UniversalFMA<flaot>) is a useful suggestion; the bound lets bounded_edit_distance
      // give up early on the 8,000 names that are far.
      const size_t useful = std::max<size_t>(16, wanted.size() / 2);
      const size_t bound = best.size() == max ? best.back().first - 1 : useful;
      if (len_gap > bound) continue;                      // the distance is at least the length difference
      if (letter_gap(wanted_count, n) > bound) continue;  // ... and the letters' (a long garbled name: 5x less time)
      size_t d = bounded_edit_distance(wanted, n, bound);
      if (d > bound) continue;
      best.emplace_back(d, &n);
      stable_sort_by(best, [](const auto& x, const auto& y) { return x.first < y.first; });
      if (best.size() > max) best.pop_back();
    }
  }
  std::vector<std::string> out;
  for (const auto& [d, n] : best) out.push_back(*n);
  return out;
}

// One search reads all 8,771 names: ~3 ms for a 30-character name, ~40 ms for a
// 160-character one.  A kernel file or batch with hundreds of bad atom names (`names
// --from`, found by tests/fuzz/from_file_fuzz.cpp) would spend seconds on suggestions
// nobody reads, so a run searches for at most kSuggestionBudget characters of names in
// all (~30 typical names, < 0.5 s), and each name once.
constexpr size_t kSuggestionBudget = 2000;

std::vector<std::string> nearest_names(const std::string& wanted, size_t max = 3) {
  if (wanted.size() > kMaxSuggestedNameLength) return {};  // no plausible name is that long
  static Mutex mutex;                                      // batch renders entries on several threads
  static std::map<std::string, std::vector<std::string>> searched;
  static size_t spent = 0;
  {
    std::lock_guard<Mutex> lock(mutex);
    if (auto it = searched.find(wanted); it != searched.end()) return it->second;
    if (spent + wanted.size() > kSuggestionBudget) return {};
    spent += wanted.size();
  }
  auto found = search_nearest_names(wanted, max);
  std::lock_guard<Mutex> lock(mutex);
  searched.emplace(wanted, found);
  return found;
}

std::string suggestion_text(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string s = "; did you mean ";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? (i + 1 == names.size() ? " or " : ", ") : "") + names[i];
  return s + "?";
}

}  // namespace

bool looks_like_mma_atom(const std::string& name) {
  mma::AtomName n;
  try {
    n = mma::parse_atom_name(name);
  } catch (const Error&) {
    return name.find("MMA_Atom") != std::string::npos;
  }
  const std::string& b = n.base;
  auto digits_x = [&](size_t p) {  // <digits>x at p
    size_t q = p;
    while (q < b.size() && std::isdigit(static_cast<unsigned char>(b[q]))) ++q;
    return q > p && q < b.size() && b[q] == 'x';
  };
  if (b == "UniversalFMA" || b.rfind("SM61_DP", 0) == 0 || b.rfind("SM100_MMA_", 0) == 0 ||
      b.rfind("SM103_MXF4_ULTRA", 0) == 0 || b.rfind("SM90_SPARSE_", 0) == 0)
    return true;
  if (name.find("MMA_Atom") != std::string::npos) return true;
  if (b.rfind("SM", 0) != 0) return false;
  size_t us = b.find('_');
  return us != std::string::npos && us > 2 && digits_x(us + 1);  // SM<arch>_<M>x...
}

MmaAtom find_mma_atom(const std::string& text, bool suggest) {
  mma::AtomName name;
  try {
    name = mma::parse_atom_name(text);
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + (suggest ? suggestion_text(nearest_names(text)) : std::string()));
  }
  std::string reason;
  try {
    for (const auto& f : families())
      if (auto atom = f.decode(name)) return *atom;
  } catch (const Error& e) {
    reason = e.what();
  }
  const std::string shown = name.text();
  if (reason.empty()) reason = "unknown MMA atom " + shown;
  else if (reason.find(name.base) == std::string::npos) reason = "invalid MMA atom " + shown + ": " + reason;
  throw Error(reason + (suggest ? suggestion_text(nearest_names(shown)) : std::string()));
}

MmaAtom find_mma_atom(const std::string& text) { return find_mma_atom(text, true); }

std::vector<std::string> mma_atom_names() { return cached_names(); }

const std::vector<ListedMmaAtom>& mma_listing() { return listing(); }

bool mma_family_texts_hold() {
  for (size_t i = 0; i < families().size(); ++i)
    for (const ListedMmaAtom& a : family_listing(i))
      if (missing_letters(a.short_name, kFamilyText[i]) != 0) return false;
  return true;
}

std::vector<MmaAtom> mma_catalogue() {
  std::vector<MmaAtom> out;
  out.reserve(cached_names().size());
  for (const auto& n : cached_names()) out.push_back(find_mma_atom(n));
  return out;
}

std::string to_string(const MmaAtom& atom, bool underscore) {
  std::string s = "MMA_Atom\n";
  s += "  ThrID:      " + to_string(atom.thr_id, underscore) + "\n";
  s += "  Shape_MNK:  " + to_string(atom.shape_mnk, underscore) + "\n";
  s += "  LayoutA_TV: " + to_string(atom.layout_a, underscore) + "\n";
  s += "  LayoutB_TV: " + to_string(atom.layout_b, underscore) + "\n";
  s += "  LayoutC_TV: " + to_string(atom.layout_c, underscore) + "\n";
  return s;
}

std::string to_string(const MmaAtom& atom) { return to_string(atom, false); }

}  // namespace cutevis
