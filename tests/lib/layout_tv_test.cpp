// make_layout_tv(thr, val), as CuTe's make_tiled_copy builds its TV layout:
//   layout_mn = raked_product(thr, val)                          // (M,N) -> (thr_idx, val_idx)
//   layout_tv = right_inverse(layout_mn).with_shape(|thr|, |val|)  // (thr_idx, val_idx) -> (M,N)
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"

using namespace cutevis;

TEST_CASE("make_layout_tv: real CuTe's tilers and TV layouts") {
  struct Case {
    const char* thr;
    const char* val;
    const char* tiler;
    const char* tv;
  };
  const Case cases[] = {
      {"(32,8):(1,32)", "(4,1):(1,0)", "(128,8)",
       "(256,4):(4,1)"},  // copy.jsonl: CP_ASYNC u128 float, thr (32,8) val (4,1)
      {"(32,8):(8,1)", "(1,8):(0,1)", "(32,64)", "((8,32),8):((256,1),32)"},
      {"(4,8):(8,1)", "(2,2):(2,1)", "(8,16)", "((8,4),(2,2)):((16,2),(8,1))"},
      {"(16,4):(4,1)", "(1,4):(0,1)", "(16,16)", "((4,16),4):((64,1),16)"},
      {"((2,4),4):((1,8),2)", "(2,2):(1,2)", "(16,8)", "((2,4,4),(2,2)):((2,32,4),(1,16))"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.thr));
    CAPTURE(std::string(c.val));
    LayoutTV tv = make_layout_tv(evaluate_expression(c.thr).to_layout(), evaluate_expression(c.val).to_layout());
    CHECK(to_string(tv.tiler_mn) == c.tiler);
    CHECK(to_string(tv.layout_tv) == c.tv);
    std::string expr = std::string("make_layout_tv(") + c.thr + ", " + c.val + ")";
    CHECK(evaluate_expression(expr).to_string() == std::string("(") + c.tiler + "," + c.tv + ")");
  }
}

TEST_CASE("property: thread t's value v sits where layout_mn sends back t + |thr| * v, and every cell is owned once") {
  test::LayoutGen gen(0x7f000001);
  for (int n = 0; n < 300; ++n) {
    // compact thread and value layouts over 2-D tiles, in any mode order
    IntTuple ts = tup(gen.pick({1, 2, 4, 8, 16, 32}), gen.pick({1, 2, 4, 8}));
    IntTuple vs = tup(gen.pick({1, 2, 4}), gen.pick({1, 2, 4}));
    if (gen.chance(0.3)) ts = IntTuple::tuple({tup(gen.pick({2, 4}), gen.pick({1, 2})), IntTuple(gen.pick({2, 4, 8}))});
    Layout thr(ts, gen.permuted_stride(ts));
    Layout val(vs, gen.permuted_stride(vs));
    LayoutTV tv = make_layout_tv(thr, val);
    CAPTURE(to_string(thr));
    CAPTURE(to_string(val));
    CAPTURE(to_string(tv.layout_tv));
    const int64_t T = size(thr), V = size(val);
    REQUIRE(size(tv.layout_tv) == T * V);
    REQUIRE(rank(tv.layout_tv) == 2);
    CHECK(size(tv.layout_tv.shape[0]) == T);
    CHECK(size(tv.layout_tv.shape[1]) == V);
    CHECK(size(tv.tiler_mn) == T * V);
    // (thr, val) -> cell -> (thr, val): the round trip through layout_mn
    for (int64_t t = 0; t < T; ++t)
      for (int64_t v = 0; v < V; ++v) REQUIRE(tv.layout_mn(tv.layout_tv(t + T * v)) == t + T * v);
    // every cell of the tile is owned by exactly one (thr, val)
    std::vector<int64_t> cells = layout_values(tv.layout_tv);
    std::sort(cells.begin(), cells.end());
    for (size_t i = 0; i < cells.size(); ++i) REQUIRE(cells[i] == static_cast<int64_t>(i));
    // raked: mode i of layout_mn is (val_i, thr_i), so the cell (m, n) of thread t's value v
    // has thr(m / V0, n / V1) == t and val(m % V0, n % V1) == v
    const int64_t V0 = size(val.shape[0]), V1 = size(val.shape[1]);
    for (int64_t t = 0; t < T; ++t)
      for (int64_t v = 0; v < V; ++v) {
        IntTuple c = idx2crd(IntTuple(tv.layout_tv(t + T * v)), tv.tiler_mn);
        int64_t m = c[0].value(), k = c[1].value();
        REQUIRE(thr(tup(m / V0, k / V1)) == IntTuple(t));
        REQUIRE(val(tup(m % V0, k % V1)) == IntTuple(v));
      }
  }
}
