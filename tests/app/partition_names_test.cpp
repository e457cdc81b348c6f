// One thread's partitions in the language (atoms/analysis/partition_names.cpp), from a hand-written
// file in the tutorials' style (tests/data/kernels/tutorial_style_partition.cu); the expected values
// are real CuTe's (tests/data/kernels/partition_oracle.tsv).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "app/commands.hpp"
#include "lib/lang/expr.hpp"
#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"
#include "tests/support/tsv_oracle.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

const std::string kFile = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/tutorial_style_partition.cu";

std::map<std::string, std::string> oracle() { return test::tsv_oracle("tests/data/kernels/partition_oracle.tsv"); }

// A printed tensor "ITERATOR o LAYOUT\n  note": the element offset the iterator carries (+N) and the
// layout, possibly composed ("Sw<3,3,3> o _0 o (...)").
struct Printed {
  int64_t offset = 0;
  std::string layout;
  std::string note;
};
Printed printed(const std::string& value) {
  Printed p;
  const std::string first = value.substr(0, value.find('\n'));
  if (value.find('\n') != std::string::npos) p.note = value.substr(value.find('\n') + 1);
  const size_t o = first.find(" o ");
  const std::string iterator = first.substr(0, o);
  p.layout = first.substr(o + 3);
  static const std::regex plus(R"(\+(\d+)\)$)");
  std::smatch m;
  if (std::regex_search(iterator, m, plus)) p.offset = std::stoll(m[1]);
  return p;
}

// offset + layout(i) for every i, for both: the layouts as functions (CuTe decays a swizzle into strides)
void same_function(const Printed& ours, const std::string& cute_layout, int64_t cute_offset) {
  register_catalogue_names();
  const AnyLayout a = evaluate_expression(ours.layout).to_any_layout();
  const AnyLayout b = evaluate_expression(cute_layout).to_any_layout();
  CAPTURE(ours.layout);
  CAPTURE(cute_layout);
  REQUIRE(size(shape(a)) == size(shape(b)));
  int64_t differ = 0;
  for (int64_t i = 0; i < size(shape(a)); ++i)
    if (ours.offset + evaluate(a, i) != cute_offset + evaluate(b, i)) ++differ;
  CHECK(differ == 0);
}

std::map<std::string, std::string> values(const std::vector<std::string>& defines) {
  std::vector<std::string> args{"names", "--json", "--from", kFile};
  args.insert(args.end(), defines.begin(), defines.end());
  auto r = test::run_cutevis(args);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  std::map<std::string, std::string> out;
  const json all = json::parse(r.out);
  for (const json& n : all["names"])
    out[n["name"].get<std::string>()] =
        n.contains("value") ? n["value"].get<std::string>() : "unresolved: " + n.value("error", std::string());
  return out;
}

}  // namespace

