"""One-GEMM ONNX lowerings of the convolution gradients where the spatial size is small.

onnxruntime's ConvTranspose runs one GEMM per image whose column count is the image's pixel count, so at
ResNet's last stages (2 x 2 or 1 x 1 pixels, 256-512 channels) every image re-reads the whole weight: a
matrix-vector product per image. Folding the batch into the GEMM (pixels of all images as its columns) and
scattering the columns back with Col2Im (opset 18) is 2-6x faster there (bench/RESULTS.md, "Training
step"). The weight gradient of a 1 x 1 kernel, or of an output of one pixel, is likewise one GEMM over the
strided input windows rather than a Conv whose kernel is the output gradient. Both give the same numbers as
the ConvTranspose / Conv forms up to float rounding.

On CUDA none of this holds (cuDNN runs the whole batch per call, and Col2Im has no CUDA kernel): graphs
traced for the GPU keep Conv / ConvTranspose.
"""
from __future__ import annotations

from typing import Any

import numpy as np

# ConvTranspose inputs (conv outputs) with fewer pixels than this go through one GEMM + Col2Im
GEMM_BELOW_PIXELS = 64


def _static(t: Any, first: int = 1) -> bool:
    """Every dim from ``first`` on is known: the batch (dynamic in a compiled training step, whose one graph
    serves every batch size) is folded into the GEMMs with -1 in the Reshapes, so these forms hold for any
    batch; a weight's dims (``first`` 0) go into them as numbers."""
    return not any(hasattr(d, "onnx_name") for d in t.shape[first:])


def transpose_by_gemm(g: Any, u: str, w: str, b: str | None, stride: tuple, pads: tuple, dilation: tuple,
                      groups: int, output_padding: tuple) -> str | None:
    """ConvTranspose as ``Col2Im(W^T @ U)`` with the batch folded into the GEMM, or None where ConvTranspose
    itself is the better (or the only) lowering."""
    ut, wt = g.in_tensors[0], g.in_tensors[1]
    shape = ut._data.shape
    if g.for_gpu or g.opset < 18 or groups != 1 or len(shape) != 4 or not (_static(ut) and _static(wt, 0)):
        return None
    n, c_in, hi, wi = (int(d) for d in shape)
    pixels = hi * wi
    if pixels >= GEMM_BELOW_PIXELS or n == 1:
        return None
    k = [int(d) for d in wt._data.shape[2:]]
    c_out = int(wt._data.shape[1])
    out = [(hi - 1) * stride[0] - pads[0] - pads[2] + dilation[0] * (k[0] - 1) + 1 + output_padding[0],
           (wi - 1) * stride[1] - pads[1] - pads[3] + dilation[1] * (k[1] - 1) + 1 + output_padding[1]]
    if pixels == 1 and tuple(dilation) == (1, 1):  # the taps that reach the output, zeros around them
        (a0, a1), (b0, b1) = _live_taps(out[0], k[0], pads[0], 1), _live_taps(out[1], k[1], pads[1], 1)
        ka, kb = a1 - a0 + 1, b1 - b0 + 1
        um = g.op("Reshape", u, g.i64([-1, c_in]))
        if (ka, kb) == tuple(k):
            y = g.op("Gemm", um, g.op("Reshape", w, g.i64([c_in, c_out * ka * kb])))
            y = g.op("Reshape", y, g.i64([-1, c_out, ka, kb]))
        else:  # the taps' columns come tap-major: (N, ka, kb, C_out), channels to axis 1 after
            y = g.op("Gemm", um, tap_matrix(g, w, (c_in, c_out), tuple(k), (a0, a1), (b0, b1)))
            y = g.op("Reshape", y, g.i64([-1, ka, kb, c_out]))
            y = g.op("Transpose", y, perm=[0, 3, 1, 2]) if ka * kb > 1 else \
                g.op("Reshape", y, g.i64([-1, c_out, 1, 1]))
        around = [a0 - pads[0], b0 - pads[1], out[0] - 1 - (a1 - pads[0]), out[1] - 1 - (b1 - pads[1])]
        if any(around):
            y = g.op("Pad", y, g.i64([0, 0, around[0], around[1], 0, 0, around[2], around[3]]))
        return y if b is None else g.op("Add", y, g.op("Reshape", b, g.i64([1, c_out, 1, 1])))
    kk = k[0] * k[1]
    cols = _cols_by_pixel_rows(g, u, w, c_in, c_out * kk, pixels)
    if cols is None:
        um = g.op("Reshape", g.op("Transpose", u, perm=[1, 0, 2, 3]), g.i64([c_in, -1]))
        cols = g.op("Gemm", g.op("Reshape", w, g.i64([c_in, c_out * kk])), um, transA=1)  # (C_out kk, N L)
        cols = g.op("Transpose", g.op("Reshape", cols, g.i64([c_out * kk, -1, pixels])), perm=[1, 0, 2])
    y = g.op("Col2Im", cols, g.i64(out), g.i64(k), dilations=list(dilation), pads=list(pads),
             strides=list(stride))
    return y if b is None else g.op("Add", y, g.op("Reshape", b, g.i64([1, c_out, 1, 1])))


