// C++17 structured bindings in a kernel or host function, in each of C++'s three forms: `auto [m, n] = E;`,
// `auto [m, n](E);` and `auto [m, n]{E};` (lib/lang/cpp_scanner.cpp structured_binding; the brace form is
// not a lambda's `[x]{`, whose body stays a block).
#include <doctest/doctest.h>

#include <memory>

#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/environment.hpp"

using namespace cutevis;

namespace {

const char* const kHost = R"(
template <class Element>
void gemm_host(int device)
{
  auto tile_shape = make_shape(Int<128>{}, Int<64>{}, Int<32>{});
  auto [bM, bN, bK] = tile_shape;
  auto [pM, pN, pK](tile_shape);
  auto const& [cM, cN, cK]{tile_shape};
  auto&& [tile, rest]{make_tuple(Int<8>{}, make_layout(make_shape(Int<4>{}, Int<2>{})))};
  auto [one, two]{make_tuple(Int<1>{}, Int<2>{}, Int<3>{})};
  auto run = [bM]{ auto inner = 7; return bM; };
  [&]{ auto also_inner = 9; }();
  auto sA = make_layout(make_shape(cM, pK));
}
)";

std::unique_ptr<Environment> load() {
  auto env = std::make_unique<Environment>();
  CppScan scan = scan_cpp(kHost, "k.cu");
  for (auto& d : scan.declarations) env->add(std::move(d));
  for (auto& p : scan.parameters) env->add_parameter(std::move(p));
  return env;
}

std::string answer(Environment& env, const std::string& name) {
  const Declaration* d = env.find(name, "");
  if (!d) return "(no declaration)";
  Value v;
  const LocatedError* e = env.resolve(*d, default_registry(), v);
  return e ? std::string("error: ") + e->what() : v.to_string();
}

}  // namespace

TEST_CASE("structured bindings: = E, (E) and {E} each bind the I-th element") {
  auto env = load();
  for (const char* prefix : {"b", "p", "c"}) {
    CAPTURE(prefix);
    CHECK(answer(*env, std::string("gemm_host::") + prefix + "M") == "128");
    CHECK(answer(*env, std::string("gemm_host::") + prefix + "N") == "64");
    CHECK(answer(*env, std::string("gemm_host::") + prefix + "K") == "32");
  }
  CHECK(answer(*env, "gemm_host::tile") == "8");
  CHECK(answer(*env, "gemm_host::rest") == "(4,2):(1,4)");
  CHECK(answer(*env, "gemm_host::sA") == "(128,32):(1,128)");  // built from the brace and the paren forms
  // as C++ says: three elements for two names is an error, at the binding
  CHECK(answer(*env, "gemm_host::one").find("2 names provided for a structured binding") != std::string::npos);
}

TEST_CASE("structured bindings: a lambda's [x]{ ... } is still a block, not a binding") {
  auto env = load();
  CHECK(answer(*env, "gemm_host::run") == "(no declaration)");
  CHECK(env->find("gemm_host::x", "") == nullptr);
  // the lambdas' bodies are read as blocks, as before (an unnamed block: its locals are found in gemm_host)
  CHECK(answer(*env, "gemm_host::inner") == "7");
  CHECK(answer(*env, "gemm_host::also_inner") == "9");
}
