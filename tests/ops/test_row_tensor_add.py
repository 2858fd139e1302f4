"""F.row_tensor_add: a RowTensor plus a dense tensor, kept on the RowTensor's rows (MindSpore has no kernel
for it: its compiler folds the one use, adding a zeros_like to a sparse gradient, into the RowTensor)."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
from cellonnx.ops import functional as F


def _rows():
    return ms.RowTensor(ms.Tensor(np.array([0, 2], np.int32)), ms.Tensor(np.ones((2, 3), np.float32)), (4, 3))


def test_adds_the_dense_rows_it_holds():
    y = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = F.row_tensor_add(_rows(), ms.Tensor(y))
    assert isinstance(out, ms.RowTensor) and out.dense_shape == (4, 3)
    np.testing.assert_array_equal(out.indices.asnumpy(), [0, 2])
    np.testing.assert_array_equal(out.values.asnumpy(), 1 + y[[0, 2]])


def test_plus_zeros_like_is_the_row_tensor():
    x = _rows()
    out = F.row_tensor_add(x, ms.ops.zeros_like(x.to_dense()))
    np.testing.assert_array_equal(out.to_dense().asnumpy(), x.to_dense().asnumpy())


def test_errors():
    with pytest.raises(TypeError, match="RowTensor"):
        F.row_tensor_add(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones((4, 3), np.float32)))
    with pytest.raises(ValueError, match="dense shape"):
        F.row_tensor_add(_rows(), ms.Tensor(np.ones((3, 3), np.float32)))
