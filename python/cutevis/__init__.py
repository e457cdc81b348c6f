"""cutevis from Python: CuTe layouts, TiledMMAs and TiledCopies, evaluated by the same C++
engine as the `cutevis` command (its text, JSON and pictures are the CLI's).

    >>> import cutevis
    >>> L = cutevis.eval("(4,8):(1,4)")
    >>> str(L), L.kind, L(5), L.values()[:3]
    ('(4,8):(1,4)', 'layout', 5, [0, 1, 2])
    >>> mma = cutevis.eval("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})")
    >>> cutevis.who(mma, "A(5,3)")
    [(5, 2), (69, 2)]

In a notebook a Value shows itself as the CLI's interactive page (`_repr_html_`) or SVG.
CuTeDSL kernels are read by running them: `python -m cutevis.dsl FILE.py --call ...` (cutevis.dsl).
"""

import html as _html
import json as _json
import re as _re

from . import _cutevis

__all__ = ["Error", "Value", "eval", "analyze", "who", "call"]


class Error(ValueError):
    """A cutevis error: the CLI's one-line message; `position` is the byte offset of the bad
    spot in the text (None when there is none) and `detail` what the CLI prints on stderr
    (the message, the text and a caret under the spot)."""

    position = None
    detail = ""


_cutevis.set_error_type(Error)
Value = _cutevis.Value


def eval(text, from_files=(), defines=None, syntax="auto"):  # noqa: A001 (the CLI's name)
    """`cutevis eval TEXT [--from F ...] [-D NAME=VALUE ...]`: an expression (CuTe's printed
    notation, C++ or CuTeDSL) or a C++ snippet, with the declarations of `from_files` and the
    `defines` ({name: value}).  Returns a Value."""
    return _cutevis.eval(text, list(from_files), dict(defines or {}), syntax)


def call(name, *args, **kwargs):
    """Call the engine's builtin NAME (C++ `make_layout`, CuTeDSL `cute.make_layout`, ...) with
    Python ints, tuples, None and Values; returns a Value."""
    return _cutevis.call(name, *args, **kwargs)


def analyze(copy, src=None, dst=None, addresses=False):
    """`cutevis copy COPY --src SRC --dst DST --analyze --json` as a dict.  `src`/`dst`: a
    layout Value (in the space the copy atom implies), ("smem"|"gmem", Value), or the CLI's text
    ("smem:(128,64):(64,1)")."""
    return _json.loads(_cutevis.analyze_json(_value(copy), src, dst, addresses))


_CELL = _re.compile(r"^\s*([ABCSD])\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*$")


def who(value, cell):
    """Every (thread, value) that owns a cell: "A(m,k)", "B(n,k)", "C(m,n)" of a TiledMMA,
    "S(m,n)"/"D(m,n)" of a TiledCopy; the first is the owner CuTe's pictures label."""
    m = _CELL.match(cell)
    if not m:
        raise Error("who: a cell is written A(m,k), B(n,k), C(m,n), S(m,n) or D(m,n), got '%s'" % cell)
    return _cutevis.owners(_value(value), m.group(1), int(m.group(2)), int(m.group(3)))


def _value(v):
    if isinstance(v, Value):
        return v
    inner = getattr(v, "_cutevis_value", None)
    if isinstance(inner, Value):
        return inner
    if isinstance(v, str):
        return eval(v)
    raise Error("expected a cutevis Value, got %r" % (v,))


# --- the Value's Python surface ---------------------------------------------------------

def _json_of(self):
    """The CLI's `--json` for this value, as a dict."""
    return _json.loads(self.json_text())


def _values(self):
    """A layout's values at every index 0..size-1 (as `--json`'s "values")."""
    j = self.json()
    if "values" not in j:
        raise Error("%s has no values (a layout has; this is %s)" % (self.text(), self.kind))
    return j["values"]


def _call_value(self, *coord):
    """layout(coord...) as CuTe evaluates it; `_`/None in a coordinate slices."""
    return self.call(*coord).unwrap()


def _svg(self, color_by="auto", element_bits=16, threads="", title=""):
    """The picture `cutevis layout|mma|copy --svg` draws for this value."""
    return self.picture("svg", title or self.text(), color_by, element_bits, threads)


def _html_page(self, color_by="auto", element_bits=16, threads="", title=""):
    """The self-contained interactive page `--html` writes."""
    return self.picture("html", title or self.text(), color_by, element_bits, threads)


def _txt(self, color_by="auto", element_bits=16, threads=""):
    return self.picture("txt", self.text(), color_by, element_bits, threads)


_DRAWN = ("layout", "composed_layout", "swizzle", "tiled_mma", "mma_atom", "tiled_copy")


def _repr_svg_(self):
    if self.kind not in _DRAWN:
        return None
    try:
        return self.svg()
    except Error:
        return None


def _repr_html_(self):
    if self.kind not in _DRAWN:
        return None
    try:
        page = self.html()
    except Error:
        return None
    # the page is a whole document: an iframe keeps its script and styles to itself
    return ('<iframe srcdoc="%s" style="width:100%%;height:560px;border:0" sandbox="allow-scripts"></iframe>'
            % _html.escape(page, quote=True))


def _eq(self, other):
    if isinstance(other, Value):
        return self.kind == other.kind and self.cute_text() == other.cute_text()
    return NotImplemented


Value.__str__ = lambda self: self.text()
Value.__repr__ = lambda self: "cutevis.Value(%s %s)" % (self.kind, self.text())
Value.__eq__ = _eq
Value.__hash__ = lambda self: hash((self.kind, self.cute_text()))
Value.__call__ = _call_value
Value.json = _json_of
Value.values = _values
Value.svg = _svg
Value.html = _html_page
Value.txt = _txt
Value._repr_svg_ = _repr_svg_
Value._repr_html_ = _repr_html_
