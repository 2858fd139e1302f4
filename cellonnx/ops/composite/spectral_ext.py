"""Spectral helpers over primitives: the window functions (bartlett, blackman, hann, kaiser), the sample
frequencies (fftfreq, rfftfreq), fftshift / ifftshift and the short-time Fourier transform (stft).

stft with a real result (``return_complex=False``) is computed as a product with the real DFT basis
(cosines and sines), so it has a gradient and exports to ONNX; with a complex result it goes through rfft /
fft, eagerly.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx import ops as _ops
from cellonnx.ops.prims._util import is_float_dtype, norm_axis, to_tensor
from cellonnx.tensor import Tensor

F: Any = _ops  # the functional API; its names are filled in at import time, so typed loosely


# ---------------------------------------------------------------- windows
def _length(window_length: Any, op: str) -> int:
    if isinstance(window_length, Tensor):
        if window_length._data.size != 1 or window_length._data.dtype.kind not in "iu":
            raise TypeError(f"{op}: window_length must be an integer scalar, got {window_length.dtype} of "
                            f"shape {tuple(window_length.shape)}")
        window_length = int(window_length._data.reshape(()))
    if isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TypeError(f"{op}: window_length must be a non-negative int, got {type(window_length).__name__}")
    if window_length < 0:
        raise ValueError(f"{op}: window_length must be non-negative, got {window_length}")
    return int(window_length)


def _window(values: np.ndarray, dtype: Any, default: Any) -> Tensor:
    dt = dtypes.to_numpy(dtype if dtype is not None else default)
    if not is_float_dtype(dt):
        raise TypeError(f"window functions give float tensors, got dtype {dtypes.dtype(dt)}")
    return Tensor(values.astype(dt))


def _cosine_window(n: int, periodic: bool, coeffs: tuple[float, ...]) -> np.ndarray:
    if n <= 1:
        return np.ones(n)
    m = n + 1 if periodic else n
    k = np.arange(m)
    w = sum(c * np.cos(2 * math.pi * i * k / (m - 1)) * (-1) ** i for i, c in enumerate(coeffs))
    return w[:n]


def hann_window(window_length: int, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The Hann window ``0.5 - 0.5 cos(2 pi n / (N - 1))`` (N = length + 1 when ``periodic``); float64
    unless ``dtype`` says otherwise (as MindSpore).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.hann_window(4).asnumpy().round(4))
        [0.  0.5 1.  0.5]
    """
    n = _length(window_length, "hann_window")
    return _window(_cosine_window(n, periodic, (0.5, 0.5)), dtype, dtypes.float64)


