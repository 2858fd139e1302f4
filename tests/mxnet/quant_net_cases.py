"""The small Gluon CNN quantized with quantize_net_v2 here and by real MXNet 1.9.1
(tests/fixtures/mxnet/gen_quant_net.py): conv-bn-relu, conv-bn + residual sum + relu, max pooling, dense.
Written in Gluon 1.x style so the same source builds on both sides (``mx`` is the framework module)."""
from __future__ import annotations

from typing import Any

import numpy as np

BATCH = 4
SHAPES = {"net_conv0_weight": (8, 4, 3, 3), "net_conv0_bias": (8,), "net_batchnorm0_gamma": (8,),
          "net_batchnorm0_beta": (8,), "net_batchnorm0_running_mean": (8,),
          "net_batchnorm0_running_var": (8,), "net_conv1_weight": (8, 8, 3, 3), "net_conv1_bias": (8,),
          "net_batchnorm1_gamma": (8,), "net_batchnorm1_beta": (8,), "net_batchnorm1_running_mean": (8,),
          "net_batchnorm1_running_var": (8,), "net_dense0_weight": (5, 128), "net_dense0_bias": (5,)}

# quantize_net_v2 keyword arguments by case (calib_data is the calibration set unless calib_mode is 'none')
CASES: dict[str, dict[str, Any]] = {
    "naive": {"calib_mode": "naive"},
    "entropy": {"calib_mode": "entropy"},
    "none": {"calib_mode": "none"},
    "naive_channel": {"calib_mode": "naive", "quantize_granularity": "channel-wise"},
    "naive_no_pool": {"calib_mode": "naive", "exclude_operators": ["Pooling"]},
    "naive_no_conv0": {"calib_mode": "naive", "exclude_layers": ["sg_mkldnn_conv_bn_act_0"]},
    "naive_int8": {"calib_mode": "naive", "quantized_dtype": "int8"},
    "entropy_channel_int8": {"calib_mode": "entropy", "quantized_dtype": "int8",
                             "quantize_granularity": "channel-wise"},
    "naive_smart": {"calib_mode": "naive", "quantize_mode": "smart", "exclude_operators": ["Pooling"]},
    "none_match": {"calib_mode": "none", "exclude_layers_match": ["dense"]},
    "naive_few": {"calib_mode": "naive", "num_calib_examples": 4},
}

# cases whose quantized graph ends in a float fused layer: oneDNN's float GEMM sums in its own order, so
# their outputs agree within float32 rounding, not bit for bit
FLOAT_LAYER_CASES = ("none_match",)

# quantize_model_mkldnn keyword arguments by case, on the network's symbol and parameters
MODEL_CASES: dict[str, dict[str, Any]] = {
    "model_naive": {"calib_mode": "naive", "quantized_dtype": "auto"},
    "model_entropy_int8": {"calib_mode": "entropy", "quantize_granularity": "channel-wise"},
    "model_naive_int8_smart": {"calib_mode": "naive", "quantize_mode": "smart"},
}


def params() -> dict[str, np.ndarray]:
    rng = np.random.RandomState(5)
    out = {}
    for name, shape in SHAPES.items():
        if name.endswith("running_var"):
            out[name] = rng.uniform(0.5, 1.5, shape).astype(np.float32)
        elif name.endswith("gamma"):
            out[name] = rng.uniform(0.5, 1.5, shape).astype(np.float32)
        else:
            out[name] = rng.uniform(-0.3, 0.3, shape).astype(np.float32)
    return out


def data() -> tuple[np.ndarray, np.ndarray]:
    """(calibration set of 8 images, 2 test images), NCHW 4x8x8 in [0, 1)."""
    rng = np.random.RandomState(13)
    return (rng.uniform(0.0, 1.0, (8, 4, 8, 8)).astype(np.float32),
            rng.uniform(0.0, 1.0, (2, 4, 8, 8)).astype(np.float32))


def fused_symbols(mx: Any) -> dict[str, Any]:
    """Small symbols partitioned by get_backend_symbol('MKLDNN_QUANTIZE'), by name (compared as text)."""
    data = mx.sym.var("data")
    conv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name="c")
    bn = mx.sym.BatchNorm(conv, name="bn")
    out = {"conv_bn_relu": mx.sym.Activation(bn, act_type="relu", name="r")}
    conv2 = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), no_bias=True, name="c2")
    out["conv_sum_relu"] = mx.sym.Activation(mx.sym.elemwise_add(conv, conv2, name="add"), act_type="relu",
                                             name="r2")
    fc = mx.sym.FullyConnected(mx.sym.Flatten(data, name="flat"), num_hidden=3, name="fc")
    out["fc_relu_branch"] = mx.sym.Group([mx.sym.Activation(fc, act_type="relu", name="r3"),
                                          mx.sym.Activation(bn, act_type="sigmoid", name="s")])
    return out


def network(mx: Any) -> Any:
    """The CNN built with the given framework's Gluon (parameters set from ``params()``)."""
    nn = mx.gluon.nn

    class Net(nn.HybridBlock):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.conv0 = nn.Conv2D(8, 3, padding=1, in_channels=4)
                self.bn0 = nn.BatchNorm(in_channels=8)
                self.conv1 = nn.Conv2D(8, 3, padding=1, in_channels=8)
                self.bn1 = nn.BatchNorm(in_channels=8)
                self.pool = nn.MaxPool2D(2)
                self.dense = nn.Dense(5, in_units=128)

        def hybrid_forward(self, F: Any, x: Any) -> Any:
            y = F.Activation(self.bn0(self.conv0(x)), act_type="relu")
            z = F.Activation(y + self.bn1(self.conv1(y)), act_type="relu")
            return self.dense(self.pool(z))

    net = Net(prefix="net_")
    net.initialize()
    values = params()
    for name, param in net.collect_params().items():
        param.set_data(mx.nd.array(values[name]))
    return net


# the branch network (two convolutions concatenated: MXNet aligns their calibrated ranges) by case
CONCAT_CASES: dict[str, dict[str, Any]] = {
    "concat_naive": {"calib_mode": "naive"},
    "concat_naive_int8": {"calib_mode": "naive", "quantized_dtype": "int8"},
}


def concat_network(mx: Any) -> Any:
    """Two conv-relu branches on the data, concatenated, max pooled, then a dense layer."""
    nn = mx.gluon.nn

    class Branches(nn.HybridBlock):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            with self.name_scope():
                self.conv0 = nn.Conv2D(4, 3, padding=1, in_channels=4, activation="relu")
                self.conv1 = nn.Conv2D(4, 1, in_channels=4)
                self.pool = nn.MaxPool2D(2)
                self.dense = nn.Dense(3, in_units=128)

        def hybrid_forward(self, F: Any, x: Any) -> Any:
            y = F.concat(self.conv0(x), F.Activation(self.conv1(x), act_type="relu"), dim=1)
            return self.dense(self.pool(y))

    net = Branches(prefix="br_")
    net.initialize()
    rng = np.random.RandomState(9)
    for _, param in sorted(net.collect_params().items()):
        param.set_data(mx.nd.array(rng.uniform(-0.4, 0.4, param.shape).astype(np.float32)))
    return net
