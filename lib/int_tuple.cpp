#include "lib/int_tuple.hpp"

#include <algorithm>
#include <limits>

#include "lib/detail/small_vec.hpp"
#include "lib/detail/tuple_builder.hpp"

namespace cutevis {

// --- checked arithmetic ------------------------------------------------------

void throw_overflow(int64_t a, char op, int64_t b) {
  throw Error("integer overflow in " + std::to_string(a) + " " + op + " " + std::to_string(b));
}

void throw_division_error(int64_t, int64_t b) {
  if (b == 0) throw Error("division by zero");
  throw Error("integer overflow in division");
}

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

using TNode = IntTuple::Node;

namespace {

constexpr size_t kMaxNodes = std::numeric_limits<uint32_t>::max();

// The i-th mode of a tuple node, i < rank.
const TNode* child(const TNode* p, size_t i) {
  const TNode* c = p + 1;
  while (i--) c = c->next();
  return c;
}

// The top modes of a node: the node itself for a leaf (CuTe's get<0> of an integer).
SmallVec<const TNode*, 16> modes_of(const TNode* p) {
  SmallVec<const TNode*, 16> out;
  if (p->is_leaf()) {
    out.push_back(p);
    return out;
  }
  for (const TNode *c = p + 1, *e = p->next(); c != e; c = c->next()) out.push_back(c);
  return out;
}

std::string str(const TNode* p) { return to_string(IntTuple::of(p)); }

}  // namespace

void TNode::too_large() { throw Error("tuple too large"); }

TNode TNode::leaf(int64_t v, const Basis& b) {
  uint64_t meta = uint64_t{b.depth} << 8;
  for (int i = 0; i < b.depth; ++i) meta |= uint64_t{b.path[i]} << (16 + 8 * i);
  return TNode{v, meta};
}

Basis TNode::basis() const {
  Basis b;
  if (is_tuple()) return b;
  b.depth = static_cast<uint8_t>(depth());
  for (int i = 0; i < b.depth; ++i) b.path[i] = static_cast<uint8_t>(path(i));
  return b;
}

void IntTuple::assign(const Node* src, size_t n) {
  if (n > cap_) {
    Node* fresh = new Node[n];
    if (on_heap()) delete[] data_;
    data_ = fresh;
    cap_ = static_cast<uint32_t>(n);
  }
  copy_nodes(data(), src, n);
  size_ = static_cast<uint32_t>(n);
}

IntTuple::Node* IntTuple::grow_slow(size_t n) {
  size_t need = size_ + n;
  if (need > kMaxNodes) throw Error("tuple too large");
  if (need > cap_) {
    size_t cap = std::max<size_t>(need, std::min<size_t>(2 * size_t{cap_}, kMaxNodes));
    Node* fresh = new Node[cap];
    std::memcpy(static_cast<void*>(fresh), data(), size_ * sizeof(Node));
    if (on_heap()) delete[] data_;
    data_ = fresh;
    cap_ = static_cast<uint32_t>(cap);
  }
  Node* p = data() + size_;
  size_ = static_cast<uint32_t>(need);
  return p;
}

void IntTuple::Builder::root_mode() {
  if (++roots_ > 1) throw Error("IntTuple::Builder: more than one root");
}

void IntTuple::Builder::open() {
  count_mode();
  *t_.grow_by(1) = Node{static_cast<int64_t>(static_cast<uint64_t>(open_ + 1) << 32), 1};  // parent + 1 while open
  open_ = static_cast<int64_t>(t_.size_) - 1;
}

void IntTuple::Builder::close() {
  Node* h = t_.data() + open_;
  uint64_t v = static_cast<uint64_t>(h->value);
  int64_t parent = static_cast<int64_t>(v >> 32) - 1;
  *h = TNode::header(static_cast<uint32_t>(v), t_.size_ - static_cast<size_t>(open_));
  open_ = parent;
}

void IntTuple::Builder::append(const Node* subtree) {
  count_mode();
  size_t n = subtree->span();
  copy_nodes(t_.grow_by(n), subtree, n);
}

IntTuple IntTuple::Builder::finish() {
  if (open_ >= 0 || roots_ != 1) throw Error("IntTuple::Builder: unbalanced tuple");
  return std::move(t_);
}

void IntTuple::PairBuilder::more_roots() { throw Error("IntTuple::PairBuilder: more than one root"); }

void IntTuple::PairBuilder::not_congruent() { throw Error("IntTuple::PairBuilder: modes are not congruent"); }

void IntTuple::PairBuilder::finish() {
  if (open_ >= 0 || roots_ != 1) throw Error("IntTuple::PairBuilder: unbalanced tuple");
}

IntTuple IntTuple::tuple(std::initializer_list<IntTuple> modes) {
  Builder b;
  b.open();
  for (const auto& m : modes) b.append(m);
  b.close();
  return b.finish();
}

IntTuple IntTuple::tuple(const std::vector<IntTuple>& modes) {
  Builder b;
  b.open();
  for (const auto& m : modes) b.append(m);
  b.close();
  return b.finish();
}

IntTuple IntTuple::scaled_basis(int64_t value, Basis basis) {
  IntTuple t;
  t.small_[0] = Node::leaf(value, basis);
  return t;
}

IntTuple IntTuple::dynamic(int64_t value) {
  IntTuple t;
  t.small_[0] = Node::dynamic_leaf(value);
  return t;
}

IntTuple IntTuple::of(const Node* subtree) {
  IntTuple t;
  t.assign(subtree, subtree->span());
  return t;
}

IntTuple IntTuple::of_leaves(const Node* leaves, size_t n, bool unwrap_one) {
  IntTuple t;
  t.assign_leaves(leaves, n, unwrap_one);
  return t;
}

void IntTuple::assign_leaves(const Node* leaves, size_t n, bool unwrap_one) {
  if (unwrap_one && n == 1) {
    size_ = 1;
    data()[0] = leaves[0];
    return;
  }
  size_ = 0;
  Node* p = grow_by(n + 1);
  p[0] = TNode::header(n, n + 1);
  copy_nodes(p + 1, leaves, n);
}

int64_t IntTuple::value() const {
  if (!is_leaf()) throw Error("expected an integer, got the tuple " + to_string(*this));
  return root().value;
}

const IntTuple::Node* IntTuple::mode_node(size_t i) const {
  const Node* r = data();
  if (r->is_leaf()) {
    if (i != 0) throw Error("mode " + std::to_string(i) + " out of range for " + to_string(*this));
    return r;
  }
  if (i >= r->rank()) throw Error("mode " + std::to_string(i) + " out of range for " + to_string(*this));
  return child(r, i);
}

IntTuple IntTuple::operator[](size_t i) const { return of(mode_node(i)); }

IntTuple IntTuple::Modes::operator[](size_t i) const {
  if (i >= size()) throw Error("mode " + std::to_string(i) + " out of range for " + str(root_));
  return IntTuple::of(child(root_, i));
}

void IntTuple::push_back(const IntTuple& mode) {
  if (is_leaf()) throw Error("push_back: " + to_string(*this) + " is not a tuple");
  if (&mode == this) {  // growing may move the nodes being appended
    IntTuple copy = mode;
    push_back(copy);
    return;
  }
  size_t n = mode.size_;
  size_t rank = root().rank(), span = root().span();
  copy_nodes(grow_by(n), mode.data(), n);
  data()[0] = TNode::header(rank + 1, span + n);
}

IntTuple make_tuple(std::vector<IntTuple> modes) { return IntTuple::tuple(modes); }

// --- printing ------------------------------------------------------------------

static const TNode* print_into(std::string& out, const TNode* p, bool underscore) {
  if (p->is_leaf()) {
    if (underscore && !p->is_dynamic()) out += '_';
    out += std::to_string(p->value);
    for (int i = p->depth() - 1; i >= 0; --i) {  // CuTe prints E<1,0> as @0@1
      out += '@';
      out += std::to_string(p->path(i));
    }
    return p + 1;
  }
  out += '(';
  const TNode* c = p + 1;
  for (size_t i = 0; i < p->rank(); ++i) {
    if (i) out += ',';
    c = print_into(out, c, underscore);
  }
  out += ')';
  return c;
}

std::string to_string(const IntTuple& t, bool underscore) {
  std::string out;
  print_into(out, t.nodes(), underscore);
  return out;
}

// --- structure -------------------------------------------------------------------

namespace {

int depth_of(const TNode* p) {
  if (p->is_leaf()) return 0;
  int d = 0;
  for (const TNode *c = p + 1, *e = p->next(); c != e; c = c->next()) d = std::max(d, depth_of(c));
  return d + 1;
}

int64_t size_of(const TNode* p) {
  if (p->is_leaf()) return p->value;
  int64_t s = 1;
  for (const TNode *c = p + 1, *e = p->next(); c != e; c = c->next()) s = checked_mul(s, size_of(c));
  return s;
}

int64_t sum_of(const TNode* p) {
  if (p->is_leaf()) return p->value;
  int64_t s = 0;
  for (const TNode *c = p + 1, *e = p->next(); c != e; c = c->next()) s = checked_add(s, sum_of(c));
  return s;
}

bool congruent_nodes(const TNode* a, const TNode* b) {
  if (a->is_leaf() || b->is_leaf()) return a->is_leaf() && b->is_leaf();
  if (a->rank() != b->rank() || a->span() != b->span()) return false;
  // same span and rank: congruent iff every header and leaf lines up
  for (size_t i = 1; i < a->span(); ++i) {
    if (a[i].is_tuple() != b[i].is_tuple()) return false;
    if (a[i].is_tuple() && a[i].value != b[i].value) return false;
  }
  return true;
}

bool weakly_congruent_nodes(const TNode* a, const TNode* b) {
  if (a->is_leaf()) return true;
  if (b->is_leaf()) return false;
  if (a->rank() != b->rank()) return false;
  for (const TNode *x = a + 1, *y = b + 1, *e = a->next(); x != e; x = x->next(), y = y->next())
    if (!weakly_congruent_nodes(x, y)) return false;
  return true;
}

bool compatible_nodes(const TNode* a, const TNode* b) {
  if (a->is_leaf()) return a->value == size_of(b);
  if (b->is_leaf()) return false;
  if (a->rank() != b->rank()) return false;
  for (const TNode *x = a + 1, *y = b + 1, *e = a->next(); x != e; x = x->next(), y = y->next())
    if (!compatible_nodes(x, y)) return false;
  return true;
}

}  // namespace

int depth(const IntTuple& t) { return depth_of(t.nodes()); }
int64_t size_by_modes(const IntTuple& t) { return size_of(t.nodes()); }
int64_t sum(const IntTuple& t) { return sum_of(t.nodes()); }

std::vector<IntTuple> flatten_leaves(const IntTuple& t) {
  std::vector<IntTuple> out;
  const TNode* p = t.nodes();
  for (size_t i = 0; i < t.node_count(); ++i)
    if (p[i].is_leaf()) out.push_back(IntTuple::of(p + i));
  return out;
}

IntTuple flatten(const IntTuple& t) {
  if (t.is_leaf()) return t;
  SmallVec<TNode, 32> leaves;
  const TNode* p = t.nodes();
  for (size_t i = 0; i < t.node_count(); ++i)
    if (p[i].is_leaf()) leaves.push_back(p[i]);
  return IntTuple::of_leaves(leaves.data(), leaves.size());
}

std::vector<int64_t> flatten_values(const IntTuple& t) {
  std::vector<int64_t> out;
  const TNode* p = t.nodes();
  for (size_t i = 0; i < t.node_count(); ++i) {
    if (p[i].is_tuple()) continue;
    if (p[i].depth()) throw Error("expected integers, got the basis element " + str(p + i));
    out.push_back(p[i].value);
  }
  return out;
}

namespace {

void unflatten_from(IntTuple::Builder& out, const SmallVec<const TNode*, 16>& flat, size_t& pos, const TNode* profile) {
  if (profile->is_leaf()) {
    if (pos >= flat.size()) throw Error("unflatten: not enough elements");
    out.append(flat[pos++]);
    return;
  }
  out.open();
  for (const TNode *c = profile + 1, *e = profile->next(); c != e; c = c->next()) unflatten_from(out, flat, pos, c);
  out.close();
}

}  // namespace

IntTuple unflatten(const IntTuple& flat, const IntTuple& profile) {
  SmallVec<const TNode*, 16> elements = modes_of(flat.nodes());
  size_t pos = 0;
  IntTuple::Builder b;
  unflatten_from(b, elements, pos, profile.nodes());
  if (pos != elements.size()) throw Error("unflatten: too many elements");
  return b.finish();
}

bool congruent(const IntTuple& a, const IntTuple& b) { return congruent_nodes(a.nodes(), b.nodes()); }
bool weakly_congruent(const IntTuple& a, const IntTuple& b) { return weakly_congruent_nodes(a.nodes(), b.nodes()); }
bool compatible(const IntTuple& a, const IntTuple& b) { return compatible_nodes(a.nodes(), b.nodes()); }

namespace {

IntTuple with_dynamic(const IntTuple& t, bool dynamic) {
  IntTuple r = t;
  TNode* p = r.mutable_nodes();
  for (size_t i = 0; i < r.node_count(); ++i)
    if (p[i].is_leaf()) p[i].meta = dynamic ? (p[i].meta | TNode::kDynamic) : (p[i].meta & ~TNode::kDynamic);
  return r;
}

}  // namespace

IntTuple make_dynamic(const IntTuple& t) { return with_dynamic(t, true); }
IntTuple make_static(const IntTuple& t) { return with_dynamic(t, false); }

namespace {

// size of a subtree: the product of its leaves, static unless one is dynamic
Integer size_integer_of(const TNode* p) {
  if (p->is_leaf()) return Integer::of(*p);
  Integer s{1, false};
  for (const TNode *c = p + 1, *e = p->next(); c != e; ++c)
    if (c->is_leaf()) s = s * Integer::of(*c);
  return s;
}

}  // namespace

Integer size_integer(const IntTuple& t) { return size_integer_of(t.nodes()); }

IntTuple wrap(const IntTuple& t) { return t.is_tuple() ? t : IntTuple::tuple({t}); }

IntTuple unwrap(const IntTuple& t) {
  const TNode* p = t.nodes();
  while (p->is_tuple() && p->rank() == 1) p = p + 1;
  return p == t.nodes() ? t : IntTuple::of(p);
}

IntTuple append(const IntTuple& t, const IntTuple& x) {
  if (t.is_leaf()) return IntTuple::tuple({t, x});
  IntTuple r = t;
  r.push_back(x);
  return r;
}

IntTuple prepend(const IntTuple& t, const IntTuple& x) {
  if (t.is_leaf()) return IntTuple::tuple({x, t});
  IntTuple::Builder b;
  b.open();
  b.append(x);
  for (const TNode* c : modes_of(t.nodes())) b.append(c);
  b.close();
  return b.finish();
}

IntTuple append_to_rank(const IntTuple& t, size_t n, const IntTuple& x) {
  if (t.is_leaf() && n <= 1) return t;
  if (t.is_tuple() && n < t.rank())
    throw Error("append: rank " + std::to_string(t.rank()) + " exceeds " + std::to_string(n));
  auto m = modes_of(t.nodes());
  IntTuple::Builder b;
  b.open();
  for (const TNode* c : m) b.append(c);
  for (size_t i = m.size(); i < n; ++i) b.append(x);
  b.close();
  return b.finish();
}

IntTuple prepend_to_rank(const IntTuple& t, size_t n, const IntTuple& x) {
  if (t.is_leaf() && n <= 1) return t;
  auto m = modes_of(t.nodes());
  if (n < m.size()) throw Error("prepend: rank " + std::to_string(m.size()) + " exceeds " + std::to_string(n));
  IntTuple::Builder b;
  b.open();
  for (size_t i = m.size(); i < n; ++i) b.append(x);
  for (const TNode* c : m) b.append(c);
  b.close();
  return b.finish();
}

IntTuple take(const IntTuple& t, size_t begin, size_t end) {
  if (begin > end || end > t.rank())
    throw Error("take<" + std::to_string(begin) + "," + std::to_string(end) + ">: out of range for rank " +
                std::to_string(t.rank()));
  auto m = modes_of(t.nodes());
  IntTuple::Builder b;
  b.open();
  for (size_t i = begin; i < end; ++i) b.append(m[i]);
  b.close();
  return b.finish();
}

IntTuple select(const IntTuple& t, const std::vector<size_t>& modes) {
  IntTuple::Builder b;
  b.open();
  for (size_t i : modes) b.append(t.mode_node(i));
  b.close();
  return b.finish();
}

IntTuple remove_mode(const IntTuple& t, size_t i) {
  auto m = modes_of(t.nodes());
  if (i >= m.size()) throw Error("remove: mode out of range");
  IntTuple::Builder b;
  b.open();
  for (size_t j = 0; j < m.size(); ++j)
    if (j != i) b.append(m[j]);
  b.close();
  return b.finish();
}

IntTuple replace_mode(const IntTuple& t, size_t i, const IntTuple& x) {
  if (t.is_leaf()) {
    if (i != 0) throw Error("replace: mode out of range");
    return x;
  }
  if (i >= t.rank()) throw Error("mode " + std::to_string(i) + " out of range for " + to_string(t));
  auto m = modes_of(t.nodes());
  IntTuple::Builder b;
  b.open();
  for (size_t j = 0; j < m.size(); ++j) {
    if (j == i) b.append(x);
    else b.append(m[j]);
  }
  b.close();
  return b.finish();
}

IntTuple group(const IntTuple& t, size_t begin, size_t end) {
  auto m = modes_of(t.nodes());
  if (begin > end || end > m.size())
    throw Error("group<" + std::to_string(begin) + "," + std::to_string(end) + ">: out of range");
  IntTuple::Builder b;
  b.open();
  for (size_t i = 0; i < begin; ++i) b.append(m[i]);
  if (begin < end) {
    b.open();
    for (size_t i = begin; i < end; ++i) b.append(m[i]);
    b.close();
  }
  for (size_t i = end; i < m.size(); ++i) b.append(m[i]);
  b.close();
  return b.finish();
}

IntTuple reverse(const IntTuple& t) {
  if (t.is_leaf()) return t;
  auto m = modes_of(t.nodes());
  IntTuple::Builder b;
  b.open();
  for (size_t i = m.size(); i-- > 0;) b.append(m[i]);
  b.close();
  return b.finish();
}

IntTuple repeat_like(const IntTuple& t, int64_t value) {
  IntTuple r = t;  // the same structure, every leaf `value`
  TNode* p = r.mutable_nodes();
  for (size_t i = 0; i < r.node_count(); ++i)
    if (p[i].is_leaf()) p[i] = TNode::leaf(value);
  return r;
}

IntTuple product_each(const IntTuple& t) {
  const TNode* p = t.nodes();
  IntTuple::Builder b;
  b.open();
  if (p->is_leaf()) {
    b.leaf(Integer::of(*p).node());
  } else {
    for (const TNode *c = p + 1, *e = p->next(); c != e; c = c->next()) b.leaf(size_integer_of(c).node());
  }
  b.close();
  return b.finish();
}

IntTuple zip(const IntTuple& t) {
  if (t.is_leaf()) return t;
  const TNode* p = t.nodes();
  if (t.rank() == 0 || p[1].is_leaf()) return IntTuple::tuple({t});
  size_t r = p[1].rank();
  auto rows = modes_of(p);
  for (const TNode* x : rows)
    if (x->is_leaf() || x->rank() != r) throw Error("zip: mismatched ranks in " + to_string(t));
  IntTuple::Builder b;
  b.open();
  for (size_t j = 0; j < r; ++j) {
    b.open();
    for (const TNode* x : rows) b.append(child(x, j));
    b.close();
  }
  b.close();
  return b.finish();
}

IntTuple zip(const IntTuple& a, const IntTuple& b) { return zip(IntTuple::tuple({a, b})); }

namespace {

// zip2_by into two builders: the first halves and the second halves
void zip2_split(const TNode* t, const TNode* guide, IntTuple::Builder& first, IntTuple::Builder& second) {
  if (guide->is_leaf()) {
    if (t->is_leaf() || t->rank() != 2) throw Error("zip2_by: expected a rank-2 mode, got " + str(t));
    first.append(t + 1);
    second.append((t + 1)->next());
    return;
  }
  if (t->is_leaf() || t->rank() < guide->rank()) throw Error("zip2_by: mismatched ranks");
  first.open();
  second.open();
  const TNode* c = t + 1;
  for (const TNode *g = guide + 1, *e = guide->next(); g != e; g = g->next(), c = c->next())
    zip2_split(c, g, first, second);
  for (const TNode* e = t->next(); c != e; c = c->next()) second.append(c);
  first.close();
  second.close();
}

}  // namespace

IntTuple zip2_by(const IntTuple& t, const IntTuple& guide) {
  if (guide.is_leaf()) {
    if (t.rank() != 2 || t.is_leaf()) throw Error("zip2_by: expected a rank-2 mode, got " + to_string(t));
    return t;
  }
  IntTuple::Builder first, second;
  zip2_split(t.nodes(), guide.nodes(), first, second);
  return IntTuple::tuple({first.finish(), second.finish()});
}

// --- arithmetic ------------------------------------------------------------------

namespace {

Integer leaf_or_size(const TNode* p) { return p->is_tuple() ? size_integer_of(p) : Integer::of(*p); }

// divide(a, b) with b an integer, for ceil_div and shape_div: a tuple takes b mode by mode,
// what is left of b (divide(b, size of the mode)) carried to the next mode
template <Integer (*divide)(Integer, Integer)>
void div_by_int(const TNode* a, Integer b, IntTuple::Builder& out) {
  if (a->is_leaf()) {
    out.leaf(divide(Integer::of(*a), b).node());
    return;
  }
  out.open();
  Integer rest = b;
  for (const TNode *c = a + 1, *e = a->next(); c != e; c = c->next()) {
    div_by_int<divide>(c, rest, out);
    rest = divide(rest, leaf_or_size(c));
  }
  out.close();
}

Integer ceil_div_integer(Integer a, Integer b) { return ceil_div(a, b); }

void ceil_div_nodes(const TNode* a, const TNode* b, IntTuple::Builder& out) {
  if (a->is_tuple()) {
    if (b->is_tuple()) {  // missing ranks of b are 1
      if (a->rank() < b->rank()) throw Error("ceil_div: mismatched ranks");
      out.open();
      const TNode *x = a + 1, *y = b + 1;
      for (size_t i = 0; i < a->rank(); ++i, x = x->next()) {
        if (i < b->rank()) {
          ceil_div_nodes(x, y, out);
          y = y->next();
        } else {
          out.append(x);  // ceil_div(x, _1) is x
        }
      }
      out.close();
      return;
    }
    div_by_int<ceil_div_integer>(a, Integer::of(*b), out);
    return;
  }
  out.leaf(ceil_div(Integer::of(*a), leaf_or_size(b)).node());
}

// CuTe checks the divisibility condition only where both are static (its weak check);
// either way the quotient rounds up.
Integer shape_div(Integer x, Integer y) {
  if (y.value == 0) throw Error("divisibility condition violated: shape_div(" + std::to_string(x.value) + ", 0)");
  if (!x.dynamic && !y.dynamic && x.value % y.value != 0 && (x.value == 0 || y.value % x.value != 0))
    throw Error("divisibility condition violated: shape_div(" + std::to_string(x.value) + ", " +
                std::to_string(y.value) + ")");
  return ceil_div(x, y);
}

void shape_div_nodes(const TNode* a, const TNode* b, IntTuple::Builder& out) {
  if (a->is_tuple()) {
    if (b->is_tuple()) {
      if (a->rank() != b->rank()) throw Error("shape_div: mismatched ranks");
      out.open();
      for (const TNode *x = a + 1, *y = b + 1, *e = a->next(); x != e; x = x->next(), y = y->next())
        shape_div_nodes(x, y, out);
      out.close();
      return;
    }
    div_by_int<shape_div>(a, Integer::of(*b), out);
    return;
  }
  out.leaf(shape_div(Integer::of(*a), leaf_or_size(b)).node());
}

void elem_scale_nodes(const TNode* a, const TNode* b, IntTuple::Builder& out) {
  if (a->is_tuple()) {
    if (b->is_leaf() || a->rank() != b->rank()) throw Error("elem_scale: mismatched ranks");
    out.open();
    for (const TNode *x = a + 1, *y = b + 1, *e = a->next(); x != e; x = x->next(), y = y->next())
      elem_scale_nodes(x, y, out);
    out.close();
    return;
  }
  out.leaf((Integer::of(*a) * size_integer_of(b)).node());
}

void filter_zeros_nodes(const TNode* a, const TNode* b, IntTuple::Builder& out) {
  if (a->is_tuple()) {
    if (b->is_leaf() || a->rank() != b->rank()) throw Error("filter_zeros: mismatched ranks");
    out.open();
    for (const TNode *x = a + 1, *y = b + 1, *e = a->next(); x != e; x = x->next(), y = y->next())
      filter_zeros_nodes(x, y, out);
    out.close();
    return;
  }
  if (a->is_static_value(0)) out.append(repeat_like(IntTuple::of(b), 1));  // CuTe's is_constant<0>: a run-time 0 stays
  else out.append(b);
}

bool elem_less_nodes(const TNode* a, const TNode* b) {
  if (a->is_tuple() && b->is_tuple()) {
    const TNode* y = b + 1;
    size_t i = 0;
    for (const TNode *x = a + 1, *e = a->next(); x != e; x = x->next(), ++i) {
      if (i >= b->rank()) return false;
      if (!elem_less_nodes(x, y)) return false;
      y = y->next();
    }
    return true;
  }
  if (a->is_tuple()) throw Error("expected an integer, got the tuple " + str(a));
  if (b->is_tuple()) throw Error("expected an integer, got the tuple " + str(b));
  return a->value < b->value;
}

}  // namespace

IntTuple ceil_div(const IntTuple& a, const IntTuple& b) {
  IntTuple::Builder out;
  ceil_div_nodes(a.nodes(), b.nodes(), out);
  return out.finish();
}

IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  IntTuple::Builder out;
  shape_div_nodes(a.nodes(), b.nodes(), out);
  return out.finish();
}

