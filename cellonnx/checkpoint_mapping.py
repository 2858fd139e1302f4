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
from cellonnx.converters.structure import (
    Entry,
    MappingEntry,
    StructureError,
    apply_mapping,
    is_ignored,
    load_mapping,
    match_with,
)

__all__ = ["describe_layers", "load_checkpoint_into", "source_entries", "target_entries"]

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
                         format: str | None = None, match: str = "name", mapping: Any = None,
                         inputs: Any = None) -> LoadReport:
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
        match: "name" (the default: names and layouts from the net's layer types, as described above) or
            "structure": pair tensors by architecture instead of by name, for a checkpoint of the same network
            written in another code base (``downsample`` / ``down_sample``, ``fc`` / ``classifier``). The net
            is walked in execution order (run once on ``inputs`` when given) and in the order its parameters
            were defined, and the file in its own order (an ONNX model in graph order, layer kinds from its
            nodes); layers pair up by kind, role and shape (cellonnx.converters.structure), names only
            breaking ties (docs/structural-matching.md).
            A missing, extra, reordered or ambiguous layer raises StructureError (a ValueError) naming the
            layers; nothing is loaded then. ``source`` and ``strict`` are not used.
        mapping: with match="structure", a mapping to reuse or to override parts of the match: a file written
            by ``report.save_mapping`` / ``cellonnx convert --save-mapping``, or its parsed dict.
        inputs: with match="structure", example inputs (a Tensor or a tuple of them) to walk the net in
            execution order.

    Returns:
        LoadReport: loaded, missing (parameters without a value), unexpected (file tensors without a parameter),
        mismatched (shape, or float vs int dtype) with the nearest names for the missing and unexpected ones,
        dropped (num_batches_tracked ...), notes (the source chosen, a common prefix removed) and mapping (the
        table target name <- source name, shapes and the rule applied; ``report.save_mapping(path)`` writes
        it).

    Examples:
        >>> from cellonnx.converters import write
        >>> net = nn.SequentialCell([nn.Dense(2, 3), nn.BatchNorm1d(3)])
        >>> ones, zeros = np.ones(3, np.float32), np.zeros(3, np.float32)
        >>> write("net.pth", {"0.weight": np.ones((3, 2), np.float32), "0.bias": zeros,
        ...                    "1.weight": ones, "1.bias": zeros, "1.running_mean": zeros, "1.running_var": ones,
        ...                    "1.num_batches_tracked": np.array(7, np.int64)})
        >>> report = ms.load_checkpoint_into(net, "net.pth", source="torch")
        >>> print(report)
        loaded 6 tensors
        dropped 1 by the mapping: 1.num_batches_tracked
        source: torch
    """
    if match not in ("name", "structure"):
        raise ValueError(f"load_checkpoint_into: match must be 'name' or 'structure', got {match!r}")
    if match == "structure":
        return _load_by_structure(net, path, format, mapping, inputs)
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
    back = {v: k for k, v in mapped.renamed.items()}
    report.mapping = [MappingEntry(name, back.get(name, name), shapes[name],
                                   tuple(np.shape(mapped.tensors[name])), "by name")
                      for name in report.loaded]
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


# ---------------------------------------------------------------- by structure
def target_orders(net: Any, inputs: Any = None) -> list[tuple[str, list[Entry]]]:
    """The net's parameters in the orders structural matching tries: execution order (when ``inputs`` are
    given) and definition order."""
    orders = [("definition order", target_entries(net))]
    if inputs is not None:
        orders.insert(0, ("execution order", target_entries(net, inputs)))
    return orders


def target_entries(net: Any, inputs: Any = None) -> list[Entry]:
    """The net's parameters as structural-matching entries with their layer kinds: in execution order when
    ``inputs`` are given (the net is run once, every cell owning parameters recording its first call), else in
    the order ``parameters_and_names`` gives. A cell the run never calls (its parameters read by its owner, as
    a MultiheadAttention reads its out_proj's) follows the cell defined just before it.

    Args:
        net: the network (a Cell).
        inputs: example inputs (a Tensor, an array, or a tuple of them) to record the execution order;
            None for the definition order.

    Returns:
        list of Entry (``name``, ``shape``, ``kind``: the layer kind, such as "Dense").

    Examples:
        >>> from cellonnx.checkpoint_mapping import target_entries
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.head = nn.Dense(3, 1)  # defined first, run last
        ...         self.body = nn.Dense(2, 3)
        ...     def construct(self, x):
        ...         return self.head(self.body(x))
        >>> net = Net()
        >>> [(e.name, e.shape, e.kind) for e in target_entries(net)][:2]
        [('head.weight', (1, 3), 'Dense'), ('head.bias', (1,), 'Dense')]
        >>> [e.name for e in target_entries(net, np.ones((1, 2), np.float32))]
        ['body.weight', 'body.bias', 'head.weight', 'head.bias']
    """
    description = describe_layers(net)
    owners: list[Any] = []
    for _, cell in net.cells_and_names():
        if any(True for _ in cell.parameters_and_names(expand=False)):
            owners.append(cell)
    order = owners
    if inputs is not None:
        from cellonnx import Tensor

        called: list[Any] = []
        handles = []
        for cell in owners:
            def hook(c: Any, _args: Any, _seen: list = called) -> None:
                if not any(c is x for x in _seen):
                    _seen.append(c)
            handles.append(cell.register_forward_pre_hook(hook))
        args = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
        args = tuple(a if isinstance(a, Tensor) else Tensor(np.asarray(a)) for a in args)
        training = getattr(net, "training", False)
        net.set_train(False)
        try:
            net(*args)
        finally:
            for h in handles:
                h.remove()
            net.set_train(training)
        order = list(called)
        for at, cell in enumerate(owners):  # cells whose parameters are read without calling them
            if not any(cell is x for x in order):
                before = next((k for k, x in enumerate(order) if at and x is owners[at - 1]), -1)
                order.insert(before + 1, cell)
    out = []
    for cell in order:
        for _, p in cell.parameters_and_names(expand=False):
            out.append(Entry(p.name, tuple(p.shape), kind=description.get(p.name)))
    return out


def source_entries(path: str | os.PathLike[str], format: str | None = None
                   ) -> tuple[list[Entry], dict[str, np.ndarray]]:
    """A checkpoint's tensors as structural-matching entries (file order; an ONNX model's in graph order with
    the nodes' layer kinds) and the tensors themselves.

    Args:
        path: the checkpoint file (any format ``cellonnx.converters`` reads).
        format: its format; None to detect it.

    Returns:
        (list of Entry, dict name -> numpy.ndarray). Outside ONNX, only floating tensors of rank 1 or more
        (and PyTorch's ``num_batches_tracked``) become entries.

    Raises:
        ValueError: the file does not exist, or cannot be read in its format (CheckpointError).

    Examples:
        >>> from cellonnx.checkpoint_mapping import source_entries
        >>> net = nn.SequentialCell([nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1)])
        >>> ms.save_checkpoint(net, "net.ckpt")
        >>> entries, tensors = source_entries("net.ckpt")
        >>> [(e.name, e.shape) for e in entries]
        [('0.weight', (3, 2)), ('0.bias', (3,)), ('2.weight', (1, 3)), ('2.bias', (1,))]
        >>> print(tensors["2.weight"].dtype)
        float32
    """
    fmt, real = load_target(path, format)
    tensors, _ = read(real, fmt.name)
    entries = None
    if fmt.name == "onnx":
        from cellonnx.converters.onnx_format import load_model
        from cellonnx.converters.structure_onnx import onnx_entries

        entries = onnx_entries(load_model(real))
    if entries is None:
        entries = [Entry(k, tuple(np.shape(v))) for k, v in tensors.items()
                   if (np.ndim(v) > 0 and np.issubdtype(np.asarray(v).dtype, np.floating))
                   or k.endswith("num_batches_tracked")]
    return entries, tensors


def match_orders(source: list[Entry], orders: list[tuple[str, list[Entry]]], mapping: Any, *,
                 source_label: str, target_label: str) -> tuple[list[MappingEntry], list[str], str]:
    """Match the source against each order of the target (execution, definition); the orders that match
    must agree. A net may define its layers in another order than it runs them, and a file keeps the order
    its framework defined them in, so either may be the one that lines up.

    Returns:
        (table, dropped source names, the order used).

    Raises:
        StructureError: no order matches (the first order's error), or two orders match differently.
    """
    results: list[tuple[str, list[MappingEntry], list[str]]] = []
    first_error: StructureError | None = None
    for how, target in orders:
        try:
            table, dropped = match_with(source, target, mapping, source_label=source_label,
                                        target_label=f"{target_label} ({how})")
        except StructureError as exc:
            first_error = first_error or exc
            continue
        results.append((how, table, dropped))
    if not results:
        assert first_error is not None
        raise first_error
    how, table, dropped = results[0]
    for other_how, other, _ in results[1:]:
        mine = {(e.target, e.target_rows): e.source for e in table}
        theirs = {(e.target, e.target_rows): e.source for e in other}
        if mine != theirs:
            differ = [f"{t[0]} <- {mine[t]} ({how}) or {theirs.get(t)} ({other_how})" for t in mine
                      if mine[t] != theirs.get(t)][:5]
            raise StructureError(f"structural match of {source_label} to {target_label}: the {how} and the "
                                 f"{other_how} of the target both line up with the source, differently: "
                                 + "; ".join(differ) + "; pass a mapping to choose", ambiguous={})
    return table, dropped, how


def _load_by_structure(net: Any, path: str | os.PathLike[str], format: str | None, mapping: Any, inputs: Any
                       ) -> LoadReport:
    entries, tensors = source_entries(path, format)
    loaded_mapping = load_mapping(mapping) if mapping is not None else None
    table, dropped, how = match_orders(entries, target_orders(net, inputs), loaded_mapping,
                                       source_label=os.fspath(path), target_label=type(net).__name__)
    params = {p.name: p for _, p in net.parameters_and_names()}
    values = apply_mapping(table, tensors, {n: tuple(p.shape) for n, p in params.items()})
    ignored = (loaded_mapping or {}).get("ignore_target", [])
    missing = [n for n in params if n not in values and not is_ignored(n, ignored)]
    if missing:
        raise ValueError(f"load_checkpoint_into({os.fspath(path)!r}, match='structure'): the mapping gives "
                         f"no value to {', '.join(missing)}")
    for name, value in values.items():
        param = params[name]
        param.set_data(value.astype(dtypes.to_numpy(param.dtype), copy=False))
    report = LoadReport(loaded=list(values), dropped=list(dropped), mapping=table)
    report.notes = [f"matched by structure ({how}): {len(table)} tensors"]
    used = {e.source for e in table} | set(dropped)
    ignored_src = (loaded_mapping or {}).get("ignore_source", [])
    left = [k for k in tensors if k not in used and not is_ignored(k, ignored_src)]
    if left:  # scalars and integer entries of the file (append_dict values, step counters): not weights
        report.notes.append(f"left out {len(left)} entries that are not weights: {', '.join(left)}")
    return report
