"""Saving and loading a Gluon block's parameters: MXNet's real .params files (``save_parameters`` keys are
structural names, ``features.0.weight``), ``load_dict`` with MXNet's flags, and ``save`` / ``load`` of the
structure plus parameters.

Files go through ``cellonnx.converters`` (``mxnet_format``; MXNet 2.x's ``npx.savez`` archives are .npz inside
a .params name and are read as such). Keys ``arg:NAME`` / ``aux:NAME`` from ``HybridBlock.export`` files load
too.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from cellonnx.converters import mxnet_format, npz_format
from cellonnx.converters.atomic import atomic_write
from cellonnx.tensor import Parameter as CoreParameter
from cellonnx.tensor import Tensor

__all__ = ["BlockIO", "read_params"]


def from_unfused_keys(loaded: dict[str, Any]) -> dict[str, Any]:
    from cellonnx.gluon.rnn.rnn_layer import from_unfused_keys as convert
    return convert(loaded) if any("_unfused." in k for k in loaded) else loaded


def _brief_print_list(items: Any, limit: int = 7) -> str:
    """MXNet's short listing of names: the first and last few, quoted."""
    items = list(items)
    if len(items) > limit:
        head, tail = items[:limit // 2], items[-(limit // 2):]
        return _brief_print_list(head, limit) + ", ..., " + _brief_print_list(tail, limit)
    return ", ".join(f"'{i}'" for i in items)


def read_params(filename: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The named arrays of an MXNet parameter file (nd.save / save_parameters / export, or npx.savez)."""
    path = Path(filename)
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic[:2] == b"PK":
        tensors, _ = npz_format.read(path)
        return dict(tensors)
    tensors, meta = mxnet_format.read(path)
    if not meta.get("named", True) and tensors:
        raise ValueError(f"{path}: holds an unnamed list of {len(tensors)} arrays; Gluon parameter "
                         "files map names "
                         "to arrays")
    return dict(tensors)


class BlockIO:
    """Mixed into gluon.Block (which provides ``_walk``, ``_cells`` and ``_pending_loads``)."""

    _walk: Any

    def save_parameters(self, filename: str | os.PathLike[str], deduplicate: bool = False) -> None:
        """Write the parameters to an MXNet .params file, keyed by structural name.

        Args:
            filename: the file.
            deduplicate: write a shared parameter once (under its last name) instead of under each name.
                Default: False.
        """
        params = {key: p for key, _, _, p in self._walk()}
        if self._legacy_tree():  # MXNet 1.x keys gluon.rnn's fused layers by their unfused cells
            from cellonnx.gluon.rnn.rnn_layer import unfused_key
            params = {unfused_key(block, key, local): p for key, block, local, p in self._walk()}
        if deduplicate:
            last = {id(p): key for key, p in params.items()}
            params = {key: p for key, p in params.items() if last[id(p)] == key}
        arrays = {}
        for key, p in params.items():
            if p.is_deferred:
                raise RuntimeError(f"save_parameters: parameter '{key}' has no value yet (initialize "
                                   "the network "
                                   "and run one forward pass first)")
            arrays[key] = p._data
        mxnet_format.write(filename, arrays)

    def load_parameters(self, filename: str | os.PathLike[str], device: Any = None,
                        allow_missing: bool = False,
                        ignore_extra: bool = False, cast_dtype: bool = False, dtype_source: str = "current",
                        ctx: Any = None) -> None:
        """Load parameters written by ``save_parameters`` (this one's or MXNet's).

        Args:
            filename: the .params file.
            device: accepted for compatibility.
            allow_missing: leave parameters absent from the file as they are. Default: False.
            ignore_extra: skip names in the file that are not in this block. Default: False.
            cast_dtype: cast arrays whose dtype differs (to the parameter's with ``dtype_source='current'``,
                or give the parameter the file's with 'saved'). Default: False.
            dtype_source: 'current' or 'saved'. Default: 'current'.
        """
        loaded = read_params(filename)
        if not loaded:
            return
        if not any("." in k for k in loaded):
            loaded = self._from_legacy_names(loaded)
        loaded = from_unfused_keys(loaded)  # MXNet 1.x's keys for gluon.rnn's fused layers
        self.load_dict({"params": loaded, "filename": os.fspath(filename)}, device, allow_missing,
                       ignore_extra,
                       cast_dtype, dtype_source)

    def _from_legacy_names(self, loaded: dict[str, Any]) -> dict[str, Any]:
        """MXNet 1.x's legacy files (``collect_params().save(fname, strip_prefix=net.prefix)``) name
        parameters by their 1.x names without the block's prefix: their structural names instead."""
        walk = list(self._walk())
        if set(loaded) <= {key for key, _, _, _ in walk}:
            return loaded  # a single layer's file: its structural names have no '.' either
        by_name: dict[str, str] = {}
        for key, _, _, p in walk:
            by_name.setdefault(p.__dict__.get("_mx_name") or p.name, key)
        prefix = getattr(self, "_prefix", "")
        return {by_name.get(prefix + k, k): v for k, v in loaded.items()}

    def load_dict(self, param_dict: Mapping[str, Any], device: Any = None, allow_missing: bool = False,
                  ignore_extra: bool = False, cast_dtype: bool = False,
                  dtype_source: str = "current") -> None:
        """Load parameters from a dict of structural name -> array (or Tensor).

        Raises:
            AssertionError: a parameter is missing (without allow_missing), or its shape or dtype does
                not fit.
            ValueError: a name in the dict is not a parameter of this block (without ignore_extra).
        """
        filename = param_dict.get("filename") if isinstance(param_dict.get("filename"), str) else None
        if filename is not None:
            param_dict = param_dict["params"]
        error_str = f"file: {filename}" if filename else "param_dict"
        entries = {key: (block, local, p) for key, block, local, p in self._walk()}
        loaded = {(k[4:] if k.startswith(("arg:", "aux:")) else k): v for k, v in param_dict.items()}
        if not allow_missing:
            names_of: dict[int, list[str]] = {}
            for key, (_, _, p) in entries.items():
                names_of.setdefault(id(p), []).append(key)
            for key, (_, _, p) in entries.items():
                if not any(n in loaded for n in names_of[id(p)]):
                    raise AssertionError(f"Parameter '{key}' is missing in '{error_str}', which contains "
                                         "parameters: "
                                         f"{_brief_print_list(loaded)}. Set allow_missing=True to "
                                         "ignore missing "
                                         "parameters.")
        for name, value in loaded.items():
            if name not in entries:
                if not ignore_extra:
                    raise ValueError(f"Parameter '{name}' loaded from '{error_str}' is not present in "
                                     "Dict, which "
                                     f"contains parameters {_brief_print_list(entries)}. Set "
                                     "ignore_extra=True to "
                                     "ignore.")
                continue
            block, local, p = entries[name]
            arr = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
            _load_one(block, local, p, arr, cast_dtype, dtype_source)

    # ---------------------------------------------------------------- structure + parameters
    def _describe(self) -> dict[str, Any]:
        from cellonnx.gluon.block import Block

        children = {}
        for name, child in self._cells.items():  # type: ignore[attr-defined]
            if child is not None:
                children[name] = child._describe() if isinstance(child,
                                                                 Block) else {"type": type(child).__name__}
        return {"type": type(self).__name__,
                "params": [k for k, p in self._params.items()  # type: ignore[attr-defined]
                                                       if p is not None],
                "hybridized": bool(getattr(self, "_active", False)), "children": children}

    def save(self, prefix: str) -> None:
        """Write ``<prefix>-model.json`` (the block tree: types, parameter names, hybridized flags) and
        ``<prefix>-model.params`` (the parameters)."""
        doc = {"format": "cellonnx.gluon.Block.save", "version": 1, "model": self._describe()}
        with atomic_write(f"{prefix}-model.json") as f:
            f.write(json.dumps(doc, indent=1).encode())
        self.save_parameters(f"{prefix}-model.params")

    def load(self, prefix: str) -> None:
        """Load what ``save(prefix)`` wrote into a block built the same way (same types in the same order);
        blocks saved hybridized are hybridized again."""
        try:
            with open(f"{prefix}-model.json", encoding="utf-8") as f:
                doc = json.load(f)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, bad UTF-8, nesting past the parser
            raise ValueError(f"{prefix}-model.json: not a file written by Block.save: "
                             f"{type(exc).__name__}: {str(exc)[:200]}") from None
        if not isinstance(doc, dict) or "model" not in doc:
            raise ValueError(f"{prefix}-model.json: not a file written by Block.save")
        for path, want, block in _match(self, doc["model"], ""):
            raise ValueError(f"{prefix}-model.json: the block at '{path or '<root>'}' was saved as "
                             f"{want}, this "
                             f"model has {type(block).__name__ if block is not None else 'nothing'} "
                             "there; build the "
                             "model the same way before load")
        self.load_parameters(f"{prefix}-model.params")
        _rehybridize(self, doc["model"])


def _load_one(block: Any, local: str, p: CoreParameter, arr: np.ndarray, cast_dtype: bool,
              dtype_source: str) -> None:
    from cellonnx.gluon.block import Block
    from cellonnx.gluon.parameter import Parameter

    if isinstance(block, Block):
        converted = block._convert_loaded(local, arr)
        # None: the block needs its input shape first (GroupNorm with MXNet 1.x per-group values)
        if converted is None:
            block._pending_loads[local] = (np.array(arr, copy=True), cast_dtype, dtype_source)
            return
        arr = converted
    if isinstance(p, Parameter):
        p._load_init(arr, cast_dtype, dtype_source)
    else:
        p.set_data(np.array(arr, copy=True))


def _match(block: Any, desc: dict, path: str) -> Iterator[tuple[str, str, Any]]:
    from cellonnx.gluon.block import Block

    if block is None or type(block).__name__ != desc.get("type"):
        yield path, str(desc.get("type")), block
        return
    if not isinstance(block, Block):
        return
    saved = desc.get("children", {})
    names = [n for n, c in block._cells.items() if c is not None]
    if list(saved) != names:
        yield path, f"a {desc.get('type')} with children {list(saved)}", block
        return
    for name in names:
        yield from _match(block._cells[name], saved[name], f"{path}.{name}" if path else name)


def _rehybridize(block: Any, desc: dict) -> None:
    if desc.get("hybridized") and hasattr(block, "_set_active"):
        block._set_active(True)
    for name, child_desc in desc.get("children", {}).items():
        child = block._cells.get(name) if hasattr(block, "_cells") else None
        if child is not None:
            _rehybridize(child, child_desc)
