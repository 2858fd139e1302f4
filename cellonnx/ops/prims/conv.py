"""Convolution: the Conv primitive (1-D and 2-D, stride, dilation, groups, MindSpore's pad modes) with its
functional wrappers ``conv1d`` / ``conv2d``, and the NumPy helpers shared with ``conv_grad.py`` (which holds
the transposed convolution and the weight gradient).

Forward is im2col + BLAS: the input's sliding windows are a strided view, copied once per batch chunk
(small enough to stay in cache) and multiplied by the weight with one ``np.matmul``.
"""
from __future__ import annotations

import threading
import weakref
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from cellonnx.ops.prims._util import is_float_dtype, promote
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class Conv(Op):
    """N-D cross-correlation (N = 1, 2, 3) with optional bias, lowered to one ONNX Conv.

    Attributes: ``stride``, ``dilation`` (one int per spatial dim), ``pads`` (ONNX order: all begins, then
    all ends), ``groups``, and ``auto_pad``: "SAME_UPPER" only when pad_mode 'same' meets a symbolic spatial
    dim with stride > 1, where the pads depend on the runtime size (forward still uses ``pads``).
    """

    def forward(self, x, w, b=None, *, stride, pads, dilation, groups, auto_pad="NOTSET"):
        return conv_forward(x, w, b, stride, pads, dilation, groups)

    def backward(self, ctx, gy, *, stride, pads, dilation, groups, auto_pad="NOTSET"):
        from cellonnx.ops.prims.conv_grad import ConvGradWeight, ConvTranspose, conv_grad_weight_into
        from cellonnx.ops.prims.reduce import reduce_sum
        x, w = ctx.inputs[0], ctx.inputs[1]
        if auto_pad != "NOTSET":
            raise NotImplementedError("conv: the gradient of pad_mode='same' with stride > 1 cannot be traced "
                                      "with a dynamic spatial size (its padding depends on the runtime size); "
                                      "declare the spatial dims static or use pad_mode='pad'")
        if any(s > 1 for s in stride):
            require_static(gy, "conv gradient with stride > 1")  # its output_padding depends on the sizes
        geo = {"stride": stride, "pads": pads, "dilation": dilation, "groups": groups}
        gx = gw = gb = None
        if ctx.needs_grad(0):
            in_size = x._data.shape[2:]
            gx = ConvTranspose.apply(gy, w, **geo, output_padding=output_padding(
                in_size, gy._data.shape[2:], w._data.shape[2:], stride, pads, dilation))
        if ctx.needs_grad(1):
            dest = ctx.grad_out(1)
            if dest is not None and len(stride) <= 2 and dest.dtype == x._data.dtype == gy._data.dtype \
                    and x._data.dtype in _NATIVE:
                # an unrecorded pass offering the weight's place in an all-reduce bucket: written there
                gw = Tensor._make(conv_grad_weight_into(x._data, gy._data, tuple(w._data.shape[2:]), stride,
                                                        pads, dilation, groups, dest))
            else:
                gw = ConvGradWeight.apply(x, gy, kernel=tuple(w._data.shape[2:]), **geo)
        if len(ctx.inputs) == 3 and ctx.needs_grad(2):
            gb = reduce_sum(gy, (0,) + tuple(range(2, gy.ndim)))
        return (gx, gw) if len(ctx.inputs) == 2 else (gx, gw, gb)

    def lower(self, g, x, w, b=None, *, stride, pads, dilation, groups, auto_pad="NOTSET"):
        from cellonnx.autograd.tape import is_grad_enabled
        from cellonnx.ops.prims.conv_gemm import conv_by_gemm
        # the forward of a differentiated function (a training step): one GEMM at small outputs; inference
        # graphs keep the one Conv node (onnxruntime folds batch norm and activations into it)
        training = is_grad_enabled() and auto_pad == "NOTSET"
        fast = conv_by_gemm(g, x, w, b, stride, pads, dilation, groups) if training else None
        if fast is not None:
            return fast
        pad_attrs: dict[str, Any] = {"auto_pad": auto_pad} if auto_pad != "NOTSET" else {"pads": list(pads)}
        kernel = [int(k) for k in g.in_tensors[1]._data.shape[2:]]
        if auto_pad != "NOTSET" and any(d > 1 for d in dilation):  # onnxruntime's SAME takes no dilation
            x, pad_attrs = _same_pad_at_run_time(g, x, kernel, stride, dilation), {"pads": [0] * len(pads)}
        return g.op("Conv", *([x, w] if b is None else [x, w, b]), kernel_shape=kernel, strides=list(stride),
                    dilations=list(dilation), group=groups, **pad_attrs)

    def check(self, x, w, b=None, *, stride, pads, dilation, groups, auto_pad="NOTSET"):
        return check_conv(x.shape, w.shape, None if b is None else b.shape, stride, pads, dilation, groups)


