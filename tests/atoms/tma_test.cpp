// make_tma_copy / make_tma_atom / make_tma_copy_A/B/C_sm90 against real CuTe.
// tests/data/tma_oracle.jsonl: a host-only program built against CUTLASS 4 (g++ 12) evaluated
// each `expr` as C++ (the same text, stringized) and printed the TiledCopy's Tiler_MN,
// TiledLayout_TV, the atom's ValLayoutSrc and the value type's bits.  Its pointers were typed
// (`half_t* gptr`, `float* fptr`, `int8_t* iptr`); here the same types are written with
// make_gmem_ptr<T>(...), which is how cutevis learns a pointer's element type.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <fstream>

#include <nlohmann/json.hpp>

#include "atoms/copy_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tma.hpp"
#include "lib/lang/expr.hpp"
#include "tests/atoms/copy_support.hpp"
#include "tests/support/tma_oracle.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

Registry& tma_registry() { return test::cpp_atom_registry(); }

Value eval(const std::string& text) { return evaluate_expression(text, tma_registry()); }

}  // namespace

TEST_CASE("tma: make_tma_copy and make_tma_atom equal CuTe's (tma_oracle.jsonl)") {
  const int rows = test::for_each_oracle_row("tma_oracle.jsonl", [](const json& row) {
    const std::string expr = test::typed(row["expr"]);
    CAPTURE(expr);
    test::check_tma_row(row, eval(expr));
  });
  CHECK(rows == 23);
}

TEST_CASE("tma: the gmem tensor as a layout with <T>, a declared name, and its element type") {
  const std::string slayout = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{},_64{}))";
  // CuTe: Copy_Traits<SM90_TMA_LOAD, C<131072>> for a 128x64 half box
  Value a = eval("make_tma_atom<half_t>(SM90_TMA_LOAD{}, make_layout(make_shape(1024,256), LayoutRight{}), " + slayout +
                 ", Shape<_128,_64>{})");
  REQUIRE(as_copy_atom(a) != nullptr);
  CHECK(as_copy_atom(a)->num_bits_per_tma == 131072);
  CHECK(as_copy_atom(a)->name == "Copy_Atom<Copy_Traits<SM90_TMA_LOAD, 131072>, half_t>");
  // no element type anywhere: an error that says how to give it
  try {
    eval("make_tma_copy(SM90_TMA_LOAD{}, make_tensor(ptr_A, make_shape(1024,256), LayoutRight{}), " + slayout + ")");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("make_gmem_ptr<half_t>") != std::string::npos);
  }
}

TEST_CASE("tma: CuTe's host asserts are errors") {
  // K-major smem over M-major gmem: CuTe asserts "Majorness of smem doesn't match majorness of gmem"
  CHECK_THROWS_WITH_AS(
      eval("make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(p), make_shape(1024,256)), "
           "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(_128{},_64{})))"),
      doctest::Contains("majorness"), Error);
  // a 512-element contiguous row: CuTe asserts smem_box_shape[0] <= 256
  CHECK_THROWS_WITH_AS(
      eval(
          "make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(p), make_shape(1024,1024), LayoutRight{}), "
          "make_layout(make_shape(_2{},_512{}), LayoutRight{}))"),
      doctest::Contains("exceeds 256"), Error);
  // tile and smem of different sizes
  CHECK_THROWS_WITH_AS(
      eval("make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(p), make_shape(1024,1024)), "
           "make_layout(make_shape(_64{},_64{})), Shape<_64,_32>{}, _1{})"),
      doctest::Contains("size equivalence"), Error);
  CHECK_THROWS_WITH_AS(
      eval("make_tma_copy(SM75_U32x4_LDSM_N{}, make_layout(make_shape(64,64)), make_layout(make_shape(_64{},_64{})))"),
      doctest::Contains("TMA operation"), Error);
}

