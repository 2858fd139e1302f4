"""quantize_net_v2 / quantize_net / quantize_model_mkldnn against real MXNet 1.9.1's oneDNN build (cases:
quant_net_cases.py; fixture: tests/fixtures/mxnet/quant_net.npz written by gen_quant_net.py).

The quantized graph is compared node for node, the fused nodes' subgraphs included; the parameters bit for
bit; the outputs bit for bit when the calibrated thresholds are MXNet's to the printed digit. Entropy
thresholds come from histograms of float32 layer outputs, which MXNet's fused float kernels (batch norm
folded into the weights) compute in another order: they can differ in the last printed decimal, and the
outputs then by a rounding step of the int8 layers they scale (compared with a tolerance of 1e-5 of the
output's scale). MXNet's own quantized graphs and parameters, run here, give its outputs bit for bit, but
for graphs that keep a float fused layer at the end (oneDNN's float GEMM sums in its own order: within
float32 rounding)."""
from __future__ import annotations

import json
import warnings
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet.contrib import quantization
from tests.mxnet import quant_net_cases as cases
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "quant_net.npz"
WANT = dict(np.load(FIXTURE))
ALL = [*cases.CASES, *cases.MODEL_CASES, *cases.CONCAT_CASES]


def _nodes(doc: dict[str, Any]) -> list[tuple]:
    return [(n["op"], n["name"], {k: v for k, v in n.get("attrs", {}).items() if not k.startswith("__")},
             [i[:2] for i in n["inputs"]], [_nodes(g) for g in n.get("subgraphs", [])]) for n in doc["nodes"]]


def _quantize_net(case_id: str) -> Any:
    if case_id in cases.CONCAT_CASES:
        calib, _ = cases.data()
        return quantization.quantize_net_v2(cases.concat_network(mx), ctx=mx.cpu(),
                                            calib_data=mx.io.NDArrayIter(calib, batch_size=cases.BATCH),
                                            **cases.CONCAT_CASES[case_id])
    kwargs = dict(cases.CASES[case_id])
    calib, _ = cases.data()
    if kwargs.get("calib_mode", "none") == "none":
        kwargs["data_shapes"] = [mx.io.DataDesc("data", (cases.BATCH, 4, 8, 8))]
    else:
        kwargs["calib_data"] = mx.io.NDArrayIter(calib, batch_size=cases.BATCH)
    return quantization.quantize_net_v2(cases.network(mx), ctx=mx.cpu(), **kwargs)


def _quantize_model(case_id: str) -> tuple[Any, dict, dict]:
    net = cases.network(mx)
    sym = net(mx.sym.var("data"))
    values = {k: v.data() for k, v in net.collect_params().items()}
    args = {k: values[k] for k in sym.list_arguments() if k in values}
    auxs = {k: values[k] for k in sym.list_auxiliary_states()}
    calib, _ = cases.data()
    return quantization.quantize_model_mkldnn(sym, args, auxs, ctx=mx.cpu(), label_names=None,
                                              calib_data=mx.io.NDArrayIter(calib, batch_size=cases.BATCH),
                                              **cases.MODEL_CASES[case_id])


@cache
def _made(case_id: str) -> tuple[Any, dict[str, np.ndarray], Any]:
    """(quantized symbol, its parameters, a function of the test images) as made here."""
    if case_id in cases.CASES or case_id in cases.CONCAT_CASES:
        net = _quantize_net(case_id)
        params = {k: p.data().asnumpy() for k, p in net.collect_params().items()}
        return net._symbol, params, lambda x: net(mx.nd.array(x)).asnumpy()
    qsym, qarg, qaux = _quantize_model(case_id)
    params = {k: v.asnumpy() for k, v in {**qarg, **qaux}.items()}
    return qsym, params, lambda x: _run(qsym, params, x)


