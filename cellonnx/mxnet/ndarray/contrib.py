"""mx.nd.contrib: the contrib operators the Gluon model code uses (BilinearResize2D, AdaptiveAvgPooling2D,
arange_like, div_sqrt_dim), and every ``_contrib_*`` operator the symbol interpreter runs (ROIAlign,
box_nms ...) under its contrib name."""
from __future__ import annotations

import sys
from typing import Any

from cellonnx.mxnet import _op
from cellonnx.mxnet.ndarray.ndarray import NDArray

for _name, _impl in _op.CONTRIB.items():
    setattr(sys.modules[__name__], _name, _op.wrap(_name, _impl, NDArray))

from cellonnx.mxnet.device import current_context  # noqa: E402, F401 - MXNet's contrib module has these names
from cellonnx.mxnet.ndarray.contrib_sparse import (  # noqa: E402
    SparseEmbedding,
    dgl_adjacency,
    dgl_subgraph,
    edge_id,
    getnnz,
    rand_zipfian,
)
from cellonnx.mxnet.ndarray.control_flow import cond, foreach, while_loop  # noqa: E402
from cellonnx.mxnet.ndarray.dgl_sample import (  # noqa: E402
    dgl_csr_neighbor_non_uniform_sample,
    dgl_csr_neighbor_uniform_sample,
    dgl_graph_compact,
)
from cellonnx.mxnet.ndarray.random import uniform  # noqa: E402, F401

__all__ = [*_op.CONTRIB, "SparseEmbedding", "cond", "dgl_adjacency", "dgl_subgraph", "edge_id", "foreach",
           "getnnz", "rand_zipfian", "while_loop"]
__all__ += ["dgl_csr_neighbor_non_uniform_sample", "dgl_csr_neighbor_uniform_sample", "dgl_graph_compact"]



def __getattr__(name: str) -> Any:
    from cellonnx.mxnet.ndarray import _graph_operator

    fn = _graph_operator("_contrib_" + name) if not name.startswith("_") else None
    if fn is None:
        raise AttributeError(f"module 'mxnet.ndarray.contrib' has no attribute '{name}'")
    setattr(sys.modules[__name__], name, fn)
    return fn
