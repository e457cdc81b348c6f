// Compile-time C++ of a user's file (lib/lang/functions.hpp): constexpr function bodies,
// class template specializations and base classes.  Expected values are real CuTe's (g++ 12,
// host only, CUTLASS's headers; tests/data/kernels/oracle.tsv, rows fn.*).
#include <doctest/doctest.h>

#include <memory>

#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/environment.hpp"
#include "tests/support/lang_env.hpp"

using namespace cutevis;

namespace {

using test::error_of;
using test::eval_in;
using test::load;

const char* const kFunctions =
    "namespace mine {\n"                                                            // 1
    "template <class L>\n"                                                          // 2
    "CUTE_HOST_DEVICE constexpr auto pick(L const& layout, int min_rows = 16) {\n"  // 3
    "  using namespace cute;\n"                                                     // 4
    "  auto rows = size<0>(layout);\n"                                              // 5
    "  static_assert(rows % 8 == 0, \"rows must be a multiple of 8\");\n"           // 6
    "  if constexpr (rows >= 128) {\n"                                              // 7
    "    return make_layout(make_shape(rows, _2{}), LayoutRight{});\n"              // 8
    "  } else if constexpr (rows % 32 == 0) {\n"                                    // 9
    "    constexpr auto cols = Int<4>{};\n"                                         // 10
    "    using Shape2 = decltype(make_shape(rows, cols));\n"                        // 11
    "    return make_layout(Shape2{});\n"                                           // 12
    "  } else\n"                                                                    // 13
    "    return Layout<Shape<_8, _8>>{};\n"                                         // 14
    "}\n"                                                                           // 15
    "template <int N, class T = int>\n"                                             // 16
    "constexpr int twice(Int<N>) { return 2 * N; }\n"                               // 17
    "constexpr int round_up(int x, int m = 64) { return (x + m - 1) / m * m; }\n"   // 18
    "template <int kRows> constexpr auto blocked() { for (;;) {} }\n"               // 19
    "}  // namespace mine\n"                                                        // 20
    "template <int kM>\n"                                                           // 21
    "struct Cfg {\n"                                                                // 22
    "  using A = decltype(mine::pick(Layout<Shape<Int<kM>, _8>>{}));\n"             // 23
    "  static constexpr auto rows() { return size<0>(A{}); }\n"                     // 24
    "  static constexpr int kHalf = kM / 2;\n"                                      // 25
    "};\n"                                                                          // 26
    "using C128 = Cfg<128>;\n"                                                      // 27
    "constexpr auto k256 = mine::round_up(200);\n"                                  // 28
    "auto kBad = mine::pick(Layout<Shape<_12, _2>>{});\n";                          // 29

}  // namespace

TEST_CASE("scanner: constexpr functions are recorded with their body, template header and parameters") {
  CppScan s = scan_cpp(kFunctions, "k.cu");
  REQUIRE(s.functions.size() == 5);
  const FunctionDef& pick = s.functions[0];
  CHECK(pick.decl.name == "pick");
  CHECK(pick.decl.scope == "mine");
  CHECK(pick.decl.line == 3);
  CHECK(pick.tparams == std::vector<std::string>{"L"});
  CHECK(pick.params == std::vector<std::string>{"layout", "min_rows"});
  CHECK(pick.param_types == std::vector<std::string>{"L const&", "int"});
  CHECK(pick.param_defaults == std::vector<std::string>{"", "16"});
  CHECK(pick.raw_body.find("\"rows must be a multiple of 8\"") != std::string::npos);
  CHECK(s.functions[1].tdefaults == std::vector<std::string>{"", "int"});
  CHECK(s.functions[4].decl.name == "rows");
  CHECK(s.functions[4].decl.scope == "Cfg");
  CHECK(s.functions[4].decl.template_scope == "Cfg");  // a static member of a struct template
  // the bodies are not read for declarations
  for (const auto& d : s.declarations) CHECK(d.scope.find("pick") == std::string::npos);
  for (const auto& d : s.declarations) CHECK(d.name != "cols");
  REQUIRE(s.classes.size() == 1);
  CHECK(s.classes[0].name == "Cfg");
  CHECK(s.classes[0].is_template);
}

TEST_CASE("constexpr functions: if constexpr chains, locals, deduction, defaults, static members") {
  auto env = load(kFunctions);
  CHECK(eval_in(*env, "mine::pick(Layout<Shape<_128, _8>>{})") == "(_128,_2):(_2,_1)");
  CHECK(eval_in(*env, "mine::pick(Layout<Shape<_64, _8>>{})") == "(_64,_4):(_1,_64)");
  CHECK(eval_in(*env, "mine::pick(Layout<Shape<_8, _8>>{})") == "(_8,_8):(_1,_8)");
  CHECK(eval_in(*env, "C128::A{}") == "(_128,_2):(_2,_1)");
  CHECK(eval_in(*env, "Cfg<32>::A{}") == "(_32,_4):(_1,_32)");
  CHECK(eval_in(*env, "C128::rows()") == "_128");          // a static member function of an instance
  CHECK(eval_in(*env, "mine::twice(Int<24>{})") == "48");  // N deduced from Int<N>
  CHECK(eval_in(*env, "k256") == "256");
  CHECK(eval_in(*env, "mine::round_up(200, 128)") == "256");
  CHECK(eval_in(*env, "decltype(mine::pick(make_layout(make_shape(_256{}, _2{}))))") == "(_256,_2):(_2,_1)");
}

