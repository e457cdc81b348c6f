#!/usr/bin/env bash
# Build cutevis with warnings as errors and run every test (GPU tests report
# "Skipped" on machines without a GPU).  The configuration is the README's command 1,
# so after it only the tests build.  The sanitizer configuration (clang ASan+UBSan, and
# a fuzz smoke run of each harness: scripts/sanitize.sh) runs first, so that the last
# line is the main build's ctest summary.
#
# With ccache (scripts/setup.sh installs it) both builds compile through it, with
# CCACHE_BASEDIR at the repository, so a second run, or a clone at another path, compiles
# only what changed (test objects hold no absolute path: tests/support/paths.hpp).  Adding
# the launcher to a build/ that command 1 configured without it rebuilds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUTEVIS_WERROR=ON "${launcher[@]}"
cmake --build build -j"$(nproc)"
# The static site (cutevis in WebAssembly, scripts/build-web.sh) and the lib tests compiled
# with it, run under node; the browser test in the main ctest opens the site in Chromium.
if command -v emcmake >/dev/null 2>&1; then
  ./scripts/build-web.sh --tests
  ctest --test-dir build-web -R '^lib:' --output-on-failure -j"$(nproc)"
else
  echo "test.sh: SKIPPED the site and its wasm tests: emscripten is not installed (scripts/setup.sh installs it)"
fi
./scripts/sanitize.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
