"""The porting suite's known gaps: (network, aspect) -> what cellonnx lacks, for strict xfail marks.

Aspects: names, eval, train, grad, export, checkpoint; "*" marks every aspect of a network (it cannot be
built at all). Each reason names the missing MindSpore names in the order the network meets them ("then":
found by standing in for the earlier ones). Remove the entry when they land: strict xfail fails the run
until then.
"""
from __future__ import annotations

_BY_NETWORK = {
    "vit": "operator classes ops.Mul, ops.Reshape, ops.Transpose, ops.Unstack, ops.BatchMatMul missing",
    "swin": "operator class ops.OneHot missing",
    "pit": "operator classes ops.Tile, ops.BatchMatMul missing",
    "mobilevit": "operator class ops.BatchMatMul missing; then ops.rank missing",
    "deepspeech2": "operator classes ops.Reshape, ops.Shape, ops.Transpose, ops.Add, ops.Div, ops.ZerosLike, "
                   "ops.ReduceSum missing",
    "conformer": "mindspore.ops.operations and operator classes ops.ExpandDims, ops.Cast, ops.Sigmoid, "
                 "ops.Equal, ops.BatchMatMul, ops.Mul, ops.Add, ops.Tile, ops.FloorDiv missing",
    "ecapa_tdnn": "mindspore.ops.operations missing (ecapatdnn.py builds ops.operations.Print()); operator "
                  "classes ops.ExpandDims, ops.Softmax, ops.Concat, ops.Transpose missing",
    "tasnet": "operator class ops.Softmax missing",
}

XFAILS: dict[tuple[str, str], str] = {(name, "*"): reason for name, reason in _BY_NETWORK.items()}