TEST_CASE("a thread's partitions in CUTLASS's tutorial style equal real CuTe's, thread 0 and -D threadIdx.x=37") {
  const auto cute = oracle();
  int compared = 0;
  for (int t : {0, 37}) {
    CAPTURE(t);
    const auto v = values(t == 0 ? std::vector<std::string>{} : std::vector<std::string>{"-D", "threadIdx.x=37"});
    const std::string th = ".t" + std::to_string(t) + ".";
    // partitions of shared memory: the layout CuTe prints, the iterator's offset for this thread (a swizzle
    // written as composition(Swizzle, layout) is folded into the thread's strides, as CuTe's slice does)
    for (const auto& name_key :
         std::vector<std::pair<std::string, std::string>>{{"sm90_wgmma::tAsA", "wgmma_nt" + th + "tAsA"},
                                                          {"sm90_wgmma::tCsA", "wgmma_nt" + th + "tCsA"},
                                                          {"sm90_wgmma::tCsB", "wgmma_nt" + th + "tCsB"},
                                                          {"sm80_plain::tCsA", "sm80_plain" + th + "tCsA"},
                                                          {"sm80_plain::tXsA", "sm80_plain" + th + "tXsA"},
                                                          {"sm80_swizzled::tAsA", "sgemm80" + th + "tAsA"},
                                                          {"sm80_swizzled::tXsA", "sgemm80" + th + "tXsA"},
                                                          {"sm80_swizzled::tCsA", "sgemm80" + th + "tCsA"}}) {
      const std::string& name = name_key.first;  // (clang 14: no structured binding in CAPTURE)
      const std::string& key = name_key.second;
      CAPTURE(name);
      const Printed p = printed(v.at(name));
      CHECK(p.layout == cute.at(key + ".layout"));
      CHECK(p.offset == std::stoll(cute.at(key + ".offset")));
      CHECK(p.note.find("thread " + std::to_string(t) + "'s partition_") != std::string::npos);
      compared += 2;
    }
    // the same as functions: offset + layout(i) for every i
    same_function(printed(v.at("sm80_swizzled::tXsA")), cute.at("sgemm80" + th + "tXsA.layout"),
                  std::stoll(cute.at("sgemm80" + th + "tXsA.offset")));
    // registers and descriptors: the same for every thread
    for (const auto& name_key : std::vector<std::pair<std::string, std::string>>{
             {"sm80_plain::tCrA", "sm80_plain" + th + "tCrA"},
             {"sm80_plain::tCrA_like", "sm80_plain" + th + "make_fragment_A"},
             {"sm80_plain::tXrA", "sm80_plain" + th + "tXrA"},
             {"sm80_swizzled::tCrA", "sgemm80" + th + "tCrA"},
             {"sm80_swizzled::tXrA", "sgemm80" + th + "tXrA"},
             {"sm90_wgmma::tCrA", "wgmma_nt" + th + "tCrA"},
             {"sm90_wgmma::tCrB", "wgmma_nt" + th + "tCrB"}}) {
      const std::string& name = name_key.first;
      const std::string& key = name_key.second;
      CAPTURE(name);
      CHECK(printed(v.at(name)).layout == cute.at(key + ".layout"));
      ++compared;
    }
    CHECK(v.at("sm80_plain::K_BLOCK_MAX") == cute.at("sm80_plain" + th + "K_BLOCK_MAX").substr(1));
    CHECK(v.at("sm80_swizzled::K_PIPE_MAX") == cute.at("sgemm80" + th + "K_PIPE_MAX").substr(1));
    // SM100: the accumulator in TMEM and thread t's tcgen05.ld partition of it
    const Printed tdt = printed(v.at("sm100_umma::tDtAcc"));
    CHECK(tdt.layout == cute.at("sm100_01" + th + "tDtAcc.layout"));
    CHECK(tdt.offset == std::stoll(cute.at("sm100_01" + th + "tDtAcc.offset")));
    compared += 4;
    if (t == 37) {  // the pair's second CTA, and CuTe's print(ThrMMA) / print(ThrCopy) of this thread
      CHECK(printed(v.at("sm100_umma_2sm::tCgC")).layout == cute.at("sm100_04.v1.tCgC.layout"));
      CHECK(printed(v.at("sm100_umma_2sm::tCgC")).note.find("peer CTA 1's partition_C (of 2;") != std::string::npos);
      CHECK(printed(v.at("sm100_umma_2sm::tCtAcc")).layout == cute.at("sm100_04.v1.tCtAcc.layout"));
      CHECK(printed(v.at("sm100_umma_2sm::tDtAcc")).layout == cute.at("sm100_04.v1.t37.tDtAcc.layout"));
      CHECK(v.at("sm80_swizzled::thr_mma").find("Thr VMNK: " + cute.at("sgemm80.t37.thr_mma.Thr_VMNK") + "\n") !=
            std::string::npos);
      CHECK(v.at("sm80_swizzled::thr_copy_a").find("ThrIdx: " + cute.at("sgemm80.t37.thr_copy_a.ThrIdx")) !=
            std::string::npos);
      compared += 5;
    }
  }
  const auto v = values({});
  CHECK(printed(v.at("sm100_umma::tCrA")).layout == cute.at("sm100_01.tCrA.layout"));
  CHECK(printed(v.at("sm100_umma::tCtAcc")).layout == cute.at("sm100_01.tCtAcc.layout"));
  CHECK(printed(v.at("sm100_umma::tCgC")).layout == "((_128,_256),_1,_1):((_256,_1),_0,_0)");  // C is row-major here
  CHECK(v.at("sm100_umma::AccType") == "float");
  CHECK(printed(v.at("sm100_umma::tCgC")).note.find("mma_v is a run-time value: index 0") != std::string::npos);
  compared += 3;
  MESSAGE(compared << " values compared with real CuTe");
}

