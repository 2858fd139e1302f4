"""Random sampling: the global generator behind ``set_seed`` and the random ops (normal, uniform, randint,
bernoulli ...), non-deterministic primitives lowered to ONNX RandomNormal / RandomUniform(Like).

Seeding follows MindSpore's two levels. ``set_seed(s)`` resets the global stream; an op given ``seed=k``
draws from its own stream, keyed by (op, k) and derived from (global seed, k), which continues across calls
and restarts at the next ``set_seed``. So the same ``set_seed`` followed by the same calls gives the same
numbers. Without any seed the global stream is seeded from OS entropy.

In an exported graph the ``seed`` attribute is set when the op was given one; onnxruntime draws its own
numbers (its generator is not NumPy's), so an exported graph reproduces itself, not the eager values.
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np
from onnx import numpy_helper

from cellonnx import dtypes
from cellonnx.ops.prims._util import is_float_dtype, to_tensor
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor

_STATE: dict[str, Any] = {"seed": None, "rng": np.random.default_rng(), "streams": {}}


def set_seed(seed: int) -> None:
    """Seed the global random stream (and restart every op-level stream) and ``numpy.random``, as MindSpore
    does.

    Args:
        seed (int): a non-negative integer.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> ops.set_seed(7)
        >>> a = ops.uniform((2,), Tensor(0.0, ms.float32), Tensor(1.0, ms.float32))
        >>> ops.set_seed(7)
        >>> b = ops.uniform((2,), Tensor(0.0, ms.float32), Tensor(1.0, ms.float32))
        >>> print(bool((a == b).all()))
        True
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"set_seed: seed must be a non-negative int, got {seed!r}")
    np.random.seed(int(seed))  # MindSpore's set_seed seeds numpy.random too
    _STATE["seed"] = int(seed)
    _STATE["rng"] = np.random.default_rng(int(seed))
    _STATE["streams"] = {}
    from cellonnx.ops.prims.counter_rng import reseed
    reseed(int(seed))   # dropout's counter generator


def get_seed() -> int | None:
    """The global seed set by ``set_seed``; None when it was never set.

    Examples:
        >>> from cellonnx import ops
        >>> ops.set_seed(42)
        >>> print(ops.get_seed())
        42
    """
    return _STATE["seed"]


def generator(op: str, seed: int | None = None) -> np.random.Generator:
    """The stream an op draws from: the global one, or the op-level stream for ``seed``."""
    if seed is None:
        return _STATE["rng"]
    key = (op, int(seed))
    streams = _STATE["streams"]
    rng = streams.get(key)
    if rng is None:
        base = _STATE["seed"] if _STATE["seed"] is not None else 0
        rng = streams[key] = np.random.default_rng([int(seed), base, zlib.crc32(op.encode())])
    return rng


def _check_seed(seed: Any, op: str) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"{op}: seed must be a non-negative int or None, got {seed!r}")
    return int(seed)


def _dims(shape: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in shape)