def blackman_window(window_length: Any, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``; float32
    unless ``dtype`` says otherwise.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> print(ops.blackman_window(Tensor(5, ms.int32), periodic=False).asnumpy().round(4))
        [-0.    0.34  1.    0.34 -0.  ]
    """
    n = _length(window_length, "blackman_window")
    return _window(_cosine_window(n, periodic, (0.42, 0.5, 0.08)), dtype, dtypes.float32)


def bartlett_window(window_length: Any, periodic: bool = True, *, dtype: Any = None) -> Tensor:
    """The triangular Bartlett window ``1 - |2 n / (N - 1) - 1|``; float32 unless ``dtype`` says
    otherwise.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> print(ops.bartlett_window(Tensor(5, ms.int32), periodic=False))
        [0.  0.5 1.  0.5 0. ]
    """
    n = _length(window_length, "bartlett_window")
    if n <= 1:
        return _window(np.ones(n), dtype, dtypes.float32)
    m = n + 1 if periodic else n
    k = np.arange(m)
    return _window((1 - np.abs(2 * k / (m - 1) - 1))[:n], dtype, dtypes.float32)


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *,
                  dtype: Any = None) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta)``, a = (N - 1) / 2; float64 unless
    ``dtype`` says otherwise (as MindSpore).

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.kaiser_window(4, periodic=False).asnumpy().round(4))
        [1.000e-04 5.188e-01 5.188e-01 1.000e-04]
    """
    n = _length(window_length, "kaiser_window")
    if n <= 1:
        return _window(np.ones(n), dtype, dtypes.float64)
    m = n + 1 if periodic else n
    k = np.arange(m)
    a = (m - 1) / 2.0
    w = np.i0(beta * np.sqrt(np.clip(1 - ((k - a) / a) ** 2.0, 0, None))) / np.i0(float(beta))
    return _window(w[:n], dtype, dtypes.float64)


# ---------------------------------------------------------------- frequencies and shifts
def fftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """The sample frequencies of an n-point transform with spacing ``d``: ``[0, 1, ..., -1] / (d n)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> print(ops.fftfreq(4))
        [ 0.    0.25 -0.5  -0.25]
    """
    return Tensor(np.fft.fftfreq(int(n), float(d)).astype(dtypes.to_numpy(dtype or dtypes.float32)))


def rfftfreq(n: int, d: float = 1.0, dtype: Any = None) -> Tensor:
    """The non-negative sample frequencies of :func:`rfft`: ``[0, 1, ..., n // 2] / (d n)``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.rfftfreq(4))
        [0.   0.25 0.5 ]
    """
    return Tensor(np.fft.rfftfreq(int(n), float(d)).astype(dtypes.to_numpy(dtype or dtypes.float32)))


def _shift(input: Tensor, dim: Any, sign: int, op: str) -> Tensor:
    x = to_tensor(input)
    dims = tuple(range(x.ndim)) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    dims = tuple(norm_axis(d, x.ndim, op) for d in dims)
    if not dims:
        return x
    shifts = tuple(sign * (x.shape[d] // 2) for d in dims)  # a dynamic dim's half stays a graph value
    return F.roll(x, shifts, dims)


def fftshift(input: Tensor, dim: Any = None) -> Tensor:
    """Roll the zero frequency to the centre along ``dim`` (every axis when None).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([0, 1, 2, 3]), ms.int32)
        >>> print(ops.fftshift(x))
        [2 3 0 1]
    """
    return _shift(input, dim, 1, "fftshift")


def ifftshift(input: Tensor, dim: Any = None) -> Tensor:
    """The inverse of :func:`fftshift`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([-2, -1, 0, 1, 2]), ms.int32)
        >>> print(ops.ifftshift(x))
        [ 0  1  2 -2 -1]
    """
    return _shift(input, dim, -1, "ifftshift")


# ---------------------------------------------------------------- short-time Fourier transform
def stft(x: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
         window: Tensor | None = None, center: bool = True, pad_mode: str = "REFLECT",
         normalized: bool = False, onesided: bool | None = None,
         return_complex: bool | None = None) -> Tensor:
    """The short-time Fourier transform of 1-D or 2-D (batch, time) signals.

    Frames of ``n_fft`` samples every ``hop_length`` (default ``n_fft // 4``), multiplied by ``window``
    (default ones of ``win_length``, default ``n_fft``; a shorter window is centred in the frame), are
    transformed. ``center`` pads ``n_fft // 2`` samples at both ends first (``pad_mode`` 'REFLECT' or
    'CONSTANT'); ``normalized`` scales by ``n_fft ** -0.5``; ``onesided`` keeps the ``n_fft // 2 + 1``
    non-negative frequencies (default for real input and window).

    Returns:
        Tensor of shape (batch?, frequencies, frames): complex when ``return_complex`` (the default for a
        complex input or window), otherwise real with a trailing axis of 2 (real, imaginary).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones(16), ms.float32)
        >>> ops.stft(x, n_fft=8, return_complex=True).shape
        (5, 9)
    """
    sig = to_tensor(x)
    if sig.ndim not in (1, 2):
        raise ValueError(f"stft: x must be 1-D or 2-D, got shape {tuple(sig.shape)}")
    n_fft = int(n_fft)
    hop = int(n_fft // 4) if hop_length is None else int(hop_length)
    win_len = n_fft if win_length is None else int(win_length)
    if not 0 < win_len <= n_fft or hop <= 0:
        raise ValueError(f"stft: need 0 < win_length <= n_fft and hop_length > 0, got win_length {win_len}, "
                         f"n_fft {n_fft}, hop_length {hop}")
    win = F.ones((win_len,), dtype=dtypes.float32) if window is None else to_tensor(window)
    is_complex = sig._data.dtype.kind == "c" or win._data.dtype.kind == "c"
    onesided = not is_complex if onesided is None else bool(onesided)
    return_complex = is_complex if return_complex is None else bool(return_complex)
    if is_complex and onesided:
        raise ValueError("stft: onesided output needs a real input and window")
    if not is_float_dtype(sig._data.dtype) and sig._data.dtype.kind != "c":
        sig = F.cast(sig, np.float32)
    if int(win._data.shape[0]) != win_len:
        raise ValueError(f"stft: window has {int(win._data.shape[0])} samples, win_length is {win_len}")
    if win_len < n_fft:
        left = (n_fft - win_len) // 2
        win = F.pad(win, (left, n_fft - win_len - left))
    if center:
        mode = {"REFLECT": "reflect", "CONSTANT": "constant"}.get(str(pad_mode).upper())
        if mode is None:
            raise ValueError(f"stft: pad_mode must be 'REFLECT' or 'CONSTANT', got {pad_mode!r}")
        sig = F.pad(sig, (n_fft // 2, n_fft // 2), mode)
    length = sig.shape[-1]  # a graph value where the signal's length is dynamic
    if length < n_fft:
        raise ValueError(f"stft: the signal ({length} samples after padding) is shorter than n_fft {n_fft}")
    frames_n = 1 + (length - n_fft) // hop
    starts = F.mul(F.reshape(F.cast(F.arange(frames_n), np.int64), (-1, 1)), hop)
    index = F.add(starts, Tensor(np.arange(n_fft, dtype=np.int64)[None, :]))
    frames = F.gather(sig, index, sig.ndim - 1)                     # (batch?, frames, n_fft)
    scale = n_fft ** -0.5 if normalized else 1.0
    if return_complex or is_complex:
        spec = F.mul(frames, win)
        spec = F.rfft(spec, dim=-1) if onesided else F.fft(spec, dim=-1)
        if normalized:
            spec = F.mul(spec, Tensor(np.asarray(scale, spec._data.dtype)))
        spec = F.swapaxes(spec, -1, -2)
        return spec if return_complex else F.view_as_real(spec)
    # real result: products with the DFT basis, differentiable and exportable
    dt = np.result_type(sig._data.dtype, win._data.dtype)
    frames = F.mul(F.cast(frames, dt), F.cast(win, dt))
    bins = n_fft // 2 + 1 if onesided else n_fft
    angle = 2 * math.pi * np.outer(np.arange(n_fft), np.arange(bins)) / n_fft
    cos_b = Tensor((np.cos(angle) * scale).astype(dt))
    sin_b = Tensor((-np.sin(angle) * scale).astype(dt))
    re = F.swapaxes(F.matmul(frames, cos_b), -1, -2)
    im = F.swapaxes(F.matmul(frames, sin_b), -1, -2)
    return F.stack([re, im], -1)


__all__ = ["bartlett_window", "blackman_window", "fftfreq", "fftshift", "hann_window", "ifftshift",
           "kaiser_window", "rfftfreq", "stft"]
