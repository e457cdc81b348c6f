// Formats: every SVG parses as XML and renders (xmllint, rsvg-convert), generated
// TikZ compiles with pdflatex (the 2x2 SM90 GMMA too), every PNG decodes to the size
// it promises, PDFs open, text tables follow print_layout.  Tests that need an
// external tool skip visibly when it is missing.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "lib/lang/expr.hpp"
#include "renderers/palette.hpp"
#include "renderers/render.hpp"
#include "renderers/views.hpp"
#include "tests/support/banks.hpp"
#include "tests/support/png.hpp"
#include "tests/support/reference.hpp"
#include "tests/support/skip.hpp"

using namespace cutevis;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

Layout plain(const std::string& text) { return evaluate_expression(text).to_layout(); }
AnyLayout any(const std::string& text) { return evaluate_expression(text).to_any_layout(); }

json reference_row(const std::string& file, const std::string& name) {
  for (const json& row : test::read_jsonl(file))
    if (row.value("name", "") == name || row.value("file", "") == name) return row;
  FAIL("no reference row " << name);
  return {};
}

Scene atom_scene(const std::string& name, const ViewOptions& opt = {}) {
  const json row = reference_row("atoms.jsonl", name);
  return mma_scene(MmaPicture{plain(row["tv_layout_a"]), plain(row["tv_layout_b"]), plain(row["tv_layout_c"]),
                              row["tile_mnk"][0], row["tile_mnk"][1], row["tile_mnk"][2], row["num_threads"]},
                   opt);
}

// make_tiled_mma(SM90_64x256x16_F32F16F16_SS<K,K>{}, Layout<Shape<_2,_2,_1>>{}): its
// get_layoutA/B/C_TV as CuTe prints them.  C is 128x512 (65,536 cells), A 128x16 and
// B 512x16, every A and B element owned by 256 threads.
Scene gmma_2x2_scene() {
  MmaPicture p;
  p.tv_a = plain("((128,2,2),((64,16),(1,1))):((0,64,0),((1,128),(0,0)))");
  p.tv_b = plain("((256,2),((256,16),(1,1))):((0,256),((1,512),(0,0)))");
  p.tv_c = plain("((4,8,8,2),((2,2,32),(1,1))):((256,1,16,32768),((128,8,1024),(0,0)))");
  p.m = 128;
  p.n = 512;
  p.k = 16;
  p.num_threads = 512;
  return mma_scene(p, {.title = "make_tiled_mma(SM90_64x256x16_F32F16F16_SS<K,K>{}, Layout<Shape<_2,_2,_1>>{})"});
}

// A scratch directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path =
        fs::temp_directory_path() / ("cutevis_renderers_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& bytes) const {
    const fs::path p = path / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }
};

struct Run {
  int status = -1;
  std::string output;
};

