// A kernel's run-time objects, as CuTe's wgmma_tma_sm90 tutorial writes them (warp index, elected lane,
// PipelineState and the pipe index read from it): each stays without a value, saying it is a run-time
// value and, where C++ knows it at compile time, its type; nothing is read as 0 (lib/lang/environment.cpp
// runtime_type / failed_dependency, lib/lang/cpp_syntax.cpp's per-thread functions).
#include <doctest/doctest.h>

#include <memory>

#include "tests/support/lang_env.hpp"

using namespace cutevis;

namespace {

const char* const kKernel = R"(
template <class SmemLayoutA>
__global__ void gemm_device(SmemLayoutA sA_layout)
{
  auto K_PIPE_MAX = size<2>(SmemLayoutA{});
  int warp_idx = cutlass::canonical_warp_idx_sync();
  int lane_predicate = cute::elect_one_sync();
  auto write_state = cutlass::PipelineState<K_PIPE_MAX>();
  auto plain_state = PipelineState();
  int k_tile_count = 8;
  while (k_tile_count > 0)
  {
    int pipe = write_state.index();
    ++write_state;
    ++plain_state;
    --k_tile_count;
  }
}
)";

std::unique_ptr<Environment> load() {
  return test::load_kernel(kKernel, {{"SmemLayoutA", "Layout<Shape<_128,_64,_4>>"}});
}

// Why `name` has no value ("(no error) VALUE" when it has one)
std::string error_of(Environment& env, const std::string& name) {
  const std::string r = test::resolved(env, name);
  return r.rfind("error: ", 0) == 0 ? r.substr(7) : "(no error) " + r;
}

}  // namespace

TEST_CASE("run-time objects of a kernel: said to be run-time, with their type where C++ knows it") {
  auto env = load();
  CHECK(error_of(*env, "gemm_device::K_PIPE_MAX") == "(no error) 4");
  CHECK(error_of(*env, "gemm_device::warp_idx") ==
        "cutlass::canonical_warp_idx_sync() is a run-time value (the calling thread's warp index in its CTA, an "
        "int), known only when the kernel runs: give the name that holds it with -D");
  CHECK(error_of(*env, "gemm_device::lane_predicate").rfind("cute::elect_one_sync() is a run-time value (1 in", 0) ==
        0);
  // the pipeline state: its class template's arguments evaluated (K_PIPE_MAX = 4), its value not
  CHECK(error_of(*env, "gemm_device::write_state") ==
        "write_state changes at run time (`++write_state` at line 14): a run-time value of type "
        "cutlass::PipelineState<4>, its initializer is only where it starts; give -D write_state=... to pick a "
        "value");
  CHECK(error_of(*env, "gemm_device::plain_state").find("a run-time value, its initializer") != std::string::npos);
  // read from the run-time state: its blocker first, not "unknown function 'index'"
  const std::string pipe = error_of(*env, "gemm_device::pipe");
  CHECK(pipe.find("write_state changes at run time") != std::string::npos);
  CHECK(pipe.find("index") == std::string::npos);
}
