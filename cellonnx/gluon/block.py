"""gluon.Block: MXNet's Block surface over nn.Cell (``forward`` instead of ``construct``).

Children and parameters are the Cell's (attribute assignment registers them); structural names are attribute
paths (``features.0.weight``), the keys ``save_parameters`` uses and, for Gluon 2.x code, ``collect_params``.
Gluon 1.x code (``prefix=`` / ``params=`` arguments, ``name_scope()``, ``hybrid_forward``) gets MXNet 1.x's
prefixed names (``resnetv10_conv0_weight``, see ``naming``) from ``collect_params`` and as the parameters'
names. A parameter whose shape is still unknown gets it from the block's ``infer_shape`` at the first call;
saving and loading live in ``block_io.BlockIO``.
"""
from __future__ import annotations

import re
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from cellonnx.gluon import init as _init
from cellonnx.gluon import naming
from cellonnx.gluon.block_io import BlockIO
from cellonnx.gluon.parameter import Parameter
from cellonnx.gluon.parameter_dict import ParameterDict
from cellonnx.nn.cell import Cell
from cellonnx.nn.cell_hooks import CellHookHandle
from cellonnx.tensor import Parameter as CoreParameter
from cellonnx.tensor import Tensor

__all__ = ["Block"]


def _grad_req(p: CoreParameter) -> str:
    return p.grad_req if isinstance(p, Parameter) else ("write" if p.requires_grad else "null")


def _shape_known(shape: Any) -> bool:
    return shape is not None and all(int(d) > 0 for d in shape)


def adopt(out: Any, args: tuple) -> Any:
    """``out`` with its plain Tensors turned into the array class of the first tensor input when that is an
    array API's class (mx.nd.NDArray, mx.np.ndarray): NDArray in, NDArray out, as in MXNet."""
    for a in args:
        if isinstance(a, Tensor):
            cls = type(a)
            if getattr(cls, "_gluon_array", False):
                from cellonnx.mxnet._placement import follow
                return follow(_retype(out, cls), (a,), {})  # on the input's device, as in MXNet
            return out
    return out


def _retype(out: Any, cls: type) -> Any:
    if type(out) is Tensor:
        out.__class__ = cls
        return out
    if type(out) in (tuple, list):
        return type(out)(_retype(o, cls) for o in out)
    return out


def _indent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    return lines[0] + "".join("\n" + " " * spaces + line for line in lines[1:])


