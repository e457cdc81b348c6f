#!/usr/bin/env bash
# The web site's size (issue 25's goal: the .wasm < 2 MB, < 600 KB gzipped); not a test.
# Prints the .wasm's bytes and `gzip -9` bytes, cutevis.js's (the .wasm inside it as base64:
# what a page from file:// loads) and, when build-web.sh wrote it, the plain cutevis.wasm
# beside it; then the .wasm's sections, and with --funcs the code by group of functions
# (needs a module with names: link once with --profiling-funcs, see README "In the browser").
#   tests/bench/web_size.sh [SITE_DIR (build-web/site)] [--funcs WASM_WITH_NAMES]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
site="$here/../../build-web/site"
funcs=""
while (($#)); do
  case "$1" in
    --funcs) funcs="$2"; shift 2 ;;
    *) site="$1"; shift ;;
  esac
done
[[ -f "$site/cutevis.js" ]] || { echo "no $site/cutevis.js: build it first (scripts/build-web.sh)" >&2; exit 2; }
exec python3 "$here/web_size.py" "$site" ${funcs:+--funcs "$funcs"}
