"""mx.nd.save / mx.nd.load (MXNet's .params / .nd format) and zeros."""
from __future__ import annotations

import os
from typing import Any

from cellonnx.converters import mxnet_format
from cellonnx.mxnet import _op
from cellonnx.mxnet._placement import device_arg, place
from cellonnx.mxnet.ndarray.ndarray import NDArray, array
from cellonnx.tensor import Tensor

__all__ = ["load", "save", "zeros"]


def zeros(shape: Any, ctx: Any = None, dtype: Any = None, stype: Any = None, **kwargs: Any) -> NDArray:
    """An NDArray of zeros (float32 by default)."""
    return place(_op.retype(_op.TABLE["zeros"](shape, dtype=dtype), NDArray), device_arg(ctx))


def save(fname: str | os.PathLike[str], data: Any) -> None:
    """Write an NDArray, a list of NDArrays or a dict of them to an MXNet file (readable by MXNet)."""
    if isinstance(data, Tensor):
        data = [data]
    if isinstance(data, dict):
        mxnet_format.write(fname, {k: v._data if isinstance(v, Tensor) else v for k, v in data.items()})
    else:
        arrays = [v._data if isinstance(v, Tensor) else v for v in data]
        mxnet_format.write(fname, {str(i): a for i, a in enumerate(arrays)}, metadata={"named": False})


def load(fname: str | os.PathLike[str]) -> Any:
    """Read an MXNet file: a dict of NDArrays (named file) or a list (unnamed)."""
    tensors, meta = mxnet_format.read(fname)
    if meta.get("named", True):
        return {k: array(v, dtype=v.dtype) for k, v in tensors.items()}
    return [array(v, dtype=v.dtype) for v in tensors.values()]
