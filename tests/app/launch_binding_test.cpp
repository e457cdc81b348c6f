// A kernel's template parameters and parameters bound from its launch in the same file
// (lib/lang/launch_binding.cpp), on a hand-written file in the style of CuTe's GEMM tutorials;
// the expected values are real CuTe's (tests/data/kernels/tutorial_oracle.tsv).
#include <doctest/doctest.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

const std::string kFile = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/tutorial_style_launch.cu";

// CuTe's printed values by key, static ints written as ours (_8 -> 8)
std::map<std::string, std::string> oracle() {
  std::map<std::string, std::string> out;
  static const std::regex underscore("_(?=[0-9(])");
  for (const char* name : {"tutorial_oracle.tsv", "tutorial_host_oracle.tsv"}) {
    std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/" + name);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      const size_t tab = line.find('\t');
      out[line.substr(0, tab)] = std::regex_replace(line.substr(tab + 1), underscore, "");
    }
  }
  return out;
}

std::string eval_ok(const std::vector<std::string>& args) {
  std::vector<std::string> full{"eval"};
  full.insert(full.end(), args.begin(), args.end());
  auto r = test::run_cutevis(full);
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  return r.out.empty() ? r.out : r.out.substr(0, r.out.size() - 1);
}

// "TiledLayout_TV: ((8,16),8):((128,1),16)" in a printed TiledCopy / TiledMMA: the value
std::string field(const std::string& printed, const std::string& name) {
  const size_t at = printed.find(name + ":");
  if (at == std::string::npos) return "(no " + name + ")";
  const size_t b = printed.find_first_not_of(' ', at + name.size() + 1);
  return printed.substr(b, printed.find('\n', b) - b);
}

json names_of(const std::vector<std::string>& args) {
  std::vector<std::string> full{"names", "--json"};
  full.insert(full.end(), args.begin(), args.end());
  auto r = test::run_cutevis(full);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out)["names"];
}

const json* row(const json& names, const std::string& name) {
  for (const json& n : names)
    if (n["name"] == name) return &n;
  return nullptr;
}

}  // namespace

TEST_CASE("a kernel's template parameters from its launch: the smem layout, TiledMMA and TiledCopy CuTe builds") {
  const auto cute = oracle();
  REQUIRE(cute.size() > 50);
  auto value = [&](const std::string& expression) { return eval_ok({"--from", kFile, "-D", "TA=half_t", expression}); };
  // run_nt's launch `tiled_gemm<<<...>>>(prob_shape, cta_tiler, A, sA, copyA, mmaC)`: ASmemLayout sA_layout
  // deduces ASmemLayout = decltype(sA), as C++ does; the launching function's locals are read in its scope
  CHECK(value("tiled_gemm::smem_layout") == cute.at("wgmma_nt.sA"));
  CHECK(value("tiled_gemm::ASmemLayout") == cute.at("wgmma_nt.sA"));
  CHECK(value("cosize(tiled_gemm::sA_layout)") == cute.at("wgmma_nt.cosize_sA"));
  CHECK(value("tiled_gemm::stages") == "3");
  CHECK(value("tiled_gemm::tile_m") == "128");
  CHECK(value("size(tiled_gemm::copy_a)") == cute.at("wgmma_nt.copyA.size"));
  CHECK(field(value("tiled_gemm::TiledCopyA"), "TiledLayout_TV") == cute.at("wgmma_nt.copyA.TiledLayout_TV"));
  CHECK(field(value("tiled_gemm::copy_a"), "Tiler_MN") == cute.at("wgmma_nt.copyA.Tiler_MN"));
  CHECK(value("size(tiled_gemm::mma)") == cute.at("sgemm80_tn_half.mmaC.size"));
  CHECK(value("tiled_gemm::mma.get_layoutC_TV()") == cute.at("sgemm80_tn_half.mmaC.TiledLayoutC_TV"));
  // a kernel local built from a bound parameter: make_tiled_copy_A(LDSM atom, mma)
  CHECK(field(value("tiled_gemm::s2r_a"), "TiledLayout_TV") == cute.at("sgemm80_tn_half.s2r_copy_a.TiledLayout_TV"));
  CHECK(field(value("tiled_gemm::s2r_a"), "Tiler_MN") == cute.at("sgemm80_tn_half.s2r_copy_a.Tiler_MN"));
  // &kernel<decltype(tiled_mma), decltype(cluster_shape)> through launch_kernel_on_cluster: the named arguments
  CHECK(value("umma_kernel::cluster_layout_vmnk") == cute.at("sm100_04.cluster_layout_vmnk"));
  CHECK(value("umma_kernel::num_mcast_participants") == cute.at("sm100_04.num_mcast_participants"));
  CHECK(value("umma_kernel::tiled_mma.get_layoutC_TV()") == cute.at("sm100_04.tiled_mma.TiledLayoutC_TV"));
  CHECK(value("size(umma_kernel::TiledMma{})") == cute.at("sm100_04.tiled_mma.size"));
  // Storage& storage = *reinterpret_cast<Storage*>(smem); storage.tensor_sA(): the member function of the
  // launch's Storage, its LayoutA bound
  CHECK(value("umma_kernel::tCsA.layout()") == cute.at("sm100_04.smem_tensor_sA.layout"));
  CHECK(value("run_umma::mma_shape_A") == cute.at("sm100_04.mma_shape_A"));
  // a -D of a template parameter replaces what the launch gives
  CHECK(eval_ok({"--from", kFile, "-D", "TA=half_t", "-D", "ASmemLayout=Layout<Shape<_64,_32,_2>>",
                 "tiled_gemm::smem_layout"}) == "(64,32,2):(1,64,2048)");
}

