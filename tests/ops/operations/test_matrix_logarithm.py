"""ops.MatrixLogarithm against MindSpore 2.10 on CPU (tests/fixtures/mindspore/gen_matrix_log.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close

FIX = np.load(Path(__file__).parents[2] / "fixtures/mindspore/image_ops2/matrix_log.npz")


@pytest.mark.parametrize("name", ["c64", "c128"])
def test_matches_mindspore(name):
    y = ops.MatrixLogarithm()(ms.Tensor(FIX[f"x_{name}"])).asnumpy()
    assert y.dtype == FIX[f"y_{name}"].dtype
    assert_close(y, FIX[f"y_{name}"], rtol=1e-5 if name == "c64" else 1e-10)


def test_rejects_real_input():
    with pytest.raises(ValueError, match="MatrixLogarithm"):
        ops.MatrixLogarithm()(ms.Tensor(np.eye(2, dtype=np.float32)))
