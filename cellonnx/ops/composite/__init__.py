"""Composite operations. The modules here are functions written over the primitives (losses, math); the
package itself is MindSpore's ``mindspore.ops.composite`` (imported as ``C``): GradOperation, HyperMap, Map,
MultitypeFuncGraph, ``add_flags``, the ``augassign_*`` functions ..., and the functional ops MindSpore
re-exports there (``C.matmul``, ``C.normal`` ...: the same objects as ``cellonnx.ops``'s).
"""
from __future__ import annotations

from typing import Any

from cellonnx.autograd.grad import GradOperation
from cellonnx.ops.composite.base import *
from cellonnx.ops.composite.base import __all__ as _base_all
from cellonnx.ops.composite.vmap import _Vmap

__all__ = ["GradOperation", "_Vmap", *_base_all]

# MindSpore's composite namespace re-exports these functional ops; they are cellonnx.ops's, looked up when
# asked for (this package is imported while cellonnx.ops is still being built)
_FROM_OPS = ("batch_dot", "clip_by_global_norm", "clip_by_value", "count_nonzero", "cummin", "dot", "gamma",
             "laplace", "mm", "multinomial", "normal", "ones_like", "poisson", "repeat_elements",
             "repeat_interleave", "sequence_mask", "tensor_dot", "uniform", "vecdot")


def matmul(x1: Any, x2: Any, dtype: Any = None) -> Any:
    """``C.matmul(x1, x2, dtype=None)``: ``ops.matmul``, the result cast to ``dtype`` when it is given (the
    NumPy-style matmul MindSpore's composite namespace carries)."""
    import cellonnx.ops as ops
    out = ops.matmul(x1, x2)
    return out if dtype is None else ops.cast(out, dtype)


def zeros_like(x: Any) -> Any:
    """``C.zeros_like(x)``: zeros of ``x``'s shape and dtype (MindSpore's composite takes no dtype)."""
    import cellonnx.ops as ops
    return ops.zeros_like(x)


__all__ += ["matmul", "zeros_like"]


def __getattr__(name: str) -> Any:
    if name in _FROM_OPS:
        import cellonnx.ops as ops
        found = vars(ops).get(name)
        if found is not None:
            return found
    from cellonnx.unsupported import placeholder
    stub = placeholder(("mindspore.ops.composite", "mindspore.ops"), name)
    if stub is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return stub
