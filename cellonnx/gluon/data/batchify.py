"""gluon.data.batchify (MXNet 2.x): functions that turn a list of samples into a batch - Stack, Pad, Append,
Group, AsList - for DataLoader's ``batchify_fn``. Arrays come out as mx.np ndarrays under ``set_np()``, as
NDArrays otherwise (like ``default_batchify_fn``)."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

__all__ = ["Append", "AsList", "Group", "Pad", "Stack"]


def _array(data: np.ndarray, dtype: Any = None) -> Any:
    from cellonnx.mxnet import util

    dtype = data.dtype if dtype is None else dtype
    if util.is_np_array():
        from cellonnx.mxnet.numpy import array
    else:
        from cellonnx.mxnet.ndarray import array
    return array(data, dtype=dtype)


def _numpy(x: Any) -> np.ndarray:
    return x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)


class Stack:
    """Stack samples along a new first axis; a list of tuples is stacked field by field.

    Args:
        use_shared_mem (bool): accepted for MXNet's signature (there is no shared-memory device here).
            Default: False.

    Examples:
        >>> from cellonnx.gluon.data import batchify
        >>> batch = batchify.Stack()([[1, 2], [3, 4], [5, 6]])
        >>> batch.shape
        (3, 2)
        >>> [b.shape for b in batchify.Stack()([([1, 2], 0), ([3, 4], 1)])]
        [(2, 2), (2,)]
    """

    def __init__(self, use_shared_mem: bool = False) -> None:
        self._use_shared_mem = use_shared_mem

    def __call__(self, data: Sequence[Any]) -> Any:
        if isinstance(data[0], tuple):
            return [self(list(field)) for field in zip(*data, strict=True)]
        from cellonnx.gluon.data.dataloader import default_batchify_fn

        return default_batchify_fn(list(data))


class Pad:
    """Pad samples to the largest shape in the batch (on every axis) with ``val``, then stack them.

    Args:
        val (float): the padding value. Default: None (0).
        dtype: the batch's dtype. Default: None (the first sample's).
        round_to (int): pad each axis up to a multiple of this. Default: None.
        use_shared_mem (bool): accepted for MXNet's signature. Default: False.

    Raises:
        NotImplementedError: the samples are tuples (use ``Group(Pad(), Pad())``).

    Examples:
        >>> from cellonnx.gluon.data import batchify
        >>> batchify.Pad(val=-1)([[1, 2, 3], [4, 5], [6]]).asnumpy().tolist()
        [[1, 2, 3], [4, 5, -1], [6, -1, -1]]
    """

    def __init__(self, val: float | None = None, dtype: Any = None, round_to: int | None = None,
                 use_shared_mem: bool = False) -> None:
        self._pad_val = 0 if val is None else val
        self._dtype = dtype
        self._round_to = round_to
        self._use_shared_mem = use_shared_mem

    def __call__(self, data: Sequence[Any]) -> Any:
        if isinstance(data[0], tuple):
            raise NotImplementedError("Pad() does not support multiple items, use Group(Pad(), Pad(), ...) "
                                      "instead")
        arrs = [_numpy(x) for x in data]
        dtype = arrs[0].dtype if self._dtype is None else np.dtype(self._dtype)
        shape = []
        for axis in range(arrs[0].ndim):
            size = max(a.shape[axis] for a in arrs)
            if self._round_to is not None:
                size = self._round_to * math.ceil(size / self._round_to)
            shape.append(size)
        out = np.full((len(arrs), *shape), self._pad_val, dtype=dtype)
        for i, a in enumerate(arrs):
            out[(i, *(slice(0, n) for n in a.shape))] = a
        return _array(out, dtype)


class Append:
    """Keep the samples as a list of arrays, each given a batch axis of size 1 when ``expand``.

    Args:
        expand (bool): add the batch axis. Default: True.
        batch_axis (int): where to add it. Default: 0.
        use_shared_mem (bool): accepted for MXNet's signature. Default: False.

    Examples:
        >>> from cellonnx.gluon.data import batchify
        >>> [x.shape for x in batchify.Append()([[1, 2, 3], [4, 5]])]
        [(1, 3), (1, 2)]
    """

    def __init__(self, expand: bool = True, batch_axis: int = 0, use_shared_mem: bool = False) -> None:
        self._expand = expand
        self._batch_axis = batch_axis
        self._use_shared_mem = use_shared_mem

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        out = []
        for x in data:
            arr = _numpy(x)
            if not isinstance(x, (Tensor, np.ndarray)):
                arr = arr.astype(np.float32)  # mx.np.array's default dtype for Python data
            if self._expand:
                arr = np.expand_dims(arr, self._batch_axis)
            out.append(_array(arr))
        return out


class Group:
    """Apply one batchify function to each field of tuple samples; returns a tuple of batches.

    Args:
        fn: a batchify function, a list / tuple of them, or several as positional arguments.

    Raises:
        ValueError: a sample has fewer fields than there are functions.

    Examples:
        >>> from cellonnx.gluon.data import batchify
        >>> fn = batchify.Group(batchify.Pad(), batchify.Stack())
        >>> data, label = fn([([1, 2, 3], 0), ([4], 1)])
        >>> data.shape, label.asnumpy().tolist()
        ((2, 3), [0, 1])
    """

    def __init__(self, fn: Callable[..., Any] | Sequence[Callable[..., Any]],
                 *args: Callable[..., Any]) -> None:
        if isinstance(fn, (list, tuple)):
            assert len(args) == 0, ("Input pattern not understood. The input of Group can be Group(A, B, C) "
                                    f"or Group([A, B, C]) or Group((A, B, C)). Received fn={fn}, args={args}")
            self._fn = list(fn)
        else:
            self._fn = [fn, *args]
        for i, ele_fn in enumerate(self._fn):
            assert callable(ele_fn), f"Batchify functions must be callable! type(fn[{i}]) = {type(ele_fn)}"

    def __call__(self, data: Sequence[Any]) -> tuple[Any, ...]:
        if len(data[0]) < len(self._fn):
            raise ValueError(f"The number of attributes in each data sample should contain at least "
                             f"{len(self._fn)} elements, but got {len(data[0])}.")
        return tuple(fn([sample[i] for sample in data]) for i, fn in enumerate(self._fn))


class AsList:
    """Keep the samples as a plain list.

    Examples:
        >>> from cellonnx.gluon.data import batchify
        >>> batchify.AsList()(({'a': 1}, {'a': 2}))
        [{'a': 1}, {'a': 2}]
    """

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        return list(data)
