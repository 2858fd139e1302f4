"""MXNet's operators written in its old OperatorProperty form that exported graphs still hold:
``BatchNorm_v1``, ``IdentityAttachKLSparseReg`` (identity whose gradient carries a sparseness penalty),
``SVMOutput`` (identity whose gradient is the L1 / L2 hinge loss's) and ``Correlation`` (FlowNet's
correlation of two feature maps, written with cellonnx ops, so it differentiates and exports)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.autograd.function import _Function
from cellonnx.tensor import Parameter as CoreParameter
from cellonnx.tensor import Tensor

__all__ = ["LEGACY_OPS"]


def batch_norm_v1(data: Tensor, gamma: Tensor, beta: Tensor, moving_mean: Tensor, moving_var: Tensor,
                  eps: float = 1e-3, momentum: float = 0.9, fix_gamma: bool = True,
                  use_global_stats: bool = False, output_mean_var: bool = False, **_: Any) -> Tensor:
    """MXNet's first BatchNorm: BatchNorm over axis 1 of (N, C) or (N, C, H, W) data (batch statistics with
    the biased variance in training, which move the moving ones; with ``fix_gamma`` gamma is 1, stored as 1,
    and its gradient zero)."""
    from cellonnx.gluon.symbol.ops_extra import batch_norm

    if data.ndim not in (2, 4):
        raise ValueError(f"BatchNorm_v1: data must be (N, C) or (N, C, H, W), got shape {tuple(data.shape)}")
    if output_mean_var:
        raise NotImplementedError("BatchNorm_v1: output_mean_var=True is not supported")
    return batch_norm(data, gamma, beta, moving_mean, moving_var, eps=eps, momentum=momentum,
                      fix_gamma=fix_gamma, use_global_stats=use_global_stats, axis=1)


class _KLSparseReg(_Function):
    @staticmethod
    def forward(ctx: Any, data: Tensor, moving_avg: Tensor, opts: tuple) -> Tensor:
        ctx.opts, ctx.moving_avg = opts, moving_avg
        ctx.save_for_backward(data)
        return data * 1

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (data,) = ctx.saved_tensors
        target, penalty, momentum = ctx.opts
        x = data.asnumpy()
        flat = x.reshape(x.shape[0], -1)
        avg_state = ctx.moving_avg
        if flat.shape[1] != avg_state.shape[0]:
            raise ValueError(
                f"IdentityAttachKLSparseReg: the gradient needs (N, C) data (the mean activation of each of "
                f"the {avg_state.shape[0]} channels), got shape {x.shape}"
            )
        old = avg_state.asnumpy()
        moved = (momentum * old + (1 - momentum) * flat.mean(axis=0)).astype(old.dtype)
        if isinstance(avg_state, CoreParameter):
            avg_state._assign_array(moved)
        else:
            avg_state._data = moved
        reg = penalty * (-target / moved + (1 - target) / (1 - moved))
        g = grad.asnumpy().reshape(flat.shape) + reg[None, :]
        return Tensor(g.reshape(x.shape).astype(x.dtype)), None, None


def identity_attach_kl_sparse_reg(data: Tensor, moving_avg: Tensor, sparseness_target: float = 0.1,
                                  penalty: float = 1e-3, momentum: float = 0.9, **_: Any) -> Tensor:
    """The identity; its gradient adds ``penalty * (-t / a + (1 - t) / (1 - a))`` for the sparseness target
    t, a the moving average of the mean activation per channel, which each backward pass moves (by
    ``momentum``) towards the batch's mean, as MXNet does."""
    return _KLSparseReg.apply(data, moving_avg, (float(sparseness_target), float(penalty), float(momentum)))


