"""Small recorded computations for mx.autograd.get_symbol, run the same way with real MXNet
(gen_autograd_symbol.py) and with cellonnx.mxnet (test_autograd_symbol.py): each case takes the mx module
and its input NDArrays (all marked with attach_grad) and returns the output computed under record()."""
from __future__ import annotations

import numpy as np


def elementwise(mx, x, w):
    y = mx.nd.relu(x * w + 1)
    return mx.nd.sum(mx.nd.exp(y), axis=0) + y[0]


def scalars(mx, x, w):
    return ((x - 2) / 3) * (1 - w) + 2 / (x * x + 1) - w ** 2


def matrix(mx, x, w):
    h = mx.nd.dot(x, w)
    return mx.nd.softmax(mx.nd.tanh(h), axis=-1) + mx.nd.transpose(h)


def reductions(mx, x, w):
    return mx.nd.mean(x, axis=1, keepdims=True) * mx.nd.sigmoid(w) - mx.nd.max(x, axis=0)


def dense(mx, x, w):
    return mx.nd.log_softmax(mx.nd.FullyConnected(x, w, num_hidden=3, no_bias=True, flatten=False), axis=1)


def conv(mx, x, w):
    y = mx.nd.Convolution(x, w, kernel=(3, 3), num_filter=4, pad=(1, 1), stride=(2, 2), no_bias=True)
    y = mx.nd.Pooling(mx.nd.LeakyReLU(y, act_type="leaky", slope=0.1), kernel=(2, 2), stride=(1, 1),
                      pool_type="max")
    return mx.nd.Pooling(y, kernel=(2, 2), stride=(2, 2), pad=(1, 1), pool_type="avg")


CASES = {
    "elementwise": (elementwise, [(2,), (2,)]),
    "scalars": (scalars, [(2, 3), (2, 3)]),
    "matrix": (matrix, [(3, 3), (3, 3)]),
    "reductions": (reductions, [(2, 3), (2, 3)]),
    "dense": (dense, [(2, 4), (3, 4)]),
    "conv": (conv, [(2, 3, 6, 6), (4, 3, 3, 3)]),
}


def inputs(case: str) -> list[np.ndarray]:
    rng = np.random.default_rng(len(case))
    return [rng.uniform(0.2, 1.5, shape).astype(np.float32) for shape in CASES[case][1]]
