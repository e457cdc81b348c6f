// cutevis_bench_algebra — the reference algebra cases (algebra.jsonl, produced by real
// CuTe) through lib/, against pycute on the same cases where pycute can run them.
//
//   cutevis_bench_algebra [--reference DIR] [--pycute DIR] [--rounds N] [--python EXE]
//   valgrind --tool=callgrind --instr-atstart=no cutevis_bench_algebra --count N
//
// pycute (CUTLASS's python/pycute) is not part of this repository: give the folder that
// holds the `pycute` package with --pycute or CUTEVIS_PYCUTE (e.g. /tmp/cutlass/python);
// without it only cutevis is timed, and the report says so.
//
// Two timings for cutevis:
//  * op only: the operation on arguments parsed beforehand — what pycute is timed on
//    (its arguments are Python objects built beforehand too);
//  * text: parse + evaluate the whole expression, e.g. "composition((4,2):(1,4), 8:1)",
//    as the CLI does, for every case (pycute has no parser).
// Each round runs every case of an op, repeated until the round lasts >= 50 ms; the
// report gives the median over the rounds (per case, in ns) and min..max.
//
// --count N: no timing; each op's cases run exactly N times, one callgrind dump per op
// (named after it), so instruction counts per case can be compared between builds:
// on a shared, noisy machine they are the stable measure.  Outside valgrind the dumps
// are no-ops.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_DUMP_STATS_AT(name) (void)(name)
#endif

#include "lib/lang/expr.hpp"
#ifdef CUTEVIS_BENCH_ATOMS
#include "atoms/names.hpp"
#endif

using namespace cutevis;
using Clock = std::chrono::steady_clock;

