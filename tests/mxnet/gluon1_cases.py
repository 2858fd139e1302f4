"""Gluon 1.x code, written once for both frameworks: each case builds a network given ``mx`` (real MXNet
1.9.1 in tests/fixtures/mxnet/gen_gluon1.py, cellonnx.mxnet in test_gluon1.py) inside a fresh NameManager.

The cases exercise MXNet 1.x's naming (prefixes from name scopes and counters, ``prefix=''``, ``params=``
sharing, ``self.params.get``), ``hybrid_forward(F, x, **params)`` with F's operators and keyword
parameters, and the layer aliases (conv, pool, the activation's name).
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CASES", "INPUTS"]

INPUTS = {"img": np.linspace(-2, 2, 2 * 3 * 6 * 6, dtype=np.float32).reshape(2, 3, 6, 6),
          "vec": np.linspace(-1, 1, 2 * 5, dtype=np.float32).reshape(2, 5)}


def _dense_alone(mx: Any) -> Any:
    return mx.gluon.nn.Dense(3, in_units=5), "vec"


def _sequential_scope(mx: Any) -> Any:
    nn = mx.gluon.nn
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, padding=1), nn.BatchNorm(), nn.Activation("relu"), nn.MaxPool2D(2),
                nn.Conv2D(4, 1), nn.Activation("sigmoid"), nn.GlobalAvgPool2D(), nn.Dense(3))
    return net, "img"


def _no_scope(mx: Any) -> Any:
    nn = mx.gluon.nn
    net = nn.Sequential()
    net.add(nn.Dense(4, in_units=5), nn.Dense(2))
    return net, "vec"



def _custom(mx: Any) -> Any:
    nn = mx.gluon.nn

    class Scaled(mx.gluon.HybridBlock):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.dense = nn.Dense(4)
                self.scale = self.params.get("scale", shape=(1, 4), init=mx.init.Constant(0.5))
                self.offset = self.params.get_constant("offset", np.full((1, 4), 0.25, np.float32))

        def hybrid_forward(self, F: Any, x: Any, scale: Any, offset: Any) -> Any:
            y = F.broadcast_mul(self.dense(x), scale)
            y = F.broadcast_add(y, offset)
            return F.Activation(F.reshape(y, shape=(0, -1)), act_type="tanh")

    net = nn.HybridSequential()
    with net.name_scope():
        net.add(Scaled(), Scaled(prefix="second_"))
    return net, "vec"


def _empty_prefix(mx: Any) -> Any:
    nn = mx.gluon.nn

    class Outer(mx.gluon.HybridBlock):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.body = nn.HybridSequential(prefix="")
                with self.body.name_scope():
                    self.body.add(nn.Dense(4, in_units=5), nn.Dense(4))
                self.stage = nn.HybridSequential(prefix="stage1_")
                with self.stage.name_scope():
                    self.stage.add(nn.Dense(3), nn.BatchNorm(prefix="bn_"))
                self.head = nn.Dense(2, prefix="head_")

        def hybrid_forward(self, F: Any, x: Any) -> Any:
            return self.head(self.stage(F.relu(self.body(x))))

    return Outer(), "vec"


def _shared(mx: Any) -> Any:
    nn = mx.gluon.nn
    net = nn.HybridSequential()
    with net.name_scope():
        first = nn.Dense(5, in_units=5)
        net.add(first, nn.Activation("tanh"), nn.Dense(5, in_units=5, params=first.collect_params()))
    return net, "vec"


def _concurrent(mx: Any) -> Any:
    nn, cnn = mx.gluon.nn, mx.gluon.contrib.nn
    net = cnn.HybridConcurrent(axis=1, prefix="cat_")
    with net.name_scope():
        net.add(cnn.Identity(), nn.Dense(3, in_units=5), nn.HybridLambda(
            lambda F, x: F.LeakyReLU(x, slope=0.1)))
    return net, "vec"


def _operators(mx: Any) -> Any:
    class Ops(mx.gluon.HybridBlock):
        def hybrid_forward(self, F: Any, x: Any) -> Any:
            a = F.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="avg")
            b = F.slice_axis(F.Flatten(a), axis=1, begin=1, end=None)
            c = F.concat(F.softmax(b, axis=-1), F.sum(b, axis=1, keepdims=True), dim=1)
            d = F.swapaxes(F.expand_dims(c, axis=2), 1, 2)
            return F.clip(F.squeeze(d, axis=1), -0.5, 0.5) * 2 + F.ones_like(c)

    return Ops(), "img"


CASES = {"dense_alone": _dense_alone, "sequential_scope": _sequential_scope, "no_scope": _no_scope,
         "custom": _custom, "empty_prefix": _empty_prefix, "shared": _shared, "concurrent": _concurrent,
         "operators": _operators}