def _cols_by_pixel_rows(g: Any, u: str, w: str, c_in: int, cols: int, pixels: int) -> str:
    """Col2Im's input (N, C_out * kk, L) as ``(U (N * L, C_in) @ W (C_in, C_out * kk))`` transposed per
    image: both Transposes (NCHW to NHWC before, (L, C_out * kk) planes after) move one axis across whole
    rows, which onnxruntime runs as 2-D block transposes, where the channel-major form copied L (4-16)
    floats at a time."""
    um = g.op("Reshape", g.op("Transpose", u, perm=[0, 2, 3, 1]), g.i64([-1, c_in]))
    rows = g.op("Gemm", um, g.op("Reshape", w, g.i64([c_in, cols])))  # (N * L, C_out * kk)
    return g.op("Transpose", g.op("Reshape", rows, g.i64([-1, pixels, cols])), perm=[0, 2, 1])


def weight_grad_by_gemm(g: Any, x: str, gy: str, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
                        groups: int) -> str | None:
    """The conv weight gradient as ``gy^T @ windows(x)`` for a 1 x 1 kernel or a one-pixel output, or None
    where the Conv over swapped axes is the better lowering."""
    xs, gs = g.in_tensors[0]._data.shape, g.in_tensors[1]._data.shape
    static = _static(g.in_tensors[0]) and _static(g.in_tensors[1])
    if groups != 1 or len(xs) != 4 or not static:  # GEMMs: as good on CUDA
        return None
    c = int(xs[1])
    o, ho, wo = int(gs[1]), int(gs[2]), int(gs[3])
    pixels = ho * wo
    pointwise = all(kd == 1 for kd in kernel)
    if not (pointwise or pixels == 1):
        return None
    if pixels == 1:
        # the one window, cut out of the padded input (small: a one-pixel output has a small input), is
        # already (N, C, k...): the gradient comes out whole, with no weight-sized Pad after it (onnxruntime's
        # Pad of a (512, 512, 1, 1) block to 3 x 3 took 10 ms)
        padded = x
        if any(pads):
            padded = g.op("Pad", x, g.i64([0, 0, pads[0], pads[1], 0, 0, pads[2], pads[3]]))
        end = [dilation[0] * (kernel[0] - 1) + 1, dilation[1] * (kernel[1] - 1) + 1]
        win = g.op("Slice", padded, g.i64([0, 0]), g.i64(end), g.i64([2, 3]), g.i64(list(dilation)))
        kk = kernel[0] * kernel[1]
        dw = g.op("Gemm", g.op("Reshape", gy, g.i64([-1, o])), g.op("Reshape", win, g.i64([-1, c * kk])),
                  transA=1)
        return g.op("Reshape", dw, g.i64([o, c, *kernel]))
    # a 1 x 1 kernel: the strided input is the only window
    padded = x
    if any(pads):
        padded = g.op("Pad", x, g.i64([0, 0, pads[0], pads[1], 0, 0, pads[2], pads[3]]))
    end = [stride[0] * (ho - 1) + 1, stride[1] * (wo - 1) + 1]
    cols = g.op("Slice", padded, g.i64([0, 0]), g.i64(end), g.i64([2, 3]), g.i64(list(stride)))
    cols = g.op("Reshape", g.op("Transpose", cols, perm=[0, 2, 3, 1]), g.i64([-1, c]))
    gm = g.op("Reshape", g.op("Transpose", gy, perm=[1, 0, 2, 3]), g.i64([o, -1]))
    return g.op("Reshape", g.op("MatMul", gm, cols), g.i64([o, c, *kernel]))


