"""The cellonnx.numpy table (tests/numpy/cases.py): each row's values against NumPy in float64 (within the
scale-relative tolerance of tests/tolerance.py), its gradients against central finite differences, and its
traced graph through onnxruntime against eager (tests/ops/harness.py); plus a check that every name of
MindSpore's mindspore.numpy has a row here or a recorded MindSpore fixture case."""
from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from cellonnx.tensor import Tensor
from tests.fixtures.mindspore.numpy_cases import CASES as FIXTURE_CASES
from tests.mindspore_api.api import mindspore_names
from tests.numpy.cases import CASES
from tests.ops.harness import as_run_dtype, check_grad, check_lowering, lowering_params
from tests.tolerance import assert_close


def _arrays(result: Any) -> list[Any]:
    if isinstance(result, (tuple, list)):
        return [a for item in result for a in _arrays(item)]
    return [result.asnumpy() if isinstance(result, Tensor) else np.asarray(result)]


def test_row_names_unique() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


@pytest.mark.parametrize("case", CASES, ids=str)
def test_forward(case) -> None:
    arrays = [as_run_dtype(a) for a in case.inputs]
    got = _arrays(case.fn(*[Tensor(a) for a in arrays]))
    want = _arrays(case.ref(*[np.asarray(a) for a in case.inputs]))
    assert len(got) == len(want), f"{case.name}: {len(got)} outputs, NumPy has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        what = f"{case.name} output {i}"
        assert g.shape == w.shape, f"{what}: shape {g.shape}, NumPy {w.shape}"
        if w.dtype.kind == "f" or g.dtype.kind == "f":
            assert g.dtype.kind == "f" or w.dtype.kind != "f", f"{what}: {g.dtype} for NumPy's {w.dtype}"
            rtol = 1e-3 if g.dtype == np.float16 else case.rtol
            assert_close(g, w, rtol, case.params.get("scale_rtol", rtol / 10), what=what)
        else:
            np.testing.assert_array_equal(g, w, err_msg=what)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_gradient(case) -> None:
    check_grad(case)


@pytest.mark.parametrize("case,opset", lowering_params(CASES), ids=lambda v: str(v))
def test_lowering(case, opset) -> None:
    check_lowering(case, opset)


def _called(source: str) -> set[str]:
    return set(re.findall(r"\b(?:mnp|np)\.([A-Za-z_][A-Za-z0-9_]*)", source))


def test_every_name_is_exercised() -> None:
    """Each function of mindspore.numpy is called by a row here or by a case recorded from MindSpore."""
    import inspect

    import tests.numpy.cases as rows
    called = _called(inspect.getsource(rows)) | {n for _, expr in FIXTURE_CASES for n in _called(expr)}
    functions = [n for n, row in mindspore_names()["mindspore.numpy"].items() if row["kind"] == "function"]
    assert sorted(set(functions) - called) == []
