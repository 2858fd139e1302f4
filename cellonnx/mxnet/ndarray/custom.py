"""mx.nd.Custom: run a Python operator registered with ``mx.operator.register``."""
from __future__ import annotations

from typing import Any

__all__ = ["Custom"]


def Custom(*data: Any, op_type: str | None = None, **kwargs: Any) -> Any:
    """Apply the Python operator registered as ``op_type`` to ``data`` (its arguments, then its auxiliary
    states); keyword arguments reach its CustomOpProp as strings. Differentiable through the operator's
    ``backward``.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> class Twice(mx.operator.CustomOp):
        ...     def forward(self, is_train, req, in_data, out_data, aux):
        ...         self.assign(out_data[0], req[0], in_data[0] * float(self.k))
        ...     def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        ...         self.assign(in_grad[0], req[0], out_grad[0] * float(self.k))
        >>> @mx.operator.register("scale_doc")
        ... class TwiceProp(mx.operator.CustomOpProp):
        ...     def __init__(self, k):
        ...         super().__init__(need_top_grad=True)
        ...         self.k = k
        ...     def create_operator(self, ctx, shapes, dtypes):
        ...         op = Twice()
        ...         op.k = self.k
        ...         return op
        >>> x = mx.nd.array([1.0, 2.0])
        >>> x.attach_grad()
        >>> with mx.autograd.record():
        ...     y = mx.nd.Custom(x, op_type="scale_doc", k=3)
        >>> y.backward()
        >>> print(y.asnumpy(), x.grad.asnumpy())
        [3. 6.] [3. 3.]
    """
    from cellonnx.mxnet.operator import custom

    return custom(*data, op_type=op_type, **kwargs)
