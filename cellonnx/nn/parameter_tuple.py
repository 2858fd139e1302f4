"""ParameterTuple: a tuple of Parameters, as ``mindspore.ParameterTuple``."""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import Self

from cellonnx.tensor import Parameter


class ParameterTuple(tuple):
    """An immutable tuple of Parameters (optimizers' ``parameters``, ``value_and_grad(weights=...)``).

    Args:
        iterable: Parameters, or an iterable of them (a Cell's ``get_parameters()``).

    Examples:
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc1 = nn.Dense(3, 2)
        >>> net = Net()
        >>> params = ms.ParameterTuple(net.trainable_params())
        >>> moments = params.clone(prefix="moments", init="zeros")
        >>> moments[0].name
        'moments.fc1.weight'
    """

    def __new__(cls, iterable: Iterable[Any] = ()) -> Self:
        items = tuple(iterable)
        for i, x in enumerate(items):
            if not isinstance(x, Parameter):
                raise TypeError(f"ParameterTuple: item {i} is {type(x).__name__}, expected a Parameter")
        return tuple.__new__(cls, items)

    def clone(self, prefix: str, init: Any = "same") -> ParameterTuple:
        """New Parameters named ``prefix.<name>``, holding copies (``init='same'``) or ``init``'s values."""
        if not isinstance(prefix, str) or not prefix.strip():
            raise ValueError(f"ParameterTuple.clone: prefix must be a non-empty string, got {prefix!r}")
        out = []
        for p in self:
            q = p.clone(init)
            q.name = f"{prefix}.{p.name}"
            out.append(q)
        return ParameterTuple(out)

    def __parameter_tuple__(self) -> None:
        """Marks the type (MindSpore has the same hook for its graph compiler)."""
