// Views: what a scene holds for layouts, TV layouts, MMAs and copies (values,
// owners, positions, labels, emphasis), independent of any format.
#include <doctest/doctest.h>

#include <algorithm>

#include "lib/lang/expr.hpp"
#include "renderers/palette.hpp"
#include "renderers/render.hpp"
#include "renderers/views.hpp"
#include "tests/support/atom_names.hpp"
#include "tests/support/banks.hpp"
#include "tests/support/reference.hpp"

using namespace cutevis;
using nlohmann::json;

namespace {

AnyLayout any(const std::string& text) {
  return evaluate_expression(text, test::registry_with_atoms()).to_any_layout();
}
Layout plain(const std::string& text) { return evaluate_expression(text).to_layout(); }

json reference_row(const std::string& file, const std::string& name) {
  for (const json& row : test::read_jsonl(file))
    if (row.value("name", "") == name || row.value("file", "") == name) return row;
  FAIL("no reference row " << name);
  return {};
}

}  // namespace

TEST_CASE("layout scene: every cell holds L(m n) with mode 0 down and the other modes across") {
  for (const char* text : {"(4,8):(1,4)", "((2,2),(2,4)):((1,8),(2,16))", "8:2", "(3,(2,2),5):(7,(1,40),2)",
                           "S<3,4,3> o 0 o (8,64):(64,1)", "GMMA::Layout_MN_SW64_Atom<half_t>{}"}) {
    CAPTURE(text);
    const AnyLayout l = any(text);
    const Scene s = layout_scene(l);
    REQUIRE(s.panels.size() == 1);
    const Panel& p = s.panels[0];
    const IntTuple sh = shape(l);
    CHECK(p.rows == size(sh.is_leaf() ? sh : sh[0]));
    CHECK(p.rows * p.cols == size(l));
    // print_latex draws smem-flagged layouts position-independently
    const std::vector<int64_t> values = layout_values(as_position_independent(l));
    for (int64_t m = 0; m < p.rows; ++m)
      for (int64_t n = 0; n < p.cols; ++n) {
        REQUIRE(p.cell(m, n).value == values[static_cast<size_t>(m + p.rows * n)]);
        REQUIRE(p.cell(m, n).label == std::to_string(values[static_cast<size_t>(m + p.rows * n)]));
      }
    CHECK(p.row_axis.text.size() == static_cast<size_t>(p.rows));
    CHECK(p.col_axis.text.size() == static_cast<size_t>(p.cols));
  }
}

TEST_CASE("layout scene: heavier rules at sub-mode boundaries") {
  const Scene s = layout_scene(any("((2,4),(2,2),3):((1,16),(2,4),64)"));
  const Panel& p = s.panels[0];
  REQUIRE(p.rows == 8);
  REQUIRE(p.cols == 12);
  // rows: mode 0 is (2,4): a boundary every 2 rows
  CHECK(std::vector<int>(p.row_rules.begin(), p.row_rules.end()) == std::vector<int>{0, 0, 1, 0, 1, 0, 1, 0, 0});
  // columns: modes (2,2) and 3 flattened: boundaries every 2 (weight 1) and every 4 (weight 2)
  CHECK(std::vector<int>(p.col_rules.begin(), p.col_rules.end()) ==
        std::vector<int>{0, 0, 1, 0, 2, 0, 1, 0, 2, 0, 1, 0, 0});
  CHECK(s.layout_rank == 3);
  // a flat rank-2 layout has no sub-modes
  const Scene flat_scene = layout_scene(any("(4,8):(8,1)"));
  const Panel& flat = flat_scene.panels[0];
  for (uint8_t w : flat.row_rules) CHECK(w == 0);
  for (uint8_t w : flat.col_rules) CHECK(w == 0);
}

