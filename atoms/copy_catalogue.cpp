// The copy-atom catalogue: CuTe's Copy_Traits (include/cute/atom/copy_traits_sm*.hpp)
// and the instructions they wrap (include/cute/arch/copy_sm*.hpp), written as
// generators with their rule.  Every bit layout maps (thr, val) -> bit of the data
// the instruction moves; Copy_Atom<Op, T> recasts them from bits to T.
#include "atoms/copy_catalogue.hpp"

#include <algorithm>
#include <map>

#include "atoms/atom_suggestions.hpp"
#include "atoms/notation.hpp"
#include "atoms/tmem.hpp"

namespace cutevis {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// "%first, %first+1, ..." : the operand list of `count` registers.
std::string operands(int first, int count) {
  std::string s;
  for (int i = 0; i < count; ++i) s += (i ? ", %" : "%") + str(first + i);
  return s;
}

// CuTe's asm text of ldmatrix: "ldmatrix.sync.aligned.<qualifiers><sep>{%0, ...}, [%k];\n"
std::string ldmatrix_ptx(const std::string& qualifiers, int regs, const std::string& sep = " ") {
  return "ldmatrix.sync.aligned." + qualifiers + sep + "{" + operands(0, regs) + "}, [%" + str(regs) + "];\n";
}

// CuTe's asm text of stmatrix: "stmatrix.sync.aligned.<qualifiers> [%0], {%1, ...};\n"
std::string stmatrix_ptx(const std::string& qualifiers, int regs) {
  return "stmatrix.sync.aligned." + qualifiers + " [%0], {" + operands(1, regs) + "};\n";
}

// --- bit layouts of the warp-wide matrix moves ---------------------------------------------

// The shared-memory side of ldmatrix/stmatrix: lane t < rows gives the address of
// 128b row t; the other lanes' addresses are ignored (stride 0).
// (T32,V128b) -> bit: ((rows,32/rows),128):((128,0),1), or (32,128):(128,1) when every lane gives a row.
Layout smem_rows(int64_t rows) {
  if (rows == 32) return Layout(tup(32, 128), tup(128, 1));
  return Layout(tup(tup(rows, 32 / rows), 128), tup(tup(128, 0), 1));
}

// n 8x8 b16 matrices in registers: lane t holds 32b word t%4 of row t/4 of every matrix.
// (T32,(V32b,n)) -> bit: (32,(32,n)):(32,(1,1024)); (32,32):(32,1) for one matrix.
Layout b16_fragment(int64_t n) {
  if (n == 1) return Layout(tup(32, 32), tup(32, 1));
  return Layout(tup(32, tup(32, n)), tup(32, tup(1, 1024)));
}

// n 8x8 b16 matrices, transposed: lane t = (t%4, t/4) holds, of every matrix, the
// b16 in column t/4 of rows 2*(t%4) and 2*(t%4)+1.
// ((T4,T8),(V16b,2,n)) -> bit: ((4,8),(16,2,n)):((256,16),(1,128,1024)); no n mode for one matrix.
Layout b16_fragment_trans(int64_t n) {
  IntTuple vs = n == 1 ? tup(16, 2) : tup(16, 2, n);
  IntTuple vd = n == 1 ? tup(1, 128) : tup(1, 128, 1024);
  return Layout(tup(tup(4, 8), vs), tup(tup(256, 16), vd));
}

// b8 matrices, transposed (SM100 ldmatrix/stmatrix .b8 .trans), in blocks of 8 rows x 16B:
// lane t = (t%4, t/4) holds, of every block, the bytes in columns t/4 and t/4+8 of rows
// 2*(t%4) and 2*(t%4)+1.
// ((T4,T8),(V8b,2,2,blocks)) -> bit: ((4,8),(8,2,2,blocks)):((256,8),(1,128,64,1024)); no blocks mode for one.
Layout b8_fragment_trans(int64_t blocks) {
  IntTuple vs = blocks == 1 ? tup(8, 2, 2) : tup(8, 2, 2, blocks);
  IntTuple vd = blocks == 1 ? tup(1, 128, 64) : tup(1, 128, 64, 1024);
  return Layout(tup(tup(4, 8), vs), tup(tup(256, 8), vd));
}

// m16n16 b8 transposed loads, x1 or x2: lane t gives the 128b row
// (t%2) + 2*((t/4)%4) + 8*((t/2)%2) of the first 16x16 matrix; for x2 lanes 16-31 give the
// rows of the second (+16 rows), for x1 their addresses are ignored.
// ((T2,T2,T4,T2),V128b) -> bit: ((2,2,4,2),128):((128,1024,256,x2 ? 2048 : 0),1)
Layout b8_trans_rows(int64_t x) {
  return Layout(tup(tup(2, 2, 4, 2), 128), tup(tup(128, 1024, 256, x == 2 ? 2048 : 0), 1));
}

// --- the fixed-name operations ----------------------------------------------------------------

CopyAtom op_traits(const std::string& op, const std::string& family, int sm, const Layout& thr_id, const Layout& src,
                   const Layout& dst, const Layout& ref, const std::string& ptx, RegisterSpec regs_src,
                   RegisterSpec regs_dst, const std::string& comment) {
  CopyAtom a;
  a.op = op;
  a.family = family;
  a.sm = sm;
  a.thr_id = thr_id;
  a.src_layout_bits = src;
  a.dst_layout_bits = dst;
  a.ref_layout_bits = ref;
  a.ptx = ptx;
  a.regs_src = std::move(regs_src);
  a.regs_dst = std::move(regs_dst);
  a.comment = comment;
  return a;
}

Layout warp_thr_id() { return Layout(32, 1); }  // ThrID of a warp-wide instruction: 32:1
Layout one_thr_id() { return Layout(); }        // ThrID of a one-thread instruction: 1:0

// A warp-wide load from shared memory: the registers are the reference.
CopyAtom warp_load(const std::string& op, const std::string& family, int sm, const Layout& smem, const Layout& regs,
                   const std::string& ptx, int dst_regs, const std::string& comment) {
  return op_traits(op, family, sm, warp_thr_id(), smem, regs, regs, ptx, {"uint128_t", 1}, {"uint32_t", dst_regs},
                   comment);
}

// A warp-wide store to shared memory: the registers (now the source) are the reference.
CopyAtom warp_store(const std::string& op, const std::string& family, int sm, const Layout& regs, const Layout& smem,
                    const std::string& ptx, int src_regs, const std::string& comment) {
  return op_traits(op, family, sm, warp_thr_id(), regs, smem, regs, ptx, {"uint32_t", src_regs}, {"uint128_t", 1},
                   comment);
}

std::vector<CopyAtom> fixed_ops() {
  std::vector<CopyAtom> ops;
  for (int n : {1, 2, 4}) {
    const std::string x = "x" + str(n);
    const std::string rows = "lanes 0-" + str(8 * n - 1) + " give the 128b row addresses";
    // SM75 ldmatrix .b16: n 8x8 matrices, plain (U32xn_N) or transposed (U16x2n_T).
    ops.push_back(
        warp_load("SM75_U32x" + str(n) + "_LDSM_N", "SM75_LDSM", 75, smem_rows(8 * n), b16_fragment(n),
                  ldmatrix_ptx(x + ".m8n8.shared.b16", n), n,
                  "(T32,V128b) smem rows -> (T32,V" + str(32 * n) + "b) regs: " + x + " 8x8 b16 matrices, " + rows));
    ops.push_back(warp_load(
        "SM75_U16x" + str(2 * n) + "_LDSM_T", "SM75_LDSM", 75, smem_rows(8 * n), b16_fragment_trans(n),
        ldmatrix_ptx(x + ".trans.m8n8.shared.b16", n), n,
        "(T32,V128b) smem rows -> (T32,V" + str(32 * n) + "b) regs: " + x + " 8x8 b16 matrices transposed, " + rows));
    // SM90 stmatrix: the SM75 layouts with source and destination swapped.
    ops.push_back(
        warp_store("SM90_U32x" + str(n) + "_STSM_N", "SM90_STSM", 90, b16_fragment(n), smem_rows(8 * n),
                   stmatrix_ptx(x + ".m8n8.shared.b16", n), n,
                   "(T32,V" + str(32 * n) + "b) regs -> (T32,V128b) smem rows: " + x + " 8x8 b16 matrices, " + rows));
    ops.push_back(warp_store(
        "SM90_U16x" + str(2 * n) + "_STSM_T", "SM90_STSM", 90, b16_fragment_trans(n), smem_rows(8 * n),
        stmatrix_ptx(x + ".trans.m8n8.shared.b16", n), n,
        "(T32,V" + str(32 * n) + "b) regs -> (T32,V128b) smem rows: " + x + " 8x8 b16 matrices transposed, " + rows));
    // SM100 ldmatrix m8n16 with 4- or 6-bit sources expanded to 8-bit containers: the SM75 U32xn layouts.
    for (auto [bits, pad] : {std::pair{4, 64}, std::pair{6, 32}}) {
      ops.push_back(warp_load(
          "SM100_SU" + str(bits) + "_DU8x16_x" + str(n) + "_LDSM_N", "SM100_LDSM", 100, smem_rows(8 * n),
          b16_fragment(n), ldmatrix_ptx("m8n16." + x + ".shared.b8x16.b" + str(bits) + "x16_p" + str(pad), n, "  "), n,
          "(T32,V128b) smem rows -> (T32,V" + str(32 * n) + "b) regs: " + x + " 8x16 b8 matrices of b" + str(bits) +
              " data in 8b containers, " + rows));
    }
    // SM100 stmatrix m16n8 .b8 .trans: n blocks of 8 rows x 16B.
    ops.push_back(warp_store(
        "SM100_U8x" + str(4 * n) + "_STSM_T", "SM100_STSM", 100, b8_fragment_trans(n), smem_rows(8 * n),
        stmatrix_ptx("m16n8." + x + ".trans.shared.b8", n), n,
        "(T32,V" + str(32 * n) + "b) regs -> (T32,V128b) smem rows: " + x + " m16n8 b8 matrices transposed, " + rows));
  }
  // SM100 ldmatrix m16n16 .b8 .trans, x1 (U8x8) or x2 (U8x16): 2 registers per 16x16 matrix.
  for (int x : {1, 2}) {
    ops.push_back(
        warp_load("SM100_U8x" + str(8 * x) + "_LDSM_T", "SM100_LDSM", 100, b8_trans_rows(x), b8_fragment_trans(2 * x),
                  ldmatrix_ptx("m16n16.x" + str(x) + ".trans.shared.b8", 2 * x), 2 * x,
                  "(T32,V128b) smem rows -> (T32,V" + str(64 * x) + "b) regs: x" + str(x) +
                      " 16x16 b8 matrices transposed, lanes 0-" + str(16 * x - 1) + " give the row addresses"));
  }
  // movmatrix: transpose one 8x8 b16 matrix held across the warp.
  ops.push_back(op_traits("SM75_U32x1_MOVM_T", "SM75_MOVM", 75, warp_thr_id(), b16_fragment(1), b16_fragment(1),
                          b16_fragment(1), "movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n", {"uint32_t", 1},
                          {"uint32_t", 1}, "(T32,V32b) -> (T32,V32b): one 8x8 b16 matrix, transposed in registers"));
  // SM50 warp shuffles (__shfl_xor_sync, no inline PTX): 2x2 transposes of 32b words between lanes.
  ops.push_back(op_traits("SM50_Shuffle_U32_2x2Trans_XOR1", "SM50_Shuffle", 50, warp_thr_id(),
                          layout_of_notation("(32,64):(64,1)"),
                          layout_of_notation("((2,16),(32,2)):((32,128),(1,64))"),  // (T32,V64b) -> bit
                          layout_of_notation("(32,64):(64,1)"), "", {"uint32_t", 2}, {"uint32_t", 2},
                          "(T32,V64b) -> (T32,V64b): 2x2 transposes of 32b words between lanes t and t^1"));
  ops.push_back(op_traits("SM50_Shuffle_U32_2x2Trans_XOR4", "SM50_Shuffle", 50, warp_thr_id(),
                          layout_of_notation("(32,64):(64,1)"),
                          layout_of_notation("((4,2,4),(32,2)):((64,32,512),(1,256))"),  // (T32,V64b) -> bit
                          layout_of_notation("(32,64):(64,1)"), "", {"uint32_t", 2}, {"uint32_t", 2},
                          "(T32,V64b) -> (T32,V64b): 2x2 transposes of 32b words between lanes t and t^4"));
  // SM100 256-bit global loads/stores that do not allocate in L1.
  const Layout bits256(tup(1, 256), tup(0, 1));
  ops.push_back(op_traits("SM100_LOAD_256bit_CACHE_NOALLOCATION", "SM100_LOAD", 100, one_thr_id(), bits256, bits256,
                          bits256, "ld.global.L1::no_allocate.v8.f32 {" + operands(0, 8) + "}, [%8];\n",
                          {"uint256_t", 1}, {"uint32_t", 8},
                          "(T1,V256b) -> (T1,V256b): one 256b global load, no L1 allocation"));
  ops.push_back(op_traits("SM100_STORE_256bit_CACHE_NOALLOCATION", "SM100_STORE", 100, one_thr_id(), bits256, bits256,
                          bits256, "st.global.L1::no_allocate.v8.f32 [%0], {" + operands(1, 8) + "};\n",
                          {"uint32_t", 8}, {"uint256_t", 1},
                          "(T1,V256b) -> (T1,V256b): one 256b global store, no L1 allocation"));
  for (auto& a : tmem_copy_ops()) ops.push_back(std::move(a));  // SM100 tcgen05.ld/st (atoms/tmem.cpp)
  return ops;
}

bool fixed_op_table_built = false;

const std::map<std::string, CopyAtom>& fixed_op_table() {
  static const std::map<std::string, CopyAtom> table = [] {
    std::map<std::string, CopyAtom> t;
    for (auto& a : fixed_ops()) t.emplace(a.op, std::move(a));  // moved: the layouts are not copied
    fixed_op_table_built = true;
    return t;
  }();
  return table;
}

// Is `op` a fixed operation's name?  From the table once it is built; before, from the names
// alone (the atoms built for them are freed at once: asking whether a kernel file's name is
// an operation does not keep ~3 MB of atoms).
bool is_fixed_op(const std::string& op) {
  if (fixed_op_table_built) return fixed_op_table().count(op) != 0;
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& a : fixed_ops()) n.push_back(a.op);
    std::sort(n.begin(), n.end());
    return n;
  }();
  return std::binary_search(names.begin(), names.end(), op);
}

