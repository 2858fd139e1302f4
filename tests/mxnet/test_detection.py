"""The detection contrib operators against MXNet 1.9.1 (tests/fixtures/mxnet/gen_detection.py, table in
detection_cases.py): MultiBoxTarget, bipartite_matching, box_encode, BatchNormWithReLU and SparseEmbedding
through mx.nd.contrib, MultiBoxTarget also as npx.multibox_target, and the interpreter's rows for them."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
_spec = importlib.util.spec_from_file_location("detection_cases", FIXTURES / "detection_cases.py")
_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cases)
CASES, GRADS = _cases.CASES, _cases.GRADS
EXPECTED = np.load(FIXTURES / "detection" / "expected.npz")


def _inputs(case: str) -> list[np.ndarray]:
    return [EXPECTED[f"{case}__in{i}"] for i in range(len(CASES[case][1]))]


def _outputs(case: str) -> list[np.ndarray]:
    return [EXPECTED[k] for k in sorted(k for k in EXPECTED.files if k.startswith(f"{case}__out"))]


def test_every_generator_case_has_a_row() -> None:
    assert {k.split("__")[0] for k in EXPECTED.files} == set(CASES)
    assert set(GRADS) <= set(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_contrib_operator_matches_mxnet(case: str) -> None:
    op, _, attrs = CASES[case]
    got = getattr(mx.nd.contrib, op)(*[mx.nd.array(v) for v in _inputs(case)], **attrs)
    got = got if isinstance(got, (list, tuple)) else [got]
    want = _outputs(case)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert isinstance(g, mx.nd.NDArray)
        assert g.shape == w.shape, (case, i)
        assert_close(g.asnumpy(), w, rtol=1e-5, scale_rtol=1e-6, what=f"{case}: output {i}")


@pytest.mark.parametrize("case", sorted(GRADS))
def test_gradients_match_mxnet(case: str) -> None:
    op, _, attrs = CASES[case]
    arrays = [mx.nd.array(v) for v in _inputs(case)]
    for i in GRADS[case]:
        arrays[i].attach_grad()
    with mx.autograd.record(train_mode=False):
        out = getattr(mx.nd.contrib, op)(*arrays, **attrs)
    out = out[0] if isinstance(out, (list, tuple)) else out
    out.backward(mx.nd.array(EXPECTED[f"{case}__head"]))
    for i in GRADS[case]:
        assert_close(arrays[i].grad.asnumpy(), EXPECTED[f"{case}__grad{i}"], rtol=1e-5, scale_rtol=1e-6,
                     what=f"{case}: gradient of input {i}")


@pytest.mark.parametrize("case", [c for c in CASES if CASES[c][0] == "MultiBoxTarget"])
def test_npx_multibox_target_is_the_contrib_operator(case: str) -> None:
    mx.npx.set_np()
    try:
        got = mx.npx.multibox_target(*[mx.np.array(v) for v in _inputs(case)], **CASES[case][2])
        for g, w in zip(got, _outputs(case)):
            assert isinstance(g, mx.np.ndarray)
            assert_close(g.asnumpy(), w, rtol=1e-5, scale_rtol=1e-6, what=case)
    finally:
        mx.npx.reset_np()


def test_interpreter_runs_the_operators_by_their_graph_names() -> None:
    from cellonnx.gluon.symbol.table import row_of

    for case in ("multibox_target_mining", "bipartite_topk", "box_encode_means", "batchnorm_relu"):
        op, _, attrs = CASES[case]
        name = "_contrib_" + op
        row = row_of(name)
        assert row is not None, name
        got = row.fn(*[mx.nd.array(v) for v in _inputs(case)], **attrs)
        got = got if isinstance(got, (list, tuple)) else [got]
        for g, w in zip(got, _outputs(case)):
            assert_close(np.asarray(g.asnumpy()), w, rtol=1e-5, scale_rtol=1e-6, what=case)


def _numeric_grad(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        down = f(x)
        x[i] = old
        g[i] = (up - down) / (2 * eps)
    return g


@pytest.mark.parametrize("case", ["deformable_conv_groups", "modulated_deformable_conv_groups",
                                  "modulated_deformable_conv", "psroi_pooling_scaled"])
def test_gradients_match_finite_differences(case: str) -> None:
    """Every input's float64 gradient (the rois excepted) against central differences: for
    ModulatedDeformableConvolution, whose gradient MXNet computes on GPUs only, the check of its backward."""
    from cellonnx import Tensor
    from cellonnx.gluon.symbol.table import row_of
    from cellonnx.mxnet import autograd

    op, _, attrs = CASES[case]
    fn = row_of("_contrib_" + op).fn
    inputs = [v.astype(np.float64) for v in _inputs(case)]
    head = np.random.default_rng(7).standard_normal(_outputs(case)[0].shape)
    diff = [i for i in range(len(inputs)) if not (op == "PSROIPooling" and i == 1)]
    for i in diff:
        if inputs[i].size > 150:  # the data of the larger case: a slice of its elements is enough
            continue

        def value(v: np.ndarray, i: int = i) -> float:
            args = [Tensor(v if j == i else a) for j, a in enumerate(inputs)]
            return float((fn(*args, **attrs).asnumpy() * head).sum())

        args = [Tensor(a.copy()) for a in inputs]
        args[i].attach_grad()
        with autograd.record():
            y = fn(*args, **attrs)
        y.backward(Tensor(head))
        assert_close(args[i].grad.asnumpy(), _numeric_grad(value, inputs[i].copy()), rtol=1e-5,
                     scale_rtol=1e-6, what=f"{case}: input {i}")


def test_bipartite_matching_doc_example() -> None:
    scores = mx.nd.array([[0.5, 0.6], [0.1, 0.2], [0.3, 0.4]])
    x, y = mx.nd.contrib.bipartite_matching(scores, threshold=1e-12)
    assert x.asnumpy().tolist() == [1, -1, 0] and y.asnumpy().tolist() == [2, 0]


def test_batchnorm_with_relu_is_differentiable() -> None:
    x = mx.nd.array(EXPECTED["batchnorm_relu__in0"])
    params = [mx.nd.array(v) for v in _inputs("batchnorm_relu")[1:]]
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.contrib.BatchNormWithReLU(x, *params, fix_gamma=False, eps=1e-5)
    y.backward()
    assert x.grad.shape == x.shape and np.isfinite(x.grad.asnumpy()).all()


@pytest.mark.parametrize("case", ["deformable_conv", "modulated_deformable_conv"])
def test_hybridizes_and_exports_at_two_batch_sizes(case: str, tmp_path) -> None:
    """The differentiable operators trace once (batch axis dynamic) and run in onnxruntime as eagerly."""
    import onnxruntime as ort

    from cellonnx import Tensor
    from cellonnx.gluon import HybridBlock
    from cellonnx.gluon.symbol.table import row_of

    op, _, attrs = CASES[case]
    fn = row_of("_contrib_" + op).fn
    inputs = _inputs(case)
    batched = 3 if op == "ModulatedDeformableConvolution" else 2

    class Net(HybridBlock):
        def forward(self, *xs):
            return fn(*xs, *[Tensor(v) for v in inputs[batched:]], **attrs)

    net = Net()
    eager = {n: net(*[Tensor(v[:n]) for v in inputs[:batched]]).asnumpy() for n in (1, 2)}
    net.hybridize()
    assert_close(net(*[Tensor(v[:2]) for v in inputs[:batched]]).asnumpy(), eager[2], rtol=1e-5,
                 scale_rtol=1e-6, what=f"{case}: hybridized")
    session = ort.InferenceSession(net.export(str(tmp_path / case)), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    for n in (1, 2):
        (out,) = session.run(None, dict(zip(names, [v[:n] for v in inputs[:batched]])))
        assert_close(out, eager[n], rtol=1e-5, scale_rtol=1e-6, what=f"{case}: onnxruntime, batch {n}")


@pytest.mark.parametrize("case", ["psroi_pooling", "multibox_target", "bipartite", "box_encode"])
def test_value_reading_operators_refuse_to_be_traced(case: str) -> None:
    from cellonnx import Tensor
    from cellonnx.gluon import HybridBlock
    from cellonnx.gluon.symbol.table import row_of

    op, _, attrs = CASES[case]
    fn = row_of("_contrib_" + op).fn
    inputs = _inputs(case)

    class Net(HybridBlock):
        def forward(self, x):
            return fn(x, *[Tensor(v) for v in inputs[1:]], **attrs)

    net = Net()
    net.hybridize()
    with pytest.raises(NotImplementedError, match="eagerly"):
        net(Tensor(inputs[0]))


def test_symbol_graph_of_the_operators_runs_in_a_symbol_block() -> None:
    """mx.sym.contrib composes the operators into a graph (parameters named and shaped from the data, as
    MXNet's symbol.json holds them); the JSON round trip and SymbolBlock run it as the nd operators do."""
    data, offset = mx.sym.var("data"), mx.sym.var("offset")
    conv = mx.sym.contrib.DeformableConvolution(data, offset, kernel=(3, 3), num_filter=4, pad=(1, 1),
                                                name="dc")
    net = mx.sym.contrib.BatchNormWithReLU(conv, fix_gamma=False, name="bn")
    graph = mx.sym.load_json(net.tojson())
    assert graph.list_arguments() == ["data", "offset", "dc_weight", "dc_bias", "bn_gamma", "bn_beta"]
    block = mx.gluon.SymbolBlock(graph, [mx.sym.var("data"), mx.sym.var("offset")])
    block.initialize(mx.init.Xavier())
    rng = np.random.default_rng(11)
    x = mx.nd.array(rng.standard_normal((2, 3, 5, 5)).astype(np.float32))
    off = mx.nd.array(rng.uniform(-1, 1, (2, 18, 5, 5)).astype(np.float32))
    got = block(x, off).asnumpy()
    params = dict(block.collect_params().items())
    want = mx.nd.contrib.BatchNormWithReLU(
        mx.nd.contrib.DeformableConvolution(x, off, params["dc_weight"].data(), params["dc_bias"].data(),
                                            kernel=(3, 3), num_filter=4, pad=(1, 1)),
        params["bn_gamma"].data(), params["bn_beta"].data(), params["bn_moving_mean"].data(),
        params["bn_moving_var"].data(), fix_gamma=False).asnumpy()
    assert got.shape == (2, 4, 5, 5)
    assert_close(got, want, rtol=1e-5, scale_rtol=1e-6, what="SymbolBlock of the contrib graph")
