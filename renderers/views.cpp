#include "renderers/views.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <span>
#include <variant>

#include "lib/error.hpp"
#include "renderers/palette.hpp"

namespace cutevis {

namespace {

const Rgb kWhite{255, 255, 255};
const char* kTimes = "\xC3\x97";  // U+00D7 MULTIPLICATION SIGN

constexpr double kFade = kFadeToWhite;
// An operand in memory keeps its readers' colour, paler: the eye goes to the register panels.
constexpr double kMemoryPale = 0.55;

// Beyond these a picture would take gigabytes; say so instead.  (The 2x2 SM90
// 64x256x16 GMMA has 75,776 cells and 2.6M owners.)  2^22 cells took 18 s and 2.3 GB
// as SVG (found by fuzzing); 2^18 stays near a second and 150 MB in every format.
constexpr int64_t kMaxCells = int64_t{1} << 18;
constexpr int64_t kMaxOwners = int64_t{1} << 24;

void check_cells(int64_t cells) {
  if (cells > kMaxCells)
    throw Error("a picture of " + std::to_string(cells) + " cells is too large to draw (at most " +
                std::to_string(kMaxCells) + "); draw a tile of it");
}

// The identity map CuTe composes a TV layout with before printing it:
// composition(make_identity_tensor(tile), tv) prints "ArithTuple(_0,_0) o <layout>".
std::string cute_tv_text(const Layout& tv, int64_t rows, int64_t cols) {
  const IntTuple tile = tup(rows, cols);
  std::string layout;
  try {
    layout = to_string(composition(make_identity_layout(tile), tv), /*underscore=*/true);
  } catch (const Error&) {
    layout = to_string(tv, /*underscore=*/true);  // CuTe would not compile it; say what we draw
  }
  return "ArithTuple(_0,_0) o " + layout;
}

// Weights of the rules between the `extent` rows (or columns) that `leaves` (the
// flattened sub-mode sizes, innermost first) split: a boundary every prefix product.
std::vector<uint8_t> sub_mode_rules(const std::vector<int64_t>& leaves, int64_t extent) {
  std::vector<uint8_t> rules(static_cast<size_t>(extent) + 1, 0);
  int64_t period = 1;
  for (size_t i = 0; i + 1 < leaves.size(); ++i) {
    if (leaves[i] <= 1) continue;
    period = checked_mul(period, leaves[i]);
    if (period >= extent) break;
    for (int64_t b = period; b < extent; b += period) ++rules[static_cast<size_t>(b)];
  }
  return rules;
}

std::vector<int64_t> leaf_sizes(const IntTuple& shape) {
  std::vector<int64_t> out;
  for (const IntTuple& leaf : flatten_leaves(shape)) out.push_back(leaf.value());
  return out;
}

std::vector<std::string> index_labels(int64_t n) {
  std::vector<std::string> v;
  v.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v.push_back(std::to_string(i));
  return v;
}

size_t display_width_of(const std::string& s) {
  size_t n = 0;
  for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
  return n;
}

int64_t mod8(int64_t i) { return ((i % 8) + 8) % 8; }

struct TvStats {
  int64_t replicated = 0;  // cells with several owners
  int64_t unowned = 0;
  int64_t highlighted = 0;
  int64_t several_warps = 0;  // colour by warp: cells owned by more than one warp
  // The multi-owner label forms used, each with an example from this picture.
  std::string range_example, list_example, count_example, bare_count_example;
  std::vector<int64_t> shading_values;  // distinct given values present
};

// Characters a multi-owner line may take: as wide as the widest single-owner line
// ("T127", "V31"), and never less than "T0-127", so an SS GMMA's operands keep their range.
size_t label_budget(int64_t num_threads, int64_t num_values) {
  auto width = [](int64_t n) { return 1 + std::to_string(std::max<int64_t>(n - 1, 0)).size(); };
  return std::max<size_t>({width(num_threads), width(num_values), 6});
}

void note_form(TvStats& stats, const std::string& line) {
  if (line.rfind(kTimes, 0) == 0) {
    if (stats.bare_count_example.empty()) stats.bare_count_example = line;
  } else if (line.find(kTimes) != std::string::npos) {
    if (stats.count_example.empty()) stats.count_example = line;
  } else if (line.find(',') != std::string::npos) {
    if (stats.list_example.empty()) stats.list_example = line;
  } else if (line.find('-') != std::string::npos) {
    if (stats.range_example.empty()) stats.range_example = line;
  }
}

// Who owns the cells of an operand in memory (an SS GMMA's A and B: every cell by all 128
// threads of a warpgroup): the distinct thread sets met (the first few) and the owners a
// cell has, so that the legend says it once instead of every cell.
struct MemoryOwners {
  static constexpr size_t kSetsShown = 3;
  std::vector<std::vector<int64_t>> sets;  // distinct thread sets, at most kSetsShown
  bool more_sets = false;                  // sets beyond those
  int64_t min_owners = INT64_MAX, max_owners = 0;
  void add(const std::vector<int64_t>& threads) {
    min_owners = std::min<int64_t>(min_owners, static_cast<int64_t>(threads.size()));
    max_owners = std::max<int64_t>(max_owners, static_cast<int64_t>(threads.size()));
    if (!sets.empty() && sets.back() == threads) return;  // neighbouring cells share their readers
    if (std::find(sets.begin(), sets.end(), threads) != sets.end()) return;
    if (sets.size() < kSetsShown) sets.push_back(threads);
    else more_sets = true;
  }
};

// A given shading's value of a cell (CellShading), or none.
std::optional<int64_t> shade_of(const ViewOptions& opt, const Panel& p, int64_t r, int64_t c) {
  if (!opt.shading.value) return std::nullopt;
  return opt.shading.value(p.name, r, c);
}

void note_shading(TvStats& stats, int64_t v) {
  auto it = std::lower_bound(stats.shading_values.begin(), stats.shading_values.end(), v);
  if (it == stats.shading_values.end() || *it != v) stats.shading_values.insert(it, v);
}

// One TV panel: labels, fills and emphasis of every cell from its owners.  A panel of an
// operand in memory (`memory` given) labels each cell with its value V only, the element's
// place in the operand's order, and pales its thread colour; `memory` collects its owners.
void fill_tv_cells(Panel& p, const ViewOptions& opt, ColorBy color_by, size_t budget, TvStats& stats,
                   MemoryOwners* memory = nullptr) {
  p.cells.assign(static_cast<size_t>(p.rows * p.cols), Cell{});
  const bool highlight = !opt.threads.empty();
  std::vector<int64_t> threads, values;
  for (int64_t c = 0; c < p.cols; ++c)
    for (int64_t r = 0; r < p.rows; ++r) {
      Cell& cell = p.cell(r, c);
      std::span<const Owner> owners = p.owners(r, c);
      if (owners.empty()) {
        ++stats.unowned;
        if (highlight) cell.emphasis = Emphasis::kFaded;
        continue;
      }
      Owner pick = owners[0];
      if (highlight) {
        cell.emphasis = Emphasis::kFaded;
        for (const Owner& o : owners)
          if (opt.threads.contains(o.thr)) {
            pick = o;
            cell.emphasis = Emphasis::kHighlighted;
            ++stats.highlighted;
            break;
          }
      }
      bool one_warp = true;
      if (memory) {
        threads.clear();
        values.clear();
        for (const Owner& o : owners) {
          threads.push_back(o.thr);
          values.push_back(o.val);
          one_warp &= o.thr / 32 == owners[0].thr / 32;
        }
        memory->add(threads);
        std::sort(values.begin(), values.end());
        cell.label = owner_line('V', values, pick.val, budget);
      } else if (owners.size() == 1) {
        cell.label = "T" + std::to_string(pick.thr) + "\nV" + std::to_string(pick.val);
      } else {
        ++stats.replicated;
        // Owners come threads outer: their threads are sorted already, their values
        // are usually one (replication is across threads).
        threads.clear();
        bool one_value = true;
        for (const Owner& o : owners) {
          threads.push_back(o.thr);
          one_value &= o.val == owners[0].val;
          one_warp &= o.thr / 32 == owners[0].thr / 32;
        }
        std::string value_line = "V" + std::to_string(owners[0].val);
        if (!one_value) {
          values.clear();
          for (const Owner& o : owners) values.push_back(o.val);
          std::sort(values.begin(), values.end());
          value_line = owner_line('V', values, pick.val, budget);
          note_form(stats, value_line);
        }
        std::string thread_line = owner_line('T', threads, pick.thr, budget);
        note_form(stats, thread_line);
        cell.label = thread_line + "\n" + value_line;
      }
      if (std::optional<int64_t> v = shade_of(opt, p, r, c)) {
        cell.fill = category_color(*v);
        note_shading(stats, *v);
      } else {
        switch (color_by) {
          case ColorBy::kValue: cell.fill = value_color(pick.val); break;
          case ColorBy::kWarp:
            cell.fill = one_warp ? warp_color(owners[0].thr / 32) : several_warps_color();
            stats.several_warps += !one_warp;
            break;
          case ColorBy::kNone: cell.fill = kWhite; break;
          default:
            cell.fill = memory ? mix(thread_color(pick.thr), kWhite, kMemoryPale) : thread_color(pick.thr);
            break;
        }
      }
      if (cell.emphasis == Emphasis::kFaded) cell.fill = mix(cell.fill, kWhite, kFade);
    }
}

ColorBy tv_color_by(const ViewOptions& opt) {
  switch (opt.color_by) {
    case ColorBy::kAuto: return ColorBy::kThread;
    case ColorBy::kIndex:
    case ColorBy::kBank:
      throw Error("colour by " + to_string(opt.color_by) +
                  " applies to layouts; a TV picture colours by thread, value, warp or none");
    default: return opt.color_by;
  }
}

std::string color_key(ColorBy c) {
  switch (c) {
    case ColorBy::kThread: return "colour: thread (hue by lane, shade by warp)";
    case ColorBy::kValue: return "colour: value index (hue by index mod 32)";
    case ColorBy::kWarp: return "colour: warp (thread / 32), every owner counted";
    case ColorBy::kIndex: return "colour: index mod 8";
    case ColorBy::kNone: return "colour: none";
    default: return "";
  }
}

std::string dims(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? " x " : "") + std::to_string(v[i]);
  return s;
}

// The legend's line for a given shading: its name and the values present.
std::string shading_key(const ViewOptions& opt, const std::vector<int64_t>& values) {
  std::string s = "colour: " + opt.shading.name;
  if (!values.empty()) {
    s += " (";
    for (size_t i = 0; i < values.size(); ++i)
      s += (i ? ", " : "") + (opt.shading.key_label ? opt.shading.key_label(values[i]) : std::to_string(values[i]));
    s += ")";
  }
  return s;
}

// "A", "A and B", "C, A and B".
std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s;
}

