"""mx.sym's symbolic API against real MXNet 1.9.1: the symbols of tests/fixtures/mxnet/symbol_api_cases.py are
composed here with cellonnx.mxnet and compared with what MXNet recorded for the same code
(gen_symbol_api.py): listings and names, attributes, symbol.json (both ways), inferred shapes and types, and
simple_bind's forward outputs, moved auxiliary states and gradients on the same seeded arrays. The composed
symbols also become SymbolBlocks and ONNX models (onnxruntime at two batch sizes)."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx.mxnet as mx
from cellonnx.gluon import SymbolBlock
from cellonnx.gluon.symbol.export import export_onnx
from tests.tolerance import assert_close, scale_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
RECORDED = FIXTURES / "symbol_api"
sys.path.insert(0, str(FIXTURES))
from symbol_api_cases import CASES  # noqa: E402

RTOL, SCALE_RTOL = 1e-5, 1e-5
BOUND = [c for c in CASES if (RECORDED / f"{c}.npz").exists()]
# MXNet 1.9.1's executor leaves this graph's BatchNorm statistics where they were after backward (it moves
# residual's, and cnn_bn's BatchNorm alone with the same attributes): not a reference for the moved values
AUX_NOT_MOVED_BY_MXNET = {"cnn_bn"}


def build(case: str):
    with mx.name.NameManager():
        return CASES[case](mx)


def recorded(case: str) -> dict:
    return json.loads((RECORDED / f"{case}.json").read_text())


def arrays(case: str) -> dict[str, np.ndarray]:
    with np.load(RECORDED / f"{case}.npz") as f:
        return {k: f[k] for k in f.files}


def _lists(value):
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    return value


@pytest.mark.parametrize("case", list(CASES))
def test_listings_and_names_match_mxnet(case: str) -> None:
    sym, _, _ = build(case)
    want = recorded(case)
    assert sym.list_arguments() == want["arguments"]
    assert sym.list_outputs() == want["outputs"]
    assert sym.list_auxiliary_states() == want["auxiliary_states"]
    assert sym.list_inputs() == want["inputs"]
    assert sym.get_internals().list_outputs() == want["internals"]
    children = sym.get_children()
    assert (None if children is None else children.list_outputs()) == want["children"]
    assert sym.attr_dict() == want["attr_dict"]
    assert sym.list_attr() == want["list_attr"]
    assert sym.name == want["name"]
    assert repr(sym) == want["repr"]


@pytest.mark.parametrize("case", list(CASES))
def test_symbol_json_matches_mxnet_both_ways(case: str) -> None:
    sym, _, _ = build(case)
    want = recorded(case)["json"]
    assert json.loads(sym.tojson()) == want
    loaded = mx.sym.load_json(json.dumps(want))  # MXNet's own file
    assert json.loads(loaded.tojson()) == want
    assert loaded.list_arguments() == sym.list_arguments()
    assert loaded.list_outputs() == sym.list_outputs()


def test_save_and_load_files(tmp_path: Path) -> None:
    sym, _, _ = build("cnn_bn")
    sym.save(str(tmp_path / "net-symbol.json"))
    back = mx.sym.load(str(tmp_path / "net-symbol.json"))
    assert back.tojson() == sym.tojson()
    assert back.list_auxiliary_states() == sym.list_auxiliary_states()


@pytest.mark.parametrize("case", BOUND)
def test_inferred_shapes_and_types_match_mxnet(case: str) -> None:
    sym, shapes, _ = build(case)
    want = recorded(case)
    assert _lists(sym.infer_shape(**shapes)) == want["infer_shape"]
    assert _lists(sym.infer_shape_partial(**shapes)) == want["infer_shape"]
    types = sym.infer_type(**{k: "float32" for k in shapes})
    assert [[np.dtype(t).name for t in ts] for ts in types] == want["infer_type"]


def test_partial_shapes_of_an_unbound_symbol() -> None:
    sym, _, _ = build("attrs")
    assert _lists(sym.infer_shape_partial()) == recorded("attrs")["infer_shape_partial"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert build("mlp")[0].infer_shape() == (None, None, None)
    assert _lists(build("mlp")[0].infer_shape_partial()) == [[[], [], [], [], [], []], [[]], []]


def _bound(case: str):
    sym, shapes, needs_head = build(case)
    want = arrays(case)
    ex = sym.simple_bind(mx.cpu(), grad_req="write", **shapes)
    for name, arr in ex.arg_dict.items():
        arr[:] = want[f"arg/{name}"]
    for name, arr in ex.aux_dict.items():
        arr[:] = want[f"aux/{name}"]
    return sym, ex, want, needs_head


@pytest.mark.parametrize("case", BOUND)
def test_simple_bind_forward_and_backward_match_mxnet(case: str) -> None:
    sym, ex, want, needs_head = _bound(case)
    for i, out in enumerate(ex.forward(is_train=False)):
        assert_close(out.asnumpy(), want[f"eval/{i}"], RTOL, SCALE_RTOL)
    outs = ex.forward(is_train=True)
    for i, out in enumerate(outs):
        assert_close(out.asnumpy(), want[f"train/{i}"], RTOL, SCALE_RTOL)
    for name, arr in ex.aux_dict.items():
        assert_close(arr.asnumpy(), want[f"aux_forward/{name}"], RTOL, SCALE_RTOL)
    heads = [mx.nd.array(want[f"head/{i}"]) for i in range(len(outs))] if needs_head else None
    ex.backward(heads)
    for name, arr in ex.aux_dict.items():
        if case in AUX_NOT_MOVED_BY_MXNET:
            assert not np.allclose(arr.asnumpy(), want[f"aux_after/{name}"])
            continue
        assert_close(arr.asnumpy(), want[f"aux_after/{name}"], RTOL, SCALE_RTOL)
    grads = {k[5:]: v for k, v in want.items() if k.startswith("grad/")}
    assert set(grads) == {k for k, v in ex.grad_dict.items() if v is not None}
    # a gradient that cancels to zero (a bias before BatchNorm) is rounding noise on the scale of the others
    floor = max(scale_of(g) for g in grads.values())
    for name, g in grads.items():
        assert_close(ex.grad_dict[name].asnumpy(), g, 1e-4, 1e-5, what=name, min_scale=floor)
    assert set(ex.output_dict) == set(sym.list_outputs())


def test_bind_with_add_accumulates_and_needs_head_gradients() -> None:
    sym, _, _ = build("group")
    want = arrays("group")
    args = {k[4:]: mx.nd.array(v) for k, v in want.items() if k.startswith("arg/")}
    grads = {k: mx.nd.zeros(v.shape) for k, v in args.items()}
    ex = sym.bind(mx.cpu(), args, args_grad=grads, grad_req={"fc_weight": "add", "data": "write"})
    heads = [mx.nd.array(want[f"head/{i}"]) for i in range(4)]
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward(heads)
    assert_close(ex.grad_dict["fc_weight"].asnumpy(), 2 * want["grad/fc_weight"], 1e-4, 1e-5)
    assert_close(ex.grad_dict["data"].asnumpy(), want["grad/data"], 1e-4, 1e-5)
    assert ex.grad_dict["fc_bias"] is None
    ex.forward(is_train=True)
    with pytest.raises(ValueError, match="head gradient is required"):
        ex.backward()


def test_eval_computes_from_keyword_arrays() -> None:
    sym, _, _ = build("scalars")
    want = arrays("scalars")
    outs = sym.eval(mx.cpu(), a=mx.nd.array(want["arg/a"]), b=mx.nd.array(want["arg/b"]))
    for i, out in enumerate(outs):
        assert_close(out.asnumpy(), want[f"eval/{i}"], RTOL, SCALE_RTOL)


@pytest.mark.parametrize("case", ["mlp", "cnn_bn", "residual", "group"])
def test_composed_symbol_is_a_symbol_block_exported_to_onnx(case: str, tmp_path: Path) -> None:
    sym, _, _ = build(case)
    want = arrays(case)
    if case == "mlp":  # the prediction, without the loss layer's label
        sym = sym.get_internals()["out_output"]
    block = SymbolBlock(sym, mx.sym.var("data"))
    params = block.collect_params()
    for name, p in params.items():
        key = f"arg/{name}" if f"arg/{name}" in want else f"aux/{name}"
        p.set_data(mx.nd.array(want[key]))
    data = want["arg/data"]
    outs = block(mx.nd.array(data))
    outs = outs if isinstance(outs, list) else [outs]
    if case != "mlp":
        for i, out in enumerate(outs):
            assert_close(out.asnumpy(), want[f"eval/{i}"], RTOL, SCALE_RTOL)
    model = export_onnx(block, [data])
    onnx.checker.check_model(model, full_check=True)
    assert set(params) <= {t.name for t in model.graph.initializer}
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feed = session.get_inputs()[0].name
    for batch in (1, 3):
        x = np.concatenate([data] * 2)[:batch]
        eager = block(mx.nd.array(x))
        eager = eager if isinstance(eager, list) else [eager]
        for got, ref in zip(session.run(None, {feed: x}), eager):
            assert_close(got, ref.asnumpy(), RTOL, SCALE_RTOL)


def test_symbol_block_trains_from_composed_symbols() -> None:
    data = mx.sym.var("data")
    with mx.name.NameManager():
        net = mx.sym.FullyConnected(mx.sym.relu(mx.sym.FullyConnected(data, num_hidden=6)), num_hidden=2)
    block = SymbolBlock(net, data)
    block.initialize()
    assert list(block.collect_params()) == ["fullyconnected0_weight", "fullyconnected0_bias",
                                            "fullyconnected1_weight", "fullyconnected1_bias"]
    trainer = mx.gluon.Trainer(block.collect_params(), "sgd", {"learning_rate": 0.1})
    x = mx.nd.array(np.random.default_rng(0).standard_normal((4, 3)))
    assert block(x).shape == (4, 2)
    assert block.collect_params()["fullyconnected0_weight"].shape == (6, 3)
    before = block.collect_params()["fullyconnected1_bias"].data().asnumpy().copy()
    with mx.autograd.record():
        loss = (block(x) ** 2).sum()
    loss.backward()
    trainer.step(4)
    assert not np.allclose(block.collect_params()["fullyconnected1_bias"].data().asnumpy(), before)


def test_operators_accept_keyword_inputs_and_make_missing_variables() -> None:
    with mx.name.NameManager():
        fc = mx.sym.FullyConnected(num_hidden=3, no_bias=True)
        act = mx.sym.Activation(data=fc, act_type="tanh", name="act")
    assert act.list_arguments() == ["fullyconnected0_data", "fullyconnected0_weight"]
    composed = act(fullyconnected0_data=mx.sym.var("x"), name="composed")
    assert composed.list_arguments() == ["x", "fullyconnected0_weight"]
    assert composed.name == "composed"
    assert act.name == "act"
    with pytest.raises(ValueError, match="Cannot find argument 'bogus'"):
        mx.sym.Activation(fc, act_type="relu", bogus=1)
    with pytest.raises(ValueError, match="act_type"):
        mx.sym.Activation(fc)


def test_hybridized_code_still_sees_traced_arrays_as_symbols() -> None:
    class Net(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            y = F.relu(x)
            assert isinstance(y, mx.sym.Symbol) == (F is mx.sym)
            return y + F.ones_like(x)

    net = Net()
    x = mx.nd.array([[-1.0, 2.0]])
    eager = net(x).asnumpy()
    net.hybridize()
    np.testing.assert_array_equal(net(x).asnumpy(), eager)
