"""The layer table's test: every row of tests/nn/layer_table.py is built and run in evaluation and training
mode (shapes, dtypes, train vs eval), compared with a NumPy reference where the row names one, and
gradient-checked by central finite differences in float64 with respect to its float inputs and its
parameters. The completeness test fails when a layer class exported by cellonnx.nn has no row."""
from __future__ import annotations

import inspect
import math
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import nn
from cellonnx.tensor import Tensor
from tests.nn.layer_table import CASES, LayerCase
from tests.tolerance import assert_close, sum_rtol


def build(case: LayerCase) -> nn.Cell:
    ms.set_seed(7)
    return getattr(nn, case.layer)(**case.kwargs)


def make_inputs(case: LayerCase, dtype: Any = None) -> list[np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    return [spec.draw(rng, dtype=dtype) for spec in case.inputs]


def flat(out: Any) -> list[Tensor]:
    if isinstance(out, Tensor):
        return [out]
    result: list[Tensor] = []
    for o in out:
        result += flat(o)
    return result


def run(layer: nn.Cell, case: LayerCase, arrays: list[np.ndarray], training: bool) -> list[Tensor]:
    layer.set_train(training)
    if case.random:
        ms.set_seed(11)
    return flat(layer(*[Tensor(a) for a in arrays]))


def params_np(layer: nn.Cell) -> dict[str, np.ndarray]:
    return {name: p.asnumpy().copy() for name, p in layer.parameters_and_names()}


# ---------------------------------------------------------------- NumPy references
def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf)(x)


def ref_dense(case, p, xs, training):
    x = xs[0]
    y = x.reshape(-1, x.shape[-1]) @ p["weight"].T
    if "bias" in p:
        y = y + p["bias"]
    if case.kwargs.get("activation") == "relu":
        y = np.maximum(y, 0)
    return [y.reshape(x.shape[:-1] + (y.shape[-1],))]


def ref_norm(case, p, xs, training):
    axis = case.kwargs.get("axis", ())
    axis = None if axis == () else axis
    y = np.sqrt(np.sum(xs[0] ** 2, axis=axis, keepdims=True))
    return [y if case.kwargs.get("keep_dims") else np.squeeze(y, axis)]


def ref_clip_by_norm(case, p, xs, training):
    x, c = xs
    n = np.sqrt(np.sum(x ** 2, axis=case.kwargs.get("axis"), keepdims=True))
    return [x * c / np.maximum(n, c)]


def ref_avg_pool_same(case, p, xs, training):
    x = xs[0]
    k, s = case.kwargs["kernel_size"], case.kwargs["stride"]
    n, c, h, w = x.shape
    oh, ow = -(-h // s), -(-w // s)
    top = max((oh - 1) * s + k - h, 0) // 2
    left = max((ow - 1) * s + k - w, 0) // 2
    y = np.zeros((n, c, oh, ow), x.dtype)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s - top, j * s - left
            win = x[:, :, max(r0, 0):min(r0 + k, h), max(c0, 0):min(c0 + k, w)]
            y[:, :, i, j] = win.mean(axis=(2, 3))
    return [y]


def ref_batch_norm(case, p, xs, training):
    x = xs[0]
    axes = tuple(i for i in range(x.ndim) if i != 1)
    shape = [1] * x.ndim
    shape[1] = -1
    eps = case.kwargs.get("eps", 1e-5)
    use_batch = case.kwargs.get("use_batch_statistics")
    use_batch = training if use_batch is None else use_batch
    if use_batch:
        mean, var = x.mean(axes), x.var(axes)
    else:
        mean, var = p["moving_mean"], p["moving_variance"]
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
    return [y * p["gamma"].reshape(shape) + p["beta"].reshape(shape)]


def ref_layer_norm(case, p, xs, training):
    x = xs[0]
    begin = case.kwargs.get("begin_norm_axis", -1) % x.ndim
    axes = tuple(range(begin, x.ndim))
    eps = case.kwargs.get("epsilon", 1e-7)
    y = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + eps)
    return [y * p["gamma"] + p["beta"]]


def ref_group_norm(case, p, xs, training):
    x = xs[0]
    n, c = x.shape[:2]
    g = case.kwargs["num_groups"]
    xg = x.reshape(n, g, -1)
    y = ((xg - xg.mean(-1, keepdims=True)) / np.sqrt(xg.var(-1, keepdims=True) + 1e-5)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return [y * p["gamma"].reshape(shape) + p["beta"].reshape(shape)]


def ref_instance_norm(case, p, xs, training):
    x = xs[0]
    axes = tuple(range(2, x.ndim))
    y = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-5)
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    return [y * p["gamma"].reshape(shape) + p["beta"].reshape(shape)]


def ref_embedding(case, p, xs, training):
    table = p["embedding_table"]
    if case.kwargs.get("padding_idx") is not None:
        assert not table[case.kwargs["padding_idx"]].any(), "padding_idx row must start as zeros"
    return [table[xs[0]]]