TEST_CASE("constexpr functions: a failed static_assert is an error at its line, with its message") {
  auto env = load(kFunctions);
  CHECK(error_of(*env, "kBad") == "k.cu:6: static_assert failed: rows must be a multiple of 8");
  CHECK(error_of(*env, "mine::blocked<4>()") ==
        "k.cu:19: the 'for' loop in blocked ran past 262144 iterations (g++'s constexpr loop limit): does it end?");
  CHECK(error_of(*env, "mine::twice()").find("twice takes 1 argument and 2 template arguments, got 0 arguments") !=
        std::string::npos);
  CHECK(error_of(*env, "mine::round_up<4>(1)").find("round_up takes 2 arguments and 0 template arguments") !=
        std::string::npos);
}

TEST_CASE("class templates: partial and full specializations, members of base classes") {
  auto env = load(
      "template <int Stages_, class Cluster_ = Shape<_1, _1, _1>> struct Sm90Policy { static constexpr int Stages = "
      "Stages_; };\n"
      "template <int Stages_> struct Sm80Policy { static constexpr int Stages = Stages_; };\n"
      "template <class Policy, class TileShape> struct Traits { static constexpr int kStages = 1; };\n"
      "template <int S, class Cluster, class TileShape>\n"
      "struct Traits<Sm90Policy<S, Cluster>, TileShape> {\n"
      "  static constexpr int kStages = S;\n"
      "  using SmemShape = decltype(make_shape(get<0>(TileShape{}), Int<S>{}));\n"
      "};\n"
      "template <class TileShape> struct Traits<Sm80Policy<2>, TileShape> { static constexpr int kStages = 20; };\n"
      "template <int kM_> struct Base { static constexpr int kM = kM_; using L = Layout<Shape<Int<kM_>, _2>>; };\n"
      "template <int kM_> struct Derived : public Base<kM_ * 2> {\n"
      "  using typename Base<kM_ * 2>::L;\n"
      "  using L2 = decltype(coalesce(L{}));\n"
      "};\n"
      "struct Plain { static constexpr int kWarps = 4; };\n"
      "struct FromPlain : Plain { static constexpr int kThreads = kWarps * 32; };\n"
      "using T3 = Traits<Sm90Policy<3, Shape<_2, _1, _1>>, Shape<_128, _64>>;\n");
  // expected: real CuTe (oracle.tsv fn.kStagesSm90, fn.SmemShapeA, fn.kStagesSm80, fn.kStagesOther)
  CHECK(eval_in(*env, "Traits<Sm90Policy<4>, Shape<_128, _64>>::kStages") == "4");
  CHECK(eval_in(*env, "T3::kStages") == "3");
  CHECK(eval_in(*env, "T3::SmemShape{}") == "(_128,_3)");
  CHECK(eval_in(*env, "Traits<Sm80Policy<2>, Shape<_128, _64>>::kStages") == "20");
  CHECK(eval_in(*env, "Traits<Sm80Policy<3>, Shape<_128, _64>>::kStages") == "1");  // the primary
  CHECK(eval_in(*env, "Derived<32>::kM") == "64");
  CHECK(eval_in(*env, "Derived<32>::L2{}") == "_128:_1");
  CHECK(eval_in(*env, "FromPlain::kWarps") == "4");
  CHECK(eval_in(*env, "FromPlain::kThreads") == "128");
  CHECK(error_of(*env, "Derived<32>::kNone").find("has no member 'kNone'") != std::string::npos);
}

TEST_CASE("constexpr functions: recursion (bounded), a plain if on a parameter, a snippet's functions") {
  auto env = load(
      "constexpr int fact(int n) {\n"
      "  if (n <= 1) return 1;\n"
      "  else return n * fact(n - 1);\n"
      "}\n"
      "constexpr int forever(int n) { return forever(n + 1); }\n"
      "struct Plain { static constexpr auto atom() { return Layout<Shape<_8, _8>>{}; } };\n"
      "template <class T> constexpr int bits() { static_assert(sizeof_bits_v<T> == 8); return 1; }\n");
  CHECK(eval_in(*env, "fact(5)") == "120");
  CHECK(error_of(*env, "forever(1)").find("calls nested more than 64 deep") != std::string::npos);
  CHECK(eval_in(*env, "Plain::atom()") == "(_8,_8):(_1,_8)");
  CHECK(error_of(*env, "bits<half_t>()") == "k.cu:7: static_assert failed");
  CppSnippet s = scan_cpp_snippet("constexpr int f() { return 3; }; constexpr int x = f() + 1;", kSnippetFile);
  REQUIRE(s.functions.size() == 1);
  CHECK(s.functions[0].decl.name == "f");
  CHECK(s.result_name == "x");
}

