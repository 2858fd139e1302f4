"""Property tests over random shapes: broadcasting binary ops, reductions, and graphs exported with a dynamic
batch dimension.

Each property is checked against NumPy written out here (values, and the gradient rule: a broadcast input's
gradient is the upstream gradient summed over the axes it was broadcast along). Bounded: 50 examples each,
no per-example deadline, no example database written to the working tree.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import onnxruntime as ort
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

from cellonnx import ops
from cellonnx.graph.trace import trace
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close, sum_rtol

SETTINGS = settings(max_examples=50, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _reduce_to(g: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum a broadcast gradient back to ``shape``: over the leading axes, then over axes where shape has 1."""
    g = g.sum(axis=tuple(range(g.ndim - len(shape)))) if g.ndim > len(shape) else g
    axes = tuple(i for i, (n, m) in enumerate(zip(shape, g.shape)) if n == 1 and m != 1)
    return g.sum(axis=axes, keepdims=True) if axes else g


# op name -> (cellonnx fn, numpy fn, d out / d a, d out / d b) for upstream weights w
BINARY: dict[str, tuple[Callable, Callable, Callable, Callable]] = {
    "add": (ops.add, np.add, lambda a, b, w: w, lambda a, b, w: w),
    "sub": (ops.sub, np.subtract, lambda a, b, w: w, lambda a, b, w: -w),
    "mul": (ops.mul, np.multiply, lambda a, b, w: w * b, lambda a, b, w: w * a),
    "div": (ops.div, np.divide, lambda a, b, w: w / b, lambda a, b, w: -w * a / (b * b)),
    "maximum": (ops.maximum, np.maximum, lambda a, b, w: w * (a >= b), lambda a, b, w: w * (a < b)),
    "pow": (ops.pow, np.power, lambda a, b, w: w * b * a ** (b - 1), lambda a, b, w: w * a ** b * np.log(a)),
}


@SETTINGS
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4),
       op=st.sampled_from(sorted(BINARY)), seed=st.integers(0, 2 ** 16))
