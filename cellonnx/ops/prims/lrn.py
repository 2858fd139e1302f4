"""Local response normalization across channels (MindSpore's LRN), one primitive lowered to ONNX LRN:

    y[n, c] = x[n, c] / (bias + alpha * sum(x[n, c'] ** 2 for |c' - c| <= depth_radius)) ** beta

ONNX's LRN divides its alpha by the window size (2 * depth_radius + 1), so the lowering multiplies it back.
The gradient is written with cellonnx ops (the window sum as padded, shifted slices).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims._util import is_float_dtype
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def _window_sum_np(s: np.ndarray, r: int) -> np.ndarray:
    """Sum over channels c - r .. c + r (clipped at the ends) of an (N, C, ...) array."""
    c = s.shape[1]
    cum = np.cumsum(s, axis=1, dtype=np.float64 if s.dtype == np.float64 else np.float32)
    zero = np.zeros_like(cum[:, :1])
    cum = np.concatenate([zero, cum], axis=1)  # cum[:, k] = sum of channels < k
    hi = np.minimum(np.arange(c) + r + 1, c)
    lo = np.maximum(np.arange(c) - r, 0)
    return (cum[:, hi] - cum[:, lo]).astype(s.dtype, copy=False)


def _window_sum(t: Tensor, r: int) -> Tensor:
    """The same window sum written with ops (differentiable, traceable)."""
    from cellonnx.ops.prims.index import Pad, Slice
    from cellonnx.ops.prims.math import add
    c = int(t._data.shape[1])
    pads = [0] * (2 * t.ndim)
    pads[1], pads[t.ndim + 1] = r, r
    padded = Pad.apply(t, pads=tuple(pads), mode="constant", value=0)
    out = None
    for k in range(2 * r + 1):
        part = Slice.apply(padded, axes=(1,), starts=(k,), ends=(k + c,), steps=(1,))
        out = part if out is None else add(out, part)
    return out


class LRN(Op):
    """Local response normalization across the channels of an (N, C, H, W) input."""

    def forward(self, x, *, depth_radius, bias, alpha, beta):
        ct = np.float64 if x.dtype == np.float64 else np.float32
        xc = x.astype(ct, copy=False)
        d = bias + alpha * _window_sum_np(xc * xc, depth_radius)
        return (xc * d ** (-beta)).astype(x.dtype, copy=False)

    def backward(self, ctx, g, *, depth_radius, bias, alpha, beta):
        from cellonnx.ops.prims.math import add, div, mul, pow, sub
        x = ctx.inputs[0]
        d = add(mul(_window_sum(mul(x, x), depth_radius), alpha), bias)
        inv = pow(d, -beta)
        inner = mul(mul(g, x), div(inv, d))
        return (sub(mul(g, inv), mul(mul(x, _window_sum(inner, depth_radius)), 2.0 * alpha * beta)),)

    def lower(self, g, x, *, depth_radius, bias, alpha, beta):
        size = 2 * depth_radius + 1
        return g.op("LRN", x, size=size, alpha=float(alpha * size), beta=float(beta), bias=float(bias))


def lrn(x: Tensor, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
        norm_region: str = "ACROSS_CHANNELS") -> Tensor:
    r"""Local response normalization, as MindSpore's ``ops.lrn``:

    .. math::
        y_c = x_c / \left(bias + \alpha \sum_{c'=c-r}^{c+r} x_{c'}^2\right)^{\beta}

    Args:
        x (Tensor): (N, C, H, W), float.
        depth_radius (int): half-width r of the channel window, >= 0. Default: 5.
        bias (float): Default: 1.0. alpha (float): Default: 1.0. beta (float): Default: 0.5.
        norm_region (str): only 'ACROSS_CHANNELS'. Default: 'ACROSS_CHANNELS'.

    Returns:
        Tensor of x's shape and dtype.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[[[1.0]], [[2.0]]]]), ms.float32)
        >>> print(ops.lrn(x, depth_radius=1).asnumpy().round(4).reshape(-1))
        [0.4082 0.8165]
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'LRN', 'x' must be a Tensor, but got {type(x).__name__}.")
    if isinstance(depth_radius, bool) or not isinstance(depth_radius, (int, np.integer)) or depth_radius < 0:
        raise ValueError(f"For 'LRN', 'depth_radius' must be an int >= 0, but got {depth_radius!r}.")
    for name, v in (("bias", bias), ("alpha", alpha), ("beta", beta)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For 'LRN', '{name}' must be a float, but got {type(v).__name__}.")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'LRN', 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}.")
    if x.ndim != 4 or not is_float_dtype(x._data.dtype):
        raise ValueError(f"For 'LRN', 'x' must be a 4-D float tensor, but got shape {tuple(x.shape)} and "
                         f"dtype {x.dtype}.")
    attrs: dict[str, Any] = {"depth_radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha),
                             "beta": float(beta)}
    return LRN.apply(x, **attrs)


__all__ = ["lrn"]
