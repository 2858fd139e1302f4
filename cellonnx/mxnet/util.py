"""mxnet.util: the NumPy-semantics switches (``use_np``, ``set_np``, ``is_np_array`` ...) and small helpers.

In MXNet the switches choose between the legacy NDArray and the NumPy-compatible ndarray. cellonnx's arrays
are one Tensor type underneath (``mx.nd.NDArray`` and ``mx.np.ndarray`` are thin views of it with each API's
methods), so the switches only record the choice: ``is_np_array()`` answers what code asks, and model code
that branches on it (``F.npx.activation if is_np_array() else F.Activation``) runs either way.
"""
from __future__ import annotations

import functools
import inspect
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["getenv", "is_np_array", "is_np_default_dtype", "is_np_shape", "np_array", "np_shape",
           "reset_np", "set_np", "set_np_shape", "setenv", "use_np", "use_np_array", "use_np_shape",
           "wrap_ctx_to_device_func"]


class _Flags(threading.local):
    array = False
    shape = False
    default_dtype = False


_flags = _Flags()


def is_np_array() -> bool:
    """Whether NumPy array semantics are on (``set_np``, ``use_np``)."""
    return _flags.array


def is_np_shape() -> bool:
    """Whether NumPy shape semantics are on (zero-size dims and scalars are real shapes)."""
    return _flags.shape


def is_np_default_dtype() -> bool:
    """Whether NumPy's float64 default dtype is on (``set_np(dtype=True)``)."""
    return _flags.default_dtype


def set_np_shape(active: bool) -> bool:
    """Turn NumPy shape semantics on or off; returns the previous state.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> old = mx.set_np_shape(True)
        >>> mx.is_np_shape()
        True
        >>> mx.set_np_shape(old)
        True
    """
    prev, _flags.shape = _flags.shape, bool(active)
    return prev


def set_np(shape: bool = True, array: bool = True, dtype: bool = False) -> None:
    """Turn NumPy semantics on (MXNet 2.x's default) or off.

    Raises:
        ValueError: array semantics without shape semantics, which MXNet refuses too.
    """
    if not shape and array:
        raise ValueError("NumPy Shape semantics is required in using NumPy array semantics.")
    _flags.array, _flags.shape, _flags.default_dtype = bool(array), bool(shape), bool(dtype)


def reset_np() -> None:
    """Turn NumPy semantics off (legacy NDArray semantics)."""
    set_np(shape=False, array=False, dtype=False)


@contextmanager
def _scope(array: bool | None, shape: bool | None) -> Iterator[None]:
    old = (_flags.array, _flags.shape)
    if array is not None:
        _flags.array = array
    if shape is not None:
        _flags.shape = shape
    try:
        yield
    finally:
        _flags.array, _flags.shape = old


def np_array(active: bool = True) -> Any:
    """Scope with NumPy array semantics on (or off).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> with mx.np_array(True):
        ...     print(mx.is_np_array())
        True
        >>> with mx.np_array(False):
        ...     print(mx.is_np_array())
        False
    """
    return _scope(bool(active), None)


def np_shape(active: bool = True) -> Any:
    """Scope with NumPy shape semantics on (or off).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> with mx.np_shape(True):
        ...     print(mx.is_np_shape())
        True
        >>> with mx.np_shape(False):
        ...     print(mx.is_np_shape())
        False
    """
    return _scope(None, bool(active))


def _decorate(func: Any, array: bool | None, shape: bool | None) -> Any:
    """Run ``func`` (or every method of a class) inside the scope."""
    if inspect.isclass(func):
        for name, method in list(vars(func).items()):
            if (inspect.isfunction(method) and not name.startswith("__")) or name in ("__init__", "__call__"):
                if inspect.isfunction(method):
                    setattr(func, name, _decorate(method, array, shape))
        return func
    if not callable(func):
        raise TypeError(f"use_np: expected a function or a class, got {type(func).__name__}")

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with _scope(array, shape):
            return func(*args, **kwargs)
    return wrapped


def use_np(func: Any) -> Any:
    """Decorator: run a function, or every method of a class (a Block), with NumPy semantics on."""
    return _decorate(func, True, True)


def use_np_array(func: Any) -> Any:
    """Decorator: NumPy array semantics on inside ``func``.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> @mx.use_np_array
        ... def inside():
        ...     return mx.is_np_array()
        >>> inside()
        True
    """
    return _decorate(func, True, None)


def use_np_shape(func: Any) -> Any:
    """Decorator: NumPy shape semantics on inside ``func``.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> @mx.use_np_shape
        ... def inside():
        ...     return mx.is_np_shape()
        >>> inside()
        True
    """
    return _decorate(func, None, True)


def wrap_ctx_to_device_func(function: Callable) -> Callable:
    """Decorator for MXNet 2.x functions that took ``ctx=`` in 1.x and take ``device=`` now: a ``ctx``
    keyword is passed on as ``device``."""
    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if "ctx" in kwargs:
            kwargs["device"] = kwargs.pop("ctx")
        return function(*args, **kwargs)
    return wrapped


def getenv(name: str) -> str | None:
    """The environment variable ``name`` (MXNet reads its own copy of the environment)."""
    return os.environ.get(name)


def setenv(name: str, value: str | None) -> None:
    """Set (or with None, remove) environment variable ``name``."""
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


from cellonnx.mxnet.util_more import (  # noqa: E402 - MXNet's remaining util names
    get_cuda_compute_capability,
    get_gpu_count,
    get_gpu_memory,
    np_ufunc_legal_option,
    set_module,
    wrap_np_binary_func,
    wrap_np_unary_func,
)

__all__ += ["get_cuda_compute_capability", "get_gpu_count", "get_gpu_memory", "np_ufunc_legal_option",
            "set_module", "wrap_np_binary_func", "wrap_np_unary_func"]

