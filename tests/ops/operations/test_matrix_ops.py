"""ConfusionMatrix's documented example (MindSpore's CPU build has no kernel for it, so no fixture)."""
from __future__ import annotations

import numpy as np

import cellonnx as ms
from cellonnx import Tensor, ops


def test_confusion_matrix_documented_example() -> None:
    out = ops.ConfusionMatrix(4)(Tensor([0, 1, 1, 3], ms.int32), Tensor([1, 2, 1, 3], ms.int32))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 1]])
