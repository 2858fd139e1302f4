"""Rows for complex numbers and the Fourier transforms (cellonnx/ops/prims/spectral.py) and the spectral
helpers (cellonnx/ops/composite/spectral_ext.py), against numpy.fft / scipy.signal.

Complex tensors run eagerly (their lowering raises), so their rows have lower=False; the windows, shifts,
frequencies and stft's real result are compositions of real ops and are exported."""
from __future__ import annotations

import numpy as np
import scipy.signal.windows as win

from cellonnx import ops
from cellonnx.ops.prims.interleaved_dft import interleaved_dft
from tests.ops.harness import OpCase, rand

COMPLEX = "complex tensors run eagerly only (ONNX runtimes have no complex arithmetic)"
SIG = rand(2, 8, seed=91)
IMG = rand(3, 4, 6, seed=92)
RE, IM = rand(2, 5, seed=93), rand(2, 5, seed=94)
HALF = rand(2, 5, seed=95)


def _c(re, im):
    return ops.polar(ops.sqrt(re * re + im * im), ops.atan2(im, re))


def _cnp(re, im):
    return re + 1j * im


def _stft_ref(x, n_fft, hop, window, center=True, normalized=False, onesided=True, mode="reflect"):
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=mode)
    frames = 1 + (x.shape[-1] - n_fft) // hop
    idx = np.arange(frames)[:, None] * hop + np.arange(n_fft)
    seg = x[..., idx] * window
    spec = np.fft.rfft(seg, axis=-1) if onesided else np.fft.fft(seg, axis=-1)
    if normalized:
        spec = spec / np.sqrt(n_fft)
    return np.swapaxes(spec, -1, -2)


def _view(spec):
    return np.stack([spec.real, spec.imag], -1)


def _interleave(z):
    out = np.empty(z.shape[:-1] + (2 * z.shape[-1],))
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def _interleaved_inverse(x):
    z = x[..., 0::2] + 1j * x[..., 1::2]
    return (np.fft.ifft(z, axis=-1) * z.shape[-1]).real


