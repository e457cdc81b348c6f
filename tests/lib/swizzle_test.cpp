// Swizzle<B,M,S>, ComposedLayout (A o O o B), the algebra through a composed layout,
// upcast / downcast / recast_layout (the GMMA shared-memory layout atoms: tests/atoms/smem_atoms_test.cpp).
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"
#include "tests/support/eval.hpp"

using namespace cutevis;

namespace {

using test::eval;
AnyLayout A(const std::string& text) { return evaluate_expression(text).to_any_layout(); }

}  // namespace

TEST_CASE("Swizzle: masks, CuTe's values, and the involution property") {
  Swizzle s(3, 4, 3);
  CHECK(s.yyy_mask() == 0b1110000000);
  CHECK(s.zzz_mask() == 0b0001110000);
  CHECK(s(0x80) == 0x80 + 0x10);  // a Y bit sets its Z bit
  CHECK(to_string(s) == "Sw<3,4,3>");
  for (int b = 0; b <= 3; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int sh : {-4, -3, 3, 4, 5}) {
        if (std::abs(sh) < b) continue;
        Swizzle sw(b, m, sh);
        CAPTURE(to_string(sw));
        std::set<int64_t> seen;
        for (int64_t x = 0; x < sw.domain(); ++x) {
          REQUIRE(sw(sw(x)) == x);  // ZZZ ^= YYY twice is the identity
          seen.insert(sw(x));
        }
        CHECK(static_cast<int64_t>(seen.size()) == sw.domain());  // a permutation of its domain
        CHECK(*seen.rbegin() == sw.domain() - 1);
        if (b > 0) CHECK(make_swizzle(sw.yyy_mask(), sw.zzz_mask()) == sw);
      }
  CHECK_THROWS_AS(Swizzle(3, 4, 2), Error);  // |S| < B
  CHECK_THROWS_AS(Swizzle(-1, 4, 3), Error);
  CHECK_THROWS_AS(eval("Swizzle<3,4,100>{}"), Error);
}

TEST_CASE("composed layouts: printing, evaluation A(O + B(i)), and CuTe's simplification Sw<0,M,S> o 0 o L == L") {
  CHECK(eval("S<3,4,3> o 0 o (8,64):(64,1)") == "Sw<3,4,3> o 0 o (8,64):(64,1)");
  CHECK(eval("Swizzle<3,4,3>{} o _0 o Layout<Shape<_8,_64>,Stride<_64,_1>>{}") == "Sw<3,4,3> o 0 o (8,64):(64,1)");
  CHECK(eval("composition(Swizzle<2,3,3>{}, (8,32):(32,1))") == "Sw<2,3,3> o 0 o (8,32):(32,1)");
  CHECK(eval("composition(Swizzle<0,4,3>{}, (8,32):(32,1))") == "(8,32):(32,1)");
  CHECK(eval("composition(Swizzle<1,2,3>{}, 4, 16:1)") == "Sw<1,2,3> o 4 o 16:1");
  CHECK(eval("(4,2):(2,1) o 1 o 8:1") == "(4,2):(2,1) o 1 o 8:1");
  AnyLayout c = A("S<3,4,3> o 0 o (8,64):(64,1)");
  Swizzle sw(3, 4, 3);
  Layout b = evaluate_expression("(8,64):(64,1)").to_layout();
  std::vector<int64_t> v = layout_values(c);
  for (int64_t i = 0; i < size(b); ++i) REQUIRE(v[static_cast<size_t>(i)] == sw(b(i)));
  CHECK(size(c) == 512);
  CHECK(cosize(c) == 512);
  CHECK(rank(c) == 2);
  // a layout as A, with an offset
  AnyLayout d = A("(4,2):(2,1) o 1 o 7:1");
  Layout a = evaluate_expression("(4,2):(2,1)").to_layout();
  for (int64_t i = 0; i < 7; ++i) CHECK(evaluate(d, i) == a(1 + i));
}

