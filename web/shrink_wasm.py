"""The site's last build step: `wasm-opt -Oz` once more over the .wasm inside cutevis.js.

emscripten's link optimizes the module, then removes what the JavaScript does not reach (metadce)
and minifies import and export names; a further -Oz over that result folds what those steps left
(about 3 KB gzipped: README, "In the browser"), where emscripten's own BINARYEN_EXTRA_PASSES,
which run before them, found about half as much.  The .wasm is inside cutevis.js as base64
(SINGLE_FILE): it is decoded, optimized, and written back in its place; the JavaScript keeps
working because wasm-opt renames no import or export.

    shrink_wasm.py WASM_OPT JS [WASM_OPT_FLAGS...]

cutevis.js is replaced atomically; on any failure it is left as it was and the exit code is 1.
"""
import base64
import os
import re
import subprocess
import sys
import tempfile

DATA_URI = re.compile(rb"(data:application/octet-stream;base64,)([A-Za-z0-9+/=]+)")


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: shrink_wasm.py WASM_OPT JS [WASM_OPT_FLAGS...]", file=sys.stderr)
        return 2
    wasm_opt, js_path, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(js_path, "rb") as f:
        js = f.read()
    found = list(DATA_URI.finditer(js))
    if len(found) != 1:
        print(f"shrink_wasm: {js_path}: expected one base64 .wasm, found {len(found)}", file=sys.stderr)
        return 1
    folder = os.path.dirname(os.path.abspath(js_path))
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        before, after = os.path.join(tmp, "in.wasm"), os.path.join(tmp, "out.wasm")
        with open(before, "wb") as f:
            f.write(base64.b64decode(found[0].group(2)))
        run = subprocess.run([wasm_opt, before, "-Oz", *flags, "-o", after], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"shrink_wasm: {wasm_opt} failed:\n{run.stderr}", file=sys.stderr)
            return 1
        with open(after, "rb") as f:
            encoded = base64.b64encode(f.read())
        out = js[: found[0].start(2)] + encoded + js[found[0].end(2):]
        temporary = os.path.join(tmp, "cutevis.js")
        with open(temporary, "wb") as f:
            f.write(out)
        os.replace(temporary, js_path)
        print(f"shrink_wasm: {os.path.getsize(before):,} -> {os.path.getsize(after):,} bytes of .wasm")
    return 0


if __name__ == "__main__":
    sys.exit(main())
