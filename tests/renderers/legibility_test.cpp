// Pictures legible by construction: every label fits at >= 9 px (PNG at scale 1, SVG,
// PDF), multi-owner labels take one of the forms the legend explains and the legend
// names only the forms used, warp colours count every owner, a bank picture carries
// its 32-bank key, a given per-cell shading (an analysis's values) colours and keys.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "atoms/copy_names.hpp"
#include "atoms/mma_catalogue.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/expr.hpp"
#include "renderers/palette.hpp"
#include "renderers/render.hpp"
#include "renderers/views.hpp"
#include "tests/support/banks.hpp"

using namespace cutevis;

namespace {

Layout plain(const std::string& text) { return evaluate_expression(text).to_layout(); }

void register_names() {
  static bool done = [] {
    register_mma_names(default_registry());
    register_copy_names(default_registry());
    return true;
  }();
  (void)done;
}

Scene tiled_mma_scene(const TiledMma& m, const ViewOptions& opt = {}) {
  return mma_scene(MmaPicture{m.tv_layout_a, m.tv_layout_b, m.tv_layout_c, size(m.tile_mnk[0]), size(m.tile_mnk[1]),
                              size(m.tile_mnk[2]), m.num_threads},
                   opt);
}

Scene mma_expression_scene(const std::string& text) {
  register_names();
  const Value v = evaluate_expression(text);
  if (const TiledMma* m = as_tiled_mma(v)) return tiled_mma_scene(*m);
  return tiled_mma_scene(make_tiled_mma(*as_mma_atom(v)));
}

Scene copy_expression_scene(const std::string& text) {
  register_names();
  const Value v = evaluate_expression(text);  // c refers into it: it must outlive c
  const TiledCopy& c = *as_tiled_copy(v);
  return copy_scene(
      CopyPicture{c.layout_s_tv, c.layout_d_tv, size(c.tile_mn[0]), size(c.tile_mn[1]), c.num_threads, {}});
}

// Every panel labelled at >= 9 px, in every format that sizes cells, within its limits.
void check_fits(const Scene& scene) {
  for (Format f : {Format::kPng, Format::kSvg, Format::kPdf, Format::kHtml}) {
    CAPTURE(format_name(f));
    const LabelFit fit = fit_labels(scene, f);
    CHECK(fit.omitted.empty());
    CHECK(fit.limit_note.empty());
    REQUIRE(fit.label_font.size() == scene.panels.size());
    for (double font : fit.label_font) CHECK(font >= kMinLabelPx);
    // and the labels really fit: the widest line at that font inside the cell, with margin
    for (size_t i = 0; i < scene.panels.size(); ++i) {
      size_t chars = 0, lines = 0;
      for (const Cell& c : scene.panels[i].cells) {
        size_t n = 1, w = 0;
        for (size_t k = 0, start = 0; k <= c.label.size(); ++k)
          if (k == c.label.size() || c.label[k] == '\n') {
            size_t cps = 0;
            for (size_t j = start; j < k; ++j) cps += (static_cast<unsigned char>(c.label[j]) & 0xC0) != 0x80;
            w = std::max(w, cps);
            start = k + 1;
            n += k < c.label.size();
          }
        chars = std::max(chars, w);
        lines = std::max(lines, c.label.empty() ? 0 : n);
      }
      CHECK(0.6 * fit.label_font[i] * static_cast<double>(chars) <= 0.9 * fit.cell);
      CHECK(1.15 * fit.label_font[i] * static_cast<double>(lines) <= fit.cell);
    }
  }
}

std::string legend_text(const Scene& s) {
  std::string all;
  for (const auto& line : s.legend) all += line + "\n";
  return all;
}

}  // namespace

TEST_CASE("legibility: single atoms, TiledMMAs up to 128 threads and TiledCopies keep every label") {
  for (const char* name :
       {"SM70_8x8x4_F32F16F16F32_NT", "SM80_16x8x16_F32F16F16F32_TN", "SM90_64x16x16_F32F16F16_SS<K,K>",
        "SM90_64x256x16_F32F16F16_SS<K,K>", "SM90_64x256x16_F32F16F16_RS<K,K>", "SM80_8x8x4_F64F64F64F64_TN"}) {
    CAPTURE(name);
    check_fits(mma_expression_scene(std::string(name) + "{}"));
  }
  check_fits(mma_expression_scene("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})"));
  check_fits(mma_expression_scene("make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2,_1>>{})"));
  check_fits(copy_expression_scene(
      "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
      "Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{}))"));
  check_fits(
      copy_expression_scene("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, "
                            "Layout<Shape<_4,_1>>{})"));
}

TEST_CASE("legibility: the catalogue's largest atom of every family keeps every label") {
  register_names();
  std::map<std::string, std::pair<int64_t, MmaAtom>> largest;  // family -> (cells, atom)
  for (const MmaAtom& a : mma_catalogue()) {
    const int64_t m = size(a.shape_mnk[0]), n = size(a.shape_mnk[1]), k = size(a.shape_mnk[2]);
    const int64_t cells = m * n + m * k + n * k;
    auto& best = largest[a.family];
    if (cells > best.first) best = {cells, a};
  }
  CHECK(largest.size() >= 8);
  for (const auto& [family, best] : largest) {
    const auto& atom_name = best.second.name;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(atom_name);
    check_fits(tiled_mma_scene(make_tiled_mma(best.second)));
  }
}

