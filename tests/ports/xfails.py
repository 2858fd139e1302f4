"""The porting suite's known gaps: (network, aspect) -> what cellonnx lacks, for strict xfail marks.

Aspects: names, eval, train, grad, export, checkpoint; "*" marks every aspect of a network (it cannot be
built at all). Each reason names the missing MindSpore names in the order the network meets them ("then":
found by standing in for the earlier ones). Remove the entry when they land: strict xfail fails the run
until then. With cellonnx.numpy stood in, every aspect of the networks marked NUMPY alone passes.
"""
from __future__ import annotations

NUMPY = "mindspore.numpy missing: cellonnx.numpy (mindcv's models/layers/drop_path.py imports ones from it)"

_BY_NETWORK = {
    "resnet": NUMPY,
    "resnet_bottleneck": NUMPY,
    "mobilenet_v1": NUMPY,
    "mobilenet_v2": NUMPY,
    "mobilenet_v3": NUMPY,
    "densenet": NUMPY,
    "squeezenet": NUMPY,
    "shufflenet_v2": NUMPY,
    "shufflenet_v1": NUMPY,
    "ghostnet": NUMPY,
    "efficientnet": NUMPY,
    "regnet": NUMPY,
    "convnext": NUMPY,
    "vit": NUMPY + "; then operator classes ops.Mul, ops.Reshape, ops.Transpose, ops.Unstack, "
           "ops.BatchMatMul missing",
    "swin": NUMPY + "; then operator class ops.OneHot missing",
    "pit": NUMPY + "; then operator classes ops.Tile, ops.BatchMatMul missing",
    "mobilevit": NUMPY + "; then operator class ops.BatchMatMul missing; then ops.rank missing",
    "mnasnet": NUMPY,
    "xception": NUMPY,
    "googlenet": NUMPY,
    "deepspeech2": "operator classes ops.Reshape, ops.Shape, ops.Transpose, ops.Add, ops.Div, ops.ZerosLike, "
                   "ops.ReduceSum missing",
    "conformer": "mindspore.ops.operations and operator classes ops.ExpandDims, ops.Cast, ops.Sigmoid, "
                 "ops.Equal, ops.BatchMatMul, ops.Mul, ops.Add, ops.Tile, ops.FloorDiv missing",
    "ecapa_tdnn": "mindspore.ops.operations missing (ecapatdnn.py builds ops.operations.Print()); operator "
                  "classes ops.ExpandDims, ops.Softmax, ops.Concat, ops.Transpose missing",
    "tasnet": "operator class ops.Softmax missing",
}

XFAILS: dict[tuple[str, str], str] = {(name, "*"): reason for name, reason in _BY_NETWORK.items()}
