#include "lib/int_tuple.hpp"

#include <algorithm>
#include <limits>

namespace cutevis {

// --- checked arithmetic ------------------------------------------------------

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw Error("integer overflow in " + std::to_string(a) + " + " + std::to_string(b));
  return r;
}
int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw Error("integer overflow in " + std::to_string(a) + " - " + std::to_string(b));
  return r;
}
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw Error("integer overflow in " + std::to_string(a) + " * " + std::to_string(b));
  return r;
}
int64_t checked_div(int64_t a, int64_t b) {
  if (b == 0) throw Error("division by zero");
  if (a == std::numeric_limits<int64_t>::min() && b == -1) throw Error("integer overflow in division");
  return a / b;
}
int64_t checked_mod(int64_t a, int64_t b) {
  if (b == 0) throw Error("modulo by zero");
  if (b == -1) return 0;
  return a % b;
}
int64_t ceil_div(int64_t a, int64_t b) { return checked_div(checked_sub(checked_add(a, b), 1), b); }

// --- Basis -------------------------------------------------------------------

bool Basis::operator==(const Basis& other) const {
  return depth == other.depth && std::equal(path, path + depth, other.path);
}

Basis Basis::of(const std::vector<int>& modes) {
  if (modes.size() > static_cast<size_t>(kMaxDepth)) throw Error("basis element nested too deeply");
  Basis b;
  b.depth = static_cast<uint8_t>(modes.size());
  for (size_t i = 0; i < modes.size(); ++i) {
    if (modes[i] < 0 || modes[i] > 255) throw Error("basis mode out of range");
    b.path[i] = static_cast<uint8_t>(modes[i]);
  }
  return b;
}

// --- IntTuple ------------------------------------------------------------------

IntTuple IntTuple::tuple(std::vector<IntTuple> modes) {
  IntTuple t;
  t.leaf_ = false;
  t.modes_ = std::move(modes);
  return t;
}

IntTuple IntTuple::scaled_basis(int64_t value, Basis basis) {
  IntTuple t(value);
  t.basis_ = basis;
  return t;
}

int64_t IntTuple::value() const {
  if (!leaf_) throw Error("expected an integer, got the tuple " + to_string(*this));
  return value_;
}

const IntTuple& IntTuple::operator[](size_t i) const {
  if (leaf_) {
    if (i != 0) throw Error("mode " + std::to_string(i) + " out of range for " + to_string(*this));
    return *this;
  }
  if (i >= modes_.size()) throw Error("mode " + std::to_string(i) + " out of range for " + to_string(*this));
  return modes_[i];
}

IntTuple& IntTuple::operator[](size_t i) {
  return const_cast<IntTuple&>(static_cast<const IntTuple&>(*this)[i]);
}

bool IntTuple::operator==(const IntTuple& other) const {
  if (leaf_ != other.leaf_) return false;
  if (leaf_) return value_ == other.value_ && basis_ == other.basis_;
  return modes_ == other.modes_;
}

IntTuple make_tuple(std::vector<IntTuple> modes) { return IntTuple::tuple(std::move(modes)); }

// --- printing ------------------------------------------------------------------

static void print_into(std::string& out, const IntTuple& t, bool underscore) {
  if (t.is_leaf()) {
    if (underscore) out += '_';
    out += std::to_string(t.value());
    const Basis& b = t.basis();
    for (int i = b.depth - 1; i >= 0; --i) {  // CuTe prints E<1,0> as @0@1
      out += '@';
      out += std::to_string(b.path[i]);
    }
    return;
  }
  out += '(';
  for (size_t i = 0; i < t.modes().size(); ++i) {
    if (i) out += ',';
    print_into(out, t.modes()[i], underscore);
  }
  out += ')';
}

std::string to_string(const IntTuple& t, bool underscore) {
  std::string out;
  print_into(out, t, underscore);
  return out;
}

// --- structure -------------------------------------------------------------------

int depth(const IntTuple& t) {
  if (t.is_leaf()) return 0;
  int d = 0;
  for (const auto& m : t.modes()) d = std::max(d, depth(m));
  return d + 1;
}

int64_t size(const IntTuple& t) {
  if (t.is_leaf()) return t.value();
  int64_t p = 1;
  for (const auto& m : t.modes()) p = checked_mul(p, size(m));
  return p;
}

int64_t sum(const IntTuple& t) {
  if (t.is_leaf()) return t.value();
  int64_t s = 0;
  for (const auto& m : t.modes()) s = checked_add(s, sum(m));
  return s;
}

