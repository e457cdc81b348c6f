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

namespace {
std::map<std::string, std::string> recast_oracle() {
  return test::tsv_oracle("tests/data/kernels/recast_storage_oracle.tsv");
}
// GMMA::Layout_K_SW128_Atom<half_t> tiled to (128,128), spelled without the atom catalogue
const std::string kSmemLayoutQ =
    "tile_to_shape(ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_8,_64>,Stride<_64,_1>>>{}, "
    "Shape<_128,_128>{})";
}  // namespace

TEST_CASE("cute::array and cute::array_aligned: sizeof, alignment and a TensorStorage of them as CuTe's") {
  const auto cute = recast_oracle();
  REQUIRE(cute.count("arr.sizeof_TensorStorage"));
  auto loaded = load(R"(
using SmemLayoutQ = decltype(tile_to_shape(ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_8,_64>,Stride<_64,_1>>>{}, Shape<_128,_128>{}));
using SmemLayoutP = decltype(tile_to_shape(ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_8,_64>,Stride<_64,_1>>>{}, Shape<_128,_64>{}));
static constexpr bool MmaPV_is_RS = true;
using SmemP_t = std::conditional_t<MmaPV_is_RS, cute::array<half_t, 0>, cute::array_aligned<half_t, cute::cosize_v<SmemLayoutP>, 128>>;
struct TensorStorage {
  cute::array_aligned<half_t, cute::cosize_v<SmemLayoutQ>, 128> smem_q;
  SmemP_t smem_p;
  cute::array_aligned<float, 128, 128> smem_scale;
  cute::array_aligned<half_t, 24> smem_small;
};
struct TensorStorageWithP {
  cute::array_aligned<half_t, cute::cosize_v<SmemLayoutQ>, 128> smem_q;
  cute::array_aligned<half_t, cute::cosize_v<SmemLayoutP>, 128> smem_p;
  cute::array<float, 3> smem_odd;
};
)");
  Environment& env = *loaded;
  auto bytes = [&](const std::string& e) { return eval_in(env, e); };
  CHECK(bytes("sizeof(cute::array<half_t, 0>)") == "_" + cute.at("arr.sizeof_array_half_0"));
  CHECK(bytes("sizeof(cute::array<half_t, 7>)") == "_" + cute.at("arr.sizeof_array_half_7"));
  CHECK(bytes("sizeof(cute::array_aligned<half_t, 0, 128>)") == "_" + cute.at("arr.sizeof_aligned_half_0_128"));
  CHECK(bytes("sizeof(cute::array_aligned<half_t, 7>)") == "_" + cute.at("arr.sizeof_aligned_half_7"));
  CHECK(bytes("sizeof(cute::array_aligned<float, 100>)") == "_" + cute.at("arr.sizeof_aligned_float_100"));
  CHECK(bytes("sizeof(cute::array_aligned<half_t, cute::cosize_v<SmemLayoutQ>, 128>)") ==
        "_" + cute.at("arr.sizeof_aligned_half_Q_128"));
  CHECK(bytes("sizeof(cute::array_aligned<double, 3, 8>)") == "_" + cute.at("arr.sizeof_aligned_double_3_8"));
  CHECK(bytes("sizeof(TensorStorage)") == "_" + cute.at("arr.sizeof_TensorStorage"));
  CHECK(bytes("sizeof(TensorStorageWithP)") == "_" + cute.at("arr.sizeof_TensorStorageWithP"));
  // the types print as CuTe's names them (less namespaces and integer suffixes)
  CHECK(eval_in(env, "cute::array_aligned<half_t, 16384, 128>") == "array_aligned<half_t,16384,128>");
  CHECK(cute.at("arr.type_aligned") == "cute::array_aligned<cutlass::half_t, 16384ul, 128ul>");
  CHECK(eval_in(env, "SmemP_t") == "array<half_t,0>");
  CHECK(cute.at("arr.type_cond") == "cute::array<cutlass::half_t, 0ul>");
  CHECK(error_of(env, "sizeof(cute::array_aligned<half_t, 8, 48>)").find("not a power of two") != std::string::npos);
  CHECK(error_of(env, "sizeof(cute::array<float_e2m1_t, 8>)").find("sub-byte") != std::string::npos);
}