// Threads that hold copies of other threads' elements: a TV layout whose thread mode has a
// stride-0 leaf of size > 1 (SM70's 8x8x4: (4,4,2):(8,0,4), lanes 4-15 and 20-31 repeat
// lanes 0-3 and 16-19).  `copies` are the threads with a non-zero coordinate on such a
// leaf, `originals` the rest, `like_t0` the threads that hold what thread 0 holds.
struct ThreadCopies {
  std::vector<int64_t> copies, originals, like_t0;
  bool operator==(const ThreadCopies& o) const {
    return copies == o.copies && originals == o.originals && like_t0 == o.like_t0;
  }
};
std::optional<ThreadCopies> thread_copies(const Layout& tv) {
  constexpr int64_t kMaxThreads = int64_t{1} << 16;  // listing them costs a pass over every thread
  const std::vector<IntTuple> shapes = flatten_leaves(tv.shape[0]), strides = flatten_leaves(tv.stride[0]);
  if (shapes.size() != strides.size()) return std::nullopt;
  bool any = false;
  for (size_t i = 0; i < shapes.size(); ++i)
    any |= shapes[i].value() > 1 && strides[i].is_leaf() && !has_basis(strides[i]) && strides[i].value() == 0;
  const int64_t threads = size(tv.shape[0]);
  if (!any || threads > kMaxThreads) return std::nullopt;
  ThreadCopies out;
  for (int64_t t = 0; t < threads; ++t) {
    bool copy = false, on_t0 = true;
    int64_t rest = t;
    for (size_t i = 0; i < shapes.size(); ++i) {
      const int64_t extent = shapes[i].value(), coordinate = rest % extent;
      rest /= extent;
      const bool broadcast = extent > 1 && !has_basis(strides[i]) && strides[i].value() == 0;
      if (broadcast) copy |= coordinate != 0;
      else on_t0 &= coordinate == 0;
    }
    (copy ? out.copies : out.originals).push_back(t);
    if (on_t0) out.like_t0.push_back(t);
  }
  return out;
}

