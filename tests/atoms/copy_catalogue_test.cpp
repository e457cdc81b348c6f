// Consistency over the whole copy catalogue, the rules of the generators, names and errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "atoms/copy_catalogue.hpp"
#include "tests/atoms/copy_support.hpp"

using namespace cutevis;
using cutevis::test::contains;

namespace {

// The set of bits a (thr,val) -> bit layout touches.
std::set<int64_t> image(const Layout& l) {
  auto v = layout_values(l);
  return {v.begin(), v.end()};
}

int register_bits(const std::string& c_type) {
  if (c_type == "uint256_t") return 256;
  ValueType t;
  REQUIRE(lookup_value_type(c_type, t));
  return t.bits;
}

int count_operands(const std::string& ptx) { return static_cast<int>(std::count(ptx.begin(), ptx.end(), '%')); }

std::string error_of(const std::string& name) {
  try {
    find_copy_atom(name);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("copy catalogue: every atom is consistent") {
  const auto catalogue = copy_catalogue();
  CHECK(catalogue.size() >= 80);
  std::set<std::string> names;
  for (const CopyAtom& a : catalogue) {
    INFO(a.name);
    CHECK(names.insert(a.name).second);  // no duplicates
    // One ThrID for every side, before and after recasting.
    const int64_t threads = size(a.thr_id);
    for (const Layout* l : {&a.src_layout_bits, &a.dst_layout_bits, &a.ref_layout_bits, &a.val_layout_src,
                            &a.val_layout_dst, &a.val_layout_ref}) {
      REQUIRE(rank(*l) == 2);
      CHECK(size(l->shape[0]) == threads);
    }
    // Source, destination and reference cover the same bits, 0 .. N-1.
    std::set<int64_t> bits = image(a.ref_layout_bits);
    CHECK(image(a.src_layout_bits) == bits);
    CHECK(image(a.dst_layout_bits) == bits);
    CHECK(*bits.begin() == 0);
    CHECK(*bits.rbegin() == static_cast<int64_t>(bits.size()) - 1);
    // The register side owns every bit once: the reference, except for tcgen05.ld/st (SM100_TMEM), whose
    // reference is the tensor-memory side, addressed whole by every thread of the warp (stride 0 over T).
    const bool tmem = a.family == "SM100_TMEM", tmem_load = tmem && a.op.find("_LOAD_") != std::string::npos;
    const Layout& register_side = !tmem ? a.ref_layout_bits : tmem_load ? a.dst_layout_bits : a.src_layout_bits;
    CHECK(static_cast<size_t>(size(register_side)) == bits.size());
    if (tmem) {
      const Layout& tmem_side = tmem_load ? a.src_layout_bits : a.dst_layout_bits;
      CHECK(tmem_side == a.ref_layout_bits);
      int64_t not_broadcast = 0;
      for (int64_t t = 0; t < threads; ++t)
        for (int64_t v = 0; v < size(tmem_side.shape[1]); ++v)
          not_broadcast += tmem_side(t + threads * v) != tmem_side(threads * v);
      CHECK(not_broadcast == 0);
    }
    // The value layouts are the bit layouts in units of T.
    CHECK(a.val_layout_src == recast_layout(a.src_layout_bits, 1, a.value_type.bits));
    CHECK(a.val_layout_dst == recast_layout(a.dst_layout_bits, 1, a.value_type.bits));
    CHECK(a.val_layout_ref == recast_layout(a.ref_layout_bits, 1, a.value_type.bits));
    CHECK(a.num_val_src == size(a.val_layout_src.shape[1]));
    CHECK(a.num_val_dst == size(a.val_layout_dst.shape[1]));
    // Names round-trip, both ways of naming give the same atom.
    CopyAtom again = find_copy_atom(a.name);
    CHECK(again.val_layout_dst == a.val_layout_dst);
    CHECK(make_copy_atom(a.op, a.value_type).name == a.name);
    CHECK(find_copy_atom("cute::" + a.name + "{}").name == a.name);
    // Registers hold exactly what one thread moves (AutoVectorizing leaves the width open; TMA has none;
    // tcgen05's tensor-memory side is one 32-bit address).
    const bool tma = a.num_bits_per_tma > 0;
    if (!tma && a.op.find("AutoVectorizing") == std::string::npos && a.op != "DefaultCopy") {
      if (!tmem || !tmem_load)
        CHECK(a.regs_src.count * register_bits(a.regs_src.c_type) == size(a.src_layout_bits.shape[1]));
      if (!tmem || tmem_load)
        CHECK(a.regs_dst.count * register_bits(a.regs_dst.c_type) == size(a.dst_layout_bits.shape[1]));
      if (tmem) CHECK((tmem_load ? a.regs_src : a.regs_dst).count == 1);
    }
    // ldmatrix/stmatrix/movmatrix/256b: one asm operand per register plus the address.
    if (a.family.find("LDSM") != std::string::npos || a.family.find("STSM") != std::string::npos)
      CHECK(count_operands(a.ptx) == a.regs_src.count + a.regs_dst.count);
    if (a.sm >= 75 && a.family != "SM80_CP_ASYNC" && !tma) CHECK(!a.ptx.empty());
    CHECK(!a.comment.empty());
    CHECK(to_string(a).find("ValueType:    " + std::to_string(a.value_type.bits) + "b\n") != std::string::npos);
  }
  CHECK(copy_atom_names().size() == catalogue.size());
  // every tcgen05.ld/st operation is listed (as float; the pack::16b forms also as half_t)
  CHECK(std::count_if(catalogue.begin(), catalogue.end(), [](const CopyAtom& a) { return a.family == "SM100_TMEM"; }) ==
        148 + 74);
}

TEST_CASE("copy catalogue: STSM is LDSM with source and destination swapped") {
  for (std::string n : {"1", "2", "4"}) {
    CopyAtom ld = make_copy_atom("SM75_U32x" + n + "_LDSM_N", ValueType{"half_t", 16});
    CopyAtom st = make_copy_atom("SM90_U32x" + n + "_STSM_N", ValueType{"half_t", 16});
    CHECK(st.src_layout_bits == ld.dst_layout_bits);
    CHECK(st.dst_layout_bits == ld.src_layout_bits);
    CHECK(st.ref_layout_bits == st.src_layout_bits);  // the registers are the reference
    CHECK(ld.ref_layout_bits == ld.dst_layout_bits);
    std::string t = std::to_string(2 * std::stoi(n));
    CopyAtom ldt = make_copy_atom("SM75_U16x" + t + "_LDSM_T", ValueType{"half_t", 16});
    CopyAtom stt = make_copy_atom("SM90_U16x" + t + "_STSM_T", ValueType{"half_t", 16});
    CHECK(stt.src_layout_bits == ldt.dst_layout_bits);
    CHECK(stt.dst_layout_bits == ldt.src_layout_bits);
    // The SM100 4/6-bit expanding loads move their 8-bit containers like SM75's U32xN.
    CHECK(make_copy_atom("SM100_SU4_DU8x16_x" + n + "_LDSM_N", ValueType{"uint8_t", 8}).dst_layout_bits ==
          ld.dst_layout_bits);
  }
}

TEST_CASE("copy catalogue: the PTX and registers verify runs are CuTe's") {
  CopyAtom ld = find_copy_atom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  CHECK(ld.ptx == "ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n");
  CHECK(ld.regs_src.c_type == "uint128_t");
  CHECK(ld.regs_src.count == 1);
  CHECK(ld.regs_dst.c_type == "uint32_t");
  CHECK(ld.regs_dst.count == 4);
  CHECK(find_copy_atom("Copy_Atom<SM75_U16x2_LDSM_T, half_t>").ptx ==
        "ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];\n");
  CopyAtom st = find_copy_atom("Copy_Atom<SM90_U16x4_STSM_T, half_t>");
  CHECK(st.ptx == "stmatrix.sync.aligned.x2.trans.m8n8.shared.b16 [%0], {%1, %2};\n");
  CHECK(st.regs_src.count == 2);
  CHECK(st.regs_dst.c_type == "uint128_t");
  CHECK(find_copy_atom("Copy_Atom<SM100_U8x8_LDSM_T, uint8_t>").ptx ==
        "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];\n");
  CHECK(find_copy_atom("Copy_Atom<SM100_SU6_DU8x16_x2_LDSM_N, uint8_t>").ptx ==
        "ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32  {%0, %1}, [%2];\n");
  CHECK(find_copy_atom("Copy_Atom<SM100_U8x16_STSM_T, uint8_t>").ptx ==
        "stmatrix.sync.aligned.m16n8.x4.trans.shared.b8 [%0], {%1, %2, %3, %4};\n");
  CopyAtom cp = find_copy_atom("Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, half_t>");
  CHECK(cp.ptx == "cp.async.cg.shared.global.L2::128B [%0], [%1], %2, %3;\n");
  CHECK(cp.regs_src.c_type == "uint128_t");
  CHECK(find_copy_atom("Copy_Atom<UniversalCopy<uint64_t>, half_t>").ptx.empty());
  CHECK(find_copy_atom("Copy_Atom<UniversalCopy<uint64_t>, half_t>").regs_dst.c_type == "uint64_t");
}

TEST_CASE("copy catalogue: names with namespaces, braces, and the value type given separately") {
  CHECK(find_copy_atom("cute::Copy_Atom<cute::SM75_U32x4_LDSM_N, cutlass::half_t>{}").name ==
        "Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  CHECK(make_copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", ValueType{"half_t", 16}).name ==
        "Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>");
  CHECK(make_copy_atom("cute::UniversalCopy<uint32_t, uint32_t>", ValueType{"half_t", 16}).op ==
        "UniversalCopy<uint32_t>");
  CopyAtom mixed = find_copy_atom("Copy_Atom<UniversalCopy<uint16_t, uint32_t>, half_t>");
  CHECK(to_string(mixed.val_layout_src) == "(1,1):(0,1)");
  CHECK(to_string(mixed.val_layout_dst) == "(1,2):(0,1)");
  CopyAtom tma = find_copy_atom("Copy_Atom<Copy_Traits<SM90_TMA_LOAD, Int<8192>>, half_t>");
  CHECK(tma.num_bits_per_tma == 8192);
  CHECK(to_string(tma.val_layout_src) == "(1,512):(0,1)");
  CHECK(!tma.note.empty());
  CHECK(find_copy_atom("Copy_Atom<Copy_Traits<SM90_TMA_STORE, _1024>, float>").name ==
        "Copy_Atom<Copy_Traits<SM90_TMA_STORE, 1024>, float>");
  CHECK(find_copy_atom("Copy_Atom<DefaultCopy, float>").regs_src.c_type == "uint8_t");
  CHECK(find_copy_atom("Copy_Atom<AutoVectorizingCopyWithAssumedAlignment<64>, float>").regs_src.c_type == "uint64_t");
  CHECK(to_string(find_copy_atom("Copy_Atom<SM75_U32x1_LDSM_N, half_t>")) ==
        "Copy_Atom\n  ThrID:        32:1\n  ValLayoutSrc: ((8,4),8):((8,0),1)\n  ValLayoutDst: (32,2):(2,1)\n"
        "  ValLayoutRef: (32,2):(2,1)\n  ValueType:    16b\n");
}

TEST_CASE("copy catalogue: value types CuTe rejects are errors, those it accepts are not") {
  // Each verdict checked against CuTe's static_asserts in Copy_Atom.
  CHECK(contains(error_of("Copy_Atom<SM75_U32x4_LDSM_N, double>"), "not valid for Dst of ValType"));
  CHECK(contains(error_of("Copy_Atom<SM75_U16x2_LDSM_T, float>"), "not valid for Dst of ValType"));
  CHECK(contains(error_of("Copy_Atom<SM75_U32x1_LDSM_N, uint64_t>"), "not valid for Dst of ValType"));
  CHECK(contains(error_of("Copy_Atom<SM90_U16x8_STSM_T, float>"), "not valid for Src of ValType"));
  CHECK(error_of("Copy_Atom<SM75_U16x8_LDSM_T, uint8_t>").empty());
  CHECK(error_of("Copy_Atom<SM75_U32x4_LDSM_N, int4b_t>").empty());
  // cp.async sizes and UniversalCopy widths (static_asserts of the ops).
  CHECK(contains(error_of("Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>, float>"), "16 bytes"));
  CHECK(contains(error_of("Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint16_t>, half_t>"), "4, 8 or 16 bytes"));
  CHECK(contains(error_of("Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint32_t, uint64_t>, float>"),
                 "sizeof(src_value_type) == sizeof(dst_value_type)"));
  CHECK(contains(error_of("Copy_Atom<UniversalCopy<int4b_t>, int4b_t>"), "at least 8 bits"));
  CHECK(contains(error_of("Copy_Atom<AutoVectorizingCopyWithAssumedAlignment<48>, float>"), "MaxVecBits"));
  // A 6-bit type cannot be recast from 128-bit rows.
  CHECK(contains(error_of("Copy_Atom<SM75_U32x4_LDSM_N, float_e2m3_t>"), "cannot be recast"));
}

TEST_CASE("copy catalogue: bad names give clear errors with the nearest valid names") {
  std::string e = error_of("Copy_Atom<SM75_U32x4_LDSM, half_t>");
  CHECK(contains(e, "unknown copy operation 'SM75_U32x4_LDSM'"));
  CHECK(contains(e, "SM75_U32x4_LDSM_N"));
  CHECK(contains(error_of("Copy_Atom<SM90_U32x4_STSM_T, half_t>"), "SM90_U32x4_STSM_N"));
  CHECK(contains(error_of("Copy_Atom<UniversalCopy<uint128_t>, halft>"), "'halft' is not an element type"));
  CHECK(contains(error_of("SM75_U32x4_LDSM_N"), "Copy_Atom<SM75_U32x4_LDSM_N, half_t>"));
  CHECK(contains(error_of("Copy_Atom<SM75_U32x4_LDSM_N>"), "two template arguments"));
  CHECK(contains(error_of("Copy_Atom<SM90_TMA_LOAD, half_t>"), "Copy_Traits<SM90_TMA_LOAD, 8192>"));
  CHECK(contains(error_of("Copy_Atom<UniversalCopy, float>"), "UniversalCopy<S[, D]>"));
  CHECK(contains(error_of("Copy_Atom<SM75_U32x4_LDSM_N<uint32_t>, half_t>"), "takes no template arguments"));
  CHECK(contains(error_of("Copy_Atm<SM75_U32x4_LDSM_N, half_t>"), "unknown copy atom"));
  CHECK(contains(error_of("Copy_Atom<SM75_U32x4_LDSM_N, half_t"), "unbalanced"));
}
