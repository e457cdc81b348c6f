#!/usr/bin/env bash
# Build cutevis with warnings as errors and run every test (GPU tests report
# "Skipped" on machines without a GPU).  Ends with ctest's summary line.
# The configuration is the README's command 1, so after it only the tests build.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUTEVIS_WERROR=ON
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
./scripts/sanitize.sh  # clang ASan+UBSan tests and a fuzz smoke run of each harness (issue 11)
