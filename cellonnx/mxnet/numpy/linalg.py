"""mx.np.linalg: NumPy's linear algebra, cellonnx.numpy's implementation (norm, multi_dot, matrix_power)."""
from __future__ import annotations

import cellonnx.numpy as _cnp
from cellonnx.mxnet.numpy._shared import shared

__all__ = ["matrix_power", "multi_dot", "norm"]

norm = shared("norm", _cnp.norm)
multi_dot = shared("multi_dot", _cnp.multi_dot)
matrix_power = shared("matrix_power", _cnp.matrix_power)

from cellonnx.mxnet.numpy.linalg_decomp import *  # noqa: E402, F403
from cellonnx.mxnet.numpy.linalg_decomp import __all__ as _decomp_all  # noqa: E402

__all__ = sorted({*__all__, *_decomp_all})
