"""MindSpore's truncated-normal and raw-integer sampling operator classes (``ops.TruncatedNormal``,
``ops.ParameterizedTruncatedNormal``, ``ops.NonDeterministicInts``): table rows over NumPy sampling from
cellonnx's random streams (see table.py; ``seed`` / ``seed2`` 0 draw from the global stream that
``set_seed`` seeds, otherwise from the op's own stream for that seed).

Truncated normals are drawn by inverting the normal CDF between the bounds. ONNX has no such sampler, so
these run eagerly only: inside a traced (exported) function they raise, naming the op.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx._lazy import lazy_import
from cellonnx.ops import registry
from cellonnx.ops.operations._util import ints
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor

_sp = lazy_import("scipy.special")


def _eager(op: str) -> None:
    if registry.TRACE_HOOK is not None:
        raise NotImplementedError(f"ops.{op} cannot be exported to ONNX: ONNX has no sampler for it; it runs "
                                  "eagerly only")


def _rng(op: str, seed: int, seed2: int) -> np.random.Generator:
    from cellonnx.ops.prims.random import generator
    return generator(op, None if seed == 0 and seed2 == 0 else int(seed or seed2))


def _shape(shape: Any, op: str) -> tuple[int, ...]:
    dims = ints(shape)
    dims = (dims,) if isinstance(dims, int) else tuple(int(d) for d in dims)
    if any(d < 0 for d in dims):
        raise ValueError(f"For '{op}', the shape must be non-negative, but got {dims}.")
    return dims


def _truncated(rng: np.random.Generator, low: np.ndarray, high: np.ndarray, size: tuple) -> np.ndarray:
    """Standard normal samples restricted to [low, high] (float64), by the inverse CDF."""
    lo, hi = _sp.ndtr(low), _sp.ndtr(high)
    return np.clip(_sp.ndtri(lo + (hi - lo) * rng.random(size)), low, high)


def _truncated_normal(shape: Any, dtype: Any, seed: int, seed2: int) -> Tensor:
    """Samples of N(0, 1) within [-2, 2]."""
    op = "TruncatedNormal"
    _eager(op)
    values = _truncated(_rng(op, seed, seed2), np.float64(-2.0), np.float64(2.0), _shape(shape, op))
    return Tensor(values.astype(dtypes.to_numpy(dtype)))


def _parameterized(shape: Any, mean: Any, stdevs: Any, min: Any, max: Any, seed: int, seed2: int) -> Tensor:
    """Samples of N(mean, stdevs^2) within [min, max], the parameters one per batch row (or scalars)."""
    op = "ParameterizedTruncatedNormal"
    _eager(op)
    dims = _shape(shape, op)
    params = [p.asnumpy() if isinstance(p, Tensor) else np.asarray(p, np.float32)
              for p in (mean, stdevs, min, max)]
    if not dims or any(p.ndim > 1 or (p.ndim == 1 and p.shape[0] != dims[0]) for p in params):
        raise ValueError(f"For '{op}', mean, stdevs, min and max must be scalars or (batch_size,) = "
                         f"{dims[:1]} for the shape {dims}, but got shapes {[p.shape for p in params]}.")
    m, s, lo, hi = (p.astype(np.float64).reshape((-1,) + (1,) * (len(dims) - 1)) for p in params)
    if np.any(s <= 0) or np.any(lo >= hi):
        raise ValueError(f"For '{op}', stdevs must be positive and min less than max.")
    z = _truncated(_rng(op, seed, seed2), (lo - m) / s, (hi - m) / s, dims)
    return Tensor((m + s * z).astype(params[0].dtype))


def _non_deterministic_ints(shape: Any, dtype: Any) -> Tensor:
    """Integers drawn uniformly over the whole range of ``dtype`` (int32 or int64)."""
    op = "NonDeterministicInts"
    _eager(op)
    np_dtype = np.dtype(dtypes.to_numpy(dtype))
    if np_dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeError(f"For '{op}', the 'dtype' must be int32 or int64, but got {dtype}.")
    info = np.iinfo(np_dtype)
    rng = np.random.default_rng()  # non-deterministic, as the name says: not seeded by set_seed
    return Tensor(rng.integers(info.min, info.max, _shape(shape, op), dtype=np_dtype, endpoint=True))


ROWS = [
    Row("TruncatedNormal", "dtype=mstype.float32, seed=0, seed2=0", "shape",
        "_truncated_normal(shape, dtype, seed, seed2)",
        summary="Samples of the standard normal distribution truncated to ``[-2, 2]``, of shape ``shape``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.TruncatedNormal()(Tensor(np.array([2, 3]), ms.int32))
        >>> print(out.shape, bool((out.asnumpy() >= -2).all() and (out.asnumpy() <= 2).all()))
        (2, 3) True
        """),
    Row("ParameterizedTruncatedNormal", "seed=0, seed2=0", "shape, mean, stdevs, min, max",
        "_parameterized(shape, mean, stdevs, min, max, seed, seed2)",
        summary="Samples of normal distributions (``mean``, ``stdevs``) truncated to ``[min, max]``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> shape = Tensor(np.array([2, 3]), ms.int32)
        >>> mean = Tensor(np.array([0.0, 1.0]), ms.float32)
        >>> stdevs = Tensor(np.array([1.0, 1.0]), ms.float32)
        >>> low = Tensor(np.array([-1.0, 0.0]), ms.float32)
        >>> high = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> out = ops.ParameterizedTruncatedNormal(seed=1)(shape, mean, stdevs, low, high)
        >>> print(out.shape, bool((out.asnumpy()[1] >= 0).all() and (out.asnumpy()[1] <= 2).all()))
        (2, 3) True
        """),
    Row("NonDeterministicInts", "dtype=mstype.int64", "shape", "_non_deterministic_ints(shape, dtype)",
        summary="Random integers over the whole range of ``dtype``, of shape ``shape``.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> out = ops.NonDeterministicInts(dtype=ms.int32)(Tensor(np.array([2, 2]), ms.int32))
        >>> print(out.shape, out.dtype)
        (2, 2) Int32
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
