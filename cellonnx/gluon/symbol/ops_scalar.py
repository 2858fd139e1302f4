"""The scalar forms of MXNet's binary operators (``_plus_scalar``, ``_rdiv_scalar``, ``_greater_scalar`` ...):
what ``x + 2`` on a Symbol writes into a graph. The array's dtype is kept, comparisons give 1 / 0 in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cellonnx.mxnet._op.elemwise import BINARY, LEGACY_COMPARE
from cellonnx.tensor import Tensor

__all__ = ["SCALAR"]


def _scalar(name: str, reverse: bool = False) -> Callable[..., Tensor]:
    fn = BINARY.get(name) or LEGACY_COMPARE[name]

    def op(data: Tensor, scalar: float = 1.0, is_int: bool = True, **_: Any) -> Tensor:
        value = (
            int(scalar) if data._data.dtype.kind in "iub" and float(scalar).is_integer() else float(scalar)
        )
        return fn(value, data) if reverse else fn(data, value)

    op.__name__ = f"_{'r' if reverse else ''}{name}_scalar"
    return op


SCALAR: dict[str, Callable[..., Tensor]] = {
    "_plus_scalar": _scalar("add"),
    "_minus_scalar": _scalar("sub"),
    "_rminus_scalar": _scalar("sub", True),
    "_mul_scalar": _scalar("mul"),
    "_div_scalar": _scalar("div"),
    "_rdiv_scalar": _scalar("div", True),
    "_mod_scalar": _scalar("mod"),
    "_rmod_scalar": _scalar("mod", True),
    "_power_scalar": _scalar("power"),
    "_rpower_scalar": _scalar("power", True),
    "_maximum_scalar": _scalar("maximum"),
    "_minimum_scalar": _scalar("minimum"),
    "_hypot_scalar": _scalar("hypot"),
    "_equal_scalar": _scalar("equal"),
    "_not_equal_scalar": _scalar("not_equal"),
    "_greater_scalar": _scalar("greater"),
    "_greater_equal_scalar": _scalar("greater_equal"),
    "_lesser_scalar": _scalar("lesser"),
    "_lesser_equal_scalar": _scalar("lesser_equal"),
    "_logical_and_scalar": _scalar("logical_and"),
    "_logical_or_scalar": _scalar("logical_or"),
    "_logical_xor_scalar": _scalar("logical_xor"),
}
