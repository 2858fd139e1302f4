"""MindSpore 2.10's Tensor and Parameter methods: each public name (dumped from real MindSpore into
tests/fixtures/mindspore/names.json by gen_names.py) exists on cellonnx's with MindSpore's parameters, is
listed unsupported with its reason (cellonnx/unsupported.py; using it raises naming it), or is recorded as
still to do in pending/Tensor.txt / Parameter.txt (a name implemented but still listed fails); the calls of
tensor_method_cases.py give MindSpore's results, dtypes included. A method named with a trailing underscore
changes its receiver to its result, as MindSpore documents (its CPU build returns the result without writing
it back; its Ascend build writes it)."""
from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx.unsupported import (
    UNSUPPORTED_METHODS,
    UNSUPPORTED_PROPERTIES,
    UnsupportedAttribute,
    UnsupportedError,
)
from tests.mindspore_api.api import PENDING, mindspore_names_file
from tests.mindspore_api.signatures import mismatches
from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore"
sys.path.insert(0, str(FIXTURES))
from tensor_method_cases import CASES, Case, value  # noqa: E402

WANT = np.load(FIXTURES / "tensor_methods.npz")
KINDS = ["Tensor", "Parameter"]


def _receiver(kind: str) -> Any:
    value_ = np.ones((2, 2), np.float32)
    return ms.Tensor(value_) if kind == "Tensor" else ms.Parameter(ms.Tensor(value_), name="w")


def _status(obj: Any, name: str) -> str:
    """'implemented', 'unsupported' (cellonnx/unsupported.py's UNSUPPORTED_METHODS) or 'absent'."""
    try:
        raw = inspect.getattr_static(obj, name)
    except AttributeError:  # Tensor.__getattr__ may still give it (``init``)
        try:
            getattr(obj, name)
        except AttributeError:
            return "absent"
        return "implemented"
    return "unsupported" if isinstance(raw, UnsupportedAttribute) else "implemented"


def _pending(kind: str) -> set[str]:
    path = PENDING / f"{kind}.txt"
    lines = (line.strip() for line in path.read_text().splitlines()) if path.exists() else ()
    return {line for line in lines if line and not line.startswith("#")}


def _signature(name: str, row: dict[str, Any]) -> str | None:
    """MindSpore's signature; for a method of its C++ binding (no Python signature), the one its
    docstring opens with (``kthvalue(k, dim=-1, keepdim=False) -> Tensor``)."""
    if row.get("signature"):
        return row["signature"]
    found = re.match(rf"{re.escape(name)}(\(.*\))(\s*->.*)?$", row.get("summary", ""))
    return f"(self, {found.group(1)[1:]}" if found and found.group(1) != "()" else \
        ("(self)" if found else None)


def _names(kind: str) -> dict[str, dict[str, Any]]:
    return mindspore_names_file()["classes"][kind]


@pytest.mark.parametrize("kind", KINDS)
def test_every_method_is_implemented_unsupported_or_pending(kind: str) -> None:
    obj = _receiver(kind)
    absent = {n for n in _names(kind) if _status(obj, n) == "absent"}
    todo = _pending(kind)
    assert sorted(absent - todo) == [], f"{kind}: neither implemented, unsupported nor pending"
    assert sorted(todo - absent) == [], \
        f"{kind}: implemented or unsupported now; take them off pending/{kind}.txt"


@pytest.mark.parametrize("kind", KINDS)
def test_unsupported_methods_raise_naming_themselves(kind: str) -> None:
    obj = _receiver(kind)
    for name, reason in UNSUPPORTED_METHODS[kind].items():
        row = _names(kind).get(name)
        assert row is not None, f"{kind}.{name} is not a MindSpore 2.10 {kind} attribute"
        assert reason, f"{kind}.{name}: no reason given"
        assert (name in UNSUPPORTED_PROPERTIES) == (row["kind"] != "method"), \
            f"{kind}.{name}: MindSpore's is a {row['kind']}"
        assert _status(obj, name) == "unsupported", f"{kind}.{name} is listed but also implemented"
        message = rf"mindspore\.{kind}\.{name} is not available in cellonnx: "
        with pytest.raises(UnsupportedError, match=message):
            attr = getattr(obj, name)
            attr()


@pytest.mark.parametrize("kind", KINDS)
def test_method_signatures_accept_mindspore_calls(kind: str) -> None:
    """Each implemented method takes MindSpore's parameter names, positions and defaults (the known
    exceptions are in pending/signatures.txt as ``Tensor.<name>`` and must shrink)."""
    obj = _receiver(kind)
    differing = {}
    for name, row in _names(kind).items():
        theirs = _signature(name, row)
        if row["kind"] != "method" or not theirs or _status(obj, name) != "implemented":
            continue
        raw = inspect.getattr_static(obj, name)
        # bound: the receiver's parameter goes, whatever the ops function behind the method calls it
        ours = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else getattr(obj, name)
        if not callable(ours):
            differing[f"{kind}.{name}"] = ["not a method"]
            continue
        problems = mismatches(ours, theirs, skip_self=True)
        if not row.get("signature"):  # the docstring's form: its positions are those of the Python one
            problems = [p for p in problems if "is not positional parameter" not in p]
        if problems:
            differing[f"{kind}.{name}"] = problems
    known = {key for key in _pending("signatures") if key.split(".", 1)[0] == kind}
    new = {key: problems for key, problems in differing.items() if key not in known}
    assert new == {}, f"methods that do not accept MindSpore's calls: {new}"
    assert sorted(known - set(differing)) == [], \
        "these match MindSpore now; take them off pending/signatures.txt"


def _flat(out: Any) -> list[np.ndarray]:
    if hasattr(out, "values") and hasattr(out, "indices"):   # a COOTensor / CSRTensor
        parts = [out.indptr] if hasattr(out, "indptr") else []
        return [a for p in [*parts, out.indices, out.values] for a in _flat(p)] + [np.array(out.shape)]
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


# calls whose results differ from MindSpore's in cellonnx.ops itself (strict: each fails until fixed there)
KNOWN_DIFFERENCES = {
    "sum_int_dim": "ops.sum of an int32 tensor is int32 in cellonnx, int64 in MindSpore",
    "sort_dim": "ops.sort's indices are int64 in cellonnx, int32 in MindSpore",
    "topk_default_dim": "ops.topk's indices are int64 in cellonnx, int32 in MindSpore",
}


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[c.id]))
    if c.id in KNOWN_DIFFERENCES else c for c in CASES], ids=[c.id for c in CASES])
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
