// issue 23.4: the page `cutevis ... --html` writes, opened with hostile #threads=
// fragments in headless Chromium (tests/browser/threads_hash.mjs over cdp.mjs): a
// malformed % escape must not stop its script, and a list of 1,000,000 entries must cost
// it bounded work.  Skipped (visibly) without chromium or node.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "tests/support/run.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser"})
    if (std::string p = test::find_program(name); !p.empty()) return p;
  return "";
}

// What threads_hash.mjs saw for each fragment, in order.
nlohmann::json open_with(const fs::path& page, const fs::path& dir, const std::vector<std::string>& fragments) {
  std::string cmd = test::shell_quote(test::find_program("node")) + " " +
                    test::shell_quote(std::string(CUTEVIS_SOURCE_DIR) + "/tests/browser/threads_hash.mjs") + " " +
                    test::shell_quote(chromium()) + " " + test::shell_quote(page.string());
  for (size_t i = 0; i < fragments.size(); ++i) {
    const fs::path f = dir / ("fragment" + std::to_string(i) + ".txt");
    std::ofstream(f, std::ios::binary) << fragments[i];
    cmd += " " + test::shell_quote(f.string());
  }
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  pclose(pipe);
  const size_t line = out.rfind("\n[");
  auto j = nlohmann::json::parse(out.substr(line == std::string::npos ? 0 : line + 1), nullptr, false);
  REQUIRE_MESSAGE(j.is_array(), out);
  REQUIRE_MESSAGE(j.size() == fragments.size(), out);
  for (const auto& r : j) REQUIRE_MESSAGE(!r.contains("error"), out);
  return j;
}

}  // namespace

TEST_CASE("issue 23.4: the HTML page draws and answers with a malformed or a 1,000,000-entry #threads=") {
  if (chromium().empty()) CUTEVIS_SKIP("chromium not installed (scripts/setup.sh installs it)");
  if (test::find_program("node").empty()) CUTEVIS_SKIP("node not installed");
  const fs::path dir = fs::temp_directory_path() / ("cutevis_hash_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path page = dir / "x.html";
  REQUIRE(test::run_cutevis({"atom", "SM80_16x8x16_F32F16F16F32_TN", "--html", "-o", page.string()}).exit_code ==
          kExitOk);

  std::string huge = "#threads=";  // 1,000,000 entries, 0-9 over and over: 2 MB, under Chromium's URL limit
  for (int i = 0; i < 1'000'000; ++i) huge += std::to_string(i % 10) + (i + 1 < 1'000'000 ? "," : "");
  const std::vector<std::string> fragments = {
      "#threads=0,5",          // 0: the controls
      "#threads=0-9",          // 1
      "#threads=%E0%A4%A",     // 2: a malformed escape (decodeURIComponent throws URIError)
      "#threads=0,5%E0%A4%A",  // 3: the threads before it still count
      huge,                    // 4
      "#threads=0-999999999",  // 5: a range far past the atom's 32 threads
  };
  const nlohmann::json r = open_with(page, dir, fragments);
  for (size_t i = 0; i < r.size(); ++i) {
    CAPTURE(i);
    CAPTURE(r[i].dump().substr(0, 600));
    CHECK(r[i]["exceptions"].empty());  // the script ran to the end
    REQUIRE(r[i]["ready"].get<bool>());
    CHECK(r[i]["cells"].get<int64_t>() == 512);  // A 16x16 + B 8x16 + C 16x8, every cell drawn
    CHECK(r[i]["drawn"] == r[i]["cells"]);
    // and it answers: a click on a cell of thread 5 highlights thread 5 alone, in under a second
    CHECK(r[i]["found_thread_5"].get<bool>());
    CHECK(r[i]["click_hash"].get<std::string>() == "#threads=5");
    CHECK(r[i]["click_highlighted"] == r[0]["click_highlighted"]);
    CHECK(r[i]["click_ms"].get<double>() < 1000);
  }
  CHECK(r[0]["highlighted"].get<int64_t>() > 0);
  CHECK(r[1]["highlighted"].get<int64_t>() > r[0]["highlighted"].get<int64_t>());
  CHECK(r[2]["highlighted"].get<int64_t>() == 0);
  CHECK(r[3]["highlighted"] == r[0]["highlighted"]);
  CHECK(r[4]["highlighted"] == r[1]["highlighted"]);  // the list read up to its first 4096 characters
  CHECK(r[4]["hash_chars"].get<int64_t>() == std::string("#threads=0-9").size());  // and the URL shortened
  CHECK(r[5]["highlighted"].get<int64_t>() == 512);  // every cell: capped at the atom's threads
  // The page's own script (from its first line to ready): well under a second for the short
  // fragments.  With the 2 MB fragment Chromium's handling of the URL dominates (a page with
  // no script takes seconds to open with it); the page reads location once and shortens it once.
  for (size_t i : {0, 1, 2, 3, 5}) CHECK(r[i]["script_ms"].get<double>() < 1000);
  CHECK(r[4]["script_ms"].get<double>() < 3000);
  MESSAGE("script ms: short fragments " << r[0]["script_ms"] << ", malformed " << r[2]["script_ms"]
                                        << ", 1,000,000 entries " << r[4]["script_ms"] << " (open to ready "
                                        << r[4]["ready_ms"] << " ms); click answered in " << r[4]["click_ms"] << " ms");
  fs::remove_all(dir);
}
