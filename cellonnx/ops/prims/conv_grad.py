"""The transposed convolution and the weight gradient of a convolution.

ConvTranspose is also the input gradient of Conv, and the three primitives (Conv, ConvTranspose,
ConvGradWeight) are closed under differentiation: each one's gradient is made of the other two, so
convolutions can be differentiated to any order and a whole training step traces to ONNX.

NumPy: ConvTranspose is ``W^T @ input`` (BLAS) followed by col2im, a loop over the kH * kW kernel positions
adding strided slices; ConvGradWeight is one ``gy @ im2col(x)^T`` matmul per batch chunk.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.ops.prims.conv import (
    BATCH_GEMM_MACS,
    BATCH_LAST_BELOW,
    COL2IM_CHUNK_BYTES,
    SCRATCH,
    Conv,
    cached_cols,
    chunk_rows,
    compute_dtype,
    conv_pads,
    explicit_pads,
    float_operands,
    geom2d,
    int_tuple,
    live_kernel,
    output_padding,
    pad2d,
    require_static,
    to2d,
    trim_pays,
    windows,
)
from cellonnx.ops.prims.conv_gemm import (
    transpose_by_gemm,
    weight_grad_by_gemm,
    weight_grad_by_tap_rows,
    weight_grad_by_windows,
)
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


class ConvTranspose(Op):
    """Transposed convolution (the adjoint of Conv in its input), lowered to one ONNX ConvTranspose.

    weight is (C_in, C_out / groups, k...); the output size is
    (in - 1) * stride - pad_begin - pad_end + dilation * (k - 1) + 1 + output_padding.
    """

    def forward(self, u, w, b=None, *, stride, pads, dilation, groups, output_padding):
        return conv_transpose_forward(u, w, b, stride, pads, dilation, groups, output_padding)

    def backward(self, ctx, gz, *, stride, pads, dilation, groups, output_padding):
        from cellonnx.ops.prims.reduce import reduce_sum
        u, w = ctx.inputs[0], ctx.inputs[1]
        geo = {"stride": stride, "pads": pads, "dilation": dilation, "groups": groups}
        gu = Conv.apply(gz, w, **geo) if ctx.needs_grad(0) else None
        gw = ConvGradWeight.apply(gz, u, kernel=tuple(w._data.shape[2:]), **geo) if ctx.needs_grad(1) else None
        if len(ctx.inputs) == 2:
            return gu, gw
        return gu, gw, (reduce_sum(gz, (0,) + tuple(range(2, gz.ndim))) if ctx.needs_grad(2) else None)

    def lower(self, g, u, w, b=None, *, stride, pads, dilation, groups, output_padding):
        fast = transpose_by_gemm(g, u, w, b, stride, pads, dilation, groups, output_padding)
        if fast is not None:
            return fast
        nd = len(pads) // 2
        begin, end = list(pads[:nd]), list(pads[nd:])
        # onnxruntime's CUDA ConvTranspose takes symmetric pads only (others run on the CPU): pad by the
        # smaller side and cut the rest off with a Slice
        sym = [min(a, e) for a, e in zip(begin, end)] if g.for_gpu else None
        y = g.op("ConvTranspose", *([u, w] if b is None else [u, w, b]),
                 kernel_shape=list(g.in_tensors[1]._data.shape[2:]), strides=list(stride),
                 dilations=list(dilation), group=groups, pads=sym + sym if sym else list(pads),
                 output_padding=list(output_padding) if any(output_padding) else None)
        if not sym or (sym == begin and sym == end):
            return y
        out = [int(d) for d in g.out_tensors[0]._data.shape[2:]]
        starts = [a - m for a, m in zip(begin, sym)]
        return g.op("Slice", y, g.i64(starts), g.i64([s0 + o for s0, o in zip(starts, out)]),
                    g.i64(list(range(2, 2 + nd))))

    def check(self, u, w, b=None, *, stride, pads, dilation, groups, output_padding):
        if u.ndim != w.ndim or u.shape[1] != w.shape[0] or u.shape[1] % groups:
            return (f"input {u.shape} needs weight (C_in={u.shape[1]}, C_out / groups, k...) with groups "
                    f"dividing C_in; got weight {w.shape}, groups={groups}")
        if b is not None and b.shape != (w.shape[1] * groups,):
            return f"bias must have shape ({w.shape[1] * groups},), got {b.shape}"
        return None


class ConvGradWeight(Op):
    """The gradient of Conv's weight: dW[o, c, k] = sum over batch and output positions of
    gy[n, o, p] * x[n, c, p * stride + k * dilation - pad]. Lowered as a Conv of the channel-transposed input
    by the channel-transposed gradient (stride and dilation swap roles)."""

    def forward(self, x, gy, *, kernel, stride, pads, dilation, groups):
        return conv_grad_weight(x, gy, kernel, stride, pads, dilation, groups)

    def backward(self, ctx, gw, *, kernel, stride, pads, dilation, groups):
        x, gy = ctx.inputs
        geo = {"stride": stride, "pads": pads, "dilation": dilation, "groups": groups}
        gx = ggy = None
        if ctx.needs_grad(0):
            gx = ConvTranspose.apply(gy, gw, **geo, output_padding=output_padding(
                x._data.shape[2:], gy._data.shape[2:], kernel, stride, pads, dilation))
        if ctx.needs_grad(1):
            ggy = Conv.apply(x, gw, **geo)
        return gx, ggy

    def lower(self, g, x, gy, *, kernel, stride, pads, dilation, groups):
        require_static(g.in_tensors[0], "conv weight gradient")
        fast = weight_grad_by_gemm(g, x, gy, kernel, stride, pads, dilation, groups)
        if fast is None and g.for_gpu:
            fast = weight_grad_by_windows(g, x, gy, kernel, stride, pads, dilation, groups)
        if fast is None:
            fast = weight_grad_by_tap_rows(g, x, gy, kernel, stride, pads, dilation, groups)
        if fast is not None:
            return fast
        xs, gs = g.in_tensors[0]._data.shape, g.in_tensors[1]._data.shape
        nd = len(kernel)
        spatial = [int(v) for v in xs[2:]]
        # (N, C, S...) -> (C / groups, groups * N, S...): groups of N "channels", one per batch item; the
        # batch and channel counts are read from x (0 and -1), so either may be dynamic
        xr = g.op("Reshape", x, g.i64([0, groups, -1] + spatial))
        xt = g.op("Transpose", xr, perm=[2, 1, 0] + list(range(3, 3 + nd)))
        xc = g.op("Reshape", xt, g.i64([0, -1] + spatial))
        wt = g.op("Transpose", gy, perm=[1, 0] + list(range(2, 2 + nd)))  # (C_out, N, O...) as the kernel
        out = g.op("Conv", xc, wt, kernel_shape=[int(v) for v in gs[2:]], strides=list(dilation),
                   dilations=list(stride), pads=list(pads), group=groups)
        full = [(spatial[i] + pads[i] + pads[i + nd] - stride[i] * (int(gs[2 + i]) - 1) - 1) // dilation[i] + 1
                for i in range(nd)]
        if full != list(kernel):  # windows past the last full kernel position
            out = g.op("Slice", out, g.i64([0] * nd), g.i64(list(kernel)), g.i64(list(range(2, 2 + nd))))
        return g.op("Transpose", out, perm=[1, 0] + list(range(2, 2 + nd)))


# ---------------------------------------------------------------- NumPy kernels
def conv_transpose_forward(u: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: tuple, pads: tuple,
                           dilation: tuple, groups: int, output_padding: tuple) -> np.ndarray:
    nd = u.ndim - 2
    if nd == 3:
        from cellonnx.ops.prims.conv_nd import conv_transpose_forward_nd
        return conv_transpose_forward_nd(u, w, b, stride, pads, dilation, groups, output_padding)
    dtype = u.dtype
    ct = compute_dtype(dtype)
    u2, w2 = np.ascontiguousarray(to2d(u), ct), to2d(w).astype(ct, copy=False)
    s, p, d = geom2d(stride, pads, dilation)
    op = (0, output_padding[0]) if nd == 1 else tuple(output_padding)
    n, ci, hi, wi = u2.shape
    _, cg, kh, kw = w2.shape
    g = groups
    co = cg * g
    hp, wp = (hi - 1) * s[0] + d[0] * (kh - 1) + 1 + op[0], (wi - 1) * s[1] + d[1] * (kw - 1) + 1 + op[1]
    h, wd = hp - p[0] - p[2], wp - p[1] - p[3]
    cig, kg, L = ci // g, cg * kh * kw, hi * wi
    wide_and_short = kg * cig > (kg + cig) * L
    big_on_short_rows = wi < BATCH_LAST_BELOW and kg * cig * L >= BATCH_GEMM_MACS
    if (wide_and_short or big_on_short_rows) and g * kg * n * L * u2.itemsize <= BATCHED_COLS_BYTES and \
            not (kh == kw == 1 and s == (1, 1)):
        # few input positions, many channels (deep ResNet layers): per-item products would read the whole
        # weight once per item; one GEMM per group over the whole batch (as the forward, see conv_forward)
        out = _col2im_batched(u2, w2, g, s, d, p, (h, wd))
        if b is not None:
            out += b.astype(ct, copy=False).reshape(1, co, 1, 1)
        if nd == 1:
            out = out.reshape(n, co, wd)
        return out if ct == dtype else out.astype(dtype)
    if s == (1, 1) and not (kh == kw == 1 and not any(p) and not any(op)):
        out = _col2im_rows(u2, w2, g, d, (hp, wp))
    else:
        wt = np.ascontiguousarray(w2.reshape(g, ci // g, cg * kh * kw).transpose(0, 2, 1))  # (g, Cout/g*k, Cin/g)
        if s == (1, 1):  # 1x1 without padding: one matmul
            out = np.matmul(wt, u2.reshape(n, g, ci // g, hi * wi)).reshape(n, co, hi, wi)
        else:
            out = _col2im_strided(u2, wt, (kh, kw), s, d, (hp, wp))
    if any(p):
        out = np.ascontiguousarray(out[:, :, p[0]:p[0] + h, p[1]:p[1] + wd])
    if b is not None:
        out += b.astype(ct, copy=False).reshape(1, co, 1, 1)
    if nd == 1:
        out = out.reshape(n, co, wd)
    return out if ct == dtype else out.astype(dtype)


def _col2im_rows(u: np.ndarray, w: np.ndarray, groups: int, d: tuple, full: tuple) -> np.ndarray:
    """Stride 1. In the flattened output plane (rows widened to the full width wp), kernel position (a, c)
    adds ``W[:, :, a, c]^T @ u`` at offset a * dH * wp + c * dW. The kW column shifts go into the matmul's
    contraction: V stacks the input kW times, each copy shifted by c * dW (one contiguous copy per c), so one
    matmul per batch chunk gives the kH partial planes, ``(kH * C_out/g, C_in/g * kW) @ (C_in/g * kW, run)``,
    and kH long contiguous adds finish the sum. Against the full columns ``(C_out/g * kH * kW, run)`` this
    writes kW times less and adds kW times fewer slices."""
    n, ci, hi, wi = u.shape
    _, cog, kh, kw = w.shape
    g, cig = groups, ci // groups
    hp, wp = full
    run, lead = hi * wp, d[1] * (kw - 1)
    # (g, kH * C_out/g, C_in/g * kW): rows (a, o), columns (i, c)
    wm = np.ascontiguousarray(w.reshape(g, cig, cog, kh, kw).transpose(0, 3, 2, 1, 4)).reshape(g, kh * cog, cig * kw)
    out = np.zeros((n, g, cog, hp * wp), u.dtype)
    step = chunk_rows(n, (g * kh * cog + ci * kw) * run * u.itemsize, COL2IM_CHUNK_BYTES)
    # the input rows widened to wp (zeros past wi), after ``lead`` zeros: shift c is the window at lead - c * dW
    ext = SCRATCH.take((step, ci, lead + run), u.dtype)
    ext[..., :lead] = 0
    rows = ext[..., lead:].reshape(step, ci, hi, wp)
    rows[..., wi:] = 0
    v = SCRATCH.take((step, ci, kw, run), u.dtype)
    parts = SCRATCH.take((step, g, kh * cog, run), u.dtype)
    for i in range(0, n, step):
        j = min(n, i + step)
        m = j - i
        rows[:m, ..., :wi] = u[i:j]
        for c in range(kw):
            np.copyto(v[:m, :, c], ext[:m, :, lead - c * d[1]:lead - c * d[1] + run])
        np.matmul(wm, v[:m].reshape(m, g, cig * kw, run), out=parts[:m])
        p = parts[:m].reshape(m, g, kh, cog, run)
        dst = out[i:j]
        for a in range(kh):
            off = a * d[0] * wp
            dst[..., off:off + run] += p[:, :, a]
    SCRATCH.give(ext, v, parts)
    return out.reshape(n, g * cog, hp, wp)


BATCHED_COLS_BYTES = 64 << 20


def _col2im_batched(u: np.ndarray, w: np.ndarray, groups: int, s: tuple, d: tuple, p: tuple,
                    size: tuple) -> np.ndarray:
    """Any stride: ``W^T @ u`` as one GEMM per group over all items, ``(C_out/g * kH * kW, C_in/g) @
    (C_in/g, N * H_in * W_in)`` (the weight read in place, transposed by BLAS), then col2im into the cropped
    output laid out (C_out, N, h, w), made batch-major by one copy. Kernel rows / columns that reach no
    output position (a 3x3 kernel over a 1x1 plane with padding 1) are left out of the GEMM."""
    n, ci, hi, wi = u.shape
    _, cog, kh, kw = w.shape
    g, cig, co = groups, ci // groups, cog * groups
    h, wd = size
    spans_h = [_span(hi, s[0], a * d[0] - p[0], h) for a in range(kh)]
    spans_w = [_span(wi, s[1], c * d[1] - p[1], wd) for c in range(kw)]
    ka = [a for a in range(kh) if spans_h[a] is not None]
    kc = [c for c in range(kw) if spans_w[c] is not None]
    dst = np.zeros((co, n, h, wd), u.dtype)  # (replaced by a batch-last one below where that is used)
    if not ka or not kc:
        return np.ascontiguousarray(dst.transpose(1, 0, 2, 3))
    L = n * hi * wi
    a0, a1, c0, c1 = ka[0], ka[-1] + 1, kc[0], kc[-1] + 1
    if trim_pays(kh * kw, (a1 - a0) * (c1 - c0), L):
        wk = np.ascontiguousarray(w[:, :, a0:a1, c0:c1])
    else:
        wk, a0, a1, c0, c1 = w, 0, kh, 0, kw
    kg = cog * (a1 - a0) * (c1 - c0)
    wm = wk.reshape(g, cig, kg)
    # the batch goes last, (C, H, W, N), when rows are short: the col2im adds then move runs of
    # (row length) * N values instead of a row's few
    batch_last = wi < BATCH_LAST_BELOW and wd < BATCH_LAST_BELOW
    order = (1, 2, 3, 0) if batch_last else (1, 0, 2, 3)
    ub = SCRATCH.take(tuple(u.shape[i] for i in order), u.dtype)
    np.copyto(ub, u.transpose(order))
    ubg = ub.reshape(g, cig, L)
    cols = SCRATCH.take((g, kg, L), u.dtype)
    for k in range(g):
        np.matmul(wm[k].T, ubg[k], out=cols[k])
    if batch_last:
        dst = np.zeros((co, h, wd, n), u.dtype)
        parts = cols.reshape(co, a1 - a0, c1 - c0, hi, wi, n)
    else:
        parts = cols.reshape(co, a1 - a0, c1 - c0, n, hi, wi)
    for a in ka:
        (y0, y1, r0) = spans_h[a]
        rows = slice(r0, r0 + (y1 - y0 - 1) * s[0] + 1, s[0])
        for c in kc:
            (x0, x1, q0) = spans_w[c]
            columns = slice(q0, q0 + (x1 - x0 - 1) * s[1] + 1, s[1])
            if batch_last:
                dst[:, rows, columns] += parts[:, a - a0, c - c0, y0:y1, x0:x1]
            else:
                dst[:, :, rows, columns] += parts[:, a - a0, c - c0, :, y0:y1, x0:x1]
    SCRATCH.give(ub, cols)
    return np.ascontiguousarray(dst.transpose((3, 0, 1, 2) if batch_last else (1, 0, 2, 3)))


def _span(n_in: int, s: int, off: int, size: int) -> tuple[int, int, int] | None:
    """Input indices [y0, y1) whose target y * s + off lies in [0, size), and the first target."""
    y0 = max(0, -(off // s) if off < 0 else 0)
    while y0 * s + off < 0:
        y0 += 1
    y1 = n_in
    while y1 > y0 and (y1 - 1) * s + off >= size:
        y1 -= 1
    if y1 <= y0:
        return None
    return y0, y1, y0 * s + off


def _col2im_strided(u: np.ndarray, wt: np.ndarray, kernel: tuple, s: tuple, d: tuple, full: tuple) -> np.ndarray:
    """col2im with one strided add per kernel position."""
    n, ci, hi, wi = u.shape
    g, kg, _ = wt.shape
    kh, kw = kernel
    co = kg * g // (kh * kw)
    out = np.zeros((n, co) + tuple(full), u.dtype)
    um = u.reshape(n, g, ci // g, hi * wi)
    step = chunk_rows(n, kg * g * hi * wi * u.itemsize)
    rows, ncols = s[0] * (hi - 1) + 1, s[1] * (wi - 1) + 1
    cols = SCRATCH.take((step, g, kg, hi * wi), u.dtype)
    for i in range(0, n, step):
        j = min(n, i + step)
        np.matmul(wt, um[i:j], out=cols[:j - i])
        parts = cols[:j - i].reshape(j - i, co, kh, kw, hi, wi)
        dst = out[i:j]
        for a in range(kh):
            for c in range(kw):
                dst[:, :, a * d[0]:a * d[0] + rows:s[0], c * d[1]:c * d[1] + ncols:s[1]] += parts[:, :, a, c]
    SCRATCH.give(cols)
    return out


def conv_grad_weight_into(x: np.ndarray, gy: np.ndarray, kernel: tuple, stride: tuple, pads: tuple,
                          dilation: tuple, groups: int, out: np.ndarray) -> np.ndarray:
    """ConvGradWeight's forward written into ``out`` (1-D / 2-D, float32 / float64 of the operands' dtype,
    C-contiguous, the weight's shape): a gradient computed straight into its all-reduce bucket. Returns a
    view of ``out``."""
    return conv_grad_weight(x, gy, kernel, stride, pads, dilation, groups, out=out)


def conv_grad_weight(x: np.ndarray, gy: np.ndarray, kernel: tuple, stride: tuple, pads: tuple,
                     dilation: tuple, groups: int, out: np.ndarray | None = None) -> np.ndarray:
    nd = x.ndim - 2
    if out is not None and (nd == 3 or not out.flags.c_contiguous or out.dtype != x.dtype
                            or compute_dtype(x.dtype) != x.dtype):
        out[...] = conv_grad_weight(x, gy, kernel, stride, pads, dilation, groups).reshape(out.shape)
        return out
    if nd == 3:
        from cellonnx.ops.prims.conv_nd import conv_grad_weight_nd
        return conv_grad_weight_nd(x, gy, kernel, stride, pads, dilation, groups)
    dtype = x.dtype
    ct = compute_dtype(dtype)
    x2, gy2 = to2d(x).astype(ct, copy=False), np.ascontiguousarray(to2d(gy), ct)
    s, p, d = geom2d(stride, pads, dilation)
    kh, kw = (1, kernel[0]) if nd == 1 else tuple(kernel)
    n, c = x2.shape[:2]
    co, ho, wo = gy2.shape[1:]
    g = groups
    cg, cog, L, kg = c // g, co // g, ho * wo, c // g * kh * kw
    live = live_kernel(x2.shape[2:], (ho, wo), (kh, kw), s, p, d, n * ho * wo) if nd == 2 else None
    if live is not None:  # kernel rows / columns over padding only: their gradient is zero
        a0, a1, c0, c1, pads = live
        if out is None:
            dw = np.zeros((co, cg, kh, kw), ct)
        else:
            dw = out.reshape(co, cg, kh, kw)
            dw[...] = 0
        dw[:, :, a0:a1, c0:c1] = conv_grad_weight(x2, gy2, (a1 - a0, c1 - c0), s, pads, d, g)
        if out is not None:
            return out
        return dw if ct == dtype else dw.astype(dtype)
    xp = pad2d(x2, p)
    if (ho - 1) * s[0] + d[0] * (kh - 1) + 1 > xp.shape[2] or (wo - 1) * s[1] + d[1] * (kw - 1) + 1 > xp.shape[3]:
        raise ValueError(f"gradient {gy.shape} does not fit input {x.shape} with kernel {tuple(kernel)}")
    win = windows(xp, (kh, kw), (ho, wo), s, d)
    gym = gy2.reshape(n, g, cog, L)
    kept = cached_cols(x, (stride, pads, dilation, groups, (kh, kw)))
    overwrite = kept is not None and kept.strides[0] == kept.itemsize   # the GEMM below writes every entry
    if out is None:
        dw = np.empty((g, cog, kg), ct) if overwrite else np.zeros((g, cog, kg), ct)
    else:
        dw = out.reshape(g, cog, kg)
        if not overwrite:
            dw[...] = 0
    # per-item products (cog x kg each, summed over the batch) while they are no larger than the item's
    # operands; otherwise (few output positions, many channels: deep ResNet layers) one GEMM per group over
    # batch and positions, instead of materializing N weight-sized products. Columns the forward laid out
    # (C*kH*kW, N, positions) for its own batch-wide GEMM already are that GEMM's operand.
    batched = cog * kg <= (cog + kg) * L and (kept is None or kept.flags.c_contiguous)

    def accumulate(gy_part: np.ndarray, cols_part: np.ndarray) -> None:
        if batched:
            dw[...] += np.matmul(gy_part, cols_part.transpose(0, 1, 3, 2)).sum(axis=0)
        else:
            for k in range(g):
                dw[k] += np.tensordot(gy_part[:, k], cols_part[:, k], axes=([0, 2], [0, 2]))

    if overwrite:  # the forward's batch-last columns
        cols_t = kept.transpose(1, 2, 3, 0).reshape(g, kg, L * n)
        gy_t = np.ascontiguousarray(gym.transpose(1, 2, 3, 0)).reshape(g, cog, L * n)
        for k in range(g):
            np.matmul(gy_t[k], cols_t[k].T, out=dw[k])
        SCRATCH.give(kept)
    elif kept is not None:  # the forward's columns
        accumulate(gym, kept)
        SCRATCH.give(kept)
    else:
        step = chunk_rows(n, c * kh * kw * L * ct.itemsize)
        cols = SCRATCH.take((step, c, kh, kw, ho, wo), ct)
        for i in range(0, n, step):
            j = min(n, i + step)
            np.copyto(cols[:j - i], win[i:j])  # im2col, as in the forward
            accumulate(gym[i:j], cols[:j - i].reshape(j - i, g, kg, L))
        SCRATCH.give(cols)
    if xp is not x2:
        SCRATCH.give(xp)
    if out is not None:
        return out
    dw = dw.reshape((co, cg, kh, kw) if nd == 2 else (co, cg, kw))
    return dw if ct == dtype else dw.astype(dtype)


# ---------------------------------------------------------------- functional API
def transpose_pads(pad_mode: str, padding: Any, kernel: tuple, stride: tuple, dilation: tuple,
                   output_pad: tuple, op: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """ONNX pads and output_padding giving MindSpore nn.Conv2dTranspose's output size per pad_mode:
    'same': in * stride; 'valid': in * stride + max(dilated_k - stride, 0); 'pad': the ONNX rule."""
    nd = len(kernel)
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode == "pad":
        return explicit_pads(padding, nd, op), output_pad
    conv_pads(mode, padding, (1,) * nd, kernel, stride, dilation, op)  # validates mode and padding == 0
    if any(output_pad):
        raise ValueError(f"{op}: output_padding must be 0 unless pad_mode is 'pad', got {output_pad}")
    begins, ends, extra = [], [], []
    for k, s, d in zip(kernel, stride, dilation):
        dk = d * (k - 1) + 1
        total = max(dk - s, 0) if mode == "same" else 0
        begins.append(total // 2)
        ends.append(total - total // 2)
        extra.append(max(s - dk, 0))
    return tuple(begins) + tuple(ends), tuple(extra)


def conv_transpose(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                   output_padding: Any = 0, groups: int = 1, dilation: Any = 1, pad_mode: str = "pad",
                   op: str = "conv_transpose") -> Tensor:
    """Transposed convolution of any supported rank (1-D, 2-D or 3-D spatial), inferred from ``weight``; the
    function behind :func:`conv_transpose2d` and ``conv3d_transpose``, also for the Conv1dTranspose,
    Conv2dTranspose and Conv3dTranspose layers."""
    u, w = float_operands(op, input, weight)
    nd = w.ndim - 2
    if nd not in (1, 2, 3) or u.ndim != nd + 2:
        raise ValueError(f"{op}: expected a {nd + 2}-D input for weight {tuple(w.shape)} (1-D, 2-D or 3-D "
                         f"spatial), got input {tuple(u.shape)}")
    if not isinstance(groups, (int, np.integer)) or isinstance(groups, bool) or groups < 1:
        raise TypeError(f"{op}: groups must be a positive int, got {groups!r}")
    s = int_tuple(stride, nd, "stride", op)
    d = int_tuple(dilation, nd, "dilation", op)
    kernel = tuple(int(k) for k in w._data.shape[2:])
    opad = int_tuple(output_padding, nd, "output_padding", op, minimum=0)
    pads, opad = transpose_pads(pad_mode, padding, kernel, s, d, opad, op)
    if any(o >= st for o, st in zip(opad, s)):
        raise ValueError(f"{op}: output_padding {opad} must be smaller than stride {s}")
    us, ws = u._data.shape, w._data.shape
    if us[1] != ws[0] or us[1] % groups:
        raise ValueError(f"{op}: input has {us[1]} channels but weight {ws} expects {ws[0]} "
                         f"(weight is (C_in, C_out / groups, k...)), groups={groups}")
    if bias is not None and tuple(bias._data.shape) != (ws[1] * groups,):
        raise ValueError(f"{op}: bias must have shape ({ws[1] * groups},), got {tuple(bias._data.shape)}")
    out = [(int(us[2 + i]) - 1) * s[i] - pads[i] - pads[i + nd] + d[i] * (kernel[i] - 1) + 1 + opad[i]
           for i in range(nd)]
    if any(o < 1 for o in out):
        raise ValueError(f"{op}: output size {tuple(out)} is not positive (input {tuple(us)}, weight {ws}, "
                         f"pads {pads})")
    args = [u, w]
    if bias is not None:
        from cellonnx.ops.prims.math import cast
        args.append(bias if bias._data.dtype == u._data.dtype else cast(bias, u._data.dtype))
    return ConvTranspose.apply(*args, stride=s, pads=pads, dilation=d, groups=int(groups), output_padding=opad)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1, *, pad_mode: str = "pad") -> Tensor:
    """2D transposed convolution ("deconvolution"), as MindSpore's ``ops.conv_transpose2d``.

    Args:
        input: (N, C_in, H, W).
        weight: (C_in, C_out / groups, kH, kW).
        bias: (C_out,) or None.
        stride, dilation: int or (h, w).
        padding: int or (pad_h, pad_w): removes ``padding`` rows / columns from each side of the full
            output; (top, bottom, left, right) is also accepted.
        output_padding: int or (h, w), added to the bottom / right of the output; must be smaller than stride
            (MindSpore also allows values below dilation; not supported here).
        groups: channel groups.
        pad_mode: keyword-only, for nn.Conv2dTranspose: 'pad' (default, use ``padding``), or MindSpore's
            layer modes 'same' (output in * stride) and 'valid' (in * stride + max(dilated_k - stride, 0)),
            which need padding == 0 and output_padding == 0.

    Returns:
        (N, C_out, H_out, W_out), H_out = (H - 1) * sH - top - bottom + dH * (kH - 1) + output_padding + 1.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> w = Tensor(np.ones((1, 1, 2, 2)), ms.float32)
        >>> print(ops.conv_transpose2d(x, w))
        [[[[1. 2. 1.]
           [2. 4. 2.]
           [1. 2. 1.]]]]
    """
    return conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, pad_mode,
                          op="conv_transpose2d")


__all__ = ["conv_transpose2d"]
