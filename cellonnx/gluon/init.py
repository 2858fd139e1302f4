"""MXNet's initializers (``mx.init``): Uniform, Normal, Xavier, MSRAPrelu, Constant, Zero, One.

As in MXNet, an initializer fills an array in ``_init_weight``; called with a parameter name and no
initializer of the parameter's own, it picks by the name's suffix (``weight`` -> ``_init_weight``, ``bias``
and ``beta`` -> 0, ``gamma`` -> 1, ``running_mean`` -> 0, ``running_var`` -> 1). Names accepted by ``create``:
'zeros', 'ones', 'uniform', 'normal', 'xavier', 'msraprelu', 'constant' (and the class names, any case).
Random draws come from the global generator that ``cellonnx.set_seed`` seeds.

Examples:
    >>> from cellonnx.gluon import init, nn
    >>> net = nn.Dense(4, in_units=3)
    >>> net.initialize(init.Xavier(magnitude=2.24))
    >>> net.weight.data().shape
    (4, 3)
"""
from __future__ import annotations

import json
import logging
from typing import Any

import numpy as np

from cellonnx.ops.prims.random import generator

__all__ = ["Constant", "Initializer", "MSRAPrelu", "Normal", "One", "Uniform", "Xavier", "Zero", "create"]

_REGISTRY: dict[str, type[Initializer]] = {}
_log = logging.getLogger(__name__)


def _register(*aliases: str) -> Any:
    def add(cls: type[Initializer]) -> type[Initializer]:
        for name in (cls.__name__.lower(), *aliases):
            _REGISTRY[name] = cls
        return cls
    return add


def _rng() -> np.random.Generator:
    return generator("init")


class Initializer:
    """Base class: a subclass fills ``arr`` (a NumPy array, in place) in ``_init_weight(name, arr)``."""

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs
        self._verbose = False

    def set_verbosity(self, verbose: bool = False, print_func: Any = None) -> Initializer:
        """Log each initialized parameter (name, initializer, RMS of the values) at INFO level."""
        self._verbose = verbose
        return self

    def dumps(self) -> str:
        """The initializer as JSON: ``["xavier", {"rnd_type": "uniform", ...}]``."""
        return json.dumps([type(self).__name__.lower(), self._kwargs])

    def __call__(self, name: str, arr: np.ndarray) -> None:
        """Fill ``arr`` for a parameter called ``name``, choosing by the name's suffix (an InitDesc whose
        ``attrs['__init__']`` names an initializer uses that one's ``_init_weight``)."""
        override = getattr(name, "attrs", {}).get("__init__")
        if override:
            create(override)._init_weight(name, arr)
            self._log(name, override, arr)
            return
        for suffix, method in (("weight", self._init_weight), ("bias", self._init_bias),
                               ("gamma", self._init_gamma), ("beta", self._init_beta),
                               ("running_mean", self._init_zero), ("moving_mean", self._init_zero),
                               ("running_var", self._init_one), ("moving_var", self._init_one),
                               ("min", self._init_zero), ("max", self._init_one)):
            if name.endswith(suffix):
                method(name, arr)
                self._log(name, suffix, arr)
                return
        raise ValueError(f"Unknown initialization pattern for {name}. Default initialization is limited to "
                         '"weight", "bias", "gamma" (1.0), "beta" (0.0) and running statistics; give the '
                         "parameter an initializer of its own (init=...)")

    def _log(self, name: str, what: Any, arr: np.ndarray) -> None:
        if self._verbose:
            rms = float(np.sqrt(np.mean(np.square(arr, dtype=np.float64)))) if arr.size else 0.0
            _log.info("Initialized %s as %s: %s", name, what, rms)

    def _init_zero(self, _: str, arr: np.ndarray) -> None:
        arr[...] = 0

    def _init_one(self, _: str, arr: np.ndarray) -> None:
        arr[...] = 1

    _init_bias = _init_zero
    _init_beta = _init_zero
    _init_gamma = _init_one

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define _init_weight")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Initializer) and type(self) is type(other) and self._kwargs == other._kwargs

    def __hash__(self) -> int:
        return hash(self.dumps())

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


@_register("zeros")
class Zero(Initializer):
    """Fills with 0."""

    def _init_weight(self, _: str, arr: np.ndarray) -> None:
        arr[...] = 0


@_register("ones")
class One(Initializer):
    """Fills with 1."""

    def _init_weight(self, _: str, arr: np.ndarray) -> None:
        arr[...] = 1


