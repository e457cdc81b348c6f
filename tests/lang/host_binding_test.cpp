// A host function's parameters bound from its call in the same file (lib/lang/launch_binding.cpp,
// bind_calls) and locals a function changes refused (mark_changed_locals), on a hand-written file in
// the style of CuTe's GEMM tutorials: what C++ passes, deduces and picks among overloads.
#include <doctest/doctest.h>

#include <map>
#include <memory>

#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/kernel_body.hpp"
#include "lib/lang/launch_binding.hpp"

using namespace cutevis;

namespace {

struct Loaded {
  std::unique_ptr<Environment> env = std::make_unique<Environment>();
  std::vector<LaunchBindingNote> notes;
};

// As the CLI reads a file: its locals marked, its declarations in, the -D (name=value), then its calls bound
Loaded load(const std::string& src, const std::map<std::string, std::string>& defines = {}) {
  Loaded out;
  CppScan scan = scan_cpp(src, "k.cu");
  const KernelFile functions = read_kernels(src, "k.cu");
  mark_changed_locals(scan.declarations, functions, "k.cu");
  for (auto& d : scan.declarations) out.env->add(std::move(d));
  for (auto& p : scan.parameters) out.env->add_parameter(std::move(p));
  for (auto& f : scan.functions) out.env->add_function(std::move(f));
  for (auto& c : scan.classes) out.env->add_class(std::move(c));
  for (const auto& [name, value] : defines) {
    Declaration d;
    d.name = name;
    d.text = value;
    out.env->define(d);
  }
  out.notes = bind_calls(*out.env, functions, src, "k.cu");
  return out;
}

std::string eval_in(Environment& env, const std::string& text) {
  return env.evaluate(parse_expression(text), text, default_registry()).to_cute_string();
}

std::string error_of(Environment& env, const std::string& text) {
  try {
    return "(no error) " + eval_in(env, text);
  } catch (const Error& e) {
    return e.what();
  }
}

const char* const kHost = R"(
using namespace cute;
template <class TypeA, class LayoutA, class Alpha>
void run_host(TypeA const* ptr_A, LayoutA layout_A, Alpha alpha, int stages = 4)
{
  auto Gemm_M = shape<0>(layout_A); Tensor mA = make_tensor(make_gmem_ptr(ptr_A), layout_A);
  auto tile = make_shape(Int<128>{}, Int<64>{}, stages);
}
template <class Alpha>
void run(int m, Alpha alpha, cute::half_t const* A, int ldA) { auto shape_A = make_shape(m, ldA); }
template <class TA, class Alpha>
void run(int m, Alpha alpha, TA const* A, int ldA) { auto lay = make_layout(make_shape(m, ldA)); using Elem = TA; }
template <class TA, class Alpha>
void dispatch(char t, int m, Alpha alpha, TA const* A, int ldA) {
  run(m, alpha, A, ldA);
}
int main(int argc, char** argv)
{
  int Gemm_M = 512;
  if (argc >= 2)
    sscanf(argv[1], "%d", &Gemm_M);
  int Gemm_K = 256;
  int ldA = 0, ldB = 0;
  if (argc > 3) {
    ldA = Gemm_K;
  } else ldB = 64;
  const int fixed = 32;
  Layout layout_A = make_layout(make_shape(Gemm_K, fixed), make_stride(Int<1>{}, Gemm_K));
  Layout layout_run = make_layout(make_shape(Gemm_M, Gemm_K));
  float alpha = 1.0f;
  run_host(ptr, layout_A, alpha);
  dispatch('N', Gemm_K, alpha, ptr, Gemm_K);
}
)";

}  // namespace

TEST_CASE("host functions: parameters from the call in main, template parameters deduced, defaults") {
  Loaded l = load(kHost);
  Environment& env = *l.env;
  // LayoutA layout_A: deduced from main's layout_A, read in main
  CHECK(eval_in(env, "run_host::layout_A") == "(256,32):(_1,256)");
  CHECK(eval_in(env, "run_host::Gemm_M") == "256");
  CHECK(eval_in(env, "size(run_host::LayoutA{})") == "8192");
  // a parameter the call leaves out is its default, a run-time int as C++ passes it
  CHECK(eval_in(env, "run_host::tile") == "(_128,_64,4)");
  // the pointer keeps its name and its declared element type (TypeA: a -D here, main passes an untyped pointer)
  CHECK(eval_in(env, "run_host::mA") == "gmem_ptr[?b](ptr_A) o (256,32):(_1,256)");
  Loaded typed = load(kHost, {{"TypeA", "half_t"}});
  CHECK(eval_in(*typed.env, "run_host::mA") == "gmem_ptr[16b](ptr_A) o (256,32):(_1,256)");
}

