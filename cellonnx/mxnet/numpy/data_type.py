"""``mx.np.dtype``: NumPy's data type object, as MXNet 2.x's ``mx.np`` hands it on (one of its NumPy
fallbacks, mxnet/numpy/fallback.py there). MXNet 1.9.1's ``mx.np`` has no ``dtype``."""
from __future__ import annotations

from typing import Any

import numpy as _onp

__all__ = ["dtype"]


def dtype(dtype: Any, align: bool = False, copy: bool = False, **kwargs: Any) -> _onp.dtype:
    """Create a data type object: NumPy's ``numpy.dtype(dtype, align, copy)``, returned as NumPy's
    ``numpy.dtype`` (MXNet 2.x's ``mx.np.dtype`` calls NumPy the same way). mx.np's arrays take it as
    ``dtype=``, and their ``.dtype`` is one.

    Args:
        dtype: what to convert to a data type: a NumPy or mx.np type (``np.float32``), a name
            (``'float16'``, ``'f4'``), a Python type, another dtype.
        align (bool): pad a structured type's fields as a C compiler would. Default: ``False``.
        copy (bool): make a new dtype object rather than return the cached one. Default: ``False``.
        kwargs: NumPy's ``metadata``.

    Returns:
        numpy.dtype.

    Raises:
        TypeError: ``dtype`` names no data type.

    Examples:
        >>> from cellonnx.mxnet import np, npx
        >>> npx.set_np()
        >>> np.dtype('float16')
        dtype('float16')
        >>> np.dtype(np.int32).itemsize
        4
        >>> x = np.zeros((2,), dtype=np.dtype('float16'))
        >>> x.dtype == np.dtype(np.float16)
        True
    """
    return _onp.dtype(dtype, align=align, copy=copy, **kwargs)
