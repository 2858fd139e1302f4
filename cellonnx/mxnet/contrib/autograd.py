"""``mx.contrib.autograd``: MXNet's first autograd interface (before ``mx.autograd``): training scopes that
also record, ``mark_variables`` with gradient buffers the backward pass fills, and the function transforms
``grad`` / ``grad_and_loss``.

Examples:
    >>> import cellonnx.mxnet as mx
    >>> from cellonnx.mxnet.contrib import autograd
    >>> grad_fn = autograd.grad(lambda x: (x * x).sum())
    >>> grad_fn(mx.nd.array([1.0, 2.0, 3.0]))[0].asnumpy()
    array([2., 4., 6.], dtype=float32)
"""
from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any

from cellonnx.gluon import autograd as _autograd
from cellonnx.mxnet.ndarray import NDArray, array, zeros_like

__all__ = ["NDArray", "TrainingStateScope", "array", "backward", "compute_gradient", "grad", "grad_and_loss",
           "mark_variables", "set_is_training", "test_section", "train_section", "zeros_like"]

# variables marked with a gradient buffer: (weak reference to the variable, the buffer backward fills)
_buffers: list[tuple[weakref.ref, NDArray]] = []


def set_is_training(is_train: bool) -> bool:
    """Set training mode and recording together; returns the previous recording state.

    Args:
        is_train (bool): whether operators run in training mode and are recorded for ``backward``.

    Examples:
        >>> from cellonnx.mxnet.contrib import autograd
        >>> prev = autograd.set_is_training(True)
        >>> autograd.set_is_training(prev)
        True
    """
    _autograd.set_training(is_train)
    return _autograd.set_recording(is_train)


class TrainingStateScope:
    """Scope that sets training mode and recording (``set_is_training``) and restores them on exit.

    Args:
        enter_state (bool): the state inside the scope.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import autograd
        >>> with autograd.TrainingStateScope(True):
        ...     mx.autograd.is_training()
        True
    """

    def __init__(self, enter_state: bool) -> None:
        self._enter_state = enter_state
        self._prev: bool | None = None

    def __enter__(self) -> None:
        self._prev = set_is_training(self._enter_state)

    def __exit__(self, *exc: Any) -> None:
        if self._prev != self._enter_state:
            set_is_training(bool(self._prev))


def train_section() -> TrainingStateScope:
    """A scope that runs and records the code in it for ``backward`` (``TrainingStateScope(True)``).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import autograd
        >>> with autograd.train_section():
        ...     mx.autograd.is_recording()
        True
    """
    return TrainingStateScope(True)


def test_section() -> TrainingStateScope:
    """A scope that runs the code in it in inference mode, unrecorded (``TrainingStateScope(False)``).

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import autograd
        >>> with autograd.train_section():
        ...     with autograd.test_section():
        ...         mx.autograd.is_training()
        False
    """
    return TrainingStateScope(False)


def mark_variables(variables: list, gradients: list, grad_reqs: str | list = "write") -> None:
    """Mark NDArrays as variables whose gradients ``backward`` writes into ``gradients`` (the same arrays).

    Args:
        variables (list[NDArray]): the variables.
        gradients (list[NDArray]): one gradient buffer per variable.
        grad_reqs (str | list[str]): 'write', 'add' or 'null', for all or per variable. Default: 'write'.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import autograd
        >>> x, dx = mx.nd.array([1.0, 2.0]), mx.nd.zeros(2)
        >>> autograd.mark_variables([x], [dx])
        >>> with autograd.train_section():
        ...     y = x * 3
        >>> autograd.backward([y])
        >>> dx.asnumpy()
        array([3., 3.], dtype=float32)
    """
    _autograd.mark_variables(variables, gradients, grad_reqs)
    reqs = [grad_reqs] * len(variables) if isinstance(grad_reqs, str) else list(grad_reqs)
    _buffers[:] = [(ref, buf) for ref, buf in _buffers if ref() is not None
                   and all(ref() is not v for v in variables)]
    _buffers.extend((weakref.ref(v), g) for v, g, req in zip(variables, gradients, reqs) if req != "null")


