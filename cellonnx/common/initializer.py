"""Parameter initializers with MindSpore's names, defaults and fan computations.

``initializer(init, shape, dtype)`` gives a Tensor filled by ``init``: an Initializer object, a registered name
(``'normal'``, ``'zeros'``, ``'xavier_uniform'``, ``'he_uniform'``, ``'truncatedNormal'`` ... matched without
case, as MindSpore does), a number (a Constant) or a Tensor / ndarray of that shape. Random draws come from the
global generator that ``cellonnx.set_seed`` seeds.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.tensor import Tensor

__all__ = ["Constant", "Dirac", "HeNormal", "HeUniform", "Identity", "Initializer", "Normal", "One",
           "Orthogonal", "Sparse", "TruncatedNormal", "Uniform", "VarianceScaling", "XavierNormal",
           "XavierUniform", "Zero", "initializer"]

_ALIASES: dict[str, type[Initializer]] = {}
_fallback_rng = np.random.default_rng()


def _rng() -> np.random.Generator:
    """The global generator that ``cellonnx.set_seed`` seeds (``ops.prims.random``'s global stream)."""
    try:
        from cellonnx.ops.prims import random as _random
        gen = _random.generator("init")
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - the random family provides it
        return _fallback_rng
    return gen if isinstance(gen, np.random.Generator) else _fallback_rng


def _register(*aliases: str) -> Callable[[type[Initializer]], type[Initializer]]:
    def add(cls: type[Initializer]) -> type[Initializer]:
        for name in (cls.__name__.lower(), *aliases):
            _ALIASES.setdefault(name, cls)
        return cls
    return add


class Initializer:
    """Base class of initializers. A subclass fills a float32 NumPy array in place in ``_initialize(arr)``
    (MindSpore's protocol), so user-written MindSpore initializers run unchanged."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        self._seed: int | None = None

    @property
    def seed(self) -> int | None:
        return self._seed

    @seed.setter
    def seed(self, value: int | None) -> None:
        self._seed = value

    def _initialize(self, arr: np.ndarray) -> None:
        raise NotImplementedError(f"{type(self).__name__}: an Initializer subclass must define _initialize(arr)")

    def __call__(self, arr: np.ndarray) -> Any:
        return self._initialize(arr)

    def _generator(self) -> np.random.Generator:
        return np.random.default_rng(self._seed) if self._seed is not None else _rng()

    # no __repr__: MindSpore prints an initializer as Python's default <...HeUniform object at 0x...>, which
    # is what a layer's repr shows for its default weight_init


def _calculate_fan_in_and_fan_out(shape: tuple[int, ...]) -> tuple[int, int]:
    """fan_in = shape[1] * receptive field, fan_out = shape[0] * receptive field (rank >= 2)."""
    if len(shape) < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, "
                         f"but got dimensions {len(shape)}.")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return int(shape[1]) * receptive, int(shape[0]) * receptive


def _calculate_correct_fan(shape: tuple[int, ...], mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _calculate_gain(nonlinearity: str, param: Any = None) -> float:
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
              "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"HeUniform/HeNormal: negative_slope {param!r} is not a number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError("HeUniform/HeNormal: nonlinearity should be one of 'sigmoid', 'tanh', 'relu', 'leaky_relu' "
                     f"or a linear/conv name, got {nonlinearity!r}")


@_register("zeros")
class Zero(Initializer):
    """Fill with 0."""

    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(0)


@_register("ones")
class One(Initializer):
    """Fill with 1."""

    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(1)


class Constant(Initializer):
    """Fill with ``value``."""

    def __init__(self, value: Any) -> None:
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(self.value)


@_register()
class Normal(Initializer):
    """Draw from N(mean, sigma^2).

    Args:
        sigma: standard deviation. Default: 0.01.
        mean: mean. Default: 0.0.
    """

    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _initialize(self, arr: np.ndarray) -> None:
        if self.sigma < 0:
            raise ValueError("sigma < 0")
        arr[...] = self._generator().normal(self.mean, self.sigma, arr.shape)


@_register()
class Uniform(Initializer):
    """Draw from U(-scale, scale). Default scale: 0.07."""

    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = self._generator().uniform(-self.scale, self.scale, arr.shape)


def _truncated(gen: np.random.Generator, shape: tuple, mean: float, sigma: float, a: float, b: float) -> np.ndarray:
    """N(mean, sigma^2) restricted to [a, b] (absolute bounds, as MindSpore's TruncatedNormal), by resampling."""
    if sigma < 0:
        raise ValueError("sigma < 0")
    out = gen.normal(mean, sigma, shape)
    if sigma == 0:
        return np.clip(out, a, b)
    bad = (out < a) | (out > b)
    for _ in range(100):
        n = int(bad.sum())
        if not n:
            break
        out[bad] = gen.normal(mean, sigma, n)
        bad = (out < a) | (out > b)
    return np.clip(out, a, b)


@_register()
class TruncatedNormal(Initializer):
    """Draw from N(mean, sigma^2) truncated to [a, b].

    Args:
        sigma: standard deviation. Default: 0.01.
        mean: mean. Default: 0.0.
        a, b: lower and upper bounds. Default: -2.0, 2.0.
    """

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0, b: float = 2.0) -> None:
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _initialize(self, arr: np.ndarray) -> None:
        arr[...] = _truncated(self._generator(), arr.shape, self.mean, self.sigma, self.a, self.b)


@_register("xavier_uniform")
class XavierUniform(Initializer):
    """Glorot uniform: U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        arr[...] = self._generator().uniform(-bound, bound, arr.shape)


@_register("xavier_normal")
class XavierNormal(Initializer):
    """Glorot normal: N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        arr[...] = self._generator().normal(0.0, std, arr.shape)


@_register("he_uniform")
class HeUniform(Initializer):
    """Kaiming uniform: U(-b, b) with b = sqrt(3) * gain(nonlinearity, negative_slope) / sqrt(fan).

    Args:
        negative_slope: the slope of leaky_relu's negative part. Default: 0.
        mode: 'fan_in' or 'fan_out'. Default: 'fan_in'.
        nonlinearity: 'leaky_relu' (default), 'relu', 'tanh', 'sigmoid', 'linear', ...
    """

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> None:
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _initialize(self, arr: np.ndarray) -> None:
        fan = _calculate_correct_fan(arr.shape, self.mode)
        bound = math.sqrt(3.0) * _calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)
        arr[...] = self._generator().uniform(-bound, bound, arr.shape)