// One legend line per group of register panels whose threads hold copies alike.
std::vector<std::string> thread_copy_lines(const std::vector<std::pair<std::string, const Layout*>>& panels) {
  std::vector<std::pair<ThreadCopies, std::vector<std::string>>> groups;
  for (const auto& [name, tv] : panels) {
    std::optional<ThreadCopies> c = thread_copies(*tv);
    if (!c) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == *c; });
    if (it == groups.end()) groups.push_back({std::move(*c), {name}});
    else it->second.push_back(name);
  }
  std::vector<std::string> lines;
  for (const auto& [c, names] : groups) {
    const std::string who = names.size() == 1 && names[0].empty() ? "" : joined(names) + ": ";
    lines.push_back(who + "threads " + compress_ranges(c.copies) +
                    (c.originals.size() == 1 ? " copy thread " : " copy threads ") + compress_ranges(c.originals) +
                    " (stride 0 in the thread mode: T" + compress_ranges(c.like_t0) + " alike)");
  }
  return lines;
}

// The legend line for the operands kept in one kind of memory: who reads them, said once.
std::string memory_line(const std::vector<std::string>& names, const std::string& memory, const MemoryOwners& owners,
                        int64_t num_threads) {
  std::string who;
  if (owners.sets.size() == 1 && !owners.more_sets) {
    const std::vector<int64_t>& set = owners.sets[0];
    const int64_t n = static_cast<int64_t>(set.size());
    if (n == 1) who = "thread T" + std::to_string(set[0]);
    else if (n == num_threads) who = "all " + std::to_string(n) + " threads (T" + compress_ranges(set) + ")";
    else who = "threads T" + compress_ranges(set);
  } else {
    who = owners.min_owners == owners.max_owners ? std::to_string(owners.min_owners) + " threads a cell" : "its owners";
    who += " (";
    for (size_t i = 0; i < owners.sets.size(); ++i) who += (i ? "; T" : "T") + compress_ranges(owners.sets[i]);
    who += owners.more_sets ? "; ...)" : ")";
  }
  const bool shared = memory == "shared memory";
  return joined(names) + ": " + memory + ", " + (shared ? "read" : "used") + " by " + who +
         (shared ? " through a descriptor" : "") + "; a cell shows V, its place in the operand's element order";
}

