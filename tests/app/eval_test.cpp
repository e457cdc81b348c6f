// `cutevis eval`: the text answer, the JSON contract, and bad input (exit 2, caret).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
using nlohmann::json;

TEST_CASE("eval prints CuTe notation without underscores") {
  CHECK(run_eval({"composition((4,8):(1,4), (2,2):(1,2))", false}).bytes == "(2,2):(1,2)\n");
  CHECK(run_eval({"Layout<Shape<_4,_8>, Stride<_1,_4>>{}", false}).bytes == "(4,8):(1,4)\n");
  CHECK(run_eval({"make_layout(make_shape(Int<4>{},Int<8>{}), LayoutRight{})", false}).bytes == "(4,8):(8,1)\n");
  // ...unless the result holds a dynamic integer (in C++, the `8` beside Int<4>{} is a run-time
  // int): then it prints exactly as CuTe's print does, so pasting it back gives the same value
  CHECK(run_eval({"make_layout(make_shape(Int<4>{},8), LayoutRight{})", false}).bytes == "(_4,8):(8,_1)\n");
  CHECK(run_eval({"complement(4:2, 32)", false}).bytes == "(2,4):(1,8)\n");
  CHECK(run_eval({"idx2crd(5, (4,4))", false}).bytes == "(1,1)\n");
  CHECK(run_eval({"crd2idx(7, 8, 1)", false}).bytes == "7\n");
  CHECK(run_eval({"make_identity_layout((4,8))", false}).bytes == "(4,8):(1@0,1@1)\n");
}

TEST_CASE("eval --json follows the documented contract") {
  json j = json::parse(run_eval({"((4,2),4):((8,4),1)", true}).bytes);
  CHECK(j["kind"] == "layout");
  CHECK(j["text"] == "((4,2),4):((8,4),1)");
  CHECK(j["size"] == 32);
  CHECK(j["cosize"] == 32);
  REQUIRE(j["values"].size() == 32);
  CHECK(j["values"][1] == 8);  // (1,0) -> 8
  CHECK(j["values"][4] == 4);  // ((0,1),0) -> 4
  CHECK(j["values"][8] == 1);  // ((0,0),1) -> 1

  json i = json::parse(run_eval({"cosize((4,8):(8,1))", true}).bytes);
  CHECK(i["kind"] == "int");
  CHECK(i["value"] == 32);

  json c = json::parse(run_eval({"S<3,4,3> o 0 o (8,64):(64,1)", true}).bytes);
  CHECK(c["kind"] == "composed_layout");
  CHECK(c["size"] == 512);
  REQUIRE(c["values"].size() == 512);
  CHECK(c["values"][1] == 64);          // (1,0) -> 64: bit 6, nothing in YYY (bits 7..9)
  CHECK(c["values"][2] == (128 ^ 16));  // (2,0) -> 128: bit 7 XORs into bit 4
  CHECK(c["values"][8] == 1);           // (0,1) -> 1
}

TEST_CASE("cutevis eval: bad input is one error line, a caret, and exit 2") {
  struct Case {
    const char* expr;
    const char* message;
    size_t caret;  // column of ^ under the expression
  };
  const Case cases[] = {
      {"((4,2),4:((8,4),1)", "unbalanced '('", 0},
      {"(4,8):(1,4,2)", "not congruent", 6},
      {"frobnicate(4:1)", "unknown function 'frobnicate'", 0},
      {"composition(4:1)", "takes 2 to 3 arguments, got 1", 0},
      {"(4,-1):(1,4)", "negative extent", 0},
      {"size((1000000000,1000000000,1000000000))", "overflow", 0},
      {"(4,8):(1,4) garbage", "trailing", 12},
      {"(4,8):(1,4))", "unbalanced ')'", 11},
      {"caf\xc3\xa9", "non-ASCII", 3},
  };
  for (const auto& c : cases) {
    CAPTURE(c.expr);
    std::string expr = c.expr;
    size_t esc;
    while ((esc = expr.find("\\x")) != std::string::npos)
      expr.replace(esc, 4, std::string(1, static_cast<char>(std::stoi(expr.substr(esc + 2, 2), nullptr, 16))));
    auto r = test::run_cutevis({"eval", expr});
    CHECK(r.exit_code == kExitBadInput);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("cutevis: error: ", 0) == 0);
    CHECK(r.err.find(c.message) != std::string::npos);
    // third line: two spaces, then the caret at the bad spot
    size_t l2 = r.err.find('\n', r.err.find('\n') + 1);
    REQUIRE(l2 != std::string::npos);
    std::string caret_line = r.err.substr(l2 + 1);
    CHECK(caret_line.find('^') == c.caret + 2);
  }
}

TEST_CASE("cutevis eval: absurd nesting is an error, not a crash") {
  std::string deep(100000, '(');
  auto r = test::run_cutevis({"eval", deep});
  CHECK(r.exit_code == kExitBadInput);
  CHECK(r.err.find("nested too deeply") != std::string::npos);
}

TEST_CASE("cutevis: -o writes the file atomically and leaves nothing on failure") {
  std::string dir = "/tmp/cutevis_out_test_" + std::to_string(::getpid());
  std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str());
  auto ok = test::run_cutevis({"eval", "(4,8):(1,4)", "-o", dir + "/a.txt"});
  CHECK(ok.exit_code == 0);
  CHECK(test::run_cutevis({"eval", "--help"}).exit_code == 0);
  std::ifstream in(dir + "/a.txt");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "(4,8):(1,4)\n");
  auto bad = test::run_cutevis({"eval", "(4,8):(1,4", "-o", dir + "/b.txt"});
  CHECK(bad.exit_code == kExitBadInput);
  // a missing folder is created now (issue 12); a parent that is a file cannot be
  auto nodir = test::run_cutevis({"eval", "(4,8):(1,4)", "-o", dir + "/a.txt/c.txt"});
  CHECK(nodir.exit_code == kExitIoError);
  std::string listing;
  FILE* ls = popen(("ls -A " + dir).c_str(), "r");
  char buf[256];
  while (fgets(buf, sizeof buf, ls)) listing += buf;
  pclose(ls);
  CHECK(listing == "a.txt\n");  // no b.txt, no temporary files
  std::system(("rm -rf " + dir).c_str());
}