static void flatten_into(std::vector<IntTuple>& out, const IntTuple& t) {
  if (t.is_leaf()) {
    out.push_back(t);
    return;
  }
  for (const auto& m : t.modes()) flatten_into(out, m);
}

std::vector<IntTuple> flatten_leaves(const IntTuple& t) {
  std::vector<IntTuple> out;
  flatten_into(out, t);
  return out;
}

IntTuple flatten(const IntTuple& t) {
  if (t.is_leaf()) return t;
  return IntTuple::tuple(flatten_leaves(t));
}

std::vector<int64_t> flatten_values(const IntTuple& t) {
  std::vector<int64_t> out;
  for (const auto& leaf : flatten_leaves(t)) {
    if (!leaf.basis().empty()) throw Error("expected integers, got the basis element " + to_string(leaf));
    out.push_back(leaf.value());
  }
  return out;
}

static IntTuple unflatten_from(const std::vector<IntTuple>& flat, size_t& pos, const IntTuple& profile) {
  if (profile.is_leaf()) {
    if (pos >= flat.size()) throw Error("unflatten: not enough elements");
    return flat[pos++];
  }
  std::vector<IntTuple> modes;
  modes.reserve(profile.rank());
  for (const auto& p : profile.modes()) modes.push_back(unflatten_from(flat, pos, p));
  return IntTuple::tuple(std::move(modes));
}

IntTuple unflatten(const IntTuple& flat, const IntTuple& profile) {
  std::vector<IntTuple> leaves = flat.is_leaf() ? std::vector<IntTuple>{flat} : flat.modes();
  size_t pos = 0;
  IntTuple r = unflatten_from(leaves, pos, profile);
  if (pos != leaves.size()) throw Error("unflatten: too many elements");
  return r;
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() || b.is_leaf()) return a.is_leaf() && b.is_leaf();
  if (a.rank() != b.rank()) return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!congruent(a[i], b[i])) return false;
  return true;
}

bool weakly_congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return true;
  if (b.is_leaf()) return false;
  if (a.rank() != b.rank()) return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!weakly_congruent(a[i], b[i])) return false;
  return true;
}

bool compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return a.value() == size(b);
  if (b.is_leaf()) return false;
  if (a.rank() != b.rank()) return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!compatible(a[i], b[i])) return false;
  return true;
}

bool has_basis(const IntTuple& t) {
  if (t.is_leaf()) return !t.basis().empty();
  for (const auto& m : t.modes())
    if (has_basis(m)) return true;
  return false;
}

IntTuple wrap(const IntTuple& t) { return t.is_tuple() ? t : IntTuple::tuple({t}); }

IntTuple unwrap(const IntTuple& t) {
  if (t.is_tuple() && t.rank() == 1) return unwrap(t[0]);
  return t;
}

IntTuple append(const IntTuple& t, const IntTuple& x) {
  if (t.is_leaf()) return IntTuple::tuple({t, x});
  IntTuple r = t;
  r.modes().push_back(x);
  return r;
}

IntTuple prepend(const IntTuple& t, const IntTuple& x) {
  if (t.is_leaf()) return IntTuple::tuple({x, t});
  IntTuple r = t;
  r.modes().insert(r.modes().begin(), x);
  return r;
}

IntTuple append_to_rank(const IntTuple& t, size_t n, const IntTuple& x) {
  if (t.is_leaf()) {
    if (n <= 1) return t;
    std::vector<IntTuple> m{t};
    m.resize(n, x);
    return IntTuple::tuple(std::move(m));
  }
  if (n < t.rank()) throw Error("append: rank " + std::to_string(t.rank()) + " exceeds " + std::to_string(n));
  IntTuple r = t;
  r.modes().resize(n, x);
  return r;
}

IntTuple prepend_to_rank(const IntTuple& t, size_t n, const IntTuple& x) {
  std::vector<IntTuple> m = t.is_leaf() ? std::vector<IntTuple>{t} : t.modes();
  if (t.is_leaf() && n <= 1) return t;
  if (n < m.size()) throw Error("prepend: rank " + std::to_string(m.size()) + " exceeds " + std::to_string(n));
  m.insert(m.begin(), n - m.size(), x);
  return IntTuple::tuple(std::move(m));
}

