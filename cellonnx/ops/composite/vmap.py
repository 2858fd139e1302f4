"""``vmap``: map a function over an axis of its inputs by running it once per slice and stacking the results
(with a ``CellList``, cell i runs on slice i: model ensembling). Gradients and tracing see ordinary ops
(unbind and stack), so a vmapped function is differentiable and exportable with a fixed axis size."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.tensor import Tensor

__all__ = ["_Vmap", "vmap"]


def _in_axes_for(args: tuple, in_axes: Any) -> list[Any]:
    if isinstance(in_axes, (tuple, list)):
        if len(in_axes) != len(args):
            raise ValueError(f"vmap: in_axes has {len(in_axes)} entries for {len(args)} positional arguments")
        return list(in_axes)
    if in_axes is None or isinstance(in_axes, int):
        return [in_axes] * len(args)
    raise TypeError(f"vmap: in_axes must be an int, None, or a tuple / list of them, got {in_axes!r}")


def _sizes(arg: Any, axis: Any, found: list[int]) -> None:
    if axis is None:
        return
    if isinstance(arg, (tuple, list)):
        axes = axis if isinstance(axis, (tuple, list)) else [axis] * len(arg)
        if len(axes) != len(arg):
            raise ValueError(f"vmap: in_axes {axis} does not match an input sequence of length {len(arg)}")
        for a, ax in zip(arg, axes):
            _sizes(a, ax, found)
        return
    if not isinstance(arg, Tensor):
        raise TypeError(f"vmap: an input mapped along axis {axis} must be a Tensor, got {type(arg).__name__}")
    if not -arg.ndim <= axis < arg.ndim:
        raise ValueError(f"vmap: axis {axis} is out of range for an input of shape {tuple(arg.shape)}")
    found.append(int(arg.shape[axis]))


def _slices(arg: Any, axis: Any, size: int) -> list[Any]:
    """``arg``'s slice for each mapped index (the argument itself where it is not mapped)."""
    from cellonnx.ops import unbind
    if axis is None:
        return [arg] * size
    if isinstance(arg, (tuple, list)):
        axes = axis if isinstance(axis, (tuple, list)) else [axis] * len(arg)
        parts = [_slices(a, ax, size) for a, ax in zip(arg, axes)]
        return [type(arg)(p[i] for p in parts) for i in range(size)]
    return list(unbind(arg, axis))


def _stack(outs: list[Any], out_axes: Any, what: str) -> Any:
    from cellonnx.ops import stack
    first = outs[0]
    if isinstance(first, (tuple, list)):
        axes = out_axes if isinstance(out_axes, (tuple, list)) else [out_axes] * len(first)
        if len(axes) != len(first):
            raise ValueError(f"vmap: out_axes {out_axes} does not match an output of {len(first)} elements")
        return type(first)(_stack([o[i] for o in outs], ax, what) for i, ax in enumerate(axes))
    if out_axes is None:
        return first
    tensors = [o if isinstance(o, Tensor) else Tensor(o) for o in outs]
    nd = tensors[0].ndim + 1
    if not -nd <= out_axes < nd:
        raise ValueError(f"vmap: out_axes {out_axes} is out of range for outputs of rank {nd - 1} "
                         "(+1 mapped)")
    return stack(tensors, out_axes)


def vmap(fn: Any, in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
    """Vectorizing map: ``fn`` mapped along the axes ``in_axes`` of its inputs.

    Args:
        fn (Union[Cell, Function, CellList]): the function (with a CellList, its i-th cell takes the i-th
        slice).
        in_axes (Union[int, list, tuple]): the mapped axis of each positional input (None: not mapped; nested
        for
            tuple inputs). Default: ``0``.
        out_axes (Union[int, list, tuple]): where the mapped axis goes in each output (None: the output is the
            same for every slice). Default: ``0``.

    Returns:
        The mapped function.

    Raises:
        ValueError: no input is mapped, or the mapped axes differ in size.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), ms.float32)
        >>> print(ops.vmap(lambda row: row.sum())(x))
        [3. 7.]
    """
    cells = list(fn) if any(c.__name__ == "CellList" for c in type(fn).__mro__) else None

    def mapped(*args: Any) -> Any:
        axes = _in_axes_for(args, in_axes)
        found: list[int] = []
        for arg, ax in zip(args, axes):
            _sizes(arg, ax, found)
        if not found:
            raise ValueError("vmap: in_axes must map at least one input along an axis")
        if len(set(found)) != 1:
            raise ValueError(f"vmap: the mapped axes of the inputs must have one size, got {found}")
        size = found[0]
        if cells is not None and len(cells) != size:
            raise ValueError(f"vmap: a CellList of {len(cells)} cells mapped over an axis of size {size}")
        per_arg = [_slices(arg, ax, size) for arg, ax in zip(args, axes)]
        outs = []
        for i in range(size):
            f = cells[i] if cells is not None else fn
            outs.append(f(*(p[i] for p in per_arg)))
        return _stack(outs, out_axes, "vmap")

    return mapped


class _Vmap:
    """MindSpore's vmap operation: ``_Vmap()(fn, in_axes, out_axes)`` is ``vmap(fn, in_axes, out_axes)``."""

    def __call__(self, fn: Any, in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
        return vmap(fn, in_axes, out_axes)