# conv outputs with at most this many pixels: the forward Conv as one GEMM over the batch too
FORWARD_GEMM_PIXELS = 16


def _windows(g: Any, x: str, kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
             out: tuple, axis: int = 2) -> str:
    """im2col without a kernel: the input under every kernel tap, (N, C, kh * kw, Ho, Wo); with ``axis`` 1,
    of a channel-major input (C, N, H, W), (C, kh * kw, N, Ho, Wo)."""
    padded = x
    if any(pads):
        padded = g.op("Pad", x, g.i64([0, 0, pads[0], pads[1], 0, 0, pads[2], pads[3]]))
    windows = []
    for a in range(kernel[0]):
        for b in range(kernel[1]):
            start = [a * dilation[0], b * dilation[1]]
            end = [start[0] + stride[0] * (out[0] - 1) + 1, start[1] + stride[1] * (out[1] - 1) + 1]
            win = g.op("Slice", padded, g.i64(start), g.i64(end), g.i64([2, 3]), g.i64(list(stride)))
            windows.append(g.unsqueeze(win, [axis]))
    return windows[0] if len(windows) == 1 else g.op("Concat", *windows, axis=axis)


def _tap_rows(size: tuple[int, int], kernel: tuple, stride: tuple, pads: tuple, dilation: tuple,
              out: tuple[int, int]) -> np.ndarray:
    """(kh * kw, Ho * Wo): the input pixel (row-major over H x W) that each kernel tap reads at each output
    pixel, or H * W (a zero row appended to the input's pixels) where it reads the padding."""
    h, w = size
    rows = (np.arange(kernel[0]) * dilation[0])[:, None] + np.arange(out[0]) * stride[0] - pads[0]  # (kh, Ho)
    cols = (np.arange(kernel[1]) * dilation[1])[:, None] + np.arange(out[1]) * stride[1] - pads[1]  # (kw, Wo)
    a, b = rows[:, None, :, None], cols[None, :, None, :]  # (kh, kw, Ho, Wo) once broadcast
    inside = (a >= 0) & (a < h) & (b >= 0) & (b < w)
    return np.where(inside, a * w + b, h * w).reshape(kernel[0] * kernel[1], out[0] * out[1])


def _gathered_windows(g: Any, x: str, chw: tuple[int, int, int], kernel: tuple, stride: tuple, pads: tuple,
                      dilation: tuple, out: tuple[int, int]) -> str:
    """im2col of an (N, C, H, W) input as (C * kk, Ho * Wo * N): the input made channel-major and batch-last,
    (C, H * W, N), by one 2-D transpose, then one Gather of the pixel rows (N values each) that every tap
    reads at every output pixel, a zero row standing for the padding."""
    c, h, w = chw
    rows = _tap_rows((h, w), kernel, stride, pads, dilation, out)
    batch_last = g.op("Transpose", g.op("Reshape", x, g.i64([-1, c * h * w])), perm=[1, 0])  # (C H W, N)
    pixels = g.op("Reshape", batch_last, g.i64([c, h * w, -1]))
    if (rows == h * w).any():
        pixels = g.op("Pad", pixels, g.i64([0, 0, 0, 0, 1, 0]))
    return g.op("Reshape", g.op("Gather", pixels, g.i64(rows), axis=1), g.i64([c * len(rows), -1]))


