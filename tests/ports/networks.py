"""The networks of the porting suite: public MindSpore model code, built small.

NumPy only, so that the fixture generator can import it under MindSpore's python: it is given the imported
module of the public code (the original under MindSpore, the ported copy under cellonnx) and never names a
framework. Each spec:

- ``package`` (sources.json), ``module`` (the file that defines the network), ``domain``;
- ``make(m)`` builds the network from module ``m`` (small sizes, dropout rates 0 where the constructor has
  them, so that the training-mode forward is deterministic);
- ``inputs``: (dtype, shape, low, high) per input at batch 2; the first dim is the batch;
- ``loss``: ``"ce"`` (sparse softmax cross-entropy of output 0 against labels of ``classes``) or ``"dot"``
  (sum over outputs of output times fixed weights);
- ``train``: whether the training-mode forward is deterministic (dropout with a rate MindSpore will not take
  as 0 makes it random); gradients are taken in training mode when it is, in evaluation mode otherwise;
- ``export``: whether the eval-mode network is exported with a dynamic batch (``False`` with the reason where
  the network itself fixes the batch);
- ``slow``: left out of the normal run.

Parameter values come from ``param_value(name, shape)``: a generator seeded by the parameter's name, scaled by
its fan-in, the same on both sides without any weight file.
"""
from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

SEED = 20250
RECORDED = 1024  # values kept of each recorded gradient and stepped parameter (flattened): small fixtures


def param_value(name: str, shape: tuple[int, ...]) -> np.ndarray:
    """The value of parameter ``name``: variances and scales (``gamma``) in [0.5, 1.5), means, offsets and
    biases N(0, 0.1), weights N(0, 1 / fan_in) with fan_in the product of all dims but the first."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    leaf = name.rsplit(".", 1)[-1]
    shape = tuple(int(d) for d in shape)
    if "variance" in leaf or leaf in ("gamma", "weight_norm"):
        v = rng.uniform(0.5, 1.5, shape)
    elif len(shape) <= 1 or "mean" in leaf or leaf in ("beta", "bias"):
        v = rng.normal(0.0, 0.1, shape)
    else:
        fan_in = int(np.prod(shape[1:])) or 1
        v = rng.normal(0.0, 1.0 / np.sqrt(fan_in), shape)
    return v.astype(np.float32)


def make_inputs(spec: dict[str, Any], name: str) -> list[np.ndarray]:
    """The network's inputs at batch 2 (seeded by the network's name)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()) ^ SEED)
    arrays = []
    for dtype, shape, low, high in spec["inputs"]:
        if dtype.startswith("int"):
            arrays.append(rng.integers(low, high, shape).astype(dtype))
        elif dtype == "bool":
            arrays.append(np.ones(shape, bool))
        else:
            arrays.append(rng.uniform(low, high, shape).astype(dtype))
    return arrays


def make_labels(spec: dict[str, Any], name: str, batch: int) -> np.ndarray:
    rng = np.random.default_rng(zlib.crc32(name.encode()) ^ (SEED + 1))
    return rng.integers(0, spec["classes"], (batch,)).astype(np.int32)


def dot_weights(name: str, shapes: list[tuple[int, ...]]) -> list[np.ndarray]:
    """The fixed weights of the ``"dot"`` loss, one array per float output."""
    rng = np.random.default_rng(zlib.crc32(name.encode()) ^ (SEED + 2))
    return [rng.normal(size=s).astype(np.float32) for s in shapes]