IntTuple elem_scale(const IntTuple& a, const IntTuple& b) {
  IntTuple::Builder out;
  elem_scale_nodes(a.nodes(), b.nodes(), out);
  return out.finish();
}

IntTuple filter_zeros(const IntTuple& a, const IntTuple& b) {
  IntTuple::Builder out;
  filter_zeros_nodes(a.nodes(), b.nodes(), out);
  return out.finish();
}

IntTuple leaf_mul(const IntTuple& leaf, int64_t factor) {
  const TNode& n = *leaf.nodes();
  if (n.is_tuple()) throw Error("expected an integer, got the tuple " + to_string(leaf));
  TNode r = n;
  r.value = checked_mul(n.value, factor);
  return IntTuple::of(&r);
}

IntTuple scale_leaves(const IntTuple& t, int64_t factor) {
  IntTuple r = t;
  TNode* p = r.mutable_nodes();
  for (size_t i = 0; i < r.node_count(); ++i)
    if (p[i].is_leaf()) p[i].value = checked_mul(p[i].value, factor);
  return r;
}

bool elem_less(const IntTuple& a, const IntTuple& b) { return elem_less_nodes(a.nodes(), b.nodes()); }

// --- arithmetic tuples ---------------------------------------------------------

namespace {

// `node` (nullptr: the integer 0) plus value*E<path[d..]>, into out.
void add_basis_into(const TNode* node, int64_t value, const Basis& basis, int d, IntTuple::Builder& out) {
  if (d == basis.depth) {
    if (node && node->is_tuple()) throw Error("cannot add an integer to a coordinate tuple");
    out.leaf(checked_add(node ? node->value : 0, value));
    return;
  }
  size_t mode = basis.path[d];
  if (node && node->is_leaf()) {
    if (node->value != 0) throw Error("cannot add a basis element to the integer " + std::to_string(node->value));
    node = nullptr;  // becomes the empty tuple
  }
  size_t rank = node ? node->rank() : 0;
  out.open();
  const TNode* c = node ? node + 1 : nullptr;
  for (size_t i = 0; i < std::max(rank, mode + 1); ++i) {
    const TNode* here = i < rank ? c : nullptr;
    if (i == mode) add_basis_into(here, value, basis, d + 1, out);
    else if (here) out.append(here);
    else out.leaf(0);
    if (i < rank) c = c->next();
  }
  out.close();
}

void as_arithmetic_into(const TNode* p, IntTuple::Builder& out) {
  if (p->is_leaf()) {
    if (p->depth() == 0) out.leaf(*p);
    else add_basis_into(nullptr, p->value, p->basis(), 0, out);
    return;
  }
  out.open();
  for (const TNode *c = p + 1, *e = p->next(); c != e; c = c->next()) as_arithmetic_into(c, out);
  out.close();
}

// a + b for arithmetic tuples (no basis leaves); nullptr is the integer 0
void tuple_add_into(const TNode* a, const TNode* b, IntTuple::Builder& out) {
  static const TNode zero = TNode::leaf(0);
  if (!a) a = &zero;
  if (!b) b = &zero;
  if (a->is_leaf() && b->is_leaf()) {
    out.leaf(checked_add(a->value, b->value));
    return;
  }
  if (a->is_leaf()) {
    if (a->value != 0) throw Error("cannot add " + str(a) + " to the coordinate " + str(b));
    out.append(b);
    return;
  }
  if (b->is_leaf()) {
    if (b->value != 0) throw Error("cannot add " + str(b) + " to the coordinate " + str(a));
    out.append(a);
    return;
  }
  size_t n = std::max(a->rank(), b->rank());
  out.open();
  const TNode *x = a + 1, *y = b + 1;
  for (size_t i = 0; i < n; ++i) {
    const TNode* xi = i < a->rank() ? x : nullptr;
    const TNode* yi = i < b->rank() ? y : nullptr;
    tuple_add_into(xi, yi, out);
    if (xi) x = x->next();
    if (yi) y = y->next();
  }
  out.close();
}

}  // namespace

