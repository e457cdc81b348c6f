#!/usr/bin/env bash
# Build the static site: cutevis compiled to WebAssembly with emscripten (Debian's
# `emscripten` package; scripts/setup.sh installs it) into build-web/site/:
#   index.html  page.js  page.css  cutevis.js (the engine, the .wasm inside it)
# Open build-web/site/index.html from disk, or copy the folder to any static host.
#   scripts/build-web.sh [--tests]   --tests: also the lib tests as .js (run under node by ctest)
# Exit 77 when emscripten is not installed (scripts/test.sh reports it skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v emcmake >/dev/null 2>&1 || ! command -v em++ >/dev/null 2>&1; then
  echo "build-web.sh: emscripten not installed (apt-get install emscripten, or scripts/setup.sh)" >&2
  exit 77
fi
targets=(cutevis_site)
[ "${1:-}" = "--tests" ] && targets+=(cutevis_lib_tests)
# emscripten's JavaScript optimizer needs Debian's node modules (acorn).
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
fi
# MinSizeRel (-Os): a .wasm a third smaller than -O3's, evaluation about as fast (README, "In the browser").
emcmake cmake -S . -B build-web -DCMAKE_BUILD_TYPE=MinSizeRel -DCUTEVIS_WERROR=ON "${launcher[@]}" >/dev/null
cmake --build build-web -j"$(nproc)" --target "${targets[@]}"
ls -l build-web/site