TEST_CASE("a partition cutevis cannot follow as CuTe does is refused with its reason, never a wrong value") {
  const auto v = values({});
  // two MMA tiles' accumulators in tensor memory: CuTe lays them out (tmem_frg), cutevis builds one tile's
  CHECK(v.at("sm100_umma::tCtAcc2").find("unresolved: make_fragment_C in tensor memory: cutevis builds one MMA tile") ==
        0);
  auto r = test::run_cutevis({"names", "--from", kFile, "-D", "threadIdx.x=128"});
  CHECK(r.out.find("thread 128 is not one of the TiledMMA's 128 threads") != std::string::npos);
  r = test::run_cutevis({"names", "--from", kFile, "-D", "threadIdx.x=abc"});
  CHECK(r.out.find("-D threadIdx.x=N takes a thread index") != std::string::npos);
}

TEST_CASE(
    "the C tile of a run-time global tensor at blockIdx: tCgC, tCrC, tCtAcc and the TMEM load equal real CuTe's") {
  const auto cute = oracle();
  const std::string file = std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/tutorial_style_runtime_c.cu";
  // the problem sizes are the host functions' int parameters: given as a user gives them (the tutorials' defaults)
  const std::vector<std::string> sizes{"-D", "m=5120",
                                       "-D", "n=5120",
                                       "-D", "k=4096",
                                       "-D", "ldC=5120",
                                       "-D", "layout_C=make_layout(make_shape(512,1024),make_stride(1024,Int<1>{}))"};
  auto names = [&](std::vector<std::string> defines) {
    std::vector<std::string> args{"names", "--json", "--from", file};
    args.insert(args.end(), defines.begin(), defines.end());
    auto r = test::run_cutevis(args);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    std::map<std::string, std::string> out;
    const json all = json::parse(r.out);  // (a temporary's ["names"] would not outlive the loop's first line)
    for (const json& n : all["names"])
      out[n["name"].get<std::string>()] =
          n.contains("value") ? n["value"].get<std::string>() : "unresolved: " + n.value("error", std::string());
    return out;
  };
  int compared = 0;
  for (int t : {0, 37}) {
    CAPTURE(t);
    std::vector<std::string> d = sizes;
    if (t) d.insert(d.end(), {"-D", "threadIdx.x=37"});
    const auto v = names(d);
    const std::string th = ".t" + std::to_string(t) + ".";
    CHECK(printed(v.at("rt_registers::gC")).layout == cute.at("rt.sgemm80.gC.layout"));
    const Printed c80 = printed(v.at("rt_registers::tCgC"));
    CHECK(c80.layout == cute.at("rt.sgemm80" + th + "tCgC.layout"));
    CHECK(c80.offset == std::stoll(cute.at("rt.sgemm80" + th + "tCgC.offset")));
    CHECK(printed(v.at("rt_registers::tCrC")).layout == cute.at("rt.sgemm80" + th + "tCrC.layout"));
    CHECK(printed(v.at("rt_wgmma::tCgC")).layout == cute.at("rt.wgmma_nt" + th + "tCgC.layout"));
    CHECK(printed(v.at("rt_wgmma::tCrC")).layout == cute.at("rt.wgmma_nt" + th + "tCrC.layout"));
    CHECK(printed(v.at("rt_tmem::gC")).layout == cute.at("rt.sm100_01.gC.layout"));
    CHECK(printed(v.at("rt_tmem::tCgC")).layout == cute.at("rt.sm100_01.tCgC.layout"));
    CHECK(printed(v.at("rt_tmem::tCtAcc")).layout == cute.at("rt.sm100_01.tCtAcc.layout"));
    CHECK(v.at("rt_tmem::tiled_t2r_copy").find("TiledLayout_TV: ((32,4),32):((0,1),4)") != std::string::npos);
    const Printed dgc = printed(v.at("rt_tmem::tDgC"));
    CHECK(dgc.layout == cute.at("rt.sm100_01" + th + "tDgC.layout"));
    CHECK(dgc.offset == std::stoll(cute.at("rt.sm100_01" + th + "tDgC.offset")));
    for (const char* x : {"tDrC", "tDtAcc", "tDrAcc"})
      CHECK(printed(v.at(std::string("rt_tmem::") + x)).layout == cute.at("rt.sm100_01" + th + x + ".layout"));
    CHECK(v.at("rt_tmem::AccType") == "float");
    compared += 16;
  }
  // CuTe's TiledLayout_TV, static; cutevis prints a TiledCopy's layouts without CuTe's underscores
  CHECK(cute.at("rt.sm100_01.tiled_t2r_copy.TiledLayout_TV") == "((_32,_4),_32):((_0,_1),_4)");
  MESSAGE(compared << " values compared with real CuTe");
  // the CTA is blockIdx: 0 unless -D gives it, said beside the coordinate; another CTA's tile moves, its shape does not
  auto v = names(sizes);
  CHECK(v.at("rt_tmem::mma_coord_vmnk") ==
        "(0,0,0,_)\n  blockIdx.x is a run-time value: read as 0 (-D blockIdx.x=N for another CTA's)\n  blockIdx.y is "
        "a run-time value: read as 0 (-D blockIdx.y=N for another CTA's)");
  std::vector<std::string> cta = sizes;
  cta.insert(cta.end(), {"-D", "blockIdx.x=2", "-D", "blockIdx.y=1"});
  v = names(cta);
  // CTA (2,1)'s tile starts at 2*128 (M, stride _1) + 1*128*5120 (N, stride ldC) = 655616 elements
  CHECK(v.at("rt_registers::gC") == "gmem_ptr[?b](C+655616) o (_128,_128):(_1,5120)");
  CHECK(v.at("rt_registers::cta_coord") == "(2,1,_)");  // given: nothing to say
  CHECK(printed(v.at("rt_registers::tCrC")).layout == cute.at("rt.sgemm80.t0.tCrC.layout"));
  // without the problem sizes the global tensor is refused with what to give, never a made-up size
  v = names({});
  CHECK(v.at("rt_registers::tCrC").find("unresolved: ") == 0);
  CHECK(v.at("rt_registers::tCrC").find("unknown name 'm'") != std::string::npos);
}