// --- the parametrised operations ----------------------------------------------------------------

// One thread moves one S into one D: (T1,V{bits}b) -> bit, (1,bits):(0,1).
Layout one_thread_bits(int64_t bits) { return Layout(tup(1, bits), tup(0, 1)); }

// The op names that take template arguments (or alias one that does).
const std::vector<std::string>& cp_async_ops() {
  static const std::vector<std::string> ops = {"SM80_CP_ASYNC_CACHEALWAYS", "SM80_CP_ASYNC_CACHEGLOBAL",
                                               "SM80_CP_ASYNC_CACHEALWAYS_ZFILL", "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL"};
  return ops;
}
const std::vector<std::string>& tma_ops() {
  static const std::vector<std::string> ops = {"SM90_TMA_LOAD",      "SM90_TMA_LOAD_MULTICAST",
                                               "SM90_TMA_STORE",     "SM90_TMA_REDUCE_ADD",
                                               "SM100_TMA_2SM_LOAD", "SM100_TMA_2SM_LOAD_MULTICAST"};
  return ops;
}
const std::vector<std::string>& auto_vectorizing_ops() {
  static const std::vector<std::string> ops = {"AutoVectorizingCopyWithAssumedAlignment", "AutoVectorizingCopy",
                                               "DefaultCopy"};
  return ops;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string strip_namespace(std::string name) {
  for (bool again = true; again;) {
    again = false;
    for (const char* prefix : {"cute::", "cutlass::", "::"})
      if (name.rfind(prefix, 0) == 0) {
        name = name.substr(std::string(prefix).size());
        again = true;
      }
  }
  return name;
}

// The C++ spelling of a parsed template argument: `cutlass::half_t`, `complex<float>`, `128`.
std::string spelling(const Node& n) {
  if (n.kind == Node::Kind::kNumber && n.basis.empty()) return str(n.value);
  if (n.kind != Node::Kind::kName)
    throw Error("expected a type or an integer as a template argument", static_cast<int64_t>(n.begin));
  std::string s = n.name;
  if (n.has_template_args) {
    s += "<";
    for (size_t i = 0; i < n.template_args.size(); ++i) s += (i ? ", " : "") + spelling(n.template_args[i]);
    s += ">";
  }
  return s;
}

ValueType type_arg(const Node& n, const std::string& where) {
  ValueType t;
  std::string s = spelling(n);
  if (!lookup_value_type(s, t))
    throw Error(where + ": '" + s + "' is not an element type we know", static_cast<int64_t>(n.begin));
  return t;
}

// An integer template argument: 8192, _8192, Int<8192>, C<8192>.
int64_t int_arg(const Node& n, const std::string& where) {
  if (n.kind == Node::Kind::kNumber && n.basis.empty()) return n.value;
  if (n.kind == Node::Kind::kName && n.template_args.size() == 1 &&
      (strip_namespace(n.name) == "Int" || strip_namespace(n.name) == "C"))
    return int_arg(n.template_args[0], where);
  throw Error(where + ": expected an integer template argument", static_cast<int64_t>(n.begin));
}

// UniversalCopy<S, D>: one thread assigns an S to a D (dst = src), no PTX of its own.
CopyAtom universal_copy(const ValueType& s, const ValueType& d) {
  std::string op = "UniversalCopy<" + s.name + (s.name == d.name ? "" : ", " + d.name) + ">";
  if (s.bits < 8 || d.bits < 8) throw Error(op + ": UniversalCopy needs types of at least 8 bits");
  return op_traits(op, "Universal", 0, one_thr_id(), one_thread_bits(s.bits), one_thread_bits(d.bits),
                   one_thread_bits(s.bits), "", {s.name, 1}, {d.name, 1},
                   "(T1,V" + str(s.bits) + "b) -> (T1,V" + str(d.bits) + "b): one thread, dst = src");
}

// AutoVectorizingCopyWithAssumedAlignment<N>: a UniversalCopy<uint_bit_t<N>> whose traits
// leave the vector width to the copy algorithm: (1,1):(0,0) bit layouts.
CopyAtom auto_vectorizing_copy(const std::string& spelled, int64_t max_vec_bits) {
  if (max_vec_bits != 8 && max_vec_bits != 16 && max_vec_bits != 32 && max_vec_bits != 64 && max_vec_bits != 128)
    throw Error(spelled + ": MaxVecBits must be 8, 16, 32, 64 or 128");
  const Layout any(tup(1, 1), tup(0, 0));
  std::string reg = max_vec_bits == 8 ? "uint8_t" : "uint" + str(max_vec_bits) + "_t";
  return op_traits(spelled, "Universal", 0, one_thr_id(), any, any, any, "", {reg, 1}, {reg, 1},
                   "(T1,V1) -> (T1,V1): vector width chosen by copy() up to " + str(max_vec_bits) + "b");
}

// cp.async: one thread copies sizeof(S) bytes global -> shared (.ca: cache at all levels,
// .cg: L2 only, 16B only); _ZFILL passes a source size of 0 when the predicate is false.
CopyAtom cp_async(const std::string& base, const ValueType& s, const ValueType& d) {
  std::string op = base + "<" + s.name + (s.name == d.name ? "" : ", " + d.name) + ">";
  bool global = base.find("CACHEGLOBAL") != std::string::npos;
  bool zfill = base.find("ZFILL") != std::string::npos;
  if (s.bits != d.bits) throw Error(op + ": cp.async requires sizeof(src_value_type) == sizeof(dst_value_type)");
  if (global ? s.bits != 128 : (s.bits != 32 && s.bits != 64 && s.bits != 128))
    throw Error(op + ": cp.async." + (global ? "cg copies 16 bytes" : "ca copies 4, 8 or 16 bytes") + ", not " +
                str(s.bits) + " bits");
  std::string ptx = std::string("cp.async.") + (global ? "cg" : "ca") + ".shared.global.L2::128B [%0], [%1], %2" +
                    (zfill ? ", %3" : "") + ";\n";
  return op_traits(op, "SM80_CP_ASYNC", 80, one_thr_id(), one_thread_bits(s.bits), one_thread_bits(d.bits),
                   one_thread_bits(s.bits), ptx, {s.name, 1}, {d.name, 1},
                   "(T1,V" + str(s.bits) + "b) gmem -> (T1,V" + str(d.bits) + "b) smem" +
                       (zfill ? ", zero-filled when the predicate is false" : ""));
}

// TMA, as CuTe's Copy_Traits<SM90_TMA_*, NumBitsPerTMA> describe it: one logical thread moves
// the whole box, (1,NumBitsPerTMA):(0,1).  Only these traits are modelled.
CopyAtom tma(const std::string& base, int64_t bits) {
  if (bits <= 0) throw Error(base + ": NumBitsPerTMA must be positive");
  std::string ptx = base == "SM90_TMA_LOAD"
                        ? "cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                    : base == "SM90_TMA_LOAD_MULTICAST" ? "cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::"
                                                          "complete_tx::bytes.multicast::cluster.L2::cache_hint"
                    : base == "SM90_TMA_STORE"          ? "cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group"
                                               : "cp.reduce.async.bulk.tensor.Nd.global.shared::cta.add.bulk_group";
  bool load = base.find("LOAD") != std::string::npos;
  // SM100_TMA_2SM_LOAD[_MULTICAST]: a CTA pair, ThrID _2:_1, (2,NumBitsPerTMA):(NumBitsPerTMA,1)
  bool pair = base.rfind("SM100_TMA_2SM", 0) == 0;
  if (pair)
    ptx = "cp.async.bulk.tensor.Nd.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes" +
          std::string(base.find("MULTICAST") != std::string::npos ? ".multicast::cluster" : "");
  Layout bits_layout = pair ? Layout(tup(2, bits), tup(bits, 1)) : one_thread_bits(bits);
  CopyAtom a =
      op_traits("Copy_Traits<" + base + ", " + str(bits) + ">", pair ? "SM100_TMA" : "SM90_TMA", pair ? 100 : 90,
                pair ? Layout(2, 1) : one_thr_id(), bits_layout, bits_layout, bits_layout, ptx, {}, {},
                "(T" + str(pair ? 2 : 1) + ",V" + str(bits) + "b) " + (load ? "gmem box -> smem" : "smem -> gmem box") +
                    (pair ? " of each CTA of the pair" : ""));
  a.num_bits_per_tma = bits;
  a.note =
      "TMA modelled as its Copy_Traits only: one logical thread moving NumBitsPerTMA bits. The descriptor, the gmem "
      "basis and box that make_tma_copy derives from a gmem tensor and an smem layout, multicast and mbarriers are not "
      "modelled. ptx: N is the rank of the TMA tensor (SM90_TMA_*_1D .. _5D); TMA has no SRegisters/DRegisters.";
  return a;
}

std::vector<std::string> suggest(const std::string& word, const std::vector<std::string>& vocabulary) {
  if (word.size() > kMaxSuggestedNameLength) return {};  // no plausible name is that long
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& w : vocabulary) scored.emplace_back(edit_distance(word, w), w);
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  size_t limit = std::max<size_t>(3, word.size() / 3);
  for (const auto& [d, w] : scored)
    if (out.size() < 3 && d <= limit) out.push_back(w);
  return out;
}

