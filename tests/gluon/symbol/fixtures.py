"""Loading the symbol fixtures MXNet 1.9.1 wrote (tests/fixtures/mxnet/gen_symbols.py): the case index, the
inputs and parameter values both sides make from seeds, MXNet's recorded results, and the comparisons."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from cellonnx.converters import mxnet_format

from cellonnx import Tensor
from cellonnx.gluon import SymbolBlock
from tests.tolerance import assert_close, scale_of

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures" / "mxnet"
SYMBOLS = FIXTURES / "symbol"
sys.path.insert(0, str(FIXTURES))
from symbol_values import anchors, input_value, param_value, probe  # noqa: E402

RTOL = 1e-4  # the brief's tolerance: relative to each value
SCALE_RTOL = 1e-5  # and relative to the result's scale (float32 sums in another order)
GRAD_SCALE_RTOL = 1e-4
ROUNDING = 4.0  # times MXNet's float32-vs-float64 error of the same value


@cache
def index() -> dict[str, dict]:
    return json.loads((SYMBOLS / "cases.json").read_text())


def case_names(**flags: Any) -> list[str]:
    """Cases whose options match ``flags`` (an option absent counts as its default)."""
    defaults = {"grad": True, "random": False}
    out = []
    for name, entry in index().items():
        opts = {**defaults, **entry["opts"]}
        if all(opts.get(k, defaults.get(k)) == v for k, v in flags.items()):
            out.append(name)
    return sorted(out)


@cache
def expected(name: str) -> dict[str, np.ndarray]:
    with np.load(SYMBOLS / "expected" / f"{name}.npz") as f:
        return {k: f[k] for k in f.files}


def make_inputs(name: str) -> list[np.ndarray]:
    out = []
    for iname, shape, dtype, low, high in index()[name]["inputs"]:
        out.append(
            anchors(name, shape) if dtype == "anchors" else input_value(name, iname, shape, dtype, low, high)
        )
    return out


def params_file(name: str, tmp: Path) -> Path:
    """The committed .params MXNet wrote, or one written here from the seeded values under MXNet's keys."""
    committed = SYMBOLS / f"{name}-0000.params"
    if committed.exists():
        return committed
    arrays = {}
    for key, (shape, dtype) in index()[name]["params"].items():
        arrays[key] = param_value(key[4:], tuple(shape), dtype)
    path = tmp / f"{name}-0000.params"
    mxnet_format.write(path, arrays)
    return path


def load(name: str, tmp: Path) -> SymbolBlock:
    entry = index()[name]
    return SymbolBlock.imports(
        SYMBOLS / f"{name}-symbol.json", [i[0] for i in entry["inputs"]], params_file(name, tmp)
    )


OTHER_BATCHES = (1, 5)  # the generator also records inference at these batch sizes


def batch_slice(x: np.ndarray, axis: int | None, size: int = 1) -> np.ndarray:
    """The generator's input at batch ``size``: the first samples along ``axis``, cycled when ``size`` is
    larger; an input of one sample is shared."""
    if axis is None or x.ndim == 0 or x.shape[axis] == 1:
        return x
    return np.take(x, np.arange(size) % x.shape[axis], axis=axis)


def flat(out: Any) -> list[Tensor]:
    return list(out) if isinstance(out, (list, tuple)) else [out]


def summary(key: str, arr: np.ndarray, head: int = 64) -> dict[str, np.ndarray]:
    """The generator's summary of ``arr``: its ``head`` leading values, norm and projection on a seeded
    vector."""
    flat64 = np.asarray(arr).reshape(-1).astype(np.float64)
    proj = probe(key, 0, flat64.shape).astype(np.float64)
    return {
        f"{key}#head": np.asarray(arr).reshape(-1)[:head],
        f"{key}#norm": np.array(np.linalg.norm(flat64)),
        f"{key}#proj": np.array(flat64 @ proj),
    }


def gradient_scale(want: dict[str, np.ndarray]) -> float:
    """The largest gradient magnitude of a case: a gradient that is zero in exact arithmetic (a bias before a
    batch norm) comes out as float32 rounding of terms this large, so it is compared on this scale."""
    scales = [scale_of(v) for k, v in want.items() if k.startswith(("grad/", "grad_in/")) and "#" not in k]
    scales += [
        float(v) / np.sqrt(max(want[k.replace("#norm", "#head")].size, 1))
        for k, v in want.items()
        if k.startswith(("grad/", "grad_in/")) and k.endswith("#norm")
    ]
    return max(scales, default=1.0)


def compare(
    got: np.ndarray,
    want: dict[str, np.ndarray],
    key: str,
    what: str,
    scale_rtol: float = SCALE_RTOL,
    floor: float = 0.0,
) -> None:
    """``got`` against the generator's record under ``key`` (full, or summarized); ``floor``: the smallest
    scale the scale-relative term uses."""
    # MXNet's own float32 result is this far from its float64 one (relative to the scale): an ill-conditioned
    # value carries that much rounding in any float32 implementation
    scale_rtol = max(scale_rtol, ROUNDING * float(want.get(f"err/{key}", 0.0)))
    if key in want:
        g = np.asarray(got)
        w = want[key]
        if w.dtype.kind in "fc" or g.dtype.kind in "fc":
            own = scale_of(w.astype(np.float64))
            assert_close(
                g.astype(np.float64), w.astype(np.float64), RTOL, scale_rtol * max(own, floor) / own, what
            )
        else:
            np.testing.assert_array_equal(g, w, err_msg=what)
        return
    assert f"{key}#norm" in want, f"{what}: MXNet recorded no {key}"
    mine = summary(key, got, want[f"{key}#head"].size)
    norm = float(want[f"{key}#norm"])
    own = scale_of(want[f"{key}#head"].astype(np.float64))
    assert_close(
        mine[f"{key}#head"],
        want[f"{key}#head"],
        RTOL,
        scale_rtol * max(own, floor) / own,
        f"{what} (first values)",
    )
    # elementwise, the values are held within RTOL of themselves plus ``slack`` (the scale-relative term the
    # full comparison uses); over n values that bounds the error vector's norm by RTOL * norm + sqrt(n) *
    # slack,
    # hence the norm's error (triangle inequality) and the projection's (Cauchy-Schwarz, times |p|)
    n = np.asarray(got).size
    slack = scale_rtol * max(own, floor)
    bound = RTOL * norm + np.sqrt(n) * slack
    err = abs(float(mine[f"{key}#norm"]) - norm)
    assert err <= bound, f"{what} (norm): {float(mine[f'{key}#norm'])} against {norm} (bound {bound:.3g})"
    bound *= float(np.linalg.norm(probe(key, 0, (n,)).astype(np.float64)))
    err = abs(float(mine[f"{key}#proj"]) - float(want[f"{key}#proj"]))
    assert err <= bound, (
        f"{what} (projection): {float(mine[f'{key}#proj'])} against {float(want[f'{key}#proj'])}"
    )
