// CuTeDSL (Python) front end: every cute.* function gives what its C++ spelling gives (the
// C++ path is itself checked against real CuTe by the golden tests), detection, errors, and
// the Python file scanner.
#include <doctest/doctest.h>

#include "lib/lang/dsl.hpp"
#include "lib/lang/expr.hpp"

using namespace cutevis;

namespace {

std::string eval(const std::string& text, Syntax syntax = Syntax::kAuto) {
  return evaluate_expression(text, default_registry(), syntax).to_string();
}

std::string error_of(const std::string& text, Syntax syntax = Syntax::kAuto, int64_t* position = nullptr) {
  try {
    evaluate_expression(text, default_registry(), syntax);
  } catch (const Error& e) {
    if (position) *position = e.position();
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every cute.* layout function equals its C++ spelling") {
  const std::pair<const char*, const char*> same[] = {
      {"cute.make_layout((4, 8), stride=(1, 4))", "Layout<Shape<_4,_8>,Stride<_1,_4>>{}"},
      {"cute.make_layout((4, 8))", "make_layout(make_shape(4,8))"},
      {"cute.make_layout(((4, 2), 4), stride=((8, 4), 1))", "((4,2),4):((8,4),1)"},
      {"cute.make_layout(shape=(4, 8), stride=(8, 1))", "make_layout(make_shape(4,8), LayoutRight{})"},
      {"cute.make_layout((4, 8), stride=None)", "make_layout(make_shape(4,8))"},
      {"cute.make_ordered_layout((4, 8, 2), order=(2, 0, 1))",
       "make_ordered_layout(make_shape(4,8,2), make_step(2,0,1))"},
      {"cute.make_identity_layout((4, 8))", "make_identity_layout(make_shape(4,8))"},
      {"cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 64), stride=(64, 1)))",
       "composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})"},
      {"cute.make_swizzle(2, 4, 3)", "Swizzle<2,4,3>{}"},
      {"cute.composition(cute.make_layout((4, 8), stride=(1, 4)), cute.make_layout((2, 2), stride=(1, 2)))",
       "composition((4,8):(1,4), (2,2):(1,2))"},
      {"cute.composition(cute.make_layout((8, 8)), (4, None))",
       "composition(make_layout(make_shape(8,8)), make_tile(4,_))"},
      {"cute.complement(cute.make_layout(4, stride=2), 32)", "complement(4:2, 32)"},
      {"cute.complement(cute.make_layout((2, 2), stride=(1, 6)))", "complement((2,2):(1,6))"},
      {"cute.coalesce(cute.make_layout((2, (1, 6)), stride=(1, (6, 2))))", "coalesce((2,(1,6)):(1,(6,2)))"},
      {"cute.coalesce(cute.make_layout((2, (1, 6)), stride=(1, (6, 2))), target_profile=(1, 1))",
       "coalesce((2,(1,6)):(1,(6,2)), (1,1))"},
      {"cute.right_inverse(cute.make_layout((4, 8), stride=(8, 1)))", "right_inverse((4,8):(8,1))"},
      {"cute.left_inverse(cute.make_layout((4, 8), stride=(16, 1)))", "left_inverse((4,8):(16,1))"},
      {"cute.logical_divide(cute.make_layout((8, 8)), (2, None))",
       "logical_divide(make_layout(make_shape(8,8)), make_tile(2,_))"},
      {"cute.zipped_divide(cute.make_layout((8, 8)), (2, 4))", "zipped_divide((8,8):(1,8), make_tile(2,4))"},
      {"cute.tiled_divide(cute.make_layout((8, 8)), (cute.make_layout(2, stride=2), 4))",
       "tiled_divide((8,8):(1,8), make_tile(2:2,4))"},
      {"cute.flat_divide(cute.make_layout((8, 8)), (2, 4))", "flat_divide((8,8):(1,8), make_tile(2,4))"},
      {"cute.logical_divide(cute.make_layout(24), cute.make_layout(4, stride=2))", "logical_divide(24:1, 4:2)"},
      {"cute.logical_product(cute.make_layout((2, 2)), cute.make_layout(3, stride=4))",
       "logical_product((2,2):(1,2), 3:4)"},
      {"cute.zipped_product(cute.make_layout((2, 2)), (cute.make_layout(3), cute.make_layout(2)))",
       "zipped_product((2,2):(1,2), make_tile(3:1,2:1))"},
      {"cute.tiled_product(cute.make_layout((2, 2)), (cute.make_layout(3), cute.make_layout(2)))",
       "tiled_product((2,2):(1,2), make_tile(3:1,2:1))"},
      {"cute.flat_product(cute.make_layout((2, 2)), (cute.make_layout(3), cute.make_layout(2)))",
       "flat_product((2,2):(1,2), make_tile(3:1,2:1))"},
      {"cute.blocked_product(cute.make_layout((2, 2), stride=(2, 1)), cute.make_layout((3, 4)))",
       "blocked_product((2,2):(2,1), (3,4):(1,3))"},
      {"cute.raked_product(cute.make_layout((2, 2), stride=(2, 1)), cute.make_layout((3, 4)))",
       "raked_product((2,2):(2,1), (3,4):(1,3))"},
      {"cute.tile_to_shape(cute.make_layout((8, 8), stride=(8, 1)), (32, 16), (1, 0))",
       "tile_to_shape((8,8):(8,1), make_shape(32,16), make_step(1,0))"},
      {"cute.tile_to_shape(cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 64), "
       "stride=(64, 1))), (128, 64, 3), "
       "order=(0, 1, 2))",
       "tile_to_shape(composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), "
       "make_shape(_128{},_64{},_3{}), make_step(_0{},_1{},_2{}))"},
      {"cute.make_layout_tv(cute.make_layout((4, 8), stride=(8, 1)), cute.make_layout((2, 2)))",
       "make_layout_tv((4,8):(8,1), (2,2):(1,2))"},
      {"cute.recast_layout(32, 16, cute.make_layout((8, 64), stride=(64, 1)))",
       "recast_layout<half_t,float>((8,64):(64,1))"},
      {"cute.recast_layout(8, 16, cute.make_layout((8, 64), stride=(64, 1)))",
       "recast_layout<half_t,uint8_t>((8,64):(64,1))"},
      {"cute.get(cute.make_layout((4, (2, 3))), mode=[1])", "get<1>((4,(2,3)):(1,(4,8)))"},
      {"cute.get(cute.make_layout((4, (2, 3))), mode=[1, 0])", "get<1,0>((4,(2,3)):(1,(4,8)))"},
      {"cute.size(cute.make_layout((4, (2, 3))))", "size((4,(2,3)):(1,(4,8)))"},
      {"cute.size(cute.make_layout((4, (2, 3))), mode=[1])", "size<1>((4,(2,3)):(1,(4,8)))"},
      {"cute.size((4, 8))", "size(make_shape(4,8))"},
      {"cute.cosize(cute.make_layout((4, 8), stride=(1, 5)))", "cosize((4,8):(1,5))"},
      {"cute.cosize(cute.make_layout((4, 8), stride=(1, 5)), mode=[1])", "cosize<1>((4,8):(1,5))"},
      {"cute.rank(cute.make_layout((4, (2, 3))), mode=[1])", "rank<1>((4,(2,3)):(1,(4,8)))"},
      {"cute.depth(cute.make_layout((4, (2, 3))))", "depth((4,(2,3)):(1,(4,8)))"},
      {"cute.select(cute.make_layout((4, 8, 2)), mode=[2, 0])", "select<2,0>((4,8,2):(1,4,32))"},
      {"cute.group_modes(cute.make_layout((4, 8, 2)), 0, 2)", "group<0,2>((4,8,2):(1,4,32))"},
      {"cute.append(cute.make_layout((4, 8)), cute.make_layout(2, stride=32))", "append((4,8):(1,4), 2:32)"},
      {"cute.prepend(cute.make_layout((4, 8)), cute.make_layout(2, stride=32))", "prepend((4,8):(1,4), 2:32)"},
      {"cute.slice_(cute.make_layout((4, 8, 3)), (None, 0, None))", "slice(make_coord(_,0,_), (4,8,3):(1,4,32))"},
      {"cute.filter(cute.make_layout((4, 1, 8), stride=(1, 0, 4)))", "filter((4,1,8):(1,0,4))"},
      {"cute.flatten(cute.make_layout(((4, 2), 8)))", "flatten(((4,2),8):((1,4),8))"},
      {"cute.max_common_vector(cute.make_layout((4, 8)), cute.make_layout((4, 8), stride=(1, 8)))",
       "max_common_vector((4,8):(1,4), (4,8):(1,8))"},
      {"cute.ceil_div((7, 9), (2, 4))", "ceil_div(make_shape(7,9), make_shape(2,4))"},
      {"cute.make_layout((4, 8)).shape", "shape((4,8):(1,4))"},
      {"cute.make_fragment_like(cute.make_layout((4, 8), stride=(8, 1)))", "make_fragment_like((4,8):(8,1))"},
      {"cute.make_layout((4, 8)).stride", "stride((4,8):(1,4))"},
      {"cute.make_layout((2 * 64, 128 // 2 + 1 - 1), stride=(1, -(-128)))", "(128,64):(1,128)"},
  };
  for (const auto& [dsl, cpp] : same) {
    const auto& dsl_text = dsl;  // clang 14 cannot capture a structured binding (CAPTURE is a lambda)
    CAPTURE(dsl_text);
    CHECK(eval(dsl) == eval(cpp));
    CHECK(eval(dsl, Syntax::kDsl) == eval(cpp, Syntax::kCpp));
  }
}

TEST_CASE("Python's forms mean what Python means") {
  CHECK(eval("(4)", Syntax::kDsl) == "4");         // parentheses, not a tuple
  CHECK(eval("(4,)", Syntax::kDsl) == "(4)");      // a one-tuple
  CHECK(eval("[2, 3]", Syntax::kDsl) == "(2,3)");  // a list is a tuple of the expression language
  CHECK(eval("-7 // 2", Syntax::kDsl) == "-4");    // floor division
  CHECK(eval("-7 % 2", Syntax::kDsl) == "1");
  CHECK(eval("(1, 2) + (3,)", Syntax::kDsl) == "(1,2,3)");  // tuple concatenation
  CHECK(eval("(4, 8, 16)[-1]", Syntax::kDsl) == "16");
  CHECK(eval("(128, 64, 4)[1]", Syntax::kDsl) == "64");
  CHECK(eval("min(128, 64 * 4, 96) + max(1, 2)", Syntax::kDsl) == "98");
  CHECK(eval("cute.round_up(100, 32)") == "128");
  CHECK(eval("cute.size(cute.make_layout((4, 8)), loc=None, ip=None)") == "32");  // MLIR's location keywords
  CHECK(eval("cutlass.Float16", Syntax::kDsl) == "half_t");
  CHECK(eval("cutlass.Float8E4M3FN", Syntax::kDsl) == "float_e4m3_t");
  CHECK(eval("cutlass.BFloat16", Syntax::kDsl) == "bfloat16_t");
  CHECK(eval("cutlass.Int8", Syntax::kDsl) == "int8_t");
  CHECK(eval("cutlass.Float32", Syntax::kDsl) == "float");
  CHECK(eval("cutlass.cute.make_layout((2, 2))") == "(2,2):(1,2)");  // the full module path
  CHECK(eval("cute.make_layout(\n  (4, 8),  # shape\n  stride=(1, 4),\n)") ==
        "(4,8):(1,4)");  // comments, trailing comma
}

TEST_CASE("detection: CuTeDSL names its modules, C++ and printed notation never do") {
  CHECK(looks_like_dsl("cute.make_layout((4, 8))"));
  CHECK(looks_like_dsl("cutlass.Float16"));
  CHECK(looks_like_dsl("sm90_utils.make_smem_layout_a(a, b, c, d)"));
  CHECK(looks_like_dsl("warpgroup.MmaF16BF16Op(x)"));
  CHECK(looks_like_dsl("self.tile_shape"));
  CHECK(looks_like_dsl("f(None)"));
  CHECK_FALSE(looks_like_dsl("((4,2),4):((8,4),1)"));
  CHECK_FALSE(looks_like_dsl("cute::Layout<cute::Shape<cute::_4>>{}"));
  CHECK_FALSE(looks_like_dsl("make_layout(make_shape(4,8), LayoutRight{})"));
  CHECK_FALSE(looks_like_dsl("S<3,4,3> o 0 o (8,64):(64,1)"));
  CHECK_FALSE(looks_like_dsl("size(L.shape())"));  // a C++ member call on a named layout
  CHECK_FALSE(looks_like_dsl("my_cute.x"));        // only whole module names count
}

TEST_CASE("CuTeDSL errors: one line, the bad spot, and a hint when another notation was meant") {
  int64_t pos = -1;
  std::string e = error_of("cute.make_layout((4, 8), stride=(1, 4)", Syntax::kAuto, &pos);
  CHECK(e.find("unbalanced '('") != std::string::npos);
  CHECK(pos == 16);
  CHECK(e.find('\n') == std::string::npos);

  e = error_of("cute.make_layout((4, 8), strid=(1, 4))", Syntax::kAuto, &pos);
  CHECK(e == "cute.make_layout has no parameter 'strid' (its parameters: shape, stride)");
  CHECK(pos == 25);

  e = error_of("cute.make_layout(Shape<_4,_8>{})", Syntax::kAuto, &pos);
  CHECK(e.find("looks like C++") != std::string::npos);
  CHECK(pos == 22);

  e = error_of("(4,8):(1,4)", Syntax::kDsl, &pos);
  CHECK(e.find("printed notation") != std::string::npos);
  CHECK(e.find("cute.make_layout(shape, stride=...)") != std::string::npos);
  CHECK(pos == 5);

  e = error_of("Layout<Shape<_4,_8>>{}", Syntax::kDsl);
  CHECK(e.find("C++") != std::string::npos);

  CHECK(error_of("cute.make_layout((4, 8), stride=(1, 4), stride=(1, 4))").find("given twice") != std::string::npos);
  CHECK(error_of("cute.make_layout(stride=(1, 4), (4, 8))").find("positional argument follows a keyword") !=
        std::string::npos);
  CHECK(error_of("cute.make_layout(stride=(1, 4))").find("needs its 'shape' argument") != std::string::npos);
  CHECK(error_of("cute.make_layout((4, 8), (1, 4), (2, 2))").find("at most 2 arguments") != std::string::npos);
  CHECK(error_of("cute.make_layout(\"(4,8)\")").find("strings") != std::string::npos);
  CHECK(error_of("cute.make_layout((4, 8.0))").find("integers") != std::string::npos);
  CHECK(error_of("cute.size(x for x in y)").find("Python that cutevis does not evaluate") != std::string::npos);
  CHECK(error_of("4 / 2", Syntax::kDsl).find("'//'") != std::string::npos);
  CHECK(error_of("make_layout((4, 8), stride=(1, 4))", Syntax::kDsl).find("write cute.make_layout(...)") !=
        std::string::npos);
  CHECK(error_of("cute.nosuch((4, 8))").find("unknown function 'cute.nosuch'") != std::string::npos);
  CHECK(error_of(std::string(300, '(') + "1" + std::string(300, ')'), Syntax::kDsl).find("nested too deeply") !=
        std::string::npos);
}

TEST_CASE("a CuTeDSL spelling in a C++ expression suggests the DSL form") {
  int64_t pos = -1;
  std::string e = error_of("make_layout((4,8), stride=(1,4))", Syntax::kCpp, &pos);
  CHECK(e.find("keyword arguments are CuTeDSL") != std::string::npos);
  CHECK(e.find("cute.make_layout((4, 8), stride=(1, 4))") != std::string::npos);
  CHECK(pos == 25);
  // C++ comparisons are not keyword arguments: no hint
  CHECK(error_of("(4,8) == (4,8", Syntax::kCpp).find("CuTeDSL") == std::string::npos);
}

TEST_CASE("scan_python finds assignments at any indentation, with their scope and position") {
  const std::string src =
      "import cutlass\n"
      "import cutlass.cute as cute\n"
      "\n"
      "TILE_M = 128  # a module constant\n"
      "\"\"\"docstring: x = not_an_assignment\"\"\"\n"
      "class HopperGemm:\n"
      "    def __init__(self, tile_shape=(128, 128, 64)):\n"
      "        self.tile_shape = tile_shape\n"
      "        self.a_dtype: type = cutlass.Float16\n"
      "\n"
      "    @cute.jit\n"
      "    def __call__(self, a, b):\n"
      "        sA_layout = cute.make_layout(\n"
      "            (TILE_M, 64),   # rows, cols\n"
      "            stride=(64, 1),\n"
      "        )\n"
      "        if a == b:\n"
      "            x += 1\n"
      "            y, z = 1, 2\n"
      "            tiled = cute.make_tiled_mma(op, (2, 2, 1)); n = 4\n"
      "        f = lambda k=1: k\n"
      "        s = \"a = b\"\n"
      "\n"
      "def helper():\n"
      "    atom = sm90_utils.get_smem_layout_atom(layout, cutlass.Float16, 64)\n"
      "K = N = 64\n";
  std::vector<Declaration> d = scan_python(src, "kernel.py");
  std::vector<std::string> names;
  for (const auto& x : d) names.push_back(x.scope + "|" + x.name + "=" + x.text);
  const std::vector<std::string> want = {
      "|TILE_M=128",
      "HopperGemm|self.tile_shape=tile_shape",
      "HopperGemm|self.a_dtype=cutlass.Float16",
      "HopperGemm::__call__|sA_layout=cute.make_layout(\n            (TILE_M, 64),   # rows, cols\n            "
      "stride=(64, 1),\n        )",
      "HopperGemm::__call__|tiled=cute.make_tiled_mma(op, (2, 2, 1))",
      "HopperGemm::__call__|n=4",
      "HopperGemm::__call__|f=lambda k=1: k",
      "HopperGemm::__call__|s=\"a = b\"",
      "helper|atom=sm90_utils.get_smem_layout_atom(layout, cutlass.Float16, 64)",
      "|K=64",
      "|N=64",
  };
  CHECK(names == want);
  REQUIRE(d.size() == want.size());
  CHECK(d[0].line == 4);
  CHECK(d[0].column == 10);
  CHECK(d[0].file == "kernel.py");
  CHECK(d[0].language == SourceLanguage::kPython);
  CHECK(d[3].line == 13);
  CHECK(d[3].column == 21);
  CHECK(d[8].line == 25);
  // the scanned text parses with the DSL front end into the same layout as its C++ spelling
  CHECK(eval(d[3].text.substr(0, d[3].text.find("TILE_M")) + "128" + d[3].text.substr(d[3].text.find("TILE_M") + 6)) ==
        eval("make_layout(make_shape(128,64), make_stride(64,1))"));
}

TEST_CASE("scan_python survives junk") {
  CHECK(scan_python("", "e.py").empty());
  CHECK(scan_python("\"\"\"unterminated\nx = 1\n", "e.py").empty());  // inside the string
  CHECK(scan_python(std::string("\x00\xff=\x01\n", 5), "b.py").empty());
  std::string deep(100000, '(');
  CHECK(scan_python("x = " + deep, "d.py").size() == 1);  // unbalanced: the rest of the file is its value
  std::string big;
  for (int i = 0; i < 20000; ++i)
    big += "    v" + std::to_string(i) + " = cute.make_layout((" + std::to_string(i + 1) + ", 2))\n";
  CHECK(scan_python(big, "big.py").size() == 20000);
}

TEST_CASE("CuTeDSL front end: random text gives a value or an Error, never a crash") {
  const std::vector<std::string> pieces = {"cute.",
                                           "make_layout",
                                           "logical_divide",
                                           "size",
                                           "(",
                                           ")",
                                           "[",
                                           "]",
                                           ",",
                                           "=",
                                           "stride",
                                           "mode",
                                           "None",
                                           "True",
                                           "4",
                                           "8",
                                           "-",
                                           "*",
                                           "//",
                                           "%",
                                           "+",
                                           ".",
                                           "shape",
                                           " ",
                                           "cutlass.Float16",
                                           "cute.make_swizzle(3,4,3)",
                                           "0",
                                           "#",
                                           "\n",
                                           ":",
                                           "<",
                                           "{}",
                                           "\"",
                                           "lambda",
                                           "self.x"};
  uint64_t state = 14;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<size_t>(state >> 33);
  };
  int values = 0, errors = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    for (size_t n = next() % 12 + 1; n > 0; --n) text += pieces[next() % pieces.size()];
    try {
      evaluate_expression(text, default_registry(), Syntax::kDsl);
      ++values;
    } catch (const Error& e) {
      ++errors;
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
      if (e.has_position()) CHECK(static_cast<size_t>(e.position()) <= text.size());
    }
  }
  CHECK(values > 0);
  CHECK(errors > 0);
}
