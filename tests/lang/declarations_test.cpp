// The C++ declaration scanner (lib/lang/cpp_scanner.hpp) and the name environment
// (lib/lang/environment.hpp): what counts as a declaration, scopes, positions, lookup,
// laziness, cycles.
#include <doctest/doctest.h>

#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/environment.hpp"

using namespace cutevis;

namespace {

const Declaration* named(const std::vector<Declaration>& ds, const std::string& qualified) {
  for (const auto& d : ds)
    if ((d.scope.empty() ? d.name : d.scope + "::" + d.name) == qualified) return &d;
  return nullptr;
}

Value eval_in(Environment& env, const std::string& text) {
  return env.evaluate(parse_expression(text), text, default_registry());
}

}  // namespace

TEST_CASE("scanner: the declaration forms of issue 13, and nothing else") {
  const std::string src =
      "#include <cute/tensor.hpp>\n"                      // 1
      "#define BLK 64\n"                                  // 2
      "namespace ns {\n"                                  // 3
      "template <class T, int N = 4 /* stages */>\n"      // 4
      "struct Cfg {\n"                                    // 5
      "  using A = Layout<Shape<_8,_8>>;  // an alias\n"  // 6
      "  using B = decltype(coalesce(A{}));\n"            // 7
      "  typedef Shape<_2,_2> S;\n"                       // 8
      "  static constexpr int K = N * 2;\n"               // 9
      "  TiledCopy copy = make_tiled_copy(X{}, Y{});\n"   // 10
      "  Layout l{};\n"                                   // 11
      "  int i;\n"                                        // 12
      "};\n"                                              // 13
      "}\n"                                               // 14
      "__global__ void kernel(int M, float* ptr) {\n"     // 15
      "  auto t = make_tile(M, 4);\n"                     // 16
      "  for (int k = 0; k < M; ++k) { foo(k); x = y; a.b = c; }\n"
      "  __syncthreads();\n"
      "  int lda = 0, ldb = lda + 1;\n"
      "}\n";
  CppScan s = scan_cpp(src, "k.cu");
  CHECK(named(s.declarations, "BLK")->text == "64");
  REQUIRE(named(s.declarations, "ns::Cfg::A"));
  CHECK(named(s.declarations, "ns::Cfg::A")->text == "Layout<Shape<_8,_8>>");
  CHECK(named(s.declarations, "ns::Cfg::A")->line == 6);
  CHECK(named(s.declarations, "ns::Cfg::A")->column == 13);
  CHECK(named(s.declarations, "ns::Cfg::B")->text == "decltype(coalesce(A{}))");
  CHECK(named(s.declarations, "ns::Cfg::S")->text == "Shape<_2,_2>");
  CHECK(named(s.declarations, "ns::Cfg::K")->text == "N * 2");
  CHECK(named(s.declarations, "ns::Cfg::N")->text == "4");  // a template default is a definition
  CHECK(named(s.declarations, "ns::Cfg::copy")->text == "make_tiled_copy(X{}, Y{})");
  CHECK(named(s.declarations, "ns::Cfg::l")->text == "Layout");
  CHECK(named(s.declarations, "ns::Cfg::i") == nullptr);  // an uninitialized int is runtime
  CHECK(named(s.declarations, "kernel::t")->text == "make_tile(M, 4)");
  CHECK(named(s.declarations, "kernel::lda")->text == "0");
  CHECK(named(s.declarations, "kernel::ldb")->text == "lda + 1");
  CHECK(named(s.declarations, "kernel::x") == nullptr);
  CHECK(named(s.declarations, "kernel::b") == nullptr);
  CHECK(named(s.declarations, "kernel::k") == nullptr);
  // parameters without a default: what -D must give
  CHECK(named(s.parameters, "ns::Cfg::T"));
  CHECK(named(s.parameters, "kernel::M"));
  CHECK(named(s.parameters, "kernel::ptr"));
}

TEST_CASE("scanner: snippets end in an expression or a declaration") {
  CppSnippet a = scan_cpp_snippet("using A = Layout<Shape<_4>>; coalesce(A{})", "<expression>");
  CHECK(a.declarations.size() == 1);
  CHECK(a.result_name.empty());
  CHECK(
      std::string("using A = Layout<Shape<_4>>; coalesce(A{})").substr(a.result_begin, a.result_end - a.result_begin) ==
      "coalesce(A{})");
  CppSnippet b = scan_cpp_snippet("using A = Layout<Shape<_4>>; auto b = A{};", "<expression>");
  CHECK(b.result_name == "b");
  CHECK(looks_like_snippet("a; b"));
  CHECK(looks_like_snippet("using A = B"));
  CHECK_FALSE(looks_like_snippet("composition(A, B) // not; a snippet"));
  CHECK_FALSE(looks_like_snippet("(4,8):(1,4)"));
}

TEST_CASE("environment: lazy, cached, -D first, innermost scope, cycles named") {
  Environment env;
  for (auto& d :
       scan_cpp("struct P { using X = Int<1>; using Y = Shape<X, X>; };\nusing X = Int<5>;\nusing Bad = Shape<Nope>;\n",
                "f.hpp")
           .declarations)
    env.add(d);
  CHECK(eval_in(env, "P::Y{}").to_string() == "(1,1)");
  CHECK(eval_in(env, "X{}").to_string() == "5");
  Declaration d;
  d.name = "X";
  d.text = "Int<9>";
  env.define(d);
  CHECK(eval_in(env, "X{} + 1").to_string() == "10");
  // every undefined name, with its place in its file
  try {
    eval_in(env, "Bad{}");
    FAIL("no error");
  } catch (const UndefinedNames& e) {
    REQUIRE(e.uses().size() == 1);
    CHECK(e.uses()[0].name == "Nope");
    CHECK(e.uses()[0].spot.file == "f.hpp");
    CHECK(e.uses()[0].spot.line == 3);
    CHECK(e.uses()[0].spot.column == 19);
  }
  Environment cyc;
  for (auto& c : scan_cpp("using A = B;\nusing B = C;\nusing C = A;\n", "c.hpp").declarations) cyc.add(c);
  try {
    eval_in(cyc, "A");
    FAIL("no error");
  } catch (const LocatedError& e) {
    CHECK(std::string(e.what()) == "recursive definition: A -> B -> C -> A");
  }
}

TEST_CASE("scanner: enum and enum class values (kA = 0, kB = 4, kC = int(4) + 1), in their scopes") {
  CppScan s = scan_cpp(
      "namespace ns {\n"
      "enum class Mode : int { kPlain, kCausal = 4, kLocal };\n"
      "struct S { enum Stage { kLoad, kMma }; };\n"
      "}\n",
      "k.cu");
  auto text = [&](const std::string& q) {
    const Declaration* d = named(s.declarations, q);
    return d ? d->text : std::string("<none>");
  };
  CHECK(text("ns::Mode::kPlain") == "0");
  CHECK(text("ns::Mode::kCausal") == "4");
  CHECK(text("ns::Mode::kLocal") == "int(4) + 1");
  CHECK(text("ns::S::kMma") == "1");  // an unscoped enum's values are its enclosing scope's
  CHECK(named(s.declarations, "ns::Mode::int") == nullptr);
  Environment env;
  for (auto& d : s.declarations) env.add(d);
  CHECK(eval_in(env, "ns::Mode::kLocal * 2").to_string() == "10");
}
