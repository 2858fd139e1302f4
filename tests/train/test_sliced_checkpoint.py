"""merge_sliced_parameter and load_segmented_checkpoints (cellonnx/train/sliced_checkpoint.py): the example of
MindSpore's merge_sliced_parameter page, its checks, and a checkpoint saved in two segments."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor


def _slices() -> list[Parameter]:
    rows = [[0.00023915, 0.00013939, -0.00098059], [0.00015815, 0.00015458, -0.00012125],
            [0.00042165, 0.00029692, -0.00007941], [0.00084451, 0.00089960, -0.00010431]]
    return [Parameter(Tensor(np.array(r)), "network.embedding_table") for r in rows]


def test_merge_sliced_parameter_mindspore_example() -> None:
    slices = _slices()
    merged = ms.merge_sliced_parameter(slices)
    assert isinstance(merged, Parameter) and merged.name == "network.embedding_table"
    assert merged.shape == (12,) and merged.dtype == ms.float64 and merged.requires_grad
    np.testing.assert_array_equal(merged.asnumpy(), np.concatenate([p.asnumpy() for p in slices]))
    assert ms.train.merge_sliced_parameter is ms.merge_sliced_parameter


def test_merge_sliced_parameter_checks() -> None:
    with pytest.raises(TypeError, match="should be list"):
        ms.merge_sliced_parameter(tuple(_slices()))
    with pytest.raises(ValueError, match="should not be empty"):
        ms.merge_sliced_parameter([])
    with pytest.raises(ValueError, match="same name"):
        ms.merge_sliced_parameter([_slices()[0], Parameter(Tensor(np.zeros(3)), "other")])
    with pytest.raises(ValueError, match="same name"):
        ms.merge_sliced_parameter([Parameter(Tensor(np.zeros((2, 3))), "w"),
                                   Parameter(Tensor(np.zeros((2, 4))), "w")])
    with pytest.raises(ValueError, match="semi-auto parallel"):
        ms.merge_sliced_parameter(_slices(), {"network.embedding_table": ([4], [0])})


def test_load_segmented_checkpoints(tmp_path: Path) -> None:
    a = [{"name": "a", "data": Tensor(np.arange(3, dtype=np.float32))}]
    b = [{"name": "b", "data": Tensor(np.ones((2, 2), np.float32))}]
    ms.save_checkpoint(a, str(tmp_path / "part0.ckpt"))
    ms.save_checkpoint(b, str(tmp_path / "part1.ckpt"))
    params = ms.load_segmented_checkpoints(str(tmp_path))
    assert sorted(params) == ["a", "b"]
    np.testing.assert_array_equal(params["b"].asnumpy(), np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="doesn't exist"):
        ms.load_segmented_checkpoints(str(tmp_path / "missing"))