def backward(outputs: list | tuple, out_grads: list | None = None, retain_graph: bool = False) -> None:
    """Compute the gradients of ``outputs`` with respect to the marked variables, into their buffers.

    Args:
        outputs (list[NDArray]): the heads.
        out_grads (list[NDArray] | None): their gradients (ones where None). Default: None.
        retain_graph (bool): keep the graph for another backward. Default: False.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import autograd
        >>> x, dx = mx.nd.array([2.0]), mx.nd.zeros(1)
        >>> autograd.mark_variables([x], [dx])
        >>> with autograd.train_section():
        ...     y = x * x
        >>> autograd.backward([y], [mx.nd.array([10.0])])
        >>> dx.asnumpy()
        array([40.], dtype=float32)
    """
    if not isinstance(outputs, (list, tuple)):
        raise AssertionError("outputs must be a list or tuple of NDArrays")
    if out_grads is not None and len(out_grads) != len(outputs):
        raise AssertionError("outputs and out_grads must have the same length")
    _autograd.backward(list(outputs), out_grads, retain_graph=retain_graph)
    for ref, buf in _buffers:
        var = ref()
        if var is not None and var.grad is not None and var.grad is not buf:
            buf[:] = var.grad


def compute_gradient(outputs: list | tuple) -> None:
    """Deprecated name of ``backward(outputs)``.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import autograd
        >>> x, dx = mx.nd.array([2.0]), mx.nd.zeros(1)
        >>> autograd.mark_variables([x], [dx])
        >>> with autograd.train_section():
        ...     y = x * x
        >>> autograd.compute_gradient([y])
        >>> dx.asnumpy()
        array([4.], dtype=float32)
    """
    backward(outputs)


def grad_and_loss(func: Callable[..., Any], argnum: int | list | None = None) -> Callable[..., Any]:
    """A function returning ``(gradients, loss)``: ``func``'s value and its gradient with respect to its
    arguments (those at ``argnum`` only, if given).

    Args:
        func (Callable): the loss function of NDArrays.
        argnum (int | list[int] | None): which arguments to differentiate against. Default: all.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import autograd
        >>> fn = autograd.grad_and_loss(lambda x, y: (x * y).sum(), argnum=1)
        >>> grads, loss = fn(mx.nd.array([1.0, 2.0]), mx.nd.array([3.0, 4.0]))
        >>> grads[0].asnumpy(), float(loss.asscalar())
        (array([1., 2.], dtype=float32), 11.0)
    """

    @functools.wraps(func)
    def wrapped(*args: Any) -> tuple[list, Any]:
        variables = args
        if argnum is not None:
            argnum_ = argnum if isinstance(argnum, list) else [argnum]
            variables = tuple(args[i] for i in argnum_)
        for x in variables:
            if not isinstance(x, NDArray):
                raise AssertionError("type of autograd input should NDArray.")
        grads = [zeros_like(x) for x in variables]
        mark_variables(list(variables), grads)
        with train_section():
            outputs = func(*args)
        compute_gradient([outputs] if isinstance(outputs, NDArray) else outputs)
        return grads, outputs

    return wrapped


def grad(func: Callable[..., Any], argnum: int | list | None = None) -> Callable[..., Any]:
    """A function returning the gradients of ``func`` with respect to its arguments (those at ``argnum``).

    Args:
        func (Callable): the loss function of NDArrays.
        argnum (int | list[int] | None): which arguments to differentiate against. Default: all.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib import autograd
        >>> autograd.grad(lambda x: (x ** 3).sum())(mx.nd.array([1.0, 2.0]))[0].asnumpy()
        array([ 3., 12.], dtype=float32)
    """
    grad_with_loss_func = grad_and_loss(func, argnum)

    @functools.wraps(grad_with_loss_func)
    def wrapped(*args: Any) -> list:
        return grad_with_loss_func(*args)[0]

    return wrapped