TEST_CASE("labels: the multi-owner forms, chosen by what fits, and the legend names those used") {
  const int64_t ids_a[] = {0, 1, 2, 3};
  CHECK(owner_line('T', ids_a, 0, 6) == "T0-3");
  const int64_t ids_b[] = {0, 64};
  CHECK(owner_line('T', ids_b, 0, 6) == "T0,64");
  const int64_t ids_c[] = {0, 4, 8, 12};
  CHECK(owner_line('T', ids_c, 0, 6) ==
        "T0 \xC3\x97"
        "4");
  CHECK(owner_line('T', ids_c, 0, 9) == "T0,4,8,12");
  std::vector<int64_t> many;
  for (int64_t t = 0; t < 128; ++t) many.push_back(t);
  for (int64_t t = 256; t < 384; ++t) many.push_back(t);
  CHECK(owner_line('T', many, 0, 6) ==
        "T0\xC3\x97"
        "256");
  CHECK(owner_line('T', many, 128, 6) ==
        "\xC3\x97"
        "256");  // T128x256 would not fit: the count alone

  // SS GMMA: A and B replicated over 128 threads: the range form only.
  const std::string ss = legend_text(mma_expression_scene("SM90_64x16x16_F32F16F16_SS<K,K>{}"));
  CHECK(ss.find("T0-127 = every owner, a range") != std::string::npos);
  CHECK(ss.find("in all") == std::string::npos);
  CHECK(ss.find("a list") == std::string::npos);
  CHECK(ss.find("SVG") == std::string::npos);  // no format's boilerplate in the scene
  // SM70: lanes alias four ways: the count form only.
  const std::string sm70 = legend_text(mma_expression_scene("SM70_8x8x4_F32F16F16F32_NT{}"));
  CHECK(sm70.find("T0 \xC3\x97"
                  "4 = the first owner, then how many in all") != std::string::npos);
  CHECK(sm70.find("a range") == std::string::npos);
  CHECK(sm70.find("T0-127") == std::string::npos);
  // A 2x2 SM80 tiling: A shared by two threads 64 apart: the list form.
  const std::string sm80 =
      legend_text(mma_expression_scene("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})"));
  CHECK(sm80.find("T0,64 = every owner, a list") != std::string::npos);
}

TEST_CASE("colour by warp counts every owner, not the first") {
  // SS GMMA A: every cell owned by the 128 threads of warps 0-3.
  const Scene s = tv_scene(plain("(128,(64,16)):(0,(1,64))"), tup(64, 16), {.color_by = ColorBy::kWarp});
  CHECK(s.panels[0].cell(5, 5).fill == several_warps_color());
  CHECK(legend_text(s).find("1024 cells owned by several warps") != std::string::npos);
  // One warp's cells keep its colour.
  const Scene one = tv_scene(plain("(64,2):(1,64)"), tup(128, 1), {.color_by = ColorBy::kWarp});
  CHECK(one.panels[0].cell(40, 0).fill == warp_color(1));
  CHECK(legend_text(one).find("several warps") == std::string::npos);
}

TEST_CASE("a bank-coloured layout carries a 32-bank key, which CuTe's style leaves out") {
  const Scene s = layout_scene(evaluate_expression("S<3,4,3> o 0 o (8,64):(64,1)").to_any_layout(),
                               {.color_by = ColorBy::kBank, .banks = test::analysis_banks});
  REQUIRE(s.panels.size() == 2);
  const Panel& key = s.panels[1];
  CHECK(key.role == PanelRole::kKey);
  CHECK(key.cols == 32);
  for (int64_t b = 0; b < 32; ++b) {
    CHECK(key.cell(0, b).label == "b" + std::to_string(b));
    CHECK(key.cell(0, b).fill == bank_color(b));
  }
  CHECK(render(s, Format::kSvg).find(">b31<") != std::string::npos);
  const Scene plain_layout = layout_scene(evaluate_expression("(8,64):(64,1)").to_any_layout());
  CHECK(plain_layout.panels.size() == 1);  // no key where no banks are drawn
  const Scene cute = layout_scene(evaluate_expression("(4,8):(1,4)").to_any_layout(),
                                  {.color_by = ColorBy::kBank, .banks = test::analysis_banks});
  CHECK(render(cute, Format::kSvg, {.style = Style::kCute}).find("b31") == std::string::npos);
}

TEST_CASE("a given per-cell shading colours cells and keys its values (the hook for analyses)") {
  ViewOptions opt;
  opt.shading.name = "bank conflicts";
  opt.shading.value = [](const std::string& panel, int64_t r, int64_t) -> std::optional<int64_t> {
    if (panel != "C") return std::nullopt;
    return r % 2 ? 2 : 1;
  };
  opt.shading.key_label = [](int64_t v) { return std::to_string(v) + "-way"; };
  register_names();
  const TiledMma m = make_tiled_mma(find_mma_atom("SM80_16x8x16_F32F16F16F32_TN"));
  const Scene s = tiled_mma_scene(m, opt);
  const Panel& c = *s.find("C");
  CHECK(c.cell(0, 0).fill == category_color(1));
  CHECK(c.cell(1, 0).fill == category_color(2));
  CHECK(s.find("A")->cell(0, 0).fill == thread_color(s.find("A")->owners(0, 0)[0].thr));  // no value: the usual colour
  CHECK(legend_text(s).find("colour: bank conflicts (1-way, 2-way)") != std::string::npos);
}
