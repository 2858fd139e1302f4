"""gluon.SymbolBlock: a trainable block over an MXNet symbol graph (``HybridBlock.export``'s
``name-symbol.json`` + ``name-0000.params``), run by the symbol interpreter.

Parameters are named as MXNet names them (``resnetv10_conv0_weight``); arguments get grad_req 'write',
auxiliary states (BatchNorm's moving statistics) 'null', and a training-mode pass (``autograd.record()``)
moves the auxiliary states as MXNet does. The block differentiates like any other, ``hybridize()`` compiles it
to ONNX, and ``export`` writes that graph with the weights as named initializers.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.autograd import no_grad
from cellonnx.converters import mxnet_format
from cellonnx.gluon import init as _init
from cellonnx.gluon.block_io import read_params
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.parameter import Parameter
from cellonnx.gluon.symbol.graph import Node, SymbolGraph
from cellonnx.gluon.symbol.interpreter import Program, Step, SymbolError
from cellonnx.gluon.symbol.param_shapes import input_names
from cellonnx.gluon.symbol.symbol import Group, Symbol, is_symbol, load
from cellonnx.tensor import Parameter as CoreParameter
from cellonnx.tensor import Tensor

__all__ = ["SymbolBlock"]

# MXNet's dtype flags, as symbol.json writes them in a variable's __dtype__
_TYPE_FLAGS = {
    0: "float32",
    1: "float64",
    2: "float16",
    3: "uint8",
    4: "int32",
    5: "int8",
    6: "int64",
    7: "bool",
    8: "int16",
    9: "uint16",
    10: "uint32",
    11: "uint64",
    12: "bfloat16",
}


class _BySuffix(_init.Initializer):
    """A parameter without an initializer of its own is filled as MXNet fills it: by its name's suffix
    (``_weight`` by the global initializer, ``_bias`` / ``_beta`` / moving means 0, ``_gamma`` / moving
    variances 1)."""

    def __init__(self, default: Any) -> None:
        super().__init__()
        self._default = _init.create(default) if default is not None else _init.Uniform()

    def _init_weight(self, name: str, arr: np.ndarray) -> None:
        self._default(name, arr)


def _as_symbol(value: Any, what: str) -> Symbol:
    if is_symbol(value):
        return value
    if isinstance(value, (list, tuple)) and value and all(is_symbol(v) for v in value):
        return Group(list(value))
    if isinstance(value, (str, os.PathLike)):
        return load(value)
    raise TypeError(
        f"SymbolBlock: {what} must be a Symbol (mx.sym.var / an operator, symbol.load, get_internals) or a "
        f"list of them, got {type(value).__name__}"
    )


def _input_names(inputs: Any) -> list[str]:
    if isinstance(inputs, str) or is_symbol(inputs):
        inputs = [inputs] if isinstance(inputs, str) or len(inputs) == 1 else list(inputs)
    names = []
    for i in inputs:
        if is_symbol(i):
            if len(i) != 1 or i._outputs[0][0].op != "null":
                raise ValueError(f"Input symbols must be variable, but {i!r} is an output of operators")
            names.append(i.name)
        elif isinstance(i, str):
            names.append(i)
        else:
            raise TypeError(
                f"SymbolBlock: inputs must be variable names or symbol.var(...), got {type(i).__name__}"
            )
    return names


def _declared_shape(node: Node) -> tuple | None:
    text = node.attrs.get("__shape__")
    if not text:
        return None
    from cellonnx.gluon.symbol.attrs import parse_tuple

    try:
        shape = parse_tuple(text, int)
    except ValueError:
        return None
    return None if any(d is None for d in shape) else shape


def _declared_dtype(node: Node) -> str:
    text = node.attrs.get("__dtype__")
    if text is None:
        return "float32"
    try:
        return _TYPE_FLAGS.get(int(text), "float32")
    except ValueError:
        return text


class SymbolBlock(HybridBlock):
    """A block computing the outputs of an MXNet symbol graph.

    Args:
        outputs: the outputs: a Symbol (``symbol.load(...)``, ``get_internals()[...]``), a list of them, or
            the
            path of a symbol.json.
        inputs: the variables fed by the call's arguments: names or ``symbol.var(name)``, in call order.
        params: parameters to use by MXNet name (another block's ``collect_params()``); the graph's other
            variables become new parameters (initialized by ``initialize()`` or loaded).

    Examples:
        >>> import json
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx import gluon
        >>> nodes = [{"op": "null", "name": "data", "inputs": []},
        ...          {"op": "null", "name": "fc1_weight", "inputs": []},
        ...          {"op": "null", "name": "fc1_bias", "inputs": []},
        ...          {"op": "FullyConnected", "name": "fc1", "attrs": {"num_hidden": "4"},
        ...           "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},
        ...          {"op": "Activation", "name": "relu1", "attrs": {"act_type": "relu"},
        ...           "inputs": [[3, 0, 0]]}]
        >>> with open("tiny-symbol.json", "w") as f:  # as MXNet's HybridBlock.export writes it
        ...     json.dump({"nodes": nodes, "arg_nodes": [0, 1, 2], "heads": [[4, 0, 0]]}, f)
        >>> mx.nd.save("tiny-0000.params", {"arg:fc1_weight": mx.nd.ones((4, 3)),
        ...                                 "arg:fc1_bias": mx.nd.zeros((4,))})
        >>> net = gluon.SymbolBlock.imports("tiny-symbol.json", ["data"], "tiny-0000.params")
        >>> print(net(mx.nd.ones((2, 3))).shape)
        (2, 4)
    """

    def __init__(self, outputs: Any, inputs: Any, params: dict[str, Any] | None = None) -> None:
        super().__init__()
        symbol = _as_symbol(outputs, "outputs")
        names = _input_names(inputs)
        program = Program(symbol.graph, symbol.heads)
        variables = {n.name: n for n in program.variables}
        for name in names:
            if name not in variables:
                raise ValueError(
                    f"SymbolBlock: input '{name}' is not a variable of {symbol.graph.source} (its "
                    f"variables are {list(variables)[:10]})"
                )
        aux = set(symbol.list_auxiliary_states())
        d = self.__dict__
        d["_symbol"] = symbol
        d["_program"] = program
        d["_input_names"] = names
        d["_param_nodes"] = {}
        shared = params or {}
        # MXNet's order: the arguments, then the auxiliary states
        for node in sorted(program.variables, key=lambda n: n.name in aux):
            if node.name in names:
                continue
            p = shared.get(node.name)
            if p is None:
                p = Parameter(
                    node.name,
                    grad_req="null" if node.name in aux else "write",
                    shape=_declared_shape(node),
                    dtype=_declared_dtype(node),
                    allow_deferred_init=True,
                )
                init = node.attrs.get("__init__")
                if init:
                    p.init = init
            elif not isinstance(p, CoreParameter):
                raise TypeError(
                    f"SymbolBlock: params['{node.name}'] must be a Parameter, got {type(p).__name__}"
                )
            self._params[node.name] = p
            d["_param_nodes"][node.name] = node
        self._set_signature(names)

    def hybridize(self, active: bool = True, **kwargs: Any) -> None:
        """Compile the graph at the next call, as HybridBlock.hybridize; a graph holding MXNet's int8
        operators (which compute only in NumPy, cellonnx/gluon/symbol/host_ops.py) keeps running eagerly,
        with the same results, and says so."""
        super().hybridize(active, **kwargs)
        from cellonnx.gluon.symbol.host_ops import host_only_nodes

        host = host_only_nodes(self._symbol.graph) if active else []
        if host:
            import warnings

            warnings.warn(f"SymbolBlock: {', '.join(host[:3])}{' ...' if len(host) > 3 else ''} compute "
                          "MXNet's int8 arithmetic in NumPy and have no ONNX lowering; the block runs "
                          "eagerly", stacklevel=2)
            self._set_active(False)

    def _set_signature(self, names: list[str]) -> None:
        """Call and trace with the graph's input names (the exported ONNX inputs are named so)."""

        def construct(*args: Any) -> Any:
            return self.forward(*args)

        if all(n.isidentifier() for n in names):
            construct.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
                [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names]
            )
        self.__dict__["construct"] = construct

    # ---------------------------------------------------------------- loading
    @staticmethod
    def imports(
        symbol_file: str | os.PathLike[str],
        input_names: str | Sequence[str],
        param_file: str | os.PathLike[str] | None = None,
        ctx: Any = None,
        allow_missing: bool = False,
        ignore_extra: bool = False,
    ) -> SymbolBlock:
        """Load a model written by ``HybridBlock.export`` or ``Module.save_checkpoint``.

        Args:
            symbol_file: the ``name-symbol.json``.
            input_names: the variables that are inputs (``['data']``).
            param_file: the ``name-0000.params``; ``arg:`` / ``aux:`` prefixes are read. Default: None
                (initialize the block yourself).
            ctx: accepted for compatibility.
            allow_missing: leave parameters absent from the file uninitialized. Default: False.
            ignore_extra: skip names in the file that are not parameters of the graph. Default: False.

        Returns:
            SymbolBlock.
        """
        block = SymbolBlock(
            load(symbol_file), [input_names] if isinstance(input_names, str) else list(input_names)
        )
        if param_file is not None:
            block._load_mxnet_params(param_file, allow_missing, ignore_extra)
        return block

    def _load_mxnet_params(
        self, param_file: str | os.PathLike[str], allow_missing: bool, ignore_extra: bool
    ) -> None:
        """MXNet's ParameterDict.load with cast_dtype and dtype_source 'saved' (what imports uses)."""
        loaded = read_params(param_file)
        arrays = {}
        for key, value in loaded.items():
            name = key[4:] if key.startswith(("arg:", "aux:")) else key
            arrays[name] = value
        params = self._params
        if not allow_missing:
            for name in params:
                if name not in arrays:
                    raise AssertionError(
                        f"Parameter '{name}' is missing in file '{os.fspath(param_file)}', which "
                        f"contains parameters: {_brief(arrays)}. Please make sure source and "
                        "target networks have the same prefix."
                    )
        for name, value in arrays.items():
            if name not in params:
                if not ignore_extra:
                    raise ValueError(
                        f"Parameter '{name}' loaded from file '{os.fspath(param_file)}' is not "
                        f"present in ParameterDict, which contains parameters {_brief(params)}. Set "
                        "ignore_extra=True to ignore."
                    )
                continue
            p = params[name]
            if isinstance(p, Parameter):
                p._load_init(value, cast_dtype=True, dtype_source="saved")
            else:
                p.set_data(np.array(value, copy=True))

    # ---------------------------------------------------------------- running
    def forward(self, x: Any, *args: Any) -> Any:
        inputs = (x, *args)
        if len(inputs) != len(self._input_names):
            raise TypeError(
                f"SymbolBlock: {len(self._input_names)} input(s) expected ({self._input_names}), got "
                f"{len(inputs)}"
            )
        values: dict[str, Any] = {}
        for name, value in zip(self._input_names, inputs):
            values[name] = value if isinstance(value, Tensor) else Tensor(np.asarray(value, dtype=np.float32))
        for name, p in self._params.items():
            if p is not None:
                values[name] = p
        outs = self._program.run(values)
        return outs[0] if len(outs) == 1 else list(outs)

    def infer_shape(self, *args: Any) -> None:
        """Give parameters without a shape theirs from the inputs, as MXNet's shape inference does: the graph
        runs once and each operator's parameter inputs get the shapes its data input implies."""
        deferred = {
            name for name, p in self._params.items() if isinstance(p, Parameter) and p._deferred is not None
        }
        nodes = self._param_nodes

        def settle(step: Step, inputs: list[Tensor]) -> None:
            rule = step.row.param_shapes
            pending = [
                (i, nid)
                for i, (nid, _) in enumerate(step.inputs)
                if step.node.inputs
                and self._program.graph.nodes[nid].name in deferred
                and nodes.get(self._program.graph.nodes[nid].name) is not None
            ]
            if not pending:
                return
            names = input_names(step.spec.name, step.spec.inputs, step.attrs, len(step.inputs))
            shapes = rule(step.attrs, tuple(int(d) for d in inputs[0].shape)) if rule is not None else {}
            for i, nid in pending:
                pname = self._program.graph.nodes[nid].name
                p = self._params[pname]
                shape = shapes.get(names[i]) if i < len(names) else None
                if shape is None:
                    raise ValueError(
                        f"SymbolBlock: the shape of parameter '{pname}' ({names[i] if i < len(names) else i}"
                        f" of {step.spec.name} '{step.node.name}') cannot be inferred; load it from a "
                        "file or give its variable a shape"
                    )
                p.shape = shape
                p._finish_deferred_init()
                deferred.discard(pname)

        values: dict[str, Any] = dict(zip(self._input_names, args))
        values.update({n: p for n, p in self._params.items() if p is not None})
        with no_grad():
            self._program.run(values, hook=settle)

    # ---------------------------------------------------------------- initialization and saving
    def initialize(
        self,
        init: Any = None,
        device: Any = None,
        verbose: bool = False,
        force_reinit: bool = False,
        ctx: Any = None,
    ) -> None:
        """Initialize the parameters: a variable's own ``__init__`` first, otherwise by name suffix as MXNet
        (``init`` for weights; Default: Uniform(0.07))."""
        default = _BySuffix(init)
        if verbose:
            default.set_verbosity(True)
        for p in self._unique_params():
            if isinstance(p, Parameter):
                p.initialize(None, device, default, force_reinit=force_reinit)

    def save_parameters(self, filename: str | os.PathLike[str], deduplicate: bool = False) -> None:
        """Write the parameters as an MXNet .params file with HybridBlock.export's keys (``arg:NAME`` /
        ``aux:NAME``): MXNet's SymbolBlock.imports and load_parameters read it (MXNet's own
        SymbolBlock.save_parameters strips the names' common prefix, which its load_parameters then cannot
        match)."""
        aux = set(self._symbol.list_auxiliary_states())
        arrays = {}
        for name, p in self._params.items():
            if p is None:
                continue
            if isinstance(p, Parameter) and p._deferred is not None:
                raise RuntimeError(
                    f"save_parameters: parameter '{name}' has no value yet (initialize the network "
                    "and run one forward pass first)"
                )
            arrays[("aux:" if name in aux else "arg:") + name] = p._data
        mxnet_format.write(filename, arrays)

    def export_mxnet(self, path: str, epoch: int = 0) -> tuple[str, str]:
        """Write ``path-symbol.json`` and ``path-%04d.params`` as MXNet's HybridBlock.export does."""
        sym_file, params_file = f"{path}-symbol.json", f"{path}-{epoch:04d}.params"
        self._symbol.save(sym_file)
        self.save_parameters(params_file)
        return sym_file, params_file

    def cast(self, dtype: Any) -> SymbolBlock:
        """Cast the parameters; batch-norm statistics stay float32 under float16, as in MXNet."""
        super().cast(dtype)
        if np.dtype(dtypes.dtype(dtype).np_dtype) == np.float16:
            for name, p in self._params.items():
                if isinstance(p, Parameter) and name.endswith(
                    ("moving_mean", "moving_var", "running_mean", "running_var")
                ):
                    p.cast("float32")
        return self

    @property
    def symbol(self) -> Symbol:
        """The outputs this block computes."""
        return self._symbol

    @property
    def graph(self) -> SymbolGraph:
        return self._symbol.graph

    def __repr__(self) -> str:
        return (
            f"SymbolBlock(\n  {self._symbol.graph.source} : {len(self._input_names)} -> "
            f"{len(self._symbol.heads)}\n)"
        )


def _brief(names: Any, limit: int = 7) -> str:
    names = list(names)
    if len(names) > limit:
        return ", ".join(f"'{n}'" for n in names[:3]) + ", ..., " + ", ".join(f"'{n}'" for n in names[-3:])
    return ", ".join(f"'{n}'" for n in names)


__all__ += ["SymbolError"]
