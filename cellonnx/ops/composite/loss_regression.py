"""Regression losses with MindSpore 2.10's names and rules: Gaussian negative log likelihood and the
broadcasting mean squared error of the ``*_ext`` API, written over primitives."""
from __future__ import annotations

import math
from typing import Any

from cellonnx import ops as _ops
from cellonnx.ops.composite.loss import _check_reduction, _reduce, _shape
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely

__all__ = ["gaussian_nll_loss", "mse_loss_ext"]


def gaussian_nll_loss(x: Tensor, target: Tensor, var: Tensor, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    r"""Negative log likelihood of ``target`` under Gaussians of mean ``x`` and variance ``var``.

    .. math::
        \text{loss} = \frac{1}{2}\left(\log(\max(\text{var}, \epsilon)) +
        \frac{(x - \text{target})^2}{\max(\text{var}, \epsilon)}\right) + \text{const.}

    with the constant :math:`\frac{1}{2}\log(2\pi)` when ``full``, else 0. The variance is clamped at
    :math:`\epsilon` with its gradient kept above it (MindSpore's ``maximum``). A ``var`` with one dimension
    fewer than ``x`` (the last one) is broadcast along it.

    Args:
        x (Tensor): means, :math:`(N, *)`.
        target (Tensor): samples, the shape of ``x`` (or broadcastable).
        var (Tensor): variances, the shape of ``x``, or it without the last dimension, or broadcastable.
        full (bool): add the constant. Default: ``False``.
        eps (float): > 0. Default: ``1e-6``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: the broadcast shape for ``'none'``, else 0-d.

    Examples:
        >>> x = Tensor(np.arange(8).reshape((4, 2)).astype(np.float32))
        >>> print(ops.gaussian_nll_loss(x, x + 1, Tensor(np.ones((4, 1), np.float32))))
        0.5
    """
    name = "gaussian_nll_loss"
    for arg, v in (("x", x), ("target", target), ("var", var)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For '{name}', '{arg}' must be a tensor, but got {type(v)}.")
    if not isinstance(full, bool):
        raise TypeError(f"For '{name}', 'full' must be a bool, but got {type(full)}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{name}', 'eps' must be a positive float, but got {eps}.")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{name}', 'reduction' must be one of 'none', 'mean', or 'sum', but got "
                         f"{reduction}.")
    if _shape(x) != _shape(var) and _shape(x)[:-1] == _shape(var):
        var = F.expand_dims(var, -1)
    maxima = F.maximum(var, eps)
    loss = F.mul(F.add(F.log(maxima), F.div(F.square(F.sub(x, target)), maxima)), 0.5)
    if full:
        loss = F.add(loss, 0.5 * math.log(2 * math.pi))
    return _reduce(loss, reduction)


def mse_loss_ext(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    r"""Mean squared error :math:`(x - y)^2` of an input and a target that broadcast together.

    Args:
        input (Tensor): predictions.
        target (Tensor): targets, broadcastable with ``input``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``. Default: ``'mean'``.

    Returns:
        Tensor: the broadcast shape for ``'none'``, else 0-d.

    Examples:
        >>> x = Tensor(np.array([1., 2., 3.], np.float32))
        >>> print(ops.mse_loss_ext(x, Tensor(np.array([1., 2., 2.], np.float32))))
        0.3333...
    """
    _check_reduction(reduction, "mse_loss_ext")
    for arg, v in (("input", input), ("target", target)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For 'mse_loss_ext', '{arg}' must be a Tensor, but got {type(v).__name__}.")
    return _reduce(F.square(F.sub(input, target)), reduction)
