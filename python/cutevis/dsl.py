"""CuTeDSL kernels read by running their own Python.

    python -m cutevis.dsl FILE.py --call 'HopperGemm(cutlass.Float32, (128, 128), (1, 1))' \\
        [--setup '__call__(tensor(cutlass.Float16, (8192, 8192, 1), leading=1), ...)'] [NAME ...]
    cutevis dsl FILE.py --call ... (the same, through the CLI)

The user's module runs in CPython with `cutlass`, `cutlass.cute`, `cutlass.utils` (and its
hopper/blackwell helpers) and `cutlass.cute.nvgpu.*` backed by cutevis: every `cute.X(...)`
forwards to the engine's builtin of the same name (the same C++ functions `cutevis eval --dsl`
uses; lib/lang/dsl_builtins.cpp, atoms/dsl_ops.cpp), attributes to its `py.attr.X` builtins.
Classes, control flow, arithmetic, default arguments and helpers work because Python runs them;
Python ints are static, as in CuTeDSL.  `@cute.jit` functions run eagerly (their locals are kept
and listed as `func.var`), `@cute.kernel` bodies never run (a launch records its configuration).
What cutevis does not model (pipelines, barriers, torch, cuda) is an Opaque placeholder: using
it never fails, and a value computed from it is listed as unresolved.

The fake modules are installed into sys.modules only while `run()` runs (`installed()`), so a
real installed cutlass is never shadowed outside this mode.
"""

import argparse
import contextlib
import importlib.util
import inspect
import json
import math
import os
import re
import sys
import types

from . import _cutevis, Error, Value

# --- what is not modelled ---------------------------------------------------------------


class Opaque:
    """Anything cutevis does not model: every use gives another Opaque (never an error), so a
    kernel's host code runs to the end; values made from it are listed as unresolved."""

    def __init__(self, name="?"):
        object.__setattr__(self, "_name", name)

    def __repr__(self):
        return "<opaque %s>" % self._name

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        return _opaque_named("%s.%s" % (self._name, attr), attr)

    def __setattr__(self, attr, value):
        pass

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and (inspect.isclass(args[0]) or inspect.isfunction(args[0])):
            return args[0]  # used as a decorator
        return Opaque(self._name + "()")

    def __getitem__(self, key):
        return Opaque(self._name + "[]")

    def __iter__(self):
        return iter((Opaque(self._name + "[0]"), Opaque(self._name + "[1]")))

    def __bool__(self):
        return True  # `if not torch.cuda.is_available(): raise ...` goes on

    def __int__(self):
        return 1

    def __index__(self):
        return 1

    def __len__(self):
        return 0

    def __format__(self, spec):
        return repr(self)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def __mro_entries__(self, bases):
        return (object,)

    def _op(self, *a):
        return Opaque(self._name)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _op
    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __mod__ = __neg__ = _op
    __lt__ = __le__ = __gt__ = __ge__ = lambda self, o: False
    __and__ = __or__ = __xor__ = __lshift__ = __rshift__ = _op


class _OpaqueModule(types.ModuleType):
    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _opaque_named("%s.%s" % (self.__name__, attr), attr)


def _opaque_named(path, attr):
    if attr.endswith(("Error", "Exception")):  # `except testing.CantImplementError:` needs a class
        return type(attr, (Exception,), {})
    return Opaque(path)


class _Compile:
    """cute.compile(fn, *args) and cute.compile[options](fn, *args): runs fn once, eagerly."""

    def __getitem__(self, options):
        return self

    def __call__(self, fn, *args, **kwargs):
        kwargs.pop("options", None)  # compile options (-O, line info, ...)
        fn(*args, **kwargs)
        return lambda *a, **k: None


# --- engine values as CuTeDSL's Python sees them ----------------------------------------


def _wrap(v):
    """An engine result: ints, tuples, bools and None as Python's; other values wrapped."""
    if isinstance(v, Value):
        u = v.unwrap()
        if not isinstance(u, Value):
            return _wrap(u)
        kind = v.kind
        if kind == "type":
            return dtype_of(v)
        if kind == "tensor":
            return Tensor(v)
        return Obj(v)
    if isinstance(v, tuple):
        return tuple(_wrap(e) for e in v)
    return v


def _engine(name, *args, **kwargs):
    kwargs.pop("loc", None)
    kwargs.pop("ip", None)
    args = tuple(_scalars(a) for a in args)
    kwargs = {k: _scalars(v) for k, v in kwargs.items()}
    if "_template" in kwargs and isinstance(kwargs["_template"], type) and issubclass(kwargs["_template"], Numeric):
        kwargs["_template"] = kwargs["_template"]._cutevis_value
    for a in list(args) + list(kwargs.values()):
        if _has_opaque(a):
            if _ACTIVE:
                _ACTIVE[-1].blocked.append("%s: an argument is %r" % (name, _first_opaque(a)))
            return Opaque(name + "(...)")
    if _ACTIVE:  # running a file: an engine error is recorded and the host code goes on
        try:
            return _typed(_wrap(_cutevis.call(name, *args, **kwargs)), args)
        except Error as e:
            _ACTIVE[-1].errors.append("%s: %s" % (name, e))
            return Opaque("%s: %s" % (name, e))
    return _wrap(_cutevis.call(name, *args, **kwargs))


_ACTIVE = []  # the Session running a file, if any


def _typed(result, args):
    """A tensor or pointer made from a typed one keeps its element type (the engine's tensor
    keeps only its width)."""
    if isinstance(result, Obj) and getattr(result, "_element_type", None) is None:
        for a in args:
            t = getattr(a, "_element_type", None) if isinstance(a, Obj) else None
            if t is not None:
                object.__setattr__(result, "_element_type", t)
                break
    return result


def _scalars(a):
    """cutlass.Int32(4) is the integer 4 to the engine (a Numeric class stays an element type)."""
    if isinstance(a, Numeric):
        return a.value
    if isinstance(a, (tuple, list)):
        return type(a)(_scalars(e) for e in a)
    return a


