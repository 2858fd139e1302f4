"""More pooling: max_pool3d and avg_pool3d (the MaxPool / AvgPool primitives, 3-D kernels in pool_nd.py),
lp_pool1d / lp_pool2d (MindSpore's composite over average pooling), max unpooling (the MaxUnpool primitive)
and fractional max pooling (written over ops: the windows come from a random-samples tensor, so the graph
computes them too)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from onnx import numpy_helper

from cellonnx.ops.prims.conv import int_tuple
from cellonnx.ops.prims.pool import GatherPlane, _max_pool
from cellonnx.ops.prims.pool_avg import _avg_pool
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def max_pool3d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False, *, pad_mode: str = "pad") -> Any:
    """3D max pooling over an (N, C, D, H, W) input, as MindSpore's ``ops.max_pool3d``.

    Args:
        x (Tensor): (N, C, D, H, W), float or integer.
        kernel_size (Union[int, tuple[int]]): int or (kD, kH, kW).
        stride (Union[int, tuple[int]]): Default: None (kernel_size).
        padding (Union[int, tuple[int]]): int, (pad_d, pad_h, pad_w) (both sides) or (head, tail, top, bottom,
            left, right) of implicit -inf padding, at most half the kernel. Default: 0.
        dilation (Union[int, tuple[int]]): Default: 1.
        ceil_mode (bool): round the output size up. Default: False.
        return_indices (bool): also return the argmax, int64 flat indices into each (D, H, W) volume.
        pad_mode (str): keyword-only, for nn.MaxPool3d: 'pad' (default), 'same' or 'valid'.

    Returns:
        (N, C, D_out, H_out, W_out), or (output, argmax) with return_indices.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(ops.max_pool3d(x, kernel_size=2, stride=2))
        [[[[[13. 15.]]]]]
    """
    return _max_pool("max_pool3d", 3, x, kernel_size, stride, padding, dilation, return_indices, ceil_mode,
                     pad_mode)


def avg_pool3d(input_x: Tensor, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0,
               ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0, *, pad_mode: str = "pad") -> Tensor:
    """3D average pooling over an (N, C, D, H, W) input, as MindSpore's ``ops.avg_pool3d``.

    Args:
        input_x (Tensor): (N, C, D, H, W), float.
        kernel_size, stride (Union[int, tuple[int]]): int or one per spatial dim. Default: 1, 1.
        padding (Union[int, tuple[int]]): int or (head, tail, top, bottom, left, right) of zero padding.
        ceil_mode (bool): Default: False. count_include_pad (bool): Default: True.
        divisor_override (int): if non-zero, the divisor of every window. Default: 0.
        pad_mode (str): keyword-only, for nn.AvgPool3d: 'pad' (default), 'same' (averages over the real
            voxels of each window) or 'valid'.

    Returns:
        (N, C, D_out, H_out, W_out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(16).reshape(1, 1, 2, 2, 4), ms.float32)
        >>> print(ops.avg_pool3d(x, kernel_size=2, stride=2))
        [[[[[6.5 8.5]]]]]
    """
    if isinstance(padding, tuple) and len(padding) not in (1, 3, 6):
        raise ValueError("For avg_pool3d, padding should be int or tuple of length 6.")
    return _avg_pool("avg_pool3d", 3, input_x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override or None, pad_mode)


def _lp_pool(op: str, x: Tensor, norm_type: Any, kernel: tuple, stride: Any, ceil_mode: bool) -> Tensor:
    from cellonnx.ops.prims.math import abs as abs_
    from cellonnx.ops.prims.math import mul, pow, relu, sign
    from cellonnx.ops.prims.pool_avg import avg_pool1d, avg_pool2d
    if isinstance(norm_type, bool) or not isinstance(norm_type, (float, int)):
        raise TypeError(f"For {op}, the type of 'norm_type' must be float or int, but got {type(norm_type)}")
    p = float(norm_type)
    if p == 0:
        raise ValueError(f"For {op}, the value of 'norm_type' can not be 0.")
    pool = avg_pool1d if len(kernel) == 1 else avg_pool2d
    k = kernel[0] if len(kernel) == 1 else kernel
    out = pool(pow(x, p), kernel_size=k, stride=k if stride is None else stride, padding=0,
               ceil_mode=ceil_mode)
    # MindSpore: (sign(avg) * relu(|avg|) * window size) ** (1 / p), the mean times the window size
    return pow(mul(mul(sign(out), relu(abs_(out))), float(np.prod(kernel))), 1.0 / p)


def lp_pool1d(x: Tensor, norm_type: float, kernel_size: int, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    r"""1D power-average pooling, as MindSpore's ``ops.lp_pool1d``:
    :math:`(\text{mean}(x^p) \cdot k)^{1/p}` over each window (the sum of :math:`x^p` without ceil-mode
    overhang).

    Args:
        x (Tensor): (N, C, L) or (C, L).
        norm_type (Union[int, float]): p, not 0.
        kernel_size (int): window length.
        stride (int, optional): Default: None (kernel_size).
        ceil_mode (bool): Default: False.

    Returns:
        (N, C, L_out) or (C, L_out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[[1.0, 2.0, 3.0, 4.0]]]), ms.float32)
        >>> print(ops.lp_pool1d(x, norm_type=1, kernel_size=2, stride=2))
        [[[3. 7.]]]
    """
    from cellonnx.ops.prims.shape import expand_dims, squeeze
    squeezed = x.ndim == 2
    if squeezed:
        x = expand_dims(x, 0)
    out = _lp_pool("lp_pool1d", x, norm_type, (int(kernel_size),), stride, ceil_mode)
    return squeeze(out, 0) if squeezed else out


def lp_pool2d(x: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    r"""2D power-average pooling, as MindSpore's ``ops.lp_pool2d``:
    :math:`(\text{mean}(x^p) \cdot k_H k_W)^{1/p}` over each window.

    Args:
        x (Tensor): (N, C, H, W).
        norm_type (Union[int, float]): p, not 0.
        kernel_size (Union[int, tuple[int]]): int or (kH, kW).
        stride (Union[int, tuple[int]], optional): Default: None (kernel_size).
        ceil_mode (bool): Default: False.

    Returns:
        (N, C, H_out, W_out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(ops.lp_pool2d(x, norm_type=1, kernel_size=2, stride=2))
        [[[[10. 18.]
           [42. 50.]]]]
    """
    kernel = (kernel_size, kernel_size) if not isinstance(kernel_size, tuple) else tuple(kernel_size)
    return _lp_pool("lp_pool2d", x, norm_type, kernel, stride, ceil_mode)


# ---------------------------------------------------------------- max unpooling
class MaxUnpool(Op):
    """Scatter each value to its argmax position (a flat index into its (N, C) plane, as max pooling gives
    it) of a zero output of spatial shape ``out_shape``. ONNX: ScatterElements over the flattened planes
    (ONNX's own MaxUnpool wants indices over the whole tensor)."""

    def forward(self, x, idx, *, out_shape):
        n, c = x.shape[:2]
        plane = int(np.prod(out_shape))
        out = np.zeros((n, c, plane), x.dtype)
        flat = idx.reshape(n, c, -1).astype(np.int64)
        if flat.size and (flat.min() < 0 or flat.max() >= plane):
            raise ValueError(f"indices must lie in [0, {plane}) for an output of spatial shape "
                             f"{tuple(out_shape)}, got values from {int(flat.min())} to {int(flat.max())}")
        np.put_along_axis(out, flat, x.reshape(n, c, -1), axis=2)
        return out.reshape((n, c) + tuple(out_shape))

    def backward(self, ctx, g, *, out_shape):
        from cellonnx.ops.prims.math import cast
        return (GatherPlane.apply(g, cast(ctx.inputs[1], np.int64)), None)

    def lower(self, g, x, idx, *, out_shape):
        xt = g.in_tensors[0]
        dt = xt._data.dtype
        plane = math.prod(out_shape)  # a SymInt where the output's dims are dynamic
        lead = g.op("Slice", g.op("Shape", x), g.i64([0]), g.i64([2]), g.i64([0]))
        zeros = g.op("ConstantOfShape", g.op("Concat", lead, g.i64([plane]), axis=0),
                     value=numpy_helper.from_array(np.zeros(1, dt)))
        ind = g.op("Cast", g.op("Reshape", idx, g.i64([0, 0, -1])), to=7)
        out = g.op("ScatterElements", zeros, ind, g.op("Reshape", x, g.i64([0, 0, -1])), axis=2)
        return g.op("Reshape", out, g.op("Concat", lead, g.shape_value(list(out_shape)), axis=0))


def _max_unpool(op: str, nd: int, x: Tensor, indices: Tensor, kernel_size: Any, stride: Any, padding: Any,
                output_size: Any) -> Tensor:
    from cellonnx.ops.prims.shape import expand_dims, squeeze
    if not isinstance(x, Tensor) or not isinstance(indices, Tensor):
        raise TypeError(f"For {op}, 'x' and 'indices' must be Tensors.")
    if x.ndim not in (nd + 1, nd + 2):
        raise ValueError(f"For {op}, the input must be {nd + 1}-D or {nd + 2}-D, but got shape "
                         f"{tuple(x.shape)}.")
    if tuple(indices.shape) != tuple(x.shape):
        raise ValueError(f"For {op}, 'indices' must have the shape of 'x' {tuple(x.shape)}, but got "
                         f"{tuple(indices.shape)}.")
    if indices._data.dtype.kind not in "iu":
        raise TypeError(f"For {op}, 'indices' must be int32 or int64, but got {indices.dtype}.")
    k = int_tuple(kernel_size, nd, "kernel_size", op)
    s = k if stride is None else int_tuple(stride, nd, "stride", op)
    p = int_tuple(padding, nd, "padding", op, minimum=0)
    spatial = list(x.shape[-nd:])  # dynamic dims stay SymInts: the output's size is computed in the graph
    default = tuple((spatial[i] - 1) * s[i] - 2 * p[i] + k[i] for i in range(nd))
    out = default
    if output_size is not None and not isinstance(output_size, tuple):
        raise ValueError(f"For {op}, output_size must be tuple, but type {type(output_size)}.")
    if output_size:
        if len(output_size) not in (nd, nd + 1, nd + 2):
            raise ValueError(f"For {op}, length of output_size with tuple must be 0, {nd}, {nd + 1} or "
                             f"{nd + 2}, but got {len(output_size)}.")
        out = tuple(int(v) for v in output_size[-nd:])
        for i in range(nd):
            if not default[i] - s[i] < out[i] < default[i] + s[i]:
                raise ValueError(f"For {op}, output_size {out} must lie between "
                                 f"{tuple(d - st for d, st in zip(default, s))} and "
                                 f"{tuple(d + st for d, st in zip(default, s))} (exclusive), got {out}.")
    if any(o < 1 for o in out):
        raise ValueError(f"For {op}, the output size {out} must be positive (input {tuple(x.shape)}, kernel "
                         f"{k}, stride {s}, padding {p}).")
    batched = x.ndim == nd + 2
    xb, ib = (x, indices) if batched else (expand_dims(x, 0), expand_dims(indices, 0))
    y = MaxUnpool.apply(xb, ib, out_shape=out)
    return y if batched else squeeze(y, 0)


def max_unpool1d(x: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of max_pool1d: each value put back at its argmax, zeros elsewhere, as MindSpore's
    ``ops.max_unpool1d``.

    Args:
        x (Tensor): (N, C, L_in) or (C, L_in).
        indices (Tensor): the argmax of the pooling, int32 or int64, x's shape.
        kernel_size, stride, padding (Union[int, tuple[int]]): the pooling's. stride defaults to kernel_size.
        output_size (tuple[int], optional): the output length (optionally with N and C before it); within
            stride of (L_in - 1) * stride - 2 * padding + kernel_size, the default.

    Returns:
        (N, C, L_out) or (C, L_out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[[2.0, 4.0]]]), ms.float32)
        >>> indices = Tensor(np.array([[[1, 3]]]), ms.int64)
        >>> print(ops.max_unpool1d(x, indices, kernel_size=2))
        [[[0. 2. 0. 4.]]]
    """
    return _max_unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(x: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of max_pool2d, as MindSpore's ``ops.max_unpool2d``; arguments as
    :func:`max_unpool1d`, per spatial dim, over (N, C, H, W) or (C, H, W).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[[[5.0]]]]), ms.float32)
        >>> indices = Tensor(np.array([[[[3]]]]), ms.int64)
        >>> print(ops.max_unpool2d(x, indices, kernel_size=2))
        [[[[0. 0.]
           [0. 5.]]]]
    """
    return _max_unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(x: Tensor, indices: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Tensor:
    """The partial inverse of max_pool3d, as MindSpore's ``ops.max_unpool3d``; arguments as
    :func:`max_unpool1d`, per spatial dim, over (N, C, D, H, W) or (C, D, H, W).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[[[[5.0]]]]]), ms.float32)
        >>> indices = Tensor(np.array([[[[[7]]]]]), ms.int64)
        >>> print(ops.max_unpool3d(x, indices, kernel_size=2).shape)
        (1, 1, 2, 2, 2)
    """
    return _max_unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding, output_size)


# ---------------------------------------------------------------- fractional max pooling
def _fractional_index(u: Tensor, size: int, k: int, out: int) -> Tensor:
    """(N, C, out, k) input positions of the windows along one axis, from the samples u (N, C): window i
    starts at floor((i + u) * alpha) - floor(u * alpha), alpha = (size - k) / (out - 1), and the last one
    ends at the input's end (MindSpore's, and PyTorch's, interval rule)."""
    from cellonnx.ops.prims.creation import arange, full
    from cellonnx.ops.prims.index import concat
    from cellonnx.ops.prims.math import add, cast, floor, mul, sub
    from cellonnx.ops.prims.shape import expand_dims
    lead = tuple(u.shape)
    last = full(lead + (1,), size - k, dtype=np.int64)
    if out > 1:
        alpha = (size - k) / (out - 1)
        ue = expand_dims(u, -1)
        steps = cast(arange(0, out - 1), u._data.dtype)
        starts = sub(floor(mul(add(steps, ue), alpha)), floor(mul(ue, alpha)))
        last = concat([cast(starts, np.int64), last], -1)
    return add(expand_dims(last, -1), arange(0, k, dtype=np.int64))


def _fractional(op: str, nd: int, input: Any, kernel_size: Any, output_size: Any, output_ratio: Any,
                return_indices: bool, samples: Any) -> Any:
    from cellonnx.ops.prims.creation import arange
    from cellonnx.ops.prims.math import add, mul
    from cellonnx.ops.prims.random import rand
    from cellonnx.ops.prims.reduce import argmax
    from cellonnx.ops.prims.scatter import gather, gather_elements
    from cellonnx.ops.prims.shape import expand_dims, reshape, squeeze, transpose
    if output_size is None and output_ratio is None:
        raise ValueError(f"For {op}, 'output_size' and 'output_ratio' can not be None at the same time.")
    if not isinstance(return_indices, bool):
        raise TypeError(f"For {op}, 'return_indices' must be bool, but got {type(return_indices).__name__}.")
    if not isinstance(input, Tensor) or input.ndim not in (nd + 1, nd + 2):
        raise ValueError(f"For {op}, the input must be a {nd + 1}-D or {nd + 2}-D Tensor, got "
                         f"{getattr(input, 'shape', input)}.")
    batched = input.ndim == nd + 2
    x = input if batched else expand_dims(input, 0)
    from cellonnx.graph.trace import require_static
    for d in x.shape[2:]:  # the pooling windows are laid out in Python over the spatial sizes
        require_static(d, f"{op} lays its windows out over each spatial size and")
    n, c = x.shape[0], x.shape[1]  # graph values where they are dynamic
    spatial = [int(v) for v in x._data.shape[2:]]
    k = int_tuple(kernel_size, nd, "kernel_size", op)
    if output_size is None:
        ratio = (output_ratio,) * nd if isinstance(output_ratio, (int, float)) else tuple(output_ratio)
        if len(ratio) != nd or not all(0.0 < float(r) < 1.0 for r in ratio):
            raise ValueError(f"For {op}, 'output_ratio' must be a float or {nd} floats in (0, 1), got "
                             f"{output_ratio!r}.")
        out = tuple(int(spatial[i] * float(ratio[i])) for i in range(nd))
    else:
        out = int_tuple(output_size, nd, "output_size", op)
    for i in range(nd):  # MindSpore's limits: the 3-D op wants one spare element
        if out[i] + k[i] - 1 > spatial[i] - (nd == 3):
            raise ValueError(f"For {op}, output_size {out} plus kernel_size {k} minus 1 is too large for "
                             f"the input size {tuple(spatial)}.")
    if samples is None:
        samples = rand(n, c, nd, dtype=x._data.dtype if x._data.dtype.kind == "f" else None)
    elif not batched and tuple(samples.shape) == (c, 1, nd):
        samples = transpose(samples, (1, 0, 2))  # MindSpore's layout for an unbatched 3-D input
    if tuple(int(d) for d in samples.shape) != (int(n), int(c), nd):
        raise ValueError(f"For {op}, '_random_samples' must have shape {(n, c, nd)}, got "
                         f"{tuple(samples.shape)}.")
    # the 2-D op reads its samples as (w, h), the 3-D one as (d, h, w)
    order = (1, 0) if nd == 2 else tuple(range(nd))
    parts = [_fractional_index(samples[:, :, order[i]], spatial[i], k[i], out[i]) for i in range(nd)]
    flat = None  # (N, C, o_0, k_0, o_1, k_1, ...) flat positions in the plane
    for i, part in enumerate(parts):
        stride = int(np.prod(spatial[i + 1:]))
        shape = (n, c) + sum((((out[j], k[j]) if j == i else (1, 1)) for j in range(nd)), ())
        term = reshape(mul(part, stride) if stride != 1 else part, shape)
        flat = term if flat is None else add(flat, term)
    perm = (0, 1) + tuple(2 + 2 * i for i in range(nd)) + tuple(3 + 2 * i for i in range(nd))
    flat = reshape(transpose(flat, perm), (n, c, -1))
    # one gather over the whole tensor (every (n, c) plane offset by its start): its gradient accepts more
    # indices than the plane has elements, which GatherElements' does not
    size = int(np.prod(spatial))
    offset = reshape(mul(arange(0, n * c, dtype=np.int64), size), (n, c, 1))
    values = reshape(gather(reshape(x, (-1,)), reshape(add(flat, offset), (-1,)), 0), tuple(flat.shape))
    values = reshape(values, (n, c) + out + (int(np.prod(k)),))
    flat = reshape(flat, (n, c) + out + (int(np.prod(k)),))
    best = argmax(values, -1, keepdim=True)
    y = squeeze(gather_elements(values, nd + 2, best), nd + 2)
    idx = squeeze(gather_elements(flat, nd + 2, best), nd + 2)
    if not batched:
        y, idx = squeeze(y, 0), squeeze(idx, 0)
    return (y, idx) if return_indices else y


def fractional_max_pool2d(input: Tensor, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                          return_indices: bool = False, _random_samples: Tensor | None = None) -> Any:
    """2D fractional max pooling, as MindSpore's ``ops.fractional_max_pool2d``: max over windows of
    ``kernel_size`` placed at pseudo-random, increasing positions so that the output has ``output_size``.

    Args:
        input (Tensor): (N, C, H, W) or (C, H, W).
        kernel_size (Union[int, tuple[int]]): window size.
        output_size (Union[int, tuple[int]], optional): (H_out, W_out); or give ``output_ratio``.
        output_ratio (Union[float, tuple[float]], optional): output size as a fraction of the input's, in (0,
        1).
        return_indices (bool): also return the argmax (int64 flat indices into each plane). Default: False.
        _random_samples (Tensor, optional): (N, C, 2) samples in [0, 1) that place the windows; drawn
            uniformly when None.

    Returns:
        The pooled tensor, or (pooled, argmax).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> samples = Tensor(np.array([[[0.5, 0.5]]]), ms.float32)
        >>> y = ops.fractional_max_pool2d(x, 2, (2, 2), _random_samples=samples)
        >>> print(y)
        [[[[ 5.  7.]
           [13. 15.]]]]
    """
    return _fractional("fractional_max_pool2d", 2, input, kernel_size, output_size, output_ratio,
                       return_indices,
                       _random_samples)


def fractional_max_pool3d(input: Tensor, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                          return_indices: bool = False, _random_samples: Tensor | None = None) -> Any:
    """3D fractional max pooling, as MindSpore's ``ops.fractional_max_pool3d``; arguments as
    :func:`fractional_max_pool2d` with three sizes, over (N, C, D, H, W) or (C, D, H, W), and
    ``_random_samples`` of shape (N, C, 3).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.arange(32).reshape(1, 1, 2, 4, 4), ms.float32)
        >>> samples = Tensor(np.array([[[0.5, 0.5, 0.5]]]), ms.float32)
        >>> y = ops.fractional_max_pool3d(x, (1, 2, 2), (1, 2, 2), _random_samples=samples)
        >>> print(y)
        [[[[[21. 23.]
            [29. 31.]]]]]
    """
    return _fractional("fractional_max_pool3d", 3, input, kernel_size, output_size, output_ratio,
                       return_indices,
                       _random_samples)


__all__ = ["avg_pool3d", "fractional_max_pool2d", "fractional_max_pool3d", "lp_pool1d", "lp_pool2d",
           "max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d"]
