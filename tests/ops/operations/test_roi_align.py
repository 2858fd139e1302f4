"""ops.ROIAlign against MindSpore 2.10 on CPU (tests/fixtures/mindspore/gen_image_ops2.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close

FIX = np.load(Path(__file__).parents[2] / "fixtures/mindspore/image_ops2/roi_align.npz")
SETTINGS = [(2, 2, 1.0, 2, 1), (3, 2, 0.5, 2, 0), (2, 3, 0.25, 1, 1), (1, 1, 1.0, 3, 0)]


def _loss(op, rois, w):
    return lambda x: (op(x, rois) * w).sum()


@pytest.mark.parametrize("i", range(len(SETTINGS)))
def test_forward_matches_mindspore(i):
    op = ops.ROIAlign(*SETTINGS[i])
    y = op(ms.Tensor(FIX["features"]), ms.Tensor(FIX["rois"]))
    assert_close(y.asnumpy(), FIX[f"y{i}"], rtol=1e-5)


@pytest.mark.parametrize("i", [0, 2])
def test_gradient_matches_mindspore(i):
    op = ops.ROIAlign(*SETTINGS[i])
    g = ms.grad(_loss(op, ms.Tensor(FIX["rois"]), ms.Tensor(FIX[f"w{i}"])))(ms.Tensor(FIX["features"]))
    assert_close(g.asnumpy(), FIX[f"g{i}"], rtol=1e-5)


@pytest.mark.parametrize("i", [1, 3])
def test_gradient_legacy_mode_vs_finite_differences(i):
    # MindSpore 2.10's ROIAlignGrad computes roi_end_mode=1's gradient whatever the attribute, so for
    # roi_end_mode=0 the gradient is checked against the forward's own finite differences (float64)
    op = ops.ROIAlign(*SETTINGS[i])
    rois = ms.Tensor(FIX["rois"].astype(np.float64))
    w = ms.Tensor(FIX[f"w{i}"].astype(np.float64))
    x = FIX["features"].astype(np.float64)
    g = ms.grad(_loss(op, rois, w))(ms.Tensor(x)).asnumpy()
    rng = np.random.default_rng(0)
    for flat in rng.choice(x.size, 12, replace=False):
        e = np.zeros(x.size)
        e[flat] = 1e-6
        e = e.reshape(x.shape)
        f = _loss(op, rois, w)
        num = (f(ms.Tensor(x + e)).asnumpy() - f(ms.Tensor(x - e)).asnumpy()) / 2e-6
        assert_close(g.reshape(-1)[flat], num, rtol=1e-5, scale_rtol=1e-5)


def test_attributes_and_errors():
    op = ops.ROIAlign(2, 2, 0.5)
    assert (op.pooled_height, op.pooled_width, op.spatial_scale, op.sample_num, op.roi_end_mode) == \
        (2, 2, 0.5, 2, 1)
    with pytest.raises(ValueError, match="roi_end_mode"):
        ops.ROIAlign(2, 2, 1.0, 2, 3)(ms.Tensor(FIX["features"]), ms.Tensor(FIX["rois"]))
    with pytest.raises(NotImplementedError, match="sample_num <= 0"):
        ops.ROIAlign(2, 2, 0.5, 0, 1)(ms.Tensor(FIX["features"]), ms.Tensor(FIX["rois"]))
