"""The linear regression SVRGModule trains on in the tests and their generator (as MXNet's SVRG example):
``data()`` gives 30 samples of 4 features and their targets (the last batch of 8 is padded), ``build(mx)``
the symbol, ``init(mx)`` the starting parameters."""
from __future__ import annotations

import numpy as np

BATCH = 8
LR = 0.025


def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(30, 4)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5, 3.0]) + 0.25 + 0.1 * rng.normal(size=30)).astype(np.float32)
    return x, y


def build(mx) -> object:
    fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=1, name="fc")
    return mx.sym.LinearRegressionOutput(data=fc, label=mx.sym.var("lin_reg_label"), name="lro")


def init(mx) -> dict:
    return {"fc_weight": mx.nd.array(np.array([[0.1, 0.2, -0.1, 0.05]], dtype=np.float32)),
            "fc_bias": mx.nd.array(np.array([0.0], dtype=np.float32))}


def iterator(mx) -> object:
    x, y = data()
    return mx.io.NDArrayIter(x, y, batch_size=BATCH, shuffle=False, label_name="lin_reg_label")
