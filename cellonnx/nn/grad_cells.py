"""Jvp and Vjp: the Jacobian-vector and vector-Jacobian products of a function, as Cells (MindSpore's
``mindspore.nn.grad``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx import ops
from cellonnx.autograd.grad import GradOperation
from cellonnx.nn.cell import Cell

__all__ = ["Jvp", "Vjp"]


def _ones_like(output: Any) -> Any:
    if isinstance(output, tuple):
        return tuple(ops.ones_like(o) for o in output)
    return ops.ones_like(output)


class Jvp(Cell):
    r"""The Jacobian-vector product of ``fn``: called with the inputs and then ``v`` (a Tensor for one input,
    a
    tuple of Tensors for several), returns ``(fn(*inputs), J v)``.

    It is computed as MindSpore does, by differentiating the vector-Jacobian product
    :math:`u \mapsto u^\top J` with respect to :math:`u` in the direction :math:`v`.

    Args:
        fn (Union[Cell, Callable]): the function; Tensor inputs, Tensor or tuple of Tensors output.

    Examples:
        >>> jvp = nn.Jvp(lambda x, y: x ** 3 + y)
        >>> x = Tensor(np.array([1.0, 2.0], np.float32))
        >>> y = Tensor(np.array([3.0, 4.0], np.float32))
        >>> v = Tensor(np.ones(2, np.float32))
        >>> out, jv = jvp(x, y, (v, v))
        >>> print(jv)  # 3 x**2 + 1
        [ 4. 13.]
    """

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn
        self._first_all = GradOperation(get_all=True, sens_param=True)
        self._first_one = GradOperation(sens_param=True)
        self._second = GradOperation(sens_param=True)

    def construct(self, *args: Any) -> Any:
        inputs, v = args[:-1], args[-1]
        output = self.fn(*inputs)
        u = _ones_like(output)
        first = self._first_one if len(inputs) == 1 else self._first_all

        def vjp_of(sens: Any) -> Any:
            return first(self.fn)(*inputs, sens)

        return output, self._second(vjp_of)(u, v)


class Vjp(Cell):
    r"""The vector-Jacobian product of ``fn``: called with the inputs and then ``v`` (shaped like the output),
    returns ``(fn(*inputs), v^T J)`` (one gradient per input; a single Tensor for one input).

    Args:
        fn (Union[Cell, Callable]): the function.

    Examples:
        >>> vjp = nn.Vjp(lambda x, y: x ** 3 + y)
        >>> x = Tensor(np.array([1.0, 2.0], np.float32))
        >>> y = Tensor(np.array([3.0, 4.0], np.float32))
        >>> v = Tensor(np.ones(2, np.float32))
        >>> out, (gx, gy) = vjp(x, y, v)
        >>> print(gx, gy)
        [ 3. 12.] [1. 1.]
    """

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn
        self.grad = GradOperation(get_all=True, sens_param=True)
        self.grad_single_value = GradOperation(sens_param=True)

    def construct(self, *args: Any) -> Any:
        inputs = args[:-1]
        output = self.fn(*inputs)
        grad = self.grad_single_value if len(inputs) == 1 else self.grad
        return output, grad(self.fn)(*args)