def _first_opaque(a):
    if isinstance(a, Opaque):
        return a
    return next(_first_opaque(e) for e in a if _has_opaque(e))


def _has_opaque(a):
    if isinstance(a, Opaque):
        return True
    if isinstance(a, (tuple, list)):
        return any(_has_opaque(e) for e in a)
    return False


class Obj:
    """A cutevis value (layout, composed layout, TiledMMA, TiledCopy, atom, ...) with CuTeDSL's
    attributes and methods (the engine's `py.attr.NAME` builtins)."""

    def __init__(self, value):
        object.__setattr__(self, "_cutevis_value", value)

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        if attr in ("inner", "outer") and self._cutevis_value.kind == "composed_layout":  # ComposedLayout's parts
            return _engine("layout_a" if attr == "inner" else "layout_b", self)
        name = "py.attr." + attr
        if not _cutevis.has_builtin(name):  # not modelled: unresolved, and the host code goes on
            if _ACTIVE:
                _ACTIVE[-1].errors.append("no attribute .%s of %s" % (attr, self._cutevis_value.kind))
                return Opaque("cute.%s.%s" % (self._cutevis_value.kind, attr))
            raise AttributeError("cutevis models no attribute .%s of %s" % (attr, self._cutevis_value.describe()))
        try:  # a property; else a method with arguments
            return _Property(_wrap(_cutevis.call(name, self)), name, self)
        except Error:
            return lambda *a, **k: _engine(name, self, *a, **k)

    def __str__(self):
        return self._cutevis_value.text()

    def __repr__(self):
        return "<%s %s>" % (self._cutevis_value.kind, self._cutevis_value.text())

    def __call__(self, *coord):
        return _wrap(self._cutevis_value.call(*coord))

    def __getitem__(self, i):
        if isinstance(i, tuple):  # x[coord]: a coordinate (CuTeDSL slices with None)
            return self(i)
        return _engine("py.getitem", self, i)

    def __eq__(self, other):
        o = getattr(other, "_cutevis_value", None)
        return isinstance(o, Value) and o == self._cutevis_value

    def __hash__(self):
        return hash(self._cutevis_value)

    def _repr_html_(self):
        return self._cutevis_value._repr_html_()

    def _repr_svg_(self):
        return self._cutevis_value._repr_svg_()


def _Property(result, name, owner):
    """An attribute read as a property; calling it with no arguments (a method without
    parameters, e.g. layout_enum.sm90_mma_major_mode()) gives the same value."""
    if isinstance(result, Obj):
        return _Callable(result._cutevis_value)
    return result


class _Callable(Obj):
    def __call__(self, *coord):
        if not coord:
            return self
        return Obj.__call__(self, *coord)


# --- element types (cutlass.Float16, ...) ----------------------------------------------

class _NumericMeta(type):
    """CuTeDSL's NumericMeta: the dtype classes print as their names and compare kinds."""

    def __repr__(cls):
        return cls.__name__

    __str__ = __repr__

    def is_same_kind(cls, other):
        return cls.is_integer == other.is_integer or cls.is_float == other.is_float

    def n_bytes(cls, n):
        return (cls.width * n + 7) // 8


class Numeric(metaclass=_NumericMeta):
    """CuTeDSL's Numeric: cutlass.Float16 etc. are classes with `.width`."""

    is_float = is_integer = signed = False

    width = 0
    _cutevis_value = None

    def __init__(self, value=0, *a, **k):
        self.value = value.value if isinstance(value, Numeric) else value

    # a scalar (cutlass.Int32(4), cutlass.Float32(0.5)) computes as its Python value on the host
    def __int__(self):
        return int(self.value)

    def __index__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __bool__(self):
        return bool(self.value)

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self.value)

    def __eq__(self, o):
        return self.value == (o.value if isinstance(o, Numeric) else o)

    def __hash__(self):
        return hash(self.value)


def _numeric_op(name):
    def op(self, *others):
        args = [o.value if isinstance(o, Numeric) else o for o in others]
        return getattr(self.value, name)(*args)
    return op


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
              "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__neg__", "__lt__", "__le__", "__gt__",
              "__ge__", "__pow__", "__rpow__", "__and__", "__or__", "__lshift__", "__rshift__"):
    setattr(Numeric, _name, _numeric_op(_name))


_DTYPES = {}
_DTYPE_NAMES = ["Float16", "BFloat16", "Float32", "Float64", "TFloat32", "Float8E4M3FN", "Float8E5M2",
                "Float8E8M0FNU", "Float6E2M3FN", "Float6E3M2FN", "Float4E2M1FN", "Int8", "Uint8", "Int16", "Uint16",
                "Int32", "Uint32", "Int64", "Uint64", "Int4", "Boolean"]


def dtype_of(v):
    text = v.text()
    cls = _DTYPES.get(text)
    if cls is None:
        bits = v.json().get("bits", 0)
        cls = type(text, (Numeric,), {"width": bits, "_cutevis_value": v})
        _DTYPES[text] = cls
    return cls


def _make_dtypes(module):
    for name in _DTYPE_NAMES:
        try:
            v = _cutevis.eval("cutlass." + name, syntax="dsl")
        except Error:
            continue
        cls = type(name, (Numeric,), {"width": _type_bits(v, name), "_cutevis_value": v,
                                      "is_float": "Float" in name, "is_integer": "Int" in name,
                                      "signed": name.startswith("Int") or "Float" in name})
        cls.__module__ = "cutlass"
        _DTYPES[v.text()] = cls
        setattr(module, name, cls)
    module.Numeric = Numeric
    module.Float = module.Integer = Numeric


def _type_bits(v, name):
    try:
        return int(v.json().get("bits", 0)) or _bits_from_name(name)
    except Error:
        return _bits_from_name(name)


