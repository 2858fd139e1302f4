"""Rows for the activation family (cellonnx/ops/prims/activation.py). References are NumPy/math written from
the definitions; inputs avoid the kinks (0, +-3, thresholds) where finite differences are undefined."""
from __future__ import annotations

import math

import numpy as np

from cellonnx import ops
from tests.ops.harness import OpCase, rand

_erf = np.vectorize(math.erf)
SELU_A, SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _away_from(x: np.ndarray, points: tuple[float, ...], gap: float = 0.05) -> np.ndarray:
    """Shift values within ``gap`` of a kink so finite differences stay on one side."""
    x = x.copy()
    for p in points:
        near = np.abs(x - p) < gap
        x[near] = p + np.where(x[near] >= p, gap, -gap)
    return x


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _log_softmax(x, axis=-1):
    s = x - x.max(axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis, keepdims=True))


def _softplus(x, beta=1.0, threshold=20.0):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(np.minimum(beta * x, 50))) / beta)


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


X = _away_from(rand(3, 5, seed=61) * 4, (0.0,))
WIDE = _away_from(rand(4, 6, seed=62) * 6, (0.0, -3.0, 3.0, 6.0))
LOGITS = rand(2, 3, 4, seed=63) * 5
CH = _away_from(rand(2, 3, 4, seed=64) * 2, (0.0,))
SPECIAL = np.array([[np.nan, np.inf, -np.inf, -0.0, 0.0, -2.5, 3.5, 1e-30]])