TEST_CASE("class templates: the more specialized of two matching specializations, the primary's defaults") {
  auto env = load(
      "template <class T, bool B = false> struct TT { static constexpr int k = 1; };\n"
      "template <class T> struct TT<T, true> { static constexpr int k = 4; };\n"
      "template <> struct TT<cutlass::half_t, true> { static constexpr int k = 3; };\n"
      "template <class T> struct TT<T, false> { static constexpr int k = 5; };\n");
  CHECK(eval_in(*env, "TT<half_t, true>::k") == "3");  // the full specialization, though written last
  CHECK(eval_in(*env, "TT<float, true>::k") == "4");
  CHECK(eval_in(*env, "TT<float>::k") == "5");  // B = false by the primary's default
}

TEST_CASE(
    "type traits CUTLASS's builders use: is_base_of_v through bases, is_any_of_v, remove_pointer_t, uint_byte_t") {
  auto env = load(
      "namespace my::gemm {\n"
      "struct KernelWs {};\n"
      "struct KernelWsCooperative : KernelWs {};\n"
      "struct KernelWsCooperativeFast : KernelWsCooperative {};\n"
      "struct KernelPingpong {};\n"
      "}\n");
  CHECK(eval_in(*env, "cute::is_base_of_v<my::gemm::KernelWs, my::gemm::KernelWsCooperativeFast>") == "true");
  CHECK(eval_in(*env, "std::is_base_of_v<my::gemm::KernelWsCooperative, my::gemm::KernelWsCooperative>") == "true");
  CHECK(eval_in(*env, "cute::is_base_of_v<my::gemm::KernelWsCooperativeFast, my::gemm::KernelWs>") == "false");
  CHECK(eval_in(*env, "cute::is_base_of_v<my::gemm::KernelPingpong, my::gemm::KernelWsCooperative>") == "false");
  CHECK(eval_in(*env, "cute::is_any_of_v<my::gemm::KernelPingpong, my::gemm::KernelWs, my::gemm::KernelPingpong>") ==
        "true");
  CHECK(eval_in(*env, "cute::is_any_of_v<my::gemm::KernelWs, my::gemm::KernelWsCooperative>") == "false");
  CHECK(eval_in(*env, "cute::remove_pointer_t<Stride<_1, int64_t, int64_t> *>") ==
        eval_in(*env, "Stride<_1, int64_t, int64_t>"));
  CHECK(eval_in(*env, "cute::uint_byte_t<2>") == eval_in(*env, "uint16_t"));
  CHECK(eval_in(*env, "cute::uint_byte_t<static_cast<int>(sizeof(half_t)) * 8>") == eval_in(*env, "cute::uint128_t"));
  CHECK(error_of(*env, "cute::uint_byte_t<3>").find("N = 1, 2, 4, 8, 16") != std::string::npos);
}

TEST_CASE("a using-declaration brings a namespace's alias template into another: using ns::Name_t;") {
  auto env = load(
      "namespace my { namespace layout { struct RowMajor {}; struct ColumnMajor {}; } }\n"
      "namespace my::detail {\n"
      "template <class L> struct TagToStride { using type = L; };\n"
      "template <> struct TagToStride<layout::RowMajor> { using type = cute::Stride<int64_t, cute::Int<1>, int64_t>; "
      "};\n"
      "template <> struct TagToStride<layout::ColumnMajor> { using type = cute::Stride<cute::Int<1>, int64_t, "
      "int64_t>; };\n"
      "template <class Tag> using TagToStride_t = typename TagToStride<Tag>::type;\n"
      "constexpr int kStages = 4;\n"
      "}\n"
      "namespace my::gemm {\n"
      "using my::detail::TagToStride_t;\n"
      "using ::my::detail::kStages;\n"
      "}\n"
      "namespace my::gemm::collective { using StrideA = TagToStride_t<my::layout::ColumnMajor>; }\n");
  CHECK(eval_in(*env, "my::gemm::TagToStride_t<my::layout::RowMajor>") ==
        eval_in(*env, "cute::Stride<int64_t, cute::Int<1>, int64_t>"));
  CHECK(eval_in(*env, "my::gemm::collective::StrideA") ==
        eval_in(*env, "cute::Stride<cute::Int<1>, int64_t, int64_t>"));
  CHECK(eval_in(*env, "my::gemm::kStages * 2") == "8");
  CHECK(eval_in(*env, "my::gemm::TagToStride_t<my::layout::RowMajor>") !=
        eval_in(*env, "my::gemm::TagToStride_t<my::layout::ColumnMajor>"));
}

