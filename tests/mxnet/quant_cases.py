"""nd.contrib quantization operator rows: (id, operator, input specs, keyword arguments), run by real MXNet
1.9.1's CPU (oneDNN) build (tests/fixtures/mxnet/gen_quant.py, which also stores the inputs it drew) and by
cellonnx.mxnet (test_quant_ops.py). NumPy only (the generator imports it under MXNet's python).

MXNet 1.9.1 runs quantized_elemwise_mul only inside a bound symbol (imperatively its output count check
fails), so the generator runs the SYMBOL_ONLY operators that way; quantize_asym crashes MXNet 1.9.1 (a
segmentation fault in both paths) and is checked against its source's rule instead (test_quant_ops.py)."""
from __future__ import annotations

from typing import Any

import numpy as np


def f(*shape: int, lo: float = -2.0, hi: float = 2.0) -> tuple:
    """A float32 array drawn uniformly in [lo, hi)."""
    return ("f", shape, lo, hi)


def q(dtype: str, *shape: int, lo: int | None = None, hi: int | None = None) -> tuple:
    """An integer array (int8 / uint8 / int32) drawn uniformly in [lo, hi]."""
    return (dtype, shape, lo, hi)


def s(value: float) -> tuple:
    """A range input: a float32 array of shape (1,)."""
    return ("s", value)


def draw(case_id: str, specs: list[tuple]) -> list[np.ndarray]:
    """The input arrays of a row (the generator stores them; the tests read them back)."""
    rng = np.random.RandomState(sum(map(ord, case_id)))
    out = []
    for spec in specs:
        if spec[0] == "s":
            out.append(np.array([spec[1]], np.float32))
        elif spec[0] == "f":
            out.append(rng.uniform(spec[2], spec[3], spec[1]).astype(np.float32))
        else:
            info = np.iinfo(spec[0])
            lo = info.min if spec[2] is None else spec[2]
            hi = info.max if spec[3] is None else spec[3]
            out.append(rng.randint(lo, hi + 1, spec[1]).astype(spec[0]))
    return out


SYMBOL_ONLY = {"quantized_elemwise_mul"}

# a value that lands on a rounding tie: 0.5 / 127 * 2 quantizes to 1 after a half-way product
ZEROS = ("k", np.zeros((2, 3), np.float32))  # a zero range: MXNet's scale is inf and 0 * inf NaN
TIES = ("k", np.array([[-2.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0, 1.99, -1.99]], np.float32))

