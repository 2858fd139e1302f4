"""The networks of the MXNet porting suite: MXNet's Gluon model-zoo files (1.9.1 and 2.0.0b1 wheels) and
GluonCV's, built small.

NumPy only, so that the fixture generator can import it under MXNet 1.9.1's python: each spec builds its
network from the imported module of the public code (the original under MXNet, the ported copy under
cellonnx) and never names a framework. Each spec:

- ``package`` (an id of sources.json) and ``module`` (the file defining the network, relative to the
  package's top: ``gluon.model_zoo.vision.resnet``);
- ``make(m)`` builds the network from that module (small widths, 10 classes);
- ``inputs``: (dtype, shape, low, high) at batch 2, the first dim the batch;
- ``train``: whether the training-mode forward is deterministic; the model zoo's constructors fix their
  dropout rates, so ``prepare`` sets every Dropout's rate to 0 after construction on both sides (``_rate``,
  the attribute MXNet's Dropout and cellonnx's read);
- ``slow``: left out of the normal run;
- ``reference``: for MXNet 2.x's files, the 1.9.1 network of the same architecture whose fixture the outputs
  are compared with (the parameters, named by structural path, take the same values on both sides).

Parameter values come from networks.param_value(structural name, shape), so no weight file is stored.
"""
from __future__ import annotations

from typing import Any

import numpy as np

try:
    from tests.ports import networks as _shared
except ImportError:  # the fixture generator puts tests/ports itself on sys.path
    import networks as _shared

RECORDED, SEED = _shared.RECORDED, _shared.SEED
dot_weights, flat, make_inputs, make_labels = _shared.dot_weights, _shared.flat, _shared.make_inputs, \
    _shared.make_labels
named_params = _shared.named_params


def param_value(name: str, shape: tuple[int, ...]) -> np.ndarray:
    """networks.param_value, with Gluon's ``running_var`` drawn as MindSpore's ``moving_variance`` is (in
    [0.5, 1.5))."""
    if name.rsplit(".", 1)[-1] == "running_var":
        return _shared.param_value(name[:-len("running_var")] + "moving_variance", shape)
    return _shared.param_value(name, shape)

__all__ = ["NETWORKS", "RECORDED", "SEED", "dot_weights", "flat", "make_inputs", "make_labels", "module_path",
           "named_params", "param_value", "prepare"]

# Each network runs at the smallest input its architecture takes (the tests' time grows with the pixels):
# 32x32 where it was built for CIFAR or has a thumbnail stem; 64x64 where 32x32 would leave its last maps at
# 1x1 or below, at batch 4 (WIDE64) where BatchNorm's training-mode statistics are then taken over more
# samples (AlexNet has no BatchNorm: batch 2). A fixed pool in front of the classifier fixes the input: 224
# for DenseNet's and GoogLeNet's AvgPool2D(7) of their 7x7 maps and for SqueezeNet's AvgPool2D(13) of its
# 13x13 map, 299 for Inception V3's AvgPool2D(8). Xception65 ends in a global average pool: at 96x96 its exit
# flow has 3x3 maps (7x7 at 224, 5.4 times the pixels) and its batch statistics are about as well conditioned
# as at 224 (MXNet's own training-mode output moves by 3e-5 of its scale under 1e-6 input noise, 2e-5 at 224,
# 1e-4 at 64x64).
IMG32 = ("float32", (2, 3, 32, 32), -1.0, 1.0)
IMG64 = ("float32", (2, 3, 64, 64), -1.0, 1.0)
WIDE64 = ("float32", (4, 3, 64, 64), -1.0, 1.0)
IMG96 = ("float32", (2, 3, 96, 96), -1.0, 1.0)
IMG224 = ("float32", (2, 3, 224, 224), -1.0, 1.0)
IMG299 = ("float32", (2, 3, 299, 299), -1.0, 1.0)
CH = [16, 16, 32, 64, 128]
CH4 = [16, 32, 64, 128, 256]


def _zoo(version: str) -> dict[str, dict[str, Any]]:
    """The model-zoo networks of one MXNet wheel (the same constructors in 1.9.1 and 2.0.0b1)."""
    pkg, v = f"mxnet-{version}", "gluon.model_zoo.vision."
    tag = "mx1" if version.startswith("1") else "mx2"
    nets = {
        "resnet18_v1": dict(module=v + "resnet", inputs=[IMG32],
                            make=lambda m: m.ResNetV1(m.BasicBlockV1, [1, 1, 1, 1], CH, classes=10,
                                                      thumbnail=True)),
        "resnet50_v1": dict(module=v + "resnet", inputs=[IMG32],
                            make=lambda m: m.ResNetV1(m.BottleneckV1, [1, 1, 1, 1], CH4, classes=10,
                                                      thumbnail=True)),
        "resnet18_v2": dict(module=v + "resnet", inputs=[IMG32],
                            make=lambda m: m.ResNetV2(m.BasicBlockV2, [1, 1, 1, 1], CH, classes=10,
                                                      thumbnail=True)),
        "resnet50_v2": dict(module=v + "resnet", inputs=[IMG32],
                            make=lambda m: m.ResNetV2(m.BottleneckV2, [1, 1, 1, 1], CH4, classes=10,
                                                      thumbnail=True)),
        "vgg11_bn": dict(module=v + "vgg", inputs=[WIDE64],
                         make=lambda m: m.VGG([1, 1, 1, 1, 1], [8, 16, 16, 32, 32], classes=10,
                                              batch_norm=True)),
        "alexnet": dict(module=v + "alexnet", inputs=[IMG64], slow=True,
                        make=lambda m: m.AlexNet(classes=10)),
        "densenet": dict(module=v + "densenet", inputs=[IMG224],
                         make=lambda m: m.DenseNet(16, 8, [2, 2, 2, 2], bn_size=2, classes=10)),
        "squeezenet1.0": dict(module=v + "squeezenet", inputs=[IMG224],
                              make=lambda m: m.SqueezeNet("1.0", classes=10)),
        "squeezenet1.1": dict(module=v + "squeezenet", inputs=[IMG224],
                              make=lambda m: m.SqueezeNet("1.1", classes=10)),
        "inceptionv3": dict(module=v + "inception", inputs=[IMG299], slow=True,
                            make=lambda m: m.Inception3(classes=10)),
        "mobilenet0.25": dict(module=v + "mobilenet", inputs=[WIDE64],
                              make=lambda m: m.MobileNet(0.25, classes=10)),
        "mobilenetv2_0.25": dict(module=v + "mobilenet", inputs=[WIDE64],
                                 make=lambda m: m.MobileNetV2(0.25, classes=10)),
        "get_model": dict(module=v[:-1], inputs=[IMG32],
                          make=lambda m: m.get_model("resnet18_v1", classes=10, thumbnail=True)),
    }
    out = {}
    for name, spec in nets.items():
        spec["package"] = pkg
        if tag == "mx2":
            spec["reference"] = f"mx1_{name}"
        out[f"{tag}_{name}"] = spec
    return out


