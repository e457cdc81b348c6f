// Scale factors in tensor memory (tmem_sf_frg, UTCCP); see atoms/utccp.hpp.
#include "atoms/utccp.hpp"

#include <algorithm>

#include "atoms/tmem.hpp"

namespace cutevis {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

constexpr int64_t kDpBits = int64_t{1} << 21;  // TMEM::DP_b
constexpr int64_t kSfBits = 8;                 // every scale-factor type (ue8m0, ue4m3) is 8-bit

int64_t static_int(const IntTuple& t, const char* what) {
  if (!t.is_leaf()) throw Error(std::string("tmem_sf_frg: ") + what + " is an integer, got " + to_string(t));
  return t.value();
}

CopyAtom utccp(const std::string& shape, int cta) {
  CopyAtom a;
  a.op = "SM100_UTCCP_" + shape + "_" + str(cta) + "cta";
  a.family = "SM100_UTCCP";
  a.sm = 100;
  a.thr_id = Layout(cta, cta == 1 ? 0 : 1);  // Layout<_1> is _1:_0
  // ValID: logical bit -> tmem address, in the order (core_matrix_strided, core_matrix_leading, [repeat,]
  // broadcast); SrcLayout reads each broadcast copy from the same shared memory (stride 0)
  Layout src, dst;
  if (shape == "128dp256bit" || shape == "128dp128bit") {
    const int64_t w = shape == "128dp256bit" ? 256 : 128;
    a.val_id = Layout(tup(128, w), tup(kDpBits, 1));
    src = dst = Layout(tup(cta, 128 * w), tup(0, 1));
  } else if (shape == "4dp256bit") {
    // a "TMEM refresh" of the last 4 lanes of each subpartition: (refresh_m, refresh_k) bits
    a.val_id = Layout(tup(128, 256), tup(kDpBits, 1));
    src = dst = Layout(tup(cta, tup(4, 256)), tup(0, tup(32, 128)));
  } else if (shape == "4x32dp128bit") {
    a.val_id = Layout(tup(32, 128, 4), tup(kDpBits, 1, kDpBits * 32));
    src = Layout(tup(cta, tup(32, 128, 4)), tup(0, tup(1, 32, 0)));
    dst = Layout(tup(cta, 16384), tup(0, 1));
  } else if (shape == "2x64dp128bitlw0213") {
    a.val_id = Layout(tup(64, 128, 2), tup(kDpBits, 1, kDpBits * 64));
    src = Layout(tup(cta, tup(64, 128, 2)), tup(0, tup(1, 64, 0)));
    dst = Layout(tup(cta, 16384), tup(0, 1));
  } else {  // 2x64dp128bitlw0123
    a.val_id = Layout(tup(32, 128, 2, 2), tup(kDpBits, 1, kDpBits * 64, kDpBits * 32));
    src = Layout(tup(cta, tup(32, 128, 2, 2)), tup(0, tup(1, 32, 4096, 0)));
    dst = Layout(tup(cta, 16384), tup(0, 1));
  }
  a.src_layout_bits = src;
  a.dst_layout_bits = dst;
  a.ref_layout_bits = dst;
  std::string ptx_shape = shape.substr(0, shape.find("bit"));  // 128dp256, 4x32dp128, 2x64dp128
  const std::string rows = ptx_shape.substr(0, ptx_shape.find("dp")), bits = ptx_shape.substr(ptx_shape.find("dp") + 2);
  std::string multicast;
  if (shape.rfind("4x32", 0) == 0) multicast = ".warpx4";
  else if (shape.find("lw0213") != std::string::npos) multicast = ".warpx2::02_13";
  else if (shape.find("lw0123") != std::string::npos) multicast = ".warpx2::01_23";
  const std::string lanes = shape.rfind("4x32", 0) == 0 ? "32" : shape.rfind("2x64", 0) == 0 ? "64" : rows;
  a.ptx = "tcgen05.cp.cta_group::" + str(cta) + "." + lanes + "x" + bits + "b" + multicast + " [taddr], s_desc;";
  a.regs_src = {"uint64_t", 1};  // the shared-memory matrix descriptor
  a.regs_dst = {"uint32_t", 1};  // the TMEM address
  a.comment = "smem (descriptor) -> tmem: " + shape;
  a.note =
      "tcgen05.cp: one thread of the CTA (or of the leader CTA, cta_group::2) copies shared memory, described "
      "by a matrix descriptor, into tensor memory; the 4x32dp and 2x64dp forms broadcast 32 (64) lanes to "
      "every subpartition (half).";
  return a;
}

const char* const kShapes[] = {"128dp256bit",  "128dp128bit",        "4dp256bit",
                               "4x32dp128bit", "2x64dp128bitlw0213", "2x64dp128bitlw0123"};

}  // namespace

