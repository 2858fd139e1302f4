"""mx.np: MXNet 2.x's NumPy interface - ``mx.np.ndarray`` and NumPy's functions, results as mx.np.ndarray.

The functions are cellonnx.numpy's, called with NumPy's signatures (cellonnx/mxnet/numpy/_shared.py). Only
where MXNet differs from them are they its own here: ``array`` / ``arange`` / ``zeros`` ... of Python data
are float32 (MXNet's default dtype, also for integers) unless a dtype is given and accept ``device=`` /
``ctx=``; ``mean`` of integers is float32; ``argmax`` / ``argmin`` are int64; ``take`` clips as MXNet does;
``where`` takes any condition dtype; ``prod``, ``sort`` and ``argsort`` (not in cellonnx.numpy).
"""
from __future__ import annotations

import builtins as _builtins
import math
from typing import Any

import numpy as _onp

import cellonnx.numpy as _cnp
from cellonnx import dtypes as _dtypes
from cellonnx import ops as _ops
from cellonnx.mxnet._dtype import mx_dtype
from cellonnx.mxnet._op import TABLE as _op_table
from cellonnx.mxnet._op._util import eager_only
from cellonnx.mxnet._placement import device_arg as _device_arg
from cellonnx.mxnet._placement import place as _place
from cellonnx.mxnet.numpy import data_type as _data_type
from cellonnx.mxnet.numpy import linalg, random  # noqa: F401 - mx.np.linalg, mx.np.random
from cellonnx.mxnet.numpy._results import conform as _conform
from cellonnx.mxnet.numpy._shared import shared as _shared
from cellonnx.mxnet.numpy.multiarray import around as _around
from cellonnx.mxnet.numpy.multiarray import ndarray, to_np
from cellonnx.tensor import Tensor

pi, e, inf, nan, newaxis = math.pi, math.e, _onp.inf, _onp.nan, None
# NumPy's types as mx_dtype objects: NumPy takes them (np.dtype, dtype=, scalar construction, isinstance) and
# so does cellonnx (isinstance(mx.np.float32, cellonnx.dtype.Float), ops.cast(x, mx.np.int32))
float16, float32, float64 = (mx_dtype(n, numpy_style=True) for n in ("float16", "float32", "float64"))
int8, int32, int64, uint8, bool_ = (mx_dtype(n, numpy_style=True) for n in ("int8", "int32", "int64", "uint8",
                                                                           "bool"))
dtype = _data_type.dtype  # MXNet 2.x's NumPy fallback: numpy.dtype(...) called through


def _on(out: ndarray, device: Any, ctx: Any) -> ndarray:
    """``out`` on ``device`` (or ``ctx``, MXNet 1.x's name; default: the current device)."""
    return _place(out, _device_arg(device if device is not None else ctx))  # type: ignore[no-any-return]


def _dt(value: Any, default: Any = _onp.float32) -> _onp.dtype:
    return _dtypes.to_numpy(value) if value is not None else _onp.dtype(default)


def array(object: Any, dtype: Any = None, device: Any = None, ctx: Any = None) -> ndarray:
    """An ndarray: float32 for Python data unless ``dtype`` is given; arrays keep their dtype.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1, 2], [3, 4]])
        >>> x.dtype
        dtype('float32')
        >>> x.shape
        (2, 2)
        >>> np.array([1, 2], dtype='int32').dtype
        dtype('int32')
    """
    if isinstance(object, Tensor):
        arr = object._data.astype(_dt(dtype, object._data.dtype), copy=True)
    elif hasattr(object, "dtype"):
        arr = _onp.array(object, dtype=_dt(dtype, object.dtype))
    else:
        arr = _onp.array(object, dtype=_dt(dtype))
    return _on(to_np(Tensor(arr)), device, ctx)


def asarray(obj: Any, dtype: Any = None, device: Any = None) -> ndarray:
    """``obj`` as an ndarray: an ndarray of the wanted dtype itself, anything else copied as by ``array``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([1.0, 2.0])
        >>> np.asarray(x) is x
        True
        >>> np.asarray([1, 2]).dtype
        dtype('float32')
    """
    if isinstance(obj, ndarray) and (dtype is None or _dt(dtype) == obj._data.dtype):
        return obj
    return array(obj, dtype)


def _shape(shape: Any) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, _onp.integer)) else tuple(int(s) for s in shape)


