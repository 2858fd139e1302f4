"""Embedding: a lookup table of ``vocab_size`` vectors of ``embedding_size``."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.common.initializer import initializer
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._util import check_type
from cellonnx.tensor import Parameter, Tensor

__all__ = ["Embedding"]


class Embedding(Cell):
    """Map integer ids to rows of the ``embedding_table`` parameter.

    Args:
        vocab_size: number of rows.
        embedding_size: length of each row.
        use_one_hot: compute the lookup as one_hot(ids) @ table instead of a gather. Default: False.
        embedding_table: initializer of the (vocab_size, embedding_size) table. Default: 'normal'
            (N(0, 0.01^2)).
        dtype: dtype of the one-hot values. Default: float32.
        padding_idx: a row set to zeros at initialisation (its gradient is not masked, as in MindSpore).
            Default: None.

    Shape:
        ids (*) -> (*, embedding_size).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.Embedding(vocab_size=10, embedding_size=3)
        >>> ids = Tensor(np.array([[1, 3], [4, 0]]), ms.int32)
        >>> net(ids).shape
        (2, 2, 3)
        >>> net.embedding_table.shape
        (10, 3)
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: Any = dtypes.float32, padding_idx: int | None = None) -> None:
        super().__init__()
        owner = self.cls_name
        for name, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For '{owner}', the '{name}' must be int, but got {type(v).__name__}.")
        check_type(owner, bool, use_one_hot=use_one_hot)
        self.vocab_size = vocab_size
        self.embedding_size = embedding_size
        self.use_one_hot = use_one_hot
        self.dtype = dtypes.dtype(dtype)
        table = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) or not 0 <= padding_idx < vocab_size:
                raise ValueError(f"For '{owner}', the 'padding_idx' must be an int in range [0, {vocab_size}), but "
                                 f"got {padding_idx!r}.")
            arr = np.array(table.asnumpy(), copy=True)
            arr[padding_idx] = 0
            table = Tensor(arr)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids: Tensor) -> Tensor:
        if not self.use_one_hot:
            return ops.gather(self.embedding_table, ids, 0)  # one Gather, whatever the rank of ids
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat = ops.reshape(ids, (-1,))
        one_hot = ops.one_hot(flat, self.vocab_size, Tensor(1.0, self.dtype), Tensor(0.0, self.dtype))
        return ops.reshape(ops.matmul(one_hot, self.embedding_table), out_shape)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")
