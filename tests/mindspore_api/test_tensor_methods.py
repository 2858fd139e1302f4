"""MindSpore 2.10's Tensor and Parameter methods: each public name (dumped from real MindSpore into
tests/fixtures/mindspore/tensor_methods.npz by gen_tensor_methods.py) exists on cellonnx's, or is recorded as
still to do in pending/Tensor.txt (a name implemented but still listed fails); the calls of
tensor_method_cases.py give MindSpore's results, dtypes included. A method named with a trailing underscore
changes its receiver to its result, as MindSpore documents (its CPU build returns the result without writing
it back; its Ascend build writes it)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from tests.mindspore_api.api import PENDING
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore"
sys.path.insert(0, str(FIXTURES))
from tensor_method_cases import CASES, Case, value  # noqa: E402

WANT = np.load(FIXTURES / "tensor_methods.npz")


def _has(obj: Any, name: str) -> bool:
    try:
        getattr(obj, name)
    except AttributeError:
        return False
    except Exception:  # noqa: BLE001 - it exists, this receiver just cannot give it
        return True
    return True


def _pending(kind: str) -> set[str]:
    path = PENDING / f"{kind}.txt"
    lines = (line.strip() for line in path.read_text().splitlines()) if path.exists() else ()
    return {line for line in lines if line and not line.startswith("#")}


@pytest.mark.parametrize("kind", ["Tensor", "Parameter"])
def test_every_method_is_implemented_or_pending(kind: str) -> None:
    value_ = np.ones((2, 2), np.float32)
    obj = ms.Tensor(value_) if kind == "Tensor" else ms.Parameter(ms.Tensor(value_), name="w")
    absent = {str(n) for n in WANT[f"names/{kind}"] if not _has(obj, str(n))}
    todo = _pending(kind)
    assert sorted(absent - todo) == [], f"{kind}: neither implemented nor pending"
    assert sorted(todo - absent) == [], f"{kind}: implemented now; take them off pending/{kind}.txt"


def _flat(out: Any) -> list[np.ndarray]:
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _flat(o)]
    if isinstance(out, ms.Tensor):
        return [out.asnumpy()]
    if isinstance(out, ms.dtype.Type):
        return [np.array(str(out))]
    return [np.array(out)]


def _expected(case: Case) -> tuple[list[np.ndarray], np.ndarray]:
    if f"{case.id}/error" in WANT.files:
        assert case.ref is not None, f"{case.id}: MindSpore refused the call ({WANT[case.id + '/error']})"
        return case.ref(case.receiver.copy(), *case.args)
    outs = [WANT[f"{case.id}/out{k}"] for k in range(len(WANT.files)) if f"{case.id}/out{k}" in WANT.files]
    return outs, WANT[f"{case.id}/receiver"]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_method_matches_mindspore(case: Case) -> None:
    want, want_receiver = _expected(case)
    receiver = ms.Tensor(case.receiver.copy())
    args = [value(a, ms.Tensor, lambda n: getattr(ms, n)) for a in case.args]
    kwargs = {k: value(v, ms.Tensor, lambda n: getattr(ms, n)) for k, v in case.kwargs.items()}
    attr = getattr(receiver, case.method)
    got = _flat(attr(*args, **kwargs) if callable(attr) else attr)
    assert len(got) == len(want), f"{case.id}: {len(got)} results, MindSpore gives {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype or (g.dtype.kind == w.dtype.kind == "U"), \
            f"{case.id}: result {k} is {g.dtype}, MindSpore's {w.dtype}"
        assert_close(g, w, rtol=1e-6, scale_rtol=1e-6, what=f"{case.id}: result {k}")
    after = receiver.asnumpy()
    if case.method.endswith("_"):
        assert_close(after, got[0], rtol=0, scale_rtol=0, what=f"{case.id}: the receiver after the call")
    else:
        assert_close(after, want_receiver, rtol=0, scale_rtol=0, what=f"{case.id}: the receiver is unchanged")
