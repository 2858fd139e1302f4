"""Small mx.nd functions of MXNet 1.x's Python layer: ``from_numpy`` (an NDArray over a NumPy array's
memory), ``onehot_encode`` (the legacy one-hot writer into ``out``), ``histogram`` and ``load_frombuffer``."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from cellonnx.mxnet._op import retype
from cellonnx.mxnet._op._util import eager_only
from cellonnx.mxnet.ndarray.ndarray import NDArray
from cellonnx.tensor import Tensor

__all__ = ["from_numpy", "histogram", "load_frombuffer", "onehot_encode"]


def from_numpy(ndarray: np.ndarray, zero_copy: bool = True, array_cls: Any = None) -> NDArray:
    """An NDArray holding ``ndarray`` (its memory when ``zero_copy`` and C-contiguous, a copy otherwise)."""
    data = np.asarray(ndarray)
    if not zero_copy or not data.flags.c_contiguous:
        data = np.array(data, copy=True, order="C")
    return retype(Tensor(data), NDArray)


def onehot_encode(indices: Tensor, out: Tensor) -> Tensor:
    """Writes the one-hot rows of ``indices`` into ``out`` (N, depth) and returns ``out``."""
    eager_only("onehot_encode", indices, out)  # writes NumPy's rows into ``out``
    depth = int(out.shape[1])
    idx = np.asarray(indices._data).astype(np.int64).reshape(-1)
    value = np.zeros((idx.size, depth), out._data.dtype)
    value[np.arange(idx.size), idx] = 1
    out._data[...] = value
    return out


def histogram(a: Tensor, bins: Any = 10, range: Any = None, **_: Any) -> tuple[NDArray, NDArray]:
    """The counts of the flattened ``a`` in ``bins`` and the bin edges. As MXNet 1.9.1: with an integer
    ``bins`` and no ``range``, NumPy's histogram as float32 counts and edges; with a ``range`` or an NDArray
    of edges, int64 counts and float32 edges."""
    data = np.asarray(a._data).reshape(-1)
    if isinstance(bins, Tensor):
        counts, edges = np.histogram(data, bins=np.asarray(bins._data))
        return (retype(Tensor(counts.astype(np.int64)), NDArray),
                retype(Tensor(np.asarray(bins._data).copy()), NDArray))
    if range is None:
        counts, edges = np.histogram(data, bins=int(bins))
        return (retype(Tensor(counts.astype(np.float32)), NDArray),
                retype(Tensor(edges.astype(np.float32)), NDArray))
    edges = np.linspace(float(range[0]), float(range[1]), int(bins) + 1)
    counts, _ = np.histogram(data, bins=edges)
    return (retype(Tensor(counts.astype(np.int64)), NDArray),
            retype(Tensor(edges.astype(np.float32)), NDArray))


def load_frombuffer(buf: bytes | bytearray | memoryview) -> Any:
    """``nd.load`` of the bytes of an MXNet .params / .nd file: a dict of NDArrays or a list."""
    import tempfile

    from cellonnx.mxnet.ndarray.utils import load

    if not isinstance(buf, (bytes, bytearray, memoryview)):
        raise TypeError(f"load_frombuffer: buf must be bytes, got {type(buf).__name__}")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "buffer.params")
        with open(path, "wb") as f:
            f.write(bytes(buf))
        return load(path)
