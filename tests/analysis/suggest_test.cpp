// The advisor's layout search: a layout that removes the conflicts of every copy of a tensor.
#include <doctest/doctest.h>

#include <chrono>

#include "atoms/analysis/suggest.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "lib/lang/expr.hpp"

using namespace cutevis;

namespace {

void register_names() {
  static const bool registered = [] {
    register_mma_names(default_registry());
    register_copy_names(default_registry());
    return true;
  }();
  (void)registered;
}

TiledCopy copy_of(const std::string& expr) {
  register_names();
  Value v = evaluate_expression(expr);
  REQUIRE(as_tiled_copy(v) != nullptr);
  return *as_tiled_copy(v);
}

const std::string kLdsmA =
    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
    "Layout<Shape<_2,_2,_1>>{}))";
const std::string kCpAsync =
    "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, Layout<Shape<_8,_4>,Stride<_4,_1>>{}, "
    "Layout<Shape<_1,_8>>{})";

void check_suggestions(const std::vector<LayoutSuggestion>& s, const IntTuple& tile) {
  for (const LayoutSuggestion& x : s) {
    CAPTURE(x.cpp);
    CHECK(is_permutation_or_padding(x.layout, tile));
    if (x.padding_bytes == 0) CHECK(is_permutation_or_padding(x.layout, tile, false));
    if (x.kind == "as given") continue;
    // the C++ to paste is the layout that was costed
    const AnyLayout pasted = evaluate_expression(x.cpp).to_any_layout();
    for (int64_t i = 0; i < size(tile); ++i) REQUIRE(evaluate(pasted, i) == evaluate(x.layout, i));
  }
}

}  // namespace

TEST_CASE("suggest: LDSM x4 reads and 16-byte cp.async writes of a 32x32 half tile: conflict-free on both sides") {
  const AnyLayout row_major = Layout(tup(32, 32), tup(32, 1));
  const std::vector<SmemUse> uses = {
      {copy_of(kCpAsync), CopyTensor{MemorySpace::kGmem, Layout(tup(32, 32), tup(32, 1))}, false},
      {copy_of(kLdsmA), CopyTensor{}, true}};
  const std::vector<LayoutSuggestion> s = suggest_smem_layouts(row_major, 16, uses);
  REQUIRE(s.size() >= 3);
  CHECK(s[0].kind == "as given");
  CHECK(s[0].bank_conflicts > 0);  // 64-byte rows: the LDSM's 8 rows fall on 2 bank groups
  const LayoutSuggestion& best = s[1];
  CAPTURE(best.cpp);
  CHECK(best.bank_conflicts == 0);
  REQUIRE(best.per_copy.size() == 2);
  CHECK(best.per_copy[0].bank_conflicts == 0);
  CHECK(best.per_copy[1].bank_conflicts == 0);
  CHECK(best.padding_bytes == 0);  // a swizzle does it without extra bytes
  CHECK(best.wavefronts == best.ideal_wavefronts);
  check_suggestions(s, tup(32, 32));
  // cheapest first
  for (size_t i = 2; i < s.size(); ++i) CHECK(s[i - 1].wavefronts <= s[i].wavefronts);
}

TEST_CASE("suggest: a 16-byte copy rejects 4- and 8-byte row padding (misaligned) and keeps 16-byte padding") {
  const AnyLayout row_major = Layout(tup(32, 64), tup(64, 1));
  SuggestOptions o;
  o.max_results = 200;
  const std::vector<SmemUse> uses = {
      {copy_of(kCpAsync), CopyTensor{MemorySpace::kGmem, Layout(tup(32, 64), tup(64, 1))}, false}};
  const std::vector<LayoutSuggestion> s = suggest_smem_layouts(row_major, 16, uses, o);
  bool padded16 = false;
  for (const LayoutSuggestion& x : s) {
    if (x.kind != "padding") continue;
    CAPTURE(x.cpp);
    CHECK(x.padding_bytes % 16 == 0);  // only multiples of 16 bytes per row survive
    padded16 = padded16 || x.cpp == "Layout<Shape<_32,_64>,Stride<_72,_1>>{}";
  }
  CHECK(padded16);
  check_suggestions(s, tup(32, 64));
}

TEST_CASE("suggest: a legality predicate keeps only what it allows") {
  const AnyLayout row_major = Layout(tup(32, 32), tup(32, 1));
  SuggestOptions o;
  o.legal = [](const AnyLayout& l) { return std::holds_alternative<Layout>(l); };  // no swizzles
  const std::vector<SmemUse> uses = {{copy_of(kLdsmA), CopyTensor{}, true}};
  for (const LayoutSuggestion& x : suggest_smem_layouts(row_major, 16, uses, o))
    if (x.kind != "as given") CHECK(std::holds_alternative<Layout>(x.layout));
}
