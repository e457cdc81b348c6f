// `cutevis batch`: every picture of a spec written, errors name the entry.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/batch.hpp"
#include "lib/error.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

TEST_CASE("batch draws every picture of a spec and names a bad entry, writing nothing then") {
  fs::path dir = fs::temp_directory_path() / ("cutevis_batch_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "spec.json") << R"J({"pictures": [
    {"command": "atom", "input": "SM70_8x8x4_F32F16F16F32_NT", "format": "tex", "style": "cute", "output": "a/sm70.tex"},
    {"command": "layout", "input": "((4,2),4):((8,4),1)", "format": "svg", "output": "layout.svg"},
    {"command": "tv", "input": "((4,8),4):((8,1),32)", "tile": "(32,4)", "format": "json", "output": "tv.json"}]})J";
  BatchResult r = run_batch((dir / "spec.json").string(), (dir / "out").string());
  REQUIRE(r.written.size() == 3);
  // CuTe style is CuTe's own output, byte for byte
  CHECK(test::read_file((dir / "out/a/sm70.tex").string()) ==
        test::read_file(test::reference_dir() + "/latex/SM70_8x8x4_F32F16F16F32_NT.tex"));
  CHECK(test::read_file((dir / "out/layout.svg").string()).find("<svg") != std::string::npos);
  CHECK(test::read_file((dir / "out/tv.json").string()).find("\"owners\"") != std::string::npos);

  std::ofstream(dir / "bad.json") << R"J({"pictures": [
    {"command": "layout", "input": "(4,8):(1,4)", "format": "txt", "output": "ok.txt"},
    {"command": "atom", "input": "SM80_NOPE", "format": "svg", "output": "nope.svg"}]})J";
  try {
    run_batch((dir / "bad.json").string(), (dir / "out2").string());
    FAIL("a bad entry must throw");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("\n  pictures[1] (atom SM80_NOPE): ") != std::string::npos);
  }
  CHECK(!fs::exists(dir / "out2/ok.txt"));  // all or nothing: the good entry is not written either
  CHECK(!fs::exists(dir / "out2/nope.svg"));
  CHECK_THROWS_AS(run_batch((dir / "missing.json").string(), dir.string()), Error);
  fs::remove_all(dir);
}
