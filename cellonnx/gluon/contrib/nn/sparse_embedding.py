"""gluon.contrib.nn.SparseEmbedding: MXNet 1.x's embedding for very large vocabularies, whose weight gradient
is row-sparse (only the rows looked up), so a Trainer's lazy update touches only those rows."""
from __future__ import annotations

from typing import Any

from cellonnx import ops
from cellonnx.gluon import autograd
from cellonnx.gluon.block import Block
from cellonnx.gluon.parameter import Parameter
from cellonnx.tensor import Tensor

__all__ = ["SparseEmbedding"]


class SparseEmbedding(Block):
    """Turns non-negative integer indices into rows of an (input_dim, output_dim) table, with a row-sparse
    weight gradient (``weight.grad()`` is a RowSparseNDArray of the rows looked up; ``grad_stype`` is
    'row_sparse'). The table itself is stored dense here (MXNet keeps it row-sparse and refuses
    ``weight.data()``); ``weight.row_sparse_data(ids)`` is not needed to run the layer.

    Args:
        input_dim: vocabulary size.
        output_dim: embedding size.
        dtype: Default: 'float32'.
        weight_initializer: Default: None (the global initializer).

    Shape:
        (x1, ..., xn) -> (x1, ..., xn, output_dim).

    Examples:
        >>> from cellonnx.mxnet import gluon, nd
        >>> from cellonnx.gluon.contrib.nn import SparseEmbedding
        >>> emb = SparseEmbedding(6, 2)
        >>> emb.initialize()
        >>> trainer = gluon.Trainer(emb.collect_params(), "sgd")
        >>> emb(nd.array([[1, 3], [3, 0]])).shape
        (2, 2, 2)
        >>> emb
        SparseEmbedding(6 -> 2, float32)
        >>> emb.weight.shape
        (6, 2)
    """

    def __init__(self, input_dim: int, output_dim: int, dtype: Any = "float32",
                 weight_initializer: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype, "sparse_grad": True}
        self.weight = Parameter("weight", shape=(input_dim, output_dim), init=weight_initializer, dtype=dtype,
                                grad_stype="row_sparse")

    def forward(self, x: Any) -> Tensor:
        if autograd.is_recording():
            self.weight._note_rows(x)
        return ops.embedding(x, self.weight)

    def __repr__(self) -> str:
        k = self._kwargs
        return f"{type(self).__name__}({k['input_dim']} -> {k['output_dim']}, {k['dtype']})"