TEST_CASE("launch binding in names: the launch used is named, run-time values stay unresolved with their reason") {
  auto r = test::run_cutevis({"names", "--from", kFile, "-D", "TA=half_t"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  // two launches of tiled_gemm: the first in the file binds, the note names both
  CHECK(r.err.find("tiled_gemm's parameters are bound from its launch in run_nt (" + kFile +
                   ":39); also launched "
                   "from run_tn (line 52)") != std::string::npos);
  CHECK(r.err.find("umma_kernel's parameters") == std::string::npos);  // one launch: nothing to choose
  json names = names_of({"--from", kFile, "-D", "TA=half_t"});
  CHECK(row(names, "tiled_gemm::ASmemLayout") == nullptr);  // a launch's argument is not a row of its own
  REQUIRE(row(names, "tiled_gemm::Buffers") != nullptr);
  CHECK((*row(names, "tiled_gemm::Buffers"))["kind"] == "class");
  // the global tensor's shape is run_nt's `int m`: a run-time value, unresolved, its parameter named
  const json* mA = row(names, "tiled_gemm::mA");
  REQUIRE(mA != nullptr);
  CHECK((*mA)["kind"] == "unresolved");
  CHECK((*mA)["error"].get<std::string>().find("unknown name 'm'") != std::string::npos);
  // blockIdx is a run-time value read as 0 (CTA 0's tile), said in the value; -D blockIdx.x=N for another
  const json* coord = row(names, "tiled_gemm::coord");
  REQUIRE(coord != nullptr);
  REQUIRE((*coord)["kind"] == "tuple");
  CHECK((*coord)["value"] ==
        "(0,0,_)\n  blockIdx.x is a run-time value: read as 0 (-D blockIdx.x=N for another CTA's)\n  blockIdx.y is "
        "a run-time value: read as 0 (-D blockIdx.y=N for another CTA's)");
  const json cta3 = names_of({"--from", kFile, "-D", "TA=half_t", "-D", "blockIdx.x=3"});
  const json* other = row(cta3, "tiled_gemm::coord");
  REQUIRE(other != nullptr);
  CHECK((*other)["value"].get<std::string>().rfind("(3,0,_)\n  blockIdx.y is a run-time value", 0) == 0);
  auto bad = test::run_cutevis({"names", "--from", kFile, "-D", "TA=half_t", "-D", "blockIdx.x=-1"});
  CHECK(bad.out.find("-D blockIdx.x=N takes a CTA index (an integer >= 0), got '-1'") != std::string::npos);
  // without the launches the kernel's parameters are what a -D should give
  const std::string kernel_only = "/tmp/cutevis_launch_" + std::to_string(::getpid()) + ".cu";
  std::ifstream in(kFile);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(kernel_only) << text.substr(0, text.find("template <class TA>\nvoid run_nt"));
  json alone = names_of({"--from", kernel_only, "-D", "TA=half_t"});
  std::remove(kernel_only.c_str());
  REQUIRE(row(alone, "tiled_gemm::smem_layout") != nullptr);
  CHECK((*row(alone, "tiled_gemm::smem_layout"))["kind"] == "unresolved");
  CHECK((*row(alone, "tiled_gemm::smem_layout"))["needs"] == json::array({"ASmemLayout"}));
}

TEST_CASE("real CUTLASS tutorials (CUTLASS_PATH): the kernels' layouts as their launches instantiate them") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  namespace fs = std::filesystem;
  if (!cutlass || !fs::exists(fs::path(cutlass) / "examples/cute/tutorial/hopper/wgmma_sm90.cu"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  const auto cute = oracle();
  const std::string root = cutlass;
  const std::vector<std::string> half{"-I", root + "/include", "-D", "TA=cute::half_t",
                                      "-D", "TB=cute::half_t", "-D", "TC=cute::half_t"};
  const std::vector<std::string> blackwell{
      "-I", root + "/include", "-D", "TypeA=cutlass::half_t", "-D", "TypeB=cutlass::half_t", "-D", "TypeC=float",
      "-D", "TypeD=float"};
  auto value = [&](const std::string& file, const std::vector<std::string>& defines, const std::string& expression) {
    std::vector<std::string> args{"--from", root + "/examples/cute/tutorial/" + file};
    args.insert(args.end(), defines.begin(), defines.end());
    args.push_back(expression);
    return eval_ok(args);
  };
  CHECK(value("hopper/wgmma_sm90.cu", half, "gemm_device::ASmemLayout") == cute.at("wgmma_nt.sA"));
  CHECK(value("hopper/wgmma_sm90.cu", half, "gemm_device::mma.get_layoutC_TV()") ==
        cute.at("wgmma_nt.tiled_mma.TiledLayoutC_TV"));
  // the kernel's smem tensor, make_tensor(make_smem_ptr(smem.A.begin()), ASmemLayout{})
  CHECK(value("hopper/wgmma_sm90.cu", half, "gemm_device::sA.layout()") == cute.at("wgmma_nt.smem_tensor_sA.layout"));
  CHECK(value("sgemm_sm80.cu", half, "gemm_device::sA.layout()") == cute.at("sgemm80_tn_half.smem_tensor_sA.layout"));
  CHECK(value("blackwell/01_mma_sm100.cu", blackwell, "gemm_device::tCsA.layout()") ==
        cute.at("sm100_01.smem_tensor_sA.layout"));
  CHECK(value("blackwell/01_mma_sm100.cu", blackwell, "gemm_device::mma_tiler") == cute.at("sm100_01.mma_tiler"));
  CHECK(value("blackwell/03_mma_tma_multicast_sm100.cu", blackwell, "gemm_device::cluster_layout_vmnk") ==
        cute.at("sm100_03.cluster_layout_vmnk"));
  CHECK(value("blackwell/04_mma_tma_2sm_sm100.cu", blackwell, "gemm_device::num_mcast_participants") ==
        cute.at("sm100_04.num_mcast_participants"));
  CHECK(field(value("sgemm_sm80.cu", half, "gemm_device::s2r_copy_b"), "TiledLayout_TV") ==
        cute.at("sgemm80_tn_half.s2r_copy_b.TiledLayout_TV"));
}

TEST_CASE("real CUTLASS tutorials (CUTLASS_PATH): host functions bound from main, run-time sizes refused, storage") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  namespace fs = std::filesystem;
  if (!cutlass || !fs::exists(fs::path(cutlass) / "examples/cute/tutorial/blackwell/02_mma_tma_sm100.cu"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  const auto cute = oracle();
  const std::string root = cutlass;
  const std::string tutorial = root + "/examples/cute/tutorial/";
  const std::vector<std::string> blackwell{"-I", root + "/include",       "-D", "TypeA=cutlass::half_t",
                                           "-D", "TypeB=cutlass::half_t", "-D", "TypeC=float",
                                           "-D", "TypeD=float",           "-D", "CUTLASS_ARCH_MMA_SM100_SUPPORTED=1"};
  auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  // main's `int Gemm_M = 512; if (argc >= 2) sscanf(argv[1], "%d", &Gemm_M);`: read at the program's default, said,
  // in main and in the host function its layout_A is passed to (tests/app/default_size_test.cpp checks the values)
  json names = names_of(with({"--from", tutorial + "blackwell/02_mma_tma_sm100.cu"}, blackwell));
  for (const char* name : {"main::layout_A", "gemm_host_f16xf16_f32_f32_tnt::tma_atom_A"}) {
    const json* r = row(names, name);
    REQUIRE(r != nullptr);
    CHECK((*r)["kind"] != "unresolved");
    CHECK((*r)["note"].get<std::string>().find("at the program's default problem size: Gemm_M = 512") !=
          std::string::npos);
  }
  // given the sizes (main's defaults), the host function's TMA atoms and tensors are CuTe's
  const std::vector<std::string> sizes = with(blackwell, {"-D", "Gemm_M=512", "-D", "Gemm_N=1024", "-D", "Gemm_K=256"});
  auto value = [&](const std::string& file, const std::vector<std::string>& defines, const std::string& expression) {
    return eval_ok(with(with({"--from", tutorial + file}, defines), {expression}));
  };
  for (const char* ab : {"A", "B"}) {
    const std::string atom =
        value("blackwell/02_mma_tma_sm100.cu", sizes, std::string("gemm_host_f16xf16_f32_f32_tnt::tma_atom_") + ab);
    for (const char* f : {"ThrID", "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef", "ValueType"})
      CHECK(field(atom, f) == cute.at(std::string("sm100_02.tma_atom_") + ab + "." + f));
    // (a tensor prints CuTe's static marks, the oracle's are dropped: dropped here too)
    const std::string tensor =
        value("blackwell/02_mma_tma_sm100.cu", sizes, std::string("gemm_host_f16xf16_f32_f32_tnt::m") + ab + "_tma");
    CHECK(std::regex_replace(tensor, std::regex("_(?=[0-9(])"), "") ==
          cute.at(std::string("sm100_02.m") + ab + "_tma"));
  }
  // blackwell/05: the 2SM multicast A/B atoms and the epilogue's C (load) and D (store) atoms
  for (const char* x : {"A", "B", "C", "D"}) {
    const std::string atom =
        value("blackwell/05_mma_tma_epi_sm100.cu", sizes, std::string("gemm_host_f16xf16_f32_f32_tnt::tma_atom_") + x);
    for (const char* f : {"ThrID", "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef", "ValueType"})
      CHECK(field(atom, f) == cute.at(std::string("sm100_05.tma_atom_") + x + "." + f));
    const std::string tensor =
        value("blackwell/05_mma_tma_epi_sm100.cu", sizes, std::string("gemm_host_f16xf16_f32_f32_tnt::m") + x + "_tma");
    CHECK(std::regex_replace(tensor, std::regex("_(?=[0-9(])"), "") == cute.at(std::string("sm100_05.m") + x + "_tma"));
  }
  // wgmma_tma_sm90: main -> gemm -> gemm_nt(m, n, k, alpha, A, ldA, ...), with main's defaults given
  const std::vector<std::string> hopper{"-I", root + "/include", "-D", "TA=cute::half_t", "-D", "TB=cute::half_t",
                                        "-D", "TC=cute::half_t", "-D", "m=512",           "-D", "n=256",
                                        "-D", "k=1024",          "-D", "ldA=512",         "-D", "ldB=256",
                                        "-D", "ldC=512"};
  for (const char* ab : {"A", "B"}) {
    const std::string atom = value("hopper/wgmma_tma_sm90.cu", hopper, std::string("gemm_nt::tma") + ab);
    for (const char* f : {"ThrID", "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef", "ValueType"})
      CHECK(field(atom, f) == cute.at(std::string("wgmma_tma_nt.tma") + ab + "." + f));
  }
  CHECK(
      std::regex_replace(value("hopper/wgmma_tma_sm90.cu", hopper, "gemm_nt::tmaA.get_tma_tensor(shape(gemm_nt::mA))"),
                         std::regex("_(?=[0-9(])"), "") == cute.at("wgmma_tma_nt.tmaA_tensor"));
  // the kernel's smem storage and its position-independent smem tensor
  const std::vector<std::string> half{"-I", root + "/include", "-D", "TA=cute::half_t",
                                      "-D", "TB=cute::half_t", "-D", "TC=cute::half_t"};
  CHECK(value("hopper/wgmma_sm90.cu", half, "gemm_nt::smemBytes") == cute.at("wgmma_nt.sizeof_SharedStorage"));
  CHECK(value("sgemm_sm80.cu", half, "gemm_tn::smem_size") == cute.at("sgemm80_tn.sizeof_SharedStorage"));
  CHECK(value("hopper/wgmma_sm90.cu", half, "gemm_device::sA_.layout()") == cute.at("wgmma_nt.sA_.layout"));
  CHECK(value("blackwell/02_mma_tma_sm100.cu", blackwell, "gemm_host_f16xf16_f32_f32_tnt::smemBytes") ==
        cute.at("sm100_02.sizeof_SharedStorage"));
  // SharedStorage's own members, as the kernel's `using SharedStorage = SharedStorage<TA, TB, ASmemLayout, ...>` reads
  // them: cosize(sA) halves
  CHECK(value("hopper/wgmma_sm90.cu", half, "SharedStorage::A") ==
        "ArrayEngine<half_t," + cute.at("wgmma_nt.cosize_sA") + ">");
  // sgemm_sm80's main calls gemm<half_t...>, whose gemm_tn(...) picks gemm_tn (cute::half_t const*), the more
  // specialized: its m is main's run-time m; gemm_tn#2 is no call's, and a -D TA=half_t makes it fail as CuTe does
  names = names_of(with({"--from", tutorial + "sgemm_sm80.cu"}, half));
  REQUIRE(row(names, "gemm_tn::M") != nullptr);
  CHECK((*row(names, "gemm_tn::M"))["value"].get<std::string>().rfind("5120\n  at the program's default problem "
                                                                      "size: m = 5120",
                                                                      0) == 0);
  REQUIRE(row(names, "gemm_tn#2::copyA") != nullptr);
  CHECK((*row(names, "gemm_tn#2::copyA"))["error"].get<std::string>().find("4, 8 or 16 bytes") != std::string::npos);
  REQUIRE(row(names, "gemm_nt#2::copyA") != nullptr);
  CHECK((*row(names, "gemm_nt#2::copyA"))["error"].get<std::string>().find("too few vals") != std::string::npos);
  const std::vector<std::string> single{"-I", root + "/include", "-D", "TA=float", "-D", "TB=float", "-D", "TC=float"};
  for (const char* nt : {"nt", "tn"}) {
    const std::string copy = value("sgemm_sm80.cu", single, std::string("gemm_") + nt + "#2::copyA");
    CHECK(field(copy, "Tiler_MN") == cute.at(std::string("sgemm80_") + nt + "2_float.copyA.Tiler_MN"));
    CHECK(field(copy, "TiledLayout_TV") == cute.at(std::string("sgemm80_") + nt + "2_float.copyA.TiledLayout_TV"));
  }
}
