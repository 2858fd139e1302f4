"""mx.npx.save / savez / load: MXNet's parameter file format with NumPy shape semantics."""
from __future__ import annotations

import os
from typing import Any

from cellonnx.converters import mxnet_format
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

__all__ = ["load", "save", "savez"]


def _arr(v: Any) -> Any:
    return v._data if isinstance(v, Tensor) else v


def save(file: str | os.PathLike[str], arr: Any) -> None:
    """Write an ndarray, a list or a dict of them (MXNet's format, version 3 for 0-d arrays)."""
    if isinstance(arr, dict):
        mxnet_format.write(file, {k: _arr(v) for k, v in arr.items()})
    else:
        items = [arr] if isinstance(arr, Tensor) else list(arr)
        mxnet_format.write(file, {str(i): _arr(v) for i, v in enumerate(items)}, metadata={"named": False})


def savez(file: str | os.PathLike[str], *args: Any, **kwds: Any) -> None:
    """Write arrays by name (positional ones as arr_0, arr_1, ...)."""
    named = {f"arr_{i}": _arr(a) for i, a in enumerate(args)}
    named.update({k: _arr(v) for k, v in kwds.items()})
    mxnet_format.write(file, named)


def load(file: str | os.PathLike[str]) -> Any:
    """A dict of ndarrays (named file) or a list."""
    tensors, meta = mxnet_format.read(file)
    out = {k: to_np(Tensor(v.copy())) for k, v in tensors.items()}
    return out if meta.get("named", True) else list(out.values())
