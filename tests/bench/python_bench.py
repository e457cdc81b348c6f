"""The cost of one Python call into cutevis for a small layout (the issue's bar: < 20 us).

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/python_bench.py [--repeat 21]
Prints the median (and min, max) microseconds per call over `repeat` timeit rounds: wall time,
and with --cpu the process's CPU time (what a call costs on a machine shared with other work)."""

import argparse
import statistics
import time
import timeit

import cutevis

p = argparse.ArgumentParser()
p.add_argument("--repeat", type=int, default=21)
p.add_argument("--number", type=int, default=2000)
p.add_argument("--cpu", action="store_true", help="time.process_time instead of the wall clock")
a = p.parse_args()

L = cutevis.eval("(4,8):(1,4)")
cases = [
    ("cutevis.eval('(4,8):(1,4)')", lambda: cutevis.eval("(4,8):(1,4)")),
    ("cutevis.eval('composition((4,8):(8,1), (2,4):(4,1))')",
     lambda: cutevis.eval("composition((4,8):(8,1), (2,4):(4,1))")),
    ("cutevis.call('cute.make_layout', (4, 8), stride=(1, 4))",
     lambda: cutevis.call("cute.make_layout", (4, 8), stride=(1, 4))),
    ("cutevis.call('cute.coalesce', L)", lambda: cutevis.call("cute.coalesce", L)),
    ("L(5)", lambda: L(5)),
    ("str(L)", lambda: str(L)),
    ("L.json()", lambda: L.json()),
]
for name, fn in cases:
    timer = time.process_time if a.cpu else time.perf_counter
    times = [t / a.number * 1e6 for t in timeit.repeat(fn, number=a.number, repeat=a.repeat, timer=timer)]
    print("%-58s median %6.2f us  (min %.2f, max %.2f; %d x %d calls)" %
          (name, statistics.median(times), min(times), max(times), a.repeat, a.number))