void add_tv_legend(Scene& s, const ViewOptions& opt, ColorBy color_by, const TvStats& stats,
                   const std::vector<std::string>& owner_notes = {}) {
  s.legend.push_back(opt.shading.value ? shading_key(opt, stats.shading_values) : color_key(color_by));
  if (color_by == ColorBy::kWarp && stats.several_warps > 0 && !opt.shading.value)
    s.legend.push_back(std::to_string(stats.several_warps) + " cells owned by several warps (grey)");
  if (stats.replicated > 0) {
    std::string forms;
    auto add = [&](const std::string& example, const std::string& meaning) {
      if (example.empty()) return;
      forms += (forms.empty() ? "" : "; ") + example + " " + meaning;
    };
    add(stats.range_example, "= every owner, a range");
    add(stats.list_example, "= every owner, a list");
    add(stats.count_example, "= the first owner, then how many in all");
    add(stats.bare_count_example, "= how many owners (too many to name in a cell)");
    s.legend.push_back(std::to_string(stats.replicated) + " cells have several owners" +
                       (forms.empty() ? std::string() : ": " + forms));
  }
  for (const std::string& note : owner_notes) s.legend.push_back(note);
  if (stats.unowned > 0) s.legend.push_back(std::to_string(stats.unowned) + " cells have no owner (blank)");
  if (!opt.threads.empty() &&
      stats.highlighted == 0)  // as --thread 40 on a 32-thread atom: an error, not a blank picture
    throw Error("--threads " + opt.threads.to_string() + ": no such thread owns a cell of this picture (threads 0-" +
                std::to_string(s.num_threads - 1) + ")");
  if (!opt.threads.empty())
    s.legend.push_back("highlighted threads " + opt.threads.to_string() + " (" + std::to_string(stats.highlighted) +
                       " cells); the rest faded");
}

Panel tv_panel(const std::string& name, const Layout& tv, int64_t rows, int64_t cols, bool transposed) {
  Panel p;
  p.role = PanelRole::kTv;
  p.name = name;
  // The view is over the TV's own tile; a transposed panel draws it K down, N across.
  const int64_t view_rows = transposed ? cols : rows, view_cols = transposed ? rows : cols;
  check_cells(checked_mul(rows, cols));
  if (size(tv) > kMaxOwners)
    throw Error("TV layout " + to_string(tv) + " has " + std::to_string(size(tv)) +
                " (thread, value) pairs, too many to draw (at most " + std::to_string(kMaxOwners) + ")");
  p.view = std::make_shared<const OwnershipView>(OwnershipView::from_tv(tv, view_rows, view_cols));
  p.cute_text = cute_tv_text(tv, view_rows, view_cols);
  p.transposed = transposed;
  p.rows = rows;
  p.cols = cols;
  p.row_rules.assign(static_cast<size_t>(rows) + 1, 0);
  p.col_rules.assign(static_cast<size_t>(cols) + 1, 0);
  return p;
}

void axis(AxisLabels& a, AxisLabels::Side side, int64_t n) {
  a.side = side;
  a.text = index_labels(n);
}

// The 32-bank key drawn under a bank-coloured layout: bank b in its colour.
Panel bank_key(int64_t row0) {
  Panel k;
  k.role = PanelRole::kKey;
  k.name = "key";
  k.rows = 1;
  k.cols = 32;
  k.row0 = row0;
  k.cells.resize(32);
  for (int64_t b = 0; b < 32; ++b) {
    k.cells[static_cast<size_t>(b)].label = "b" + std::to_string(b);
    k.cells[static_cast<size_t>(b)].fill = bank_color(b);
  }
  k.row_rules.assign(2, 0);
  k.col_rules.assign(33, 0);
  k.caption = "bank key (32 banks x 4 bytes)";
  k.caption_row = static_cast<double>(row0) - 1;
  k.caption_col = 7.5;
  return k;
}

void check_tile(int64_t m, int64_t n, const char* what) {
  if (m <= 0 || n <= 0)
    throw Error(std::string("a ") + what + " needs a positive tile, got " + std::to_string(m) + "x" +
                std::to_string(n));
}

// append<2>(L, _1:_0) as print_latex does, through a composed layout's inner layout.
AnyLayout append_to_rank2(const AnyLayout& l) {
  if (const Layout* x = std::get_if<Layout>(&l)) return rank(*x) >= 2 ? *x : append_to_rank(*x, 2);
  const ComposedLayout& c = std::get<ComposedLayout>(l);
  return c.with_b(append_to_rank2(c.layout_b()));
}

}  // namespace

std::string owner_line(char letter, std::span<const int64_t> ids, int64_t first, size_t budget) {
  // One pass: distinct ids, and whether they can be listed at all within the budget.
  size_t distinct = 1, runs = 1;
  for (size_t i = 1; i < ids.size(); ++i)
    if (ids[i] != ids[i - 1]) {
      ++distinct;
      runs += ids[i] != ids[i - 1] + 1;
    }
  if (distinct == 1) return letter + std::to_string(ids[0]);
  if (runs <= budget / 2) {  // each run takes at least two characters
    std::string all = letter + compress_ranges({ids.begin(), ids.end()});
    if (display_width_of(all) <= budget) return all;
  }
  std::string count = letter + std::to_string(first) + " " + kTimes + std::to_string(distinct);
  if (display_width_of(count) <= budget) return count;
  count = letter + std::to_string(first) + kTimes + std::to_string(distinct);
  if (display_width_of(count) <= budget) return count;
  return kTimes + std::to_string(distinct);  // the count alone: the first owner would not fit
}

