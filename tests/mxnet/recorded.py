"""The fixtures that MXNet 1.9.1 wrote for the table-driven mx.io / mx.image tests (an .npz keyed
"<case>/<i>"), and the comparison of a case's results with them."""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from tests.tolerance import assert_close


@cache
def load(path: Path) -> dict[str, np.ndarray]:
    """Every array of the fixture ``path``."""
    with np.load(path) as f:
        return {k: f[k] for k in f.files}


def assert_matches(name: str, got: list[Any], recorded: dict[str, np.ndarray],
                   float_rtol: float | None = None) -> None:
    """Case ``name``'s results equal MXNet's: strings and integers exactly, floats exactly too or, with
    ``float_rtol``, within it (relative to the values' scale)."""
    want = [recorded[k] for k in sorted((k for k in recorded if k.startswith(f"{name}/")),
                                        key=lambda k: int(k.split("/")[1]))]
    assert len(got) == len(want), f"{name}: {len(got)} results, MXNet's {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        if w.dtype.kind == "U":
            assert str(g) == str(w), f"{name} result {i}"
            continue
        g = np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype, \
            f"{name} result {i}: {g.shape} {g.dtype}, MXNet's {w.shape} {w.dtype}"
        if w.dtype.kind == "f" and float_rtol is not None:
            assert_close(g, w, rtol=float_rtol, scale_rtol=float_rtol, what=f"{name} result {i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{name} result {i}")
