"""Layer checks the layer table cannot express: LSTMCell (its state is a tuple) against a NumPy reference, by
finite differences and exported to ONNX; GRU / RNN with per-sample lengths exported with the lengths as a
graph input and a dynamic batch."""
from __future__ import annotations

import numpy as np
import onnx
import pytest

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph.compile import serialize, trace_cell
from cellonnx.graph.runtime import Session
from cellonnx.tensor import Tensor


def _sigmoid(v: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-v))


class _LSTMCellNet(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.cell = nn.LSTMCell(3, 4)

    def construct(self, x: Tensor, h: Tensor, c: Tensor) -> tuple[Tensor, Tensor]:
        return self.cell(x, (h, c))


def _arrays(dtype: type = np.float32) -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [rng.uniform(-1, 1, s).astype(dtype) for s in ((2, 3), (2, 4), (2, 4))]


def test_lstm_cell_matches_numpy() -> None:
    ms.set_seed(3)
    net = _LSTMCellNet()
    x, h, c = _arrays()
    got = [t.asnumpy() for t in net(Tensor(x), Tensor(h), Tensor(c))]
    p = {name.rsplit(".", 1)[-1]: v.asnumpy() for name, v in net.parameters_and_names()}
    gates = x @ p["weight_ih"].T + p["bias_ih"] + h @ p["weight_hh"].T + p["bias_hh"]
    i, f, g, o = np.split(gates, 4, axis=1)
    cy = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
    np.testing.assert_allclose(got[1], cy, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[0], _sigmoid(o) * np.tanh(cy), rtol=1e-5, atol=1e-6)


def test_lstm_cell_gradient_matches_finite_differences() -> None:
    ms.set_seed(3)
    net = _LSTMCellNet()
    for prm in net.get_parameters():
        prm._assign_array(prm.asnumpy().astype(np.float64))
    arrays = _arrays(np.float64)
    w = np.random.default_rng(1).normal(size=(2, 4))

    def loss(*ts: Tensor) -> Tensor:
        hy, cy = net(*ts)
        return ms.ops.sum(hy * Tensor(w)) + ms.ops.sum(cy * Tensor(2 * w))

    grads = ms.grad(loss, (0, 1, 2))(*[Tensor(a) for a in arrays])
    eps = 1e-6
    for k, (arr, g) in enumerate(zip(arrays, grads)):
        for idx in np.ndindex(arr.shape):
            old = arr[idx]
            arr[idx] = old + eps
            up = loss(*[Tensor(a) for a in arrays]).item()
            arr[idx] = old - eps
            down = loss(*[Tensor(a) for a in arrays]).item()
            arr[idx] = old
            assert g.asnumpy()[idx] == pytest.approx((up - down) / (2 * eps), rel=1e-5, abs=1e-7), (k, idx)


def test_lstm_cell_exports() -> None:
    ms.set_seed(3)
    net = _LSTMCellNet()
    net.set_inputs(Tensor(shape=(None, 3), dtype="float32"), Tensor(shape=(None, 4), dtype="float32"),
                   Tensor(shape=(None, 4), dtype="float32"))
    traced = trace_cell(net, [Tensor(a) for a in _arrays()])
    onnx.checker.check_model(traced.model, full_check=True)
    sess = Session(serialize(traced.model), "CPU")
    rng = np.random.default_rng(9)
    arrays = [rng.uniform(-1, 1, s).astype(np.float32) for s in ((5, 3), (5, 4), (5, 4))]
    got = sess.run(dict(zip(traced.input_names, arrays)))
    for g, e in zip(got, net(*[Tensor(a) for a in arrays])):
        np.testing.assert_allclose(g, e.asnumpy(), rtol=1e-5, atol=1e-6)


class _WithLengths(nn.Cell):
    def __init__(self, layer: nn.Cell) -> None:
        super().__init__()
        self.layer = layer

    def construct(self, x: Tensor, lengths: Tensor) -> tuple[Tensor, Tensor]:
        return self.layer(x, None, lengths)


@pytest.mark.parametrize("make", [lambda: nn.GRU(3, 4, bidirectional=True),
                                  lambda: nn.RNN(3, 2, num_layers=2, bidirectional=True,
                                                 nonlinearity="relu")],
                         ids=["gru", "rnn"])
@pytest.mark.parametrize("opset", [13, 21])
def test_recurrent_lengths_export(make, opset: int) -> None:
    """seq_length becomes ONNX's sequence_lens: onnxruntime equals eager at several batch sizes."""
    ms.set_seed(4)
    net = _WithLengths(make())
    net.set_inputs(Tensor(shape=(5, None, 3), dtype="float32"), Tensor(shape=(None,), dtype="int32"))
    rng = np.random.default_rng(0)
    traced = trace_cell(net, [Tensor(rng.uniform(-1, 1, (5, 2, 3)).astype(np.float32)),
                              Tensor(np.array([5, 3], np.int32))], opset)
    onnx.checker.check_model(traced.model, full_check=True)
    sess = Session(serialize(traced.model), "CPU")
    for batch in (1, 3, 4):
        x = rng.uniform(-1, 1, (5, batch, 3)).astype(np.float32)
        lengths = rng.integers(1, 6, batch).astype(np.int32)
        got = sess.run(dict(zip(traced.input_names, [x, lengths])))
        want = net(Tensor(x), Tensor(lengths))
        for g, e in zip(got, want):
            np.testing.assert_allclose(g, e.asnumpy(), rtol=1e-5, atol=1e-6)


def _stacks() -> tuple[nn.Cell, nn.Cell]:
    ms.set_seed(6)
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 12, 0.0, batch_first=True), 2,
                                nn.LayerNorm((8,)))
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 12, 0.0, norm_first=True, batch_first=True),
                                2)
    return enc, dec


