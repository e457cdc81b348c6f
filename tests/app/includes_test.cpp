// #include followed (app/includes.cpp): -I, CUTLASS_PATH, .cutevis, what is read and what is not,
// the CUTLASS helper's one-line blocker without -I, and the real CUTLASS headers (a test that
// skips, visibly, without CUTLASS_PATH).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/includes.hpp"
#include "lib/error.hpp"
#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A fresh folder with the files given (path relative to it -> text).
struct Tree {
  fs::path root;
  explicit Tree(const std::map<std::string, std::string>& files) {
    static int counter = 0;
    root = fs::temp_directory_path() /
           ("cutevis_includes_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(root);
    for (const auto& [path, text] : files) {
      fs::create_directories((root / path).parent_path());
      std::ofstream(root / path, std::ios::binary) << text;
    }
  }
  ~Tree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string operator/(const std::string& p) const { return (root / p).string(); }
};

json names_json(const std::vector<std::string>& args, const std::string& env = "") {
  std::vector<std::string> all{"names", "--json"};
  all.insert(all.end(), args.begin(), args.end());
  auto r = test::run_cutevis(all, env);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out)["names"];
}

json entry(const json& names, const std::string& name) {
  for (const auto& n : names)
    if (n["name"] == name) return n;
  FAIL("no declaration " << name);
  return {};
}

// A project header, a CUTLASS-like header tree, and a kernel that includes both.
const std::map<std::string, std::string> kProject = {
    {"proj/include/proj/tile.hpp", R"(#pragma once
#include <cstdint>
#include <cuda_runtime.h>
#include "cute/layout.hpp"
#include "proj/config.hpp"
namespace proj {
constexpr int kBlockM = 128;
using AtomLayout = Layout<Shape<_8, _64>, Stride<_64, _1>>;
struct Traits { static constexpr int bM = 64; };
}  // namespace proj
#define PROJ_HAS_TILE 1
)"},
    {"proj/include/proj/config.hpp", R"(#ifndef PROJ_CONFIG_HPP
#define PROJ_CONFIG_HPP
namespace proj { constexpr int kStages = 3; }
#endif
)"},
    // a CuTe header in an -I folder: CuTe is built in, so this one must never be read
    {"proj/include/cute/layout.hpp", "namespace proj { constexpr int kBlockM = 7; }\n"},
    // nor a system header, even where -I finds one
    {"proj/include/cstdint", "namespace proj { constexpr int kStages = 9; }\n"},
    {"proj/kernels/kernel.cu", R"(#include "proj/tile.hpp"
#include "proj/config.hpp"
#include "proj/missing.hpp"
using SmemLayout = decltype(tile_to_shape(proj::AtomLayout{}, make_shape(Int<proj::kBlockM>{}, _64{})));
constexpr int stages = proj::kStages;
#if PROJ_HAS_TILE
using Chosen = Layout<Shape<_4>>;
#else
using Chosen = Layout<Shape<_2>>;
#endif
using Open = Layout<Shape<Int<bM>>>;
)"},
};

}  // namespace

