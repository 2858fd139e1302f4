"""mxnet.operator: operators written in Python. A ``CustomOpProp`` subclass registered under a name
(``@mx.operator.register('sigmoid')``) declares the operator's arguments, outputs and shapes and creates a
``CustomOp`` whose ``forward`` / ``backward`` fill NDArrays; ``mx.nd.Custom(x, op_type='sigmoid')`` (and
``mx.npx.custom``) runs it, recording one autograd node whose gradient is the op's ``backward``.

As in MXNet, keyword arguments reach the property's constructor as strings, ``forward`` runs with autograd
paused (``is_train`` tells training from inference) and ``backward`` gets the head gradients, the inputs and
outputs of the forward and zeroed input-gradient arrays to assign into.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx.autograd.function import _Function
from cellonnx.gluon import autograd
from cellonnx.mxnet.base import MXNetError
from cellonnx.tensor import Tensor

__all__ = ["CustomOp", "CustomOpProp", "custom", "get_all_registered_operators", "register"]

_REGISTRY: dict[str, type] = {}


class CustomOp:
    """Base class of a Python operator's computation: override ``forward`` and ``backward``."""

    def __init__(self) -> None:
        pass

    def forward(self, is_train: bool, req: list[str], in_data: list[Any], out_data: list[Any],
                aux: list[Any]) -> None:
        """Fill ``out_data`` from ``in_data`` (``self.assign(out_data[i], req[i], value)``)."""

    def backward(self, req: list[str], out_grad: list[Any], in_data: list[Any], out_data: list[Any],
                 in_grad: list[Any], aux: list[Any]) -> None:
        """Fill ``in_grad`` from ``out_grad`` (and the forward's data)."""

    def assign(self, dst: Any, req: str, src: Any) -> None:
        """Write ``src`` into ``dst`` as ``req`` says: 'null' (nothing), 'write' / 'inplace', or 'add'."""
        value = src.asnumpy() if hasattr(src, "asnumpy") else np.asarray(src)
        if req == "null":
            return
        if req in ("write", "inplace"):
            dst[:] = value
        elif req == "add":
            dst[:] = dst.asnumpy() + value
        else:
            raise ValueError(f"CustomOp.assign: req must be 'null', 'write', 'inplace' or 'add', got {req!r}")


class CustomOpProp:
    """Base class of a Python operator's description: its arguments, outputs, auxiliary states, shapes and
    types, and ``create_operator``.

    Args:
        need_top_grad: whether ``backward`` needs the outputs' gradients (False for loss operators).
            Default: True.
    """

    def __init__(self, need_top_grad: bool = True) -> None:
        self.need_top_grad_ = need_top_grad

    def infer_shape(self, in_shape: list[list[int]]) -> tuple:
        """``(in_shapes, out_shapes, aux_shapes)``; by default every output has the first input's shape."""
        return in_shape, (in_shape[0],) * len(self.list_outputs()), ()

    def infer_type(self, in_type: list[Any]) -> tuple:
        """``(in_types, out_types, aux_types)``; by default all the first input's type."""
        return (in_type, [in_type[0]] * len(self.list_outputs()),
                [in_type[0]] * len(self.list_auxiliary_states()))

    def infer_storage_type(self, in_stype: list[str]) -> tuple:
        """Storage types: dense ('default') only unless overridden."""
        for i, stype in enumerate(in_stype):
            if stype != "default":
                raise AssertionError(f"Default infer_storage_type implementation doesnt allow non default "
                                     f"stypes: found non default stype '{stype}' for in_stype[{i}].")
        n_out, n_aux = len(self.list_outputs()), len(self.list_auxiliary_states())
        return in_stype, ["default"] * n_out, ["default"] * n_aux

    def list_outputs(self) -> list[str]:
        """The outputs' names. Default: ['output']."""
        return ["output"]

    def list_arguments(self) -> list[str]:
        """The inputs' names. Default: ['data']."""
        return ["data"]

    def list_auxiliary_states(self) -> list[str]:
        """The auxiliary states' names (inputs after the arguments). Default: none."""
        return []

    def declare_backward_dependency(self, out_grad: list[int], in_data: list[int],
                                    out_data: list[int]) -> list:
        """What backward reads: the head gradients (when ``need_top_grad_``), the inputs and the outputs."""
        deps = []
        if self.need_top_grad_:
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps

    def create_operator(self, ctx: Any, in_shapes: list[list[int]], in_dtypes: list[Any]) -> CustomOp:
        """The CustomOp computing this operator."""
        return CustomOp()


def register(reg_name: str) -> Any:
    """Class decorator: register a CustomOpProp subclass as operator ``reg_name`` (``op_type``)."""

    def do_register(prop_cls: type) -> type:
        if not (isinstance(prop_cls, type) and issubclass(prop_cls, CustomOpProp)):
            raise TypeError(f"register({reg_name!r}) takes a CustomOpProp subclass, got {prop_cls!r}")
        _REGISTRY[reg_name] = prop_cls
        return prop_cls

    return do_register


def get_all_registered_operators() -> list[str]:
    """The names of the registered Python operators."""
    return sorted(_REGISTRY)


