#!/usr/bin/env bash
# The web site's size (issue 25's goal: the .wasm < 2 MB, < 600 KB gzipped); not a test.
# Prints the .wasm's bytes and `gzip -9` bytes, cutevis.js's (the .wasm inside it as base64:
# what a page from file:// loads) and a plain cutevis.wasm beside it if there is one; then
# the .wasm's sections, and with --funcs the code by part (needs a module with names: link
# once more with --profiling-funcs; --objects, the site's objects and .a files, groups the
# engine by source file; README "In the browser").
#   tests/bench/web_size.sh [SITE_DIR (build-web/site)] [--funcs WASM [--objects FILE...]] [--top N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
site="$here/../../build-web/site"
if (($#)) && [[ "$1" != --* ]]; then site="$1"; shift; fi
[[ -f "$site/cutevis.js" ]] || { echo "no $site/cutevis.js: build it first (scripts/build-web.sh)" >&2; exit 2; }
exec python3 "$here/web_size.py" "$site" "$@"