def _draw_float(rng: np.random.Generator, kind: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    work = np.float64 if dtype == np.float64 else np.float32
    out = rng.standard_normal(shape, dtype=work) if kind == "normal" else rng.random(shape, dtype=work)
    return out if out.dtype == dtype else out.astype(dtype)


def _random_node(g: Any, kind: str, shape: Any, dtype: np.dtype, seed: int | None, **attrs: Any) -> str:
    """RandomNormal / RandomUniform with a static shape, the *Like form over ConstantOfShape when a dim is
    symbolic (or the shape is empty, which an ints attribute cannot hold)."""
    onnx_dt = dtypes.dtype(dtype).onnx
    s = float(seed) if seed is not None else None
    if shape and not any(hasattr(d, "onnx_name") for d in shape):
        return g.op(kind, shape=[int(d) for d in shape], dtype=onnx_dt, seed=s, **attrs)
    zeros = g.op("ConstantOfShape", g.shape_value(list(shape)),
                 value=numpy_helper.from_array(np.zeros(1, np.float32)))
    return g.op(kind + "Like", zeros, dtype=onnx_dt, seed=s, **attrs)


class RandomNormal(Op):
    differentiable = False
    deterministic = False

    def forward(self, *, shape, mean, scale, seed, dtype):
        out = _draw_float(generator("normal", seed), "normal", _dims(shape), dtype)
        if scale != 1.0:
            out *= out.dtype.type(scale)
        if mean != 0.0:
            out += out.dtype.type(mean)
        return out

    def lower(self, g, *, shape, mean, scale, seed, dtype):
        return _random_node(g, "RandomNormal", shape, dtype, seed, mean=float(mean), scale=float(scale))


class RandomUniform(Op):
    differentiable = False
    deterministic = False

    def forward(self, *, shape, low, high, seed, dtype):
        out = _draw_float(generator("uniform", seed), "uniform", _dims(shape), dtype)
        if (low, high) != (0.0, 1.0):
            out *= out.dtype.type(high - low)
            out += out.dtype.type(low)
        return out

    def lower(self, g, *, shape, low, high, seed, dtype):
        return _random_node(g, "RandomUniform", shape, dtype, seed, low=float(low), high=float(high))


class RandomInt(Op):
    """Integers uniform in [low, high). ONNX has no integer sampler: Floor of a float32 RandomUniform in
    [low, high), exact while |low|, |high| < 2**24."""

    differentiable = False
    deterministic = False

    def forward(self, *, shape, low, high, seed, dtype):
        return generator("randint", seed).integers(low, high, size=_dims(shape), dtype=dtype)

    def lower(self, g, *, shape, low, high, seed, dtype):
        u = _random_node(g, "RandomUniform", shape, np.dtype(np.float32), seed, low=float(low), high=float(high))
        return g.op("Cast", g.op("Floor", u), to=dtypes.dtype(dtype).onnx)


class Bernoulli(Op):
    """1 with probability p (elementwise; p has the output's shape), else 0, in ``dtype``.

    Lowered as Cast(Less(RandomUniformLike(p), p)) at every opset: onnxruntime's Bernoulli kernel (opset 15)
    returns 1 with probability 1 - p, against the ONNX specification and its reference evaluator."""

    differentiable = False
    deterministic = False

    def forward(self, p, *, seed, dtype):
        if p.size and (p.min() < 0 or p.max() > 1):
            raise ValueError("probabilities out of range")
        u = generator("bernoulli", seed).random(p.shape, dtype=np.float32)
        return (u < p).astype(dtype, copy=False)

    def lower(self, g, p, *, seed, dtype):
        u = g.op("RandomUniformLike", p, seed=float(seed) if seed is not None else None)
        return g.op("Cast", g.op("Less", u, p), to=dtypes.dtype(dtype).onnx)

    def check(self, p, *, seed, dtype):
        if p.size and (p.min() < 0 or p.max() > 1):
            return f"probabilities must lie in [0, 1], got values in [{p.min()}, {p.max()}]"
        return None


# ---------------------------------------------------------------- functional API (MindSpore names)
def _float_dtype(dtype: Any, op: str) -> np.dtype:
    dt = dtypes.to_numpy(dtype) if dtype is not None else np.dtype(np.float32)
    if dt not in (np.float16, np.float32, np.float64):
        raise TypeError(f"{op}: dtype must be float16, float32 or float64, got {dtypes.dtype(dt)}")
    return dt


def _size(size: tuple) -> tuple:
    from cellonnx.ops.prims.creation import _shape_arg
    return _shape_arg(size)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.number)) and not isinstance(v, bool)


def _scalar(v: Any) -> float | None:
    """A Python number for a number or a one-element constant tensor; None for anything else."""
    if _is_number(v):
        return float(v)
    if isinstance(v, Tensor) and v._data.size == 1 and not v.requires_grad:
        from cellonnx.ops import registry
        if registry.TRACE_HOOK is None:  # while tracing a tensor may be a graph value: keep it as one
            return float(v._data.reshape(()))
    return None


def standard_normal(shape: Any, seed: int | None = None) -> Tensor:
    """Samples of N(0, 1), float32, of the given shape.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> ops.standard_normal((2, 3)).shape
        (2, 3)
    """
    return RandomNormal.apply(shape=tuple(_size((shape,))), mean=0.0, scale=1.0,
                              seed=_check_seed(seed, "standard_normal"), dtype=np.dtype(np.float32))


