"""NonMaxSuppressionV3 (MindSpore runs it on Ascend and GPU only, so no CPU fixture) against TensorFlow's
greedy rule written out, and the eager-only guard of the NMS classes."""
from __future__ import annotations

import re

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn, ops

BOXES = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [19, 21, 29, 31], [0, 0, 4, 4],
                  [50, 50, 40, 40]], np.float32)  # the last one with its corners swapped
SCORES = np.array([0.9, 0.8, 0.7, 0.95, 0.85, 0.3], np.float32)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    a = np.concatenate([np.minimum(a[:2], a[2:]), np.maximum(a[:2], a[2:])])
    b = np.concatenate([np.minimum(b[:2], b[2:]), np.maximum(b[:2], b[2:])])
    inter = max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _reference(limit: int, iou: float, score: float) -> list[int]:
    kept: list[int] = []
    for i in sorted(range(len(SCORES)), key=lambda j: -SCORES[j]):
        if SCORES[i] <= score or len(kept) == limit:
            continue
        if all(_iou(BOXES[i], BOXES[k]) <= iou for k in kept):
            kept.append(i)
    return kept


@pytest.mark.parametrize(("limit", "iou", "score"), [(6, 0.5, 0.0), (2, 0.5, 0.0), (6, 0.1, 0.75),
                                                     (6, 0.9, 0.0)])
def test_non_max_suppression_v3(limit: int, iou: float, score: float) -> None:
    got = ops.NonMaxSuppressionV3()(Tensor(BOXES), Tensor(SCORES), Tensor(limit, ms.int32), Tensor(iou),
                                    Tensor(score))
    assert got.dtype == ms.int32
    assert got.asnumpy().tolist() == _reference(limit, iou, score)


def test_nms_is_eager_only() -> None:
    class Net(nn.Cell):
        def construct(self, b, s):
            return ops.NonMaxSuppressionV3()(b, s, 3, 0.5, 0.0)

    with pytest.raises(Exception, match="NonMaxSuppressionV3 cannot be exported"):
        ms.export(Net(), Tensor(BOXES), Tensor(SCORES), file_name="/tmp/nms_never_written",
                  file_format="ONNX")


@pytest.mark.parametrize(("boxes", "scores"), [((1, 6, 4), (1, 5)), ((1, 6, 4), (2, 6)), ((1, 6, 5), (1, 6)),
                                               ((6, 4), (6,))])
def test_nms_keep_names_mismatched_shapes(boxes: tuple, scores: tuple) -> None:
    from cellonnx.ops.prims.boxes import NmsKeep
    from cellonnx.ops.registry import OpError

    with pytest.raises(OpError, match=re.escape(f"boxes of shape {boxes} and scores of shape {scores}")):
        NmsKeep.apply(Tensor(np.ones(boxes, np.float32)), Tensor(np.ones(scores, np.float32)),
                      iou_threshold=0.5)
