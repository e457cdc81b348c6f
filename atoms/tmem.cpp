// SM100 tensor-memory copy atoms and make_tmem_copy; see atoms/tmem.hpp.
#include "atoms/tmem.hpp"

#include <algorithm>

#include "atoms/tiled_copy.hpp"

namespace cutevis {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

constexpr int64_t kDpBits = int64_t{1} << 21;  // TMEM::DP_b: the data-path stride in bit addressing

struct TmemShape {
  const char* name;  // "32dp32b"
  const char* ptx;   // tcgen05 .shape
  int64_t cols;      // ValID's bits per data path for .x1
  int64_t rows;      // data paths
  int max_n;         // the largest .num
};

const TmemShape kShapes[] = {
    {"32dp32b", "32x32b", 32, 32, 128},   {"16dp32b", "16x32bx2", 64, 16, 128}, {"16dp64b", "16x64b", 64, 16, 128},
    {"16dp128b", "16x128b", 128, 16, 64}, {"16dp256b", "16x256b", 256, 16, 32},
};

// The register side, (T32,V) -> bit: which bits of the tmem rows each lane holds.
Layout register_side(const std::string& shape, int64_t n) {
  if (shape == "32dp32b") return Layout(tup(32, 32 * n), tup(32 * n, 1));                       // lane t: row t
  if (shape == "16dp32b") return Layout(tup(tup(16, 2), 32 * n), tup(tup(64 * n, 32 * n), 1));  // 16 rows, two halves
  if (shape == "16dp64b") {
    if (n == 1) return Layout(tup(tup(2, 2, 8), 32), tup(tup(512, 32, 64), 1));
    return Layout(tup(tup(2, 2, 8), tup(32, n)), tup(tup(512 * n, 32, 64 * n), tup(1, 64)));
  }
  int64_t w = shape == "16dp128b" ? 32 : 64;  // 16dp128b: 32b per lane and row; 16dp256b: 64b
  if (n == 1) return Layout(tup(tup(4, 8), tup(w, 2)), tup(tup(w, 4 * w), tup(1, 32 * w)));
  return Layout(tup(tup(4, 8), tup(w, 2, n)), tup(tup(w, 4 * w * n), tup(1, 32 * w * n, 4 * w)));
}

std::string tmem_op_name(const TmemShape& s, int64_t n, bool load, bool pack16) {
  return std::string("SM100_TMEM_") + (load ? "LOAD_" : "STORE_") + s.name + str(n) + "x" + (pack16 ? "_16b" : "");
}

// Every (load/store, shape, .num, packing) in the order tmem_copy_ops lists them.
template <class F>
void for_each_tmem_op(F&& f) {
  for (bool load : {true, false})
    for (const auto& s : kShapes)
      for (int64_t n = 1; n <= s.max_n; n *= 2)
        for (bool pack16 : {false, true}) f(s, n, load, pack16);
}

CopyAtom tmem_op(const TmemShape& s, int64_t n, bool load, bool pack16) {
  CopyAtom a;
  a.op = tmem_op_name(s, n, load, pack16);
  a.family = "SM100_TMEM";
  a.sm = 100;
  a.thr_id = Layout(32, 1);
  const int64_t bits = s.cols * n * s.rows;
  // ValID: logical bit -> tmem address; _16b packs two 16b values per 32b column
  if (pack16) a.val_id = Layout(tup(tup(16, s.cols * n / 16), s.rows), tup(tup(1, 32), kDpBits));
  else a.val_id = Layout(tup(s.cols * n, s.rows), tup(1, kDpBits));
  const Layout tmem_side(tup(32, bits), tup(0, 1));
  const Layout regs = register_side(s.name, n);
  a.src_layout_bits = load ? tmem_side : regs;
  a.dst_layout_bits = load ? regs : tmem_side;
  a.ref_layout_bits = tmem_side;
  a.ptx = std::string("tcgen05.") + (load ? "ld" : "st") + ".sync.aligned." + s.ptx + ".x" + str(n) +
          (pack16 ? (load ? ".pack::16b" : ".unpack::16b") : "") + ".b32";
  RegisterSpec tmem_addr{"uint32_t", 1}, words{"uint32_t", static_cast<int>(bits / 32 / 32)};
  a.regs_src = load ? tmem_addr : words;
  a.regs_dst = load ? words : tmem_addr;
  a.comment = std::string("(T32,V") + str(bits / 32) + "b) " + (load ? "tmem -> regs" : "regs -> tmem") + ": " +
              str(s.rows) + " data paths";
  a.note = "tcgen05 " + std::string(load ? "ld" : "st") +
           ": one warp reaches its own 32-lane subpartition of tensor memory; make_tmem_copy "
           "spreads four warps over the 128 lanes.";
  return a;
}

}  // namespace

std::vector<CopyAtom> tmem_copy_ops() {
  std::vector<CopyAtom> ops;
  for_each_tmem_op(
      [&](const TmemShape& s, int64_t n, bool load, bool pack16) { ops.push_back(tmem_op(s, n, load, pack16)); });
  return ops;
}

std::vector<std::string> tmem_copy_op_names() {
  std::vector<std::string> names;
  for_each_tmem_op([&](const TmemShape& s, int64_t n, bool load, bool pack16) {
    names.push_back(tmem_op_name(s, n, load, pack16));
  });
  return names;
}

bool is_tmem_op(const std::string& op) {
  if (op.rfind("SM100_TMEM_LOAD_", 0) != 0 && op.rfind("SM100_TMEM_STORE_", 0) != 0) return false;
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = tmem_copy_op_names();
    std::sort(v.begin(), v.end());
    return v;
  }();
  return std::binary_search(names.begin(), names.end(), op);
}

