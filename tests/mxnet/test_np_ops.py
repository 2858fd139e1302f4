"""mx.np's functions (cellonnx.numpy's, called the NumPy way) against real MXNet 1.9.1's mx.np: every row of
np_cases.py, outputs and their dtypes (fixtures: tests/fixtures/mxnet/gen_np_ops.py)."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

import cellonnx.mxnet as mx
from tests.mxnet import np_cases
from tests.tolerance import assert_close

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "np_ops.npz"


@cache
def recorded() -> dict[str, np.ndarray]:
    with np.load(FIXTURE) as f:
        return {k: f[k] for k in f.files}


def _function(name: str):
    out = mx.np
    for part in name.split("."):
        out = getattr(out, part)
    return out


def _arrays(value):
    if isinstance(value, np.ndarray):
        return mx.np.array(value, dtype=value.dtype)
    if isinstance(value, list) and value and isinstance(value[0], np.ndarray):
        return [_arrays(v) for v in value]
    return value


def test_fixture_is_mxnet_1_9_1() -> None:
    assert str(recorded()["meta/version"]) == "1.9.1"


@pytest.mark.parametrize("case_id, name, args, kwargs", np_cases.CASES, ids=[c[0] for c in np_cases.CASES])
def test_matches_mxnet(case_id: str, name: str, args: list, kwargs: dict) -> None:
    out = _function(name)(*[_arrays(v) for v in np_cases.make_args(case_id, args)], **kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    want = [recorded()[f"{case_id}/out/{i}"] for i in range(len(outs))]
    assert f"{case_id}/out/{len(outs)}" not in recorded(), f"{case_id}: MXNet gives more outputs"
    for i, (got, w) in enumerate(zip(outs, want)):
        assert isinstance(got, mx.np.ndarray), f"{case_id}: output {i} is {type(got).__name__}"
        g = got.asnumpy()
        assert g.shape == w.shape, f"{case_id}: output {i} shape {g.shape}, MXNet's {w.shape}"
        assert g.dtype == w.dtype, f"{case_id}: output {i} dtype {g.dtype}, MXNet's {w.dtype}"
        if w.dtype.kind == "f":
            assert_close(g, w, rtol=1e-5, scale_rtol=1e-6, what=f"{case_id} output {i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=case_id)
