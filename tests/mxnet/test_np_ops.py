"""mx.np's and mx.npx's functions against real MXNet 1.9.1's (npx.set_np()): every row of np_cases.py, its
outputs' values, dtypes, shapes and Python types (fixtures: tests/fixtures/mxnet/gen_np_ops.py); and every
public function of MXNet 1.9.1's mx.np / mx.np.linalg / mx.npx that cellonnx.mxnet has too has a row."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import np_cases
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet"
FIXTURE = FIXTURES / "np_ops.npz"


@cache
def recorded() -> dict[str, np.ndarray]:
    with np.load(FIXTURE) as f:
        return {k: f[k] for k in f.files}


def _function(name: str):
    out = mx.np
    if name.startswith("npx."):
        out, name = mx.npx, name[4:]
    for part in name.split("."):
        out = getattr(out, part)
    return out


def _arrays(value):
    if isinstance(value, np.ndarray):
        return mx.np.array(value, dtype=value.dtype)
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], np.ndarray):
        return type(value)(_arrays(v) for v in value)
    return value


def _kind(value) -> str:
    if isinstance(value, np.dtype):
        return f"dtype[{value}]"  # NumPy 1.x's name of the class (MXNet's environment), 2.x's Float64DType
    if isinstance(value, np.bool_):
        return "bool_"  # NumPy 1.x's name of its bool scalar type (MXNet's environment), 2.x's numpy.bool
    return "ndarray" if isinstance(value, mx.np.ndarray) else type(value).__name__


def test_fixture_is_mxnet_1_9_1() -> None:
    assert str(recorded()["meta/version"]) == "1.9.1"


@pytest.mark.parametrize("case_id, name, args, kwargs", np_cases.CASES, ids=[c[0] for c in np_cases.CASES])
def test_matches_mxnet(case_id: str, name: str, args: list, kwargs: dict) -> None:
    values, keywords = np_cases.make_call(case_id, args, kwargs)
    out = _function(name)(*[_arrays(v) for v in values], **{k: _arrays(v) for k, v in keywords.items()})
    leaves, containers = np_cases.flatten(out)
    want_containers = {k.split("/", 2)[2] for k in recorded() if k.startswith(f"{case_id}/container/")}
    want_containers |= {"" for k in recorded() if k == f"{case_id}/container/"}
    for path, typename in containers.items():
        want = recorded().get(f"{case_id}/container/{path}")
        assert want is not None and str(want) == typename, \
            f"{case_id}: {path or 'the result'} is a {typename}, MXNet's {want}"
    assert set(containers) == want_containers, f"{case_id}: results nested as {containers}, MXNet's differ"
    want_paths = {k.split("/", 2)[2] for k in recorded() if k.startswith(f"{case_id}/out/")}
    assert {p for p, _ in leaves} == want_paths, f"{case_id}: outputs {[p for p, _ in leaves]}, MXNet's " \
        f"{sorted(want_paths)}"
    for path, got in leaves:
        w = recorded()[f"{case_id}/out/{path}"]
        kind = str(recorded()[f"{case_id}/type/{path}"])
        i = path
        assert _kind(got) == kind, f"{case_id}: output {i} is {_kind(got)}, MXNet's {kind}"
        if kind.startswith("dtype"):
            assert str(np.dtype(got)) == str(w), f"{case_id}: output {i} is {got}, MXNet's {w}"
            continue
        g = got.asnumpy() if isinstance(got, mx.np.ndarray) else np.asarray(got)
        assert g.shape == w.shape, f"{case_id}: output {i} shape {g.shape}, MXNet's {w.shape}"
        assert g.dtype == w.dtype, f"{case_id}: output {i} dtype {g.dtype}, MXNet's {w.dtype}"
        if case_id in np_cases.SHAPE_ONLY:
            continue
        if case_id in np_cases.UP_TO_SIGN:
            g, w = np.abs(g), np.abs(w)
        if w.dtype.kind == "f" and case_id not in np_cases.EXACT:
            assert_close(g, w, rtol=1e-5, scale_rtol=1e-6, what=f"{case_id} output {i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=case_id)


GRAD_CASES = [c for c in np_cases.CASES if c[0] in np_cases.GRADS]


@pytest.mark.parametrize("case_id, name, args, kwargs", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradients_match_mxnet(case_id: str, name: str, args: list, kwargs: dict) -> None:
    values, keywords = np_cases.make_call(case_id, args, kwargs)
    inputs = [_arrays(v) for v in values]
    for x in inputs:
        if isinstance(x, mx.np.ndarray):
            x.attach_grad()
    with mx.autograd.record():
        y = _function(name)(*inputs, **keywords)
        loss = (y * mx.np.array(np_cases.weights(tuple(y.shape)))).sum()
    loss.backward()
    for k, x in enumerate(inputs):
        if isinstance(x, mx.np.ndarray):
            want = recorded()[f"{case_id}/grad/{k}"]
            assert_close(x.grad.asnumpy(), want, rtol=1e-5, scale_rtol=1e-6, what=f"{case_id} grad {k}")


def test_every_shared_function_has_a_row() -> None:
    """Each public function of MXNet 1.9.1's mx.np / mx.np.linalg / mx.npx that cellonnx.mxnet also has is
    called by a row (or NOT_ROWED says why not)."""
    listed = json.loads((FIXTURES / "np_names.json").read_text())
    rowed = {("npx." + n[4:]) if n.startswith("npx.") else "np." + n for _, n, _, _ in np_cases.CASES}
    missing = []
    for namespace, names in listed.items():
        module = {"np": mx.np, "np.linalg": mx.np.linalg, "npx": mx.npx}[namespace]
        for name in names:
            full = f"{namespace}.{name}"
            if hasattr(module, name) and full not in rowed and full not in np_cases.NOT_ROWED:
                missing.append(full)
    assert not missing, f"functions without a row in tests/mxnet/np_cases.py: {missing}"
