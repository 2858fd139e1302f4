"""The rest of mxnet.util's public names: GPU queries answered for a host-only build, and the decorators
MXNet's NumPy operators use to check NumPy ufunc keywords."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["get_cuda_compute_capability", "get_gpu_count", "get_gpu_memory", "np_ufunc_legal_option",
           "set_module", "wrap_np_binary_func", "wrap_np_unary_func"]

_UFUNC_DEFAULTS = {"where": True, "casting": "same_kind", "order": "K", "dtype": None, "subok": True}
_DTYPES = {np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32, np.float64, "int8", "uint8",
           "int32", "int64", "float16", "float32", "float64"}


def get_gpu_count() -> int:
    """The number of GPUs: 0 (cellonnx computes on the host)."""
    return 0


def get_gpu_memory(gpu_dev_id: int) -> tuple[int, int]:
    """(free, total) bytes of a GPU's memory; there are none here.

    Raises:
        MXNetError: always, as MXNet built without CUDA does.
    """
    from cellonnx.mxnet.base import MXNetError

    raise MXNetError("This call is only supported for MXNet built with CUDA support.")


def get_cuda_compute_capability(ctx: Any) -> int:
    """The CUDA compute capability of a GPU context.

    Raises:
        ValueError: ``ctx`` is not a GPU context.
        OSError: no CUDA driver library (cellonnx does not use one).
    """
    if ctx.device_type != "gpu":
        raise ValueError(f"Expecting a gpu context to get cuda compute capability, while received ctx {ctx}")
    raise OSError("could not load any of: libcuda.so libcuda.dylib cuda.dll")


def set_module(module: str | None) -> Callable[[Any], Any]:
    """Decorator: set the function's ``__module__`` (how it is shown in docs and reprs)."""

    def decorator(func: Any) -> Any:
        if module is not None:
            func.__module__ = module
        return func

    return decorator


def np_ufunc_legal_option(key: str, value: Any) -> bool:
    """Whether ``value`` is a legal value of the NumPy ufunc keyword ``key``."""
    if key == "where":
        return True
    if key == "casting":
        return value in {"no", "equiv", "safe", "same_kind", "unsafe"}
    if key == "order":
        return isinstance(value, str)
    if key == "dtype":
        try:
            return value in _DTYPES
        except TypeError:
            return False
    if key == "subok":
        return isinstance(value, bool)
    return False


def _check(func: Any, kwargs: dict[str, Any], binary: bool) -> None:
    for key, value in kwargs.items():
        if key not in _UFUNC_DEFAULTS:
            raise TypeError(f"{key} is an invalid keyword to function '{func.__name__}'")
        if value != _UFUNC_DEFAULTS[key]:
            if np_ufunc_legal_option(key, value):
                where = "" if binary else f" for operator {func.__name__}"
                raise NotImplementedError(f"{key}={value} is not implemented yet{where}")
            raise TypeError(f"{key} {value} not understood" if binary
                            else f"{key}={value} not understood for operator {func.__name__}")


def wrap_np_unary_func(func: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for a unary NumPy operator ``func(x, out=None)``: NumPy's ufunc keywords are accepted at
    their defaults and refused otherwise (NotImplementedError for legal values, TypeError for others)."""

    @functools.wraps(func)
    def wrapped(x: Any, out: Any = None, **kwargs: Any) -> Any:
        _check(func, kwargs, binary=False)
        return func(x, out=out)

    return wrapped


def wrap_np_binary_func(func: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for a binary NumPy operator ``func(x1, x2, out=None)``, checking the ufunc keywords as
    ``wrap_np_unary_func`` does."""

    @functools.wraps(func)
    def wrapped(x1: Any, x2: Any, out: Any = None, **kwargs: Any) -> Any:
        _check(func, kwargs, binary=True)
        return func(x1, x2, out=out)

    return wrapped