TEST_CASE("the algebra passes through a composed layout to B (CuTe's answers)") {
  CHECK(eval("logical_divide(S<3,4,3> o 0 o (8,64):(64,1), (4,8))") ==
        "Sw<3,4,3> o 0 o ((4,2),(8,8)):((64,256),(1,8))");
  CHECK(eval("get<1>(S<3,4,3> o 0 o (8,64):(64,1))") == "Sw<3,4,3> o 0 o 64:1");
  CHECK(eval("coalesce(S<2,4,3> o 0 o (8,(4,8)):(32,(1,4)))") == "Sw<2,4,3> o 0 o (8,32):(32,1)");
  CHECK(eval("tile_to_shape(S<3,4,3> o 0 o (8,64):(64,1), (16,128))") ==
        "Sw<3,4,3> o 0 o ((8,2),(64,2)):((64,512),(1,1024))");
  CHECK(eval("right_inverse(S<3,4,3> o 0 o 1024:1)") == "Sw<3,4,3> o 0 o 1024:1");  // a swizzle is its own inverse
  // CuTe rejects this one too: the swizzle seen through (64,8):(8,1) is no Swizzle<B,M,S>
  CHECK_THROWS_AS(eval("right_inverse(S<3,4,3> o 0 o (8,64):(64,1))"), Error);
  CHECK(eval("composition((8,64):(64,1), Swizzle<3,4,3>{})") == "Sw<3,1,3> o 0 o (8,64):(64,1)");
  CHECK(eval("max_common_vector(S<3,4,3> o 0 o (8,64):(64,1), (8,64):(64,1))") == "16");  // 2^M
}

TEST_CASE("property: the algebra through a swizzled layout agrees pointwise with the swizzle of the plain result") {
  test::LayoutGen gen(0x5a177001);
  for (int n = 0; n < 200; ++n) {
    int b = static_cast<int>(gen.uniform(1, 3)), m = static_cast<int>(gen.uniform(0, 4));
    Swizzle sw(b, m, static_cast<int>(gen.pick({3, 4})));
    IntTuple s = gen.shape(2, 2, 256);
    Layout inner(s, gen.permuted_stride(s));
    AnyLayout c = compose3(sw, 0, inner);
    CAPTURE(to_string(c));
    Layout t = gen.dividing(size(inner), 1);
    Layout plain;
    try {
      plain = logical_divide(inner, Tiler(t));
    } catch (const Error&) {
      CHECK_THROWS_AS(logical_divide(c, Tiler(t)), Error);  // the same divisibility condition
      continue;
    }
    AnyLayout d = logical_divide(c, Tiler(t));
    std::vector<int64_t> dv = layout_values(d), pv = layout_values(plain);
    REQUIRE(dv.size() == pv.size());
    for (size_t i = 0; i < dv.size(); ++i) REQUIRE(dv[i] == sw(pv[i]));
    AnyLayout co = coalesce(c);
    CHECK(layout_values(co) == layout_values(c));
  }
}

TEST_CASE("upcast, downcast, recast_layout: CuTe's answers") {
  CHECK(eval("upcast<2>((4,8):(1,4))") == "(2,8):(1,2)");
  CHECK(eval("upcast<8>((4,8):(1,4))") == "(1,4):(1,1)");
  CHECK(eval("upcast<2>((4,8):(0,-4))") == "(4,8):(0,-2)");
  CHECK(eval("downcast<2>((4,8):(1,4))") == "(8,8):(1,8)");
  CHECK(eval("recast_layout<uint8_t, half_t>((8,16):(16,1))") == "(8,8):(8,1)");
  CHECK(eval("recast_layout<half_t, uint8_t>((8,8):(8,1))") == "(8,16):(16,1)");
  CHECK(eval("recast_layout<float, half_t>((4,4):(4,1))") == "(4,8):(8,1)");
  CHECK(eval("upcast<2>(Swizzle<3,4,3>{})") == "Sw<3,3,3>");
  CHECK(eval("upcast<32>(Swizzle<3,4,3>{})") == "Sw<2,0,3>");
  CHECK(eval("downcast<2>(Swizzle<3,4,3>{})") == "Sw<3,5,3>");
  CHECK_THROWS_AS(eval("upcast<3>((4,8):(2,8))"), Error);  // stride 2 and 3: divisibility
}

namespace {
// CuTe's print of an expression's value: `_4` static, `4` dynamic
std::string cute(const std::string& text) { return evaluate_expression(text).to_cute_string(); }
}  // namespace

TEST_CASE("upcast, downcast: run-time extents and strides stay run-time, as CuTe prints them (real CuTe 4.7.0)") {
  // host-only g++ against CUTLASS 4.7.0: print(upcast<N>(make_layout(...))), print(downcast<N>(...))
  CHECK(cute("upcast<4>(make_layout(make_shape(4,8), make_stride(Int<1>{}, 4)))") == "(1,8):(_1,1)");
  CHECK(cute("downcast<2>(make_layout(make_shape(4,8), make_stride(Int<1>{}, 4)))") == "(8,8):(_1,8)");
  CHECK(cute("upcast<2>(make_layout(make_shape(Int<4>{},8), make_stride(8, Int<1>{})))") == "(_4,4):(4,_1)");
  CHECK(cute("downcast<4>(make_layout(make_shape(Int<4>{},8), make_stride(8, Int<1>{})))") == "(_4,32):(32,_1)");
}

