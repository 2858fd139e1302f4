"""MindSpore's compilation decorators and markers: ``jit``, ``jit_class``, ``JitConfig``, ``lazy_inline``,
``no_inline``, ``mutable``, ``enable_dynamic``, ``Symbol``, ``set_recursion_limit``.

In GRAPH_MODE a top-level call of a function decorated with ``jit`` runs as one compiled ONNX graph, like a
training cell (cellonnx/graph/train.py): forward, a ``value_and_grad`` function, ``optimizer(grads)`` and
every parameter update in one onnxruntime run, the state held in onnxruntime between calls. In
PYNATIVE_MODE it runs eagerly, op by op in NumPy, with autograd (so gradients can be taken through it).
The decorators check their arguments as MindSpore does; the markers (``lazy_inline``, ``no_inline``,
``mutable``) only concern how MindSpore's compiler inlines and specializes graphs.
"""
from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any

__all__ = ["JitConfig", "Symbol", "_no_grad", "enable_dynamic", "jit", "jit_class", "lazy_inline", "mutable",
           "no_inline", "set_recursion_limit"]

_CAPTURE_MODES = ("ast", "bytecode", "trace")
_JIT_LEVELS = ("O0", "O1")
_BACKENDS = ("", "ms_backend", "GE")


def _check_choice(name: str, value: Any, choices: tuple, where: str) -> None:
    if value not in choices:
        raise ValueError(f"For '{where}', the '{name}' should be one of {[c for c in choices if c]}, "
                         f"but got {value!r}.")


def jit(function: Callable | None = None, *, capture_mode: str = "ast", jit_level: str = "O0",
        dynamic: int = 0, fullgraph: bool = False, backend: str = "", **options: Any) -> Any:
    """MindSpore's ``jit``: as ``@jit``, ``@jit(...)`` or ``jit(fn)``.

    In GRAPH_MODE a top-level call compiles the function (a whole training step included) into one ONNX
    graph run by onnxruntime; in PYNATIVE_MODE it runs eagerly with autograd. The options are checked as
    MindSpore checks them.

    Args:
        function: the function or Cell; None when used as ``@jit(...)``.
        capture_mode: "ast", "bytecode" or "trace".
        jit_level: "O0" or "O1".
        dynamic: 0 or 1.
        fullgraph: whether the whole function must compile (MindSpore's syntax strictness).
        backend: "", "ms_backend" (or the deprecated "GE").
        options: MindSpore's backend options (disable_format_transform, exec_order, infer_boost,
        auto_offload).

    Returns:
        The function itself wrapped (``__wrapped__`` is the original), or a decorator.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> @ms.jit
        ... def scaled_sum(x, y):
        ...     return ops.sum(x * 2 + y)
        >>> print(scaled_sum(Tensor(np.ones((2, 2)), ms.float32), Tensor(np.ones((2, 2)), ms.float32)))
        12.0
    """
    _check_choice("capture_mode", capture_mode, _CAPTURE_MODES, "jit")
    _check_choice("jit_level", jit_level, _JIT_LEVELS, "jit")
    _check_choice("dynamic", dynamic, (0, 1), "jit")
    _check_choice("backend", backend, _BACKENDS, "jit")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"For 'jit', the 'fullgraph' should be bool, but got {type(fullgraph).__name__}.")
    config = {"capture_mode": capture_mode, "jit_level": jit_level, "dynamic": dynamic,
              "fullgraph": fullgraph, "backend": backend, **options}

    def wrap(fn: Any) -> Any:
        if isinstance(fn, type) or not callable(fn):
            raise TypeError(f"For 'jit', the decorated object should be a function or a Cell, got {fn!r}.")
        if hasattr(fn, "construct") and not isinstance(fn, type):  # a Cell: it already runs as a unit
            fn.__dict__["_jit_config_dict"] = config
            return fn

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            if kwargs or not _compiles():
                return fn(*args, **kwargs)
            from cellonnx.graph.train import run_function
            return run_function(run, fn, args)

        run.__dict__["_jit_config_dict"] = config
        return run

    return wrap(function) if function is not None else wrap


def _compiles() -> bool:
    """A top-level call in GRAPH_MODE compiles (inside a graph being traced the function is traced inline;
    in PYNATIVE_MODE it runs eagerly, so gradients can be taken through it)."""
    from cellonnx import context
    from cellonnx.graph import trace
    from cellonnx.nn import cell

    graph_mode = context.get_context("mode") == context.GRAPH_MODE
    return graph_mode and not trace._current and not cell._graph_depth[0]


