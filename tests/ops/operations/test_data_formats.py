"""data_format='NHWC' (MindSpore runs it on GPU only; here the input is transposed to NCHW): the result is
the NCHW result transposed, with NHWC weights laid out (C_out, kH, kW, C_in / group) as MindSpore's nn.Conv2d
makes them."""
from __future__ import annotations

import numpy as np

from cellonnx import Parameter, Tensor, ops
from tests.tolerance import assert_close


def _nhwc(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a.transpose(0, 2, 3, 1))


RNG = np.random.default_rng(11)
X = RNG.normal(size=(2, 4, 5, 6)).astype(np.float32)
W = RNG.normal(size=(6, 2, 3, 2)).astype(np.float32)


def test_conv2d_nhwc() -> None:
    nchw = ops.Conv2D(6, (3, 2), pad_mode="pad", pad=(1, 0, 1, 1), stride=2, group=2)(Tensor(X), Tensor(W))
    nhwc = ops.Conv2D(6, (3, 2), pad_mode="pad", pad=(1, 0, 1, 1), stride=2, group=2, data_format="NHWC")(
        Tensor(_nhwc(X)), Tensor(_nhwc(W)))
    assert_close(nhwc.asnumpy(), _nhwc(nchw.asnumpy()), 1e-5, 1e-6, "NHWC")


def test_conv2d_backprop_input_nhwc() -> None:
    dout = RNG.normal(size=(2, 6, 3, 3)).astype(np.float32)
    nchw = ops.Conv2DBackpropInput(6, (3, 2), pad_mode="same", stride=2, group=2)(
        Tensor(dout), Tensor(W), (2, 4, 5, 6))
    nhwc = ops.Conv2DBackpropInput(6, (3, 2), pad_mode="same", stride=2, group=2, data_format="NHWC")(
        Tensor(_nhwc(dout)), Tensor(_nhwc(W)), (2, 5, 6, 4))
    assert_close(nhwc.asnumpy(), _nhwc(nchw.asnumpy()), 1e-5, 1e-6, "NHWC")


def test_pooling_and_bias_add_nhwc() -> None:
    for make in (lambda f: ops.MaxPool(3, 2, "same", f), lambda f: ops.AvgPool(2, 1, "valid", f)):
        assert_close(make("NHWC")(Tensor(_nhwc(X))).asnumpy(), _nhwc(make("NCHW")(Tensor(X)).asnumpy()),
                     1e-5, 1e-6, "pooling NHWC")
    bias = Tensor(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(ops.BiasAdd("NHWC")(Tensor(_nhwc(X)), bias).asnumpy(),
                                  _nhwc(ops.BiasAdd()(Tensor(X), bias).asnumpy()))


def test_batch_norm_nhwc_moves_the_same_statistics() -> None:
    def run(fmt: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        mean = Parameter(Tensor(np.zeros(4, np.float32)), name="mean")
        var = Parameter(Tensor(np.ones(4, np.float32)), name="var")
        x = Tensor(_nhwc(X) if fmt == "NHWC" else X)
        scale, bias = Tensor(np.ones(4, np.float32)), Tensor(np.zeros(4, np.float32))
        y = ops.BatchNorm(True, 1e-5, 0.1, fmt)(x, scale, bias, mean, var)[0]
        return y.asnumpy(), mean.asnumpy(), var.asnumpy()

    (y1, m1, v1), (y2, m2, v2) = run("NCHW"), run("NHWC")
    assert_close(y2, _nhwc(y1), 1e-5, 1e-6, "output")
    assert_close(m2, m1, 1e-5, 1e-6, "moving mean")
    assert_close(v2, v1, 1e-5, 1e-6, "moving variance")