def zeros(shape: Any, dtype: Any = None, order: str = "C", device: Any = None, ctx: Any = None) -> ndarray:
    """A float32 (unless ``dtype`` is given) array of zeros of ``shape``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.zeros((2, 3)))
        [[0. 0. 0.]
         [0. 0. 0.]]
    """
    return _on(to_np(Tensor(_onp.zeros(_shape(shape), _dt(dtype)))), device, ctx)


def ones(shape: Any, dtype: Any = None, order: str = "C", device: Any = None, ctx: Any = None) -> ndarray:
    """A float32 (unless ``dtype`` is given) array of ones of ``shape``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.ones((2, 2), dtype='int32'))
        [[1 1]
         [1 1]]
    """
    return _on(to_np(Tensor(_onp.ones(_shape(shape), _dt(dtype)))), device, ctx)


def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", device: Any = None,
         ctx: Any = None) -> ndarray:
    """An array of ``shape`` filled with ``fill_value``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.full((2, 3), 7.0))
        [[7. 7. 7.]
         [7. 7. 7.]]
    """
    return _on(to_np(Tensor(_onp.full(_shape(shape), fill_value, _dt(dtype)))), device, ctx)


empty = zeros


def zeros_like(a: Tensor, dtype: Any = None, **_: Any) -> ndarray:
    """An array of zeros of ``a``'s shape and (unless given) dtype.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(np.zeros_like(x))
        [[0. 0.]
         [0. 0.]]
    """
    return to_np(_ops.zeros_like(a) if dtype is None else _ops.zeros_like(_ops.cast(a, _dt(dtype))))


def ones_like(a: Tensor, dtype: Any = None, **_: Any) -> ndarray:
    """An array of ones of ``a``'s shape and (unless given) dtype.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 2.0]])
        >>> print(np.ones_like(x))
        [[1. 1.]]
    """
    return to_np(_ops.ones_like(a) if dtype is None else _ops.ones_like(_ops.cast(a, _dt(dtype))))


