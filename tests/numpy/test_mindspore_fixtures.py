"""cellonnx.numpy against real MindSpore 2.10: every case of tests/fixtures/mindspore/numpy_cases.py,
evaluated with ``np`` bound to cellonnx.numpy on the inputs gen_numpy.py recorded, gives the dtypes, shapes,
values and result structure (tuple or list) that mindspore.numpy gave.

Cases where MindSpore raised are not compared (cellonnx accepts more inputs, see each case). The cases in
``DIFFERS`` differ from MindSpore on purpose; they are checked against NumPy in test_numpy_table.py.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as onp
import pytest

import cellonnx as ms
import cellonnx.numpy as mnp
from cellonnx.dtypes import DType
from cellonnx.tensor import Tensor
from tests.fixtures.mindspore.numpy_cases import CASES, SHAPE_ONLY
from tests.tolerance import assert_close

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "numpy"
RECORD = json.loads((HERE / "results.json").read_text())["cases"]
ARRAYS = onp.load(HERE / "results.npz")
INPUTS = {k.split("/", 1)[1]: ARRAYS[k] for k in ARRAYS.files if k.startswith("input/")}

# cases whose MindSpore result cellonnx does not reproduce, on purpose
DIFFERS = {
    "cbrt_zeros": "MindSpore computes the sign as x / |x|, NaN at 0; cbrt(0) is 0 here, as in NumPy",
    "sign_special": "MindSpore computes sign(x) as x / |x|, NaN for +-inf; here +-1, as in NumPy",
    "log1p_small": "MindSpore computes log(1 + x) in float32, losing the digits of small x (1% at 1e-5); "
                   "log1p here keeps them, as NumPy's",
    "expm1_small": "MindSpore's expm1 loses the digits of small x (0.1% at 1e-5); here they are kept, as "
                   "in NumPy",
    "nanmax_all_nan": "MindSpore gives -9.2e18 (its fill value) for an all-NaN slice; here NaN, as NumPy",
    "nanmin_all_nan": "MindSpore gives 9.2e18 (its fill value) for an all-NaN slice; here NaN, as NumPy",
    "add_i8_u8": "MindSpore's CPU kernel adds int8 and uint8 wrongly (each uint8 value comes out 256 too "
                 "low); here int16 with the right sums, as in NumPy",
}

# float16 results carry float16's rounding (about 1e-3 relative)
RTOL = {"Float16": 2e-3, "Float32": 1e-5, "Float64": 1e-5}


def _flatten(result: Any, out: list[dict]) -> None:
    if isinstance(result, Tensor):
        out.append({"kind": "array", "dtype": str(result.dtype), "value": result.asnumpy()})
    elif isinstance(result, (tuple, list)):
        out.append({"kind": "begin", "type": type(result).__name__, "len": len(result)})
        for item in result:
            _flatten(item, out)
    elif isinstance(result, (bool, int, float, str)):
        out.append({"kind": "python", "type": type(result).__name__, "value": result})
    elif isinstance(result, DType):
        out.append({"kind": "dtype", "value": str(result)})
    else:
        raise TypeError(f"cannot compare a {type(result).__name__}")


def _python(value: Any) -> Any:
    if isinstance(value, str) and value in ("nan", "inf", "-inf"):
        return float(value)
    return value


def _same_python(got: Any, want: Any) -> bool:
    want = _python(want)
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    return type(got) is type(want) and got == want


CASE_IDS = [name for name, _ in CASES if "error" not in RECORD.get(name, {"error": 1})]


def test_fixture_matches_the_case_list() -> None:
    assert sorted(RECORD) == sorted(name for name, _ in CASES), "rerun tests/fixtures/mindspore/gen_numpy.py"
    for name, expr in CASES:
        assert RECORD[name]["expr"] == expr, f"{name}: the expression changed; rerun gen_numpy.py"


@pytest.mark.parametrize("case", CASE_IDS)
def test_case(case: str) -> None:
    if case in DIFFERS:
        pytest.skip(DIFFERS[case])
    expr = dict(CASES)[case]
    env = {"np": mnp, "onp": onp, "ms": ms, "T": lambda name: Tensor(INPUTS[name].copy())}
    ms.set_seed(0)
    got: list[dict] = []
    _flatten(eval(expr, env), got)
    want = RECORD[case]["outputs"]
    assert [o["kind"] for o in got] == [o["kind"] for o in want], f"{case}: result structure {got} vs {want}"
    for i, (g, w) in enumerate(zip(got, want)):
        what = f"{case} ({expr}) output {i}"
        if w["kind"] == "begin":
            assert (g["type"], g["len"]) == (w["type"], w["len"]), f"{what}: {g['type']} of {g['len']}, " \
                                                                   f"MindSpore {w['type']} of {w['len']}"
        elif w["kind"] == "python":
            assert _same_python(g["value"], w["value"]), f"{what}: {g['value']!r}, MindSpore {w['value']!r}"
        elif w["kind"] == "dtype":
            assert g["value"] == w["value"], f"{what}: {g['value']!r}, MindSpore {w['value']!r}"
        else:
            value, ref = g["value"], ARRAYS[w["key"]]
            assert g["dtype"] == w["dtype"], f"{what}: dtype {g['dtype']}, MindSpore {w['dtype']}"
            assert value.shape == ref.shape, f"{what}: shape {value.shape}, MindSpore {ref.shape}"
            if case in SHAPE_ONLY:
                continue
            if ref.dtype.kind == "f":
                assert_close(value, ref, RTOL[w["dtype"]], RTOL[w["dtype"]] / 10, what=what)
            else:
                onp.testing.assert_array_equal(value, ref, err_msg=what)
