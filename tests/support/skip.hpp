// Visible skips for tests that need something the machine may lack (pdflatex,
// rsvg-convert, Cairo, a GPU).  Under ctest each doctest case runs in its own
// process with CUTEVIS_CTEST=1, and a skip exits with 77, which ctest reports as
// "Skipped" (never as passed).  Run by hand, the test prints SKIPPED and returns.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include <doctest/doctest.h>

namespace cutevis::test {

constexpr int kSkipExitCode = 77;

[[noreturn]] inline void skip_under_ctest(const std::string& reason) {
  std::fprintf(stderr, "SKIPPED: %s\n", reason.c_str());
  std::fflush(stderr);
  std::_Exit(kSkipExitCode);
}

inline bool under_ctest() { return std::getenv("CUTEVIS_CTEST") != nullptr; }

// The path of an external program, or "" when it is not on PATH.
inline std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string candidate = p.substr(start, end - start) + "/" + name;
    if (!candidate.empty() && std::system(("test -x '" + candidate + "'").c_str()) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

}  // namespace cutevis::test

// Skip the current test case, visibly.
#define CUTEVIS_SKIP(reason)                                                       \
  do {                                                                             \
    if (::cutevis::test::under_ctest()) ::cutevis::test::skip_under_ctest(reason); \
    MESSAGE("SKIPPED: " << (reason));                                              \
    return;                                                                        \
  } while (0)
