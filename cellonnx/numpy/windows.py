"""Window functions: bartlett, blackman, hamming, hanning (mindspore.numpy.array_creations)."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cellonnx.tensor import Tensor


def _window(fn: Callable[[int], np.ndarray], M: int, op: str) -> Tensor:
    if isinstance(M, bool) or not isinstance(M, (int, np.integer)):
        raise TypeError(f"{op}: the number of points must be an int, got {type(M).__name__}")
    if M <= 1:
        return Tensor(np.ones(max(0, int(M)), np.float32))
    # a constant: computed in float64, stored as float32 (MindSpore's dtype)
    return Tensor(fn(int(M)).astype(np.float32))


def bartlett(M: int) -> Tensor:
    """Returns the Bartlett (triangular) window.

    Args:
        M (int): number of points; 0 or less gives an empty tensor.

    Returns:
        Tensor, float32 of shape (M,), the window normalised to a maximum of one.

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.bartlett(5))
        [0.  0.5 1.  0.5 0. ]
    """
    return _window(np.bartlett, M, "bartlett")


def blackman(M: int) -> Tensor:
    """Returns the Blackman window.

    Args:
        M (int): number of points; 0 or less gives an empty tensor.

    Returns:
        Tensor, float32 of shape (M,).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.blackman(5).asnumpy().round(4))
        [-0.    0.34  1.    0.34 -0.  ]
    """
    return _window(np.blackman, M, "blackman")


def hamming(M: int) -> Tensor:
    """Returns the Hamming window.

    Args:
        M (int): number of points; 0 or less gives an empty tensor.

    Returns:
        Tensor, float32 of shape (M,).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.hamming(5).asnumpy().round(4))
        [0.08 0.54 1.   0.54 0.08]
    """
    return _window(np.hamming, M, "hamming")


def hanning(M: int) -> Tensor:
    """Returns the Hanning window.

    Args:
        M (int): number of points; 0 or less gives an empty tensor.

    Returns:
        Tensor, float32 of shape (M,).

    Examples:
        >>> import cellonnx.numpy as mnp
        >>> print(mnp.hanning(5).asnumpy().round(4))
        [0.  0.5 1.  0.5 0. ]
    """
    return _window(np.hanning, M, "hanning")

__all__ = ["bartlett", "blackman", "hamming", "hanning"]
