#!/usr/bin/env python3
"""The smem -> register -> MMA path of a kernel, checked on the GPU (issue 9, item 4).

  gpu_pipeline.py cases DIR [--cutevis build/bin/cutevis]     # here: DIR/cases.txt and DIR/expect.json
  (GPU machine) nvcc -O2 -arch=sm_90a -o pr scripts/pipeline_replay.cu && ./pr DIR/cases.txt results.txt
  gpu_pipeline.py check DIR/expect.json results.txt           # per case: PASS, or the first wrong registers and a D diff
  gpu_pipeline.py emulate DIR/cases.txt results.txt           # ldmatrix on the CPU (no D): the plumbing without a GPU

A case is a TiledMMA (SM80 m16n8k16 f16 -> f32), for A and B a shared-memory layout the program
assumes and an S2R copy atom (make_tiled_copy_A/B), and the layout the data really has (the
same, or a deliberately different one).  cutevis gives the ldmatrix row addresses
(`copy --analyze --json --addresses`), which cells each copied register value holds (the copy's
owners_d) and the MMA's fragments (`mma --json`).  The GPU fills shared memory with tags, then
with small integers, runs the real ldmatrix and mma.sync, and returns every thread's registers
and D; here every register is checked against the cell the copy promises and every D element
against the product of the matrices.
"""
import argparse
import json
import os
import struct
import subprocess
import sys

MMA_2x2 = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})"
MMA_1x1 = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{})"


def cases():
    """(name, mma, (A copy op, A assumed layout, A real layout), (B ...)); layouts are (M,K) / (N,K)."""
    a_row, b_row = "(32,16):(16,1)", "(16,16):(16,1)"
    a_sw = "tile_to_shape(GMMA::Layout_K_SW32_Atom<half_t>{}, Shape<_32,_16>{})"
    b_mn = "(16,16):(1,16)"
    return [
        ("sm80_ldsm_rowmajor", MMA_2x2, ("SM75_U32x4_LDSM_N", a_row, a_row), ("SM75_U32x2_LDSM_N", b_row, b_row)),
        ("sm80_ldsm_sw32", MMA_2x2, ("SM75_U32x4_LDSM_N", a_sw, a_sw), ("SM75_U32x2_LDSM_N", b_row, b_row)),
        ("sm80_ldsm_padded", MMA_2x2, ("SM75_U32x4_LDSM_N", "(32,16):(24,1)", "(32,16):(24,1)"), ("SM75_U32x2_LDSM_N", "(16,16):(24,1)", "(16,16):(24,1)")),
        ("sm80_ldsm_B_mn_trans", MMA_2x2, ("SM75_U32x4_LDSM_N", a_row, a_row), ("SM75_U16x4_LDSM_T", b_mn, b_mn)),
        ("sm80_ldsm_1x1", MMA_1x1, ("SM75_U32x4_LDSM_N", "(16,16):(16,1)", "(16,16):(16,1)"), ("SM75_U32x2_LDSM_N", "(8,16):(16,1)", "(8,16):(16,1)")),
        # deliberately wrong: the data is swizzled, the program reads it as row-major
        ("WRONG_layout_A_unswizzled", MMA_2x2, ("SM75_U32x4_LDSM_N", a_row, a_sw), ("SM75_U32x2_LDSM_N", b_row, b_row)),
        # deliberately wrong: the program assumes padded rows, the data is packed
        ("WRONG_layout_A_padding", MMA_2x2, ("SM75_U32x4_LDSM_N", "(32,16):(24,1)", a_row), ("SM75_U32x2_LDSM_N", b_row, b_row)),
        # deliberately wrong atoms: B is MN-major, the program uses the non-transposing ldmatrix; A is
        # K-major, the program transposes.  The analysis finds their rows misaligned (ldmatrix would
        # fault): they fail before the GPU, with the thread and address named.
        ("WRONG_atom_B_not_trans", MMA_2x2, ("SM75_U32x4_LDSM_N", a_row, a_row), ("SM75_U32x2_LDSM_N", b_mn, b_mn)),
        ("WRONG_atom_A_trans", MMA_2x2, ("SM75_U16x8_LDSM_T", a_row, a_row), ("SM75_U32x2_LDSM_N", b_row, b_row)),
        # deliberately wrong: B's data is K-major, the program assumes MN-major and transposes
        ("WRONG_layout_B_major", MMA_2x2, ("SM75_U32x4_LDSM_N", a_row, a_row), ("SM75_U16x4_LDSM_T", b_mn, b_row)),
    ]


