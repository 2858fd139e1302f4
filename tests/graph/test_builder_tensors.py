"""GraphBuilder writes initializers straight into the ModelProto; onnx's own numpy_helper reads them back."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from onnx import numpy_helper

from cellonnx.graph.builder import GraphBuilder

ARRAYS = {
    "float32": np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5,
    "float16": np.linspace(-1, 1, 5).astype(np.float16),
    "bfloat16": np.array([1.5, -2.25, 3e38], dtype=ml_dtypes.bfloat16),
    "int64_scalar": np.array(-7, dtype=np.int64),
    "bool": np.array([True, False, True]),
    "uint8": np.arange(250, 256, dtype=np.uint8),
    "big_endian_float64": np.array([1.0, -2.0, 1e300], dtype=">f8"),
    "transposed_view": np.arange(12, dtype=np.float32).reshape(3, 4).T,
    "empty": np.zeros((0, 3), dtype=np.float32),
    "strings": np.array(["a", "bc"], dtype=object),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_initializer_round_trip(name: str) -> None:
    g = GraphBuilder()
    g.initializer(name, ARRAYS[name])
    (tensor,) = g.model().graph.initializer
    back = numpy_helper.to_array(tensor)
    expected = ARRAYS[name]
    assert tensor.name == name and back.shape == expected.shape
    if expected.dtype == object:
        assert back.tolist() == expected.tolist()
    else:
        np.testing.assert_array_equal(back.astype(expected.dtype.newbyteorder("=")), expected)
