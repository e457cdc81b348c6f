// CUTLASS's epilogue helpers that pick an smem store/load op from a C/D stride type
// (sm90_get_smem_store_op_for_accumulator, sm90_get_smem_load_op_for_source), evaluated as
// CUTLASS writes them: `size<0>(GmemStride{}) == 1` on a Stride<int64_t, _1, int64_t> reads the
// value-initialized stride (0,_1,0) (lib/lang/cpp_syntax.cpp value_initialized). Before, the
// stride's int64_t stayed a type and every caller (FA3's epilogue CopyOpR2S) failed.
// Expected values: real CuTe (tests/data/kernels/recast_storage_oracle.tsv, outputs only).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/cutlass_oracle.hpp"
#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"
#include "tests/support/tsv_oracle.hpp"

using namespace cutevis;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::map<std::string, std::string> oracle() { return test::tsv_oracle("tests/data/kernels/recast_storage_oracle.tsv"); }

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("cutevis_epilogue_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return (dir / name).string();
}

json names_of(const std::vector<std::string>& args) {
  std::vector<std::string> all{"names", "--json"};
  all.insert(all.end(), args.begin(), args.end());
  return test::names_of_run(all);
}

std::string value_of(const json& names, const std::string& name) {
  const json n = test::find_name(names, name);
  CAPTURE(name);
  REQUIRE(n.is_object());
  CAPTURE(n.dump());
  REQUIRE(n["kind"] != "unresolved");
  return n["value"].get<std::string>();
}

// CuTe's demangled `cute::SM90_U32x4_STSM_N` is cutevis's `SM90_U32x4_STSM_N`.
std::string op(const std::string& demangled) {
  return demangled.rfind("cute::", 0) == 0 ? demangled.substr(6) : demangled;
}

// The cases of the oracle: the alias name, the stride, element and tile it instantiates.
struct Case {
  const char* key;
  const char* stride;
  const char* element;
  const char* tile;
};
const Case kCases[] = {
    {"N_half_128x128", "Stride<int64_t, _1, int64_t>", "cutlass::half_t", "Shape<_128,_128>"},
    {"N_half_64x8", "Stride<int64_t, _1, int64_t>", "cutlass::half_t", "Shape<_64,_8>"},
    {"T_half_64x32", "Stride<_1, int64_t, int64_t>", "cutlass::half_t", "Shape<_64,_32>"},
    {"T_bf16_64x8", "Stride<_1, int64_t, int64_t>", "cutlass::bfloat16_t", "Shape<_64,_8>"},
    {"N_float_64x32", "Stride<int64_t, _1, int64_t>", "float", "Shape<_64,_32>"},
};

// The declarations a kernel file makes of each case with `store_fn` / `load_fn`.
std::string uses(const std::string& store_fn, const std::string& load_fn) {
  std::string out;
  for (const Case& c : kCases) {
    const std::string targs = std::string("<") + c.stride + ", " + c.element + ", " + c.tile + ">";
    out += "using Store_" + std::string(c.key) + " = decltype(" + store_fn + targs + "());\n";
    out += "using Load_" + std::string(c.key) + " = decltype(" + load_fn + targs + "());\n";
  }
  return out;
}

}  // namespace

TEST_CASE("a value-initialized stride type in a constexpr selector: CUTLASS-style epilogue op choice as CuTe's") {
  const auto cute = oracle();
  REQUIRE(cute.count("ep.store.N_half_128x128"));
  // A selector in the style of CUTLASS's epilogue builders (written here): the D stride's static
  // _1 mode and the element's size pick a stmatrix, the source load reuses the store's choice.
  const std::string header = write_temp("select.inl", R"(
namespace my::epilogue::detail {
template <class GmemStride, class Element, class Tile>
constexpr auto store_op() {
  using namespace cute;
  if constexpr (sizeof(Element) == 2 && size<0>(GmemStride{}) == 1) {
    if constexpr (size<1>(Tile{}) % 16 == 0) { return SM90_U16x8_STSM_T{}; }
    else if constexpr (size<1>(Tile{}) % 8 == 0) { return SM90_U16x4_STSM_T{}; }
  } else if constexpr (sizeof(Element) == 2 && size<1>(GmemStride{}) == 1) {
    if constexpr (size<1>(Tile{}) % 16 == 0) { return SM90_U32x4_STSM_N{}; }
    else if constexpr (size<1>(Tile{}) % 8 == 0) { return SM90_U32x2_STSM_N{}; }
  } else {
    return AutoVectorizingCopyWithAssumedAlignment<128>{};
  }
}
template <class GmemStride, class Element, class Tile>
constexpr auto load_op() {
  using Store = decltype(store_op<GmemStride, Element, Tile>());
  if constexpr (cute::is_same_v<Store, SM90_U16x8_STSM_T>) { return SM75_U16x8_LDSM_T{}; }
  else if constexpr (cute::is_same_v<Store, SM90_U16x4_STSM_T>) { return SM75_U16x4_LDSM_T{}; }
  else if constexpr (cute::is_same_v<Store, SM90_U32x4_STSM_N>) { return SM75_U32x4_LDSM_N{}; }
  else if constexpr (cute::is_same_v<Store, SM90_U32x2_STSM_N>) { return SM75_U32x2_LDSM_N{}; }
  else { return AutoVectorizingCopyWithAssumedAlignment<128>{}; }
}
}  // namespace my::epilogue::detail
)");
  const std::string kernel =
      write_temp("epilogue.hpp",
                 "#include \"select.inl\"\n" + uses("my::epilogue::detail::store_op", "my::epilogue::detail::load_op"));
  json names = names_of({"--from", kernel, "-I", fs::path(header).parent_path().string()});
  for (const Case& c : kCases) {
    CAPTURE(c.key);
    CHECK(value_of(names, std::string("Store_") + c.key) == op(cute.at(std::string("ep.store.") + c.key)));
    CHECK(value_of(names, std::string("Load_") + c.key) == op(cute.at(std::string("ep.load.") + c.key)));
  }
}

