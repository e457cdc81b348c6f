// Tensors (make_tensor, local_tile, local_partition, make_identity_tensor, slicing) against
// real CuTe.  tests/data/tensor_oracle.jsonl: a host-only program built against CUTLASS 4
// (g++ 12) evaluated each `expr` as C++ (the same text, stringized; A and s were half_t
// arrays) and printed the tensor's layout() and its iterator: the element offset from the
// array it was made from, the ArithTuple of an identity tensor, or "rmem" for an owning
// tensor; `value` rows are print() of an integer, shape, stride or layout.  Here, beside the
// atoms, because several rows tile GMMA's shared-memory atoms (atom names, atoms/smem_atoms.cpp).
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "lib/lang/expr.hpp"
#include "lib/lang/tensor.hpp"
#include "tests/support/atom_names.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

Value eval_cpp(const std::string& text) {  // C++ as written: a bare 2 is a run-time int
  test::registry_with_atoms();
  std::vector<Warning> w;
  return evaluate_expression(text, w, Literals::kDynamic);
}

}  // namespace

TEST_CASE("tensor: make_tensor, local_tile, local_partition, slices equal CuTe's (tensor_oracle.jsonl)") {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/tensor_oracle.jsonl");
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json row = json::parse(line);
    const std::string expr = row["expr"];
    CAPTURE(expr);
    Value v = eval_cpp(expr);
    ++n;
    if (row.contains("value")) {
      CHECK(v.to_cute_string() == row["value"].get<std::string>());
      continue;
    }
    const Tensor* t = as_tensor(v);
    REQUIRE(t != nullptr);
    CHECK(to_string(t->layout, true) == row["layout"].get<std::string>());
    if (row.contains("offset")) {
      CHECK(t->offset == row["offset"].get<int64_t>());
    } else if (row["iterator"] == "rmem") {
      CHECK(t->space == Tensor::Space::kRmem);
    } else {
      CHECK(to_string(t->coord, true) == row["iterator"].get<std::string>().substr(std::string("ArithTuple").size()));
    }
  }
  CHECK(n == 23);
}

TEST_CASE("tensor: printed as CuTe prints it, with the pointer's name for its address") {
  CHECK(eval_cpp("make_tensor(make_gmem_ptr<half_t>(ptr_A), make_shape(1024, 512), make_stride(512, _1{}))")
            .to_string() == "gmem_ptr[16b](ptr_A) o (1024,512):(512,_1)");
  CHECK(eval_cpp("make_tensor(make_smem_ptr(s), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, "
                 "make_shape(_128{},_64{},_4{})))(_,_,2)")
            .to_string() == "Sw<3,4,3>_smem_ptr[16b](s+16384) o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))");
  CHECK(eval_cpp("local_tile(make_identity_tensor(make_shape(1024, 512)), Shape<_128,_64>{}, make_coord(2, 3))")
            .to_string() == "ArithTuple(256,192) o (_128,_64):(_1@0,_1@1)");
  CHECK(eval_cpp("make_tensor<float>(Shape<_4,_8>{})").to_string() == "ptr[32b](rmem) o (_4,_8):(_1,_4)");
  // a layout called with a coordinate: sliced (offset dropped, as CuTe's Layout::operator()) or evaluated
  CHECK(eval_cpp("Layout<Shape<_128,_64,_4>>{}(_,_,3)").to_cute_string() == "(_128,_64):(_1,_128)");
  CHECK(eval_cpp("Layout<Shape<_128,_64,_4>>{}(1,2,3)").to_cute_string() == "24833");
  CHECK_THROWS_WITH_AS(eval_cpp("make_tensor(make_gmem_ptr<half_t>(p), make_shape(4,8))(1,2)"),
                       doctest::Contains("slice it with `_`"), Error);
}

// C++'s pointer casts as pointer arguments.  Real CuTe (a host-only program against CUTLASS 4's
// headers, g++ 12) printed, for the same text: gmem_ptr[16b]((nil)) o (4,8):(_1,4),
// gmem_ptr[32b]((nil)) o (4,8):(_1,4), gmem_ptr[16b]((nil)) o (4,8):(8,_1),
// smem_ptr[32b]((nil)) o (_4,_8):(_1,_4), ptr[32b]((nil)) o (4,8):(_1,4) -- here the pointer's
// name stands where CuTe prints its address.
TEST_CASE("tensor: static_cast<T const*>(p), reinterpret_cast<T*>(p), (T*)p name a pointer to T") {
  CHECK(eval_cpp("make_tensor(make_gmem_ptr(static_cast<half_t const*>(nullptr)), make_shape(4,8))").to_string() ==
        "gmem_ptr[16b](nullptr) o (4,8):(_1,4)");
  CHECK(eval_cpp("make_tensor(make_gmem_ptr(reinterpret_cast<float*>(ptr)), make_shape(4,8))").to_string() ==
        "gmem_ptr[32b](ptr) o (4,8):(_1,4)");
  CHECK(eval_cpp("make_tensor(make_gmem_ptr((half_t const*)nullptr), make_layout(make_shape(4,8), LayoutRight{}))")
            .to_string() == "gmem_ptr[16b](nullptr) o (4,8):(8,_1)");
  CHECK(eval_cpp("make_tensor(make_smem_ptr((const float *)nullptr), make_shape(_4{},_8{}))").to_string() ==
        "smem_ptr[32b](nullptr) o (_4,_8):(_1,_4)");
  CHECK(eval_cpp("make_tensor((float*)nullptr, make_shape(4,8))").to_string() == "ptr[32b](nullptr) o (4,8):(_1,4)");
  CHECK(eval_cpp("make_tensor(static_cast<cutlass::half_t const*>(ptr_A), make_shape(4,8))").to_string() ==
        "ptr[16b](ptr_A) o (4,8):(_1,4)");
  // `*` stays multiplication everywhere else
  CHECK(eval_cpp("Int<sizeof(half_t) * 8>{}").to_cute_string() == "_16");
  CHECK(eval_cpp("make_shape(2 * 3, (2 + 2) * 2)").to_cute_string() == "(6,8)");
  CHECK_THROWS_WITH_AS(eval_cpp("static_cast<Shape<_2>*>(p)"), doctest::Contains("element type"), Error);
}
