// tile_to_shape (with an order), make_layout_like, make_fragment_like: CuTe's answers
// and the defining properties.
#include <doctest/doctest.h>

#include "lib/lang/expr.hpp"
#include "tests/lib/random_layouts.hpp"
#include "tests/support/eval.hpp"

using namespace cutevis;

namespace {

using test::eval;

}  // namespace

TEST_CASE("tile_to_shape: CuTe's answers") {
  CHECK(eval("tile_to_shape((2,4):(4,1), (8,8))") == "((2,4),(4,2)):((4,8),(1,32))");
  CHECK(eval("tile_to_shape((2,4):(4,1), (8,8), (1,0))") == "((2,4),(4,2)):((4,16),(1,8))");
  CHECK(eval("tile_to_shape((2,4):(4,1), (8,8), LayoutRight{})") == "((2,4),(4,2)):((4,16),(1,8))");
  CHECK(eval("tile_to_shape(4:1, (8,6))") == "((4,2),(1,6)):((1,4),(0,8))");  // rank(block) < rank(target)
  CHECK(eval("tile_to_shape((8,8):(1,8), (8,8))") == "((8,1),(8,1)):((1,0),(8,0))");
  // real CuTe: a block with holes tiled where the repetitions fall into the holes
  CHECK(eval("tile_to_shape(((2)):((4)), (2,3,2))") == "(((2),1),(1,3),(1,2)):(((4),0),(0,1),(0,3))");
  CHECK_THROWS_WITH_AS(eval("tile_to_shape((4,2):(2,1), (6,8))"), doctest::Contains("does not divide"), Error);
  CHECK_THROWS_AS(eval("tile_to_shape((2,4,2):(1,2,8), (8,8))"), Error);  // block rank > target rank
}

TEST_CASE("property: tile_to_shape(block, target[, order]) tiles the block over the target shape") {
  test::LayoutGen gen(0x7117e001);
  int checked = 0;
  for (int n = 0; n < 600; ++n) {
    size_t r = static_cast<size_t>(gen.uniform(1, 3));
    std::vector<IntTuple> bs;
    size_t block_rank = static_cast<size_t>(gen.uniform(1, static_cast<int64_t>(r)));
    for (size_t i = 0; i < block_rank; ++i)
      bs.push_back(gen.chance(0.3) ? gen.shape(1, 2, 8) : IntTuple(gen.pick({1, 2, 4, 8})));
    IntTuple block_shape = IntTuple::tuple(bs);
    Layout block(block_shape, gen.permuted_stride(block_shape, gen.chance(0.3)));
    std::vector<IntTuple> trg;
    std::vector<int64_t> reps;
    for (size_t i = 0; i < r; ++i) {
      int64_t k = gen.pick({1, 2, 3, 4});
      reps.push_back(k);
      trg.emplace_back((i < block_rank ? size(bs[i]) : 1) * k);
    }
    IntTuple target = IntTuple::tuple(trg);
    std::vector<IntTuple> ord;
    for (size_t i = 0; i < r; ++i) ord.emplace_back(static_cast<int64_t>(i));
    gen.shuffle(ord);
    IntTuple order = IntTuple::tuple(ord);
    bool ordered = gen.chance(0.5);
    Layout t;
    try {
      t = ordered ? tile_to_shape(block, target, order) : tile_to_shape(block, target);
    } catch (const Error&) {
      continue;  // a block with holes whose complement the repetitions do not divide: CuTe rejects it too
    }
    ++checked;
    CAPTURE(to_string(block));
    CAPTURE(to_string(target));
    CAPTURE(to_string(t));
    // compatible with the target: product_each(shape) == target
    CHECK(product_each(t.shape) == target);
    REQUIRE(rank(t) == r);
    // every mode is (block mode, repetitions)
    Layout padded = append_to_rank(block, r);
    for (size_t i = 0; i < r; ++i) {
      Layout m = get(t, i);
      REQUIRE(rank(m) == 2);
      CHECK(get(m, 0) == get(padded, i));
      CHECK(size(get(m, 1)) == reps[i]);
    }
    // the tiles are disjoint copies of the block, unless CuTe's weak divisibility lets the
    // repetitions fall inside the block's holes (as real CuTe does for ((2)):((4)) over (2,3,2))
    std::vector<IntTuple> rep_shape;
    for (size_t i = 0; i < r; ++i) rep_shape.emplace_back(reps[i]);
    Layout tiles =
        ordered ? make_ordered_layout(IntTuple::tuple(rep_shape), order) : make_layout(IntTuple::tuple(rep_shape));
    Layout holes = complement(padded, IntTuple(size(padded) * cosize(tiles)));
    if (test::is_injective(block) && test::exactly_admissible(holes, tiles)) CHECK(test::is_injective(t));
    std::vector<int64_t> tv = layout_values(t);
    CHECK(size(t) == size(block) * std::accumulate(reps.begin(), reps.end(), int64_t{1}, std::multiplies<>()));
    // the tiles are laid out in the requested order: the repetition strides are
    // increasing along the order (for tiles of more than one element)
    if (ordered) {
      std::vector<std::pair<int64_t, int64_t>> by_order;  // (order, stride) of each mode's repetition
      for (size_t i = 0; i < r; ++i) {
        Layout rep = get(get(t, i), 1);
        if (size(rep) > 1) by_order.emplace_back(ord[i].value(), flatten_values(rep.stride)[0]);
      }
      std::sort(by_order.begin(), by_order.end());
      for (size_t k = 1; k < by_order.size(); ++k) CHECK(by_order[k - 1].second < by_order[k].second);
    }
  }
  CHECK(checked > 400);
}