Rgb cute_tv_color(int64_t i) {
  static const Rgb palette[8] = {{175, 175, 255}, {175, 255, 175}, {255, 255, 175}, {255, 175, 175},
                                 {210, 210, 255}, {210, 255, 210}, {255, 255, 210}, {255, 210, 210}};
  return palette[mod8(i)];
}

ColorBy parse_color_by(const std::string& text) {
  for (ColorBy c : {ColorBy::kAuto, ColorBy::kThread, ColorBy::kValue, ColorBy::kWarp, ColorBy::kIndex, ColorBy::kBank,
                    ColorBy::kNone})
    if (text == to_string(c)) return c;
  throw Error("unknown colour '" + text + "': expected thread, value, warp, index, bank or none");
}

std::string to_string(ColorBy c) {
  switch (c) {
    case ColorBy::kAuto: return "auto";
    case ColorBy::kThread: return "thread";
    case ColorBy::kValue: return "value";
    case ColorBy::kWarp: return "warp";
    case ColorBy::kIndex: return "index";
    case ColorBy::kBank: return "bank";
    case ColorBy::kNone: return "none";
  }
  return "?";
}

// --- ThreadSet ------------------------------------------------------------------------

ThreadSet ThreadSet::parse(const std::string& text) {
  ThreadSet set;
  size_t i = 0;
  auto number = [&]() -> int64_t {
    size_t start = i;
    int64_t v = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      v = checked_add(checked_mul(v, 10), text[i] - '0');
      ++i;
    }
    if (i == start) throw Error("expected a thread index in '" + text + "'", static_cast<int64_t>(start));
    return v;
  };
  auto skip_spaces = [&] {
    while (i < text.size() && text[i] == ' ') ++i;
  };
  skip_spaces();
  if (i == text.size()) throw Error("an empty thread set");
  while (i < text.size()) {
    skip_spaces();
    int64_t lo = number(), hi = lo;
    skip_spaces();
    if (i < text.size() && text[i] == '-') {
      ++i;
      skip_spaces();
      size_t at = i;
      hi = number();
      if (hi < lo)
        throw Error("thread range " + std::to_string(lo) + "-" + std::to_string(hi) + " runs backwards",
                    static_cast<int64_t>(at));
      skip_spaces();
    }
    set.ranges_.emplace_back(lo, hi);
    if (i < text.size()) {
      if (text[i] != ',') throw Error("expected ',' or '-' in thread set '" + text + "'", static_cast<int64_t>(i));
      ++i;
      if (i == text.size()) throw Error("thread set ends with ','", static_cast<int64_t>(i));
    }
  }
  std::sort(set.ranges_.begin(), set.ranges_.end());
  std::vector<std::pair<int64_t, int64_t>> merged;
  for (auto r : set.ranges_) {
    if (!merged.empty() && r.first <= merged.back().second + 1)
      merged.back().second = std::max(merged.back().second, r.second);
    else merged.push_back(r);
  }
  set.ranges_ = std::move(merged);
  return set;
}

bool ThreadSet::contains(int64_t thread) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), std::make_pair(thread, INT64_MAX));
  return it != ranges_.begin() && std::prev(it)->second >= thread;
}

std::string ThreadSet::to_string() const {
  std::string s;
  for (auto [lo, hi] : ranges_) {
    if (!s.empty()) s += ',';
    s += std::to_string(lo);
    if (hi > lo) s += (hi == lo + 1 ? "," : "-") + std::to_string(hi);
  }
  return s;
}

// --- scenes -----------------------------------------------------------------------------

