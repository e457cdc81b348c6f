// A kernel named as a value and launched through it (`auto kernel_fptr = gemm_device<...>;
// kernel_fptr<<<...>>>(...)`, lib/lang/launch_binding.cpp mark_kernel_pointers / bind_launches), and a
// parameter marked CUTLASS_GRID_CONSTANT bound from the launch, on a hand-written file in the style of
// CuTe's tutorials (tests/data/kernels/kernel_pointer.cu); layouts are real CuTe's (kernel_pointer_oracle.tsv).
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/kernel_body.hpp"
#include "lib/lang/launch_binding.hpp"

using namespace cutevis;

namespace {

const std::string kFile = "kernel_pointer.cu";

std::string read(const std::string& path) {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> oracle() {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/tests/data/kernels/kernel_pointer_oracle.tsv");
  std::map<std::string, std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

// As the CLI reads a file (app/sources.cpp): locals marked, -D, launches bound
std::unique_ptr<Environment> load(const std::map<std::string, std::string>& defines) {
  auto env = std::make_unique<Environment>();
  const std::string src = read("tests/data/kernels/kernel_pointer.cu");
  CppScan scan = scan_cpp(src, kFile);
  const KernelFile kernels = read_kernels(src, kFile);
  mark_changed_locals(scan.declarations, kernels, kFile);
  for (auto& d : scan.declarations) env->add(std::move(d));
  for (auto& p : scan.parameters) env->add_parameter(std::move(p));
  for (const auto& [name, value] : defines) {
    Declaration d;
    d.name = name;
    d.text = value;
    env->define(d);
  }
  bind_launches(*env, kernels, src, kFile);
  return env;
}

Value value_of(Environment& env, const std::string& text) {
  return env.evaluate(parse_expression(text), text, default_registry());
}

}  // namespace

TEST_CASE("a launch through a kernel pointer binds the kernel's parameters, a CUTLASS_GRID_CONSTANT one too") {
  const auto cute = oracle();
  REQUIRE(cute.size() == 4);
  auto env = load({{"TA", "half_t"}, {"m", "5120"}});
  CHECK(value_of(*env, "gemm_device::sA_layout").to_cute_string() == cute.at("gemm_tn.sA"));
  CHECK(value_of(*env, "gemm_device::stages").to_cute_string() == cute.at("gemm_device.stages"));
  // `CUTLASS_GRID_CONSTANT SmemLayoutB const sB_layout`: SmemLayoutB, where it lives is no part of its type
  CHECK(value_of(*env, "gemm_device::sB_layout").to_cute_string() == cute.at("gemm_tn.sB"));
  CHECK(value_of(*env, "gemm_device::b_cosize").to_cute_string() == cute.at("gemm_device.b_cosize"));
}
