"""float32 comparisons that hold on any BLAS kernel and thread count.

A float32 sum of K terms carries a rounding error of about sqrt(K) * 1.2e-7 times the size of its terms, and
its order (and so its last bits) changes with the BLAS kernel, the thread count and the library computing it.
An element near zero can be the difference of large terms, so its error is set by the scale of the whole
result, not by its own value: a bare absolute tolerance passes on the machine it was tuned on and fails on
the next. Here every element gets ``rtol * |want| + scale_rtol * scale``, with ``scale`` the largest finite
magnitude of ``want``.
"""
from __future__ import annotations

from typing import Any

import numpy as np


def _wide(a: Any) -> np.ndarray:
    """float64, or complex128 for complex values (compared by the modulus of their difference)."""
    a = np.asarray(a)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def scale_of(want: np.ndarray) -> float:
    """The largest finite magnitude of ``want`` (1.0 for an empty or all-non-finite array)."""
    finite = np.abs(want[np.isfinite(want)]) if want.dtype.kind in "fc" else np.abs(want)
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0


def close_mask(got: Any, want: Any, rtol: float, scale_rtol: float, min_scale: float = 0.0) -> np.ndarray:
    """Elementwise |got - want| <= rtol * |want| + scale_rtol * max(scale(want), min_scale); NaN and inf must
    match. ``min_scale=1`` makes ``scale_rtol`` an absolute tolerance for results smaller than one."""
    got, want = _wide(got), _wide(want)
    tol = rtol * np.abs(want) + scale_rtol * max(scale_of(want), min_scale)
    with np.errstate(invalid="ignore"):
        ok = np.abs(got - want) <= tol
    return ok | (np.isnan(got) & np.isnan(want)) | (np.isinf(want) & (got == want))


def worst_error(got: Any, want: Any) -> str:
    """The largest difference, absolute and relative to the scale, for a failure message."""
    got, want = _wide(got), _wide(want)
    with np.errstate(invalid="ignore"):
        diff = np.nan_to_num(np.abs(got - want), nan=np.inf)
    worst = float(diff.max()) if diff.size else 0.0
    return f"max |diff| {worst:.3g} ({worst / scale_of(want):.3g} of the scale {scale_of(want):.3g})"


def assert_close(got: Any, want: Any, rtol: float = 1e-5, scale_rtol: float = 1e-6, what: str = "",
                 min_scale: float = 0.0) -> None:
    """Fails naming the worst element when ``got`` is not within the scale-relative tolerance of ``want``."""
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    if got.dtype.kind in "biuOUS" and want.dtype.kind in "biuOUS":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    ok = close_mask(got, want, rtol, scale_rtol, min_scale)
    if not ok.all():
        index = np.unravel_index(int(np.argmin(ok)), ok.shape) if ok.ndim else ()
        raise AssertionError(
            f"{what}: {int((~ok).sum())} of {ok.size} elements differ; {worst_error(got, want)}; "
            f"first at {index}: {got[index]!r} against {want[index]!r} "
            f"(rtol {rtol}, scale_rtol {scale_rtol})")