def jit_class(cls: type) -> type:
    """Mark a user class as usable inside ``jit`` functions (MindSpore's ``__ms_class__``); the class is
    returned unchanged otherwise.

    Raises:
        TypeError: ``cls`` is not a class, or is a Cell.

    Examples:
        >>> import cellonnx as ms
        >>> @ms.jit_class
        ... class Scale:
        ...     def __init__(self):
        ...         self.k = 2
        >>> print(Scale().k)
        2
    """
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if hasattr(cls, "construct"):
        raise TypeError("Decorator jit_class is used for user-defined classes and cannot be used for "
                        f"nn.Cell: {cls}.")
    cls.__ms_class__ = True  # type: ignore[attr-defined]
    return cls


class JitConfig:
    """Compilation options (MindSpore's ``JitConfig``), checked and kept in ``jit_config_dict``; a Cell's
    ``set_jit_config`` and ``set_context(jit_config=...)`` take it. cellonnx compiles to ONNX without these
    levels, so they change nothing here.

    Args:
        jit_level: "", "O0", "O1" or "O2".
        exc_mode: "auto", "sink" or "no_sink".
        jit_syntax_level: "", "STRICT", "COMPATIBLE" or "LAX".
        debug_level: "RELEASE" or "DEBUG".
        infer_boost: "on" or "off".

    Examples:
        >>> import cellonnx as ms
        >>> config = ms.JitConfig(jit_level='O0')
        >>> print(config.jit_config_dict['jit_level'])
        O0
    """

    def __init__(self, jit_level: str = "", exc_mode: str = "auto", jit_syntax_level: str = "",
                 debug_level: str = "RELEASE", infer_boost: str = "off", **kwargs: Any) -> None:
        kwargs.pop("suppress_infer_boost_warning", None)
        if jit_level not in ("", "O0", "O1", "O2"):
            raise ValueError("For 'jit_level' must be one of ['O0', 'O1', 'O2'].")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError("For 'exc_mode' must be one of '['auto', 'sink', 'no_sink']'.")
        if jit_syntax_level not in ("", "STRICT", "COMPATIBLE", "LAX"):
            raise ValueError("For 'jit_syntax_level' must be one of '['STRICT', 'LAX']'.")
        if debug_level not in ("RELEASE", "DEBUG"):
            raise ValueError("For 'debug_level' must be one of '['RELEASE', 'DEBUG']'.")
        if infer_boost not in ("", "on", "off"):
            raise ValueError("For 'infer_boost' must be one of '['on', 'off']'.")
        self.jit_config_dict: dict[str, Any] = dict(kwargs)
        self.jit_config_dict.update(jit_level=jit_level, exc_mode=exc_mode, jit_syntax_level=jit_syntax_level,
                                    debug_level=debug_level, infer_boost=infer_boost)
        if "backend" not in self.jit_config_dict and jit_level:
            self.jit_config_dict["backend"] = "GE" if jit_level == "O2" else "ms_backend"

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"


def lazy_inline(fn: Callable | None = None, attrs: Any = None, policy: Any = None) -> Any:
    """Mark a Cell's ``__init__`` so MindSpore's compiler keeps the cell's graph as one reusable subgraph;
    cellonnx builds no such subgraphs, so the function is returned as it is (usable as ``@lazy_inline`` or
    ``@lazy_inline(attrs=...)``).

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> class Net(nn.Cell):
        ...     @ms.lazy_inline
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.dense = nn.Dense(2, 1)
        >>> print(type(Net().dense).__name__)
        Dense
    """
    if attrs is not None and not isinstance(attrs, (str, list, tuple)):
        raise TypeError("lazy_inline: attrs must be a str or a list / tuple of str, got "
                        f"{type(attrs).__name__}")

    def wrap(func: Callable) -> Callable:
        if not callable(func):
            raise TypeError(f"lazy_inline decorates a Cell's __init__, got {func!r}")
        return func

    return wrap(fn) if fn is not None else wrap


def no_inline(fn: Callable | None = None) -> Any:
    """Mark a function or Cell to be kept as a subgraph by MindSpore's compiler; returned as it is here.

    Examples:
        >>> import cellonnx as ms
        >>> @ms.no_inline
        ... def f(x):
        ...     return x + 1
        >>> print(f(1))
        2
    """

    def wrap(func: Any) -> Any:
        if not callable(func):
            raise TypeError(f"no_inline decorates a function or a Cell, got {func!r}")
        return func

    return wrap(fn) if fn is not None else wrap


