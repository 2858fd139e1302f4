"""MindSpore's element-wise functions of sparse tensors (sparse_unary_func): ``coo_<f>(x)`` and ``csr_<f>(x)``
apply ``ops.<f>`` to the stored values and keep the pattern (f(0) is not added where nothing is stored, as in
MindSpore). Gradients reach the values through ``ops.<f>``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.sparse.tensor import COOTensor, CSRTensor

# function suffix -> (the cellonnx.ops function applied to the values, what it computes, two values for the
# docstring example and what the example prints: checked against MindSpore 2.10)
_UNARY = {
    "abs": ("abs", "the absolute value", "-1.5, 2.0", "[1.5 2. ]"),
    "acos": ("acos", "the arccosine", "0.5, -1.0", "[1.0472 3.1416]"),
    "acosh": ("acosh", "the inverse hyperbolic cosine", "1.0, 2.0", "[0.    1.317]"),
    "asin": ("asin", "the arcsine", "0.5, -1.0", "[ 0.5236 -1.5708]"),
    "asinh": ("asinh", "the inverse hyperbolic sine", "0.5, -2.0", "[ 0.4812 -1.4436]"),
    "atan": ("atan", "the arctangent", "1.0, -0.5", "[ 0.7854 -0.4636]"),
    "atanh": ("atanh", "the inverse hyperbolic tangent", "0.5, -0.25", "[ 0.5493 -0.2554]"),
    "ceil": ("ceil", "the ceiling", "-1.5, 2.2", "[-1.  3.]"),
    "cos": ("cos", "the cosine", "0.0, 1.0", "[1.     0.5403]"),
    "cosh": ("cosh", "the hyperbolic cosine", "0.0, 1.0", "[1.     1.5431]"),
    "exp": ("exp", "the exponential", "0.0, 1.0", "[1.     2.7183]"),
    "expm1": ("expm1", "exp(x) - 1", "0.0, 1.0", "[0.     1.7183]"),
    "floor": ("floor", "the floor", "-1.5, 2.7", "[-2.  2.]"),
    "inv": ("reciprocal", "the reciprocal", "4.0, -0.5", "[ 0.25 -2.  ]"),
    "isfinite": ("isfinite", "whether finite", "1.0, np.inf", "[ True False]"),
    "isinf": ("isinf", "whether infinite", "1.0, np.inf", "[False  True]"),
    "isnan": ("isnan", "whether NaN", "np.nan, 2.0", "[ True False]"),
    "log": ("log", "the natural logarithm", "1.0, 2.0", "[0.     0.6931]"),
    "log1p": ("log1p", "log(1 + x)", "0.0, 1.0", "[0.     0.6931]"),
    "neg": ("neg", "the negation", "-1.5, 2.0", "[ 1.5 -2. ]"),
    "relu": ("relu", "max(x, 0)", "-1.5, 2.0", "[0. 2.]"),
    "relu6": ("relu6", "min(max(x, 0), 6)", "-1.0, 7.5", "[0. 6.]"),
    "round": ("round", "the nearest integer, halves to even", "0.5, 2.5", "[0. 2.]"),
    "sigmoid": ("sigmoid", "the logistic sigmoid", "0.0, 2.0", "[0.5    0.8808]"),
    "sin": ("sin", "the sine", "0.0, 1.0", "[0.     0.8415]"),
    "sinh": ("sinh", "the hyperbolic sine", "0.0, 1.0", "[0.     1.1752]"),
    "softsign": ("softsign", "x / (1 + |x|)", "-1.0, 3.0", "[-0.5   0.75]"),
    "sqrt": ("sqrt", "the square root", "4.0, 2.0", "[2.     1.4142]"),
    "square": ("square", "the square", "-1.5, 3.0", "[2.25 9.  ]"),
    "tan": ("tan", "the tangent", "0.0, 1.0", "[0.     1.5574]"),
    "tanh": ("tanh", "the hyperbolic tangent", "0.0, 1.0", "[0.     0.7616]"),
}


def _values_op(name: str, caller: str) -> Callable[[Any], Any]:
    from cellonnx import ops
    fn = getattr(ops, name, None)
    if fn is None:
        raise NotImplementedError(f"{caller}: needs ops.{name}, which this build of cellonnx does not have")
    return fn


def _example(name: str, values: str, printed: str, build: list[str]) -> str:
    """The docstring's Examples section: the function applied to a 2x3 sparse tensor holding ``values``."""
    kind = "COOTensor" if name.startswith("coo") else "CSRTensor"
    show = "y.values" if printed.startswith("[ True") or printed.startswith("[False") else \
        "y.values.asnumpy().round(4)"
    lines = ["import numpy as np", "import cellonnx as ms", f"from cellonnx import {kind}, Tensor, ops",
             f"values = Tensor(np.array([{values}]), ms.float32)", *build, f"y = ops.{name}(x)",
             f"print({show})"]
    return "    Examples:\n" + "".join(f"        >>> {line}\n" for line in lines) + f"        {printed}\n    "


def _coo_fn(suffix: str, op: str, what: str, values: str, printed: str) -> Callable[[COOTensor], COOTensor]:
    def fn(x: COOTensor) -> COOTensor:
        if not isinstance(x, COOTensor):
            raise TypeError(f"coo_{suffix}: expected a COOTensor, got {type(x).__name__}")
        return COOTensor(x.indices, _values_op(op, f"coo_{suffix}")(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"coo_{suffix}"
    fn.__doc__ = (f"{what[0].upper()}{what[1:]} of the values of a COOTensor, element-wise (``ops.{op}``); "
                  "the coordinates and shape are kept.\n\n    Args:\n        x (COOTensor): the input.\n\n"
                  "    Returns:\n        COOTensor.\n\n"
                  + _example(f"coo_{suffix}", values, printed,
                             ["indices = Tensor(np.array([[0, 1], [1, 2]]), ms.int64)",
                              "x = COOTensor(indices, values, (2, 3))"]))
    return fn


def _csr_fn(suffix: str, op: str, what: str, values: str, printed: str) -> Callable[[CSRTensor], CSRTensor]:
    def fn(x: CSRTensor) -> CSRTensor:
        if not isinstance(x, CSRTensor):
            raise TypeError(f"csr_{suffix}: expected a CSRTensor, got {type(x).__name__}")
        return CSRTensor(x.indptr, x.indices, _values_op(op, f"csr_{suffix}")(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"csr_{suffix}"
    fn.__doc__ = (f"{what[0].upper()}{what[1:]} of the values of a CSRTensor, element-wise (``ops.{op}``); "
                  "the pattern and shape are kept.\n\n    Args:\n        x (CSRTensor): the input.\n\n"
                  "    Returns:\n        CSRTensor.\n\n"
                  + _example(f"csr_{suffix}", values, printed,
                             ["indptr = Tensor(np.array([0, 1, 2]), ms.int32)",
                              "indices = Tensor(np.array([1, 2]), ms.int32)",
                              "x = CSRTensor(indptr, indices, values, (2, 3))"]))
    return fn


for _suffix, (_op, _what, _values, _printed) in _UNARY.items():
    globals()[f"coo_{_suffix}"] = _coo_fn(_suffix, _op, _what, _values, _printed)
    globals()[f"csr_{_suffix}"] = _csr_fn(_suffix, _op, _what, _values, _printed)

__all__ = sorted([f"coo_{s}" for s in _UNARY] + [f"csr_{s}" for s in _UNARY])
