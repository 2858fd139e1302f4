"""The rest of MXNet 1.9.1's ``mx.init``: InitDesc (a parameter name carrying attributes), register / alias
(custom initializers callable by name), Load (values from a .params file or a dict), Mixed (initializers
chosen by name pattern), Orthogonal and Bilinear, and ``load`` (mx.nd.load)."""
from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.gluon.init import _REGISTRY, Initializer, _register, _rng

__all__ = ["Bilinear", "InitDesc", "Load", "Mixed", "Orthogonal", "alias", "load", "register"]

_log = logging.getLogger(__name__)


class InitDesc(str):
    """A parameter's name (a str) with its attributes and the global initializer, as initializers receive it.

    Args:
        name: the parameter's name.
        attrs: attributes; ``attrs['__init__']`` (an initializer's dumps() string) overrides the initializer
            for this parameter. Default: None ({}).
        global_init: the global initializer. Default: None.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> desc = mx.init.InitDesc("fc_weight", {"__init__": mx.init.One().dumps()})
        >>> arr = np.zeros((2, 2), np.float32)
        >>> mx.init.Zero()(desc, arr)
        >>> print(arr)
        [[1. 1.]
         [1. 1.]]
    """

    attrs: dict
    global_init: Any

    def __new__(cls, name: str, attrs: dict | None = None, global_init: Any = None) -> InitDesc:
        ret = super().__new__(cls, name)
        ret.attrs = attrs or {}
        ret.global_init = global_init
        return ret


def register(klass: type) -> type:
    """Register an Initializer subclass under its lower-case class name, so ``mx.init.create(name)`` and
    ``initialize(init=name)`` find it.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> @mx.init.register
        ... @mx.init.alias("halves")
        ... class Half(mx.init.Initializer):
        ...     def _init_weight(self, name, arr):
        ...         arr[:] = 0.5
        >>> type(mx.init.create("half")).__name__, type(mx.init.create("halves")).__name__
        ('Half', 'Half')
    """
    if not (isinstance(klass, type) and issubclass(klass, Initializer)):
        raise AssertionError(f"Can only register subclass of Initializer, got {klass!r}")
    return _register()(klass)


def alias(*aliases: str) -> Callable[[type], type]:
    """A decorator registering an Initializer subclass under more names (see :func:`register`).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> @mx.init.alias("tenth")
        ... class Tenth(mx.init.Initializer):
        ...     def _init_weight(self, name, arr):
        ...         arr[:] = 0.1
        >>> type(mx.init.create("tenth")).__name__
        'Tenth'
    """
    def add(klass: type) -> type:
        for name in aliases:
            _REGISTRY[name.lower()] = klass
        return klass
    return add


def load(fname: str) -> Any:
    """mx.nd.load: the arrays of a .params / .nd file (a dict or a list).

    Examples:
        >>> import os, tempfile
        >>> import cellonnx.mxnet as mx
        >>> path = os.path.join(tempfile.mkdtemp(), "w.params")
        >>> mx.nd.save(path, {"arg:fc_bias": mx.nd.ones(2)})
        >>> mx.init.load(path)["arg:fc_bias"].shape
        (2,)
    """
    from cellonnx.mxnet.ndarray.utils import load as nd_load

    return nd_load(fname)


def _numpy(x: Any) -> np.ndarray:
    return np.asarray(x.asnumpy() if hasattr(x, "asnumpy") else x)


class Load:
    """Initializes parameters from a .params file or a dict of arrays (``arg:`` / ``aux:`` prefixes
    dropped); names not found go to ``default_init``.

    Args:
        param: a file name or a dict of name -> array.
        default_init: for names not in ``param``. Default: None (an error).
        verbose: log where each value came from. Default: False.

    Raises:
        AssertionError: a shape that differs from the loaded one, or a name not found without default_init.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> init = mx.init.Load({"arg:fc_weight": mx.nd.ones((2, 2))}, default_init=mx.init.Zero())
        >>> w, b = np.empty((2, 2), np.float32), np.empty(2, np.float32)
        >>> init("fc_weight", w); init("fc_bias", b)
        >>> print(w, b)
        [[1. 1.]
         [1. 1.]] [0. 0.]
    """

    def __init__(self, param: Any, default_init: Any = None, verbose: bool = False) -> None:
        if isinstance(param, str):
            param = load(param)
        if not isinstance(param, dict):
            raise AssertionError(f"Load: param must be a file name or a dict, got {type(param).__name__}")
        self.param = {(n[4:] if n.startswith(("arg:", "aux:")) else n): a for n, a in param.items()}
        self.default_init = default_init
        self.verbose = verbose

    def __call__(self, name: str, arr: Any) -> None:
        if name in self.param:
            value = _numpy(self.param[name])
            if tuple(arr.shape) != tuple(value.shape):
                raise AssertionError(f"Parameter {name} cannot be initialized from loading. Shape mismatch, "
                                     f"target {tuple(arr.shape)} vs loaded {tuple(value.shape)}")
            arr[...] = value
            if self.verbose:
                _log.info("Initialized %s by loading", name)
        else:
            if self.default_init is None:
                raise AssertionError(f"Cannot Initialize {name}. Not found in loaded param and no default "
                                     "Initializer is provided.")
            self.default_init(name, arr)
            if self.verbose:
                _log.info("Initialized %s by default", name)