Scene layout_scene(const AnyLayout& layout_in, const ViewOptions& opt) {
  const AnyLayout layout = as_position_independent(layout_in);
  ColorBy color_by = opt.color_by == ColorBy::kAuto ? ColorBy::kIndex : opt.color_by;
  if (color_by == ColorBy::kThread || color_by == ColorBy::kValue || color_by == ColorBy::kWarp)
    throw Error("colour by " + to_string(color_by) +
                " applies to TV pictures; a layout colours by index, bank or none");
  if (opt.bank_element_bits <= 0) throw Error("bank colouring needs a positive element size in bits");
  if (color_by == ColorBy::kBank && !opt.banks)
    throw Error("colour by bank needs a bank model (ViewOptions::banks, atoms/analysis/banks.hpp)");

  const IntTuple sh = shape(layout);
  const int64_t total = size(layout);
  if (total <= 0) throw Error("cannot draw an empty layout " + to_string(layout));
  check_cells(total);
  const IntTuple mode0 = sh.is_leaf() ? sh : sh[0];
  const int64_t rows = size(mode0);
  const int64_t cols = total / rows;

  Scene s;
  s.kind = SceneKind::kLayout;
  s.title = opt.title.empty() ? to_string(layout_in) : opt.title;
  s.tile = tup(rows, cols);
  s.layout_rank = sh.rank();
  s.layout_cosize = cosize(layout);

  Panel p;
  p.role = PanelRole::kLayout;
  p.rows = rows;
  p.cols = cols;
  p.cute_text = to_string(append_to_rank2(layout), /*underscore=*/true);
  axis(p.row_axis, AxisLabels::Side::kLeft, rows);
  axis(p.col_axis, AxisLabels::Side::kTop, cols);
  p.row_rules = sub_mode_rules(leaf_sizes(mode0), rows);
  std::vector<int64_t> col_leaves;
  for (size_t i = 1; sh.is_tuple() && i < sh.rank(); ++i)
    for (int64_t v : leaf_sizes(sh[i])) col_leaves.push_back(v);
  p.col_rules = sub_mode_rules(col_leaves, cols);

  // Basis strides (identity layouts) give coordinates; everything else an index.
  const Layout* plain = std::get_if<Layout>(&layout);
  const bool coordinates = plain && has_basis(plain->stride);
  // A bank is a property of an index; coordinates have none (and `values` stays empty).
  if (coordinates && color_by == ColorBy::kBank)
    throw Error("colour by bank needs an index layout; " + to_string(layout_in) +
                " maps to coordinates (basis strides)");
  std::vector<int64_t> values;
  if (!coordinates) values = layout_values(layout);
  p.cells.resize(static_cast<size_t>(total));
  BankShading banks;
  if (color_by == ColorBy::kBank) {
    banks = opt.banks(values, rows, opt.bank_element_bits);
    if (banks.bank.size() != values.size())
      throw Error("the bank model gave " + std::to_string(banks.bank.size()) + " banks for " +
                  std::to_string(values.size()) + " elements");
  }
  TvStats shading_stats;
  for (int64_t i = 0; i < total; ++i) {
    Cell& cell = p.cells[static_cast<size_t>(i)];
    if (coordinates) {
      cell.label = to_string((*plain)(IntTuple(i)));
      cell.fill = kWhite;
      continue;
    }
    const int64_t v = values[static_cast<size_t>(i)];
    cell.value = v;
    cell.label = std::to_string(v);
    switch (color_by) {
      case ColorBy::kBank: {
        const int64_t bank = banks.bank[static_cast<size_t>(i)];
        cell.fill = bank_color(bank);
        cell.label += "\nb" + std::to_string(bank);
        break;
      }
      case ColorBy::kNone: cell.fill = kWhite; break;
      default: cell.fill = cute_tv_color(v); break;
    }
    if (std::optional<int64_t> given = shade_of(opt, p, i % rows, i / rows)) {
      cell.fill = category_color(*given);
      note_shading(shading_stats, *given);
    }
  }
  s.panels.push_back(std::move(p));

  s.legend.push_back("layout " + to_string(layout) + ": " + std::to_string(rows) + " x " + std::to_string(cols) +
                     " (mode 0 down, " + (sh.is_tuple() && sh.rank() > 2 ? "modes 1.. across" : "mode 1 across") + ")");
  if (color_by == ColorBy::kBank && !opt.shading.value) s.panels.push_back(bank_key(rows + 2));
  if (opt.shading.value) s.legend.push_back(shading_key(opt, shading_stats.shading_values));
  else if (color_by == ColorBy::kBank)
    s.legend.push_back("colour and bN: shared-memory bank of the element (" + std::to_string(opt.bank_element_bits) +
                       "-bit elements, 32 banks x 4 bytes); a row at once: " + std::to_string(banks.worst_row) +
                       "-way conflict at worst, a column at once: " + std::to_string(banks.worst_col) + "-way");
  else if (!coordinates) s.legend.push_back(color_key(color_by));
  return s;
}

Scene tv_scene(const Layout& tv, const IntTuple& tile_mn, const ViewOptions& opt) {
  const IntTuple mn = product_each(tile_mn);
  if (mn.is_leaf() || mn.rank() != 2) throw Error("a TV picture needs a rank-2 tile (M,N), got " + to_string(tile_mn));
  const int64_t m = mn[0].value(), n = mn[1].value();
  check_tile(m, n, "TV picture");
  const ColorBy color_by = tv_color_by(opt);

  Scene s;
  s.kind = SceneKind::kTv;
  s.title = opt.title.empty() ? to_string(tv) : opt.title;
  s.tile = tup(m, n);
  s.num_threads = size(tv.shape[0]);
  Panel p = tv_panel("", tv, m, n, false);
  axis(p.row_axis, AxisLabels::Side::kLeft, m);
  axis(p.col_axis, AxisLabels::Side::kTop, n);
  TvStats stats;
  fill_tv_cells(p, opt, color_by, label_budget(s.num_threads, size(tv.shape[1])), stats);
  s.panels.push_back(std::move(p));
  s.legend.push_back("TV layout " + to_string(tv) + " over a " + dims({m, n}) + " tile, " +
                     std::to_string(s.num_threads) + " threads x " + std::to_string(size(tv.shape[1])) + " values");
  add_tv_legend(s, opt, color_by, stats, thread_copy_lines({{"", &tv}}));
  return s;
}

