"""The small CNN's parameters, calibration / test data and the quantize_model calls compared with real
MXNet 1.9.1 (tests/fixtures/mxnet/gen_quant_model.py). NumPy only."""
from __future__ import annotations

from typing import Any

import numpy as np

BATCH = 4
SHAPES = {"conv0_weight": (8, 4, 3, 3), "conv0_bias": (8,), "fc0_weight": (5, 128), "fc0_bias": (5,)}

# quantize_model keyword arguments by case (calib_data is the calibration set unless calib_mode is 'none')
CASES: dict[str, dict[str, Any]] = {
    "naive_auto": {"calib_mode": "naive", "quantized_dtype": "auto"},
    "entropy_auto": {"calib_mode": "entropy", "quantized_dtype": "auto"},
    "entropy_int8_fc": {"calib_mode": "entropy", "quantized_dtype": "auto", "num_calib_examples": 8,
                        "excluded_sym_names": ["conv0"]},
    "none_int8": {"calib_mode": "none"},
    "naive_no_pool": {"calib_mode": "naive", "quantized_dtype": "auto", "excluded_op_names": ["Pooling"]},
    "naive_full": {"calib_mode": "naive", "quantized_dtype": "auto", "quantize_mode": "full"},
    # channel-wise granularity concerns oneDNN's fused fully-connected layers only: this graph's plain
    # quantized operators come out as with tensor-wise
    "naive_channel": {"calib_mode": "naive", "quantized_dtype": "auto",
                      "quantize_granularity": "channel-wise"},
}


def params() -> dict[str, np.ndarray]:
    rng = np.random.RandomState(7)
    return {name: rng.uniform(-0.5, 0.5, shape).astype(np.float32) for name, shape in SHAPES.items()}


def data() -> tuple[np.ndarray, np.ndarray]:
    """(calibration set of 12 images, 2 test images), NCHW 4x8x8 in [0, 1)."""
    rng = np.random.RandomState(11)
    return (rng.uniform(0.0, 1.0, (12, 4, 8, 8)).astype(np.float32),
            rng.uniform(0.0, 1.0, (2, 4, 8, 8)).astype(np.float32))