TEST_CASE("tuple traits: a mixed-input builder's (Element, Scale) pair or a plain element, read by index") {
  auto env = load(
      "template <size_t I, class Tuple>\n"
      "struct pick_dtype {\n"
      "  using underlying = cute::conditional_t<cute::is_tuple<Tuple>::value, Tuple, cute::tuple<Tuple>>;\n"
      "  static constexpr size_t valid = cute::min(I, cute::tuple_size_v<underlying> - 1);\n"
      "  using type = cute::conditional_t<(I < cute::tuple_size_v<underlying>),\n"
      "                                   cute::tuple_element_t<valid, underlying>, void>;\n"
      "};\n");
  CHECK(eval_in(*env, "pick_dtype<0, cute::tuple<int8_t, half_t>>::type") == eval_in(*env, "int8_t"));
  CHECK(eval_in(*env, "pick_dtype<1, cute::tuple<int8_t, half_t>>::type") == eval_in(*env, "half_t"));
  CHECK(eval_in(*env, "pick_dtype<0, half_t>::type") == eval_in(*env, "half_t"));
  CHECK(eval_in(*env, "pick_dtype<1, half_t>::type") == "void");
  CHECK(eval_in(*env, "cute::tuple_size_v<cute::tuple<int8_t, half_t, float>>") == eval_in(*env, "3"));
  CHECK(eval_in(*env, "cute::tuple_size_v<cute::tuple<int8_t, half_t, float>>") != eval_in(*env, "2"));
  CHECK(error_of(*env, "cute::tuple_element_t<2, cute::tuple<int8_t, half_t>>").find("out of range") !=
        std::string::npos);
}

TEST_CASE("a stride's major mode, as CUTLASS's is_major reads it: is_constant, front, is_layout, is_pointer_v") {
  auto env = load(
      "namespace my::detail {\n"
      "template <int Mode, class Stride>\n"
      "constexpr bool major(Stride = {}) {\n"
      "  return cute::is_constant<1, "
      "decltype(cute::front(cute::get<Mode>(cute::remove_pointer_t<Stride>{})))>::value;\n"
      "}\n"
      "template <class S>\n"
      "constexpr int kind() {\n"
      "  if constexpr (cute::is_layout<S>::value) return 2;\n"
      "  else if constexpr (cute::is_pointer_v<S>) return 1;\n"
      "  else return 0;\n"
      "}\n"
      "}\n");
  // a row-major A (M,K,L): K is the unit-stride mode; a batched stride's nested mode reads its first leaf
  CHECK(eval_in(*env, "my::detail::major<1, cute::Stride<int64_t, cute::Int<1>, int64_t>>()") == "true");
  CHECK(eval_in(*env, "my::detail::major<0, cute::Stride<int64_t, cute::Int<1>, int64_t>>()") == "false");
  CHECK(eval_in(*env, "my::detail::major<0, cute::Stride<cute::Stride<cute::_1, int>, int64_t>>()") == "true");
  // a run-time 1 is not the static 1 (CuTe's is_constant looks at the type)
  CHECK(eval_in(*env, "cute::is_constant<1, int>::value") == "false");
  CHECK(eval_in(*env, "cute::is_constant<1, cute::_1>::value") == "true");
  CHECK(eval_in(*env, "cute::is_constant<2, cute::_1>::value") == "false");
  CHECK(eval_in(*env, "cute::front(make_shape(make_shape(_3, 4), _5))") == "_3");
  CHECK(eval_in(*env, "cute::back(make_shape(_3, make_shape(4, _5)))") == "_5");
  CHECK(eval_in(*env, "my::detail::kind<Layout<Shape<_8, _8>>>()") == "2");
  CHECK(eval_in(*env, "my::detail::kind<cute::Stride<int64_t, cute::Int<1>, int64_t>>()") == "0");
  CHECK(eval_in(*env, "cute::is_layout<decltype(composition(Swizzle<3,4,3>{}, Layout<Shape<_8, _64>>{}))>::value") ==
        "true");
  // a pointer as written is one (cutevis's values carry no pointer: the answer was false)
  CHECK(eval_in(*env, "cute::is_pointer_v<int*>") == "true");
  CHECK(eval_in(*env, "cute::is_pointer_v<half_t const *>") == "true");
  CHECK(eval_in(*env, "cute::is_pointer_v<int * const>") == "true");
  CHECK(eval_in(*env, "cute::is_pointer_v<int const>") == "false");
  CHECK(eval_in(*env, "cute::is_pointer_v<cute::Stride<int64_t, cute::Int<1>, int64_t>>") == "false");
}

