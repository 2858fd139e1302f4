"""MXNet's behaviour that MXNet code relies on, against real MXNet 1.9.1: operators raise MXNetError, arrays
and Gluon parameters keep their device, rint's ties, x.grad's type (rows: semantics_cases.py; fixture:
tests/fixtures/mxnet/semantics.json written by gen_semantics.py)."""
from __future__ import annotations

import builtins
import json
from pathlib import Path

import pytest

import cellonnx.mxnet as mx
from cellonnx.ops.registry import OpError
from tests.mxnet import semantics_cases

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mxnet" / "semantics.json"
WANT = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("case", semantics_cases.CASES, ids=[c[0] for c in semantics_cases.CASES])
def test_matches_mxnet(case: tuple[str, str]) -> None:
    case_id, code = case
    kind, answer, exc = semantics_cases.run(mx, code)
    want_kind, want = WANT[case_id]
    if want_kind == "error" and want != "MXNetError":
        # MXNet's Python layer raised a builtin error: ours is one too (it may also be an MXNetError)
        assert kind == "error" and isinstance(exc, getattr(builtins, want)), f"{case_id}: {kind} {answer}"
        return
    assert (kind, answer) == (want_kind, want), f"{case_id}: got {kind} {answer!r}, MXNet {want!r}"


def test_operator_errors_stay_cellonnx_errors() -> None:
    """An operator's MXNetError is still the OpError / ValueError cellonnx raised, with its message."""
    with pytest.raises(mx.MXNetError) as info:
        mx.nd.ones((2, 3)) + mx.nd.ones((3, 3))
    assert isinstance(info.value, OpError) and isinstance(info.value, ValueError)
    assert "(2, 3)" in str(info.value) and "(3, 3)" in str(info.value)
    with pytest.raises(OpError):
        mx.np.ones((2, 3)) + mx.np.ones((3, 3))
    # outside the MXNet namespaces the error is cellonnx's own
    from cellonnx import Tensor, ops
    with pytest.raises(OpError) as plain:
        ops.add(Tensor([[1.0, 2.0, 3.0]] * 2), Tensor([[1.0, 2.0, 3.0]] * 3))
    assert not isinstance(plain.value, mx.MXNetError)


def test_gpu_needs_cuda() -> None:
    if mx.num_gpus():
        assert mx.nd.array([1], ctx=mx.gpu(0)).ctx == mx.gpu(0)
    else:
        with pytest.raises(mx.MXNetError, match="gpu"):
            mx.np.zeros(2, device=mx.gpu(0))
