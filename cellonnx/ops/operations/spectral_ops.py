"""MindSpore's ``ops.FFTWithSize``: the (inverse, real) n-dimensional Fourier transform over the last
``signal_ndim`` axes, as a table row over the functional FFTs (see table.py)."""
from __future__ import annotations

from typing import Any

from cellonnx.ops.operations._util import one_of
from cellonnx.ops.operations.table import Row, build
from cellonnx.tensor import Tensor


def _setup_fft(prim: Any) -> None:
    if prim.signal_ndim not in (1, 2, 3):
        raise ValueError(f"For '{prim.name}', the 'signal_ndim' must be 1, 2 or 3, but got "
                         f"{prim.signal_ndim!r}.")
    one_of(prim, "norm", ("backward", "forward", "ortho"))
    sizes = tuple(int(s) for s in prim.signal_sizes)
    if sizes and len(sizes) != prim.signal_ndim:
        raise ValueError(f"For '{prim.name}', the 'signal_sizes' must be empty or {prim.signal_ndim} ints, "
                         f"but got {prim.signal_sizes!r}.")
    prim.add_prim_attr("signal_sizes", sizes)


def _fft_with_size(x: Tensor, prim: Any) -> Tensor:
    """Complex FFT / IFFT (``real=False``), real-to-complex (``real``, forward: half the last axis with
    ``onesided``) or complex-to-real (``real``, ``inverse``: the last axis rebuilt to ``signal_sizes`` or
    2 * (n - 1))."""
    from cellonnx.ops import fftn, ifftn, irfftn, rfftn
    dims = tuple(range(-prim.signal_ndim, 0))
    if x.ndim < prim.signal_ndim:
        raise ValueError(f"For '{prim.name}', the input must have at least signal_ndim {prim.signal_ndim} "
                         f"dims, but got shape {tuple(x.shape)}.")
    if not prim.real:
        return (ifftn if prim.inverse else fftn)(x, None, dims, prim.norm)
    if not prim.inverse:
        return (rfftn if prim.onesided else fftn)(x, None, dims, prim.norm)
    if not prim.onesided:
        from cellonnx.ops import real
        return real(ifftn(x, None, dims, prim.norm))
    sizes = prim.signal_sizes or None
    return irfftn(x, sizes, dims, prim.norm)


ROWS = [
    Row("FFTWithSize", "signal_ndim, inverse, real, norm='backward', onesided=True, signal_sizes=()", "x",
        "_fft_with_size(x, self)", _setup_fft,
        summary="The FFT family in one class: forward or inverse, complex or real, over 1 to 3 axes.",
        example="""
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([2.0, 1.0, 2.0]), ms.complex64)
        >>> print(ops.FFTWithSize(signal_ndim=1, inverse=False, real=False)(x).asnumpy().round(4))
        [5. +0.j    0.5+0.866j 0.5-0.866j]
        """),
]

CLASSES = build(ROWS, globals())
globals().update(CLASSES)
__all__ = list(CLASSES)
