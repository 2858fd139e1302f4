"""gluon.nn basic layers with MXNet 2.x signatures: containers, Dense, Dropout, Embedding, Flatten, Identity,
Lambda / HybridLambda and Concatenate / HybridConcatenate. The computations are cellonnx ops."""
from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.gluon import autograd
from cellonnx.gluon.block import Block
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.nn.activations import Activation
from cellonnx.gluon.parameter import Parameter
from cellonnx.ops.prims.dropout import shared_mask_dropout
from cellonnx.tensor import Tensor

__all__ = ["Concatenate", "Dense", "Dropout", "Embedding", "Flatten", "HybridConcatenate", "HybridLambda",
           "HybridSequential", "Identity", "Lambda", "Sequential"]


def training(block: Block) -> bool:
    """Whether a layer runs in training mode: inside ``autograd.record()`` / ``train_mode()`` (or after
    cellonnx's ``set_train()``)."""
    return autograd.is_training() or bool(block.training)


def dropout(x: Tensor, rate: float, axes: Any = ()) -> Tensor:
    """Zero a fraction ``rate`` of ``x`` and scale the rest by 1 / (1 - rate); with ``axes``, one mask value
    is shared along those axes (whole feature maps with (2, 3))."""
    if rate == 0.0:
        return x
    if rate == 1.0:
        return ops.mul(x, 0.0)
    axes = tuple(axes) if isinstance(axes, (tuple, list)) else (int(axes),)
    if not axes:
        return ops.dropout(x, p=rate)
    shared = {a % x.ndim for a in axes}
    mask_shape = tuple(1 if i in shared else d for i, d in enumerate(x.shape))
    return shared_mask_dropout(x, float(rate), mask_shape)


class _Stack:
    """Sequential behaviour shared by Sequential and HybridSequential."""

    _cells: Any
    register_child: Any

    def add(self, *blocks: Block) -> None:
        """Append blocks to the stack."""
        for block in blocks:
            self.register_child(block)

    def forward(self, x: Any, *args: Any) -> Any:
        # a block that returns several values passes the extra ones on to the next block, as MXNet 2.x does
        for block in self._cells.values():
            x = block(x, *args)
            args = ()
            if isinstance(x, (tuple, list)):
                args = tuple(x[1:])
                x = x[0]
        if args:
            x = (x, *args)
        return x

    def __getitem__(self, key: int | slice) -> Any:
        layers = list(self._cells.values())[key]
        if isinstance(layers, list):
            net = type(self)()
            net.add(*layers)
            return net
        return layers

    def __len__(self) -> int:
        return len(self._cells)


class Sequential(_Stack, Block):
    """Stacks Blocks sequentially: each one's output is the next one's input.

    Examples:
        >>> from cellonnx.gluon import nn
        >>> from cellonnx.mxnet import nd
        >>> net = nn.Sequential()
        >>> net.add(nn.Dense(10, activation='relu'), nn.Dense(20))
        >>> net.initialize()
        >>> print(net(nd.ones((2, 5))).shape)
        (2, 20)
    """

    forward = _Stack.forward

    def hybridize(self, active: bool = True, **kwargs: Any) -> None:
        if self._cells and all(isinstance(c, HybridBlock) for c in self._cells.values()):
            warnings.warn(f"All children of this Sequential layer '{self!r}'\n are HybridBlocks. "
                          "Consider using "
                          "HybridSequential for the best performance.", stacklevel=2)
        super().hybridize(active, **kwargs)


class HybridSequential(_Stack, HybridBlock):
    """Stacks HybridBlocks sequentially; ``hybridize()`` compiles the whole stack as one graph.

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> net = gluon.nn.HybridSequential()
        >>> net.add(gluon.nn.Dense(8, activation='relu', in_units=4), gluon.nn.Dense(2, in_units=8))
        >>> net.initialize()
        >>> net.hybridize()
        >>> net(np.ones((3, 4))).shape
        (3, 2)
        >>> len(net)
        2
    """

    forward = _Stack.forward


