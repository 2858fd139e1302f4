"""nd.contrib's quantization operators against real MXNet 1.9.1's CPU (oneDNN) build, bit for bit (rows:
quant_cases.py; fixture: tests/fixtures/mxnet/quant_ops.npz written by gen_quant.py, inputs included), and
quantize_asym (which crashes MXNet 1.9.1) against its source's rule in float64."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet import nd
from tests.mxnet import quant_cases

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "quant_ops.npz"
WANT = dict(np.load(FIXTURE))
# the KL divergence sums float32 logarithms: the threshold is exact, the divergence within libm's rounding
RTOL = {("calibrate_entropy", 1): 1e-5, ("calibrate_entropy_63", 1): 1e-5}


def _inputs(case_id: str) -> list[nd.NDArray]:
    keys = sorted((k for k in WANT if k.startswith(f"{case_id}/in/")), key=lambda k: int(k.rsplit("/", 1)[1]))
    return [nd.array(WANT[k], dtype=WANT[k].dtype) for k in keys]


@pytest.mark.parametrize("case", quant_cases.CASES, ids=[c[0] for c in quant_cases.CASES])
def test_operator_matches_mxnet(case: tuple) -> None:
    case_id, op, _, kwargs = case
    out = getattr(nd.contrib, op)(*_inputs(case_id), **kwargs)
    outs = out if isinstance(out, list) else [out]  # several outputs come as a list, as in MXNet
    assert len(outs) == len([k for k in WANT if k.startswith(f"{case_id}/out/")])
    for i, o in enumerate(outs):
        want = WANT[f"{case_id}/out/{i}"]
        assert isinstance(o, nd.NDArray), f"{case_id} output {i} is {type(o).__name__}"
        assert o.shape == want.shape and o.dtype == want.dtype, (
            f"{case_id} output {i}: {o.shape} {o.dtype}, MXNet {want.shape} {want.dtype}")
        rtol = RTOL.get((case_id, i))
        if rtol is None:
            np.testing.assert_array_equal(o.asnumpy(), want, err_msg=f"{case_id} output {i}")
        else:
            np.testing.assert_allclose(o.asnumpy(), want, rtol=rtol, err_msg=f"{case_id} output {i}")


@pytest.mark.parametrize("case", quant_cases.ERRORS, ids=[c[0] for c in quant_cases.ERRORS])
def test_operator_refuses_as_mxnet(case: tuple) -> None:
    case_id, op, specs, kwargs = case
    arrays = [nd.array(a, dtype=a.dtype) for a in quant_cases.inputs(case_id, specs)]
    with pytest.raises(mx.base.MXNetError, match=op):
        getattr(nd.contrib, op)(*arrays, **kwargs)


@pytest.mark.parametrize("calib", [None, (-0.5, 1.5)])
def test_quantize_asym_follows_mxnet_rule(calib: tuple | None) -> None:
    x = np.random.RandomState(3).uniform(-1.0, 3.0, (3, 5)).astype(np.float32)
    kwargs = {} if calib is None else {"min_calib_range": calib[0], "max_calib_range": calib[1]}
    q, scale, shift = nd.contrib.quantize_asym(nd.array(x), **kwargs)
    low, high = (float(x.min()), float(x.max())) if calib is None else calib
    want_scale = 255.0 / (high - low)
    want_shift = 255.0 - high * want_scale
    assert q.dtype == np.uint8
    np.testing.assert_allclose(scale.asnumpy(), [want_scale], rtol=1e-6)
    np.testing.assert_allclose(shift.asnumpy(), [want_shift], rtol=1e-6, atol=1e-4)
    want = np.clip(np.rint(x.astype(np.float64) * want_scale + want_shift), 0, 255)
    assert np.abs(q.asnumpy().astype(np.int64) - want).max() <= 1  # float32 vs float64 at a tie
    i8 = nd.array(np.array([[-128, -1, 0, 127]], np.int8), dtype="int8")
    out, s, t = nd.contrib.quantize_asym(i8)
    np.testing.assert_array_equal(out.asnumpy(), [[0, 127, 128, 255]])
    assert (float(s.asnumpy()[0]), float(t.asnumpy()[0])) == (1.0, 128.0)


class _FakeQuant(mx.gluon.HybridBlock):
    """Calibrated int8 / uint8 quantization and back, as a quantized model's edges do."""

    def hybrid_forward(self, F: Any, x: Any) -> Any:
        q, lo, hi = F.contrib.quantize_v2(x, out_type="int8", min_calib_range=-0.7, max_calib_range=1.3)
        u, ulo, uhi = F.contrib.quantize_v2(x, out_type="uint8", min_calib_range=0.0, max_calib_range=0.9)
        return F.contrib.dequantize(q, lo, hi) + F.contrib.dequantize(u, ulo, uhi)


def test_calibrated_quantize_dequantize_export_to_onnxruntime(tmp_path: Path) -> None:
    """quantize_v2 with calibrated ranges and dequantize trace to ONNX (Mul, Round, Clip, Cast) and give the
    eager results, bit for bit, in onnxruntime; the other quantization operators refuse to be traced."""
    import onnxruntime as ort

    import cellonnx

    x = np.random.RandomState(5).uniform(-2.0, 2.0, (3, 7)).astype(np.float32)
    x[0, :4] = [0.5 / 127.5 * 1.3, 1.3, -2.0, 0.0]
    eager = _FakeQuant()(nd.array(x)).asnumpy()
    net = _FakeQuant()
    net.hybridize()
    np.testing.assert_array_equal(net(nd.array(x)).asnumpy(), eager)
    path = tmp_path / "fake_quant.onnx"
    cellonnx.export(net, cellonnx.Tensor(shape=(None, 7), dtype=cellonnx.float32), file_name=str(path),
                    file_format="ONNX")
    session = ort.InferenceSession(str(path))
    np.testing.assert_array_equal(session.run(None, {session.get_inputs()[0].name: x})[0], eager)

    class _Requantize(mx.gluon.HybridBlock):
        def hybrid_forward(self, F: Any, x: Any) -> Any:
            return F.contrib.quantize_v2(x, out_type="int8")[0]

    block = _Requantize()
    block.hybridize()
    with pytest.raises(Exception, match="quantize_v2: has no ONNX lowering"):
        block(nd.array(x))
