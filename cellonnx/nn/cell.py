"""nn.Cell: the base class of layers and networks, with MindSpore 2.x's semantics.

Attribute assignment routes by type (Parameter -> parameters, Cell -> children, anything else -> a plain
attribute); parameter names follow the auto_prefix rule (the attribute path, ``layer1.0.conv1.weight``, is set
when a child is assigned to its parent). Calling a cell runs ``construct``; with no hook, recompute, custom
bprop or mixed precision set, the call goes straight to ``construct``.
"""
from __future__ import annotations

import inspect
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from cellonnx import context as _ctx
from cellonnx import dtypes
from cellonnx.autograd import saved_hooks as _saved_hooks
from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.graph import trace as _trace
from cellonnx.nn import cell_hooks as _hooks
from cellonnx.nn.buffer import Buffer
from cellonnx.nn.cell_graph import GraphMethodsMixin
from cellonnx.nn.cell_hooks import CellHookHandle, check_hook_fn
from cellonnx.nn.cell_state import StateMixin
from cellonnx.nn.parameter_tuple import ParameterTuple
from cellonnx.tensor import Parameter, Tensor

__all__ = ["Cell", "ParameterTuple"]

# The fast path reads ``context.mode`` as a truth value: PYNATIVE_MODE must be truthy, GRAPH_MODE falsy.
assert _ctx.PYNATIVE_MODE and not _ctx.GRAPH_MODE
_TRACING = _trace._current      # non-empty while compile() traces
_graph_depth = [0]              # >0 inside a top-level GRAPH_MODE call that runs eagerly

_GENERATED_NAMES = ("Parameter",)


def _is_generated_name(name: str) -> bool:
    return name in _GENERATED_NAMES or name.startswith(("Parameter#", "Parameter$"))


def _addindent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _is_parameter_sequence(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(v, Parameter) for v in value)


_MP_FLAGS = {"fp16": dtypes.float16, "fp32": dtypes.float32, "bf16": dtypes.bfloat16}


def _cast_float(value: Any, dt: dtypes.DType) -> Any:
    from cellonnx import ops

    if isinstance(value, Tensor):
        d = value._data.dtype
        if (d.kind == "f" or d == dtypes.bfloat16.np_dtype) and d != dt.np_dtype:
            return ops.cast(value, dt)
        return value
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_cast_float(v, dt) for v in value)
    if isinstance(value, list):
        return [_cast_float(v, dt) for v in value]
    return value