std::string did_you_mean(const std::vector<std::string>& s) {
  if (s.empty()) return "";
  std::string m = "; did you mean ";
  for (size_t i = 0; i < s.size(); ++i) m += (i ? (i + 1 == s.size() ? " or " : ", ") : "") + ("'" + s[i] + "'");
  return m + "?";
}

[[noreturn]] void unknown_op(const std::string& base, const Node& at) {
  throw Error("unknown copy operation '" + base + "'" + did_you_mean(suggest(base, copy_op_names())),
              static_cast<int64_t>(at.begin));
}

void expect_template_args(const Node& n, const std::string& base, size_t min, size_t max, const std::string& usage) {
  size_t k = n.template_args.size();
  if (k < min || k > max) throw Error(base + " takes " + usage, static_cast<int64_t>(n.begin));
}

// Copy_Traits<Op> from a parsed op: SM75_U32x4_LDSM_N, UniversalCopy<uint128_t>, Copy_Traits<SM90_TMA_LOAD, 8192>.
CopyAtom copy_traits(const Node& n) {
  if (n.kind != Node::Kind::kName)
    throw Error("expected a copy operation such as SM75_U32x4_LDSM_N", static_cast<int64_t>(n.begin));
  const std::string base = strip_namespace(n.name);
  if (base == "Copy_Traits") {
    expect_template_args(n, base, 1, 2, "an operation and, for TMA, NumBitsPerTMA: Copy_Traits<SM90_TMA_LOAD, 8192>");
    const Node& op = n.template_args[0];
    std::string op_base = op.kind == Node::Kind::kName ? strip_namespace(op.name) : "";
    if (contains(tma_ops(), op_base)) {
      if (n.template_args.size() != 2)
        throw Error("Copy_Traits<" + op_base + ", NumBitsPerTMA>: the number of bits per TMA is missing",
                    static_cast<int64_t>(n.begin));
      return tma(op_base, int_arg(n.template_args[1], "Copy_Traits<" + op_base + ", NumBitsPerTMA>"));
    }
    if (n.template_args.size() != 1)
      throw Error("Copy_Traits<" + op_base + "> takes no further arguments", static_cast<int64_t>(n.begin));
    return copy_traits(op);
  }
  if (auto it = fixed_op_table().find(base); it != fixed_op_table().end()) {
    if (n.has_template_args) throw Error(base + " takes no template arguments", static_cast<int64_t>(n.begin));
    return it->second;
  }
  if (base == "UniversalCopy" || contains(cp_async_ops(), base)) {
    expect_template_args(n, base, 1, 2, "one or two element types: " + base + "<S[, D]>");
    ValueType s = type_arg(n.template_args[0], base);
    ValueType d = n.template_args.size() == 2 ? type_arg(n.template_args[1], base) : s;
    return base == "UniversalCopy" ? universal_copy(s, d) : cp_async(base, s, d);
  }
  if (contains(auto_vectorizing_ops(), base)) {
    if (base != "AutoVectorizingCopyWithAssumedAlignment") {
      if (n.has_template_args) throw Error(base + " takes no template arguments", static_cast<int64_t>(n.begin));
      return auto_vectorizing_copy(base, base == "DefaultCopy" ? 8 : 128);
    }
    expect_template_args(n, base, 0, 1, "at most one template argument, MaxVecBits");
    int64_t bits = n.template_args.empty() ? 128 : int_arg(n.template_args[0], base);
    return auto_vectorizing_copy(base + "<" + str(bits) + ">", bits);
  }
  if (contains(tma_ops(), base))
    throw Error(base +
                    "'s traits carry NumBitsPerTMA (the TMA box in bits, which make_tma_copy computes): name it as "
                    "Copy_Traits<" +
                    base + ", 8192>",
                static_cast<int64_t>(n.begin));
  unknown_op(base, n);
}

