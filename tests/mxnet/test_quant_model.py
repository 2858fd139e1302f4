"""mx.contrib.quantization.quantize_model against real MXNet 1.9.1 (cases: quant_model_cases.py; fixture:
tests/fixtures/mxnet/quant_model.npz written by gen_quant_model.py): the quantized symbol node for node
(operator, name, attributes with the calibrated thresholds, inputs), the quantized parameters bit for bit
and the quantized model's outputs. The calibrated thresholds come from float32 layer outputs (MXNet's
oneDNN convolution sums in another order), so they are compared to the last of their 6 printed decimals."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet.contrib import quantization
from tests.mxnet import quant_model_cases as cases
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "quant_model.npz"
WANT = dict(np.load(FIXTURE))


def _nodes(text: str) -> list[tuple]:
    doc = json.loads(text)
    return [(n["op"], n["name"], n.get("attrs", {}), [i[:2] for i in n["inputs"]]) for n in doc["nodes"]]


def _quantize(case_id: str) -> tuple:
    kwargs = dict(cases.CASES[case_id])
    calib, _ = cases.data()
    sym = mx.sym.load_json(str(WANT["float/symbol"]))
    params = {k: mx.nd.array(v) for k, v in cases.params().items()}
    calib_iter = (None if kwargs.get("calib_mode") == "none"
                  else mx.io.NDArrayIter(calib, batch_size=cases.BATCH))
    return quantization.quantize_model(sym, params, {}, ctx=mx.cpu(), label_names=None, calib_data=calib_iter,
                                       **kwargs)


@pytest.mark.parametrize("case_id", list(cases.CASES))
def test_quantized_symbol_matches_mxnet(case_id: str) -> None:
    qsym, qargs, _ = _quantize(case_id)
    got, want = _nodes(qsym.tojson()), _nodes(str(WANT[f"{case_id}/symbol"]))
    assert [n[:2] for n in got] == [n[:2] for n in want]
    for g, w in zip(got, want):
        assert (g[0], g[1], g[3]) == (w[0], w[1], w[3]), f"{case_id}: node {w[1]}"
        assert g[2].keys() == w[2].keys(), f"{case_id}: node {w[1]} attributes"
        for key, text in w[2].items():
            if key.endswith("_calib_range"):  # from float32 layer outputs, printed with 6 decimals
                assert abs(float(g[2][key]) - float(text)) <= 1e-6 * max(1.0, abs(float(text))) + 1.5e-6, (
                    f"{case_id}: {w[1]} {key} {g[2][key]}, MXNet {text}")
            else:
                assert g[2][key] == text, f"{case_id}: {w[1]} {key}"
    names = sorted(k.split("/", 2)[2] for k in WANT if k.startswith(f"{case_id}/param/"))
    assert sorted(qargs) == names
    for name in names:
        value, ref = qargs[name].asnumpy(), WANT[f"{case_id}/param/{name}"]
        assert value.dtype == ref.dtype, f"{case_id} {name}: {value.dtype}, MXNet {ref.dtype}"
        np.testing.assert_array_equal(value, ref, err_msg=f"{case_id} {name}")


@pytest.mark.parametrize("case_id", [c for c in cases.CASES if f"{c}/out" in WANT])
def test_quantized_model_output_matches_mxnet(case_id: str) -> None:
    qsym, qargs, _ = _quantize(case_id)
    _, test = cases.data()
    out = qsym.eval(ctx=mx.cpu(), data=mx.nd.array(test), **qargs)[0]
    assert_close(out.asnumpy(), WANT[f"{case_id}/out"], rtol=1e-5, scale_rtol=1e-6, what=case_id)


@pytest.mark.parametrize("case_id", [c for c in cases.CASES if f"{c}/out" in WANT])
def test_mxnet_quantized_symbol_runs_here(case_id: str) -> None:
    """MXNet's own quantized symbol.json and parameters, run by the symbol interpreter."""
    qsym = mx.sym.load_json(str(WANT[f"{case_id}/symbol"]))
    qargs = {k.split("/", 2)[2]: mx.nd.array(v, dtype=v.dtype) for k, v in WANT.items()
             if k.startswith(f"{case_id}/param/")}
    _, test = cases.data()
    out = qsym.eval(ctx=mx.cpu(), data=mx.nd.array(test), **qargs)[0]
    assert_close(out.asnumpy(), WANT[f"{case_id}/out"], rtol=1e-5, scale_rtol=1e-6, what=case_id)


def test_symbol_contrib_builds_quantization_nodes() -> None:
    data = mx.sym.var("data")
    q = mx.sym.contrib.quantize_v2(data, out_type="int8", min_calib_range=-1.0, max_calib_range=1.0, name="dq")
    assert q.list_outputs() == ["dq_output0", "dq_output1", "dq_output2"]
    deq = mx.sym.load_json(mx.sym.contrib.dequantize(q[0], q[1], q[2], name="deq").tojson())
    out = deq.eval(data=mx.nd.array([[0.5, -2.0, 0.3]]))[0].asnumpy()
    np.testing.assert_array_equal(out, np.array([[64, -128, 38]], np.float32) * np.float32(1.0 / 127.5))