def normal(shape: Any, mean: Any, stddev: Any, seed: int | None = None) -> Tensor:
    """Samples of N(mean, stddev**2). ``mean`` / ``stddev`` are numbers or tensors; the result's shape is
    ``shape`` broadcast with theirs (MindSpore's rule), its dtype float32 (float64 for a float64 mean).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> mean = Tensor(np.array([0.0]), ms.float32)
        >>> stddev = Tensor(np.array([1.0]), ms.float32)
        >>> ops.normal((3, 2), mean, stddev).shape
        (3, 2)
    """
    from cellonnx.ops.prims.math import add, mul

    seed = _check_seed(seed, "normal")
    shape = tuple(_size((shape,)))
    m, s = _scalar(mean), _scalar(stddev)
    if m is not None and s is not None:
        return RandomNormal.apply(shape=shape, mean=m, scale=s, seed=seed, dtype=np.dtype(np.float32))
    mean_t, std_t = to_tensor(mean), to_tensor(stddev)
    dt = np.dtype(np.float64) if mean_t._data.dtype == np.float64 else np.dtype(np.float32)
    full = tuple(np.broadcast_shapes(_dims(shape), mean_t._data.shape, std_t._data.shape))
    z = RandomNormal.apply(shape=full, mean=0.0, scale=1.0, seed=seed, dtype=dt)
    return add(mul(z, std_t), mean_t)


def uniform(shape: Any, minval: Any, maxval: Any, seed: int | None = None, dtype: Any = dtypes.float32) -> Tensor:
    """Samples uniform in [minval, maxval). ``dtype`` int32 / int64 draws integers (minval and maxval then
    single numbers); a float dtype draws floats, and tensor bounds broadcast with ``shape``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> minval = Tensor(np.array([1.0]), ms.float32)
        >>> maxval = Tensor(np.array([2.0]), ms.float32)
        >>> x = ops.uniform((2, 2), minval, maxval)
        >>> x.shape
        (2, 2)
        >>> bool(((x.asnumpy() >= 1) & (x.asnumpy() < 2)).all())
        True
    """
    from cellonnx.ops.prims.math import add, mul, sub

    seed = _check_seed(seed, "uniform")
    shape = tuple(_size((shape,)))
    dt = dtypes.to_numpy(dtype)
    lo, hi = _scalar(minval), _scalar(maxval)
    if dt.kind in "iu":
        if lo is None or hi is None:
            raise ValueError("uniform: an integer dtype needs single-number minval and maxval")
        if not lo < hi:
            raise ValueError(f"uniform: minval {lo} must be less than maxval {hi}")
        return RandomInt.apply(shape=shape, low=int(lo), high=int(hi), seed=seed, dtype=dt)
    dt = _float_dtype(dt, "uniform")
    if lo is not None and hi is not None:
        if not lo < hi:
            raise ValueError(f"uniform: minval {lo} must be less than maxval {hi}")
        return RandomUniform.apply(shape=shape, low=lo, high=hi, seed=seed, dtype=dt)
    lo_t, hi_t = to_tensor(minval), to_tensor(maxval)
    full = tuple(np.broadcast_shapes(_dims(shape), lo_t._data.shape, hi_t._data.shape))
    u = RandomUniform.apply(shape=full, low=0.0, high=1.0, seed=seed, dtype=dt)
    return add(mul(u, sub(hi_t, lo_t)), lo_t)


def rand(*size: Any, dtype: Any = None, seed: int | None = None) -> Tensor:
    """Samples uniform in [0, 1) of shape ``size`` (float32 unless ``dtype``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = ops.rand(2, 3)
        >>> x.shape
        (2, 3)
        >>> bool(((x.asnumpy() >= 0) & (x.asnumpy() < 1)).all())
        True
    """
    return RandomUniform.apply(shape=tuple(_size(size)), low=0.0, high=1.0, seed=_check_seed(seed, "rand"),
                               dtype=_float_dtype(dtype, "rand"))


def randn(*size: Any, dtype: Any = None, seed: int | None = None) -> Tensor:
    """Samples of N(0, 1) of shape ``size`` (float32 unless ``dtype``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> _ = ms.manual_seed(1)
        >>> x = ops.randn(2, 3)
        >>> x.shape
        (2, 3)
        >>> x.dtype
        mindspore.float32
    """
    return RandomNormal.apply(shape=tuple(_size(size)), mean=0.0, scale=1.0, seed=_check_seed(seed, "randn"),
                              dtype=_float_dtype(dtype, "randn"))


