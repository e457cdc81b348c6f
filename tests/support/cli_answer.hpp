// What one command line answered: its exit code, stdout and stderr (tests/app/cli_reuse_test.cpp,
// tests/app/cli_lite_test.cpp), printed whole enough to see where two answers part.
#pragma once

#include <ostream>
#include <string>

namespace cutevis::test {

struct CliAnswer {
  int code;
  std::string out, err;
  bool operator==(const CliAnswer&) const = default;
};

inline std::ostream& operator<<(std::ostream& os, const CliAnswer& a) {
  return os << "exit " << a.code << "\n--- stdout (" << a.out.size() << " bytes)\n"
            << a.out.substr(0, 3000) << "\n--- stderr\n"
            << a.err;
}

}  // namespace cutevis::test