// tests/data/tma_tensor_oracle.jsonl: the same host-only program form (g++ 12 against CUTLASS 4's
// CuTe headers) built each `expr` (tma_oracle.jsonl's TiledCopies and four more: static gmem
// strides that coalesce_256 merges into TMA mode 0 and into mode 1, a rank-4 gmem with a mode the
// tile misses, an MN-major store) and printed `tma.get_tma_tensor(shape(g))` for its gmem tensor g
// (`gshape` is print(shape(g))).  Here the integers of the C++ are dynamic, as in C++.
TEST_CASE("tma: get_tma_tensor equals CuTe's coordinate tensor (tma_tensor_oracle.jsonl)") {
  const int rows = test::for_each_oracle_row("tma_tensor_oracle.jsonl", [](const json& row) {
    const std::string expr = test::typed(row["expr"]);
    const size_t g_at = expr.find("make_tensor(");
    size_t g_end = g_at, depth = 0;
    for (; g_end < expr.size(); ++g_end) {
      depth += expr[g_end] == '(';
      if (expr[g_end] == ')' && --depth == 0) break;
    }
    const std::string text = "get_tma_tensor(" + expr + ", shape(" + expr.substr(g_at, g_end + 1 - g_at) + "))";
    CAPTURE(text);
    std::vector<Warning> warnings;
    Value v = evaluate_expression(text, warnings, Literals::kDynamic, tma_registry());
    const Tensor* t = as_tensor(v);
    REQUIRE(t != nullptr);
    CHECK(to_string(*t) == row["tma_tensor"].get<std::string>());
  });
  CHECK(rows == 24);
  // a named atom knows no gmem tensor
  CHECK_THROWS_WITH_AS(eval("get_tma_tensor(Copy_Atom<Copy_Traits<SM90_TMA_LOAD, 8192>, half_t>{}, make_shape(8, 8))"),
                       doctest::Contains("not made from a gmem tensor"), Error);
}

namespace {

// A row's `decls` ("auto a = E1; auto b = E2(a); ...") and `expr` as one expression: each declared
// name replaced by its parenthesized definition, so that it is evaluated with C++'s dynamic integers.
std::string inline_decls(const std::string& decls, std::string expr) {
  std::vector<std::pair<std::string, std::string>> defs;
  size_t at = 0;
  while (at < decls.size()) {
    size_t end = decls.find(';', at);
    if (end == std::string::npos) end = decls.size();
    std::string d = decls.substr(at, end - at);
    const size_t a = d.find("auto "), eq = d.find(" = ");
    if (a != std::string::npos && eq != std::string::npos)
      defs.emplace_back(d.substr(a + 5, eq - a - 5), d.substr(eq + 3));
    at = end + 1;
  }
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (auto it = defs.rbegin(); it != defs.rend(); ++it) {  // the last definition first: it names earlier ones
    const std::string& name = it->first;
    const std::string with = "(" + it->second + ")";
    for (size_t p = expr.find(name); p != std::string::npos; p = expr.find(name, p)) {
      const bool whole =
          (p == 0 || !ident(expr[p - 1])) && (p + name.size() >= expr.size() || !ident(expr[p + name.size()]));
      if (!whole) {
        p += name.size();
        continue;
      }
      expr.replace(p, name.size(), with);
      p += with.size();
    }
  }
  return expr;
}

}  // namespace

// tests/data/tma_partition_oracle.jsonl: the same host-only program form (g++ 12 against CUTLASS
// 4's CuTe headers; `half_t* gptr`, an `alignas(1024) half_t sbuf[]`) ran each row's `decls` (a
// swizzled smem layout with stages, a gmem tensor, make_tma_copy, the TMA tensor tiled by
// local_tile, the smem tensor) and `expr` (tma_partition over group_modes<0,2> of both, plain and
// multicast), and printed get<0> (the gmem part), get<1>(...).layout() and get<1>'s element offset
// from sbuf.  The gmem part's ArithTuple is compared without the `_` marks: a local_tile coordinate
// that CuTe adds as a run-time 0 stays a static _0 here (lib/lang/tensor.cpp's slice).
TEST_CASE("tma: tma_partition equals CuTe's (tma_partition_oracle.jsonl)") {
  auto plain = [](std::string s) {
    s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
    return s;
  };
  const int rows = test::for_each_oracle_row("tma_partition_oracle.jsonl", [&](const json& row) {
    std::string decls = test::typed(row["decls"].get<std::string>());
    for (size_t p = decls.find("make_smem_ptr(sbuf)"); p != std::string::npos; p = decls.find("make_smem_ptr(sbuf)"))
      decls.replace(p, 19, "make_smem_ptr<half_t>(sbuf)");
    const std::string text = inline_decls(decls, row["expr"].get<std::string>());
    CAPTURE(text);
    std::vector<Warning> warnings;
    Value v = evaluate_expression(text, warnings, Literals::kDynamic, tma_registry());
    REQUIRE(v.is(Value::Kind::kTuple));
    REQUIRE(v.elements().size() == 2);
    const Tensor* g = as_tensor(v.elements()[0]);
    const Tensor* s = as_tensor(v.elements()[1]);
    REQUIRE(g != nullptr);
    REQUIRE(s != nullptr);
    const std::string want_g = row["g"].get<std::string>();
    CHECK(to_string(std::get<Layout>(g->layout), true) == want_g.substr(want_g.find(" o ") + 3));
    CHECK(plain(to_string(*g)) == plain(want_g));
    CHECK(to_string(std::get<Layout>(s->layout), true) == row["s_layout"].get<std::string>());
    CHECK(s->offset == row["s_offset"].get<int64_t>());
  });
  CHECK(rows == 6);
}
