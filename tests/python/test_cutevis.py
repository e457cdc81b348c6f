"""The Python package against the CLI (no pytest: run as a script; ctest runs it).

    PYTHONPATH=build/python CUTEVIS_BIN=build/bin/cutevis /usr/bin/python3 tests/python/test_cutevis.py

Every check compares the package with the `cutevis` binary on the same input, or with a
value CuTe gives (tests/data, the README), so each could fail."""

import json
import os
import subprocess
import sys
import traceback

import cutevis
import cutevis.dsl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("CUTEVIS_BIN", os.path.join(ROOT, "build", "bin", "cutevis"))

MMA = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})"
COPY = "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, " \
       "Layout<Shape<_1,_8>>{})"
SW128_CPP = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})"
SW128_CPP_32 = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_32,_64>{})"
SW128_PLAIN_32 = ("cute.tile_to_shape(cute.nvgpu.warpgroup.make_smem_layout_atom("
                  "cute.nvgpu.warpgroup.SmemLayoutAtomKind.K_SW128, cutlass.Float16), (32, 64), (0, 1))")
SW128_DSL_32 = "cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), %s)" % SW128_PLAIN_32


def cli(*args):
    r = subprocess.run([BIN] + list(args), capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


failures = []


def check(name, cond, detail=""):
    if not cond:
        failures.append(name)
        print("FAIL %s %s" % (name, detail))
    else:
        print("ok   %s" % name)


def test_eval():
    L = cutevis.eval("(4,8):(1,4)")
    check("str is CuTe's print", str(L) == "(4,8):(1,4)", str(L))
    check("kind", L.kind == "layout", L.kind)
    check("__call__ with an index", L(5) == 5 and L(9) == 9 and L(1, 2) == 9, (L(5), L(1, 2)))
    check("values", L.values() == list(range(32)), L.values()[:5])
    c = cutevis.eval("composition((4,8):(8,1), (2,4):(4,1))")
    for text in ["(4,8):(8,1)", "composition((4,8):(8,1), (2,4):(4,1))", "Layout<Shape<_4,_8>>{}",
                 "cute.make_layout((4, 8), stride=(8, 1))", MMA, "S<3,4,3> o 0 o (8,64):(64,1)",
                 "make_layout(make_shape(Int<4>{}, 6))"]:
        rc, out, _ = cli("eval", "--json", text)
        check("json equals the CLI's: " + text[:40], rc == 0 and cutevis.eval(text).json() == json.loads(out))
        rc, out, _ = cli("eval", text)
        check("text equals the CLI's: " + text[:40], rc == 0 and str(cutevis.eval(text)) == out.strip(), out)
    check("a dynamic integer prints as CuTe's", str(cutevis.eval("make_layout(make_shape(Int<4>{}, 6))")) ==
          "(_4,6):(_1,_4)")
    check("composition", str(c) == "(2,4):(32,1)" or c.kind == "layout", str(c))
    v = cutevis.eval("SmemLayoutA{}", defines={"SmemLayoutA": "Layout<Shape<_8,_4>>"})
    check("defines", str(v) == "(8,4):(1,8)", str(v))


def test_errors():
    try:
        cutevis.eval("(4,8):(1,4")
        check("a parse error raises", False)
    except cutevis.Error as e:
        rc, _, err = cli("eval", "(4,8):(1,4")
        check("Error is a ValueError", isinstance(e, ValueError))
        check("one-line message as the CLI's", rc == 2 and ("cutevis: error: " + str(e)) == err.splitlines()[0],
              (str(e), err))
        check("position and caret as the CLI's", e.detail == err and e.position is not None and
              err.splitlines()[2].index("^") - 2 == e.position, (e.position, e.detail, err))
    try:
        cutevis.eval("coalesce(oops)")
        check("an unknown name raises", False)
    except cutevis.Error as e:
        check("unknown name message", "oops" in str(e), str(e))


def test_pictures():
    L = cutevis.eval("(4,8):(1,4)")
    svg = L.svg()
    rc, out, _ = cli("layout", "--svg", "(4,8):(1,4)")
    check("svg equals the CLI's", rc == 0 and svg == out, len(svg))
    check("_repr_svg_", L._repr_svg_() == svg)
    page = cutevis.eval(MMA).html(title=MMA)
    rc, out, _ = cli("mma", "--html", MMA)
    check("html page equals the CLI's", rc == 0 and page == out, (len(page), len(out)))
    check("_repr_html_ embeds the page", "<iframe srcdoc=" in cutevis.eval(MMA)._repr_html_())
    check("no picture for an int", cutevis.eval("6")._repr_svg_() is None)


def test_who():
    mma = cutevis.eval(MMA)
    owners = cutevis.who(mma, "A(5,3)")
    rc, out, _ = cli("mma", "--json", MMA)
    j = json.loads(out)
    rows = j["owners_a"]["shape"][0]
    expect = [tuple(o) for o in j["owners_a"]["owners"][5 + rows * 3]]
    check("who = the JSON's owners", owners == expect and len(owners) >= 1, (owners, expect))
    try:
        cutevis.who(mma, "A(500,3)")
        check("who outside the tile raises", False)
    except cutevis.Error:
        check("who outside the tile raises", True)


def test_analyze():
    copy = cutevis.eval(COPY)
    got = cutevis.analyze(copy, src="gmem:(128,64):(64,1)", dst=cutevis.eval(SW128_CPP))
    rc, out, _ = cli("copy", COPY, "--src", "gmem:(128,64):(64,1)", "--dst", SW128_CPP, "--analyze", "--json")
    check("analyze equals copy --analyze --json", rc == 0 and got == json.loads(out))


def test_sw128_dsl_equals_cpp():
    """CuTeDSL's SW128 atom used as shared memory swizzles byte addresses, as C++'s smem_ptr_flag
    layouts do: the same analysis and the same bank colours; as a plain function it keeps CuTeDSL's
    values (the swizzle on element offsets), which an LDSM read sees as 64 conflicts."""
    copy_text = "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, %s)" % MMA
    copy = cutevis.eval(copy_text)
    cpp = cutevis.analyze(copy, src="smem:" + SW128_CPP_32)
    dsl = cutevis.analyze(copy, src=SW128_DSL_32)
    check("SW128: DSL and C++ analyses equal", cpp == dsl)
    src = cpp.get("src", {}).get("totals", {})
    check("SW128: LDSM reads it without bank conflicts", src.get("bank_conflicts", -1) == 0 and
          src.get("wavefronts") == 64, src)
    rc, out, _ = cli("copy", copy_text, "--src", SW128_DSL_32, "--analyze", "--json")
    check("SW128: the CLI takes the DSL tensor", rc == 0 and json.loads(out) == dsl)
    plain = cutevis.eval(SW128_PLAIN_32)
    elem = cutevis.analyze(copy, src=("smem", plain))
    check("SW128: the swizzle on element offsets conflicts",
          elem["src"]["totals"]["bank_conflicts"] == 64, elem["src"]["totals"])
    a = cutevis.eval(SW128_CPP_32).svg(color_by="bank", title="t")
    b = cutevis.eval(SW128_DSL_32).svg(color_by="bank", title="t")
    c = plain.svg(color_by="bank", title="t")
    check("SW128: the same bank colours", a == b and a != c)
    outer = "((8,4),(64,1)):((64,512),(1,0))"
    check("SW128: as a plain function CuTeDSL's values (S<3,4,3> on element offsets)",
          plain.values() == cutevis.eval("composition(Swizzle<3,4,3>{}, %s)" % outer).values())
    check("SW128: C++'s values: the byte swizzle in element units (S<3,3,3>)",
          cutevis.eval(SW128_CPP_32).values() == cutevis.eval("composition(Swizzle<3,3,3>{}, %s)" % outer).values())


def test_call():
    L = cutevis.call("cute.make_layout", (4, 8), stride=(8, 1))
    check("call a DSL builtin", str(L) == "(4,8):(8,1)", str(L))
    check("Python ints are static", not L.has_dynamic())
    d = cutevis.call("cute.logical_divide", L, (2, None))
    rc, out, _ = cli("eval", "cute.logical_divide(cute.make_layout((4, 8), stride=(8, 1)), (2, None))")
    check("call with None = the DSL text", str(d) == out.strip(), (str(d), out))


def test_dsl_runner():
    path = os.path.join(ROOT, "samples", "dsl_hopper_gemm.py")
    setup = "__call__(tensor(cutlass.Float16, (512, 256, 1), leading=1), " \
            "tensor(cutlass.Float16, (512, 256, 1), leading=1), tensor(cutlass.Float32, (512, 512, 1), leading=1))"
    obj, session, failure = cutevis.dsl.run(path, "HopperGemm(cutlass.Float32, (128, 256), (1, 1))", setup)
    check("dsl: the host code ran to the end", failure is None, failure)
    rows = {r["name"]: r for r in cutevis.dsl.report(obj, session)}
    check("dsl: the conditional expression ran", obj.atom_layout_mnk == (2, 1, 1), obj.atom_layout_mnk)
    mma = rows.get("HopperGemm.tiled_mma", {})
    check("dsl: tiled_mma resolved", mma.get("kind") == "tiled_mma", mma)
    cpp = cutevis.eval("make_tiled_mma(SM90_64x256x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}, "
                       "Layout<Shape<_2,_1,_1>>{})")
    check("dsl: the TiledMMA is C++'s", mma.get("text") == str(cpp), (mma.get("text"), str(cpp)))
    sa = rows.get("HopperGemm.sA_layout", {})
    rc, out, _ = cli("eval", "sm90_utils.make_smem_layout_a(utils.LayoutEnum.ROW_MAJOR, (128, 256, 64), "
                     "cutlass.Float16, 4)")
    check("dsl: sA_layout = the helper's", sa.get("text") == out.strip(), (sa, out))
    check("dsl: tile_shape_mnk from the TiledMMA", obj.tile_shape_mnk == (128, 256, 64), obj.tile_shape_mnk)
    check("dsl: jit locals listed", rows.get("HopperGemm.__call__.tile", {}).get("kind") == "layout", list(rows))
    check("dsl: the kernel launch was recorded, its body not run",
          len(session.launches) == 1 and session.launches[0].config["block"] == [256, 1, 1])
    check("dsl: the fake cutlass is gone afterwards", "cutlass" not in sys.modules)
    rc, out, err = cli("dsl", path, "--call", "HopperGemm(cutlass.Float32, (128, 256), (1, 1))", "--setup", setup,
                       "tiled_mma", "sA_layout", "--json")
    j = json.loads(out) if rc == 0 else {}
    names = {r["name"]: r for r in j.get("names", [])}
    check("cutevis dsl (the CLI) lists the names", rc == 0 and names.get("tiled_mma", {}).get("text") == str(cpp),
          (rc, err[-300:]))
    rc, out, err = cli("dsl", path, "--call", "HopperGemm(cutlass.Float32, (64, 128), (1, 1))", "--setup", setup,
                       "nothing_here")
    check("cutevis dsl: an unknown name is exit 1", rc == 1, (rc, out, err))


for name, fn in sorted(globals().items()):
    if name.startswith("test_") and callable(fn):
        try:
            fn()
        except Exception:  # noqa: BLE001
            failures.append(name)
            print("FAIL %s raised:\n%s" % (name, traceback.format_exc()))

print("%d failed" % len(failures) if failures else "all passed")
sys.exit(1 if failures else 0)
