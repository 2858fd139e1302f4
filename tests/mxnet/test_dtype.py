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


@pytest.mark.parametrize("make", [mx.nd.array, mx.np.array], ids=["nd", "np"])
def test_mindspore_style_type_tests_see_mxnet_dtypes(make) -> None:
    from cellonnx import dtype as mstype

    assert isinstance(make([1.0]).dtype, mstype.Float) and not isinstance(make([1.0]).dtype, mstype.Int)
    assert isinstance(make([1], dtype="int32").dtype, mstype.Int)
    assert isinstance(make([1], dtype="uint8").dtype, mstype.UInt)
    assert isinstance(make([True], dtype="bool").dtype, mstype.Bool)


def test_mx_np_type_names_are_dtypes_for_both() -> None:
    from cellonnx import dtype as mstype

    for name, kind in (("float16", mstype.Float), ("float32", mstype.Float), ("float64", mstype.Float),
                       ("int8", mstype.Int), ("int32", mstype.Int), ("int64", mstype.Int),
                       ("uint8", mstype.UInt), ("bool_", mstype.Bool)):
        t = getattr(mx.np, name)
        assert isinstance(t, kind), name
        assert t == getattr(np, name) and t == getattr(cellonnx, name)
        # NumPy-style use: a dtype argument, a scalar type, an isinstance target
        assert np.dtype(t) == np.dtype(getattr(np, name))
        assert np.zeros(2, t).dtype == np.dtype(getattr(np, name))
        assert type(t(1)) is getattr(np, name) and isinstance(getattr(np, name)(1), t)
        assert mx.np.zeros(2, dtype=t).dtype == t
    assert mx.np.float32.__name__ == "float32" and np.issubdtype(mx.np.float32, np.floating)
    assert ops.cast(mx.np.ones(2), mx.np.int32).asnumpy().dtype == np.int32
