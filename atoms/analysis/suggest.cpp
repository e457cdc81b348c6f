// The advisor's layout search (see suggest.hpp).
#include "atoms/analysis/suggest.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>

#include "atoms/smem_atoms.hpp"
#include "lib/error.hpp"
#include "lib/stable_sort.hpp"

namespace cutevis {

namespace {

std::string cpp_layout(int64_t m, int64_t n, int64_t sm, int64_t sn) {
  return "Layout<Shape<_" + std::to_string(m) + ",_" + std::to_string(n) + ">,Stride<_" + std::to_string(sm) + ",_" +
         std::to_string(sn) + ">>{}";
}
std::string dsl_layout(int64_t m, int64_t n, int64_t sm, int64_t sn) {
  return "cute.make_layout((" + std::to_string(m) + ", " + std::to_string(n) + "), stride=(" + std::to_string(sm) +
         ", " + std::to_string(sn) + "))";
}

// CuTeDSL's name of an element type (cutlass.Float16 for half_t); empty when we do not know it.
std::string dsl_type(const std::string& cpp) {
  static const std::vector<std::pair<const char*, const char*>> names = {{"half_t", "cutlass.Float16"},
                                                                         {"bfloat16_t", "cutlass.BFloat16"},
                                                                         {"float", "cutlass.Float32"},
                                                                         {"tfloat32_t", "cutlass.TFloat32"},
                                                                         {"float_e4m3_t", "cutlass.Float8E4M3FN"},
                                                                         {"float_e5m2_t", "cutlass.Float8E5M2"},
                                                                         {"int8_t", "cutlass.Int8"},
                                                                         {"uint8_t", "cutlass.Uint8"},
                                                                         {"double", "cutlass.Float64"}};
  for (const auto& [c, d] : names)
    if (cpp == c) return d;
  return "";
}

int log2_floor(int64_t x) {
  int r = 0;
  while ((int64_t(1) << (r + 1)) <= x) ++r;
  return r;
}

struct Candidate {
  AnyLayout layout;
  std::string cpp, dsl, kind;
  int simplicity = 0;
  int base = -1;  // the plain layout it swizzles or pads (index into the bases), -1 for none
};

}  // namespace

bool is_permutation_or_padding(const AnyLayout& candidate, const IntTuple& shape_mn, bool allow_padding) {
  if (rank(candidate) != 2 || size(candidate) != size(shape_mn)) return false;
  const IntTuple& s = shape(candidate);
  if (size(s[0]) != size(shape_mn[0]) || size(s[1]) != size(shape_mn[1])) return false;
  std::vector<int64_t> values = layout_values(candidate);
  std::sort(values.begin(), values.end());
  if (std::adjacent_find(values.begin(), values.end()) != values.end()) return false;  // two cells, one offset
  if (values.empty()) return true;
  if (values.front() < 0) return false;
  if (allow_padding) return true;
  return values.back() == static_cast<int64_t>(values.size()) - 1;
}

Json to_json(const LayoutSuggestion& s) {
  Json per = Json::array();
  for (const auto& p : s.per_copy)
    per.push_back({{"copy", p.atom},
                   {"wavefronts", p.wavefronts},
                   {"ideal_wavefronts", p.ideal_wavefronts},
                   {"bank_conflicts", p.bank_conflicts}});
  return {{"layout", s.cpp},
          {"dsl", s.dsl.empty() ? Json(nullptr) : Json(s.dsl)},
          {"kind", s.kind},
          {"wavefronts", s.wavefronts},
          {"ideal_wavefronts", s.ideal_wavefronts},
          {"bank_conflicts", s.bank_conflicts},
          {"per_copy", per},
          {"padding_bytes", s.padding_bytes},
          {"cute", to_string(s.layout)}};
}

std::vector<LayoutSuggestion> suggest_smem_layouts(const AnyLayout& current, int element_bits,
                                                   const std::vector<SmemUse>& uses, const SuggestOptions& options) {
  if (rank(current) != 2) throw Error("--suggest needs an (M,N) shared-memory tensor; got " + to_string(current));
  if (uses.empty()) throw Error("--suggest needs at least one copy of the shared-memory tensor");
  const IntTuple tile = tup(size(shape(current)[0]), size(shape(current)[1]));
  const int64_t m = tile[0].value(), n = tile[1].value(), cells = m * n;
  const int64_t elem_bytes = std::max(1, element_bits / 8);

  // The rows one copy pass repeats: every copy's tile divides them.  A layout that moves by a multiple of
  // 128 bytes from one such block of rows to the next costs the same in every block (same banks, same
  // 128-byte lines), so the search costs the first block and scales: exact, and M/rows times faster.
  int64_t block_rows = 1;
  for (const SmemUse& u : uses) block_rows = std::lcm(block_rows, size(u.copy.tile_mn[0]));
  if (m % block_rows != 0) block_rows = m;
  auto repeats_by_rows = [&](const std::vector<int64_t>& values) {
    if (block_rows == m) return false;
    const int64_t step = values[block_rows] - values[0];  // index m + M*n: row block_rows of column 0
    if ((step * elem_bytes) % 128 != 0) return false;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = block_rows; i < m; ++i)
        if (values[i + m * j] != values[i - block_rows + m * j] + step) return false;
    return true;
  };
  auto first_rows = [&](const AnyLayout& l) {
    return composition(l, Tiler::tuple({Tiler(make_layout(IntTuple(block_rows))), Tiler(make_layout(IntTuple(n)))}));
  };
  int widest_bits = element_bits;  // the widest smem access seen: a swizzle must keep it whole
  bool unvectorized = false;       // the last cost() failed because a copy's values were not contiguous
  // Cost one layout under every copy; nullopt when a copy would not vectorize, fault or cannot be placed.
  auto cost = [&](const AnyLayout& l, bool require_legal,
                  const std::vector<int64_t>& values) -> std::optional<LayoutSuggestion> {
    LayoutSuggestion s;
    s.layout = l;
    unvectorized = false;
    const bool reduced = repeats_by_rows(values);
    const int64_t scale = reduced ? m / block_rows : 1;
    for (const SmemUse& u : uses) {
      const CopyTensor smem{MemorySpace::kSmem, reduced ? first_rows(l) : l};
      CopyTensor other = u.other;
      if (reduced && other.space != MemorySpace::kRmem) other.layout = first_rows(other.layout);
      CopyAnalysis a;
      try {
        a = u.smem_is_src ? analyze_copy(u.copy, smem, other) : analyze_copy(u.copy, other, smem);
      } catch (const Error&) {
        return std::nullopt;
      }
      const CopySide& side = u.smem_is_src ? a.src : a.dst;
      widest_bits = std::max(widest_bits, side.bits);
      if (require_legal && !side.vectorizes) unvectorized = true;
      if (require_legal && (!side.vectorizes || !side.aligned)) return std::nullopt;
      s.per_copy.push_back(
          {a.atom, a.smem.wavefronts * scale, a.smem.ideal_wavefronts * scale, a.smem.bank_conflicts * scale});
      s.wavefronts += a.smem.wavefronts * scale;
      s.ideal_wavefronts += a.smem.ideal_wavefronts * scale;
      s.bank_conflicts += a.smem.bank_conflicts * scale;
    }
    if (require_legal && options.legal && !options.legal(l)) return std::nullopt;
    s.padding_bytes = (cosize(l) - cells) * elem_bytes;
    return s;
  };