CASES: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    ("quantize_int8", "quantize", [f(3, 5), s(-1.5), s(1.0)], {"out_type": "int8"}),
    ("quantize_uint8", "quantize", [f(3, 5, lo=0.0), s(0.0), s(2.0)], {"out_type": "uint8"}),
    ("quantize_uint8_neg", "quantize", [f(3, 5), s(-1.0), s(1.5)], {}),
    ("quantize_4d", "quantize", [f(2, 3, 2, 2), s(-2.0), s(2.0)], {"out_type": "int8"}),
    ("quantize_ties", "quantize", [TIES, s(-1.0), s(1.0)], {"out_type": "int8"}),
    ("quantize_zero_range", "quantize", [ZEROS, s(0.0), s(0.0)], {"out_type": "int8"}),
    ("quantize_v2_zeros_int8", "quantize_v2", [ZEROS], {"out_type": "int8"}),
    ("quantize_v2_zeros_uint8", "quantize_v2", [ZEROS], {"out_type": "uint8"}),
    ("quantize_v2_int8", "quantize_v2", [f(4, 6)], {"out_type": "int8"}),
    ("quantize_v2_uint8", "quantize_v2", [f(4, 6, lo=0.0)], {"out_type": "uint8"}),
    ("quantize_v2_uint8_neg", "quantize_v2", [f(4, 6)], {"out_type": "uint8"}),
    ("quantize_v2_auto", "quantize_v2", [f(4, 6)], {}),
    ("quantize_v2_auto_calib_pos", "quantize_v2", [f(4, 6)],
     {"min_calib_range": 0.0, "max_calib_range": 1.0}),
    ("quantize_v2_auto_calib_neg", "quantize_v2", [f(4, 6)],
     {"min_calib_range": -1.0, "max_calib_range": 1.0}),
    ("quantize_v2_int8_calib", "quantize_v2", [f(2, 3, 2, 2)],
     {"out_type": "int8", "min_calib_range": -0.7, "max_calib_range": 1.3}),
    ("quantize_v2_ties", "quantize_v2", [TIES], {"out_type": "int8"}),
    ("quantize_v2_from_int8", "quantize_v2", [q("int8", 3, 4)], {}),
    ("quantize_v2_from_uint8_calib", "quantize_v2", [q("uint8", 3, 4)],
     {"min_calib_range": 0.0, "max_calib_range": 3.0}),
    ("dequantize_int8", "dequantize", [q("int8", 3, 5), s(-1.5), s(2.0)], {}),
    ("dequantize_uint8", "dequantize", [q("uint8", 3, 5), s(0.0), s(3.0)], {}),
    ("dequantize_4d", "dequantize", [q("int8", 2, 3, 2, 2), s(-0.5), s(0.25)], {}),
    ("requantize", "requantize", [q("int32", 3, 5, lo=-30000000, hi=30000000), s(-50.0), s(50.0)], {}),
    ("requantize_calib", "requantize", [q("int32", 3, 5, lo=-30000000, hi=30000000), s(-50.0), s(50.0)],
     {"min_calib_range": -0.5, "max_calib_range": 0.6}),
    ("requantize_uint8_calib", "requantize", [q("int32", 3, 5, lo=-30000000, hi=30000000), s(-50.0), s(50.0)],
     {"out_type": "auto", "min_calib_range": 0.0, "max_calib_range": 0.6}),
    ("requantize_4d", "requantize", [q("int32", 2, 4, 3, 3, lo=-2000000, hi=2000000), s(-9.0), s(9.0)], {}),
    ("requantize_auto", "requantize", [q("int32", 3, 5, lo=-30000000, hi=30000000), s(-50.0), s(50.0)],
     {"out_type": "auto"}),
    ("conv", "quantized_conv",
     [q("uint8", 2, 4, 5, 5), q("int8", 4, 4, 3, 3), q("int8", 4), s(0.0), s(2.0), s(-0.5), s(0.5), s(-1.0),
      s(1.0)], {"kernel": (3, 3), "num_filter": 4}),
    ("conv_nobias_stride_pad", "quantized_conv",
     [q("uint8", 1, 8, 6, 6), q("int8", 8, 8, 3, 3), s(0.0), s(1.0), s(-0.3), s(0.4)],
     {"kernel": (3, 3), "num_filter": 8, "no_bias": True, "stride": (2, 2), "pad": (1, 1)}),
    ("conv_1x1_dilate", "quantized_conv",
     [q("uint8", 1, 4, 7, 7), q("int8", 8, 4, 3, 3), s(0.0), s(4.0), s(-1.0), s(1.0)],
     {"kernel": (3, 3), "num_filter": 8, "no_bias": True, "dilate": (2, 2)}),
    ("fc_int8", "quantized_fully_connected",
     [q("int8", 3, 6), q("int8", 5, 6), q("int8", 5), s(-1.0), s(1.0), s(-0.5), s(0.5), s(-0.2), s(0.2)],
     {"num_hidden": 5}),
    ("fc_uint8", "quantized_fully_connected",
     [q("uint8", 3, 6), q("int8", 5, 6), q("int8", 5), s(0.0), s(2.0), s(-0.5), s(0.5), s(-0.3), s(0.3)],
     {"num_hidden": 5}),
    ("fc_int8_saturating", "quantized_fully_connected",
     [q("int8", 2, 64, lo=0), q("int8", 3, 64), s(-1.0), s(1.0), s(-0.5), s(0.5)],
     {"num_hidden": 3, "no_bias": True}),
    ("fc_nobias_flatten", "quantized_fully_connected",
     [q("int8", 2, 3, 4), q("int8", 4, 12), s(-1.0), s(1.0), s(-0.5), s(0.5)],
     {"num_hidden": 4, "no_bias": True}),
    ("fc_noflatten", "quantized_fully_connected",
     [q("uint8", 2, 3, 4), q("int8", 5, 4), q("int8", 5), s(0.0), s(1.0), s(-0.5), s(0.5), s(-0.1), s(0.1)],
     {"num_hidden": 5, "flatten": False}),
    ("pool_max", "quantized_pooling", [q("uint8", 1, 4, 4, 4), s(0.0), s(1.0)],
     {"kernel": (2, 2), "stride": (2, 2), "pool_type": "max"}),
    ("pool_max_int8", "quantized_pooling", [q("int8", 1, 4, 5, 5), s(-1.0), s(1.0)],
     {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "pool_type": "max"}),
    ("pool_avg", "quantized_pooling", [q("uint8", 1, 4, 5, 5), s(0.0), s(1.0)],
     {"kernel": (3, 3), "stride": (1, 1), "pad": (1, 1), "pool_type": "avg"}),
    ("pool_avg_int8_global", "quantized_pooling", [q("int8", 2, 4, 3, 3), s(-2.0), s(2.0)],
     {"kernel": (1, 1), "global_pool": True, "pool_type": "avg"}),
    ("act_relu_int8", "quantized_act", [q("int8", 3, 5), s(-1.0), s(2.0)], {"act_type": "relu"}),
    ("act_relu_uint8", "quantized_act", [q("uint8", 3, 5), s(0.0), s(2.0)], {"act_type": "relu"}),
    ("flatten", "quantized_flatten", [q("int8", 2, 3, 2), s(-1.0), s(1.0)], {}),
    ("concat_int8", "quantized_concat",
     [q("int8", 2, 3), q("int8", 2, 2), s(-1.0), s(1.0), s(-2.0), s(2.0)], {"num_args": 2, "dim": 1}),
    ("concat_uint8", "quantized_concat",
     [q("uint8", 2, 3), q("uint8", 2, 3), q("uint8", 2, 3), s(0.0), s(1.0), s(0.0), s(3.0), s(0.0), s(0.5)],
     {"num_args": 3, "dim": 0}),
    ("concat_mixed", "quantized_concat", [q("int8", 1, 2, 2, 2), q("uint8", 1, 2, 2, 2), s(-1.0), s(1.0),
                                          s(0.0), s(3.0)], {"num_args": 2, "dim": 1}),
    ("add_int8", "quantized_elemwise_add",
     [q("int8", 3, 4), q("int8", 3, 4), s(-1.0), s(1.0), s(-2.0), s(2.0)], {}),
    ("add_uint8_int8", "quantized_elemwise_add",
     [q("uint8", 3, 4), q("int8", 3, 4), s(0.0), s(1.0), s(-0.5), s(0.5)], {}),
    ("add_calib", "quantized_elemwise_add",
     [q("int8", 3, 4), q("int8", 3, 4), s(-1.0), s(1.0), s(-2.0), s(2.0)],
     {"min_calib_range": -2.5, "max_calib_range": 2.5}),
    ("add_calib_uint8", "quantized_elemwise_add",
     [q("uint8", 3, 4), q("uint8", 3, 4), s(0.0), s(1.0), s(0.0), s(2.0)],
     {"min_calib_range": 0.0, "max_calib_range": 2.5}),
    ("mul_int8", "quantized_elemwise_mul",
     [q("int8", 3, 4), q("int8", 3, 4), s(-1.0), s(1.0), s(-2.0), s(2.0)], {}),
    ("mul_float", "quantized_elemwise_mul",
     [q("int8", 3, 4), q("int8", 3, 4), s(-1.0), s(1.0), s(-2.0), s(2.0)], {"enable_float_output": True}),
    ("mul_calib", "quantized_elemwise_mul",
     [q("int8", 3, 4), q("int8", 3, 4), s(-1.0), s(1.0), s(-2.0), s(2.0)],
     {"min_calib_range": -1.5, "max_calib_range": 1.5}),
    ("batch_norm", "quantized_batch_norm",
     [q("int8", 2, 4, 3, 3), f(4, lo=0.5, hi=1.5), f(4, lo=-0.5, hi=0.5), f(4, lo=-0.3, hi=0.3),
      f(4, lo=0.5, hi=2.0), s(-1.0), s(1.0)], {"min_calib_range": -2.0, "max_calib_range": 2.0}),
    ("batch_norm_fix_gamma", "quantized_batch_norm",
     [q("int8", 1, 4, 2, 2), f(4, lo=0.5, hi=1.5), f(4, lo=-0.5, hi=0.5), f(4, lo=-0.3, hi=0.3),
      f(4, lo=0.5, hi=2.0), s(-2.0), s(2.0)],
     {"min_calib_range": -3.0, "max_calib_range": 3.0, "fix_gamma": True, "eps": 1e-3}),
    ("embedding", "quantized_embedding", [("k", np.array([[0, 3, 1], [2, 2, 4]], np.float32)),
                                          q("int8", 5, 3), s(-0.5), s(0.5)],
     {"input_dim": 5, "output_dim": 3}),
    ("calibrate_entropy", "calibrate_entropy", [("hist",), ("edges",)], {"num_quantized_bins": 255}),
    ("calibrate_entropy_63", "calibrate_entropy", [("hist",), ("edges",)], {"num_quantized_bins": 63}),
]


