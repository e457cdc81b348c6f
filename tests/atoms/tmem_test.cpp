// SM100 tensor-memory copies against real CuTe.
//  - tests/data/tmem_traits.jsonl: for every SM100_TMEM_LOAD_* / SM100_TMEM_STORE_* operation
//    (148), what a host-only program built against CUTLASS 4 (g++ 12) printed for
//    Copy_Traits<Op>::ThrID, ValID, SrcLayout, DstLayout and RefLayout.
//  - tests/data/tmem_oracle.jsonl: the same program evaluated each `expr` as C++ (stringized)
//    and printed the TiledCopy's Tiler_MN, TiledLayout_TV, get_layoutS_TV(), get_layoutD_TV()
//    and size(tiled_copy).
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "atoms/copy_catalogue.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tmem.hpp"
#include "lib/lang/expr.hpp"
#include "tests/atoms/copy_support.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

Registry& tmem_registry() { return test::cpp_atom_registry(); }

std::vector<json> rows(const char* file) {
  std::vector<json> out;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/" + file);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

}  // namespace

TEST_CASE("tmem: every tcgen05 ld/st Copy_Traits equals CuTe's (tmem_traits.jsonl)") {
  auto all = rows("tmem_traits.jsonl");
  REQUIRE(all.size() == 148);
  auto ops = tmem_copy_ops();
  CHECK(ops.size() == all.size());
  for (const auto& row : all) {
    const std::string op = row["op"];
    CAPTURE(op);
    REQUIRE(is_tmem_op(op));
    CopyAtom a = make_copy_atom(op, ValueType{"float", 32});
    CHECK(to_string(a.thr_id, true) == row["thr_id"].get<std::string>());
    CHECK(to_string(a.val_id, true) == row["val_id"].get<std::string>());
    CHECK(to_string(a.src_layout_bits, true) == row["src"].get<std::string>());
    CHECK(to_string(a.dst_layout_bits, true) == row["dst"].get<std::string>());
    CHECK(to_string(a.ref_layout_bits, true) == row["ref"].get<std::string>());
  }
  CHECK_FALSE(is_tmem_op("SM100_TMEM_LOAD_16dp256b64x"));  // 16x256b stops at .x32
}

TEST_CASE("tmem: make_tmem_copy equals CuTe's (tmem_oracle.jsonl)") {
  auto all = rows("tmem_oracle.jsonl");
  REQUIRE(all.size() == 12);
  for (const auto& row : all) {
    const std::string expr = row["expr"];
    CAPTURE(expr);
    Value v = evaluate_expression(expr, tmem_registry());
    const TiledCopy* c = as_tiled_copy(v);
    REQUIRE(c != nullptr);
    CHECK(tiler_to_string(*c, true) == row["tiler"].get<std::string>());
    CHECK(to_string(c->tiled_layout_tv, true) == row["tv"].get<std::string>());
    CHECK(to_string(c->layout_s_tv, true) == row["layout_s_tv"].get<std::string>());
    CHECK(to_string(c->layout_d_tv, true) == row["layout_d_tv"].get<std::string>());
    CHECK(c->num_threads == row["threads"].get<int>());
  }
}

TEST_CASE("tmem: the tensor's type, a bare layout with an atom, and mismatched widths") {
  // a bare layout takes the atom's value type
  Value v = evaluate_expression(
      "make_tmem_copy(Copy_Atom<SM100_TMEM_LOAD_32dp32b8x, float>{}, Layout<Shape<_128,_256>, Stride<_65536,_1>>{})",
      tmem_registry());
  REQUIRE(as_tiled_copy(v) != nullptr);
  CHECK(to_string(as_tiled_copy(v)->tiled_layout_tv, true) == "((_32,_4),(_8,_32)):((_0,_1),(_128,_4))");
  CHECK_THROWS_WITH_AS(
      evaluate_expression("make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, Layout<Shape<_128,_256>, Stride<_65536,_1>>{})",
                          tmem_registry()),
      doctest::Contains("make_tmem_ptr<float>"), Error);
  CHECK_THROWS_WITH_AS(
      evaluate_expression("make_tmem_copy(Copy_Atom<SM100_TMEM_LOAD_32dp32b8x, float>{}, "
                          "make_tensor(make_tmem_ptr<half_t>(0), Layout<Shape<_128,_256>, Stride<_65536,_1>>{}))",
                          tmem_registry()),
      doctest::Contains("same type-width"), Error);
  CHECK_THROWS_WITH_AS(
      evaluate_expression("make_tmem_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_128,_256>>{})",
                          tmem_registry()),
      doctest::Contains("not a tensor-memory copy"), Error);
}
