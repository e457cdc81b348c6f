// The HTML page in a real browser: headless Chromium (Debian's chromium package)
// driven over the DevTools protocol by tests/browser/drive.mjs (Node, no npm
// package).  It loads the page with #threads=0,5, hovers, clicks a cell, types
// threads, recolours, zooms and saves a screenshot; the counts of highlighted cells
// are checked against the scene's own ownership.  Skipped (visibly) without
// chromium or node.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/expr.hpp"
#include "renderers/render.hpp"
#include "renderers/views.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

// Cells of every panel with an owner among `threads`.
int64_t cells_of(const Scene& s, const std::set<int64_t>& threads) {
  int64_t n = 0;
  for (const Panel& p : s.panels)
    for (int64_t r = 0; r < p.rows; ++r)
      for (int64_t c = 0; c < p.cols; ++c) {
        bool hit = false;
        for (const Owner& o : p.owners(r, c)) hit |= threads.count(o.thr) > 0;
        n += hit;
      }
  return n;
}

std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser"})
    if (std::string p = test::find_program(name); !p.empty()) return p;
  return "";
}

nlohmann::json drive(const std::string& html_path, const std::string& shot, int64_t click_thread, const std::string& typed) {
  const std::string cmd = "'" + test::find_program("node") + "' '" + std::string(CUTEVIS_SOURCE_DIR) + "/tests/browser/drive.mjs' '" +
                          chromium() + "' '" + html_path + "' '" + shot + "' " + std::to_string(click_thread) + " '" + typed + "' 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  pclose(pipe);
  const size_t brace = out.rfind("\n{");
  const std::string last = out.substr(brace == std::string::npos ? 0 : brace + 1);
  auto j = nlohmann::json::parse(last, nullptr, false);
  REQUIRE_MESSAGE(j.is_object(), out);
  REQUIRE_MESSAGE(!j.contains("error"), out);
  return j;
}

}  // namespace

TEST_CASE("HTML: a tiled MMA page answers hover, click, typed threads and #threads in headless Chromium") {
  if (chromium().empty()) CUTEVIS_SKIP("chromium not installed (scripts/setup.sh installs it)");
  if (test::find_program("node").empty()) CUTEVIS_SKIP("node not installed");
  const TiledMma m = make_tiled_mma(find_mma_atom("SM80_16x8x16_F32F16F16F32_TN"), evaluate_expression("(2,2,1):(1,2,0)").to_layout());
  MmaPicture pic{m.tv_layout_a, m.tv_layout_b, m.tv_layout_c, size(m.tile_mnk[0]), size(m.tile_mnk[1]), size(m.tile_mnk[2]), m.num_threads};
  pic.bits_a = m.atom.type_a.bits;  // half_t: two values a register
  pic.bits_b = m.atom.type_b.bits;
  pic.bits_c = m.atom.type_c.bits;  // float
  pic.atom_values_a = size(m.atom.layout_a.shape[1]);
  pic.atom_values_b = size(m.atom.layout_b.shape[1]);
  pic.atom_values_c = size(m.atom.layout_c.shape[1]);
  const Scene scene = mma_scene(pic, {.title = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})"});
  const std::string html = render(scene, Format::kHtml);
  CHECK(html.find("<script src") == std::string::npos);  // self-contained: nothing fetched
  CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));
  const fs::path dir = fs::temp_directory_path() / ("cutevis_html_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "mma.html", std::ios::binary) << html;
  const fs::path shot = fs::path(CUTEVIS_BINARY_DIR) / "html_browser_sm80_2x2.png";

  const nlohmann::json r = drive((dir / "mma.html").string(), shot.string(), 7, "5, 32-35");
  CHECK(r["cells"].get<int64_t>() == scene.cell_count());
  CHECK(r["cells_with_owners"].get<bool>());
  CHECK(r["hash_hl"].get<int64_t>() == cells_of(scene, {0, 5}));
  CHECK(r["click_hl"].get<int64_t>() == cells_of(scene, {7}));
  CHECK(r["click_hash"].get<std::string>() == "#threads=7");
  CHECK(r["typed_hl"].get<int64_t>() == cells_of(scene, {5, 32, 33, 34, 35}));
  CHECK(r["typed_hash"].get<std::string>() == "#threads=5,32-35");
  CHECK(r["hover_text"].get<std::string>().find("V0 (value 0 of each thread, register R0 of MMA 0): T0") != std::string::npos);
  CHECK(r["hover_a_text"].get<std::string>().find("V5 (value 5 of each thread, register R2 bits 16-31 of MMA 0): T0,64") != std::string::npos);
  CHECK(r["fill_warp"] != r["fill_before"]);
  CHECK(r["zoomed"].get<bool>());
  CHECK(r["network_free"].get<bool>());
  CHECK(fs::file_size(shot) > 10000);  // the screenshot, kept in the build folder to look at
  MESSAGE("page ready in " << r["load_ms"].get<double>() << " ms, click answered in " << r["click_ms"].get<double>() << " ms; screenshot "
                           << shot.string());
  fs::remove_all(dir);
}
