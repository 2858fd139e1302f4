"""The layers of MindSpore's THOR second-order optimizer (nn.layer.thor_layer): DenseThor, Conv2dThor,
EmbeddingThor and EmbeddingLookupThor compute as Dense, Conv2d, Embedding and EmbeddingLookup and, while
``thor`` is set, record the statistics THOR preconditions with (MindSpore's CPU / GPU formulas): ``matrix_a``
from the layer's input in the forward pass and ``matrix_g`` from the gradient of its output (a tensor hook,
MindSpore's InsertGradientOf)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes, ops
from cellonnx.autograd.tape import no_grad
from cellonnx.common.initializer import initializer
from cellonnx.nn.cell import Cell
from cellonnx.nn.layer._util import check_positive_int, check_type
from cellonnx.nn.layer.activation import get_activation
from cellonnx.nn.layer.embedding_ext import EmbeddingLookup, embedding_lookup
from cellonnx.tensor import Parameter, Tensor

__all__ = ["Conv2dThor", "DenseThor", "EmbeddingLookupThor", "EmbeddingThor"]


def _fixed(value: np.ndarray, name: str) -> Parameter:
    return Parameter(Tensor(value.astype(np.float32)), name=name, requires_grad=False)


def _hook(out: Tensor, save: Any) -> Tensor:
    """Call ``save(gradient of out)`` when out's gradient is computed (no-op without gradients)."""
    if out.requires_grad:
        def hook(g: Tensor) -> None:
            with no_grad():
                save(g)
        out.register_hook(hook)
    return out


def _store(param: Parameter, value: Tensor) -> None:
    with no_grad():
        param.set_data(ops.cast(value, param.dtype))


class DenseThor(Cell):
    """Dense with THOR's statistics: matrix_a = x^T x / in_channels, matrix_g = dy^T dy / batch.

    Args:
        in_channels, out_channels (int). weight_init (default 'normal'), bias_init (default 'zeros'),
        has_bias (default True), activation (optional): as Dense.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> net = nn.DenseThor(3, 2, weight_init='ones')
        >>> print(net(ms.Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))))
        [[6. 6.]]
        >>> print(net.matrix_a.shape, net.matrix_g.shape)
        (3, 3) (2, 2)
    """

    _graph_attrs = ("thor",)  # a compiled step records the statistics or not

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal",
                 bias_init: Any = "zeros",
                 has_bias: bool = True, activation: Any = None) -> None:
        super().__init__()
        self.thor = True
        check_positive_int(self.cls_name, in_channels=in_channels, out_channels=out_channels)
        check_type(self.cls_name, bool, has_bias=has_bias)
        self.in_channels, self.out_channels, self.has_bias = in_channels, out_channels, has_bias
        for name, init, shape in (("weight", weight_init, (out_channels, in_channels)),
                                  ("bias", bias_init, (out_channels,))):
            if isinstance(init, Tensor) and tuple(init.shape) != shape:
                raise ValueError(f"For '{self.cls_name}', {name} init shape error: expected {shape}, got "
                                 f"{tuple(init.shape)}.")
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels]), name="weight")
        self.bias = Parameter(initializer(bias_init, [out_channels]), name="bias") if has_bias else None
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        self.activation_flag = self.activation is not None
        self.matrix_a = _fixed(np.eye(in_channels), "matrix_a")
        self.matrix_g = _fixed(np.eye(out_channels), "matrix_g")

    def _save_g(self, dout: Tensor) -> None:
        # dout.shape[0], not float(...): a compiled step reads the batch at run time
        _store(self.matrix_g, ops.matmul(ops.transpose(dout, (1, 0)), dout) / dout.shape[0])

    def construct(self, x: Tensor) -> Tensor:
        if self.thor:
            with no_grad():
                _store(self.matrix_a, ops.matmul(ops.transpose(x, (1, 0)), x) / float(self.in_channels))
            x = _hook(ops.dense(x, self.weight), self._save_g)
        else:
            x = ops.dense(x, self.weight)
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x) if self.activation_flag else x

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


def _pair(v: Any, name: str, owner: str) -> tuple[int, int]:
    out = (v, v) if isinstance(v, int) and not isinstance(v, bool) else tuple(v)
    if len(out) != 2 or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 1 for i in out):
        raise ValueError(f"For '{owner}', all elements in '{name}' must be int or tuple and equal to or "
                         f"greater than 1, but got '{name}': {v}.")
    return out[0], out[1]