def _nd(array: np.ndarray) -> Any:
    from cellonnx.mxnet.ndarray.ndarray import NDArray

    t = Tensor._make(np.array(array))
    t.__class__ = NDArray
    return t


class _CustomFunction(_Function):
    """The autograd node of one Custom call: forward by the op (autograd paused), backward by the op."""

    @staticmethod
    def forward(ctx: Any, *inputs: Any) -> Any:
        op, n_args, out_shapes, out_types, aux = ctx.op, ctx.n_args, ctx.out_shapes, ctx.out_types, ctx.aux
        in_data = [_nd(x._data) for x in inputs[:n_args]]
        out_data = [_nd(np.zeros(s, t)) for s, t in zip(out_shapes, out_types)]
        op.forward(is_train=ctx.is_train, req=["write"] * len(out_data), in_data=in_data, out_data=out_data,
                   aux=aux)
        ctx.in_data, ctx.out_data = in_data, out_data
        outs = tuple(Tensor._make(np.array(o._data)) for o in out_data)
        return outs if len(outs) > 1 else outs[0]

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        out_grad = [_nd(g._data) for g in grads]
        in_grad = [_nd(np.zeros(x.shape, x._data.dtype)) for x in ctx.in_data]
        ctx.op.backward(req=["write"] * len(in_grad), out_grad=out_grad, in_data=ctx.in_data,
                        out_data=ctx.out_data, in_grad=in_grad, aux=ctx.aux)
        return tuple(Tensor._make(np.array(g._data)) for g in in_grad) + (None,) * len(ctx.aux)


def custom(*inputs: Any, op_type: str | None = None, **kwargs: Any) -> Any:
    """Run the registered Python operator ``op_type`` on ``inputs`` (its arguments, then its auxiliary
    states); the keyword arguments go to its CustomOpProp as strings.

    Returns:
        The output NDArray, or a list of them for an operator of several outputs.

    Raises:
        MXNetError: ``op_type`` is not registered, or the inputs do not match the operator's arguments.
    """
    from cellonnx.mxnet.ndarray.ndarray import NDArray

    if op_type is None or op_type not in _REGISTRY:
        raise MXNetError(f"Custom: operator type {op_type!r} is not registered (registered: "
                         f"{get_all_registered_operators()}); use @mx.operator.register(name)")
    kwargs.pop("name", None)
    prop = _REGISTRY[op_type](**{k: str(v) for k, v in kwargs.items()})
    n_args, n_aux = len(prop.list_arguments()), len(prop.list_auxiliary_states())
    if len(inputs) != n_args + n_aux:
        raise MXNetError(f"Custom({op_type}): {len(inputs)} inputs given, the operator takes {n_args} "
                         f"arguments {prop.list_arguments()} and {n_aux} auxiliary states")
    tensors = [x if isinstance(x, Tensor) else _nd(np.asarray(x)) for x in inputs]
    in_shapes = [list(x.shape) for x in tensors[:n_args]]
    shapes = prop.infer_shape(in_shapes)
    out_shapes = [tuple(int(d) for d in s) for s in shapes[1]]
    in_types = [np.dtype(x._data.dtype).type for x in tensors[:n_args]]
    types = prop.infer_type(in_types)
    out_types = [np.dtype(t) for t in types[1]]
    op = prop.create_operator(None, in_shapes, in_types)
    ctx = _CustomFunction.__new__(_CustomFunction)
    ctx.op, ctx.n_args, ctx.out_shapes, ctx.out_types = op, n_args, out_shapes, out_types
    ctx.aux = [x if isinstance(x, NDArray) else _nd(x._data) for x in tensors[n_args:]]
    ctx.is_train = autograd.is_training()
    args = tensors[:n_args]
    if any(t.requires_grad for t in args) and autograd.is_recording():
        out = _apply(ctx, args)
    else:
        out = _CustomFunction.forward(ctx, *args)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    for o in outs:
        o.__class__ = NDArray
    return outs if len(outs) > 1 else outs[0]


def _apply(ctx: Any, args: list[Tensor]) -> Any:
    """``_Function.apply`` with a ctx made beforehand (it holds the op and its shapes)."""
    from cellonnx.autograd.function import _node_class
    from cellonnx.autograd.tape import no_grad
    from cellonnx.ops import registry

    with no_grad():
        out = _CustomFunction.forward(ctx, *args)
    outs = list(out) if isinstance(out, tuple) else [out]
    node = _node_class()()
    node.set_outputs(len(outs))
    results = registry.apply(node, tuple(args), {"fn": _CustomFunction, "ctx": ctx, "args": tuple(args),
                                                  "pending": tuple(o._data for o in outs)})
    return tuple(results) if len(outs) > 1 else results


from cellonnx.mxnet.operator_legacy import NDArrayOp, NumpyOp, PythonOp  # noqa: E402 - they build on CustomOp

__all__ += ["NDArrayOp", "NumpyOp", "PythonOp"]

from cellonnx.mxnet.operator_args import OperatorArguments, get_operator_arguments  # noqa: E402

__all__ += ["OperatorArguments", "get_operator_arguments"]