void add_scaled_basis(IntTuple& acc, int64_t value, const Basis& basis) {
  IntTuple::Builder out;
  add_basis_into(acc.nodes(), value, basis, 0, out);
  acc = out.finish();
}

IntTuple as_arithmetic_tuple(const IntTuple& t) {
  if (!has_basis(t)) return t;
  IntTuple::Builder out;
  as_arithmetic_into(t.nodes(), out);
  return out.finish();
}

IntTuple tuple_add(const IntTuple& a0, const IntTuple& b0) {
  if (a0.is_integer() && b0.is_integer()) return checked_add(a0.value(), b0.value());
  IntTuple a = as_arithmetic_tuple(a0), b = as_arithmetic_tuple(b0);
  IntTuple::Builder out;
  tuple_add_into(a.nodes(), b.nodes(), out);
  return out.finish();
}

// --- coordinates -----------------------------------------------------------------

namespace {

// The index arithmetic of crd2idx: integer strides give an integer (IntegerIndex),
// basis strides a coordinate, an arithmetic tuple (CoordinateIndex).
struct IntegerIndex {
  using T = int64_t;
  static T zero() { return 0; }
  static T add(T a, T b) { return checked_add(a, b); }
  static T times(int64_t c, const TNode* stride) { return checked_mul(stride->value, c); }
};
struct CoordinateIndex {
  using T = IntTuple;
  static T zero() { return IntTuple(0); }
  static T add(const T& a, const T& b) { return tuple_add(a, b); }
  static T times(int64_t c, const TNode* stride) { return leaf_mul(IntTuple::of(stride), c); }
};

// CuTe: stride.hpp:crd2idx — an integer coordinate is split over the modes of a tuple
// shape (colexicographically), a tuple coordinate goes mode by mode, and every mode's
// index is the sum of its modes' indices.
template <class Index>
typename Index::T crd2idx_of(int64_t c, const TNode* shape, const TNode* stride) {
  if (shape->is_tuple()) {
    if (stride->is_leaf() || stride->rank() != shape->rank())
      throw Error("mismatched ranks: shape " + str(shape) + " against stride " + str(stride));
    size_t r = shape->rank();
    if (r == 0) return Index::zero();
    typename Index::T acc = Index::zero();
    const TNode *s = shape + 1, *d = stride + 1;
    for (size_t i = 0; i + 1 < r; ++i, s = s->next(), d = d->next()) {
      int64_t n = size_of(s);
      acc = Index::add(acc, crd2idx_of<Index>(checked_mod(c, n), s, d));
      c = checked_div(c, n);
    }
    return Index::add(acc, crd2idx_of<Index>(c, s, d));
  }
  if (stride->is_tuple())
    throw Error("mismatched ranks: coordinate " + std::to_string(c) + " against stride " + str(stride));
  return Index::times(c, stride);
}

template <class Index>
typename Index::T crd2idx_of(const TNode* coord, const TNode* shape, const TNode* stride) {
  if (coord->is_leaf()) return crd2idx_of<Index>(coord->value, shape, stride);
  if (shape->is_leaf() || coord->rank() != shape->rank() || stride->is_leaf() || stride->rank() != shape->rank())
    throw Error("mismatched ranks: coordinate " + str(coord) + " for shape " + str(shape));
  typename Index::T acc = Index::zero();
  const TNode *s = shape + 1, *d = stride + 1;
  for (const TNode *c = coord + 1, *e = coord->next(); c != e; c = c->next(), s = s->next(), d = d->next())
    acc = Index::add(acc, crd2idx_of<Index>(c, s, d));
  return acc;
}

}  // namespace

