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
