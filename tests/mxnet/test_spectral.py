"""mx.nd.contrib fft / ifft / count_sketch. MXNet 1.9.1 runs them on GPU only (no CPU fixture), so they are
checked against float64 NumPy references that follow MXNet's source (fft-inl.h, ifft-inl.h,
count_sketch.cu): numpy.fft with the interleaved layout, ifft unnormalised; their gradients against
central finite differences and MXNet's backward rules; hybridized blocks against onnxruntime."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx
import cellonnx.mxnet as mx
from cellonnx.mxnet import autograd, nd
from cellonnx.mxnet.base import MXNetError
from tests.tolerance import assert_close


def _interleave(z: np.ndarray) -> np.ndarray:
    out = np.empty(z.shape[:-1] + (2 * z.shape[-1],))
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def _fft_ref(x: np.ndarray) -> np.ndarray:
    return _interleave(np.fft.fft(x.astype(np.float64), axis=-1))


def _ifft_ref(x: np.ndarray) -> np.ndarray:
    z = x[..., 0::2].astype(np.float64) + 1j * x[..., 1::2]
    return (np.fft.ifft(z, axis=-1) * z.shape[-1]).real  # cuFFT's inverse: no 1/d


def _sketch_ref(x: np.ndarray, h: np.ndarray, s: np.ndarray, out_dim: int) -> np.ndarray:
    flat = x.reshape(-1, x.shape[-1]).astype(np.float64)
    out = np.zeros((flat.shape[0], out_dim))
    for i in range(x.shape[-1]):  # out[h[i]] += data[i] * s[i]
        out[:, int(h.reshape(-1)[i])] += flat[:, i] * s.reshape(-1)[i]
    return out.reshape(x.shape[:-1] + (out_dim,))


_RNG = np.random.default_rng(0)
_H = np.array([[0, 3, 4, 3, 1, 6]], np.float32)
_S = np.array([[1, -1, 1, 1, -1, -1]], np.float32)

# (id, operator, data shape, kwargs, reference)
CASES: list[tuple[str, str, tuple[int, ...], dict[str, Any], Any]] = [
    ("fft_2d", "fft", (3, 8), {}, _fft_ref),
    ("fft_odd", "fft", (2, 5), {"compute_size": 1}, _fft_ref),
    ("fft_4d", "fft", (2, 1, 3, 6), {}, _fft_ref),
    ("ifft_2d", "ifft", (3, 16), {}, _ifft_ref),
    ("ifft_4d", "ifft", (1, 2, 2, 10), {"compute_size": 3}, _ifft_ref),
    ("count_sketch_2d", "count_sketch", (4, 6), {"out_dim": 7}, None),
    ("count_sketch_4d", "count_sketch", (2, 2, 1, 6), {"out_dim": 8, "processing_batch_size": 1}, None),
]


def _call(op: str, x: Any, kwargs: dict[str, Any], array: Any = nd.array) -> Any:
    fn = getattr(nd.contrib, op)
    if op == "count_sketch":
        return fn(x, array(_H), array(_S), **kwargs)
    return fn(x, **kwargs)


def _ref(case: tuple, x: np.ndarray) -> np.ndarray:
    _, op, _, kwargs, ref = case
    return _sketch_ref(x, _H, _S, kwargs["out_dim"]) if op == "count_sketch" else ref(x)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_forward_matches_numpy(case: tuple) -> None:
    x = _RNG.normal(size=case[2]).astype(np.float32)
    got = _call(case[1], nd.array(x), case[3])
    want = _ref(case, x)
    assert isinstance(got, nd.NDArray) and got.shape == want.shape and got.dtype == np.float32
    assert_close(got.asnumpy(), want, rtol=1e-5, scale_rtol=1e-6, what=case[0])


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_finite_differences(case: tuple) -> None:
    x = _RNG.normal(size=case[2])
    weights = _RNG.normal(size=_ref(case, x).shape)
    arr = nd.array(x, dtype=np.float64)
    arr.attach_grad()
    with autograd.record():
        loss = (_call(case[1], arr, case[3], lambda v: nd.array(v, dtype=np.float64))
                * nd.array(weights, dtype=np.float64)).sum()
    loss.backward()
    numeric = np.zeros_like(x)
    for j in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[j] += 1e-6
        down[j] -= 1e-6
        numeric[j] = ((_ref(case, up) - _ref(case, down)) * weights).sum() / 2e-6
    assert_close(arr.grad.asnumpy(), numeric, rtol=1e-6, scale_rtol=1e-7, what=f"{case[0]} gradient")


def test_gradients_are_mxnets_backward_rules() -> None:
    """fft's backward is the unnormalised inverse transform's real part; ifft's is fft of the gradient."""
    x = nd.array(_RNG.normal(size=(2, 6)))
    g = _RNG.normal(size=(2, 12)).astype(np.float32)
    x.attach_grad()
    with autograd.record():
        out = nd.contrib.fft(x)
    out.backward(nd.array(g))
    assert_close(x.grad.asnumpy(), _ifft_ref(g), rtol=1e-5, scale_rtol=1e-6, what="fft backward")
    z = nd.array(_RNG.normal(size=(2, 12)))
    gz = _RNG.normal(size=(2, 6)).astype(np.float32)
    z.attach_grad()
    with autograd.record():
        out = nd.contrib.ifft(z)
    out.backward(nd.array(gz))
    assert_close(z.grad.asnumpy(), _fft_ref(gz), rtol=1e-5, scale_rtol=1e-6, what="ifft backward")