int64_t crd2idx_integer(int64_t index, const IntTuple& shape, const IntTuple& stride) {
  return crd2idx_of<IntegerIndex>(index, shape.nodes(), stride.nodes());
}

IntTuple crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  if (!has_basis(stride)) return crd2idx_of<IntegerIndex>(coord.nodes(), shape.nodes(), stride.nodes());
  return crd2idx_of<CoordinateIndex>(coord.nodes(), shape.nodes(), stride.nodes());
}

namespace {

int64_t crd2idx_colex(const TNode* coord, const TNode* shape) {
  if (coord->is_leaf()) return coord->value;
  if (shape->is_leaf() || coord->rank() != shape->rank())
    throw Error("mismatched ranks: coordinate " + str(coord) + " for shape " + str(shape));
  // colexicographic: i = c0 + s0 * (c1 + s1 * (...)), each mode's index recursively
  int64_t idx = 0, mult = 1;
  const TNode* s = shape + 1;
  for (const TNode *c = coord + 1, *e = coord->next(); c != e; c = c->next(), s = s->next()) {
    idx = checked_add(idx, checked_mul(mult, crd2idx_colex(c, s)));
    mult = checked_mul(mult, size_of(s));
  }
  return idx;
}

void idx2crd_into(const TNode* idx, const TNode* shape, IntTuple::Builder& out);

void idx2crd_int(int64_t c, const TNode* shape, IntTuple::Builder& out) {
  if (shape->is_leaf()) {
    out.leaf(c);
    return;
  }
  out.open();
  size_t r = shape->rank(), i = 0;
  for (const TNode *s = shape + 1, *e = shape->next(); s != e; s = s->next(), ++i) {
    if (i + 1 < r) {
      int64_t n = size_of(s);
      idx2crd_int(checked_mod(c, n), s, out);
      c = checked_div(c, n);
    } else {
      idx2crd_int(c, s, out);
    }
  }
  out.close();
}

void idx2crd_into(const TNode* idx, const TNode* shape, IntTuple::Builder& out) {
  if (idx->is_tuple()) {
    if (shape->is_leaf() || idx->rank() != shape->rank())
      throw Error("mismatched ranks: index " + str(idx) + " for shape " + str(shape));
    out.open();
    const TNode* s = shape + 1;
    for (const TNode *c = idx + 1, *e = idx->next(); c != e; c = c->next(), s = s->next()) idx2crd_into(c, s, out);
    out.close();
    return;
  }
  if (shape->is_leaf()) {
    out.leaf(*idx);  // the index itself, basis and all
    return;
  }
  idx2crd_int(idx->value, shape, out);
}

}  // namespace