def _same_pad_at_run_time(g: Any, x: str, kernel: list[int], stride: tuple, dilation: tuple) -> str:
    """``x`` padded as pad_mode 'same' pads it, the pads computed from its spatial sizes in the graph: for
    each size n, ``max((ceil(n / s) - 1) * s + d * (k - 1) + 1 - n, 0)`` split with the odd one at the end
    (same_pads' rule, which ONNX's SAME_UPPER follows where onnxruntime allows it: without dilation)."""
    nd = len(kernel)
    size = g.op("Shape", x, start=2)
    s = g.i64(list(stride))
    span = g.i64([d * (k - 1) + 1 for k, d in zip(kernel, dilation)])
    out = g.op("Div", g.op("Add", size, g.op("Sub", s, g.i64([1] * nd))), s)
    covered = g.op("Add", g.op("Mul", g.op("Sub", out, g.i64([1] * nd)), s), span)
    total = g.op("Max", g.op("Sub", covered, size), g.i64([0] * nd))
    begin = g.op("Div", total, g.i64([2] * nd))
    pads = g.op("Concat", g.i64([0, 0]), begin, g.i64([0, 0]), g.op("Sub", total, begin), axis=0)
    return g.op("Pad", x, pads)


# ---------------------------------------------------------------- NumPy kernels (2-D; 1-D runs as H = 1)
BATCH_GEMM_MACS = 1 << 20  # per-item GEMMs this big: one GEMM over the batch instead (see conv_forward)
BATCH_LAST_BELOW = 16  # output widths below which batch-wide im2col columns are laid out batch-last
# short output rows and a whole-batch GEMM this big: one batch-last GEMM even for small per-item products (the
# per-item im2col would copy runs of W_out values; batch-last copies runs of W_out * N)
BATCH_LAST_MACS = 1 << 21
CHUNK_BYTES = 8 << 20  # im2col columns built per batch chunk of about this size, so they stay in cache
COL2IM_CHUNK_BYTES = 1 << 20  # col2im's shifted inputs and partial planes per batch chunk (stay in L2)
_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))


def dynamic_spatial(t: Tensor) -> bool:
    """Whether a traced tensor has symbolic (runtime) spatial dims."""
    return any(hasattr(d, "onnx_name") for d in t.shape[2:])


def require_static(t: Tensor, what: str) -> None:
    """Lowerings that bake spatial sizes in (pooling divisors, gradient scatters, ...) refuse dynamic ones."""
    if dynamic_spatial(t):
        raise NotImplementedError(f"{what}: exporting needs static spatial dims, got shape {tuple(t.shape)}; "
                                  "declare only the batch dim dynamic")


def compute_dtype(dtype: np.dtype) -> np.dtype:
    """float16 / bfloat16 are computed in float32 (NumPy has no fast half-precision matmul)."""
    return dtype if dtype in _NATIVE else np.dtype(np.float32)


def to2d(a: np.ndarray) -> np.ndarray:
    """(N, C, L) -> (N, C, 1, L) as a view; 4-D arrays pass through."""
    return a[:, :, None, :] if a.ndim == 3 else a


