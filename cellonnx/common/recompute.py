"""``mindspore.recompute``: run a Cell keeping only its inputs for the backward pass."""
from __future__ import annotations

from typing import Any

__all__ = ["recompute"]


def recompute(block: Any, *args: Any, use_reentrant: bool = True, output_recompute: bool = False,
              early_stop: bool = True, context_fn: Any = None, **kwargs: Any) -> Any:
    """Run ``block(*args)`` storing none of its intermediate activations: the backward pass runs ``construct``
    again (with the same random draws) and back-propagates through it. Same results as ``block(*args)``,
    less memory held between forward and backward.

    Args:
        block: the Cell.
        args, kwargs: its inputs.
        use_reentrant, output_recompute, early_stop: MindSpore's choices of mechanism; one mechanism here.
        context_fn: only with use_reentrant=False (as in MindSpore).

    Raises:
        TypeError: ``block`` is not a Cell.
        ValueError: ``context_fn`` given with ``use_reentrant=True``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> dense = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> print(ms.recompute(dense, x))
        [[3.]]
    """
    from cellonnx.nn.cell import Cell
    from cellonnx.nn.cell_hooks import run_recompute

    if not isinstance(block, Cell):
        raise TypeError(f"Recompute function only support Cell object, but got {type(block)}.")
    if output_recompute:
        use_reentrant = False
    if use_reentrant and context_fn is not None:
        raise ValueError("context_fn is only supported when use_reentrant=False.")
    return run_recompute(block, args, kwargs)
