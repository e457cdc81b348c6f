// TiledCopy: the rules make_tiled_copy* obey, their errors, and the expression names.
#include <doctest/doctest.h>

#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "lib/ownership.hpp"
#include "tests/atoms/copy_support.hpp"

using namespace cutevis;
using cutevis::test::contains;
using cutevis::test::copy_registry;
using cutevis::test::layout_of;

namespace {

TiledCopy tiled(const std::string& expr) {
  Value v = evaluate_expression(expr, copy_registry());
  REQUIRE(as_tiled_copy(v) != nullptr);
  return *as_tiled_copy(v);
}

Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return Error("");
}

Error expression_error(const std::string& expr) {
  return error_of([&] { evaluate_expression(expr, copy_registry()); });
}

OwnershipView owners(const Layout& tv, const TiledCopy& c) {
  return OwnershipView::from_tv(tv, c.tile_mn[0].value(), c.tile_mn[1].value());
}

// SM80_16x8x16_F32F16F16F32_TN with Layout<Shape<_2,_2,_1>> and no permutation, as CuTe prints it
// (reference tiled.jsonl): B holds only 4 values per thread.
TiledMma sm80_2x2() {
  TiledMma m;
  m.tile_mnk = tup(32, 16, 16);
  m.tv_layout_a = layout_of("((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))");
  m.tv_layout_b = layout_of("((4,8,2,2),((2,2),(1,1))):((32,1,0,8),((16,128),(0,0)))");
  m.tv_layout_c = layout_of("((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))");
  return m;
}

}  // namespace

TEST_CASE("tiled copy: the side the atom's reference is on is the TiledLayout_TV") {
  // LDSM: the registers (dst) are the reference; STSM: the registers (src); UniversalCopy: both.
  TiledCopy ld = make_tiled_copy(find_copy_atom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>"), layout_of("(16,8):(1,16)"),
                                 layout_of("(1,8):(0,1)"));
  CHECK(same_function(ld.layout_d_tv, ld.tiled_layout_tv));
  CHECK_FALSE(same_function(ld.layout_s_tv, ld.tiled_layout_tv));
  TiledCopy st = make_tiled_copy(find_copy_atom("Copy_Atom<SM90_U32x4_STSM_N, half_t>"), layout_of("(16,8):(1,16)"),
                                 layout_of("(1,8):(0,1)"));
  CHECK(same_function(st.layout_s_tv, st.tiled_layout_tv));
  CHECK(same_function(st.layout_d_tv, ld.layout_s_tv));  // stmatrix writes the rows ldmatrix reads
  TiledCopy u = make_tiled_copy(find_copy_atom("Copy_Atom<UniversalCopy<uint128_t>, half_t>"),
                                layout_of("(32,8):(8,1)"), layout_of("(1,8):(0,1)"));
  CHECK(same_function(u.layout_s_tv, u.tiled_layout_tv));
  CHECK(same_function(u.layout_d_tv, u.tiled_layout_tv));
  CHECK(u.tile_mn == tup(32, 64));
  CHECK(u.num_threads == 256);
  CHECK(owners(u.layout_s_tv, u).max_owners() == 1);
  CHECK(owners(u.layout_s_tv, u).unowned_cells() == 0);
}

TEST_CASE("tiled copy: ldmatrix x1 reads each row through 4 lanes' addresses (broadcast owners kept)") {
  TiledCopy c = make_tiled_copy(find_copy_atom("Copy_Atom<SM75_U32x1_LDSM_N, half_t>"), layout_of("(32,1):(1,0)"),
                                layout_of("(1,2):(0,1)"));
  OwnershipView s = owners(c.layout_s_tv, c), d = owners(c.layout_d_tv, c);
  CHECK(d.max_owners() == 1);
  CHECK(d.unowned_cells() == 0);
  // SrcLayout ((8,4),128):((128,0),1): lanes t, t+8, t+16, t+24 give the same row address.
  CHECK(s.max_owners() == 4);
  CHECK(s.unowned_cells() == 0);
}