class Cell(StateMixin, GraphMethodsMixin):
    """The basic building block of networks: subclass it, create sub cells and Parameters in ``__init__``,
    compute in ``construct``.

    Args:
        auto_prefix: whether the names of parameters in child cells get the attribute path as prefix
            (``dense.weight``). Wrappers such as optimizers and TrainOneStepCell pass False so that the
            backbone's names stay as they are. Default: True.
        flags: attributes to add (``add_flags``). Default: None.

    Examples:
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = nn.Dense(3, 2)
        ...     def construct(self, x):
        ...         return self.fc(x)
        >>> [p.name for p in Net().trainable_params()]
        ['fc.weight', 'fc.bias']
    """

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None) -> None:
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_buffers"] = {}
        d["_non_persistent_buffers"] = set()
        d["_params_list"] = OrderedDict()
        d["training"] = False
        d["requires_grad"] = False
        d["_auto_prefix"] = auto_prefix
        d["_param_prefix"] = ""
        d["_scope"] = None
        d["_phase"] = "train"
        d["_create_time"] = int(time.time() * 1e9)
        d["_id"] = 1
        d["_exist_names"] = set()
        d["_exist_objs"] = set()
        d["_forward_pre_hook"] = OrderedDict()
        d["_forward_pre_hook_with_kwargs"] = {}
        d["_forward_hook"] = OrderedDict()
        d["_forward_hook_with_kwargs"] = {}
        d["_forward_hook_always_called"] = {}
        d["_backward_pre_hook"] = OrderedDict()
        d["_backward_hook"] = OrderedDict()
        d["_recompute_cell"] = None
        d["_saved_tensors_hooks"] = None
        d["_has_config_recompute"] = False
        d["mixed_precision_type"] = None
        d["_dynamic_shape_inputs"] = None
        d["_func_graph_flags"] = {}
        d["_bprop_debug"] = False
        d["_checked"] = False
        d["_plain_call"] = False
        d["cell_type"] = None
        d["has_bprop"] = callable(getattr(type(self), "bprop", None))
        if flags:
            self.add_flags(**flags)

    # ================================================================ calling
    def construct(self, *args: Any, **kwargs: Any) -> Any:
        """The computation; every subclass defines it."""
        raise AttributeError("For 'Cell', the method 'construct' is not defined.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._plain_call and _ctx.mode and not _TRACING:
            return self.construct(*args, **kwargs)
        return self._call(args, kwargs)

    def _call(self, args: tuple, kwargs: dict) -> Any:
        if not self._checked:
            self._self_check()
        if not _ctx.mode and not _graph_depth[0] and not _TRACING and not _gradient_wanted(args):
            return self._graph_mode_call(args, kwargs)
        if _TRACING:
            _TRACING[-1].root().cells_seen.setdefault(id(self), self)
            with _trace.scope(self._trace_scope_name()):
                return self._run(args, kwargs)
        return self._run(args, kwargs)

    def _graph_mode_call(self, args: tuple, kwargs: dict) -> Any:
        """GRAPH_MODE, top-level call: the compiled graph runs it (inference); training calls run eagerly."""
        if kwargs:
            bound = inspect.signature(self.construct).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        if not kwargs:
            from cellonnx.graph.compile import run_graph_mode
            out = run_graph_mode(self, *args)
            if out is not None:
                return out
        else:
            import warnings
            warnings.warn(f"GRAPH_MODE: {type(self).__name__} is called with {sorted(kwargs)}, which its "
                          "construct takes by keyword only; a compiled graph takes positional inputs, so "
                          "this call runs eagerly (PYNATIVE). Make them positional parameters of construct "
                          "to compile it", stacklevel=4)
        _graph_depth[0] += 1
        try:
            return self._run(args, kwargs)
        finally:
            _graph_depth[0] -= 1

    def _trace_scope_name(self) -> str:
        tracer = _TRACING[-1]
        paths = tracer.__dict__.get("_cell_paths")
        if paths is None:
            paths = {}
            setattr(tracer, "_cell_paths", paths)  # noqa: B010 - the tracer carries no such field of its own
        name = paths.get(id(self))
        if name is None:
            stack = tracer.g.scope
            if stack:  # a cell reached without an attribute path (held in a plain list, made on the fly)
                name = f"{stack[-1]}.{type(self).__name__}"
            else:
                for n, c in self.cells_and_names():
                    paths.setdefault(id(c), n)
                name = ""
        return name

    def _run(self, args: tuple, kwargs: dict) -> Any:
        if self._plain_call:
            return self.construct(*args, **kwargs)
        mp = self.mixed_precision_type
        if mp is None:
            return self._run_construct(args, kwargs)
        args = _cast_float(args, mp)
        kwargs = {k: _cast_float(v, mp) for k, v in kwargs.items()}
        swapped = self._swap_in_cast_params(mp)
        try:
            return self._run_construct(args, kwargs)
        finally:
            for name in swapped:
                self.__dict__.pop(name, None)

    def _swap_in_cast_params(self, dt: dtypes.DType) -> list[str]:
        """Mixed precision: while construct runs, ``self.<param>`` reads a cast of the (float32 master)
        parameter, so the cell computes in ``dt`` and the gradient reaches the master through the cast."""
        from cellonnx import ops

        swapped = []
        for name, p in self._params.items():
            if p is None or not p.requires_grad:
                continue
            d = p._data.dtype
            if (d.kind == "f" or d == dtypes.bfloat16.np_dtype) and d != dt.np_dtype:
                self.__dict__[name] = ops.cast(p, dt)
                swapped.append(name)
        return swapped

    def _run_construct(self, args: tuple, kwargs: dict) -> Any:
        called: set = set()
        output = None
        try:
            if self._forward_pre_hook:
                args, kwargs = _hooks.run_forward_pre_hooks(self, args, kwargs)
            grad_on = is_grad_enabled()
            state = None
            if grad_on and (self._backward_hook or self._backward_pre_hook):
                state = _hooks._CallState(self)
                if self._backward_hook:
                    args = _hooks.hook_inputs(self, args, state)
            if grad_on and self._recompute_cell is not None:
                output = _hooks.run_recompute(self, args, kwargs)
            elif grad_on and self.has_bprop:
                output = _hooks.run_custom_bprop(self, args, kwargs)
            elif grad_on and self._saved_tensors_hooks is not None:
                with _saved_hooks.saved_tensors_hooks(*self._saved_tensors_hooks):
                    output = self.construct(*args, **kwargs)
            else:
                output = self.construct(*args, **kwargs)
            if self._forward_hook:
                output = _hooks.run_forward_hooks(self, args, kwargs, output, called)
            if state is not None:
                output = _hooks.hook_outputs(self, output, state)
            return output
        except Exception:
            if self._forward_hook_always_called:
                _hooks.run_always_called_hooks(self, args, kwargs, output, called)
            raise

    def run_construct(self, cast_inputs: tuple, kwargs: dict) -> Any:
        """Run construct with this cell's hooks and precision (``cast_inputs`` are the positional inputs)."""
        return self._run(tuple(cast_inputs), dict(kwargs or {}))

    def register_saved_tensors_hooks(self, pack_hook: Callable[[Any], Any],
                                     unpack_hook: Callable[[Any], Any]) -> None:
        """Pack and unpack the tensors saved for backward while this cell's ``construct`` runs with gradients
        (see :class:`cellonnx.saved_tensors_hooks`).

        Args:
            pack_hook (Callable): called on each tensor saved for backward in the forward pass.
            unpack_hook (Callable): called on what ``pack_hook`` returned, in the backward pass.
        """
        self.__dict__["_saved_tensors_hooks"] = (pack_hook, unpack_hook)
        self._refresh_call_path()

    def _refresh_call_path(self) -> None:
        plain = self._checked and not (
            self._forward_pre_hook or self._forward_hook or self._backward_pre_hook or self._backward_hook
            or self._recompute_cell is not None or self._saved_tensors_hooks is not None or self.has_bprop
            or self.mixed_precision_type is not None)
        self.__dict__["_plain_call"] = plain

    def _self_check(self) -> None:
        if "_params" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object does not inherit attribute from 'cell'. "
                                 "Please use 'super().__init__()'.")
        self.check_names_and_refresh_name()
        self.__dict__["_checked"] = True
        self._refresh_call_path()

    # ================================================================ attributes
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_params", "_buffers", "_cells", "_params_list"):
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, Parameter):
            self.__dict__.pop(name, None)
            self.insert_param_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            self._set_parameter_tuple(name, value)
        elif isinstance(value, Cell):
            self._set_cell(name, value)
        elif isinstance(value, Buffer):
            self.__dict__.pop(name, None)
            self.register_buffer(name, value, persistent=value.persistent)
        elif _is_parameter_sequence(value):
            for item in value:
                if id(item) in self._exist_objs:
                    continue
                self._exist_objs.add(id(item))
                if item.name in self._exist_names:
                    raise ValueError(f"The value {value} , its name '{item.name}' already exists. Please set a "
                                     "unique name for the parameter.")
                self._exist_names.add(item.name)
            object.__setattr__(self, name, value)
        else:
            self._set_plain(name, value)

    def _set_parameter_tuple(self, name: str, value: ParameterTuple) -> None:
        names: set[str] = set()
        seen: set[int] = set()
        for item in value:
            if id(item) in seen:
                continue
            seen.add(id(item))
            if _is_generated_name(item.name):
                item.name = f"Parameter${self._id}"
                self.__dict__["_id"] += 1
            if item.name in names:
                raise ValueError(f"The value {value} , its name '{item.name}' already exists. Please set a unique "
                                 "name for the parameter.")
            names.add(item.name)
            self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)
        object.__setattr__(self, name, value)

    def _set_cell(self, name: str, value: Cell) -> None:
        if "_cells" not in self.__dict__:
            raise AttributeError(f"cannot assign cell '{name}' before Cell.__init__() call")
        self.__dict__.pop(name, None)
        if self._auto_prefix:
            value.update_parameters_name(name + ".")
        self.insert_child_to_cell(name, value)

    def _set_plain(self, name: str, value: Any) -> None:
        d = self.__dict__
        params = d.get("_params")
        if params is not None and name in params:
            if value is None:
                params[name] = None
            elif isinstance(value, Tensor) and params[name] is not None:
                params[name].set_data(value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                                f"'{type(value)}' as a parameter.")
            return
        cells = d.get("_cells")
        if cells is not None and name in cells:
            if value is not None:
                raise TypeError(f"Sub cell '{name}' already exists in network, can not assign this type: "
                                f"'{type(value)}' as a cell.")
            cells[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"Buffer '{name}' already exists in network, can not assign this type: "
                                f"'{type(value)}' as a buffer (Tensor or None expected).")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        for store in ("_params", "_buffers", "_cells", "_params_list"):
            s = self.__dict__.get(store)
            if s is not None and name in s:
                del s[name]
                return
        object.__delattr__(self, name)

    def __bool__(self) -> bool:
        return True

    def __dir__(self) -> list[str]:
        extra = [k for s in ("_params", "_buffers", "_cells") for k in self.__dict__.get(s, {})]
        return sorted(set(super().__dir__()) | set(extra))

    # ---------------------------------------------------------------- properties
    @property
    def phase(self) -> str:
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', the property 'phase' must be string type, but got type {type(value)}.")
        self.__dict__["_phase"] = value

    @property
    def cls_name(self) -> str:
        return type(self).__name__

    @property
    def create_time(self) -> int:
        return self._create_time

    @property
    def param_prefix(self) -> str:
        """The path of this cell in the network it was last ``update_cell_prefix``-ed from."""
        return self._param_prefix

    @property
    def exist_names(self) -> set:
        """Names of parameters assigned to this cell inside lists or tuples."""
        return self._exist_names

    @property
    def exist_objs(self) -> set:
        return self._exist_objs

    @property
    def bprop_debug(self) -> bool:
        return self._bprop_debug

    @bprop_debug.setter
    def bprop_debug(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got type {type(value)}.")
        self.__dict__["_bprop_debug"] = value

    @property
    def compiled(self) -> bool:
        return False

    @property
    def pipeline_stage(self) -> int:
        return 0

    @pipeline_stage.setter
    def pipeline_stage(self, value: int) -> None:
        _cluster_only("pipeline_stage", "pipeline parallelism across several devices (a parallel context with "
                      "pipeline_stages > 1)")

    # ================================================================ children and parameters
    def insert_param_to_cell(self, param_name: str, param: Parameter | None,
                             check_name_contain_dot: bool = True, *, check_name: bool | None = None) -> None:
        """Add ``param`` under ``param_name`` (a parameter without a name of its own takes ``param_name``).

        ``check_name`` is the older releases' name of ``check_name_contain_dot`` (it wins when given)."""
        if check_name is not None:
            check_name_contain_dot = check_name
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not contain'.' ")
        if "_params" not in self.__dict__:
            raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() firstly.")
        if hasattr(self, param_name) and param_name not in self._params:
            raise KeyError(f"For 'insert_param_to_cell', the {param_name} parameter already exists in the network."
                           "Cannot insert another parameter with the same name.")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError("For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not None, "
                            f"but got {type(param)}.")
        if isinstance(param, Parameter) and _is_generated_name(param.name):
            param.name = param_name
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name: str, child_cell: Cell | None) -> None:
        """Add ``child_cell`` as the child ``child_name`` (no prefixing of its parameter names)."""
        if not isinstance(child_name, str):
            raise TypeError("For 'insert_child_to_cell', the type of parameter 'child_name' must be str, but got "
                            f"{type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be None and can not "
                           "contain '.' ")
        if "_cells" not in self.__dict__:
            raise AttributeError("For 'insert_child_to_cell', please call Cell.__init__() firstly.")
        if hasattr(self, child_name) and child_name not in self._cells:
            raise KeyError(f"For 'insert_child_to_cell', the {child_name} child cell already exists in the network."
                           "Cannot insert another child cell with the same name.")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError("For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, but "
                            f"got type {type(child_cell)}.")
        self._cells[child_name] = child_cell

    def cells_and_names(self, cells: set | None = None, name_prefix: str = "") -> Iterator[tuple[str, Cell]]:
        """(path, cell) for this cell (path ``name_prefix``) and every cell below it, each once."""
        seen = cells if cells is not None else set()
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                yield from cell.cells_and_names(seen, f"{name_prefix}.{name}" if name_prefix else name)

    def name_cells(self) -> OrderedDict:
        """The immediate children by name (each cell once)."""
        seen: set[int] = set()
        out: OrderedDict = OrderedDict()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                out[name] = cell
        return out

    def cells(self) -> Any:
        """The immediate children."""
        return self.name_cells().values()

    def get_sub_cell(self, target: str) -> Cell:
        """The sub cell at the dotted path ``target`` (``"net_b.net_c"``); ``""`` is this cell."""
        if target == "":
            return self
        cell: Any = self
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(f"{type(cell).__name__} has no attribute `{item}`")
            cell = getattr(cell, item)
            if not isinstance(cell, Cell):
                raise AttributeError(f"`{item}` is not an nn.Cell")  # noqa: TRY004 - MindSpore's error
        return cell

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator[tuple[str, Parameter]]:
        """(attribute path, Parameter) pairs, each parameter once (shared ones under their first path)."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen: set[int] = set()
        for cell_name, cell in cells:
            for name, p in cell._params.items():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield (f"{cell_name}.{name}" if cell_name else name), p

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        """This cell's parameters (and, with ``expand``, its sub cells')."""
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> OrderedDict:
        """OrderedDict of parameter name (``param.name``) -> Parameter."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def parameters_broadcast_dict(self, recurse: bool = True) -> OrderedDict | None:
        out = OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse) if not p.layerwise_parallel)
        return out or None

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Set every parameter's name to ``prefix`` + its attribute path."""
        if not isinstance(prefix, str):
            raise TypeError(f"update_parameters_name: prefix must be a str, got {type(prefix).__name__}")
        for name, p in self.parameters_and_names(expand=recurse):
            p.name = prefix + name

    def check_names_and_refresh_name(self) -> None:
        """Give parameters their attribute paths as names if two share a name; then check uniqueness."""
        names = [p.name for _, p in self.parameters_and_names()]
        if len(set(names)) < len(names):
            self.update_parameters_name()
            self.check_names()

    def check_names(self) -> None:
        seen: set[str] = set()
        for path, p in self.parameters_and_names():
            if p.name in seen:
                raise ValueError(f"The value of {path} is {p}, its name '{p.name}' already exists. Please set a "
                                 "unique name for the parameter.")
            seen.add(p.name)

    def update_cell_prefix(self) -> None:
        """Set every sub cell's ``param_prefix`` to its path from this cell."""
        for name, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = name

    def update_cell_type(self, cell_type: str) -> None:
        self.cell_type = cell_type

    def get_scope(self) -> str | None:
        """The cell's scope in the network (``Default/layer1-SequentialCell``) once ``generate_scope`` ran."""
        return self._scope

    def generate_scope(self) -> None:
        """Give every sub cell its scope: ``Default/<path with / separators>``."""
        for name, cell in self.cells_and_names():
            if name and cell._scope is None:
                cell.__dict__["_scope"] = "Default/" + name.replace(".", "/")

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict:
        """Parameters are initialised when created; returns {parameter: parameter} as MindSpore's mapping of
        old to initialised parameter."""
        return {p: p for p in self.get_parameters()}

    def flatten_weights(self, fusion_size: int = 0) -> Cell:
        """Place the trainable parameters of each dtype in one contiguous buffer (each parameter becomes a view
        of it), as MindSpore's flatten_weights does for fused optimizer updates."""
        groups: dict[np.dtype, list[Parameter]] = {}
        for p in self.trainable_params():
            if not p.is_deferred:
                groups.setdefault(p._data.dtype, []).append(p)
        for dt, params in groups.items():
            flat = np.empty(sum(p._data.size for p in params), dtype=dt)
            start = 0
            for p in params:
                n = p._data.size
                flat[start:start + n] = p._data.reshape(-1)
                p._assign_array(flat[start:start + n].reshape(p._data.shape))
                start += n
        return self

    # ================================================================ modes and flags
    def add_flags(self, **flags: Any) -> Cell:
        """Set attributes on this cell (``get_flags`` lists them); ``fp16`` / ``fp32`` / ``bf16`` set its
        mixed precision."""
        self._func_graph_flags.update(flags)
        self.__dict__.update(flags)
        for key, dt in _MP_FLAGS.items():
            if flags.get(key):
                self.__dict__["mixed_precision_type"] = dt
        self._refresh_call_path()
        return self

    def add_flags_recursive(self, **flags: Any) -> Cell:
        self.add_flags(**flags)
        for cell in self.name_cells().values():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self) -> dict:
        return self._func_graph_flags

    def set_train(self, mode: bool = True) -> Cell:
        """Training mode (``training`` True: dropout drops, batch norm uses batch statistics) for this cell
        and every sub cell."""
        self.__dict__["_phase"] = "train" if mode else "predict"
        self.add_flags_recursive(training=mode)
        return self

    def set_grad(self, requires_grad: bool = True) -> Cell:
        self.__dict__["requires_grad"] = requires_grad
        return self

    def apply(self, fn: Callable[[Cell], Any]) -> Cell:
        """Call ``fn`` on every sub cell (children first) and then on this cell."""
        for cell in self.name_cells().values():
            cell.apply(fn)
        fn(self)
        return self

    def to_float(self, dst_type: Any) -> Cell:
        """Run this cell and its sub cells in ``dst_type`` (float16, bfloat16, or float32 to keep a sub cell in
        full precision): float inputs and trainable parameters are cast on the way in; the float32
        parameters stay the masters that gradients reach.

        Raises:
            ValueError: if ``dst_type`` is not float16, float32 or bfloat16.
        """
        dt = None
        try:
            dt = dtypes.dtype(dst_type)
        except (TypeError, ValueError, KeyError):
            pass
        if dt not in (dtypes.float16, dtypes.float32, dtypes.bfloat16):
            raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                             f"mstype.bfloat16, but got type: {type(dst_type)} and value: {dst_type}.")
        self.add_flags_recursive(fp16=dt == dtypes.float16, fp32=dt == dtypes.float32, bf16=dt == dtypes.bfloat16)
        return self

    def cast_inputs(self, inputs: tuple, dst_type: Any) -> tuple:
        """``inputs`` with float tensors cast to ``dst_type``."""
        return tuple(_cast_float(tuple(inputs), dtypes.dtype(dst_type)))

    def auto_cast_inputs(self, inputs: tuple) -> tuple:
        """``inputs`` cast to this cell's mixed precision type (unchanged without one)."""
        mp = self.mixed_precision_type
        return tuple(inputs) if mp is None else tuple(_cast_float(tuple(inputs), mp))

    def cast_param(self, param: Parameter) -> Any:
        """``param`` cast to this cell's mixed precision type (the parameter itself without one)."""
        mp = self.mixed_precision_type
        return param if mp is None else _cast_float(param, mp)

    def to(self, *args: Any, **kwargs: Any) -> Cell:
        """Cast the float parameters and buffers of this cell and its sub cells in place: ``to(dtype)``,
        ``to(tensor)`` (its dtype) or ``to(device=None, dtype=None)``. Parameters stay the same objects (their
        version is bumped); the only device is the host ("CPU")."""
        device = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"Cell.to: unexpected keyword arguments {sorted(kwargs)}")
        for a in args:
            if isinstance(a, Tensor):
                dtype = a.dtype
            elif isinstance(a, str):
                device = a
            elif a is not None:
                dtype = a
        if device is not None and str(device).upper() not in ("CPU", "HOST"):
            raise NotImplementedError(f"Cell.to: device {device!r} is not supported by cellonnx: eager tensors live "
                                      "in host memory (compile() runs graphs on a GPU through onnxruntime)")
        if dtype is None:
            return self
        dt = dtypes.dtype(dtype)
        if not dt.is_floating_point:
            raise TypeError(f"Cell.to only accepts floating point dtypes, but got desired dtype={dt}")
        for p in self.get_parameters():
            if p._data.dtype.kind == "f" or p._data.dtype == dtypes.bfloat16.np_dtype:
                p._assign_array(p._data.astype(dt.np_dtype))
        for _, cell in self.cells_and_names():
            for name, buf in list(cell._buffers.items()):
                if buf is not None and (buf._data.dtype.kind == "f" or buf._data.dtype == dtypes.bfloat16.np_dtype):
                    cell._buffers[name] = Tensor(buf._data.astype(dt.np_dtype))
        return self

    def to_empty(self, *, device: Any = None, recurse: bool = True) -> Cell:
        """Give every parameter and buffer fresh, uninitialised storage of the same shape and dtype."""
        if device is not None and str(device).upper() not in ("CPU", "HOST"):
            raise NotImplementedError(f"Cell.to_empty: device {device!r} is not supported by cellonnx (host "
                                      "memory only)")
        for p in self.get_parameters(expand=recurse):
            p._assign_array(np.empty_like(p._data))
        cells = self.cells_and_names() if recurse else [("", self)]
        for _, cell in cells:
            for name, buf in list(cell._buffers.items()):
                if buf is not None:
                    cell._buffers[name] = Tensor(np.empty_like(buf._data))
        return self

    def remove_redundant_parameters(self) -> None:
        """Kept for compatibility: MindSpore deprecates it and does nothing but warn; nothing to remove here."""

    def set_jit_config(self, jit_config: Any) -> None:
        """Keep a ``mindspore.JitConfig``-like object's settings (``jit_config_dict``); compile() reads none of
        MindSpore's compiler options."""
        cfg = getattr(jit_config, "jit_config_dict", jit_config)
        self.__dict__["_jit_config_dict"] = dict(cfg) if isinstance(cfg, dict) else {}

    @property
    def jit_config_dict(self) -> dict:
        return self.__dict__.get("_jit_config_dict", {})

    @property
    def parameter_layout_dict(self) -> dict:
        """Tensor layouts of sharded parameters: empty, as nothing is sharded on one device."""
        return self.__dict__.setdefault("_parameter_layout_dict", {})

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value: dict) -> None:
        if not isinstance(value, dict):
            raise TypeError("For 'Cell', the property 'parameter_layout_dict' must be dict type, but got type "
                            f"{type(value)}.")
        self.__dict__["_parameter_layout_dict"] = value

    def register_parameter_forward_hook(self, hook: Any) -> None:
        raise NotImplementedError("Cell.register_parameter_forward_hook is not supported by cellonnx: MindSpore "
                                  "applies it only inside its graph compiler (GRAPH_MODE / jit)")

    def recompute(self, *, use_reentrant: bool = True, output_recompute: bool = False, early_stop: bool = True,
                  context_fn: Any = None, **kwargs: Any) -> None:
        """Recompute this cell's activations in the backward pass instead of keeping them: the forward pass
        keeps only the cell's inputs, the backward pass runs ``construct`` again with recording on.

        Random draws (dropout masks) are replayed, so both passes agree. Keyword arguments about model-parallel
        communication (mp_comm_recompute, parallel_optimizer_comm_recompute, recompute_slice_activation) have
        nothing to act on with one device.
        """
        for key in kwargs:
            if key not in ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation"):
                raise ValueError(f"For 'recompute', keyword '{key}' is not recognized! the key kwargs must be "
                                 "'mp_comm_recompute', 'parallel_optimizer_comm_recompute', "
                                 "'recompute_slice_activation'")
        if self._has_config_recompute:
            return
        self.__dict__["_has_config_recompute"] = True
        self.__dict__["_recompute_cell"] = True
        self.add_flags(output_recompute=output_recompute)
        for _, cell in self.cells_and_names():
            cell.__dict__["_has_config_recompute"] = True
        self._refresh_call_path()

    # ================================================================ hooks
    def register_forward_pre_hook(self, hook_fn: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> CellHookHandle:
        """``hook_fn(cell, args) -> None or new args`` (``hook_fn(cell, args, kwargs) -> None or (args, kwargs)``
        with ``with_kwargs``), called before construct. A single returned value is wrapped in a tuple."""
        check_hook_fn(hook_fn, "register_forward_pre_hook")
        h = CellHookHandle(self._forward_pre_hook, self, (self._forward_pre_hook_with_kwargs,))
        self._forward_pre_hook[h.handle_id] = hook_fn
        if prepend:
            self._forward_pre_hook.move_to_end(h.handle_id, last=False)
        if with_kwargs:
            self._forward_pre_hook_with_kwargs[h.handle_id] = True
        self._refresh_call_path()
        return h

    def register_forward_hook(self, hook_fn: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> CellHookHandle:
        """``hook_fn(cell, args, output) -> None or new output`` (``hook_fn(cell, args, kwargs, output)`` with
        ``with_kwargs``), called after construct; ``always_call`` also runs it when construct raises. On a
        cell that defines ``bprop`` nothing is registered (as in MindSpore)."""
        if self.has_bprop:
            return CellHookHandle()
        check_hook_fn(hook_fn, "register_forward_hook")
        h = CellHookHandle(self._forward_hook, self,
                           (self._forward_hook_with_kwargs, self._forward_hook_always_called))
        self._forward_hook[h.handle_id] = hook_fn
        if prepend:
            self._forward_hook.move_to_end(h.handle_id, last=False)
        if with_kwargs:
            self._forward_hook_with_kwargs[h.handle_id] = True
        if always_call:
            self._forward_hook_always_called[h.handle_id] = True
        self._refresh_call_path()
        return h

    def register_backward_pre_hook(self, hook_fn: Callable) -> CellHookHandle:
        """``hook_fn(cell, grad_output) -> None or new grad_output``: called with the gradients of the cell's
        outputs (a tuple) before they flow into the cell."""
        check_hook_fn(hook_fn, "register_backward_pre_hook")
        h = CellHookHandle(self._backward_pre_hook, self)
        self._backward_pre_hook[h.handle_id] = hook_fn
        self._refresh_call_path()
        return h

    def register_backward_hook(self, hook_fn: Callable) -> CellHookHandle:
        """``hook_fn(cell, grad_input, grad_output) -> None or new grad_input``: called with the gradients of
        the cell's inputs (None for inputs that take none) and of its outputs."""
        check_hook_fn(hook_fn, "register_backward_hook")
        h = CellHookHandle(self._backward_hook, self)
        self._backward_hook[h.handle_id] = hook_fn
        self._refresh_call_path()
        return h

    # ================================================================ inputs and compiling
    def set_inputs(self, *inputs: Any, **kwargs: Any) -> None:
        """Declare the input signatures (``Tensor(shape=[None, 3], dtype=ms.float32)``: None marks a dynamic
        dim) used by compile() and export(); keywords set only the named construct arguments."""
        if kwargs and inputs:
            raise ValueError(f"For Cell, set_inputs should only set inputs or kwargs(inputs: {inputs}, "
                             f"kwargs: {kwargs})!")
        if not kwargs:
            self.__dict__["_dynamic_shape_inputs"] = inputs
            return
        names = [p.name for p in inspect.signature(self.construct).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        unknown = sorted(set(kwargs) - set(names))
        if unknown:
            raise ValueError(f"set_inputs: {unknown} are not arguments of {type(self).__name__}.construct "
                             f"{names}")
        self.__dict__["_dynamic_shape_inputs"] = tuple(kwargs.get(n) for n in names)

    def get_inputs(self) -> tuple | None:
        return self._dynamic_shape_inputs

    def compile(self, *args: Any, **kwargs: Any) -> Any:
        """Trace construct on ``args`` into an ONNX graph run by onnxruntime (cached per input signature)."""
        from cellonnx.graph.compile import compile_cell
        return compile_cell(self, *args, **kwargs)

    def compile_and_run(self, *args: Any, **kwargs: Any) -> Any:
        from cellonnx.graph.compile import compile_and_run
        return compile_and_run(self, *args, **kwargs)

    # ================================================================ printing
    def extend_repr(self) -> str:
        """Extra text for repr; layers describe their configuration here."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): {_addindent(repr(cell), 2)}" for key, cell in self._cells.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __str__(self) -> str:
        return self.__repr__()

    # ================================================================ parallel and placement settings
    # MindSpore records these for its (auto-)parallel compiler and its cluster runtime; in a single process,
    # which is what cellonnx runs, they change nothing, as in MindSpore itself on one device. They check their
    # arguments as MindSpore does and keep what they were given.
    def shard(self, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None) -> None:
        """Set the input/output layouts for sharding propagation. With one device (MindSpore's group size 1,
        always the case in cellonnx) MindSpore returns None at once; so does this."""
        return None

    def place(self, role: str, rank_id: int) -> None:
        """Label the cell's operators with the process (``role``, ``rank_id``) of a distributed cluster that
        should run them. The label takes effect only in a cluster built by ``communication.init()``: in one
        process it is kept and changes nothing.

        Args:
            role (str): the role of the process; only ``"MS_WORKER"``.
            rank_id (int): the process's rank among those of the same role.
        """
        if not isinstance(role, str) or role not in ("MS_WORKER",):
            raise ValueError(f"For 'Cell.place', the argument 'role' must be 'MS_WORKER', but got {role!r}.")
        if not isinstance(rank_id, int) or isinstance(rank_id, bool) or rank_id < 0:
            raise ValueError(f"For 'Cell.place', the argument 'rank_id' must be a non-negative int, but got "
                             f"{rank_id!r}.")
        for _, cell in self.cells_and_names():
            cell.__dict__["_place"] = (role, rank_id)

    def set_data_parallel(self) -> None:
        """Ask MindSpore's auto-parallel strategy search for data-parallel strategies for this cell's
        operators (effective only with ParallelMode.AUTO_PARALLEL in graph mode; kept, without effect, here)."""
        for _, cell in self.cells_and_names():
            cell.__dict__["_strategy_gen_mode"] = "data_parallel"

    def offload(self, backward_prefetch: str | int = "Auto") -> None:
        """Mark the cell's activations for offloading to host memory in MindSpore's graph mode. cellonnx keeps
        its tensors in host memory already: the setting is checked and kept.

        Args:
            backward_prefetch (Union[str, int]): ``"Auto"`` or how many operators ahead to prefetch.
        """
        if isinstance(backward_prefetch, str):
            if backward_prefetch != "Auto":
                raise ValueError(f"For '{type(self).__name__}', the 'backward_prefetch' must be str and must "
                                 f"be in '['Auto']', but got '{backward_prefetch}'.")
        elif (not isinstance(backward_prefetch, int) or isinstance(backward_prefetch, bool)
              or backward_prefetch < 0):
            raise ValueError(f"The input value must be int and must >= 0, but got '{backward_prefetch}' with "
                             f"type '{type(backward_prefetch).__name__}'.")
        self.__dict__["_offload"] = backward_prefetch

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True) -> Cell:
        """Set ``comm_fusion`` (the fusion group of their gradients' AllReduce) on the trainable
        parameters."""
        if not isinstance(fusion_type, int) or isinstance(fusion_type, bool) or fusion_type < 0:
            raise ValueError(f"The input value must be int and must >= 0, but got '{fusion_type}' with type "
                             f"'{type(fusion_type).__name__}'.")
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        return self

    def infer_param_pipeline_stage(self) -> None:
        _cluster_only("infer_param_pipeline_stage", "pipeline parallelism across several devices")

    def set_boost(self, boost_type: str) -> Cell:
        """Flag the cell (recursively) for one of MindSpore's boost algorithms; only ``"less_bn"``, which
        MindSpore's graph compiler applies and cellonnx does not."""
        if boost_type not in ("less_bn",):
            raise ValueError(f"For 'set_boost', the argument 'boost_type' must be 'less_bn', but got "
                             f"{boost_type}.")
        self.add_flags_recursive(less_bn=True)
        return self

    def set_broadcast_flag(self, mode: bool = True) -> Cell:
        """Flag the cell (recursively) for parameter broadcast across devices."""
        self.add_flags_recursive(broadcast_flag=mode)
        return self

    def set_param_ps(self, recurse: bool = True, init_in_server: bool = False) -> None:
        _cluster_only("set_param_ps", "a parameter server (MS_ROLE=MS_PSERVER processes) to hold the weights")

    def set_param_fl(self, push_to_server: bool = False, pull_from_server: bool = False,
                     requires_aggr: bool = True) -> None:
        _cluster_only("set_param_fl", "a federated-learning server to push parameters to and pull them from")


def _gradient_wanted(args: tuple) -> bool:
    """A call whose result is being differentiated (inside value_and_grad / grad, or on inputs that require
    grad) runs eagerly even in GRAPH_MODE: the compiled graph has no backward pass."""
    if not is_grad_enabled():
        return False
    from cellonnx.autograd import grad as _grad
    return bool(getattr(_grad, "_nested", (0,))[0]) or any(isinstance(a, Tensor) and a.requires_grad for a in args)


def _cluster_only(method: str, needs: str) -> None:
    raise NotImplementedError(f"Cell.{method} is not supported by cellonnx: it needs {needs}; cellonnx runs a "
                              "network on one device")