@_register("he_normal")
class HeNormal(Initializer):
    """Kaiming normal: N(0, std^2) with std = gain(nonlinearity, negative_slope) / sqrt(fan)."""

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> None:
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _initialize(self, arr: np.ndarray) -> None:
        fan = _calculate_correct_fan(arr.shape, self.mode)
        std = _calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)
        arr[...] = self._generator().normal(0.0, std, arr.shape)


@_register()
class Identity(Initializer):
    """The identity matrix (rank-2 tensors only)."""

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim != 2:
            raise ValueError("For Identity initializer, the dimension of the initialized tensor should be 2, "
                             f"but got {arr.ndim}.")
        arr[...] = np.eye(arr.shape[0], arr.shape[1])


@_register()
class Sparse(Initializer):
    """N(0, sigma^2) with ``ceil(sparsity * rows)`` zeros in every column (rank-2 tensors only)."""

    def __init__(self, sparsity: float, sigma: float = 0.01) -> None:
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity, self.sigma = sparsity, sigma

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim != 2:
            raise ValueError("For Sparse initializer, the dimension of the initialized tensor should be 2, "
                             f"but got {arr.ndim}.")
        gen = self._generator()
        rows, cols = arr.shape
        data = gen.normal(0.0, self.sigma, arr.shape)
        zeros = int(np.ceil(self.sparsity * rows))
        for c in range(cols):
            data[gen.permutation(rows)[:zeros], c] = 0.0
        arr[...] = data


