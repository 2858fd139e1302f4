"""ONNX arithmetic, logic, reduction and generator operators as MXNet operators (MXNet 1.9.1's onnx2mx
choices: broadcast_* for binary ops, ``sum`` / ``max`` ... with ``axis`` for reductions, chains of
``maximum`` for a many-input Max)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from onnx.helper import tensor_dtype_to_np_dtype

from cellonnx.mxnet import symbol as S
from cellonnx.mxnet.contrib.onnx.onnx2mx._node import Node

__all__ = ["TABLE"]


def _dtype(code: int) -> str:
    return np.dtype(tensor_dtype_to_np_dtype(int(code))).name


def _binary(op: str) -> Callable[[Node], Any]:
    def translate(n: Node) -> Any:
        if n.attrs.get("broadcast") == 1 and "axis" in n.attrs:  # opset < 7: B aligned at ``axis`` of A
            rank, rank_b = n.rank(0), n.rank(1)
            if rank is None or rank_b is None:
                raise n.error("broadcast with axis needs the ranks of the inputs")
            axis, b = n.attrs["axis"] % rank, n.inputs[1]
            for _ in range(rank - axis - rank_b):
                b = S.expand_dims(b, axis=-1)
            return getattr(S, op)(n.inputs[0], b, **n.named())
        return getattr(S, op)(*n.inputs[:2], **n.named())
    return translate


def _unary(op: str) -> Callable[[Node], Any]:
    return lambda n: getattr(S, op)(n.inputs[0], **n.named())


def _round(n: Node) -> Any:
    """Round halves to even as ONNX does (MXNet's round takes them away from zero)."""
    x = n.inputs[0]
    tie = S.broadcast_equal(x - S.floor(x), S.ones_like(x) * 0.5)
    return S.where(tie, 2 * S.round(x * 0.5), S.round(x), **n.named())


def _fold(op: str) -> Callable[[Node], Any]:
    """Max / Min of any number of inputs, two at a time (MXNet's maximum / minimum take two)."""
    def translate(n: Node) -> Any:
        out = getattr(S, op)(n.inputs[0], n.inputs[1 if len(n.inputs) > 1 else 0])
        for x in n.inputs[2:]:
            out = getattr(S, op)(out, x)
        return out
    return translate


def _sum(n: Node) -> Any:
    return S.add_n(*n.inputs, **n.named())


def _mean(n: Node) -> Any:
    stacked = S.concat(*[S.expand_dims(x, axis=0) for x in n.inputs], dim=0)
    return S.mean(stacked, axis=0)


def _axes(n: Node) -> tuple[int, ...] | None:
    """A reduction's axes: the ``axes`` attribute, or input 1 (ReduceSum from opset 13, others from 18)."""
    if "axes" in n.attrs:
        return tuple(n.attrs["axes"])
    if n.has(1):
        return n.ints(1)
    return None


def _reduce(op: str, **extra: Any) -> Callable[[Node], Any]:
    def translate(n: Node) -> Any:
        axes = _axes(n)
        if axes == () and n.attrs.get("noop_with_empty_axes", 0):
            return S.identity(n.inputs[0], **n.named())
        kwargs: dict[str, Any] = {"keepdims": bool(n.attrs.get("keepdims", 1)), **extra}
        if axes:
            kwargs["axis"] = axes
        return getattr(S, op)(n.inputs[0], **kwargs, **n.named())
    return translate


def _reduce_log_sum(exp: bool) -> Callable[[Node], Any]:
    def translate(n: Node) -> Any:
        x = S.exp(n.inputs[0]) if exp else n.inputs[0]
        axes = _axes(n)
        kwargs: dict[str, Any] = {"keepdims": bool(n.attrs.get("keepdims", 1))}
        if axes:
            kwargs["axis"] = axes
        return S.log(S.sum(x, **kwargs))
    return translate


def _reduce_sum_square(n: Node) -> Any:
    axes = _axes(n)
    kwargs: dict[str, Any] = {"keepdims": bool(n.attrs.get("keepdims", 1))}
    if axes:
        kwargs["axis"] = axes
    return S.sum(S.square(n.inputs[0]), **kwargs)


def _arg(op: str) -> Callable[[Node], Any]:
    def translate(n: Node) -> Any:
        if n.attrs.get("select_last_index", 0):
            raise n.error("select_last_index=1 has no MXNet counterpart")
        keepdims = bool(n.attrs.get("keepdims", 1))
        index = getattr(S, op)(n.inputs[0], axis=n.attrs.get("axis", 0), keepdims=keepdims)
        return S.cast(index, dtype="int64", **n.named())
    return translate


def _pow(n: Node) -> Any:
    return S.broadcast_power(n.inputs[0], n.inputs[1], **n.named())


def _clip(n: Node) -> Any:
    if n.opset >= 11:
        low = float(n.const(1).reshape(-1)[0]) if n.has(1) else -np.inf
        high = float(n.const(2).reshape(-1)[0]) if n.has(2) else np.inf
    else:
        low, high = n.attrs.get("min", -np.inf), n.attrs.get("max", np.inf)
    return S.clip(n.inputs[0], a_min=low, a_max=high, **n.named())


def _cast(n: Node) -> Any:
    return S.cast(n.inputs[0], dtype=_dtype(n.attrs["to"]), **n.named())


def _identity(n: Node) -> Any:
    return S.identity(n.inputs[0], **n.named())


def _random(op: str) -> Callable[[Node], Any]:
    """RandomUniform / RandomNormal (shape attribute) and their Like forms (the input's shape)."""
    def translate(n: Node) -> Any:
        a = n.attrs
        if op == "normal":
            kwargs = {"loc": a.get("mean", 0.0), "scale": a.get("scale", 1.0)}
        else:
            kwargs = {"low": a.get("low", 0.0), "high": a.get("high", 1.0)}
        if n.op_type.endswith("Like"):
            out = getattr(S, f"_random_{op}_like")(n.inputs[0], **kwargs, **n.named())
            return S.cast(out, dtype=_dtype(a["dtype"])) if "dtype" in a else out
        return getattr(S, f"random_{op}")(shape=tuple(a["shape"]), dtype=_dtype(a.get("dtype", 1)), **kwargs,
                                          **n.named())
    return translate


def _multinomial(n: Node) -> Any:
    dtype = _dtype(n.attrs.get("dtype", 6))
    return S.sample_multinomial(S.softmax(n.inputs[0]), shape=n.attrs.get("sample_size", 1), dtype=dtype,
                                **n.named())


def _hardsigmoid(n: Node) -> Any:
    return S.hard_sigmoid(n.inputs[0], alpha=n.attrs.get("alpha", 0.2), beta=n.attrs.get("beta", 0.5),
                          **n.named())


def _lp_normalization(n: Node) -> Any:
    x = n.inputs[0]
    norm = S.norm(x, ord=int(n.attrs.get("p", 2)), axis=int(n.attrs.get("axis", -1)), keepdims=True)
    return S.broadcast_div(x, norm, **n.named())


TABLE: dict[str, Callable[[Node], Any]] = {
    "Add": _binary("broadcast_add"), "Sub": _binary("broadcast_sub"), "Mul": _binary("broadcast_mul"),
    "Div": _binary("broadcast_div"), "Pow": _pow, "Sum": _sum, "Mean": _mean,
    "Max": _fold("maximum"), "Min": _fold("minimum"),
    "And": _binary("broadcast_logical_and"), "Or": _binary("broadcast_logical_or"),
    "Xor": _binary("broadcast_logical_xor"), "Not": _unary("logical_not"),
    "Less": _binary("broadcast_lesser"), "Greater": _binary("broadcast_greater"),
    "Equal": _binary("broadcast_equal"), "LessOrEqual": _binary("broadcast_lesser_equal"),
    "GreaterOrEqual": _binary("broadcast_greater_equal"),
    "Abs": _unary("abs"), "Neg": _unary("negative"), "Ceil": _unary("ceil"), "Floor": _unary("floor"),
    "Round": _round, "Sign": _unary("sign"), "Erf": _unary("erf"),
    "Reciprocal": _unary("reciprocal"), "Sqrt": _unary("sqrt"), "Exp": _unary("exp"), "Log": _unary("log"),
    "Tanh": _unary("tanh"), "Sin": _unary("sin"), "Cos": _unary("cos"), "Tan": _unary("tan"),
    "Asin": _unary("arcsin"), "Acos": _unary("arccos"), "Atan": _unary("arctan"),
    "Sinh": _unary("sinh"), "Cosh": _unary("cosh"), "Asinh": _unary("arcsinh"), "Acosh": _unary("arccosh"),
    "Atanh": _unary("arctanh"),
    "Sigmoid": _unary("sigmoid"), "Relu": _unary("relu"), "Softsign": _unary("softsign"),
    "HardSigmoid": _hardsigmoid,
    "ReduceMax": _reduce("max"), "ReduceMin": _reduce("min"), "ReduceMean": _reduce("mean"),
    "ReduceSum": _reduce("sum"), "ReduceProd": _reduce("prod"), "ReduceL1": _reduce("norm", ord=1),
    "ReduceL2": _reduce("norm", ord=2), "ReduceLogSum": _reduce_log_sum(False),
    "ReduceLogSumExp": _reduce_log_sum(True), "ReduceSumSquare": _reduce_sum_square,
    "ArgMax": _arg("argmax"), "ArgMin": _arg("argmin"), "Clip": _clip, "Cast": _cast,
    "Identity": _identity, "LpNormalization": _lp_normalization,
    "RandomUniform": _random("uniform"), "RandomNormal": _random("normal"),
    "RandomUniformLike": _random("uniform"), "RandomNormalLike": _random("normal"),
    "Multinomial": _multinomial,
}
