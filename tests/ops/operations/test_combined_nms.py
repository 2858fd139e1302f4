"""ops.CombinedNonMaxSuppression against MindSpore 2.10 on CPU
(tests/fixtures/mindspore/gen_combined_nms.py)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close

FIX = np.load(Path(__file__).parents[2] / "fixtures/mindspore/image_ops2/combined_nms.npz")
CASES = [(1, 3, 5, 0.5, 0.2, False, True), (3, 2, 8, 0.4, 0.1, True, True), (1, 4, 3, 0.6, 0.0, True, False),
         (3, 5, 20, 0.3, 0.5, False, False)]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_matches_mindspore(i):
    _, mpc, mt, iou, sc, pad, clip = CASES[i]
    nb, ns, nc, nv = ops.CombinedNonMaxSuppression(pad, clip)(
        ms.Tensor(FIX[f"boxes{i}"]), ms.Tensor(FIX[f"scores{i}"]), ms.Tensor(mpc, ms.int32),
        ms.Tensor(mt, ms.int32), ms.Tensor(iou, ms.float32), ms.Tensor(sc, ms.float32))
    np.testing.assert_array_equal(nv.asnumpy(), FIX[f"nv{i}"])
    np.testing.assert_array_equal(nc.asnumpy(), FIX[f"nc{i}"])
    assert_close(ns.asnumpy(), FIX[f"ns{i}"], rtol=1e-6)
    assert_close(nb.asnumpy(), FIX[f"nb{i}"], rtol=1e-6)


def test_errors():
    op = ops.CombinedNonMaxSuppression()
    b, s = ms.Tensor(FIX["boxes0"]), ms.Tensor(FIX["scores0"])
    with pytest.raises(ValueError, match="iou_threshold must be in"):
        op(b, s, ms.Tensor(2, ms.int32), ms.Tensor(2, ms.int32), ms.Tensor(1.5, ms.float32),
           ms.Tensor(0.0, ms.float32))
    with pytest.raises(ValueError, match="boxes must be"):
        op(s, s, ms.Tensor(2, ms.int32), ms.Tensor(2, ms.int32), ms.Tensor(0.5, ms.float32),
           ms.Tensor(0.0, ms.float32))
