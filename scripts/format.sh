#!/usr/bin/env bash
# Apply .clang-format to every tracked C++ file (or to the files named), in place.
#   scripts/format.sh              format the whole tree
#   scripts/format.sh --check      change nothing; list the files that would change, exit 1 if any
#   scripts/format.sh FILE...      format only these files
# CLANG_FORMAT picks the binary (default: clang-format; the style is written for version 14+).
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format="${CLANG_FORMAT:-clang-format}"
command -v "$clang_format" >/dev/null || { echo "format.sh: $clang_format not found (apt-get install clang-format)" >&2; exit 2; }

check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
if [ "$#" -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cc')
fi

if [ "$check" -eq 0 ]; then
  "$clang_format" -i --style=file "${files[@]}"
  exit 0
fi
changed=0
for f in "${files[@]}"; do
  if ! "$clang_format" --style=file "$f" | cmp -s "$f" -; then
    echo "$f"
    changed=$((changed + 1))
  fi
done
[ "$changed" -eq 0 ] || { echo "format.sh: $changed file(s) not formatted" >&2; exit 1; }
