"""Creation, introspection and small selection functions over existing primitives: fill / fills,
scalar_to_tensor, tuple_to_array, range, hamming_window, randperm, sequence_mask, shape / size / dtype,
is_tensor / is_nonzero, type_as, select, tensor_gt, tensor_muls, ger, top_k, aminmax and argwhere."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops.prims._util import is_float_dtype, norm_axes, to_tensor
from cellonnx.ops.prims.creation import Arange, Fill, full_like
from cellonnx.ops.prims.getitem import nonzero
from cellonnx.ops.prims.math import cast, greater, less, mul, where
from cellonnx.ops.prims.reduce import ReduceMax, ReduceMin
from cellonnx.ops.prims.shape import expand_dims, reshape
from cellonnx.ops.prims.sort import topk
from cellonnx.tensor import Tensor
from cellonnx.tensor import is_tensor as _is_tensor


def _number(v: Any, op: str, what: str) -> Any:
    """A Python number for a number or a one-element tensor."""
    if isinstance(v, Tensor):
        if v._data.size != 1:
            raise ValueError(f"{op}: {what} must be a number or a one-element tensor, got shape "
                             f"{tuple(v.shape)}")
        return v._data.reshape(()).item()
    if isinstance(v, (bool, int, float, np.number, np.bool_)):
        return v.item() if isinstance(v, (np.number, np.bool_)) else v
    raise TypeError(f"{op}: {what} must be a number or a one-element tensor, got {type(v).__name__}")


def _shape(shape: Any, op: str) -> tuple:
    if isinstance(shape, Tensor):
        return tuple(int(v) for v in shape._data.reshape(-1))
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    if isinstance(shape, (tuple, list)):
        return tuple(shape)
    raise TypeError(f"{op}: shape must be a tuple, list or Tensor, got {type(shape).__name__}")


# ---------------------------------------------------------------- creation
def fill(type: Any, shape: Any, value: Any) -> Tensor:
    """A tensor of ``shape`` and dtype ``type`` filled with ``value``.

    Examples:
        >>> ops.fill(ms.int32, (2, 2), 3)
        Tensor(shape=[2, 2], dtype=Int32, value= [[3, 3], [3, 3]])
    """
    return Fill.apply(shape=_shape(shape, "fill"), value=_number(value, "fill", "value"),
                      dtype=dtypes.to_numpy(type))


def fills(x: Tensor, value: Any) -> Tensor:
    """A tensor of ``x``'s shape and dtype filled with ``value`` (deprecated in MindSpore for ``fill``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.zeros((2, 2)), ms.float32)
        >>> print(ops.fills(x, 1.5))
        [[1.5 1.5]
         [1.5 1.5]]
    """
    x = to_tensor(x)
    v = _number(value, "fills", "value")
    return full_like(x, v if not isinstance(v, float) or is_float_dtype(x._data.dtype) else int(v))


def scalar_to_tensor(input_x: Any, dtype: Any = dtypes.float32) -> Tensor:
    """A 0-d tensor holding the number ``input_x`` in ``dtype`` (float32 by default).

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> x = ops.scalar_to_tensor(3, ms.int64)
        >>> print(x, x.dtype)
        3 Int64
    """
    if isinstance(input_x, Tensor) or not isinstance(input_x, (bool, int, float, np.number, np.bool_)):
        raise TypeError(f"scalar_to_tensor: input_x must be a bool, int or float, got "
                        f"{type(input_x).__name__}")
    return Tensor._make(np.asarray(input_x, dtype=dtypes.to_numpy(dtype)))


def scalar_to_array(input_x: Any) -> Tensor:
    """A 0-d tensor holding ``input_x``: int32 for an int, float32 for a float (deprecated in MindSpore for
    ``scalar_to_tensor``).

    Examples:
        >>> from cellonnx import ops
        >>> x = ops.scalar_to_array(3)
        >>> print(x, x.dtype)
        3 Int32
    """
    is_int = isinstance(input_x, (int, np.integer)) and not isinstance(input_x, bool)
    return scalar_to_tensor(input_x, dtypes.int32 if is_int else dtypes.float32)


def tuple_to_array(input_x: Any) -> Tensor:
    """A 1-D tensor from a tuple of numbers: int32 when the first is an int, float32 otherwise.

    Examples:
        >>> from cellonnx import ops
        >>> x = ops.tuple_to_array((1, 2, 3))
        >>> print(x, x.dtype)
        [1 2 3] Int32
    """
    if not isinstance(input_x, (tuple, list)) or not input_x:
        raise TypeError(f"tuple_to_array: input_x must be a non-empty tuple of numbers, got {input_x!r}")
    first = input_x[0]
    is_int = isinstance(first, (int, np.integer)) and not isinstance(first, bool)
    return Tensor._make(np.asarray(input_x, dtype=np.int32 if is_int else np.float32))


def range(start: Any, end: Any, step: Any, maxlen: int = 1000000) -> Tensor:
    """The numbers from ``start`` towards ``end`` (excluded) by ``step``.

    Args:
        start, end, step (Union[int, float, Tensor]): numbers or one-element tensors (whose values are read:
            a traced graph holds the range of the example values); all integers give int64, any float
            gives float32.
        maxlen (int): the memory MindSpore reserves for the output; not needed here. Default: 1000000.

    Examples:
        >>> ops.range(0, 5, 2)
        Tensor(shape=[3], dtype=Int64, value= [0, 2, 4])
    """
    vals = [_number(v, "range", name) for v, name in ((start, "start"), (end, "end"), (step, "step"))]
    if vals[2] == 0:
        raise ValueError("range: step must not be zero")
    if (vals[1] - vals[0]) * vals[2] < 0:
        raise ValueError(f"range: step {vals[2]} moves away from end {vals[1]} (start {vals[0]})")
    floats = any(isinstance(v, float) for v in vals)
    dt = np.dtype(np.float32) if floats else np.dtype(np.int64)
    return Arange.apply(start=vals[0], limit=vals[1], delta=vals[2], dtype=dt)


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype: Any = None) -> Tensor:
    """The Hamming window ``alpha - beta * cos(2 pi n / (N - 1))``, n = 0 .. window_length - 1 (N is
    window_length + 1 when ``periodic``).

    Args:
        window_length (int): the number of points, non-negative.
        periodic (bool): a window for spectral analysis (one point longer, last dropped). Default: True.
        alpha (float): the constant term. Default: 0.54.
        beta (float): the cosine coefficient. Default: 0.46.
        dtype (mindspore.dtype): a float dtype. Default: float32.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.hamming_window(4).asnumpy().round(4))
        [0.08 0.54 1.   0.54]
    """
    if isinstance(window_length, bool) or not isinstance(window_length, int):
        raise TypeError(f"hamming_window: window_length must be an int, got {window_length!r}")
    if window_length < 0:
        raise ValueError(f"hamming_window: window_length must be non-negative, got {window_length}")
    if not isinstance(periodic, bool):
        raise TypeError(f"hamming_window: periodic must be a bool, got {periodic!r}")
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not isinstance(v, float):
            raise TypeError(f"hamming_window: {name} must be a float, got {v!r}")
    if window_length <= 1:  # MindSpore returns float64 ones here, whatever the dtype
        return Tensor._make(np.ones(window_length, dtype=np.float64))
    dt = dtypes.to_numpy(dtype) if dtype is not None else np.dtype(np.float32)
    if not is_float_dtype(dt):
        raise TypeError(f"hamming_window: dtype must be a float dtype, got {dtypes.dtype(dt)}")
    # MindSpore's kernel takes alpha and beta as float32 and computes in double
    a, b = float(np.float32(alpha)), float(np.float32(beta))
    n = window_length + 1 if periodic else window_length
    w = a - b * np.cos(2.0 * math.pi * np.arange(window_length, dtype=np.float64) / (n - 1))
    return Tensor._make(w.astype(dt))


def randperm(n: int, seed: int = 0, offset: int = 0, dtype: Any = dtypes.int64) -> Tensor:
    """A random permutation of 0 .. n-1.

    Args:
        n (int): the length, non-negative.
        seed (int): 0 draws from the global stream (``set_seed``); another value from its own stream, keyed
            by (seed, offset). Default: 0.
        offset (int): selects a stream together with ``seed``. Default: 0.
        dtype (mindspore.dtype): the integer dtype of the result. Default: int64.

    The permutation is the order that sorts n uniform samples, so an exported graph draws a fresh one with
    RandomUniform and TopK.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = ops.randperm(5)
        >>> sorted(x.asnumpy().tolist())
        [0, 1, 2, 3, 4]
    """
    from cellonnx.ops.prims.random import RandomUniform
    from cellonnx.ops.prims.sort import TopK
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"randperm: n must be a non-negative int, got {n!r}")
    dt = dtypes.to_numpy(dtype)
    if dt.kind not in "iu" or (n and n - 1 > np.iinfo(dt).max):
        raise ValueError(f"randperm: dtype {dtypes.dtype(dt)} cannot hold the values 0 .. {int(n) - 1}")
    key = None if seed == 0 and offset == 0 else (int(seed) * 1000003 + int(offset)) & (2 ** 63 - 1)
    u = RandomUniform.apply(shape=(int(n),), low=0.0, high=1.0, seed=key, dtype=np.dtype(np.float64))
    return cast(TopK.apply(u, k=int(n), axis=0, largest=False)[1], dt)


def sequence_mask(lengths: Tensor, maxlen: int | None = None) -> Tensor:
    """``out[..., j] = j < lengths[...]``: a bool mask of shape ``lengths.shape + (maxlen,)``.

    Args:
        lengths (Tensor): int32 or int64 sequence lengths.
        maxlen (int, optional): the mask length, positive; None takes the largest length (read from the data,
            so a traced graph keeps the example's length).

    Examples:
        >>> ops.sequence_mask(Tensor(np.array([1, 3])), 3)
        Tensor(shape=[2, 3], dtype=Bool, value= [[ True, False, False], [ True,  True,  True]])
    """
    lengths = to_tensor(lengths)
    if lengths._data.dtype not in (np.int32, np.int64):
        raise TypeError(f"sequence_mask: lengths must be int32 or int64, got {lengths.dtype}")
    if maxlen is None:
        maxlen = int(lengths._data.max()) if lengths._data.size else 0
    elif isinstance(maxlen, bool) or not isinstance(maxlen, (int, np.integer)) or maxlen <= 0:
        raise TypeError(f"sequence_mask: maxlen must be a positive int, got {maxlen!r}")
    steps = Arange.apply(start=0, limit=int(maxlen), delta=1, dtype=lengths._data.dtype)
    return less(steps, expand_dims(lengths, -1))


# ---------------------------------------------------------------- introspection
def shape(input_x: Tensor) -> tuple:
    """The shape of ``input_x`` as a tuple of ints.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.shape(x)
        (2, 3, 4)
    """
    return tuple(to_tensor(input_x).shape)


def size(input_x: Tensor) -> int:
    """The number of elements of ``input_x``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.size(x)
        24
    """
    n = 1
    for d in to_tensor(input_x).shape:
        n = n * d
    return n


def dtype(x: Tensor) -> Any:
    """The dtype of ``x`` (a cellonnx dtype, e.g. ``cellonnx.float32``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0]), ms.float32)
        >>> print(ops.dtype(x))
        Float32
    """
    return to_tensor(x).dtype


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a Tensor (or Parameter).

    Examples:
        >>> import numpy as np
        >>> from cellonnx import ops, Tensor
        >>> ops.is_tensor(Tensor(np.ones(2)))
        True
        >>> ops.is_tensor(np.ones(2))
        False
    """
    return _is_tensor(obj)


