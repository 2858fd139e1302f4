"""MXNet's operators, implemented once with MXNet's names and arguments and handed to every namespace that
exposes them (mx.nd, mx.sym, mx.npx): ``TABLE`` maps an operator name to its implementation (returning
Tensors); the namespaces wrap each entry so results come back as their own array class and ``name`` /
``attr`` / ``out`` are accepted as MXNet accepts them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as _np

from cellonnx import ops
from cellonnx.mxnet._docs import borrowed
from cellonnx.mxnet._errors import mx_errors
from cellonnx.mxnet._op._util import eager_only
from cellonnx.mxnet._op.calibrate import CALIBRATE
from cellonnx.mxnet._op.contrib_extra import CONTRIB_EXTRA
from cellonnx.mxnet._op.creation import CREATION
from cellonnx.mxnet._op.elemwise import BINARY, LEGACY_COMPARE, NUMPY_COMPARE, UNARY
from cellonnx.mxnet._op.hawkes import HAWKES
from cellonnx.mxnet._op.histogram import HISTOGRAM
from cellonnx.mxnet._op.linalg_eig import SYEVD
from cellonnx.mxnet._op.misc import MISC
from cellonnx.mxnet._op.nn import NN
from cellonnx.mxnet._op.pdf import PDF
from cellonnx.mxnet._op.quantize import QUANTIZE
from cellonnx.mxnet._op.quantized_nn import QUANTIZED_NN
from cellonnx.mxnet._op.reduce import REDUCE
from cellonnx.mxnet._op.shape import SHAPE
from cellonnx.mxnet._op.spatial import SPATIAL
from cellonnx.mxnet._op.spectral import SPECTRAL
from cellonnx.mxnet._op.update import UPDATE
from cellonnx.mxnet._op.update_adamw import UPDATE_ADAMW
from cellonnx.mxnet._op.update_multi import UPDATE_MULTI
from cellonnx.mxnet._op.update_rules import UPDATE_RULES
from cellonnx.mxnet._placement import device_arg, follow, place
from cellonnx.tensor import Parameter, Tensor

__all__ = ["CONTRIB", "LEGACY_COMPARE", "NUMPY_COMPARE", "TABLE", "retype", "wrap"]

# the legacy (mx.nd / mx.sym) namespace: every operator under its MXNet names
TABLE: dict[str, Callable[..., Any]] = {**UNARY, **BINARY, **LEGACY_COMPARE, **SHAPE, **REDUCE, **NN,
                                        **CREATION}
TABLE["logical_not"] = lambda data, **_: TABLE["equal"](data, 0)
TABLE.update(UPDATE)
TABLE.update(UPDATE_MULTI)
TABLE.update(UPDATE_RULES)
TABLE.update(MISC)
TABLE.update(PDF)
TABLE.update(SYEVD)
TABLE.update(HISTOGRAM)
TABLE.update(SPATIAL)
TABLE.update({"Convolution_v1": NN["Convolution"], "Pooling_v1": NN["Pooling"]})

def _arange_like(data: Any, start: float, step: float, repeat: int, axis: int | None) -> Any:
    """contrib.arange_like: ``start + step * (i // repeat)`` shaped like ``data`` (its ``axis`` alone when
    given); a constant of ``data``'s shape, with no gradient."""
    n = data.shape[axis] if axis is not None else 1
    for d in data.shape if axis is None else ():
        n = n * d  # a dynamic dim stays a graph value (the positions of a sequence of any length)
    i = ops.cast(ops.arange(0, n, 1), _np.float64)
    values = ops.floor(i / float(int(repeat))) * float(step) + float(start)
    shape = tuple(data.shape) if axis is None else (n,)
    return ops.cast(ops.reshape(values, shape), data._data.dtype)


# mx.nd.contrib / mx.sym.contrib
CONTRIB: dict[str, Callable[..., Any]] = {
    "BilinearResize2D": NN["BilinearResize2D"], "AdaptiveAvgPooling2D": NN["AdaptiveAvgPooling2D"],
    "arange_like": lambda data, start=0.0, step=1.0, repeat=1, axis=None, **_: _arange_like(
        data, start, step, repeat, axis),
    # the root in the graph: a last dim that is dynamic is read at run time
    "div_sqrt_dim": lambda data, **_: BINARY["div"](data, UNARY["sqrt"](Tensor(data.shape[-1], data.dtype))),
}
CONTRIB.update(CONTRIB_EXTRA)
CONTRIB.update(UPDATE_ADAMW)
CONTRIB.update(HAWKES)
CONTRIB.update(SPECTRAL)
CONTRIB.update(QUANTIZE)
CONTRIB.update(QUANTIZED_NN)
CONTRIB.update(CALIBRATE)
# operators computing with NumPy on their arrays' values (optimizer updates): they refuse to be traced
EAGER_ONLY = frozenset({*UPDATE, *UPDATE_MULTI, *UPDATE_RULES, *UPDATE_ADAMW})
# the quantization operators (mx.sym.contrib builds graph nodes of them on Symbols)
QUANTIZATION = (*QUANTIZE, *QUANTIZED_NN, *CALIBRATE)


def retype(out: Any, cls: type) -> Any:
    """``out`` with its plain Tensors (not Parameters) turned into ``cls``."""
    if type(out) is Tensor:
        out.__class__ = cls
        return out
    if isinstance(out, Parameter) or not isinstance(out, (list, tuple)):
        return out
    return type(out)(retype(o, cls) for o in out)


def _assign(out: Any, result: Any) -> Any:
    if isinstance(out, (list, tuple)):
        for o, r in zip(out, result):
            o[...] = r
    else:
        out[...] = result
    return out


def wrap(name: str, impl: Callable[..., Any], cls: type) -> Callable[..., Any]:
    """The namespace function for operator ``name``: MXNet's extra keywords accepted, results as ``cls``,
    its errors MXNetError."""
    @mx_errors
    def op(*args: Any, **kwargs: Any) -> Any:
        kwargs.pop("name", None)
        kwargs.pop("attr", None)
        kwargs.pop("ctx", None) if name not in CREATION else None
        out = kwargs.pop("out", None)
        if name in EAGER_ONLY:
            eager_only(name, args, kwargs)
        result = retype(impl(*args, **kwargs), cls)
        if name in CREATION and not any(isinstance(a, Tensor) for a in args):
            place(result, device_arg(kwargs.get("ctx", kwargs.get("device"))))
        else:
            follow(result, args, kwargs)
        return result if out is None else _assign(out, result)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = borrowed(impl.__doc__)
    return op