TEST_CASE("-I: the kernel's headers are read once; CuTe's, system and missing headers are not") {
  Tree t(kProject);
  auto r = test::run_cutevis({"names", "--json", "--from", t / "proj/kernels/kernel.cu", "-I", t / "proj/include"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  json names = json::parse(r.out)["names"];
  CHECK(entry(names, "SmemLayout")["value"] == "((8,16),(64,1)):((64,512),(1,0))");
  CHECK(entry(names, "stages")["value"] == "3");        // config.hpp, not the fake <cstdint>
  CHECK(entry(names, "Chosen")["value"] == "(4):(1)");  // the header's #define reaches the file's #if
  // only the file's own names are listed, not the headers'
  CHECK(names.size() == 4);
  for (const auto& n : names) CHECK(n["file"] == t / "proj/kernels/kernel.cu");
  // a header's struct member is not a look-alike of a name the file leaves open
  CHECK(entry(names, "Open")["kind"] == "unresolved");
  CHECK(entry(names, "Open")["needs"] == json::array({"bM"}));
  // the missing header is a note (one line), not an error
  CHECK(r.err.find("kernel.cu:3: #include \"proj/missing.hpp\" is not found in the include folders") !=
        std::string::npos);
  CHECK(r.err.find("cstdint") == std::string::npos);
  CHECK(r.err.find("cuda_runtime") == std::string::npos);
}

TEST_CASE("without -I the headers are not found: the names they define stay open, and a note says why") {
  Tree t(kProject);
  // (no include folder from the environment either)
  auto r = test::run_cutevis({"names", "--from", t / "proj/kernels/kernel.cu"},
                             "env -u CUTLASS_PATH -u CPATH -u CPLUS_INCLUDE_PATH -u CUTEVIS_INCLUDE_PATH");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("4 names, 1 resolved") != std::string::npos);
  CHECK(r.err.find("\"proj/tile.hpp\", \"proj/config.hpp\", \"proj/missing.hpp\" are not found in the include "
                   "folders (none: give -I DIR, CUTLASS_PATH or a .cutevis file)") != std::string::npos);
}

TEST_CASE("#include \"x\" looks beside the including file first; -D wins over a header's #define") {
  Tree t({{"k/traits.h", "#define BLOCK 64\nconstexpr int kBlock = BLOCK;\n"},
          {"k/kernel.cu", "#include \"traits.h\"\nusing L = Layout<Shape<Int<kBlock>>>;\n"}});
  CHECK(entry(names_json({"--from", t / "k/kernel.cu"}), "L")["value"] == "(64):(1)");
  // a header's error says where it is: its file and line
  Tree bad({{"k/traits.h", "\n\nconstexpr int kBlock = Int<>{};\n"},
            {"k/kernel.cu", "#include \"traits.h\"\nusing L = Layout<Shape<Int<kBlock>>>;\n"}});
  auto r = test::run_cutevis({"eval", "--from", bad / "k/kernel.cu", "L{}"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(bad / "k/traits.h" + ":3:") != std::string::npos);
}

TEST_CASE("CUTLASS_PATH and CUTEVIS_INCLUDE_PATH are include folders") {
  Tree t({{"cutlass/include/cutlass/arch/arch.h",
           "namespace cutlass { namespace arch { struct Sm90 { static int const kMinComputeCapability = 90; }; } }\n"},
          {"kernel.cu",
           "#include <cutlass/arch/arch.h>\nconstexpr int cc = cutlass::arch::Sm90::kMinComputeCapability;\n"}});
  CHECK(entry(names_json({"--from", t / "kernel.cu"}, "CUTLASS_PATH=" + t / "cutlass"), "cc")["value"] == "90");
  CHECK(entry(names_json({"--from", t / "kernel.cu"}, "CUTEVIS_INCLUDE_PATH=/nonexistent:" + t / "cutlass/include"),
              "cc")["value"] == "90");
}

TEST_CASE(".cutevis in the kernel's folder: include folders, default -D and --arch") {
  Tree t({{"inc/cfg.hpp", "constexpr int kHead = HEAD;\n"},
          {"k/.cutevis",
           "# settings\ninclude = [\n  \"../inc\",  # relative to this file\n]\n"
           "define = [\"HEAD=96\", \"bN=32\"]\narch = \"sm80\"\n"},
          {"k/kernel.cu",
           "#include \"cfg.hpp\"\nusing A = Layout<Shape<Int<kHead>, Int<bN>>>;\n"
           "#if __CUDA_ARCH__ >= 800\nusing B = Layout<_8>;\n#else\nusing B = Layout<_1>;\n#endif\n"}});
  json names = names_json({"--from", t / "k/kernel.cu"});
  CHECK(entry(names, "A")["value"] == "(96,32):(1,96)");
  CHECK(entry(names, "B")["value"] == "8:1");
  // a -D given wins over the file's default
  CHECK(entry(names_json({"--from", t / "k/kernel.cu", "-D", "bN=16"}), "A")["value"] == "(96,16):(1,96)");

  Tree bad({{"k/cutevis.toml", "include = \"a\"\nflags = [\"-O3\"]\n"}, {"k/kernel.cu", "using A = Layout<_2>;\n"}});
  auto r = test::run_cutevis({"names", "--from", bad / "k/kernel.cu"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(bad / "k/cutevis.toml" + ":2: unknown key 'flags'") != std::string::npos);
}

TEST_CASE("folder_settings reads strings and arrays and refuses what it does not know") {
  Tree t({{"a/.cutevis", "include = \"/abs\"  # one\ndefine = [\"X=1\",\n \"Y=cute::Int<2>\"]\n"},
          {"b/.cutevis", "include = [\"x\"\n"},
          {"c/.cutevis", "arch = 80\n"}});
  FolderSettings s = folder_settings(t / "a");
  CHECK(s.include_dirs == std::vector<std::string>{"/abs"});
  CHECK(s.defines == std::vector<std::string>{"X=1", "Y=cute::Int<2>"});
  CHECK_THROWS_WITH_AS(folder_settings(t / "b"), doctest::Contains("an array without its closing ']'"), Error);
  CHECK_THROWS_WITH_AS(folder_settings(t / "c"), doctest::Contains(":1: expected a \"string\""), Error);
  CHECK(folder_settings(t / "none").file.empty());
}

TEST_CASE("a CUTLASS helper without -I: one line, the blocker in names") {
  Tree t(std::map<std::string, std::string>{
      {"kernel.cu",
       "using SmemLayoutAtom = decltype(cutlass::gemm::collective::detail::ss_smem_selector<GMMA::Major::K, "
       "half_t, _128, _64>());\nconstexpr int cc = ArchTag::kMinComputeCapability;\n"}});
  auto r = test::run_cutevis({"names", "--from", t / "kernel.cu"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ss_smem_selector is CUTLASS code: give -I path/to/cutlass/include\n") != std::string::npos);
  CHECK(r.out.find("ArchTag::kMinComputeCapability is CUTLASS code: give -I path/to/cutlass/include") !=
        std::string::npos);
  auto e = test::run_cutevis({"eval", "cutlass::round_up(5, 4)"});
  CHECK(e.exit_code == 2);
  CHECK(e.err.find("round_up is CUTLASS code: give -I path/to/cutlass/include") != std::string::npos);
}

TEST_CASE("real CUTLASS headers (CUTLASS_PATH): a Hopper kernel's arch tag and its helpers' headers") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  if (!cutlass || !fs::exists(fs::path(cutlass) / "include/cutlass/arch/arch.h"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  Tree t(std::map<std::string, std::string>{{"kernel.cu", R"(#include <cute/tensor.hpp>
#include "cutlass/arch/arch.h"
#include "cutlass/gemm/collective/builders/sm90_common.inl"
#include "cutlass/detail/sm100_blockscaled_layout.hpp"
using ArchTag = cutlass::arch::Sm90;
constexpr int cc = ArchTag::kMinComputeCapability;
constexpr int sm100 = cutlass::arch::Sm100::kMinComputeCapability;
)"}});
  auto r = test::run_cutevis({"names", "--json", "--from", t / "kernel.cu"}, std::string("CUTLASS_PATH=") + cutlass);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  json names = json::parse(r.out)["names"];
  CHECK(entry(names, "cc")["value"] == "90");
  CHECK(entry(names, "sm100")["value"] == "100");
  CHECK(r.err.find("not found") == std::string::npos);  // every CUTLASS header it includes was found
}

TEST_CASE("a struct the sources define is a value: tags compare with is_same_v, members through an alias") {
  Tree t({{"inc/arch.h",
           "namespace cutlass::arch { struct Sm90 { static int const kMinComputeCapability = 90; }; "
           "struct OpClassTensorOp {}; }\n"},
          {"kernel.cu",
           "#include \"arch.h\"\nusing ArchTag = cutlass::arch::Sm90;\n"
           "constexpr int cc = ArchTag::kMinComputeCapability;\n"
           "constexpr bool tensor_op = cute::is_same_v<OpClass, cutlass::arch::OpClassTensorOp>;\n"}});
  json names = names_json({"--from", t / "kernel.cu", "-I", t / "inc", "-D", "OpClass=cutlass::arch::OpClassTensorOp"});
  CHECK(entry(names, "ArchTag")["value"] == "cutlass::arch::Sm90");
  CHECK(entry(names, "cc")["value"] == "90");
  CHECK(entry(names, "tensor_op")["value"] == "true");
  json other = names_json({"--from", t / "kernel.cu", "-I", t / "inc", "-D", "OpClass=cutlass::arch::Sm90"});
  CHECK(entry(other, "tensor_op")["value"] == "false");
}

TEST_CASE("a header's constexpr functions in a namespace are called from the kernel, qualified or from inside") {
  // (the first test of a call looked the name up from the global scope, where C++ does not find a
  // header's namespaced function: every such call was "unknown function")
  Tree t({{"inc/common.inl",
           "namespace cutlass::gemm::collective::detail {\n"
           "template <class ElementA, class ElementB>\nconstexpr bool\n"
           "is_input_size_two_bytes() { return sizeof(ElementA) == 2 && sizeof(ElementB) == 2; }\n"
           "constexpr int stages() { return 4; }\n}\n"},
          {"kernel.cu",
           "#include \"common.inl\"\n"
           "constexpr bool two = cutlass::gemm::collective::detail::is_input_size_two_bytes<half_t, half_t>();\n"
           "constexpr bool mixed = cutlass::gemm::collective::detail::is_input_size_two_bytes<half_t, float>();\n"
           "namespace cutlass::gemm::collective { constexpr int s = detail::stages(); }\n"
           "constexpr int hidden = stages();\n"}});
  json names = names_json({"--from", t / "kernel.cu", "-I", t / "inc"});
  CHECK(entry(names, "two")["value"] == "true");
  CHECK(entry(names, "mixed")["value"] == "false");
  CHECK(entry(names, "cutlass::gemm::collective::s")["value"] == "4");
  CHECK(entry(names, "hidden")["kind"] == "unresolved");  // not visible from the global scope, as in C++
}

TEST_CASE("a typo of a name a CUTLASS header declares is a typo, not 'CUTLASS code cutevis cannot evaluate'") {
  Tree t({{"inc/cutlass/builder.hpp",
           "namespace cutlass::gemm { struct Builder { using TiledMma = Layout<Shape<_4>>; }; }\n"},
          {"kernel.cu", "#include \"cutlass/builder.hpp\"\n"}});
  auto r = test::run_cutevis({"eval", "--from", t / "kernel.cu", "-I", t / "inc", "cutlass::gemm::Builder::TiledMa"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("did you mean 'TiledMma'?") != std::string::npos);
  CHECK(r.err.find("cannot evaluate") == std::string::npos);
  auto right =
      test::run_cutevis({"eval", "--from", t / "kernel.cu", "-I", t / "inc", "cutlass::gemm::Builder::TiledMma"});
  CHECK(right.exit_code == 0);
  CHECK(right.out.find("(4):(1)") != std::string::npos);
}

TEST_CASE("a trait's specializations spread over several headers are each its own (cutlass::sizeof_bits)") {
  // Written as CUTLASS writes numeric_size.h, integer_subbyte.h and array.h: each header numbered
  // its specializations from 1, so integer_subbyte.h's first one and numeric_size.h's primary
  // shared one scope, and a qualified cutlass:: trait in a header was not seen at all (the
  // built-in answered: sizeof_bits<void> was 8).
  Tree t({{"inc/numeric_size.h",
           "namespace cutlass {\n"
           "template <typename T> struct sizeof_bits { static constexpr int value = int(sizeof(T) * 8); };\n"
           "template <typename T> struct sizeof_bits<T const> : sizeof_bits<T> {};\n"
           "template <typename T> struct sizeof_bits<T volatile> : sizeof_bits<T> {};\n"
           "template <> struct sizeof_bits<void> { static constexpr int value = 0; };\n}\n"},
          {"inc/integer_subbyte.h",
           "#include \"numeric_size.h\"\nnamespace cutlass {\n"
           "template <int Bits, bool Signed = true> struct integer_subbyte { unsigned char storage; };\n"
           "template <int Bits, bool Signed> struct sizeof_bits<integer_subbyte<Bits, Signed>> {\n"
           "  static constexpr int value = Bits;\n};\n"
           "struct bin1_t { unsigned char storage; };\n"
           "template <> struct sizeof_bits<bin1_t> { static constexpr int value = 1; };\n"
           "using int4b_t = integer_subbyte<4, true>;\n}\n"},
          {"inc/array.h",
           "#include \"numeric_size.h\"\nnamespace cutlass {\n"
           "template <class T, int N, bool RegisterSized = true> struct Array { T storage[N]; };\n"
           "template <typename T, int N, bool RegisterSized> struct sizeof_bits<Array<T, N, RegisterSized> > {\n"
           "  static constexpr int value = sizeof(Array<T, N, RegisterSized>) * 8;\n};\n}\n"},
          {"kernel.cu",
           "#include \"integer_subbyte.h\"\n#include \"array.h\"\n"
           "constexpr int f32 = cutlass::sizeof_bits<float>::value;\n"
           "constexpr int f16 = cutlass::sizeof_bits<cutlass::half_t>::value;\n"
           "constexpr int none = cutlass::sizeof_bits<void>::value;\n"
           "constexpr int i4 = cutlass::sizeof_bits<cutlass::int4b_t>::value;\n"
           "constexpr int b1 = cutlass::sizeof_bits<cutlass::bin1_t>::value;\n"
           "constexpr int arr = cutlass::sizeof_bits<cutlass::Array<float, 4>>::value;\n"}});
  json names = names_json({"--from", t / "kernel.cu", "-I", t / "inc"});
  CHECK(entry(names, "f32")["value"] == "32");
  CHECK(entry(names, "f16")["value"] == "16");
  CHECK(entry(names, "none")["value"] == "0");
  CHECK(entry(names, "i4")["value"] == "4");
  CHECK(entry(names, "b1")["value"] == "1");
  CHECK(entry(names, "arr")["value"] == "128");
}

TEST_CASE("-D ArchTag_=cutlass::arch::Sm80 reads the header that declares it when the file does not #include it") {
  // A mainloop header in the style of FA3's mainloop_fwd_sm80.hpp: it reads ArchTag::kMinComputeCapability, but
  // only its includer's headers declare the arch tags (cutlass/arch/arch.h is not among its own #includes).
  Tree t({{"inc/cutlass/cutlass.h", "namespace cutlass { constexpr int NumThreadsPerWarp = 32; }\n"},
          {"inc/cutlass/arch/arch.h",
           "namespace cutlass::arch {\nstruct Sm75 { static int const kMinComputeCapability = 75; };\n"
           "struct Sm80 { static int const kMinComputeCapability = 80; };\n}\n"},
          {"mainloop.hpp", R"(#include <cutlass/cutlass.h>
#include "cute/tensor.hpp"
namespace proj {
template <int kNWarps, class ArchTag_>
struct CollectiveMainloop {
  using ArchTag = ArchTag_;
  static constexpr bool Has_cp_async = ArchTag::kMinComputeCapability >= 80;
  using MMA_Atom_Arch = std::conditional_t<ArchTag::kMinComputeCapability >= 80,
      MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, MMA_Atom<SM75_16x8x8_F32F16F16F32_TN>>;
  using TiledMma = TiledMMA<MMA_Atom_Arch, Layout<Shape<Int<kNWarps>, _1, _1>>, Tile<Int<16 * kNWarps>, _16, _16>>;
};
}
)"}});
  auto r = test::run_cutevis({"names", "--json", "--from", t / "mainloop.hpp", "-I", t / "inc", "-D", "kNWarps=4", "-D",
                              "ArchTag_=cutlass::arch::Sm80"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  json names = json::parse(r.out)["names"];
  CHECK(entry(names, "proj::CollectiveMainloop::Has_cp_async")["value"] == "true");
  // CuTe's print (CUTLASS 4.7.0) of FA3's sm80 TiledMma with kNWarps 4: the SM80 atom, not the SM75 one
  const std::string mma = entry(names, "proj::CollectiveMainloop::TiledMma")["value"];
  CHECK(mma.find("ThrLayoutVMNK:  (32,4,1,1):(1,32,0,0)") != std::string::npos);
  CHECK(mma.find("PermutationMNK: (64,16,16)") != std::string::npos);
  CHECK(mma.find("Shape_MNK:  (16,8,16)") != std::string::npos);
  CHECK(r.err.find("cutlass/arch/arch.h, which the files do not #include: read for this -D") != std::string::npos);
  // Sm75 takes the other branch: the value follows the header's constant, not a guess
  json sm75 = names_json(
      {"--from", t / "mainloop.hpp", "-I", t / "inc", "-D", "kNWarps=4", "-D", "ArchTag_=cutlass::arch::Sm75"});
  CHECK(entry(sm75, "proj::CollectiveMainloop::Has_cp_async")["value"] == "false");
  CHECK(std::string(entry(sm75, "proj::CollectiveMainloop::MMA_Atom_Arch")["value"]).find("Shape_MNK:  (16,8,8)") !=
        std::string::npos);
  // without the header in any -I folder: still the one-line blocker, nothing read
  // (nor CUTLASS_PATH / CPATH: a CUTLASS checkout named there would be searched)
  auto none = test::run_cutevis(
      {"names", "--from", t / "mainloop.hpp", "-D", "kNWarps=4", "-D", "ArchTag_=cutlass::arch::Sm80"},
      "env -u CUTLASS_PATH -u CPATH");
  CAPTURE(none.out);
  CHECK(none.out.find("is CUTLASS code: give -I path/to/cutlass/include") != std::string::npos);
}

TEST_CASE("-include FILE: a header read before the --from file, as gcc's -include (a builder .inl read alone)") {
  // builder.inl, like CUTLASS's builder files, uses names its includer's header declares
  Tree t({{"inc/lib/decl.hpp",
           "#pragma once\n#define LIB_DECL 1\nnamespace lib {\nstruct StageAuto { static constexpr int stages = 3; "
           "};\nconstexpr int kTile = 64;\n}\n"},
          {"k/builder.inl",
           "namespace lib {\nconstexpr int kStages = StageAuto::stages;\nusing Atom = Layout<Shape<Int<kTile>, _8>>;\n"
           "#ifdef LIB_DECL\nconstexpr int kSeen = 1;\n#else\nconstexpr int kSeen = 0;\n#endif\n}\n"},
          {"s/.cutevis", "include = [\"../inc\"]\npre_include = [\"lib/decl.hpp\"]\n"},
          {"s/builder.inl", "namespace lib {\nconstexpr int kStages = StageAuto::stages;\n}\n"}});
  // alone, the names stay open
  json alone = names_json({"--from", t / "k/builder.inl", "-I", t / "inc"});
  CHECK(entry(alone, "lib::kStages")["kind"] == "unresolved");
  CHECK(entry(alone, "lib::kSeen")["value"] == "0");
  // -include (gcc's spelling) and --include, found through -I like an #include
  for (const char* flag : {"-include", "--include"}) {
    CAPTURE(flag);
    json names = names_json({"--from", t / "k/builder.inl", flag, "lib/decl.hpp", "-I", t / "inc"});
    CHECK(entry(names, "lib::kStages")["value"] == "3");
    CHECK(entry(names, "lib::Atom")["value"] == "(64,8):(1,64)");
    CHECK(entry(names, "lib::kSeen")["value"] == "1");             // its #define counts for the file
    for (const auto& n : names) CHECK(n["name"] != "lib::kTile");  // a header's names are not listed
  }
  // a path (absolute here) works too; the settings file's pre_include is the default
  CHECK(entry(names_json({"--from", t / "k/builder.inl", "-include", t / "inc/lib/decl.hpp"}),
              "lib::kStages")["value"] == "3");
  CHECK(entry(names_json({"--from", t / "s/builder.inl"}), "lib::kStages")["value"] == "3");
  // not found: one line, exit 2
  auto r = test::run_cutevis({"names", "--from", t / "k/builder.inl", "-include", "lib/nope.hpp", "-I", t / "inc"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("-include lib/nope.hpp: not found") != std::string::npos);
}