ValueType value_type_named(const std::string& name) {
  ValueType t;
  if (!lookup_value_type(name, t)) throw Error("unknown element type '" + name + "'");
  return t;
}

}  // namespace

// Copy_Atom<Traits, T>: ValLayoutX = recast_layout<uint1_t, T>(XLayout); each must keep ThrID's threads.
CopyAtom with_value_type(CopyAtom a, const ValueType& t) {
  a.value_type = t;
  a.name = "Copy_Atom<" + a.op + ", " + t.name + ">";
  if (t.bits <= 0) throw Error(a.name + ": the value type has no width");
  auto recast = [&](const Layout& bits, const char* side) {
    Layout v;
    try {
      v = recast_layout(bits, 1, t.bits);
    } catch (const Error& e) {
      throw Error(a.name + ": " + side + "Layout " + to_string(bits) + " cannot be recast to " + str(t.bits) +
                  "-bit values (" + e.what() + ")");
    }
    if (size(v.shape[0]) != size(a.thr_id))
      throw Error(a.name + ": CopyOperation is not valid for " + side + " of ValType (" + str(size(v.shape[0])) +
                  " threads after recasting " + to_string(bits) + " to " + str(t.bits) + "-bit values, ThrID has " +
                  str(size(a.thr_id)) + ")");
    return v;
  };
  a.val_layout_src = recast(a.src_layout_bits, "Src");
  a.val_layout_dst = recast(a.dst_layout_bits, "Dst");
  a.val_layout_ref = recast(a.ref_layout_bits, "Ref");
  a.num_val_src = size(a.val_layout_src.shape[1]);
  a.num_val_dst = size(a.val_layout_dst.shape[1]);
  return a;
}

