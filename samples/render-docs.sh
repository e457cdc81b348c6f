#!/usr/bin/env bash
# CI recipe for documentation images: draw every picture of samples/docs.json with a
# built cutevis (default build/bin/cutevis) into samples/ (or the folder given).
#   samples/render-docs.sh [OUTPUT_DIR] [CUTEVIS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here}"
cutevis="${2:-$here/../build/bin/cutevis}"
"$cutevis" batch "$here/docs.json" -C "$out"