int64_t tmem_dp(int bits) {
  if (bits <= 0 || bits > 32 || 32 % bits != 0)
    throw Error("TMEM holds 32-bit columns: a " + str(bits) + "-bit type does not divide them");
  int shift = 0;
  for (int r = 32 / bits; r > 1; r /= 2) ++shift;
  return (int64_t{1} << 16) << shift;
}

TiledCopy make_cotiled_copy(const CopyAtom& atom, const Layout& atom_tv_layout, const Layout& data_layout) {
  // data addr -> data coord; 1:0 appended so off-the-end addresses get stride 0
  const Layout inv_data_layout = make_layout(std::vector<Layout>{left_inverse(data_layout), Layout()});
  const Layout layout_tv_data = composition(inv_data_layout, atom_tv_layout);  // (tid,vid) -> data coord
  // CuTe's check: every address the atom's values reach is an element of the data layout
  const Layout reached = coalesce(composition(make_layout(data_layout, Layout()), get(layout_tv_data, 1)));
  if (!(reached == coalesce(get(atom_tv_layout, 1))))
    throw Error("make_cotiled_copy: the memory pointed to by the atom's TV layout does not exist in the data layout " +
                to_string(data_layout) + " (an atom's values reach " + to_string(coalesce(get(atom_tv_layout, 1))) +
                ", the data holds " + to_string(reached) + " of them)");
  // the by-mode tiler that picks the active elements of each data mode
  const IntTuple flat_data_shape = product_each(data_layout.shape);
  const size_t r = flat_data_shape.is_leaf() ? 1 : flat_data_shape.rank();
  std::vector<Tiler> modes;
  for (size_t i = 0; i < r; ++i) {
    std::vector<IntTuple> e(r, IntTuple(0));
    e[i] = IntTuple(1);
    IntTuple stride = flat_data_shape.is_leaf() ? IntTuple(1) : IntTuple::tuple(e);
    modes.emplace_back(filter(composition(Layout(flat_data_shape, stride), layout_tv_data)));
  }
  const Tiler tiler = Tiler::tuple(modes);
  const Layout tile2data = composition(make_layout(flat_data_shape), tiler);  // tile coord -> data coord
  const Layout layout_tv = composition(left_inverse(tile2data), layout_tv_data);
  return make_tiled_copy_impl(atom, layout_tv, tiler);
}

TiledCopy make_tmem_copy(const CopyAtom& atom, const Layout& tmem_layout, int tensor_bits) {
  if (atom.family != "SM100_TMEM")
    throw Error("make_tmem_copy: " + atom.name +
                " is not a tensor-memory copy (SM100_TMEM_LOAD_* / SM100_TMEM_STORE_*)");
  if (atom.value_type.bits != tensor_bits)
    throw Error("make_tmem_copy: expected a CopyAtom with the same type-width as the tensor (" +
                str(atom.value_type.bits) + "b atom, " + str(tensor_bits) + "b tensor)");
  // atom thr idx -> tmem addr: 4 warps, each at the same place of its own 32-lane subpartition
  const Layout atom_t_layout(tup(32, 4), tup(0, 32 * tmem_dp(tensor_bits)));
  // atom val idx -> tmem addr: the op's value ids in elements of T
  const Layout atom_v_layout = coalesce(upcast(atom.val_id, tensor_bits));
  return make_cotiled_copy(atom, make_layout(std::vector<Layout>{atom_t_layout, atom_v_layout}), tmem_layout);
}

TmemAccumulator umma_accumulator(int64_t mma_m, int64_t n, int cta_group, const ValueType& type) {
  TmemAccumulator acc;
  acc.mma_m = mma_m;
  acc.n = n;
  acc.cta_group = cta_group;
  acc.type = type;
  if (cta_group != 1 && cta_group != 2) throw Error("cta_group is 1 or 2, not " + str(cta_group));
  if (type.bits != 32 && type.bits != 16)
    throw Error("an UMMA accumulator is 32-bit (float, int32_t) or 16-bit (half_t), not " + type.name);
  const int64_t m = acc.m_cta();
  const bool m_ok = cta_group == 1 ? (mma_m == 64 || mma_m == 128) : (mma_m == 64 || mma_m == 128 || mma_m == 256);
  if (!m_ok)
    throw Error("an UMMA's M is " + std::string(cta_group == 1 ? "64 or 128" : "64, 128 or 256 (a CTA pair)") +
                ", not " + str(mma_m));
  if (n < 8 || n > 256 || n % 8 != 0) throw Error("an UMMA's N is a multiple of 8 up to 256, not " + str(n));
  Layout atom;  // (M_CTA,N) -> virtual address (lane + 128 * column)
  if (m == 128) atom = Layout(tup(128, n), tup(1, 128));
  else if (cta_group == 1) atom = Layout(tup(tup(16, 4), n), tup(tup(1, 32), 128));  // half the data paths
  else if (m == 64) atom = Layout(tup(64, tup(n / 2, 2)), tup(1, tup(128, 64)));     // "2x2"
  else atom = Layout(tup(32, tup(n / 4, 4)), tup(1, tup(128, 32)));                  // "1x4"
  // tiled over the (_1,_1) MMA tiles, then restrided to logical TMEM addressing
  const Layout tiled = make_layout(std::vector<Layout>{atom, Layout(1, 0), Layout(1, 0)});
  const Layout restride(tup(128, 16384), tup(tmem_dp(type.bits), 32 / type.bits));
  acc.layout = composition(restride, tiled);
  return acc;
}

TmemAddress tmem_address(int64_t addr, int bits) {
  const int64_t dp = tmem_dp(bits), per_column = 32 / bits;
  TmemAddress a;
  a.lane = addr / dp;
  a.column = (addr % dp) / per_column;
  a.half = (addr % dp) % per_column;
  return a;
}

}  // namespace cutevis
