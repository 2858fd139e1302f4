"""Operator instances as MindSpore's layers hold them (``self.celu = ops.CeLU(alpha)``, later
``self.celu(x)``): a functional op with its attributes bound. Subclasses of the layers call these attributes,
so the layers keep them under MindSpore's names. They are ``ops.Primitive`` objects (``add_prim_attr``,
``set_device``, ``shard``, ``recompute`` and the bound attributes read as ``prim.<name>``, as on the operator
classes of cellonnx/ops/operations)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.ops.primitive import Primitive as _OperatorPrimitive


class Primitive(_OperatorPrimitive):
    """``fn`` with keyword attributes bound; called with the operator's inputs.

    Args:
        name: MindSpore's operator class name (shown by repr, as MindSpore prints ``Prim[CeLU]``).
        fn: the functional op.
        attrs: the operator's attributes, passed to ``fn`` as keywords (and recorded as primitive
            attributes).
    """

    def __init__(self, name: str, fn: Callable[..., Any], **attrs: Any) -> None:
        super().__init__(name)
        self.fn = fn
        self.bound = attrs
        for key, value in attrs.items():
            self.add_prim_attr(key, value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **self.bound, **kwargs)
