"""mx.nd.contrib's fft, ifft and count_sketch, with MXNet 1.9.1's layouts.

- ``fft``: real (N, d) or (N1, N2, N3, d) data to its 1-D DFT over the last axis, (..., 2d) with the real and
  imaginary parts interleaved ``[re0, im0, re1, im1, ...]``.
- ``ifft``: the reverse layout, (..., 2d) interleaved to (..., d): the real part of the inverse DFT,
  unnormalised as MXNet's cuFFT path leaves it (``ifft(fft(x)) == d * x``).
- ``count_sketch``: ``out[n, h[i]] += s[i] * data[n, i]`` for hash indices ``h`` and signs ``s``.

fft and ifft are one primitive (cellonnx/ops/prims/interleaved_dft.py): numpy.fft eagerly, each direction's
gradient the other direction of the output gradient (exactly MXNet's backward), and one MatMul with the
interleaved DFT matrix in ONNX at every opset. count_sketch is one MatMul with the sketch matrix built from
h and s (OneHot times the signs), so its gradient and lowering are MatMul's.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx import ops
from cellonnx.mxnet.base import MXNetError
from cellonnx.ops.prims.interleaved_dft import interleaved_dft
from cellonnx.tensor import Tensor

__all__ = ["SPECTRAL"]


def _check_rank(data: Tensor, op: str) -> None:
    if data.ndim not in (2, 4):
        raise MXNetError(f"{op}: data must be 2-D (N, d) or 4-D (N1, N2, N3, d), got shape "
                         f"{tuple(data.shape)}")


def fft(data: Tensor, compute_size: int = 128, **_: Any) -> Tensor:
    """The 1-D DFT of real ``data`` over its last axis: (..., d) -> (..., 2d), real and imaginary parts
    interleaved (``compute_size``, MXNet's cuFFT sub-batch, does not change the result)."""
    _check_rank(data, "fft")
    return interleaved_dft(data)


def ifft(data: Tensor, compute_size: int = 128, **_: Any) -> Tensor:
    """The real part of the unnormalised inverse DFT of interleaved complex ``data``:
    (..., 2d) -> (..., d)."""
    _check_rank(data, "ifft")
    width = int(data.shape[-1])
    if width % 2:
        raise MXNetError(f"ifft: the last axis holds (real, imag) pairs and must be even, got shape "
                         f"{tuple(data.shape)}")
    return interleaved_dft(data, inverse=True)


def count_sketch(data: Tensor, h: Tensor, s: Tensor, out_dim: int, processing_batch_size: int = 32,
                 **_: Any) -> Tensor:
    """Project (..., d) ``data`` to (..., out_dim): ``out[..., h[i]] += s[i] * data[..., i]``, with ``h`` and
    ``s`` of shape (1, d); only ``data`` receives a gradient (as MXNet)."""
    if data.ndim not in (2, 4):
        raise MXNetError(f"count_sketch: Data should be 2D or 4D!, got shape {tuple(data.shape)}")
    d = int(data.shape[-1])
    for name, table in (("h", h), ("s", s)):
        if table.ndim != 2 or int(table.shape[1]) != d:
            raise MXNetError(f"count_sketch: {name.upper()} should be 2D tensor with same length as input "
                             f"shape[{data.ndim - 1}], {name} {tuple(table.shape)} v.s. data "
                             f"{tuple(data.shape)}")
    index = ops.cast(ops.reshape(ops.stop_gradient(h), (-1,))[:d], "int64")
    signs = ops.reshape(ops.stop_gradient(s), (-1,))[:d]
    sketch = ops.mul(ops.cast(ops.one_hot(index, int(out_dim)), data.dtype),
                     ops.reshape(ops.cast(signs, data.dtype), (d, 1)))
    return ops.matmul(data, sketch)


SPECTRAL: dict[str, Callable[..., Any]] = {"fft": fft, "ifft": ifft, "count_sketch": count_sketch}