def test_transformer_stacks_copy_one_new_layer() -> None:
    """As MindSpore: the layers are deep copies of one layer built from the given one's settings."""
    given = nn.TransformerEncoderLayer(8, 2, 12, 0.0)
    enc = nn.TransformerEncoder(given, 3)
    names = [p.name for p in enc.get_parameters()]
    assert names[:2] == ["layers.0.self_attn.in_proj_weight", "layers.0.self_attn.in_proj_bias"]
    w = [enc.layers[i].dense1.weight.asnumpy() for i in range(3)]
    np.testing.assert_array_equal(w[0], w[1])
    np.testing.assert_array_equal(w[0], w[2])
    assert not np.array_equal(w[0], given.dense1.weight.asnumpy())


class _EncDec(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.enc, self.dec = _stacks()

    def construct(self, src: Tensor, tgt: Tensor) -> Tensor:
        return self.dec(tgt, self.enc(src))


def test_transformer_stacks_export_and_differentiate() -> None:
    net = _EncDec()
    net.set_train(False)
    rng = np.random.default_rng(2)
    src, tgt = (rng.uniform(-1, 1, s).astype(np.float32) for s in ((2, 5, 8), (2, 4, 8)))
    net.set_inputs(Tensor(shape=(None, 5, 8), dtype="float32"), Tensor(shape=(None, 4, 8), dtype="float32"))
    traced = trace_cell(net, [Tensor(src), Tensor(tgt)])
    onnx.checker.check_model(traced.model, full_check=True)
    sess = Session(serialize(traced.model), "CPU")
    for batch in (1, 3):
        s, t = (rng.uniform(-1, 1, (batch,) + shape).astype(np.float32) for shape in ((5, 8), (4, 8)))
        np.testing.assert_allclose(sess.run(dict(zip(traced.input_names, [s, t])))[0],
                                   net(Tensor(s), Tensor(t)).asnumpy(), rtol=1e-4, atol=1e-5)
    # the gradient in the source against finite differences (float64)
    for prm in net.get_parameters():
        prm._assign_array(prm.asnumpy().astype(np.float64))
    s64, t64 = src.astype(np.float64), tgt.astype(np.float64)
    w = rng.normal(size=(2, 4, 8))
    loss = lambda a: ms.ops.sum(net(a, Tensor(t64)) * Tensor(w))
    g = ms.grad(loss)(Tensor(s64)).asnumpy()
    eps = 1e-6
    for idx in [(0, 0, 0), (1, 4, 7), (0, 2, 3), (1, 1, 5)]:
        up, down = s64.copy(), s64.copy()
        up[idx] += eps
        down[idx] -= eps
        numeric = (loss(Tensor(up)).item() - loss(Tensor(down)).item()) / (2 * eps)
        assert g[idx] == pytest.approx(numeric, rel=1e-5, abs=1e-8), idx


def test_time_distributed_both_modes() -> None:
    ms.set_seed(8)
    dense = nn.Dense(5, 2)
    x = Tensor(np.random.default_rng(3).uniform(-1, 1, (2, 3, 5)).astype(np.float32))
    step = nn.TimeDistributed(dense, time_axis=1)(x).asnumpy()
    merged = nn.TimeDistributed(dense, time_axis=1, reshape_with_axis=0)(x).asnumpy()
    want = x.asnumpy() @ dense.weight.asnumpy().T + dense.bias.asnumpy()
    np.testing.assert_allclose(step, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(merged, want, rtol=1e-5, atol=1e-6)


def test_range_is_a_constant() -> None:
    np.testing.assert_array_equal(nn.Range(1, 5, 0.5)().asnumpy(), np.arange(1, 5, 0.5, dtype=np.float32))
    assert nn.Range(5)().dtype == ms.int32


def _spd(batch: int, n: int, dtype: type = np.float64) -> np.ndarray:
    m = np.random.default_rng(batch + n).normal(size=(batch, n, n))
    return (m @ m.transpose(0, 2, 1) + n * np.eye(n)).astype(dtype)


def test_mat_det_and_inverse_match_numpy_and_differentiate() -> None:
    a = _spd(2, 4)
    np.testing.assert_allclose(nn.MatDet()(Tensor(a)).asnumpy(), np.linalg.det(a), rtol=1e-10)
    np.testing.assert_allclose(nn.MatInverse()(Tensor(a)).asnumpy(), np.linalg.inv(a), rtol=1e-9, atol=1e-12)
    # d det(A) / dA = det(A) A^-T; the Cholesky factor reads only the lower triangle, so the gradient comes
    # there (off-diagonal entries doubled): its symmetric part is the full gradient
    g = ms.grad(lambda t: nn.MatDet()(t).sum())(Tensor(a)).asnumpy()
    assert not np.triu(g, 1).any()
    np.testing.assert_allclose((g + g.transpose(0, 2, 1)) / 2,
                               np.linalg.det(a)[:, None, None] * np.linalg.inv(a).transpose(0, 2, 1),
                               rtol=1e-8)


@pytest.mark.parametrize("layer", [nn.MatDet, nn.MatInverse])
def test_mat_det_and_inverse_export(layer) -> None:
    net = layer()
    net.set_inputs(Tensor(shape=(None, 3, 3), dtype="float32"))
    traced = trace_cell(net, [Tensor(_spd(2, 3, np.float32))])
    onnx.checker.check_model(traced.model, full_check=True)
    sess = Session(serialize(traced.model), "CPU")
    x = _spd(5, 3, np.float32)
    np.testing.assert_allclose(sess.run({traced.input_names[0]: x})[0], net(Tensor(x)).asnumpy(), rtol=1e-4)


def test_embedding_lookup_thor_float16_table_and_statistics() -> None:
    ms.set_seed(2)
    layer = nn.EmbeddingLookupThor(10, 3, target="DEVICE", sparse=False)
    assert layer.embedding_table.dtype == ms.float16
    ids = Tensor(np.array([[1, 2, 2], [9, 0, 11]], np.int32))
    grad = ms.grad(lambda t: (ms.ops.cast(layer(ids), ms.float32) * t).sum(),
                   weights=layer.trainable_params())
    out = layer(ids)
    assert out.dtype == ms.float16 and tuple(out.shape) == (2, 3, 3)
    np.testing.assert_array_equal(out.asnumpy()[1, 2], 0)  # an id outside the table
    np.testing.assert_array_equal(layer.matrix_a.asnumpy(), np.bincount([1, 2, 2, 9, 0], minlength=10))
    grad(Tensor(np.ones((2, 3, 3), np.float32)))
    assert layer.matrix_g.asnumpy().shape == (3, 3) and layer.matrix_g.asnumpy().any()