CASES = [
    # complex parts (complex values are built in the row from real inputs)
    OpCase("real_imag_angle", lambda a, b: (ops.real(_c(a, b)), ops.imag(_c(a, b)), ops.angle(_c(a, b))),
           [RE, IM], lambda a, b: (a, b, np.angle(_cnp(a,
                                                       b))), grad=(), lower=False, rtol=2e-5, note=COMPLEX),
    OpCase("real_imag_of_real", lambda a: (ops.real(a), ops.imag(a), ops.conj(a)), [RE],
           lambda a: (a, np.zeros_like(a), a), note="real inputs: itself, zeros, itself"),
    OpCase("conj_view_as_real", lambda a, b: ops.view_as_real(ops.conj(_c(a, b))), [RE, IM],
           lambda a, b: np.stack([a, -b], -1), grad=(), lower=False, rtol=2e-5, note=COMPLEX),
    OpCase("polar", lambda r, t: ops.polar(r, t), [np.abs(RE), IM * 3], lambda r, t: r * np.exp(1j * t),
           grad=(),
           lower=False, note=COMPLEX),
    OpCase("sgn_complex_isreal", lambda a, b: (ops.sgn(_c(a, b)), ops.isreal(_c(ops.abs(a), b * 0))),
           [RE, IM],
           lambda a, b: (_cnp(a, b) / np.abs(_cnp(a, b)), np.ones_like(a, bool)), grad=(), lower=False,
           rtol=2e-5, note=COMPLEX),
    # transforms
    OpCase("fft", lambda x: ops.fft(x), [SIG], lambda x: np.fft.fft(x), grad=(), lower=False, note=COMPLEX),
    OpCase("fft_n_ortho", lambda x: ops.fft(x, 12, 0, "ortho"), [SIG.T],
           lambda x: np.fft.fft(x, 12, 0, "ortho"),
           grad=(), lower=False, note=COMPLEX),
    OpCase("ifft_forward", lambda a, b: ops.ifft(_c(a, b), norm="forward"), [RE, IM],
           lambda a, b: np.fft.ifft(_cnp(a, b),
                                    norm="forward"), grad=(), lower=False, rtol=3e-5, note=COMPLEX),
    OpCase("rfft_irfft", lambda x: ops.irfft(ops.rfft(x)), [SIG], lambda x: x, grad=(), lower=False,
           note=COMPLEX),
    OpCase("rfft_n", lambda x: ops.rfft(x, 6), [SIG], lambda x: np.fft.rfft(x, 6), grad=(), lower=False,
           note=COMPLEX),
    OpCase("irfft_n", lambda a, b: ops.irfft(_c(a, b), 7), [RE, IM], lambda a, b: np.fft.irfft(_cnp(a, b), 7),
           grad=(), lower=False, rtol=3e-5, note=COMPLEX),
    OpCase("hfft_ihfft", lambda a, b, x: (ops.hfft(_c(a, b)), ops.ihfft(x)), [RE, IM, SIG],
           lambda a, b, x: (np.fft.hfft(_cnp(a, b)), np.fft.ihfft(x)), grad=(), lower=False, rtol=3e-5,
           note=COMPLEX),
    OpCase("fft2_ifft2", lambda x: (ops.fft2(x), ops.ifft2(x, (3, 5))), [IMG],
           lambda x: (np.fft.fft2(x), np.fft.ifft2(x, (3, 5))), grad=(), lower=False, note=COMPLEX),
    OpCase("rfft2_irfft2", lambda x: (ops.rfft2(x), ops.irfft2(ops.rfft2(x), (4, 6))), [IMG],
           lambda x: (np.fft.rfft2(x), x), grad=(), lower=False, note=COMPLEX),
    OpCase("fftn_ifftn_dims", lambda x: (ops.fftn(x, dim=(0, 2)), ops.ifftn(x, (2, 4))), [IMG],
           lambda x: (np.fft.fftn(x, axes=(0, 2)), np.fft.ifftn(x, (2, 4), axes=(1,
                                                                                 2))), grad=(), lower=False,
           note=f"s without dim: the last len(s) axes; {COMPLEX}"),
    OpCase("rfftn_irfftn", lambda x: (ops.rfftn(x), ops.irfftn(ops.rfftn(x), (3, 4, 6))), [IMG],
           lambda x: (np.fft.rfftn(x), x), grad=(), lower=False, note=COMPLEX),
    OpCase("hfft2_hfftn", lambda a, b: (ops.hfft2(_c(a, b)), ops.hfftn(_c(a, b), (2, 6))), [RE, IM],
           lambda a, b: (np.fft.irfftn(np.conj(_cnp(a, b)), norm="forward"),
                         np.fft.irfftn(np.conj(_cnp(a, b)), (2, 6), norm="forward")), grad=(), lower=False,
           rtol=3e-5, note=f"hfftn(x) = irfftn(conj(x)) with the opposite norm; {COMPLEX}"),
    OpCase("ihfft2_ihfftn", lambda x: (ops.ihfft2(x), ops.ihfftn(x, dim=(0, 2))), [IMG],
           lambda x: (np.conj(np.fft.rfftn(x, axes=(1, 2), norm="forward")),
                      np.conj(np.fft.rfftn(x, axes=(0, 2),
                                           norm="forward"))), grad=(), lower=False, note=COMPLEX),
    # windows, frequencies, shifts
    OpCase("hann_window", lambda: (ops.hann_window(6), ops.hann_window(5, False), ops.hann_window(1)), [],
           lambda: (win.hann(6, sym=False), win.hann(5),
                    np.ones(1)), note="float64 by default, as MindSpore"),
    OpCase("blackman_window", lambda: (ops.blackman_window(6), ops.blackman_window(5, False,
                                                                                   dtype="float64")), [],
           lambda: (win.blackman(6, sym=False), win.blackman(5)), atol=1e-7),
    OpCase("bartlett_window", lambda: (ops.bartlett_window(7), ops.bartlett_window(ops.full((), 5), False)),
           [],
           lambda: (win.bartlett(7, sym=False), win.bartlett(5))),
    OpCase("kaiser_window", lambda: (ops.kaiser_window(6), ops.kaiser_window(5, False, 8.0)), [],
           lambda: (win.kaiser(6, 12.0, sym=False), win.kaiser(5, 8.0))),
    OpCase("fftfreq", lambda: (ops.fftfreq(5, 0.5), ops.rfftfreq(8, dtype="float64")), [],
           lambda: (np.fft.fftfreq(5, 0.5), np.fft.rfftfreq(8))),
    OpCase("fftshift", lambda x: (ops.fftshift(x), ops.ifftshift(x, 1), ops.fftshift(x, (0, 2))), [IMG],
           lambda x: (np.fft.fftshift(x), np.fft.ifftshift(x, 1), np.fft.fftshift(x, (0, 2)))),
    # stft
    OpCase("stft_real", lambda x: ops.stft(x, 6, 2, window=ops.cast(ops.hann_window(6), "float32"),
                                           return_complex=False), [SIG],
           lambda x: _view(_stft_ref(x, 6, 2, win.hann(6, sym=False))),
           note="the real result is a product with the DFT basis: differentiable and exported"),
    OpCase("stft_real_short_window", lambda x: ops.stft(x, 8, 3, 4, ops.ones(4), center=False,
                                                        normalized=True,
                                                        return_complex=False), [SIG],
           lambda x: _view(_stft_ref(x, 8, 3, np.pad(np.ones(4), 2), center=False, normalized=True)),
           note="a shorter window is centred in the frame"),
    OpCase("stft_complex", lambda x: ops.stft(x[0], 4, return_complex=True), [SIG],
           lambda x: _stft_ref(x[0], 4, 1, np.ones(4)), grad=(), lower=False, note=COMPLEX),
    OpCase("stft_complex_twosided_constant", lambda x: ops.stft(x, 4, 2, pad_mode="CONSTANT", onesided=False,
                                                                return_complex=True), [SIG],
           lambda x: _stft_ref(x, 4, 2, np.ones(4), onesided=False, mode="constant"), grad=(), lower=False,
           note=COMPLEX),
    # MXNet's contrib fft / ifft layout (cellonnx/ops/prims/interleaved_dft.py)
    OpCase("interleaved_dft", lambda x: interleaved_dft(x), [IMG],
           lambda x: _interleave(np.fft.fft(x, axis=-1)), note="MatMul with the DFT matrix in ONNX"),
    OpCase("interleaved_dft_inverse", lambda x: interleaved_dft(x, inverse=True), [SIG],
           lambda x: _interleaved_inverse(x), note="unnormalised, as MXNet's cuFFT inverse"),
]