TEST_CASE("real CUTLASS headers (CUTLASS_PATH): sm90_get_smem_store_op_for_accumulator / _load_op_for_source") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  if (!cutlass || !fs::exists(fs::path(cutlass) / "include/cutlass/epilogue/collective/builders/sm90_common.inl"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  const auto cute = oracle();
  const std::string ns = "cutlass::epilogue::collective::detail::";
  const std::string kernel =
      write_temp("real_epilogue.hpp",
                 "#include <cute/tensor.hpp>\n"
                 "#include \"cutlass/epilogue/collective/builders/sm90_common.inl\"\n" +
                     uses(ns + "sm90_get_smem_store_op_for_accumulator", ns + "sm90_get_smem_load_op_for_source") +
                     // FA3's epilogue: StrideO of five modes, the (128,128) tile of hdim 128
                     "using CopyOpR2S = decltype(" + ns +
                     "sm90_get_smem_store_op_for_accumulator<cute::Stride<int64_t, _1, int64_t, "
                     "int64_t, int64_t>, cutlass::half_t, Shape<_128,_128>>());\n");
  json names = names_of({"--from", kernel, "-I", (fs::path(cutlass) / "include").string()});
  for (const Case& c : kCases) {
    CAPTURE(c.key);
    CHECK(value_of(names, std::string("Store_") + c.key) == op(cute.at(std::string("ep.store.") + c.key)));
    CHECK(value_of(names, std::string("Load_") + c.key) == op(cute.at(std::string("ep.load.") + c.key)));
  }
  CHECK(value_of(names, "CopyOpR2S") == op(cute.at("ep.fa3_CopyOpR2S")));
}

TEST_CASE("make_tma_copy over ShapeQKV{}, StrideQK{} of run-time integer types: FA3's TMA types as CuTe's") {
  // FA3 writes its TMA types as decltype(make_tma_copy(..., make_tensor(ptr, ShapeQKV{}, StrideQK{}), ...)):
  // the value-initialized (0,0,0,0):(0,_1,0,0) gmem tensor carries the static structure the type needs.
  const auto cute = oracle();
  REQUIRE(cute.count("tma.fa3_V.tiled_layout_tv"));
  const std::string kernel = write_temp("fa3_tma.hpp", R"(
using Element = cutlass::half_t;
using ShapeQKV = cute::Shape<int32_t, int32_t, int32_t, int32_t>;
using StrideQK = cute::Stride<int64_t, _1, int64_t, int64_t>;
using StrideV = StrideQK;
using TileShape_MNK = Shape<_128, Int<176>, _128>;
using TileShape_MNK_PV = Shape<_128, _128, Int<176>>;
using SmemLayoutQ = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{}, select<0, 2>(TileShape_MNK{})));
using SmemLayoutK = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<Element>{}, make_shape(Int<176>{}, _128{}, _2{})));
using SmemLayoutVt = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<Element>{}, make_shape(_128{}, Int<176>{}, _2{}), Step<_2, _1, _3>{}));
using GmemQ = decltype(make_tensor(make_gmem_ptr(static_cast<Element const*>(nullptr)), ShapeQKV{}, StrideQK{}));
using TMA_Q = decltype(make_tma_copy(SM90_TMA_LOAD{}, GmemQ{}, SmemLayoutQ{}, select<0, 2>(TileShape_MNK{}), _1{}));
using TMA_K = decltype(make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(static_cast<Element const*>(nullptr)), ShapeQKV{}, StrideQK{}), take<0, 2>(SmemLayoutK{}), select<1, 2>(TileShape_MNK{}), _1{}));
using TMA_V = decltype(make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(static_cast<Element const*>(nullptr)), ShapeQKV{}, select<1, 0, 2, 3>(StrideV{})), take<0, 2>(SmemLayoutVt{}), select<1, 2>(TileShape_MNK_PV{}), _1{}));
)");
  auto cute_of = [&](const std::string& expr) {
    auto r = test::run_cutevis({"eval", "--json", "--from", kernel, expr});
    CAPTURE(expr);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out)["cute"].get<std::string>();
  };
  CHECK(cute_of("GmemQ{}.layout()") == "(0,0,0,0):(0,_1,0,0)");  // C++'s value-initialized shape and stride
  for (const char* x : {"Q", "K", "V"}) {
    CAPTURE(x);
    const std::string key = std::string("tma.fa3_") + x;
    CHECK(cute_of(std::string("TMA_") + x + "::Tiler_MN{}") == cute.at(key + ".tiler"));
    CHECK(cute_of(std::string("TMA_") + x + "::TiledLayout_TV{}") == cute.at(key + ".tiled_layout_tv"));
  }
}