  std::vector<LayoutSuggestion> out;
  if (auto given = cost(current, false, layout_values(current))) {
    given->cpp = to_string(current);
    given->kind = "as given";
    out.push_back(*given);
  }
  struct Base {
    int64_t sm, sn;
    const char* kind;
  };
  const std::vector<Base> bases = {{n, 1, "row-major"}, {1, m, "column-major"}};
  // A swizzle permutes runs of 2^M elements of its base and padding keeps rows whole: where a copy's values
  // are not contiguous in the base layout they are not in any of its swizzles or paddings either.  (Costing
  // the bases also shows how wide the copies' accesses can be.)
  std::vector<bool> base_unvectorized(bases.size(), false);
  for (size_t bi = 0; bi < bases.size(); ++bi) {
    const Layout plain(tile, tup(bases[bi].sm, bases[bi].sn));
    (void)cost(plain, true, layout_values(plain));
    base_unvectorized[bi] = unvectorized;
  }
  // Swizzle<B,M,S> keeps 2^M elements together: at least one access of the widest copy, at most twice that
  const int vector_log2 = log2_floor(std::max(1, widest_bits / std::max(1, element_bits)));
  std::vector<Candidate> candidates;
  const std::string type_dsl = dsl_type(options.element_type);
  for (size_t bi = 0; bi < bases.size(); ++bi) {
    const Base& b = bases[bi];
    const int base = static_cast<int>(bi);
    const Layout plain(tile, tup(b.sm, b.sn));
    candidates.push_back({plain, cpp_layout(m, n, b.sm, b.sn), dsl_layout(m, n, b.sm, b.sn), b.kind, 0, -1});
    // composition(Swizzle<B,M,S>, plain): a permutation of the tile's offsets when 2^(B+M+S) divides it
    const int top = log2_floor(cells);
    for (int sb = 1; sb <= 3; ++sb)
      for (int sm = vector_log2; sm <= std::min(vector_log2 + 1, 6); ++sm)
        for (int ss = std::max(sb, 2); sb + sm + ss <= top && ss <= sb + 3; ++ss)
          candidates.push_back({compose3(Swizzle(sb, sm, ss), 0, AnyLayout(plain)),
                                "composition(Swizzle<" + std::to_string(sb) + "," + std::to_string(sm) + "," +
                                    std::to_string(ss) + ">{}, " + cpp_layout(m, n, b.sm, b.sn) + ")",
                                "cute.make_composed_layout(cute.make_swizzle(" + std::to_string(sb) + ", " +
                                    std::to_string(sm) + ", " + std::to_string(ss) + "), 0, " +
                                    dsl_layout(m, n, b.sm, b.sn) + ")",
                                "swizzle", 1 + sb, base});
    // row padding: 4, 8, 16, 32 bytes per row (column for column-major)
    for (int64_t pad_bytes : {4, 8, 16, 32}) {
      if (pad_bytes % elem_bytes != 0) continue;
      const int64_t p = pad_bytes / elem_bytes;
      const int64_t sm = b.sn == 1 ? n + p : 1, sn = b.sn == 1 ? 1 : m + p;
      candidates.push_back(
          {Layout(tile, tup(sm, sn)), cpp_layout(m, n, sm, sn), dsl_layout(m, n, sm, sn), "padding", 5, base});
    }
  }
  // the GMMA canonical atoms tiled to the shape (K-major: N contiguous, MN-major: M contiguous)
  for (const char* major : {"K", "MN"})
    for (const char* kind : {"INTER", "SW32", "SW64", "SW128"}) {
      try {
        const ComposedLayout atom = gmma_smem_atom(major, kind, element_bits);
        const IntTuple& as = shape(AnyLayout(atom));
        if (m % size(as[0]) != 0 || n % size(as[1]) != 0) continue;
        const std::string name = std::string("Layout_") + major + "_" + kind + "_Atom";
        candidates.push_back(
            {tile_to_shape(AnyLayout(atom), tile),
             "tile_to_shape(GMMA::" + name + "<" + options.element_type + ">{}, Shape<_" + std::to_string(m) + ",_" +
                 std::to_string(n) + ">{})",
             type_dsl.empty() ? ""
                              : "cute.tile_to_shape(cute.nvgpu.warpgroup.make_smem_layout_atom(cute.nvgpu.warpgroup."
                                "SmemLayoutAtomKind." +
                                    std::string(major) + "_" + kind + ", " + type_dsl + "), (" + std::to_string(m) +
                                    ", " + std::to_string(n) + "), (0, 1))",
             "gmma atom", 4, -1});
      } catch (const Error&) {
        continue;
      }
    }

