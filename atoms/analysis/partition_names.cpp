// One thread's partitions in the expression language (partition.hpp's register_partition_names):
// ThrMMA / ThrCopy values and the tensors their partition_* / make_fragment_* / retile_* give,
// computed by partition.cpp (the same functions `cutevis check` and the inspector use).
//
// A partition's layout is the same for every thread; only its offset (where the thread starts)
// differs.  The thread is threadIdx.x as -D threadIdx.x=N gives it, else 0, and the tensor says so.
#include <cctype>
#include <memory>
#include <tuple>

#include "atoms/analysis/partition.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/tiled_mma.hpp"
#include "atoms/tmem.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/tensor.hpp"

namespace cutevis {

namespace {

using V = Value;

// ThrMMA (tiled_mma.get_slice(thr_idx)) and ThrCopy (tiled_copy.get_slice(thr_idx)): the tiling and
// the thread, printed as CuTe's print(ThrMMA) / print(ThrCopy).
class ThrMmaObject : public Object {
 public:
  ThrMmaObject(TiledMma m, int64_t t, std::string how) : mma(std::move(m)), thread(t), index_note(std::move(how)) {}
  std::string kind() const override { return "thr_mma"; }
  std::string to_string() const override {
    // get_flat_coord of a run-time thr_idx: run-time coordinates, but _0 along a mode of size 1
    const IntTuple vmnk = thread_slice(mma, thread).thr_vmnk;
    std::vector<IntTuple> coord;
    for (size_t i = 0; i < vmnk.rank(); ++i)
      coord.push_back(size(mma.thr_layout_vmnk.shape[i]) == 1 ? IntTuple(0) : IntTuple::dynamic(vmnk[i].value()));
    return "ThrMMA\n  Thr VMNK: " + cutevis::to_string(IntTuple::tuple(std::move(coord)), true) + "\n" +
           cutevis::to_string(mma, true);
  }
  std::string brief() const override { return "ThrMMA (thread " + std::to_string(thread) + ")"; }
  TiledMma mma;
  int64_t thread;
  std::string index_note;  // how the index was chosen, when not as written
};

class ThrCopyObject : public Object {
 public:
  ThrCopyObject(Value c, int64_t t, std::string how) : copy(std::move(c)), thread(t), index_note(std::move(how)) {}
  std::string kind() const override { return "thr_copy"; }
  std::string to_string() const override {
    return "ThrCopy\n  ThrIdx: " + std::to_string(thread) + "\n" + copy.to_cute_string();
  }
  std::string brief() const override { return "ThrCopy (thread " + std::to_string(thread) + ")"; }
  const TiledCopy& tiled() const { return *as_tiled_copy(copy); }
  Value copy;  // the TiledCopy value
  int64_t thread;
  std::string index_note;
};

const ThrMmaObject* as_thr_mma(const Value& v) {
  return v.is(V::Kind::kObject) ? dynamic_cast<const ThrMmaObject*>(v.object().get()) : nullptr;
}
const ThrCopyObject* as_thr_copy(const Value& v) {
  return v.is(V::Kind::kObject) ? dynamic_cast<const ThrCopyObject*>(v.object().get()) : nullptr;
}

bool is_thread_idx_x(const Node& n) {
  return n.kind == Node::Kind::kOperator && n.name == ".x" && n.children.size() == 1 &&
         n.children[0].kind == Node::Kind::kName && n.children[0].name == "threadIdx";
}

struct ThreadIndex {
  int64_t index = 0;
  std::string note;  // said beside every partition of the slice
};

// Whether `text` reads blockIdx, itself or through the declarations it names (`depth` deep): the
// peer CTA index mma_v = get<0>(mma_coord_vmnk) of SM100's tutorials, a run-time value read as 0.
bool reads_block_index(Evaluator& ev, const std::string& text, int depth) {
  if (text.find("blockIdx") != std::string::npos) return true;
  Environment* env = ev.environment();
  if (!env || depth == 0) return false;
  for (size_t i = 0; i < text.size();) {
    if (!(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
    if (const Declaration* d = env->find(text.substr(i, j - i), ev.scope()))
      if (reads_block_index(ev, d->text, depth - 1)) return true;
    i = j;
  }
  return false;
}

// get_slice's argument: threadIdx.x is thread 0 or -D threadIdx.x=N; a run-time index (the peer CTA
// of SM100's blockIdx.x % size<0>(cluster_layout_vmnk)) is 0, said so: the layout does not depend on it.
ThreadIndex thread_index(Evaluator& ev, const Node& arg) {
  if (is_thread_idx_x(arg)) {
    if (Environment* env = ev.environment())
      if (const Declaration* d = env->find("threadIdx.x", ev.scope())) {
        try {
          size_t used = 0;
          const int64_t t = std::stoll(d->text, &used);
          if (d->text.find_first_not_of(" \t", used) == std::string::npos && t >= 0) return {t, "threadIdx.x"};
        } catch (const std::exception&) {
        }
        ev.fail(arg, "-D threadIdx.x=N takes a thread index (an integer >= 0), got '" + d->text + "'");
      }
    return {0, "-D threadIdx.x=N for another thread"};
  }
  try {
    const Value v = ev.eval(arg);
    if (v.is(V::Kind::kInt)) {
      if (!reads_block_index(ev, ev.text_of(arg), 4)) return {v.as_int(), ""};
      const std::string text = ev.text_of(arg);
      return {v.as_int(), (text.size() <= 60 ? text : std::string("the index")) + " is a run-time value: index " +
                              std::to_string(v.as_int()) +
                              " (blockIdx read as 0 unless -D blockIdx.x=N; each index's partition has this layout)"};
    }
    ev.fail(arg, "get_slice takes a thread index, got " + v.describe());
  } catch (const Error& e) {
    const std::string why = e.what();
    if (why.find("blockIdx") == std::string::npos && why.find("threadIdx") == std::string::npos) throw;
    const std::string text = ev.text_of(arg);
    return {0, (text.size() <= 60 ? text : std::string("the index")) +
                   " is a run-time value: index 0 (each index's partition has this layout)"};
  }
}

// What the tensor's note says: whose partition it is.
std::string whose(int64_t thread, const std::string& index_note, const std::string& what, int64_t threads, bool cta,
                  bool folded = false) {
  const std::string who = cta ? "peer CTA" : "thread";
  std::string s = who + " " + std::to_string(thread) + "'s " + what + " (of " + std::to_string(threads) + "; " +
                  (folded ? "the swizzle is folded into its strides, as CuTe's slice does: another " + who +
                                "'s differ where its start sets swizzled bits"
                          : "each " + who + "'s has this layout at its own offset");
  if (!index_note.empty() && index_note != "threadIdx.x") s += "; " + index_note;
  return s + ")";
}

// CuTe's slice_and_offset of Sw<B,M,S> o O o L at a coordinate that is not all `_` (a thread's):
// `sliced` is L's slice, `diced` L at the thread's coordinate (cute/swizzle_layout.hpp).  Where the
// slice does not reach both bits of a swizzled pair, the swizzle decays into run-time strides (which
// depend on the thread's start); else the layout stays composed.  The layout and the iterator's offset.
std::pair<AnyLayout, int64_t> swizzled_slice(const Swizzle& sw, int64_t layout_offset, const Layout& sliced,
                                             int64_t diced) {
  const int64_t mask = sw.yyy_mask() | sw.zzz_mask();
  const int64_t only_zy = layout_offset ^ (diced & mask);       // interacts with the swizzle
  const int64_t anti_zy = diced & ~mask;                        // passed through
  const int64_t active = sliced(size(sliced) - 1) & mask;       // (P o L)(c*): the swizzle's bits the slice reaches
  if (is_static(sliced.stride) && (active & ~sw(active)) != 0)  // hits Y AND Z: not reducible
    return {ComposedLayout(sw, only_zy, sliced), anti_zy};
  const int64_t z = sw.zzz_mask() & -sw.zzz_mask(), y = sw.yyy_mask() & -sw.yyy_mask();
  const int b = sw.bits, m = sw.base, abs_s = sw.shift < 0 ? -sw.shift : sw.shift;
  // make_swizzle_strides: the Z bits' and the Y bits' strides given the offset's bits (run-time ints)
  auto strides = [&](bool z_bits) {
    std::vector<IntTuple> out;
    for (int i = 0; i < b; ++i)
      out.push_back(IntTuple::dynamic(z_bits ? ((only_zy & (y << i)) == 0 ? z << i : -(z << i))
                                             : ((only_zy & (z << i)) == 0 ? (y + z) << i : (y - z) << i)));
    return IntTuple::tuple(std::move(out));
  };
  const IntTuple twos = IntTuple::tuple(std::vector<IntTuple>(static_cast<size_t>(b), IntTuple(2)));
  const Layout swizzle_layout(
      IntTuple::tuple({IntTuple(int64_t{1} << m), twos, IntTuple(int64_t{1} << (abs_s - b)), twos, IntTuple(1)}),
      IntTuple::tuple({IntTuple(1), strides(z < y), IntTuple(int64_t{1} << (m + b)), strides(z > y),
                       IntTuple(int64_t{1} << (m + b + abs_s))}));
  return {composition(swizzle_layout, sliced), checked_add(sw(only_zy), anti_zy)};
}

// The tensor a partition of `t` gives: the partition's (layout, offset) of t's layout, the offset
// moving the iterator (a plain layout) or kept in the composed layout's offset, as CuTe's slice does.
Tensor partitioned(const Tensor& t, const ThreadPartition& p) {
  Tensor out = t;
  if (std::holds_alternative<Layout>(t.layout)) {
    out.layout = p.layout;
    if (t.space == Tensor::Space::kCounting)
      throw Error("a partition of a coordinate tensor (make_identity_tensor) is not supported yet");
    out.offset = checked_add(t.offset, p.offset);
    return out;
  }
  const ComposedLayout& c = std::get<ComposedLayout>(t.layout);
  if (p.offset != 0 && c.smem_bits() != 0)
    throw Error("a partition at a nonzero offset of a position-independent smem layout (smem_ptr flag)");
  if (c.smem_bits() == 0 && c.a_is_swizzle()) {
    int64_t moved = 0;
    std::tie(out.layout, moved) = swizzled_slice(c.swizzle(), c.offset(), p.layout, p.offset);
    out.offset = checked_add(t.offset, moved);
    return out;
  }
  const int64_t offset = checked_add(c.offset(), p.offset);
  if (c.smem_bits() != 0) out.layout = c.with_b(p.layout);
  else if (c.a_is_swizzle()) out.layout = ComposedLayout(c.swizzle(), offset, p.layout);
  else out.layout = ComposedLayout(c.layout_a(), offset, p.layout);
  return out;
}

// --- coordinate tensors -----------------------------------------------------------------
// A coordinate tensor (make_identity_tensor, get_tma_tensor: an ArithTuple iterator, strides k@i) is
// partitioned as CuTe partitions any tensor: its partition only divides and composes layouts, so each
// stride of the result is one stride of the tensor times an integer, and the thread's offset a sum of
// strides times coordinates.  It is computed on integer strides k * 2^(20 i) and read back: mode i of
// the coordinate is the i-th group of 20 bits, so each coordinate must stay below 2^20.
constexpr int kCoordBits = 20;
constexpr int64_t kCoordLimit = int64_t{1} << kCoordBits;

IntTuple encode_basis_strides(const IntTuple& stride, size_t coord_rank) {
  if (stride.is_tuple()) {
    std::vector<IntTuple> modes;
    for (const IntTuple& m : stride.modes()) modes.push_back(encode_basis_strides(m, coord_rank));
    return IntTuple::tuple(modes);
  }
  const Basis b = stride.basis();
  if (b.empty()) {
    if (stride.value() != 0) throw Error("a coordinate tensor with an integer stride " + to_string(stride));
    return stride;
  }
  if (b.depth != 1 || b.path[0] >= coord_rank || coord_rank > 3 || stride.value() < 0 || stride.value() >= kCoordLimit)
    throw Error("partitioning a coordinate tensor with stride " + to_string(stride) + " is not supported");
  return IntTuple(stride.value() << (kCoordBits * b.path[0]));
}

IntTuple decode_basis_strides(const IntTuple& stride) {
  if (stride.is_tuple()) {
    std::vector<IntTuple> modes;
    for (const IntTuple& m : stride.modes()) modes.push_back(decode_basis_strides(m));
    return IntTuple::tuple(modes);
  }
  const int64_t v = stride.value();
  if (v == 0) return IntTuple(0);
  int mode = 0;
  while ((v >> (kCoordBits * mode)) >= kCoordLimit) ++mode;
  const int64_t k = v >> (kCoordBits * mode);
  if ((k << (kCoordBits * mode)) != v) throw Error("a coordinate tensor's partition mixes two modes in one stride");
  return IntTuple::scaled_basis(k, Basis::of({mode}));
}

// The largest coordinate each mode of (shape, stride) reaches, added into reach[mode].
void add_reach(const IntTuple& shape, const IntTuple& stride, std::vector<int64_t>& reach) {
  if (shape.is_tuple()) {
    for (size_t m = 0; m < shape.rank(); ++m) add_reach(shape[m], stride[m], reach);
    return;
  }
  const Basis b = stride.basis();
  if (!b.empty() && b.path[0] < reach.size())
    reach[b.path[0]] = checked_add(reach[b.path[0]], checked_mul(shape.value() - 1, stride.value()));
}

// thr.partition_X(t) of a TiledMMA or TiledCopy of `threads` threads: `part` partitions a layout
// (ThreadPartition of atoms/analysis/partition.hpp).
Tensor partition_of(const Tensor& t, int64_t threads, const std::function<ThreadPartition(const AnyLayout&)>& part) {
  if (t.space != Tensor::Space::kCounting) return partitioned(t, part(t.layout));
  const Layout* l = std::get_if<Layout>(&t.layout);
  if (!l) throw Error("a coordinate tensor over a composed layout: " + to_string(t.layout));
  const size_t r = t.coord.rank();
  const Layout encoded(l->shape, encode_basis_strides(l->stride, r));
  std::vector<int64_t> reach(r, 0);  // the largest coordinate of each mode: below 2^20, with no carry
  add_reach(l->shape, l->stride, reach);
  for (int64_t x : reach)
    if (x >= kCoordLimit) throw Error("a coordinate tensor too large to partition here (each coordinate below 2^20)");
  const ThreadPartition p = part(AnyLayout(encoded));
  Tensor out = t;
  out.layout = Layout(p.layout.shape, decode_basis_strides(p.layout.stride));
  std::vector<IntTuple> coord;
  for (size_t i = 0; i < r; ++i) {
    const int64_t add = (p.offset >> (kCoordBits * static_cast<int>(i))) & (kCoordLimit - 1);
    const IntTuple c(t.coord[i]);  // thr_idx is a run-time int, unless one thread's offset is a static _0
    coord.push_back(threads == 1 && add == 0 ? c : IntTuple::dynamic(checked_add(c.value(), add)));
  }
  out.coord = IntTuple::tuple(coord);
  return out;
}

// CuTe folded a swizzle written as composition(Swizzle, layout) into the partition's strides
bool folded(const Tensor& from, const Tensor& to) {
  const auto* c = std::get_if<ComposedLayout>(&from.layout);
  return c && c->smem_bits() == 0 && c->a_is_swizzle() && std::holds_alternative<Layout>(to.layout);
}

template <class F>
Value located(Evaluator& ev, const Node& n, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.has_position()) throw;
    ev.fail(n, e.what());
  }
}

// make_fragment_A/B/C(partition): CuTe's TiledMMA::make_fragment_X of an already partitioned tensor.
Value make_fragment(Evaluator& ev, const Node& n, const TiledMma& mma, char operand, const Tensor& part,
                    const std::string& note) {
  const MmaAtom& atom = mma.atom;
  if (rank(part.layout) < 3)
    ev.fail(n, std::string("make_fragment_") + operand + " takes a partitioned tensor (MMA, MMA_M, MMA_K, ...), got " +
                   to_string(part));
  const OperandSource source = operand == 'A' ? atom.source_a : operand == 'B' ? atom.source_b : atom.source_c;
  const ValueType type = operand == 'A' ? atom.type_a : operand == 'B' ? atom.type_b : atom.type_c;
  ThreadPartition p;
  p.side = operand;
  p.layout = as_layout(
      std::holds_alternative<Layout>(part.layout) ? part.layout : std::get<ComposedLayout>(part.layout).layout_b(),
      "the partition's layout");
  Tensor out;
  out.element = type;
  if (source == OperandSource::kTensorMemory) {
    // UMMA::tmem_frg<T>::make(shape): one MMA tile's accumulator in tensor memory
    const IntTuple s = shape(part.layout);
    for (size_t i = 1; i < s.rank(); ++i)
      if (size(s[i]) != 1)
        ev.fail(n, "make_fragment_C in tensor memory: cutevis builds one MMA tile's accumulator ((M,N),_1,_1), got " +
                       to_string(s, true));
    const int cta_group = static_cast<int>(size(atom.thr_id));
    const TmemAccumulator acc = umma_accumulator(size(atom.shape_mnk[0]), size(atom.shape_mnk[1]), cta_group, type);
    out.space = Tensor::Space::kTmem;
    out.base = "tmem_addr";
    out.layout = acc.layout;
    out.note = "the accumulator in tensor memory: its address is what the TMEM allocator gives (tCtAcc.data() = ...)";
    return tensor_value(std::move(out));
  }
  if (source == OperandSource::kSharedMemory) {
    if (part.space != Tensor::Space::kSmem && part.space != Tensor::Space::kPointer)
      ev.fail(n, std::string("make_fragment_") + operand + ": " + atom.short_name + " reads " + operand +
                     " from shared memory through descriptors; the tensor is not in shared memory: " + to_string(part));
    p.descriptor_elements = 128 / type.bits;
    out.space = Tensor::Space::kDescriptor;
    out.base = atom.family == "SM100_UMMA" ? "UMMA::DescriptorIterator" : "GMMA::DescriptorIterator";
    out.element = ValueType{"uint64_t", 64};
  } else {
    const auto* composed = std::get_if<ComposedLayout>(&part.layout);
    if (composed && composed->smem_bits() == 0 && operand != 'C')
      // a partition that stayed Sw o O o L (its slice reaches both bits of a swizzled pair): which
      // layout CuTe's make_fragment_like orders the registers by is not checked against CuTe here
      ev.fail(n, std::string("make_fragment_") + operand +
                     " of a partition that stays swizzled (Sw o O o L): its register order is not modelled; "
                     "the partition itself is right");
    out.space = Tensor::Space::kRmem;
  }
  out.layout = located(ev, n, [&] { return V::layout(partition_fragment(p)); }).any_layout();
  out.note = note;
  return tensor_value(std::move(out));
}

std::string fragment_note(const Tensor& of) {
  return of.note.empty() ? "" : "registers of one thread (made from " + of.note.substr(0, of.note.find(" (")) + ")";
}

}  // namespace

void register_partition_names(Registry& r) {
  for (const char* name : {"get_slice", "get_thread_slice"}) {
    r.add(
        name,
        [](Evaluator& ev, const Node& n) -> Value {
          ev.expect_args(n, 2, 2);
          const Value tiled = ev.eval(n.args[0]);
          const ThreadIndex t = thread_index(ev, n.args[1]);
          if (const TiledMma* m = as_tiled_mma(tiled)) {
            const int64_t threads = size(m->tv_layout_c.shape[0]);
            if (t.index >= threads)
              ev.fail(n.args[1], "thread " + std::to_string(t.index) + " is not one of the TiledMMA's " +
                                     std::to_string(threads) + " threads");
            return V::object(std::make_shared<ThrMmaObject>(*m, t.index, t.note));
          }
          if (const TiledCopy* c = as_tiled_copy(tiled)) {
            if (t.index >= c->num_threads)
              ev.fail(n.args[1], "thread " + std::to_string(t.index) + " is not one of the TiledCopy's " +
                                     std::to_string(c->num_threads) + " threads");
            return V::object(std::make_shared<ThrCopyObject>(tiled, t.index, t.note));
          }
          ev.fail(n.args[0], n.name + " is a TiledMMA's or a TiledCopy's, got " + tiled.describe());
        },
        std::string(name) + "(tiled_mma | tiled_copy, thr_idx)");
  }
  // thr_copy.partition_S(tensor) / partition_D(tensor): (CPY, CPY_M, CPY_N, rest...)
  for (char side : {'S', 'D'}) {
    r.add(
        std::string("partition_") + side,
        [side](Evaluator& ev, const Node& n) -> Value {
          ev.expect_args(n, 2, 2);
          const Value thr = ev.eval(n.args[0]);
          const ThrCopyObject* c = as_thr_copy(thr);
          if (!c) ev.fail(n.args[0], n.name + " is a ThrCopy's (tiled_copy.get_slice(thr_idx)), got " + thr.describe());
          const Tensor t = tensor_from(ev.eval(n.args[1]));
          return located(ev, n, [&] {
            Tensor out = partition_of(t, c->tiled().num_threads, [&](const AnyLayout& l) {
              return side == 'S' ? partition_S(c->tiled(), l, c->thread) : partition_D(c->tiled(), l, c->thread);
            });
            out.note = whose(c->thread, c->index_note, std::string("partition_") + side, c->tiled().num_threads, false,
                             folded(t, out));
            return tensor_value(std::move(out));
          });
        },
        std::string("thr_copy.partition_") + side + "(tensor)");
  }
  // thr_copy.retile_D(fragment) / retile_S: the MMA's registers seen as the copy's (CPY, CPY_M, CPY_K)
  for (const char* name : {"retile_D", "retile_S"}) {
    r.add(
        name,
        [](Evaluator& ev, const Node& n) -> Value {
          ev.expect_args(n, 2, 2);
          const Value thr = ev.eval(n.args[0]);
          const TiledCopy* copy = as_tiled_copy(thr);
          if (const ThrCopyObject* c = as_thr_copy(thr)) copy = &c->tiled();
          if (!copy) ev.fail(n.args[0], n.name + " is a ThrCopy's or a TiledCopy's, got " + thr.describe());
          Tensor t = tensor_from(ev.eval(n.args[1]));
          const Layout frg = as_layout(t.layout, "retile's fragment layout");
          t.layout = located(ev, n, [&] { return V::layout(retile(*copy, frg)); }).any_layout();
          if (!t.note.empty()) t.note = "the same registers as the copy's values (" + n.name + ")";
          return tensor_value(std::move(t));
        },
        std::string(name) + "(tensor)");
  }
  // thr_mma.partition_A/B/C(tensor), partition_fragment_A/B/C(tensor), make_fragment_A/B/C(partition)
  for (char op : {'A', 'B', 'C'}) {
    r.add(
        std::string("partition_") + op,
        [op](Evaluator& ev, const Node& n) -> Value {
          ev.expect_args(n, 2, 2);
          const Value thr = ev.eval(n.args[0]);
          const ThrMmaObject* m = as_thr_mma(thr);
          if (!m) ev.fail(n.args[0], n.name + " is a ThrMMA's (tiled_mma.get_slice(thr_idx)), got " + thr.describe());
          const Tensor t = tensor_from(ev.eval(n.args[1]));
          return located(ev, n, [&] {
            const int64_t threads = size(m->mma.tv_layout_c.shape[0]);
            Tensor out =
                partition_of(t, threads, [&](const AnyLayout& l) { return partition_mma(m->mma, op, l, m->thread); });
            out.note = whose(m->thread, m->index_note, std::string("partition_") + op, threads,
                             m->mma.atom.family == "SM100_UMMA", folded(t, out));
            return tensor_value(std::move(out));
          });
        },
        std::string("thr_mma.partition_") + op + "(tensor)");
    const std::string frag = std::string("partition_fragment_") + op;
    const Builtin* previous = r.find(frag);  // partition_fragment_C(tiled_mma, shape): atoms/cpp_names.cpp
    Builtin fallback = previous ? *previous : Builtin();
    r.add(
        frag,
        [op, fallback](Evaluator& ev, const Node& n) -> Value {
          ev.expect_args(n, 2, 2);
          const Value thr = ev.eval(n.args[0]);
          const ThrMmaObject* m = as_thr_mma(thr);
          if (!m) {
            if (fallback) return fallback(ev, n);
            ev.fail(n.args[0], n.name + " is a ThrMMA's (tiled_mma.get_slice(thr_idx)), got " + thr.describe());
          }
          const Tensor t = tensor_from(ev.eval(n.args[1]));
          Tensor part;
          located(ev, n, [&] {
            part = partition_of(t, size(m->mma.tv_layout_c.shape[0]),
                                [&](const AnyLayout& l) { return partition_mma(m->mma, op, l, m->thread); });
            return V();
          });
          return make_fragment(ev, n, m->mma, op, part,
                               "registers of one thread (partition_fragment_" + std::string(1, op) + " of thread " +
                                   std::to_string(m->thread) + "'s partition)");
        },
        frag + "(tensor)" + (previous ? " / " + r.signature(frag) : ""));
    r.add(
        std::string("make_fragment_") + op,
        [op](Evaluator& ev, const Node& n) -> Value {
          ev.expect_args(n, 2, 2);
          const Value thr = ev.eval(n.args[0]);
          const TiledMma* mma = as_tiled_mma(thr);
          if (const ThrMmaObject* m = as_thr_mma(thr)) mma = &m->mma;
          if (!mma) ev.fail(n.args[0], n.name + " is a TiledMMA's or a ThrMMA's, got " + thr.describe());
          const Tensor t = tensor_from(ev.eval(n.args[1]));
          return make_fragment(ev, n, *mma, op, t, fragment_note(t));
        },
        std::string("thr_mma.make_fragment_") + op + "(partition)");
  }
  // typename decltype(tCtAcc)::value_type: a tensor's element type
  r.add("::value_type", [](Evaluator& ev, const Node& n) -> Value {
    const Value base = ev.eval(n.children[0]);
    if (const Tensor* t = as_tensor(base))
      if (t->element.bits > 0) return V::type(t->element);
    ev.fail(n, "cannot take '::value_type' of " + base.describe() + " (a tensor whose element type is known)");
  });
}

}  // namespace cutevis