def is_nonzero(input: Tensor) -> bool:
    """Whether the single element of ``input`` is neither 0 nor False.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> print(ops.is_nonzero(Tensor(np.array([0.5]), ms.float32)))
        True
    """
    x = to_tensor(input)
    if x._data.size != 1:
        raise ValueError(f"is_nonzero: the input must have exactly one element, got shape {tuple(x.shape)}")
    return bool(x._data.reshape(()))


def type_as(input: Tensor, other: Tensor) -> Tensor:
    """``input`` cast to the dtype of ``other``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.7, 2.2]), ms.float32)
        >>> other = Tensor(np.array([1]), ms.int32)
        >>> print(ops.type_as(x, other))
        [1 2]
    """
    return cast(input, to_tensor(other)._data.dtype)


# ---------------------------------------------------------------- selection and small math
def select(condition: Tensor, input: Any, other: Any) -> Tensor:
    """``input`` where ``condition`` is True, ``other`` elsewhere (numbers allowed; broadcasting).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> cond = Tensor(np.array([True, False, True]), ms.bool_)
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
        >>> y = Tensor(np.array([-1.0, -2.0, -3.0]), ms.float32)
        >>> print(ops.select(cond, x, y))
        [ 1. -2.  3.]
    """
    return where(condition, input, other)