IntTuple take(const IntTuple& t, size_t begin, size_t end) {
  if (begin > end || end > t.rank()) throw Error("take<" + std::to_string(begin) + "," + std::to_string(end) + ">: out of range for rank " + std::to_string(t.rank()));
  std::vector<IntTuple> m;
  for (size_t i = begin; i < end; ++i) m.push_back(t[i]);
  return IntTuple::tuple(std::move(m));
}

IntTuple select(const IntTuple& t, const std::vector<size_t>& modes) {
  std::vector<IntTuple> m;
  for (size_t i : modes) m.push_back(t[i]);
  return IntTuple::tuple(std::move(m));
}

IntTuple remove_mode(const IntTuple& t, size_t i) {
  std::vector<IntTuple> m = t.is_leaf() ? std::vector<IntTuple>{t} : t.modes();
  if (i >= m.size()) throw Error("remove: mode out of range");
  m.erase(m.begin() + static_cast<std::ptrdiff_t>(i));
  return IntTuple::tuple(std::move(m));
}

IntTuple replace_mode(const IntTuple& t, size_t i, const IntTuple& x) {
  if (t.is_leaf()) {
    if (i != 0) throw Error("replace: mode out of range");
    return x;
  }
  IntTuple r = t;
  r[i] = x;
  return r;
}

IntTuple group(const IntTuple& t, size_t begin, size_t end) {
  std::vector<IntTuple> m = t.is_leaf() ? std::vector<IntTuple>{t} : t.modes();
  if (begin > end || end > m.size()) throw Error("group<" + std::to_string(begin) + "," + std::to_string(end) + ">: out of range");
  std::vector<IntTuple> out(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(begin));
  if (begin < end) out.push_back(IntTuple::tuple(std::vector<IntTuple>(m.begin() + static_cast<std::ptrdiff_t>(begin), m.begin() + static_cast<std::ptrdiff_t>(end))));
  out.insert(out.end(), m.begin() + static_cast<std::ptrdiff_t>(end), m.end());
  return IntTuple::tuple(std::move(out));
}

IntTuple reverse(const IntTuple& t) {
  if (t.is_leaf()) return t;
  std::vector<IntTuple> m = t.modes();
  std::reverse(m.begin(), m.end());
  return IntTuple::tuple(std::move(m));
}

IntTuple repeat_like(const IntTuple& t, int64_t value) {
  if (t.is_leaf()) return IntTuple(value);
  std::vector<IntTuple> m;
  m.reserve(t.rank());
  for (const auto& x : t.modes()) m.push_back(repeat_like(x, value));
  return IntTuple::tuple(std::move(m));
}

IntTuple product_each(const IntTuple& t) {
  IntTuple w = wrap(t);
  std::vector<IntTuple> m;
  for (const auto& x : w.modes()) m.push_back(size(x));
  return IntTuple::tuple(std::move(m));
}

IntTuple zip(const IntTuple& t) {
  if (t.is_leaf()) return t;
  if (t.rank() == 0 || t[0].is_leaf()) return IntTuple::tuple({t});
  size_t r = t[0].rank();
  for (const auto& x : t.modes())
    if (x.is_leaf() || x.rank() != r) throw Error("zip: mismatched ranks in " + to_string(t));
  std::vector<IntTuple> out;
  for (size_t j = 0; j < r; ++j) {
    std::vector<IntTuple> col;
    for (const auto& x : t.modes()) col.push_back(x[j]);
    out.push_back(IntTuple::tuple(std::move(col)));
  }
  return IntTuple::tuple(std::move(out));
}

IntTuple zip(const IntTuple& a, const IntTuple& b) { return zip(IntTuple::tuple({a, b})); }

IntTuple zip2_by(const IntTuple& t, const IntTuple& guide) {
  if (guide.is_leaf()) {
    if (t.rank() != 2 || t.is_leaf()) throw Error("zip2_by: expected a rank-2 mode, got " + to_string(t));
    return t;
  }
  if (t.is_leaf() || t.rank() < guide.rank()) throw Error("zip2_by: mismatched ranks");
  std::vector<IntTuple> first, second;
  for (size_t i = 0; i < guide.rank(); ++i) {
    IntTuple split = zip2_by(t[i], guide[i]);
    first.push_back(split[0]);
    second.push_back(split[1]);
  }
  for (size_t j = guide.rank(); j < t.rank(); ++j) second.push_back(t[j]);
  return IntTuple::tuple({IntTuple::tuple(std::move(first)), IntTuple::tuple(std::move(second))});
}

