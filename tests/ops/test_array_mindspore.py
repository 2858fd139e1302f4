"""The array functions against real MindSpore 2.10: every case of tests/fixtures/mindspore/ops_array_cases.py
run by cellonnx and compared with ops_array.npz (written by gen_ops_array.py): the number and kind of the
outputs, their dtypes and shapes exactly, integer and bool values exactly, floats to float32 rounding."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cellonnx
from cellonnx import ops
from cellonnx.tensor import Tensor
from tests.tolerance import assert_close

FIXTURES = Path(__file__).parents[1] / "fixtures" / "mindspore"
sys.path.insert(0, str(FIXTURES))

from ops_array_cases import CASES, UNARY_MATH  # noqa: E402

EXPECTED = np.load(FIXTURES / "ops_array.npz")

# cases over ops that come from the math family: they run once those ops exist
NEEDS = {"sparse_unary_math": UNARY_MATH, "mvlgamma": ("lgamma",)}

# float results whose computation is long enough for float32 rounding to show beyond the default
LOOSE = {"lstsq": 1e-5, "crop_and_resize": 2e-6, "hamming_windows": 1e-6}


def _flatten(result: Any) -> list[Any]:
    return list(result) if isinstance(result, tuple) else [result]


def _array(value: Any) -> tuple[np.ndarray, str]:
    if isinstance(value, Tensor):
        return value.asnumpy(), "tensor"
    if isinstance(value, bool):
        return np.asarray(value), "bool"
    if isinstance(value, int):
        return np.asarray(value, np.int64), "int"
    if isinstance(value, float):
        return np.asarray(value, np.float64), "float"
    raise TypeError(f"unexpected output of type {type(value).__name__}")


def test_fixture_comes_from_mindspore_2_10() -> None:
    assert str(EXPECTED["meta/version"]).startswith("2.10")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name: str) -> None:
    missing = [op for op in NEEDS.get(name, ()) if not hasattr(ops, op)]
    if missing:
        pytest.skip(f"needs ops.{', ops.'.join(missing)} from the math functions")
    outputs = _flatten(CASES[name](cellonnx))
    kinds = list(EXPECTED[f"{name}/kinds"])
    assert len(outputs) == len(kinds), f"{name}: {len(outputs)} outputs, MindSpore gave {len(kinds)}"
    for i, (value, kind) in enumerate(zip(outputs, kinds)):
        got, got_kind = _array(value)
        want = EXPECTED[f"{name}/{i}"]
        what = f"{name} output {i}"
        assert got_kind == kind, f"{what}: a {got_kind}, MindSpore gave a {kind}"
        assert got.shape == want.shape, f"{what}: shape {got.shape}, MindSpore {want.shape}"
        assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, MindSpore {want.dtype}"
        if want.dtype.kind in "fc":
            assert_close(got, want, rtol=1e-5, scale_rtol=LOOSE.get(name, 1e-6), what=what)
        else:
            np.testing.assert_array_equal(got, want, err_msg=what)


def test_unique_gradient_goes_to_first_occurrences() -> None:
    """unique's values are gathered from the input, so they carry a gradient (MindSpore defines none)."""
    x = Tensor(np.array([0.5, -1.0, 0.5, 2.0, -1.0], np.float32))
    w = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    g = ops.grad(lambda t: ops.sum(ops.unique(t)[0] * w))(x)
    np.testing.assert_array_equal(g.asnumpy(), [1.0, 2.0, 0.0, 3.0, 0.0])


def test_scatter_mul_gradient_with_repeated_indices_is_exact() -> None:
    """d/du of x * u1 * u2 is x * (the other update): MindSpore's own gradient gives x alone there."""
    idx = Tensor(np.array([[0], [0], [1]], np.int32))
    x, u = Tensor(np.array([1.0, 2.0, 3.0])), Tensor(np.array([2.0, 3.0, 4.0]))
    gx, gu = ops.grad(lambda a, b: ops.sum(ops.tensor_scatter_mul(a, idx, b)), (0, 1))(x, u)
    np.testing.assert_allclose(gx.asnumpy(), [6.0, 4.0, 1.0])
    np.testing.assert_allclose(gu.asnumpy(), [3.0, 2.0, 2.0])


def test_in_place_updates_reach_a_parameter_not_the_value_given() -> None:
    p = cellonnx.Parameter(Tensor(np.zeros(3, np.float32)), name="p")
    value = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    ops.assign(p, value)
    ops.assign_add(p, 1.0)
    np.testing.assert_array_equal(p.asnumpy(), [2.0, 3.0, 4.0])
    np.testing.assert_array_equal(value.asnumpy(), [1.0, 2.0, 3.0])
    ops.scatter_nd_update(p, Tensor(np.array([[1]])), Tensor(np.array([9.0], np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), [2.0, 9.0, 4.0])


@pytest.mark.parametrize("call, message", [
    (lambda: ops.tensor_scatter_max(Tensor(np.zeros(2)), Tensor(np.array([[2]])), Tensor(np.ones(1))),
     "out of range"),
    (lambda: ops.unsorted_segment_sum(Tensor(np.zeros(2)), Tensor(np.array([0, 2])), 2), "out of range"),
    (lambda: ops.tensor_split(Tensor(np.zeros(3)), 0), "must be positive"),
    (lambda: ops.matrix_diag(Tensor(np.zeros((2, 2))), k=(0, 1), num_rows=3, num_cols=3), "do not fit"),
    (lambda: ops.crop_and_resize(Tensor(np.zeros((1, 2, 2, 1))), Tensor(np.zeros((1, 4))),
                                 Tensor(np.array([1], np.int32)), (2, 2)), "box_indices"),
])
def test_errors_name_the_op_and_the_problem(call: Any, message: str) -> None:
    with pytest.raises((ValueError, IndexError, TypeError), match=message):
        call()


def test_tensor_methods_call_the_functions() -> None:
    x = Tensor(np.arange(12.0, dtype=np.float32).reshape(3, 4))
    np.testing.assert_array_equal(x.ravel().asnumpy(), np.arange(12.0))
    np.testing.assert_array_equal(x.diagonal(1, 0, 1).asnumpy(), [1.0, 6.0, 11.0])
    assert [t.shape for t in x.hsplit(2)] == [(3, 2), (3, 2)]
    assert x.movedim(0, 1).shape == (4, 3) and x.expand(2, 3, 4).shape == (2, 3, 4)
    np.testing.assert_array_equal(x.take(Tensor(np.array([0, 5]))).asnumpy(), [0.0, 5.0])
    filled = x.index_fill(1, Tensor(np.array([0], np.int32)), -1.0)
    np.testing.assert_array_equal(filled.asnumpy()[:, 0], [-1.0] * 3)
    np.testing.assert_array_equal(x.aminmax(axis=1)[1].asnumpy(), [3.0, 7.0, 11.0])
    position = Tensor(np.array([1.0, 3.0])).searchsorted(Tensor(np.array([2.0])))
    np.testing.assert_array_equal(position.asnumpy(), [1])
