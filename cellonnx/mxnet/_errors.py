"""MXNet's error type on its operators: an operator of mx.nd / mx.np / mx.npx / mx.sym that fails raises
``mx.base.MXNetError`` (what MXNet code catches), while staying the error cellonnx raised (an OpError is
still an OpError and a ValueError): the raised class derives from both."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cellonnx.mxnet.base import MXNetError

__all__ = ["as_mxnet_error", "mx_errors"]

# the errors an operator raises for what it was given (OpError is a ValueError)
_CONVERTED = (ValueError, IndexError, TypeError)
_CLASSES: dict[type, type] = {}


def _mxnet_class(cls: type) -> type:
    sub = _CLASSES.get(cls)
    if sub is None:
        sub = type(f"MXNet{cls.__name__}", (cls, MXNetError), {"__module__": __name__, "__doc__": (
            f"{cls.__name__} raised by an MXNet operator: also an mx.base.MXNetError.")})
        _CLASSES[cls] = sub
    return sub


def as_mxnet_error(exc: BaseException) -> BaseException:
    """``exc`` as an MXNetError of its own class (the same message, cause and traceback)."""
    if isinstance(exc, MXNetError):
        return exc
    new = _mxnet_class(type(exc))(*exc.args)
    new.__dict__.update(getattr(exc, "__dict__", {}))
    new.__cause__, new.__context__ = exc.__cause__, exc.__context__
    return new.with_traceback(exc.__traceback__)


def mx_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` raising its ValueError / IndexError / TypeError as MXNetError (see the module docstring)."""
    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except MXNetError:
            raise
        except _CONVERTED as exc:
            raise as_mxnet_error(exc) from exc.__cause__
    return op