TEST_CASE("make_layout_like and make_fragment_like: CuTe's answers") {
  CHECK(eval("make_layout_like((2,2,2,2):(0,2,4,1))") == "(2,2,2,2):(0,2,4,1)");   // CuTe's doc example
  CHECK(eval("make_layout_like((2,3,4,5):(0,42,1,0))") == "(2,3,4,5):(0,4,1,0)");  // the other doc example, static
  CHECK(eval("make_layout_like((4,8):(8,1))") == "(4,8):(8,1)");
  CHECK(eval("make_layout_like((4,8):(64,2))") == "(4,8):(8,1)");
  // real CuTe keeps the rank-1 tail take<1,R>(shape) as one mode: (_4,((_2,_2))):(_1,((_4,_8)))
  CHECK(eval("make_fragment_like((4,(2,2)):(2,(1,8)))") == "(4,((2,2))):(1,((4,8)))");
  CHECK(eval("make_fragment_like((4,2):(0,1))") == "(4,(2)):(0,(1))");
  CHECK(eval("make_fragment_like((4,2,2):(2,8,1))") == "(4,2,2):(1,8,4)");
  // a run-time stride is ordered after every static one (CuTe's compact_order): a swizzled smem partition's
  // K strides, decayed into run-time ints, come after M's static 2048 (sgemm_sm80's tCrA, real CuTe's answer)
  CHECK(eval("make_fragment_like(((_2,_2,_2),_4,(_2,_2)):((_1,_512,72),_2048,(144,288)))") ==
        "((2,2,2),4,(2,2)):((1,2,4),8,(32,64))");
  CHECK(eval("make_fragment_like(((_2,_2,_2),_4,(_2,_2)):((_1,_512,_72),_2048,(_144,_288)))") ==
        "((2,2,2),4,(2,2)):((1,2,4),32,(8,16))");
}

TEST_CASE("property: make_layout_like keeps the shape, the stride-0 modes and the stride order, and is compact") {
  test::LayoutGen gen(0x7117e002);
  for (int n = 0; n < 500; ++n) {
    IntTuple s = gen.shape(2, 3, 256);
    Layout l(s, gen.permuted_stride(s, gen.chance(0.5), 0.25));
    Layout like = make_layout_like(l);
    CAPTURE(to_string(l));
    CAPTURE(to_string(like));
    CHECK(like.shape == l.shape);
    auto ls = flatten_values(l.stride), ks = flatten_values(like.stride), ex = flatten_values(s);
    for (size_t i = 0; i < ls.size(); ++i) {
      if (ls[i] == 0) CHECK(ks[i] == 0);
      for (size_t j = 0; j < ls.size(); ++j)
        if (ex[i] > 1 && ex[j] > 1 && ls[i] != 0 && ls[j] != 0 && ls[i] < ls[j]) CHECK(ks[i] < ks[j]);
    }
    // compact: the non-zero part is a bijection onto [0, size(filter))
    Layout f = filter(like);
    CHECK(cosize(f) == size(f));
    CHECK(test::is_injective(f));
  }
}