TEST_CASE("layout scene: CuTe's header text and rank-1 layouts as a column and identity layouts as coordinates") {
  CHECK(layout_scene(any("(4,8):(1,4)")).panels[0].cute_text == "(_4,_8):(_1,_4)");
  const Scene column = layout_scene(any("8:2"));
  CHECK(column.panels[0].cute_text == "(_8,_1):(_2,_0)");  // append<2>(layout, _1:_0)
  CHECK(column.panels[0].cols == 1);
  CHECK(layout_scene(any("GMMA::Layout_K_SW128_Atom<half_t>{}")).panels[0].cute_text ==
        "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  const Scene id_scene = layout_scene(any("make_identity_layout((2,3))"));
  const Panel& id = id_scene.panels[0];
  CHECK(id.cell(1, 2).label == "(1,2)");
  CHECK(id.cell(1, 2).value == -1);
  CHECK_THROWS_AS(render(layout_scene(any("make_identity_layout((2,3))")), Format::kTex, {.style = Style::kCute}),
                  Error);
}

TEST_CASE("layout scene: bank colouring finds the conflicts a swizzle removes") {
  auto legend = [](const char* text) {
    return layout_scene(any(text), {.color_by = ColorBy::kBank, .banks = test::analysis_banks}).legend.back();
  };
  CHECK(legend("(8,64):(64,1)").find("a column at once: 8-way") != std::string::npos);
  CHECK(legend("S<3,3,3> o 0 o (8,64):(64,1)").find("a column at once: 1-way") != std::string::npos);
  const Scene s = layout_scene(any("(8,64):(64,1)"),
                               {.color_by = ColorBy::kBank, .bank_element_bits = 32, .banks = test::analysis_banks});
  // 32-bit elements: element i sits in bank i mod 32
  CHECK(s.panels[0].cell(1, 3).label == "67\nb3");
  CHECK(s.panels[0].cell(1, 3).fill != s.panels[0].cell(1, 4).fill);
}

TEST_CASE("layout scene: bank colouring draws the bank model it is given, and needs one") {
  // Renderers draw banks; the model lives in atoms/analysis (the app hands it over).
  ViewOptions opt{.color_by = ColorBy::kBank, .bank_element_bits = 8};
  CHECK_THROWS_AS(layout_scene(any("(4,8):(1,4)"), opt), Error);
  std::vector<int64_t> seen_values;
  int64_t seen_rows = 0;
  int seen_bits = 0;
  opt.banks = [&](std::span<const int64_t> values, int64_t rows, int bits) {
    seen_values.assign(values.begin(), values.end());
    seen_rows = rows;
    seen_bits = bits;
    BankShading b;
    for (int64_t v : values) b.bank.push_back(v % 3 == 0 ? 7 : 30);  // not the hardware's banks: the view must not care
    b.worst_row = 5;
    b.worst_col = 6;
    return b;
  };
  const Scene s = layout_scene(any("(4,8):(8,1)"), opt);
  CHECK(seen_rows == 4);
  CHECK(seen_bits == 8);
  REQUIRE(seen_values.size() == 32);
  CHECK(seen_values[1] == 8);  // L(1,0): values in column-major cell order
  CHECK(s.panels[0].cell(1, 0).label == "8\nb30");
  CHECK(s.panels[0].cell(0, 3).label == "3\nb7");
  CHECK(s.panels[0].cell(0, 3).fill == bank_color(7));
  CHECK(s.legend.back().find("a row at once: 5-way conflict at worst, a column at once: 6-way") != std::string::npos);
  opt.banks = [](std::span<const int64_t>, int64_t, int) { return BankShading{}; };  // a model that answers nothing
  CHECK_THROWS_AS(layout_scene(any("(4,8):(8,1)"), opt), Error);
}

TEST_CASE("TV scene: every owner kept with the first owner first and replicated cells labelled with all of them") {
  // SS GMMA A: 128 threads own every cell (stride 0)
  const Layout tv = plain("(128,(64,16)):(0,(1,64))");
  const Scene s = tv_scene(tv, tup(64, 16));
  const Panel& p = s.panels[0];
  CHECK(s.num_threads == 128);
  for (int64_t m : {0, 17, 63})
    for (int64_t k : {0, 5, 15}) {
      auto owners = p.owners(m, k);
      REQUIRE(owners.size() == 128);
      CHECK(owners[0].thr == 0);
      CHECK(owners[127].thr == 127);
      CHECK(owners[0].val == m + 64 * k);
      CHECK(p.cell(m, k).label == "T0-127\nV" + std::to_string(m + 64 * k));
    }
  CHECK(describe_owners(p.owners(3, 1)) == "V67: T0-127");
  bool mentions = false;
  for (const auto& line : s.legend) mentions |= line.find("1024 cells have several owners") != std::string::npos;
  CHECK(mentions);
}

// Issue 23: an SS GMMA's A and B are shared memory read by all 128 threads; their cells show the
// element order, the legend says once who reads them, and every owner stays in the panel.
TEST_CASE("MMA scene: operands in shared memory show the element order and the legend names their readers") {
  const json row = reference_row("atoms.jsonl", "SM90_64x8x16_F32F16F16_SS<K,K>");
  MmaPicture pic{plain(row["tv_layout_a"]), plain(row["tv_layout_b"]), plain(row["tv_layout_c"]), 64, 8, 16, 128};
  const Scene drawn_as_registers = mma_scene(pic);
  pic.memory_a = pic.memory_b = "shared memory";
  const Scene s = mma_scene(pic);
  const Panel& a = *s.find("A");
  const Panel& b = *s.find("B");
  for (int64_t m : {0, 17, 63})
    for (int64_t k : {0, 5, 15}) {
      CHECK(a.cell(m, k).label == "V" + std::to_string(m + 64 * k));  // no thread line
      CHECK(a.owners(m, k).size() == 128);                            // every owner kept (tooltips, HTML, JSON)
      CHECK(drawn_as_registers.find("A")->cell(m, k).label == "T0-127\nV" + std::to_string(m + 64 * k));
    }
  CHECK(b.cell(3, 2).label == "V" + std::to_string(2 + 8 * 3));  // B drawn K down: (k=3, n=2) is n + N*k
  CHECK(s.find("C")->cell(0, 0).label == "T0\nV0");              // C in registers as before
  // paler than the thread's own colour, and not the register drawing's fill
  CHECK(a.cell(0, 0).fill != drawn_as_registers.find("A")->cell(0, 0).fill);
  std::string legend;
  for (const auto& line : s.legend) legend += line + "\n";
  CHECK(legend.find("A and B: shared memory, read by all 128 threads (T0-127) through a descriptor; a cell shows V") !=
        std::string::npos);
  CHECK(legend.find("T0-127 = every owner") == std::string::npos);  // no cell says it any more
  CHECK(legend.find("copy threads") == std::string::npos);          // nor do A and B count as thread copies
  // A 2x1 tiling: each row of atoms read by its own warpgroup; the legend lists the sets
  MmaPicture tiled{plain("((128,2),(64,16)):((0,64),(1,128))"),  // A (128 x 16): warpgroup w reads rows 64w..
                   plain("((128,2),(8,16)):((0,0),(1,8))"),      // B (8 x 16): read by both
                   plain("((128,2),4):((1,128),256)"),          128, 8, 16, 256};  // C (128 x 8): one owner a cell
  tiled.memory_a = "shared memory";
  std::string legend2;
  for (const auto& line : mma_scene(tiled).legend) legend2 += line + "\n";
  CHECK(legend2.find("A: shared memory, read by 128 threads a cell (T0-127; T128-255) through a descriptor") !=
        std::string::npos);
  CHECK(legend2.find("B: threads 1-255 copy thread 0") != std::string::npos);  // B in registers here: its copies said
}

TEST_CASE("MMA scene: a stride-0 thread mode (SM70's quad-pairs) is said in the legend") {
  const json row = reference_row("atoms.jsonl", "SM70_8x8x4_F32F16F16F32_NT");
  MmaPicture pic{plain(row["tv_layout_a"]), plain(row["tv_layout_b"]), plain(row["tv_layout_c"]), 8, 8, 4, 8};
  pic.notes = {"a note from the caller"};
  const Scene s = mma_scene(pic);
  std::vector<std::string> lines(s.legend.begin(), s.legend.end());
  auto at = [&](const std::string& text) {
    return std::find_if(lines.begin(), lines.end(),
                        [&](const std::string& l) { return l.find(text) != std::string::npos; });
  };
  const auto copies =
      at("C, A and B: threads 4-15,20-31 copy threads 0-3,16-19 (stride 0 in the thread mode: T0,4,8,12 alike)");
  REQUIRE(copies != lines.end());
  CHECK(at("cells have several owners") + 1 == copies);  // right under the line that explains the x4 form
  CHECK(at("a note from the caller") == copies + 1);
  // A TV layout without stride 0 over threads says nothing of copies
  for (const auto& line : tv_scene(plain("((4,8),4):((8,1),32)"), tup(32, 4)).legend)
    CHECK(line.find("copy threads") == std::string::npos);
}

TEST_CASE("TV scene: aliased lanes show the first owner and the count") {
  const json row = reference_row("atoms.jsonl", "SM70_8x8x4_F32F16F16F32_NT");
  const Scene s = tv_scene(plain(row["tv_layout_c"]), tup(8, 8));
  const Panel& p = s.panels[0];
  const json& owner = row["owner_c"];
  for (int64_t i = 0; i < 64; ++i) {
    const int64_t r = i % 8, c = i / 8;
    auto owners = p.owners(r, c);
    REQUIRE(!owners.empty());
    CHECK(owners[0].thr == owner["thr"][static_cast<size_t>(i)].get<int64_t>());  // print_latex's label
    CHECK(owners[0].val == owner["val"][static_cast<size_t>(i)].get<int64_t>());
    CHECK(owners.size() == 4);  // lanes 4-15 alias 0-3
    CHECK(p.cell(r, c).label.rfind("T" + std::to_string(owners[0].thr) +
                                       " \xC3\x97"
                                       "4\nV",
                                   0) == 0);
  }
}

TEST_CASE("TV scene: thread highlighting fades the other cells and labels with the highlighted owner") {
  const Layout tv = plain("((4,8),(2,2)):((32,1),(16,8))");  // SM80 16x8 C
  const Scene s = tv_scene(tv, tup(16, 8), {.threads = ThreadSet::parse("0,5,30-31")});
  int highlighted = 0, faded = 0;
  for (const Cell& cell : s.panels[0].cells) {
    highlighted += cell.emphasis == Emphasis::kHighlighted;
    faded += cell.emphasis == Emphasis::kFaded;
  }
  CHECK(highlighted == 4 * 4);  // four threads, four values each
  CHECK(faded == 128 - 16);
  const Cell& t5 = s.panels[0].cell(1, 2);  // thread 5 = (1,1): m = 1, n = 2
  CHECK(t5.emphasis == Emphasis::kHighlighted);
  CHECK(t5.label == "T5\nV0");
  CHECK(t5.fill == thread_color(5));
  const Cell& t1 = s.panels[0].cell(0, 2);  // thread 1: faded
  CHECK(t1.emphasis == Emphasis::kFaded);
  CHECK(t1.fill != thread_color(1));
  CHECK(t1.label == "T1\nV0");

  // A replicated cell is highlighted through any of its owners and says so.
  const Scene g = tv_scene(plain("(128,(64,16)):(0,(1,64))"), tup(64, 16), {.threads = ThreadSet::parse("77")});
  CHECK(g.panels[0].cell(2, 3).emphasis == Emphasis::kHighlighted);
}

TEST_CASE("TV scene: colour by thread or value or warp or none and layouts and TVs refuse each other's colours") {
  const Layout tv = plain("(64,2):(1,64)");
  CHECK(tv_scene(tv, tup(128, 1), {.color_by = ColorBy::kValue}).panels[0].cell(70, 0).fill == value_color(1));
  CHECK(tv_scene(tv, tup(128, 1), {.color_by = ColorBy::kWarp}).panels[0].cell(40, 0).fill == warp_color(1));
  CHECK(tv_scene(tv, tup(128, 1), {.color_by = ColorBy::kNone}).panels[0].cell(40, 0).fill == Rgb{});
  CHECK(tv_scene(tv, tup(128, 1)).panels[0].cell(3, 0).fill == thread_color(3));
  CHECK_THROWS_AS(tv_scene(tv, tup(128, 1), {.color_by = ColorBy::kBank}), Error);
  CHECK_THROWS_AS(layout_scene(any("(4,8):(1,4)"), {.color_by = ColorBy::kThread}), Error);
  CHECK(parse_color_by("warp") == ColorBy::kWarp);
  CHECK_THROWS_AS(parse_color_by("rainbow"), Error);
}

TEST_CASE("TV scene: cells outside the tile are an error and unowned cells stay blank") {
  CHECK_THROWS_AS(tv_scene(plain("(4,4):(1,4)"), tup(4, 3)), Error);
  const Scene s = tv_scene(plain("(2,2):(1,4)"), tup(4, 2));
  CHECK(s.panels[0].cell(2, 0).label.empty());
  CHECK(s.panels[0].owners(2, 0).empty());
  CHECK(s.panels[0].cell(1, 1).label == "T1\nV1");
}

TEST_CASE("ThreadSet: CuTe users' thread lists") {
  const ThreadSet t = ThreadSet::parse("0,5,32-35, 34-40");
  CHECK(t.contains(0));
  CHECK(t.contains(5));
  CHECK(!t.contains(4));
  CHECK(t.contains(36));
  CHECK(t.contains(40));
  CHECK(!t.contains(41));
  CHECK(t.to_string() == "0,5,32-40");
  for (const char* bad : {"", "1,", "3-1", "a", "1;2", "-4"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(ThreadSet::parse(bad), Error);
  }
  try {
    ThreadSet::parse("0,5,x");
  } catch (const Error& e) {
    CHECK(e.position() == 4);
  }
}

TEST_CASE("MMA scene: C at the origin with A to the left and B above as print_latex(TiledMMA)") {
  const json row = reference_row("atoms.jsonl", "SM80_16x8x16_F32F16F16F32_TN");
  MmaPicture pic{plain(row["tv_layout_a"]), plain(row["tv_layout_b"]), plain(row["tv_layout_c"]), 16, 8, 16, 32};
  const Scene s = mma_scene(pic);
  const Panel &c = *s.find("C"), &a = *s.find("A"), &b = *s.find("B");
  CHECK(c.row0 == 0);
  CHECK(c.col0 == 0);
  CHECK(a.col0 == -17);
  CHECK(a.rows == 16);
  CHECK(a.cols == 16);
  CHECK(b.row0 == -17);
  CHECK(b.rows == 16);  // K down
  CHECK(b.cols == 8);   // N across
  // B is (N,K) in CuTe and drawn transposed: drawn (k,n) shows B(n,k)
  const json& owner_b = row["owner_b"];  // element n + N*k
  for (int64_t n = 0; n < 8; ++n)
    for (int64_t k = 0; k < 16; ++k) {
      REQUIRE(b.owners(k, n).size() == 1);
      CHECK(b.owners(k, n)[0].thr == owner_b["thr"][static_cast<size_t>(n + 8 * k)].get<int64_t>());
    }
  const Scene::Bounds bounds = s.bounds(false);
  CHECK(bounds.col_min == -18);  // A's row labels
  CHECK(bounds.row_min == -18);  // B's column labels
  CHECK(c.cute_text == "ArithTuple(_0,_0) o ((_4,_8),((_2,_2),(_1,_1))):((_2@1,_1@0),((_1@1,_8@0),(_0,_0)))");
}

TEST_CASE("copy scene: source and destination side by side as print_latex(TiledCopy)") {
  const Layout tv = plain("(32,4):(4,1)");
  const Scene s = copy_scene(CopyPicture{tv, tv, 16, 8, 32, {}});
  const Panel &src = *s.find("S"), &dst = *s.find("D");
  CHECK(src.col0 == 0);
  CHECK(dst.col0 == 8 + 3);
  CHECK(dst.row_axis.side == AxisLabels::Side::kRight);
  CHECK(src.row_axis.side == AxisLabels::Side::kLeft);
  CHECK(src.cell(5, 1).label == dst.cell(5, 1).label);
  CHECK(s.num_threads == 32);
}

TEST_CASE("views refuse pictures too large to draw instead of exhausting memory") {
  CHECK_THROWS_AS(layout_scene(any("(65536,65536):(1,65536)")), Error);
  CHECK_THROWS_AS(tv_scene(plain("(4096,8192):(0,1)"), tup(8192, 1)), Error);  // 33M owners
  CHECK_NOTHROW(layout_scene(any("(256,256):(256,1)")));
}
