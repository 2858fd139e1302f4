"""mx.nd.contrib's operators and control flow against real MXNet 1.9.1 (rows: contrib_cases.py and
contrib_flow_cases.py; fixture: tests/fixtures/mxnet/contrib.npz written by gen_contrib.py), the
differentiable ones also against central finite differences in float64, and hybridized blocks using them
against onnxruntime."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet import autograd, nd
from tests.mxnet import contrib_cases, contrib_flow_cases, nd_cases
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "contrib.npz"
WANT = dict(np.load(FIXTURE))


def _nd(values: list[Any]) -> list[Any]:
    return [_nd(v) if isinstance(v, list) else nd.array(v, dtype=v.dtype) if isinstance(v, np.ndarray) else v
            for v in values]


@pytest.mark.parametrize("case", contrib_cases.CASES, ids=[c[0] for c in contrib_cases.CASES])
def test_operator_matches_mxnet(case: tuple) -> None:
    case_id, op, args, kwargs, flags = case
    arrays = _nd(contrib_cases.make(case_id, args))
    floats = contrib_cases.floats(args)
    want_grad = flags.get("grad", True)
    for i in floats if want_grad else ():
        arrays[i].attach_grad()
    if "out" in flags:
        kwargs = {**kwargs, "out": arrays[flags["out"]]}
    with autograd.record():
        out = getattr(nd.contrib, op)(*arrays, **kwargs)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        if want_grad:
            loss = sum((o * nd.array(nd_cases.weights(case_id, o.shape))).sum() for o in outs)
    assert len(outs) == len([k for k in WANT if k.startswith(f"{case_id}/out/")])
    for i, o in enumerate(outs):
        _compare(o, WANT[f"{case_id}/out/{i}"], f"{case_id} output {i}", flags.get("rtol", 1e-6))
    if want_grad:
        loss.backward()
        for i in floats:
            assert_close(arrays[i].grad.asnumpy(), WANT[f"{case_id}/grad/{i}"], rtol=1e-5, scale_rtol=1e-6,
                         what=f"{case_id} gradient of argument {i}")
    for key in (k for k in WANT if k.startswith(f"{case_id}/arg/")):
        i, j = (int(p) for p in key.split("/")[2:])
        value = arrays[i][j] if isinstance(arrays[i], list) else arrays[i]
        _compare(value, WANT[key], f"{case_id} argument {i}[{j}] after the call", flags.get("rtol", 1e-6))


def _compare(got: Any, want: np.ndarray, what: str, rtol: float) -> None:
    assert isinstance(got, nd.NDArray), f"{what} is {type(got).__name__}"
    assert got.shape == want.shape and got.dtype == want.dtype, (
        f"{what}: {got.shape} {got.dtype}, MXNet {want.shape} {want.dtype}")
    np.testing.assert_array_equal(np.isnan(got.asnumpy()), np.isnan(want))
    rtol = max(rtol, 1e-3) if want.dtype == np.float16 else rtol
    assert_close(np.nan_to_num(got.asnumpy()), np.nan_to_num(want), rtol=rtol, scale_rtol=rtol, what=what)


# the differentiable rows whose gradient is the derivative of the forward (not the straight-through ones)
_SMOOTH = ["index_copy", "boolean_mask", "quadratic"]


@pytest.mark.parametrize("case_id", _SMOOTH)
def test_gradient_matches_finite_differences(case_id: str) -> None:
    _, op, args, kwargs, _ = next(c for c in contrib_cases.CASES if c[0] == case_id)
    values = [v.astype(np.float64) if isinstance(v, np.ndarray) else v
              for v in contrib_cases.make(case_id, args)]
    floats = contrib_cases.floats(args)
    fn = getattr(nd.contrib, op)

    def loss(vals: list[Any]) -> float:
        out = fn(*[nd.array(v, dtype=v.dtype) if isinstance(v, np.ndarray) else v for v in vals], **kwargs)
        return float((out.asnumpy() * nd_cases.weights(case_id, out.shape)).sum())

    arrays = [nd.array(v, dtype=v.dtype) if isinstance(v, np.ndarray) else v for v in values]
    for i in floats:
        arrays[i].attach_grad()
    with autograd.record():
        out = fn(*arrays, **kwargs)
        total = (out * nd.array(nd_cases.weights(case_id, out.shape), dtype=np.float64)).sum()
    total.backward()
    for i in floats:
        numeric = np.zeros_like(values[i])
        for j in np.ndindex(values[i].shape):
            up = [v.copy() if isinstance(v, np.ndarray) else v for v in values]
            down = [v.copy() if isinstance(v, np.ndarray) else v for v in values]
            up[i][j] += 1e-6
            down[i][j] -= 1e-6
            numeric[j] = (loss(up) - loss(down)) / 2e-6
        assert_close(arrays[i].grad.asnumpy(), numeric, rtol=1e-6, scale_rtol=1e-7,
                     what=f"{case_id} gradient of argument {i}")


@pytest.mark.parametrize("case", contrib_flow_cases.CASES, ids=[c[0] for c in contrib_flow_cases.CASES])
def test_control_flow_matches_mxnet(case: tuple) -> None:
    case_id, fn = case
    got = contrib_flow_cases.run(mx, fn)
    keys = sorted((k for k in WANT if k.startswith(f"flow/{case_id}/")),
                  key=lambda k: int(k.rsplit("/", 1)[1]))
    assert len(got) == len(keys), f"{case_id}: {len(got)} arrays, MXNet {len(keys)}"
    for i, (g, key) in enumerate(zip(got, keys)):
        want = WANT[key]
        assert g.shape == want.shape and g.dtype == want.dtype, f"{case_id} [{i}]: {g.shape} {g.dtype}"
        assert_close(g, want, rtol=1e-6, scale_rtol=1e-6, what=f"{case_id} array {i}")


def test_control_flow_result_types() -> None:
    x = nd.array([[1.0, 2.0], [3.0, 4.0]])
    outs, states = nd.contrib.foreach(lambda d, s: (d + s, s * 2), x, nd.ones(2))
    assert isinstance(outs, nd.NDArray) and isinstance(states, nd.NDArray)
    with pytest.raises(ValueError, match="max_iterations"):
        nd.contrib.while_loop(lambda v: v < 3, lambda v: (v, v + 1), nd.zeros(1))
    assert mx.sym.contrib.foreach is nd.contrib.foreach


class _Loop(mx.gluon.HybridBlock):
    def hybrid_forward(self, F: Any, x: Any) -> Any:
        step = lambda d, states: (F.relu(d) * states[0], [states[0] + 1])
        outs, _ = F.contrib.foreach(step, x, [F.ones_like(x[0])])
        picked = F.contrib.cond(x.sum() > 0, lambda: outs * 2, lambda: outs - 1)
        moved = F.contrib.index_copy(picked, F.zeros((1,)), F.contrib.round_ste(x[1:2]))
        return F.contrib.quadratic(moved, a=0.5, b=1.0) + F.contrib.isfinite(x)


@pytest.mark.parametrize("rows", [3, 5])
def test_hybridized_matches_eager_and_onnxruntime(tmp_path: Path, rows: int) -> None:
    """foreach traces to an ONNX Scan over any number of steps, cond to an If holding both branches."""
    import onnxruntime as ort

    import cellonnx

    rng = np.random.default_rng(rows)
    net = _Loop()
    net.initialize()
    net.hybridize()
    net(nd.array(rng.normal(size=(4, 4)).astype(np.float32)))  # traced on 4 rows
    path = tmp_path / "loop.onnx"
    cellonnx.export(net, cellonnx.Tensor(shape=(None, 4), dtype=cellonnx.float32), file_name=str(path),
                    file_format="ONNX")
    session = ort.InferenceSession(str(path))
    for sign in (1.0, -1.0):
        x = np.abs(rng.normal(size=(rows, 4)).astype(np.float32)) * sign
        eager = _Loop()(nd.array(x)).asnumpy()
        assert_close(net(nd.array(x)).asnumpy(), eager, rtol=1e-6, scale_rtol=1e-6, what="hybridized")
        got = session.run(None, {session.get_inputs()[0].name: x})[0]
        assert_close(got, eager, rtol=1e-6, scale_rtol=1e-6, what="onnxruntime")