def _run(qsym: Any, params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    feeds = {k: mx.nd.array(v, dtype=v.dtype) for k, v in params.items()}
    return qsym.eval(ctx=mx.cpu(), data=mx.nd.array(x), **feeds)[0].asnumpy()


def _calib_equal(got: list[tuple], want: list[tuple]) -> bool:
    return all(g[2].get(k) == w[2].get(k) for g, w in zip(got, want) for k in ("min_calib_range",
                                                                              "max_calib_range"))


@pytest.mark.parametrize("case_id", ALL)
def test_quantized_graph_and_params_match_mxnet(case_id: str) -> None:
    qsym, params, _ = _made(case_id)
    got, want = _nodes(json.loads(qsym.tojson())), _nodes(json.loads(str(WANT[f"{case_id}/symbol"])))
    assert [n[:2] for n in got] == [n[:2] for n in want], case_id
    for g, w in zip(got, want):
        assert (g[0], g[1], g[3], g[4]) == (w[0], w[1], w[3], w[4]), f"{case_id}: node {w[1]}"
        assert g[2].keys() == w[2].keys(), f"{case_id}: node {w[1]} attributes"
        for key, text in w[2].items():
            if key.endswith("_calib_range"):  # from float32 layer outputs, printed with 6 decimals
                assert abs(float(g[2][key]) - float(text)) <= 1e-6 * max(1.0, abs(float(text))) + 1.5e-6, (
                    f"{case_id}: {w[1]} {key} {g[2][key]}, MXNet {text}")
            else:
                assert g[2][key] == text, f"{case_id}: {w[1]} {key}"
    names = sorted(k.split("/", 2)[2] for k in WANT if k.startswith(f"{case_id}/param/"))
    assert sorted(params) == names
    for name in names:
        ref = WANT[f"{case_id}/param/{name}"]
        assert params[name].dtype == ref.dtype, f"{case_id} {name}"
        np.testing.assert_array_equal(params[name], ref, err_msg=f"{case_id} {name}")


@pytest.mark.parametrize("case_id", ALL)
def test_quantized_output_matches_mxnet(case_id: str) -> None:
    qsym, _, run = _made(case_id)
    _, test = cases.data()
    if f"{case_id}/error" in WANT:  # MXNet refuses to run it (uint8 kernels given a range below 0)
        with pytest.raises(Exception, match="Expect int8 when data_min < 0.0"):
            run(test)
        return
    got, want = run(test), WANT[f"{case_id}/out"]
    graph_got = _nodes(json.loads(qsym.tojson()))
    graph_want = _nodes(json.loads(str(WANT[f"{case_id}/symbol"])))
    if _calib_equal(graph_got, graph_want) and case_id not in cases.FLOAT_LAYER_CASES:
        np.testing.assert_array_equal(got, want, err_msg=case_id)
    else:
        assert_close(got, want, rtol=1e-5, scale_rtol=1e-5, what=case_id)


@pytest.mark.parametrize("case_id", [c for c in ALL if f"{c}/out" in WANT])
def test_mxnet_quantized_graph_runs_here_bit_for_bit(case_id: str) -> None:
    """MXNet's own quantized symbol.json and parameters give MXNet's outputs exactly."""
    qsym = mx.sym.load_json(str(WANT[f"{case_id}/symbol"]))
    params = {k.split("/", 2)[2]: v for k, v in WANT.items() if k.startswith(f"{case_id}/param/")}
    _, test = cases.data()
    got = _run(qsym, params, test)
    if case_id in cases.FLOAT_LAYER_CASES:
        assert_close(got, WANT[f"{case_id}/out"], rtol=1e-5, scale_rtol=1e-6, what=case_id)
    else:
        np.testing.assert_array_equal(got, WANT[f"{case_id}/out"], err_msg=case_id)


def test_quantize_net_is_tensor_wise_quantize_net_v2_and_warns() -> None:
    calib, test = cases.data()
    with pytest.warns(UserWarning, match="deprecated after MXNet 2.0"):
        net = quantization.quantize_net(cases.network(mx), calib_mode="naive",
                                        calib_data=mx.io.NDArrayIter(calib, batch_size=cases.BATCH))
    np.testing.assert_array_equal(net(mx.nd.array(test)).asnumpy(), WANT["naive/out"])


def test_float_fusions_keep_the_network_output() -> None:
    """The float fused graph (MKLDNN_QUANTIZE on the float network) computes the network's outputs."""
    net = cases.network(mx)
    fused = net(mx.sym.var("data")).get_backend_symbol("MKLDNN_QUANTIZE")
    ops = [n["op"] for n in json.loads(fused.tojson())["nodes"] if n["op"] != "null"]
    assert ops == ["_sg_mkldnn_conv", "_sg_mkldnn_conv", "Pooling", "_sg_mkldnn_fully_connected"]
    params = {k: p.data() for k, p in net.collect_params().items()}
    _, test = cases.data()
    out = fused.eval(data=mx.nd.array(test), **params)[0].asnumpy()
    assert_close(out, WANT["float/out"], rtol=1e-5, scale_rtol=1e-6, what="float fused")


def test_data_loader_calibration() -> None:
    """A Gluon DataLoader calibrates as the DataIter of its batches does."""
    calib, test = cases.data()
    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(mx.nd.array(calib)), batch_size=cases.BATCH)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net = quantization.quantize_net_v2(cases.network(mx), calib_data=loader, calib_mode="naive")
    np.testing.assert_array_equal(net(mx.nd.array(test)).asnumpy(), WANT["naive/out"])


def test_hybridized_quantized_net_runs_eagerly_with_the_same_outputs() -> None:
    calib, test = cases.data()
    net = quantization.quantize_net_v2(cases.network(mx), calib_mode="naive",
                                       calib_data=mx.io.NDArrayIter(calib, batch_size=cases.BATCH))
    with pytest.warns(UserWarning, match="_sg_mkldnn_conv 'quantized_sg_mkldnn_conv_bn_act_0'"):
        net.hybridize()
    np.testing.assert_array_equal(net(mx.nd.array(test)).asnumpy(), WANT["naive/out"])


def test_float_fused_graph_hybridizes_and_exports_to_onnx(tmp_path: Path) -> None:
    """The float fused layers are cellonnx ops: the block compiles, and its ONNX export runs in onnxruntime
    with the network's outputs."""
    import onnxruntime as ort

    net = cases.network(mx)
    fused = net(mx.sym.var("data")).get_backend_symbol("MKLDNN_QUANTIZE")
    block = mx.gluon.SymbolBlock(fused, [mx.sym.var("data")])
    values = {k: p.data() for k, p in net.collect_params().items()}
    for name, param in block.collect_params().items():
        param.set_data(values[name])
    _, test = cases.data()
    block.hybridize()
    assert_close(block(mx.nd.array(test)).asnumpy(), WANT["float/out"], rtol=1e-5, scale_rtol=1e-6,
                 what="hybridized")
    path = block.export(str(tmp_path / "fused"))
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    out = session.run(None, {session.get_inputs()[0].name: test[:1]})[0]
    assert_close(out, WANT["float/out"][:1], rtol=1e-5, scale_rtol=1e-6, what="onnxruntime")


@pytest.mark.parametrize("name", sorted(k.split("/", 1)[1] for k in WANT if k.startswith("fused/")))
def test_get_backend_symbol_writes_mxnet_text(name: str) -> None:
    """The MKLDNN_QUANTIZE partition of small symbols is MXNet's symbol.json byte for byte."""
    sym = cases.fused_symbols(mx)[name]
    assert sym.get_backend_symbol("MKLDNN_QUANTIZE").tojson() == str(WANT[f"fused/{name}"])
