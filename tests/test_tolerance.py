"""The scale-relative comparison of tests/tolerance.py: float32 rounding passes, a real error does not."""
from __future__ import annotations

import numpy as np
import pytest

from tests.tolerance import assert_close, close_mask, sum_rtol


def test_float32_rounding_of_a_long_sum_passes_against_float64() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 4096))
    b = rng.standard_normal(4096)
    got = a.astype(np.float32) @ b.astype(np.float32)
    assert_close(got, a @ b, rtol=1e-5, scale_rtol=1e-5, what="4096-term dot products")


def test_an_element_near_zero_is_judged_by_the_scale_of_the_result() -> None:
    want = np.array([100.0, 1e-9])
    assert close_mask(want + [0.0, 1e-5], want, rtol=1e-6, scale_rtol=1e-6).all()
    assert not close_mask(want + [0.0, 1e-3], want, rtol=1e-6, scale_rtol=1e-6).all()


@pytest.mark.parametrize("got", [[1.0, 2.0, 3.01], [1.0, np.nan, 3.0], [1.0, 2.0, np.inf]])
def test_a_wrong_element_fails_naming_it(got: list[float]) -> None:
    with pytest.raises(AssertionError, match=r"1 of 3 elements differ"):
        assert_close(np.array(got), np.array([1.0, 2.0, 3.0]), what="row")


def test_matching_nans_and_infinities_pass() -> None:
    want = np.array([np.nan, np.inf, -np.inf, 1.0])
    assert_close(want.copy(), want)


def test_sum_rtol_grows_with_the_square_root_of_the_terms() -> None:
    assert sum_rtol(1) == pytest.approx(4 * np.finfo(np.float32).eps)
    assert sum_rtol(400) == pytest.approx(20 * sum_rtol(1))
