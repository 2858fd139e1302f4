"""Helpers shared by the primitive modules: operand conversion and dtype promotion (MindSpore's rules),
and reducing a broadcast gradient back to its input's shape."""
from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.tensor import Tensor

_BF16 = dtypes.bfloat16.np_dtype
# the module (the package attribute ``cellonnx.tensor`` is the tensor() function, as in MindSpore)
_tensor_module = importlib.import_module("cellonnx.tensor")


def is_float_dtype(d: np.dtype) -> bool:
    return d.kind == "f" or d == _BF16


_CLIP_FAST = (np.dtype(np.float32), np.dtype(np.float64))


def clip_scalars(x: np.ndarray, lo: Any, hi: Any) -> np.ndarray:
    """np.clip(x, lo, hi) with scalar bounds, None for unbounded. NumPy vectorizes a clip between two scalars
    but not a one-sided one, nor maximum(x, scalar) (3x slower per value), so for float32 / float64 a missing
    bound becomes an infinity."""
    if x.dtype in _CLIP_FAST and (lo is not None or hi is not None):
        inf = x.dtype.type(np.inf)
        return np.clip(x, -inf if lo is None else lo, inf if hi is None else hi)
    if hi is None and lo is not None:
        return np.maximum(x, lo)
    if lo is None and hi is not None:
        return np.minimum(x, hi)
    return np.clip(x, lo, hi)


# trailing-axis sums up to this length go through BLAS (its float32 accumulation stays exact to ~1e-6 there;
# NumPy's pairwise summation is kept for longer rows)
ROW_SUM_MAX = 4096


def row_sums(x: np.ndarray, axes: tuple[int, ...] | None, keepdims: bool) -> np.ndarray | None:
    """np.sum(x, axes, keepdims) over the trailing axes of a contiguous float32 / float64 array with many rows
    of 2 to ROW_SUM_MAX values (layer norm's and softmax's reductions), as a matrix-vector product with ones:
    NumPy's reduction over short rows pays a loop setup per row (0.15 ms for 4k rows of 128 against 0.02 ms).
    None where that does not apply."""
    if axes is None or x.dtype not in _CLIP_FAST or not x.flags.c_contiguous or x.ndim < 2:
        return None
    n = len(axes)
    if not n or tuple(sorted(a % x.ndim for a in axes)) != tuple(range(x.ndim - n, x.ndim)):
        return None
    lead = x.shape[:x.ndim - n]
    rows = int(np.prod(lead))
    if not lead or rows < 64 or not 2 <= x.size // rows <= ROW_SUM_MAX:
        return None
    out = x.reshape(rows, -1) @ np.ones(x.size // rows, x.dtype)
    return out.reshape(lead + (1,) * n if keepdims else lead)


def sum_axes(x: np.ndarray, axes: tuple[int, ...] | None, keepdims: bool) -> np.ndarray:
    """np.sum(x, axes, keepdims, dtype=x.dtype), through ``row_sums`` where that applies."""
    fast = row_sums(x, axes, keepdims)
    return fast if fast is not None else np.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype)


