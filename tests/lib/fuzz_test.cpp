// A bounded fuzz of the parser and evaluator, run with every test: random expressions
// from a small grammar of the language, and byte-level mutations of valid ones.  Only
// cutevis::Error may escape, with a one-line message and a position inside the text.
// (A longer run under libFuzzer with ASan/UBSan found the multi-line message bug and
// the crashes fixed in lib/; this keeps those classes from coming back.)
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

#include "lib/lang/expr.hpp"

using namespace cutevis;

namespace {

class ExprGen {
 public:
  explicit ExprGen(uint64_t seed) : rng_(seed) {}

  std::string expr(int depth) {
    switch (depth <= 0 ? 0 : uniform(0, 9)) {
      case 0:
      case 1: return layout(depth);
      case 2: return tuple(depth);
      case 3: return pick({"4", "_8", "-2", "0", "1@0", "2@1@0", "9223372036854775807", "_", "4294967296"});
      case 4: return call(depth);
      case 5: return call(depth);
      case 6:
        return "S<" + std::to_string(uniform(0, 3)) + "," + std::to_string(uniform(0, 4)) + "," +
               std::to_string(uniform(-4, 4)) + "> o " + pick({"0", "3", "smem_ptr[16b](unset)"}) + " o " +
               layout(depth - 1);
      case 7: return "Layout<" + cpp_tuple(depth) + ", " + cpp_tuple(depth) + ">{}";
      case 8:
        return std::string("upcast<") + pick({"16", "32", "8", "64", "4"}) + ">(ComposedLayout<Swizzle<" +
               pick({"3,4,3", "1,4,3", "0,4,3"}) + ">, smem_ptr_flag_bits<1>, " +
               pick({"Layout<Shape<_8,_1024>,Stride<_1024,_1>>", "Layout<Shape<_256,_8>,Stride<_1,_256>>"}) +
               ">{})";  // a GMMA atom, as lib spells it
      default: return call(depth);
    }
  }

  std::string mutate(std::string s) {
    int edits = uniform(1, 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      size_t at = static_cast<size_t>(uniform(0, static_cast<int>(s.size()) - 1));
      switch (uniform(0, 4)) {
        case 0: s.erase(at, static_cast<size_t>(uniform(1, 4))); break;
        case 1:
          s.insert(at, pick({"(", ")", ",", ":", "<", ">", "{}", "@", "-", "_", " o ", "\n", "\xff", "\x00",
                             "99999999999999999999", "0"}));
          break;
        case 2: s[at] = static_cast<char>(uniform(0, 255)); break;
        case 3: s.insert(at, s.substr(at, static_cast<size_t>(uniform(1, 12)))); break;
        default: s = s.substr(0, at); break;
      }
    }
    return s;
  }

 private:
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::string pick(std::initializer_list<const char*> xs) {
    return *(xs.begin() + uniform(0, static_cast<int>(xs.size()) - 1));
  }

  std::string int_tuple(int depth) {
    if (depth <= 0 || uniform(0, 2) == 0) return pick({"1", "2", "3", "4", "8", "16", "0", "-1", "6"});
    std::string s = "(";
    for (int i = 0, n = uniform(1, 3); i < n; ++i) s += (i ? "," : "") + int_tuple(depth - 1);
    return s + ")";
  }
  std::string cpp_tuple(int depth) {
    if (depth <= 0 || uniform(0, 2) == 0) return std::string("_") + pick({"1", "2", "4", "8"});
    std::string s = pick({"Shape<", "Stride<"});
    for (int i = 0, n = uniform(1, 3); i < n; ++i) s += (i ? "," : "") + cpp_tuple(depth - 1);
    return s + ">";
  }
  std::string layout(int depth) { return int_tuple(depth) + ":" + int_tuple(depth); }
  std::string tuple(int depth) {
    std::string s = "(";
    for (int i = 0, n = uniform(0, 3); i < n; ++i) s += (i ? "," : "") + expr(depth - 1);
    return s + ")";
  }
  std::string call(int depth) {
    std::string f = pick({"composition",
                          "complement",
                          "right_inverse",
                          "left_inverse",
                          "coalesce",
                          "filter",
                          "logical_divide",
                          "zipped_divide",
                          "tiled_divide",
                          "flat_divide",
                          "logical_product",
                          "blocked_product",
                          "raked_product",
                          "tile_to_shape",
                          "make_layout_tv",
                          "max_common_vector",
                          "max_common_layout",
                          "size",
                          "cosize",
                          "shape",
                          "get<1>",
                          "select<1,0>",
                          "group<0,2>",
                          "take<0,1>",
                          "upcast<2>",
                          "downcast<4>",
                          "crd2idx",
                          "idx2crd",
                          "make_layout",
                          "make_ordered_layout",
                          "make_layout_like",
                          "make_fragment_like",
                          "make_identity_layout",
                          "nullspace",
                          "flatten",
                          "append<3>",
                          "recast_layout<half_t,uint8_t>",
                          "coshape",
                          "zip",
                          "ceil_div",
                          "shape_div",
                          "slice",
                          "dice"});
    std::string s = f + "(";
    for (int i = 0, n = uniform(1, 3); i < n; ++i) s += (i ? ", " : "") + expr(depth - 1);
    return s + ")";
  }

  std::mt19937_64 rng_;
};

// Evaluate, touch the result like a caller would, and report anything but an Error.
std::string run_one(const std::string& text) {
  try {
    Value v = evaluate_expression(text);
    (void)v.to_string();
    if (v.is(Value::Kind::kLayout)) {
      const AnyLayout& l = v.any_layout();
      int64_t n = size(l);
      const Layout* plain = std::get_if<Layout>(&l);
      if (n > 0 && n <= 4096 && !(plain && has_basis(plain->stride))) (void)layout_values(l);
      (void)to_string(l, true);
    }
  } catch (const Error& e) {
    std::string m = e.what();
    if (m.empty()) return "empty message";
    if (m.find('\n') != std::string::npos) return "multi-line message: " + m;
    if (e.has_position() && e.position() > static_cast<int64_t>(text.size())) return "position past the end: " + m;
  } catch (const std::exception& e) {
    return std::string("not a cutevis::Error: ") + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("fuzz: generated and mutated expressions fail only with a one-line cutevis::Error") {
  // CUTEVIS_FUZZ_ITERATIONS / CUTEVIS_FUZZ_SEED run it longer (e.g. in an ASan/UBSan build)
  const char* iterations = std::getenv("CUTEVIS_FUZZ_ITERATIONS");
  const char* seed = std::getenv("CUTEVIS_FUZZ_SEED");
  const int total = iterations ? std::atoi(iterations) : 6000;
  ExprGen gen(seed ? std::strtoull(seed, nullptr, 0) : 0xf022);
  int ok = 0, failed = 0;
  for (int n = 0; n < total; ++n) {
    std::string text = gen.expr(4);
    if (n % 2) text = gen.mutate(text);
    CAPTURE(text);
    std::string problem = run_one(text);
    CHECK_MESSAGE(problem.empty(), problem);
    try {
      evaluate_expression(text);
      ++ok;
    } catch (const Error&) {
      ++failed;
    }
  }
  MESSAGE("fuzz: " << ok << " evaluated, " << failed << " rejected with an Error");
  CHECK(ok > total / 20);  // the grammar reaches real evaluations, not only syntax errors
}