int64_t crd2idx(const IntTuple& coord, const IntTuple& shape) { return crd2idx_colex(coord.nodes(), shape.nodes()); }

IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape) {
  IntTuple::Builder out;
  idx2crd_into(idx.nodes(), shape.nodes(), out);
  return out.finish();
}

IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape, const IntTuple& stride) {
  if (idx.is_tuple()) {
    if (shape.is_leaf() || stride.is_leaf() || idx.rank() != shape.rank() || idx.rank() != stride.rank())
      throw Error("mismatched ranks in idx2crd");
    std::vector<IntTuple> m;
    for (size_t i = 0; i < idx.rank(); ++i) m.push_back(idx2crd(idx[i], shape[i], stride[i]));
    return IntTuple::tuple(m);
  }
  if (shape.is_tuple()) {
    IntTuple d = stride.is_tuple() ? stride : compact_col_major(shape, stride.value());
    if (d.rank() != shape.rank()) throw Error("mismatched ranks in idx2crd");
    std::vector<IntTuple> m;
    for (size_t i = 0; i < shape.rank(); ++i) m.push_back(idx2crd(idx, shape[i], d[i]));
    return IntTuple::tuple(m);
  }
  if (shape.value() == 1) return IntTuple(0);
  return checked_mod(checked_div(idx.value(), stride.value()), shape.value());
}

