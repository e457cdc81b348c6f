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
  // CUTLASS's three-argument form sets d to 4 without --depth (val = _default first): not its initializer
  for (const char* other : {"d", "p", "q", "r", "t", "u", "v", "x"}) {
    CAPTURE(other);
    CHECK(w.at(other).empty());
  }
}

TEST_CASE("an if / else-if / else chain among main's own statements: each plain `x = E;` in one of its branches") {
  std::map<std::string, LocalWrite> w;
  for (const FunctionDefinition& f : read_kernels(R"(
int main(int argc, char** argv) {
  char t = 'N';
  int a = 0, b = 0, c = 0, d = 0, e = 0, g = 0, h = 0;
  if (t == 'N') {
    a = m;
  } else if (t == 'T') {
    a = k;
    { b = 1; }
  } else {
    assert(false);
  }
  if (t == 'N') c = 2; else c = 3;
  for (int i = 0; i < 2; ++i) if (t == 'N') d = 1;
  if (t == 'N') { for (;;) e = 1; }
  if (t == 'N') { g = h = 1; }
  return 0;
}
)",
                                                  "m.cu")
                                         .functions)
    for (const LocalWrite& x : f.writes) w.try_emplace(x.name + (x.branch ? std::to_string(x.branch) : ""), x);
  const LocalWrite& a = w.at("a");
  REQUIRE(a.chain.size() == 3);
  CHECK(a.chain[0].condition == "t == 'N'");
  CHECK(a.chain[0].line == 5);
  CHECK(a.chain[1].condition == "t == 'T'");
  CHECK(a.chain[2].condition.empty());  // the closing else
  CHECK(a.chain[2].fails);              // assert(false)
  CHECK_FALSE(a.chain[0].fails);
  CHECK(a.assigned == "m");
  CHECK(w.at("a1").assigned == "k");
  CHECK(w.at("a1").branch == 1);
  CHECK(w.at("c").chain.size() == 2);  // without braces
  CHECK(w.at("c1").assigned == "3");
  for (const char* other : {"b", "d", "e", "g"}) {  // a block in a branch, a loop's if, a loop in a branch, a = b = 1
    CAPTURE(other);
    CHECK(w.at(other).chain.empty());
  }
}