TEST_CASE("T{} value-initializes: Stride<int64_t, _1, int64_t>{} is (0,_1,0) and int{} is a run-time 0") {
  const auto cute = recast_oracle();
  Environment env;
  CHECK(eval_in(env, "Stride<int64_t, _1, int64_t>{}") == cute.at("vi.stride_o"));
  CHECK(eval_in(env, "size<0>(Stride<int64_t, _1, int64_t>{})") == cute.at("vi.size0"));
  CHECK(eval_in(env, "size<1>(Stride<int64_t, _1, int64_t>{})") == cute.at("vi.size1"));
  CHECK(eval_in(env, "size(Stride<int64_t, _1, int64_t>{})") == cute.at("vi.size_tuple_int64"));
  CHECK(eval_in(env, "Shape<int, Shape<_2, int>>{}") == cute.at("vi.shape_int"));
  CHECK(eval_in(env, "int{}") == "0");
  // the type itself, as a template argument or an alias names it, stays a type
  CHECK(eval_in(env, "Stride<int64_t, _1, int64_t>") == "(int64_t,_1,int64_t)");
  auto loaded = load(
      "using StrideO = cute::Stride<int64_t, _1, int64_t>;\n"
      "template <class GmemStride> constexpr bool n_major() { return size<1>(GmemStride{}) == 1; }\n"
      "template <class GmemStride> constexpr bool m_major() { return size<0>(GmemStride{}) == 1; }\n");
  CHECK(eval_in(*loaded, "StrideO{}") == cute.at("vi.stride_o"));
  CHECK(eval_in(*loaded, "n_major<StrideO>()") == "true");
  CHECK(eval_in(*loaded, "m_major<StrideO>()") == "false");
  // a vector type's object is made at run time: no type, no value
  CHECK(error_of(*loaded, "uint2{1, 2}").find("made at run time") != std::string::npos);
}

TEST_CASE("recast_layout<Old,New> on layouts, swizzles and GMMA smem layouts, dynamic strides, as CuTe's") {
  const auto cute = recast_oracle();
  Environment env;
  auto rl = [&](const std::string& types, const std::string& layout) {
    return eval_in(env, "recast_layout<" + types + ">(" + layout + ")");
  };
  CHECK(rl("half_t, float", "Layout<Shape<_8,_16>, Stride<_1,_8>>{}") == cute.at("rl.half_float"));
  CHECK(rl("float, half_t", "Layout<Shape<_8,_16>, Stride<_1,_8>>{}") == cute.at("rl.float_half"));
  CHECK(rl("half_t, uint128_t", "Layout<Shape<_64,_8>, Stride<_1,_64>>{}") == cute.at("rl.half_u128"));
  CHECK(rl("float, uint8_t", "Layout<Shape<_4,_4>, Stride<_4,_1>>{}") == cute.at("rl.float_u8_rowmajor"));
  CHECK(rl("float_e2m1_t, float_e2m3_t", "Layout<Shape<_12,_2>>{}") == cute.at("rl.e2m1_e2m3"));
  CHECK(rl("half_t, uint128_t", kSmemLayoutQ) == cute.at("rl.gmma_sw128_u128"));
  CHECK(rl("half_t, uint8_t", kSmemLayoutQ) == cute.at("rl.gmma_sw128_u8"));
  CHECK(rl("half_t, uint8_t", "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})") ==
        cute.at("rl.sw_half_u8"));
  CHECK(rl("half_t, float", "composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})") ==
        cute.at("rl.sw_half_float"));
  CHECK(rl("half_t, cutlass::bfloat16_t", "Layout<Shape<_8,_16>, Stride<_16,_1>>{}") == cute.at("rl.same"));
  CHECK(rl("half_t, float", "Layout<Shape<_8>, Stride<Int<-1>>>{}") == cute.at("rl.neg_half_float"));
  // dynamic strides: CuTe divides them (safe_div) and keeps the shape; only a static _1 stride scales a shape
  CHECK(rl("half_t, float", "make_layout(make_shape(int(8), int(16)))") == cute.at("rl.dyn_recast_half_float"));
  CHECK(eval_in(env, "upcast<4>(make_layout(make_shape(int(4), int(8)), make_stride(_1{}, int(4))))") ==
        cute.at("rl.dyn_upcast4"));
  CHECK(eval_in(env, "downcast<2>(make_layout(make_shape(_4{}, _4{}), make_stride(int(1), _1{})))") ==
        cute.at("rl.dyn_downcast2"));
  // CuTe's refusals (static_assert): a downcast needs a stride-1 mode, an upcast divisible strides
  CHECK(error_of(env, "recast_layout<float, half_t>(Layout<Shape<_4,_4>, Stride<_4,_8>>{})")
            .find("downcast requires adjacent elements") != std::string::npos);
  CHECK(error_of(env, "recast_layout<half_t, float>(Layout<Shape<_4,_4>, Stride<_3,_12>>{})")
            .find("divisibility condition") != std::string::npos);
}