Run run(const std::string& command) {
  Run r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("SVG: valid and self-contained with a tooltip on every cell and renders with rsvg-convert") {
  std::vector<std::pair<std::string, Scene>> scenes;
  scenes.emplace_back("atom", atom_scene("SM80_16x8x16_F32F16F16F32_TN", {.title = "SM80 & <friends>"}));
  scenes.emplace_back("highlight", atom_scene("SM70_8x8x4_F32F16F16F32_NT", {.threads = ThreadSet::parse("0,17")}));
  scenes.emplace_back("swizzle", layout_scene(any("S<3,4,3> o 0 o (8,64):(64,1)"),
                                              {.color_by = ColorBy::kBank, .banks = test::analysis_banks}));
  scenes.emplace_back("rank3", layout_scene(any("((2,4),(2,2),3):((1,16),(2,4),64)")));
  const Layout tv = plain("(32,4):(4,1)");
  scenes.emplace_back("copy", copy_scene(CopyPicture{tv, tv, 16, 8, 32, {}}));
  scenes.emplace_back("tv", tv_scene(plain("(128,(64,16)):(0,(1,64))"), tup(64, 16)));

  const std::string xmllint = test::find_program("xmllint"), rsvg = test::find_program("rsvg-convert");
  TempDir dir;
  for (const auto& [name, scene] : scenes) {
    const auto& picture = name;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(picture);
    const std::string svg = render(scene, Format::kSvg);
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(svg.find("viewBox=\"0 0 ") != std::string::npos);
    CHECK(count(svg, "<rect x=") == static_cast<size_t>(scene.cell_count()));
    CHECK(count(svg, "</title></rect>") == static_cast<size_t>(scene.cell_count()));
    for (const char* external : {"<script", "href", "@import", "url(", "@font-face"})
      CHECK(svg.find(external) == std::string::npos);
    const std::string file = dir.write(name + ".svg", svg);
    if (!xmllint.empty()) {
      const Run r = run("'" + xmllint + "' --noout '" + file + "'");
      CHECK_MESSAGE(r.status == 0, r.output);
    }
    if (!rsvg.empty()) {
      const Run r = run("'" + rsvg + "' -o '" + file + ".png' '" + file + "'");
      CHECK_MESSAGE(r.status == 0, r.output);
      CHECK(fs::file_size(file + ".png") > 1000);
    }
  }
  // tooltips carry every owner
  const std::string svg = render(scenes.back().second, Format::kSvg);
  CHECK(svg.find("<title>(3,1) index 67: V67: T0-127</title>") != std::string::npos);
  CHECK(render(scenes.front().second, Format::kSvg).find("SM80 &amp; &lt;friends&gt;") != std::string::npos);
  if (xmllint.empty() || rsvg.empty()) CUTEVIS_SKIP("xmllint or rsvg-convert not installed: SVGs checked as text only");
}

TEST_CASE("SVG style cute: CuTe's look for what CuTe cannot draw as valid XML") {
  const std::string xmllint = test::find_program("xmllint");
  TempDir dir;
  const Layout tv = plain("((4,8),(2,2)):((32,1),(16,8))");
  const std::vector<std::pair<std::string, Scene>> scenes = {
      {"layout", layout_scene(any("(4,8):(1,4)"))},
      {"tv", tv_scene(tv, tup(16, 8))},
      {"copy", copy_scene(CopyPicture{tv, tv, 16, 8, 32, {}})},
  };
  for (const auto& [name, scene] : scenes) {
    const auto& picture = name;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(picture);
    const std::string svg = render(scene, Format::kSvg, {.style = Style::kCute});
    CHECK(svg.rfind("<!--  ", 0) == 0);
    CHECK(count(svg, "<rect ") == static_cast<size_t>(scene.cell_count()));
    if (!xmllint.empty()) {
      const Run r = run("'" + xmllint + "' --noout '" + dir.write(name + ".svg", svg) + "'");
      CHECK_MESSAGE(r.status == 0, r.output);
    }
  }
  // (4,8):(1,4): 8 index labels across, 4 down, at 20 per cell after one cell of labels
  const std::string svg = render(scenes[0].second, Format::kSvg, {.style = Style::kCute});
  CHECK(svg.find("viewBox=\"0 0 180 100\"") != std::string::npos);
  CHECK(svg.find(
            "<rect x=\"40\" y=\"40\" width=\"20\" height=\"20\" fill=\"rgb(130,130,130)\" stroke=\"black\"/>\n"
            "<text x=\"50\" y=\"50\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"8\">5</text>") !=
        std::string::npos);  // L(1,1) = 5 at column 1, row 1
  if (xmllint.empty()) CUTEVIS_SKIP("xmllint not installed");
}

TEST_CASE("TikZ: default and cute pictures compile with pdflatex") {
  const std::string pdflatex = test::find_program("pdflatex");
  if (pdflatex.empty()) CUTEVIS_SKIP("pdflatex not installed");
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> docs = {
      {"default_atom", render(atom_scene("SM70_8x8x4_F32F16F16F32_NT",
                                         {.title = "SM70_8x8x4 {_#%&$^~<>}", .threads = ThreadSet::parse("0-3")}),
                              Format::kTex)},
      {"default_layout", render(layout_scene(any("S<2,3,3> o 0 o ((2,4),(4,8)):((8,1),(64,16))"),
                                             {.color_by = ColorBy::kBank, .banks = test::analysis_banks}),
                                Format::kTex)},
      {"cute_copy", render(copy_scene(CopyPicture{plain("(32,4):(4,1)"), plain("(32,4):(4,1)"), 16, 8, 32, {}}),
                           Format::kTex, {.style = Style::kCute})},
  };
  for (const auto& [name, tex] : docs) {
    const auto& picture = name;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(picture);
    const std::string file = dir.write(name + ".tex", tex);
    const Run r = run("cd '" + dir.path.string() + "' && '" + pdflatex + "' -interaction=nonstopmode -halt-on-error '" +
                      file + "'");
    CHECK_MESSAGE(r.status == 0, r.output.substr(r.output.size() > 3000 ? r.output.size() - 3000 : 0));
    CHECK(fs::exists(dir.path / (name + ".pdf")));
    const std::string log = test::read_file((dir.path / (name + ".log")).string());
    CHECK(log.find("Missing character") == std::string::npos);
    CHECK(log.find("Font shape") == std::string::npos);  // every font we ask for exists
  }
}

TEST_CASE("TikZ: the 2x2 SM90 64x256x16 GMMA (65536 C cells) compiles with a stock pdflatex") {
  // CuTe's print_latex exhausts TeX's main memory long before this size (CUTLASS PR #1733).
  const std::string pdflatex = test::find_program("pdflatex");
  const Scene scene = gmma_2x2_scene();
  const std::string tex = render(scene, Format::kTex);
  CHECK(count(tex, "\n\\cvR{") == 128 + 128 + 16);  // one row macro per drawn row: C, A, B
  CHECK(tex.find("labels omitted") == std::string::npos);
  if (pdflatex.empty()) CUTEVIS_SKIP("pdflatex not installed");
  TempDir dir;
  const std::string file = dir.write("gmma.tex", tex);
  const Run r = run("cd '" + dir.path.string() + "' && '" + pdflatex + "' -interaction=nonstopmode -halt-on-error '" +
                    file + "'");
  const std::string log = test::read_file((dir.path / "gmma.log").string());
  REQUIRE_MESSAGE(r.status == 0, log.substr(log.size() > 3000 ? log.size() - 3000 : 0));
  // TeX Live's stock main memory is 5,000,000 words; the rows frozen into PDF forms keep us far below.
  std::smatch m;
  REQUIRE(std::regex_search(log, m, std::regex(R"((\d+) words of memory out of (\d+))")));
  CHECK(std::stoll(m[1]) < std::stoll(m[2]) / 2);
  if (const std::string pdfinfo = test::find_program("pdfinfo"); !pdfinfo.empty())
    CHECK(std::regex_search(run("'" + pdfinfo + "' '" + (dir.path / "gmma.pdf").string() + "'").output,
                            std::regex(R"(Pages:\s+1\n)")));
}

TEST_CASE("TikZ: labels only when legible and the legend says when they are not") {
  // 2048 rows: cells of 0.24 cm, too small for six digits
  const std::string tex = render(layout_scene(any("(2048,64):(64,1)")), Format::kTex);
  const std::string body = tex.substr(tex.find("\\begin{document}"));
  CHECK(tex.find("labels omitted") != std::string::npos);
  CHECK(body.find("\\cvA{") == std::string::npos);
  CHECK(count(body, "\n\\cvR{") == 2048);
  const std::string small = render(layout_scene(any("(4,8):(1,4)")), Format::kTex);
  CHECK(small.find("labels omitted") == std::string::npos);
  CHECK(count(small.substr(small.find("\\begin{document}")), "\\cvA{") == 32);
}

TEST_CASE("PNG: decodes to a bounded image as cells shrink and labels drop on a large tile") {
  if (!png_supported()) {
    CHECK_THROWS_AS(render(atom_scene("SM80_16x8x16_F32F16F16F32_TN"), Format::kPng), Error);
    CHECK_THROWS_AS(render(atom_scene("SM80_16x8x16_F32F16F16F32_TN"), Format::kPdf), Error);
    CUTEVIS_SKIP("built without Cairo: PNG and PDF report an Error");
  }
  if (!test::png_decoder_available()) CUTEVIS_SKIP("libcairo.so.2 not loadable: no decoder to check PNGs with");
  TempDir dir;
  // Decoded completely by Cairo's reader (libpng: CRCs, zlib stream, filters).
  auto decode = [&](const std::string& png) -> std::pair<int64_t, int64_t> {
    REQUIRE(png.rfind("\x89PNG\r\n\x1a\n", 0) == 0);
    const test::DecodedPng d = test::decode_png(png);
    REQUIRE_MESSAGE(d.error.empty(), d.error);
    CHECK(d.at(0, 0) == 0xffffffu);  // the white margin
    return {d.width, d.height};
  };

  const Scene atom = atom_scene("SM80_16x8x16_F32F16F16F32_TN");
  const std::string atom_png = render(atom, Format::kPng);
  const auto [w, h] = decode(atom_png);
  CHECK(w > 26 * 28);  // 26 columns of 28-px cells: full size for a small picture
  CHECK(h > 34 * 28);
  CHECK(w * h < 16'000'000);
  {
    // The cells are there: every fill of C is a colour of the decoded image.
    const test::DecodedPng d = test::decode_png(atom_png);
    std::set<uint32_t> colours;
    for (int y = 0; y < d.height; ++y)
      for (int x = 0; x < d.width; ++x) colours.insert(d.at(x, y));
    for (const Cell& c : atom.find("C")->cells)
      CHECK(colours.count(uint32_t{c.fill.r} << 16 | uint32_t{c.fill.g} << 8 | c.fill.b) == 1);
    // and the decoder is a real check: one flipped byte inside the image data is an error.
    std::string bad = atom_png;
    bad[bad.find("IDAT") + 40] ^= 0x55;
    CHECK(!test::decode_png(bad).error.empty());
    CHECK(!test::decode_png(atom_png.substr(0, atom_png.size() / 2)).error.empty());
  }
  const Scene big = gmma_2x2_scene();
  // Every label at >= 9 px: cells as large as "T0-255" needs, inside the default limits.
  const LabelFit fit = fit_labels(big, Format::kPng);
  CHECK(fit.omitted.empty());
  CHECK(fit.limit_note.empty());
  for (double f : fit.label_font) CHECK(f >= kMinLabelPx);
  const auto [bw, bh] = decode(render(big, Format::kPng));
  CHECK(bw * bh <= 400'000'000);
  CHECK(bw <= 32768);
  CHECK(bw >= 530 * fit.cell);
  // A tighter budget shrinks the cells, and the labels go (said in the legend).
  const RenderOptions tight{.max_png_pixels = 4'000'000, .max_png_side = 16384};
  CHECK(!fit_labels(big, Format::kPng, tight).omitted.empty());
  CHECK(!fit_labels(big, Format::kPng, tight).limit_note.empty());
  const auto [sw, sh] = decode(render(big, Format::kPng, tight));
  CHECK(sw * sh <= 4'000'000);
  CHECK_THROWS_AS(render(big, Format::kPng, {.max_png_pixels = 10'000, .max_png_side = 16384}), Error);

  const std::string pdf = render(atom, Format::kPdf);
  CHECK(pdf.rfind("%PDF-", 0) == 0);
  CHECK(pdf.find("%%EOF") != std::string::npos);
  if (const std::string pdfinfo = test::find_program("pdfinfo"); !pdfinfo.empty())
    CHECK(std::regex_search(run("'" + pdfinfo + "' '" + dir.write("atom.pdf", pdf) + "'").output,
                            std::regex(R"(Pages:\s+1\n)")));
  CHECK_THROWS_AS(render(atom, Format::kPng, {.style = Style::kCute}), Error);
}

TEST_CASE("text: print_layout byte for byte in style cute") {
  // CuTe's print_layout(Layout<Shape<_4,_8>>{}) (util/print_tensor.hpp)
  const std::string cute =
      "(_4,_8):(_1,_4)\n"
      "       0    1    2    3    4    5    6    7 \n"
      "    +----+----+----+----+----+----+----+----+\n"
      " 0  |  0 |  4 |  8 | 12 | 16 | 20 | 24 | 28 |\n"
      "    +----+----+----+----+----+----+----+----+\n"
      " 1  |  1 |  5 |  9 | 13 | 17 | 21 | 25 | 29 |\n"
      "    +----+----+----+----+----+----+----+----+\n"
      " 2  |  2 |  6 | 10 | 14 | 18 | 22 | 26 | 30 |\n"
      "    +----+----+----+----+----+----+----+----+\n"
      " 3  |  3 |  7 | 11 | 15 | 19 | 23 | 27 | 31 |\n"
      "    +----+----+----+----+----+----+----+----+\n";
  CHECK(render(layout_scene(any("(4,8):(1,4)")), Format::kTxt, {.style = Style::kCute}) == cute);
  CHECK_THROWS_AS(render(layout_scene(any("(2,2,2):(1,2,4)")), Format::kTxt, {.style = Style::kCute}), Error);
}

TEST_CASE("text: owners and sub-mode rules with ANSI colour only when asked") {
  const Scene s = atom_scene("SM70_8x8x4_F32F16F16F32_NT", {.threads = ThreadSet::parse("0")});
  const std::string plain_text = render(s, Format::kTxt);
  CHECK(plain_text.find("\x1b[") == std::string::npos);
  CHECK(plain_text.find(" T0 \xC3\x97"
                        "4 V0 |") != std::string::npos);
  CHECK(plain_text.find("|         . |") != std::string::npos);  // faded cells, no colour to fade them with
  CHECK(plain_text.find("T1 \xC3\x97") == std::string::npos);
  const std::string coloured = render(s, Format::kTxt, {.ansi_color = true});
  const Rgb t0 = thread_color(0);
  CHECK(coloured.find("\x1b[48;2;" + std::to_string(t0.r) + ";" + std::to_string(t0.g) + ";" + std::to_string(t0.b) +
                      "m") != std::string::npos);  // thread 0's colour
  CHECK(coloured.find("\x1b[0m") != std::string::npos);

  const std::string ruled = render(layout_scene(any("((2,2),(2,2)):((1,4),(2,8))")), Format::kTxt);
  CHECK(ruled.find("+====+====++====+====+") != std::string::npos);
  CHECK(ruled.find("|  0 |  2 ||  8 | 10 |") != std::string::npos);
}

TEST_CASE("terminal colour: a terminal without NO_COLOR") {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) CUTEVIS_SKIP("no pseudo-terminal");
  const int tty = open(ptsname(master), O_RDWR | O_NOCTTY);
  REQUIRE(tty >= 0);
  const char* saved = std::getenv("NO_COLOR");
  const std::string saved_value = saved ? saved : "";
  unsetenv("NO_COLOR");
  CHECK(terminal_wants_color(tty));
  setenv("NO_COLOR", "1", 1);
  CHECK(!terminal_wants_color(tty));
  setenv("NO_COLOR", "", 1);  // "when present and not an empty string" (no-color.org)
  CHECK(terminal_wants_color(tty));
  unsetenv("NO_COLOR");
  int p[2];
  REQUIRE(pipe(p) == 0);
  CHECK(!terminal_wants_color(p[1]));  // a pipe is no terminal
  close(p[0]);
  close(p[1]);
  close(tty);
  close(master);
  if (saved) setenv("NO_COLOR", saved_value.c_str(), 1);
}

TEST_CASE("formats and styles by name") {
  CHECK(parse_format("svg") == Format::kSvg);
  CHECK(parse_format("tex") == Format::kTex);
  CHECK(parse_format("txt") == Format::kTxt);
  CHECK(file_extension(Format::kPng) == ".png");
  CHECK(parse_style("cute") == Style::kCute);
  CHECK_THROWS_AS(parse_format("gif"), Error);
  CHECK_THROWS_AS(parse_style("fancy"), Error);
}
