"""What the operator families share: MindSpore's axis conventions, attribute checks and in-place updates of
Parameter inputs (Assign, ScatterAdd, the optimizer updates)."""
from __future__ import annotations

from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.ops import registry
from cellonnx.ops.prims._util import to_tensor
from cellonnx.tensor import Parameter, Tensor


def axes(axis: Any) -> Any:
    """MindSpore's reduction axis as the functional ops take it: ``()`` / ``[]`` / None mean every axis; a
    list or a Tensor of axes becomes a tuple."""
    if isinstance(axis, Tensor):
        axis = axis.asnumpy().tolist()
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return None
    if isinstance(axis, list):
        return tuple(int(a) for a in axis)
    return axis


def ints(value: Any) -> Any:
    """A shape, begin / end / size vector or list of indices given as a Tensor or list: a tuple (ints and
    tuples pass through, so the symbolic dims of a traced shape stay symbolic)."""
    if isinstance(value, Tensor):
        value = value.asnumpy().tolist()
    if isinstance(value, list):
        return tuple(value)
    return value


def one_of(prim: Any, attr: str, choices: tuple[str, ...], upper: bool = False) -> str:
    """The string attribute ``attr`` checked against ``choices`` (case-insensitive) and stored normalised."""
    value = getattr(prim, attr)
    if not isinstance(value, str) or value.upper() not in (c.upper() for c in choices):
        raise ValueError(f"For '{prim.name}', the '{attr}' must be one of {list(choices)}, but got "
                         f"{value!r}.")
    value = value.upper() if upper else value.lower()
    prim._set_prim_arg(attr, value)
    return value


def pair(value: Any, name: str, prim: str, allow_four: bool = True) -> tuple[int, int]:
    """An int, a pair or (with ``allow_four``) an NCHW 4-tuple whose first two entries are 1, as the (H, W)
    pair MindSpore's 2-D operators take for kernel sizes, strides and dilations."""
    if isinstance(value, int) and not isinstance(value, bool):
        out = (value, value)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        out = (int(value[0]), int(value[1]))
    elif allow_four and isinstance(value, (tuple, list)) and len(value) == 4:
        out = (int(value[2]), int(value[3]))
    else:
        allowed = "an int, a tuple of 2 ints" + (" or of 4 ints" if allow_four else "")
        raise ValueError(f"For '{prim}', the '{name}' must be {allowed}, but got {value!r}.")
    if min(out) < 1:
        raise ValueError(f"For '{prim}', the '{name}' must be positive, but got {value!r}.")
    return out


def dtype_of(value: Any) -> dtypes.DType:
    return dtypes.dtype(value)


def assign_to(var: Tensor, value: Any, op: str = "Assign") -> Tensor:
    """Give ``var`` the value ``value`` in place (cast to ``var``'s dtype, broadcast to its shape), as
    MindSpore's Assign does to a Parameter; returns the updated value: for a Parameter a Tensor holding it
    (MindSpore's operators return their output, not the Parameter: ``print`` shows the values), for a plain
    Tensor ``var`` itself.

    A Parameter keeps its identity (and bumps its version, so compiled cells re-read it); while a graph is
    traced, the graph reads the new value wherever it reads ``var`` from then on.
    """
    if not isinstance(var, Tensor):
        raise TypeError(f"For '{op}', the variable to update must be a Parameter or Tensor, but got "
                        f"{type(var).__name__}")
    from cellonnx.ops.prims.math import cast
    from cellonnx.ops.prims.shape import broadcast_to

    new = to_tensor(value, var)
    if new._data.dtype != var._data.dtype:
        new = cast(new, var._data.dtype)
    if new._data.shape != var._data.shape:
        if np.broadcast_shapes(new._data.shape, var._data.shape) != var._data.shape:
            raise ValueError(f"For '{op}', the value of shape {tuple(new.shape)} cannot be assigned to a "
                             f"variable of shape {tuple(var.shape)}")
        new = broadcast_to(new, var.shape)
    arr = new._data
    if (isinstance(value, Tensor) and arr is value._data) or not arr.flags.writeable or arr.base is not None:
        arr = np.array(arr, copy=True)
    hook = registry.TRACE_HOOK
    tracing = hook is not None
    if hook is not None:
        from cellonnx.ops.prims.getitem import IndexRebind
        hook(IndexRebind._instance, (new,), {}, (var,))
    if isinstance(var, Parameter):
        if not tracing:
            var._assign_array(arr)
        return new
    var._data = arr
    return var