class Block(BlockIO, Cell):
    """Base class of Gluon layers and models: subclass it, create child blocks and Parameters in ``__init__``
    and compute in ``forward``.

    Examples:
        >>> from cellonnx import gluon
        >>> from cellonnx.gluon import nn
        >>> from cellonnx.mxnet import nd
        >>> class Model(gluon.Block):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.dense0 = nn.Dense(20)
        ...         self.dense1 = nn.Dense(20)
        ...     def forward(self, x):
        ...         return self.dense1(nd.relu(self.dense0(x)))
        >>> model = Model()
        >>> model.initialize()
        >>> print(model(nd.zeros((10, 10))).shape)
        (10, 20)
    """

    _uses_hybrid_forward = False

    def __init__(self, prefix: str | None = None, params: Any = None, **kwargs: Any) -> None:
        if kwargs:
            raise TypeError(f"{type(self).__name__}: unexpected arguments {sorted(kwargs)}")
        if params is not None and not isinstance(params, dict):
            raise TypeError(f"{type(self).__name__}: params must be a ParameterDict "
                            "(collect_params()) to share, "
                            f"got {type(params).__name__}")
        super().__init__()
        d = self.__dict__
        d["_pending_loads"] = {}
        d["_callback"] = None
        d["_monitor_all"] = False
        d["_empty_prefix"] = prefix == ""
        shared = params if params is None or isinstance(params, ParameterDict) else ParameterDict("", None)
        if params is not None and shared is not params:
            shared.update(params)
        d["_prefix"], d["_param_prefix"], d["_shared_params"] = naming.create(prefix, shared, self._alias())
        d["_pdict"] = ParameterDict(self._param_prefix, self._shared_params, owner=self)
        mode = naming.get_mode()
        d["_legacy"] = mode == "1.x" or (mode == "auto" and (
            prefix is not None or params is not None or naming.in_scope() or type(self)._uses_hybrid_forward))
        d["_name_scope"] = naming.BlockScope(self)

    def _alias(self) -> str:
        """The hint of this block's 1.x prefix (``dense`` for ``dense0_``)."""
        return type(self).__name__.lower()

    @property
    def prefix(self) -> str:
        """The 1.x prefix of this block (``resnetv10_``)."""
        return self._prefix

    @property
    def name(self) -> str:
        """The 1.x prefix without its trailing '_'."""
        return self._prefix[:-1] if self._prefix.endswith("_") else self._prefix

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Cell runs ``construct``: alias it to ``forward`` so calls, hooks and tracing (which names graph
        # inputs after the signature) all see the user's forward
        if "forward" in cls.__dict__:
            cls.construct = cls.__dict__["forward"]  # type: ignore[method-assign]

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def forward(self, *args: Any) -> Any:
        """The computation; every subclass defines it."""
        raise NotImplementedError(f"{type(self).__name__} must define forward")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._prepare_params(args)
        return adopt(Cell.__call__(self, *args, **kwargs), args)

    # ---------------------------------------------------------------- children and attributes
    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, Cell) and "_cells" in self.__dict__:
            self.register_child(value, name)
            return
        if isinstance(value, Parameter) and "_pdict" in self.__dict__:
            value = self._own_parameter(value)
        super().__setattr__(name, value)

    def _own_parameter(self, p: Parameter) -> Parameter:
        """Give ``p`` its 1.x name in this block's ParameterDict (or use the shared parameter of that
        name)."""
        pdict = self._pdict
        if any(q is p for q in pdict.values()):
            return p
        local = p.__dict__.get("_mx_local", p.name)
        full = pdict.prefix + local
        shared = pdict._lookup(full)
        if shared is not None and shared is not p:
            return shared
        p.__dict__.setdefault("_mx_local", local)
        p.__dict__["_mx_name"] = full
        dict.__setitem__(pdict, full, p)
        if self._legacy:
            p.name = full
        return p

    def _param_created(self, local: str, p: Parameter) -> None:
        """ParameterDict.get made ``p`` for this block: 1.x code."""
        p.__dict__["_mx_local"] = local
        self.__dict__["_legacy"] = True

    def register_child(self, block: Cell, name: str | None = None) -> None:
        """Register ``block`` as a child called ``name`` (default: its index, as Sequential names them)."""
        if not isinstance(block, Cell):
            raise TypeError(f"{type(self).__name__}.register_child: expected a Block, got "
                            f"{type(block).__name__}")
        if name is None:
            name = str(len(self._cells))
        self._set_cell(name, block)

    @property
    def params(self) -> ParameterDict:
        """This block's own parameters (not its children's: see ``collect_params``): by 1.x name for 1.x
        blocks (a ParameterDict whose ``get`` creates parameters), by attribute name otherwise."""
        if self._legacy:
            return self._pdict
        view = ParameterDict(self._param_prefix, self._shared_params, owner=None)
        dict.update(view, {k: p for k, p in self._params.items() if p is not None})
        view.get = self._pdict.get  # type: ignore[method-assign]
        view.get_constant = self._pdict.get_constant  # type: ignore[method-assign]
        return view

    def name_scope(self) -> naming.BlockScope:
        """Gluon 1.x's naming scope: blocks created inside are named under this block's prefix.

        Examples:
            >>> from cellonnx import gluon
            >>> from cellonnx.gluon import nn
            >>> class Head(gluon.HybridBlock):
            ...     def __init__(self, **kwargs):
            ...         super().__init__(**kwargs)
            ...         with self.name_scope():
            ...             self.dense = nn.Dense(20, in_units=4)
            >>> sorted(Head(prefix="head_").collect_params())
            ['head_dense0_bias', 'head_dense0_weight']
        """
        self.__dict__["_legacy"] = True
        return self._name_scope

    def _own_params(self) -> Iterator[tuple[str, CoreParameter]]:
        """(local name, parameter) of this block: attribute-registered ones, then those only in the
        1.x ParameterDict."""
        seen = set()
        for name, p in self._params.items():
            if p is not None:
                seen.add(id(p))
                yield name, p
        for full, p in self._pdict.items():
            if id(p) not in seen:
                seen.add(id(p))
                yield full, p

    def _blocks(self) -> Iterator[Block]:
        for _, cell in self.cells_and_names():
            if isinstance(cell, Block):
                yield cell

    def _legacy_tree(self) -> bool:
        """Whether this block or one below it is Gluon 1.x code (named the 1.x way)."""
        return any(b._legacy for b in self._blocks())

    def _legacy_walk(self, path: tuple = ()) -> Iterator[tuple[str, CoreParameter]]:
        """(1.x name, parameter) as MXNet 1.x's collect_params lists them: own ParameterDict, then
        children."""
        if id(self) in path:
            return
        path = path + (id(self),)
        for name, p in self._own_params():
            yield p.__dict__.get("_mx_name") or self._param_prefix + name, p
        for child in self._cells.values():
            if isinstance(child, Block):
                yield from child._legacy_walk(path)
            elif child is not None:
                for pname, p in child.parameters_and_names():
                    yield p.name or pname, p

    def _walk(self, prefix: str = "", path: tuple = ()) -> Iterator[tuple[str, Block, str, CoreParameter]]:
        """(structural name, owning block, local name, parameter) for every parameter reachable, shared ones
        under each of their names, as MXNet's _collect_params_with_prefix lists them."""
        if id(self) in path:
            return
        path = path + (id(self),)
        head = prefix + "." if prefix else ""
        for name, p in self._params.items():
            if p is not None:
                yield head + name, self, name, p
        for name, child in self._cells.items():
            if child is None:
                continue
            if isinstance(child, Block):
                yield from child._walk(head + name, path)
            else:  # a plain cellonnx Cell inside a gluon model
                for pname, p in child.parameters_and_names():
                    yield f"{head}{name}.{pname}", child, pname, p

    def collect_params(self, select: str | None = None) -> ParameterDict:
        """All parameters of this block and its children: by structural name (``features.0.weight``) for
        Gluon 2.x code, by 1.x name (``resnetv10_conv0_weight``) when the block or one below it is 1.x code.

        Args:
            select: a regular expression the names must match from their start (``'.*weight|.*bias'``).

        Returns:
            ParameterDict (a dict) name -> Parameter; with structural names a shared parameter appears under
            each of its names, with 1.x names once.
        """
        pattern = re.compile(select) if select else None
        out = ParameterDict(self._param_prefix if self._legacy_tree() else "")
        for k, p in self._named_params():
            if pattern is None or pattern.match(k):
                dict.__setitem__(out, k, p)
        return out

    def _legacy_params(self) -> ParameterDict:
        """Every parameter by its 1.x name, whatever naming this block follows."""
        out = ParameterDict(self._param_prefix)
        for k, p in self._legacy_walk():
            if k not in out:
                dict.__setitem__(out, k, p)
        return out

    def _named_params(self) -> list[tuple[str, CoreParameter]]:
        """(name, parameter): 1.x names for 1.x code, each parameter once; structural paths otherwise."""
        if self._legacy_tree():
            out: dict[str, CoreParameter] = {}
            for k, p in self._legacy_walk():
                if k not in out:
                    out[k] = p
                    p.name = k  # MXNet 1.x's Parameter.name is the full name
            return list(out.items())
        return [(k, p) for k, _, _, p in self._walk()]

    def _name_params(self) -> None:
        """Name every parameter as graphs traced from this block name their initializers: its 1.x name for
        1.x code, its (first) structural path otherwise."""
        named: set[int] = set()
        for key, p in self._named_params():
            if id(p) not in named:
                named.add(id(p))
                p.name = key

    def _unique_params(self) -> list[CoreParameter]:
        seen: dict[int, CoreParameter] = {}
        for _, _, _, p in self._walk():
            seen.setdefault(id(p), p)
        for b in self._blocks():
            for _, p in b._own_params():
                seen.setdefault(id(p), p)
        return list(seen.values())

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        if not self._legacy:
            super().update_parameters_name(prefix, recurse)

    def check_names_and_refresh_name(self) -> None:
        if not self._legacy_tree():
            super().check_names_and_refresh_name()

    # ---------------------------------------------------------------- deferred shapes
    def infer_shape(self, *args: Any) -> None:
        """Set the unknown dims of this block's parameters from the first inputs; layers with deferred
        shapes (in_units=0, in_channels=0) define it."""
        unknown = [p for p in self.params.values() if isinstance(p, Parameter) and not _shape_known(p.shape)]
        if unknown:
            listed = ", ".join(f"{p.name} ({p.shape})" for p in unknown)
            raise RuntimeError(f"{type(self).__name__} has parameters with unknown shape. You need to either "
                               "specify the shape in __init__ or implement "
                               f"{type(self).__name__}.infer_shape to "
                               "set the parameter shapes based on the first input. Parameters with "
                               "unknown shapes "
                               f"are {listed}")

    def _prepare_params(self, args: tuple) -> None:
        """Before a call: infer unknown shapes and finish deferred initialization of this block's
        parameters."""
        own = [p for p in self._params.values() if p is not None and p._deferred is not None]
        if not own:
            return
        if any(isinstance(p, Parameter) and not _shape_known(p.shape) for p in own):
            try:
                self.infer_shape(*args)
            except Exception as exc:
                raise ValueError(f"{type(self).__name__}: deferred initialization failed because "
                                 "shape cannot be "
                                 f"inferred. {exc}") from exc
        for local, (value, cast_dtype, source) in list(self._pending_loads.items()):
            converted = self._convert_loaded(local, value)
            if converted is not None:
                self._params[local]._load_init(converted, cast_dtype, source)
                del self._pending_loads[local]
        for p in own:
            if isinstance(p, Parameter):
                p._finish_deferred_init()
                p._check_initialized()

    def _convert_loaded(self, local: str, value: Any) -> Any:
        """A loaded array for parameter ``local`` in this block's layout, or None to wait for the shape (MXNet
        1.x layouts that differ from 2.x are converted here)."""
        return value

    # ---------------------------------------------------------------- initialization and state
    def initialize(self, init: Any = None, device: Any = None, verbose: bool = False,
                   force_reinit: bool = False,
                   ctx: Any = None) -> None:
        """Initialize this block's and its children's parameters (each parameter's own initializer first,
        ``init`` otherwise); parameters whose shapes are unknown are initialized at the first forward pass.

        Args:
            init: the global initializer. Default: Uniform(0.07).
            device: the device or list of devices (``ctx`` is MXNet 1.x's name); default: the current one.
            verbose: log each initialized parameter. Default: False.
            force_reinit: re-initialize parameters that hold values. Default: False.
        """
        init = _init.create(init) if init is not None else _init.Uniform()
        if verbose:
            init.set_verbosity(True)
        for p in self._unique_params():
            if isinstance(p, Parameter):
                p.initialize(None, device if device is not None else ctx, init, force_reinit=force_reinit)

    def cast(self, dtype: Any) -> Block:
        """Cast the parameters of this block and its children to ``dtype``."""
        for child in self._cells.values():
            if isinstance(child, Block):
                child.cast(dtype)
        for p in self.params.values():
            if isinstance(p, Parameter):
                p.cast(dtype)
        return self

    def zero_grad(self) -> None:
        """Set every parameter's gradient to 0."""
        for p in self._unique_params():
            if isinstance(p, Parameter):
                p.zero_grad()
            elif p.grad is not None:
                p.grad = None

    def setattr(self, name: str, value: Any) -> None:
        """Set an attribute of every parameter: ``net.setattr('grad_req', 'null')`` freezes the network,
        ``net.setattr('lr_mult', 0.5)`` halves its learning rate."""
        for p in self._unique_params():
            setattr(p, name, value)

    def share_parameters(self, shared: dict | None) -> Block:
        """Use the parameters in ``shared`` (structural name -> Parameter, as ``collect_params`` gives) in
        place of this block's parameters with the same names; they stay tied through training.

        Examples:
            >>> from cellonnx.gluon import nn
            >>> dense0, dense1 = nn.Dense(3, in_units=2), nn.Dense(3, in_units=2)
            >>> dense1 = dense1.share_parameters(dense0.collect_params())
            >>> dense0.initialize()
            >>> dense1.weight is dense0.weight
            True
        """
        if shared is None:
            return self
        if not isinstance(shared, dict):
            raise ValueError(f"'shared' should be in type of Dict. Get type {type(shared)}!")  # noqa: TRY004 - MXNet's type
        left = set(shared)
        for key, block, local, _ in list(self._walk()):
            new = shared.get(key)
            if new is not None and isinstance(block, Block):
                Cell.__setattr__(block, local, new)
                left.discard(key)
        for name in sorted(left):
            warnings.warn(f"Parameter name {name} is not in the current model!", stacklevel=2)
        self._clear_cached_op_recursive()
        return self

    def reset_device(self, device: Any = None) -> None:
        """Move every parameter to ``device`` (a device or a list; values stay in host memory, onnxruntime
        sessions copy them)."""
        for p in self._unique_params():
            if isinstance(p, Parameter):
                p.reset_device(device)

    def reset_ctx(self, ctx: Any = None) -> None:
        warnings.warn("Block.reset_ctx has been renamed to Block.reset_device", DeprecationWarning,
                      stacklevel=2)
        self.reset_device(ctx)

    # ---------------------------------------------------------------- hybridization (HybridBlock overrides)
    def hybridize(self, active: bool = True, **kwargs: Any) -> None:
        """Hybridize the HybridBlock children (a plain Block itself always runs eagerly)."""
        for child in self._cells.values():
            if isinstance(child, Block):
                child.hybridize(active, **kwargs)

    def _clear_cached_op(self) -> None:
        """Forget compiled graphs (HybridBlock)."""

    def _clear_cached_op_recursive(self) -> None:
        for _, cell in self.cells_and_names():
            if isinstance(cell, Block):
                cell._clear_cached_op()

    def register_op_hook(self, callback: Callable[[str, str, Tensor], Any],
                         monitor_all: bool = False) -> None:
        """Install ``callback(tensor_name, op_name, tensor)`` on the hybridized blocks below this one."""
        for child in self._cells.values():
            if isinstance(child, Block):
                child.register_op_hook(callback, monitor_all)

    def infer_type(self, *args: Any) -> None:
        """Give the float parameters of this block and its children the dtype of the first float input."""
        dt = next((a.dtype for a in args if isinstance(a, Tensor) and a.dtype.is_floating_point), None) \
            if args else None
        if dt is None:
            return
        for p in self._unique_params():
            if isinstance(p, Parameter) and p.dtype.is_floating_point and p.dtype != dt:
                p.cast(dt)

    # ---------------------------------------------------------------- hooks
    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,  # type: ignore[override]
                                  with_kwargs: bool = False) -> CellHookHandle:
        """``hook(block, inputs)``, called before ``forward``; the handle's ``detach()`` removes it."""
        handle = super().register_forward_pre_hook(hook, prepend=prepend, with_kwargs=with_kwargs)
        setattr(handle, "detach", handle.remove)  # noqa: B010 - MXNet's HookHandle name
        return handle

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,  # type: ignore[override]
                              with_kwargs: bool = False, always_call: bool = False) -> CellHookHandle:
        """``hook(block, inputs, output)``, called after ``forward``; the handle's ``detach()`` removes it."""
        handle = super().register_forward_hook(hook, prepend=prepend, with_kwargs=with_kwargs,
                                               always_call=always_call)
        setattr(handle, "detach", handle.remove)  # noqa: B010 - MXNet's HookHandle name
        return handle

    # ---------------------------------------------------------------- summary
    def summary(self, *inputs: Any) -> None:
        """Print a table of the layers with their output shapes and parameter counts, by running ``inputs``.

        The network must be initialized and not hybridized.
        """
        from cellonnx.gluon.nn.basic_layers import HybridSequential, Sequential

        rows: OrderedDict[str, dict] = OrderedDict()
        seen: set[int] = set()
        hooks = []

        def shape_str(value: Any) -> str:
            if isinstance(value, Tensor):
                return str(tuple(value.shape))
            if isinstance(value, (list, tuple)):
                parts = [shape_str(v) for v in value]
                return ", ".join(parts) if value is inputs else "[" + ", ".join(parts) + "]"
            return str(value)

        def hook(block: Block, _: Any, outputs: Any) -> None:
            key = f"{type(block).__name__}-{len(rows)}"
            total = trainable = shared = 0
            for p in block.params.values():
                n = int(p.size)
                total += n
                trainable += 0 if _grad_req(p) == "null" else n
                if id(p) in seen:
                    shared += n
                seen.add(id(p))
            rows[key] = {"shape": shape_str(outputs), "n": total, "trainable": trainable, "shared": shared}

        def attach(block: Cell) -> None:
            if getattr(block, "_active", False):
                raise AssertionError(f'"{type(block).__name__}" must not be hybridized to print summary.')
            if isinstance(block, Block) and not isinstance(block, (Sequential, HybridSequential)):
                hooks.append(block.register_forward_hook(hook))

        rows["Input"] = {"shape": shape_str(inputs), "n": 0, "trainable": 0, "shared": 0}
        try:
            self.apply(attach)
            self(*inputs)
            line = "{:>20}  {:>42} {:>15}"
            print("-" * 80)
            print(line.format("Layer (type)", "Output Shape", "Param #"))
            print("=" * 80)
            for key, row in rows.items():
                print(line.format(key, row["shape"], row["n"]))
            total = sum(r["n"] for r in rows.values())
            trainable = sum(r["trainable"] for r in rows.values())
            shared = sum(r["shared"] for r in rows.values())
            print("=" * 80)
            print("Parameters in forward computation graph, duplicate included")
            print(f"   Total params: {total}")
            print(f"   Trainable params: {trainable}")
            print(f"   Non-trainable params: {total - trainable}")
            print(f"Shared params in forward computation graph: {shared}")
            print(f"Unique parameters in model: {total - shared}")
            print("-" * 80)
        finally:
            for h in hooks:
                h.remove()

    # ---------------------------------------------------------------- printing
    def __repr__(self) -> str:
        lines = [f"  ({key}): {_indent(repr(child), 2)}" for key, child in self._cells.items()
                 if child is not None]
        if not lines:
            return f"{type(self).__name__}()"
        return f"{type(self).__name__}(\n" + "\n".join(lines) + "\n)"


def __getattr__(name: str) -> Any:
    # MXNet defines HybridBlock in gluon/block.py (``from mxnet.gluon.block import HybridBlock``); it lives in
    # hybrid.py here, which imports this module
    if name == "HybridBlock":
        from cellonnx.gluon.hybrid import HybridBlock
        return HybridBlock
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