TEST_CASE("real CUTLASS tutorials (CUTLASS_PATH): the kernels' partitions equal real CuTe's") {
  const char* cutlass = std::getenv("CUTLASS_PATH");
  namespace fs = std::filesystem;
  if (!cutlass || !fs::exists(fs::path(cutlass) / "examples/cute/tutorial/hopper/wgmma_sm90.cu"))
    CUTEVIS_SKIP("needs a CUTLASS checkout: CUTLASS_PATH=path/to/cutlass");
  const auto cute = oracle();
  const std::string root = cutlass;
  auto names = [&](const std::string& file, std::vector<std::string> defines) {
    std::vector<std::string> args{"names", "--json",         "--from", root + "/examples/cute/tutorial/" + file,
                                  "-I",    root + "/include"};
    args.insert(args.end(), defines.begin(), defines.end());
    auto r = test::run_cutevis(args);
    REQUIRE(r.exit_code == 0);
    std::map<std::string, std::string> out;
    const json all = json::parse(r.out);
    for (const json& n : all["names"])
      if (n.contains("value")) out[n["name"].get<std::string>()] = n["value"].get<std::string>();
    return out;
  };
  const std::vector<std::string> half{"-D", "TA=cute::half_t", "-D", "TB=cute::half_t", "-D", "TC=cute::half_t"};
  for (int t : {0, 37}) {
    std::vector<std::string> d = half;
    if (t) d.insert(d.end(), {"-D", "threadIdx.x=37"});
    const std::string th = ".t" + std::to_string(t) + ".";
    auto w = names("hopper/wgmma_sm90.cu", d);
    for (const char* x : {"tCsA", "tCsB"}) {
      const Printed p = printed(w.at(std::string("gemm_device::") + x));
      CHECK(p.layout == cute.at("wgmma_nt" + th + x + ".layout"));
      CHECK(p.offset == std::stoll(cute.at("wgmma_nt" + th + x + ".offset")));
    }
    CHECK(printed(w.at("gemm_device::tCrA")).layout == cute.at("wgmma_nt" + th + "tCrA.layout"));
    auto tma = names("hopper/wgmma_tma_sm90.cu", d);  // the same smem layouts and MMA, from its gemm_nt
    for (const char* x : {"tCsA", "tCsB"})
      CHECK(printed(tma.at(std::string("gemm_device::") + x)).layout == cute.at("wgmma_nt" + th + x + ".layout"));
    CHECK(printed(tma.at("gemm_device::tCrB")).layout == cute.at("wgmma_nt" + th + "tCrB.layout"));
    auto s = names("sgemm_sm80.cu", d);
    // tXsA_p = tXsA(_,_,_,smem_pipe_read) is reassigned in the main loop: its layout is its type's, its
    // iterator (smem_pipe_read 0) as declared
    CHECK(s.at("gemm_device::tXsA_p").find("tXsA_p is reassigned at line 270") != std::string::npos);
    for (const char* x : {"tAsA", "tXsA", "tXsB", "tXsA_p"}) {
      const Printed p = printed(s.at(std::string("gemm_device::") + x));
      CHECK(p.layout == cute.at("sgemm80" + th + x + ".layout"));
      CHECK(p.offset == std::stoll(cute.at("sgemm80" + th + x + ".offset")));
    }
    for (const char* x : {"tCrA", "tCrB", "tXrA", "tXrB"})
      CHECK(printed(s.at(std::string("gemm_device::") + x)).layout == cute.at("sgemm80" + th + x + ".layout"));
    CHECK(s.at("gemm_device::K_BLOCK_MAX") == "4");
    CHECK(s.at("gemm_device::K_PIPE_MAX") == "3");
    // the C tile of the run-time global C: the problem sizes given as the tutorials' defaults, CTA 0
    d.insert(d.end(),
             {"-D", "m=5120", "-D", "n=5120", "-D", "k=4096", "-D", "ldA=5120", "-D", "ldB=5120", "-D", "ldC=5120"});
    auto rs = names("sgemm_sm80.cu", d);
    const Printed c = printed(rs.at("gemm_device::tCgC"));
    CHECK(c.layout == cute.at("rt.sgemm80" + th + "tCgC.layout"));
    CHECK(c.offset == std::stoll(cute.at("rt.sgemm80" + th + "tCgC.offset")));
    CHECK(printed(rs.at("gemm_device::tCrC")).layout == cute.at("rt.sgemm80" + th + "tCrC.layout"));
    auto rw = names("hopper/wgmma_sm90.cu", d);
    CHECK(printed(rw.at("gemm_device::tCgC")).layout == cute.at("rt.wgmma_nt" + th + "tCgC.layout"));
    CHECK(printed(rw.at("gemm_device::tCrC")).layout == cute.at("rt.wgmma_nt" + th + "tCrC.layout"));
    // blackwell/01's epilogue from its default 512x1024 C (layout_C, layout_D: its host function's parameters)
    std::vector<std::string> bw{"-D", "TypeA=cutlass::half_t", "-D", "TypeB=cutlass::half_t",
                                "-D", "TypeC=float",           "-D", "TypeD=float"};
    for (const char* l : {"layout_C", "layout_D"})
      bw.insert(bw.end(), {"-D", std::string(l) + "=make_layout(make_shape(512,1024),make_stride(1024,Int<1>{}))"});
    if (t) bw.insert(bw.end(), {"-D", "threadIdx.x=37"});
    auto e = names("blackwell/01_mma_sm100.cu", bw);
    CHECK(printed(e.at("gemm_device::gC")).layout == cute.at("rt.sm100_01.gC.layout"));
    CHECK(printed(e.at("gemm_device::tCgC")).layout == cute.at("rt.sm100_01.tCgC.layout"));
    CHECK(printed(e.at("gemm_device::tCtAcc")).layout == cute.at("rt.sm100_01.tCtAcc.layout"));
    const Printed dgc = printed(e.at("gemm_device::tDgC"));
    CHECK(dgc.layout == cute.at("rt.sm100_01" + th + "tDgC.layout"));
    CHECK(dgc.offset == std::stoll(cute.at("rt.sm100_01" + th + "tDgC.offset")));
    for (const char* x : {"tDrC", "tDtAcc", "tDrAcc"})
      CHECK(printed(e.at(std::string("gemm_device::") + x)).layout == cute.at("rt.sm100_01" + th + x + ".layout"));
    CHECK(e.at("gemm_device::AccType") == "float");
  }
  auto b = names("blackwell/01_mma_sm100.cu", {"-D", "TypeA=cutlass::half_t", "-D", "TypeB=cutlass::half_t", "-D",
                                               "TypeC=float", "-D", "TypeD=float"});
  CHECK(printed(b.at("gemm_device::tCrA")).layout == cute.at("sm100_01.tCrA.layout"));
  CHECK(printed(b.at("gemm_device::tCrB")).layout == cute.at("sm100_01.tCrB.layout"));
  auto pair = names("blackwell/04_mma_tma_2sm_sm100.cu", {"-D", "TypeA=cutlass::half_t", "-D", "TypeB=cutlass::half_t",
                                                          "-D", "TypeC=float", "-D", "TypeD=float"});
  CHECK(printed(pair.at("gemm_device::tCrA")).layout == cute.at("sm100_04.v0.tCrA.layout"));
  CHECK(pair.at("gemm_device::cta_mma").find("Thr VMNK: (0,_0,_0,_0)") != std::string::npos);  // mma_v: run-time, 0
}
