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
    "vit": NUMPY,
    "swin": NUMPY,
    "pit": NUMPY,
    "mobilevit": NUMPY,
    "mnasnet": NUMPY,
    "xception": NUMPY,
    "googlenet": NUMPY,
}

XFAILS: dict[tuple[str, str], str] = {(name, "*"): reason for name, reason in _BY_NETWORK.items()}