def _bits_from_name(name):
    digits = "".join(c for c in name if c.isdigit())
    return {"Boolean": 8, "TFloat32": 32}.get(name, int(digits[:2]) if digits[:2].isdigit() else 0)


# --- tensors (placeholders for kernel arguments) ---------------------------------------

class Tensor(Obj):
    """A cute.Tensor: an engine tensor (pointer + layout) with CuTeDSL's attributes."""

    @property
    def element_type(self):
        j = self._cutevis_value.json()
        t = j.get("element_type") or j.get("value_type")
        if t:
            try:
                return dtype_of(_cutevis.eval(t))
            except Error:
                pass
        return self.__dict__.get("_element_type")

    @element_type.setter
    def element_type(self, dtype):  # cutlass.torch's cute_tensor_like retypes a tensor
        t = tensor(dtype, self.shape, stride=self.stride)
        if isinstance(t, Tensor):
            object.__setattr__(self, "_cutevis_value", t._cutevis_value)
        object.__setattr__(self, "_element_type", dtype)

    def __setattr__(self, attr, value):
        if attr == "element_type":
            Tensor.element_type.fset(self, value)
        else:
            object.__setattr__(self, attr, value)

    @property
    def layout(self):
        return _engine("layout", self)

    @property
    def shape(self):
        return _engine("py.attr.shape", self.layout)

    @property
    def stride(self):
        return _engine("py.attr.stride", self.layout)

    def mark_layout_dynamic(self, *a, **k):
        return self

    def mark_compact_shape_dynamic(self, *a, **k):
        return self

    @property
    def iterator(self):
        return _engine("data", self)  # the tensor's pointer (C++ tensor.data())

    @property
    def leading_dim(self):
        stride = self.stride
        stride = stride if isinstance(stride, tuple) else (stride,)
        return next((i for i, st in enumerate(stride) if st == 1), None)


def tensor(dtype, shape, leading=0, stride=None):
    """A global-memory tensor argument: `dtype` (cutlass.Float16), `shape`, and either its
    `stride` or the mode that is contiguous (`leading`, the others compact after it)."""
    if stride is None:
        order = [leading] + [i for i in range(len(shape)) if i != leading]
        st = [0] * len(shape)
        s = 1
        for i in order:
            st[i] = s
            s *= shape[i]
        stride = tuple(st)
    ptr = _engine("cute.make_ptr", dtype, 0, _tag("AddressSpace.gmem"))
    layout = _engine("cute.make_layout", tuple(shape), stride=tuple(stride))
    t = _engine("cute.make_tensor", ptr, layout)
    if isinstance(t, Tensor):
        object.__setattr__(t, "_element_type", dtype)
    return t


def _tag(text):
    return Obj(_cutevis.eval(text, syntax="dsl"))


# --- torch, as far as the examples' run() functions use it to make their arguments ------------