CASES = [
    # softmax family (Softmax / LogSoftmax, single-axis opset-13 semantics)
    OpCase("softmax_last", lambda x: ops.softmax(x), [LOGITS], _softmax, second_order=True),
    OpCase("softmax_axis0_dynamic", lambda x: ops.softmax(x, 0), [LOGITS], lambda x: _softmax(x, 0), dynamic=True),
    OpCase("softmax_large_logits", lambda x: ops.softmax(x * 100.0, 1), [LOGITS],
           lambda x: _softmax(x * 100, 1), grad=(), note="stability: exp of 500 would overflow without the max"),
    OpCase("softmax_int_input", lambda x: ops.softmax(x), [np.array([[1, 2, 3], [0, 0, 5]], np.int64)],
           lambda x: _softmax(x.astype(np.float64))),
    OpCase("tensor_softmax_method", lambda x: x.softmax(1), [LOGITS], lambda x: _softmax(x, 1)),
    OpCase("log_softmax", lambda x: ops.log_softmax(x), [LOGITS], _log_softmax, second_order=True),
    OpCase("softmax_and_log_softmax_many_rows", lambda x: (ops.softmax(x), ops.log_softmax(x)),
           [rand(8, 10, 7, seed=66) * 5], lambda x: (_softmax(x), _log_softmax(x)), second_order=True,
           note="80 rows: the row sums take the matrix-vector path"),
    OpCase("log_softmax_axis1_large", lambda x: ops.log_softmax(x * 100.0, 1), [LOGITS],
           lambda x: _log_softmax(x * 100, 1),
           note="values near -1000 in float32 (ulp 6e-5): within 1e-6 of the output's scale"),
    OpCase("softmin", lambda x: ops.softmin(x, 1), [LOGITS], lambda x: _softmax(-x, 1)),
    # elementwise with an ONNX node
    OpCase("leaky_relu_default", lambda x: ops.leaky_relu(x), [X], lambda x: np.where(x >= 0, x, 0.2 * x),
           second_order=True),
    OpCase("leaky_relu_alpha", lambda x: ops.leaky_relu(x, 0.01), [X], lambda x: np.where(x >= 0, x, 0.01 * x)),
    *[OpCase(f"leaky_relu_special_values_alpha_{a}", lambda x, a=a: ops.leaky_relu(x, a), [SPECIAL],
             lambda x, a=a: np.where(x >= 0, x, a * x), grad=(), lower=False,
             note="onnxruntime's LeakyRelu is checked on finite values by the rows above")
      for a in (0.0, 0.2, 1.5)],
    OpCase("prelu_special_values", lambda x, w: ops.prelu(x, w), [SPECIAL, np.array([0.25])],
           lambda x, w: np.where(x >= 0, x, w * x), grad=(), lower=False),
    OpCase("elu_special_values", lambda x: ops.elu(x), [SPECIAL], lambda x: np.where(x > 0, x, np.expm1(x)),
           grad=(), lower=False),
    OpCase("prelu_channels", lambda x, w: ops.prelu(x, w), [CH, rand(3, seed=65)],
           lambda x, w: np.where(x >= 0, x, x * w[:, None]), second_order=True),
    OpCase("prelu_nc_single", lambda x, w: ops.prelu(x, w), [X, np.array([0.25])],
           lambda x, w: np.where(x >= 0, x, x * w)),
    OpCase("elu", lambda x: ops.elu(x), [X], lambda x: np.where(x > 0, x, np.expm1(x)), second_order=True),
    OpCase("elu_alpha", lambda x: ops.elu(x, 0.5), [X], lambda x: np.where(x > 0, x, 0.5 * np.expm1(x))),
    OpCase("selu", lambda x: ops.selu(x), [X], lambda x: SELU_S * np.where(x > 0, x, SELU_A * np.expm1(x)),
           second_order=True),
    OpCase("celu", lambda x: ops.celu(x, 2.0), [X], lambda x: np.maximum(0, x) + np.minimum(0, 2 * np.expm1(x / 2)),
           second_order=True),
    OpCase("hardsigmoid", lambda x: ops.hardsigmoid(x), [WIDE], lambda x: np.clip(x + 3, 0, 6) / 6,
           second_order=True),
    OpCase("hardswish", lambda x: ops.hardswish(x), [WIDE], lambda x: x * np.clip(x + 3, 0, 6) / 6,
           second_order=True, opsets=(13, 14, 18, 21)),
    OpCase("softplus", lambda x: ops.softplus(x), [X], lambda x: np.log1p(np.exp(x)), second_order=True),
    OpCase("softplus_large", lambda x: ops.softplus(x * 10.0), [X], lambda x: _softplus(x * 10),
           note="x * 10 reaches +-40: past the threshold the result is x itself"),
    OpCase("softplus_special_values", lambda x: ops.softplus(x), [SPECIAL * 40.0], lambda x: _softplus(x),
           grad=(), lower=False),
    OpCase("softplus_beta_threshold", lambda x: ops.softplus(x, 2.0, 3.0), [_away_from(X, (1.5,))],
           lambda x: _softplus(x, 2.0, 3.0), second_order=True),
    OpCase("softsign", lambda x: ops.softsign(x), [X], lambda x: x / (1 + np.abs(x)), second_order=True),
    OpCase("mish_special_values", lambda x: ops.mish(x), [SPECIAL * 40.0],
           lambda x: x * np.tanh(_softplus(x, threshold=np.inf)), grad=(), lower=False),
    OpCase("mish", lambda x: ops.mish(x), [X], lambda x: x * np.tanh(np.log1p(np.exp(x))), second_order=True,
           opsets=(13, 17, 18, 21)),
    OpCase("gelu_exact", lambda x: ops.gelu(x), [X], lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))),
           second_order=True, opsets=(13, 18, 20, 21),
           note="float32 erf is a float64 rational approximation (|err| < 1.5e-7)"),
    OpCase("gelu_exact_through_zero", lambda x: ops.gelu(x), [np.array([[-3.0, -0.5, 0.0, 0.5, 3.0, -9.0]])],
           lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), second_order=True,
           note="at 0 the gradient's Phi(x) = y / x would be 0 / 0"),
    OpCase("gelu_tanh", lambda x: ops.gelu(x, approximate="tanh"), [X], _gelu_tanh, second_order=True,
           opsets=(13, 19, 20, 21)),
    # composites
    OpCase("relu6", lambda x: ops.relu6(x), [WIDE], lambda x: np.clip(x, 0, 6)),
    OpCase("hardtanh", lambda x: ops.hardtanh(x, -2.0, 2.5), [_away_from(WIDE, (-2.0, 2.5))],
           lambda x: np.clip(x, -2, 2.5)),
    OpCase("silu", lambda x: ops.silu(x), [X], lambda x: x / (1 + np.exp(-x)), second_order=True),
    OpCase("logsigmoid", lambda x: ops.logsigmoid(x * 10.0), [X], lambda x: -np.logaddexp(0, -10 * x),
           second_order=True),
]