class _SVMOutput(_Function):
    @staticmethod
    def forward(ctx: Any, data: Tensor, label: Tensor, opts: tuple) -> Tensor:
        ctx.opts = opts
        ctx.save_for_backward(data, label)
        return data * 1

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        data, label = ctx.saved_tensors
        margin, coef, linear = ctx.opts
        x = data.asnumpy()
        out = x.reshape(x.shape[0], -1)
        k = label.asnumpy().reshape(-1)[: out.shape[0]].astype(np.int64)  # one class per row, as MXNet reads
        is_label = np.arange(out.shape[1])[None, :] == k[:, None]
        if linear:
            g = np.where(is_label, -(margin > out).astype(x.dtype), (margin > -out).astype(x.dtype)) * coef
        else:
            g = np.where(is_label, np.where(margin > out, -2 * (margin - out), 0.0),
                         np.where(margin > -out, 2 * (margin + out), 0.0)) * coef
        return Tensor(g.reshape(x.shape).astype(x.dtype)), None, None


def svm_output(data: Tensor, label: Tensor | None = None, margin: float = 1.0,
               regularization_coefficient: float = 1.0, use_linear: bool = False, **_: Any) -> Tensor:
    """The identity; its gradient (whatever reaches it from above) is the one-vs-rest hinge loss's with
    class indices ``label``: L2-SVM ``2 * coef * max(margin -/+ x, 0)`` with its signs, or with
    ``use_linear`` L1-SVM's ``coef`` where the margin is violated. The label gets no gradient."""
    if label is None:
        return data * 1
    return _SVMOutput.apply(data, label, (float(margin), float(regularization_coefficient), bool(use_linear)))


def correlation(data1: Tensor, data2: Tensor, kernel_size: int = 1, max_displacement: int = 1,
                stride1: int = 1, stride2: int = 1, pad_size: int = 0, is_multiply: bool = True,
                **_: Any) -> Tensor:
    """FlowNet's correlation of (N, C, H, W) maps: for each displacement (dy, dx) on a grid of radius
    ``max_displacement // stride2`` (row by row, step ``stride2``), the mean over channels and a
    ``kernel_size`` window of ``x1 * x2`` (``|x1 - x2|`` without ``is_multiply``) between the window at
    (y, x) in ``data1`` and the one displaced in ``data2``, both padded by ``pad_size``; windows start at
    ``max_displacement`` and step by ``stride1``. Output (N, (2 * radius + 1) ** 2, H', W')."""
    k, md, s1, s2, pad = (int(v) for v in (kernel_size, max_displacement, stride1, stride2, pad_size))
    if data1.ndim != 4 or tuple(data1.shape[1:]) != tuple(data2.shape[1:]):
        raise ValueError(f"Correlation: data1 and data2 must be (N, C, H, W) of one shape, got "
                         f"{tuple(data1.shape)} and {tuple(data2.shape)}")
    if k % 2 != 1 or k < 1:
        raise ValueError(f"Correlation: kernel_size must be odd, got {k}")
    if s1 < 1 or s2 < 1:
        raise ValueError(f"Correlation: stride1 and stride2 must be positive, got {s1} and {s2}")
    height, width = int(data1.shape[2]) + 2 * pad, int(data1.shape[3]) + 2 * pad
    border = md + (k - 1) // 2
    out_h = -(-(height - 2 * border) // s1)
    out_w = -(-(width - 2 * border) // s1)
    if out_h < 1 or out_w < 1:
        raise ValueError(f"Correlation: the padded maps ({height} x {width}) are smaller than the border "
                         f"max_displacement + kernel_size // 2 ({border}) on both sides")
    p1 = ops.pad(data1, (pad, pad, pad, pad)) if pad else data1
    p2 = ops.pad(data2, (pad, pad, pad, pad)) if pad else data2
    span_h, span_w = (out_h - 1) * s1 + k, (out_w - 1) * s1 + k
    a = p1[:, :, md:md + span_h, md:md + span_w]
    radius = md // s2
    maps = []
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            y0, x0 = md + dy * s2, md + dx * s2
            b = p2[:, :, y0:y0 + span_h, x0:x0 + span_w]
            pair = a * b if is_multiply else ops.abs(a - b)
            maps.append(ops.mean(pair, 1, True))
    cost = ops.concat(maps, axis=1)
    return ops.avg_pool2d(cost, k, s1) if (k > 1 or s1 > 1) else cost


LEGACY_OPS = {
    "BatchNorm_v1": batch_norm_v1,
    "IdentityAttachKLSparseReg": identity_attach_kl_sparse_reg,
    "SVMOutput": svm_output,
    "Correlation": correlation,
}
