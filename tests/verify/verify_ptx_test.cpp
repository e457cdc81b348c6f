// verify's kernels are PTX text: check their shape here, and assemble them with ptxas
// for sm_90a where the CUDA toolkit is installed (no GPU needed).
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

#include "atoms/verify/ptx.hpp"
#include "tests/gpu/verify_atoms.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using namespace cutevis::verify;

namespace {

std::vector<std::string> all_test_kernels(int& version) {
  std::vector<std::string> kernels;
  version = 70;
  int i = 0;
  for (const MmaAtom& atom :
       {test::sm80_16x8x16_f32f16(), test::sm80_16x8x16_f32bf16(), test::sm75_16x8x8_f16f16(), test::sm80_16x8x8_tf32(),
        test::sm80_8x8x4_f64(), test::sm80_16x8x32_s4(), test::sm80_8x8x128_b1_xor(), test::sm80_8x8x16_u8s8(),
        test::sm89_16x8x32_e4m3(), test::sm89_16x8x32_e5m2_f16(), test::sm70_8x8x4_nt(), test::sm61_dp4a(),
        test::sm90_gmma_f32f16(8, true), test::sm90_gmma_f32f16(256, true, "MN", "MN"),
        test::sm90_gmma_f32f16(24, false, "K", "MN"), test::sm90_gmma_s8(16, true), test::sm90_gmma_s8(32, false)}) {
    MmaPlan p = plan_mma(atom);
    kernels.push_back(mma_kernel_ptx(p, "mma_" + std::to_string(i++)));
    version = std::max(version, p.ptx_version);
  }
  for (const CopyAtom& atom : {test::ldsm_n(1), test::ldsm_n(4), test::ldsm_t(2), test::stsm_n(4), test::stsm_t(4)}) {
    CopyPlan p = plan_copy(atom);
    kernels.push_back(copy_kernel_ptx(p, "copy_" + std::to_string(i++), 512));
    version = std::max(version, p.ptx_version);
  }
  return kernels;
}

}  // namespace

TEST_CASE("verify ptx: kernel shapes") {
  MmaPlan ss = plan_mma(test::sm90_gmma_f32f16(8, true, "MN", "K"));
  std::string k = mma_kernel_ptx(ss, "k");
  CHECK(k.find("wgmma.fence.sync.aligned") != std::string::npos);
  CHECK(k.find("fence.proxy.async.shared::cta") != std::string::npos);
  CHECK(k.find("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %desc_a, %desc_b, %psd, 1, 1, "
               "1, 0;") != std::string::npos);
  CHECK(k.find("wgmma.wait_group.sync.aligned 0") != std::string::npos);
  MmaPlan rs = plan_mma(test::sm90_gmma_s8(16, false));
  std::string r = mma_kernel_ptx(rs, "r");
  CHECK(r.find("{%a0, %a1, %a2, %a3}, %desc_b, %psd;") != std::string::npos);  // integer GMMA: no scale/transpose
  std::string m = mma_kernel_ptx(plan_mma(test::sm80_8x8x4_f64()), "m");
  CHECK(m.find(".reg .b64 %a<1>") != std::string::npos);
  CHECK(m.find("ld.global.b64 %c1, [%addr+8]") != std::string::npos);
  std::string mod = ptx_module({k}, 80, "sm_90a");
  CHECK(mod.rfind(".version 8.0\n.target sm_90a\n", 0) == 0);
}

TEST_CASE("verify ptx: every kernel assembles for sm_90a (ptxas)") {
  std::string ptxas = test::find_program("ptxas");
  if (ptxas.empty() && std::system("test -x /usr/local/cuda/bin/ptxas") == 0) ptxas = "/usr/local/cuda/bin/ptxas";
  if (ptxas.empty()) CUTEVIS_SKIP("ptxas (CUDA toolkit) not found");
  int version = 70;
  std::vector<std::string> kernels = all_test_kernels(version);
  std::string path = std::string(CUTEVIS_BINARY_DIR) + "/verify_ptx_test.ptx";
  {
    std::ofstream out(path);
    out << ptx_module(kernels, version, "sm_90a");
  }
  std::string log = path + ".log";
  int rc = std::system((ptxas + " -arch=sm_90a " + path + " -o " + path + ".cubin > " + log + " 2>&1").c_str());
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_MESSAGE(rc == 0, text);
}
