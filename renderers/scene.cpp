#include "renderers/scene.hpp"
#include "lib/float_text.hpp"
#include "lib/stable_sort.hpp"

#include <algorithm>
#include <cmath>

namespace cutevis {

std::string to_hex(const Rgb& c) { return "#" + hex_text((uint64_t{c.r} << 16) | (uint64_t{c.g} << 8) | c.b, 6); }

Rgb mix(const Rgb& a, const Rgb& b, double t) {
  auto m = [t](uint8_t x, uint8_t y) { return static_cast<uint8_t>(std::lround(x * (1.0 - t) + y * t)); };
  return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)};
}

std::span<const Owner> Panel::owners(int64_t r, int64_t c) const {
  if (!view) return {};
  return transposed ? view->owners(c, r) : view->owners(r, c);
}

const Panel* Scene::find(const std::string& name) const {
  for (const Panel& p : panels)
    if (p.name == name) return &p;
  return nullptr;
}

Scene::Bounds Scene::bounds(bool with_captions) const {
  Bounds b;
  bool first = true;
  auto extend = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    if (first) {
      b = {r0, r1, c0, c1};
      first = false;
      return;
    }
    b.row_min = std::min(b.row_min, r0);
    b.row_max = std::max(b.row_max, r1);
    b.col_min = std::min(b.col_min, c0);
    b.col_max = std::max(b.col_max, c1);
  };
  for (const Panel& p : panels) {
    extend(p.row0, p.row0 + p.rows, p.col0, p.col0 + p.cols);
    switch (p.row_axis.side) {
      case AxisLabels::Side::kLeft: extend(p.row0, p.row0 + p.rows, p.col0 - 1, p.col0); break;
      case AxisLabels::Side::kRight: extend(p.row0, p.row0 + p.rows, p.col0 + p.cols, p.col0 + p.cols + 1); break;
      default: break;
    }
    if (p.col_axis.side == AxisLabels::Side::kTop) extend(p.row0 - 1, p.row0, p.col0, p.col0 + p.cols);
    if (with_captions && !p.caption.empty()) {
      const auto r = static_cast<int64_t>(std::floor(p.caption_row)),
                 c = static_cast<int64_t>(std::floor(p.caption_col));
      extend(r, r + 1, c, c + 1);
    }
  }
  return b;
}

int64_t Scene::cell_count() const {
  int64_t n = 0;
  for (const Panel& p : panels) n += p.rows * p.cols;
  return n;
}

std::string compress_ranges(std::vector<int64_t> values) {
  if (!std::is_sorted(values.begin(), values.end())) std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string s;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += std::to_string(values[i]);
    if (j > i) s += (j == i + 1 ? "," : "-") + std::to_string(values[j]);
    i = j + 1;
  }
  return s;
}

std::string describe_owners(std::span<const Owner> owners, size_t max_chars) {
  // Owners come threads outer, so the threads of one value are already in order;
  // most cells have one value (replication is over threads) and need no sort.
  auto by_val = [](const Owner& a, const Owner& b) { return a.val < b.val; };
  std::vector<Owner> sorted;
  std::span<const Owner> by_value = owners;
  if (!std::is_sorted(owners.begin(), owners.end(), by_val)) {
    sorted.assign(owners.begin(), owners.end());
    stable_sort_by(sorted, by_val);
    by_value = sorted;
  }
  std::string s;
  std::vector<int64_t> threads;
  for (size_t i = 0; i < by_value.size();) {
    threads.clear();
    size_t j = i;
    for (; j < by_value.size() && by_value[j].val == by_value[i].val; ++j) threads.push_back(by_value[j].thr);
    if (!s.empty()) s += "; ";
    s += "V" + std::to_string(by_value[i].val) + ": T" + compress_ranges(threads);
    if (s.size() > max_chars) {
      s.resize(max_chars);
      s += "... (" + std::to_string(owners.size()) + " owners)";
      break;
    }
    i = j;
  }
  return s;
}

}  // namespace cutevis
