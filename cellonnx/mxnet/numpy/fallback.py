"""mx.np's functions that MXNet 1.9.1 runs with NumPy itself (mxnet/numpy/fallback.py) and that
cellonnx.numpy has no counterpart of: the arrays go to NumPy, and NumPy's arrays come back as
mx.np.ndarray (its scalars stay NumPy scalars, its lists and tuples stay lists and tuples), as MXNet gives
them. Like MXNet's, they are not differentiable, and they refuse to be traced into a graph (NotExportable),
which would hold the example's result as a constant.

MXNet 1.9.1 calls NumPy 1.x; names NumPy 2 has dropped run their NumPy 2 equivalent (``alltrue`` is
``all``, ``msort`` sorts along the first axis, ``trapz`` is ``trapezoid``, ``in1d`` is ``isin`` of the
flattened array). NumPy 1.x's financial functions (``npv``, ``pv``, ``rate``, ``mirr``, ``ppmt``) had been
removed (NEP 32) before MXNet 1.9.1's NumPy: calling them raises NumPy's RuntimeError, as under MXNet.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as _onp

from cellonnx.mxnet._op._util import eager_only
from cellonnx.mxnet.numpy.multiarray import to_np
from cellonnx.tensor import Tensor

__all__ = ["FINANCIAL", "NAMES", "fallback"]


def _to_numpy(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value._data
    if isinstance(value, (list, tuple)):
        return type(value)(_to_numpy(v) for v in value)
    return value


def _to_mx(value: Any) -> Any:
    if isinstance(value, _onp.ndarray):
        return to_np(Tensor(_onp.array(value, order="C")))
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_to_mx(v) for v in value)
    if isinstance(value, tuple):  # a named tuple (NumPy's results of several arrays)
        return type(value)(*(_to_mx(v) for v in value))
    return value


def _msort(a: Any) -> Any:
    return _onp.sort(a, axis=0)


def _in1d(ar1: Any, ar2: Any, assume_unique: bool = False, invert: bool = False) -> Any:
    return _onp.isin(_onp.ravel(ar1), ar2, assume_unique=assume_unique, invert=invert)


# NumPy 1.x's names that NumPy 2 has removed: their NumPy 2 equivalents
_RENAMED: dict[str, Callable[..., Any]] = {"alltrue": _onp.all, "msort": _msort, "trapz": _onp.trapezoid,
                                           "in1d": _in1d}
FINANCIAL = ("mirr", "npv", "ppmt", "pv", "rate")
NAMES = ("allclose", "alltrue", "argpartition", "compress", "extract", "flatnonzero", "frexp", "i0", "in1d",
         "ix_", "lexsort", "min_scalar_type", "modf", "msort", "nanargmax", "nanargmin", "nancumprod",
         "nanmedian", "nanpercentile", "nanprod", "nanquantile", "packbits", "partition", "poly", "polydiv",
         "polyfit", "real", "roots", "setxor1d", "spacing", "trapz", "trim_zeros", "union1d", "unpackbits",
         *FINANCIAL)


def _removed(name: str) -> Callable[..., Any]:
    def op(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"In accordance with NEP 32, the function {name} was removed from NumPy version "
                           f"1.20.  A replacement for this function is available in the numpy_financial "
                           f"library: https://pypi.org/project/numpy-financial")
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"NumPy's financial ``{name}``, removed from NumPy 1.20 (NEP 32): raises RuntimeError, as "
                  f"under MXNet 1.9.1 (use the numpy_financial package).")
    return op


def fallback(name: str, module: Any = _onp) -> Callable[..., Any]:
    """mx.np's ``name`` (of ``module``, NumPy's namespace or a submodule such as numpy.linalg): NumPy's
    function run on the arrays' values, its arrays returned as mx.np.ndarray."""
    if name in FINANCIAL and module is _onp:
        return _removed(name)
    fn = (_RENAMED.get(name) if module is _onp else None) or getattr(module, name)

    prefix = "" if module is _onp else module.__name__.split(".")[-1] + "."

    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        out = kwargs.pop("out", None)
        eager_only(f"np.{prefix}{name}", args, kwargs)
        result = _to_mx(fn(*_to_numpy(args), **_to_numpy(kwargs)))
        if out is not None:
            out[...] = result
            return out
        return result

    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    op.__doc__ = (f"NumPy's ``{prefix}{name}`` on the arrays' values, its arrays returned as mx.np.ndarray "
                  f"(MXNet 1.9.1 runs NumPy here too); not differentiable.")
    return op
