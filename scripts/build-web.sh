#!/usr/bin/env bash
# Build the static site: cutevis compiled to WebAssembly with emscripten (Debian's
# `emscripten` package; scripts/setup.sh installs it) into build-web/site/:
#   index.html  page.js  page.css  cutevis.js (the engine, the .wasm inside it)
# Open build-web/site/index.html from disk, or copy the folder to any static host.
# That site is what samples/ci/pages.yml publishes, and what the browser test opens.
#   scripts/build-web.sh [--tests] [--lto]
#     --tests: also the lib tests as .js (run under node by ctest)
#     --lto:   link-time optimisation, in build-web-lto/ (site: build-web-lto/site/): no longer
#              smaller (616,056 bytes gzipped against 614,469 without, README "In the browser")
# Exit 77 when emscripten is not installed (scripts/test.sh reports it skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v emcmake >/dev/null 2>&1 || ! command -v em++ >/dev/null 2>&1; then
  echo "build-web.sh: emscripten not installed (apt-get install emscripten, or scripts/setup.sh)" >&2
  exit 77
fi
targets=(cutevis_site)
dir=build-web
lto=OFF
for arg in "$@"; do
  case "$arg" in
    --tests) targets+=(cutevis_lib_tests) ;;
    --lto) dir=build-web-lto lto=ON ;;
    *) echo "build-web.sh: unknown argument $arg (--tests, --lto)" >&2; exit 2 ;;
  esac
done
# emscripten's JavaScript optimizer needs Debian's node modules (acorn).
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
fi
# MinSizeRel (-Os, which cmake/Emscripten.cmake makes -Oz): a .wasm a third smaller than -O3's, evaluation
# about as fast (README, "In the browser").
emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=MinSizeRel -DCUTEVIS_WERROR=ON -DCUTEVIS_WEB_LTO="$lto" "${launcher[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)" --target "${targets[@]}"
ls -l "$dir/site"
