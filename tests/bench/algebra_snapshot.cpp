// cutevis_algebra_snapshot — every result the algebra gives on a fixed set of inputs,
// one line each, so that a refactor of lib/ can be shown to change no answer:
//
//   cutevis_algebra_snapshot [--reference DIR] [--random N] [--skip I,J,...] > before.txt
//   ... change lib/ ...
//   cutevis_algebra_snapshot [--reference DIR] [--random N] > after.txt && cmp before.txt after.txt
//
// Inputs: every string field of tests/data/*.jsonl and of the reference *.jsonl (each
// evaluated as an expression, most of them fail, and their errors are results too),
// the reference algebra cases as expressions, the expression fuzz corpus, and N random
// expressions (a fixed seed: the same N gives the same expressions on every machine)
// over the algebra's operations with static, dynamic, negative and basis strides.
// Each line: the input, then `=>` and CuTe's print of the value (with warnings), or
// `!!` and the error's message.  A crash leaves its input as the last line; --skip
// names random cases to leave out (to compare with a build that crashes on them).
// Not a test: it has no expected answers of its own.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "atoms/names.hpp"
#include "lib/error.hpp"
#include "lib/lang/expr.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

void run(const std::string& label, const std::string& text) {
  std::printf("%s %s ", label.c_str(), text.c_str());
  std::fflush(stdout);  // a crash leaves the input that caused it as the last line
  std::string out;
  try {
    std::vector<Warning> warnings;
    Value v = evaluate_expression(text, warnings);
    out = "=> " + v.to_cute_string();
    for (const auto& w : warnings) out += " [warning@" + std::to_string(w.position) + ": " + w.message + "]";
  } catch (const Error& e) {
    out = std::string("!! ") + e.what();
  }
  std::printf("%s\n", out.c_str());
}

void strings_of(const nlohmann::json& j, std::vector<std::string>& out) {
  if (j.is_string()) out.push_back(j.get<std::string>());
  else if (j.is_array() || j.is_object())
    for (const auto& x : j) strings_of(x, out);
}

void jsonl_file(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    nlohmann::json row;
    try {
      row = nlohmann::json::parse(line);
    } catch (const std::exception&) {
      continue;
    }
    std::vector<std::string> texts;
    strings_of(row, texts);
    std::string label = p.filename().string() + ":" + std::to_string(n);
    for (const auto& t : texts)
      if (t.size() < 2000 && t.find('\n') == std::string::npos) run(label, t);
    if (row.is_object() && row.contains("op") && row["op"].is_string()) {  // op(args...) as an expression
      for (const char* key : {"args", "args_nous"}) {
        if (!row.contains(key) || !row[key].is_array()) continue;
        std::string e = row["op"].get<std::string>() + "(";
        bool first = true;
        for (const auto& a : row[key]) {
          if (!a.is_string()) continue;
          e += (first ? "" : ", ") + a.get<std::string>();
          first = false;
        }
        run(label + ":" + key, e + ")");
      }
    }
  }
}

