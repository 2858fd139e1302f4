"""ops.lstm traced once with a dynamic sequence axis (and batch), then run by onnxruntime at other sequence
lengths against eager; plus the graph's shape (one ONNX LSTM node per layer) and the error messages."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from cellonnx import ops
from cellonnx.graph.trace import trace
from cellonnx.tensor import Parameter, Tensor
from tests.ops.cases_rnn import lstm_weights, ref_lstm
from tests.tolerance import assert_close, sum_rtol

IN, HID = 3, 4


def _lstm_rtol(steps: int, num_layers: int) -> float:
    """Each gate sums IN + HID products and two biases per step; the recurrence carries the rounding along
    every step of every layer, so the whole run rounds like one sum of that many terms."""
    return sum_rtol((IN + HID + 2) * steps * num_layers)


def _params(num_layers: int, bidirectional: bool) -> list[Parameter]:
    names = []
    for k in range(num_layers):
        for sfx in ([""] + (["_reverse"] if bidirectional else [])):
            names += [f"{w}_l{k}{sfx}" for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    arrays = lstm_weights(num_layers, bidirectional, IN, HID, seed=21)
    return [Parameter(a.astype(np.float32), name=f"lstm.{n}") for n, a in zip(names, arrays)]


def _session(model: onnx.ModelProto) -> ort.InferenceSession:
    onnx.checker.check_model(model, full_check=True)
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("opset", [13, 21])
@pytest.mark.parametrize("num_layers,bidirectional", [(1, False), (2, True)])
def test_sequence_axis_stays_dynamic(opset: int, num_layers: int, bidirectional: bool) -> None:
    params = _params(num_layers, bidirectional)
    n_dir = 2 if bidirectional else 1

    def fn(x: Tensor, h0: Tensor, c0: Tensor):
        return ops.lstm(x, (h0, c0), params, num_layers, bidirectional)

    rng = np.random.default_rng(0)
    example = [rng.standard_normal(s).astype(np.float32) for s in
               ((4, 2, IN), (num_layers * n_dir, 2, HID), (num_layers * n_dir, 2, HID))]
    g, _ = trace(fn, [("x", Tensor(example[0]), [None, None, IN]),
                      ("h0", Tensor(example[1]), [num_layers * n_dir, None, HID]),
                      ("c0", Tensor(example[2]), [num_layers * n_dir, None, HID])],
                 params=[(p.name, p) for p in params], opset=opset)
    model = g.model()
    assert [n.op_type for n in model.graph.node].count("LSTM") == num_layers
    assert {i.name for i in model.graph.initializer} >= {p.name for p in params}
    sess = _session(model)
    for steps, batch in ((5, 2), (9, 3), (1, 1)):
        x = rng.standard_normal((steps, batch, IN)).astype(np.float32)
        h0 = rng.standard_normal((num_layers * n_dir, batch, HID)).astype(np.float32)
        c0 = rng.standard_normal((num_layers * n_dir, batch, HID)).astype(np.float32)
        got = sess.run(None, {"x": x, "h0": h0, "c0": c0})
        out, (h, c) = ops.lstm(Tensor(x), (Tensor(h0), Tensor(c0)), params, num_layers, bidirectional)
        want = ref_lstm(x.astype(np.float64), (h0, c0), [p.asnumpy().astype(np.float64) for p in params],
                        num_layers, bidirectional, False)
        for o, e, r in zip(got, (out, h, c), want):
            assert o.shape == e.shape == r.shape
            tol = _lstm_rtol(steps, num_layers)
            assert_close(o, e.asnumpy(), rtol=1e-5, scale_rtol=tol, what=f"onnxruntime, {steps} steps")
            assert_close(e.asnumpy(), r, rtol=1e-5, scale_rtol=tol, what=f"eager, {steps} steps")


def test_batch_first_without_initial_state_dynamic() -> None:
    params = _params(1, True)
    g, _ = trace(lambda x: ops.lstm(x, None, params, 1, True, True),
                 [("x", Tensor(np.zeros((2, 4, IN), np.float32)), [None, None, IN])],
                 params=[(p.name, p) for p in params], opset=18)
    sess = _session(g.model())
    x = np.random.default_rng(1).standard_normal((3, 7, IN)).astype(np.float32)
    got = sess.run(None, {"x": x})
    out, (h, c) = ops.lstm(Tensor(x), None, params, 1, True, True)
    for o, e in zip(got, (out, h, c)):
        assert_close(o, e.asnumpy(), rtol=1e-5, scale_rtol=_lstm_rtol(7, 1), what="onnxruntime")
    assert got[0].shape == (3, 7, 2 * HID)


def test_errors_name_the_op_and_the_shapes() -> None:
    params = _params(1, False)
    x = Tensor(np.zeros((5, 2, IN), np.float32))
    with pytest.raises(ValueError, match=r"ops.lstm: got 3 weights for num_layers=1"):
        ops.lstm(x, None, params[:3])
    with pytest.raises(ValueError, match=r"ops.lstm: weight_ih_l1 has shape \(16,\), expected \(16, 4\)"):
        ops.lstm(x, None, params, 2)  # read as two layers without bias
    with pytest.raises(ValueError, match=r"h0 has shape \(1, 3, 4\), expected \(1, 2, 4\)"):
        h = Tensor(np.zeros((1, 3, HID), np.float32))
        ops.lstm(x, (h, h), params)
    with pytest.raises(ValueError, match=r"input must be 3-D"):
        ops.lstm(Tensor(np.zeros((5, IN), np.float32)), None, params)
    with pytest.raises(ValueError, match=r"ops.lstm: weight_ih_l0 has shape \(16, 3\), expected \(16, 5\)"):
        ops.lstm(Tensor(np.zeros((5, 2, 5), np.float32)), None, params)
    with pytest.raises(TypeError, match=r"share one float dtype"):
        ops.lstm(Tensor(np.zeros((5, 2, IN))), None, params)


def test_dropout_between_layers_only_in_training() -> None:
    params = _params(2, False)
    x = Tensor(np.random.default_rng(2).standard_normal((6, 3, IN)).astype(np.float32))
    eval_out, _ = ops.lstm(x, None, params, 2, dropout=0.5, training=False)
    plain, _ = ops.lstm(x, None, params, 2)
    np.testing.assert_array_equal(eval_out.asnumpy(), plain.asnumpy())
    train_out, (h, _) = ops.lstm(x, None, params, 2, dropout=0.5, training=True)
    assert train_out.shape == plain.shape and h.shape == (2, 3, HID)
    assert not np.allclose(train_out.asnumpy(), plain.asnumpy())
    grads = ops.grad(lambda *w: ops.sum(ops.lstm(x, None, list(w), 2, dropout=0.5, training=True)[0]),
                     grad_position=tuple(range(len(params))))(*params)
    assert all(np.isfinite(gr.asnumpy()).all() for gr in grads)
