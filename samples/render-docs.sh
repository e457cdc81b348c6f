#!/usr/bin/env bash
# Documentation images: the README's pictures (its ```cutevis block, through
# `cutevis docs`) and the other samples (samples/docs.json, through `cutevis batch`,
# which skips what is up to date).  With --check, write nothing and exit 1 if any
# picture is stale: the CI gate.
#   samples/render-docs.sh [--check] [CUTEVIS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
check=
if [ "${1:-}" = "--check" ]; then check=--check; shift; fi
cutevis="${1:-$here/../build/bin/cutevis}"
"$cutevis" docs "$here/../README.md" $check
if [ -z "$check" ]; then
  "$cutevis" batch "$here/docs.json" -C "$here"
fi
