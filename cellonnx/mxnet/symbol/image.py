"""mx.sym.image: MXNet's image operators as graph nodes on Symbols (``_image_to_tensor`` ...), and their
computation on arrays while a hybridized block is traced (``F.image`` in hybrid_forward)."""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from cellonnx.mxnet._docs import borrowed
from cellonnx.mxnet._op import wrap
from cellonnx.mxnet._op.image import IMAGE


def _operator(name: str, impl: Callable[..., Any]) -> Callable[..., Any]:
    made: list[Callable[..., Any]] = []

    def fn(*args: Any, **kwargs: Any) -> Any:
        if not made:  # mx.sym's node builder, once mx.sym has finished importing
            from cellonnx.mxnet import symbol

            eager = wrap(name, impl, symbol._TracedSymbol)
            made.append(symbol._dual(name, "_image_" + name, eager, impl))
        return made[0](*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = borrowed(impl.__doc__)
    return fn


for _name, _impl in IMAGE.items():
    setattr(sys.modules[__name__], _name, _operator(_name, _impl))

__all__ = list(IMAGE)