def tensor_gt(input: Any, other: Any) -> Tensor:
    """``input > other`` elementwise.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.tensor_gt(x, 2))
        [False False  True]
    """
    return greater(input, other)


def tensor_muls(input: Any, other: Any) -> Tensor:
    """``input * other`` elementwise (a float number with an integer tensor gives float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.tensor_muls(x, 1.5))
        [1.5 3.  4.5]
    """
    return mul(input, other)


def ger(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of two 1-D tensors: ``out[i, j] = input[i] * vec2[j]``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> a = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> b = Tensor(np.array([3.0, 4.0, 5.0]), ms.float32)
        >>> print(ops.ger(a, b))
        [[ 3.  4.  5.]
         [ 6.  8. 10.]]
    """
    input, vec2 = to_tensor(input), to_tensor(vec2)
    if input.ndim != 1 or vec2.ndim != 1:
        raise ValueError(f"ger: expected two 1-D tensors, got shapes {tuple(input.shape)} and "
                         f"{tuple(vec2.shape)}")
    return mul(reshape(input, (-1, 1)), reshape(vec2, (1, -1)))


def top_k(input_x: Tensor, k: int, sorted: bool = True) -> tuple[Tensor, Tensor]:
    """The ``k`` largest entries along the last axis and their int32 indices (deprecated in MindSpore for
    ``topk``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 5.0, 3.0, 4.0]), ms.float32)
        >>> values, indices = ops.top_k(x, 2)
        >>> print(values)
        [5. 4.]
        >>> print(indices)
        [1 3]
    """
    values, indices = topk(input_x, k, None, True, sorted)
    return values, cast(indices, np.int32)


def aminmax(input: Tensor, *, axis: int | None = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    """(minimum, maximum) along ``axis`` (over all elements when None).

    Examples:
        >>> lo, hi = ops.aminmax(Tensor([[1.0, 3.0], [5.0, -2.0]]), axis=1)
        >>> print(lo, hi)
        [ 1. -2.] [3. 5.]
    """
    x = to_tensor(input)
    axes = norm_axes(axis, x.ndim, "aminmax") if x.ndim else None
    kd = bool(keepdims)
    return ReduceMin.apply(x, axes=axes, keep_dims=kd), ReduceMax.apply(x, axes=axes, keep_dims=kd)


def argwhere(input: Tensor) -> Tensor:
    """The coordinates of the non-zero elements, a (count, ndim) int64 tensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[0, 1], [2, 0]]), ms.int32)
        >>> print(ops.argwhere(x))
        [[0 1]
         [1 0]]
    """
    x = to_tensor(input)
    if x.ndim == 0:
        raise ValueError("argwhere: the input must have at least one dimension")
    return nonzero(x)


def _tensor_aminmax(self: Tensor, *, axis: int | None = 0, keepdims: bool = False) -> tuple[Tensor, Tensor]:
    return aminmax(self, axis=axis, keepdims=keepdims)


TENSOR_METHODS = {"type_as": type_as, "top_k": top_k, "aminmax": _tensor_aminmax, "argwhere": argwhere,
                  "ger": ger}

__all__ = ["aminmax", "argwhere", "dtype", "fill", "fills", "ger", "hamming_window", "is_nonzero",
           "is_tensor", "randperm", "range", "scalar_to_array", "scalar_to_tensor", "select", "sequence_mask",
           "shape", "size", "tensor_gt", "tensor_muls", "top_k", "tuple_to_array", "type_as"]