def geom2d(stride: tuple, pads: tuple, dilation: tuple) -> tuple[tuple, tuple, tuple]:
    """Stride, (top, left, bottom, right) pads and dilation for the 2-D kernels."""
    if len(stride) == 1:
        return (1, stride[0]), (0, pads[0], 0, pads[1]), (1, dilation[0])
    return tuple(stride), tuple(pads), tuple(dilation)


class Scratch:
    """Large transient buffers (im2col columns, padded inputs) reused across calls. A fresh multi-megabyte
    array comes from mmap and pays a page fault per 4 KiB on first touch, which costs as much as the copy
    that fills it; a training loop asks for the same sizes every step. Only buffers handed out by ``take``
    come back through ``give``; ``take``'s contents are undefined."""

    def __init__(self, cap_bytes: int = 96 << 20) -> None:
        self.free: list[np.ndarray] = []
        self.mine: dict[int, Any] = {}  # id -> weakref of every buffer handed out
        self.cap = cap_bytes
        self.lock = threading.Lock()

    def take(self, shape: tuple, dtype: Any) -> np.ndarray:
        n = int(np.prod(shape)) * np.dtype(dtype).itemsize
        buf = None
        with self.lock:
            fits = [i for i, b in enumerate(self.free) if n <= b.nbytes <= 2 * n + (1 << 16)]
            if fits:
                buf = self.free.pop(min(fits, key=lambda i: self.free[i].nbytes))
        if buf is None:
            buf = np.empty(max(n, 1), np.uint8)
            key = id(buf)
            self.mine[key] = weakref.ref(buf, lambda _: self.mine.pop(key, None))
        return buf[:n].view(dtype).reshape(shape)

    def give(self, *arrays: np.ndarray | None) -> None:
        for a in arrays:
            root = a
            while isinstance(root, np.ndarray) and isinstance(root.base, np.ndarray):
                root = root.base
            ref = self.mine.get(id(root))
            if ref is None or ref() is not root:
                continue
            with self.lock:
                if sum(b.nbytes for b in self.free) + root.nbytes <= self.cap and \
                        all(b is not root for b in self.free):
                    self.free.append(root)


SCRATCH = Scratch()


def pad2d(x: np.ndarray, pads: tuple, value: float = 0.0, extra: tuple = (0, 0)) -> np.ndarray:
    """Pad the last two axes by (top, left, bottom, right) (+ ``extra`` at the bottom / right) into a
    scratch buffer (give it back with ``SCRATCH.give`` when done); x itself when there is no padding."""
    t, left, b, r = pads
    b, r = b + extra[0], r + extra[1]
    if not (t or left or b or r):
        return x
    n, c, h, w = x.shape
    out = SCRATCH.take((n, c, h + t + b, w + left + r), x.dtype)
    out[:, :, :t] = value
    out[:, :, t + h:] = value
    out[:, :, t:t + h, :left] = value
    out[:, :, t:t + h, left + w:] = value
    out[:, :, t:t + h, left:left + w] = x
    return out


