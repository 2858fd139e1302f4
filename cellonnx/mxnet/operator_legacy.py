"""MXNet's deprecated Python operators: ``PythonOp`` and its ``NumpyOp`` (forward / backward on NumPy arrays)
and ``NDArrayOp`` (on NDArrays). An instance's ``get_symbol(*args, **kwargs)`` (or calling it) gives a
Symbol node running it, which binds, infers shapes and trains in Module like any operator.

MXNet makes a ``_Native`` / ``_NDArray`` node whose ``info`` attribute is the address of the Python object,
so such a graph only means something inside the process that built it; here the node is a ``Custom`` node
of op_type ``_Native`` / ``_NDArray`` whose ``info`` names the instance in this process, and the instance's
methods run through the CustomOp machinery (mx.operator).
"""
from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np

from cellonnx.mxnet.operator import _REGISTRY, CustomOp, CustomOpProp

__all__ = ["NDArrayOp", "NumpyOp", "PythonOp"]

_INSTANCES: dict[str, PythonOp] = {}


class PythonOp:
    """Base class of the deprecated Python operators (use CustomOp): override ``list_arguments``,
    ``list_outputs``, ``infer_shape``, ``forward`` and ``backward``; ``need_top_grad`` (False for a loss)
    says whether backward reads the outputs' gradients.

    Args:
        need_top_grad: what ``need_top_grad()`` returns. Default: True.
    """

    _ref_holder: ClassVar[list] = []

    def __init__(self, need_top_grad: bool = True) -> None:
        self.info_ = None
        self.need_top_grad_ = need_top_grad
        warnings.warn("PythonOp has been deprecated. Please use CustomOp", stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.get_symbol(*args, **kwargs)

    def get_symbol(self, *args: Any, **kwargs: Any) -> Any:
        """A Symbol running this operator on ``args`` (Symbols; by name as keywords, with ``name=``)."""
        raise NotImplementedError("Must override this")

    def forward(self, in_data: list, out_data: list) -> None:
        """Fill ``out_data`` from ``in_data``. Default: copy the first input."""
        out_data[0][:] = in_data[0]

    def backward(self, out_grad: list, in_data: list, out_data: list, in_grad: list) -> None:
        """Fill ``in_grad``. Default: ones."""
        in_grad[0][:] = 1.0

    def infer_shape(self, in_shape: list) -> tuple:
        """(argument shapes, output shapes) from the argument shapes. Default: one output of the first's."""
        return in_shape, [in_shape[0]]

    def list_outputs(self) -> list[str]:
        """The outputs' names. Default: ['output']."""
        return ["output"]

    def list_arguments(self) -> list[str]:
        """The arguments' names. Default: ['data']."""
        return ["data"]

    def need_top_grad(self) -> bool:
        """Whether backward needs the outputs' gradients (False for loss layers)."""
        return self.need_top_grad_

    def _symbol(self, kind: str, args: tuple, kwargs: dict[str, Any], **attrs: Any) -> Any:
        from cellonnx.mxnet import symbol

        info = format(id(self), "x")
        _INSTANCES[info] = self
        PythonOp._ref_holder.append(self)
        return symbol.Custom(*args, op_type=kind, info=info, **attrs, **kwargs)


class NumpyOp(PythonOp):
    """A PythonOp whose ``forward(in_data, out_data)`` and ``backward(out_grad, in_data, out_data, in_grad)``
    read and write NumPy arrays (deprecated: use CustomOp).

    Examples:
        >>> import warnings
        >>> import numpy as np
        >>> import cellonnx.mxnet as mx
        >>> class Double(mx.operator.NumpyOp):
        ...     def forward(self, in_data, out_data):
        ...         out_data[0][:] = 2 * in_data[0]
        ...     def backward(self, out_grad, in_data, out_data, in_grad):
        ...         in_grad[0][:] = 2 * out_grad[0]
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     out = Double()(data=mx.sym.var("x"), name="double")
        >>> out.list_outputs()
        ['double_output']
        >>> print(out.eval(x=mx.nd.array([1.0, 2.0]))[0].asnumpy())
        [2. 4.]
    """

    def __init__(self, need_top_grad: bool = True) -> None:
        super().__init__(need_top_grad)
        warnings.warn("NumpyOp has been deprecated. Please use CustomOp", stacklevel=2)

    def get_symbol(self, *args: Any, **kwargs: Any) -> Any:
        """A Symbol running this operator (MXNet's ``_Native`` node)."""
        return self._symbol("_Native", args, kwargs, need_top_grad=self.need_top_grad())


class NDArrayOp(PythonOp):
    """A PythonOp whose ``forward`` / ``backward`` read and write NDArrays, and which declares what backward
    reads (``declare_backward_dependency``) (deprecated: use CustomOp)."""

    def __init__(self, need_top_grad: bool = True) -> None:
        super().__init__(need_top_grad)
        warnings.warn("NDArrayOp has been deprecated. Please use CustomOp", stacklevel=2)

    def get_symbol(self, *args: Any, **kwargs: Any) -> Any:
        """A Symbol running this operator (MXNet's ``_NDArray`` node)."""
        return self._symbol("_NDArray", args, kwargs)

    def declare_backward_dependency(self, out_grad: list[int], in_data: list[int],
                                    out_data: list[int]) -> list:
        """The ids backward reads: the outputs' gradients (when ``need_top_grad()``), inputs and outputs."""
        deps = []
        if self.need_top_grad():
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps


def _instance(info: str) -> PythonOp:
    from cellonnx.mxnet.base import MXNetError

    if info not in _INSTANCES:
        raise MXNetError(f"_Native / _NDArray: no Python operator {info!r} in this process (a graph holding "
                         "one runs only where its PythonOp was created)")
    return _INSTANCES[info]


class _LegacyOp(CustomOp):
    """Runs a PythonOp's forward / backward: on NumPy copies for a NumpyOp, on the NDArrays otherwise."""

    def __init__(self, op: PythonOp) -> None:
        super().__init__()
        self.op = op

    def forward(self, is_train: bool, req: list[str], in_data: list, out_data: list, aux: list) -> None:
        if isinstance(self.op, NDArrayOp):
            self.op.forward(in_data=in_data, out_data=out_data)
            return
        outs = [np.array(o.asnumpy()) for o in out_data]
        self.op.forward(in_data=[x.asnumpy() for x in in_data], out_data=outs)
        for dst, r, value in zip(out_data, req, outs):
            self.assign(dst, r, value)

    def backward(self, req: list[str], out_grad: list, in_data: list, out_data: list, in_grad: list,
                 aux: list) -> None:
        tops = out_grad if self.op.need_top_grad() else []
        if isinstance(self.op, NDArrayOp):
            self.op.backward(out_grad=tops, in_data=in_data, out_data=out_data, in_grad=in_grad)
            return
        grads = [np.array(g.asnumpy()) for g in in_grad]
        self.op.backward(out_grad=[g.asnumpy() for g in tops], in_data=[x.asnumpy() for x in in_data],
                         out_data=[o.asnumpy() for o in out_data], in_grad=grads)
        for dst, r, value in zip(in_grad, req, grads):
            self.assign(dst, r, value)


class _LegacyProp(CustomOpProp):
    """The CustomOpProp of a ``_Native`` / ``_NDArray`` node: everything asked of the PythonOp."""

    def __init__(self, info: str, need_top_grad: str = "True") -> None:
        self.op = _instance(info)
        super().__init__(need_top_grad=self.op.need_top_grad())

    def list_arguments(self) -> list[str]:
        return list(self.op.list_arguments())

    def list_outputs(self) -> list[str]:
        return list(self.op.list_outputs())

    def infer_shape(self, in_shape: list) -> tuple:
        ishape, oshape = self.op.infer_shape([list(s) for s in in_shape])
        if len(ishape) != len(self.list_arguments()) or len(oshape) != len(self.list_outputs()):
            raise AssertionError(f"{type(self.op).__name__}.infer_shape gave {len(ishape)} argument and "
                                 f"{len(oshape)} output shapes for {self.list_arguments()} / "
                                 f"{self.list_outputs()}")
        return [tuple(s) for s in ishape], [tuple(s) for s in oshape], []

    def declare_backward_dependency(self, out_grad: list[int], in_data: list[int],
                                    out_data: list[int]) -> list:
        if isinstance(self.op, NDArrayOp):
            return self.op.declare_backward_dependency(out_grad, in_data, out_data)
        return super().declare_backward_dependency(out_grad, in_data, out_data)

    def create_operator(self, ctx: Any, in_shapes: list, in_dtypes: list) -> CustomOp:
        return _LegacyOp(self.op)


_REGISTRY["_Native"] = _LegacyProp
_REGISTRY["_NDArray"] = _LegacyProp