TEST_CASE("downcast requires a stride-1 mode, as CuTe's static_assert(has_int1<Stride>) (regression)") {
  CHECK_THROWS_WITH_AS(eval("downcast<4>(((4,2,4),4,(3)):((4,24576,512),32,(8192)))"), doctest::Contains("stride-1"),
                       Error);
  CHECK_THROWS_AS(eval("downcast<2>(4:-1)"), Error);  // _-1 is not _1
  CHECK_THROWS_AS(eval("recast_layout<half_t, uint8_t>((8,8):(16,2))"), Error);
  CHECK(eval("downcast<4>(((4,2),4):((1,8),64))") == "((16,2),4):((1,32),256)");
}

TEST_CASE("property: upcast<N>(L)(j) == L(j*N)/N and downcast<N>(L)(i) == L(i/N)*N + i%N for column-major L") {
  test::LayoutGen gen(0xca570001);
  int checked = 0;
  for (int n = 0; n < 400; ++n) {
    IntTuple s = gen.shape(2, 3, 512);
    Layout l = make_layout(s);
    int64_t k = gen.pick({2, 4});
    CAPTURE(to_string(l));
    CAPTURE(k);
    if (size(l) == 1) {  // _1:_0 has no _1 stride: CuTe rejects it
      CHECK_THROWS_AS(downcast(l, k), Error);
      continue;
    }
    Layout d = downcast(l, k);  // elements split into k narrower ones
    REQUIRE(size(d) == size(l) * k);
    for (int64_t i = 0; i < size(d); ++i) REQUIRE(d(i) == l(i / k) * k + i % k);
    if (flatten_values(s)[0] % k != 0) continue;  // upcast keeps whole vectors only
    ++checked;
    Layout u = upcast(l, k);  // k elements become one wider one
    REQUIRE(size(u) * k == size(l));
    for (int64_t j = 0; j < size(u); ++j) REQUIRE(u(j) == l(j * k) / k);
  }
  CHECK(checked > 50);
}

TEST_CASE("ComposedLayout with a sparse smem flag: smem_sparse<S>_ptr[Nb](unset), kept by the algebra") {
  // CuTe's GMMA::Layout_K_SW64_SpAtom<half_t, 2> (cute/atom/mma_traits_sm90_gmma_sparse.hpp)
  const Layout b(tup(tup(1, 8), tup(2, 32)), tup(tup(0, 64), tup(1, 2)));
  const ComposedLayout sp = ComposedLayout::smem_sparse(Swizzle(2, 4, 3), 2, 16, b);
  CHECK(to_string(AnyLayout(sp), true) ==
        "Sw<2,4,3> o smem_sparse<2>_ptr[16b](unset) o ((_1,_8),(_2,_32)):((_0,_64),(_1,_2))");
  CHECK(sp.sparsity() == 2);
  CHECK(sp.element_bits() == 8);  // sizeof_bits<sparse_elem<2,half_t>>
  CHECK(size(AnyLayout(sp)) == 512);
  CHECK(cosize(AnyLayout(sp)) == 512);
  CHECK(sp != ComposedLayout::smem(Swizzle(2, 4, 3), 16, b));  // the dense flag is another type
  // position-independently: the byte swizzle over 8-bit logical elements is Sw<2,4,3> itself
  for (int64_t i = 0; i < 512; ++i) CHECK(sp(i) == Swizzle(2, 4, 3)(b(i)));
  CHECK(to_string(as_position_independent(AnyLayout(sp)), true) ==
        "Sw<2,4,3> o _0 o ((_1,_8),(_2,_32)):((_0,_64),(_1,_2))");
  // tile_to_shape / take keep the flag (CuTe: the collective's SmemLayoutA, tests/data/gmma_sparse_smem_oracle.tsv)
  const AnyLayout tiled = tile_to_shape(AnyLayout(sp), tup(128, 64, 9), tup(1, 2, 3));
  const auto* c = std::get_if<ComposedLayout>(&tiled);
  REQUIRE(c != nullptr);
  CHECK(c->sparsity() == 2);
  CHECK(c->smem_bits() == 16);
  CHECK(to_string(take(tiled, 0, 2)).find("smem_sparse<2>_ptr[16b](unset)") != std::string::npos);
  // CuTe static_asserts on upcast/downcast of a sparse smem layout ("Not implemented for safety")
  CHECK_THROWS_AS(upcast(AnyLayout(sp), 2), Error);
  CHECK_THROWS_AS(downcast(AnyLayout(sp), 2), Error);
  CHECK_THROWS_AS(ComposedLayout::smem_sparse(Swizzle(2, 4, 3), 3, 16, b), Error);  // 16 bits in 3 parts
}