def cutevis(args, *cmd):
    p = subprocess.run([args.cutevis, *cmd], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"cutevis {' '.join(cmd)}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def owners(block):
    """(t, v) -> cell index (column-major) from an owners_* object."""
    out = {}
    for cell, own in enumerate(block["owners"]):
        for t, v in own:
            out[(t, v)] = cell
    return out


def layout_offsets(args, layout):
    return cutevis(args, "eval", layout, "--json")["values"]


def f16(x):
    return struct.unpack("<H", struct.pack("<e", float(x)))[0]


def a_value(m, k):
    return ((3 * m + 5 * k) % 7) - 3


def b_value(n, k):
    return ((5 * n + 3 * k) % 5) - 2


def run_cases(args):
    os.makedirs(args.dir, exist_ok=True)
    expect = []
    with open(os.path.join(args.dir, "cases.txt"), "w") as out:
        for name, mma_expr, a_spec, b_spec in cases():
            mma = cutevis(args, "mma", mma_expr, "--json")
            tm, tn, tk = mma["tile_mnk"]
            threads = mma["num_threads"]
            ops = {}
            base_bytes = 0
            halves_total = 0
            for operand, (op, assumed, real), rows in (("A", a_spec, tm), ("B", b_spec, tn)):
                copy_expr = f"make_tiled_copy_{operand}(Copy_Atom<{op}, half_t>{{}}, {mma_expr})"
                copy = cutevis(args, "copy", copy_expr, "--json")
                ana = cutevis(args, "copy", copy_expr, "--src", "smem:" + assumed, "--analyze", "--json", "--addresses")
                real_off = layout_offsets(args, real)
                span = max(real_off) + 1
                ops[operand] = dict(op=op, assumed=assumed, real=real, rows=rows, copy=copy, ana=ana, real_off=real_off,
                                    base=base_bytes, mma=owners(mma["owners_" + operand.lower()]), dst=owners(copy["owners_d"]))
                base_bytes += (span * 2 + 1023) // 1024 * 1024
            halves_total = base_bytes // 2
            # ldmatrix rows must be 16-byte aligned: a misaligned copy fails here, named
            static = []
            for operand, o in ops.items():
                for i in o["ana"]["instructions"]:
                    for lane, addr in enumerate(i["address"]):
                        if addr >= 0 and addr % 16 and len(static) < 3:
                            static.append(f"{operand}: {i['ptx']} #{i['index']}, thread {i['warp'] * 32 + lane}: row address {addr} "
                                          f"is not 16-byte aligned (vectorizes: {o['ana']['src']['vectorizes']})")
            if static:
                expect.append(dict(case=name, static_failure=static,
                                   spec={k: {"op": o["op"], "assumed": o["assumed"], "real": o["real"]} for k, o in ops.items()}))
                continue
            fills = [[0] * halves_total, [0] * halves_total]
            for operand, o in ops.items():
                for cell, off in enumerate(o["real_off"]):
                    r, k = cell % o["rows"], cell // o["rows"]
                    pos = o["base"] // 2 + off
                    fills[0][pos] = (1 if operand == "A" else 0x4000) + cell  # a tag naming the cell
                    fills[1][pos] = f16(a_value(r, k) if operand == "A" else b_value(r, k))
            # the loads: warp-ordered instructions of A then B, one row address per thread
            loads, half_base = [], {}
            next_half = 0
            for operand, o in ops.items():
                insts = [i for i in o["ana"]["instructions"] if i["warp"] == 0]
                for i in insts:
                    matrices = int(i["ptx"].split(".x")[1][0])
                    table = [-1] * threads
                    for j in o["ana"]["instructions"]:
                        if j["index"] != i["index"]:
                            continue
                        for lane, addr in enumerate(j["address"]):
                            t = j["warp"] * 32 + lane
                            if t < threads and addr >= 0:
                                table[t] = addr + o["base"]
                    loads.append((matrices, 1 if ".trans" in i["ptx"] else 0, table))
                    half_base[(operand, i["index"])] = (next_half, 2 * matrices)
                    next_half += 2 * matrices
            # where each copied value lands: value v of call c -> half index
            def half_of(operand, v):
                per_call = half_base[(operand, 0)][1]
                call, j = divmod(v, per_call)
                return half_base[(operand, call)][0] + j
            perms = {}
            for operand, o in ops.items():
                nvals = 8 if operand == "A" else 4
                perm = []
                for t in range(threads):
                    delivered = {cell: v for (tt, v), cell in o["dst"].items() if tt == t}
                    for v in range(nvals):
                        cell = o["mma"].get((t, v))
                        perm.append(half_of(operand, delivered[cell]) if cell in delivered else -1)
                perms[operand] = perm
            out.write(f"case {name} {threads} {halves_total} {len(loads)}\n")
            for f in fills:
                out.write(" ".join(map(str, f)) + "\n")
            for matrices, trans, table in loads:
                out.write(f"{matrices} {trans} " + " ".join(map(str, table)) + "\n")
            out.write(" ".join(map(str, perms["A"])) + "\n" + " ".join(map(str, perms["B"])) + "\n")
            # what the program believes: register half -> cell; D value -> (m,n)
            believed = {}
            for operand, o in ops.items():
                for (t, v), cell in o["dst"].items():
                    believed.setdefault(t, {})[half_of(operand, v)] = (operand, cell)
            c_owner = owners(mma["owners_c"])
            expect.append(dict(case=name, threads=threads, tile=[tm, tn, tk],
                               believed={str(t): {str(h): list(x) for h, x in m.items()} for t, m in believed.items()},
                               d={f"{t},{v}": cell for (t, v), cell in c_owner.items()},
                               fragment_missing=sum(1 for p in perms["A"] + perms["B"] if p < 0),
                               spec={k: {"op": o["op"], "assumed": o["assumed"], "real": o["real"]} for k, o in ops.items()}))
    json.dump(expect, open(os.path.join(args.dir, "expect.json"), "w"))
    print(f"{len(expect)} pipeline cases written to {args.dir}")


def check(args):
    expect = json.load(open(args.expect))
    regs, d = {}, {}
    for line in open(args.results):
        w = line.split()
        if w[0] == "regs":
            regs[(w[1], int(w[2]), int(w[3]))] = list(map(int, w[4:]))
        elif w[0] == "d":
            d[(w[1], int(w[2]), int(w[3]))] = list(map(float, w[4:]))
    failed = 0
    report = []
    for e in expect:
        if "static_failure" in e:
            failed += 1
            report.append(f"{e['case']}: FAIL before the GPU (the copy's ldmatrix rows are misaligned; the kernel would fault)"
                          f"  A {e['spec']['A']['op']} {e['spec']['A']['assumed']}; B {e['spec']['B']['op']} {e['spec']['B']['assumed']}")
            report += ["    " + x for x in e["static_failure"]]
            continue
        name, (tm, tn, tk) = e["case"], e["tile"]
        wrong_regs, wrong_d = [], []
        for t in range(e["threads"]):
            got = regs[(name, 0, t)]
            for h, (operand, cell) in e["believed"].get(str(t), {}).items():
                want = (1 if operand == "A" else 0x4000) + cell
                g = got[int(h)]
                if g != want:
                    rows = tm if operand == "A" else tn
                    gop = "A" if g < 0x4000 else "B"
                    gcell = g - (1 if gop == "A" else 0x4000)
                    grows = tm if gop == "A" else tn
                    wrong_regs.append(f"T{t} {operand} register half {h}: expected {operand}({cell % rows},{cell // rows}), "
                                      f"got {gop}({gcell % grows},{gcell // grows})")
        bad_cells = set()
        for key, cell in e["d"].items():
            t, v = map(int, key.split(","))
            m, n = cell % tm, cell // tm
            want = sum(a_value(m, k) * b_value(n, k) for k in range(tk))
            got = d[(name, 1, t)][v]
            if got != want:
                wrong_d.append(f"T{t} D value {v} = D({m},{n}): expected {want}, got {got:g}")
                bad_cells.add((m, n))
        ok = not wrong_regs and not wrong_d
        failed += not ok
        report.append(f"{name}: {'PASS' if ok else 'FAIL'} ({len(wrong_regs)} wrong register halves, {len(wrong_d)} wrong D values)"
                      f"  A {e['spec']['A']['op']} assumed {e['spec']['A']['assumed']} real {e['spec']['A']['real']};"
                      f" B {e['spec']['B']['op']} assumed {e['spec']['B']['assumed']} real {e['spec']['B']['real']}")
        if not ok:
            for line in (wrong_regs[:3] + wrong_d[:3]):
                report.append("    " + line)
            report.append("    D diff (X wrong, . right), rows m, columns n:")
            for m in range(tm):
                report.append("      " + "".join("X" if (m, n) in bad_cells else "." for n in range(tn)))
    text = "\n".join(report) + "\n"
    print(text)
    if args.out:
        open(args.out, "w").write(text)
    return 0


def emulate(args):
    """ldmatrix on the CPU (registers only; D left 0): checks this script's plumbing without a GPU."""
    lines = open(args.cases).read().split("\n")
    out = open(args.results, "w")
    i = 0
    while i < len(lines) and lines[i].startswith("case"):
        _, name, threads, halves, nloads = lines[i].split()
        threads, nloads = int(threads), int(nloads)
        fills = [list(map(int, lines[i + 1].split())), list(map(int, lines[i + 2].split()))]
        loads = []
        for l in range(nloads):
            w = list(map(int, lines[i + 3 + l].split()))
            loads.append((w[0], w[1], w[2:]))
        i += 3 + nloads + 2
        for f in range(2):
            smem = fills[f]
            regs = {t: [] for t in range(threads)}
            for matrices, trans, table in loads:
                for t in range(threads):
                    w, lane = divmod(t, 32)
                    g, c = lane // 4, lane % 4
                    for mat in range(matrices):
                        rows = [table[w * 32 + 8 * mat + r] // 2 for r in range(8)]
                        # thread (g, c) gets row g, halves 2c, 2c+1 -- or, transposed, column g of rows 2c, 2c+1
                        pair = (smem[rows[g] + 2 * c], smem[rows[g] + 2 * c + 1]) if not trans else (smem[rows[2 * c] + g], smem[rows[2 * c + 1] + g])
                        regs[t] += list(pair)
            for t in range(threads):
                out.write(f"regs {name} {f} {t} " + " ".join(map(str, regs[t] + [0] * (64 - len(regs[t])))) + "\n")
                out.write(f"d {name} {f} {t} 0 0 0 0\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cases")
    c.add_argument("dir")
    c.add_argument("--cutevis", default="build/bin/cutevis")
    k = sub.add_parser("check")
    k.add_argument("expect")
    k.add_argument("results")
    k.add_argument("--out")
    m = sub.add_parser("emulate")
    m.add_argument("cases")
    m.add_argument("results")
    args = ap.parse_args()
    if args.cmd == "emulate":
        return emulate(args)
    if args.cmd == "cases":
        run_cases(args)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
