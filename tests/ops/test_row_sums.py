"""row_sums: trailing-axis sums as a matrix-vector product, where it applies, equal to NumPy's sum."""
from __future__ import annotations

import numpy as np
import pytest

from cellonnx.ops.prims._util import ROW_SUM_MAX, row_sums
from tests.ops.harness import rand
from tests.tolerance import assert_close, sum_rtol


def f32(*shape: int) -> np.ndarray:
    return rand(*shape).astype(np.float32)


# (id, array, axes, keepdims, applies)
CASES = [
    ("last_axis", f32(64, 28), (1,), False, True),
    ("last_axis_negative_kept", f32(4, 16, 5), (-1,), True, True),
    ("two_trailing_axes", f32(70, 3, 4), (1, 2), False, True),
    ("float64", rand(64, 9).astype(np.float64), (1,), True, True),
    ("special_values", np.where(f32(64, 6) > 1, np.float32(np.inf), f32(64, 6)), (1,), False, True),
    ("few_rows", f32(63, 28), (1,), False, False),
    ("not_trailing", f32(64, 5, 3), (1,), False, False),
    ("all_axes", f32(64, 28), None, False, False),
    ("float16", f32(64, 28).astype(np.float16), (1,), False, False),
    ("integers", np.arange(64 * 4).reshape(64, 4), (1,), False, False),
    ("not_contiguous", f32(28, 64).T, (1,), False, False),
    ("row_too_long", f32(64, ROW_SUM_MAX + 1), (1,), False, False),
]


@pytest.mark.parametrize(("x", "axes", "keepdims", "applies"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_row_sums(x, axes, keepdims, applies) -> None:
    got = row_sums(x, axes, keepdims)
    assert (got is not None) == applies
    if got is not None:
        want = np.sum(x.astype(np.float64), axis=axes, keepdims=keepdims)
        assert got.dtype == x.dtype and got.shape == want.shape
        terms = x.size // got.size
        scale_rtol = sum_rtol(terms) if x.dtype == np.float32 else 1e-12
        assert_close(got, want, rtol=1e-6, scale_rtol=scale_rtol, what=f"sums of {terms} {x.dtype} terms")