def named_params(names: list[str]) -> list[str]:
    """The parameters whose gradients and stepped values are recorded in full: first, middle, last."""
    return sorted({names[0], names[len(names) // 2], names[-1]}, key=names.index)


def flat(out: Any) -> list[Any]:
    """A network's outputs as a flat list (tuples and lists unpacked, ``None`` dropped)."""
    if isinstance(out, (tuple, list)):
        return [o for item in out for o in flat(item)]
    return [] if out is None else [out]


class Config:
    """An attribute bag for constructors that read a config object (audio_conf)."""

    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


def _vit(m: Any) -> Any:
    return m.VisionTransformer(image_size=32, patch_size=8, embed_dim=32, depth=2, num_heads=4, mlp_ratio=2.0,
                               num_classes=10)


def _tinybert(m: Any, config: Any) -> Any:
    # hidden_dropout_prob also reaches nn.Dropout's first argument, keep_prob, which must be positive: the
    # training-mode forward stays random
    cfg = config.BertConfig(64, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                            intermediate_size=64, max_position_embeddings=16, hidden_dropout_prob=0.1,
                            attention_probs_dropout_prob=0.0)
    return m.TinyBertForSentencePairClassification(cfg, num_labels=3)


def _deepspeech2(m: Any) -> Any:
    conf = Config(sample_rate=800, window_size=0.02)
    return m.DeepSpeechModel(batch_size=2, labels=list("_abcdef"), rnn_hidden_size=16, nb_layers=2,
                             audio_conf=conf, rnn_type="LSTM", bidirectional=True)


IMG = ("float32", (2, 3, 32, 32), -1.0, 1.0)
IMG64 = ("float32", (2, 3, 64, 64), -1.0, 1.0)

NETWORKS: dict[str, dict[str, Any]] = {
    "resnet": dict(module="mindcv.models.resnet", inputs=[IMG],
                   make=lambda m: m.ResNet(m.BasicBlock, [1, 1, 1, 1], num_classes=10)),
    "resnet_bottleneck": dict(module="mindcv.models.resnet", inputs=[IMG],
                              make=lambda m: m.ResNet(m.Bottleneck, [1, 1, 1, 1], num_classes=10, groups=2,
                                                      base_width=16)),
    "mobilenet_v1": dict(module="mindcv.models.mobilenetv1", inputs=[IMG],
                         make=lambda m: m.MobileNetV1(alpha=0.25, num_classes=10)),
    "mobilenet_v2": dict(module="mindcv.models.mobilenetv2", inputs=[IMG],
                         make=lambda m: m.MobileNetV2(alpha=0.35, num_classes=10)),
    "mobilenet_v3": dict(module="mindcv.models.mobilenetv3", inputs=[IMG],
                         make=lambda m: m.MobileNetV3(arch="small", alpha=0.35, num_classes=10)),
    "densenet": dict(module="mindcv.models.densenet", inputs=[IMG],
                     make=lambda m: m.DenseNet(growth_rate=8, block_config=(2, 2, 2, 2), num_init_features=16,
                                               bn_size=2, num_classes=10)),
    "squeezenet": dict(module="mindcv.models.squeezenet", inputs=[IMG64],
                       make=lambda m: m.SqueezeNet(version="1_1", num_classes=10, drop_rate=0.0)),
    "shufflenet_v2": dict(module="mindcv.models.shufflenetv2", inputs=[IMG],
                          make=lambda m: m.ShuffleNetV2(num_classes=10, model_size="0.5x")),
    "shufflenet_v1": dict(module="mindcv.models.shufflenetv1", inputs=[IMG],
                          make=lambda m: m.ShuffleNetV1(num_classes=10, model_size="0.5x", group=3)),
    "ghostnet": dict(module="mindcv.models.ghostnet", inputs=[IMG],
                     make=lambda m: m.GhostNet(num_classes=10, width=0.25, drop_rate=0.0)),
    "efficientnet": dict(module="mindcv.models.efficientnet", inputs=[IMG],
                         make=lambda m: m.EfficientNet(arch="efficientnet_b0", dropout_rate=0.0,
                                                       width_mult=0.25, depth_mult=0.25, num_classes=10,
                                                       drop_path_prob=0.0)),
    "regnet": dict(module="mindcv.models.regnet", inputs=[IMG],
                   make=lambda m: m.RegNet(w_a=8.0, w_0=16, w_m=2.0, d=4, group_w=8, stem_w=16,
                                           num_classes=10)),
    "convnext": dict(module="mindcv.models.convnext", inputs=[IMG],
                     make=lambda m: m.ConvNeXt(in_channels=3, num_classes=10, depths=[1, 1, 1, 1],
                                               dims=[8, 16, 24, 32], layer_scale_init_value=0.5)),
    "vit": dict(module="mindcv.models.vit", inputs=[IMG], make=_vit),
    "swin": dict(module="mindcv.models.swintransformer", inputs=[IMG],
                 make=lambda m: m.SwinTransformer(image_size=32, patch_size=2, num_classes=10, embed_dim=16,
                                                  depths=[1, 1], num_heads=[2, 4], window_size=4,
                                                  drop_path_rate=0.0)),
    "pit": dict(module="mindcv.models.pit", inputs=[IMG],
                make=lambda m: m.PoolingTransformer(image_size=32, patch_size=4, stride=2, base_dims=[8, 8],
                                                    depth=[1, 1], heads=[2, 4], mlp_ratio=2.0,
                                                    num_classes=10)),
    "mobilevit": dict(module="mindcv.models.mobilevit", inputs=[IMG64], slow=True,
                      make=lambda m: m.MobileViT(model_cfg=m.get_config("xx_small"), num_classes=10)),
    "mnasnet": dict(module="mindcv.models.mnasnet", inputs=[IMG],
                    make=lambda m: m.Mnasnet(alpha=0.25, num_classes=10, drop_rate=0.0)),
    "xception": dict(module="mindcv.models.xception", inputs=[IMG], slow=True,
                     make=lambda m: m.Xception(num_classes=10)),
    "googlenet": dict(module="mindcv.models.googlenet", inputs=[IMG64], slow=True,
                      make=lambda m: m.GoogLeNet(num_classes=10, drop_rate=0.0)),
    "tinybert": dict(module="mindnlp.models.tinybert.tinybert", domain="nlp",
                     config="mindnlp.models.tinybert.tinybert_config",
                     inputs=[("int32", (2, 8), 1, 64), ("int32", (2, 8), 1, 64)], classes=3,
                     make=_tinybert, train=False),
    "deepspeech2": dict(module="mindaudio.models.deepspeech2", domain="audio", loss="dot",
                        inputs=[("float32", (2, 1, 9, 8), -1.0, 1.0), ("int32", (2,), 8, 9)],
                        make=_deepspeech2,
                        export="DeepSpeechModel's BatchRNN is built for a fixed batch_size"),
    "conformer": dict(module="mindaudio.models.conformer", domain="audio", loss="dot",
                      inputs=[("float32", (2, 16, 8), -1.0, 1.0), ("bool", (2, 1, 3), 0, 1)],
                      make=lambda m: m.ConformerEncoder(input_size=8, output_size=16, attention_heads=2,
                                                        linear_units=32, num_blocks=2, dropout_rate=0.0,
                                                        positional_dropout_rate=0.0, cnn_module_kernel=3)),
    "ecapa_tdnn": dict(module="mindaudio.models.ecapatdnn", domain="audio", loss="dot",
                       inputs=[("float32", (2, 16, 8), -1.0, 1.0)],
                       make=lambda m: m.EcapaTDNN(8, lin_neurons=8, channels=(16, 16, 16, 16, 48),
                                                  attention_channels=8, res2net_scale=4, se_channels=8),
                       export="EcapaTDNN ends with x.squeeze(), which also drops the batch axis when the "
                              "batch is 1 (in MindSpore too): its output has no one shape across batches"),
    "tasnet": dict(module="mindaudio.models.tasnet", domain="audio", loss="dot",
                   inputs=[("float32", (2, 4, 8), -1.0, 1.0)],
                   make=lambda m: m.TasNet(L=8, N=8, hidden_size=8, num_layers=2, bidirectional=False)),
}

for _name, _spec in NETWORKS.items():
    _spec.setdefault("domain", "vision")
    _spec.setdefault("loss", "ce")
    _spec.setdefault("classes", 10)
    _spec.setdefault("train", True)
    _spec.setdefault("export", True)
    _spec.setdefault("slow", False)
    _spec["package"] = _spec["module"].split(".")[0]


def build(spec: dict[str, Any], importer: Callable[[str], Any]) -> Any:
    """The network of ``spec``, its modules imported by ``importer`` (importlib.import_module)."""
    module = importer(spec["module"])
    if "config" in spec:
        return spec["make"](module, importer(spec["config"]))
    return spec["make"](module)