class Mixed:
    """Initializes each parameter with the initializer of the first pattern (a regular expression matched at
    the start of the name) that matches it.

    Args:
        patterns: regular expressions.
        initializers: one per pattern.

    Raises:
        ValueError: a name that matches no pattern.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> init = mx.init.Mixed(["bias", ".*"], [mx.init.Zero(), mx.init.Constant(0.5)])
        >>> w = np.empty((1, 2), np.float32)
        >>> init("fc_weight", w)
        >>> print(w)
        [[0.5 0.5]]
    """

    def __init__(self, patterns: list[str], initializers: list[Any]) -> None:
        if len(patterns) != len(initializers):
            raise AssertionError(f"Mixed: {len(patterns)} patterns but {len(initializers)} initializers")
        self.map = list(zip([re.compile(p) for p in patterns], initializers))

    def __call__(self, name: str, arr: Any) -> None:
        for prog, init in self.map:
            if prog.match(name):
                init(name, arr)
                return
        raise ValueError(f"Parameter name {name} did not match any pattern. Consider add a \".*\" pattern at "
                         "the and with default Initializer.")


@_register()
class Orthogonal(Initializer):
    """A (scaled) orthogonal matrix (Saxe et al., 2013): the singular vectors of a random
    (shape[0], prod(shape[1:])) draw, reshaped to the parameter.

    Args:
        scale: Default: 1.414.
        rand_type: 'uniform' (U(-1, 1)) or 'normal' (N(0, 1)) draws. Default: 'uniform'.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> w = np.empty((3, 5), np.float32)
        >>> mx.init.Orthogonal(scale=1.0)("fc_weight", w)
        >>> print(np.allclose(w @ w.T, np.eye(3), atol=1e-5))
        True
    """

    def __init__(self, scale: float = 1.414, rand_type: str = "uniform") -> None:
        super().__init__(scale=scale, rand_type=rand_type)
        self.scale = scale
        self.rand_type = rand_type

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        nout, nin = arr.shape[0], int(np.prod(arr.shape[1:]))
        if self.rand_type == "uniform":
            tmp = _rng().uniform(-1.0, 1.0, (nout, nin))
        elif self.rand_type == "normal":
            tmp = _rng().normal(0.0, 1.0, (nout, nin))
        else:
            raise ValueError(f"Orthogonal: rand_type must be 'uniform' or 'normal', got {self.rand_type!r}")
        u, _, v = np.linalg.svd(tmp, full_matrices=False)
        res = u if u.shape == tmp.shape else v
        arr[...] = self.scale * res.reshape(arr.shape)


@_register()
class Bilinear(Initializer):
    """Bilinear-interpolation kernels for upsampling deconvolutions: every (kH, kW) slice of the 4-d weight
    is :math:`(1 - |x / f - c|)(1 - |y / f - c|)` with :math:`f = \\lceil kW / 2 \\rceil`,
    :math:`c = (2f - 1 - f \\bmod 2) / (2f)`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> w = np.empty((1, 1, 4, 4), np.float32)
        >>> mx.init.Bilinear()("up_weight", w)
        >>> print(w[0, 0])
        [[0.0625 0.1875 0.1875 0.0625]
         [0.1875 0.5625 0.5625 0.1875]
         [0.1875 0.5625 0.5625 0.1875]
         [0.0625 0.1875 0.1875 0.0625]]
    """

    def __init__(self) -> None:
        super().__init__()

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        shape = arr.shape
        if len(shape) != 4:
            raise ValueError(f"Bilinear: {name} must be a 4-d deconvolution weight, got shape {tuple(shape)}")
        f = np.ceil(shape[3] / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        x = np.arange(shape[3])
        y = np.arange(shape[2])
        kernel = (1 - np.abs(y[:, None] / f - c)) * (1 - np.abs(x[None, :] / f - c))
        arr[...] = np.broadcast_to(kernel.astype(np.float32), shape)