TEST_CASE("overloads chosen by their parameter's class template, as a builder's stage count is: Count<N> or Auto<B>") {
  auto env = load(
      "namespace my {\n"
      "template <int n> struct Count { static constexpr int value = n; };\n"
      "template <int bytes> struct AutoCarveout { static constexpr int carve = bytes; };\n"
      "using Auto = AutoCarveout<0>;\n"
      "namespace detail {\n"
      "template <int capacity, class T, int stages>\n"
      "constexpr int stage_count(Count<stages> c) { return stages; }\n"
      "template <int capacity, class T, int stages>\n"
      "constexpr int stage_count(cute::Int<stages> c) { return stages + 100; }\n"
      "template <int capacity_, class T, int carveout_>\n"
      "constexpr int stage_count(AutoCarveout<carveout_> c) {\n"
      "  return (capacity_ - carveout_) / (sizeof_bits_v<T> * 128 * 64 / 8);\n"
      "}\n"
      "}\n"
      "}\n");
  CHECK(eval_in(*env, "my::detail::stage_count<232448, half_t>(my::Count<5>{})") ==
        eval_in(*env, "my::Count<5>::value"));
  CHECK(eval_in(*env, "my::detail::stage_count<232448, half_t>(my::Count<5>{}) == 5") == "true");
  CHECK(eval_in(*env, "my::detail::stage_count<232448, half_t>(cute::Int<3>{})") == "103");
  CHECK(eval_in(*env, "my::detail::stage_count<232448, half_t>(my::Auto{})") == "14");
  CHECK(eval_in(*env, "my::detail::stage_count<232448, half_t>(my::AutoCarveout<16384>{})") == "13");
  CHECK(error_of(*env, "my::detail::stage_count<232448, half_t>(make_shape(4, 4))").find("no stage_count") !=
        std::string::npos);
}

TEST_CASE("a swizzle's alignment, as CUTLASS computes it: Swizzle<B, M, S> deduced, get_swizzle_portion, abs") {
  auto env = load(
      "namespace my::detail {\n"
      "template <int B, int M, int S>\n"
      "constexpr size_t align_of(cute::Swizzle<B, M, S>) { return size_t(1) << size_t(B + M + cute::abs(S)); }\n"
      "template <class Layout>\n"
      "constexpr size_t align_of(Layout layout) { return align_of(cute::get_swizzle_portion(layout)); }\n"
      "}\n");
  CHECK(eval_in(*env,
                "my::detail::align_of(composition(Swizzle<3, 4, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}))") ==
        "1024");
  CHECK(eval_in(*env, "my::detail::align_of(composition(Swizzle<2, 4, 3>{}, Layout<Shape<_32, _8>>{}))") == "512");
  CHECK(eval_in(*env, "my::detail::align_of(Layout<Shape<_8, _8>>{})") == "128");  // the identity Swizzle<0,4,3>
  CHECK(eval_in(*env, "my::detail::align_of(Swizzle<2, 4, -3>{})") == "512");
  CHECK(eval_in(*env,
                "cute::get_nonswizzle_portion(composition(Swizzle<1, 4, 3>{}, Layout<Shape<_8, _16>, Stride<_16, "
                "_1>>{}))") == "(_8,_16):(_16,_1)");
  CHECK(eval_in(*env, "cute::get_swizzle_portion(Layout<Shape<_8, _16>>{})") == "Sw<0,4,3>");
  // Layout<Shape, Stride> takes a plain layout only, as C++ matches it: the composed one goes elsewhere
  auto picks = load(
      "template <class Shape, class Stride> constexpr int kind(Layout<Shape, Stride>) { return rank(Shape{}); }\n"
      "template <class L> constexpr int kind(L) { return 100; }\n");
  CHECK(eval_in(*picks, "kind(Layout<Shape<_8, _16, _2>>{})") == "_3");
  CHECK(eval_in(*picks, "kind(composition(Swizzle<3, 4, 3>{}, Layout<Shape<_8, _64>>{}))") == "100");
}

TEST_CASE("sizeof a struct the sources define, as a builder sizes its pipeline's barriers; R(x) of a type parameter") {
  auto env = load(
      "namespace my::arch {\n"
      "struct Barrier { using ValueType = uint64_t; ValueType barrier_; };\n"
      "struct TxBarrier : public Barrier {};\n"
      "struct Tag {};\n"
      "struct Mixed { uint8_t flag; uint32_t count; uint16_t tail; };\n"
      "struct alignas(64) Descriptor { uint8_t bytes[48]; };\n"
      "}\n"
      "namespace my {\n"
      "template <int Stages_>\n"
      "class Pipeline {\n"
      " public:\n"
      "  static constexpr uint32_t Stages = Stages_;\n"
      "  using FullBarrier = my::arch::TxBarrier;\n"
      "  struct SharedStorage {\n"
      "    FullBarrier full_[Stages];\n"
      "    my::arch::Barrier empty_[Stages];\n"
      "  };\n"
      "  CUTLASS_DEVICE void wait(int phase);\n"
      "};\n"
      "template <class R = int, class T>\n"
      "CUTLASS_HOST_DEVICE constexpr R to_bytes(T bits) { return (R(bits) + R(7)) / R(8); }\n"
      "CUTLASS_HOST_DEVICE CUTLASS_CONSTEXPR_IF_CXX17 int up(int a, int b) { return ((a + b - 1) / b) * b; }\n"
      "}\n");
  CHECK(eval_in(*env, "sizeof(my::arch::Barrier)") == "_8");
  CHECK(eval_in(*env, "sizeof(my::arch::TxBarrier)") == "_8");  // an empty derived struct adds nothing
  CHECK(eval_in(*env, "sizeof(my::arch::Tag)") == "_1");
  CHECK(eval_in(*env, "sizeof(my::arch::Mixed)") == "_12");  // 1, padded to 4, 4, 2, padded to 12
  CHECK(eval_in(*env, "sizeof(typename my::Pipeline<1>::SharedStorage)") == "_16");
  CHECK(eval_in(*env, "sizeof(typename my::Pipeline<4>::SharedStorage)") == "_64");
  CHECK(eval_in(*env, "sizeof(my::arch::Descriptor)") == "_64");  // alignas(64) on the struct
  CHECK(eval_in(*env, "my::to_bytes(9)") == "2");
  CHECK(eval_in(*env, "my::up(200, 128)") == "256");
}

