"""More embedding layers (MindSpore's nn.layer.embedding): EmbeddingExt (PyTorch-style arguments),
EmbeddingLookup (out-of-range ids give zero rows, as MindSpore's EmbeddingLookup operator) and
MultiFieldEmbeddingLookup (per-field SUM / MEAN / MAX of value-weighted embeddings). The distributed slice
modes
and the host / device placement are accepted and checked; the lookup runs where the rest of the network
runs."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.common.initializer import Normal, initializer
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._util import check_positive_int, new_param
from cellonnx.nn.layer.basic import ClipByNorm
from cellonnx.tensor import Parameter, Tensor

__all__ = ["EmbeddingExt", "EmbeddingLookup", "MultiFieldEmbeddingLookup"]

_SLICE_MODES = ("field_slice", "table_row_slice", "table_column_slice", "batch_slice")


class EmbeddingExt(Cell):
    """A lookup table of ``num_embeddings`` vectors of ``embedding_dim`` (the parameter ``weight``).

    Args:
        num_embeddings (int), embedding_dim (int).
        padding_idx (int, optional): a row set to zeros at initialisation. Default: None.
        max_norm (float, optional): rows looked up are renormalised to at most this norm. Default: None.
        norm_type (float): the norm for max_norm. Default: 2.0.
        scale_grad_by_freq (bool): divide the gradient by the ids' frequencies. Default: False.
        sparse (bool): must be False. _weight (Tensor, optional): the initial table. _freeze (bool): no
        gradient for the table. dtype: Default: None (float32).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.EmbeddingExt(num_embeddings=10, embedding_dim=3)
        >>> net(Tensor(np.array([[1, 3], [4, 0]]), ms.int64)).shape
        (2, 2, 3)
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Tensor | None = None, _freeze: bool = False,
                 dtype: Any = None) -> None:
        super().__init__()
        owner = self.cls_name
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{owner}', the 'sparse' must be bool, but got {type(sparse).__name__}.")
        if sparse:
            raise ValueError("For Embedding, the scenerio, where `sparse` is True, has not be supported.")
        for name, v in (("num_embeddings", num_embeddings), ("embedding_dim", embedding_dim)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For '{owner}', the '{name}' must be int, but got {type(v).__name__}.")
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.dtype = dtypes.float32 if dtype is None else dtype
        self.padding_idx = padding_idx
        if _weight is None:
            table = initializer(Normal(1.0, 0.0), [num_embeddings, embedding_dim], self.dtype)
            if padding_idx is not None:
                if not -num_embeddings <= padding_idx < num_embeddings:
                    raise ValueError(f"For '{owner}', the 'padding_idx' must be in [{-num_embeddings}, "
                                     f"{num_embeddings}), but got {padding_idx}.")
                arr = np.array(table.asnumpy(), copy=True)
                arr[padding_idx] = 0
                table = Tensor(arr, self.dtype)
            self.weight = Parameter(table, name="weight", requires_grad=not _freeze)
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("For Embedding, shape of weight should be match with num_embeddings and "
                                 f"embedding_dim, but got weight.shape: {tuple(_weight.shape)}, and "
                                 f"(num_embeddings, embedding_dim): ({num_embeddings}, {embedding_dim})")
            self.weight = Parameter(_weight, name="weight", requires_grad=not _freeze)
        for name, v in (("max_norm", max_norm), ("norm_type", norm_type)):
            if v is not None and not isinstance(v, float):
                raise TypeError(f"For '{owner}', the '{name}' must be float, but got {type(v).__name__}.")
        if scale_grad_by_freq is not None and not isinstance(scale_grad_by_freq, bool):
            raise TypeError(f"For '{owner}', the 'scale_grad_by_freq' must be bool, but got "
                            f"{type(scale_grad_by_freq).__name__}.")
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq

    def construct(self, input: Tensor) -> Tensor:
        return ops.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                             self.scale_grad_by_freq)

    def extend_repr(self) -> str:
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, norm_type={self.norm_type}, "
                f"scale_grad_by_freq={self.scale_grad_by_freq}, dtype={self.dtype}")