Scene mma_scene(const MmaPicture& pic, const ViewOptions& opt) {
  const int64_t M = pic.m, N = pic.n, K = pic.k;
  check_tile(M, N, "MMA picture");
  check_tile(M, K, "MMA picture");
  const ColorBy color_by = tv_color_by(opt);

  Scene s;
  s.kind = SceneKind::kMma;
  s.title = opt.title;
  s.tile = tup(M, N, K);
  s.num_threads = pic.num_threads > 0 ? pic.num_threads : size(pic.tv_c.shape[0]);

  // print_latex_mma: C at (0,0); A at (0,-K-1), M x K; B at (-K-1,0), drawn K x N.
  Panel c = tv_panel("C", pic.tv_c, M, N, false);
  c.caption = "C";
  c.caption_row = static_cast<double>(M) / 2 - 0.5;
  c.caption_col = static_cast<double>(N);

  Panel a = tv_panel("A", pic.tv_a, M, K, false);
  a.col0 = -K - 1;
  axis(a.row_axis, AxisLabels::Side::kLeft, M);
  axis(a.col_axis, AxisLabels::Side::kTop, K);
  a.caption = "A";
  a.caption_row = static_cast<double>(M) / 2 - 0.5;
  a.caption_col = static_cast<double>(a.col0) - 2;

  Panel b = tv_panel("B", pic.tv_b, K, N, true);
  b.row0 = -K - 1;
  axis(b.row_axis, AxisLabels::Side::kLeft, K);
  axis(b.col_axis, AxisLabels::Side::kTop, N);
  b.col_axis_first = true;
  b.caption = "B";
  b.caption_row = static_cast<double>(b.row0) - 2;
  b.caption_col = static_cast<double>(N) / 2 - 0.5;

  auto registers = [](Panel& p, int bits, int64_t atom_values, bool in_registers) {
    if (!in_registers || bits <= 0 || atom_values <= 0) return;
    p.value_bits = bits;
    p.atom_values = atom_values;
  };
  registers(c, pic.bits_c, pic.atom_values_c, pic.registers_c);
  registers(a, pic.bits_a, pic.atom_values_a, pic.registers_a);
  registers(b, pic.bits_b, pic.atom_values_b, pic.registers_b);

  TvStats stats;
  const size_t budget = label_budget(
      s.num_threads, std::max({size(pic.tv_a.shape[1]), size(pic.tv_b.shape[1]), size(pic.tv_c.shape[1])}));
  // Operands in memory: their readers said once per kind of memory, in the legend.
  std::vector<std::pair<std::string, std::vector<std::string>>> memories;  // memory -> panel names
  std::vector<MemoryOwners> readers;
  std::vector<std::pair<std::string, const Layout*>> in_registers;
  const std::pair<Panel*, std::pair<const std::string*, const Layout*>> operands[] = {
      {&c, {&pic.memory_c, &pic.tv_c}}, {&a, {&pic.memory_a, &pic.tv_a}}, {&b, {&pic.memory_b, &pic.tv_b}}};
  for (const auto& [panel, where] : operands) {
    const std::string& memory = *where.first;
    if (memory.empty()) {
      in_registers.emplace_back(panel->name, where.second);
      fill_tv_cells(*panel, opt, color_by, budget, stats);
      continue;
    }
    auto it = std::find_if(memories.begin(), memories.end(), [&](const auto& m) { return m.first == memory; });
    if (it == memories.end()) {
      memories.push_back({memory, {}});
      readers.emplace_back();
      it = memories.end() - 1;
    }
    it->second.push_back(panel->name);
    fill_tv_cells(*panel, opt, color_by, budget, stats, &readers[static_cast<size_t>(it - memories.begin())]);
  }
  std::vector<std::string> owner_notes;
  for (size_t i = 0; i < memories.size(); ++i) {
    std::vector<std::string>& names = memories[i].second;
    std::sort(names.begin(), names.end());  // "A and B", as the picture reads them
    if (readers[i].max_owners > 0)
      owner_notes.push_back(memory_line(names, memories[i].first, readers[i], s.num_threads));
  }
  for (std::string& line : thread_copy_lines(in_registers)) owner_notes.push_back(std::move(line));
  for (const std::string& note : pic.notes) owner_notes.push_back(note);
  s.panels = {std::move(c), std::move(a), std::move(b)};

  s.legend.push_back("tile M x N x K = " + dims({M, N, K}) + ", " + std::to_string(s.num_threads) + " threads");
  s.legend.push_back("C (M x N) = A (M x K, left) * B (N x K, above, drawn K x N)");
  s.legend.push_back("C: " + to_string(pic.tv_c));
  s.legend.push_back("A: " + to_string(pic.tv_a));
  s.legend.push_back("B: " + to_string(pic.tv_b));
  add_tv_legend(s, opt, color_by, stats, owner_notes);
  return s;
}