namespace {

struct Case {
  std::string id, op;
  std::vector<std::string> args;  // CuTe's printed notation, no underscores
  std::string text;               // the whole expression
};

struct Stats {
  double median_ns = 0, min_ns = 0, max_ns = 0;
  size_t cases = 0;
};

volatile int64_t g_sink = 0;  // results feed it, so no call is optimized away

int64_t weight(const Value& v) {
  if (v.is(Value::Kind::kLayout)) return size(v.any_layout());
  if (v.is(Value::Kind::kInt)) return v.leaf().is_integer() ? v.leaf().value() : 1;
  return static_cast<int64_t>(v.elements().size());
}
int64_t weight(const AnyLayout& l) { return size(l); }
int64_t weight(const Layout& l) { return size(l); }
int64_t weight(int64_t x) { return x; }
int64_t weight(const IntTuple& t) { return static_cast<int64_t>(t.rank()); }

std::string expression_for(const nlohmann::json& row) {
  std::string op = row["op"];
  auto args = row["args_nous"].get<std::vector<std::string>>();
  if (op == "swizzle") return args[0];
  if (op == "gmma_atom")
    return "GMMA::" + row["spec"][0][1].get<std::string>() + "<" + row["spec"][0][2].get<std::string>() + ">{}";
  std::string e = op + "(";
  for (size_t i = 0; i < args.size(); ++i) e += (i ? ", " : "") + args[i];
  return e + ")";
}

// The operation on pre-parsed arguments, or an empty function when this op has no
// direct form here (it is still timed through the text).
std::function<int64_t()> direct(const Case& c) {
  std::vector<Value> a;
  for (const auto& s : c.args) a.push_back(evaluate_expression(s));
  const std::string& op = c.op;
  auto L = [&](size_t i) { return a.at(i).to_any_layout(); };
  auto P = [&](size_t i) { return a.at(i).to_layout(); };
  if (op == "coalesce" && a.size() == 1) return [x = L(0)] { return weight(coalesce(x)); };
  if (op == "filter" && a.size() == 1) return [x = L(0)] { return weight(filter(x)); };
  if (op == "right_inverse") return [x = L(0)] { return weight(right_inverse(x)); };
  if (op == "left_inverse") return [x = L(0)] { return weight(left_inverse(x)); };
  if (op == "size") return [x = L(0)] { return weight(size(x)); };
  if (op == "cosize") return [x = L(0)] { return weight(cosize(x)); };
  if (op == "complement" && a.size() == 1) return [x = L(0)] { return weight(complement(x)); };
  if (op == "complement") return [x = L(0), t = a[1].to_int_tuple()] { return weight(complement(x, t)); };
  if (op == "composition" && a[1].is(Value::Kind::kLayout))
    return [x = L(0), y = L(1)] { return weight(composition(x, y)); };
  if (op == "composition") return [x = L(0), t = a[1].to_tiler()] { return weight(composition(x, t)); };
  using TilerOp = AnyLayout (*)(const AnyLayout&, const Tiler&);
  static const std::map<std::string, TilerOp> tiler_ops = {
      {"logical_divide", &logical_divide}, {"zipped_divide", &zipped_divide},     {"tiled_divide", &tiled_divide},
      {"flat_divide", &flat_divide},       {"logical_product", &logical_product}, {"zipped_product", &zipped_product},
      {"tiled_product", &tiled_product},   {"flat_product", &flat_product}};
  if (auto it = tiler_ops.find(op); it != tiler_ops.end())
    return [f = it->second, x = L(0), t = a[1].to_tiler()] { return weight(f(x, t)); };
  if (op == "blocked_product") return [x = L(0), y = P(1)] { return weight(blocked_product(x, y)); };
  if (op == "raked_product") return [x = L(0), y = P(1)] { return weight(raked_product(x, y)); };
  if (op == "crd2idx" && a.size() == 3)
    return [c = a[0].to_int_tuple(), s = a[1].to_int_tuple(), d = a[2].to_int_tuple()] {
      return weight(crd2idx(c, s, d));
    };
  if (op == "idx2crd" && a.size() == 2)
    return [i = a[0].to_int_tuple(), s = a[1].to_int_tuple()] { return weight(idx2crd(i, s)); };
  if (op == "tile_to_shape" && a.size() == 2)
    return [x = L(0), s = a[1].to_int_tuple()] { return weight(tile_to_shape(x, s)); };
  if (op == "tile_to_shape")
    return [x = L(0), s = a[1].to_int_tuple(), o = a[2].to_int_tuple()] { return weight(tile_to_shape(x, s, o)); };
  if (op == "max_common_vector") return [x = L(0), y = L(1)] { return weight(max_common_vector(x, y)); };
  if (op == "max_common_layout") return [x = P(0), y = P(1)] { return weight(max_common_layout(x, y)); };
  if (op == "make_layout_like") return [x = P(0)] { return weight(make_layout_like(x)); };
  if (op == "make_ordered_layout")
    return [s = a[0].to_int_tuple(), o = a[1].to_int_tuple()] { return weight(make_ordered_layout(s, o)); };
  return {};
}

// Median time per call of `run` over `rounds` rounds of `n` calls each, repeated to >= 50 ms.
Stats time_rounds(size_t n, int rounds, const std::function<void()>& run_all) {
  using std::chrono::duration;
  int repeat = 1;
  for (;;) {
    auto t0 = Clock::now();
    for (int r = 0; r < repeat; ++r) run_all();
    if (duration<double>(Clock::now() - t0).count() >= 0.05) break;
    repeat *= 2;
  }
  std::vector<double> ns;
  for (int k = 0; k < rounds; ++k) {
    auto t0 = Clock::now();
    for (int r = 0; r < repeat; ++r) run_all();
    ns.push_back(duration<double, std::nano>(Clock::now() - t0).count() /
                 (static_cast<double>(repeat) * static_cast<double>(n)));
  }
  std::sort(ns.begin(), ns.end());
  Stats s;
  s.cases = n;
  s.median_ns = ns.size() % 2 ? ns[ns.size() / 2] : (ns[ns.size() / 2 - 1] + ns[ns.size() / 2]) / 2;
  s.min_ns = ns.front();
  s.max_ns = ns.back();
  return s;
}

std::string arg_value(int argc, char** argv, const std::string& flag, const char* env) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == flag) return argv[i + 1];
  const char* e = env ? std::getenv(env) : nullptr;
  return e ? e : "";
}