// --- arithmetic ------------------------------------------------------------------

IntTuple ceil_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (b.is_tuple()) {  // missing ranks of b are 1
      if (a.rank() < b.rank()) throw Error("ceil_div: mismatched ranks");
      std::vector<IntTuple> m;
      for (size_t i = 0; i < a.rank(); ++i) m.push_back(i < b.rank() ? ceil_div(a[i], b[i]) : a[i]);
      return IntTuple::tuple(std::move(m));
    }
    std::vector<IntTuple> m;
    IntTuple rest = b;
    for (const auto& ai : a.modes()) {
      m.push_back(ceil_div(ai, rest));
      rest = ceil_div(rest, ai);
    }
    return IntTuple::tuple(std::move(m));
  }
  if (b.is_tuple()) return ceil_div(a, IntTuple(size(b)));
  return ceil_div(a.value(), b.value());
}

IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (b.is_tuple()) {
      if (a.rank() != b.rank()) throw Error("shape_div: mismatched ranks");
      std::vector<IntTuple> m;
      for (size_t i = 0; i < a.rank(); ++i) m.push_back(shape_div(a[i], b[i]));
      return IntTuple::tuple(std::move(m));
    }
    std::vector<IntTuple> m;
    IntTuple rest = b;
    for (const auto& ai : a.modes()) {
      m.push_back(shape_div(ai, rest));
      rest = shape_div(rest, ai);
    }
    return IntTuple::tuple(std::move(m));
  }
  if (b.is_tuple()) return shape_div(a, IntTuple(size(b)));
  int64_t x = a.value(), y = b.value();
  if (y == 0 || (x % y != 0 && y % x != 0))
    throw Error("divisibility condition violated: shape_div(" + std::to_string(x) + ", " + std::to_string(y) + ")");
  return ceil_div(x, y);
}

IntTuple elem_scale(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (b.is_leaf() || a.rank() != b.rank()) throw Error("elem_scale: mismatched ranks");
    std::vector<IntTuple> m;
    for (size_t i = 0; i < a.rank(); ++i) m.push_back(elem_scale(a[i], b[i]));
    return IntTuple::tuple(std::move(m));
  }
  return checked_mul(a.value(), size(b));
}

IntTuple filter_zeros(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (b.is_leaf() || a.rank() != b.rank()) throw Error("filter_zeros: mismatched ranks");
    std::vector<IntTuple> m;
    for (size_t i = 0; i < a.rank(); ++i) m.push_back(filter_zeros(a[i], b[i]));
    return IntTuple::tuple(std::move(m));
  }
  if (a.is_integer() && a.value() == 0) return repeat_like(b, 1);
  return b;
}

IntTuple leaf_mul(const IntTuple& leaf, int64_t factor) {
  return IntTuple::scaled_basis(checked_mul(leaf.value(), factor), leaf.basis());
}

IntTuple scale_leaves(const IntTuple& t, int64_t factor) {
  if (t.is_leaf()) return leaf_mul(t, factor);
  std::vector<IntTuple> m;
  m.reserve(t.rank());
  for (const auto& x : t.modes()) m.push_back(scale_leaves(x, factor));
  return IntTuple::tuple(std::move(m));
}

bool elem_less(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() && b.is_tuple()) {
    for (size_t i = 0; i < a.rank(); ++i) {
      if (i >= b.rank()) return false;
      if (!elem_less(a[i], b[i])) return false;
    }
    return true;
  }
  return a.value() < b.value();
}

// --- arithmetic tuples ---------------------------------------------------------

void add_scaled_basis(IntTuple& acc, int64_t value, const Basis& basis) {
  IntTuple* node = &acc;
  for (int d = 0; d < basis.depth; ++d) {
    size_t mode = basis.path[d];
    if (node->is_leaf()) {
      if (node->value() != 0) throw Error("cannot add a basis element to the integer " + std::to_string(node->value()));
      *node = IntTuple::tuple({});
    }
    if (node->modes().size() <= mode) node->modes().resize(mode + 1, IntTuple(0));
    node = &node->modes()[mode];
  }
  if (node->is_tuple()) throw Error("cannot add an integer to a coordinate tuple");
  *node = IntTuple(checked_add(node->value(), value));
}

