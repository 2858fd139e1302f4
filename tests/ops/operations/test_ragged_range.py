"""ops.RaggedRange against MindSpore 2.10 on CPU (tests/fixtures/mindspore/gen_ragged_range.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops

FIX = np.load(Path(__file__).parents[2] / "fixtures/mindspore/image_ops2/ragged_range.npz")
CASES = [
    (np.array([2, 5, 8], np.int32), np.array([3, 5, 12], np.int32), np.array([1, 1, 1], np.int32), ms.int64),
    (np.array([0, 10, -3], np.int32), np.array([7, 1, 3], np.int32), np.array([2, -3, 1], np.int32),
     ms.int32),
    (np.array([0.0, 1.5, 4.0], np.float32), np.array([1.0, -1.0, 4.5], np.float32),
     np.array([0.3, -0.7, 0.1], np.float32), ms.int64),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_matches_mindspore(i):
    s, lim, d, ts = CASES[i]
    splits, values = ops.RaggedRange(Tsplits=ts)(ms.Tensor(s), ms.Tensor(lim), ms.Tensor(d))
    assert splits.asnumpy().dtype == FIX[f"splits{i}"].dtype
    np.testing.assert_array_equal(splits.asnumpy(), FIX[f"splits{i}"])
    assert values.asnumpy().dtype == FIX[f"values{i}"].dtype
    np.testing.assert_array_equal(values.asnumpy(), FIX[f"values{i}"])
