"""MXNet's loss output layers (``SoftmaxOutput``, ``LinearRegressionOutput``, ``LogisticRegressionOutput``,
``MAERegressionOutput``): their forward is the prediction (softmax, identity, sigmoid) and their gradient is
the loss's, ignoring the gradient that reaches them from above, as the symbolic executor defines them. The
label gets no gradient.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.autograd.function import _Function
from cellonnx.tensor import Tensor

__all__ = ["LOSS_OPS"]


def _softmax_np(x: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


class _SoftmaxOutput(_Function):
    @staticmethod
    def forward(ctx: Any, data: Tensor, label: Tensor, opts: dict) -> Tensor:
        ctx.opts = opts
        ctx.save_for_backward(data, label)
        return _softmax_forward(data, opts)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        data, label = ctx.saved_tensors
        o = ctx.opts
        x = data.asnumpy().astype(np.float64)
        lab = label.asnumpy()
        if o["multi_output"]:
            p = _softmax_np(x, 1)  # (N, C, ...)
            p = np.moveaxis(p, 1, -1)
            lab = lab.reshape(p.shape[:-1])
        elif o["preserve_shape"]:
            p = _softmax_np(x, -1)
            lab = lab.reshape(p.shape[:-1])
        else:
            p = _softmax_np(x.reshape(x.shape[0], -1), -1)
            lab = lab.reshape(p.shape[:-1])
        k = p.shape[-1]
        idx = lab.astype(np.int64)
        onehot = np.zeros_like(p)
        np.put_along_axis(onehot, np.clip(idx, 0, k - 1)[..., None], 1.0, axis=-1)
        alpha = o["smooth_alpha"]
        if alpha:
            onehot = onehot * (1 - alpha) + (1 - onehot) * alpha / (k - 1)
        g = p - onehot
        valid = np.ones(lab.shape, dtype=bool)
        if o["use_ignore"]:
            valid = idx != int(o["ignore_label"])
            g = g * valid[..., None]
        scale = o["grad_scale"]
        if o["normalization"] == "batch":
            scale /= x.shape[0]
        elif o["normalization"] == "valid":
            scale /= max(int(valid.sum()), 1)
        g = g * scale
        if o["multi_output"]:
            g = np.moveaxis(g, -1, 1)
        g = g.reshape(x.shape)
        if o["out_grad"]:
            g = g * grad.asnumpy()
        return Tensor(g.astype(data._data.dtype)), None, None


def _softmax_forward(data: Tensor, o: dict) -> Tensor:
    if o["multi_output"]:
        return ops.softmax(data, axis=1)
    if o["preserve_shape"]:
        return ops.softmax(data, axis=-1)
    flat = ops.reshape(data, (data.shape[0], -1))  # the batch may be symbolic
    return ops.reshape(ops.softmax(flat, axis=-1), tuple(data.shape))


def softmax_output(
    data: Tensor,
    label: Tensor | None = None,
    grad_scale: float = 1.0,
    ignore_label: float = -1.0,
    multi_output: bool = False,
    use_ignore: bool = False,
    preserve_shape: bool = False,
    normalization: str = "null",
    out_grad: bool = False,
    smooth_alpha: float = 0.0,
    **_: Any,
) -> Tensor:
    """Softmax of ``data``; the gradient of the cross-entropy with ``label`` (class indices)."""
    opts = {
        "grad_scale": float(grad_scale),
        "ignore_label": ignore_label,
        "multi_output": bool(multi_output),
        "use_ignore": bool(use_ignore),
        "preserve_shape": bool(preserve_shape),
        "normalization": normalization,
        "out_grad": bool(out_grad),
        "smooth_alpha": float(smooth_alpha),
    }
    if label is None:
        return _softmax_forward(data, opts)
    return _SoftmaxOutput.apply(data, label, opts)


class _Regression(_Function):
    @staticmethod
    def forward(ctx: Any, data: Tensor, label: Tensor, kind: str, grad_scale: float) -> Tensor:
        out = ops.sigmoid(data) if kind == "logistic" else data * 1
        ctx.kind, ctx.grad_scale = kind, grad_scale
        ctx.save_for_backward(out, label)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        out, label = ctx.saved_tensors
        y = out.asnumpy()
        diff = y - label.asnumpy().reshape(y.shape)
        per_sample = int(np.prod(y.shape[1:])) if y.ndim > 1 else 1
        g = (np.sign(diff) if ctx.kind == "mae" else diff) * (ctx.grad_scale / per_sample)
        return Tensor(g.astype(y.dtype)), None, None, None


def _regression(kind: str) -> Any:
    def op(data: Tensor, label: Tensor | None = None, grad_scale: float = 1.0, **_: Any) -> Tensor:
        if label is None:
            return ops.sigmoid(data) if kind == "logistic" else data
        return _Regression.apply(data, label, kind, float(grad_scale))

    op.__name__ = f"{kind}_regression_output"
    return op


class _MakeLoss(_Function):
    @staticmethod
    def forward(ctx: Any, data: Tensor, grad_scale: float, normalization: str, valid_thresh: float) -> Tensor:
        ctx.opts = (grad_scale, normalization, valid_thresh)
        ctx.save_for_backward(data)
        return data * 1

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (data,) = ctx.saved_tensors
        scale, normalization, thresh = ctx.opts
        x = data.asnumpy()
        if normalization == "batch":
            scale /= x.shape[0] if x.ndim else 1
        elif normalization == "valid":
            scale /= max(int((x > thresh).sum()), 1)
        return Tensor(np.full(x.shape, scale, dtype=x.dtype)), None, None, None


def make_loss(
    data: Tensor, grad_scale: float = 1.0, valid_thresh: float = 0.0, normalization: str = "null", **_: Any
) -> Tensor:
    """The output is ``data``; its gradient is ``grad_scale`` everywhere (over the batch size with
    normalization 'batch', over the count of values above ``valid_thresh`` with 'valid')."""
    return _MakeLoss.apply(data, float(grad_scale), normalization, float(valid_thresh))


LOSS_OPS = {
    "MakeLoss": make_loss,
    "make_loss": make_loss,
    "SoftmaxOutput": softmax_output,
    "Softmax": softmax_output,
    "LinearRegressionOutput": _regression("linear"),
    "LogisticRegressionOutput": _regression("logistic"),
    "MAERegressionOutput": _regression("mae"),
}
