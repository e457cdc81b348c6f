#!/usr/bin/env bash
# Build cutevis with warnings as errors and run every test (GPU tests report
# "Skipped" on machines without a GPU).  The configuration is the README's command 1,
# so after it only the tests build.  The sanitizer configuration (clang ASan+UBSan, and
# a fuzz smoke run of each harness: scripts/sanitize.sh) runs first, so that the last
# line is the main build's ctest summary.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUTEVIS_WERROR=ON
cmake --build build -j"$(nproc)"
./scripts/sanitize.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
