"""Building MXNet symbol graphs in Python, as ``mx.sym.<Operator>(...)`` does: an operator applied to Symbols
becomes a node named by the current NameManager (``fullyconnected0``), its attributes kept as MXNet writes
them (``str(value)``: ``"(3, 3)"``, ``"True"``, ``"1e-05"``), the attributes of the current AttrScope added,
and every input left out becomes a variable named ``<node>_<input>`` (``fullyconnected0_weight``) carrying the
node's attributes. The operators' input lists come from MXNet 1.9.1's signatures (spec.py), less the inputs
the attributes switch off (``no_bias``, LeakyReLU's gamma outside 'prelu', RNN's cell state outside LSTM).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from cellonnx.gluon.naming import current_manager
from cellonnx.gluon.symbol.graph import HIDDEN_KEYS
from cellonnx.gluon.symbol.spec import OpSpec, canonical, op_spec

__all__ = ["AttrScope", "create", "hidden_key", "node_inputs"]


class AttrScope:
    """Attributes given to every symbol created in the scope (``with AttrScope(ctx_group='dev1'):``); scopes
    nest, the inner one winning. Values must be strings.

    Args:
        kwargs: the attributes.

    Examples:
        >>> import cellonnx.mxnet as mx
        >>> with mx.AttrScope(group='4', data='great'):
        ...     data = mx.sym.Variable('data', attr={'dtype': 'data', 'group': '1'})
        >>> sorted(data.list_attr().items())
        [('data', 'great'), ('dtype', 'data'), ('group', '1')]
    """

    _current = threading.local()

    def __init__(self, **kwargs: str) -> None:
        self._old_scope: AttrScope | None = None
        for value in kwargs.values():
            if not isinstance(value, str):
                raise ValueError("Attributes need to be string")
        self._attr = kwargs

    def get(self, attr: dict[str, str] | None) -> dict[str, str]:
        """The scope's attributes updated with ``attr`` (what the user passed)."""
        if self._attr:
            ret = self._attr.copy()
            if attr:
                ret.update(attr)
            return ret
        return dict(attr) if attr else {}

    def __enter__(self) -> AttrScope:
        self._old_scope = current_scope()
        attr = self._old_scope._attr.copy()
        attr.update(self._attr)
        self._attr = attr
        AttrScope._current.value = self
        return self

    def __exit__(self, *exc: Any) -> None:
        assert self._old_scope is not None
        AttrScope._current.value = self._old_scope


def current_scope() -> AttrScope:
    scope = getattr(AttrScope._current, "value", None)
    if scope is None:
        scope = AttrScope._current.value = AttrScope()
    return scope


def hidden_key(key: str) -> str | None:
    """``__lr_mult__`` for ``lr_mult`` (and for itself): the spelling MXNet stores the per-node training keys
    under; None for other keys."""
    plain = key[2:-2] if key.startswith("__") and key.endswith("__") else key
    return f"__{plain}__" if plain in HIDDEN_KEYS else None


def _true(text: str | None) -> bool:
    return text is not None and text.strip().lower() in ("true", "1")


def node_inputs(op: str, attrs: dict[str, str]) -> list[str] | None:
    """The names of operator ``op``'s inputs given its attribute strings; None when the inputs are a variadic
    list (Concat, add_n ...)."""
    spec = op_spec(op)
    if spec is None:
        raise ValueError(f"unknown operator {op!r} (not an operator of MXNet 1.9.1)")
    if spec.name == "Custom":
        from cellonnx.gluon.symbol.custom_op import custom_inputs

        return custom_inputs(attrs)
    if spec.variadic is not None:
        return None
    names = list(spec.inputs)
    name = spec.name
    no_bias = attrs.get("no_bias", spec.attrs["no_bias"].default if "no_bias" in spec.attrs else None)
    if "bias" in names and _true(no_bias):
        names.remove("bias")
    if name == "LeakyReLU" and attrs.get("act_type", "leaky") != "prelu":
        names.remove("gamma")
    elif name == "RNN":
        names = ["data", "parameters", "state"]
        if attrs.get("mode") == "lstm":
            names.append("state_cell")
        if _true(attrs.get("use_sequence_length")):
            names.append("sequence_length")
    elif name in ("softmax", "masked_softmax") and "length" in names and not _true(attrs.get("use_length")):
        names.remove("length")
    elif "sequence_length" in names and not _true(attrs.get("use_sequence_length")):
        names.remove("sequence_length")
    elif name == "CTCLoss":
        for flag, inp in (("use_data_lengths", "data_lengths"), ("use_label_lengths", "label_lengths")):
            if not _true(attrs.get(flag)):
                names.remove(inp)
    elif name == "_contrib_BilinearResize2D" and attrs.get("mode", "size") not in ("like", "to_even_down",
                                                                                   "to_even_up"):
        names.remove("like")
    elif name == "_histogram" and attrs.get("bin_cnt", "None") != "None":
        names.remove("bins")  # bin_cnt equal bins over range, no bin-edges input
    return names


def attr_text(key: str, value: Any) -> str:
    """An attribute value as MXNet's Python front end writes it (``str(value)``; dtypes by name)."""
    if key == "dtype" and value is not None and not isinstance(value, str):
        dt = np.dtype(getattr(value, "np_dtype", value))
        return dt.names[0] if dt.names else dt.name
    if key == "dtype" and isinstance(value, str) and value not in ("None",):
        try:
            return np.dtype(value).name
        except TypeError:
            return value
    return str(value)