// --- compact strides ---------------------------------------------------------------

namespace {

// compact_major's stride for leaf `p` at `current`: a static _1 gets the stride _0
TNode compact_stride(const TNode& p, Integer& current) {
  if (p.is_static_value(1)) return TNode::leaf(0);
  TNode d = current.node();
  current = current * Integer::of(p);
  return d;
}

}  // namespace

// Pre-order is column-major order of the leaves; reversed pre-order is row-major.
IntTuple compact_col_major(const IntTuple& shape, Integer current) {
  IntTuple r = shape;
  TNode* p = r.mutable_nodes();
  for (size_t i = 0; i < r.node_count(); ++i)
    if (p[i].is_leaf()) p[i] = compact_stride(p[i], current);
  return r;
}

IntTuple compact_row_major(const IntTuple& shape, Integer current) {
  IntTuple r = shape;
  TNode* p = r.mutable_nodes();
  for (size_t i = r.node_count(); i-- > 0;)
    if (p[i].is_leaf()) p[i] = compact_stride(p[i], current);
  return r;
}

// product_like(shape, order): for every leaf of order, the size of the matching sub-shape
static void ref_shapes(const IntTuple& shape, const IntTuple& order, std::vector<Integer>& sizes,
                       std::vector<int64_t>& orders, std::vector<bool>& dynamic) {
  if (order.is_tuple()) {
    if (shape.is_leaf() || shape.rank() != order.rank())
      throw Error("compact_order: shape " + to_string(shape) + " and order " + to_string(order) + " differ in rank");
    for (size_t i = 0; i < order.rank(); ++i) ref_shapes(shape[i], order[i], sizes, orders, dynamic);
    return;
  }
  sizes.push_back(size_integer(shape));
  orders.push_back(order.value());
  dynamic.push_back(Integer::of(*order.nodes()).dynamic);
}

