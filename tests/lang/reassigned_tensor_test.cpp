// A tensor a kernel assigns again in its main loop, as CuTe's sgemm_sm80 tutorial writes its smem pipe slice
// (`Tensor tXsA_p = tXsA(_,_,_,smem_pipe_read);` then `tXsA_p = tXsA(_,_,_,smem_pipe_read);`): a C++
// assignment keeps the tensor's type, so its layout is the declared one where that layout is static (or a
// slice of a tensor that does not change); the name says so. Anything whose value may differ stays without
// one (lib/lang/environment.cpp value_as_declared).
#include <doctest/doctest.h>

#include <memory>

#include "tests/support/lang_env.hpp"

using namespace cutevis;

namespace {

const char* const kKernel = R"(
template <class TA>
__global__ void gemm_device(TA const* A, int m, int k_tiles)
{
  __shared__ TA smem_a[128 * 8 * 3];
  Tensor sA = make_tensor(make_smem_ptr(smem_a), Layout<Shape<_128,_8,_3>>{});         // (BLK_M,BLK_K,PIPE)
  Tensor sA_pad = make_tensor(make_smem_ptr(smem_a), make_layout(make_shape(_128{},_8{},_3{}),
                                                                 make_stride(_1{}, m, 8 * m)));

  int smem_pipe_read = 0;
  int k_tile_count = k_tiles;

  Tensor sA_p = sA(_,_,smem_pipe_read);            // (BLK_M,BLK_K)
  Tensor sA_pad_p = sA_pad(_,_,smem_pipe_read);    // (BLK_M,BLK_K), run-time strides: sA_pad's own
  Tensor sA_run = make_tensor(make_smem_ptr(smem_a), make_shape(m, _8{}));
  auto sA_first = sA_p(_,0);

  while (k_tile_count > 0)
  {
    sA_p = sA(_,_,smem_pipe_read);
    sA_pad_p = sA_pad(_,_,smem_pipe_read);
    sA_run = make_tensor(make_smem_ptr(smem_a + 8), make_shape(m, _8{}));
    smem_pipe_read = (smem_pipe_read == 2) ? 0 : smem_pipe_read + 1;
    --k_tile_count;
  }
}
)";

std::unique_ptr<Environment> load() { return test::load_kernel(kKernel, {{"TA", "half_t"}, {"m", "136"}}); }

std::string answer(Environment& env, const std::string& name) { return test::resolved(env, name); }

}  // namespace

TEST_CASE("reassigned tensor: its static layout is its type's, the iterator as declared, with a note") {
  auto env = load();
  // the changed index first: it has no value, before and after the tensor read it as its initializer
  const std::string pipe = answer(*env, "gemm_device::smem_pipe_read");
  CHECK(pipe.rfind("error: smem_pipe_read changes at run time", 0) == 0);
  CHECK(answer(*env, "gemm_device::sA_p") ==
        "smem_ptr[?b](smem_a) o (_128,_8):(_1,_128)\n"
        "  sA_p is reassigned at line 20; its layout is its type's (the iterator as declared)");
  CHECK(answer(*env, "gemm_device::smem_pipe_read") == pipe);
  CHECK(answer(*env, "gemm_device::k_tile_count").find("k_tile_count changes at run time") != std::string::npos);
  // a tensor built from it that does not change itself: its value
  CHECK(answer(*env, "gemm_device::sA_first") ==
        "smem_ptr[?b](smem_a) o (_128):(_1)\n"
        "  sA_p is reassigned at line 20; its layout is its type's (the iterator as declared)");
}

TEST_CASE("reassigned tensor: a slice of a tensor that does not change keeps that tensor's run-time strides") {
  auto env = load();
  CHECK(answer(*env, "gemm_device::sA_pad_p") ==
        "smem_ptr[?b](smem_a) o (_128,_8):(_1,136)\n"
        "  sA_pad_p is reassigned at line 21; its layout is its type's (the iterator as declared)");
}

TEST_CASE("reassigned tensor: a layout with run-time parts that may differ has no value") {
  auto env = load();
  const std::string run = answer(*env, "gemm_device::sA_run");
  CHECK(run.find("sA_run changes at run time (`sA_run = make_tensor(make_smem_ptr(smem_a + 8), make_shape(m, _8{}))` "
                 "at line 22)") != std::string::npos);
  CHECK(run.find("its layout (136,_8):(_1,136) has run-time parts, which may differ") != std::string::npos);
}