TEST_CASE("a builder's tensor-map workspace: sizeof(cute::TmaDescriptor), size_t(bool), cute::identity as a type") {
  auto env = load(
      "template <bool IsMixed>\n"
      "struct Cfg {\n"
      "  static constexpr size_t kMaps = sizeof(cute::TmaDescriptor) * size_t(IsMixed) * 4;\n"
      "  using Transform = cute::identity;\n"
      "};\n");
  CHECK(eval_in(*env, "Cfg<true>::kMaps") == "512");
  CHECK(eval_in(*env, "Cfg<false>::kMaps") == "0");
  CHECK(eval_in(*env, "cute::is_same_v<Cfg<true>::Transform, cute::identity>") == "true");
}

TEST_CASE("a builder's specialization chosen by enable_if_t on its parameters, its pattern read in its namespace") {
  auto env = load(
      "namespace my::gemm {\n"
      "namespace arch { struct Sm90 {}; }\n"
      "struct KernelA {};\n"
      "struct KernelB {};\n"
      "template <class Arch, class T, class Sched, class Enable = void>\n"
      "struct Builder { static constexpr int which = 0; };\n"
      "template <class T, class Sched>\n"
      "struct Builder<arch::Sm90, T, Sched, cute::enable_if_t<cute::is_any_of_v<Sched, KernelA>>> {\n"
      "  static constexpr int which = 1;\n"
      "};\n"
      "template <class T, class Sched>\n"
      "struct Builder<arch::Sm90, T, Sched,\n"
      "               cute::enable_if_t<cute::is_same_v<Sched, KernelB> && (cute::sizeof_bits_v<T> == 16)>> {\n"
      "  static constexpr int which = 2;\n"
      "};\n"
      "}\n");
  CHECK(eval_in(*env, "my::gemm::Builder<my::gemm::arch::Sm90, half_t, my::gemm::KernelA>::which") == "1");
  CHECK(eval_in(*env, "my::gemm::Builder<my::gemm::arch::Sm90, half_t, my::gemm::KernelB>::which") == "2");
  CHECK(eval_in(*env, "my::gemm::Builder<my::gemm::arch::Sm90, float, my::gemm::KernelB>::which") == "0");
}

TEST_CASE("a struct's static auto member function, as a builder's decltype(get_stride(Tag{})) reads it") {
  auto env = load(
      "namespace my { struct RowMajor {}; }\n"
      "template <class LayoutOrTag>\n"
      "struct Builder {\n"
      "  template <class T>\n"
      "  static auto get_stride(T const& t) {\n"
      "    if constexpr (not cute::is_layout<cute::remove_pointer_t<T>>::value) { return t; }\n"
      "    else { return cute::stride(t); }\n"
      "  }\n"
      "  using Tag = decltype(get_stride(LayoutOrTag{}));\n"
      "  auto run(int k) { return k; }\n"
      "};\n");
  CHECK(eval_in(*env, "Builder<Layout<Shape<_8, _4>, Stride<_4, _1>>>::Tag") == "(_4,_1)");
  CHECK(eval_in(*env, "cute::is_same_v<Builder<my::RowMajor>::Tag, my::RowMajor>") == "true");
  CHECK(error_of(*env, "Builder<my::RowMajor>::run(3)").find("run") != std::string::npos);  // not static: not read
}

TEST_CASE("is_static_v and conditional_return, as an SM100 builder picks its TMA atom and scheduler stages") {
  auto env = load(
      "namespace my::detail {\n"
      "template <class ClusterShapeMNK, class AtomThrId>\n"
      "constexpr auto pick_tma(ClusterShapeMNK cluster_shape_mnk, AtomThrId atom_thr_id) {\n"
      "  constexpr bool IsDynamicCluster = not cute::is_static_v<ClusterShapeMNK>;\n"
      "  if constexpr (cute::size(atom_thr_id) == 2 && !IsDynamicCluster) {\n"
      "    return Layout<_2>{};  // a 2SM atom\n"
      "  } else {\n"
      "    return Layout<_1>{};\n"
      "  }\n"
      "}\n"
      "}\n");
  CHECK(eval_in(*env, "my::detail::pick_tma(Shape<_2, _1, _1>{}, Layout<_2>{})") == "_2:_1");
  CHECK(eval_in(*env, "my::detail::pick_tma(make_shape(2, _1{}, _1{}), Layout<_2>{})") == "_1:_0");
  CHECK(eval_in(*env, "cute::is_static_v<Layout<Shape<_4, _2>>>") == "true");
  CHECK(eval_in(*env, "cute::is_static_v<cute::Shape<int, _1>>") == "false");  // a run-time int
  CHECK(eval_in(*env, "cute::is_static_v<half_t>") == "false");                // an element type holds data
  CHECK(eval_in(*env, "cute::conditional_return<true || false>(8, 2)") == "_8");
  CHECK(eval_in(*env, "cute::conditional_return<(3 < 2)>(8, 2)") == "_2");
}