IntTuple as_arithmetic_tuple(const IntTuple& t) {
  if (t.is_leaf()) {
    if (t.basis().empty()) return t;
    IntTuple acc(0);
    add_scaled_basis(acc, t.value(), t.basis());
    return acc;
  }
  std::vector<IntTuple> m;
  for (const auto& x : t.modes()) m.push_back(as_arithmetic_tuple(x));
  return IntTuple::tuple(std::move(m));
}

IntTuple tuple_add(const IntTuple& a0, const IntTuple& b0) {
  IntTuple a = as_arithmetic_tuple(a0), b = as_arithmetic_tuple(b0);
  if (a.is_leaf() && b.is_leaf()) return checked_add(a.value(), b.value());
  if (a.is_leaf()) {
    if (a.value() != 0) throw Error("cannot add " + to_string(a) + " to the coordinate " + to_string(b));
    return b;
  }
  if (b.is_leaf()) {
    if (b.value() != 0) throw Error("cannot add " + to_string(b) + " to the coordinate " + to_string(a));
    return a;
  }
  std::vector<IntTuple> m(std::max(a.rank(), b.rank()), IntTuple(0));
  for (size_t i = 0; i < m.size(); ++i) {
    IntTuple x = i < a.rank() ? a[i] : IntTuple(0);
    IntTuple y = i < b.rank() ? b[i] : IntTuple(0);
    m[i] = tuple_add(x, y);
  }
  return IntTuple::tuple(std::move(m));
}

// --- coordinates -----------------------------------------------------------------

static IntTuple stride_times(int64_t coord, const IntTuple& stride) {
  if (stride.is_tuple()) throw Error("mismatched ranks: coordinate " + std::to_string(coord) + " against stride " + to_string(stride));
  return leaf_mul(stride, coord);
}

IntTuple crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (coord.is_tuple()) {
    if (shape.is_leaf() || coord.rank() != shape.rank() || stride.is_leaf() || stride.rank() != shape.rank())
      throw Error("mismatched ranks: coordinate " + to_string(coord) + " for shape " + to_string(shape));
    IntTuple acc(0);
    for (size_t i = 0; i < coord.rank(); ++i) acc = tuple_add(acc, crd2idx(coord[i], shape[i], stride[i]));
    return acc;
  }
  if (shape.is_tuple()) {
    if (stride.is_leaf() || stride.rank() != shape.rank())
      throw Error("mismatched ranks: shape " + to_string(shape) + " against stride " + to_string(stride));
    if (shape.rank() == 0) return IntTuple(0);
    IntTuple acc(0);
    int64_t c = coord.value();
    for (size_t i = 0; i + 1 < shape.rank(); ++i) {
      int64_t s = size(shape[i]);
      acc = tuple_add(acc, crd2idx(IntTuple(checked_mod(c, s)), shape[i], stride[i]));
      c = checked_div(c, s);
    }
    return tuple_add(acc, crd2idx(IntTuple(c), shape[shape.rank() - 1], stride[shape.rank() - 1]));
  }
  return stride_times(coord.value(), stride);
}

int64_t crd2idx(const IntTuple& coord, const IntTuple& shape) {
  if (coord.is_leaf()) return coord.value();
  if (shape.is_leaf() || coord.rank() != shape.rank())
    throw Error("mismatched ranks: coordinate " + to_string(coord) + " for shape " + to_string(shape));
  // colexicographic: i = c0 + s0 * (c1 + s1 * (...)), each mode's index recursively
  int64_t idx = 0, mult = 1;
  for (size_t i = 0; i < coord.rank(); ++i) {
    idx = checked_add(idx, checked_mul(mult, crd2idx(coord[i], shape[i])));
    mult = checked_mul(mult, size(shape[i]));
  }
  return idx;
}

IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape) {
  if (idx.is_tuple()) {
    if (shape.is_leaf() || idx.rank() != shape.rank()) throw Error("mismatched ranks: index " + to_string(idx) + " for shape " + to_string(shape));
    std::vector<IntTuple> m;
    for (size_t i = 0; i < idx.rank(); ++i) m.push_back(idx2crd(idx[i], shape[i]));
    return IntTuple::tuple(std::move(m));
  }
  if (shape.is_leaf()) return idx;
  int64_t c = idx.value();
  std::vector<IntTuple> m;
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (i + 1 < shape.rank()) {
      int64_t s = size(shape[i]);
      m.push_back(idx2crd(IntTuple(checked_mod(c, s)), shape[i]));
      c = checked_div(c, s);
    } else {
      m.push_back(idx2crd(IntTuple(c), shape[i]));
    }
  }
  return IntTuple::tuple(std::move(m));
}

IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape, const IntTuple& stride) {
  if (idx.is_tuple()) {
    if (shape.is_leaf() || stride.is_leaf() || idx.rank() != shape.rank() || idx.rank() != stride.rank())
      throw Error("mismatched ranks in idx2crd");
    std::vector<IntTuple> m;
    for (size_t i = 0; i < idx.rank(); ++i) m.push_back(idx2crd(idx[i], shape[i], stride[i]));
    return IntTuple::tuple(std::move(m));
  }
  if (shape.is_tuple()) {
    IntTuple d = stride.is_tuple() ? stride : compact_col_major(shape, stride.value());
    if (d.rank() != shape.rank()) throw Error("mismatched ranks in idx2crd");
    std::vector<IntTuple> m;
    for (size_t i = 0; i < shape.rank(); ++i) m.push_back(idx2crd(idx, shape[i], d[i]));
    return IntTuple::tuple(std::move(m));
  }
  if (shape.value() == 1) return IntTuple(0);
  return checked_mod(checked_div(idx.value(), stride.value()), shape.value());
}

// --- compact strides ---------------------------------------------------------------

static IntTuple compact_left(const IntTuple& shape, int64_t& current) {
  if (shape.is_leaf()) {
    if (shape.value() == 1) return IntTuple(0);  // static _1 gets stride _0
    IntTuple d(current);
    current = checked_mul(current, shape.value());
    return d;
  }
  std::vector<IntTuple> m;
  m.reserve(shape.rank());
  for (const auto& s : shape.modes()) m.push_back(compact_left(s, current));
  return IntTuple::tuple(std::move(m));
}

static IntTuple compact_right(const IntTuple& shape, int64_t& current) {
  if (shape.is_leaf()) return compact_left(shape, current);
  std::vector<IntTuple> m(shape.rank());
  for (size_t i = shape.rank(); i-- > 0;) m[i] = compact_right(shape[i], current);
  return IntTuple::tuple(std::move(m));
}

IntTuple compact_col_major(const IntTuple& shape, int64_t current) { return compact_left(shape, current); }
IntTuple compact_row_major(const IntTuple& shape, int64_t current) { return compact_right(shape, current); }

// product_like(shape, order): for every leaf of order, the size of the matching sub-shape
static void ref_shapes(const IntTuple& shape, const IntTuple& order, std::vector<int64_t>& sizes, std::vector<int64_t>& orders) {
  if (order.is_tuple()) {
    if (shape.is_leaf() || shape.rank() != order.rank()) throw Error("compact_order: shape " + to_string(shape) + " and order " + to_string(order) + " differ in rank");
    for (size_t i = 0; i < order.rank(); ++i) ref_shapes(shape[i], order[i], sizes, orders);
    return;
  }
  sizes.push_back(size(shape));
  orders.push_back(order.value());
}

static IntTuple compact_order_impl(const IntTuple& shape, const IntTuple& order, const std::vector<int64_t>& sizes, const std::vector<int64_t>& orders) {
  if (order.is_tuple()) {
    std::vector<IntTuple> m;
    for (size_t i = 0; i < order.rank(); ++i) m.push_back(compact_order_impl(shape[i], order[i], sizes, orders));
    return IntTuple::tuple(std::move(m));
  }
  int64_t start = 1;
  for (size_t j = 0; j < sizes.size(); ++j)
    if (orders[j] < order.value()) start = checked_mul(start, sizes[j]);
  return compact_col_major(shape, start);
}

IntTuple compact_order(const IntTuple& shape, const IntTuple& order) {
  std::vector<int64_t> sizes, orders;
  ref_shapes(shape, order, sizes, orders);
  return compact_order_impl(shape, order, sizes, orders);
}

static IntTuple basis_like(const IntTuple& shape, std::vector<int>& path) {
  if (shape.is_leaf()) return IntTuple::scaled_basis(1, Basis::of(path));
  std::vector<IntTuple> m;
  for (size_t i = 0; i < shape.rank(); ++i) {
    path.push_back(static_cast<int>(i));
    m.push_back(basis_like(shape[i], path));
    path.pop_back();
  }
  return IntTuple::tuple(std::move(m));
}

IntTuple make_basis_like(const IntTuple& shape) {
  std::vector<int> path;
  return basis_like(shape, path);
}

}  // namespace cutevis