@_register()
class Constant(Initializer):
    """Fills with ``value`` (a number, or an array broadcastable to the parameter)."""

    def __init__(self, value: Any) -> None:
        super().__init__(value=value.tolist() if isinstance(value, np.ndarray) else value)
        self.value = value

    def _init_weight(self, _: str, arr: np.ndarray) -> None:
        arr[...] = np.asarray(self.value, dtype=arr.dtype)


@_register()
class Uniform(Initializer):
    """Draws from U(-scale, scale).

    Args:
        scale: bound of the interval. Default: 0.07.
    """

    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, _: str, arr: np.ndarray) -> None:
        arr[...] = _rng().uniform(-self.scale, self.scale, arr.shape)


@_register()
class Normal(Initializer):
    """Draws from N(0, sigma^2).

    Args:
        sigma: standard deviation. Default: 0.01.
    """

    def __init__(self, sigma: float = 0.01) -> None:
        super().__init__(sigma=sigma)
        self.sigma = sigma

    def _init_weight(self, _: str, arr: np.ndarray) -> None:
        arr[...] = _rng().normal(0.0, self.sigma, arr.shape)


@_register()
class Xavier(Initializer):
    """Xavier/Glorot: scale = sqrt(magnitude / factor) with factor (fan_in + fan_out) / 2 ('avg'), fan_in
    ('in') or fan_out ('out'), fan_in = shape[1] * prod(shape[2:]), fan_out = shape[0] * prod(shape[2:]);
    U(-scale, scale) ('uniform') or N(0, scale^2) ('gaussian').

    Args:
        rnd_type: 'uniform' or 'gaussian'. Default: 'uniform'.
        factor_type: 'avg', 'in' or 'out'. Default: 'avg'.
        magnitude: Default: 3.
    """

    def __init__(self, rnd_type: str = "uniform", factor_type: str = "avg", magnitude: float = 3) -> None:
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        shape = arr.shape
        if len(shape) < 2:
            raise ValueError(f"Xavier initializer cannot be applied to vector {name} of shape {shape}. It "
                             "requires at least 2D.")
        hw = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
        fan_in, fan_out = shape[1] * hw, shape[0] * hw
        factors = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}
        if self.factor_type not in factors:
            raise ValueError(f"Xavier: factor_type must be 'avg', 'in' or 'out', got {self.factor_type!r}")
        scale = float(np.sqrt(self.magnitude / factors[self.factor_type]))
        if self.rnd_type == "uniform":
            arr[...] = _rng().uniform(-scale, scale, shape)
        elif self.rnd_type == "gaussian":
            arr[...] = _rng().normal(0.0, scale, shape)
        else:
            raise ValueError(f"Xavier: rnd_type must be 'uniform' or 'gaussian', got {self.rnd_type!r}")


@_register()
class MSRAPrelu(Xavier):
    """He/MSRA initialization for PReLU nets: Xavier('gaussian', factor_type, 2 / (1 + slope^2)).

    Args:
        factor_type: 'avg', 'in' or 'out'. Default: 'avg'.
        slope: the PReLU negative slope. Default: 0.25.
    """

    def __init__(self, factor_type: str = "avg", slope: float = 0.25) -> None:
        super().__init__("gaussian", factor_type, 2.0 / (1 + slope ** 2))
        self._kwargs = {"factor_type": factor_type, "slope": slope}


def create(init: Any, **kwargs: Any) -> Initializer:
    """An Initializer from an instance, a registered name ('xavier', 'zeros', ...; ``kwargs`` go to its
    constructor) or a dumps() string."""
    if isinstance(init, Initializer):
        return init
    if isinstance(init, str):
        if init.startswith("["):
            name, kwargs = json.loads(init)
            return _REGISTRY[name.lower()](**kwargs)
        cls = _REGISTRY.get(init.lower())
        if cls is None:
            raise ValueError(f"unknown initializer {init!r}; expected one of {sorted(_REGISTRY)}")
        return cls(**kwargs)
    raise TypeError(f"initializer must be an Initializer or a name, got {type(init).__name__}")


from cellonnx.gluon import init_extra  # noqa: E402
from cellonnx.gluon.init_extra import *  # noqa: E402,F403

__all__ += init_extra.__all__

from cellonnx.gluon.init_rnn import FusedRNN, LSTMBias  # noqa: E402  (they subclass Initializer)

__all__ += ["FusedRNN", "LSTMBias"]
