"""Load another framework's checkpoint into a Cell, driven by the Cell's own layer types.

The Cell side is only this: walk ``cells_and_names()``, say which layer kind owns each parameter
(``{"bn.gamma": "BatchNorm", "gn.gamma": {"kind": "GroupNorm", "num_groups": 2, "num_channels": 4}, ...}``), and
hand that plain description to cellonnx.converters.mapping, which knows every framework's names and layouts
(PyTorch's BatchNorm weight/running_var, MXNet's gamma/running_var and 1.x per-group GroupNorm, embedding_table vs
weight, LSTM spellings and gate orders). Nothing is guessed from strings: a Dense's 'weight' stays weight, a
BatchNorm2d's 'weight' becomes its gamma.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.checkpoint import _FLOAT, _INT, load_target
from cellonnx.converters import LoadReport, Mismatch, compare, convert_names, read
from cellonnx.converters.mapping import PROFILES, find_prefix, guess_profile, match_mxnet_blocks, source_names

__all__ = ["describe_layers", "load_checkpoint_into"]

SOURCES = ("auto", "mindspore", "torch", "mxnet", "mxnet1", "cellonnx")
# what a file format suggests when its names fit several frameworks equally well
_FORMAT_PRIOR = {"mindspore": "mindspore", "onnx": "cellonnx", "torch": "torch", "mxnet": "mxnet"}


def describe_layers(net: Any) -> dict[str, Any]:
    """The layer kind owning each parameter of ``net``, keyed by parameter name, for converters.mapping.

    Parameters of cells with no kind of their own (custom cells' direct parameters) are left out; they keep their
    names in every framework.

    Examples:
        >>> from cellonnx.checkpoint_mapping import describe_layers
        >>> describe_layers(nn.SequentialCell([nn.Dense(2, 3), nn.BatchNorm1d(3)]))
        {'0.weight': 'Dense', '0.bias': 'Dense', '1.moving_mean': 'BatchNorm', ...}
    """
    description: dict[str, Any] = {}
    for _, cell in net.cells_and_names():
        kind = _kind(cell)
        if kind is None:
            continue
        for _, param in cell.parameters_and_names(expand=False):
            description[param.name] = kind
    return description


def _kind(cell: Any) -> Any:
    from cellonnx import nn
    from cellonnx.nn.layer.conv import Conv2dTranspose
    from cellonnx.nn.layer.normalization import GroupNorm, _BatchNorm
    from cellonnx.nn.layer.rnn import LSTM

    if isinstance(cell, _BatchNorm):
        return "BatchNorm"
    if isinstance(cell, GroupNorm):
        return {"kind": "GroupNorm", "num_groups": cell.num_groups, "num_channels": cell.num_channels}
    if isinstance(cell, Conv2dTranspose):
        return "ConvTranspose"
    table = (("LayerNorm", "LayerNorm"), ("InstanceNorm2d", "InstanceNorm"), ("Embedding", "Embedding"),
             ("Dense", "Dense"), ("Conv1d", "Conv"), ("Conv2d", "Conv"), ("PReLU", "PReLU"), ("GRU", "GRU"),
             ("RNN", "RNN"))
    for class_name, kind in table:
        cls = getattr(nn, class_name, None)
        if cls is not None and isinstance(cell, cls):
            return kind
    if isinstance(cell, LSTM):
        return {"kind": "LSTM", "bidirectional": bool(cell.bidirectional)}
    return None


def load_checkpoint_into(net: Any, path: str | os.PathLike[str], source: str = "auto", strict: bool = False, *,
                         format: str | None = None) -> LoadReport:
    """Load a checkpoint written by MindSpore, PyTorch, MXNet or cellonnx into ``net``, renaming and re-laying-out
    tensors according to the net's own layer types.

    Args:
        net: the Cell to fill.
        path: any checkpoint cellonnx reads (.ckpt, .pt/.pth/.bin, .params, .safetensors, .npz, .onnx).
        source: the framework whose names the file uses: "mindspore" (= "cellonnx"), "torch", "mxnet" (Gluon
            save_parameters or export; MXNet 1.x's per-group GroupNorm and `_unfused` LSTM names are recognised by
            shape and name) or "mxnet1" (force 1.x layouts). "auto": told from the names against the net's
            description, the file format breaking ties (.pth -> torch, .params -> mxnet, .ckpt -> mindspore).
        strict: raise ValueError (listing everything) unless every parameter gets a value of its shape and every
            tensor of the file finds a parameter; nothing is loaded then. Default: False (load what fits, report
            the rest).
        format: the file's format when its extension does not say.

    Returns:
        LoadReport: loaded, missing (parameters without a value), unexpected (file tensors without a parameter),
        mismatched (shape, or float vs int dtype) with the nearest names for the missing and unexpected ones,
        dropped (num_batches_tracked ...) and notes (the source chosen, a common prefix removed).

    Examples:
        >>> from cellonnx.converters import write
        >>> net = nn.SequentialCell([nn.Dense(2, 3), nn.BatchNorm1d(3)])
        >>> write("net.pth", {"0.weight": np.ones((3, 2), np.float32), "0.bias": np.zeros(3, np.float32),
        ...                    "1.weight": np.ones(3, np.float32), "1.bias": np.zeros(3, np.float32),
        ...                    "1.running_mean": np.zeros(3, np.float32), "1.running_var": np.ones(3, np.float32),
        ...                    "1.num_batches_tracked": np.array(7, np.int64)})
        >>> report = ms.load_checkpoint_into(net, "net.pth", source="torch")
        >>> print(report)
        loaded 6 tensors
        dropped 1 by the mapping: 1.num_batches_tracked
        source: torch
    """
    if source not in SOURCES:
        raise ValueError(f"load_checkpoint_into: unknown source {source!r}; expected one of {list(SOURCES)}")
    fmt, real = load_target(path, format)
    tensors, _ = read(real, fmt.name)
    description = describe_layers(net)
    params = {p.name: p for _, p in net.parameters_and_names()}
    notes: list[str] = []
    tensors, prefix = _strip_prefix(tensors, description, params)
    if prefix:
        notes.append(f"removed the prefix {prefix!r} from the checkpoint's names")
    profile = _profile(source, tensors, description, _FORMAT_PRIOR.get(fmt.name))
    if profile.startswith("mxnet"):
        blocks = match_mxnet_blocks(tensors, description, {n: tuple(p.shape) for n, p in params.items()})
        if blocks:
            tensors = {blocks.get(k, k): v for k, v in tensors.items()}
            profile = _profile("mxnet" if source in ("auto", "mxnet") else source, tensors, description, "mxnet")
            notes.append(f"matched {len(blocks)} MXNet 1.x prefix-named tensors (export / collect_params names) to "
                         "the network's layers by layer kind, shape and order")
    notes.insert(0, f"source: {profile}" + (" (detected)" if source == "auto" else ""))
    mapped = convert_names(tensors, description, profile, "cellonnx")
    shapes = {name: (tuple(mapped.tensors[name].shape) if p.is_deferred and name in mapped.tensors
                     else tuple(p.shape)) for name, p in params.items()}
    report = compare(mapped.tensors, shapes, check_dtype=False, dropped=mapped.dropped)
    report.notes = notes
    for name in list(report.loaded):
        have, want = dtypes.dtype(mapped.tensors[name].dtype), params[name].dtype
        if have != want and (strict or not ({have.name, want.name} <= _FLOAT or {have.name, want.name} <= _INT)):
            report.loaded.remove(name)
            report.mismatched.append(Mismatch(name, shapes[name], shapes[name], want.name, have.name))
    if strict and not report.ok:
        raise ValueError(f"load_checkpoint_into({os.fspath(path)!r}, strict=True): the checkpoint does not fit the "
                         "network:\n" + "\n".join(report.lines()))
    for name in report.loaded:
        params[name].set_data(np.asarray(mapped.tensors[name]))
    return report


def _strip_prefix(tensors: dict[str, np.ndarray], description: dict[str, Any], params: dict[str, Any]
                  ) -> tuple[dict[str, np.ndarray], str]:
    """Take off a prefix the file puts before every name it shares with the net ("module.", "state_dict." ...)."""
    known = set(params)
    for profile in PROFILES:
        known.update(source_names(description, profile).values())
    prefix = find_prefix(tensors, known)
    if not prefix:
        return tensors, ""
    return {(k.removeprefix(prefix)): v for k, v in tensors.items()}, prefix


def _profile(source: str, tensors: dict[str, np.ndarray], description: dict[str, Any], prior: str | None) -> str:
    if source == "auto":
        candidates = ("mindspore" if prior == "mindspore" else "cellonnx", "torch", "mxnet")
        return guess_profile(tensors, description, prior=prior, candidates=candidates)
    if source == "mxnet":
        return guess_profile(tensors, description, prior="mxnet", candidates=("mxnet",))
    return source
