// Paste your kernel: C++ as written, --from FILE, -D, snippets, `cutevis names`, and the
// errors of issue 13 (items 1, 2, 5).
//
// Expected values are CuTe's: a host-only program built against CUTLASS 4 printed each
// expression below with cute::print (the same declarations, instantiated with half_t);
// its output is copied here with the underscores of static integers removed (cutevis
// prints integers without them).
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

const std::string kConfig = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/gemm_config.cu";

std::string eval_ok(const std::vector<std::string>& args) {
  std::vector<std::string> full{"eval"};
  full.insert(full.end(), args.begin(), args.end());
  auto r = test::run_cutevis(full);
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  return r.out.empty() ? r.out : r.out.substr(0, r.out.size() - 1);
}

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = "/tmp/cutevis_paste_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST_CASE("C++ as written: arithmetic, comments, decltype, ::value, casts (CuTe's answers)") {
  CHECK(eval_ok({"Int<(size<0>(Shape<Int<64>,_8>{}) < 128) ? 1 : 2>{}"}) == "1");
  CHECK(eval_ok({"Int<64 + 4>{}"}) == "68");
  CHECK(eval_ok({"Int<64>{} + Int<4>{}"}) == "68");
  CHECK(eval_ok({"Int<sizeof_bits<half_t>::value>{}"}) == "16");
  CHECK(eval_ok({"cute::sizeof_bits_v<float> / 8 == sizeof(float)"}) == "true");
  CHECK(eval_ok({"Int<cute::max(3, cute::min(7, 5))>{}"}) == "5");
  CHECK(eval_ok({"Int<(1 << 4) + (64 >> 2)>{}"}) == "32");
  CHECK(eval_ok({"Int<(2 != 1) * 32>{}"}) == "32");
  CHECK(eval_ok({"ceil_div(Int<100>{}, Int<32>{})"}) == "4");
  CHECK(eval_ok({"conditional_t<(64 > 32), Shape<_1,_2>, Shape<_3>>{}"}) == "(1,2)");
  CHECK(eval_ok({"Layout<Shape<_4,_8>>{}.shape()"}) == "(4,8)");
  CHECK(eval_ok({"reverse(Shape<_1,_2,_3>{})"}) == "(3,2,1)");
  CHECK(eval_ok({"rank(Shape<_1,_2,_3>{})"}) == "3");
  CHECK(eval_ok({"get<1>(Shape<_1,_2,_3>{})"}) == "2");
  CHECK(eval_ok({"int(6) * 2 - 1"}) == "11");
  CHECK(eval_ok({"static_cast<int>(true) + 1"}) == "2");
  CHECK(eval_ok({"Underscore{}"}) == "_");
  CHECK(eval_ok({"/* the atom */ decltype(composition(Swizzle<2,3,3>{}, // rows\n Layout<Shape<_8,Int<32>>, "
                 "Stride<Int<32>,_1>>{})){};"}) == "Sw<2,3,3> o 0 o (8,32):(32,1)");
  CHECK(eval_ok({"cute::ComposedLayout<cute::Swizzle<3,4,3>, cute::smem_ptr_flag_bits<16>, "
                 "Layout<Shape<_8,_64>,Stride<_64,_1>>>{}"}) == "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
  CHECK(eval_ok({"UMMA::Layout_K_SW128_Atom<half_t>{}"}) == "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
  CHECK(eval_ok({"UMMA::Layout_MN_SW128_32B_Atom<float>{}"}) == "Sw<2,5,2> o smem_ptr[32b](unset) o (32,4):(1,32)");
  CHECK(eval_ok({"UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(make_shape(_128{}, _64{}), "
                 "_1{}, _4{}))"}) == "Sw<3,4,3> o smem_ptr[16b](unset) o ((128,64),1,4):((64,1),0,8192)");
  const std::string mma =
      "TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>{}";
  CHECK(eval_ok({"partition_shape_A(" + mma + ", Shape<_128,_32>{})"}) == "((2,2,2),4,2)");
  CHECK(eval_ok({"partition_shape_B(" + mma + ", Shape<_128,_32,_3>{})"}) == "((2,2),8,2,3)");
  CHECK(eval_ok({"partition_shape_C(" + mma + ", Shape<_128,_128>{})"}) == "((2,2),4,8)");
  CHECK(eval_ok({"size(" + mma + ")"}) == "128");
  const std::string tc =
      "TiledCopy<Copy_Atom<UniversalCopy<uint32_t>, half_t>, Layout<Shape<Shape<_4,_8>,_2>,Stride<Stride<_16,_1>,_8>>, "
      "Shape<_8,_8>>{}";
  CHECK(eval_ok({"get_layoutS_TV(" + tc + ")"}).find(":") != std::string::npos);
  CHECK(eval_ok({"size(" + tc + ")"}) == "32");
}

TEST_CASE("a comparison is not a template: bM < 128, and Layout<... stays an unbalanced template") {
  CHECK(eval_ok({"-D", "bM=64", "bM < 128 ? bM * 2 : bM"}) == "128");
  CHECK(eval_ok({"-D", "a=3", "-D", "b=4", "a < b && b > 2"}) == "true");
  auto r = test::run_cutevis({"eval", "Layout<Shape<_4,_8>{}"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("expected '>'") != std::string::npos);
}

TEST_CASE("--from a kernel file: aliases, template defaults, struct members (CuTe's answers)") {
  CHECK(eval_ok({"--from", kConfig, "TileShape{}"}) == "(128,128,32)");
  CHECK(eval_ok({"--from", kConfig, "SmemLayoutAtomA{}"}) == "Sw<2,3,3> o 0 o (8,32):(32,1)");
  CHECK(eval_ok({"--from", kConfig, "GemmConfig::SmemLayoutA"}) ==
        "Sw<2,3,3> o 0 o ((8,16),(32,1),(1,3)):((32,256),(1,0),(0,4096))");
  CHECK(eval_ok({"--from", kConfig, "NumThreads"}) == "128");
  // -D wins over the file's default (bK = 32): the atom is (8,64) now
  CHECK(eval_ok({"--from", kConfig, "-D", "bK=64", "SmemLayoutAtomA{}"}) == "Sw<2,3,3> o 0 o (8,64):(64,1)");
  // a template parameter without a default comes from -D; a type and a Copy_Atom of it
  std::string copy = eval_ok({"--from", kConfig, "-D", "ElementA=half_t", "GmemCopyA{}"});
  CHECK(copy.find("Tiler_MN:       (32,32)") != std::string::npos);
  CHECK(copy.find("TiledLayout_TV: ((4,32),8):((256,1),32)") != std::string::npos);
  // an expression over declared names
  CHECK(eval_ok({"--from", kConfig, "size<0>(TileShape{}) / size<2>(TileShape{})"}) == "4");
}

TEST_CASE("mma and copy --from a collective-style header") {
  auto r = test::run_cutevis({"mma", "--from", kConfig, "TiledMma"});
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("PermutationMNK: (32,32,16)") != std::string::npos);
  auto c = test::run_cutevis({"copy", "--from", kConfig, "-D", "ElementA=half_t", "GmemCopyA{}"});
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("TiledCopy") != std::string::npos);
  auto l = test::run_cutevis({"layout", "--from", kConfig, "SmemLayoutAtomA", "--json"});
  CHECK(l.exit_code == 0);
  CHECK(json::parse(l.out)["size"] == 256);
}

TEST_CASE("snippets: several statements, the result is the last statement or the last declared name") {
  CHECK(eval_ok({"using A = Layout<Shape<_4,_8>>; auto b = coalesce(A{});"}) == "32:1");
  CHECK(eval_ok({"using A = Layout<Shape<_4,_8>>; // the atom\n logical_divide(A{}, Shape<_2,_4>{})"}) ==
        "((2,2),(4,2)):((1,2),(4,16))");
  CHECK(eval_ok({"constexpr int bM = 128; static constexpr int bK = bM / 4; Int<bM + bK>{};"}) == "160");
  CHECK(eval_ok({"--from", kConfig, "using T = decltype(TileShape{}); auto m = get<0>(T{});"}) == "128");
}

TEST_CASE("-D: integers, types, shapes, qualified names") {
  CHECK(eval_ok({"-D", "bM=128", "-D", "TileShape=Shape<_128,_128,_64>", "Int<bM>{} * size<2>(TileShape{})"}) ==
        "8192");
  CHECK(eval_ok({"-D", "TA=half_t", "sizeof_bits_v<TA>"}) == "16");
  CHECK(eval_ok({"-D", "DispatchPolicy::Stages=4", "DispatchPolicy::Stages + 1"}) == "5");
  auto bad = test::run_cutevis({"eval", "-D", "bM", "bM"});
  CHECK(bad.exit_code == kExitBadInput);
  CHECK(bad.err.find("-D expects NAME=VALUE") != std::string::npos);
}

TEST_CASE("errors: every undefined name, with its place and the -D that gives it") {
  auto r = test::run_cutevis({"eval", "make_layout(make_shape(bM, bK), make_stride(bK, One))"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.rfind("cutevis: error: 3 undefined names: bM, bK, One\n", 0) == 0);
  CHECK(r.err.find("give them: -D bM=... -D bK=... -D One=...") != std::string::npos);
  // inside a file: FILE:LINE:COL of each use
  std::string f = write_temp(
      "undef.hpp",
      "struct Cfg {\n  using Atom = Layout<Shape<_8, Int<kBlockK>>>;\n  using Tile = Shape<Int<kBlockM>, _8>;\n};\n");
  auto u = test::run_cutevis({"eval", "--from", f, "tile_to_shape(Atom{}, Tile{})"});
  CHECK(u.exit_code == kExitBadInput);
  CHECK(u.err.find("2 undefined names: kBlockK, kBlockM") != std::string::npos);
  CHECK(u.err.find(f + ":2:37: 'kBlockK' in Atom") != std::string::npos);
  CHECK(u.err.find(f + ":3:26: 'kBlockM' in Tile") != std::string::npos);
  std::remove(f.c_str());
}

TEST_CASE("errors: a syntax error in a file names FILE:LINE:COL, with the line and a caret") {
  std::string f =
      write_temp("syntax.hpp",
                 "// a header\nusing Good = Layout<Shape<_4,_8>>;\nusing Bad = Layout<Shape<_4,_8>, Stride<_1,_4>;\n");
  auto r = test::run_cutevis({"eval", "--from", f, "Bad{}"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.rfind("cutevis: error: " + f + ":3:19: unbalanced '<'", 0) == 0);
  CHECK(r.err.find("  Layout<Shape<_4,_8>, Stride<_1,_4>\n        ^") != std::string::npos);
  CHECK(eval_ok({"--from", f, "Good{}"}) == "(4,8):(1,4)");  // the rest of the file still works
  std::remove(f.c_str());
}

TEST_CASE("errors: recursive aliases, huge and binary files, unbalanced templates: exit 2, one clear line") {
  std::string rec = write_temp("rec.hpp", "using A = B;\nusing B = A;\n");
  auto r = test::run_cutevis({"eval", "--from", rec, "A"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("recursive definition: A -> B -> A") != std::string::npos);
  std::string chain;  // a 10,000-long chain of aliases: an error, not a stack overflow
  for (int i = 0; i < 10000; ++i) chain += "using A" + std::to_string(i) + " = A" + std::to_string(i + 1) + ";\n";
  std::string deep = write_temp("deep.hpp", chain + "using A10000 = Int<1>;\n");
  auto d = test::run_cutevis({"eval", "--from", deep, "A0"});
  CHECK(d.exit_code == kExitBadInput);
  CHECK(d.err.find("nested too deeply") != std::string::npos);
  std::string big = write_temp("big.hpp", std::string(10 << 20, ' '));
  auto b = test::run_cutevis({"eval", "--from", big, "X"});
  CHECK(b.exit_code == kExitBadInput);
  CHECK(b.err.find("the file is 10 MB") != std::string::npos);
  CHECK(std::count(b.err.begin(), b.err.end(), '\n') == 1);
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>((i * 7919) & 0xff);
  std::string bin = write_temp("junk.bin", junk);
  auto j = test::run_cutevis({"names", "--from", bin});
  CHECK(j.exit_code == kExitBadInput);
  CHECK(j.err.find("not C++ source (binary data") != std::string::npos);
  std::string unbalanced =
      write_temp("unbalanced.hpp", "using X = Shape<Shape<Shape<_1,_2>;\nstruct S { using Y = Layout<<<<<_4>;\n");
  auto u = test::run_cutevis({"names", "--from", unbalanced});
  CHECK(u.exit_code == 0);  // names reports each one as unresolved
  CHECK(u.out.find("unresolved") != std::string::npos);
  auto ue = test::run_cutevis({"eval", "--from", unbalanced, "X"});
  CHECK(ue.exit_code == kExitBadInput);
  CHECK(ue.err.find(unbalanced + ":1:") != std::string::npos);
  // a .py file goes to the CuTeDSL front end's scanner and parser (issue 14), same environment
  std::string pyfile = write_temp("k.py", "import cutlass.cute as cute\nx = cute.make_layout((4, 8), stride=(1, 4))\n");
  auto py = test::run_cutevis({"eval", "--from", pyfile, "x"});
  CAPTURE(py.err);
  CHECK(py.out == "(4,8):(1,4)\n");
  auto pyd = test::run_cutevis({"eval", "--from", pyfile, "-D", "self.n=(2, 2)", "cute.size(self.n) * size(x)"});
  CAPTURE(pyd.err);
  CHECK(pyd.out == "128\n");
  std::remove(pyfile.c_str());
  for (const auto& p : {rec, deep, big, bin, unbalanced}) std::remove(p.c_str());
}

TEST_CASE("cutevis names: every declaration, kind and CuTe print, or what -D it needs") {
  auto r = test::run_cutevis({"names", "--from", kConfig, "--json"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  std::map<std::string, json> by;
  for (const auto& n : j["names"]) by[n["name"].get<std::string>()] = n;
  CHECK(by["GemmConfig::bM"]["kind"] == "int");
  CHECK(by["GemmConfig::bM"]["value"] == "128");
  CHECK(by["GemmConfig::TileShape"]["kind"] == "shape");
  CHECK(by["GemmConfig::SmemLayoutAtomA"]["kind"] == "composed_layout");
  CHECK(by["GemmConfig::TiledMma"]["kind"] == "tiled_mma");
  CHECK(by["GemmConfig::NumThreads"]["value"] == "128");
  CHECK(by["GemmConfig::GmemCopyA"]["kind"] == "unresolved");
  CHECK(by["GemmConfig::GmemCopyA"]["needs"] == json::array({"ElementA"}));
  CHECK(by["GemmConfig::SmemLayoutA"]["line"] == 13);
  auto with = test::run_cutevis({"names", "--from", kConfig, "-D", "ElementA=half_t", "--json"});
  json w = json::parse(with.out);
  for (const auto& n : w["names"])
    if (n["name"] == "GemmConfig::SmemCopyAtomA") CHECK(n["kind"] == "copy_atom");
  auto text = test::run_cutevis({"names", "--from", kConfig});
  CHECK(text.out.find("give -D ElementA=... (a parameter of GemmConfig)") != std::string::npos);
}

TEST_CASE("names --json on a file with bytes that are not UTF-8: valid JSON, U+FFFD in their place") {
  // Found by tests/fuzz/from_file_fuzz.cpp: nlohmann's dump threw on the definition's 0xFF.
  auto path = write_temp("not_utf8.cu", "using Bad = Layout<Shape\xff\xfe,_4>>;\nusing Good = Layout<Shape<_4,_8>>;\n");
  auto r = test::run_cutevis({"names", "--from", path, "--json"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  REQUIRE(j["names"].size() == 2);
  CHECK(j["names"][0]["kind"] == "unresolved");
  CHECK(j["names"][0]["definition"].get<std::string>().find("\xef\xbf\xbd") != std::string::npos);
  CHECK(j["names"][1]["value"] == "(4,8):(1,4)");
  std::remove(path.c_str());
}

// tests/data/sm90_collective_config.cute.jsonl: what CuTe prints for 20 declarations of
// samples/sm90_collective_config.hpp, instantiated as CollectiveConfig<half_t> in a host-only
// program built against CUTLASS 4 (cute::print of each; `true`/`false` for the bool).
TEST_CASE("names on a 40-declaration collective-style header: every value is CuTe's") {
  auto r =
      test::run_cutevis({"names", "--from", std::string(CUTEVIS_SOURCE_DIR) + "/samples/sm90_collective_config.hpp",
                         "-D", "ElementA_=half_t", "--json"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["names"].size() >= 30);
  std::map<std::string, json> by;
  for (const auto& n : j["names"]) by[n["name"].get<std::string>()] = n;
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/sm90_collective_config.cute.jsonl");
  size_t checked = 0;
  for (std::string line; std::getline(in, line);) {
    json e = json::parse(line);
    std::string cute = e["cute"], ours;
    std::string expected;  // CuTe prints static integers as _8; cutevis as 8
    for (size_t i = 0; i < cute.size(); ++i)
      if (!(cute[i] == '_' && i + 1 < cute.size() &&
            (std::isdigit(static_cast<unsigned char>(cute[i + 1])) || cute[i + 1] == '-')))
        expected += cute[i];
    CAPTURE(e["name"]);
    REQUIRE(by.count(e["name"]) == 1);
    ours = by[e["name"]]["value"].get<std::string>();
    while (!ours.empty() && ours.back() == '\n') ours.pop_back();  // a multi-line print ends its last line
    CHECK(ours == expected);
    ++checked;
  }
  CHECK(checked == 20);
}

TEST_CASE("lookup: the last declaration wins unless qualified; the innermost scope first; stdin") {
  std::string f = write_temp("scopes.hpp",
                             "namespace ns {\nstruct A { using X = Int<1>; using Y = Shape<X, X>; };\n"
                             "struct B { using X = Int<2>; using Y = Shape<X, X>; };\n}\n");
  CHECK(eval_ok({"--from", f, "X{}"}) == "2");                           // the last one
  CHECK(eval_ok({"--from", f, "A::X{}"}) == "1");                        // qualified
  CHECK(eval_ok({"--from", f, "ns::A::Y{}"}) == "(1,1)");                // A's Y uses A's X
  CHECK(eval_ok({"--from", f, "-D", "X=Int<7>", "A::Y{}"}) == "(7,7)");  // -D wins over the file
  std::string out = "/tmp/cutevis_paste_stdin_" + std::to_string(::getpid());
  int rc = std::system(
      ("cat " + f + " | " + test::shell_quote(test::cutevis_binary()) + " eval --from - 'size(B::Y{})' >" + out)
          .c_str());
  CHECK(rc == 0);
  std::ifstream in(out);
  std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(got == "4\n");
  std::remove(out.c_str());
  std::remove(f.c_str());
}

TEST_CASE("tv and verify --layout-* take declared names too") {
  std::string f = write_temp(
      "tv.hpp",
      "using ThrLayout = Layout<Shape<Shape<_4,_8>,_4>, Stride<Stride<_8,_1>,_32>>;\nusing Tile = Shape<_32,_4>;\n");
  auto tv = test::run_cutevis({"tv", "--from", f, "ThrLayout{}", "Tile{}", "--json"});
  CAPTURE(tv.err);
  CHECK(tv.exit_code == 0);
  CHECK(json::parse(tv.out)["num_threads"] == 32);
  auto bad = test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TN", "--from", f, "--layout-c", "CLayout{}"});
  CHECK(bad.exit_code == kExitBadInput);
  CHECK(bad.err.find("undefined name 'CLayout'") != std::string::npos);
  auto ok = test::run_cutevis({"verify", "SM80_16x8x16_F32F16F16F32_TN", "-D", "CLayout=((4,8),(2,2)):((32,1),(16,8))",
                               "--layout-c", "CLayout"});
  CHECK(ok.exit_code != kExitBadInput);  // 0 on a GPU, 3 without one
  std::remove(f.c_str());
}

// CuTe's print of MMA_Atom<...> for both atoms (host program against CUTLASS 4), underscores removed.
TEST_CASE("the SM100 TF32 interleaved complex atoms (CuTe's layouts)") {
  auto one = test::run_cutevis(
      {"atom", "SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,256,UMMA::Major::K,UMMA::Major::K>"});
  CAPTURE(one.err);
  CHECK(one.out ==
        "MMA_Atom\n  ThrID:      1:0\n  Shape_MNK:  (128,256,4)\n  LayoutA_TV: (1,(128,4)):(0,(1,128))\n"
        "  LayoutB_TV: (1,(256,4)):(0,(1,256))\n  LayoutC_TV: (1,(128,256)):(0,(1,128))\n");
  auto pair = test::run_cutevis(
      {"atom", "SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<256,128,UMMA::Major::K,UMMA::Major::K>"});
  CHECK(pair.out ==
        "MMA_Atom\n  ThrID:      2:1\n  Shape_MNK:  (256,128,4)\n  LayoutA_TV: (2,(128,4)):(128,(1,256))\n"
        "  LayoutB_TV: (2,(64,4)):(64,(1,128))\n  LayoutC_TV: (2,(128,128)):(128,(1,256))\n");
  auto json_out = test::run_cutevis(
      {"eval", "--json",
       "MMA_Atom<SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<64,8,UMMA::Major::K,UMMA::Major::K>>{}"});
  CHECK(json_out.exit_code == 0);
  CHECK(json_out.out.find("complex<tfloat32_t>") != std::string::npos);
  auto bad = test::run_cutevis(
      {"atom", "SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,8,UMMA::Major::K,UMMA::Major::K>"});
  CHECK(bad.exit_code == kExitBadInput);
  CHECK(bad.err.find("multiple of 16") != std::string::npos);
}

TEST_CASE("Config::Name through an alias or -D of a struct; a composed layout's parts") {
  CHECK(eval_ok({"--from", kConfig, "-D", "Config=GemmConfig<half_t>", "typename Config::SmemLayoutA{}"}) ==
        "Sw<2,3,3> o 0 o ((8,16),(32,1),(1,3)):((32,256),(1,0),(0,4096))");
  CHECK(eval_ok({"--from", kConfig, "using Cfg = GemmConfig<half_t>; Cfg::TileShape{}"}) == "(128,128,32)");
  CHECK(eval_ok({"--from", kConfig, "SmemLayoutAtomA{}.layout_b()"}) == "(8,32):(32,1)");
  CHECK(eval_ok({"--from", kConfig, "SmemLayoutAtomA{}.layout_a()"}) == "Sw<2,3,3>");
  CHECK(eval_ok({"UMMA::Layout_K_SW128_Atom<half_t>{}.offset()"}) == "smem_ptr[16b]");
}

namespace {
const std::string kFa2Traits = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/fa2_style_traits.h";
}  // namespace

TEST_CASE("#if __CUDA_ARCH__: --arch sm80 reads the SM80 kernel's branch; without it, the host's and a warning") {
  // FA2's pattern: the SM80 MMA behind `defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800`, three-way #elif
  auto sm80 = test::run_cutevis({"eval", "--from", kFa2Traits, "--arch", "sm80", "Flash_kernel_traits::MMA_Atom_Arch"});
  CAPTURE(sm80.err);
  CHECK(sm80.exit_code == 0);
  CHECK(sm80.out.find("Shape_MNK:  (16,8,16)") != std::string::npos);  // SM80_16x8x16
  CHECK(sm80.err.find("__CUDA_ARCH__") == std::string::npos);          // chosen: no note about it
  CHECK(eval_ok({"--from", kFa2Traits, "-D", "__CUDA_ARCH__=800", "Flash_fwd_kernel_traits::Gmem_copy_struct"}) ==
        "SM80_CP_ASYNC_CACHEGLOBAL<cute::uint128_t>");
  CHECK(eval_ok({"--from", kFa2Traits, "-D", "__CUDA_ARCH__=750", "Flash_fwd_kernel_traits::Gmem_copy_struct"}) ==
        "DefaultCopy");
  auto host = test::run_cutevis({"eval", "--from", kFa2Traits, "Flash_kernel_traits::MMA_Atom_Arch"});
  CHECK(host.exit_code == 0);
  CHECK(host.out.find("Shape_MNK:  (16,8,8)") != std::string::npos);  // SM75_16x8x8: the #else a host compile reads
  CHECK(host.err.find("cutevis: warning: " + kFa2Traits +
                      ":16: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 is false: __CUDA_ARCH__ has no value") !=
        std::string::npos);
  CHECK(host.err.find("choose with --arch sm80 (or -D __CUDA_ARCH__=800)") != std::string::npos);
  // #if 0 is never read; names says the same
  auto names = test::run_cutevis({"names", "--from", kFa2Traits, "--arch", "sm80", "--json"});
  CHECK(names.exit_code == 0);
  bool old_layout = false;
  int atoms = 0;
  const json all = json::parse(names.out);
  for (const auto& n : all["names"]) {
    old_layout = old_layout || n["name"] == "OldLayout";
    if (n["name"] == "Flash_kernel_traits::MMA_Atom_Arch") ++atoms;
    if (n["name"] == "KBLOCK_N_DEFAULT") CHECK(n["line"] == 12);  // #define at its own line
  }
  CHECK_FALSE(old_layout);
  CHECK(atoms == 1);  // one branch, not both
  auto bad = test::run_cutevis({"names", "--from", kFa2Traits, "--arch", "ampere"});
  CHECK(bad.exit_code == kExitBadInput);
  CHECK(bad.err.find("--arch expects an architecture such as sm80") != std::string::npos);
}

namespace {
const std::string kFa3Mainloop = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/fa3_style_mainloop.hpp";
}  // namespace

// Expected values: CuTe's print of the same declarations (tests/data/kernels/oracle.tsv).
TEST_CASE("a class template instantiated from the file's own struct: using T = Traits<128, 128, 64, 4>; T::X") {
  CHECK(eval_ok({"--from", kFa2Traits, "--arch", "sm80", "Kernel_traits::SmemLayoutQ"}) ==
        "Sw<3,3,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))");
  CHECK(eval_ok({"--from", kFa2Traits, "--arch", "sm80", "Kernel_traits::GmemLayoutAtom"}) == "(16,8):(8,1)");
  CHECK(eval_ok({"--from", kFa2Traits, "--arch", "sm80", "size(Kernel_traits::TiledMma{})"}) == "128");
  // the base class is a defaulted template parameter: typename Base::MMA_Atom_Arch follows --arch
  CHECK(eval_ok({"--from", kFa2Traits, "--arch", "sm80", "Kernel_traits::TiledMma"}).find("(16,8,16)") !=
        std::string::npos);
  CHECK(eval_ok({"--from", kFa2Traits, "Kernel_traits::TiledMma"}).find("(16,8,8)") != std::string::npos);
  // directly, and as a -D of a kernel's `template <class Cfg>`
  CHECK(eval_ok({"--from", kFa2Traits, "Flash_fwd_kernel_traits<64, 64, 64, 4>::kBlockKSmem"}) == "64");
  CHECK(eval_ok({"--from", kFa2Traits, "-D", "Cfg=Flash_fwd_kernel_traits<96, 64, 64, 4>", "Cfg::kSwizzle"}) == "2");
  CHECK(eval_ok({"--from", kFa2Traits, "Kernel_traits"}) ==
        "Flash_fwd_kernel_traits<128,128,64,4,half_t,"
        "Flash_kernel_traits<128,128,64,4,half_t>>");
  auto missing = test::run_cutevis({"eval", "--from", kFa2Traits, "Kernel_traits::NoSuchMember"});
  CHECK(missing.exit_code == kExitBadInput);
  CHECK(missing.err.find("has no member 'NoSuchMember'") != std::string::npos);
}

TEST_CASE("FA3-style mainloop: conditional_t<kHeadDim >= 128, ...>, Layout_SW128_Atom<T, Major>, gcd, CUTE_STATIC_V") {
  CHECK(eval_ok({"--from", kFa3Mainloop, "Mainloop::SmemLayoutQ"}) ==
        "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,2)):((64,512),(1,8192))");
  CHECK(eval_ok({"--from", kFa3Mainloop, "Mainloop::SmemLayoutK"}) ==
        "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,2),(1,2)):((64,512),(1,8192),(0,16384))");
  CHECK(eval_ok({"--from", kFa3Mainloop, "MainloopFp8::SmemLayoutK"}) ==
        "Sw<2,4,3> o smem_ptr[8b](unset) o ((8,22),(64,1),(1,2)):((64,512),(1,0),(0,11264))");
  CHECK(eval_ok({"--from", kFa3Mainloop, "Mainloop::kAlignment"}) == "8");
  CHECK(eval_ok({"--from", kFa3Mainloop, "MainloopFp8::kAlignment"}) == "16");
  CHECK(eval_ok({"--from", kFa3Mainloop, "Mainloop::kClusterSize"}) == "1");
  CHECK(eval_ok({"--from", kFa3Mainloop, "MainloopFp8::Is_fp8"}) == "true");
  CHECK(eval_ok({"--from", kFa3Mainloop, "size(Mainloop::TiledMmaQK{})"}) == "256");
  // enum class values: kCausal = 4, kLocal = 5
  CHECK(eval_ok({"--from", kFa3Mainloop, "flash::Softmax_mode::kLocal"}) == "5");
  CHECK(eval_ok({"--from", kFa3Mainloop,
                 "flash::CollectiveMainloopFwdSm90<2, half_t, Shape<_64,_64,_64>, Shape<_1,_1,_1>, "
                 "true>::kModeValue"}) == "4");
  CHECK(eval_ok({"GMMA::Layout_SW64_Atom<half_t, GMMA::Major::MN>{}"}) ==
        "Sw<2,4,3> o smem_ptr[16b](unset) o (32,8):(1,32)");
}

TEST_CASE("GMMA::ss_op_selector / rs_op_selector: the op CuTe's selector returns (tests/data/kernels/oracle.tsv)") {
  auto picks = [&](const std::string& call, const std::string& op) {
    CAPTURE(call);
    std::string picked = eval_ok({call});
    CHECK(picked.find("MMA_Atom") != std::string::npos);
    CHECK(picked == eval_ok({op + "{}"}));
  };
  picks("GMMA::ss_op_selector<half_t, half_t, float, Shape<_128,_128,_64>>()",
        "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>");
  picks("GMMA::ss_op_selector<cutlass::float_e4m3_t, cutlass::float_e4m3_t, float, Shape<_128,_176,_64>>()",
        "SM90_64x16x32_F32E4M3E4M3_SS_TN");
  picks("GMMA::ss_op_selector<bfloat16_t, bfloat16_t, float, Shape<_64,_224,_64>, GMMA::Major::K, GMMA::Major::MN>()",
        "SM90_64x32x16_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::MN>");
  picks("GMMA::rs_op_selector<half_t, half_t, float, Shape<_128,_96,_32>>()",
        "SM90_64x96x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>");
  picks("GMMA::ss_op_selector<half_t, half_t, half_t, Shape<_64,_80,_16>>()",
        "SM90_64x16x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>");
  picks("SM90::GMMA::ss_op_selector<tfloat32_t, tfloat32_t, float, Shape<_64,_64,_32>>()",
        "SM90_64x64x8_F32TF32TF32_SS_TN");
  auto bad = test::run_cutevis({"eval", "GMMA::ss_op_selector<half_t, half_t, float, Shape<_96,_128,_64>>()"});
  CHECK(bad.exit_code == kExitBadInput);
  CHECK(bad.err.find("Tile_M must be a multiple of 64") != std::string::npos);
}

TEST_CASE("messages: no -D for run-time names, no look-alike for a template parameter") {
  std::string path = write_temp("runtime.cu",
                                // (dim3, not uint2: CUDA's vector types are element types, sizeof(uint2) is 8)
                                "constexpr int kVec = sizeof(dim3) / 2;\n"
                                "using L = Layout<Shape<Int<kVec>, Int<kBlock>>>;\n");
  auto r = test::run_cutevis({"names", "--from", path});
  CAPTURE(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("-D dim3") == std::string::npos);
  CHECK(r.out.find("uses run-time 'dim3' (not a compile-time value)") != std::string::npos);
  CHECK(r.out.find("-D kBlock=...") != std::string::npos);  // (a name a -D does give)
  auto e = test::run_cutevis({"eval", "--from", path, "kVec"});
  CHECK(e.exit_code == kExitBadInput);
  CHECK(e.err.find("-D dim3") == std::string::npos);
  CHECK(e.err.find("run-time values") != std::string::npos);
  std::remove(path.c_str());
  // kNWarps_ is a parameter of the struct template: its fix is -D kNWarps_, not kNWarps
  auto p = test::run_cutevis({"eval", "--from", kFa2Traits, "Flash_fwd_kernel_traits::kNThreads"});
  CHECK(p.exit_code == kExitBadInput);
  CHECK(p.err.find("kNWarps_") != std::string::npos);
  CHECK(p.err.find("did you mean") == std::string::npos);
}

TEST_CASE("a CUTLASS helper (not CuTe) says so, and that -I reads it") {
  auto r = test::run_cutevis(
      {"eval", "decltype(cutlass::gemm::collective::detail::ss_smem_selector<GMMA::Major::K, half_t, _128, _64>())"});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("ss_smem_selector is CUTLASS code: give -I path/to/cutlass/include") != std::string::npos);
  CHECK(r.err.find("did you mean") == std::string::npos);
}
