"""The dtype objects of mx.nd / mx.np arrays: NumPy's spellings for MXNet code, cellonnx's type tests for
cellonnx code."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx
import cellonnx.mxnet as mx
from cellonnx import ops


@pytest.mark.parametrize("make", [mx.nd.array, mx.np.array], ids=["nd", "np"])
@pytest.mark.parametrize("name, kind, floating", [("float32", "f", True), ("float16", "f", True),
                                                   ("int32", "i", False), ("uint8", "u", False),
                                                   ("bool", "b", False)])
def test_dtype_reads_as_numpy_and_as_cellonnx(make, name: str, kind: str, floating: bool) -> None:
    dt = make(np.zeros(2, name), dtype=name).dtype
    assert dt == np.dtype(name) and dt == name and np.dtype(dt) == np.dtype(name)
    assert dt.kind == kind and dt.char == np.dtype(name).char
    assert dt == getattr(cellonnx, "bool_" if name == "bool" else name)
    assert dt.is_floating_point is floating
    assert dt.is_signed is (kind in "fi")


def test_cellonnx_ops_take_an_mxnet_dtype() -> None:
    x = mx.np.array([1.5, -2.5])
    y = ops.cast(x, mx.np.array([1], dtype="int32").dtype)
    assert y.asnumpy().dtype == np.int32 and y.asnumpy().tolist() == [1, -2]
    assert str(mx.np.array([1], dtype="int32").dtype) == "int32"
    assert repr(mx.nd.array([1]).dtype) == "<class 'numpy.float32'>"