  std::vector<LayoutSuggestion> found;
  std::set<std::vector<int64_t>> seen;  // one entry per function (swizzles may coincide)
  seen.insert(layout_values(current));
  for (const Candidate& c : candidates) {
    if (c.base >= 0 && base_unvectorized[static_cast<size_t>(c.base)]) continue;
    if (!is_permutation_or_padding(c.layout, tile)) continue;
    std::vector<int64_t> values = layout_values(c.layout);
    if (!seen.insert(values).second) continue;
    auto s = cost(c.layout, true, values);
    if (!s) continue;
    s->cpp = c.cpp;
    s->dsl = c.dsl;
    s->kind = c.kind;
    s->simplicity = c.simplicity;
    found.push_back(*s);
  }
  stable_sort_by(found, [](const LayoutSuggestion& a, const LayoutSuggestion& b) {
    if (a.wavefronts != b.wavefronts) return a.wavefronts < b.wavefronts;
    if (a.padding_bytes != b.padding_bytes) return a.padding_bytes < b.padding_bytes;
    if (a.simplicity != b.simplicity) return a.simplicity < b.simplicity;
    return a.cpp.size() < b.cpp.size();
  });
  if (found.size() > options.max_results) found.resize(options.max_results);
  out.insert(out.end(), found.begin(), found.end());
  return out;
}

}  // namespace cutevis