Scene copy_scene(const CopyPicture& pic, const ViewOptions& opt) {
  const int64_t M = pic.m, N = pic.n;
  check_tile(M, N, "copy picture");
  const ColorBy color_by = tv_color_by(opt);

  Scene s;
  s.kind = SceneKind::kCopy;
  s.title = opt.title;
  s.tile = tup(M, N);
  s.num_threads = pic.num_threads > 0 ? pic.num_threads : size(pic.tv_s.shape[0]);

  // print_latex_copy: S at (0,0), labels left and above; D at (0,N+3), labels right and above.
  Panel src = tv_panel("S", pic.tv_s, M, N, false);
  axis(src.row_axis, AxisLabels::Side::kLeft, M);
  axis(src.col_axis, AxisLabels::Side::kTop, N);
  src.caption = "S (source)";
  src.caption_row = -2;
  src.caption_col = static_cast<double>(N) / 2 - 0.5;

  Panel dst = tv_panel("D", pic.tv_d, M, N, false);
  dst.col0 = N + 3;
  axis(dst.row_axis, AxisLabels::Side::kRight, M);
  axis(dst.col_axis, AxisLabels::Side::kTop, N);
  dst.caption = "D (destination)";
  dst.caption_row = -2;
  dst.caption_col = static_cast<double>(dst.col0) + static_cast<double>(N) / 2 - 0.5;

  TvStats stats;
  const size_t budget = label_budget(s.num_threads, std::max(size(pic.tv_s.shape[1]), size(pic.tv_d.shape[1])));
  for (Panel* p : {&src, &dst}) fill_tv_cells(*p, opt, color_by, budget, stats);
  const std::vector<std::string> copy_lines = thread_copy_lines({{"S", &pic.tv_s}, {"D", &pic.tv_d}});
  s.panels = {std::move(src), std::move(dst)};

  s.legend.push_back("tile M x N = " + dims({M, N}) + ", " + std::to_string(s.num_threads) + " threads");
  s.legend.push_back("S: " + to_string(pic.tv_s));
  s.legend.push_back("D: " + to_string(pic.tv_d));
  for (const std::string& note : pic.notes) s.legend.push_back(note);
  add_tv_legend(s, opt, color_by, stats, copy_lines);
  return s;
}

}  // namespace cutevis

namespace cutevis {

namespace {

// A cell label: the first owner, compact ("T3V1"; a shared-memory entry, thr -1: "s+" and its
// element offset), and how many more.
std::string owner_text(const std::vector<Owner>& owners) {
  if (owners.empty()) return "none";
  std::string s = owners[0].thr < 0 ? "s+" + std::to_string(owners[0].val)
                                    : "T" + std::to_string(owners[0].thr) + "V" + std::to_string(owners[0].val);
  if (owners.size() > 1) s += " +" + std::to_string(owners.size() - 1);
  return s;
}

}  // namespace

Scene diff_scene(const DiffPicture& pic, const ViewOptions& opt) {
  Scene s;
  s.kind = SceneKind::kDiff;
  s.title = opt.title;
  const Rgb wrong_fill{255, 120, 120}, right_fill{205, 240, 205}, empty_fill{255, 255, 255};
  int64_t col0 = 0, wrong_total = 0, cells_total = 0;
  for (const DiffOperand& op : pic.operands) {
    check_tile(op.rows, op.cols, "verify picture");
    const size_t n = static_cast<size_t>(op.rows * op.cols);
    if (op.expected.size() != n || op.actual.size() != n || op.wrong.size() != n)
      throw Error("verify picture: operand " + op.name + " has " + std::to_string(op.expected.size()) + " cells, not " +
                  std::to_string(n));
    Panel p;
    p.role = PanelRole::kLayout;
    p.name = op.name;
    p.rows = op.rows;
    p.cols = op.cols;
    p.col0 = col0;
    p.cells.resize(n);
    p.row_rules.assign(static_cast<size_t>(op.rows) + 1, 0);
    p.col_rules.assign(static_cast<size_t>(op.cols) + 1, 0);
    axis(p.row_axis, AxisLabels::Side::kLeft, op.rows);
    axis(p.col_axis, AxisLabels::Side::kTop, op.cols);
    p.caption = op.name + " (" + op.row_name + " x " + op.col_name + ")";
    p.caption_row = -2;
    p.caption_col = static_cast<double>(col0) + static_cast<double>(op.cols) / 2 - 0.5;
    for (int64_t c = 0; c < op.cols; ++c)
      for (int64_t r = 0; r < op.rows; ++r) {
        const size_t i = static_cast<size_t>(r + op.rows * c);
        Cell& cell = p.cell(r, c);
        const auto& want = op.expected[i];
        const auto& got = op.actual[i];
        std::string where =
            op.name + "(" + op.row_name + std::to_string(r) + "," + op.col_name + std::to_string(c) + ")";
        if (op.wrong[i]) {
          cell.fill = wrong_fill;
          cell.label = owner_text(want) + "\n≠" + owner_text(got);
          cell.tooltip = where + ": the layout puts " +
                         (want.empty() ? std::string("nothing") : describe_owners(want)) + " here; the hardware puts " +
                         (got.empty() ? std::string("nothing") : describe_owners(got));
          ++wrong_total;
        } else {
          cell.fill = want.empty() ? empty_fill : right_fill;
          cell.label = want.empty() ? "" : owner_text(want);
          cell.tooltip = where + ": " + (want.empty() ? std::string("no owner") : describe_owners(want)) + " (agrees)";
        }
        if (!opt.threads.empty()) {
          bool hit = false;
          for (const Owner& o : want) hit = hit || opt.threads.contains(o.thr);
          for (const Owner& o : got) hit = hit || opt.threads.contains(o.thr);
          cell.emphasis = hit ? Emphasis::kHighlighted : Emphasis::kFaded;
        }
        ++cells_total;
      }
    col0 += op.cols + 3;
    s.panels.push_back(std::move(p));
  }
  s.legend.push_back(std::to_string(wrong_total) + " of " + std::to_string(cells_total) +
                     " cells disagree (red: the layout's owner, then the hardware's after ≠); green cells agree");
  for (const std::string& note : pic.notes) s.legend.push_back(note);
  return s;
}

}  // namespace cutevis