def full_like(a: Tensor, fill_value: Any, dtype: Any = None, **_: Any) -> ndarray:
    """An array of ``a``'s shape and (unless given) dtype filled with ``fill_value``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.full_like(np.ones((2, 2)), 7.0))
        [[7. 7.]
         [7. 7.]]
    """
    dt = _dt(dtype, a._data.dtype)  # of a's shape read from the graph (a dynamic dim stays one)
    return to_np(_ops.full_like(_ops.cast(a, dt), Tensor(_onp.asarray(fill_value, dt))))


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None, device: Any = None,
           ctx: Any = None) -> ndarray:
    """Evenly spaced values in [start, stop); float32 by default (MXNet's default dtype).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.arange(5))
        [0. 1. 2. 3. 4.]
        >>> print(np.arange(1, 2, 0.25))
        [1.   1.25 1.5  1.75]
    """
    if stop is None:
        start, stop = 0, start
    return _on(to_np(Tensor(_onp.arange(start, stop, step).astype(_dt(dtype)))), device, ctx)


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0, device: Any = None, ctx: Any = None) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.linspace(0, 1, 5))
        [0.   0.25 0.5  0.75 1.  ]
    """
    out = _on(to_np(Tensor(_onp.linspace(start, stop, num, endpoint).astype(_dt(dtype)))), device, ctx)
    # builtins' max: this module's max is NumPy's
    return (out, (stop - start) / _builtins.max(num - (1 if endpoint else 0), 1)) if retstep else out


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, **_: Any) -> ndarray:
    """A 2-D array with ones on the ``k``-th diagonal and zeros elsewhere.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.eye(2, 3))
        [[1. 0. 0.]
         [0. 1. 0.]]
    """
    return to_np(Tensor(_onp.eye(N, M, k, dtype=_dt(dtype))))


def _t(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else Tensor(_onp.asarray(x, _onp.float32) if isinstance(x, float)
                                                 else _onp.asarray(x))


def _pair(a: Any, b: Any) -> tuple[Tensor, Tensor]:
    if isinstance(a, Tensor) and not isinstance(b, Tensor):
        keep = not isinstance(b, float) or a._data.dtype.kind == "f"
        return a, Tensor(_onp.asarray(b, a._data.dtype if keep else _onp.float32))
    if isinstance(b, Tensor) and not isinstance(a, Tensor):
        return _pair(b, a)[::-1]  # type: ignore[return-value]
    return _t(a), _t(b)


def mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False) -> ndarray:
    """The mean; of an integer or bool array it is float32 (MXNet's default float type), as MXNet gives it.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(np.mean(x))
        2.5
        >>> print(np.mean(x, axis=1))
        [1.5 3.5]
    """
    x = _t(a)
    if dtype is None and x._data.dtype.kind in "biu":
        x = _ops.cast(x, _onp.float32)
    return _shared("mean")(x, axis, dtype, out, keepdims)


def prod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
         **_: Any) -> ndarray:
    """The product over ``axis`` (all axes when None).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 2.0], [3.0, 4.0]])
        >>> print(np.prod(x, axis=0))
        [3. 8.]
    """
    x = _t(a) if dtype is None else _ops.cast(_t(a), _dt(dtype))
    return to_np(_ops.prod(x, tuple(axis) if isinstance(axis, list) else axis, keepdims))


def argmax(a: Tensor, axis: int | None = None, out: Any = None) -> ndarray:
    """The int64 indices of the largest elements along ``axis`` (of the flattened array when None).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]])
        >>> print(np.argmax(x, axis=1))
        [1 0]
    """
    return ndarray.argmax(to_np(a), axis)


def argmin(a: Tensor, axis: int | None = None, out: Any = None) -> ndarray:
    """The int64 indices of the smallest elements along ``axis`` (of the flattened array when None).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([[1.0, 7.0, 3.0], [9.0, 5.0, 6.0]])
        >>> print(np.argmin(x, axis=0))
        [0 1 0]
    """
    return ndarray.argmin(to_np(a), axis)


def where(condition: Any, x: Any = None, y: Any = None) -> ndarray:
    """Elements of ``x`` where ``condition`` holds (is non-zero) and of ``y`` elsewhere.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([1.0, -2.0, 3.0])
        >>> print(np.where(x > 0, x, np.zeros_like(x)))
        [1. 0. 3.]
    """
    c = _t(condition)
    if c._data.dtype != _onp.bool_:
        c = _ops.not_equal(c, 0)
    a, b = _pair(x, y)
    return to_np(_ops.where(c, a, b))


def take(a: Tensor, indices: Any, axis: int | None = None, mode: str = "raise", out: Any = None) -> ndarray:
    """The elements of ``a`` at ``indices`` along ``axis`` (of the flattened array when None).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> x = np.array([10.0, 20.0, 30.0, 40.0])
        >>> print(np.take(x, np.array([3, 0])))
        [40. 10.]
    """
    return ndarray.take(to_np(a), indices, axis, mode)


def sort(a: Any, axis: int | None = -1, kind: Any = None, order: Any = None) -> ndarray:
    """``a`` sorted along ``axis`` (the flattened array when None).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.sort(np.array([3.0, 1.0, 2.0])))
        [1. 2. 3.]
    """
    x = _t(a) if axis is not None else _ops.reshape(_t(a), (-1,))
    return to_np(_ops.sort(x, -1 if axis is None else int(axis))[0])


def argsort(a: Any, axis: int | None = -1, kind: Any = None, order: Any = None) -> ndarray:
    """The int64 indices that sort ``a`` along ``axis`` (stable).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.argsort(np.array([3.0, 1.0, 2.0])))
        [1 2 0]
    """
    x = _t(a) if axis is not None else _ops.reshape(_t(a), (-1,))
    return to_np(_ops.cast(_ops.argsort(x, -1 if axis is None else int(axis)), _onp.int64))


def shape(a: Tensor) -> tuple:
    """The shape of ``a`` as a tuple.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.shape(np.ones((2, 3)))
        (2, 3)
    """
    return tuple(a.shape)


def ndim(a: Tensor) -> int:
    """The number of axes of ``a``.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.ndim(np.ones((2, 3)))
        2
    """
    return a.ndim


def around(a: Any, decimals: int = 0, out: Any = None) -> ndarray:
    """``a`` rounded to ``decimals`` places (negative: to tens, hundreds ...), half to even, computed as
    MXNet computes it: multiplied by 10 once per place in ``a``'s dtype, rounded and divided back, so the
    float32 results are MXNet's bit for bit.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.around(np.array([0.5, 1.5, 2.567, -1.25]), 1))
        [ 0.5  1.5  2.6 -1.2]
        >>> print(np.round(np.array([1.234, 2.567]), decimals=2))
        [1.23      2.5700002]
    """
    result = _around(_t(a), decimals)
    if out is not None:
        out[...] = result
        return out
    return result


round = round_ = around  # NumPy's names


def unique(ar: Any, return_index: bool = False, return_inverse: bool = False, return_counts: bool = False,
           axis: int | None = None) -> Any:
    """The sorted unique elements of ``ar`` (of the flattened array, or its unique slices along ``axis``),
    with the int64 index of each one's first occurrence, the inverse indices and the counts when asked.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.unique(np.array([3.0, 1.0, 2.0, 1.0])))
        [1. 2. 3.]
        >>> values, counts = np.unique(np.array([3, 1, 1], dtype='int32'), return_counts=True)
        >>> print(values, counts)
        [1 3] [2 1]
    """
    eager_only("np.unique", ar)  # NumPy's unique: a graph would hold the example's values and count
    data = _t(ar)._data
    out = _onp.unique(data, return_index=return_index, return_inverse=return_inverse,
                      return_counts=return_counts, axis=axis)
    if not isinstance(out, tuple):
        return to_np(Tensor(_onp.ascontiguousarray(out)))
    values, *extra = out
    if return_inverse and axis is None:  # NumPy 2 shapes the inverse like ``ar``; MXNet's is flat
        at = 1 if return_index else 0
        extra[at] = extra[at].reshape(-1)
    return (to_np(Tensor(_onp.ascontiguousarray(values))),
            *(to_np(Tensor(_onp.ascontiguousarray(e, _onp.int64))) for e in extra))


def indices(dimensions: Any, dtype: Any = _onp.int32, device: Any = None, ctx: Any = None) -> ndarray:
    """The grid of indices of an array of shape ``dimensions``, stacked: shape ``(len(dimensions),
    *dimensions)``, int32 unless ``dtype`` is given.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> print(np.indices((2, 3)))
        [[[0 0 0]
          [1 1 1]]
        <BLANKLINE>
         [[0 1 2]
          [0 1 2]]]
    """
    grids = _cnp.indices(tuple(dimensions), _dt(dtype))
    return to_np(_ops.stack(tuple(grids), 0)) if grids else to_np(Tensor(_onp.zeros((0,), _dt(dtype))))


def promote_types(type1: Any, type2: Any) -> _onp.dtype:
    """NumPy's promoted dtype of ``type1`` and ``type2`` (a NumPy dtype, as MXNet gives it).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.promote_types('int32', 'float32')
        dtype('float64')
    """
    return _onp.dtype(_onp.promote_types(_dtypes.to_numpy(type1), _dtypes.to_numpy(type2)))


def einsum(*operands: Any, out: Any = None, optimize: bool = False) -> ndarray:
    """Einstein summation of ``operands`` by the subscripts given first (``'ij,jk->ik'``, ``...`` for
    broadcast axes, NumPy's implicit output without ``->``); differentiable with respect to every operand.

    With ``optimize=True`` more than two operands are contracted a pair at a time in the order NumPy's
    greedy path finds (fewer operations for chains such as ``'ij,jk,kl->il'``); the result is the same.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> a = np.arange(6).reshape(2, 3)
        >>> b = np.arange(3)
        >>> print(np.einsum('ij,j->i', a, b))
        [ 5. 14.]
        >>> print(np.einsum('ii', np.eye(3)))
        3.0
    """
    if not operands or not isinstance(operands[0], str):
        raise TypeError("einsum: the first argument must be the subscripts string, e.g. 'ij,jk->ik'")
    subscripts, arrays = operands[0], [_t(a) for a in operands[1:]]
    if not isinstance(optimize, (bool, int, _onp.bool_)):
        raise TypeError(f"einsum: optimize must be a bool (as MXNet's), got {optimize!r}")
    if optimize and len(arrays) > 2:
        result = _einsum_path(subscripts, arrays)
    else:
        result = _ops.einsum(subscripts, *arrays)
    result = to_np(result)
    if out is not None:
        out[...] = result
        return out
    return result


def _einsum_path(subscripts: Any, arrays: list[Tensor]) -> Tensor:
    """Contract ``arrays`` pairwise along NumPy's greedy path (each contraction an einsum of two)."""
    from cellonnx.ops.prims.einsum import normalize
    ins, final = normalize(subscripts, [tuple(a.shape) for a in arrays])
    path = _onp.einsum_path(",".join(ins) + "->" + final, *[_onp.empty(a.shape, _onp.float32)
                                                           for a in arrays], optimize="greedy")[0]
    subs, ops_ = list(ins), list(arrays)
    for step in path[1:]:
        picked = sorted(step, reverse=True)
        taken = [(subs.pop(i), ops_.pop(i)) for i in picked]
        keep = set(final).union(*subs)
        letters = "".join(taken_sub for taken_sub, _ in taken)
        result_sub = "".join(dict.fromkeys(c for c in letters if c in keep))
        equation = ",".join(s for s, _ in taken) + "->" + result_sub
        subs.append(result_sub)
        ops_.append(_ops.einsum(equation, *[t for _, t in taken]))
    return _ops.einsum(f"{subs[0]}->{final}", ops_[0]) if subs[0] != final else ops_[0]


def result_type(*arrays_and_dtypes: Any) -> _onp.dtype:
    """NumPy's result dtype of an operation on ``arrays_and_dtypes`` (arrays, dtypes, scalars), a NumPy
    dtype (MXNet 1.9.1's raises trying to wrap it as an array).

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.result_type(np.ones(2, dtype='int32'), 'float32')
        dtype('float64')
    """
    items = [a._data.dtype if isinstance(a, Tensor) else
             _dtypes.to_numpy(a) if isinstance(a, (str, _dtypes.DType)) else a for a in arrays_and_dtypes]
    return _onp.dtype(_onp.result_type(*items))


# MXNet's own above (creation with float32 defaults and device=, argmax / take / where as MXNet gives them,
# mean, prod); every other NumPy function of cellonnx.numpy is shared with it
_OWN = {"array", "asarray", "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like",
        "arange", "linspace", "eye", "argmax", "argmin", "take", "where", "shape", "ndim", "mean", "prod",
        "sort", "argsort", "linalg", "random", "unique", "indices", "promote_types", "einsum", "around",
        "round", "round_", "result_type"}
# cellonnx.numpy's names that NumPy has elsewhere or not at all (mindspore.numpy extras), and its dtypes
_NOT_NUMPY = {"rand", "randn", "randint", "numeric_types", "multi_dot", "norm", "matrix_power", "NINF",
              "PINF", "float_", "int_", "uint", "array_str", "asfarray", "sometrue", "trapz", "in1d", "mgrid",
              "ogrid"}
_SHARED = sorted(n for n in _cnp.__all__ if n not in _OWN | _NOT_NUMPY and callable(getattr(_cnp, n))
                 and not isinstance(getattr(_cnp, n), type) and hasattr(_onp, n)
                 and not isinstance(getattr(_onp, n), type))
for _name in _SHARED:
    globals()[_name] = _conform(_name, _shared(_name))
amax, amin = globals()["max"], globals()["min"]
# MXNet's rint sends a tie to the integer below (2.5 -> 2, -0.5 -> -1), not to the even one as NumPy
rint = _conform("rint", _shared("rint", _op_table["rint"]))

__all__ = sorted({*_OWN, *_SHARED, "amax", "amin", "e", "inf", "nan", "newaxis", "pi", "ndarray", "dtype",
                  "float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool_"})

# MXNet 1.9.1's own operators that cellonnx.numpy lacks, its NumPy fallbacks, aliases and constants
from cellonnx.mxnet._docs import with_example as _with_example  # noqa: E402
from cellonnx.mxnet.numpy.fallback import NAMES as _FALLBACK_NAMES  # noqa: E402
from cellonnx.mxnet.numpy.fallback import fallback as _fallback  # noqa: E402
from cellonnx.mxnet.numpy.fallback_examples import EXAMPLES as _FALLBACK_EXAMPLES  # noqa: E402
from cellonnx.mxnet.numpy.logic_index import (  # noqa: E402, F401
    all,
    any,
    delete,
    diag_indices_from,
    insert,
    may_share_memory,
    nonzero,
    percentile,
    quantile,
    resize,
    shares_memory,
    sometrue,
)
from cellonnx.mxnet.numpy.math_extra import genfromtxt, ldexp, nan_to_num, set_printoptions, vdot  # noqa: E402, F401

for _name in _FALLBACK_NAMES:
    globals()[_name] = _with_example(_conform(_name, _fallback(_name)), _FALLBACK_EXAMPLES.get(_name))
degrees = globals()["rad2deg"]
product = prod
row_stack = globals()["vstack"]
bool = bool  # MXNet's mx.np.bool is Python's bool
finfo = _onp.finfo
NAN = NaN = _onp.nan
NINF, PINF = -_onp.inf, _onp.inf
NZERO, PZERO = -0.0, 0.0
__all__ = sorted({*__all__, *_FALLBACK_NAMES, "all", "any", "delete", "diag_indices_from", "insert",
                  "may_share_memory", "nonzero", "percentile", "quantile", "resize", "shares_memory",
                  "sometrue", "genfromtxt", "ldexp", "nan_to_num", "set_printoptions", "vdot", "degrees",
                  "product", "row_stack", "NAN", "NaN", "NINF", "PINF", "NZERO", "PZERO"})