class Dense(HybridBlock):
    r"""The densely connected layer: ``activation(x @ weight.T + bias)``.

    Args:
        units: output size.
        activation: an Activation name ('relu', 'sigmoid', 'tanh', 'softrelu', 'softsign') or None.
        use_bias: whether there is a bias. Default: True.
        flatten: collapse all input axes but the first (True) or apply to the last axis (False).
            Default: True.
        dtype: parameter dtype. Default: 'float32'.
        weight_initializer, bias_initializer: Default: None (the global initializer), 'zeros'.
        in_units: input size; 0 infers it at the first forward pass. Default: 0.

    Shape:
        flatten: (N, x1, ..., xn) -> (N, units); otherwise (x1, ..., xn, in_units) -> (x1, ..., xn, units).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> layer = gluon.nn.Dense(4, activation='relu', in_units=3)
        >>> layer.initialize()
        >>> x = np.ones((2, 3))
        >>> layer(x).shape
        (2, 4)
        >>> layer.weight.shape
        (4, 3)
    """

    def __init__(self, units: int, activation: str | None = None, use_bias: bool = True, flatten: bool = True,
                 dtype: Any = "float32", weight_initializer: Any = None, bias_initializer: Any = "zeros",
                 in_units: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._units = units
        self._in_units = in_units
        self._flatten = flatten
        self.weight = Parameter("weight", shape=(units, in_units), init=weight_initializer, dtype=dtype,
                                allow_deferred_init=True)
        self.bias = Parameter("bias", shape=(units,), init=bias_initializer, dtype=dtype,
                              allow_deferred_init=True) if use_bias else None
        self.act = Activation(activation) if activation is not None else None

    def infer_shape(self, x: Tensor, *args: Any) -> None:
        n = int(np.prod(x.shape[1:])) if self._flatten else int(x.shape[-1])
        self.weight.shape = (self.weight.shape[0], n)

    def forward(self, x: Tensor) -> Tensor:
        if self._flatten and x.ndim != 2:
            x = ops.reshape(x, (x.shape[0], -1))
        out = ops.dense(x, self.weight, self.bias)
        return self.act(out) if self.act is not None else out

    def __repr__(self) -> str:
        shape = self.weight.shape
        return f"Dense({shape[1] if shape[1] else None} -> {shape[0]}, {self.act if self.act else 'linear'})"


class Dropout(HybridBlock):
    """Zero a fraction ``rate`` of the inputs in training and scale the rest by 1 / (1 - rate); identity in
    inference.

    Args:
        rate: fraction dropped, in [0, 1].
        axes: axes along which one mask value is shared (``(2, 3)``: whole feature maps). Default: ().

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet import np, npx, gluon, autograd
        >>> npx.set_np()
        >>> drop = gluon.nn.Dropout(0.5)
        >>> x = np.ones((2, 4))
        >>> print(drop(x))
        [[1. 1. 1. 1.]
         [1. 1. 1. 1.]]
        >>> with autograd.record():
        ...     y = drop(x)
        >>> sorted(set(y.asnumpy().ravel().tolist())) in ([0.0, 2.0], [0.0], [2.0])
        True
    """

    def __init__(self, rate: float, axes: Any = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not 0.0 <= float(rate) <= 1.0:
            raise ValueError(f"Dropout: rate must be in [0, 1], got {rate}")
        self._rate = float(rate)
        self._axes = tuple(axes) if isinstance(axes, (tuple, list)) else (int(axes),)

    def forward(self, x: Tensor) -> Tensor:
        return dropout(x, self._rate, self._axes) if training(self) else x

    def __repr__(self) -> str:
        return f"Dropout(p = {self._rate}, axes={self._axes})"


class Embedding(HybridBlock):
    """Look up rows of an (input_dim, output_dim) table; indices may be integers or floats (as MXNet feeds).

    Args:
        input_dim: vocabulary size.
        output_dim: embedding size.
        dtype: table dtype. Default: 'float32'.
        weight_initializer: Default: None (the global initializer).
        sparse_grad: the weight's gradient is row-sparse (``grad_stype='row_sparse'``): ``weight.grad()``
            holds the rows looked up, and an optimizer with ``lazy_update`` updates only those.
            Default: False.

    Shape:
        (x1, ..., xn) -> (x1, ..., xn, output_dim).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> emb = gluon.nn.Embedding(10, 3)
        >>> emb.initialize()
        >>> emb(np.array([[1, 3], [4, 0]])).shape
        (2, 2, 3)
        >>> emb.weight.shape
        (10, 3)
    """

    def __init__(self, input_dim: int, output_dim: int, dtype: Any = "float32",
                 weight_initializer: Any = None,
                 sparse_grad: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype,
                        "sparse_grad": sparse_grad}
        self.weight = Parameter("weight", shape=(input_dim, output_dim), init=weight_initializer, dtype=dtype,
                                allow_deferred_init=True,
                                grad_stype="row_sparse" if sparse_grad else "default")

    def forward(self, x: Tensor) -> Tensor:
        if self.weight.grad_stype == "row_sparse" and autograd.is_recording():
            self.weight._note_rows(x)
        return ops.embedding(x, self.weight)

    def __repr__(self) -> str:
        k = self._kwargs
        return f"Embedding({k['input_dim']} -> {k['output_dim']}, {k['dtype']})"


class Flatten(HybridBlock):
    """Collapse all axes but the first: (N, x1, ..., xn) -> (N, x1 * ... * xn).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.Flatten()(np.ones((2, 3, 4))).shape)
        (2, 12)
    """

    def forward(self, x: Tensor) -> Tensor:
        return ops.reshape(x, (x.shape[0], -1))

    def __repr__(self) -> str:
        return "Flatten"


class Identity(HybridBlock):
    """Returns its input (a branch of a residual HybridConcatenate, for instance).

    Examples:
        >>> from cellonnx.mxnet import np, npx, gluon
        >>> npx.set_np()
        >>> print(gluon.nn.Identity()(np.array([1, 2, 3])))
        [1. 2. 3.]
    """

    def forward(self, x: Any) -> Any:
        return x


def _resolve(function: Any, owner: str) -> tuple[Any, str]:
    """The function of a Lambda: an MXNet operator name (mx.nd's, then cellonnx.ops'), or a callable."""
    if isinstance(function, str):
        from cellonnx.mxnet import ndarray as nd  # MXNet's operator names ('tanh', 'LeakyReLU', ...)
        impl = getattr(nd, function, None) or getattr(ops, function, None)
        if impl is None or not callable(impl):
            raise ValueError(f"{owner}: function name {function!r} is not an MXNet operator (mx.nd) or a "
                             "cellonnx.ops function")
        return impl, function
    if callable(function):
        return function, getattr(function, "__name__", type(function).__name__)
    raise ValueError(f"{owner}: unrecognized function in lambda: {function!r} of type {type(function)}")


def _takes_namespace(function: Any) -> bool:
    """Whether ``function`` is Gluon 1.x's ``lambda F, x: ...`` (its first parameter is called F)."""
    try:
        params = list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return False
    return bool(params) and params[0] == "F"


class Lambda(Block):
    """Wrap a function (or an operator name: ``Lambda('tanh')``) as a Block.

    Examples:
        >>> from cellonnx.mxnet import npx
        >>> from cellonnx.gluon.nn import Lambda
        >>> block = Lambda('tanh')
        >>> block = Lambda(lambda x: npx.leaky_relu(x, slope=0.1))
    """

    def __init__(self, function: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._func_impl, self._func_name = _resolve(function, "Lambda")

    def forward(self, *args: Any) -> Any:
        return self._func_impl(*args)

    def __repr__(self) -> str:
        return f"Lambda({self._func_name})"


class HybridLambda(HybridBlock):
    """Wrap a function of tensors or an operator name as a HybridBlock; Gluon 1.x's ``lambda F, x: ...``
    receives the operator namespace (mx.nd, or mx.sym while traced).

    Examples:
        >>> from cellonnx.gluon.nn import HybridLambda
        >>> block = HybridLambda('tanh')
        >>> block = HybridLambda(lambda F, x: F.LeakyReLU(x, slope=0.1))
        >>> block = HybridLambda(lambda x: ops.leaky_relu(x, 0.1))
    """

    def __init__(self, function: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._func, self._func_name = _resolve(function, "HybridLambda")
        self._with_namespace = not isinstance(function, str) and _takes_namespace(function)

    def forward(self, x: Any, *args: Any) -> Any:
        if self._with_namespace:
            from cellonnx.graph import trace
            from cellonnx.mxnet import ndarray, symbol
            return self._func(symbol if trace._current else ndarray, x, *args)
        return self._func(x, *args)

    def __repr__(self) -> str:
        return f"HybridLambda({self._func_name})"


class Concatenate(Sequential):
    """Feed the input to every child and concatenate their outputs along ``axis``.

    Args:
        axis: Default: -1.

    Examples:
        >>> from cellonnx.mxnet import gluon, nd
        >>> block = gluon.nn.Concatenate(axis=1)
        >>> block.add(gluon.nn.Dense(2, in_units=3), gluon.nn.Dense(4, in_units=3))
        >>> block.initialize()
        >>> block(nd.ones((5, 3))).shape
        (5, 6)
    """

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def forward(self, x: Tensor) -> Tensor:
        return ops.concat([block(x) for block in self._cells.values()], axis=self.axis)


class HybridConcatenate(HybridSequential):
    """Feed the input to every HybridBlock child and concatenate their outputs along ``axis`` (Default:
    -1).

    Examples:
        >>> from cellonnx.mxnet import gluon, nd
        >>> block = gluon.nn.HybridConcatenate(axis=1)
        >>> block.add(gluon.nn.Dense(2, in_units=3), gluon.nn.Dense(4, in_units=3))
        >>> block.initialize()
        >>> block(nd.ones((5, 3))).shape
        (5, 6)
    """

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def forward(self, x: Tensor) -> Tensor:
        return ops.concat([block(x) for block in self._cells.values()], axis=self.axis)
