"""ONNX shape, indexing and layout operators as MXNet operators (reshape, transpose, expand_dims, split,
slice_axis, take, pad, topk ...). Shapes, axes and pads that MXNet takes as attributes must be constants
in the ONNX file (initializers or Constant nodes)."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx.mxnet import symbol as S
from cellonnx.mxnet.contrib.onnx.onnx2mx._fold import DYNAMIC
from cellonnx.mxnet.contrib.onnx.onnx2mx._node import Node

__all__ = ["TABLE", "pad_width"]

_INT_MAX = 2**31 - 1


def pad_width(pads: tuple[int, ...]) -> tuple[int, ...]:
    """ONNX pads (x1_begin, x2_begin ..., x1_end, x2_end ...) as MXNet's (x1_begin, x1_end, x2_begin ...)."""
    half = len(pads) // 2
    return tuple(int(v) for pair in zip(pads[:half], pads[half:]) for v in pair)


def _axes(n: Node, attr: str = "axes") -> tuple[int, ...] | None:
    if attr in n.attrs:
        return tuple(int(a) for a in n.attrs[attr])
    return n.ints(1) if n.has(1) else None


def _reshape(n: Node) -> Any:
    shape = tuple(n.attrs["shape"]) if "shape" in n.attrs else n.ints(1, dynamic=True)
    if any(d <= DYNAMIC // 2 for d in shape):  # a run-time dimension: MXNet's 0 copies it in place
        if any(d <= DYNAMIC // 2 and DYNAMIC - d != i for i, d in enumerate(shape)):
            raise n.error(f"the target shape moves a dimension known only at run time: {shape}")
        shape = tuple(0 if d <= DYNAMIC // 2 else d for d in shape)
    if n.attrs.get("allowzero", 0) and 0 in shape:
        raise n.error("allowzero=1 with a 0 in the shape has no MXNet counterpart (0 copies a dimension)")
    return S.reshape(n.inputs[0], shape=shape, **n.named())


def _flatten(n: Node) -> Any:
    axis = n.attrs.get("axis", 1)
    if axis == 1:
        return S.Flatten(n.inputs[0], **n.named())
    if axis == 0:
        return S.reshape(n.inputs[0], shape=(1, -1), **n.named())
    rank = n.rank(0)
    if rank is None:
        raise n.error(f"axis={axis} needs the rank of the input")
    axis = axis % rank
    leading = S.reshape(n.inputs[0], shape=(-1,) + (0,) * (rank - axis), reverse=True)
    return S.Flatten(leading, **n.named())


def _transpose(n: Node) -> Any:
    kwargs = {"axes": tuple(n.attrs["perm"])} if "perm" in n.attrs else {}
    return S.transpose(n.inputs[0], **kwargs, **n.named())


def _squeeze(n: Node) -> Any:
    axes = _axes(n)
    return S.squeeze(n.inputs[0], **({"axis": axes} if axes else {}), **n.named())


def _unsqueeze(n: Node) -> Any:
    axes = _axes(n) or ()
    if any(a < 0 for a in axes):
        rank = n.rank(0)
        if rank is None:
            raise n.error("negative axes need the rank of the input")
        axes = tuple(a % (rank + len(axes)) for a in axes)
    out = n.inputs[0]
    for axis in sorted(axes):
        out = S.expand_dims(out, axis=axis)
    return out


def _concat(n: Node) -> Any:
    return S.concat(*n.inputs, dim=n.attrs.get("axis", 1), **n.named())


def _split(n: Node) -> Any:
    axis = n.attrs.get("axis", 0)
    parts = tuple(n.attrs["split"]) if "split" in n.attrs else (n.ints(1) if n.has(1) else None)
    count = len(n.proto.output)
    if parts is None or len(set(parts)) == 1:
        return S.split(n.inputs[0], axis=axis, num_outputs=count, **n.named())
    starts = np.cumsum((0,) + parts)
    return S.Group([S.slice_axis(n.inputs[0], axis=axis, begin=int(b), end=int(e))
                    for b, e in itertools.pairwise(starts)])


def _slice(n: Node) -> Any:
    if n.opset >= 10:
        starts, ends = n.ints(1), n.ints(2)
        axes = n.ints(3) if n.has(3) else tuple(range(len(starts)))
        steps = n.ints(4) if n.has(4) else (1,) * len(starts)
    else:
        starts, ends = tuple(n.attrs["starts"]), tuple(n.attrs["ends"])
        axes = tuple(n.attrs.get("axes", range(len(starts))))
        steps = (1,) * len(starts)
    out = n.inputs[0]
    for begin, end, axis, step in zip(starts, ends, axes, steps):
        stop: int | None = None if end >= _INT_MAX or end <= -_INT_MAX else end
        if step == 1 and stop is not None:
            out = S.slice_axis(out, axis=axis, begin=begin, end=stop)
            continue
        if axis < 0:
            rank = n.rank(0)
            if rank is None:
                raise n.error("a negative axis with a step needs the rank of the input")
            axis %= rank
        lead = (None,) * axis
        start: int | None = None if abs(begin) >= _INT_MAX else begin
        out = S.slice(out, begin=lead + (start,), end=lead + (stop,), step=lead + (step,))
    return out


def _gather(n: Node) -> Any:
    return S.take(n.inputs[0], n.inputs[1], axis=n.attrs.get("axis", 0), mode="wrap", **n.named())


def _pad(n: Node) -> Any:
    mode = n.attrs.get("mode", "constant")
    if n.opset >= 11:
        pads = n.ints(1)
        value = float(n.const(2).reshape(-1)[0]) if n.has(2) else 0.0
        if n.has(3):
            raise n.error("the axes input has no MXNet counterpart (pad_width covers every axis)")
    else:
        pads, value = tuple(n.attrs.get("pads", n.attrs.get("paddings", ()))), n.attrs.get("value", 0.0)
    kwargs = {"constant_value": value} if mode == "constant" else {}
    return S.pad(n.inputs[0], mode=mode, pad_width=pad_width(pads), **kwargs, **n.named())


def _space(op: str) -> Callable[[Node], Any]:
    def translate(n: Node) -> Any:
        if n.attrs.get("mode", "DCR") != "DCR":
            raise n.error(f"mode={n.attrs['mode']!r}: MXNet's {op} is DCR only")
        return getattr(S, op)(n.inputs[0], block_size=n.attrs["blocksize"], **n.named())
    return translate


def _topk(n: Node) -> Any:
    k = n.ints(1)[0] if n.opset >= 10 else n.attrs["k"]
    return S.topk(n.inputs[0], axis=n.attrs.get("axis", -1), k=k, ret_typ="both",
                  is_ascend=not n.attrs.get("largest", 1), dtype="int64", **n.named())


def _expand(n: Node) -> Any:
    shape = n.ints(1)
    x, rank = n.inputs[0], n.rank(0)
    if rank is None:
        raise n.error("Expand needs the rank of its input")
    for _ in range(len(shape) - rank):
        x = S.expand_dims(x, axis=0)
    target = (0,) * (rank - len(shape)) + tuple(0 if d == 1 else d for d in shape)
    return S.broadcast_to(x, shape=target, **n.named())


def _tile(n: Node) -> Any:
    return S.tile(n.inputs[0], reps=n.ints(1), **n.named())


def _where(n: Node) -> Any:
    return S.where(*n.inputs[:3], **n.named())


TABLE: dict[str, Callable[[Node], Any]] = {
    "Reshape": _reshape, "Flatten": _flatten, "Transpose": _transpose, "Squeeze": _squeeze,
    "Unsqueeze": _unsqueeze, "Concat": _concat, "Split": _split, "Slice": _slice, "Gather": _gather,
    "Shape": lambda n: S.shape_array(n.inputs[0], **n.named()),
    "Size": lambda n: S.size_array(n.inputs[0], **n.named()),
    "Pad": _pad, "DepthToSpace": _space("depth_to_space"), "SpaceToDepth": _space("space_to_depth"),
    "TopK": _topk, "Expand": _expand, "Tile": _tile, "Where": _where,
}