def ref_lstm(case, p, xs, training):
    kw = case.kwargs
    hidden, layers = kw["hidden_size"], kw.get("num_layers", 1)
    dirs = 2 if kw.get("bidirectional") else 1
    x = xs[0].transpose(1, 0, 2) if kw.get("batch_first") else xs[0]
    hs, cs = [], []
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            sfx = f"l{layer}" + ("_reverse" if d else "")
            wih, whh = p[f"weight_ih_{sfx}"], p[f"weight_hh_{sfx}"]
            b = p.get(f"bias_ih_{sfx}", 0) + p.get(f"bias_hh_{sfx}", 0)
            h = np.zeros((x.shape[1], hidden), x.dtype)
            c = np.zeros_like(h)
            seq = range(x.shape[0] - 1, -1, -1) if d else range(x.shape[0])
            out = np.zeros((x.shape[0], x.shape[1], hidden), x.dtype)
            for t in seq:
                gates = x[t] @ wih.T + h @ whh.T + b
                i, f, g, o = np.split(gates, 4, axis=1)
                c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
                h = _sigmoid(o) * np.tanh(c)
                out[t] = h
            outs.append(out)
            hs.append(h)
            cs.append(c)
        x = np.concatenate(outs, axis=2)
    out = x.transpose(1, 0, 2) if kw.get("batch_first") else x
    return [out, np.stack(hs), np.stack(cs)]


def _elementwise(fn: Callable[[np.ndarray], np.ndarray]) -> Callable:
    return lambda case, p, xs, training: [fn(xs[0])]


def ref_prelu(case, p, xs, training):
    x = xs[0]
    w = p["w"].reshape((1, -1) + (1,) * (x.ndim - 2)) if p["w"].size > 1 else p["w"]
    return [np.where(x >= 0, x, w * x)]


def ref_softmax(case, p, xs, training):
    axis = case.kwargs.get("axis", -1)
    e = np.exp(xs[0] - xs[0].max(axis, keepdims=True))
    return [e / e.sum(axis, keepdims=True)]


def ref_log_softmax(case, p, xs, training):
    x = xs[0]
    m = x.max(-1, keepdims=True)
    return [x - m - np.log(np.exp(x - m).sum(-1, keepdims=True))]


REFERENCES: dict[str, Callable] = {
    "dense": ref_dense, "norm": ref_norm, "clip_by_norm": ref_clip_by_norm, "avg_pool_same": ref_avg_pool_same,
    "batch_norm": ref_batch_norm, "layer_norm": ref_layer_norm, "group_norm": ref_group_norm,
    "instance_norm": ref_instance_norm, "embedding": ref_embedding, "lstm": ref_lstm, "prelu": ref_prelu,
    "softmax": ref_softmax, "log_softmax": ref_log_softmax,
    "relu": _elementwise(lambda x: np.maximum(x, 0)),
    "relu6": _elementwise(lambda x: np.clip(x, 0, 6)),
    "gelu_tanh": _elementwise(lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
    "gelu_exact": _elementwise(lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2)))),
    "sigmoid": _elementwise(_sigmoid),
    "tanh": _elementwise(np.tanh),
    "leaky_relu": None,  # filled below: needs the row's alpha
    "silu": _elementwise(lambda x: x * _sigmoid(x)),
    "hswish": _elementwise(lambda x: x * np.clip(x + 3, 0, 6) / 6),
}
REFERENCES["leaky_relu"] = lambda case, p, xs, training: [
    np.where(xs[0] >= 0, xs[0], case.kwargs.get("alpha", 0.2) * xs[0])]


# ---------------------------------------------------------------- the tests
def test_case_names_unique() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


# layers whose inputs a table row cannot express, with the test that covers them instead
COVERED_ELSEWHERE: dict[str, str] = {
    "LSTMCell": "its state is the tuple (h, c): tests/nn/test_layers_more.py",
    "TransformerEncoder": "built from a layer instance: tests/nn/test_layers_more.py",
    "TransformerDecoder": "built from a layer instance: tests/nn/test_layers_more.py",
    "TimeDistributed": "built from a layer instance: tests/nn/test_layers_more.py",
    "Range": "takes no input (a constant): tests/nn/test_layers_more.py",
    "MatDet": "needs positive-definite inputs: tests/nn/test_layers_more.py",
    "MatInverse": "needs positive-definite inputs: tests/nn/test_layers_more.py",
    "EmbeddingLookupThor": "its table is float16: tests/nn/test_layers_more.py",
}


def test_every_layer_has_a_row() -> None:
    exported = {name for name in nn.layer.__all__
                if inspect.isclass(getattr(nn, name)) and issubclass(getattr(nn, name), nn.Cell)}
    missing = sorted(exported - {c.layer for c in CASES} - set(COVERED_ELSEWHERE))
    assert not missing, f"layer classes exported by cellonnx.nn with no row in tests/nn/layer_table.py: {missing}"


