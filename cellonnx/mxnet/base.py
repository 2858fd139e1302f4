"""mxnet.base: the data directory, MXNet's error type and the type groups MXNet code tests against."""
from __future__ import annotations

import numbers
import os
import platform

import numpy as np

__all__ = ["MXNetError", "data_dir", "data_dir_default", "integer_types", "mx_real_t", "numeric_types",
           "string_types"]

string_types = (str,)
integer_types = (int, np.integer)
numeric_types = (float, int, np.generic, numbers.Number)
mx_real_t = np.float32


class MXNetError(RuntimeError):
    """The error MXNet raises from its operators; cellonnx raises it where MXNet code catches it.

    Examples:
        >>> from cellonnx import mxnet as mx
        >>> try:
        ...     raise mx.MXNetError('the operator failed')
        ... except mx.MXNetError as e:
        ...     print(e)
        the operator failed
        >>> issubclass(mx.MXNetError, Exception)
        True
    """


def data_dir_default() -> str:
    """``%APPDATA%\\mxnet`` on Windows, ``~/.mxnet`` elsewhere."""
    if platform.system() == "Windows":
        return os.path.join(os.environ.get("APPDATA", ""), "mxnet")
    return os.path.join(os.path.expanduser("~"), ".mxnet")


def data_dir() -> str:
    """``$MXNET_HOME`` if set, else the default data directory (where MXNet kept downloaded models)."""
    return os.getenv("MXNET_HOME", data_dir_default())
