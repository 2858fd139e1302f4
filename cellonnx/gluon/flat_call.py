"""A block called on the tensors of nested arguments, one graph input each (what ``HybridBlock.export``
traces when a block takes lists of tensors: a recurrent model's ``(inputs, [h, c])``, as MXNet's exported
graph takes data0, data1, data2)."""
from __future__ import annotations

import inspect
from typing import Any

from cellonnx.tensor import Tensor

__all__ = ["FlatCall", "is_nested", "leaves"]


def is_nested(args: tuple) -> bool:
    """Whether a list or tuple argument holds tensors."""
    return any(type(a) in (list, tuple) and _leaves(a) for a in args)


def leaves(args: tuple) -> tuple:
    """The tensors of ``args``, lists and tuples flattened, in order."""
    return tuple(_leaves(list(args)))


def _leaves(a: Any) -> list[Tensor]:
    if type(a) in (list, tuple):
        return [leaf for x in a for leaf in _leaves(x)]
    return [a] if isinstance(a, Tensor) else []


def _names(name: str, a: Any) -> list[str]:
    if type(a) in (list, tuple):
        return [n for i, x in enumerate(a) for n in _names(f"{name}{i}", x)]
    return [name] if isinstance(a, Tensor) else []


class FlatCall:
    """``block(*args)`` as a function of the tensors inside ``args`` (lists and tuples flattened in order,
    named after the block's arguments: ``hidden`` -> ``hidden0``, ``hidden1``); the rest of ``args`` kept
    as given. Traced as a cell: its parameters are the block's."""

    def __init__(self, block: Any, args: tuple) -> None:
        self.block, self.args = block, args
        try:
            arg_names = [p.name for p in inspect.signature(block.forward).parameters.values()
                         if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            arg_names = []
        arg_names += [f"data{i}" for i in range(len(arg_names), len(args))]
        names = [n for name, a in zip(arg_names, args) for n in _names(name, a)]
        self.leaves = _leaves(list(args))

        def construct(*tensors: Tensor) -> Any:
            return self.block(*self._rebuild(list(tensors)))
        construct.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])
        self.construct = construct

    def structure(self) -> Any:
        """``args`` with each tensor replaced by 'T' and other values by their repr: what, besides the
        tensors' signatures, a compiled graph of this call depends on."""
        def shape(a: Any) -> Any:
            if type(a) in (list, tuple):
                return (type(a).__name__, *(shape(x) for x in a))
            return "T" if isinstance(a, Tensor) else repr(a)
        return tuple(shape(a) for a in self.args)

    def _rebuild(self, tensors: list[Tensor]) -> list[Any]:
        it = iter(tensors)

        def put(a: Any) -> Any:
            if type(a) in (list, tuple):
                return type(a)(put(x) for x in a)
            return next(it) if isinstance(a, Tensor) else a
        return [put(a) for a in self.args]

    @property
    def training(self) -> bool:
        return bool(getattr(self.block, "training", False))

    def set_train(self, mode: bool = True) -> Any:
        return self.block.set_train(mode)

    def parameters_and_names(self) -> Any:
        return self.block.parameters_and_names()

    def named_buffers(self) -> Any:
        return self.block.named_buffers()

    def __call__(self, *tensors: Tensor) -> Any:
        return self.construct(*tensors)
