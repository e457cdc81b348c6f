#!/usr/bin/env bash
# Benchmarks of issue 12's pictures (not a test; prints medians):
#   - the 2x2 SM90 64x256x16 GMMA as a PNG with every label (goal: < 1.5 s, < 512 MB)
#   - the same as HTML, written (goal: < 0.5 s) and opened in headless Chromium
#     (goal: ready and a click answered in < 2 s)
#   - a batch of samples/docs.json, first run and an incremental second run
# One command, after `cmake --build build --target cutevis` (README command 1):
#   tests/bench/pictures_bench.sh [CUTEVIS] [RUNS]
# It prints the machine's load average before and after: on a busy machine the wall
# figures are upper bounds (CPU seconds are the steadier number).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cutevis="${1:-$here/../../build/bin/cutevis}"
runs="${2:-5}"
[[ -x "$cutevis" ]] || { echo "no $cutevis: build it first (cmake --build build --target cutevis)" >&2; exit 2; }
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min), $(date -u +%FT%TZ)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
gmma=(mma --atom 'SM90_64x256x16_F32F16F16_SS<K,K>' --atoms '(2,2,1)')

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# wall seconds, user+sys seconds, max RSS MB of one run of "$@"
measure() {
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" >/dev/null
  awk '{printf "%s %.2f %.0f\n", $1, $2 + $3, $4 / 1024}' "$tmp/time"
}

report() {  # name, then lines "wall cpu rss" on stdin
  local name="$1" data
  data="$(cat)"
  printf '%-44s wall %s s (median of %s)  cpu %s s  max RSS %s MB\n' "$name" \
    "$(cut -d' ' -f1 <<<"$data" | median)" "$runs" "$(cut -d' ' -f2 <<<"$data" | median)" "$(cut -d' ' -f3 <<<"$data" | sort -g | tail -1)"
}

for i in $(seq "$runs"); do measure "$cutevis" "${gmma[@]}" -o "$tmp/gmma.png"; done | report "2x2 64x256x16 GMMA --png, all labels"
echo "  goal: < 1.5 s, < 512 MB"
python3 - "$tmp/gmma.png" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
print('  PNG %d x %d px, %.1f MB' % (struct.unpack('>I', d[16:20])[0], struct.unpack('>I', d[20:24])[0], len(d) / 1e6))
PY
for i in $(seq "$runs"); do measure "$cutevis" "${gmma[@]}" -o "$tmp/gmma.html"; done | report "2x2 64x256x16 GMMA --html, written"
echo "  HTML $(du -k "$tmp/gmma.html" | cut -f1) kB; goal: < 0.5 s"

if command -v chromium >/dev/null && command -v node >/dev/null; then
  for i in $(seq "$runs"); do
    node "$here/../browser/drive.mjs" "$(command -v chromium)" "$tmp/gmma.html" "$tmp/shot.png" 7 "5, 32-35" |
      python3 -c 'import json,sys; j=json.load(sys.stdin); print("%.3f %.3f %.3f %.2f" % (j["load_ms"]/1000, j["painted_ms"]/1000, j["click_ms"]/1000, j["load_renderer_cpu_s"]))'
  done >"$tmp/browser"
  printf '%-44s ready %s s, painted %s s, click answered %s s, renderer CPU to ready %s s (medians of %s)\n' "  in headless Chromium (#threads=0,5)" \
    "$(cut -d' ' -f1 "$tmp/browser" | median)" "$(cut -d' ' -f2 "$tmp/browser" | median)" "$(cut -d' ' -f3 "$tmp/browser" | median)" \
    "$(cut -d' ' -f4 "$tmp/browser" | median)" "$runs"
  echo "  goal: open and answer in < 2 s"
else
  echo "  (no chromium or node: browser timing skipped)"
fi

for i in $(seq "$runs"); do
  rm -rf "$tmp/batch"
  first="$(measure "$cutevis" batch "$here/../../samples/docs.json" -C "$tmp/batch" | cut -d' ' -f1)"
  second="$(measure "$cutevis" batch "$here/../../samples/docs.json" -C "$tmp/batch" | cut -d' ' -f1)"
  echo "$first $second"
done >"$tmp/batch_times"
printf '%-44s first %s s, second (all up to date) %s s (medians of %s)\n' "batch samples/docs.json" \
  "$(cut -d' ' -f1 "$tmp/batch_times" | median)" "$(cut -d' ' -f2 "$tmp/batch_times" | median)" "$runs"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