def windows(xp: np.ndarray, kernel: tuple, out: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """Read-only view (N, C, kH, kW, H_out, W_out) of the sliding windows of a padded 4-D array."""
    n, c = xp.shape[:2]
    sn, sc, sh, sw = xp.strides
    return as_strided(xp, (n, c, kernel[0], kernel[1], out[0], out[1]),
                      (sn, sc, sh * dilation[0], sw * dilation[1], sh * stride[0], sw * stride[1]),
                      writeable=False)


def batch_last_cols(x: np.ndarray, kernel: tuple, out: tuple, stride: tuple, pads: tuple,
                    dilation: tuple) -> np.ndarray:
    """im2col of the 4-D ``x`` over the whole batch, laid out (C, kH, kW, H_out, W_out, N) in a scratch
    buffer (give it back with ``SCRATCH.give``). The input is first padded into (C, H, W, N): there each
    window row is W_out * N contiguous values at stride 1."""
    n, c, h, w = x.shape
    t, left, b, r = pads
    xb = SCRATCH.take((c, h + t + b, w + left + r, n), x.dtype)
    xb[:, :t] = 0
    xb[:, t + h:] = 0
    xb[:, t:t + h, :left] = 0
    xb[:, t:t + h, left + w:] = 0
    np.copyto(xb[:, t:t + h, left:left + w], x.transpose(1, 2, 3, 0))
    sc, sh, sw, sn = xb.strides
    win = as_strided(xb, (c, kernel[0], kernel[1], out[0], out[1], n),
                     (sc, sh * dilation[0], sw * dilation[1], sh * stride[0], sw * stride[1], sn),
                     writeable=False)
    cols = SCRATCH.take((c, kernel[0], kernel[1], out[0], out[1], n), x.dtype)
    np.copyto(cols, win)
    SCRATCH.give(xb)
    return cols


def out_size(size: int, k: int, s: int, d: int, pad_total: int) -> int:
    return (size + pad_total - d * (k - 1) - 1) // s + 1


def chunk_rows(n: int, per_item_bytes: int, chunk_bytes: int = 0) -> int:
    return max(1, min(n, (chunk_bytes or CHUNK_BYTES) // max(per_item_bytes, 1)))


def _live(size: int, out: int, k: int, s: int, d: int, p0: int) -> tuple[int, int]:
    """Kernel positions [a0, a1) that read a real (not padding) element at some output position."""
    live = []
    for a in range(k):
        off = a * d - p0  # output y reads input y * s + off
        y = 0 if off >= 0 else -(off // s)
        if y < out and y * s + off < size:
            live.append(a)
    return (live[0], live[-1] + 1) if live else (0, 0)


TRIM_COST = 60  # GEMM multiply-adds costing about as much as copying a weight element out of a strided view


def trim_pays(kernel_positions: int, live_positions: int, columns: int) -> bool:
    """Whether leaving dead kernel positions out of a GEMM with ``columns`` columns saves more than copying
    the live part of the weight out of its strided view costs."""
    return (kernel_positions - live_positions) * columns >= TRIM_COST * live_positions


def live_kernel(hw: tuple, out: tuple, kernel: tuple, s: tuple, p: tuple, d: tuple,
                columns: int) -> tuple | None:
    """When whole kernel rows / columns only ever read padding (a 3x3 kernel with padding 1 over a 1x1
    plane), the live part (a0, a1, c0, c1) of the kernel and the pads that give the same output with it;
    None when every position is live, the trimmed geometry would differ, or trimming would not pay for a
    GEMM of ``columns`` columns."""
    (kh, kw), (ho, wo) = kernel, out
    a0, a1 = _live(hw[0], ho, kh, s[0], d[0], p[0])
    c0, c1 = _live(hw[1], wo, kw, s[1], d[1], p[1])
    if (a1 - a0, c1 - c0) == (kh, kw) or a1 <= a0 or c1 <= c0 or a0 * d[0] > p[0] or c0 * d[1] > p[1] or \
            not trim_pays(kh * kw, (a1 - a0) * (c1 - c0), columns):
        return None
    t, left = p[0] - a0 * d[0], p[1] - c0 * d[1]
    b = (ho - 1) * s[0] + d[0] * (a1 - a0 - 1) + 1 - hw[0] - t
    r = (wo - 1) * s[1] + d[1] * (c1 - c0 - 1) + 1 - hw[1] - left
    if b < 0 or r < 0:
        return None
    return a0, a1, c0, c1, (t, left, b, r)


def conv_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: tuple, pads: tuple,
                 dilation: tuple, groups: int) -> np.ndarray:
    nd = x.ndim - 2
    if nd == 3:
        from cellonnx.ops.prims.conv_nd import conv_forward_nd
        return conv_forward_nd(x, w, b, stride, pads, dilation, groups)
    dtype = x.dtype
    ct = compute_dtype(dtype)
    x2, w2 = to2d(x).astype(ct, copy=False), to2d(w).astype(ct, copy=False)
    if not x2.flags.c_contiguous:  # views (broadcasts, transposes) would leave BLAS for a slow loop
        x2 = np.ascontiguousarray(x2)
    s, p, d = geom2d(stride, pads, dilation)
    n, c = x2.shape[:2]
    co, cg, kh, kw = w2.shape
    ho = out_size(x2.shape[2], kh, s[0], d[0], p[0] + p[2])
    wo = out_size(x2.shape[3], kw, s[1], d[1], p[1] + p[3])
    live = live_kernel(x2.shape[2:], (ho, wo), (kh, kw), s, p, d, n * ho * wo) if nd == 2 else None
    if live is not None:  # kernel rows / columns over padding only add zeros: convolve with the rest
        a0, a1, c0, c1, pads = live
        trimmed = np.ascontiguousarray(w2[:, :, a0:a1, c0:c1])
        return conv_forward(x2, trimmed, b, s, pads, d, groups).astype(dtype, copy=False)
    g, L, kg = groups, ho * wo, cg * kh * kw
    wm = w2.reshape(g, co // g, kg)
    y = np.empty((n, g, co // g, L), ct)
    step = chunk_rows(n, c * kh * kw * L * ct.itemsize)
    # one GEMM over the whole batch when the per-item products would be wide and short (few output
    # positions), big enough that 2-thread BLAS runs one large GEMM faster than many medium ones, or made of
    # short output rows (batch-last im2col copies long runs; one GEMM threads where the per-item ones do not)
    macs = co // g * kg * L
    small_l = (co // g * kg > (co // g + kg) * L or macs >= BATCH_GEMM_MACS
               or (wo < BATCH_LAST_BELOW and n * macs >= BATCH_LAST_MACS)) and step >= n
    if kh == kw == 1 and s == (1, 1) and not any(p) and not small_l:  # 1x1: the input is its own im2col
        np.matmul(wm, x2.reshape(n, g, kg, L), out=y)
    elif small_l:
        # few output positions, many channels (deep ResNet layers): per-item products would read the whole
        # weight once per item; one GEMM per group over the whole batch. Its columns are laid out batch-last,
        # (C*kH*kW, H_out, W_out, N), when output rows are short (im2col then copies runs of W_out * N
        # values rather than W_out), else (C*kH*kW, N, H_out, W_out) (the output comes back in runs of L)
        if wo < BATCH_LAST_BELOW:
            cols = batch_last_cols(x2, (kh, kw), (ho, wo), s, p, d)
            out = np.matmul(wm, cols.reshape(g, kg, L * n))
            np.copyto(y, out.reshape(g, co // g, L, n).transpose(3, 0, 1, 2))
            batch_view = cols.reshape(g, kg, L, n).transpose(3, 0, 1, 2)
        else:
            xp = pad2d(x2, p)
            cols = SCRATCH.take((c, kh, kw, n, ho, wo), ct)
            np.copyto(cols, windows(xp, (kh, kw), (ho, wo), s, d).transpose(1, 2, 3, 0, 4, 5))
            if xp is not x2:
                SCRATCH.give(xp)
            out = np.matmul(wm, cols.reshape(g, kg, n * L))
            np.copyto(y, out.reshape(g, co // g, n, L).transpose(2, 0, 1, 3))
            batch_view = cols.reshape(g, kg, n, L).transpose(2, 0, 1, 3)
        # (N, g, kg, L) view for the weight gradient
        if not keep_cols(x, (stride, pads, dilation, groups, (kh, kw)), batch_view):
            SCRATCH.give(cols)
    else:
        xp = pad2d(x2, p)
        win = windows(xp, (kh, kw), (ho, wo), s, d)
        cols = SCRATCH.take((step, c, kh, kw, ho, wo), ct)
        for i in range(0, n, step):
            j = min(n, i + step)
            np.copyto(cols[:j - i], win[i:j])
            np.matmul(wm, cols[:j - i].reshape(j - i, g, kg, L), out=y[i:j])
        if step < n or not keep_cols(x, (stride, pads, dilation, groups, (kh, kw)), cols.reshape(n, g, kg, L)):
            SCRATCH.give(cols)
        if xp is not x2:
            SCRATCH.give(xp)
    if b is not None:
        y += b.astype(ct, copy=False).reshape(1, g, co // g, 1)
    y = y.reshape((n, co, ho, wo) if nd == 2 else (n, co, wo))
    return y if ct == dtype else y.astype(dtype)


# The weight gradient needs the forward's im2col columns again: while gradients are being recorded, the
# columns of small convolutions are kept (keyed by the input array, dropped with it or when used) so
# ConvGradWeight does not copy them a second time.
_COLS: dict[tuple, tuple[Any, np.ndarray]] = {}
COLS_CACHE_BYTES = 64 << 20


def keep_cols(x: np.ndarray, key: tuple, cols: np.ndarray) -> bool:
    from cellonnx.autograd.tape import is_grad_enabled
    if not is_grad_enabled() or cols.nbytes > COLS_CACHE_BYTES // 4:
        return False
    total = sum(c.nbytes for _, c in _COLS.values()) + cols.nbytes
    while _COLS and total > COLS_CACHE_BYTES:  # oldest first
        total -= _COLS.pop(next(iter(_COLS)))[1].nbytes
    full = (id(x),) + key

    def drop(_: object, key: tuple = full) -> None:
        _COLS.pop(key, None)

    _COLS[full] = (weakref.ref(x, drop), cols)
    return True


def cached_cols(x: np.ndarray, key: tuple) -> np.ndarray | None:
    """The columns kept by the forward of this very input array (removed from the cache)."""
    entry = _COLS.pop((id(x),) + key, None)
    return entry[1] if entry is not None and entry[0]() is x else None


def output_padding(in_size: tuple, out: tuple, kernel: tuple, stride: tuple, pads: tuple,
                   dilation: tuple) -> tuple[int, ...]:
    """The ConvTranspose output_padding that gives back a conv input of size ``in_size`` from ``out``."""
    nd = len(kernel)
    return tuple(int(in_size[i]) + pads[i] + pads[i + nd] - ((int(out[i]) - 1) * stride[i] +
                 dilation[i] * (kernel[i] - 1) + 1) for i in range(nd))


def check_conv(x: tuple, w: tuple, b: tuple | None, stride: tuple, pads: tuple, dilation: tuple,
               groups: int) -> str | None:
    """What is wrong with these conv shapes (or None): channels, groups, bias, output size."""
    nd = len(w) - 2
    if len(x) != nd + 2:
        return f"input {x} and weight {w} must have the same rank (N, C, spatial...)"
    if x[1] % groups or w[0] % groups:
        return f"groups={groups} must divide input channels {x[1]} and output channels {w[0]}"
    if x[1] != w[1] * groups:
        return (f"input has {x[1]} channels but weight {w} expects {w[1] * groups} "
                f"(weight[1] * groups, groups={groups})")
    if b is not None and tuple(b) != (w[0],):
        return f"bias must have shape ({w[0]},) to match weight {w}, got {b}"
    for i in range(nd):
        size = out_size(int(x[2 + i]), w[2 + i], stride[i], dilation[i], pads[i] + pads[i + nd])
        if size < 1:
            return (f"input {x} is too small for kernel {w[2:]} with dilation {dilation} and pads {pads}: "
                    f"output size {size} along spatial dim {i}")
    return None


# ---------------------------------------------------------------- argument parsing shared with conv_grad
def int_tuple(value: Any, n: int, name: str, op: str, minimum: int = 1) -> tuple[int, ...]:
    """An int or a sequence of ``n`` ints as a tuple, each at least ``minimum``."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        out = (int(value),) * n
    elif isinstance(value, (tuple, list)) and all(isinstance(v, (int, np.integer)) for v in value):
        out = tuple(int(v) for v in value)
        if len(out) != n:
            raise ValueError(f"{op}: {name} must be an int or a tuple of {n} ints, got {tuple(value)}")
    else:
        raise TypeError(f"{op}: {name} must be an int or a tuple of {n} ints, got {value!r}")
    if any(v < minimum for v in out):
        raise ValueError(f"{op}: every value of {name} must be >= {minimum}, got {out}")
    return out


def explicit_pads(padding: Any, nd: int, op: str) -> tuple[int, ...]:
    """``padding`` as ONNX pads (begins, then ends): an int; one int per spatial dim (both sides); or two per
    dim, (top, bottom, left, right) for 2-D as in MindSpore's Conv2D / nn.Conv2d, (left, right) for 1-D."""
    if isinstance(padding, (int, np.integer)) and not isinstance(padding, bool):
        p = (int(padding),) * nd
        begins, ends = p, p
    elif isinstance(padding, (tuple, list)) and all(isinstance(v, (int, np.integer)) for v in padding):
        vals = tuple(int(v) for v in padding)
        if len(vals) == nd:
            begins, ends = vals, vals
        elif len(vals) == 2 * nd:
            begins, ends = vals[0::2], vals[1::2]
        else:
            raise ValueError(f"{op}: padding must be an int or a tuple of {nd} or {2 * nd} ints, got {vals}")
    else:
        raise TypeError(f"{op}: padding must be an int or a tuple of ints, got {padding!r}")
    if any(v < 0 for v in begins + ends):
        raise ValueError(f"{op}: padding must be >= 0, got {padding}")
    return tuple(begins) + tuple(ends)


def same_pads(spatial: Any, kernel: tuple[int, ...], stride: tuple[int, ...],
              dilation: tuple[int, ...]) -> tuple[tuple[int, ...], bool]:
    """MindSpore's 'same': output = ceil(in / stride), the odd pixel of padding at the bottom / right.
    Returns the pads and whether they depend on a symbolic (runtime) size."""
    begins, ends, dynamic = [], [], False
    for size, k, s, d in zip(spatial, kernel, stride, dilation):
        dk = d * (k - 1) + 1
        if s == 1:
            total = dk - 1
        else:
            dynamic = dynamic or hasattr(size, "onnx_name")
            n = int(size)
            total = max((-(-n // s) - 1) * s + dk - n, 0)
        begins.append(total // 2)
        ends.append(total - total // 2)
    return tuple(begins) + tuple(ends), dynamic


def conv_pads(pad_mode: str, padding: Any, spatial: Any, kernel: tuple[int, ...], stride: tuple[int, ...],
              dilation: tuple[int, ...], op: str) -> tuple[tuple[int, ...], str]:
    """ONNX pads and auto_pad for a MindSpore pad_mode ('same', 'valid', 'pad')."""
    nd = len(kernel)
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("same", "valid", "pad"):
        raise ValueError(f"{op}: pad_mode must be 'same', 'valid' or 'pad', got {pad_mode!r}")
    pads = explicit_pads(padding, nd, op)
    if mode != "pad":
        if any(pads):
            raise ValueError(f"{op}: padding must be 0 when pad_mode is {mode!r} (got padding={padding}); "
                             "use pad_mode='pad' for explicit padding")
        if mode == "valid":
            return (0,) * (2 * nd), "NOTSET"
        pads, dynamic = same_pads(spatial, kernel, stride, dilation)
        return pads, ("SAME_UPPER" if dynamic else "NOTSET")
    return pads, "NOTSET"


def float_operands(op: str, *ts: Any) -> list[Tensor]:
    """Tensors of one float dtype (MindSpore's convolutions take float inputs only)."""
    out = list(ts)
    if len(out) == 2:
        out = list(promote(out[0], out[1]))
    for t in out:
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}: expected Tensors, got {type(t).__name__}")
        if not is_float_dtype(t._data.dtype):
            raise TypeError(f"{op}: expected a float tensor, got {t.dtype} (inputs of shape {tuple(t.shape)})")
    return out


def _conv(op: str, nd: int, input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, pad_mode: str,
          padding: Any, dilation: Any, groups: int) -> Tensor:
    x, w = float_operands(op, input, weight)
    if x.ndim != nd + 2 or w.ndim != nd + 2:
        raise ValueError(f"{op}: expected a {nd + 2}-D input and weight, got input {tuple(x.shape)} and "
                         f"weight {tuple(w.shape)}")
    if not isinstance(groups, (int, np.integer)) or isinstance(groups, bool) or groups < 1:
        raise TypeError(f"{op}: groups must be a positive int, got {groups!r}")
    s = int_tuple(stride, nd, "stride", op)
    d = int_tuple(dilation, nd, "dilation", op)
    kernel = tuple(int(k) for k in w._data.shape[2:])
    pads, auto_pad = conv_pads(pad_mode, padding, x.shape[2:], kernel, s, d, op)
    msg = check_conv(x._data.shape, w._data.shape, None if bias is None else bias._data.shape, s, pads, d,
                       int(groups))
    if msg:
        raise ValueError(f"{op}: {msg}")
    args = [x, w] if bias is None else [x, w, bias if bias._data.dtype == x._data.dtype else
                                        _cast(bias, x._data.dtype)]
    return Conv.apply(*args, stride=s, pads=pads, dilation=d, groups=int(groups), auto_pad=auto_pad)


def _cast(t: Tensor, dtype: Any) -> Tensor:
    from cellonnx.ops.prims.math import cast
    return cast(t, dtype)


# ---------------------------------------------------------------- functional API (MindSpore names)
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, pad_mode: str = "valid",
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """2D convolution (cross-correlation) over an NCHW input, as MindSpore's ``ops.conv2d``.

    Args:
        input: (N, C_in, H, W).
        weight: (C_out, C_in / groups, kH, kW).
        bias: (C_out,) or None.
        stride: int or (sH, sW).
        pad_mode: 'valid' (default, no padding), 'same' (output ceil(in / stride); an odd total padding puts
            the extra pixel at the bottom / right) or 'pad' (use ``padding``).
        padding: with pad_mode 'pad': an int, (pad_h, pad_w) or (top, bottom, left, right). Must be 0 otherwise.
        dilation: int or (dH, dW).
        groups: split input and output channels into groups (groups == C_in: depthwise).

    Returns:
        (N, C_out, H_out, W_out), H_out = (H + top + bottom - dH * (kH - 1) - 1) // sH + 1.

    Examples:
        >>> x = Tensor(np.ones([10, 32, 32, 32]), ms.float32)
        >>> ops.conv2d(x, Tensor(np.ones([32, 32, 3, 3]), ms.float32)).shape
        (10, 32, 30, 30)
    """
    return _conv("conv2d", 2, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, pad_mode: str = "valid",
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """1D convolution over an (N, C_in, L) input, as MindSpore's ``ops.conv1d``.

    Args:
        input: (N, C_in, L). weight: (C_out, C_in / groups, k). bias: (C_out,) or None.
        stride, dilation: int or (int,).
        pad_mode: 'valid' (default), 'same' or 'pad' as in :func:`conv2d`.
        padding: with pad_mode 'pad': an int, (p,) or (left, right).
        groups: number of channel groups.

    Returns:
        (N, C_out, L_out).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((1, 2, 5)), ms.float32)
        >>> weight = Tensor(np.ones((4, 2, 3)), ms.float32)
        >>> output = ops.conv1d(x, weight)
        >>> output.shape
        (1, 4, 3)
        >>> print(output[0, 0])
        [6. 6. 6.]
    """
    return _conv("conv1d", 1, input, weight, bias, stride, pad_mode, padding, dilation, groups)


__all__ = ["conv1d", "conv2d"]
