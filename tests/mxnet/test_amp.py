"""mx.contrib.amp against real MXNet 1.9.1 (tests/fixtures/mxnet/gen_amp.py): the operator lists, the graphs
``convert_symbol`` writes for each case of amp_cases.py (casts kept and removed), the converted graphs'
outputs against the float32 graph in float64 (MXNet's CPU build runs neither float16 nor, on this CPU,
bfloat16 FullyConnected, so it wrote no outputs), and a Gluon loop whose loss scale follows MXNet's on an
overflow."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from cellonnx.mxnet.contrib import amp
from tests.mxnet import amp_cases
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "amp"
LISTS = json.loads((FIXTURES / "lists.json").read_text())
CONVERT = json.loads((FIXTURES / "convert.json").read_text())
TRAIN = json.loads((FIXTURES / "train.json").read_text())
INIT_NODES = json.loads((FIXTURES / "init_nodes.json").read_text())
HYBRID = json.loads((FIXTURES / "hybrid_block.json").read_text())
SUFFIXES = json.loads((FIXTURES / "suffixes.json").read_text())

LIST_FUNCTIONS = {"lp16": amp.list_lp16_ops, "fp32": amp.list_fp32_ops, "lp16_fp32": amp.list_lp16_fp32_ops,
                  "conditional": amp.list_conditional_fp32_ops, "widest": amp.list_widest_type_cast,
                  "loss": amp.list_loss_output_functions, "use_fp32_params": amp.list_lp16_use_fp32_params}


@pytest.mark.parametrize("target", amp_cases.TARGETS)
@pytest.mark.parametrize("which", list(LIST_FUNCTIONS))
def test_lists_are_mxnets(target: str, which: str) -> None:
    got = json.loads(json.dumps(LIST_FUNCTIONS[which](target)))
    assert got == LISTS[target][which]


def _nodes(text: str) -> list:
    return [[n["op"], n["name"], n.get("attrs", {}), n["inputs"]] for n in json.loads(text)["nodes"]]


@pytest.mark.parametrize("target", amp_cases.TARGETS)
@pytest.mark.parametrize("case_id", amp_cases.CASES)
def test_convert_symbol_graph(case_id: str, target: str) -> None:
    sym, kwargs = amp_cases.build(mx, case_id)
    conv = amp.convert_symbol(sym, target_dtype=target, **kwargs)
    want = CONVERT[f"{case_id}/{target}"]
    assert _nodes(conv.tojson(remove_amp_cast=False)) == want["nodes"]
    assert _nodes(conv.tojson()) == want["plain"]
    assert conv.list_arguments() == want["arguments"]
    assert conv.list_outputs() == want["outputs"]
    assert conv.list_auxiliary_states() == want["aux"]


@pytest.mark.parametrize("op", sorted(SUFFIXES))
def test_cast_names_per_operator(op: str) -> None:
    """The casts on an operator's output are named as MXNet names them (by output name or index)."""
    found = set()
    make = amp_cases.probe_ops(mx)[op]
    for head in (make(), mx.sym.FullyConnected(make(), num_hidden=2, name="f")):
        text = amp.convert_symbol(head, target_dtype="float16").tojson(remove_amp_cast=False)
        found |= {n["name"] for n in json.loads(text)["nodes"]
                  if n["name"].startswith("n_") and "amp_" in n["name"]}
    assert sorted(found) == SUFFIXES[op]


def _bind_values(sym, case_id: str) -> tuple[dict, dict]:
    arg_shapes, _, aux_shapes = sym.infer_shape(**amp_cases.SHAPES[case_id])
    args = {n: mx.nd.array(amp_cases.values(s, i)) for i, (n, s) in
            enumerate(zip(sym.list_arguments(), arg_shapes))}
    aux = {n: mx.nd.array(np.abs(amp_cases.values(s, 100 + i)) + (0.5 if "var" in n else 0))
           for i, (n, s) in enumerate(zip(sym.list_auxiliary_states(), aux_shapes))}
    return args, aux


