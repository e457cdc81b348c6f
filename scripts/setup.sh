#!/usr/bin/env bash
# Install what cutevis needs on Debian 12 (or Ubuntu 24.04).  Safe to run again:
# apt-get skips what is installed.  Needs root (uses sudo when not root).
set -euo pipefail

packages=(
  build-essential cmake pkg-config          # compiler and build
  ccache                                     # scripts/test.sh and sanitize.sh compile through it when present
  libcli11-dev nlohmann-json3-dev doctest-dev libbenchmark-dev   # header libraries, tests, benchmarks
  libcairo2-dev fontconfig fonts-dejavu-core # PNG/PDF output
  librsvg2-bin poppler-utils libxml2-utils python3  # tests render and parse SVGs, read PDFs, decode PNGs
  texlive-latex-base texlive-pictures texlive-latex-extra  # tests compile TikZ (standalone, tikz)
  chromium nodejs                           # the HTML page is tested in headless Chromium (tests/browser/drive.mjs, no npm packages)
  emscripten                                # the static site: cutevis in WebAssembly (scripts/build-web.sh), its lib tests under node
  clang libclang-rt-dev                      # scripts/sanitize.sh: ASan/UBSan and libFuzzer
  clang-format-14                            # scripts/format.sh and the "style:" test (the tree is formatted with 14)
  python3-dev pybind11-dev python3-pip python3-setuptools python3-venv  # the Python package (python/, pip install --no-index --no-build-isolation .)
  python3-nbclient python3-ipykernel         # its sample notebook runs under nbclient in the tests
)

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "setup.sh: run as root (or install sudo) to install: ${packages[*]}" >&2; exit 1; fi
else
  SUDO=
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all packages present"
else
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# CUDA (optional): the toolkit at /usr/local/cuda is found by CMake; verify needs it.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup.sh: CUDA toolkit found (verify will be built)"
else
  echo "setup.sh: no CUDA toolkit; cutevis builds without verify's GPU side"
fi