def test_count_sketch_docstring_example() -> None:
    """MXNet's documented example."""
    x = nd.array([[1.2, 2.5, 3.4], [3.2, 5.7, 6.6]])
    got = nd.contrib.count_sketch(x, nd.array([[0, 3, 4]]), nd.array([[1, -1, 1]]), out_dim=5)
    np.testing.assert_allclose(got.asnumpy(), [[1.2, 0, 0, -2.5, 3.4], [3.2, 0, 0, -5.7, 6.6]], rtol=1e-6)


def test_errors() -> None:
    with pytest.raises(MXNetError, match="fft: data must be 2-D"):
        nd.contrib.fft(nd.ones((2, 3, 4)))
    with pytest.raises(MXNetError, match="ifft: the last axis"):
        nd.contrib.ifft(nd.ones((2, 5)))
    with pytest.raises(MXNetError, match="count_sketch: H should be 2D"):
        nd.contrib.count_sketch(nd.ones((2, 3)), nd.ones((1, 4)), nd.ones((1, 3)), out_dim=2)
    assert mx.sym.contrib.fft.__name__ == "fft"


class _Spectral(mx.gluon.HybridBlock):
    def hybrid_forward(self, F: Any, x: Any, h: Any, s: Any) -> Any:
        spectrum = F.contrib.fft(F.contrib.count_sketch(x, h, s, out_dim=7))
        return F.contrib.ifft(spectrum * spectrum)


def test_hybridized_matches_eager_and_onnxruntime(tmp_path: Path) -> None:
    """Each transform traces to one MatMul with a constant matrix: the exported graph runs in onnxruntime
    with a dynamic batch."""
    import onnx
    import onnxruntime as ort

    net = _Spectral()
    net.initialize()
    net.hybridize()
    h, s = nd.array(_H), nd.array(_S)
    x = _RNG.normal(size=(3, 6)).astype(np.float32)
    eager = _Spectral()(nd.array(x), h, s).asnumpy()
    want = _ifft_ref(_fft_ref(_sketch_ref(x, _H, _S, 7)) ** 2)
    assert_close(eager, want, rtol=1e-5, scale_rtol=1e-5, what="eager")
    assert_close(net(nd.array(x), h, s).asnumpy(), eager, rtol=1e-6, scale_rtol=1e-6, what="hybridized")
    path = tmp_path / "spectral.onnx"
    cellonnx.export(net, cellonnx.Tensor(shape=(None, 6), dtype=cellonnx.float32), cellonnx.Tensor(_H),
                    cellonnx.Tensor(_S), file_name=str(path), file_format="ONNX")
    onnx.checker.check_model(onnx.load(str(path)), full_check=True)
    session = ort.InferenceSession(str(path))
    names = [i.name for i in session.get_inputs()]
    for rows in (1, 4):
        xr = _RNG.normal(size=(rows, 6)).astype(np.float32)
        feeds = dict(zip(names, [xr, _H, _S]))
        got = session.run(None, feeds)[0]
        want = _Spectral()(nd.array(xr), h, s).asnumpy()
        assert_close(got, want, rtol=1e-5, scale_rtol=1e-5, what=f"onnxruntime batch {rows}")


def test_symbol_nodes() -> None:
    """mx.sym.contrib builds MXNet's _contrib_* nodes, which the interpreter runs."""
    import json

    x, h, s = mx.sym.var("x"), mx.sym.var("h"), mx.sym.var("s")
    y = mx.sym.contrib.ifft(mx.sym.contrib.fft(mx.sym.contrib.count_sketch(x, h, s, out_dim=7)))
    ops = [n["op"] for n in json.loads(y.tojson())["nodes"] if n["op"] != "null"]
    assert ops == ["_contrib_count_sketch", "_contrib_fft", "_contrib_ifft"]
    assert y.infer_shape(x=(3, 6), h=(1, 6), s=(1, 6))[1] == [(3, 7)]
    xv = _RNG.normal(size=(3, 6)).astype(np.float32)
    got = y.eval(x=nd.array(xv), h=nd.array(_H), s=nd.array(_S))[0].asnumpy()
    assert_close(got, _sketch_ref(xv, _H, _S, 7) * 7, rtol=1e-5, scale_rtol=1e-5, what="symbol eval")
