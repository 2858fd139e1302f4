"""A layer description read off a checkpoint's own names and shapes, for renaming without the model at hand.

`convert_names` needs each parameter's layer kind. When only the checkpoint is there (`cellonnx convert ...
--map mxnet:mindspore` without `--layers`), the kinds that change names can mostly be told from the file:
running statistics mean a batch norm, `gamma`/`beta` (or a 1-D `weight` with a 1-D `bias` in PyTorch) a
normalization layer, `weight_ih_l0` / `l0_i2h_weight` a recurrent layer whose gate count (4, 3 or 1 blocks of
rows) says LSTM, GRU or RNN, MXNet's `alpha` a PReLU. A 2-D `weight` alone could be a Dense layer or an
Embedding (which MindSpore names `embedding_table`): such names are reported as ambiguous and left as they are.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from cellonnx.converters.mapping import _MXNET1_UNFUSED, _MXNET_RNN_LEAF, _RNN_LEAF, LAYER_KINDS, _family

_GATES = {4: "LSTM", 3: "GRU", 1: "RNN"}


@dataclass
class Inferred:
    """The description (cellonnx name -> kind), and the source names it could not place."""

    description: dict[str, Any] = field(default_factory=dict)
    ambiguous: list[str] = field(default_factory=list)

    def summary(self) -> str:
        kinds: dict[str, int] = defaultdict(int)
        layers = {name.rsplit(".", 1)[0]: spec if isinstance(spec, str) else spec["kind"]
                  for name, spec in self.description.items()}
        for kind in layers.values():
            kinds[kind] += 1
        found = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "no layer that renames"
        text = f"layer kinds read off the names: {found}"
        if self.ambiguous:
            text += (f"; left as they are ({len(self.ambiguous)}, a Dense or an Embedding, or a bias-free norm or "
                     f"PReLU: give --layers to say which): {', '.join(self.ambiguous[:8])}"
                     + (" ..." if len(self.ambiguous) > 8 else ""))
        return text


def infer_description(tensors: Mapping[str, Any], profile: str) -> Inferred:
    """Read a layer description for ``convert_names`` off the names and shapes in ``tensors`` (named as
    ``profile`` names them)."""
    family = _family(profile)
    layers: dict[str, dict[str, tuple[int, ...]]] = defaultdict(dict)
    for name, array in tensors.items():
        key = name[4:] if family == "mxnet" and name[:4] in ("arg:", "aux:") else name
        unfused = _MXNET1_UNFUSED.match(key) if family == "mxnet" else None
        if unfused:  # MXNet 1.x's spelling of a fused RNN layer's weights: as l0_i2h_weight
            owner, layer, cell, gate, what = unfused.groups()
            prefix, leaf = (owner or ".")[:-1], f"{'r' if cell == 'r' else 'l'}{layer}_{gate}_{what}"
        else:
            prefix, _, leaf = key.rpartition(".")
        layers[prefix][leaf] = tuple(np.shape(array))
    out = Inferred()
    for prefix, leaves in layers.items():
        kind = _kind(leaves, family)
        where = f"{prefix}." if prefix else ""
        if kind is None:
            if family != "mindspore" and leaves.get("weight", ()) and len(leaves["weight"]) in (1, 2) \
                    and "bias" not in leaves:
                out.ambiguous.append(f"{where}weight")
            continue
        spec: Any = kind
        if kind in _GATES.values():  # MXNet 1.x spells a bidirectional layer's weights differently
            spec = {"kind": kind, "bidirectional": any(leaf.startswith("r") or leaf.endswith("_reverse")
                                                       for leaf in leaves)}
        for leaf in leaves:
            canon = _canonical_leaf(leaf, kind, family)
            if canon is not None:
                out.description[where + canon] = spec
    return out


def _kind(leaves: Mapping[str, tuple[int, ...]], family: str) -> str | None:
    names = set(leaves)
    if {"running_mean", "running_var"} <= names or {"moving_mean", "moving_variance"} <= names:
        return "BatchNorm"
    recurrent = [leaf for leaf in names if _RNN_LEAF.match(leaf) or _MXNET_RNN_LEAF.match(leaf)]
    if recurrent:
        return _recurrent_kind(leaves)
    if {"gamma", "beta"} <= names:
        return "LayerNorm"
    if family == "torch" and names == {"weight", "bias"} and len(leaves["weight"]) == 1 \
            and leaves["weight"] == leaves["bias"]:
        return "LayerNorm"
    if family == "mxnet" and names == {"alpha"}:
        return "PReLU"
    return None


def _recurrent_kind(leaves: Mapping[str, tuple[int, ...]]) -> str | None:
    for leaf, shape in leaves.items():
        torch_style = _RNN_LEAF.match(leaf)
        mxnet_style = _MXNET_RNN_LEAF.match(leaf)
        if torch_style and torch_style.group(1) == "weight" and torch_style.group(2) == "hh" and len(shape) == 2:
            return _GATES.get(shape[0] // max(shape[1], 1))
        if mxnet_style and mxnet_style.group(4) == "weight" and mxnet_style.group(3) == "h2h" and len(shape) == 2:
            return _GATES.get(shape[0] // max(shape[1], 1))
    return None


def _canonical_leaf(leaf: str, kind: str, family: str) -> str | None:
    if kind in _GATES.values():
        found = _MXNET_RNN_LEAF.match(leaf)
        if found:
            direction, layer, gate, what = found.groups()
            return f"{what}_{'ih' if gate == 'i2h' else 'hh'}_l{layer}" + ("_reverse" if direction == "r" else "")
        return leaf if _RNN_LEAF.match(leaf) else None
    for canon, spellings in LAYER_KINDS[kind].items():
        if spellings.get(family, canon) == leaf:
            return canon
    return None