class Conv2dThor(Cell):
    """Conv2d with THOR's statistics (the CPU / GPU formulas): the input's 'same'-padded patches averaged over
    the batch, A = P P^T / positions (``matrix_a``), and the output gradient averaged over the batch,
    G = D D^T / positions (``matrix_g``).

    Args:
        in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias: as
        Conv2d. weight_init (default 'normal'), bias_init (default 'zeros').

    Examples:
        >>> net = nn.Conv2dThor(1, 2, 3, weight_init='ones')
        >>> print(net.matrix_a_dim, net.matrix_g_dim, net.weight.shape, net.matrix_a_cov.shape)
        9 2 (2, 1, 3, 3) (9, 9)
        >>> print(net(Tensor(np.ones([1, 1, 4, 4]), ms.float32)).shape)
        (1, 2, 4, 4)
    """

    _graph_attrs = ("thor",)  # a compiled step records the statistics or not

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False,
                 weight_init: Any = "normal", bias_init: Any = "zeros") -> None:
        super().__init__()
        owner = self.cls_name
        check_positive_int(owner, in_channels=in_channels, out_channels=out_channels, group=group)
        if in_channels % group or out_channels % group:
            raise ValueError(f"For '{owner}', 'in_channels' and 'out_channels' must be divisible by "
                             f"'group', but got {in_channels}, {out_channels} and {group}.")
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(f"For '{owner}', the type of 'padding' must be int/tuple(int), but got "
                            f"{type(padding).__name__}.")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _pair(kernel_size, "kernel_size", owner)
        self.stride = _pair(stride, "stride", owner)
        self.dilation = _pair(dilation, "dilation", owner)
        self.pad_mode, self.padding, self.group, self.has_bias = pad_mode, padding, group, has_bias
        self.bias_init = bias_init
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels // group,
                                                          *self.kernel_size]),
                                name="weight")
        self.bias = Parameter(initializer(bias_init, [out_channels]), name="bias") if has_bias else None
        self.thor = True
        self.hw = self.kernel_size[0] * self.kernel_size[1]
        self.matrix_a_dim = in_channels * self.hw
        self.matrix_g_dim = out_channels
        self.a_normalizer = Parameter(initializer(1, [1], dtypes.float32), name="a_normalizer",
                                      requires_grad=False)
        self.g_normalizer = Parameter(initializer(1, [1], dtypes.float32), name="g_normalizer",
                                      requires_grad=False)
        self.matrix_a_cov = _fixed(np.zeros([self.matrix_a_dim] * 2), "matrix_a")
        self.matrix_g_cov = _fixed(np.zeros([self.matrix_g_dim] * 2), "matrix_g")

    def _patches(self, x: Tensor) -> Tensor:
        """(C * kh * kw, positions): the batch-averaged 'same'-padded patches of x."""
        (kh, kw), (sh, sw) = self.kernel_size, self.stride
        mean = ops.mean(x, 0, keep_dims=True)
        eye = Tensor(np.eye(self.matrix_a_dim,
                            dtype=np.float32).reshape(self.matrix_a_dim, self.in_channels, kh,
                                                                          kw), x.dtype)
        cols = ops.conv2d(mean, eye, None, (sh, sw), "same")  # (1, C * kh * kw, Ho, Wo)
        return ops.reshape(cols, (self.matrix_a_dim, -1))

    def _save_g(self, dout: Tensor) -> None:
        d = ops.reshape(ops.mean(dout, 0), (self.out_channels, -1))
        n = float(d.shape[1])
        _store(self.matrix_g_cov, ops.matmul(d, ops.transpose(d, (1, 0))) / n)
        _store(self.g_normalizer, Tensor([n], dtypes.float32))

    def construct(self, x: Tensor) -> Tensor:
        pads = self.padding if self.pad_mode == "pad" else 0
        if self.thor:
            with no_grad():
                p = self._patches(x)
                n = float(p.shape[1])
                _store(self.matrix_a_cov, ops.matmul(p, ops.transpose(p, (1, 0))) / n)
                _store(self.a_normalizer, Tensor([n], dtypes.float32))
            out = _hook(ops.conv2d(x, self.weight, None, self.stride, self.pad_mode, pads, self.dilation,
                                   self.group),
                        self._save_g)
        else:
            out = ops.conv2d(x, self.weight, None, self.stride, self.pad_mode, pads, self.dilation,
                             self.group)
        if self.bias is not None:
            out = ops.bias_add(out, self.bias)
        return out

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, "
                f"has_bias={self.has_bias}, bias_init={self.bias_init}")