@_register()
class Dirac(Initializer):
    """Identity-preserving convolution kernels (rank 3, 4 or 5), in ``groups`` groups."""

    def __init__(self, groups: int = 1) -> None:
        super().__init__(groups=groups)
        self.groups = groups

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim not in (3, 4, 5):
            raise ValueError("For Dirac initializer, only support to initialize tensor with dimension of 3, 4 or "
                             f"5, but got {arr.ndim}.")
        if arr.shape[0] % self.groups:
            raise ValueError(f"For Dirac initializer, the first dimension {arr.shape[0]} must be divisible by "
                             f"groups {self.groups}.")
        data = np.zeros(arr.shape)
        per_group = arr.shape[0] // self.groups
        centre = tuple(s // 2 for s in arr.shape[2:])
        for g in range(self.groups):
            for d in range(min(per_group, arr.shape[1])):
                data[(g * per_group + d, d) + centre] = 1
        arr[...] = data


@_register()
class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix from the QR decomposition of a normal draw, times ``gain``."""

    def __init__(self, gain: float = 1.0) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim < 2:
            raise ValueError("For Orthogonal initializer, the dimension of the initialized tensor should be no "
                             f"less than 2, but got {arr.ndim}.")
        rows = arr.shape[0]
        cols = int(np.prod(arr.shape)) // rows
        data = self._generator().normal(0.0, 1.0, (rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        arr[...] = (q * self.gain).reshape(arr.shape)


@_register()
class VarianceScaling(Initializer):
    """Scale-aware draws: ``scale / fan`` variance, from a truncated normal, a normal or a uniform."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal") -> None:
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0.0:
            raise ValueError(f"For VarianceScaling initializer, the argument 'scale' must be greater than 0, but "
                             f"got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"For VarianceScaling initializer, the argument 'mode' must be fan_in, fan_out or "
                             f"fan_avg, but got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError("For VarianceScaling initializer, the argument 'distribution' must be uniform, "
                             f"truncated_normal or untruncated_normal, but got {distribution}.")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _initialize(self, arr: np.ndarray) -> None:
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, fan)
        gen = self._generator()
        if self.distribution == "truncated_normal":
            std = math.sqrt(scale) / 0.8796256610342398
            arr[...] = _truncated(gen, arr.shape, 0.0, std, -2 * std, 2 * std)
        elif self.distribution == "untruncated_normal":
            arr[...] = gen.normal(0.0, math.sqrt(scale), arr.shape)
        else:
            limit = math.sqrt(3.0 * scale)
            arr[...] = gen.uniform(-limit, limit, arr.shape)


def _as_shape(shape: Any) -> tuple[int, ...]:
    if shape is None:
        raise ValueError("For 'initializer', the argument 'shape' is needed unless 'init' is a Tensor")
    if isinstance(shape, numbers.Integral):
        shape = (int(shape),)
    shape = tuple(shape)
    for d in shape:
        if not isinstance(d, numbers.Integral) or isinstance(d, bool) or d <= 0:
            raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value of 'shape' must be "
                             f"positive integer, but got {shape}")
    return tuple(int(d) for d in shape)


def initializer(init: Any, shape: Any = None, dtype: Any = dtypes.float32) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` that ``init`` fills on its first use or at ``init_data()``, as
    MindSpore's lazy initialization (``has_init`` is True until then; a Parameter built from it is filled
    at once).

    Args:
        init: an Initializer, a name ('normal', 'uniform', 'zeros', 'ones', 'xavier_uniform', 'xavier_normal',
            'he_uniform', 'he_normal', 'truncatedNormal', 'identity', 'orthogonal', ...), a number, or a
            Tensor / ndarray (returned as a Tensor when its shape matches).
        shape: int or tuple of ints.
        dtype: the result's dtype. Default: float32.

    Returns:
        Tensor.

    Examples:
        >>> from cellonnx.common.initializer import HeUniform, initializer
        >>> initializer("ones", [1, 2, 3], ms.float32).shape
        (1, 2, 3)
        >>> print(initializer(HeUniform(), (4, 3)).dtype)
        Float32
    """
    if isinstance(init, (Tensor, np.ndarray)):
        t = init if isinstance(init, Tensor) else Tensor(init)
        if shape is not None:
            want = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
            if tuple(t.shape) != want:
                raise ValueError(f"For 'initializer', the shape of the 'init' argument should be same as the "
                                 f"argument 'shape', but got the 'init' shape {list(t.shape)} and the 'shape' "
                                 f"{list(want)}.")
        return t
    if isinstance(init, bool) or (not isinstance(init, (numbers.Number, str, Initializer))
                                  and not callable(init)):
        raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', "
                        f"'string' or 'initializer', but got {type(init)}.")
    shp = _as_shape(shape)
    dt = dtypes.dtype(dtype) if dtype is not None else dtypes.float32
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not found "
                             f"(known names: {sorted(_ALIASES)}).")
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)

    def fill() -> np.ndarray:
        arr = np.zeros(shp, dtype=np.float32 if dt.is_floating_point else dt.np_dtype)
        init(arr)
        return arr.astype(dt.np_dtype, copy=False)

    return Tensor._lazy(shp, dt, init, fill)
