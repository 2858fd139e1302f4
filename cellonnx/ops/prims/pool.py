"""Max pooling over 1-D and 2-D windows: MaxPool / MaxPoolWithArgmax with their gradient primitives
(MaxPoolGrad and its adjoint GatherPlane) and the functional max_pool2d / max_pool1d, plus the window
helpers shared with average pooling (``pool_avg.py``) and adaptive pooling (``pool_adaptive.py``).

NumPy: max pooling reduces the kernel rows, then the kernel columns, over contiguous copies of the strided
window views (kH + kW vectorised steps, never a loop over pixels); argmax indices are flat positions in each
(H, W) plane of the unpadded input, as in MindSpore.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
from onnx import numpy_helper

from cellonnx.ops.prims.conv import (
    SCRATCH,
    dynamic_spatial,
    explicit_pads,
    int_tuple,
    pad2d,
    require_static,
    same_pads,
    to2d,
)
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


# ---------------------------------------------------------------- geometry
def pool_out(size: int, k: int, s: int, d: int, pb: int, pe: int, ceil_mode: bool) -> int:
    """Output length; in ceil mode the last window must start inside the input or the begin padding."""
    dk = d * (k - 1) + 1
    out = (size + pb + pe - dk + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + pb:
        out -= 1
    return out


def geometry(spatial: tuple, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
             ceil_mode: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Output sizes and the extra end padding ceil mode reads past the begin/end pads."""
    nd = len(kernel)
    outs, extra = [], []
    for i in range(nd):
        o = pool_out(int(spatial[i]), kernel[i], stride[i], dilation[i], pads[i], pads[i + nd], ceil_mode)
        reach = (o - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
        outs.append(o)
        extra.append(max(reach - (int(spatial[i]) + pads[i] + pads[i + nd]), 0))
    return tuple(outs), tuple(extra)


def lift2d(kernel: tuple, stride: tuple, pads: tuple, dilation: tuple, extra: tuple,
        outs: tuple) -> tuple[tuple, ...]:
    """The 1-D geometry lifted to 2-D (H = 1)."""
    if len(kernel) == 2:
        return kernel, stride, pads, dilation, extra, outs
    return ((1, kernel[0]), (1, stride[0]), (0, pads[0], 0, pads[1]), (1, dilation[0]), (0, extra[0]),
            (1, outs[0]))


def window_views(xp: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                 outs: tuple) -> Iterator[tuple[int, np.ndarray]]:
    """(flat kernel position, strided (N, C, H_out, W_out) view of the padded input) per kernel position."""
    rows, cols = stride[0] * (outs[0] - 1) + 1, stride[1] * (outs[1] - 1) + 1
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            a, b = i * dilation[0], j * dilation[1]
            yield i * kernel[1] + j, xp[:, :, a:a + rows:stride[0], b:b + cols:stride[1]]


def _lowest(dtype: np.dtype) -> Any:
    # kind 'V': ml_dtypes' floats (bfloat16), which hold -inf too
    return -np.inf if dtype.kind in "fV" else np.iinfo(dtype).min


# ---------------------------------------------------------------- max pooling kernels
def index_dtype(positions: int) -> np.dtype:
    """The smallest dtype holding a flat kernel position."""
    return np.dtype(np.uint8 if positions <= 256 else np.int32)


def running_max(views: list, with_index: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Max and (with_index) the first argmax position over (position, view) pairs of equal shape."""
    y = views[0][1].copy()
    idx = np.zeros(y.shape, index_dtype(len(views))) if with_index else None
    for pos, v in views[1:]:
        if idx is not None:
            better = np.greater(v, y).view(np.uint8)  # strict: ties keep the first position
            idx += better * (pos - idx).astype(idx.dtype, copy=False)
        np.maximum(y, v, out=y)
    return y, idx


def rows_then_columns_max(xp: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple, outs: tuple,
                          with_index: bool) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Window max over the padded 4-D ``xp`` and, with_index, the kernel row and column of each window's first
    maximum in row-major order. The max is taken over the kernel rows first, then over the kernel columns of
    the row maxima; every operand is first copied out of its strided view once, so the comparisons run over
    contiguous values (NumPy's loops over a strided view, or over short rows, are 5-7x slower per value). The
    argmax keeps each column's earliest row, and between columns the earlier row, then the earlier column."""
    (kh, kw), (sh, sw), (dh, dw), (ho, wo) = kernel, stride, dilation, outs
    rows, cols = sh * (ho - 1) + 1, sw * (wo - 1) + 1
    dt = index_dtype(max(kh, kw))  # modular arithmetic below: row += pick * (rv - row) sets row = rv
    m = xp[:, :, 0:rows:sh].copy()  # (N, C, H_out, W_padded); written to: never a view of the input
    r = np.zeros(m.shape, dt) if with_index else None
    for a in range(1, kh):
        v = np.ascontiguousarray(xp[:, :, a * dh:a * dh + rows:sh])
        if r is not None:  # strict: a tie keeps the earlier row
            r += np.greater(v, m).astype(dt, copy=False) * (dt.type(a) - r)
        np.maximum(m, v, out=m)
    y = m[..., 0:cols:sw].copy()
    if r is None:
        for b in range(1, kw):
            np.maximum(y, m[..., b * dw:b * dw + cols:sw], out=y)
        return y, None, None
    row = r[..., 0:cols:sw].copy()
    col = np.zeros(y.shape, dt)
    for b in range(1, kw):
        v = np.ascontiguousarray(m[..., b * dw:b * dw + cols:sw])
        rv = np.ascontiguousarray(r[..., b * dw:b * dw + cols:sw])
        better = np.greater(v, y)
        better |= np.equal(v, y) & np.less(rv, row)
        pick = better.astype(dt, copy=False)
        row += pick * (rv - row)
        col += pick * (dt.type(b) - col)
        np.maximum(y, v, out=y)
    return y, row, col


def max_pool_forward(x: np.ndarray, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
                     ceil_mode: bool, with_index: bool) -> Any:
    outs, extra = geometry(x.shape[2:], kernel, stride, pads, dilation, ceil_mode)
    if len(kernel) == 3:
        from cellonnx.ops.prims.pool_nd import max_pool_forward_nd
        return max_pool_forward_nd(x, kernel, stride, pads, dilation, outs, extra, with_index)
    k2, s2, p2, d2, e2, o2 = lift2d(kernel, stride, pads, dilation, extra, outs)
    x2 = to2d(x)
    xp = pad2d(x2, p2, _lowest(x.dtype), e2)
    y, row, col = rows_then_columns_max(xp, k2, s2, d2, o2, with_index)
    if xp is not x2:
        SCRATCH.give(xp)
    y = y.reshape(x.shape[:2] + outs)
    if row is None or col is None:
        return y
    # flat position in the unpadded plane: window origin + (kernel row, column) * dilation (int64 arithmetic:
    # np.take from a position table costs 1-7 ns per value, depending on how the indices vary)
    w = x2.shape[3]
    plane = row.astype(np.int64)
    plane *= d2[0] * w
    plane += col
    if d2[1] != 1:
        plane += col * (d2[1] - 1)
    plane += (np.arange(o2[0]) * s2[0] - p2[0])[:, None] * w + (np.arange(o2[1]) * s2[1] - p2[1])[None, :]
    return y, plane.reshape(x.shape[:2] + outs)


def scatter_plane(gy: np.ndarray, idx: np.ndarray, spatial: tuple, unique: bool = False) -> np.ndarray:
    """dx[n, c].flat[idx[n, c, ...]] += gy[n, c, ...] over an (N, C, *spatial) zero array. ``unique``: the
    indices of a plane are distinct and inside it (disjoint unpadded windows), so a plain assignment does."""
    n, c = gy.shape[:2]
    plane = int(np.prod(spatial))
    dx = np.zeros(n * c * plane, gy.dtype)
    flat = idx.reshape(n * c, -1)
    if unique:
        flat = flat + (np.arange(0, n * c * plane, plane, dtype=flat.dtype))[:, None]
        dx[flat.reshape(-1)] = gy.reshape(-1)
    else:
        flat = np.clip(flat, 0, plane - 1) + (np.arange(n * c) * plane)[:, None]
        np.add.at(dx, flat.reshape(-1), gy.reshape(-1))
    return dx.reshape((n, c) + tuple(int(s) for s in spatial))


def disjoint_windows(spatial: tuple, kernel: tuple | None, stride: tuple | None, pads: tuple | None,
                     dilation: tuple | None, ceil_mode: bool) -> bool:
    """Whether every argmax of a max pooling is a distinct position inside the input: windows that neither
    overlap nor read padding (a window of only padding / -inf values would point outside the plane)."""
    if kernel is None or any(pads) or (ceil_mode and any(
            geometry(spatial, kernel, stride, pads, dilation, ceil_mode)[1])):
        return False
    return all(s >= d * (k - 1) + 1 for k, s, d in zip(kernel, stride, dilation))


def gather_plane(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    n, c = x.shape[:2]
    flat = np.take_along_axis(x.reshape(n, c, -1), idx.reshape(n, c, -1), axis=2)
    return flat.reshape(idx.shape)


# ---------------------------------------------------------------- max pooling primitives
class MaxPool(Op):
    """Max over windows (values only), lowered to one ONNX MaxPool."""

    def forward(self, x, *, kernel, stride, pads, dilation, ceil_mode):
        return max_pool_forward(x, kernel, stride, pads, dilation, ceil_mode, False)

    def backward(self, ctx, gy, *, kernel, stride, pads, dilation, ceil_mode):
        x = ctx.inputs[0]
        attrs = {"kernel": kernel, "stride": stride, "pads": pads, "dilation": dilation, "ceil_mode": ceil_mode}
        _, idx = MaxPoolWithArgmax.apply(x, **attrs)
        return (MaxPoolGrad.apply(gy, idx, in_shape=tuple(x._data.shape[2:]), **attrs),)

    def lower(self, g, x, *, kernel, stride, pads, dilation, ceil_mode):
        xs, back = _onnx_pool_input(g, x)
        y = g.op("MaxPool", xs, **_onnx_pool_attrs(g, kernel, stride, pads, dilation, ceil_mode))
        return g.op("Cast", y, to=back) if back else y


class MaxPoolWithArgmax(Op):
    """Max over windows and the argmax as a flat index into each input plane (int64), as MindSpore's
    MaxPoolWithArgmaxV2. Lowered to ONNX MaxPool's Indices output taken modulo the plane size."""

    n_outputs = 2
    save_output = True

    def forward(self, x, *, kernel, stride, pads, dilation, ceil_mode):
        return max_pool_forward(x, kernel, stride, pads, dilation, ceil_mode, True)

    def backward(self, ctx, gy, gidx, *, kernel, stride, pads, dilation, ceil_mode):
        idx = ctx.output(1)
        return (MaxPoolGrad.apply(gy, idx, in_shape=tuple(ctx.inputs[0]._data.shape[2:]), kernel=kernel,
                                  stride=stride, pads=pads, dilation=dilation, ceil_mode=ceil_mode),)

    def lower(self, g, x, *, kernel, stride, pads, dilation, ceil_mode):
        tiled = _tiled_argmax(g, x, kernel, stride, pads, dilation)
        if tiled is not None:
            return tiled
        xs, back = _onnx_pool_input(g, x)
        y, ind = g.op("MaxPool", xs, outputs=2, **_onnx_pool_attrs(g, kernel, stride, pads, dilation, ceil_mode))
        plane = math.prod(g.in_tensors[0].shape[2:])  # a SymInt where H or W is dynamic
        return (g.op("Cast", y, to=back) if back else y), g.op("Mod", ind, g.i64(plane))  # ONNX counts N, C too


class MaxPoolGrad(Op):
    """Scatter-add of the pooled gradient to the argmax positions: (gy, argmax) -> dx of shape
    (N, C, *in_shape). The pooling geometry (kernel ...) only serves the opset < 16 lowering; it is None for
    adaptive pooling. Its gradient in gy is GatherPlane."""

    def forward(self, gy, idx, *, in_shape, kernel=None, stride=None, pads=None, dilation=None, ceil_mode=False):
        return scatter_plane(gy, idx, in_shape, disjoint_windows(in_shape, kernel, stride, pads, dilation, ceil_mode))

    def backward(self, ctx, g, *, in_shape, **geo):
        return (GatherPlane.apply(g, ctx.inputs[1]), None)

    def lower(self, g, gy, idx, *, in_shape, kernel=None, stride=None, pads=None, dilation=None, ceil_mode=False):
        gt = g.in_tensors[0]
        require_static(gt, "max pooling gradient")
        lead = list(gt.shape[:2])
        plane = int(np.prod(in_shape))
        full = g.shape_value(lead + [int(s) for s in in_shape])
        unpooled = _unpool_grad(g, gy, idx, in_shape, full, kernel, stride, pads, dilation, ceil_mode)
        if unpooled is not None:
            return unpooled
        overlap = kernel is None or any(s < dilation[i] * (kernel[i] - 1) + 1 for i, s in enumerate(stride))
        if g.opset >= 16 or not overlap:
            zeros = g.op("ConstantOfShape", g.shape_value(lead + [plane]),
                         value=numpy_helper.from_array(np.zeros(1, gt._data.dtype)))
            upd = g.op("Reshape", gy, g.i64([0, 0, -1]))
            ind = g.op("Reshape", idx, g.i64([0, 0, -1]))
            out = g.op("ScatterElements", zeros, ind, upd, axis=2,
                       reduction="add" if g.opset >= 16 and overlap else None)
            return g.op("Reshape", out, full)
        if kernel is None:
            raise NotImplementedError("max pooling gradient: without the window geometry (adaptive pooling, "
                                      "higher-order gradients) overlapping windows need opset >= 16 to export "
                                      "(ScatterElements with reduction='add')")
        return _onehot_col2im(g, gy, idx, in_shape, kernel, stride, pads, dilation, ceil_mode, full)


class GatherPlane(Op):
    """out[n, c, ...] = x[n, c].flat[idx[n, c, ...]]: the gradient of MaxPoolGrad in its pooled input."""

    def forward(self, x, idx):
        return gather_plane(x, idx)

    def backward(self, ctx, g):
        x, idx = ctx.inputs
        return (MaxPoolGrad.apply(g, idx, in_shape=tuple(x._data.shape[2:])), None)

    def lower(self, g, x, idx):
        flat = g.op("GatherElements", g.op("Reshape", x, g.i64([0, 0, -1])),
                    g.op("Reshape", idx, g.i64([0, 0, -1])), axis=2)
        return g.op("Reshape", flat, g.op("Shape", idx))


def _tiled_argmax(g: Any, x: str, kernel: tuple, stride: tuple, pads: tuple,
                  dilation: tuple) -> tuple[str, str] | None:
    """Max and flat argmax of k x k windows that tile the plane (stride k, no padding, H and W multiples of
    k), for float inputs: the argmax by one ArgMax (first index on ties, as MindSpore) over each window's
    k * k values made a row of their own, in row-major order, by one Transpose that moves the kernel-row
    axis past the output columns (the kernel columns stay innermost); the values by MaxPool without Indices
    (float32) or a ReduceMax over those rows.
    onnxruntime's MaxPool with an Indices output runs a slow kernel; SpaceToDepth, or a Transpose that moves
    both kernel axes, cost 3-30x this Transpose (bench/RESULTS.md). None where it does not apply."""
    xt = g.in_tensors[0]
    shape = xt._data.shape
    k = kernel[0]
    if (len(kernel) != 2 or kernel != (k, k) or stride != (k, k) or any(pads) or dilation != (1, 1) or k < 2
            or xt._data.dtype.kind != "f" or xt._data.dtype.itemsize < 4 or len(shape) != 4
            or dynamic_spatial(xt) or any(hasattr(d, "onnx_name") for d in xt.shape[1:])):
        return None
    c, h, w = (int(d) for d in shape[1:])
    if h % k or w % k or h * w >= 2 ** 24:  # the index arithmetic below is exact in float32
        return None
    ho, wo = h // k, w // k
    windows = g.op("Transpose", g.op("Reshape", x, g.i64([0, c, ho, k, wo, k])), perm=[0, 1, 2, 4, 3, 5])
    rows = g.op("Reshape", windows, g.i64([-1, k * k]))
    pos = g.op("ArgMax", rows, axis=1, keepdims=0)
    if xt._data.dtype == np.float32:  # MLAS pools float32 only; other dtypes go to a generic, slow kernel
        y = g.op("MaxPool", x, kernel_shape=[k, k], strides=[k, k])
    else:
        y = g.op("Reshape", g.axes([1], "ReduceMax", rows, keepdims=0), g.i64([-1, c, ho, wo]))
    # window position p = k * row + col sits at row * w + col = p + row * (w - k) past the window's origin
    # (float32 arithmetic: onnxruntime's int64 Div took as long as the rest together, a Gather from a k * k
    # table longer than the ArgMax)
    f32 = onnx_type(np.dtype(np.float32))
    p = g.op("Cast", g.op("Reshape", pos, g.i64([-1, c, ho, wo])), to=f32)
    row = g.op("Floor", g.op("Div", p, g.const(np.float32(k))))
    origin = (np.arange(ho)[:, None] * k * w + np.arange(wo)[None, :] * k).astype(np.float32)
    flat = g.op("Add", g.op("Add", p, g.op("Mul", row, g.const(np.float32(w - k)))), g.const(origin))
    return y, g.op("Cast", flat, to=onnx_type(np.dtype(np.int64)))


def _unpool_grad(g: Any, gy: str, idx: str, in_shape: tuple, full: str, kernel: tuple | None,
                 stride: tuple | None, pads: tuple | None, dilation: tuple | None,
                 ceil_mode: bool) -> str | None:
    """The max-pool gradient as one MaxUnpool (gy written to the argmax positions of a zero tensor) where
    every argmax is a distinct position inside its plane (windows that neither overlap nor read padding) and
    the gradient is float32 (onnxruntime's CPU MaxUnpool takes float32 only): 0.15-0.2x ScatterElements'
    time at LeNet-5's pools. MaxUnpool reads indices into the whole tensor, so each plane's offset
    (n * C + c) * plane is added to the plane indices. None where it does not apply (then ScatterElements)."""
    gt = g.in_tensors[0]
    if (g.for_gpu or gt._data.dtype != np.float32
            or not disjoint_windows(in_shape, kernel, stride, pads, dilation, ceil_mode)):
        return None
    plane = int(np.prod(in_shape))
    out_plane = int(np.prod([int(s) for s in gt._data.shape[2:]]))
    rows = g.op("Reshape", idx, g.i64([-1, out_plane]))
    count = g.op("Gather", g.op("Shape", rows), g.i64(0))  # N * C
    offsets = g.op("Mul", g.op("Range", g.i64(0), count, g.i64(1)), g.i64(plane))
    flat = g.op("Add", rows, g.unsqueeze(offsets, [1]))
    out = g.op("MaxUnpool", gy, g.op("Reshape", flat, g.op("Shape", gy)), full, kernel_shape=list(kernel),
               strides=list(stride))
    return g.op("Reshape", out, full)  # ONNX infers only MaxUnpool's rank; the Reshape gives the dims


def _onnx_pool_input(g: Any, x: str) -> tuple[str, int | None]:
    """ONNX MaxPool takes floats and 8-bit ints: wider ints are pooled as double (exact up to 2**53)."""
    dt = g.in_tensors[0]._data.dtype
    if dt.kind in "iu" and dt.itemsize > 1:
        return g.op("Cast", x, to=onnx_type(np.dtype(np.float64))), onnx_type(dt)
    return x, None


def onnx_ceil(g: Any, what: str, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
              ceil_mode: bool) -> tuple[tuple[int, ...], int]:
    """Extra end padding for ceil mode (static sizes) or, with dynamic spatial dims, ONNX's ceil_mode where
    it agrees: ONNX lacks the rule that the last window starts inside the input or its begin padding, which
    only matters with padding or a window shorter than the stride."""
    nd = len(kernel)
    if not dynamic_spatial(g.in_tensors[0]):
        return geometry(g.in_tensors[0]._data.shape[2:], kernel, stride, pads, dilation, ceil_mode)[1], 0
    if ceil_mode and (any(pads) or any(dilation[i] * (kernel[i] - 1) + 1 < stride[i] for i in range(nd))):
        require_static(g.in_tensors[0], f"{what} with ceil_mode and padding")
    return (0,) * nd, int(bool(ceil_mode))


def _onnx_pool_attrs(g: Any, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
                     ceil_mode: bool) -> dict[str, Any]:
    """ONNX MaxPool attributes (ceil mode as extra end padding where the sizes are static)."""
    nd = len(kernel)
    extra, ceil = onnx_ceil(g, "max pooling", kernel, stride, pads, dilation, ceil_mode)
    attrs: dict[str, Any] = {"kernel_shape": list(kernel), "strides": list(stride),
                             "pads": list(pads[:nd]) + [pads[nd + i] + extra[i] for i in range(nd)]}
    if ceil:
        attrs["ceil_mode"] = 1
    if any(d != 1 for d in dilation):
        attrs["dilations"] = list(dilation)
    return attrs


def _onehot_col2im(g: Any, gy: str, idx: str, in_shape: tuple, kernel: tuple, stride: tuple, pads: tuple,
                   dilation: tuple, ceil_mode: bool, full: str) -> str:
    """Opset < 16 (ScatterElements cannot add): the within-window argmax position as a one-hot channel,
    summed back by a ConvTranspose whose kernel is the identity over window positions."""
    nd = len(kernel)
    outs, extra = geometry(in_shape, kernel, stride, pads, dilation, ceil_mode)
    dt = g.in_tensors[0]._data.dtype
    k_total = int(np.prod(kernel))
    pos, rest, sizes = None, idx, [int(s) for s in in_shape]
    for i in range(nd):  # peel coordinates from the last spatial dim
        ax = nd - 1 - i
        coord = g.op("Mod", rest, g.i64(sizes[ax])) if ax > 0 else rest
        if ax > 0:
            rest = g.op("Div", rest, g.i64(sizes[ax]))
        shape = [1] * nd
        shape[ax] = outs[ax]
        origin = (np.arange(outs[ax]) * stride[ax] - pads[ax]).reshape(shape).astype(np.int64)
        k = g.op("Div", g.op("Sub", coord, g.const(origin)), g.i64(dilation[ax]))
        weight = int(np.prod(kernel[ax + 1:]))
        term = g.op("Mul", k, g.i64(weight)) if weight != 1 else k
        pos = term if pos is None else g.op("Add", pos, term)
    onehot = g.op("Equal", g.unsqueeze(pos, [2]), g.const(np.arange(k_total, dtype=np.int64).reshape(
        [1, 1, k_total] + [1] * nd)))
    cols = g.op("Mul", g.op("Cast", onehot, to=onnx_type(dt)), g.unsqueeze(gy, [2]))
    cols = g.op("Reshape", cols, g.i64([-1, k_total] + list(outs)))
    eye = np.eye(k_total, dtype=dt).reshape([k_total, 1] + list(kernel))
    return onnx_col2im(g, cols, eye, in_shape, kernel, stride, pads, dilation, outs, extra, full)


def onnx_col2im(g: Any, cols: str, weight: np.ndarray, in_shape: tuple, kernel: tuple, stride: tuple, pads: tuple,
            dilation: tuple, outs: tuple, extra: tuple, full: str) -> str:
    """ConvTranspose of (N*C, K, O...) columns back to (N, C, *in_shape)."""
    nd = len(kernel)
    end = [pads[nd + i] + extra[i] for i in range(nd)]
    opad = [int(in_shape[i]) + pads[i] + end[i] - ((outs[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1)
            for i in range(nd)]
    out = g.op("ConvTranspose", cols, g.const(weight), kernel_shape=list(kernel), strides=list(stride),
               dilations=list(dilation), pads=list(pads[:nd]) + end,
               output_padding=opad if any(opad) else None)
    return g.op("Reshape", out, full)


def onnx_type(dt: np.dtype) -> int:
    from cellonnx import dtypes
    return dtypes.dtype(dt).onnx


# ---------------------------------------------------------------- functional API (MindSpore names)
def pool_pads(op: str, nd: int, x: Tensor, kernel: tuple, stride: tuple, padding: Any,
              pad_mode: str) -> tuple[int, ...]:
    """ONNX pads for a pooling pad_mode: 'pad' (``padding``), or MindSpore's layer modes 'same' / 'valid'."""
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("pad", "same", "valid"):
        raise ValueError(f"{op}: pad_mode must be 'pad', 'same' or 'valid', got {pad_mode!r}")
    pads = explicit_pads(padding, nd, op)
    if mode == "pad":
        return pads
    if any(pads):
        raise ValueError(f"{op}: padding must be 0 when pad_mode is {mode!r}, got {padding}")
    if mode == "valid":
        return pads
    pads, dynamic = same_pads(x.shape[2:], kernel, stride, (1,) * nd)
    if dynamic:
        raise NotImplementedError(f"{op}: pad_mode='same' with stride > 1 needs static spatial dims to trace "
                                  "(its padding depends on the input size)")
    return pads


def check_input(op: str, nd: int, x: Any, float_only: bool) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: expected a Tensor, got {type(x).__name__}")
    if x.ndim != nd + 2:
        axes = ("L", "H, W", "D, H, W")[nd - 1]
        raise ValueError(f"{op}: expected a {nd + 2}-D input (N, C, {axes}), got shape {tuple(x.shape)}")
    kind = x._data.dtype.kind
    if (float_only and kind != "f" and x._data.dtype.name != "bfloat16") or kind in "bc":
        raise TypeError(f"{op}: unsupported dtype {x.dtype} (input of shape {tuple(x.shape)})")
    return x


def check_output(op: str, x: Tensor, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
               ceil_mode: bool) -> None:
    nd = len(kernel)
    outs, _ = geometry(x._data.shape[2:], kernel, stride, pads, dilation, ceil_mode)
    if any(o < 1 for o in outs):
        raise ValueError(f"{op}: input {tuple(x.shape)} is too small for kernel {kernel} (dilation {dilation}, "
                         f"pads {pads}): output size {outs}")
    if any(pads[i] > kernel[i] // 2 or pads[i + nd] > kernel[i] // 2 for i in range(nd)):
        raise ValueError(f"{op}: padding {pads} must be at most half of kernel_size {kernel}")


def _max_pool(op: str, nd: int, x: Any, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
              return_indices: bool, ceil_mode: bool, pad_mode: str) -> Any:
    from cellonnx.autograd.tape import is_grad_enabled
    x = check_input(op, nd, x, False)
    k = int_tuple(kernel_size, nd, "kernel_size", op)
    s = k if stride is None else int_tuple(stride, nd, "stride", op)
    d = int_tuple(dilation, nd, "dilation", op)
    pads = pool_pads(op, nd, x, k, s, padding, pad_mode)
    check_output(op, x, k, s, pads, d, bool(ceil_mode))
    attrs = {"kernel": k, "stride": s, "pads": pads, "dilation": d, "ceil_mode": bool(ceil_mode)}
    if return_indices or (x.requires_grad and is_grad_enabled()):
        y, idx = MaxPoolWithArgmax.apply(x, **attrs)  # the argmax is kept for the gradient
        return (y, idx) if return_indices else y
    return MaxPool.apply(x, **attrs)


def max_pool2d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               return_indices: bool = False, ceil_mode: bool = False, *, pad_mode: str = "pad") -> Any:
    """2D max pooling over an NCHW input, as MindSpore's ``ops.max_pool2d``.

    Args:
        x: (N, C, H, W), float or integer.
        kernel_size: int or (kH, kW).
        stride: int or (sH, sW); None (default) means kernel_size.
        padding: int or (pad_h, pad_w) of implicit -inf padding on both sides (at most half the kernel);
            (top, bottom, left, right) is also accepted.
        dilation: int or (dH, dW), spacing of the window elements.
        return_indices: also return the argmax, int64 flat indices into each input (H, W) plane.
        ceil_mode: round the output size up (a last window must still start inside the input or its
            begin padding).
        pad_mode: keyword-only, for nn.MaxPool2d: 'pad' (default, use ``padding``), 'same' (output
            ceil(in / stride), the odd padding pixel at the bottom / right) or 'valid' (no padding).

    Returns:
        (N, C, H_out, W_out), with H_out = (H + 2 * pad_h - dH * (kH - 1) - 1) // sH + 1 (rounded up in
        ceil_mode); with return_indices, the tuple (output, argmax).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.arange(16).reshape(1, 1, 4, 4), ms.float32)
        >>> print(ops.max_pool2d(x, kernel_size=2, stride=2))
        [[[[ 5.  7.]
           [13. 15.]]]]
    """
    return _max_pool("max_pool2d", 2, x, kernel_size, stride, padding, dilation, return_indices, ceil_mode,
                     pad_mode)


def max_pool1d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               return_indices: bool = False, ceil_mode: bool = False, *, pad_mode: str = "pad") -> Any:
    """1D max pooling over an (N, C, L) input; arguments as :func:`max_pool2d` with one value per argument
    (padding may also be (left, right)). For nn.MaxPool1d; MindSpore 2.x has no functional max_pool1d.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[[1.0, 5.0, 2.0, 8.0]]]), ms.float32)
        >>> print(ops.max_pool1d(x, kernel_size=2, stride=2))
        [[[5. 8.]]]
    """
    return _max_pool("max_pool1d", 1, x, kernel_size, stride, padding, dilation, return_indices, ceil_mode,
                     pad_mode)


__all__ = ["max_pool1d", "max_pool2d"]
