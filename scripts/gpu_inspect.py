#!/usr/bin/env python3
"""Check `cutevis copy --analyze` against Nsight Compute, case by case.

  gpu_inspect.py cases   [--cutevis build/bin/cutevis] [--only REGEX] DIR   # here: analyse every case (or those matching), write DIR/cases.txt + DIR/analysis.json
  (on the GPU machine)   scripts/gpu_inspect.sh DIR          # compile scripts/inspect_replay.cu, run it under ncu
  gpu_inspect.py compare DIR/analysis.json DIR/ncu_serial.csv [--table FILE]   # every number, side by side
  gpu_inspect.py record DIR/analysis.json DIR/ncu_serial.csv tests/data/inspect_h100.jsonl    # the measurements, for host tests

Each case is a TiledCopy over smem/gmem tensors.  `cutevis copy ... --analyze --json --addresses`
gives every warp instruction with every lane's byte address; the replay kernel executes exactly
those instructions (one launch per case), and ncu counts them:
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum   vs  smem wavefronts (ld incl. ldmatrix, st incl. stmatrix)
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum vs  smem bank conflicts
  l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st}.sum  vs  gmem requests / sectors
  ..._op_ldgsts                                                   vs  cp.async (both sides; .ca conflicts: within
                                                                      [bank_conflicts_min, bank_conflicts])
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

BASELINE_THREADS = [32, 64, 128, 256]
KIND = {"ld.shared": 0, "st.shared": 1, "ld.global": 2, "st.global": 3, "ldmatrix": 4, "stmatrix": 5, "cp.async": 6}


# --- the cases ---------------------------------------------------------------------------------

def smem_layouts_half(rows, cols):
    """(name, layout) of shared-memory tiles of half_t, rows x cols."""
    out = [
        ("row", f"({rows},{cols}):({cols},1)"),
        ("col", f"({rows},{cols}):(1,{rows})"),
        ("rowpad8", f"({rows},{cols}):({cols + 8},1)"),
        ("rowpad2", f"({rows},{cols}):({cols + 2},1)"),
        ("colpad8", f"({rows},{cols}):(1,{rows + 8})"),
    ]
    for b, m, s in [(1, 3, 3), (2, 3, 3), (3, 3, 3), (3, 4, 3), (2, 4, 3), (3, 3, 4)]:
        out.append((f"sw{b}{m}{s}", f"composition(Swizzle<{b},{m},{s}>{{}}, ({rows},{cols}):({cols},1))"))
    return out


def gmma_layouts(rows, cols, t="half_t"):
    out = []
    for major in ["K", "MN"]:
        for kind in ["INTER", "SW32", "SW64", "SW128"]:
            out.append((f"gmma_{major}_{kind}", f"tile_to_shape(GMMA::Layout_{major}_{kind}_Atom<{t}>{{}}, Shape<_{rows},_{cols}>{{}})"))
    return out


def cases():
    c = []
    # 1. registers <-> smem with UniversalCopy of 32/64/128 bits, threads along rows or columns.
    for bits, vals in [(32, 2), (64, 4), (128, 8)]:
        atom = f"Copy_Atom<UniversalCopy<uint{bits}_t>, half_t>"
        rows, cols = 32, 64
        thr_cols = cols // vals
        thr_rows = 128 // thr_cols
        copies = {
            "rowthr": f"make_tiled_copy({atom}{{}}, Layout<Shape<_{thr_rows},_{thr_cols}>,Stride<_{thr_cols},_1>>{{}}, Layout<Shape<_1,_{vals}>>{{}})",
            "colthr": f"make_tiled_copy({atom}{{}}, Layout<Shape<_{thr_rows},_{thr_cols}>>{{}}, Layout<Shape<_1,_{vals}>>{{}})",
        }
        for cname, expr in copies.items():
            for lname, layout in smem_layouts_half(rows, cols) + gmma_layouts(rows, cols):
                for direction in ["ld", "st"]:
                    side = "--src" if direction == "ld" else "--dst"
                    c.append((f"u{bits}_{cname}_{lname}_{direction}", expr, [side, "smem:" + layout]))
    # 2. gmem -> smem through registers (UniversalCopy<uint128_t>), row/column-major gmem.
    atom = "Copy_Atom<UniversalCopy<uint128_t>, half_t>"
    for gname, g in [("grow", "(64,64):(64,1)"), ("gcol", "(64,64):(1,64)"), ("growpad", "(64,64):(72,1)")]:
        for tname, expr in [
            ("rowthr", f"make_tiled_copy({atom}{{}}, Layout<Shape<_16,_8>,Stride<_8,_1>>{{}}, Layout<Shape<_1,_8>>{{}})"),
            ("colthr", f"make_tiled_copy({atom}{{}}, Layout<Shape<_8,_16>,Stride<_1,_8>>{{}}, Layout<Shape<_8,_1>>{{}})"),
        ]:
            for lname, layout in [("row", "(64,64):(64,1)"), ("col", "(64,64):(1,64)"), ("sw343", "composition(Swizzle<3,4,3>{}, (64,64):(64,1))"),
                                  ("gmmaK128", "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})"),
                                  ("gmmaMN128", "tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64,_64>{})")]:
                c.append((f"g2s_{tname}_{gname}_{lname}", expr, ["--src", "gmem:" + g, "--dst", "smem:" + layout]))
    # 3. gmem only: 32/64/128-bit loads and stores over row- and column-major tensors (sectors).
    for bits, vals in [(32, 1), (64, 2), (128, 4)]:
        atom = f"Copy_Atom<UniversalCopy<uint{bits}_t>, float>"
        for tname, thr in [("row", "Layout<Shape<_8,_16>,Stride<_16,_1>>"), ("col", "Layout<Shape<_8,_16>>"), ("row32", "Layout<Shape<_4,_32>,Stride<_32,_1>>")]:
            expr = f"make_tiled_copy({atom}{{}}, {thr}{{}}, Layout<Shape<_1,_{vals}>>{{}})"
            for gname, g in [("grow", "(32,128):(128,1)"), ("gcol", "(32,128):(1,32)"), ("gpad", "(32,128):(132,1)")]:
                for direction in ["ld", "st"]:
                    side = "--src" if direction == "ld" else "--dst"
                    c.append((f"g{bits}_{tname}_{gname}_{direction}", expr, [side, "gmem:" + g]))
    # 4. ldmatrix / stmatrix x1, x2, x4, .trans: over MMA operands (make_tiled_copy_A/B) and plain row tilings.
    mmas = {"mma22": ("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})", 32, 16),
            "mma22t": ("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})", 32, 32)}
    for mname, (mma, m_tile, n_tile) in mmas.items():
        for op in ["SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T", "SM75_U32x2_LDSM_N", "SM75_U16x4_LDSM_T", "SM75_U32x1_LDSM_N", "SM75_U16x2_LDSM_T"]:
            for which, rows in [("A", m_tile), ("B", n_tile)]:
                expr = f"make_tiled_copy_{which}(Copy_Atom<{op}, half_t>{{}}, {mma})"
                # the operand's (M,K) or (N,K) tile, K = 32: K-major (row) or MN-major smem
                for lname, layout in smem_layouts_half(rows, 32) + gmma_layouts(rows, 32):
                    c.append((f"ldsm_{mname}_{op[5:]}_{which}_{lname}", expr, ["--src", "smem:" + layout]))
        for op in ["SM90_U32x4_STSM_N", "SM90_U16x8_STSM_T", "SM90_U32x2_STSM_N", "SM90_U16x4_STSM_T", "SM90_U32x1_STSM_N", "SM90_U16x2_STSM_T"]:
            expr = f"make_tiled_copy_C(Copy_Atom<{op}, half_t>{{}}, {mma.replace('F32F16F16F32', 'F16F16F16F16')})"
            for lname, layout in smem_layouts_half(m_tile, n_tile) + gmma_layouts(m_tile, n_tile):
                c.append((f"stsm_{mname}_{op[5:]}_{lname}", expr, ["--dst", "smem:" + layout]))
    for op, vals in [("SM75_U32x1_LDSM_N", 8), ("SM75_U32x2_LDSM_N", 8), ("SM75_U32x4_LDSM_N", 8), ("SM75_U16x2_LDSM_T", 8), ("SM75_U16x4_LDSM_T", 8), ("SM75_U16x8_LDSM_T", 8)]:
        expr = f"make_tiled_copy(Copy_Atom<{op}, half_t>{{}}, Layout<Shape<_32,_1>>{{}}, Layout<Shape<_1,_8>>{{}})"
        for lname, layout in smem_layouts_half(32, 64)[:7]:
            c.append((f"ldsm_rows_{op[5:]}_{lname}", expr, ["--src", "smem:" + layout]))
    # 5. cp.async 4/8/16 bytes (.ca; 16 bytes also .cg) into swizzled / padded / plain smem from
    #    row-major, padded (160- and 144-byte rows) gmem, and column tilings over column-major tensors.
    for bits, vals in [(32, 2), (64, 4), (128, 8)]:
        thr_cols = 64 // vals
        for cache in (["CACHEALWAYS"] + (["CACHEGLOBAL"] if bits == 128 else [])):
            op = f"SM80_CP_ASYNC_{cache}<uint{bits}_t>"
            tag = f"cpasync{bits}" + ("cg" if cache == "CACHEGLOBAL" else "")
            expr = f"make_tiled_copy(Copy_Atom<{op}, half_t>{{}}, Layout<Shape<_{128 // thr_cols},_{thr_cols}>,Stride<_{thr_cols},_1>>{{}}, Layout<Shape<_1,_{vals}>>{{}})"
            for gname, g in [("grow", "(32,64):(64,1)"), ("gpad", "(32,64):(80,1)"), ("gpad72", "(32,64):(72,1)")]:
                for lname, layout in (smem_layouts_half(32, 64)[:1] + smem_layouts_half(32, 64)[2:] + gmma_layouts(32, 64)[:4]
                                      + [("rowpad16", "(32,64):(80,1)"), ("rowpad24", "(32,64):(88,1)")]):
                    c.append((f"{tag}_{gname}_{lname}", expr, ["--src", "gmem:" + g, "--dst", "smem:" + layout]))
            col = f"make_tiled_copy(Copy_Atom<{op}, half_t>{{}}, Layout<Shape<_{thr_cols},_{128 // thr_cols}>>{{}}, Layout<Shape<_{vals},_1>>{{}})"
            for gname, g in [("gcol", "(64,32):(1,64)"), ("gcolpad", "(64,32):(1,80)")]:
                for lname, layout in [("col", "(64,32):(1,64)"), ("colpad8", "(64,32):(1,72)"), ("colpad16", "(64,32):(1,80)")] + gmma_layouts(64, 32)[4:]:
                    c.append((f"{tag}_colthr_{gname}_{lname}", col, ["--src", "gmem:" + g, "--dst", "smem:" + layout]))
    # 6. the CUTLASS #1882 layout and friends: DefaultCopy / AutoVectorizingCopy into a 16x32 tile.
    for atom in ["DefaultCopy", "AutoVectorizingCopy"]:
        for tname, thr in [("col", "Layout<Shape<_16,_16>>"), ("row", "Layout<Shape<_16,_16>,Stride<_16,_1>>")]:
            expr = f"make_tiled_copy(Copy_Atom<{atom}, half_t>{{}}, {thr}{{}}, Layout<Shape<_1,_2>>{{}})"
            for lname, layout in [("row", "(16,32):(32,1)"), ("col", "(16,32):(1,16)")]:
                c.append((f"i1882_{atom}_{tname}thr_{lname}", expr, ["--dst", "smem:" + layout]))
                c.append((f"i1882g_{atom}_{tname}thr_{lname}", expr, ["--src", "gmem:" + layout.replace("(16,32)", "(16,32)"), "--dst", "smem:" + layout]))
    return c


def suggested_cases(cutevis):
    """The advisor's own layouts (issue 24): for an LDSM x4 A-read and a 16-byte cp.async write of the
    same half tile, the best three `--suggest` layouts, each replayed under both copies (case names
    sugg_<tile>_<rank>_<copy>; rank 0 is the layout as given)."""
    ldsm = ("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, "
            "Layout<Shape<_2,_2,_1>>{}))")
    cp_async = ("make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{}, "
                "Layout<Shape<_8,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})")
    c = []
    for rows, cols in [(32, 32), (128, 64)]:
        given = f"({rows},{cols}):({cols},1)"
        p = subprocess.run([cutevis, "copy", ldsm, "--src", "smem:" + given, "--analyze", "--suggest", "--also",
                            cp_async, "--json"], capture_output=True, text=True)
        if p.returncode != 0:
            continue
        j = json.loads(p.stdout)
        layouts = [given] + [s["layout"] for s in j["suggestions"][:3]]
        for rank, layout in enumerate(layouts):
            c.append((f"sugg_{rows}x{cols}_{rank}_ldsm", ldsm, ["--src", "smem:" + layout]))
            c.append((f"sugg_{rows}x{cols}_{rank}_cpasync", cp_async,
                      ["--src", f"gmem:({rows},{cols}):({cols},1)", "--dst", "smem:" + layout]))
    return c


def run_cases(args):
    os.makedirs(args.dir, exist_ok=True)
    analyses = []
    skipped = []
    with open(os.path.join(args.dir, "cases.txt"), "w") as out:
        # empty kernels, one per block size: what the replay kernel itself adds to the totals
        for threads in BASELINE_THREADS:
            out.write(f"case baseline_{threads} {threads} 128 16 0\n")
            analyses.append({"case": f"baseline_{threads}", "threads": threads, "instructions": [], "baseline": True})
        for name, expr, flags in cases() + suggested_cases(args.cutevis):
            if args.only and not re.search(args.only, name):
                continue
            cmd = [args.cutevis, "copy", expr] + flags + ["--analyze", "--json", "--addresses"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                skipped.append((name, p.stderr.strip().splitlines()[0] if p.stderr else "exit %d" % p.returncode))
                continue
            a = json.loads(p.stdout)
            if not (a["src"].get("aligned", True) and a["dst"].get("aligned", True) and a["src"].get("vectorizes", True) and a["dst"].get("vectorizes", True)):
                skipped.append((name, "misaligned or not vectorizable (would fault or not compile)"))
                continue
            steps = steps_of(a)
            threads = a["threads"]
            if len(steps) > 512 or sum(threads * (2 if s[5] else 1) for s in steps) > 13000:
                skipped.append((name, "too many steps for the replay's constant memory"))
                continue
            smem_top = max([x for s in steps for x in s[4] if s[0] in (0, 1, 4, 5, 6)] + [0]) + 16
            gmem_top = max([x for s in steps for x in (s[5] or (s[4] if s[0] in (2, 3) else []))] + [0]) + 16
            out.write(f"case {name} {threads} {(smem_top + 127) // 128 * 128} {gmem_top} {len(steps)}\n")
            for kind, bits, matrices, trans, addrs, srcs in steps:
                out.write(f"step {kind} {bits} {matrices} {trans} {1 if srcs else 0}\n")
                out.write(" ".join(map(str, addrs)) + "\n")
                if srcs:
                    out.write(" ".join(map(str, srcs)) + "\n")
            a["case"] = name
            a["command"] = "cutevis copy '" + expr + "' " + " ".join("'" + f + "'" if " " in f or "(" in f else f for f in flags) + " --analyze"
            for i in a["instructions"]:
                del i["address"]
            analyses.append(a)
    with open(os.path.join(args.dir, "analysis.json"), "w") as f:
        json.dump(analyses, f)
    print(f"{len(analyses)} cases written to {args.dir}/cases.txt; {len(skipped)} skipped")
    for n, why in skipped:
        print(f"  skipped {n}: {why}")


def steps_of(a):
    """The thread program: (kind, bits, matrices, trans, addresses per thread, gmem sources or None)."""
    threads = a["threads"]
    by_key = {}
    order = []
    for i in a["instructions"]:
        ptx = i["ptx"]
        kind = next(v for k, v in KIND.items() if ptx.startswith(k))
        key = (i["index"], kind, i["side"] if kind != 6 else "cp")
        if key not in by_key:
            by_key[key] = {"kind": kind, "bits": i["bits"], "ptx": ptx, "smem": [-1] * threads, "gmem": [-1] * threads}
            order.append(key)
        slot = by_key[key]
        target = "gmem" if i["space"] == "gmem" else "smem"
        for lane, addr in enumerate(i["address"]):
            t = i["warp"] * 32 + lane
            if t < threads:
                slot[target][t] = addr
    steps = []
    for key in order:
        s = by_key[key]
        kind, ptx = s["kind"], s["ptx"]
        # ldmatrix/stmatrix: x1/x2/x4; cp.async: 1 for .cg (L1 bypass), 0 for .ca
        matrices = int(ptx.split(".x")[1][0]) if kind in (4, 5) else 1 if ptx.startswith("cp.async.cg") else 0
        trans = 1 if ".trans" in ptx else 0
        if kind == 6:
            steps.append((6, s["bits"], matrices, 0, s["smem"], s["gmem"]))
        elif kind in (2, 3):
            steps.append((kind, s["bits"], 0, 0, s["gmem"], None))
        else:
            steps.append((kind, s["bits"], matrices, trans, s["smem"], None))
    return steps


# --- the comparison ----------------------------------------------------------------------------

SHORT = [("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_", "wf_"), ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_", "bc_"),
         ("l1tex__t_requests_pipe_lsu_mem_global_op_", "req_"), ("l1tex__t_sectors_pipe_lsu_mem_global_op_", "sec_"),
         ("l1tex__data_pipe_lsu_wavefronts_mem_shared", "wf_all"), ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared", "bc_all"),
         ("smsp__inst_executed_op_", "inst_"), (".sum", "")]
# Not compared: whole-kernel totals (the serial replay's barriers add wavefronts of their own), the
# arbitration counter, and LDGSTS's cache-access view of its global reads (0 for the .cg bypass).
HIDDEN = {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
          "l1tex__data_bank_conflicts_type_arbitration.sum",
          "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum"}


def short(m):
    for a, b in SHORT:
        m = m.replace(a, b)
    return m


# cp.async.ca: the hardware may write each source line's data on its own, with fewer conflicts;
# the analysis gives the range [bank_conflicts_min, bank_conflicts] (README, "cp.async").
LDGSTS_BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"
LDGSTS_MIN = LDGSTS_BC + ".min"


def expected(a):
    """The analysis' numbers in ncu's metric names (per case, summed over its instructions)."""
    e = {}

    def add(metric, v):
        e[metric] = e.get(metric, 0) + v
    for i in a["instructions"]:
        ptx = i["ptx"]
        cp = ptx.startswith("cp.async")
        if i["space"] == "smem":
            if cp:
                # the smem side of cp.async: its own conflict counter; its wavefronts only in the totals
                add("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", i["bank_conflicts"])
                add(LDGSTS_MIN, i.get("bank_conflicts_min", i["bank_conflicts"]))
            else:
                op = "st" if i["side"] == "dst" else "ld"
                add(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum", i["wavefronts"])
                add(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum", i["bank_conflicts"])
                add(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_{'write' if op == 'st' else 'read'}.sum", i["wavefronts"])
            add("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", i["wavefronts"])
            add("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", i["bank_conflicts"])
        else:
            # cp.async's global reads count as global loads (and again as op_ldgsts_cache_access)
            op = "st" if i["side"] == "dst" and not cp else "ld"
            add(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum", i["requests"])
            add(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum", i["sectors"])
        # warp instructions executed, by SASS class
        if cp:
            if i["space"] == "smem":
                add("smsp__inst_executed_op_ldgsts.sum", 1)
        else:
            kind = ("ldsm" if ptx.startswith("ldmatrix") else "stsm" if ptx.startswith("stmatrix")
                    else ("shared_" if i["space"] == "smem" else "global_") + ("st" if i["side"] == "dst" else "ld"))
            add(f"smsp__inst_executed_op_{kind}.sum", 1)
    return e


# The metrics issue 9 names; every other one is shown as a cross-check.
PRIMARY = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
           "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]


def read_ncu(path):
    rows = [r for r in csv.reader(open(path)) if r]
    start = next(k for k, r in enumerate(rows) if "ID" in r and "Kernel Name" in r)
    header = rows[start]
    return [dict(zip(header, r)) for r in rows[start + 2:] if len(r) == len(header)]


def value(launch, metric):
    v = launch.get(metric, "")
    if v in ("", "n/a"):
        return None
    return int(float(v.replace(",", "")))


def compare(args):
    analyses = json.load(open(args.analysis))
    launches = read_ncu(args.csv)
    if len(launches) != len(analyses):
        print(f"warning: {len(launches)} launches profiled, {len(analyses)} cases analysed")
    metrics = [m for m in (launches[0].keys() if launches else []) if (m.startswith("l1tex__") or m.startswith("smsp__inst")) and m.endswith(".sum")]
    checked = set(PRIMARY) | set(args.also or [])
    table, mismatches, compared, cross_bad, ranged = [], 0, 0, 0, 0
    for a, l in zip(analyses, launches):
        if a.get("baseline"):
            continue
        e = expected(a)
        cells, bad, other_bad, in_range = [], [], [], []
        for m in metrics:
            got = value(l, m)
            if got is None:
                continue
            if m in HIDDEN:
                continue
            want = e.get(m, 0)
            if m.startswith("smsp__inst_executed_op_shared_ld") and any(i["ptx"].startswith("cp.async") for i in a["instructions"]):
                continue  # LDGSTS also counts here (3 per instruction on the H100): not a memory cost
            if got == 0 and want == 0:
                continue
            primary = m in checked
            compared += primary
            lo = e.get(LDGSTS_MIN, want) if m == LDGSTS_BC else want
            if got == want:
                cells.append(f"{short(m)}={got}")
            elif lo <= got <= want:
                cells.append(f"{short(m)}={got} (cutevis {lo}..{want})")
                in_range.append(short(m))
            else:
                cells.append(f"{short(m)}={got} (cutevis {want})")
                (bad if primary else other_bad).append(short(m))
        mismatches += bool(bad)
        cross_bad += bool(other_bad)
        ranged += bool(in_range) and not bad
        result = "DIFFER: " + ",".join(bad) if bad else "in range" if in_range else "equal"
        if other_bad:
            result += " (cross-check differs: " + ",".join(other_bad) + ")"
        table.append((a["case"], result, "; ".join(cells)))
    lines = [f"| case | result | ncu (cutevis where different) |", "|---|---|---|"]
    lines += [f"| {c} | {r} | {m} |" for c, r, m in table]
    lines.append("")
    lines.append(f"{len(table)} cases, {compared} non-zero values of the issue's metrics compared, {len(table) - mismatches - ranged} cases equal "
                 f"in every number, {ranged} cases equal but for cp.async.ca conflicts inside the analysis' range, {mismatches} cases differ; "
                 f"{cross_bad} cases differ in a cross-check metric")
    text = "\n".join(lines) + "\n"
    if args.table:
        open(args.table, "w").write(text)
    print(text if args.verbose else "\n".join(x for x in lines if "DIFFER" in x or not x.startswith("| ")))
    return 1 if mismatches else 0


def record(args):
    """The measured values of the issue's metrics per case, with the case's command: tests/data/inspect_h100.jsonl."""
    analyses = json.load(open(args.analysis))
    launches = read_ncu(args.csv)
    spec = {name: (expr, flags) for name, expr, flags in cases()}
    with open(args.out, "w") as out:
        for a, l in zip(analyses, launches):
            if a.get("baseline"):
                continue
            expr, flags = spec[a["case"]]
            src = flags[flags.index("--src") + 1] if "--src" in flags else ""
            dst = flags[flags.index("--dst") + 1] if "--dst" in flags else ""
            ncu = {short(m): value(l, m) for m in PRIMARY if value(l, m) is not None}
            out.write(json.dumps({"case": a["case"], "copy": expr, "src": src, "dst": dst, "ncu": ncu}, separators=(",", ":")) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cases")
    c.add_argument("dir")
    c.add_argument("--cutevis", default="build/bin/cutevis")
    c.add_argument("--only", help="only the cases whose name matches this regular expression")
    k = sub.add_parser("compare")
    k.add_argument("analysis")
    k.add_argument("csv")
    k.add_argument("--table")
    k.add_argument("--also", action="append", help="count this metric as checked too")
    k.add_argument("-v", "--verbose", action="store_true")
    r = sub.add_parser("record")
    r.add_argument("analysis")
    r.add_argument("csv")
    r.add_argument("out")
    args = ap.parse_args()
    if args.cmd == "record":
        record(args)
        return 0
    if args.cmd == "cases":
        run_cases(args)
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
