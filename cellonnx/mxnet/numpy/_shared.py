"""mx.np's functions taken from cellonnx.numpy: one implementation, called the NumPy way.

cellonnx.numpy follows mindspore.numpy, whose parameter names sometimes differ from NumPy's (``clip(x,
xmin, xmax)`` for ``clip(a, a_min, a_max)``, ``reshape(x, new_shape)``) and whose positional order can
too (``mean(a, axis, keepdims, dtype)``). MXNet code calls NumPy's signatures, so a shared function binds
its arguments to NumPy's signature first and passes them on by cellonnx.numpy's names (a NumPy name
cellonnx.numpy lacks maps to the parameter in the same position), leaves out what was not given, writes
into ``out=`` when given, and returns mx.np.ndarray.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as _onp

import cellonnx.numpy as _cnp
from cellonnx.mxnet._docs import borrowed, with_example
from cellonnx.mxnet._errors import mx_errors
from cellonnx.mxnet._placement import follow
from cellonnx.mxnet.numpy.examples import EXAMPLES
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

__all__ = ["shared"]


def _signature(fn: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _into(out: Any, result: Any, name: str) -> Any:
    if not isinstance(out, Tensor) or not isinstance(result, Tensor):
        raise TypeError(f"np.{name}: out= must be an ndarray (and the result one array), got {type(out)}")
    if tuple(out.shape) != tuple(result.shape):
        raise ValueError(f"np.{name}: out has shape {tuple(out.shape)}, the result {tuple(result.shape)}")
    out._data[...] = result._data
    return out


def shared(name: str, impl: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """mx.np's ``name``: cellonnx.numpy's function (or ``impl``) called with NumPy's arguments."""
    fn = impl if impl is not None else getattr(_cnp, name)
    theirs = _signature(fn)
    numpy_fn = getattr(_onp, name, None)
    ours = _signature(numpy_fn) if numpy_fn is not None else None
    if theirs is None or ours is None:
        @mx_errors
        def direct(*args: Any, out: Any = None, **kwargs: Any) -> Any:
            result = follow(to_np(fn(*args, **kwargs)), args, kwargs)
            return result if out is None else _into(out, result, name)
        direct.__name__ = direct.__qualname__ = name
        direct.__doc__ = borrowed(fn.__doc__)
        return with_example(direct, EXAMPLES.get(name))
    # MXNet's functions take NumPy's positional-only ufunc operands by name too (``np.sin(x=a)``)
    ours = ours.replace(parameters=[p.replace(kind=p.POSITIONAL_OR_KEYWORD) if p.kind == p.POSITIONAL_ONLY
                                    else p for p in ours.parameters.values()])
    accepts = theirs.parameters
    positions = [p for p in accepts.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    numpy_positions = [p.name for p in ours.parameters.values()
                       if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    defaults = {p.name: p.default for p in ours.parameters.values()}
    var_kw = any(p.kind == p.VAR_KEYWORD for p in accepts.values())

    def target(numpy_name: str) -> str | None:
        if numpy_name in accepts:
            return numpy_name
        if numpy_name in numpy_positions:
            i = numpy_positions.index(numpy_name)
            if i < len(positions) and positions[i].name not in numpy_positions:
                return positions[i].name
        return numpy_name if var_kw else None

    @mx_errors
    def op(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = ours.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"np.{name}: {exc}") from None
        given = dict(bound.arguments)
        out = given.pop("out", None)
        call: dict[str, Any] = {}
        varargs: tuple = ()
        for key, value in given.items():
            if ours.parameters[key].kind == inspect.Parameter.VAR_KEYWORD:
                call.update(value)
                continue
            if ours.parameters[key].kind == inspect.Parameter.VAR_POSITIONAL:
                varargs = tuple(value)  # NumPy's *arys / *xi: passed on positionally
                continue
            dest = target(key)
            if dest is None:
                if value is defaults.get(key) or _same(value, defaults.get(key)):
                    continue  # NumPy's default: nothing to pass on
                raise TypeError(f"np.{name}: argument {key}={value!r} is not supported")
            call[dest] = value
        result = follow(to_np(fn(*varargs, **call)), args, kwargs)
        return result if out is None else _into(out, result, name)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = borrowed(fn.__doc__)
    op.__signature__ = ours  # type: ignore[attr-defined]
    return with_example(op, EXAMPLES.get(name))


def _same(value: Any, default: Any) -> bool:
    try:
        return bool(value == default)
    except Exception:  # noqa: BLE001 - arrays and other values that do not compare to a scalar
        return False
