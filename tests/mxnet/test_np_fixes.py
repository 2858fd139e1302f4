"""mx.np where it follows NumPy rather than MXNet 1.9.1 (whose behaviour there is a bug), checked against
NumPy: ``pad``'s ``constant_values`` (MXNet 1.9.1's constant branch does not return its result, so it pads
with zeros) and ``result_type`` (MXNet 1.9.1 raises)."""
from __future__ import annotations

import numpy as np

import cellonnx.mxnet as mx


def test_pad_constant_values_as_numpy() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = mx.np.pad(mx.np.array(x), ((1, 0), (2, 1)), mode="constant", constant_values=5)
    want = np.pad(x, ((1, 0), (2, 1)), mode="constant", constant_values=5)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.asnumpy(), want)


def test_result_type_as_numpy() -> None:
    a, b = mx.np.ones(2, dtype="int32"), mx.np.ones(2, dtype="float16")
    assert mx.np.result_type(a, b) == np.result_type(np.ones(2, np.int32), np.ones(2, np.float16))
    assert mx.np.result_type("int8", mx.np.float32) == np.result_type("int8", np.float32)
