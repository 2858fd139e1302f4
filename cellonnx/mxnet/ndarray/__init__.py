"""mx.nd: MXNet 1.x's NDArray API - the NDArray class, constructors, file I/O and every operator of the
operator table under its MXNet names (``nd.FullyConnected``, ``nd.Activation``, ``nd.broadcast_add`` ...),
returning NDArrays; mx.nd.sparse's CSR and row-sparse arrays.
"""
from __future__ import annotations

import sys
from typing import Any

from cellonnx.mxnet import _op
from cellonnx.mxnet._docs import attach
from cellonnx.mxnet._errors import mx_errors
from cellonnx.mxnet.ndarray import (
    contrib,
    examples_array,
    examples_linalg_random,
    examples_math,
    examples_nn,
    examples_update,
    image,
    linalg,
    random,
    sparse,
)
from cellonnx.mxnet.ndarray.cached_op import CachedOp
from cellonnx.mxnet.ndarray.dlpack import from_dlpack, to_dlpack_for_read, to_dlpack_for_write
from cellonnx.mxnet.ndarray.examples import EXAMPLES, SUMMARIES
from cellonnx.mxnet.ndarray.imdecode import imdecode
from cellonnx.mxnet.ndarray.legacy import from_numpy, histogram, load_frombuffer, onehot_encode
from cellonnx.mxnet.ndarray.ndarray import NDArray, array, concatenate, empty, moveaxis, waitall
from cellonnx.mxnet.ndarray.sample import SAMPLERS
from cellonnx.mxnet.ndarray.utils import load, save, zeros

_module = sys.modules[__name__]
for _name, _impl in _op.TABLE.items():
    if _name not in ("empty", "zeros"):
        setattr(_module, _name, mx_errors(sparse.dispatching(_name, _op.wrap(_name, _impl, NDArray))))
for _name, _impl in SAMPLERS.items():
    setattr(_module, _name, _impl)
dot = mx_errors(sparse.dot)  # MXNet's output storage types for sparse arguments
cast_storage = mx_errors(sparse.cast_storage)
attach(vars(_module), EXAMPLES, SUMMARIES)
for _name in linalg.TABLE_NAMES:  # nd.linalg.potrf is nd.linalg_potrf, as in MXNet
    setattr(linalg, _name, getattr(_module, "linalg_" + _name, None) or getattr(_module, "_linalg_" + _name))
from cellonnx.mxnet.ndarray.custom import Custom  # noqa: E402 - Python operators (mx.operator)

for _table in (examples_math, examples_array, examples_nn, examples_linalg_random, examples_update):
    attach(vars(_module), _table.EXAMPLES, _table.SUMMARIES)

__all__ = ["NDArray", "array", "concatenate", "contrib", "empty", "from_numpy", "histogram", "linalg", "load",
           "load_frombuffer", "moveaxis", "onehot_encode", "random", "save", "sparse", "cast_storage",
           "waitall", "zeros", *(n for n in _op.TABLE if not n.startswith("_")), *SAMPLERS,
           "CachedOp", "from_dlpack", "to_dlpack_for_read", "to_dlpack_for_write"]
__all__ += ["image"]
__all__ += ["imdecode"]
__all__ += ["Custom"]


def __getattr__(name: str) -> Any:
    # nd.np / nd.npx: the NumPy interface, as MXNet 1.x's ndarray package hands it on
    if name in ("np", "numpy"):
        from cellonnx.mxnet import numpy
        return numpy
    if name in ("npx", "numpy_extension"):
        from cellonnx.mxnet import numpy_extension
        return numpy_extension
    fn = _graph_operator(name)
    if fn is not None:
        setattr(_module, name, fn)
        return fn
    raise AttributeError(f"module 'mxnet.ndarray' has no attribute '{name}'")


def _graph_operator(name: str) -> Any:
    """An operator the symbol interpreter runs beyond the operator table (the loss outputs, RNN, Crop,
    ROIPooling, amp_cast, the random samplers ...), under any of its MXNet names, returning NDArrays."""
    from cellonnx.gluon.symbol.spec import canonical
    from cellonnx.gluon.symbol.table import row_of

    op = canonical(name) if not name.startswith("__") else None
    row = row_of(op) if op is not None else None
    return None if row is None else _op.wrap(name, row.fn, NDArray)