def embedding_lookup(table: Tensor, indices: Tensor) -> Tensor:
    """MindSpore's EmbeddingLookup(table, indices, 0): rows of ``table``, zeros for ids outside it."""
    vocab = int(table.shape[0])
    inside = ops.logical_and(ops.greater_equal(indices, 0), ops.less(indices, vocab))
    rows = ops.gather(table, ops.where(inside, indices, ops.zeros_like(indices)), 0)
    return ops.mul(rows, ops.expand_dims(ops.cast(inside, table.dtype), -1))


class EmbeddingLookup(Cell):
    """A lookup table ``embedding_table`` of (vocab_size, embedding_size) rows; ids outside [0, vocab_size)
    give zero rows.

    Args:
        vocab_size (int), embedding_size (int). param_init: the table's initializer. Default: 'normal'.
        target (str): 'CPU' or 'DEVICE' (MindSpore's placement; both look up here). Default: 'CPU'.
        slice_mode (str): MindSpore's distributed slicing ('batch_slice', 'field_slice', 'table_row_slice',
        'table_column_slice'); one process here, so the lookup is the same. manual_shapes (tuple, optional).
        max_norm (float, optional): clip each looked-up row to this L2 norm. sparse (bool): Default: True
        ('CPU' needs it). dtype: Default: float32.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn, Tensor
        >>> net = nn.EmbeddingLookup(vocab_size=10, embedding_size=3)
        >>> net(Tensor(np.array([[1, 3], [4, 0]]), ms.int32)).shape
        (2, 2, 3)
    """

    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: Any = None, max_norm: float | None = None,
                 sparse: bool = True, dtype: Any = dtypes.float32) -> None:
        super().__init__()
        owner = self.cls_name
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{owner}', the 'sparse' must be bool, but got {type(sparse).__name__}.")
        check_positive_int(owner, vocab_size=vocab_size, embedding_size=embedding_size)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For '{owner}', the 'target' must be in ['CPU', 'DEVICE'], but got {target!r}.")
        if not sparse and target == "CPU":
            raise ValueError(f"For '{owner}', 'sparse' must be True when 'target' is \"CPU\", but got "
                             f"'sparse': {sparse} and 'target': {target}")
        if slice_mode not in _SLICE_MODES:
            raise ValueError(f"For '{owner}', the 'slice_mode' must be in {list(_SLICE_MODES)}, but got "
                             f"\"{slice_mode}\".")
        self.vocab_size = vocab_size
        self.embedding_size = embedding_size
        self.target = target
        self.sparse = sparse
        self.slice_mode = slice_mode
        self.manual_shapes = manual_shapes
        self.forward_unique = False
        self.embedding_table = new_param(param_init, [vocab_size, embedding_size], dtype, "embedding_table")
        self.max_norm = None
        if max_norm is not None:
            if not isinstance(max_norm, float) or max_norm <= 0:
                raise ValueError(f"For '{owner}', the 'max_norm' must be a positive float, but got "
                                 f"{max_norm!r}.")
            self.max_norm = Tensor(max_norm, dtype=dtypes.float32)

    def _lookup(self, indices: Tensor) -> Tensor:
        out = embedding_lookup(self.embedding_table, indices)
        if self.max_norm is not None:
            out = ClipByNorm(tuple(range(indices.ndim, out.ndim)))(out, self.max_norm)
        return out

    def construct(self, indices: Tensor) -> Tensor:
        return self._lookup(indices)


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Embeddings of (batch, n) ids, weighted by their values and merged per field: (batch, field_size,
    embedding_size).

    Args:
        vocab_size, embedding_size, param_init, target, slice_mode, max_norm, sparse, dtype: as
        EmbeddingLookup.
        field_size (int): the number of fields. feature_num_list (tuple, optional): MindSpore's manual_shapes.
        operator (str): 'SUM', 'MEAN' (weighted sum divided by the sum of |values|) or 'MAX'. Default: 'SUM'.

    Inputs:
        input_indices (batch, n) int32 / int64, input_values (batch, n) float32 (a 0 value leaves its id out
        of a
        MAX), field_ids (batch, n) int32 in [0, field_size).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.MultiFieldEmbeddingLookup(4, 2, field_size=2, param_init='ones')
        >>> input_indices = Tensor(np.array([[0, 1]]), ms.int32)
        >>> input_values = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> field_ids = Tensor(np.array([[0, 1]]), ms.int32)
        >>> print(net(input_indices, input_values, field_ids))
        [[[1. 1.]
          [2. 2.]]]
    """

    OPERATOR_SUM = "SUM"
    OPERATOR_MEAN = "MEAN"
    OPERATOR_MAX = "MAX"

    def __init__(self, vocab_size: int, embedding_size: int, field_size: int, param_init: Any = "normal",
                 target: str = "CPU", slice_mode: str = "batch_slice", feature_num_list: Any = None,
                 max_norm: float | None = None, sparse: bool = True, operator: str = "SUM",
                 dtype: Any = dtypes.float32) -> None:
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list,
                         max_norm,
                         sparse, dtype=dtype)
        check_positive_int(self.cls_name, field_size=field_size)
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"For '{self.cls_name}', the 'operator' must be in ['SUM', 'MAX', 'MEAN'], but "
                             f"got {operator!r}.")
        if slice_mode == "field_slice":
            raise ValueError(f"For '{self.cls_name}', the 'slice_mode' must be in ['table_row_slice', "
                             f"'batch_slice' and 'table_column_slice'], but got {slice_mode}.")
        self.field_size = field_size
        self.operator = operator
        self.negative_inf_value = -3.402823466e+38

    def construct(self, input_indices: Tensor, input_values: Tensor, field_ids: Tensor) -> Tensor:
        owner = self.cls_name
        for name, t in (("input_indices", input_indices), ("input_values", input_values),
                        ("field_ids", field_ids)):
            if t.ndim != 2:
                raise ValueError(f"For '{owner}', the dimension of '{name}' must be 2, but got {t.ndim}.")
        if input_indices.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"For '{owner}', 'input_indices' must be int32 or int64, but got "
                            f"{input_indices.dtype}.")
        if input_values.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError(f"For '{owner}', 'input_values' must be float32, but got {input_values.dtype}.")
        if field_ids.dtype != dtypes.int32:
            raise TypeError(f"For '{owner}', 'field_ids' must be int32, but got {field_ids.dtype}.")
        out = self._lookup(input_indices)  # (batch, n, E)
        weights = ops.expand_dims(input_values, -1)
        embedding = ops.mul(weights, out)
        # (batch, field, n) membership of each id in each field
        member = ops.equal(ops.expand_dims(field_ids, 1),
                           ops.reshape(ops.arange(0, self.field_size, dtype=dtypes.int32), (1, -1, 1)))
        member_f = ops.cast(member, out.dtype)
        if self.operator == "MAX":
            embedding = ops.add(embedding, ops.mul(ops.cast(ops.equal(weights, 0), out.dtype),
                                                   self.negative_inf_value))
            masked = ops.where(ops.expand_dims(member, -1), ops.expand_dims(embedding, 1),
                               ops.full_like(ops.expand_dims(embedding, 1), self.negative_inf_value))
            merged = ops.amax(masked, 2)
            count = ops.matmul(member_f, ops.expand_dims(ops.abs(input_values), -1))  # (batch, field, 1)
            return ops.mul(merged, ops.cast(ops.not_equal(count, 0.0), out.dtype))
        merged = ops.matmul(member_f, embedding)
        if self.operator == "MEAN":
            count = ops.matmul(member_f, ops.expand_dims(ops.abs(input_values), -1))
            merged = ops.where(ops.equal(count, 0), ops.zeros_like(merged),
                               ops.div(merged, ops.where(ops.equal(count, 0), ops.ones_like(count), count)))
        return merged