class EmbeddingThor(Cell):
    """Embedding with THOR's statistics: matrix_a = how often each id occurs, matrix_g = dy^T dy / ids.

    Args:
        vocab_size, embedding_size, use_one_hot, embedding_table, dtype, padding_idx: as Embedding.

    Examples:
        >>> net = nn.EmbeddingThor(5, 2, embedding_table='ones')
        >>> out = net(Tensor(np.array([[1, 0], [3, 3]]), ms.int32))
        >>> print(out.shape, net.matrix_a.shape, net.matrix_g.shape)
        (2, 2, 2) (5,) (2, 2)
    """

    _graph_attrs = ("thor",)  # a compiled step records the statistics or not

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: Any = dtypes.float32,
                 padding_idx: int | None = None) -> None:
        super().__init__()
        owner = self.cls_name
        for name, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For '{owner}', the '{name}' must be int, but got {type(v).__name__}.")
        check_type(owner, bool, use_one_hot=use_one_hot)
        self.vocab_size, self.embedding_size, self.use_one_hot = vocab_size, embedding_size, use_one_hot
        self.dtype = dtype
        table = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if not 0 <= padding_idx <= vocab_size:
                raise ValueError(f"For '{owner}', the 'padding_idx' must be in [0, {vocab_size}], but got "
                                 f"{padding_idx}.")
            arr = np.array(table.asnumpy(), copy=True)
            arr[padding_idx] = 0
            table = Tensor(arr)
        self.embedding_table = Parameter(table, name="embedding_table")
        self.thor = True
        self.matrix_a = _fixed(np.zeros([vocab_size]), "matrix_a")
        self.matrix_g = _fixed(np.zeros([embedding_size, embedding_size]), "matrix_g")

    def _save_g(self, dout: Tensor) -> None:
        # dout.shape[0], not float(...): a compiled step reads the batch at run time
        _store(self.matrix_g, ops.matmul(ops.transpose(dout, (1, 0)), dout) / dout.shape[0])

    def construct(self, ids: Tensor) -> Tensor:
        flat = ops.reshape(ids, (-1,))
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        if self.use_one_hot:
            hot = ops.one_hot(flat, self.vocab_size, Tensor(1.0, self.dtype), Tensor(0.0, self.dtype))
            rows = ops.matmul(hot, self.embedding_table)
        elif self.thor:
            with no_grad():
                _store(self.matrix_a, ops.sum(ops.one_hot(flat, self.vocab_size, Tensor(1.0, dtypes.float32),
                                                          Tensor(0.0, dtypes.float32)), 0))
            rows = _hook(ops.gather(self.embedding_table, flat, 0), self._save_g)
        else:
            rows = ops.gather(self.embedding_table, flat, 0)
        return ops.reshape(rows, out_shape)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")


class EmbeddingLookupThor(EmbeddingLookup):
    """EmbeddingLookup with a float16 table and THOR's statistics (matrix_a = id counts, matrix_g = dy^T dy /
    batch, as float16). Args as EmbeddingLookup (no dtype).

    Examples:
        >>> net = nn.EmbeddingLookupThor(5, 2, param_init='ones')
        >>> out = net(Tensor(np.array([[1, 0], [3, 3]]), ms.int32))
        >>> print(out.shape, out.dtype, net.matrix_a.shape, net.matrix_g.shape)
        (2, 2, 2) Float16 (5,) (2, 2)
    """

    _graph_attrs = ("thor",)  # a compiled step records the statistics or not

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: Any = None, max_norm: float | None = None,
                 sparse: bool = True) -> None:
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, manual_shapes, max_norm,
                         sparse,
                         dtype=dtypes.float16)
        self.dtype = dtypes.float16
        if self.max_norm is not None:
            self.max_norm = ops.cast(self.max_norm, dtypes.float16)
        self.thor = True
        self.matrix_a = _fixed(np.zeros([vocab_size]), "matrix_a")
        self.matrix_g = _fixed(np.zeros([embedding_size, embedding_size]), "matrix_g")

    def _save_g(self, dout: Tensor) -> None:
        d = ops.reshape(dout, (-1, self.embedding_size))
        _store(self.matrix_g, ops.matmul(ops.transpose(d, (1, 0)), d) / dout.shape[0])

    def construct(self, indices: Tensor) -> Tensor:
        if self.target == "CPU" or not self.thor:
            return self._lookup(indices)
        with no_grad():
            flat = ops.reshape(indices, (-1,))
            _store(self.matrix_a, ops.sum(ops.one_hot(flat, self.vocab_size, Tensor(1.0, dtypes.float32),
                                                      Tensor(0.0, dtypes.float32)), 0))
        out = _hook(embedding_lookup(self.embedding_table, indices), self._save_g)
        if self.max_norm is not None:
            from cellonnx.nn.layer.basic import ClipByNorm
            out = ClipByNorm(tuple(range(indices.ndim, out.ndim)))(out, self.max_norm)
        return out