@pytest.mark.parametrize("target", amp_cases.TARGETS)
@pytest.mark.parametrize("case_id", amp_cases.CASES)
def test_convert_symbol_outputs(case_id: str, target: str) -> None:
    """The converted graph computes the float32 graph's outputs to the target type's precision, and its
    outputs are float32."""
    sym, kwargs = amp_cases.build(mx, case_id)
    conv = amp.convert_symbol(sym, target_dtype=target, **kwargs)
    args, aux = _bind_values(sym, case_id)
    want = sym.bind(mx.cpu(), args=dict(args), aux_states=dict(aux), grad_req="null").forward()
    got = conv.bind(mx.cpu(), args=dict(args), aux_states=dict(aux), grad_req="null").forward()
    assert len(got) == len(want)
    rtol = 2.0**-7 if target == "bfloat16" else 2.0**-10
    for g, w in zip(got, want):
        assert g.dtype == np.float32
        assert_close(g.asnumpy().astype(np.float64), w.asnumpy().astype(np.float64), rtol=4 * rtol,
                     scale_rtol=4 * rtol)


def test_convert_symbol_checks_lists() -> None:
    sym, _ = amp_cases.build(mx, "mlp")
    with pytest.raises(AssertionError, match="Ops cannot be in two or more lists"):
        amp.convert_symbol(sym, target_dtype="bfloat16", target_dtype_ops=["FullyConnected"],
                           fp32_ops=["FullyConnected"])
    with pytest.raises(AssertionError, match="Only target_dtype float16 and bfloat16"):
        amp.convert_symbol(sym, target_dtype="int8")


def test_convert_model_casts_stored_params() -> None:
    sym, _ = amp_cases.build(mx, "mlp")
    args, _ = _bind_values(sym, "mlp")
    params = {k: v for k, v in args.items() if k not in ("data", "bias2")}
    conv, arg_params, aux_params = amp.convert_model(sym, params, {}, target_dtype="bfloat16")
    assert "data_amp_cast_bfloat16" in conv.tojson(remove_amp_cast=False)
    assert set(arg_params) == set(params) and aux_params == {}


