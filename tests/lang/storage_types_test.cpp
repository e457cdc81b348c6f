// The storage a tutorial kernel's SharedStorage holds, cute::ArrayEngine<T, N> (sizeof, alignment), and
// as_position_independent_swizzle_tensor / _layout (lib/lang/cpp_syntax.cpp, lib/lang/tensor.cpp).
// Expected values are real CuTe's (tests/data/kernels/tutorial_host_oracle.tsv).
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <memory>

#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/environment.hpp"
#include "tests/support/lang_env.hpp"
#include "tests/support/tsv_oracle.hpp"

using namespace cutevis;

namespace {

using test::eval_in;
using test::load;

std::string error_of(Environment& env, const std::string& text) {
  try {
    return "(no error) " + eval_in(env, text);
  } catch (const Error& e) {
    return e.what();
  }
}

std::map<std::string, std::string> oracle() { return test::tsv_oracle("tests/data/kernels/tutorial_host_oracle.tsv"); }
}  // namespace

TEST_CASE("cute::ArrayEngine<T, N> and a SharedStorage of them: sizeof and alignment as CuTe's") {
  const auto cute = oracle();
  REQUIRE(cute.size() >= 10);
  auto loaded = load(R"(
template <class ElementA, class ElementB, class SmemLayoutA, class SmemLayoutB>
struct SharedStorage
{
  alignas(128) cute::ArrayEngine<ElementA, cosize_v<SmemLayoutA>> A;
  alignas(128) cute::ArrayEngine<ElementB, cosize_v<SmemLayoutB>> B;
};
using SA = decltype(tile_to_shape(ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_64,_8>>>{}, make_shape(Int<128>{}, Int<64>{}, Int<3>{})));
using Storage = SharedStorage<half_t, half_t, SA, SA>;
)");
  Environment& env = *loaded;
  CHECK(eval_in(env, "sizeof(cute::ArrayEngine<half_t, 100>)") == "_" + cute.at("ae.sizeof_half_100"));
  CHECK(eval_in(env, "sizeof(ArrayEngine<double, 3>)") == "_" + cute.at("ae.sizeof_double_3"));
  CHECK(eval_in(env, "sizeof(ArrayEngine<float, 8192>)") == "_" + cute.at("ae.sizeof_float_8192"));
  CHECK(eval_in(env, "sizeof(ArrayEngine<uint8_t, 1>)") == "_" + cute.at("ae.sizeof_uint8_1"));
  CHECK(eval_in(env, "sizeof(Storage)") == "_" + cute.at("wgmma_nt.sizeof_SharedStorage"));
  CHECK(error_of(env, "sizeof(ArrayEngine<half_t, 0>)").find("N is 0") != std::string::npos);
}

TEST_CASE("as_position_independent_swizzle_tensor: the swizzle moves from the pointer into the layout") {
  const auto cute = oracle();
  Environment env;
  auto layout_of = [&](const std::string& make) {
    return eval_in(env, "as_position_independent_swizzle_tensor(make_tensor(" + make + ")).layout()");
  };
  CHECK(layout_of("make_smem_ptr<half_t>(0), tile_to_shape(ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, "
                  "Layout<Shape<_64,_8>>>{}, "
                  "make_shape(Int<128>{}, Int<64>{}, Int<3>{}))") == cute.at("wgmma_nt.sA_.layout"));
  CHECK(layout_of("make_smem_ptr<half_t>(0), tile_to_shape(ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, "
                  "Layout<Shape<_8,_64>,Stride<_64,_1>>>{}, "
                  "make_shape(Int<128>{}, Int<64>{}, Int<3>{}))") == cute.at("wgmma_tn.sA_.layout"));
  CHECK(layout_of("make_smem_ptr<float>(0), tile_to_shape(ComposedLayout<Swizzle<2,4,3>, smem_ptr_flag_bits<32>, "
                  "Layout<Shape<_8,_16>,Stride<_16,_1>>>{}, "
                  "make_shape(Int<64>{}, Int<32>{}))") == cute.at("float_sw64.sA_.layout"));
  CHECK(layout_of("make_smem_ptr<float>(0), make_layout(make_shape(Int<8>{}, Int<4>{}))") ==
        cute.at("plain.sA_.layout"));
  CHECK(eval_in(env,
                "as_position_independent_swizzle_layout(tile_to_shape(ComposedLayout<Swizzle<3,4,3>, "
                "smem_ptr_flag_bits<16>, Layout<Shape<_64,_8>>>{}, "
                "make_shape(Int<128>{}, Int<64>{}, Int<3>{})))") ==
        cute.at("wgmma_nt.as_position_independent_swizzle_layout_sA"));
  CHECK(error_of(env,
                 "as_position_independent_swizzle_tensor(make_tensor(make_gmem_ptr<float>(0), "
                 "make_layout(make_shape(4, 4))))")
            .find("expects an smem tensor") != std::string::npos);
}
