// Every documentation picture keeps every label: the README's ```cutevis block and
// samples/docs.json, drawn as SVG (each panel's label font >= 9 px, no "labels
// omitted"), and each PNG among them far from the size limits past which cells shrink.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <regex>

#include <nlohmann/json.hpp>

#include "app/docs.hpp"
#include "app/exit_codes.hpp"
#include "tests/support/reference.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

// The command line of every documentation picture, with its output's extension.
std::vector<std::pair<std::vector<std::string>, std::string>> documentation_pictures() {
  std::vector<std::pair<std::vector<std::string>, std::string>> out;
  const std::string root = CUTEVIS_SOURCE_DIR;
  for (const DocsCommand& c : docs_commands(test::read_file(root + "/README.md"), root + "/README.md")) {
    std::vector<std::string> args;
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (c.args[i] == "-o") ++i;
      else args.push_back(c.args[i]);
    }
    out.emplace_back(args, fs::path(c.output).extension().string());
  }
  const auto spec = nlohmann::json::parse(test::read_file(root + "/samples/docs.json"));
  for (const auto& e : spec["pictures"]) {
    if (e.value("style", "default") == "cute") continue;  // CuTe's own look, byte for byte
    std::vector<std::string> args = {e["command"], e["input"]};
    if (e.contains("tile")) args.push_back(e["tile"]);
    if (e.contains("color_by")) args.insert(args.end(), {"--color-by", e["color_by"]});
    if (e.contains("threads")) args.insert(args.end(), {"--threads", e["threads"]});
    out.emplace_back(args, fs::path(e["output"].get<std::string>()).extension().string());
  }
  return out;
}

}  // namespace

TEST_CASE("documentation pictures: every label drawn at 9 px or more") {
  const auto pictures = documentation_pictures();
  CHECK(pictures.size() >= 12);
  const fs::path dir = fs::temp_directory_path() / ("cutevis_doc_pictures_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  int pngs = 0;
  for (const auto& [args, ext] : pictures) {
    const auto& command = args[1];  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(command);
    std::vector<std::string> svg_args = args;
    svg_args.insert(svg_args.end(), {"-o", (dir / "p.svg").string()});
    const auto r = test::run_cutevis(svg_args);
    REQUIRE_MESSAGE(r.exit_code == kExitOk, r.err);
    const std::string svg = test::read_file((dir / "p.svg").string());
    CHECK(svg.find("labels omitted") == std::string::npos);
    // each panel's labels: <g font-size="F"> with F >= 9, and at least one label drawn
    const std::regex group(R"re(<g font-size="([0-9.]+)">)re");
    int groups = 0;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), group); it != std::sregex_iterator(); ++it, ++groups)
      CHECK(std::stod((*it)[1]) >= 9.0);
    CHECK(groups >= 1);
    CHECK(svg.find("<text class=\"c") != std::string::npos);
    if (ext == ".png") {
      ++pngs;
      std::vector<std::string> png_args = args;
      png_args.insert(png_args.end(), {"-o", (dir / "p.png").string()});
      REQUIRE(test::run_cutevis(png_args).exit_code == kExitOk);
      const std::string png = test::read_file((dir / "p.png").string());
      auto u32 = [&](size_t at) {
        return (static_cast<uint32_t>(static_cast<unsigned char>(png[at])) << 24) |
               (static_cast<unsigned char>(png[at + 1]) << 16) | (static_cast<unsigned char>(png[at + 2]) << 8) |
               static_cast<unsigned char>(png[at + 3]);
      };
      // far below 32,768 px a side and 400 megapixels: the cells were never shrunk
      CHECK(u32(16) < 16384);
      CHECK(u32(20) < 16384);
    }
  }
  CHECK(pngs >= 5);
  fs::remove_all(dir);
}