TEST_CASE("recast<T>(tensor): the layout recast, the pointer's space and swizzle kept, as CuTe's") {
  const auto cute = recast_oracle();
  Environment env;
  auto recast = [&](const std::string& type, const std::string& tensor) {
    return eval_in(env, "recast<" + type + ">(" + tensor + ").layout()");
  };
  CHECK(recast("float4", "make_tensor(make_gmem_ptr<float>(p), Layout<Shape<_4,_2,_2>, Stride<_1,_4,_8>>{})") ==
        cute.at("rt.gmem_float4.layout"));
  CHECK(eval_in(env,
                "recast<float4>(make_tensor(make_gmem_ptr<float>(p), Layout<Shape<_4,_2,_2>, "
                "Stride<_1,_4,_8>>{}))")
            .rfind("gmem_ptr[" + cute.at("rt.gmem_float4.bits") + "b](p) o ", 0) == 0);
  CHECK(recast("uint2", "make_tensor<half_t>(Layout<Shape<_4,_2>, Stride<_1,_4>>{})") ==
        cute.at("rt.rmem_uint2.layout"));
  CHECK(eval_in(env, "recast<uint2>(make_tensor<half_t>(Layout<Shape<_4,_2>, Stride<_1,_4>>{}))")
            .find("[" + cute.at("rt.rmem_uint2.bits") + "b]") != std::string::npos);
  const std::string smem = "make_tensor(make_smem_ptr<half_t>(s), " + kSmemLayoutQ + ")";
  CHECK(recast("uint128_t", smem) == cute.at("rt.smem_sw_u128.layout"));
  CHECK(eval_in(env, "recast<uint128_t>(" + smem + ")")
            .rfind("Sw<3,4,3>_smem_ptr[" + cute.at("rt.smem_sw_u128.bits") + "b](s) o ", 0) == 0);
  CHECK(recast("half_t", smem) == cute.at("rt.smem_same.layout"));
  CHECK(recast("uint8_t", "make_tensor(make_gmem_ptr<float>(p), Layout<Shape<_4,_8>, Stride<_8,_1>>{})") ==
        cute.at("rt.gmem_u8.layout"));
  CHECK(recast("float4",
               "make_tensor(make_gmem_ptr<float>(p), make_layout(make_shape(int(4), int(8)), "
               "make_stride(_1{}, int(4))))") == cute.at("rt.dyn.layout"));
  // an upcast with a negative stride moves the pointer back by what the layout loses: -16 bytes = 2 float2
  const std::string neg = "recast<float2>(make_tensor(make_gmem_ptr<float>(p), Layout<Shape<_8>, Stride<Int<-1>>>{}))";
  CHECK(eval_in(env, neg + ".layout()") == cute.at("rt.neg.layout"));
  CHECK(cute.at("rt.neg.offset_bytes") == "-16");
  CHECK(eval_in(env, neg).rfind("gmem_ptr[64b](p-2) o ", 0) == 0);
  // CuTe recasts tensors, not layouts; and it needs the old element type
  CHECK(error_of(env, "recast<float4>(Layout<Shape<_4,_2>>{})").find("recast_layout<OldType,NewType>") !=
        std::string::npos);
  CHECK(error_of(env, "recast<float4>(make_tensor(make_gmem_ptr(p), Layout<Shape<_4,_2>>{}))")
            .find("element type is unknown") != std::string::npos);
}

