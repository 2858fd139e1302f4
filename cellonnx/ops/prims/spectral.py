"""Complex numbers and the discrete Fourier transforms: real / imag / conj / angle / polar / view_as_real and
the fft family (fft, ifft, rfft, irfft, hfft, ihfft and their 2-D and N-D forms).

Complex tensors (complex64 / complex128) are computed eagerly. Two limits, both raised with the op's name:

- export: ONNX runtimes compute on complex tensors with almost no operator (ONNX's DFT itself holds complex
  numbers as trailing real pairs), so an op taking or giving a complex tensor cannot be exported;
- gradients: autograd flows through real tensors only, so a transform of a tensor that requires grad while
  gradients are recorded raises instead of silently cutting the gradient (compute it under
  ``stop_gradient`` or ``no_grad``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.autograd.tape import _mode
from cellonnx.ops.prims._eager import COMPLEX, not_exportable
from cellonnx.ops.prims._util import norm_axis, promote, to_tensor
from cellonnx.ops.prims.math import cast
from cellonnx.ops.registry import Op
from cellonnx.tensor import Tensor


def complex_dtype(dt: np.dtype) -> np.dtype:
    """complex128 for float64 / complex128, complex64 for everything else."""
    return np.dtype(np.complex128 if dt in (np.float64, np.complex128) else np.complex64)


def real_dtype(dt: np.dtype) -> np.dtype:
    return np.dtype(np.float64 if dt in (np.float64, np.complex128) else np.float32)


def _no_grad_through(x: Tensor, op: str) -> None:
    if _mode.enabled and x.requires_grad:
        raise NotImplementedError(f"ops.{op}: gradients through complex tensors are not supported; the input "
                                  "requires grad while gradients are recorded (compute it under "
                                  "ops.stop_gradient or no_grad)")


# ---------------------------------------------------------------- complex parts
class Real(Op):
    differentiable = False

    def forward(self, x):
        return np.ascontiguousarray(x.real)

    lower = not_exportable("real", COMPLEX)


class Imag(Op):
    differentiable = False

    def forward(self, x):
        return np.ascontiguousarray(x.imag)

    lower = not_exportable("imag", COMPLEX)


class Conj(Op):
    differentiable = False

    def forward(self, x):
        return np.conj(x)

    lower = not_exportable("conj", COMPLEX)


class Angle(Op):
    differentiable = False

    def forward(self, x):
        return np.angle(x).astype(real_dtype(x.dtype))

    lower = not_exportable("angle", COMPLEX)


class Complex(Op):
    """``re + 1j * im``."""

    differentiable = False

    def forward(self, re, im):
        out = np.empty(np.broadcast_shapes(re.shape, im.shape), complex_dtype(re.dtype))
        out.real, out.imag = re, im
        return out

    lower = not_exportable("complex", COMPLEX)


class ViewAsReal(Op):
    differentiable = False

    def forward(self, x):
        return np.stack([x.real, x.imag], -1)

    lower = not_exportable("view_as_real", COMPLEX)


# ---------------------------------------------------------------- the transforms
_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


class FFT(Op):
    """One of NumPy's n-dimensional transforms over ``axes`` with sizes ``s``:
    kind 'fft' / 'ifft' (complex to complex), 'rfft' (real to half spectrum), 'irfft' (half spectrum to
    real), 'hfft' (Hermitian half spectrum to real) and 'ihfft' (real to Hermitian half spectrum)."""

    differentiable = False

    def forward(self, x, *, kind, s, axes, norm):
        fft = np.fft
        if kind == "fft":
            out = fft.fftn(x, s, axes, norm)
        elif kind == "ifft":
            out = fft.ifftn(x, s, axes, norm)
        elif kind == "rfft":
            out = fft.rfftn(x, s, axes, norm)
        elif kind == "irfft":
            out = fft.irfftn(x, s, axes, norm)
        elif kind == "hfft":
            out = fft.irfftn(np.conj(x), s, axes, _SWAP[norm])
        else:  # ihfft
            out = np.conj(fft.rfftn(x, s, axes, _SWAP[norm]))
        want = complex_dtype(x.dtype) if kind in ("fft", "ifft", "rfft", "ihfft") else real_dtype(x.dtype)
        return out.astype(want, copy=False)

    lower = not_exportable("fft", COMPLEX)


def _norm(norm: str | None, op: str) -> str:
    if norm is None:
        return "backward"
    if norm not in ("backward", "forward", "ortho"):
        raise ValueError(f"{op}: norm must be None, 'backward', 'forward' or 'ortho', got {norm!r}")
    return norm


def _transform(input: Any, kind: str, s: Any, dim: Any, norm: str | None, op: str) -> Tensor:
    x = to_tensor(input)
    _no_grad_through(x, op)
    if x._data.dtype.kind not in "fc":  # integers, bool, bfloat16
        x = cast(x, np.float32)
    if kind in ("rfft", "ihfft") and x._data.dtype.kind == "c":
        raise TypeError(f"{op}: input must be real, got {x.dtype}")
    if kind in ("fft", "ifft", "irfft", "hfft") and x._data.dtype.kind != "c":
        x = cast(x, complex_dtype(x._data.dtype))
    if x.ndim == 0:
        raise ValueError(f"{op}: input must have at least one dimension")
    if s is not None and not isinstance(s, (tuple, list)):
        s = (int(s),)
    if dim is None:
        dims = tuple(range(x.ndim - len(s), x.ndim)) if s is not None else tuple(range(x.ndim))
    else:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(norm_axis(int(d), x.ndim, op) for d in dims)
    if s is not None:
        if len(s) != len(dims):
            raise ValueError(f"{op}: s {tuple(s)} and dim {dims} must have the same length")
        s = tuple(int(v) for v in s)
        if any(v <= 0 for v in s):
            raise ValueError(f"{op}: signal sizes must be positive, got {s}")
    return FFT.apply(x, kind=kind, s=s, axes=dims, norm=_norm(norm, op))


def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The 1-D discrete Fourier transform along ``dim`` (the signal cut or zero-padded to ``n``).

    Args:
        input (Tensor): real or complex input.
        n (int, optional): the signal length. Default None (the input's).
        dim (int): the axis. Default -1.
        norm (str, optional): 'backward' (no scaling, the default), 'forward' (1/n) or 'ortho' (1/sqrt(n)).

    Returns:
        Tensor, complex64 (complex128 for float64 / complex128 input).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 0.0, 0.0, 0.0]), ms.float32)
        >>> print(ops.fft(x))
        [1.+0.j 1.+0.j 1.+0.j 1.+0.j]
    """
    return _transform(input, "fft", None if n is None else (n,), dim, norm, "fft")