def test_broadcasting_binary_ops(shapes, op, seed) -> None:
    (sa, sb), out_shape = shapes.input_shapes, shapes.result_shape
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.5, 2.0, sa)                 # positive: div and pow stay smooth
    b = rng.uniform(0.5, 2.0, sb) * rng.choice([-1.0, 1.0], sb) if op != "pow" else rng.uniform(-1.0, 1.0, sb)
    w = rng.standard_normal(out_shape)
    fn, np_fn, da, db = BINARY[op]

    got = fn(Tensor(a.astype(np.float32)), Tensor(b.astype(np.float32)))
    assert got.shape == out_shape and got.asnumpy().dtype == np.float32
    assert_close(got.asnumpy(), np_fn(a, b), rtol=1e-5, scale_rtol=1e-6, min_scale=1.0)  # operands up to 2

    _, (ga, gb) = ops.value_and_grad(lambda x, y: ops.sum(fn(x, y) * Tensor(w)), grad_position=(0, 1))(
        Tensor(a), Tensor(b))
    assert ga.shape == sa and gb.shape == sb
    ba, bb = np.broadcast_to(a, out_shape), np.broadcast_to(b, out_shape)
    np.testing.assert_allclose(ga.asnumpy(), _reduce_to(da(ba, bb, w), sa), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(gb.asnumpy(), _reduce_to(db(ba, bb, w), sb), rtol=1e-9, atol=1e-12)


def _expected_reduction_grad(name: str, x: np.ndarray, axes: tuple | None, w: np.ndarray) -> np.ndarray:
    """The gradient of sum(reduce(x) * w) w.r.t. x, from the definition of each reduction."""
    keep = np.sum(x, axis=axes, keepdims=True)
    wk = w.reshape(keep.shape)                      # the upstream weights with the reduced axes kept as 1
    if name == "sum":
        return np.broadcast_to(wk, x.shape)
    if name == "mean":
        return np.broadcast_to(wk / (x.size // keep.size), x.shape)
    if name == "prod":
        return wk * np.prod(x, axis=axes, keepdims=True) / x
    extreme = (np.max if name == "amax" else np.min)(x, axis=axes, keepdims=True)
    hit = (x == extreme).astype(np.float64)         # ties share the gradient equally (MindSpore's rule)
    return wk * hit / hit.sum(axis=axes, keepdims=True)


REDUCTIONS = {"sum": (ops.sum, np.sum), "mean": (ops.mean, np.mean), "amax": (ops.amax, np.max),
              "amin": (ops.amin, np.min), "prod": (ops.prod, np.prod)}


@st.composite
def _shape_and_axes(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    which = draw(st.one_of(st.none(), st.lists(st.integers(0, len(shape) - 1), min_size=1, unique=True)))
    if which is not None and draw(st.booleans()):
        which = [a - len(shape) for a in which]      # negative axes too
    return shape, None if which is None else tuple(which)


@SETTINGS
@given(case=_shape_and_axes(), name=st.sampled_from(sorted(REDUCTIONS)), keep=st.booleans(),
       seed=st.integers(0, 2 ** 16))
def test_reductions(case, name, keep, seed) -> None:
    shape, axes = case
    rng = np.random.default_rng(seed)
    if name in ("amax", "amin"):
        x = rng.integers(-3, 4, shape).astype(np.float64)   # small integers: ties are frequent
    else:
        x = rng.uniform(0.5, 1.5, shape)                    # away from zero: prod's gradient is prod / x
    fn, np_fn = REDUCTIONS[name]
    np_axes = None if axes is None else tuple(a % len(shape) for a in axes)

    def call(t: Tensor) -> Tensor:
        return fn(t, axes, keep) if name != "sum" else fn(t, axes, keepdim=keep)

    want = np_fn(x, axis=np_axes, keepdims=keep)
    got = call(Tensor(x.astype(np.float32)))
    assert got.shape == want.shape and got.asnumpy().dtype == np.float32
    assert_close(got.asnumpy(), want, rtol=1e-5, scale_rtol=sum_rtol(x.size // max(want.size, 1)), what=name)

    w = rng.standard_normal(want.shape)
    _, g = ops.value_and_grad(lambda t: ops.sum(call(t) * Tensor(w)))(Tensor(x))
    assert g.shape == shape
    np.testing.assert_allclose(g.asnumpy(), _expected_reduction_grad(name, x, np_axes, w), rtol=1e-9, atol=1e-12)


# ---------------------------------------------------------------- dynamic batch
def _setitem_shift(t: Tensor) -> Tensor:
    y = t * 1.0
    y[1:] = y[:-1] * 2.0
    y[:, 0] = 0.5
    return y


def _setitem_shift_ref(x: np.ndarray) -> np.ndarray:
    y = x.copy()
    y[1:] = y[:-1] * 2.0
    y[:, 0] = 0.5
    return y


# functions over a (batch, 3, 5) input, exported once with the batch dynamic, and their NumPy references
DYNAMIC: dict[str, tuple[Callable, Callable]] = {
    "slice_from_end": (lambda t: t[:-1, :, ::2], lambda x: x[:-1, :, ::2]),
    "last_row_symbolic": (lambda t: t[t.shape[0] - 1], lambda x: x[-1]),
    "reverse": (lambda t: t[::-1, 1], lambda x: x[::-1, 1]),
    "int_array": (lambda t: t[:, [2, 0], 1:], lambda x: x[:, [2, 0], 1:]),
    "pad_reflect": (lambda t: ops.pad(t, (1, 2), mode="reflect"),
                    lambda x: np.pad(x, [(0, 0), (0, 0), (1, 2)], mode="reflect")),
    "concat_flip": (lambda t: ops.concat([t, ops.flip(t, 0)], 0), lambda x: np.concatenate([x, x[::-1]], 0)),
    "sort_batch": (lambda t: ops.sort(t, 0)[0], lambda x: np.sort(x, 0)),
    "cumsum_batch": (lambda t: ops.cumsum(t, 0), lambda x: np.cumsum(x, 0)),
    "logsumexp_batch": (lambda t: ops.logsumexp(t, 0), lambda x: np.log(np.exp(x).sum(0))),
    "setitem": (_setitem_shift, _setitem_shift_ref),
}


@cache
def _session(name: str, opset: int) -> ort.InferenceSession:
    example = Tensor(np.zeros((4, 3, 5), np.float32))
    g, _ = trace(DYNAMIC[name][0], [("x", example, [None, 3, 5])], opset=opset)
    return ort.InferenceSession(g.model().SerializeToString(), providers=["CPUExecutionProvider"])


@SETTINGS
@given(name=st.sampled_from(sorted(DYNAMIC)), batch=st.integers(2, 9), opset=st.sampled_from([13, 18, 21]),
       seed=st.integers(0, 2 ** 16))
def test_dynamic_batch_graphs(name, batch, opset, seed) -> None:
    """Graphs traced at batch 4 with the batch declared dynamic compute the right thing at any batch."""
    x = np.random.default_rng(seed).standard_normal((batch, 3, 5)).astype(np.float32)
    (got,) = _session(name, opset).run(None, {"x": x})
    want = DYNAMIC[name][1](x.astype(np.float64))
    assert got.shape == want.shape
    assert_close(got, want, rtol=1e-5, scale_rtol=1e-5, min_scale=1.0, what=name)