TEST_CASE("host functions: a local the function changes is refused, with where it changes; a -D gives it") {
  Loaded l = load(kHost);
  Environment& env = *l.env;
  // sscanf(argv[1], ..., &Gemm_M) only: the initializer 512 is the program's default, read with a note
  CHECK(eval_in(env, "main::layout_run") == "(512,256):(_1,512)");
  bool noted = false;
  for (const Warning& w : env.take_warnings())
    noted = noted || w.message ==
                         "Gemm_M = 512, the program's default (its initializer at line 19); argv[1] changes "
                         "it at line 21 (-D Gemm_M=N for another)";
  CHECK(noted);
  // assigned in a branch on a run-time condition (argc): refused too; one left alone, and a const, keep their value
  CHECK(error_of(env, "main::ldA")
            .find("ldA changes at run time (`ldA = Gemm_K` at line 25, in the if at line 24 on "
                  "`argc > 3`, known only when the program runs") != std::string::npos);
  CHECK(error_of(env, "main::ldB")
            .find("ldB changes at run time (`else ldB = 64` at line 26, in the if at line 24 on "
                  "`argc > 3`") != std::string::npos);
  CHECK(eval_in(env, "main::Gemm_K") == "256");
  CHECK(eval_in(env, "main::fixed") == "32");
  // with a -D, the value is the user's
  Loaded given = load(kHost, {{"Gemm_M", "1024"}});
  CHECK(eval_in(*given.env, "size(main::layout_run)") == "262144");
}

TEST_CASE("host functions: overloads as C++ picks them, the more specialized where it is viable") {
  Loaded l = load(kHost, {{"TA", "half_t"}});  // dispatch's TA: from a -D (main passes an untyped pointer)
  Environment& env = *l.env;
  // dispatch's call run(m, alpha, A, ldA) with A a half_t const*: run#1 (cute::half_t const*) is more
  // specialized than run#2 (TA const*) and viable, so run#1 is bound, run#2 is not
  CHECK(eval_in(env, "run::shape_A") == "(256,256)");
  CAPTURE(error_of(env, "run#2::lay"));
  CHECK(error_of(env, "run#2::lay").find("undefined names: m, ldA") != std::string::npos);
}

TEST_CASE("host functions: overloads left unbound where the argument's type is not known, with a note") {
  Loaded l = load(kHost);  // dispatch's TA not given: run#1 or run#2 cannot be decided
  bool noted = false;
  for (const LaunchBindingNote& n : l.notes)
    noted = noted ||
            n.message.find("the call of run in dispatch (k.cu:15) binds nothing: 2 overloads") != std::string::npos;
  CHECK(noted);
  CHECK(error_of(*l.env, "run::shape_A").find("undefined names: m, ldA") != std::string::npos);
}

TEST_CASE("a class template's members shown as the file's first instantiation in a function reads them") {
  const std::string src = R"(
template <class Element, class SmemLayout>
struct Buffers {
  alignas(128) cute::ArrayEngine<Element, cosize_v<SmemLayout>> A;
};
template <class TA>
void run() {
  auto sA = make_layout(make_shape(Int<64>{}, Int<8>{}));
  int bytes = sizeof(Buffers<TA, decltype(sA)>);
}
)";
  CppScan scan = scan_cpp(src, "k.cu");
  const KernelFile functions = read_kernels(src, "k.cu");
  Environment env;
  std::map<std::string, std::vector<std::string>> templates;
  for (const Declaration& d : scan.declarations)
    if (!d.template_scope.empty()) templates[d.template_scope] = d.template_params;
  for (auto& d : scan.declarations) env.add(std::move(d));
  for (auto& p : scan.parameters) env.add_parameter(std::move(p));
  for (auto& c : scan.classes) env.add_class(std::move(c));
  Declaration ta;
  ta.name = "TA";
  ta.text = "half_t";
  env.define(ta);
  const auto notes = bind_class_templates(env, functions, templates, src, "k.cu");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].message.find("Buffers<TA, decltype(sA)> is instantiated in run (k.cu:9)") != std::string::npos);
  // Buffers::A read as run's Buffers<TA, decltype(sA)>: 512 halves
  CHECK(eval_in(env, "Buffers::A") == "ArrayEngine<half_t,512>");
  CHECK(eval_in(env, "run::bytes") == "_1024");
  // an instance named with its own arguments keeps them
  CHECK(eval_in(env, "sizeof(Buffers<float, Layout<Shape<_16>>>)") == "_128");
}