def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`fft` (``norm`` 'backward' scales by 1/n).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([4.0, 0.0, 0.0, 0.0]), ms.complex64)
        >>> print(ops.ifft(x))
        [1.+0.j 1.+0.j 1.+0.j 1.+0.j]
    """
    return _transform(input, "ifft", None if n is None else (n,), dim, norm, "ifft")


def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The 1-D transform of a real signal: the ``n // 2 + 1`` non-negative frequencies.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> print(ops.rfft(x))
        [10.+0.j -2.+2.j -2.+0.j]
    """
    return _transform(input, "rfft", None if n is None else (n,), dim, norm, "rfft")


def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfft`: a real signal of length ``n`` (default ``2 * (m - 1)``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([6.0, -2.0]), ms.complex64)
        >>> print(ops.irfft(x))
        [2. 4.]
    """
    return _transform(input, "irfft", None if n is None else (n,), dim, norm, "irfft")


def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The transform of a Hermitian-symmetric signal given by its first half: a real result of length
    ``n`` (default ``2 * (m - 1)``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0, 3.0]), ms.complex64)
        >>> print(ops.hfft(x))
        [ 8. -2.  0. -2.]
    """
    return _transform(input, "hfft", None if n is None else (n,), dim, norm, "hfft")


def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfft`: the first half of a Hermitian spectrum of a real signal.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0, 3.0, 4.0]), ms.float32)
        >>> print(ops.ihfft(x))
        [ 2.5-0.j  -0.5-0.5j -0.5-0.j ]
    """
    return _transform(input, "ihfft", None if n is None else (n,), dim, norm, "ihfft")


def fft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """The 2-D discrete Fourier transform over ``dim`` (sizes ``s``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((2, 2)), ms.complex64)
        >>> print(ops.fft2(x))
        [[4.+0.j 0.+0.j]
         [0.+0.j 0.+0.j]]
    """
    return _transform(input, "fft", s, dim, norm, "fft2")


def ifft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """The inverse of :func:`fft2`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[4.0, 0.0], [0.0, 0.0]]), ms.complex64)
        >>> print(ops.ifft2(x))
        [[1.+0.j 1.+0.j]
         [1.+0.j 1.+0.j]]
    """
    return _transform(input, "ifft", s, dim, norm, "ifft2")


def rfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """The 2-D transform of a real input (the last axis halved).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.rfft2(x))
        [[10.+0.j -2.+0.j]
         [-4.+0.j  0.+0.j]]
    """
    return _transform(input, "rfft", s, dim, norm, "rfft2")


def irfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfft2`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[10.0, -2.0], [-4.0, 0.0]]), ms.complex64)
        >>> print(ops.irfft2(x))
        [[1. 2.]
         [3. 4.]]
    """
    return _transform(input, "irfft", s, dim, norm, "irfft2")


def hfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """The 2-D :func:`hfft`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.complex64)
        >>> print(ops.hfft2(x))
        [[10. -2.]
         [-4.  0.]]
    """
    return _transform(input, "hfft", s, dim, norm, "hfft2")


def ihfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfft2`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.ihfft2(x))
        [[ 2.5-0.j -0.5-0.j]
         [-1. -0.j  0. -0.j]]
    """
    return _transform(input, "ihfft", s, dim, norm, "ihfft2")


def fftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """The N-D transform over ``dim`` (every axis, or the last ``len(s)`` axes, when None).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((2, 2)), ms.complex64)
        >>> print(ops.fftn(x))
        [[4.+0.j 0.+0.j]
         [0.+0.j 0.+0.j]]
    """
    return _transform(input, "fft", s, dim, norm, "fftn")


def ifftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """The inverse of :func:`fftn`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[4.0, 0.0], [0.0, 0.0]]), ms.complex64)
        >>> print(ops.ifftn(x))
        [[1.+0.j 1.+0.j]
         [1.+0.j 1.+0.j]]
    """
    return _transform(input, "ifft", s, dim, norm, "ifftn")


def rfftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """The N-D transform of a real input (the last transformed axis halved).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.rfftn(x))
        [[10.+0.j -2.+0.j]
         [-4.+0.j  0.+0.j]]
    """
    return _transform(input, "rfft", s, dim, norm, "rfftn")


def irfftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfftn`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[10.0, -2.0], [-4.0, 0.0]]), ms.complex64)
        >>> print(ops.irfftn(x))
        [[1. 2.]
         [3. 4.]]
    """
    return _transform(input, "irfft", s, dim, norm, "irfftn")


def hfftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """The N-D :func:`hfft`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.complex64)
        >>> print(ops.hfftn(x))
        [[10. -2.]
         [-4.  0.]]
    """
    return _transform(input, "hfft", s, dim, norm, "hfftn")


def ihfftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfftn`.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.ihfftn(x))
        [[ 2.5-0.j -0.5-0.j]
         [-1. -0.j  0. -0.j]]
    """
    return _transform(input, "ihfft", s, dim, norm, "ihfftn")


# ---------------------------------------------------------------- complex functions
def real(input: Tensor) -> Tensor:
    """The real part (the input itself when it is real).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 2j, 3 - 1j]), ms.complex64)
        >>> print(ops.real(x))
        [1. 3.]
    """
    x = to_tensor(input)
    return Real.apply(x) if x._data.dtype.kind == "c" else x


def imag(input: Tensor) -> Tensor:
    """The imaginary part (zeros for a real input).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 2j, 3 - 1j]), ms.complex64)
        >>> print(ops.imag(x))
        [ 2. -1.]
    """
    from cellonnx.ops.prims.creation import zeros_like
    x = to_tensor(input)
    return Imag.apply(x) if x._data.dtype.kind == "c" else zeros_like(x)


def conj(input: Tensor) -> Tensor:
    """The complex conjugate (the input itself when it is real).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 2j, 3 - 1j]), ms.complex64)
        >>> print(ops.conj(x))
        [1.-2.j 3.+1.j]
    """
    x = to_tensor(input)
    return Conj.apply(x) if x._data.dtype.kind == "c" else x


def angle(input: Tensor) -> Tensor:
    """The argument of each complex element, in (-pi, pi] (float32 for complex64).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1j, -1 + 0j]), ms.complex64)
        >>> print(ops.angle(x).asnumpy().round(4))
        [1.5708 3.1416]
    """
    x = to_tensor(input)
    if x._data.dtype.kind != "c":
        raise TypeError(f"angle: input must be complex64 or complex128, got {x.dtype}")
    return Angle.apply(x)


def complex_(real: Tensor, imag: Tensor) -> Tensor:
    """``real + 1j * imag`` (complex64 from float32, complex128 from float64)."""
    re, im = promote(real, imag)
    if re._data.dtype not in (np.float32, np.float64):
        re, im = cast(re, np.float32), cast(im, np.float32)
    _no_grad_through(re, "complex")
    _no_grad_through(im, "complex")
    return Complex.apply(re, im)


def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """The complex numbers ``abs * (cos(angle) + 1j sin(angle))``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> magnitude = Tensor(np.array([2.0]), ms.float32)
        >>> angle = Tensor(np.array([0.0]), ms.float32)
        >>> print(ops.polar(magnitude, angle))
        [2.+0.j]
    """
    from cellonnx.ops.prims.math import cos, mul, sin
    r, a = promote(abs, angle)
    return complex_(mul(r, cos(a)), mul(r, sin(a)))


def view_as_real(input: Tensor) -> Tensor:
    """A real tensor with a trailing axis of 2 holding the real and imaginary parts.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([1 + 2j, 3 - 1j]), ms.complex64)
        >>> print(ops.view_as_real(x))
        [[ 1.  2.]
         [ 3. -1.]]
    """
    x = to_tensor(input)
    if x._data.dtype.kind != "c":
        raise TypeError(f"view_as_real: input must be complex, got {x.dtype}")
    return ViewAsReal.apply(x)


__all__ = ["angle", "conj", "fft", "fft2", "fftn", "hfft", "hfft2", "hfftn", "ifft", "ifft2", "ifftn",
           "ihfft", "ihfft2", "ihfftn", "imag", "irfft", "irfft2", "irfftn", "polar", "real", "rfft", "rfft2",
           "rfftn", "view_as_real"]
