"""The networks of tests/fixtures/mxnet/gen_gluon.py written with cellonnx.gluon in Gluon 2.x style, case by
case in the generator's order, and the fixture files MXNet 1.9.1 wrote for them."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cellonnx import ops
from cellonnx.gluon import HybridBlock, nn
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "gluon"
EXPECTED = np.load(HERE / "expected.npz")
RTOL, SCALE_RTOL = 1e-4, 1e-5  # SCALE_RTOL: of the values' scale, at least 1 (tests/tolerance.py)


def seq(*blocks, hybrid=True):
    net = nn.HybridSequential() if hybrid else nn.Sequential()
    net.add(*blocks)
    return net


def concatenate(axis, *blocks, hybrid=True):
    net = nn.HybridConcatenate(axis=axis) if hybrid else nn.Concatenate(axis=axis)
    net.add(*blocks)
    return net


class ConvNet(HybridBlock):
    def __init__(self):
        super().__init__()
        self.features = seq(nn.Conv2D(6, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(2),
                            nn.Conv2D(8, 3, groups=2, use_bias=False), nn.GroupNorm(num_groups=4))
        self.head = seq(nn.GlobalAvgPool2D(), nn.Flatten(), nn.Dense(5, activation="tanh"), nn.Dense(2))

    def forward(self, x):
        return self.head(self.features(x))


# the generator's CASES, case by case
CASES = {
    "dense": lambda: nn.Dense(4, activation="relu"),
    "dense_noflatten": lambda: nn.Dense(5, use_bias=False, flatten=False, in_units=3),
    "conv": lambda: nn.Conv2D(4, 3, strides=2, padding=1, activation="sigmoid"),
    "conv_group": lambda: nn.Conv2D(4, (3, 2), padding=(1, 0), dilation=(2, 1), groups=2, use_bias=False,
                                    in_channels=4),
    "conv_transpose": lambda: nn.Conv2DTranspose(3, 3, strides=2, padding=1, output_padding=1),
    "maxpool": lambda: nn.MaxPool2D(3, 2, padding=1),
    "maxpool_ceil": lambda: nn.MaxPool2D(2, 2, ceil_mode=True),
    "avgpool": lambda: nn.AvgPool2D(3, 1, padding=1, count_include_pad=False),
    "avgpool_ceil": lambda: nn.AvgPool2D(2, ceil_mode=True),
    "global_avgpool": lambda: nn.GlobalAvgPool2D(),
    "global_maxpool": lambda: nn.GlobalMaxPool2D(),
    "batchnorm": lambda: nn.BatchNorm(momentum=0.8, epsilon=1e-3),
    "batchnorm_axis": lambda: nn.BatchNorm(axis=-1, center=False, scale=False, in_channels=5),
    "batchnorm_global": lambda: nn.BatchNorm(use_global_stats=True, in_channels=3),
    "syncbatchnorm": lambda: nn.SyncBatchNorm(in_channels=3, num_devices=1),
    "instancenorm": lambda: nn.InstanceNorm(scale=True),
    "instancenorm_default": lambda: nn.InstanceNorm(in_channels=3),
    "layernorm": lambda: nn.LayerNorm(),
    "layernorm_axis1": lambda: nn.LayerNorm(axis=1, center=False, in_channels=3),
    "groupnorm": lambda: nn.GroupNorm(num_groups=2),
    "embedding": lambda: nn.Embedding(10, 4),
    "relu": lambda: nn.Activation("relu"),
    "sigmoid": lambda: nn.Activation("sigmoid"),
    "tanh": lambda: nn.Activation("tanh"),
    "softrelu": lambda: nn.Activation("softrelu"),
    "softsign": lambda: nn.Activation("softsign"),
    "leakyrelu": lambda: nn.LeakyReLU(0.1),
    "prelu": lambda: nn.PReLU(),
    "prelu_channels": lambda: nn.PReLU(in_channels=3),
    "elu": lambda: nn.ELU(0.5),
    "selu": lambda: nn.SELU(),
    "gelu": lambda: nn.GELU(),
    "swish": lambda: nn.Swish(1.5),
    "dropout": lambda: nn.Dropout(0.5),
    "dropout_axes": lambda: nn.Dropout(0.5, axes=(1,)),
    "flatten": lambda: nn.Flatten(),
    "identity": lambda: nn.Identity(),
    "hybridlambda": lambda: nn.HybridLambda(lambda x: ops.leaky_relu(x, 0.3)),
    "lambda": lambda: nn.Lambda("tanh"),
    "hybridconcatenate": lambda: concatenate(1, nn.Dense(3, in_units=4), nn.Identity(),
                                             nn.Dense(2, activation="relu")),
    "concatenate": lambda: concatenate(-1, nn.Dense(3), nn.Dense(2), hybrid=False),
    "sequential": lambda: seq(nn.Dense(6, activation="softrelu"), nn.Dense(2), hybrid=False),
    "convnet": ConvNet,
}
NO_INPUT_GRAD = {"embedding"}
RANDOM_TRAINING = {"dropout", "dropout_axes"}
GROUPS = {"groupnorm": {"gamma": 2, "beta": 2}, "convnet": {"features.5.gamma": 4, "features.5.beta": 4}}
def expected(case: str, what: str) -> np.ndarray:
    return EXPECTED[f"{case}__{what}"]


def load(case: str):
    net = CASES[case]()
    net.load_parameters(HERE / f"{case}.params")
    return net


def close(actual, want, what: str) -> None:
    assert_close(np.asarray(actual), want, rtol=RTOL, scale_rtol=SCALE_RTOL, min_scale=1.0, what=what)