def create(op: str, hint: str, args: list[Any], kwargs: dict[str, Any], *, symbol_cls: type,
           signature: Any = None) -> Any:
    """The Symbol of operator ``op`` applied to ``args`` / ``kwargs`` (Symbols are inputs, everything else an
    attribute; ``name`` and ``attr`` as MXNet takes them), named from ``hint`` when no name is given."""
    from cellonnx.gluon.symbol.symbol import SymNode, is_symbol

    spec = op_spec(op)
    if spec is None:
        raise ValueError(f"unknown operator {op!r} (not an operator of MXNet 1.9.1)")
    kwargs = dict(kwargs)
    kwargs.pop("out", None)
    name = kwargs.pop("name", None)
    user_attr = kwargs.pop("attr", None)
    scoped = current_scope().get(user_attr)
    sym_kwargs = {k: v for k, v in kwargs.items() if is_symbol(v)}
    params = {k: v for k, v in kwargs.items() if not is_symbol(v) and v is not None}
    sym_args = [a for a in args if is_symbol(a)]
    extra = [a for a in args if not is_symbol(a)]
    if extra:
        _positional_params(op, spec, signature, extra, params)
    if spec.variadic is not None and spec.variadic and spec.variadic not in params:
        params[spec.variadic] = len(sym_args) + len(sym_kwargs)
    attrs: dict[str, str] = {}
    for key, value in scoped.items():
        hidden = hidden_key(key)
        if hidden is not None:
            attrs[hidden] = str(value)
        elif key.startswith("__") and key.endswith("__"):
            attrs[key] = str(value)
        else:
            params.setdefault(key, value)
    for key, value in params.items():
        if spec.name == "Custom":  # a Python operator's own keyword arguments, kept as strings
            attrs[key] = str(value)
            continue
        if key not in spec.attrs and key != spec.variadic:
            hidden = hidden_key(key)
            if hidden is None and not (key.startswith("__") and key.endswith("__")):
                raise ValueError(
                    f"Cannot find argument '{key}' of operator {spec.name}; it takes "
                    f"{', '.join(sorted(spec.attrs)) or 'no attributes'}"
                )
            attrs[hidden or key] = str(value)
            continue
        attrs[key] = attr_text(key, value)
    missing = [k for k, a in spec.attrs.items() if a.required and k not in attrs]
    if missing:
        raise ValueError(f"{spec.name}: required argument(s) {', '.join(missing)} missing")
    node_name = current_manager().get(name, hint)
    names = node_inputs(spec.name, attrs)
    inputs: list[tuple[SymNode, int]] = []
    if names is None:
        if sym_args and sym_kwargs:
            raise TypeError(
                "Operators with variable length input can only accept input Symbols either as positional or "
                "keyword arguments, not both"
            )
        for s in sym_args or list(sym_kwargs.values()):
            inputs.extend(s._single_entry(spec.name))
    else:
        if len(sym_args) > len(names):
            raise TypeError(
                f"{spec.name} takes {len(names)} input(s) ({', '.join(names)}), got {len(sym_args)}"
            )
        given = dict(zip(names, sym_args))
        for k, v in sym_kwargs.items():
            if k not in names:
                raise TypeError(
                    f"{spec.name} has no input '{k}'; its inputs are {', '.join(names) or 'none'}"
                )
            if k in given:
                raise TypeError(f"{spec.name}: input '{k}' given twice")
            given[k] = v
        for input_name in names:
            if input_name in given:
                inputs.extend(given[input_name]._single_entry(spec.name))
            else:
                var_attrs = dict(attrs)
                if (spec.name, input_name) in _VAR_INIT:
                    var_attrs["__init__"] = _VAR_INIT[(spec.name, input_name)]
                var = SymNode("null", f"{node_name}_{input_name}", var_attrs, [])
                inputs.append((var, 0))
    node = SymNode(spec.name, node_name, attrs, inputs)
    return symbol_cls._of_node(node)


# the initializers operators give the variables MXNet creates for them (batch norms' moving statistics ...)
_VAR_INIT = {
    **{(op, "moving_mean"): '["zero", {}]' for op in ("BatchNorm", "BatchNorm_v1", "_contrib_SyncBatchNorm")},
    **{(op, "moving_var"): '["one", {}]' for op in ("BatchNorm", "BatchNorm_v1", "_contrib_SyncBatchNorm")},
    ("LeakyReLU", "gamma"): '["Constant", {"value": 0.25}]',
    ("IdentityAttachKLSparseReg", "moving_avg"): '["zero", {}]',
}


def _positional_params(
    op: str, spec: OpSpec, signature: Any, values: list[Any], params: dict[str, Any]
) -> None:
    """Positional attribute values, in the order of MXNet's Python signature (from ``signature``, mx.nd's
    function of the same operator, or the interpreter's, which keep MXNet's argument order)."""
    import inspect

    from cellonnx.gluon.symbol.table import row_of

    row = row_of(spec.name)
    fn = signature if signature is not None else None if row is None else row.fn
    names: list[str] = []
    if fn is not None:
        try:
            sig = inspect.signature(fn)
            names = [p.name for p in sig.parameters.values()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            names = []
    names = [n for n in names if n in spec.attrs]
    if len(values) > len(names):
        raise TypeError(f"{op}: positional arguments after the input Symbols must be its attributes in "
                        f"order; got {len(values)} value(s) {values!r}")
    for n, v in zip(names, values):
        if n in params:
            raise TypeError(f"{op}: argument '{n}' given twice")
        params[n] = v


def canonical_name(op: str) -> str:
    """The operator name a symbol.json records for ``op`` (an alias names its canonical operator)."""
    c = canonical(op)
    if c is None:
        raise ValueError(f"unknown operator {op!r} (not an operator of MXNet 1.9.1)")
    return c
