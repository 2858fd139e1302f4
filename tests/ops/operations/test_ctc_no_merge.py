"""ops.CTCLoss(ctc_merge_repeated=False) against MindSpore 2.10 on CPU
(tests/fixtures/mindspore/gen_ctc_nomerge.py): labels with repeats, loss and gradient over the logits; the
default (merging) on the same inputs for contrast."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import ops
from tests.tolerance import assert_close

FIX = np.load(Path(__file__).parents[2] / "fixtures/mindspore/image_ops2/ctc_nomerge.npz")


@pytest.mark.parametrize("merge", [False, True])
def test_matches_mindspore(merge):
    loss, grad = ops.CTCLoss(ctc_merge_repeated=merge)(ms.Tensor(FIX["x"]), ms.Tensor(FIX["idx"]),
                                                       ms.Tensor(FIX["vals"]), ms.Tensor(FIX["seq"]))
    assert_close(loss.asnumpy(), FIX[f"loss{int(merge)}"], rtol=1e-5)
    assert_close(grad.asnumpy(), FIX[f"grad{int(merge)}"], rtol=1e-5)
