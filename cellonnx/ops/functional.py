"""MindSpore's ``mindspore.ops.functional`` (imported as ``F``): every functional op of ``cellonnx.ops``
(``F.relu``, ``F.reshape`` ...), the small Python-level helpers (``F.make_tuple``, ``F.scalar_add``,
``F.depend`` ...), the operator instances (``F.tensor_add`` is an ``ops.Add()``) and the gradient
transforms (``F.grad``, ``F.jvp``, ``F.vmap`` ...). The objects are ``cellonnx.ops``'s own.
"""
from __future__ import annotations

from typing import Any

from cellonnx import ops as _ops

# everything of cellonnx.ops that is a function or an operator instance; the operator classes stay in
# cellonnx.ops / cellonnx.ops.operations
__all__ = sorted(name for name in _ops.__all__ if not isinstance(getattr(_ops, name), type))
globals().update({name: getattr(_ops, name) for name in __all__})

# the operator classes and modules MindSpore's functional module also carries
_ALSO = ("AdaptiveMaxPool2D", "Roll", "TensorToTuple", "P", "array_ops", "other_ops", "linalg_ops", "Median",
         "UniqueConsecutive")
globals().update({name: getattr(_ops, name) for name in _ALSO})
__all__ += list(_ALSO)


def __getattr__(name: str) -> Any:
    from cellonnx.unsupported import placeholder
    stub = placeholder(("mindspore.ops.functional", "mindspore.ops"), name)
    if stub is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return stub