class _TorchDType:
    def __init__(self, name, bits, signed, cutlass_name):
        self.name, self.bits, self.is_signed, self.cutlass_name = name, bits, signed, cutlass_name
        self.is_floating_point = "float" in name

    def __repr__(self):
        return "torch." + self.name

    @property
    def itemsize(self):
        return max(1, self.bits // 8)


_TORCH_DTYPES = {n: _TorchDType(n, b, sg, c) for n, b, sg, c in [
    ("float16", 16, True, "Float16"), ("bfloat16", 16, True, "BFloat16"), ("float32", 32, True, "Float32"),
    ("float64", 64, True, "Float64"), ("int8", 8, True, "Int8"), ("uint8", 8, False, "Uint8"),
    ("int16", 16, True, "Int16"), ("int32", 32, True, "Int32"), ("int64", 64, True, "Int64"),
    ("float8_e4m3fn", 8, True, "Float8E4M3FN"), ("float8_e5m2", 8, True, "Float8E5M2"),
    ("float8_e8m0fnu", 8, False, "Float8E8M0FNU"), ("bool", 8, False, "Boolean")]}


def _compact(shape):
    stride, s = [0] * len(shape), 1
    for i in reversed(range(len(shape))):
        stride[i] = s
        s *= shape[i]
    return tuple(stride)


def _shape_arg(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(int(x) for x in args[0])
    return tuple(int(x) for x in args)


class FakeTorchTensor:
    """A torch tensor's shape, strides and dtype (no data): what from_dlpack needs."""

    def __init__(self, shape, stride=None, dtype=None):
        self.shape = tuple(shape)
        self._stride = tuple(stride) if stride is not None else _compact(self.shape)
        self.dtype = dtype or _TORCH_DTYPES["float32"]
        self.device = Opaque("device")
        self.is_nested = False

    def stride(self, i=None):
        return self._stride if i is None else self._stride[i]

    def size(self, i=None):
        return self.shape if i is None else self.shape[i]

    def dim(self):
        return len(self.shape)

    def numel(self):
        return math.prod(self.shape)

    def element_size(self):
        return self.dtype.itemsize

    def permute(self, *order):
        order = _shape_arg(order)
        return FakeTorchTensor([self.shape[i] for i in order], [self._stride[i] for i in order], self.dtype)

    def transpose(self, a, b):
        order = list(range(len(self.shape)))
        order[a], order[b] = order[b], order[a]
        return self.permute(order)

    def to(self, *args, dtype=None, **kwargs):
        for a in args:
            if isinstance(a, _TorchDType):
                dtype = a
        return FakeTorchTensor(self.shape, self._stride, dtype or self.dtype)

    def view(self, *args, dtype=None):
        if dtype is not None or (args and isinstance(args[0], _TorchDType)):
            return self.to(dtype or args[0])
        return FakeTorchTensor(_shape_arg(args), None, self.dtype)

    def contiguous(self):
        return FakeTorchTensor(self.shape, None, self.dtype)

    def _same(self, *a, **k):
        return self

    cuda = cpu = random_ = normal_ = uniform_ = fill_ = copy_ = zero_ = clone = detach = _same
    __mul__ = __rmul__ = __add__ = __radd__ = __sub__ = __truediv__ = _same

    def data_ptr(self):
        return 0

    def __getitem__(self, key):
        return Opaque("torch_tensor[]")

    def __setitem__(self, key, value):
        pass

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Opaque("torch_tensor." + attr)


def _fake_torch(mod):
    torch = mod("torch")
    for n, d in _TORCH_DTYPES.items():
        setattr(torch, n, d)
    torch.float, torch.half, torch.int, torch.long = (_TORCH_DTYPES["float32"], _TORCH_DTYPES["float16"],
                                                      _TORCH_DTYPES["int32"], _TORCH_DTYPES["int64"])
    torch.dtype = _TorchDType
    torch.Tensor = FakeTorchTensor

    def make(*shape, dtype=None, **kw):
        return FakeTorchTensor(_shape_arg(shape), None, dtype)

    torch.empty = torch.zeros = torch.ones = torch.randn = torch.rand = make
    torch.empty_strided = lambda shape, stride, dtype=None, **kw: FakeTorchTensor(shape, stride, dtype)
    torch.empty_like = torch.zeros_like = torch.ones_like = \
        lambda t, dtype=None, **kw: FakeTorchTensor(t.shape, t._stride, dtype or t.dtype)
    torch.randint = lambda low, high=None, size=(), dtype=None, **kw: FakeTorchTensor(size, None, dtype)
    torch.arange = lambda *a, dtype=None, **kw: FakeTorchTensor((int(a[-1] if len(a) < 2 else a[1] - a[0]),), None,
                                                                dtype)
    torch.manual_seed = lambda *a, **k: None
    return torch


def _fake_cutlass_torch(m, torch, session):
    import enum

    class TensorInitType(enum.Enum):
        SKIP = 0
        SCALAR = 1
        RANDOM = 2
        GAUSSIAN = 3

    m.TensorInitType = TensorInitType
    m.dtype = lambda cutlass_dtype: _TORCH_DTYPES.get(
        next((n for n, d in _TORCH_DTYPES.items() if d.cutlass_name == cutlass_dtype.__name__), "float32"))

    def create_and_permute_torch_tensor(shape, dtype, permute_order=None, init_type=None, init_config=None,
                                        device=None):
        t = FakeTorchTensor(shape, None, dtype)
        return t.permute(permute_order) if permute_order is not None else t

    def matrix(l, mode0, mode1, is_mode0_major, cutlass_dtype, init_type=None, init_config=None, device=None):
        shape = (l, mode1, mode0) if is_mode0_major else (l, mode0, mode1)
        order = (2, 1, 0) if is_mode0_major else (1, 2, 0)
        return create_and_permute_torch_tensor(shape, m.dtype(cutlass_dtype), order)

    def cute_tensor_like(data_ref, cutlass_dtype, is_dynamic_layout=True, assumed_align=None, **kw):
        return tensor(cutlass_dtype, data_ref.shape, stride=data_ref.stride()), \
            FakeTorchTensor(data_ref.shape, data_ref.stride(), m.dtype(cutlass_dtype))

    m.create_and_permute_torch_tensor = create_and_permute_torch_tensor
    m.matrix = matrix
    m.cute_tensor_like = cute_tensor_like
    m.convert_cute_tensor = lambda f32, cute_tensor, *a, **k: cute_tensor
    m.get_leading_dim = lambda t: next((i for i, s in enumerate(t.stride()) if s == 1), None)


def from_dlpack(t, assumed_align=None, **kwargs):
    """cute.runtime.from_dlpack of a (fake) torch tensor: a cutevis gmem tensor of its shape and strides."""
    if not isinstance(t, FakeTorchTensor):
        return Opaque("from_dlpack()")
    dtype = getattr(sys.modules.get("cutlass"), t.dtype.cutlass_name, None)
    if dtype is None:
        return Opaque("from_dlpack()")
    return tensor(dtype, t.shape, stride=t.stride())


def create_cute_tensor_for_fp8(storage_tensor, dtype, leading_dim=None, source_f32_tensor=None, assumed_align=16,
                               mark_dynamic_layout=True):
    """cutlass.utils.create_cute_tensor_for_fp8: the storage's shape and strides, typed `dtype`."""
    t = from_dlpack(storage_tensor)
    if isinstance(t, Tensor):
        t.element_type = dtype
    return t


# --- modules ----------------------------------------------------------------------------

class _TensorView(Obj):
    """A layout-algebra result on a tensor (cute.zipped_divide(tensor, tiler)): the engine divides
    the tensor's layout; `.layout` is that layout."""

    @property
    def layout(self):
        return Obj(self._cutevis_value)


_TENSOR_ALGEBRA = ("zipped_divide", "logical_divide", "tiled_divide", "flat_divide", "composition",
                   "logical_product", "zipped_product", "tiled_product", "flat_product")


def _python_override(prefix, attr):
    """cute.* names whose CuTeDSL meaning the engine's builtin covers only in part."""
    full = prefix + "." + attr
    if prefix == "cute" and attr in _TENSOR_ALGEBRA:
        def on_tensor(target, *a, **k):
            if isinstance(target, Tensor):
                r = _engine(full, target.layout, *a, **k)
                return _TensorView(r._cutevis_value) if isinstance(r, Obj) else r
            return _engine(full, target, *a, **k)
        return on_tensor
    if full == "cute.assume":
        return lambda src, divby=None, **k: src  # an alignment promise to the compiler
    if full in ("cute.nvgpu.make_tiled_tma_atom_A", "cute.nvgpu.make_tiled_tma_atom_B"):
        cpp = "make_tma_atom_%s_sm100" % full[-1]

        def make_tiled_tma_atom_sm100(op, gmem_tensor, smem_layout, mma_tiler_mnk, tiled_mma,
                                      cluster_shape_vmnk=None, internal_type=None, **k):
            # C++'s make_tma_atom_A/B_sm100<T>(op, gtensor, slayout, mma_tiler, tiled_mma, cluster_layout_vmnk)
            t = internal_type or getattr(gmem_tensor, "element_type", None)
            if t is None or cluster_shape_vmnk is None:
                return Opaque(full + "()"), NotModelled("the TMA coordinate tensor")
            cluster = _engine("cute.make_layout", cluster_shape_vmnk)
            atom = _engine(cpp, op, gmem_tensor, smem_layout, mma_tiler_mnk, tiled_mma, cluster, _template=t)
            return atom, NotModelled("the TMA coordinate tensor")
        return make_tiled_tma_atom_sm100
    if full == "cute.size_in_bytes":
        def size_in_bytes(dtype, layout, **k):
            if layout is None:
                return 0
            return (_engine("cute.cosize", layout) * dtype.width + 7) // 8
        return size_in_bytes
    if full == "cute.round_up":
        def round_up(a, b):
            if isinstance(a, tuple):
                return tuple(round_up(x, y) for x, y in zip(a, b if isinstance(b, tuple) else (b,) * len(a)))
            return _engine(full, a, b)
        return round_up
    if prefix == "sm100_utils" and attr in ("cluster_shape_to_tma_atom_A", "cluster_shape_to_tma_atom_B"):
        mode = 1 if attr.endswith("A") else 0

        def cluster_shape_to_tma_atom(cluster_shape_mnk, atom_thr_id):  # blackwell_helpers' rule
            sm_count = _engine("cute.size", atom_thr_id)
            mcast = _engine("cute.size", cluster_shape_mnk, mode=[mode]) != 1
            if sm_count != 1:
                return Opaque(full + "(): CtaGroup.TWO TMA is not modelled")
            op = "CopyBulkTensorTileG2SMulticastOp" if mcast else "CopyBulkTensorTileG2SOp"
            return _engine("cute.nvgpu.cpasync." + op)
        return cluster_shape_to_tma_atom
    if full in ("cute.select", "cute.get", "cute.group_modes", "cute.slice_", "cute.append", "cute.prepend"):
        inner_override = _python_override_plain(full)

        def on_composed(src, *a, **k):  # CuTe applies these to a composed layout's outer layout
            v = getattr(src, "_cutevis_value", None)
            if full != "cute.slice_" and isinstance(v, Value) and v.kind == "composed_layout" and \
                    " o 0 o " in v.text():
                outer = inner_override(_engine("layout_b", src), *a, **k)
                return _engine("cute.make_composed_layout", _engine("layout_a", src), 0, outer)
            return inner_override(src, *a, **k)
        return on_composed
    return _python_override_plain(full)


def _python_override_plain(full):
    if full == "cute.group_modes":
        def group_modes(src, *a, **k):
            if isinstance(src, Tensor):  # CuTe's group_modes on a tensor: its layout's modes grouped
                return _engine("cute.make_tensor", src.iterator, _engine(full, src.layout, *a, **k))
            return _engine(full, src, *a, **k)
        return group_modes
    if full == "cute.slice_":
        def slice_(src, coord, **k):
            if isinstance(src, Obj) and src._cutevis_value.kind in ("composed_layout", "tensor"):
                return src(coord)  # CuTe's slice on a composed layout or a tensor: the engine's x(coord...)
            return _engine(full, src, coord, **k)
        return slice_
    if full == "cute.nvgpu.cpasync.make_tiled_tma_atom":
        def make_tiled_tma_atom(*a, **k):  # CuTeDSL returns (atom, TMA coordinate tensor)
            return _engine(full, *a, **k), NotModelled("the TMA coordinate tensor")
        return make_tiled_tma_atom
    if full.startswith(("cute.select", "cute.get", "cute.append", "cute.prepend")):
        return lambda *a, **k: _engine(full, *a, **k)
    return None


class NotModelled(Opaque):
    """A value cutevis deliberately does not model (the TMA coordinate tensor): not counted."""


class _EngineModule(types.ModuleType):
    """A CuTeDSL module whose names are the engine's builtins `PREFIX.NAME`; enum classes and
    members evaluate to the engine's tags; anything else the engine does not know is Opaque."""

    def __init__(self, name, prefix):
        super().__init__(name)
        self._prefix = prefix

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        full = self._prefix + "." + attr
        override = _python_override(self._prefix, attr)
        if override:
            return override
        if _cutevis.has_builtin(full):
            fn = lambda *a, **k: _engine(full, *a, **k)  # noqa: E731
            fn.__name__ = attr
            fn.__qualname__ = full
            return fn
        if attr in _ENUMS:
            return _Enum(attr)
        return Opaque(full)


_ENUMS = ("OperandMajorMode", "OperandSource", "CtaGroup", "SmemLayoutAtomKind", "LoadCacheMode", "AddressSpace",
          "ReductionKind", "Repetition", "Pack", "Unpack", "Field")


class _Enum:
    def __init__(self, cls):
        self._cls = cls

    def __getattr__(self, member):
        if member.startswith("__"):
            raise AttributeError(member)
        try:
            return _tag(self._cls + "." + member)
        except Error:
            return Opaque(self._cls + "." + member)


class LayoutEnum:
    """cutlass.utils.LayoutEnum: which mode of a (M,K)/(N,K)/(M,N) tensor is contiguous."""

    def __init__(self, name):
        self.name = name
        self._cutevis_value = _cutevis.eval("LayoutEnum." + name, syntax="dsl")

    def __repr__(self):
        return "LayoutEnum." + self.name

    def __eq__(self, other):
        return isinstance(other, LayoutEnum) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def mma_major_mode(self):
        return _tag("OperandMajorMode." + ("K" if self.name == "ROW_MAJOR" else "MN"))

    sm90_mma_major_mode = mma_major_mode

    def is_k_major_a(self):
        return self.name == "ROW_MAJOR"

    def is_m_major_a(self):
        return self.name == "COL_MAJOR"

    def is_n_major_b(self):
        return self.name == "COL_MAJOR"

    def is_k_major_b(self):
        return self.name == "ROW_MAJOR"

    def is_n_major_c(self):
        return self.name == "ROW_MAJOR"

    def is_m_major_c(self):
        return self.name == "COL_MAJOR"

    @staticmethod
    def from_tensor(t):
        stride = t.stride if isinstance(t, Tensor) else None
        if isinstance(stride, tuple) and len(stride) >= 2 and stride[0] == 1:
            return LayoutEnum.COL_MAJOR
        return LayoutEnum.ROW_MAJOR


LayoutEnum.ROW_MAJOR = LayoutEnum("ROW_MAJOR")
LayoutEnum.COL_MAJOR = LayoutEnum("COL_MAJOR")

_SMEM_CAPACITY = {"sm_80": 166912, "sm_86": 101376, "sm_89": 101376, "sm_90": 232448, "sm_100": 232448,
                  "sm_103": 232448, "sm_120": 101376}


def get_smem_capacity_in_bytes(arch="sm_90"):
    return _SMEM_CAPACITY.get(arch, 232448)


class Launch:
    """A `@cute.kernel` called on the host: its arguments and `.launch(...)` configuration."""

    def __init__(self, name, args, kwargs, record):
        self.name, self.args, self.kwargs, self.config = name, args, kwargs, None
        record.append(self)

    def launch(self, **config):
        self.config = config
        return self


class Session:
    """One run: the fake modules, what the jit functions computed, the kernel launches."""

    def __init__(self):
        self.locals = {}  # "func.var" -> value, from @cute.jit functions run eagerly
        self.launches = []
        self.objects = []  # the objects whose @cute.jit methods ran (the kernel classes' instances)
        self.errors = []  # engine errors met while running (the value became unresolved)
        self.blocked = []  # calls not made because an argument was unresolved

    def jit(self, fn=None, **options):
        if fn is None:
            return lambda f: self.jit(f)
        session = self

        def run(*args, **kwargs):
            if args and fn.__name__ in vars(type(args[0])) and all(o is not args[0] for o in session.objects):
                session.objects.append(args[0])  # a kernel object: its attributes are listed
            frames = {}

            def profile(frame, event, arg):
                if event == "return" and frame.f_code is fn.__code__:
                    frames.update(frame.f_locals)

            old = sys.getprofile()
            sys.setprofile(profile)
            try:
                return fn(*args, **kwargs)
            finally:
                sys.setprofile(old)
                for k, v in frames.items():
                    if k != "self":
                        session.locals[fn.__qualname__ + "." + k] = v

        run.__wrapped__ = fn
        run.__name__ = fn.__name__
        run.__qualname__ = fn.__qualname__
        return run

    def kernel(self, fn=None, **options):
        if fn is None:
            return lambda f: self.kernel(f)
        session = self

        def launchable(*args, **kwargs):
            return Launch(fn.__qualname__, args, kwargs, session.launches)

        launchable.__wrapped__ = fn
        launchable.__name__ = fn.__name__
        return launchable

    def modules(self):
        """The fake `cutlass` package and everything the examples import beside it."""
        mods = {}

        def mod(name, cls=_OpaqueModule, *args):
            m = cls(name, *args) if args else cls(name)
            m.__path__ = []  # a package: submodules import
            mods[name] = m
            return m

        cutlass = mod("cutlass")
        _make_dtypes(cutlass)
        cutlass.const_expr = lambda x, *a, **k: x
        cutlass.dynamic_expr = lambda x, *a, **k: x
        cutlass.range_constexpr = range
        cutlass.range = lambda *a, **k: range(*[int(x) for x in a])
        cutlass.Constexpr = Opaque("cutlass.Constexpr")
        cutlass.min, cutlass.max = min, max
        cutlass.__version__ = "4.3.0"  # the CuTeDSL release whose API this mirrors
        cutlass.dtype = lambda name: getattr(cutlass, name) if isinstance(name, str) else name  # argparse type=
        cute = mod("cutlass.cute", _EngineModule, "cute")
        cutlass.cute = cute
        cute.jit = self.jit
        cute.kernel = self.kernel
        cute.Tensor = Tensor
        cute.Layout = cute.ComposedLayout = cute.TiledMma = cute.TiledCopy = cute.CopyAtom = cute.MmaAtom = Obj
        cute.Pointer = cute.Shape = cute.Tile = cute.Coord = cute.IntTuple = cute.Stride = Obj
        cute.compile = _Compile()
        cute.struct = Opaque("cute.struct")
        cute.arch = Opaque("cute.arch")
        for sub in ("warp", "warpgroup", "tcgen05", "cpasync"):
            setattr(cute, sub, mod("cutlass.cute.nvgpu." + sub, _EngineModule, "cute.nvgpu." + sub))
        nvgpu = mod("cutlass.cute.nvgpu", _EngineModule, "cute.nvgpu")
        cute.nvgpu = nvgpu
        for sub in ("warp", "warpgroup", "tcgen05", "cpasync"):
            setattr(nvgpu, sub, mods["cutlass.cute.nvgpu." + sub])
        cute.runtime = mod("cutlass.cute.runtime")
        cute.testing = mod("cutlass.cute.testing")
        cute.math = mod("cutlass.cute.math")
        utils = mod("cutlass.utils", _EngineModule, "utils")
        cutlass.utils = utils
        utils.LayoutEnum = LayoutEnum
        utils.get_smem_capacity_in_bytes = get_smem_capacity_in_bytes
        for name, prefix in (("hopper_helpers", "sm90_utils"), ("blackwell_helpers", "sm100_utils")):
            m = mod("cutlass.utils." + name, _EngineModule, prefix)
            setattr(utils, name, m)
        hh = mods["cutlass.utils.hopper_helpers"]
        hh.compute_tile_shape_or_override = compute_tile_shape_or_override
        for name in ("cutlass.pipeline", "cutlass.torch", "cutlass.cutlass_dsl", "cutlass.utils.ampere_helpers",
                     "cutlass._mlir", "cutlass.base_dsl", "cuda", "cuda.bindings", "cuda.bindings.driver", "torch",
                     "cuda_python", "cutlass.cute.typing", "cutlass.utils.blockscaled_layout"):
            if name not in mods:
                mod(name)
        cutlass.pipeline = mods["cutlass.pipeline"]
        cutlass.torch = mods["cutlass.torch"]
        del mods["torch"]
        torch = _fake_torch(mod)
        _fake_cutlass_torch(mods["cutlass.torch"], torch, self)
        cute.runtime.from_dlpack = from_dlpack
        for name in ("cutlass.cute.typing", "cutlass.typing", "cutlass.base_dsl.typing", "cutlass.cutlass_dsl"):
            m = mods.get(name) or mod(name)
            for dt in _DTYPE_NAMES:
                if hasattr(cutlass, dt):
                    setattr(m, dt, getattr(cutlass, dt))
            m.Numeric = Numeric
            m.Tensor = Tensor
        utils.create_cute_tensor_for_fp8 = create_cute_tensor_for_fp8
        th = mods.get("cutlass.utils.tensor_helpers") or mod("cutlass.utils.tensor_helpers")
        th.create_cute_tensor_for_fp8 = create_cute_tensor_for_fp8
        utils.tensor_helpers = th
        utils.sm90 = mods["cutlass.utils.sm90"] = mods["cutlass.utils.hopper_helpers"]
        utils.sm100 = mods["cutlass.utils.sm100"] = mods["cutlass.utils.blackwell_helpers"]
        return mods

    @contextlib.contextmanager
    def installed(self):
        """The fake modules in sys.modules for the duration (whatever was there before, a real
        cutlass included, is put back afterwards)."""
        fakes = self.modules()
        saved = {k: sys.modules[k] for k in list(sys.modules) if k in fakes or k.split(".")[0] in ("cutlass",)}
        for k in saved:
            del sys.modules[k]
        finder = _FakeFinder(fakes)
        sys.meta_path.insert(0, finder)
        sys.modules.update(fakes)
        _ACTIVE.append(self)
        try:
            yield fakes
        finally:
            _ACTIVE.pop()
            sys.meta_path.remove(finder)
            for k in list(sys.modules):
                if k in fakes or k.split(".")[0] == "cutlass":
                    del sys.modules[k]
            sys.modules.update(saved)


class _FakeFinder:
    """Imports of cutlass.* submodules nobody listed: an opaque module (never the real one)."""

    def __init__(self, fakes):
        self.fakes = fakes

    def find_spec(self, name, path=None, target=None):
        root = name.split(".")[0]
        if root in ("cutlass", "cuda", "torch") and name not in self.fakes:
            return importlib.util.spec_from_loader(name, _FakeLoader(self.fakes))
        return None


class _FakeLoader:
    def __init__(self, fakes):
        self.fakes = fakes

    def create_module(self, spec):
        m = _OpaqueModule(spec.name)
        m.__path__ = []
        self.fakes[spec.name] = m
        return m

    def exec_module(self, module):
        pass


# Helpers of cutlass.utils written in Python upstream, whose arithmetic is simple enough to
# restate (they return tuples, which the engine then takes).

def compute_tile_shape_or_override(tile_shape_mnk, element_type, is_cooperative=False, epi_tile_override=None):
    """hopper_helpers.compute_tile_shape_or_override: the epilogue tile."""
    if epi_tile_override is not None:
        return epi_tile_override
    if is_cooperative:
        tile_m = min(128, tile_shape_mnk[0])
        tile_n = min(32, tile_shape_mnk[1])
        return (tile_m, tile_n)
    n_perf = 64 if element_type.width == 8 else 32
    tile_m = min(64, tile_shape_mnk[0])
    tile_n = min(n_perf, tile_shape_mnk[1])
    return (tile_m, tile_n)


# --- running a file ---------------------------------------------------------------------

# The functions whose results are layouts, atoms or tilings: a value one of them could not
# compute is "unresolved" (counted); other unresolved values (sizes, grids, schedulers) are "opaque".
_LAYOUT_MAKER = re.compile(r"^(cute|sm90_utils|sm100_utils)\..*(layout|divide|product|tile_to_shape|composition|"
                           r"tiled_mma|tiled_copy|copy_atom|mma_atom|slice_|group_modes|select|coalesce|smem|"
                           r"Op\(|tma_atom|tile_to_mma_shape|make_tmem_copy|store_op|load_op)")


def _kind(v):
    """The kind a listed value has: the engine's, "unresolved" for a value a cutevis-modelled
    function could not compute, "opaque" for what cutevis does not model (torch, cuda,
    pipelines, the TMA coordinate tensor), None for plain Python values (not listed)."""
    if isinstance(v, Obj):
        return v._cutevis_value.kind
    if isinstance(v, NotModelled):
        return "opaque"
    if isinstance(v, Opaque):
        head, _, last = v._name.split("(")[0].rpartition(".")
        return "unresolved" if _LAYOUT_MAKER.match(head.split(".")[0] + "." + last) else "opaque"
    return None


def listed(obj, session, names=None):
    """(name, value) pairs: the requested attributes, or every attribute of obj and every jit
    local that is a cutevis value or unresolved."""
    out = []
    if names:
        for n in names:
            if n in session.locals:
                out.append((n, session.locals[n]))
                continue
            v = obj
            try:
                for part in n.split("."):
                    v = getattr(v, part)
            except AttributeError as e:
                v = NotModelled(str(e))
            out.append((n, v))
        return out
    objects = ([obj] if obj is not None else []) + [o for o in session.objects if o is not obj]
    for o in objects:
        for k, v in sorted(vars(o).items()):
            out.append((type(o).__name__ + "." + k, v))
    for k, v in session.locals.items():
        out.append((k, v))
    return [(k, v) for k, v in _flatten(out) if _kind(v)]


def _flatten(pairs):
    for k, v in pairs:
        if isinstance(v, tuple) and any(isinstance(e, (Obj, Opaque)) for e in v):
            for i, e in enumerate(v):
                yield "%s[%d]" % (k, i), e
        else:
            yield k, v


_COUNTED = ("layout", "composed_layout", "tiled_mma", "tiled_copy", "mma_atom", "copy_atom")  # arguments (tensors) are inputs


def run(path, call=None, setup=None, names=None, defines=None, argv=None):
    """Run FILE's module with the fake cutlass, build `call` in its namespace, run `setup` on
    it; returns (object, session, error text or None).  Without `call`, the file runs as
    __main__ with `argv` (its own defaults when empty): what `python FILE.py` would do, with
    every @cute.jit method of a kernel object run eagerly on cutevis values."""
    session = Session()
    obj, failure = None, None
    with session.installed():
        spec = importlib.util.spec_from_file_location("__main__" if call is None else "__cutevis_dsl__", path)
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        saved_argv = sys.argv
        sys.argv = [path] + list(argv or [])
        try:
            spec.loader.exec_module(module)
            ns = dict(vars(module))
            ns["tensor"] = tensor
            for k, v in (defines or {}).items():
                ns[k] = v
            if call:
                obj = eval(call, ns)  # noqa: S307 (the user's own expression on their own file)
            if setup:
                ns["self"] = obj
                text = setup if "(" in setup else setup + "()"
                eval("self." + text, ns)  # noqa: S307
        except SystemExit as e:
            if e.code not in (None, 0):
                failure = "SystemExit: %s" % e.code
        except Exception as e:  # noqa: BLE001 (the report says where the host code stopped)
            failure = "%s: %s" % (type(e).__name__, e)
            tb = e.__traceback__
            while tb.tb_next:
                tb = tb.tb_next
            failure += " (%s:%d)" % (os.path.basename(tb.tb_frame.f_code.co_filename), tb.tb_lineno)
        finally:
            sys.path.pop(0)
            sys.argv = saved_argv
    return obj, session, failure


def report(obj, session, names=None):
    rows = []
    for name, v in listed(obj, session, names):
        kind = _kind(v)
        rows.append({"name": name, "kind": kind or type(v).__name__,
                     "text": str(v) if kind and kind != "unresolved" else repr(v)})
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(prog="cutevis dsl", description=__doc__.split("\n\n")[0])
    p.add_argument("file")
    p.add_argument("names", nargs="*", help="attributes of the object (tiled_mma, sA_layout) or func.var")
    p.add_argument("--call", help="the object to build, e.g. 'HopperGemm(cutlass.Float32, (128, 128), (1, 1))'")
    p.add_argument("--setup", help="a method of it to run first: NAME or NAME(args); tensor(dtype, shape, leading=i) "
                   "makes a placeholder global tensor")
    p.add_argument("--json", action="store_true")
    p.add_argument("--svg", action="store_true", help="draw the one NAME as `cutevis layout|mma|copy --svg`")
    p.add_argument("--html", action="store_true", help="the same as the interactive page")
    p.add_argument("--txt", action="store_true")
    p.add_argument("--args", default="", help="without --call: the file runs as __main__ with these arguments "
                   "(default: none, its own defaults)")
    a = p.parse_intermixed_args(argv)
    if not os.path.isfile(a.file):
        print("cutevis: error: cannot read %s" % a.file, file=sys.stderr)
        return 2
    import shlex
    obj, session, failure = run(a.file, a.call, a.setup, a.names, argv=shlex.split(a.args))
    rows = report(obj, session, a.names)
    fmt = "svg" if a.svg else "html" if a.html else "txt" if a.txt else None
    if fmt:
        if len(a.names) != 1:
            print("cutevis: error: --%s draws one NAME" % fmt, file=sys.stderr)
            return 2
        v = listed(obj, session, a.names)[0][1]
        if not isinstance(v, Obj):
            print("cutevis: error: %s is not a cutevis value (%r)%s" % (a.names[0], v,
                  "; the host code stopped: " + failure if failure else ""), file=sys.stderr)
            return 1
        sys.stdout.write(v._cutevis_value.picture(fmt, a.names[0]))
        return 0
    counted = [r for r in rows if r["kind"] in _COUNTED or r["kind"] == "unresolved"]
    resolved = sum(1 for r in counted if r["kind"] != "unresolved")
    if a.json:
        print(json.dumps({"names": rows, "resolved": resolved, "counted": len(counted), "stopped": failure,
                          "errors": session.errors, "blocked": session.blocked,
                          "launches": [{"kernel": l.name, "config": {k: repr(v) for k, v in (l.config or {}).items()}}
                                       for l in session.launches]}))
    else:
        for r in rows:
            print("%-40s %-16s %s" % (r["name"], r["kind"], r["text"]))
        for l in session.launches:
            print("launch %s %s" % (l.name, ", ".join("%s=%r" % kv for kv in (l.config or {}).items())))
        print("%d of %d layouts/atoms/tilings resolved" % (resolved, len(counted)))
        for e in session.errors:
            print("cutevis: note: %s" % e, file=sys.stderr)
        if failure:
            print("cutevis: note: the host code stopped: %s" % failure, file=sys.stderr)
    if a.names and any(r["kind"] in ("unresolved", "opaque") for r in rows):
        return 1  # a requested name is not a cutevis value
    return 0


if __name__ == "__main__":
    sys.exit(main())
