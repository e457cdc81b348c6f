// Which writes to a host local only read the program's command line (LocalWrite::command_line,
// lib/lang/kernel_body.cpp): those make the local's initializer its default problem size.
#include <doctest/doctest.h>

#include <map>

#include "lib/lang/kernel_body.hpp"

using namespace cutevis;

namespace {

// name -> the command_line of its (first) write in `main`
std::map<std::string, std::string> writes_of(const std::string& text) {
  std::map<std::string, std::string> out;
  for (const FunctionDefinition& f : read_kernels(text, "m.cu").functions)
    if (f.name == "main")
      for (const LocalWrite& w : f.writes) out.try_emplace(w.name, w.command_line);
  return out;
}

}  // namespace

TEST_CASE("command-line reads: sscanf of argv, atoi-style conversions, cutlass::CommandLine; nothing else") {
  const auto w = writes_of(R"(
int main(int argc, char const** args) {
  int m = 1; if (argc >= 2) sscanf(args[1], "%d", &m);
  int n = 1; if (argc >= 3) std::sscanf(args[2], "%d", &n);
  int k = 1; k = atoi(args[3]);
  int l = 1; l = std::stol(std::string(args[4]));
  int s = 1; s = strtol(args[5], nullptr, 10);
  int c = 1; cmd.get_cmd_line_argument("c", c);
  int d = 1; cmd.get_cmd_line_argument("depth", d, 4);
  int p = 1; parse(argc, args, &p);
  int q = 1; q = atoi(args[1]) * 2;
  int r = 1; r = atoi(other[1]);
  int t = 1; sscanf(line, "%d", &t);
  int u = 1; mine::sscanf(args[1], "%d", &u);
  int v = 1; v = m;
  int x = 1; ++x;
  return 0;
}
)");
  CHECK(w.at("m") == "args[1]");  // main's second parameter, whatever its name
  CHECK(w.at("n") == "args[2]");
  CHECK(w.at("k") == "args[3]");
  CHECK(w.at("l") == "args[4]");
  CHECK(w.at("s") == "args[5]");
  CHECK(w.at("c") == "--c");
  CHECK(w.at("d") == "--depth");
  for (const char* other : {"p", "q", "r", "t", "u", "v", "x"}) {
    CAPTURE(other);
    CHECK(w.at(other).empty());
  }
}
