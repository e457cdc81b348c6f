#include <algorithm>
#include <bit>

#include "lib/swizzle.hpp"

namespace cutevis {

namespace {

int log2_exact(int64_t n, const char* what) {
  if (n <= 0 || (n & (n - 1)) != 0)
    throw Error(std::string(what) + ": " + std::to_string(n) + " is not a power of two");
  return std::countr_zero(static_cast<uint64_t>(n));
}

int64_t shiftr(int64_t x, int s) { return s >= 0 ? (x >> s) : (x << -s); }

}  // namespace

// --- Swizzle ---------------------------------------------------------------------------

Swizzle::Swizzle(int b, int m, int s) : bits(b), base(m), shift(s) {
  if (b < 0)
    throw Error("Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) +
                ">: BBits must be non-negative");
  if (m < 0)
    throw Error("Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) +
                ">: MBase must be non-negative");
  if (std::abs(s) < b)
    throw Error("Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) +
                ">: |SShift| must be at least BBits");
  if (b + m + std::abs(s) > 40)
    throw Error("Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">: too wide");
}

int64_t Swizzle::yyy_mask() const { return ((int64_t{1} << bits) - 1) << (base + std::max(0, shift)); }
int64_t Swizzle::zzz_mask() const { return ((int64_t{1} << bits) - 1) << (base - std::min(0, shift)); }
int64_t Swizzle::operator()(int64_t offset) const { return offset ^ shiftr(offset & yyy_mask(), shift); }
int64_t Swizzle::domain() const { return int64_t{1} << (bits + base + std::abs(shift)); }

std::string to_string(const Swizzle& s) {
  return "Sw<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + ">";
}

Swizzle make_swizzle(int64_t yyy, int64_t zzz) {
  if (yyy < 0 || zzz < 0 || yyy > 0xffffffffLL || zzz > 0xffffffffLL) throw Error("make_swizzle: masks out of range");
  int by = std::popcount(static_cast<uint64_t>(yyy));
  int bz = std::popcount(static_cast<uint64_t>(zzz));
  if (by != bz) throw Error("make_swizzle: the Y and Z masks have different numbers of bits");
  int tz_y = yyy ? std::countr_zero(static_cast<uint64_t>(yyy)) : 32;
  int tz_z = zzz ? std::countr_zero(static_cast<uint64_t>(zzz)) : 32;
  int m = std::min(tz_y, tz_z) % 32;
  int s = tz_y - tz_z;
  Swizzle sw(by, m, s);
  if ((yyy | zzz) != (sw.yyy_mask() | sw.zzz_mask())) throw Error("make_swizzle: the masks do not form a swizzle");
  return sw;
}

Swizzle composition(const Swizzle& a, const Swizzle& b) {
  if (a.shift != b.shift) throw Error("can only merge swizzles of the same shift");
  return make_swizzle(a.yyy_mask() ^ b.yyy_mask(), a.zzz_mask() ^ b.zzz_mask());
}

Swizzle upcast(const Swizzle& s, int64_t n) {
  int new_m = s.base - log2_exact(n, "upcast");
  if (new_m >= 0) return Swizzle(s.bits, new_m, s.shift);
  return Swizzle(std::max(s.bits + new_m, 0), 0, s.shift);
}

Swizzle downcast(const Swizzle& s, int64_t n) { return Swizzle(s.bits, s.base + log2_exact(n, "downcast"), s.shift); }

Swizzle recast_swizzle(const Swizzle& s, int64_t old_bits, int64_t new_bits) {
  return recast_by_ratio(
      s, old_bits, new_bits, [](const Swizzle& x, int64_t n) { return upcast(x, n); },
      [](const Swizzle& x, int64_t n) { return downcast(x, n); });
}

// --- ComposedLayout -------------------------------------------------------------------------

ComposedLayout::ComposedLayout(const Swizzle& a, int64_t offset, const AnyLayout& b)
    : a_is_swizzle_(true), swizzle_(a), offset_(offset), b_(std::make_shared<const AnyLayout>(b)) {}

ComposedLayout::ComposedLayout(const Layout& a, int64_t offset, const AnyLayout& b)
    : a_is_swizzle_(false), layout_a_(a), offset_(offset), b_(std::make_shared<const AnyLayout>(b)) {}

ComposedLayout ComposedLayout::smem(const Swizzle& a, int smem_bits, const AnyLayout& b) {
  if (smem_bits <= 0) throw Error("smem_ptr_flag_bits must be positive");
  ComposedLayout c(a, 0, b);
  c.smem_bits_ = smem_bits;
  return c;
}

ComposedLayout ComposedLayout::smem_sparse(const Swizzle& a, int sparsity, int smem_bits, const AnyLayout& b) {
  if (sparsity <= 0) throw Error("smem_sparse_ptr_flag_bits: the sparsity must be positive");
  if (smem_bits <= 0 || smem_bits % sparsity != 0)
    throw Error("smem_sparse_ptr_flag_bits<" + std::to_string(sparsity) + "," + std::to_string(smem_bits) +
                ">: the element's bits must be a positive multiple of the sparsity");
  ComposedLayout c = smem(a, smem_bits, b);
  c.sparsity_ = sparsity;
  return c;
}

ComposedLayout ComposedLayout::with_b(const AnyLayout& b) const {
  ComposedLayout c = *this;
  c.b_ = std::make_shared<const AnyLayout>(b);
  return c;
}

int64_t ComposedLayout::operator()(int64_t index) const {
  int64_t pos = checked_add(offset_, evaluate(*b_, index));
  if (!a_is_swizzle_) return layout_a_(pos);
  Swizzle sw = smem_bits_ ? recast_swizzle(swizzle_, 8, element_bits()) : swizzle_;
  return sw(pos);
}

bool ComposedLayout::operator==(const ComposedLayout& o) const {
  if (a_is_swizzle_ != o.a_is_swizzle_ || offset_ != o.offset_ || smem_bits_ != o.smem_bits_ ||
      sparsity_ != o.sparsity_)
    return false;
  if (a_is_swizzle_ ? swizzle_ != o.swizzle_ : layout_a_ != o.layout_a_) return false;
  return *b_ == *o.b_;
}

AnyLayout compose3(const Swizzle& a, int64_t offset, const AnyLayout& b) {
  if (a.bits == 0 && offset == 0 && std::holds_alternative<Layout>(b)) return b;  // Sw<0,M,S> o 0 o L == L
  return ComposedLayout(a, offset, b);
}

AnyLayout compose3(const Layout& a, int64_t offset, const AnyLayout& b) { return ComposedLayout(a, offset, b); }

namespace {

// A o O o f(B), keeping A and O (and the smem flag) as they are.
template <class F>
AnyLayout map_b(const ComposedLayout& c, F&& f) {
  AnyLayout nb = f(c.layout_b());
  if (c.smem_bits()) return c.with_b(nb);
  if (c.a_is_swizzle()) return compose3(c.swizzle(), c.offset(), nb);
  return compose3(c.layout_a(), c.offset(), nb);
}

template <class FL, class FC>
AnyLayout dispatch(const AnyLayout& l, FL&& on_layout, FC&& on_composed) {
  if (const Layout* p = std::get_if<Layout>(&l)) return on_layout(*p);
  return on_composed(std::get<ComposedLayout>(l));
}

// CuTe (pointer_flagged.hpp) static_asserts "Not implemented for safety" on these.
void refuse_sparse_recast(const ComposedLayout& c, const char* what) {
  if (c.sparsity() > 1)
    throw Error(std::string(what) + " of a sparse smem layout (smem_sparse<" + std::to_string(c.sparsity()) +
                ">_ptr) is not defined: CuTe refuses it");
}

std::string offset_string(const ComposedLayout& c, bool underscore) {
  if (c.sparsity() > 1)
    return "smem_sparse<" + std::to_string(c.sparsity()) + ">_ptr[" + std::to_string(c.smem_bits()) + "b](unset)";
  if (c.smem_bits()) return "smem_ptr[" + std::to_string(c.smem_bits()) + "b](unset)";
  return (underscore ? "_" : "") + std::to_string(c.offset());
}

}  // namespace

// --- AnyLayout algebra -------------------------------------------------------------------------

std::string to_string(const AnyLayout& l, bool underscore) {
  if (const Layout* p = std::get_if<Layout>(&l)) return to_string(*p, underscore);
  const auto& c = std::get<ComposedLayout>(l);
  std::string a = c.a_is_swizzle() ? to_string(c.swizzle()) : to_string(c.layout_a(), underscore);
  return a + " o " + offset_string(c, underscore) + " o " + to_string(c.layout_b(), underscore);
}

const IntTuple& shape(const AnyLayout& l) {
  if (const Layout* p = std::get_if<Layout>(&l)) return p->shape;
  return shape(std::get<ComposedLayout>(l).layout_b());
}

int64_t size(const AnyLayout& l) { return size(shape(l)); }
size_t rank(const AnyLayout& l) { return shape(l).rank(); }
int depth(const AnyLayout& l) { return depth(shape(l)); }

int64_t cosize(const AnyLayout& l) {
  if (const Layout* p = std::get_if<Layout>(&l)) return cosize(*p);
  return cosize(std::get<ComposedLayout>(l).layout_b());
}

int64_t evaluate(const AnyLayout& l, int64_t index) {
  if (const Layout* p = std::get_if<Layout>(&l)) return (*p)(index);
  return std::get<ComposedLayout>(l)(index);
}

std::vector<int64_t> layout_values(const AnyLayout& l) {
  if (const Layout* p = std::get_if<Layout>(&l)) return layout_values(*p);
  const auto& c = std::get<ComposedLayout>(l);
  std::vector<int64_t> v = layout_values(c.layout_b());
  if (c.a_is_swizzle()) {
    Swizzle sw = c.smem_bits() ? recast_swizzle(c.swizzle(), 8, c.element_bits()) : c.swizzle();
    for (auto& x : v) x = sw(checked_add(c.offset(), x));
  } else {
    for (auto& x : v) x = c.layout_a()(checked_add(c.offset(), x));
  }
  return v;
}

const Layout& as_layout(const AnyLayout& l, const char* what) {
  if (const Layout* p = std::get_if<Layout>(&l)) return *p;
  throw Error(std::string(what) + " needs a plain layout, not the composed layout " + to_string(l));
}

AnyLayout as_position_independent(const AnyLayout& l) {
  const auto* c = std::get_if<ComposedLayout>(&l);
  if (!c || !c->smem_bits() || !c->a_is_swizzle()) return l;
  return compose3(recast_swizzle(c->swizzle(), 8, c->element_bits()), 0, c->layout_b());
}

AnyLayout get(const AnyLayout& l, size_t mode) {
  return dispatch(
      l, [&](const Layout& x) -> AnyLayout { return get(x, mode); },
      [&](const ComposedLayout& c) { return map_b(c, [&](const AnyLayout& b) { return get(b, mode); }); });
}

AnyLayout flatten(const AnyLayout& l) {
  return dispatch(
      l, [](const Layout& x) -> AnyLayout { return flatten(x); },
      [](const ComposedLayout& c) { return map_b(c, [](const AnyLayout& b) { return flatten(b); }); });
}

// CuTe: take<B,E>(A o O o B) = A o O o take<B,E>(B)
AnyLayout take(const AnyLayout& l, size_t begin, size_t end) {
  return dispatch(
      l, [&](const Layout& x) -> AnyLayout { return take(x, begin, end); },
      [&](const ComposedLayout& c) { return map_b(c, [&](const AnyLayout& b) { return take(b, begin, end); }); });
}

// CuTe: group<B,E>(A o O o B) = A o O o group<B,E>(B)
AnyLayout group(const AnyLayout& l, size_t begin, size_t end) {
  return dispatch(
      l, [&](const Layout& x) -> AnyLayout { return group(x, begin, end); },
      [&](const ComposedLayout& c) { return map_b(c, [&](const AnyLayout& b) { return group(b, begin, end); }); });
}

AnyLayout coalesce(const AnyLayout& l) {
  return dispatch(
      l, [](const Layout& x) -> AnyLayout { return coalesce(x); },
      [](const ComposedLayout& c) { return map_b(c, [](const AnyLayout& b) { return coalesce(b); }); });
}

AnyLayout coalesce(const AnyLayout& l, const IntTuple& profile) {
  return dispatch(
      l, [&](const Layout& x) -> AnyLayout { return coalesce(x, profile); },
      [&](const ComposedLayout& c) { return map_b(c, [&](const AnyLayout& b) { return coalesce(b, profile); }); });
}

AnyLayout filter(const AnyLayout& l) {
  return dispatch(
      l, [](const Layout& x) -> AnyLayout { return filter(x); },
      [](const ComposedLayout& c) { return map_b(c, [](const AnyLayout& b) { return filter(b); }); });
}

AnyLayout filter(const AnyLayout& l, const IntTuple& profile) {
  return dispatch(
      l, [&](const Layout& x) -> AnyLayout { return filter(x, profile); },
      [&](const ComposedLayout& c) { return map_b(c, [&](const AnyLayout& b) { return filter(b, profile); }); });
}

AnyLayout composition(const Swizzle& a, const AnyLayout& b) { return compose3(a, 0, b); }

AnyLayout composition(const AnyLayout& a, const Swizzle& b) {
  return dispatch(
      a,
      [&](const Layout& x) -> AnyLayout {
        // the swizzle's active bits seen through x: make_swizzle<x(Y), x(Z)>
        return compose3(make_swizzle(x(b.yyy_mask()), x(b.zzz_mask())), 0, x);
      },
      [&](const ComposedLayout& c) { return map_b(c, [&](const AnyLayout& inner) { return composition(inner, b); }); });
}

AnyLayout composition(const AnyLayout& a, const AnyLayout& b) {
  if (const auto* ca = std::get_if<ComposedLayout>(&a))
    return map_b(*ca, [&](const AnyLayout& inner) { return composition(inner, b); });
  const Layout& la = std::get<Layout>(a);
  if (const Layout* lb = std::get_if<Layout>(&b)) return composition(la, *lb);
  const auto& cb = std::get<ComposedLayout>(b);
  if (cb.offset() != 0) throw Error("composition with a composed layout requires its offset to be 0");
  AnyLayout first =
      cb.a_is_swizzle() ? composition(AnyLayout(la), cb.swizzle()) : AnyLayout(composition(la, cb.layout_a()));
  return composition(first, cb.layout_b());
}

AnyLayout composition(const AnyLayout& a, const Tiler& b) {
  return dispatch(
      a, [&](const Layout& x) -> AnyLayout { return composition(x, b); },
      [&](const ComposedLayout& c) { return map_b(c, [&](const AnyLayout& inner) { return composition(inner, b); }); });
}

Layout complement(const AnyLayout& l) {
  if (const Layout* p = std::get_if<Layout>(&l)) return complement(*p);
  return complement(std::get<ComposedLayout>(l).layout_b(), IntTuple(cosize(l)));
}

Layout complement(const AnyLayout& l, const IntTuple& cotarget) {
  if (const Layout* p = std::get_if<Layout>(&l)) return complement(*p, cotarget);
  return complement(std::get<ComposedLayout>(l).layout_b(), cotarget);
}

namespace {

template <class Inv>
AnyLayout inverse_of(const AnyLayout& l, Inv&& inv, const char* name) {
  if (const Layout* p = std::get_if<Layout>(&l)) return inv(*p);
  const auto& c = std::get<ComposedLayout>(l);
  if (c.smem_bits())
    throw Error(std::string(name) +
                " of a composed layout with an smem_ptr flag is not defined; evaluate it position-independently first");
  AnyLayout inv_b = inverse_of(c.layout_b(), inv, name);
  if (c.a_is_swizzle()) {
    if (c.offset() != 0) throw Error(std::string(name) + " of a swizzle with a non-zero offset is not supported");
    return composition(inv_b, c.swizzle());  // a swizzle is its own inverse
  }
  const Layout* lb = std::get_if<Layout>(&inv_b);
  if (!lb) throw Error(std::string(name) + " of this nested composed layout is not supported");
  AnyLayout inv_a = inv(c.layout_a());
  return compose3(*lb, checked_sub(0, c.offset()), inv_a);
}

}  // namespace

AnyLayout right_inverse(const AnyLayout& l) {
  return inverse_of(
      l, [](const Layout& x) { return right_inverse(x); }, "right_inverse");
}

AnyLayout left_inverse(const AnyLayout& l) {
  return inverse_of(
      l, [](const Layout& x) { return left_inverse(x); }, "left_inverse");
}

#define CUTEVIS_MAP_B_TILER(NAME, TILER_T)                                                                  \
  AnyLayout NAME(const AnyLayout& l, const TILER_T& t) {                                                    \
    return dispatch(                                                                                        \
        l, [&](const Layout& x) -> AnyLayout { return NAME(x, t); },                                        \
        [&](const ComposedLayout& c) { return map_b(c, [&](const AnyLayout& b) { return NAME(b, t); }); }); \
  }

CUTEVIS_MAP_B_TILER(logical_divide, Tiler)
CUTEVIS_MAP_B_TILER(zipped_divide, Tiler)
CUTEVIS_MAP_B_TILER(tiled_divide, Tiler)
CUTEVIS_MAP_B_TILER(flat_divide, Tiler)
CUTEVIS_MAP_B_TILER(logical_product, Tiler)
CUTEVIS_MAP_B_TILER(zipped_product, Tiler)
CUTEVIS_MAP_B_TILER(tiled_product, Tiler)
CUTEVIS_MAP_B_TILER(flat_product, Tiler)
CUTEVIS_MAP_B_TILER(blocked_product, Layout)
CUTEVIS_MAP_B_TILER(raked_product, Layout)
CUTEVIS_MAP_B_TILER(tile_to_shape, IntTuple)
#undef CUTEVIS_MAP_B_TILER

AnyLayout tile_to_shape(const AnyLayout& l, const IntTuple& shape, const IntTuple& order) {
  return dispatch(
      l, [&](const Layout& x) -> AnyLayout { return tile_to_shape(x, shape, order); },
      [&](const ComposedLayout& c) {
        return map_b(c, [&](const AnyLayout& b) { return tile_to_shape(b, shape, order); });
      });
}

AnyLayout upcast(const AnyLayout& l, int64_t n) {
  if (const Layout* p = std::get_if<Layout>(&l)) return upcast(*p, n);
  const auto& c = std::get<ComposedLayout>(l);
  refuse_sparse_recast(c, "upcast");
  AnyLayout b = upcast(c.layout_b(), n);
  if (c.smem_bits()) return ComposedLayout::smem(c.swizzle(), static_cast<int>(checked_mul(c.smem_bits(), n)), b);
  if (c.offset() % n != 0)
    throw Error("upcast: offset " + std::to_string(c.offset()) + " is not divisible by " + std::to_string(n));
  if (c.a_is_swizzle()) return compose3(upcast(c.swizzle(), n), c.offset() / n, b);
  return compose3(upcast(c.layout_a(), n), c.offset() / n, b);
}

AnyLayout downcast(const AnyLayout& l, int64_t n) {
  if (const Layout* p = std::get_if<Layout>(&l)) return downcast(*p, n);
  const auto& c = std::get<ComposedLayout>(l);
  refuse_sparse_recast(c, "downcast");
  AnyLayout b = downcast(c.layout_b(), n);
  if (c.smem_bits()) {
    if (c.smem_bits() % n != 0)
      throw Error("downcast: smem_ptr[" + std::to_string(c.smem_bits()) + "b] is not divisible by " +
                  std::to_string(n));
    return ComposedLayout::smem(c.swizzle(), static_cast<int>(c.smem_bits() / n), b);
  }
  if (c.a_is_swizzle()) return compose3(downcast(c.swizzle(), n), checked_mul(c.offset(), n), b);
  return compose3(downcast(c.layout_a(), n), checked_mul(c.offset(), n), b);
}

AnyLayout recast_layout(const AnyLayout& l, int64_t old_bits, int64_t new_bits) {
  return recast_by_ratio(
      l, old_bits, new_bits, [](const AnyLayout& x, int64_t n) { return upcast(x, n); },
      [](const AnyLayout& x, int64_t n) { return downcast(x, n); });
}

int64_t max_common_vector(const AnyLayout& a, const AnyLayout& b) {
  const auto* ca = std::get_if<ComposedLayout>(&a);
  const auto* cb = std::get_if<ComposedLayout>(&b);
  if (!ca && !cb) return max_common_vector(std::get<Layout>(a), std::get<Layout>(b));
  auto base_of = [](const ComposedLayout& c) {
    if (!c.a_is_swizzle()) throw Error("max_common_vector: only swizzled composed layouts are supported");
    return int64_t{1} << c.swizzle().base;
  };
  if (ca && cb) {
    int64_t vec = max_common_vector(ca->layout_b(), cb->layout_b());
    if (ca->a_is_swizzle() && cb->a_is_swizzle() && ca->swizzle() == cb->swizzle()) return vec;
    return std::min({vec, base_of(*ca), base_of(*cb)});
  }
  const ComposedLayout& c = ca ? *ca : *cb;
  const AnyLayout& other = ca ? b : a;
  return std::min(max_common_vector(c.layout_b(), other), base_of(c));
}

}  // namespace cutevis