class _SoftmaxNet(mx.gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.weight = self.params.get("weight", shape=(2, 3))

    def hybrid_forward(self, F, x, weight):
        return F.softmax(F.FullyConnected(x, weight, no_bias=True, num_hidden=2, name="fc"), name="sm")


def test_convert_hybrid_block() -> None:
    """A hybridized Gluon 1.x block: MXNet's converted graph (variables' attributes aside) and parameter
    types; the converted SymbolBlock computes the block's outputs to bfloat16's precision."""
    net = _SoftmaxNet(prefix="net_")
    net.initialize()
    net.weight.set_data(mx.nd.array(amp_cases.values((2, 3), 9)))
    net.hybridize()
    x = mx.nd.array(amp_cases.values((2, 3), 10))
    want = net(x).asnumpy()
    out = amp.convert_hybrid_block(net, target_dtype="bfloat16", ctx=mx.cpu())
    got_nodes = _nodes(out.symbol.tojson(remove_amp_cast=False))
    strip = [[op, name, {} if op == "null" else attrs, inputs] for op, name, attrs, inputs in HYBRID["nodes"]]
    assert got_nodes == strip
    assert {k: np.dtype(p.data().dtype).name for k, p in out.collect_params().items()} == HYBRID["params"]
    assert_close(out(x).asnumpy(), want, rtol=2.0**-6, scale_rtol=2.0**-6)
    assert_close(net(x).asnumpy(), want, rtol=1e-6, scale_rtol=1e-6)  # the block still runs compiled


def test_convert_hybrid_block_of_a_symbol_block() -> None:
    sym, _ = amp_cases.build(mx, "conv")
    block = mx.gluon.SymbolBlock(sym, [mx.sym.var("data")])
    block.initialize()
    x = mx.nd.array(amp_cases.values(amp_cases.SHAPES["conv"]["data"], 0))
    want = block(x).asnumpy()
    out = amp.convert_hybrid_block(block, target_dtype="bfloat16", ctx=mx.cpu())
    assert _nodes(out.symbol.tojson(remove_amp_cast=False)) == CONVERT["conv/bfloat16"]["nodes"]
    assert_close(out(x).asnumpy(), want, rtol=2.0**-5, scale_rtol=2.0**-5)


class _Net(mx.gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.weight = self.params.get("weight", shape=(2, 3))

    def hybrid_forward(self, F, x, weight):
        return F.dot(x, weight, transpose_b=True)


@pytest.fixture
def fresh_amp(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """amp.init wraps the operator namespaces in place (and mx.sym creates operators on first use): restore
    every namespace it may touch, and AMP's state, after the test."""
    from cellonnx.mxnet import ndarray, symbol
    from cellonnx.mxnet.contrib.amp import amp as amp_module

    modules = [ndarray, symbol]
    subs = ("contrib", "linalg", "sparse", "image", "random", "_internal")
    modules += [getattr(m, sub) for m in (ndarray, symbol) for sub in subs if hasattr(m, sub)]
    saved = [(m, dict(vars(m))) for m in modules]
    monkeypatch.setattr(amp_module, "_state", {"initialized": False, "loss_scale_initialized": False,
                                               "loss_scaler": None})
    yield
    for module, before in saved:
        for name in set(vars(module)) - set(before):
            delattr(module, name)
        for name, value in before.items():
            if vars(module).get(name) is not value:
                setattr(module, name, value)


def test_init_wraps_symbol_operators(fresh_amp: None) -> None:
    amp.init("bfloat16")
    assert _nodes(amp_cases.init_graph(mx).tojson(remove_amp_cast=False)) == INIT_NODES


def test_init_wraps_ndarray_operators(fresh_amp: None) -> None:
    """mx.nd: FullyConnected runs in bfloat16, softmax casts back to float32, elemwise_add takes the
    widest type."""
    amp.init("bfloat16")
    x, w, b = mx.nd.ones((1, 3)), mx.nd.ones((2, 3)), mx.nd.zeros((2,))
    y = mx.nd.FullyConnected(x, w, b, num_hidden=2)
    assert np.dtype(y.dtype).name == "bfloat16"
    assert np.dtype(mx.nd.softmax(y).dtype).name == "float32"
    assert np.dtype(mx.nd.elemwise_add(y, mx.nd.ones((1, 2))).dtype).name == "float32"


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_gluon_loop_loss_scale_on_overflow(fresh_amp: None) -> None:
    amp.init("float16")
    net = _Net(prefix="net_")
    net.initialize()
    net.weight.set_data(mx.nd.array(amp_cases.values((2, 3), 7)))
    trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.25})
    amp.init_trainer(trainer)
    x = mx.nd.array(amp_cases.values((4, 3), 8))
    scales, skipped, weights = [], [], []
    for step in range(5):
        scales.append(trainer._amp_loss_scaler.loss_scale)
        before = net.weight.data().asnumpy().copy()
        with mx.autograd.record():
            out = net(x)
            loss = (out.astype("float32") ** 2).sum() * (1e35 if step == 2 else 1.0)
            with amp.scale_loss(loss, trainer) as scaled:
                mx.autograd.backward(scaled)
        trainer.step(4)
        after = net.weight.data().asnumpy()
        skipped.append(bool(np.array_equal(before, after)))
        weights.append(after)
    assert scales == TRAIN["scales"]
    assert skipped == TRAIN["skipped"]
    assert trainer._amp_loss_scaler.loss_scale == TRAIN["final_scale"]
    for got, want in zip(weights, TRAIN["weights"]):
        assert_close(got, np.array(want, dtype=np.float32), rtol=1e-6, scale_rtol=1e-6)


def test_init_trainer_needs_init_and_a_trainer(monkeypatch: pytest.MonkeyPatch) -> None:
    from cellonnx.mxnet.contrib.amp import amp as amp_module

    monkeypatch.setattr(amp_module, "_state", {"initialized": False, "loss_scale_initialized": False,
                                               "loss_scaler": None})
    with pytest.raises(AssertionError, match="did you forget to call amp.init"):
        amp.init_trainer(object())
    amp_module._state["initialized"] = True
    with pytest.raises(TypeError, match="only compatible with Gluon Trainer"):
        amp.init_trainer(mx.optimizer.SGD())


def test_loss_scaler_schedule() -> None:
    """2000 clean steps double the scale (from the step after), an overflow halves it; capped at 2**24."""
    p = mx.gluon.Parameter("w", shape=(2,))
    p.initialize()
    scaler = amp.LossScaler()
    for _ in range(2000):
        assert not scaler.has_overflow([p])
    assert scaler.loss_scale == 2.0**16
    scaler.has_overflow([p])
    assert scaler.loss_scale == 2.0**17
    p.grad()[:] = mx.nd.array([np.nan, 0.0])
    assert scaler.has_overflow([p]) and scaler.loss_scale == 2.0**17
    p.grad()[:] = mx.nd.array([0.0, 0.0])
    scaler.has_overflow([p])
    assert scaler.loss_scale == 2.0**16
