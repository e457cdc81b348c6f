"""Runs samples/cutevis.ipynb under nbclient (every cell must run without an error).

    PYTHONPATH=build/python /usr/bin/python3 tests/python/run_notebook.py samples/cutevis.ipynb
Exit 77 (skipped) when nbclient or ipykernel is missing (Debian: python3-nbclient, python3-ipykernel)."""

import os
import sys

try:
    import nbclient
    import nbformat
    import ipykernel  # noqa: F401 (the kernel nbclient starts)
except ImportError as e:
    print("skipped: %s (install python3-nbclient python3-ipykernel)" % e)
    sys.exit(77)

path = sys.argv[1]
# the kernel runs in the notebook's folder: PYTHONPATH entries must not be relative
os.environ["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
nb = nbformat.read(path, as_version=4)
os.environ.setdefault("CUTEVIS_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(path))))
client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                 resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
client.execute()
shown = 0
for cell in nb.cells:
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if "text/html" in data or "image/svg+xml" in data:
            shown += 1
print("%d cells ran, %d rich outputs" % (len(nb.cells), shown))
if shown < 4:
    print("FAIL: expected the layout, the TiledMMA, the swizzle and the DSL TiledMMA drawn inline")
    sys.exit(1)