def test_every_reference_exists() -> None:
    unknown = sorted({c.ref for c in CASES if c.ref} - set(REFERENCES))
    assert not unknown, f"rows name references that test_layers.py does not define: {unknown}"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_forward(case: LayerCase) -> None:
    layer = build(case)
    arrays = make_inputs(case)
    outs = {}
    for training in (False, True):
        got = run(layer, case, arrays, training)
        assert [tuple(o.shape) for o in got] == [tuple(s) for s in case.out_shapes], \
            f"{case.name} (training={training}): output shapes"
        for o in got:
            assert o.dtype == ms.float32, f"{case.name}: output dtype {o.dtype}, expected Float32"
        outs[training] = [o.asnumpy() for o in got]
    differs = any(not np.allclose(a, b, atol=1e-6) for a, b in zip(outs[False], outs[True]))
    assert differs == case.train_differs, \
        f"{case.name}: training output {'equals' if not differs else 'differs from'} the evaluation output"
    if case.ref:
        for training in (False, True):
            if training and case.random:
                continue
            fresh = build(case)
            p = params_np(fresh)
            for name, value in list(p.items()):
                p[name.rsplit(".", 1)[-1]] = value
            expected = REFERENCES[case.ref](case, p, arrays, training)
            got = [o.asnumpy() for o in run(fresh, case, arrays, training)]
            for i, (g, e) in enumerate(zip(got, expected)):
                # 1e-5 of the scale (at least 1): float32 sums of up to ~400 terms (sum_rtol(400) = 9.5e-6)
                assert_close(g, e, rtol=1e-5, scale_rtol=1e-5, min_scale=1.0,
                             what=f"{case.name} output {i} (training={training})")


def test_batch_norm_moving_statistics_follow_mindspore_momentum() -> None:
    """moving = momentum * moving + (1 - momentum) * batch, with the unbiased batch variance."""
    bn = nn.BatchNorm2d(3, momentum=0.8)
    x = np.random.default_rng(0).normal(size=(4, 3, 2, 2)).astype(np.float32)
    bn.set_train(True)
    bn(Tensor(x))
    axes = (0, 2, 3)
    assert_close(bn.moving_mean.asnumpy(), 0.2 * x.mean(axes), rtol=1e-5, scale_rtol=sum_rtol(16))
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.8 + 0.2 * x.var(axes, ddof=1), rtol=1e-5)
    assert bn.momentum == pytest.approx(0.2)  # MindSpore stores 1 - momentum
    bn.set_train(False)
    mm = bn.moving_mean.asnumpy().copy()
    bn(Tensor(x))
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), mm)


def _to_float64(layer: nn.Cell) -> None:
    for p in layer.get_parameters():
        p._assign_array(p.asnumpy().astype(np.float64))


@pytest.mark.parametrize("case", [c for c in CASES if c.grad], ids=str)
def test_gradient(case: LayerCase) -> None:
    layer = build(case)
    _to_float64(layer)
    training = case.train_differs
    layer.set_train(training)
    arrays = make_inputs(case, np.float64)
    positions = tuple(i for i, a in enumerate(arrays) if a.dtype.kind == "f")
    rng = np.random.default_rng(3)
    with ms.no_grad():
        outs = flat(layer(*[Tensor(a) for a in arrays]))
    weights_out = [rng.normal(size=o.shape) for o in outs]
    params = layer.trainable_params()

    def loss_np(arrs: list[np.ndarray]) -> float:
        if case.random:
            ms.set_seed(11)
        with ms.no_grad():
            got = flat(layer(*[Tensor(a) for a in arrs]))
        return float(sum(np.sum(o.asnumpy() * w) for o, w in zip(got, weights_out)))

    def loss(*xs: Tensor) -> Tensor:
        full = [Tensor(a) for a in arrays]
        for pos, x in zip(positions, xs):
            full[pos] = x
        if case.random:
            ms.set_seed(11)
        total = None
        for o, w in zip(flat(layer(*full)), weights_out):
            term = ms.ops.sum(o * Tensor(w))
            total = term if total is None else total + term
        return total

    _, (g_in, g_w) = ms.value_and_grad(loss, grad_position=tuple(range(len(positions))), weights=params)(
        *[Tensor(arrays[i]) for i in positions])
    if isinstance(g_in, Tensor):  # one position: MindSpore returns its gradient bare
        g_in = (g_in,)
    eps = 1e-6
    targets = [(arrays[pos], g.asnumpy(), f"input {pos}") for pos, g in zip(positions, g_in)]
    targets += [(p.asnumpy(), g.asnumpy(), f"parameter {p.name}") for p, g in zip(params, g_w)]
    for arr, analytic, what in targets:
        flat_idx = rng.permutation(arr.size)[:25]
        for k in flat_idx:
            idx = np.unravel_index(k, arr.shape)
            old = arr[idx]
            arr[idx] = old + eps
            up = loss_np(arrays)
            arr[idx] = old - eps
            down = loss_np(arrays)
            arr[idx] = old
            numeric = (up - down) / (2 * eps)
            assert analytic[idx] == pytest.approx(numeric, rel=1e-4, abs=1e-6), \
                f"{case.name}: d loss / d {what}{list(idx)}: analytic {analytic[idx]}, numeric {numeric}"
