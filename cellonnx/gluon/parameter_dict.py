"""MXNet 1.x's ParameterDict: parameters keyed by full name (``resnetv10_conv0_weight``) under a prefix.

``block.params.get('weight', shape=...)`` creates (or returns) the parameter ``<prefix>weight``, taking it
from the shared dict given to the block's ``params=`` when that holds the name. ``collect_params()`` returns
one of these too (keyed by full names for 1.x blocks, by attribute path otherwise); it is a dict, with 1.x's
methods: ``initialize``, ``zero_grad``, ``setattr``, ``reset_ctx``, ``save``, ``load``, ``get_constant``.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from cellonnx.gluon import init as _init
from cellonnx.gluon.parameter import Constant, Parameter

__all__ = ["ParameterDict"]


def _merge_shape(new: tuple, old: tuple) -> tuple | None:
    """The shape agreeing with both (0 and -1 are unknown dims), or None if they conflict."""
    if len(new) != len(old):
        return None
    out = []
    for a, b in zip(new, old):
        if a != b and a > 0 and b > 0:
            return None
        out.append(b if a in (0, -1) else a)
    return tuple(out)


class ParameterDict(dict):
    """Parameters by full name, with a ``prefix`` that ``get`` puts before new names.

    Args:
        prefix: the prefix of the names ``get`` creates. Default: ''.
        shared: a ParameterDict whose parameters ``get`` returns instead of creating new ones.

    Examples:
        >>> from cellonnx import gluon
        >>> params = gluon.ParameterDict(prefix='net_')
        >>> w = params.get('weight', shape=(2, 3))
        >>> w.name
        'net_weight'
        >>> list(params.keys())
        ['net_weight']
        >>> params.initialize()
        >>> params['net_weight'].data().shape
        (2, 3)
    """

    def __init__(self, prefix: str = "", shared: ParameterDict | None = None, owner: Any = None) -> None:
        super().__init__()
        self._prefix = prefix
        self._shared = shared
        self._owner = owner

    @property
    def prefix(self) -> str:
        """The prefix of the names this dict creates."""
        return self._prefix

    def _lookup(self, name: str) -> Parameter | None:
        if name in self:
            return dict.__getitem__(self, name)
        if self._shared is not None and name in self._shared:
            p = self._shared[name]
            dict.__setitem__(self, name, p)
            return p
        return None

    def get(self, name: str, **kwargs: Any) -> Parameter:  # type: ignore[override]
        """The parameter ``<prefix><name>``, created with ``kwargs`` (Parameter's arguments) if it does not
        exist yet; for an existing one, the given attributes must agree with its own (unknown dims are filled
        in)."""
        full = self._prefix + name
        param = self._lookup(full)
        if param is None:
            param = Parameter(full, **kwargs)
            param.__dict__["_mx_name"] = full
            self._add(full, param, name)
            return param
        for key, value in kwargs.items():
            existing = getattr(param, key, None)
            if existing is None:
                setattr(param, key, value)
                continue
            if key == "shape":
                merged = _merge_shape(tuple(value), tuple(existing))
                if merged is not None:
                    param.shape = merged
                    continue
            elif key == "dtype" and np.dtype(getattr(value, "np_dtype", value)) == existing.np_dtype:
                continue
            elif key == "init" or value == existing:
                continue
            raise AssertionError(f"Cannot retrieve Parameter '{full}' because desired attribute "
                                 "does not match "
                                 f"with stored for attribute '{key}': desired '{value}' vs stored "
                                 f"'{existing}'.")
        return param

    def get_constant(self, name: str, value: Any = None) -> Constant:
        """The constant ``<prefix><name>`` (created from ``value`` if it does not exist)."""
        full = self._prefix + name
        param = self._lookup(full)
        if param is None:
            if value is None:
                raise KeyError(f"No constant named '{full}'. Please specify value if you want to "
                               "create a new "
                               "constant.")
            param = Constant(value, name=full)
            param.__dict__["_mx_name"] = full
            self._add(full, param, name)
        elif value is not None and not isinstance(param, Constant):
            raise AssertionError(f"Parameter '{full}' already exists but it is not a constant.")
        return param  # type: ignore[return-value]

    def _add(self, full: str, param: Parameter, local: str) -> None:
        dict.__setitem__(self, full, param)
        if self._owner is not None:
            self._owner._param_created(local, param)

    def update(self, other: Any = (), **kwargs: Any) -> None:  # type: ignore[override]
        """Add the parameters of ``other``; a name bound to another parameter here is an error."""
        items = other.items() if hasattr(other, "items") else other
        for key, value in [*items, *kwargs.items()]:
            if key in self and dict.__getitem__(self, key) is not value:
                raise ValueError("Cannot update self with other because they have different "
                                 "Parameters with the "
                                 f"same name '{key}'")
            dict.__setitem__(self, key, value)

    def _unique(self) -> list[Any]:
        seen: dict[int, Any] = {}
        for p in self.values():
            seen.setdefault(id(p), p)
        return list(seen.values())

    def initialize(self, init: Any = None, ctx: Any = None, verbose: bool = False, force_reinit: bool = False,
                   device: Any = None) -> None:
        """Initialize every parameter (its own initializer first, ``init`` otherwise; default Uniform())."""
        default = _init.create(init) if init is not None else _init.Uniform()
        if verbose:
            default.set_verbosity(True)
        for p in self._unique():
            if isinstance(p, Parameter):
                p.initialize(None, device if device is not None else ctx, default, force_reinit=force_reinit)

    def zero_grad(self) -> None:
        """Set every gradient to 0."""
        for p in self._unique():
            if isinstance(p, Parameter):
                p.zero_grad()

    def setattr(self, name: str, value: Any) -> None:
        """Set attribute ``name`` (grad_req, lr_mult, wd_mult ...) of every parameter."""
        for p in self._unique():
            setattr(p, name, value)

    def reset_ctx(self, ctx: Any = None) -> None:
        """Move every parameter to ``ctx`` (a device or a list; values stay in host memory)."""
        for p in self._unique():
            if isinstance(p, Parameter):
                p.reset_ctx(ctx)

    reset_device = reset_ctx

    def list_ctx(self) -> list[Any]:
        """The devices the parameters are on (each once)."""
        devices: list[Any] = []
        for p in self._unique():
            if isinstance(p, Parameter):
                devices.extend(d for d in p.list_ctx() if d not in devices)
        return devices

    list_device = list_ctx

    def save(self, filename: str | os.PathLike[str], strip_prefix: str = "") -> None:
        """Write the parameters to an MXNet .params file, names without ``strip_prefix``.

        Raises:
            ValueError: a name does not start with ``strip_prefix``.
        """
        from cellonnx.converters import mxnet_format

        arrays = {}
        for p in self._unique():
            name = getattr(p, "_mx_name", None) or p.name
            if not name.startswith(strip_prefix):
                raise ValueError(f"Prefix '{strip_prefix}' is to be striped before saving, but "
                                 "Parameter's name "
                                 f"'{name}' does not start with '{strip_prefix}'. this may be due "
                                 "to your Block "
                                 "shares parameters from other Blocks or you forgot to use 'with "
                                 "name_scope()' "
                                 "when creating child blocks. For more info on naming, please see "
                                 "https://mxnet.apache.org/api/python/docs/tutorials/packages/gluon/blocks/naming.html")
            p._check_initialized()
            arrays[name[len(strip_prefix):]] = p._data
        mxnet_format.write(filename, arrays)

    def load(self, filename: str | os.PathLike[str], ctx: Any = None, allow_missing: bool = False,
             ignore_extra: bool = False, restore_prefix: str = "", cast_dtype: bool = False,
             dtype_source: str = "current") -> None:
        """Load what ``save`` wrote: the file's names with ``restore_prefix`` put back.

        Raises:
            AssertionError: a parameter is missing (without allow_missing) or does not fit.
            ValueError: a name in the file is not here (without ignore_extra).
        """
        from cellonnx.gluon.block_io import read_params

        if restore_prefix:
            for name in self:
                if not name.startswith(restore_prefix):
                    raise ValueError(f"restore_prefix is '{restore_prefix}' but Parameters name "
                                     f"'{name}' does "
                                     "not start with it")
        loaded = {restore_prefix + (k[4:] if k.startswith(("arg:", "aux:")) else k): v
                  for k, v in read_params(filename).items()}
        if not allow_missing:
            for name in self:
                if name not in loaded:
                    raise AssertionError(f"Parameter '{name[len(restore_prefix):]}' is missing in file "
                                         f"'{os.fspath(filename)}', which contains parameters: "
                                         f"{sorted(k[len(restore_prefix):] for k in loaded)}. "
                                         "Please make sure "
                                         "source and target networks have the same prefix.")
        for name, value in loaded.items():
            if name not in self:
                if not ignore_extra:
                    raise ValueError(f"Parameter '{name[len(restore_prefix):]}' loaded from file "
                                     f"'{os.fspath(filename)}' is not present in ParameterDict, choices are: "
                                     f"{sorted(k[len(restore_prefix):] for k in self)}. Set "
                                     "ignore_extra to True "
                                     "to ignore. Please make sure source and target networks have the "
                                     "same prefix.")
                continue
            p = self[name]
            if isinstance(p, Parameter):
                p._load_init(value, cast_dtype, dtype_source)
            else:
                p.set_data(np.array(value, copy=True))

    def __repr__(self) -> str:
        body = "\n".join(f"  {p!r}" for p in self.values())
        return f"{self._prefix} (\n{body}\n)" if self._prefix else f"(\n{body}\n)"
