// The element-type table: one row per type, each fact once.
#include "lib/element_types.hpp"

#include <string_view>
#include <unordered_map>

namespace cutevis {

namespace {

constexpr ExactValues F = ExactValues::kFloat, S = ExactValues::kSigned, U = ExactValues::kUnsigned,
                      N = ExactValues::kNone;

}  // namespace

std::span<const ElementTypeInfo> element_type_table() {
  // name, bits, {spellings}, ptx, token, real, exact, exponent bits, mantissa bits, in expressions.
  // Spellings include CuTeDSL's Numeric class names (Float16, Float8E4M3FN, Int8, ...): the
  // DSL front end drops their `cutlass.` prefix, so `cutlass.Float16` finds half_t here.
  // clang-format off
  static constexpr ElementTypeInfo table[] = {
      {"half_t", 16, {"cutlass::half_t", "cute::half_t", "half", "Float16"}, "f16", "F16", "", F, 5, 10, true},
      {"bfloat16_t", 16, {"cutlass::bfloat16_t", "cute::bfloat16_t", "bf16", "BFloat16"}, "bf16", "BF16", "", F, 8, 7, true},
      {"tfloat32_t", 32, {"cutlass::tfloat32_t", "cute::tfloat32_t", "tf32", "TFloat32"}, "tf32", "TF32", "", F, 8, 10, true},
      {"float", 32, {"cute::float", "fp32", "Float32"}, "f32", "F32", "", F, 8, 23, true},
      {"double", 64, {"fp64", "Float64"}, "f64", "F64", "", F, 11, 52, true},
      {"float_e4m3_t", 8, {"cutlass::float_e4m3_t", "cute::float_e4m3_t", "e4m3", "Float8E4M3FN"}, "e4m3", "E4M3", "", F, 4, 3, true},
      {"float_e5m2_t", 8, {"cutlass::float_e5m2_t", "cute::float_e5m2_t", "e5m2", "Float8E5M2"}, "e5m2", "E5M2", "", F, 5, 2, true},
      {"float_e2m1_t", 4, {"cutlass::float_e2m1_t", "cute::float_e2m1_t", "e2m1", "Float4E2M1FN"}, "e2m1", "E2M1", "", N, 0, 0, true},
      {"float_e2m3_t", 6, {"cutlass::float_e2m3_t", "cute::float_e2m3_t", "e2m3", "Float6E2M3FN"}, "e2m3", "E2M3", "", N, 0, 0, true},
      {"float_e3m2_t", 6, {"cutlass::float_e3m2_t", "cute::float_e3m2_t", "e3m2", "Float6E3M2FN"}, "e3m2", "E3M2", "", N, 0, 0, true},
      {"float_ue8m0_t", 8, {"cutlass::float_ue8m0_t", "cute::float_ue8m0_t", "ue8m0", "Float8E8M0FNU"}, "ue8m0", "", "", N, 0, 0, true},
      {"float_ue4m3_t", 8, {"cutlass::float_ue4m3_t", "cute::float_ue4m3_t", "ue4m3"}, "ue4m3", "", "", N, 0, 0, true},
      {"type_erased_dynamic_float8_t", 8, {"cutlass::type_erased_dynamic_float8_t"}, "", "", "", N, 0, 0, true},
      {"int8_t", 8, {"signed char", "cute::int8_t", "std::int8_t", "s8", "Int8"}, "s8", "S8", "", S, 0, 0, true},
      {"uint8_t", 8, {"unsigned char", "cute::uint8_t", "std::uint8_t", "u8", "Uint8"}, "u8", "U8", "", U, 0, 0, true},
      // 16-bit integers reach an instruction only as untyped b16 (dp2a's packed halves)
      {"int16_t", 16, {"short", "cute::int16_t", "std::int16_t", "Int16"}, "b16", "", "", U, 0, 0, true},
      {"uint16_t", 16, {"cute::uint16_t", "std::uint16_t", "Uint16"}, "b16", "", "", U, 0, 0, true},
      {"int32_t", 32, {"int", "cute::int32_t", "std::int32_t", "s32", "Int32"}, "s32", "S32", "", S, 0, 0, true},
      {"uint32_t", 32, {"unsigned", "cute::uint32_t", "std::uint32_t", "u32", "Uint32"}, "u32", "", "", U, 0, 0, true},
      {"int64_t", 64, {"cute::int64_t", "std::int64_t", "Int64"}, "", "", "", N, 0, 0, true},
      {"uint64_t", 64, {"cute::uint64_t", "std::uint64_t", "Uint64"}, "", "", "", N, 0, 0, true},
      {"uint128_t", 128, {"cute::uint128_t", "cutlass::uint128_t"}, "", "", "", N, 0, 0, true},
      {"int4b_t", 4, {"cutlass::int4b_t", "cute::int4b_t", "s4", "cutlass::integer_subbyte<4, true>", "Int4"}, "s4", "S4", "", S, 0, 0, true},
      {"uint4b_t", 4, {"cutlass::uint4b_t", "cute::uint4b_t", "u4", "cutlass::integer_subbyte<4, false>"}, "u4", "U4", "", U, 0, 0, true},
      {"int2b_t", 2, {"cutlass::int2b_t"}, "", "", "", N, 0, 0, true},
      {"uint2b_t", 2, {"cutlass::uint2b_t"}, "", "", "", N, 0, 0, true},
      {"uint1b_t", 1, {"cutlass::uint1b_t", "cute::uint1b_t", "b1", "cutlass::integer_subbyte<1, false>"}, "b1", "U1", "", U, 0, 0, true},
      {"complex<double>", 128, {"cutlass::complex<double>", "cute::complex<double>", "complex_double"}, "", "C64", "double", N, 0, 0, true},
      {"complex<float>", 64, {"cutlass::complex<float>", "cute::complex<float>"}, "", "", "float", N, 0, 0, true},
      {"complex<tfloat32_t>", 64, {"cutlass::complex<cutlass::tfloat32_t>", "cute::complex<cute::tfloat32_t>", "complex<cutlass::tfloat32_t>"}, "", "", "tfloat32_t", N, 0, 0, true},
      // CUDA's vector types (vector_types.h), which kernels recast to for wide loads: recast<float4>(tensor)
      {"float2", 64, {}, "", "", "", N, 0, 0, true},
      {"float4", 128, {}, "", "", "", N, 0, 0, true},
      {"double2", 128, {}, "", "", "", N, 0, 0, true},
      {"int2", 64, {}, "", "", "", N, 0, 0, true},
      {"int4", 128, {}, "", "", "", N, 0, 0, true},
      {"uint2", 64, {}, "", "", "", N, 0, 0, true},
      {"uint4", 128, {}, "", "", "", N, 0, 0, true},
      // the Gaussian (3-multiply) complex accumulator of SM80_8x8x4_GC64C64C64GC64_TN
      {"GaussComplex", 192, {}, "", "GC64", "double", N, 0, 0, false},
  };
  // clang-format on
  return table;
}

// Every name and spelling, hashed once: the catalogue and `list` ask tens of thousands of times.
const ElementTypeInfo* find_element_type(const std::string& name) {
  static const std::unordered_map<std::string_view, const ElementTypeInfo*> index = [] {
    std::unordered_map<std::string_view, const ElementTypeInfo*> m;
    for (const auto& e : element_type_table()) {
      m.emplace(e.name, &e);
      for (const char* s : e.spellings) m.emplace(s, &e);
    }
    return m;
  }();
  const auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace cutevis