// `next` walks the flat orders in step with the leaves of `order`
static void compact_order_impl(const TNode* shape, const TNode* order, const std::vector<Integer>& sizes,
                               const std::vector<int64_t>& orders, size_t& next, IntTuple::Builder& out) {
  if (order->is_tuple()) {
    out.open();
    const TNode* s = shape + 1;
    for (const TNode *o = order + 1, *e = order->next(); o != e; o = o->next(), s = s->next())
      compact_order_impl(s, o, sizes, orders, next, out);
    out.close();
    return;
  }
  const int64_t mine = orders[next++];
  Integer start{1, false};
  for (size_t j = 0; j < sizes.size(); ++j)
    if (orders[j] < mine) start = start * sizes[j];
  out.append(compact_col_major(IntTuple::of(shape), start));
}

IntTuple compact_order(const IntTuple& shape, const IntTuple& order) {
  std::vector<Integer> sizes;
  std::vector<int64_t> orders;
  std::vector<bool> dynamic;
  ref_shapes(shape, order, sizes, orders, dynamic);
  // CuTe orders a run-time element after every static one: it becomes max static order + 1 + its flat
  // position (compact_order in cute/stride.hpp), so make_fragment_like puts run-time strides last
  int64_t max_static = 0;
  for (size_t j = 0; j < orders.size(); ++j)
    if (!dynamic[j]) max_static = std::max(max_static, orders[j]);
  for (size_t j = 0; j < orders.size(); ++j)
    if (dynamic[j]) orders[j] = checked_add(max_static, static_cast<int64_t>(1 + j));
  IntTuple::Builder out;
  size_t next = 0;
  compact_order_impl(shape.nodes(), order.nodes(), sizes, orders, next, out);
  return out.finish();
}

static void basis_like(const TNode* shape, std::vector<int>& path, IntTuple::Builder& out) {
  if (shape->is_leaf()) {
    out.leaf(TNode::leaf(1, Basis::of(path)));
    return;
  }
  out.open();
  int i = 0;
  for (const TNode *c = shape + 1, *e = shape->next(); c != e; c = c->next(), ++i) {
    path.push_back(i);
    basis_like(c, path, out);
    path.pop_back();
  }
  out.close();
}

IntTuple make_basis_like(const IntTuple& shape) {
  std::vector<int> path;
  IntTuple::Builder out;
  basis_like(shape.nodes(), path, out);
  return out.finish();
}

}  // namespace cutevis
