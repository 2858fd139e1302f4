"""MindSpore's element-wise functions of sparse tensors (sparse_unary_func): ``coo_<f>(x)`` and ``csr_<f>(x)``
apply ``ops.<f>`` to the stored values and keep the pattern (f(0) is not added where nothing is stored, as in
MindSpore). Gradients reach the values through ``ops.<f>``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.sparse.tensor import COOTensor, CSRTensor

# function suffix -> (the cellonnx.ops function applied to the values, what it computes)
_UNARY = {
    "abs": ("abs", "the absolute value"), "acos": ("acos", "the arccosine"),
    "acosh": ("acosh", "the inverse hyperbolic cosine"), "asin": ("asin", "the arcsine"),
    "asinh": ("asinh", "the inverse hyperbolic sine"), "atan": ("atan", "the arctangent"),
    "atanh": ("atanh", "the inverse hyperbolic tangent"), "ceil": ("ceil", "the ceiling"),
    "cos": ("cos", "the cosine"), "cosh": ("cosh", "the hyperbolic cosine"),
    "exp": ("exp", "the exponential"), "expm1": ("expm1", "exp(x) - 1"), "floor": ("floor", "the floor"),
    "inv": ("reciprocal", "the reciprocal"), "isfinite": ("isfinite", "whether finite"),
    "isinf": ("isinf", "whether infinite"), "isnan": ("isnan", "whether NaN"),
    "log": ("log", "the natural logarithm"), "log1p": ("log1p", "log(1 + x)"), "neg": ("neg", "the negation"),
    "relu": ("relu", "max(x, 0)"), "relu6": ("relu6", "min(max(x, 0), 6)"),
    "round": ("round", "the nearest integer, halves to even"), "sigmoid": ("sigmoid", "the logistic sigmoid"),
    "sin": ("sin", "the sine"), "sinh": ("sinh", "the hyperbolic sine"),
    "softsign": ("softsign", "x / (1 + |x|)"), "sqrt": ("sqrt", "the square root"),
    "square": ("square", "the square"), "tan": ("tan", "the tangent"),
    "tanh": ("tanh", "the hyperbolic tangent"),
}


def _values_op(name: str, caller: str) -> Callable[[Any], Any]:
    from cellonnx import ops
    fn = getattr(ops, name, None)
    if fn is None:
        raise NotImplementedError(f"{caller}: needs ops.{name}, which this build of cellonnx does not have")
    return fn


def _coo_fn(suffix: str, op: str, what: str) -> Callable[[COOTensor], COOTensor]:
    def fn(x: COOTensor) -> COOTensor:
        if not isinstance(x, COOTensor):
            raise TypeError(f"coo_{suffix}: expected a COOTensor, got {type(x).__name__}")
        return COOTensor(x.indices, _values_op(op, f"coo_{suffix}")(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"coo_{suffix}"
    fn.__doc__ = (f"{what[0].upper()}{what[1:]} of the values of a COOTensor, element-wise (``ops.{op}``); "
                  "the coordinates and shape are kept.\n\n    Args:\n        x (COOTensor): the input.\n\n"
                  "    Returns:\n        COOTensor.\n    ")
    return fn


def _csr_fn(suffix: str, op: str, what: str) -> Callable[[CSRTensor], CSRTensor]:
    def fn(x: CSRTensor) -> CSRTensor:
        if not isinstance(x, CSRTensor):
            raise TypeError(f"csr_{suffix}: expected a CSRTensor, got {type(x).__name__}")
        return CSRTensor(x.indptr, x.indices, _values_op(op, f"csr_{suffix}")(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"csr_{suffix}"
    fn.__doc__ = (f"{what[0].upper()}{what[1:]} of the values of a CSRTensor, element-wise (``ops.{op}``); "
                  "the pattern and shape are kept.\n\n    Args:\n        x (CSRTensor): the input.\n\n"
                  "    Returns:\n        CSRTensor.\n    ")
    return fn


for _suffix, (_op, _what) in _UNARY.items():
    globals()[f"coo_{_suffix}"] = _coo_fn(_suffix, _op, _what)
    globals()[f"csr_{_suffix}"] = _csr_fn(_suffix, _op, _what)

__all__ = sorted([f"coo_{s}" for s in _UNARY] + [f"csr_{s}" for s in _UNARY])
