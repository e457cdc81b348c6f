#!/usr/bin/env bash
# Apply .clang-format to every tracked C++ file (or to the files named), in place.
#   scripts/format.sh              format the whole tree
#   scripts/format.sh --check      change nothing; list the files that would change, exit 1 if any
#   scripts/format.sh FILE...      format only these files
# CLANG_FORMAT picks the binary (default: clang-format-14, else clang-format). The tree is formatted
# with version 14 (Debian 12's); other versions break lines differently, so --check (the ctest
# "style:" test) exits 77, reported as skipped, when no version 14 is found.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi

clang_format="${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || echo clang-format)}"
if ! command -v "$clang_format" >/dev/null; then
  echo "format.sh: $clang_format not found (apt-get install clang-format-14)" >&2
  [ "$check" -eq 1 ] && exit 77
  exit 2
fi
version=$("$clang_format" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$check" -eq 1 ] && [ "$version" != 14 ]; then
  echo "format.sh: $clang_format is version ${version:-unknown}, the tree is formatted with 14: not checked" >&2
  exit 77
fi
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
