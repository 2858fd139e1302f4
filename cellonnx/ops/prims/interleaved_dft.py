"""The 1-D DFT over the last axis of real tensors holding complex numbers as interleaved (real, imag) pairs,
MXNet's contrib fft / ifft layout: forward maps (..., d) real to (..., 2d) interleaved, inverse maps (..., 2d)
interleaved to the real part of the unnormalised inverse transform (..., d).

One primitive for both directions: computed with numpy.fft (O(d log d)); each direction's gradient is the
other direction of the output gradient (the DFT matrix is symmetric); lowered to one MatMul with the
interleaved DFT matrix, at every opset (ONNX's DFT needs opset 17 and a (..., d, 2) layout).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from cellonnx.ops.registry import Op, OpError
from cellonnx.tensor import Tensor

__all__: list[str] = []  # used by cellonnx.mxnet (nd.contrib.fft / ifft), not a cellonnx.ops name


@lru_cache(maxsize=8)
def dft_matrix(d: int, inverse: bool, dtype: np.dtype) -> np.ndarray:
    """(d, 2d) for forward: column 2k holds cos(2 pi j k / d), column 2k + 1 holds -sin(2 pi j k / d); its
    transpose (2d, d) for inverse. Read-only, kept for the next call of the same size."""
    angle = 2.0 * np.pi * (np.outer(np.arange(d), np.arange(d)) % d) / d  # exact angles for large d
    out = np.empty((d, 2 * d), np.float64)
    out[:, 0::2], out[:, 1::2] = np.cos(angle), -np.sin(angle)
    out[np.abs(out) < 1e-12] = 0.0  # exact zeros at the quarter turns
    out = np.ascontiguousarray((out.T if inverse else out).astype(dtype))
    out.flags.writeable = False
    return out


class InterleavedDFT(Op):
    """See the module docstring; attribute ``inverse``."""

    saved_inputs = ()

    def forward(self, x, *, inverse):
        if inverse:
            z = x[..., 0::2].astype(np.float64) + 1j * x[..., 1::2]
            return np.ascontiguousarray((np.fft.ifft(z, axis=-1) * z.shape[-1]).real.astype(x.dtype))
        z = np.fft.fft(x.astype(np.float64), axis=-1)
        out = np.empty(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
        out[..., 0::2], out[..., 1::2] = z.real, z.imag
        return out

    def backward(self, ctx, g, *, inverse):
        return (InterleavedDFT.apply(g, inverse=not inverse),)

    def lower(self, g, x, *, inverse):
        from cellonnx.graph.trace import require_static
        require_static(g.in_tensors[0].shape[-1], "the DFT matrix is built over the transform's length and")
        width = int(g.in_tensors[0]._data.shape[-1])
        d = width // 2 if inverse else width
        return g.op("MatMul", x, g.const(dft_matrix(d, inverse, g.in_tensors[0]._data.dtype)))


def interleaved_dft(x: Tensor, inverse: bool = False) -> Tensor:
    """The interleaved DFT of ``x`` over its last axis (see the module docstring)."""
    if x.ndim < 1 or x._data.dtype.kind != "f":
        raise OpError(f"interleaved_dft: input must be a real floating tensor of rank >= 1, got "
                      f"{tuple(x.shape)} {x.dtype}")
    if inverse and int(x.shape[-1]) % 2:
        raise OpError(f"interleaved_dft: an inverse input holds (real, imag) pairs on its last axis, which "
                      f"must be even, got shape {tuple(x.shape)}")
    return InterleavedDFT.apply(x, inverse=bool(inverse))
