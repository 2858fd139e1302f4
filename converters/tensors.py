"""What every format reads and writes: an ordered {name: numpy.ndarray} dict plus a metadata dict."""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np
from cellonnx.converters.errors import CheckpointError

from cellonnx import dtypes

Tensors = dict[str, np.ndarray]
Metadata = dict[str, Any]


def checked(path: str | os.PathLike[str], tensors: Mapping[str, Any], fmt: str) -> Tensors:
    """Validate tensors before writing: string names, arrays of a dtype in the dtype table.

    Returns the same entries as NumPy arrays (no copies for arrays already given).
    """
    out: Tensors = {}
    for name, value in tensors.items():
        if not isinstance(name, str) or not name:
            raise CheckpointError(path, f"tensor names must be non-empty strings, got {name!r}")
        array = np.asarray(value)
        try:
            if dtypes.dtype(array.dtype) not in dtypes.ALL:
                raise TypeError(f"the checkpoint formats carry {[d.name for d in dtypes.ALL]}")
        except TypeError as exc:
            raise CheckpointError(path, f"tensor {name!r} has dtype {array.dtype}, which {fmt} cannot store: "
                                        f"{exc}") from None
        out[name] = array
    return out


def dtype_of(path: str | os.PathLike[str], name: str, array: np.ndarray) -> dtypes.DType:
    try:
        return dtypes.dtype(array.dtype)
    except TypeError as exc:
        raise CheckpointError(path, f"tensor {name!r}: {exc}") from None
