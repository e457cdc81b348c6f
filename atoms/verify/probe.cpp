// cutevis — probes and localization for verify.
#include "atoms/verify/probe.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "lib/error.hpp"

namespace cutevis::verify {

namespace {

// Union-find over entries.
class Classes {
 public:
  explicit Classes(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), size_t{0}); }
  size_t find(size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void join(size_t a, size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<size_t> parent_;
};

// Name every class after the believed coordinate most of its voters share; each name
// goes to one class at most, classes with better voters first: trusted anchor members,
// else trusted members, else all.  Singletons and classes outside `eligible` (entries
// of a separate product) stay unnamed (-1).
std::vector<int64_t> name_classes(Classes& classes, const std::vector<int64_t>& believed,
                                  const std::vector<bool>& is_anchor, const std::vector<bool>& trusted,
                                  const std::vector<bool>& eligible) {
  const size_t n = believed.size();
  std::map<size_t, std::vector<size_t>> members;
  for (size_t i = 0; i < n; ++i) members[classes.find(i)].push_back(i);
  std::vector<std::tuple<int, int64_t, size_t, int64_t>> votes;  // (level, -count, root, name)
  for (auto& member : members) {
    const size_t root = member.first;
    const std::vector<size_t>& list = member.second;  // not a structured binding: clang 14 cannot capture one
    if (list.size() < 2 || !eligible[root]) continue;
    auto voters = [&](auto pred) { return std::any_of(list.begin(), list.end(), pred); };
    int level = voters([&](size_t i) { return is_anchor[i] && trusted[i]; }) ? 0
                : voters([&](size_t i) { return bool(trusted[i]); })         ? 1
                                                                             : 2;
    std::map<int64_t, int64_t> count;
    for (size_t i : list)
      if (level == 2 || (level == 1 && trusted[i]) || (is_anchor[i] && trusted[i])) ++count[believed[i]];
    for (auto& [name, c] : count) votes.emplace_back(level, -c, root, name);
  }
  std::sort(votes.begin(), votes.end());
  std::map<size_t, int64_t> name_of;
  std::set<int64_t> used;
  for (auto& [level, c, root, name] : votes) {
    if (name_of.count(root) || used.count(name)) continue;
    name_of[root] = name;
    used.insert(name);
  }
  std::vector<int64_t> out(n, -1);
  for (size_t i = 0; i < n; ++i) {
    auto it = name_of.find(classes.find(i));
    if (it != name_of.end()) out[i] = it->second;
  }
  return out;
}

int64_t digit_base(const MmaPlan& p) {
  if (p.popc != PopcMode::kNone) return 2;
  int64_t limit = std::min<int64_t>({p.b.format.max_exact, p.format_d.max_exact, int64_t{1} << 16});
  int64_t base = 2;
  while (base * 2 - 1 <= limit) base *= 2;
  return base;
}

}  // namespace

ProbeSet make_probes(const MmaPlan& p) {
  ProbeSet ps;
  const size_t na = p.a.entries.size(), nb = p.b.entries.size(), nc = p.c.entries.size();
  ps.base = digit_base(p);
  ps.digits = 1;
  for (int64_t span = ps.base; span < static_cast<int64_t>(nb); span *= ps.base) ++ps.digits;
  const bool xor_mode = p.popc == PopcMode::kXor;
  auto add = [&](ProbeSet::Kind kind, size_t entry, int digit, MmaData data, MmaData baseline) {
    ProbeSet::Probe probe{kind, entry, digit, ps.sets.size(), std::nullopt};
    ps.sets.push_back(std::move(data));
    if (xor_mode) {
      probe.baseline = ps.sets.size();
      baseline.baseline = true;
      ps.sets.push_back(std::move(baseline));
    }
    ps.probes.push_back(probe);
  };
  const std::vector<int64_t> zero_a(na, 0), zero_b(nb, 0), zero_c(nc, 0), ones_a(na, 1), ones_b(nb, 1);
  std::vector<std::vector<int64_t>> digit_b(static_cast<size_t>(ps.digits), std::vector<int64_t>(nb));
  for (size_t j = 0; j < nb; ++j) {
    int64_t rest = static_cast<int64_t>(j);
    for (int d = 0; d < ps.digits; ++d, rest /= ps.base) digit_b[static_cast<size_t>(d)][j] = rest % ps.base;
  }
  for (size_t a = 0; a < na; ++a) {
    std::vector<int64_t> one_hot(na, 0);
    one_hot[a] = 1;
    add(ProbeSet::Kind::kRow, a, 0, {one_hot, ones_b, zero_c, false}, {zero_a, ones_b, zero_c, true});
    for (int d = 0; d < ps.digits; ++d)
      add(ProbeSet::Kind::kDigit, a, d, {one_hot, digit_b[static_cast<size_t>(d)], zero_c, false},
          {zero_a, digit_b[static_cast<size_t>(d)], zero_c, true});
  }
  for (size_t b = 0; b < nb; ++b) {
    std::vector<int64_t> one_hot(nb, 0);
    one_hot[b] = 1;
    add(ProbeSet::Kind::kCol, b, 0, {ones_a, one_hot, zero_c, false}, {ones_a, zero_b, zero_c, true});
  }
  return ps;
}

std::string Anchors::text() const {
  return std::string("rows named by ") + rows + ", columns by " + cols + ", k by " + k;
}

Anchors choose_anchors(const MmaPlan& p) {
  Anchors an;
  // Shared memory is addressed, so its positions are facts; else trust what was not overridden.
  if (p.a.in_smem || (p.c.overridden && !p.a.overridden)) an.rows = 'A';
  if (p.b.in_smem || (p.c.overridden && !p.b.overridden)) an.cols = 'B';
  if (p.b.in_smem) an.k = 'B';
  else if (p.a.in_smem || (p.b.overridden && !p.a.overridden)) an.k = 'A';
  return an;
}

MmaLocalization localize_mma(const MmaPlan& p, const ProbeSet& ps,
                             const std::vector<std::vector<std::optional<int64_t>>>& d_values) {
  const size_t na = p.a.entries.size(), nb = p.b.entries.size(), nc = p.c.entries.size();
  const bool xor_mode = p.popc == PopcMode::kXor;
  // The probe's observable at C entry i: the pairing value (XOR: 1 where D fell by one).
  auto observe = [&](const ProbeSet::Probe& probe, size_t i) -> std::optional<int64_t> {
    const auto& v = d_values[probe.set][i];
    if (!v) return std::nullopt;
    if (!xor_mode) return *v;
    const auto& base = d_values[*probe.baseline][i];
    if (!base) return std::nullopt;
    int64_t diff = *v - *base;
    return diff == -1 ? 1 : 0;
  };
  auto paired = [&](const ProbeSet::Probe& probe, size_t i) {
    auto v = observe(probe, i);
    return v && *v != 0;
  };

  // lit[a]: the D entries in a's row;  pair[a][i]: index of the B entry paired at C entry i.
  std::vector<std::vector<size_t>> lit(na);
  std::vector<std::vector<int64_t>> pair(na, std::vector<int64_t>(nc, 0));
  std::vector<std::vector<bool>> pair_ok(na, std::vector<bool>(nc, true));
  Classes rows(na + nc), cols(nb + nc), ks(na + nb);
  for (const auto& probe : ps.probes) {
    if (probe.kind == ProbeSet::Kind::kRow) {
      for (size_t i = 0; i < nc; ++i)
        if (paired(probe, i)) {
          lit[probe.entry].push_back(i);
          rows.join(probe.entry, na + i);
        }
    } else if (probe.kind == ProbeSet::Kind::kCol) {
      for (size_t i = 0; i < nc; ++i)
        if (paired(probe, i)) cols.join(probe.entry, nb + i);
    }
  }
  int64_t scale = 1;
  for (int d = 0; d < ps.digits; ++d, scale *= ps.base)
    for (const auto& probe : ps.probes) {
      if (probe.kind != ProbeSet::Kind::kDigit || probe.digit != d) continue;
      for (size_t i : lit[probe.entry]) {
        auto v = observe(probe, i);
        if (!v || *v < 0 || *v >= ps.base) pair_ok[probe.entry][i] = false;
        else pair[probe.entry][i] += *v * scale;
      }
    }
  for (size_t a = 0; a < na; ++a)
    for (size_t i : lit[a])
      if (pair_ok[a][i] && pair[a][i] < static_cast<int64_t>(nb)) ks.join(a, na + static_cast<size_t>(pair[a][i]));

  MmaLocalization out;
  out.anchors = choose_anchors(p);
  const Anchors& an = out.anchors;
  auto row_of = [](const OperandPlan& op, size_t i) { return op.cell_of[i] % op.rows; };
  auto col_of = [](const OperandPlan& op, size_t i) { return op.cell_of[i] / op.rows; };
  // Trusted entries: of operands not hand-written, on the lane the catalogue's ThrID gives.
  auto trust = [&](const OperandPlan& op) {
    std::vector<bool> t(op.entries.size());
    for (size_t i = 0; i < t.size(); ++i) {
      const Entry& e = op.entries[i];
      t[i] = !op.overridden && (e.thr < 0 || p.thr_id(e.thr) == p.atom_thr_id(e.thr));
    }
    return t;
  };
  const std::vector<bool> trust_a = trust(p.a), trust_b = trust(p.b), trust_c = trust(p.c);

  // Entries that interact with the rest: the connected component (rows, columns and k
  // together) holding the most trusted entries.  Others ran in a separate product
  // (e.g. lanes of another quad-pair through a wrong ThrID): nowhere in this one.
  // Global numbering: A entries, then B, then C.
  auto from_rows = [&](size_t r) { return r < na ? r : na + nb + (r - na); };
  auto from_cols = [&](size_t c) { return c < nb ? na + c : na + nb + (c - nb); };
  Classes all(na + nb + nc);
  for (size_t r = 0; r < na + nc; ++r) all.join(from_rows(r), from_rows(rows.find(r)));
  for (size_t c = 0; c < nb + nc; ++c) all.join(from_cols(c), from_cols(cols.find(c)));
  for (size_t k = 0; k < na + nb; ++k) all.join(k, ks.find(k));  // A then B: already global
  std::map<size_t, int64_t> trusted_in;
  for (size_t i = 0; i < na + nb + nc; ++i) {
    bool t = i < na ? trust_a[i] : i < na + nb ? trust_b[i - na] : trust_c[i - na - nb];
    if (t) ++trusted_in[all.find(i)];
  }
  size_t main_root = all.find(0);
  int64_t best = -1;
  for (auto& [root, count] : trusted_in)
    if (count > best) best = count, main_root = root;
  auto in_main = [&](size_t global) { return all.find(global) == main_root; };

  // Name the classes of one coordinate over two operands' entries (first's, then second's):
  // `coord` picks the believed coordinate, `to_global` maps a class index to the global numbering.
  auto name_all = [&](Classes& classes, const OperandPlan& first, const std::vector<bool>& trust_first, char first_name,
                      const OperandPlan& second, const std::vector<bool>& trust_second, char second_name,
                      char anchor_name, auto coord_first, auto coord_second, auto to_global) {
    const size_t n1 = first.entries.size(), n2 = second.entries.size();
    std::vector<int64_t> believed(n1 + n2);
    std::vector<bool> anchor(n1 + n2), trusted(n1 + n2), eligible(n1 + n2);
    for (size_t i = 0; i < n1 + n2; ++i) {
      bool in_first = i < n1;
      believed[i] = in_first ? coord_first(first, i) : coord_second(second, i - n1);
      anchor[i] = (in_first ? first_name : second_name) == anchor_name;
      trusted[i] = in_first ? trust_first[i] : trust_second[i - n1];
      eligible[i] = in_main(to_global(i));
    }
    return name_classes(classes, believed, anchor, trusted, eligible);
  };
  auto identity = [](size_t k) { return k; };
  std::vector<int64_t> row_name =
      name_all(rows, p.a, trust_a, 'A', p.c, trust_c, 'C', an.rows, row_of, row_of, from_rows);
  std::vector<int64_t> col_name =
      name_all(cols, p.b, trust_b, 'B', p.c, trust_c, 'C', an.cols, row_of, col_of, from_cols);
  std::vector<int64_t> k_name = name_all(ks, p.a, trust_a, 'A', p.b, trust_b, 'B', an.k, col_of, col_of, identity);

  auto cell = [](int64_t r, int64_t c, int64_t rows_count) {
    return r < 0 || c < 0 ? int64_t{-1} : r + rows_count * c;
  };
  out.actual_a.resize(na);
  out.actual_b.resize(nb);
  out.actual_c.resize(nc);
  for (size_t i = 0; i < na; ++i) out.actual_a[i] = in_main(i) ? cell(row_name[i], k_name[i], p.a.rows) : -1;
  for (size_t i = 0; i < nb; ++i) out.actual_b[i] = in_main(na + i) ? cell(col_name[i], k_name[na + i], p.b.rows) : -1;
  for (size_t i = 0; i < nc; ++i)
    out.actual_c[i] = in_main(na + nb + i) ? cell(row_name[na + i], col_name[nb + i], p.c.rows) : -1;
  return out;
}

CopyLocalization localize_copy(const CopyPlan& p, const CopyRelation& rel) {
  // Register side and address side (movmatrix: src registers play the address role).
  const bool regs_are_dst = p.cls != CopyClass::kStmatrix;
  const CopySide& regs = regs_are_dst ? p.dst : p.src;
  const CopySide& addr = regs_are_dst ? p.src : p.dst;
  CopyLocalization out;
  // The reference (CuTe's RefLayout) is the register side for ldmatrix and stmatrix
  // (and dst for movmatrix); it names the tile unless it alone was overridden.
  const bool anchor_regs = !(regs.overridden && !addr.overridden);
  out.anchor = anchor_regs ? 'r' : 'a';
  std::vector<int64_t> actual_regs(regs.entries.size(), -1), actual_addr(addr.entries.size(), -1);
  if (anchor_regs) {
    actual_regs = regs.unit_of;
    std::vector<std::vector<int64_t>> seen(addr.entries.size());
    for (size_t r = 0; r < regs.entries.size(); ++r)
      if (rel.partner[r] >= 0) seen[static_cast<size_t>(rel.partner[r])].push_back(regs.unit_of[r]);
    for (size_t i = 0; i < addr.entries.size(); ++i) {
      if (seen[i].empty()) continue;
      bool consistent = std::find(seen[i].begin(), seen[i].end(), addr.unit_of[i]) != seen[i].end();
      actual_addr[i] = consistent ? addr.unit_of[i] : seen[i][0];
    }
    // Address entries the hardware never reads (threads 8-31 of .x1) are unobservable;
    // they are right when they only repeat a row some used entry really supplies.
    std::vector<int64_t> supplied = actual_addr;
    for (size_t i = 0; i < addr.entries.size(); ++i)
      if (seen[i].empty() && std::find(supplied.begin(), supplied.end(), addr.unit_of[i]) != supplied.end())
        actual_addr[i] = addr.unit_of[i];
  } else {
    actual_addr = addr.unit_of;
    for (size_t r = 0; r < regs.entries.size(); ++r)
      if (rel.partner[r] >= 0) actual_regs[r] = addr.unit_of[static_cast<size_t>(rel.partner[r])];
  }
  if (regs_are_dst) {
    out.actual_dst = actual_regs;
    out.actual_src = actual_addr;
  } else {
    out.actual_src = actual_regs;
    out.actual_dst = actual_addr;
  }
  return out;
}

}  // namespace cutevis::verify
