"""What both porting suites compare with: fixtures written by the real framework, tolerances widened to the
framework's own sensitivity to input rounding, and the comparison of a network's outputs with them."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tests.tolerance import assert_close

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# float32 through 20-60 layers (batch statistics, softmax, layer norms) in another summation order
OUT_TOL = dict(rtol=1e-4, scale_rtol=1e-5)
GRAD_TOL = dict(rtol=1e-3, scale_rtol=1e-4)
# The fixtures record how far the framework's own result moves when its float inputs move by a relative 1e-6
# (``sens/<key>``, relative to the result's scale; the MXNet fixtures the most over four draws of that change,
# which meet the ReLU inputs within rounding of zero that one draw misses). A comparison is never asked to
# be closer than ten times that, and a result that moves by more than ILL_CONDITIONED is not compared at all:
# training-mode batch statistics over two samples of a 1x1 feature map (or of channels ReLU left at zero)
# make the framework's own outputs move by up to 100% (mobilenet_v2).
ILL_CONDITIONED = 1e-3


def fixture(framework: str, name: str) -> dict[str, np.ndarray]:
    """tests/fixtures/<framework>/ports/<name>.npz."""
    with np.load(FIXTURES / framework / "ports" / f"{name}.npz") as f:
        return dict(f)


def numpy(x: Any) -> np.ndarray:
    return x.asnumpy() if hasattr(x, "asnumpy") else np.asarray(x)


def take_batch(a: np.ndarray, batch: int) -> np.ndarray:
    """The first ``batch`` samples of ``a``, cycling through its samples when ``batch`` is larger (batch 5 of
    a batch-2 fixture is samples 0, 1, 0, 1, 0: an evaluation-mode network computes each sample on its own,
    so the framework's outputs cycle the same way)."""
    return a[np.arange(batch) % a.shape[0]]


def inputs(want: dict[str, np.ndarray], batch: int | None = None) -> list[np.ndarray]:
    arrays = [want[f"input/{i}"] for i in range(len([k for k in want if k.startswith("input/")]))]
    return [take_batch(a, batch) if batch else a for a in arrays]


def outputs(want: dict[str, np.ndarray], stage: str) -> list[np.ndarray]:
    return [want[f"{stage}/{i}"] for i in range(len([k for k in want if k.startswith(stage + "/")]))]


def tol(want: dict[str, np.ndarray], key: str, base: dict[str, float]) -> dict[str, float]:
    """``base``, widened to ten times the framework's own sensitivity of ``key`` to input rounding, and to ten
    times its own float32 error (``err/<key>``: its float32 result against its float64 one, where the fixture
    records it)."""
    sens = float(want.get(f"sens/{key}", 0.0))
    err = float(want.get(f"err/{key}", 0.0))
    return dict(rtol=base["rtol"], scale_rtol=max(base["scale_rtol"], 10 * sens, 10 * err))


def conditioned(want: dict[str, np.ndarray], key: str) -> bool:
    return float(want.get(f"sens/{key}", 0.0)) <= ILL_CONDITIONED


def ill_conditioned(want: dict[str, np.ndarray], stage: str) -> list[str]:
    """The keys of ``stage`` that the framework's own rounding moves too much to compare."""
    return [k for k in want if k.startswith(f"sens/{stage}/") and not conditioned(want, k[5:])]


def compare(got: list[Any], want: dict[str, np.ndarray], stage: str, what: str, batch: int | None = None,
            reference: str = "the framework") -> None:
    expected = outputs(want, stage)
    assert len(got) == len(expected), f"{what}: {len(got)} outputs, {reference} gives {len(expected)}"
    for i, (g, w) in enumerate(zip(got, expected)):
        g = numpy(g)
        w = take_batch(w, batch) if batch and w.ndim else w
        if w.dtype.kind in "fc":
            assert_close(g, w, **tol(want, f"{stage}/{i}", OUT_TOL), what=f"{what} output {i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{what} output {i}")