def _gcv(module: str, make: Any, inputs: list | None = None, **kw: Any) -> dict[str, Any]:
    return dict(package="gluoncv", module="model_zoo." + module, make=make, inputs=inputs or [IMG32], **kw)


GLUONCV: dict[str, dict[str, Any]] = {
    "gcv_cifar_resnet20_v1": _gcv("cifarresnet", lambda m: m.cifar_resnet20_v1(classes=10)),
    "gcv_cifar_resnet20_v2": _gcv("cifarresnet", lambda m: m.cifar_resnet20_v2(classes=10)),
    "gcv_cifar_resnext": _gcv("cifarresnext", lambda m: m.CIFARResNext([1, 1, 1], 4, 4, classes=10),
                              [WIDE64]),
    "gcv_cifar_wideresnet": _gcv("cifarwideresnet", lambda m: m.CIFARWideResNet(
        m.CIFARBasicBlockV2, [1, 1, 1], [16, 16, 32, 64], 0.0, classes=10)),
    "gcv_resnet18_v1b": _gcv("resnetv1b", lambda m: m.ResNetV1b(m.BasicBlockV1b, [1, 1, 1, 1], classes=10),
                             [WIDE64]),
    "gcv_resnet50_v1d": _gcv("resnetv1b", lambda m: m.ResNetV1b(m.BottleneckV1b, [1, 1, 1, 1], classes=10,
                                                                deep_stem=True, stem_width=8, avg_down=True),
                             [WIDE64], slow=True),
    "gcv_resnext": _gcv("resnext", lambda m: m.ResNext([1, 1, 1, 1], 4, 4, classes=10), [WIDE64]),
    "gcv_se_resnext": _gcv("resnext", lambda m: m.ResNext([1, 1, 1, 1], 4, 4, classes=10, use_se=True),
                           [WIDE64]),
    "gcv_se_resnet18_v1": _gcv("se_resnet", lambda m: m.SE_ResNetV1(m.SE_BasicBlockV1, [1, 1, 1, 1], CH,
                                                                    classes=10, thumbnail=True)),
    "gcv_se_resnet50_v2": _gcv("se_resnet", lambda m: m.SE_ResNetV2(m.SE_BottleneckV2, [1, 1, 1, 1], CH4,
                                                                    classes=10, thumbnail=True)),
    "gcv_senet": _gcv("senet", lambda m: m.SENet([1, 1, 1, 1], 4, 4, classes=10), [WIDE64], slow=True),
    "gcv_shufflenet_v1": _gcv("shufflenet", lambda m: m.ShuffleNetV1(groups=3, classes=10), [WIDE64]),
    "gcv_shufflenet_v2": _gcv("shufflenet", lambda m: m.ShuffleNetV2(classes=10), [WIDE64]),
    "gcv_googlenet": _gcv("googlenet", lambda m: m.GoogLeNet(classes=10, pretrained_base=False), [IMG224],
                          slow=True),
    "gcv_xception65": _gcv("xception", lambda m: m.Xception65(classes=10), [IMG96], slow=True),
}

NETWORKS: dict[str, dict[str, Any]] = {**_zoo("1.9.1"), **_zoo("2.0.0b1"), **GLUONCV}

for _spec in NETWORKS.values():
    _spec.setdefault("train", True)
    _spec.setdefault("slow", False)
    _spec.setdefault("classes", 10)
    _spec.setdefault("loss", "ce")
    _spec.setdefault("export", True)


def prepare(net: Any) -> Any:
    """Set every Dropout's rate to 0 (MXNet's and cellonnx's Dropout both read ``_rate``), so that
    training-mode passes are deterministic."""
    def off(block: Any) -> None:
        if type(block).__name__ == "Dropout":
            block._rate = 0.0
    net.apply(off)
    return net


def module_path(spec: dict[str, Any], root: str) -> str:
    """The dotted module of ``spec`` under package root ``root`` (``mxnet``, or ``mxnet_1_9_1`` for the
    ported copy)."""
    return f"{root}.{spec['module']}"