def weight_grad_by_tap_rows(g: Any, x: str, gy: str, kernel: tuple, stride: tuple, pads: tuple,
                            dilation: tuple, groups: int) -> str | None:
    """The conv weight gradient on the CPU for a k x k kernel as one GEMM, ``dW (C_out, C * kk) = gy (C_out,
    Ho * Wo * N) @ windows^T``, whose windows (C, kk, Ho * Wo, N) are one Gather of the rows (pixel, N values
    of the batch) of the input made channel-major and batch-last, (C, H * W, N). Both operands come from 2-D
    transposes that move whole rows, and each gathered row is N contiguous values, where im2col by Slices
    copied Wo values at a time: 0.4-0.85x the Slice form's time at ResNet-18's 3 x 3 layers and 0.4-0.8x the
    Conv over swapped axes at LeNet-5's and the 7 x 7 stem's (bench/RESULTS.md). None where it does not
    apply."""
    xs, gs = g.in_tensors[0]._data.shape, g.in_tensors[1]._data.shape
    if (g.for_gpu or groups != 1 or len(xs) != 4 or all(k == 1 for k in kernel)
            or not (_static(g.in_tensors[0]) and _static(g.in_tensors[1]))):
        return None
    c, h, w = (int(d) for d in xs[1:])
    o, ho, wo = (int(d) for d in gs[1:])
    if ho * wo == 1:
        return None
    windows = _gathered_windows(g, x, (c, h, w), kernel, stride, pads, dilation, (ho, wo))
    gm = g.op("Transpose", g.op("Reshape", gy, g.i64([-1, o * ho * wo])), perm=[1, 0])  # (C_out Ho Wo, N)
    dw = g.op("Gemm", g.op("Reshape", gm, g.i64([o, -1])), windows, transB=1)
    return g.op("Reshape", dw, g.i64([o, c, *kernel]))


def weight_grad_by_windows(g: Any, x: str, gy: str, kernel: tuple, stride: tuple, pads: tuple,
                           dilation: tuple, groups: int) -> str | None:
    """The conv weight gradient on CUDA: one GEMM of the output gradient by the input windows (im2col), or
    for a depthwise conv their product summed per channel; None for other groups and ranks. ONNX has no
    weight-gradient op, and the Conv over swapped axes (a kernel the size of the image) runs in cuDNN's
    direct kernel, hundreds of times slower than this GEMM."""
    xs, gs = g.in_tensors[0]._data.shape, g.in_tensors[1]._data.shape
    if len(xs) != 4 or not (_static(g.in_tensors[0]) and _static(g.in_tensors[1])):
        return None
    c, o, ho, wo = int(xs[1]), int(gs[1]), int(gs[2]), int(gs[3])
    kk = kernel[0] * kernel[1]
    cols = _windows(g, x, kernel, stride, pads, dilation, (ho, wo))  # (N, C, kk, Ho, Wo)
    if groups == 1:
        cols = g.op("Reshape", g.op("Transpose", cols, perm=[0, 3, 4, 1, 2]), g.i64([-1, c * kk]))
        gm = g.op("Reshape", g.op("Transpose", gy, perm=[0, 2, 3, 1]), g.i64([-1, o]))
        return g.op("Reshape", g.op("Gemm", gm, cols, transA=1), g.i64([o, c, *kernel]))
    if groups == c == o:
        dw = g.axes([0, 3, 4], "ReduceSum", g.op("Mul", cols, g.unsqueeze(gy, [2])), keepdims=0)
        return g.op("Reshape", dw, g.i64([o, 1, *kernel]))
    return None


