// CuTe's tilers (include/cute/layout.hpp: Tile, tile_unzip, the by-mode application of
// divides and products): `_`, a layout, or a tuple of tilers.  See tiler.hpp.
#include "lib/tiler.hpp"

#include "lib/detail/flat_modes.hpp"
#include "lib/detail/tiling.hpp"

namespace cutevis {

using detail::LayoutBuilder;
using detail::str;
using detail::TNode;

Tiler Tiler::tuple(std::vector<Tiler> modes) {
  Tiler t;
  t.kind_ = Kind::kTuple;
  t.modes_ = std::move(modes);
  return t;
}

Tiler Tiler::integer(int64_t n) { return integer(IntTuple(n)); }

Tiler Tiler::integer(const IntTuple& n) {
  Tiler t(make_layout(n));
  t.integer_ = true;
  return t;
}

Tiler Tiler::from_shape(const IntTuple& shape) {
  if (shape.is_leaf()) return integer(shape);
  std::vector<Tiler> m;
  for (const auto& s : shape.modes()) m.push_back(from_shape(s));
  return tuple(std::move(m));
}

bool Tiler::operator==(const Tiler& other) const {
  if (kind_ != other.kind_) return false;
  if (kind_ == Kind::kLayout) return layout_ == other.layout_;
  if (kind_ == Kind::kTuple) return modes_ == other.modes_;
  return true;
}

namespace {

void profile_into(const Tiler& t, IntTuple::Builder& out) {
  if (!t.is_tuple()) {
    out.leaf(0);
    return;
  }
  out.open();
  for (const auto& m : t.modes()) profile_into(m, out);
  out.close();
}

}  // namespace

IntTuple Tiler::profile() const {
  IntTuple::Builder out;
  profile_into(*this, out);
  return out.finish();
}

std::string to_string(const Tiler& tiler, bool underscore) {
  switch (tiler.kind()) {
    case Tiler::Kind::kUnderscore: return "_";
    case Tiler::Kind::kLayout: return to_string(tiler.layout(), underscore);
    case Tiler::Kind::kTuple: {
      std::string s = "(";
      for (size_t i = 0; i < tiler.modes().size(); ++i) {
        if (i) s += ",";
        s += to_string(tiler.modes()[i], underscore);
      }
      return s + ")";
    }
  }
  return "";
}

// --- applying a tiler ------------------------------------------------------------------

namespace {

// zip2_by on shape and stride at once: the first halves into `first`, the second into
// `second`.  Errors name the stride's mode (zip2_by ran on the stride first).
void zip2_split(const TNode* s, const TNode* d, const TNode* guide, LayoutBuilder& first, LayoutBuilder& second) {
  if (guide->is_leaf()) {
    if (s->is_leaf() || s->rank() != 2) throw Error("zip2_by: expected a rank-2 mode, got " + str(d));
    first.append(s + 1, d + 1);
    second.append((s + 1)->next(), (d + 1)->next());
    return;
  }
  if (s->is_leaf() || s->rank() < guide->rank()) throw Error("zip2_by: mismatched ranks");
  first.open();
  second.open();
  const TNode* cs = s + 1;
  const TNode* cd = d + 1;
  for (const TNode *g = guide + 1, *e = guide->next(); g != e; g = g->next(), cs = cs->next(), cd = cd->next())
    zip2_split(cs, cd, g, first, second);
  for (const TNode* e = s->next(); cs != e; cs = cs->next(), cd = cd->next()) second.append(cs, cd);
  first.close();
  second.close();
}

}  // namespace

// CuTe: layout.hpp:tile_unzip — zip2_by(L, tiler): ((tile modes),(rest modes))
Layout tile_unzip(const Layout& l, const Tiler& tiler) {
  IntTuple guide = tiler.profile();
  if (guide.is_leaf()) {
    if (l.shape.rank() != 2 || l.shape.is_leaf())
      throw Error("zip2_by: expected a rank-2 mode, got " + to_string(l.stride));
    return l;
  }
  Layout first, second;
  LayoutBuilder a(first), b(second);
  zip2_split(l.shape.nodes(), l.stride.nodes(), guide.nodes(), a, b);
  a.finish();
  b.finish();
  Layout result;
  LayoutBuilder out(result);
  out.open();
  out.append(first);
  out.append(second);
  out.close();
  out.finish();
  return result;
}

namespace detail {

Layout by_tiler(const Layout& l, const Tiler& tiler, Layout (*op)(const Layout&, const Tiler&),
                Layout (*by_layout)(const Layout&, const Layout&)) {
  if (tiler.is_underscore()) return l;
  if (tiler.is_layout()) return by_layout(l, tiler.layout());
  if (tiler.rank() > rank(l))
    throw Error("tiler " + to_string(tiler) + " has more modes than the layout " + to_string(l));
  Layout result;
  LayoutBuilder out(result);
  out.open();
  for (size_t i = 0; i < rank(l); ++i) {
    if (i < tiler.rank()) out.append(op(get(l, i), tiler.modes()[i]));
    else out.append(l.shape.mode_node(i), l.stride.mode_node(i));
  }
  out.close();
  out.finish();
  return result;
}

namespace {

// Mode m of r into `out`: a rank >= 2 mode spliced (its modes one by one), else whole.
void unpack_mode(const Layout& r, size_t m, LayoutBuilder& out) {
  const TNode* s = r.shape.mode_node(m);
  const TNode* d = r.stride.mode_node(m);
  if (s->is_leaf() || s->rank() == 1) {
    out.append(s, d);
    return;
  }
  const TNode* cd = d + 1;
  for (const TNode *c = s + 1, *e = s->next(); c != e; c = c->next(), cd = cd->next()) out.append(c, cd);
}

}  // namespace

// result(_, repeat<R1>(_)): keep mode 0, unpack mode 1.  repeat<1>(_) is `_`, so a
// rank-1 mode such as `(4)` stays one mode, as it is: only rank >= 2 modes are spliced.
Layout unpack_second(const Layout& r) {
  Layout result;
  LayoutBuilder out(result);
  out.open();
  out.append(r.shape.mode_node(0), r.stride.mode_node(0));
  unpack_mode(r, 1, out);
  out.close();
  out.finish();
  return result;
}

// result(repeat<R0>(_), repeat<R1>(_)): unpack both modes
Layout unpack_both(const Layout& r) {
  Layout result;
  LayoutBuilder out(result);
  out.open();
  unpack_mode(r, 0, out);
  unpack_mode(r, 1, out);
  out.close();
  out.finish();
  return result;
}

}  // namespace detail

}  // namespace cutevis