def rand_like(input: Tensor, seed: int | None = None, *, dtype: Any = None) -> Tensor:
    """``rand`` with the shape (and, by default, the float dtype) of ``input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> ops.rand_like(x).shape
        (2, 3)
    """
    x = to_tensor(input)
    dt = dtype if dtype is not None else (x._data.dtype if is_float_dtype(x._data.dtype) else None)
    return rand(tuple(x.shape), dtype=dt, seed=seed)


def randn_like(input: Tensor, seed: int | None = None, *, dtype: Any = None) -> Tensor:
    """``randn`` with the shape (and, by default, the float dtype) of ``input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.float32)
        >>> ops.randn_like(x).shape
        (2, 3)
    """
    x = to_tensor(input)
    dt = dtype if dtype is not None else (x._data.dtype if is_float_dtype(x._data.dtype) else None)
    return randn(tuple(x.shape), dtype=dt, seed=seed)


def randint(low: int, high: int, size: Any, seed: int | None = None, *, dtype: Any = None) -> Tensor:
    """Integers uniform in [low, high) of shape ``size`` (int64 unless ``dtype``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = ops.randint(0, 5, (4,))
        >>> x.shape
        (4,)
        >>> bool(((x.asnumpy() >= 0) & (x.asnumpy() < 5)).all())
        True
    """
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"randint: size must be a tuple, got {type(size).__name__}")
    if not low < high:
        raise ValueError(f"randint: low {low} must be less than high {high}")
    dt = dtypes.to_numpy(dtype) if dtype is not None else np.dtype(np.int64)
    if dt.kind not in "iu":
        raise TypeError(f"randint: dtype must be an integer type, got {dtypes.dtype(dt)}")
    return RandomInt.apply(shape=tuple(size), low=int(low), high=int(high), seed=_check_seed(seed, "randint"),
                           dtype=dt)


def randint_like(input: Tensor, low: int, high: int, seed: int | None = None, *, dtype: Any = None) -> Tensor:
    """``randint`` with the shape (and, by default, the integer dtype) of ``input``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros((2, 3)), ms.int32)
        >>> y = ops.randint_like(x, 0, 5)
        >>> y.shape
        (2, 3)
        >>> bool(((y.asnumpy() >= 0) & (y.asnumpy() < 5)).all())
        True
    """
    x = to_tensor(input)
    dt = dtype if dtype is not None else (x._data.dtype if x._data.dtype.kind in "iu" else None)
    return randint(low, high, tuple(x.shape), seed, dtype=dt)


def bernoulli(input: Tensor, p: Any = 0.5, seed: int | None = None) -> Tensor:
    """0/1 samples, 1 with probability ``p``; the shape and dtype of ``input``.

    Args:
        input (Tensor): gives the shape and dtype.
        p (Union[Tensor, float]): probability of a 1, a number or a tensor of ``input``'s shape. Default 0.5.
        seed (int, optional): op-level seed. Default None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.zeros(4), ms.float32)
        >>> print(ops.bernoulli(x, p=1.0))
        [1. 1. 1. 1.]
    """
    from cellonnx.ops.prims.creation import full_like
    from cellonnx.ops.prims.shape import broadcast_to

    x = to_tensor(input)
    seed = _check_seed(seed, "bernoulli")
    if _is_number(p):
        if not 0.0 <= float(p) <= 1.0:
            raise ValueError(f"bernoulli: p must be in [0, 1], got {p}")
        probs = full_like(x, float(p), dtype=np.float32)
    else:
        probs = to_tensor(p)
        if not is_float_dtype(probs._data.dtype):
            raise TypeError(f"bernoulli: p must be a float or a float tensor, got {probs.dtype}")
        if tuple(probs._data.shape) != tuple(x._data.shape):
            probs = broadcast_to(probs, x.shape)
    return Bernoulli.apply(probs, seed=seed, dtype=x._data.dtype)


__all__ = ["bernoulli", "get_seed", "normal", "rand", "rand_like", "randint", "randint_like", "randn",
           "randn_like", "set_seed", "standard_normal", "uniform"]
