#!/usr/bin/env python3
"""Time pycute (CUTLASS's python/pycute) on the algebra cases cutevis_bench_algebra gives it.

Called by cutevis_bench_algebra; pycute itself is not part of this repository:
    pycute_algebra.py --pycute DIR --cases FILE [--rounds N] [--min-round-seconds S]
DIR is the folder that holds the `pycute` package (CUTLASS's python/).  FILE has one
case per line: `id<TAB>op<TAB>arg<TAB>arg...`, arguments in CuTe's printed notation.
Prints one JSON object: the ids pycute could run, and per op the median time per case
over the rounds (each round runs every case of the op, repeated until the round lasts
at least S seconds).
"""
import argparse
import json
import statistics
import sys
import time


def parse_value(text, pycute):
    """CuTe's printed notation -> pycute value: ints, tuples, `_` (None), shape:stride layouts."""
    pos = 0

    def skip():
        nonlocal pos
        while pos < len(text) and text[pos] == " ":
            pos += 1

    def primary():
        nonlocal pos
        skip()
        if text[pos] == "(":
            pos += 1
            items = []
            skip()
            if text[pos] != ")":
                items.append(layout())
                skip()
                while text[pos] == ",":
                    pos += 1
                    items.append(layout())
                    skip()
            assert text[pos] == ")", text
            pos += 1
            return tuple(items)
        if text[pos] == "_" and (pos + 1 == len(text) or not text[pos + 1].isdigit()):
            pos += 1
            return None
        start = pos
        if text[pos] in "-_":
            pos += 1
        while pos < len(text) and text[pos].isdigit():
            pos += 1
        if pos == start or text[pos:pos + 1] == "@":
            raise ValueError("not a plain integer: " + text)
        return int(text[start:pos].replace("_", ""))

    def layout():
        nonlocal pos
        shape = primary()
        skip()
        if pos < len(text) and text[pos] == ":":
            pos += 1
            return pycute.Layout(shape, primary())
        return shape

    value = layout()
    skip()
    if pos != len(text):
        raise ValueError("trailing text in " + text)
    return value


def as_layout(v, pycute):
    return v if isinstance(v, pycute.Layout) else pycute.Layout(v)


def make_thunk(op, args, pycute):
    """A zero-argument callable doing the operation, or None where pycute has no such op."""
    L = lambda i: as_layout(args[i], pycute)  # noqa: E731
    if op in ("coalesce", "filter", "right_inverse", "left_inverse", "size", "cosize") and len(args) == 1:
        f, a = getattr(pycute, op), L(0)
        return lambda: f(a)
    if op == "complement":
        a = L(0)
        if len(args) == 1:
            return lambda: pycute.complement(a)
        if isinstance(args[1], int):
            c = args[1]
            return lambda: pycute.complement(a, c)
        return None
    if op in ("composition", "logical_divide", "logical_product", "zipped_divide", "tiled_divide", "zipped_product", "tiled_product"):
        f, a, b = getattr(pycute, op), L(0), args[1]
        return lambda: f(a, b)
    if op == "crd2idx" and len(args) == 3:
        c, s, d = args
        return lambda: pycute.crd2idx(c, s, d)
    if op == "idx2crd" and len(args) == 2:
        i, s = args
        return lambda: pycute.idx2crd(i, s)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pycute", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--min-round-seconds", type=float, default=0.05)
    opt = ap.parse_args()
    sys.path.insert(0, opt.pycute)
    import pycute  # noqa: E402  (found through --pycute, never vendored)

    by_op = {}
    for line in open(opt.cases):
        fields = line.rstrip("\n").split("\t")
        cid, op, args = fields[0], fields[1], fields[2:]
        try:
            values = [parse_value(a, pycute) for a in args]
            thunk = make_thunk(op, values, pycute)
            if thunk is None:
                continue
            thunk()  # pycute asserts on some inputs: leave those out of both timings
        except Exception:  # noqa: BLE001
            continue
        by_op.setdefault(op, []).append((cid, thunk))

    result = {"ok_ids": [], "ops": {}}
    for op, cases in sorted(by_op.items()):
        thunks = [t for _, t in cases]
        result["ok_ids"] += [cid for cid, _ in cases]
        repeat = 1
        while True:  # calibrate: one round lasts at least min_round_seconds
            t0 = time.perf_counter()
            for _ in range(repeat):
                for t in thunks:
                    t()
            if time.perf_counter() - t0 >= opt.min_round_seconds:
                break
            repeat *= 2
        samples = []
        for _ in range(opt.rounds):
            t0 = time.perf_counter()
            for _ in range(repeat):
                for t in thunks:
                    t()
            samples.append((time.perf_counter() - t0) / (repeat * len(thunks)) * 1e9)
        result["ops"][op] = {"cases": len(thunks), "median_ns": statistics.median(samples),
                             "min_ns": min(samples), "max_ns": max(samples)}
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
