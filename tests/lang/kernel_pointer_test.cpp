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
#include "tests/support/tsv_oracle.hpp"

using namespace cutevis;

namespace {

const std::string kFile = "kernel_pointer.cu";

std::string read(const std::string& path) {
  std::ifstream in(std::string(CUTEVIS_SOURCE_DIR) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> oracle() { return test::tsv_oracle("tests/data/kernels/kernel_pointer_oracle.tsv"); }

// As the CLI reads a file (app/sources.cpp): locals and kernel pointers marked, -D, launches bound
std::unique_ptr<Environment> load(bool mark_pointers, const std::map<std::string, std::string>& defines) {
  auto env = std::make_unique<Environment>();
  const std::string src = read("tests/data/kernels/kernel_pointer.cu");
  CppScan scan = scan_cpp(src, kFile);
  const KernelFile kernels = read_kernels(src, kFile);
  mark_changed_locals(scan.declarations, kernels, kFile);
  if (mark_pointers) mark_kernel_pointers(scan.declarations, kernels, kFile);
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

std::string error_of(Environment& env, const std::string& text) {
  try {
    return "(no error) " + value_of(env, text).to_string();
  } catch (const Error& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("a launch through a kernel pointer binds the kernel's parameters, a CUTLASS_GRID_CONSTANT one too") {
  const auto cute = oracle();
  REQUIRE(cute.size() == 4);
  auto env = load(false, {{"TA", "half_t"}, {"m", "5120"}});
  CHECK(value_of(*env, "gemm_device::sA_layout").to_cute_string() == cute.at("gemm_tn.sA"));
  CHECK(value_of(*env, "gemm_device::stages").to_cute_string() == cute.at("gemm_device.stages"));
  // `CUTLASS_GRID_CONSTANT SmemLayoutB const sB_layout`: SmemLayoutB, where it lives is no part of its type
  CHECK(value_of(*env, "gemm_device::sB_layout").to_cute_string() == cute.at("gemm_tn.sB"));
  CHECK(value_of(*env, "gemm_device::b_cosize").to_cute_string() == cute.at("gemm_device.b_cosize"));
}

TEST_CASE("a kernel named with its template arguments is a value: the kernel and what each parameter is") {
  const auto cute = oracle();
  REQUIRE(cute.size() == 4);
  auto env = load(true, {{"TA", "half_t"}, {"m", "5120"}});
  const Value fptr = value_of(*env, "gemm_tn::kernel_fptr");
  REQUIRE(fptr.is(Value::Kind::kObject));
  CHECK(fptr.object()->kind() == "kernel");
  const std::string shown = fptr.object()->to_string();
  CHECK(shown.rfind("gemm_device<ProblemShape, TA, SmemLayoutA, SmemLayoutB>\n", 0) == 0);
  CHECK(shown.find("\n  ProblemShape = (5120,_256,_64)") != std::string::npos);
  CHECK(shown.find("\n  TA = half_t") != std::string::npos);
  CHECK(shown.find("\n  SmemLayoutA = " + cute.at("gemm_tn.sA")) != std::string::npos);
  CHECK(shown.find("\n  SmemLayoutB = " + cute.at("gemm_tn.sB")) != std::string::npos);
}

TEST_CASE("a kernel pointer whose template argument is a run-time value says so; unmarked it is an unknown name") {
  auto env = load(true, {{"TA", "half_t"}});
  CHECK(error_of(*env, "gemm_tn::kernel_fptr") == "undefined name 'm'");
  auto names = env->undefined_names_of(*env->find("gemm_tn::kernel_fptr", ""), default_registry());
  REQUIRE(names.size() == 1);  // m, not the kernel's name nor its parameters' names
  CHECK(names[0].name == "m");
  auto unmarked = load(false, {{"TA", "half_t"}, {"m", "5120"}});
  CHECK(error_of(*unmarked, "gemm_tn::kernel_fptr").find("'gemm_device'") != std::string::npos);
}