def mutable(input_data: Any, dynamic_len: bool = False) -> Any:
    """Mark a constant (a Tensor, or a tuple / list / dict of them) as a variable to MindSpore's compiler
    (it is not specialized into the graph); returned as it is here.

    Raises:
        TypeError: ``input_data`` holds something other than Tensors, numbers and their containers, or
            ``dynamic_len`` is set for something other than a tuple or list.

    Examples:
        >>> import cellonnx as ms
        >>> x = ms.mutable((1, 2))
        >>> x
        (1, 2)
    """
    from cellonnx.tensor import Tensor

    def check(v: Any) -> None:
        if isinstance(v, (list, tuple)):
            for item in v:
                check(item)
        elif isinstance(v, dict):
            for item in v.values():
                check(item)
        elif not isinstance(v, (Tensor, int, float, bool)) or v is None:
            raise TypeError("For 'mutable', the 'input_data' should be one of (int, float, bool, Tensor, "
                            f"tuple, list, dict), but got {type(v)}.")

    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the 'dynamic_len' should be bool, but got {type(dynamic_len)}.")
    if dynamic_len and not isinstance(input_data, (list, tuple)):
        raise TypeError("For 'mutable', when the 'dynamic_len' is True, the 'input_data' should be tuple or "
                        f"list, but got {type(input_data)}.")
    check(input_data)
    return input_data


def enable_dynamic(**kwargs: Any) -> Callable[[Callable], Callable]:
    """Declare arguments of a ``jit`` function dynamic in shape (``x=Tensor(shape=None, ...)``); with ``jit``
    running eagerly every shape is accepted, so the decorated function is returned as it is.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> @ms.enable_dynamic(x=Tensor(shape=[None], dtype=ms.float32))
        ... def f(x):
        ...     return x * 2
        >>> print(f(Tensor(np.array([1.0]), ms.float32)))
        [2.]
    """
    from cellonnx.tensor import Tensor

    for name, value in kwargs.items():
        if not isinstance(value, (Tensor, list, tuple)):
            raise TypeError(f"For 'enable_dynamic', the argument '{name}' should be a Tensor (or a list / "
                            f"tuple of them), but got {type(value).__name__}.")

    def wrap(fn: Callable) -> Callable:
        return fn

    return wrap


class Symbol:
    """A symbolic dimension for ``Tensor(shape=...)`` signatures: the dim is dynamic, between ``min`` and
    ``max`` (0: unbounded), of the form ``divisor * N + remainder``; ``unique`` symbols used in several dims
    make them equal. In cellonnx such a dim is dynamic in traced and exported graphs (constraints are not
    checked).

    Raises:
        TypeError: a bound is not an int, or ``unique`` is not a bool.
        ValueError: ``min`` or ``divisor`` is not positive, or ``remainder`` is not in [0, divisor).

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor
        >>> s = ms.Symbol(max=8, divisor=2)
        >>> x = Tensor(shape=[s, 3], dtype=ms.float32)
        >>> print(x.shape)
        (-1, 3)
    """

    def __init__(self, max: int = 0, min: int = 1, divisor: int = 1, remainder: int = 0,
                 unique: bool = False, **kwargs: Any) -> None:
        for name, value in (("max", max), ("min", min), ("divisor", divisor), ("remainder", remainder)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be int, but got {type(value)}")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', the argument 'unique' must be bool, but got {type(unique)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', "
                             f"but got {remainder}")
        self.max, self.min, self.divisor, self.remainder, self.unique = max, min, divisor, remainder, unique
        self.id = id(self)

    def __repr__(self) -> str:
        return (f"Symbol(max={self.max}, min={self.min}, divisor={self.divisor}, remainder={self.remainder}, "
                f"unique={self.unique})")


_RECURSION_LIMIT = [1000]


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """MindSpore's limit on the depth of its graph compiler's recursion; recorded, with nothing to limit here
    (tracing to ONNX follows Python's own recursion).

    Examples:
        >>> import cellonnx as ms
        >>> ms.set_recursion_limit(2000)
    """
    if not isinstance(recursion_limit, int) or isinstance(recursion_limit, bool) or recursion_limit <= 0:
        raise ValueError(f"For 'set_recursion_limit', the 'recursion_limit' must be a positive int, "
                         f"but got {recursion_limit!r}.")
    _RECURSION_LIMIT[0] = recursion_limit


class _no_grad(contextlib.ContextDecorator):
    """Turn gradient recording off inside a ``with`` block or a decorated function, restoring the previous
    setting afterwards (MindSpore's ``_no_grad``)."""

    def __enter__(self) -> _no_grad:
        from cellonnx.autograd.tape import _mode

        self._previous = _mode.enabled
        _mode.enabled = False
        return self

    def __exit__(self, *exc: Any) -> None:
        from cellonnx.autograd.tape import _mode

        _mode.enabled = self._previous
