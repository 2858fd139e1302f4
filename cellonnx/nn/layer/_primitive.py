"""Operator instances as MindSpore's layers hold them (``self.celu = ops.CeLU(alpha)``, later
``self.celu(x)``): a functional op with its attributes bound. Subclasses of the layers call these attributes,
so the layers keep them under MindSpore's names."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Primitive:
    """``fn`` with keyword attributes bound; called with the operator's inputs.

    Args:
        name: MindSpore's operator class name (shown by repr, as MindSpore prints ``Prim[CeLU]``).
        fn: the functional op.
        attrs: the operator's attributes, passed to ``fn`` as keywords.
    """

    def __init__(self, name: str, fn: Callable[..., Any], **attrs: Any) -> None:
        self.name = name
        self.fn = fn
        self.attrs = attrs

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **self.attrs, **kwargs)

    def __repr__(self) -> str:
        return f"Prim[{self.name}]"