Layout tmem_sf_layout(const Layout& smem_sf) {
  const IntTuple& s = smem_sf.shape;
  if (s.is_leaf() || s.rank() < 3 || s[0].is_leaf() || s[0].rank() != 2 || s[0][1].is_leaf() || s[0][1].rank() != 2)
    throw Error(
        "tmem_sf_frg: expected an MMA-SF partitioned shape ((MMA_MN,(VecSize,NSF)),num_MMA_MN,num_MMA_K), got " +
        to_string(s));
  const int64_t mma_mn = size(s[0][0]);
  const int64_t vs = static_int(s[0][1][0], "VecSize"), nsf = static_int(s[0][1][1], "NSF");
  if (mma_mn % 32 != 0)
    throw Error("tmem_sf_frg: MMA_MN (" + str(mma_mn) + ") is not a multiple of a 32-lane subpartition");
  // (((32 rows of a subpartition, MN/32 column groups), 4 subpartitions), (VecSize, NSF)) -> virtual
  // (lane + 128 * value), every row replicated in the four subpartitions
  const Layout atom(tup(tup(tup(32, mma_mn / 32), 4), tup(vs, nsf)), tup(tup(tup(1, 512), 32), tup(0, 128)));
  std::vector<IntTuple> rest;
  for (size_t i = 1; i < s.rank(); ++i) rest.push_back(s[i]);
  const Layout logical = tiled_product(atom, Tiler(make_layout(IntTuple::tuple(rest))));
  const Layout restride(tup(128, 16384), tup(tmem_dp(static_cast<int>(kSfBits)), 1));
  return composition(restride, logical);
}

std::vector<CopyAtom> utccp_copy_ops() {
  std::vector<CopyAtom> ops;
  for (const char* shape : kShapes)
    for (int cta : {1, 2}) ops.push_back(utccp(shape, cta));
  return ops;
}

bool is_utccp_op(const std::string& op) {
  for (const char* shape : kShapes)
    for (int cta : {1, 2})
      if (op == std::string("SM100_UTCCP_") + shape + "_" + str(cta) + "cta") return true;
  return false;
}

CopyAtom utccp_copy_atom(const std::string& op, const ValueType& value_type) {
  for (CopyAtom a : utccp_copy_ops())
    if (a.op == op) {
      a.value_type = value_type;
      a.name = "Copy_Atom<" + op + ", " + value_type.name + ">";
      a.val_layout_src = recast_layout(a.src_layout_bits, 1, value_type.bits);
      a.val_layout_dst = recast_layout(a.dst_layout_bits, 1, value_type.bits);
      a.val_layout_ref = recast_layout(a.ref_layout_bits, 1, value_type.bits);
      a.num_val_src = size(a.val_layout_src.shape[1]);
      a.num_val_dst = size(a.val_layout_dst.shape[1]);
      return a;
    }
  throw Error("unknown UTCCP operation '" + op + "' (SM100_UTCCP_{128dp256bit,128dp128bit,4dp256bit,4x32dp128bit," +
              "2x64dp128bitlw0213,2x64dp128bitlw0123}_{1,2}cta)");
}

TiledCopy make_utccp_copy(const CopyAtom& atom, const Layout& tmem_layout) {
  if (atom.family != "SM100_UTCCP")
    throw Error("make_utccp_copy: " + atom.name + " is not a UTCCP copy (SM100_UTCCP_*)");
  const Layout atom_t_layout(size(atom.thr_id), 0);
  const Layout atom_v_layout = coalesce(upcast(atom.val_id, atom.value_type.bits));
  return make_cotiled_copy(atom, make_layout(std::vector<Layout>{atom_t_layout, atom_v_layout}), tmem_layout);
}

std::vector<SfTmemAddress> sf_tmem_addresses(const Layout& tmem_sf, int64_t mn_size, int64_t mn, int64_t k_in_mma,
                                             int64_t k_block) {
  const Layout mma_mode = get(tmem_sf, 0);
  const Layout rows = get(mma_mode, 0);  // ((32,MN/32),4): row mn of copy r is index mn + MN*r
  const int64_t base = get(mma_mode, 1)(k_in_mma) + get(tmem_sf, 2)(k_block);
  const int64_t dp = tmem_dp(static_cast<int>(kSfBits));
  std::vector<SfTmemAddress> out;
  for (int64_t r = 0; r < size(rows) / mn_size; ++r) {
    const int64_t addr = rows(mn + mn_size * r) + base;
    out.push_back({addr / dp, (addr % dp) / 4, (addr % dp) % 4});
  }
  return out;
}

int64_t sf_tmem_columns(const Layout& tmem_sf) {
  // cosize(recast<uint32_t>(tensor).layout()) & TmemColMask: the columns of lane 0 it reaches
  const int64_t dp = tmem_dp(static_cast<int>(kSfBits));
  int64_t last = 0;
  for (int64_t v : layout_values(tmem_sf)) last = std::max(last, (v % dp) / 4);
  return last + 1;
}

}  // namespace cutevis