def tap_matrix(g: Any, w: str, lead: tuple[int, int], kernel: tuple, rows: tuple[int, int],
               cols: tuple[int, int]) -> str:
    """The kernel taps ``rows`` x ``cols`` (first and last, inclusive) of a (P, Q, kh, kw) weight as a
    (P, taps * Q) matrix, tap-major: column ``t * Q + q`` holds ``w[p, q, tap t]``, the taps in row-major
    order. Each tap is one strided Slice of the flattened weight (every kh * kw-th value) and the taps are
    concatenated in blocks of Q: onnxruntime's Slice over the two innermost axes of a 3 x 3 kernel copies
    one value at a time (a layer-4 weight's centre tap, (512, 512, 3, 3) -> (512, 512, 1, 1), took 4 ms,
    the strided flat Slice 1 ms; bench/RESULTS.md)."""
    p, q = lead
    kh, kw = (int(d) for d in kernel)
    flat = g.op("Reshape", w, g.i64([-1]))
    taps = [g.op("Reshape", g.op("Slice", flat, g.i64([i * kw + j]), g.i64([p * q * kh * kw]), g.i64([0]),
                                 g.i64([kh * kw])), g.i64([p, q]))
            for i in range(rows[0], rows[1] + 1) for j in range(cols[0], cols[1] + 1)]
    return taps[0] if len(taps) == 1 else g.op("Concat", *taps, axis=1)


def _live_taps(size: int, k: int, pad: int, dilation: int) -> tuple[int, int]:
    """First and last kernel tap of a one-pixel output that reads the input rather than its padding."""
    live = [a for a in range(k) if 0 <= a * dilation - pad < size]
    return live[0], live[-1]


def conv_by_gemm(g: Any, x: str, w: str, b: str | None, stride: tuple, pads: tuple, dilation: tuple,
                 groups: int) -> str | None:
    """Conv as one GEMM of the weight by the gathered input windows of the whole batch, for outputs of at most
    FORWARD_GEMM_PIXELS pixels (onnxruntime's Conv runs one small GEMM per image there: 0.4-0.75x its time at
    ResNet-18's 4 x 4 and 2 x 2 outputs, bench/RESULTS.md), or None."""
    xt, wt = g.in_tensors[0], g.in_tensors[1]
    if g.for_gpu or groups != 1 or len(xt._data.shape) != 4 or not (_static(xt) and _static(wt, 0)):
        return None
    n, c, h, wd = (int(d) for d in xt._data.shape)
    o, _, kh, kw = (int(d) for d in wt._data.shape)
    ho = (h + pads[0] + pads[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (wd + pads[1] + pads[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    pixels = ho * wo
    if n == 1 or pixels > FORWARD_GEMM_PIXELS:
        return None
    if pixels == 1:  # only the taps that reach the input: no padding, no zero columns
        (a0, a1), (b0, b1) = _live_taps(h, kh, pads[0], dilation[0]), _live_taps(wd, kw, pads[1], dilation[1])
        ka, kb = a1 - a0 + 1, b1 - b0 + 1
        win = g.op("Slice", x, g.i64([a0 * dilation[0] - pads[0], b0 * dilation[1] - pads[1]]),
                   g.i64([a1 * dilation[0] - pads[0] + 1, b1 * dilation[1] - pads[1] + 1]), g.i64([2, 3]),
                   g.i64(list(dilation)))
        if (ka, kb) == (kh, kw):
            wm = g.op("Reshape", w, g.i64([o, c * ka * kb]))
        else:  # the live taps tap-major, (O, ka * kb * C); the windows' rows in the same order
            wm = tap_matrix(g, w, (o, c), (kh, kw), (a0, a1), (b0, b1))
            if ka * kb > 1:
                win = g.op("Transpose", win, perm=[0, 2, 3, 1])
        y = g.op("Gemm", g.op("Reshape", win, g.i64([-1, c * ka * kb])), wm, *([b] if b is not None else []),
                 transB=1)
        return g.op("Reshape", y, g.i64([-1, o, 1, 1]))
    cols = _gathered_windows(g, x, (c, h, wd), (kh, kw), stride, pads, dilation, (ho, wo))  # (C kk, P N)
    bias = [g.op("Reshape", b, g.i64([o, 1]))] if b is not None else []
    y = g.op("Gemm", g.op("Reshape", w, g.i64([o, c * kh * kw])), cols, *bias)  # (O, Ho Wo N)
    y = g.op("Transpose", g.op("Reshape", y, g.i64([o * pixels, -1])), perm=[1, 0])  # (N, O Ho Wo)
    return g.op("Reshape", y, g.i64([-1, o, ho, wo]))