_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def select(cond: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.where(cond, a, b) (broadcasting) for two arrays of one numeric dtype, as bit operations:
    ``b ^ ((a ^ b) & mask)`` with the mask all ones where cond holds. Exact for every value (NaN payloads and
    -0.0 included); NumPy's where branches on every value, 1-4 ns a value against ~0.2 ns here."""
    a, b = np.asarray(a), np.asarray(b)
    u = _BITS.get(a.dtype.itemsize)
    if u is None or a.dtype != b.dtype or not (a.dtype.kind in "fiub" or a.dtype == _BF16):
        return np.where(cond, a, b)
    bu = b.view(u)
    mask = np.subtract(u(0), np.asarray(cond, bool), dtype=u)  # True -> all ones
    out = np.bitwise_and(np.bitwise_xor(a.view(u), bu), mask)
    out ^= bu
    return out.view(a.dtype)


def to_tensor(x: Any, like: Tensor | None = None) -> Tensor:
    """A Tensor for ``x``; Python numbers take ``like``'s dtype where that keeps their meaning."""
    if isinstance(x, Tensor):
        return x
    if hasattr(x, "onnx_name"):  # a symbolic dim while tracing: a graph value, not the example's size
        t = to_tensor(int(x), like)
        if _tensor_module.SYMBOLIC_HOOK is not None:
            _tensor_module.SYMBOLIC_HOOK(t, x)
        return t
    if like is not None and isinstance(x, (bool, int, float, np.number, np.bool_)):
        ld = like._data.dtype
        if isinstance(x, (bool, np.bool_)) or is_float_dtype(ld) or \
                (isinstance(x, (int, np.integer)) and ld.kind in "iu"):
            return Tensor._make(np.asarray(x, dtype=ld))
        if isinstance(x, (float, np.floating)):  # float scalar with an int/bool tensor
            return Tensor._make(np.asarray(x, dtype=np.float32))
        return Tensor._make(np.asarray(x, dtype=np.int64))
    return Tensor(x)


def result_dtype(a: np.dtype, b: np.dtype) -> np.dtype:
    """Int with float gives the float type (not NumPy's float64); otherwise NumPy's promotion."""
    if a == b:
        return a
    fa, fb = is_float_dtype(a), is_float_dtype(b)
    if fa and not fb:
        return a
    if fb and not fa:
        return b
    if _BF16 in (a, b):
        other = b if a == _BF16 else a
        return np.dtype(np.float32) if other == np.float16 else other
    return np.result_type(a, b)


def promote(x: Any, y: Any) -> tuple[Tensor, Tensor]:
    """Two tensors of one dtype for a binary op."""
    if isinstance(x, Tensor) and isinstance(y, Tensor) and x._data.dtype == y._data.dtype:
        return x, y  # the common case, first: this runs for every binary op
    if not isinstance(x, Tensor):
        if not isinstance(y, Tensor):
            x = Tensor(x)
        else:
            x = to_tensor(x, y)
    if not isinstance(y, Tensor):
        y = to_tensor(y, x)
    dx, dy = x._data.dtype, y._data.dtype
    if dx != dy:
        from cellonnx.ops.prims.math import cast
        target = result_dtype(dx, dy)
        if dx != target:
            x = cast(x, target)
        if dy != target:
            y = cast(y, target)
    return x, y


def sum_to(g: Tensor, shape: tuple) -> Tensor:
    """Sum a broadcast gradient back to ``shape``."""
    gshape = g.shape
    if tuple(gshape) == tuple(shape):
        return g  # the common case, first: every binary op's gradient comes here
    from cellonnx.ops.prims.reduce import reduce_sum
    from cellonnx.ops.prims.shape import reshape

    lead = len(gshape) - len(shape)
    # a dim of 1 that the gradient's (dynamic or larger) dim was broadcast from; also a dynamic dim that is 1
    # here while the gradient's is not (``x[0:1]`` of a batch): if it is not 1 when the graph runs, the
    # Reshape below fails there rather than sum the wrong rows
    axes = list(range(lead)) + [i + lead for i, (d, k) in enumerate(zip(shape, gshape[lead:]))
                                if (d == 1 or (int(d) == 1 and int(k) != 1)) and k != 1]
    if not axes:
        return reshape(g, shape)
    out = reduce_sum(g, tuple(axes), keep_dims=True)
    return reshape(out, shape) if lead or tuple(out.shape) != tuple(shape) else out


def count_of(shape: Any, axes: Any, dtype: np.dtype) -> Any:
    """The number of elements over ``axes`` of ``shape`` (all when None) as a divisor: a float, or a
    ``dtype`` scalar Tensor computed at run time when a dim is symbolic (a graph with a dynamic batch), so a
    mean's gradient never bakes in the batch size it was traced at."""
    from cellonnx.tensor import is_symbolic

    n: Any = 1
    for d in (shape if axes is None else [shape[a] for a in axes]):
        n = n * d
    if not is_symbolic(n):
        return float(n)
    from cellonnx.ops.prims.math import cast
    return cast(Tensor(n), dtype)


def as_dim(value: Any) -> int:
    """A size or count given to an op (a shape entry, tile multiples, a repeat count) as an int, keeping a
    symbolic dim symbolic: while a graph with dynamic dims is traced, ``x.shape[0]`` is an int that also
    knows how to read itself from the graph, and ``int()`` would bake the example's size in."""
    if hasattr(value, "onnx_name"):
        return value
    if isinstance(value, Tensor):
        return int(value._data.reshape(()))
    return int(value)


def norm_axis(axis: int, ndim: int, op: str) -> int:
    if not -ndim - (ndim == 0) <= axis < max(ndim, 1):
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % max(ndim, 1)


def norm_axes(axis: Any, ndim: int, op: str) -> tuple[int, ...] | None:
    """None (all axes) or a sorted tuple of non-negative axes."""
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return None
    if isinstance(axis, (tuple, list)):
        return tuple(sorted({norm_axis(int(a), ndim, op) for a in axis}))
    return (norm_axis(int(axis), ndim, op),)
