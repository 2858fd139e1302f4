"""MindSpore's random operator classes (``ops.StandardNormal``, ``ops.UniformReal``, ``ops.UniformInt``,
``ops.Bernoulli``): table rows over the functional random ops. ``seed`` / ``seed2`` 0 draw from the global
generator (``set_seed``); otherwise ``seed`` seeds the draw."""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx.ops.operations._util import ints
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _seed(seed: int, seed2: int) -> int | None:
    return None if seed == 0 and seed2 == 0 else int(seed or seed2)


def _scalar(v: Any) -> Any:
    return v.asnumpy().item() if isinstance(v, Tensor) else v


def _uniform_int(shape: Any, minval: Any, maxval: Any, seed: int, seed2: int) -> Tensor:
    from cellonnx.ops import randint
    lo, hi = int(_scalar(minval)), int(_scalar(maxval))
    if lo >= hi:
        raise ValueError(f"For 'UniformInt', minval {lo} must be less than maxval {hi}.")
    return randint(lo, hi, ints(shape), _seed(seed, seed2), dtype=dtypes.int32)


def _bernoulli(x: Tensor, p: Any, seed: int) -> Tensor:
    from cellonnx.ops import bernoulli
    return bernoulli(x, p, None if seed == -1 else seed)


ROWS = [
    Row("StandardNormal", "seed=0, seed2=0", "shape", "standard_normal(ints(shape), _seed(seed, seed2))"),
    Row("UniformReal", "seed=0, seed2=0", "shape", "uniform(ints(shape), 0.0, 1.0, _seed(seed, seed2))"),
    Row("UniformInt", "seed=0, seed2=0", "shape, minval, maxval", "_uniform_int(shape, minval, maxval, seed, "
                                                                  "seed2)"),
    Row("Bernoulli", "seed=-1, offset=0", "x, p", "_bernoulli(x, p, seed)"),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