std::string fmt(double ns) {
  char b[32];
  if (ns >= 1e6) std::snprintf(b, sizeof b, "%.2f ms", ns / 1e6);
  else if (ns >= 1e3) std::snprintf(b, sizeof b, "%.2f us", ns / 1e3);
  else std::snprintf(b, sizeof b, "%.0f ns", ns);
  return b;
}

// --count: every op's direct cases `n` times, one callgrind dump per op.
int count_instructions(const std::vector<Case>& cases, int n) {
  std::map<std::string, std::vector<std::function<int64_t()>>> by_op;
  for (const auto& c : cases) {
    try {
      if (auto f = direct(c)) {
        (void)f();
        by_op[c.op].push_back(std::move(f));
      }
    } catch (const Error&) {
    }
  }
  CALLGRIND_START_INSTRUMENTATION;
  CALLGRIND_DUMP_STATS_AT("setup");
  for (auto& [op, fns] : by_op) {
    for (int r = 0; r < n; ++r)
      for (auto& f : fns) g_sink = g_sink + f();
    CALLGRIND_DUMP_STATS_AT(op.c_str());
    std::printf("%-18s %6zu cases x %d\n", op.c_str(), fns.size(), n);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string ref = arg_value(argc, argv, "--reference", "CUTEVIS_REFERENCE_DIR");
  if (ref.empty()) ref = CUTEVIS_REFERENCE_DIR;
  std::string pycute = arg_value(argc, argv, "--pycute", "CUTEVIS_PYCUTE");
  std::string python = arg_value(argc, argv, "--python", nullptr);
  if (python.empty()) python = "python3";
  std::string rounds_s = arg_value(argc, argv, "--rounds", nullptr);
  int rounds = rounds_s.empty() ? 15 : std::max(1, std::atoi(rounds_s.c_str()));

#ifdef CUTEVIS_BENCH_ATOMS
  register_mma_names(default_registry());  // GMMA::Layout_*_Atom<T>{} cases
#endif
  std::vector<Case> cases;
  {
    std::ifstream in(ref + "/algebra.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      auto row = nlohmann::json::parse(line);
      Case c;
      c.id = row["id"];
      c.op = row["op"];
      c.args = row["args_nous"].get<std::vector<std::string>>();
      c.text = expression_for(row);
      cases.push_back(std::move(c));
    }
  }
  if (cases.empty()) {
    std::fprintf(stderr, "cutevis_bench_algebra: no cases in %s/algebra.jsonl\n", ref.c_str());
    return 2;
  }

  std::string count_s = arg_value(argc, argv, "--count", nullptr);
  if (!count_s.empty()) return count_instructions(cases, std::max(1, std::atoi(count_s.c_str())));

  // 1. cutevis, the whole text (parse + evaluate), every case
  Stats text = time_rounds(cases.size(), rounds, [&] {
    for (const auto& c : cases) g_sink = g_sink + weight(evaluate_expression(c.text));
  });

  // 2. cutevis, op only, per op
  std::map<std::string, std::vector<std::pair<std::string, std::function<int64_t()>>>> by_op;
  for (const auto& c : cases) {
    try {
      if (auto f = direct(c)) {
        (void)f();  // a case the direct form cannot take (a swizzle argument, ...) stays text-only
        by_op[c.op].emplace_back(c.id, std::move(f));
      }
    } catch (const Error&) {
    }
  }

  // 3. pycute, op only, on the cases it can run
  nlohmann::json py;
  std::string py_status;
  if (pycute.empty()) {
    py_status =
        "pycute: ABSENT (give --pycute DIR or CUTEVIS_PYCUTE=DIR, the folder holding the pycute package, e.g. "
        "CUTLASS's python/); cutevis timed alone";
  } else {
    std::string list = "/tmp/cutevis_bench_cases_" + std::to_string(::getpid()) + ".tsv";
    {
      std::ofstream out(list);
      for (const auto& c : cases) {
        out << c.id << '\t' << c.op;
        for (const auto& a : c.args) out << '\t' << a;
        out << '\n';
      }
    }
    std::string script = std::string(CUTEVIS_SOURCE_DIR) + "/tests/bench/pycute_algebra.py";
    std::string cmd = python + " '" + script + "' --pycute '" + pycute + "' --cases '" + list + "' --rounds " +
                      std::to_string(rounds);
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
      int rc = pclose(p);
      if (rc != 0) py_status = "pycute: FAILED (" + cmd + " exited with " + std::to_string(rc) + ")";
    }
    std::remove(list.c_str());
    if (py_status.empty()) {
      try {
        py = nlohmann::json::parse(out);
        py_status = "pycute: " + pycute + " (" + std::to_string(py["ok_ids"].size()) +
                    " cases it runs; the others assert or have no pycute op)";
      } catch (const std::exception&) {
        py_status = "pycute: FAILED (unreadable output from " + cmd + ")";
      }
    }
  }
  std::set<std::string> py_ids;
  if (py.contains("ok_ids"))
    for (const auto& id : py["ok_ids"]) py_ids.insert(id.get<std::string>());

  std::printf("cutevis_bench_algebra: %zu cases of %s/algebra.jsonl, %d rounds, median [min..max] per case\n",
              cases.size(), ref.c_str(), rounds);
  std::printf("%s\n\n", py_status.c_str());
  std::printf("%-18s %6s  %-28s %6s  %-30s %9s\n", "op", "cases", "cutevis op only", "common", "pycute op only",
              "speedup");
  double total_ours = 0, total_py = 0;
  size_t total_common = 0;
  for (auto& [op, fns] : by_op) {
    std::vector<std::function<int64_t()>*> all, common;
    for (auto& [id, f] : fns) {
      all.push_back(&f);
      if (py_ids.count(id)) common.push_back(&f);
    }
    Stats ours = time_rounds(all.size(), rounds, [&] {
      for (auto* f : all) g_sink = g_sink + (*f)();
    });
    std::string line = fmt(ours.median_ns) + " [" + fmt(ours.min_ns) + ".." + fmt(ours.max_ns) + "]";
    if (!common.empty() && py["ops"].contains(op)) {
      // the same cases for both: time ours again on exactly pycute's subset
      Stats same = time_rounds(common.size(), rounds, [&] {
        for (auto* f : common) g_sink = g_sink + (*f)();
      });
      const auto& p = py["ops"][op];
      double pns = p["median_ns"].get<double>();
      std::string pl = fmt(pns) + " [" + fmt(p["min_ns"].get<double>()) + ".." + fmt(p["max_ns"].get<double>()) + "]";
      std::printf("%-18s %6zu  %-28s %6zu  %-30s %8.0fx\n", op.c_str(), all.size(), line.c_str(), common.size(),
                  pl.c_str(), pns / same.median_ns);
      total_ours += same.median_ns * static_cast<double>(common.size());
      total_py += pns * static_cast<double>(common.size());
      total_common += common.size();
    } else {
      const char* why = pycute.empty() ? "(pycute absent)" : "(no pycute op or case)";
      std::printf("%-18s %6zu  %-28s %6s  %-30s %9s\n", op.c_str(), all.size(), line.c_str(), "-", why, "-");
    }
  }
  std::printf("\ncutevis, parse + evaluate the whole text: %s per case [%s..%s] over all %zu cases\n",
              fmt(text.median_ns).c_str(), fmt(text.min_ns).c_str(), fmt(text.max_ns).c_str(), cases.size());
  if (total_common > 0)
    std::printf(
        "common cases (%zu): cutevis %s, pycute %s per case on average: %.0fx pycute's throughput (goal >= 100x)\n",
        total_common, fmt(total_ours / static_cast<double>(total_common)).c_str(),
        fmt(total_py / static_cast<double>(total_common)).c_str(), total_py / total_ours);
  return 0;
}
