"""The ``Custom`` operator of symbol graphs: a Python operator registered with ``mx.operator.register``. Its
node keeps ``op_type`` and the operator's own keyword arguments as attribute strings (as MXNet does); the
registered CustomOpProp names its inputs (arguments, then auxiliary states) and outputs."""
from __future__ import annotations

from typing import Any

__all__ = ["custom_attrs", "custom_inputs", "custom_outputs", "custom_prop", "run_custom"]


def custom_prop(attrs: dict[str, str]) -> Any:
    """The registered CustomOpProp of a Custom node, made from its attributes."""
    from cellonnx.mxnet.base import MXNetError
    from cellonnx.mxnet.operator import _REGISTRY

    op_type = attrs.get("op_type")
    if op_type not in _REGISTRY:
        raise MXNetError(f"Custom: operator type {op_type!r} is not registered (registered: "
                         f"{sorted(_REGISTRY)}); use @mx.operator.register(name) before building or loading "
                         "the graph")
    return _REGISTRY[op_type](**custom_attrs(attrs, keep_type=False))


def custom_attrs(attrs: dict[str, str], keep_type: bool = True) -> dict[str, str]:
    """The node's attributes the operator takes (without MXNet's double-underscore ones)."""
    return {k: v for k, v in attrs.items()
            if not (k.startswith("__") and k.endswith("__")) and (keep_type or k != "op_type")}


def custom_inputs(attrs: dict[str, str]) -> list[str]:
    """The operator's input names: its arguments, then its auxiliary states."""
    prop = custom_prop(attrs)
    return list(prop.list_arguments()) + list(prop.list_auxiliary_states())


def custom_outputs(node_name: str, attrs: dict[str, str]) -> list[str]:
    """The node's output names, ``<node>_<output>``."""
    return [f"{node_name}_{o}" for o in custom_prop(attrs).list_outputs()]


def run_custom(*inputs: Any, op_type: str, **kwargs: Any) -> Any:
    """The interpreter's row of ``Custom``: the registered operator on the inputs (differentiable)."""
    from cellonnx.mxnet.operator import custom

    out = custom(*inputs, op_type=op_type, **kwargs)
    return tuple(out) if isinstance(out, list) else out