CopyAtom make_copy_atom(const Node& op, const ValueType& value_type) {
  return with_value_type(copy_traits(op), value_type);
}

CopyAtom copy_operation(const Node& op) { return copy_traits(op); }

CopyAtom make_copy_atom(const std::string& op, const ValueType& value_type) {
  return make_copy_atom(parse_expression(op), value_type);
}

CopyAtom find_copy_atom(const std::string& name) { return find_copy_atom(name, true); }

CopyAtom find_copy_atom(const std::string& name, bool with_suggestions) {
  Node n = parse_expression(name);
  const std::string base = n.kind == Node::Kind::kName ? strip_namespace(n.name) : "";
  if (base.empty())
    throw Error("expected a copy atom such as Copy_Atom<SM75_U32x4_LDSM_N, half_t>, got '" + name + "'");
  if (!n.args.empty()) throw Error(base + "{} takes no constructor arguments", static_cast<int64_t>(n.args[0].begin));
  if (base == "Copy_Atom") {
    if (n.template_args.size() != 2)
      throw Error(
          "Copy_Atom takes two template arguments, the operation and the value type: Copy_Atom<SM75_U32x4_LDSM_N, "
          "half_t>",
          static_cast<int64_t>(n.begin));
    return make_copy_atom(n.template_args[0], type_arg(n.template_args[1], "Copy_Atom"));
  }
  if (is_copy_op_name(base))
    throw Error("'" + spelling(n) + "' is a copy operation; a copy atom also names its value type, e.g. Copy_Atom<" +
                spelling(n) + ", half_t>");
  throw Error("unknown copy atom '" + name + "'" +
              (with_suggestions ? did_you_mean(suggest(name, copy_atom_names())) : std::string()));
}