def histogram(case_id: str) -> tuple[np.ndarray, np.ndarray]:
    """A 2001-bin histogram of a heavy-tailed sample and its edges (the calibrate_entropy rows' inputs)."""
    rng = np.random.RandomState(sum(map(ord, case_id)))
    sample = rng.standard_t(3, 20000).astype(np.float32)
    th = float(np.abs(sample).max())
    hist, edges = np.histogram(sample, bins=2001, range=(-th, th))
    return hist.astype(np.float32), edges.astype(np.float32)


def inputs(case_id: str, specs: list[Any]) -> list[np.ndarray]:
    """Every input array of a row: drawn ones, constants ('k', array) and the histogram pair."""
    drawn = draw(case_id, [sp for sp in specs if sp[0] in ("f", "s", "int8", "uint8", "int32")])
    it = iter(drawn)
    hist = histogram(case_id) if any(sp[0] == "hist" for sp in specs) else None
    out = []
    for sp in specs:
        if sp[0] == "k":
            out.append(sp[1])
        elif sp[0] == "hist":
            out.append(hist[0])
        elif sp[0] == "edges":
            out.append(hist[1])
        else:
            out.append(next(it))
    return out


# rows MXNet 1.9.1's CPU build refuses with an MXNetError (the generator checks that it does)
ERRORS: list[tuple[str, str, list[Any], dict[str, Any]]] = [
    ("dequantize_int32", "dequantize", [q("int32", 3, 5, lo=-100000, hi=100000), s(-4.0), s(4.0)], {}),
    ("conv_int8_data", "quantized_conv",
     [q("int8", 1, 4, 5, 5), q("int8", 4, 4, 3, 3), s(-1.0), s(1.0), s(-0.5), s(0.5)],
     {"kernel": (3, 3), "num_filter": 4, "no_bias": True}),
]