TEST_CASE("tiled copy: CuTe's static_asserts are errors") {
  CopyAtom ldsm = find_copy_atom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  CHECK(contains(error_of([&] { make_tiled_copy(ldsm, layout_of("(16,1):(1,0)"), layout_of("(1,8):(0,1)")); }).what(),
                 "too few thrs"));
  CHECK(contains(error_of([&] { make_tiled_copy(ldsm, layout_of("(32,1):(1,0)"), layout_of("(1,4):(0,1)")); }).what(),
                 "too few vals"));
  // As CuTe: make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>, 2x2 SM80 without permutation) fails.
  CHECK(contains(
      error_of([&] { make_tiled_copy_B(find_copy_atom("Copy_Atom<SM75_U16x8_LDSM_T, half_t>"), sm80_2x2()); }).what(),
      "too few vals"));
  CHECK(error_of([&] {
          make_tiled_copy_B(find_copy_atom("Copy_Atom<SM75_U16x4_LDSM_T, half_t>"), sm80_2x2());
        }).what() == std::string());
  CHECK(contains(error_of([&] {
                   make_tiled_copy_C_atom(find_copy_atom("Copy_Atom<UniversalCopy<uint128_t>, half_t>"), sm80_2x2());
                 }).what(),
                 "moves 8 values"));
  CHECK(contains(error_of([&] { make_tiled_copy_impl(ldsm, layout_of("(32,8,2):(1,32,256)"), tup(32, 16)); }).what(),
                 "rank 2"));
}

TEST_CASE("tiled copy: a shape tiler prints as a shape, a tuple of layouts as layouts") {
  CopyAtom u32 = find_copy_atom("Copy_Atom<UniversalCopy<uint32_t>, half_t>");
  TiledCopy shape = make_tiled_copy_impl(u32, layout_of("(32,2):(2,1)"), tup(8, 8));
  TiledCopy tile = make_tiled_copy_impl(u32, layout_of("(32,2):(2,1)"),
                                        Tiler::tuple({Tiler(layout_of("8:2")), Tiler(layout_of("8:1"))}));
  CHECK(tiler_to_string(shape) == "(8,8)");
  CHECK(tiler_to_string(tile) == "(8:2,8:1)");
  CHECK(tile.tile_mn == tup(8, 8));
  CHECK(to_string(shape, true)
            .rfind("TiledCopy\n  Tiler_MN:       (_8,_8)\n  TiledLayout_TV: (_32,_2):(_2,_1)\nCopy_Atom\n", 0) == 0);
}

TEST_CASE("tiled copy: rank-1 thread and value layouts") {
  TiledCopy c = make_tiled_copy(find_copy_atom("Copy_Atom<UniversalCopy<uint32_t>, half_t>"), layout_of("(32):(1)"),
                                layout_of("(2):(1)"));
  CHECK(c.tile_mn.rank() == 1);
  CHECK(size(c.tile_mn) == 64);
  CHECK(c.num_threads == 32);
}

TEST_CASE("tiled copy names: CuTe's construction pasted as an expression") {
  Value v = evaluate_expression(
      "make_tiled_copy(cute::Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_8>>{})",
      copy_registry());
  REQUIRE(v.is(Value::Kind::kObject));
  CHECK(v.kind_name() == "tiled_copy");
  CHECK(v.to_string().rfind("TiledCopy\n  Tiler_MN:       (32,64)\n", 0) == 0);
  Value atom = evaluate_expression("Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}", copy_registry());
  CHECK(atom.kind_name() == "copy_atom");
  REQUIRE(as_copy_atom(atom) != nullptr);
  CHECK(as_copy_atom(atom)->name == "Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  Value s = evaluate_expression(
      "get_layoutS_TV(make_tiled_copy(Copy_Atom<SM75_U32x1_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, "
      "Layout<Shape<_1,_2>>{}))",
      copy_registry());
  CHECK(s.kind_name() == "layout");
  TiledCopy a = tiled(
      "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
      "Layout<Shape<_2,_2,_1>>{}, "
      "Tile<_32,_32,_16>{}))");
  CHECK(tiler_to_string(a) == "(32,16)");
  TiledCopy d = tiled(
      "make_tiled_copy_D(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, "
      "half_t>{}, "
      "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})))");
  CHECK(d.atom.name == "Copy_Atom<UniversalCopy<uint64_t>, half_t>");
}

TEST_CASE("tiled copy names: errors point at the bad spot") {
  const std::string bad_op = "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM, half_t>{}, Layout<_32>{})";
  Error e = expression_error(bad_op);
  CHECK(contains(e.what(), "did you mean 'SM75_U32x4_LDSM_N'"));
  CHECK(e.position() == static_cast<int64_t>(bad_op.find("SM75")));
  Error bare = expression_error("make_tiled_copy(SM75_U32x4_LDSM_N{}, Layout<_32>{})");
  CHECK(contains(bare.what(), "Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}"));
  CHECK(bare.position() == 16);
  CHECK(contains(expression_error("make_tiled_copy(Layout<_32>{}, Layout<_32>{})").what(), "must be a copy atom"));
  CHECK(contains(expression_error("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<_32>{})").what(),
                 "TiledMMA"));
  CHECK(contains(expression_error("Copy_Atom<SM75_U32x4_LDSM_N, 4>{}").what(), "value type"));
  Error typo = expression_error("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<_16>{})");
  CHECK(contains(typo.what(), "too few thrs"));
  CHECK(typo.has_position());
}