TEST_CASE("a bool is an integer where CuTe takes one: size(shape<0,0>(MmaShapeA_MK{}) > 64), as CUTLASS writes it") {
  auto env = load(
      "using MmaShape = decltype(make_shape(make_shape(_128{}, _16{}), _1{}, _4{}));\n"
      "constexpr bool is_2sm = false;\n"
      "constexpr uint32_t Stages = (is_2sm || (!is_2sm && size(shape<0,0>(MmaShape{}) > 64))) ? 4 : 8;\n"
      "constexpr uint32_t Stages64 = (is_2sm || (!is_2sm && size(shape<0,0>(MmaShape{}) > 128))) ? 4 : 8;\n");
  CHECK(eval_in(*env, "Stages") == "4");
  CHECK(eval_in(*env, "Stages64") == "8");
  CHECK(eval_in(*env, "size(3 > 2) + 1") == "2");
}

TEST_CASE("sizeof a struct of the sources: data members, arrays, alignas, empty bases, a template's nested struct") {
  auto env = load(
      "namespace my::arch {\n"
      "struct Barrier { using ValueType = uint64_t; ValueType barrier_; };\n"
      "struct TxBarrier : public Barrier {};\n"
      "struct Tag {};\n"
      "}\n"
      "namespace my {\n"
      "template <int Stages_>\n"
      "class Pipe {\n"
      " public:\n"
      "  static constexpr int Stages = Stages_;\n"
      "  using FullBarrier = my::arch::TxBarrier;\n"
      "  struct SharedStorage {\n"
      "    FullBarrier full_barrier_[static_cast<size_t>(Stages)];\n"
      "    my::arch::Barrier empty_barrier_[Stages][2];\n"
      "  };\n"
      "  void init(SharedStorage& s, int n);\n"
      "};\n"
      "template <int S> struct Sched {\n"
      "  struct Resp { uint32_t data[4] = {0}; };\n"
      "  struct Storage : my::arch::Tag { uint8_t flag; alignas(16) Resp data_[S]; };\n"
      "};\n"
      "struct Mixed { uint8_t a; uint32_t b; uint16_t c; };\n"
      "}\n");
  CHECK(eval_in(*env, "sizeof(my::arch::Barrier)") == "_8");
  CHECK(eval_in(*env, "sizeof(my::arch::TxBarrier)") == "_8");                   // its base's member
  CHECK(eval_in(*env, "sizeof(my::arch::Tag)") == "_1");                         // an empty struct
  CHECK(eval_in(*env, "sizeof(typename my::Pipe<3>::SharedStorage)") == "_72");  // 3 * 8 + 3 * 2 * 8
  CHECK(eval_in(*env, "sizeof(typename my::Sched<2>::Resp{})") == "_16");
  CHECK(eval_in(*env, "sizeof(typename my::Sched<2>::Storage)") == "_48");  // empty base, 1 byte, pad to 16, 2 * 16
  CHECK(eval_in(*env, "sizeof(my::Mixed)") == "_12");
}

