// Run the built `cutevis` binary and capture what it prints and its exit code.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace cutevis::test {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string cutevis_binary() { return std::string(CUTEVIS_BINARY_DIR) + "/bin/cutevis"; }

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `cutevis ARGS...` with stdout and stderr captured into temporary files.
inline RunResult run_cutevis(const std::vector<std::string>& args, const std::string& env = "") {
  static int counter = 0;
  std::string base = "/tmp/cutevis_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  std::string cmd = env + (env.empty() ? "" : " ") + shell_quote(cutevis_binary());
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + base + ".out 2>" + base + ".err </dev/null";
  int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  auto slurp = [](const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

}  // namespace cutevis::test