std::vector<fs::path> sorted_files(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && (ext.empty() || e.path().extension() == ext)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// --- random expressions -----------------------------------------------------------------

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  int pick(int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return pick(100) < percent; }
  bool dynamic_ok = false;

  std::string num(int64_t v) { return (dynamic_ok && chance(15) ? "" : "_") + std::to_string(v); }
  std::string shape_leaf() {
    static const int64_t vals[] = {1, 1, 2, 2, 2, 3, 4, 4, 4, 6, 8, 8, 16, 32};
    return num(vals[pick(14)]);
  }
  std::string stride_leaf() {
    static const int64_t vals[] = {0, 1, 1, 1, 2, 2, 4, 4, 8, 16, 32, 64, 3, 6, -1, -2, 12, 24};
    return num(vals[pick(18)]);
  }
  // a shape and a congruent stride, rank 1..3, depth <= 2
  void layout_parts(std::string& s, std::string& d, int depth) {
    if (depth == 0 || chance(45)) {
      s = shape_leaf();
      d = stride_leaf();
      return;
    }
    int r = 1 + pick(3);
    s = "(";
    d = "(";
    for (int i = 0; i < r; ++i) {
      std::string a, b;
      layout_parts(a, b, depth - 1);
      s += (i ? "," : "") + a;
      d += (i ? "," : "") + b;
    }
    s += ")";
    d += ")";
  }
  std::string layout(int depth = 2) {
    std::string s, d;
    layout_parts(s, d, depth);
    if (chance(10)) return s;  // a shape as a column-major layout
    return s + ":" + d;
  }
  std::string compact_layout() {  // injective more often: a compact layout, maybe permuted
    std::string s, d;
    layout_parts(s, d, 1);
    int k = pick(3);
    if (k == 0) return "make_layout(" + s + ")";
    if (k == 1) return "make_layout(" + s + ", LayoutRight{})";
    return s + ":" + d;
  }
  std::string tiler() {
    int k = pick(4);
    if (k == 0) return layout(1);
    if (k == 1) return shape_leaf();
    std::string t = "make_tile(";
    int r = 1 + pick(2);
    for (int i = 0; i < r; ++i)
      t += std::string(i ? ", " : "") + (chance(15) ? "_" : (chance(50) ? shape_leaf() : layout(1)));
    return t + ")";
  }
  std::string expression() {
    dynamic_ok = chance(25);
    switch (pick(24)) {
      case 0: return "coalesce(" + layout() + ")";
      case 1: return "filter(" + layout() + ")";
      case 2: return "composition(" + layout() + ", " + layout() + ")";
      case 3: return "composition(" + compact_layout() + ", " + tiler() + ")";
      case 4: return "complement(" + layout() + ")";
      case 5: return "complement(" + layout() + ", " + shape_leaf() + ")";
      case 6: return "right_inverse(" + layout() + ")";
      case 7: return "left_inverse(" + compact_layout() + ")";
      case 8: return "logical_divide(" + layout() + ", " + tiler() + ")";
      case 9: return "zipped_divide(" + compact_layout() + ", " + tiler() + ")";
      case 10: return "tiled_divide(" + layout() + ", " + tiler() + ")";
      case 11: return "flat_divide(" + compact_layout() + ", " + tiler() + ")";
      case 12: return "logical_product(" + layout(1) + ", " + tiler() + ")";
      case 13: return "zipped_product(" + compact_layout() + ", " + tiler() + ")";
      case 14: return "tiled_product(" + layout(1) + ", " + tiler() + ")";
      case 15: return "blocked_product(" + compact_layout() + ", " + compact_layout() + ")";
      case 16: return "raked_product(" + compact_layout() + ", " + compact_layout() + ")";
      case 17: return "tile_to_shape(" + compact_layout() + ", make_shape(" + shape_leaf() + "," + shape_leaf() + "))";
      case 18: return "max_common_vector(" + compact_layout() + ", " + compact_layout() + ")";
      case 19: return "max_common_layout(" + compact_layout() + ", " + compact_layout() + ")";
      case 20: return "cosize(" + layout() + ")";
      case 21:
        return "composition(make_identity_layout(make_shape(" + shape_leaf() + "," + shape_leaf() + ")), " + layout(1) +
               ")";
      case 22: return "make_layout_tv(" + compact_layout() + ", " + compact_layout() + ")";
      default: return "coalesce(" + layout() + ", make_shape(" + shape_leaf() + "," + shape_leaf() + "))";
    }
  }
};

std::string arg(int argc, char** argv, const std::string& flag, const std::string& fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == flag) return argv[i + 1];
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path source = CUTEVIS_SOURCE_DIR;
  const fs::path reference = arg(argc, argv, "--reference", CUTEVIS_REFERENCE_DIR);
  const long random = std::stol(arg(argc, argv, "--random", "100000"));
  Registry& registry = default_registry();
  register_mma_names(registry);
  register_copy_names(registry);
  register_cpp_atom_names(registry);
  register_dsl_names(registry);

  for (const auto& p : sorted_files(source / "tests/data", ".jsonl")) jsonl_file(p);
  for (const auto& p : sorted_files(reference, ".jsonl")) jsonl_file(p);
  for (const auto& p : sorted_files(source / "tests/fuzz/corpus/expression", "")) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string bytes = ss.str();
    if (bytes.empty()) continue;
    std::string expr =
        bytes.substr(1, bytes.find('\x1f', 1) == std::string::npos ? std::string::npos : bytes.find('\x1f', 1) - 1);
    run("corpus:" + p.filename().string(), expr);
  }
  std::set<long> skip;  // random cases that crash the build being compared (each a bug), by index
  for (std::stringstream list(arg(argc, argv, "--skip", "")); list.good();) {
    std::string item;
    std::getline(list, item, ',');
    if (!item.empty()) skip.insert(std::stol(item));
  }
  Gen gen(20261123);
  for (long i = 0; i < random; ++i) {
    std::string text = gen.expression();
    if (skip.count(i)) std::printf("random:%ld %s skipped\n", i, text.c_str());
    else run("random:" + std::to_string(i), text);
  }
  return 0;
}