std::vector<std::string> copy_op_names() {
  std::vector<std::string> names;
  for (const auto& [op, traits] : fixed_op_table()) names.push_back(op);
  names.push_back("UniversalCopy<S>");
  names.push_back("UniversalCopy<S, D>");
  for (const auto& b : auto_vectorizing_ops())
    names.push_back(b == "AutoVectorizingCopyWithAssumedAlignment" ? b + "<N>" : b);
  for (const auto& b : cp_async_ops()) names.push_back(b + "<S>");
  for (const auto& b : tma_ops()) names.push_back("Copy_Traits<" + b + ", NumBitsPerTMA>");
  return names;
}

bool is_copy_op_name(const std::string& name) {
  std::string base = strip_namespace(name);
  // every fixed operation is named SM<arch>_... (tests/atoms/copy_op_names_test.cpp): any other
  // name, asked about by the hundred in a kernel file, is answered without building the table
  return (base.rfind("SM", 0) == 0 && is_fixed_op(base)) || base == "UniversalCopy" || base == "Copy_Traits" ||
         contains(cp_async_ops(), base) || contains(tma_ops(), base) || contains(auto_vectorizing_ops(), base);
}

std::vector<CopyAtom> copy_catalogue() {
  std::vector<CopyAtom> out;
  auto add = [&](const CopyAtom& traits, std::initializer_list<const char*> types) {
    for (const char* t : types) out.push_back(with_value_type(traits, value_type_named(t)));
  };
  for (const auto& [op, traits] : fixed_op_table()) {
    // tcgen05 ld/st: 32-bit tensor-memory words as float; the _16b (pack::16b) forms also as half_t
    if (traits.family == "SM100_TMEM") {
      if (op.size() > 4 && op.compare(op.size() - 4, 4, "_16b") == 0) add(traits, {"float", "half_t"});
      else add(traits, {"float"});
      continue;
    }
    if (traits.family == "SM100_LDSM" || traits.family == "SM100_STSM") add(traits, {"uint8_t", "float_e4m3_t"});
    else if (traits.family == "SM50_Shuffle" || traits.family == "SM100_LOAD" || traits.family == "SM100_STORE")
      add(traits, {"float"});
    else add(traits, {"half_t", "bfloat16_t"});
  }
  for (const char* s : {"uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint128_t"}) {
    ValueType vs = value_type_named(s);
    CopyAtom traits = universal_copy(vs, vs);
    out.push_back(with_value_type(traits, vs));
    if (vs.bits >= 16) add(traits, {"half_t"});
    if (vs.bits >= 32) add(traits, {"float"});
  }
  for (const char* s : {"half_t", "float", "double"}) {
    ValueType vs = value_type_named(s);
    out.push_back(with_value_type(universal_copy(vs, vs), vs));
  }
  add(auto_vectorizing_copy("AutoVectorizingCopyWithAssumedAlignment<128>", 128), {"half_t", "float"});
  add(auto_vectorizing_copy("AutoVectorizingCopy", 128), {"half_t", "float"});
  add(auto_vectorizing_copy("DefaultCopy", 8), {"half_t", "float"});
  for (const auto& base : cp_async_ops())
    for (const char* s : {"uint32_t", "uint64_t", "uint128_t"}) {
      if (base.find("CACHEGLOBAL") != std::string::npos && std::string(s) != "uint128_t") continue;
      ValueType vs = value_type_named(s);
      add(cp_async(base, vs, vs), {"half_t", "float"});
    }
  // TMA: one 128B-swizzle atom's box (8 rows x 128B = 8192 bits) as the representative NumBitsPerTMA.
  for (const auto& base : tma_ops()) add(tma(base, 8192), {"half_t", "float"});
  return out;
}

std::vector<std::string> copy_atom_names() {
  std::vector<std::string> names;
  for (const auto& a : copy_catalogue()) names.push_back(a.name);
  return names;
}

std::string to_string(const CopyAtom& atom, bool underscore) {
  return "Copy_Atom\n"
         "  ThrID:        " +
         to_string(atom.thr_id, underscore) +
         "\n"
         "  ValLayoutSrc: " +
         to_string(atom.val_layout_src, underscore) +
         "\n"
         "  ValLayoutDst: " +
         to_string(atom.val_layout_dst, underscore) +
         "\n"
         "  ValLayoutRef: " +
         to_string(atom.val_layout_ref, underscore) +
         "\n"
         "  ValueType:    " +
         str(atom.value_type.bits) + "b\n";
}

std::string to_string(const CopyAtom& atom) { return to_string(atom, false); }

}  // namespace cutevis