TEST_CASE("a pointer into a storage member (storage.tensors.mainloop.smem_q.data()) has the array's element type") {
  const auto cute = recast_oracle();
  REQUIRE(cute.count("st.sQ.bits"));
  auto loaded = load(R"(
using SmemLayoutQ = decltype(tile_to_shape(ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_8,_64>,Stride<_64,_1>>>{}, Shape<_128,_128>{}));
struct MainloopStorage {
  cute::array_aligned<half_t, cute::cosize_v<SmemLayoutQ>, 128> smem_q;
  cute::array_aligned<float, 128, 128> smem_scale;
};
struct TensorStorage { MainloopStorage mainloop; };
struct SharedStorage { TensorStorage tensors; int count; };
__global__ void kernel() {
  extern __shared__ char smem_buf[];
  SharedStorage& shared_storage = *reinterpret_cast<SharedStorage*>(smem_buf);
  Tensor sQ = make_tensor(make_smem_ptr(shared_storage.tensors.mainloop.smem_q.data()), SmemLayoutQ{});
  Tensor sS = make_tensor(make_smem_ptr(shared_storage.tensors.mainloop.smem_scale.data()), Layout<Shape<_128>>{});
  auto n = shared_storage.count;
}
template <class Storage> __device__ void load(Storage& storage) {
  Tensor sQ = make_tensor(make_smem_ptr(storage.tensors.mainloop.smem_scale.data()), Layout<Shape<_128>>{});
}
)");
  Environment& env = *loaded;
  // a member whose element type holds a scalar (float) is a storage member too
  CHECK(eval_in(env, "MainloopStorage::smem_scale") == "array_aligned<float,128,128>");
  const std::string sQ = eval_in(env, "kernel::sQ"), sS = eval_in(env, "kernel::sS");
  CHECK(sQ.find("smem_ptr[" + cute.at("st.sQ.bits") + "b](shared_storage.tensors.mainloop.smem_q.data())") !=
        std::string::npos);
  CHECK(eval_in(env, "kernel::sQ.layout()") == cute.at("st.sQ.layout"));
  CHECK(sS.find("smem_ptr[" + cute.at("st.sS.bits") + "b](") != std::string::npos);
  CHECK(eval_in(env, "kernel::sS.layout()") == cute.at("st.sS.layout"));
  // a member holding a run-time value stays a run-time value; a template's storage parameter is unknown
  CHECK(error_of(env, "kernel::n").find("reads a data member") != std::string::npos);
  CHECK(eval_in(env, "load::sQ").find("smem_ptr[?b](storage.tensors") != std::string::npos);
}

TEST_CASE("a pointer into a class template's storage member (smem.A.begin() of SharedStorage<TA, ...>) has TA") {
  const auto cute = recast_oracle();
  auto loaded = load(R"(
template <class ElementA, class ElementB, class SmemLayoutA>
struct SharedStorage {
  cute::ArrayEngine<ElementA, cosize_v<SmemLayoutA>> A;
  cute::array_aligned<ElementB, cosize_v<SmemLayoutA>> B;
};
using SA = Layout<Shape<_128,_128>>;
__global__ void kernel() {
  extern __shared__ char shared_memory[];
  using Storage = SharedStorage<half_t, float, SA>;
  Storage& smem = *reinterpret_cast<Storage*>(shared_memory);
  Tensor sA = make_tensor(make_smem_ptr(smem.A.begin()), SA{});
  Tensor sB = make_tensor(make_smem_ptr(smem.B.data()), SA{});
}
)");
  CHECK(eval_in(*loaded, "kernel::sA").rfind("smem_ptr[" + cute.at("st.sQ.bits") + "b](smem.A.begin()) o ", 0) == 0);
  CHECK(eval_in(*loaded, "kernel::sB").rfind("smem_ptr[" + cute.at("st.sS.bits") + "b](smem.B.data()) o ", 0) == 0);
}