TEST_CASE("sizeof of a struct as C++ lays it out (empty subobjects, alignas, pointers, braces), or refused") {
  // each size as g++ 12 gives it for the same structs (x86-64)
  auto env = load(
      "namespace my {\n"
      "struct Em {};\n"
      "struct alignas(64) Small { uint8_t c; };\n"
      "struct S2 : Em { Em e; int x; };\n"  // e cannot share its base's address: at 1
      "struct W { Em e; int x; };\n"
      "struct S3 : Em { W w; };\n"  // w.e would meet the base Em at 0: w at 4
      "struct P { uint64_t* p; uint8_t c; const uint8_t* const* q; };\n"
      "struct N2 { uint16_t a[2][3]; uint8_t b; };\n"
      "struct Br { uint32_t data[4]{}; uint8_t t; };\n"
      "struct alignas(16) AE {};\n"
      "struct S4 : AE { uint8_t c; };\n"
      "struct S5 { Em e[3]; uint16_t x; };\n"
      "template <int N> struct T1 { struct In { uint8_t v[N]; }; In in[2]; uint32_t k; };\n"
      "union U { int a; float b; };\n"
      "struct HasU { U u; };\n"
      "struct Bits { uint32_t a : 3; uint32_t b : 5; };\n"
      "struct Two { int a, b; };\n"
      "struct Virt { virtual void f(); int a; };\n"
      "struct Anon { union { int a; float f; }; };\n"
      "struct Decl { struct In { int a; } in; };\n"
      "struct Unknown { SomeType x; };\n"
      "struct A { uint32_t a; uint8_t b; };\n"
      "struct B : A { uint8_t c; };\n"
      "struct Ref { int& r; };\n"
      "struct Zero { int a[0]; };\n"
      "struct Sub { int4b_t q; };\n"
      "}\n");
  CHECK(eval_in(*env, "sizeof(my::Small)") == "_64");
  CHECK(eval_in(*env, "sizeof(my::S2)") == "_8");
  CHECK(eval_in(*env, "sizeof(my::S3)") == "_12");
  CHECK(eval_in(*env, "sizeof(my::P)") == "_24");
  CHECK(eval_in(*env, "sizeof(my::N2)") == "_14");
  CHECK(eval_in(*env, "sizeof(my::Br)") == "_20");
  CHECK(eval_in(*env, "sizeof(my::AE)") == "_16");
  CHECK(eval_in(*env, "sizeof(my::S4)") == "_16");
  CHECK(eval_in(*env, "sizeof(my::S5)") == "_6");
  CHECK(eval_in(*env, "sizeof(my::T1<3>)") == "_12");  // two 3-byte In, then k at 8
  // never a size that leaves something out: each refused with its reason
  CHECK(error_of(*env, "sizeof(my::HasU)").find("a union") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::Bits)").find("bit-field") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::Two)").find("several members") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::Virt)").find("virtual") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::Anon)").find("unnamed") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::Decl)").find("with its struct's definition") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::Unknown)").find("SomeType") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::B)").find("tail padding") != std::string::npos);  // 12 or 8 by A's kind
  CHECK(error_of(*env, "sizeof(my::Ref)").find("reference") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::Zero)").find("extent") != std::string::npos);
  CHECK(error_of(*env, "sizeof(my::Sub)").find("whole number of bytes") != std::string::npos);
}

TEST_CASE("overloads picked by their parameters' classes, template arguments deduced from them; R(x) for a type R") {
  auto env = load(
      "namespace my {\n"
      "template <int num_stages> struct StageCount { static constexpr int value = num_stages; };\n"
      "template <int carveout_bytes> struct StageCountAutoCarveout { static constexpr int bytes = carveout_bytes; };\n"
      "using StageCountAuto = StageCountAutoCarveout<0>;\n"
      "template <class R = int, class T> constexpr R bits_to_bytes(T bits) { return (R(bits) + R(7)) / R(8); }\n"
      "namespace detail {\n"
      "template <int Capacity, class E, int stages> constexpr int stages_or(StageCount<stages> s) { return stages; }\n"
      "template <int Capacity, class E, int stages> constexpr int stages_or(cute::Int<stages> s) { return -stages; }\n"
      "template <int Capacity, class E, int carveout>\n"
      "constexpr int stages_or(StageCountAutoCarveout<carveout> s) {\n"
      "  return (Capacity - carveout) / bits_to_bytes(cute::sizeof_bits_v<E> * 128 * 64);\n"
      "}\n"
      "}\n"
      "}\n");
  CHECK(eval_in(*env, "my::detail::stages_or<100000, half_t>(my::StageCount<3>{})") == "_3");
  CHECK(eval_in(*env, "my::detail::stages_or<100000, half_t>(Int<5>{})") == "-5");
  CHECK(eval_in(*env, "my::detail::stages_or<100000, half_t>(my::StageCountAuto{})") == "6");  // 100000 / 16384
  CHECK(eval_in(*env, "my::detail::stages_or<100000, half_t>(my::StageCountAutoCarveout<50000>{})") == "3");
  CHECK(eval_in(*env, "my::bits_to_bytes(12)") == "2");
}

TEST_CASE("a primary template's parameter does not hide a specialization's member of that name (two files)") {
  auto env = std::make_unique<Environment>();
  for (const char* src : {"namespace my {\n"
                          "template <class Arch, class ElementA, class Enable = void> struct Builder {};\n"
                          "}\n",
                          "namespace my {\n"
                          "namespace detail { template <class E> constexpr auto to_mma() { return E{}; } }\n"
                          "template <class Arch, class ElementPairA> struct Builder<Arch, ElementPairA, void> {\n"
                          "  using ElementA = ElementPairA;\n"
                          "  using ElementAMma = decltype(detail::to_mma<ElementA>());\n"
                          "};\n"
                          "}\n"}) {
    CppScan scan = scan_cpp(src, "k.cu");  // each file scanned alone: both structs are my::Builder's scope
    for (auto& d : scan.declarations) env->add(std::move(d));
    for (auto& p : scan.parameters) env->add_parameter(std::move(p));
    for (auto& f : scan.functions) env->add_function(std::move(f));
    for (auto& c : scan.classes) env->add_class(std::move(c));
  }
  Declaration d;
  d.name = "ElementPairA";
  d.text = "half_t";
  env->define(d);
  CHECK(eval_in(*env, "my::Builder::ElementAMma") == eval_in(*env, "half_t"));
}
