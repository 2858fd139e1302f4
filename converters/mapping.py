"""Name and layout mapping of parameters between frameworks, driven by a plain description from the Cell side.

A description maps each cellonnx (= MindSpore) parameter name to its layer kind, e.g.
`{"features.1.gamma": "BatchNorm", "emb.embedding_table": "Embedding", "gn.gamma": {"kind": "GroupNorm",
"num_groups": 4, "num_channels": 32}}`. Names follow from the kind, never from guessing at strings:

| kind      | cellonnx / mindspore                       | torch                                    | mxnet (Gluon)              |
|-----------|--------------------------------------------|------------------------------------------|----------------------------|
| BatchNorm | gamma beta moving_mean moving_variance     | weight bias running_mean running_var     | gamma beta running_mean running_var |
| LayerNorm, GroupNorm, InstanceNorm | gamma beta        | weight bias                              | gamma beta                 |
| InstanceNorm | moving_mean moving_variance           | running_mean running_var                 | (none: gamma beta only)    |
| Embedding | embedding_table                            | weight                                   | weight                     |
| LSTM, GRU, RNN | weight_ih_l0[_reverse] ...            | same                                     | l0_i2h_weight / r0_h2h_bias |
| Dense, Conv | weight bias                              | same                                     | same                       |
| PReLU     | w (MindSpore's slope)                      | weight                                   | alpha                      |

torch's BatchNorm / InstanceNorm `num_batches_tracked` has no counterpart: it is dropped and reported. MXNet 1.x
("mxnet1") keeps GroupNorm gamma/beta per group, 2.x per channel. `HybridBlock.export` files prefix names with
`arg:` / `aux:` (aux = BatchNorm running statistics): stripped when reading, added when writing with
`mxnet_export=True`. MXNet 1.x `save_parameters` stores a fused RNN layer's weights under the names of its unfused
cells ("for compatibility with old parameter format", gluon/rnn/rnn_layer.py): `lstm._unfused.0.l_cell.i2h_weight`
(bidirectional) or `lstm._unfused.0.i2h_weight`; both that and the `l0_i2h_weight` spelling are read for every MXNet
profile, and "mxnet1" writes the `_unfused` spelling that MXNet 1.x's `load_parameters` expects.
Gate orders: ONNX LSTM i,o,f,c; PyTorch / MindSpore i,f,g,o; MXNet i,f,c,o (c is the same gate as g). LSTM tensors
are reordered whenever the two profiles' orders differ (for the profiles here they coincide).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

_NORM = {"gamma": {"torch": "weight"}, "beta": {"torch": "bias"}}
_WB: dict[str, dict[str, str]] = {"weight": {}, "bias": {}}
LAYER_KINDS: dict[str, dict[str, dict[str, str]]] = {
    "BatchNorm": {"gamma": {"torch": "weight"}, "beta": {"torch": "bias"},
                  "moving_mean": {"torch": "running_mean", "mxnet": "running_mean"},
                  "moving_variance": {"torch": "running_var", "mxnet": "running_var"}},
    "LayerNorm": _NORM, "GroupNorm": _NORM,
    "InstanceNorm": {**_NORM, "moving_mean": {"torch": "running_mean"}, "moving_variance": {"torch": "running_var"}},
    "Embedding": {"embedding_table": {"torch": "weight", "mxnet": "weight"}},
    "Dense": _WB, "Conv": _WB, "ConvTranspose": _WB,
    "PReLU": {"w": {"torch": "weight", "mxnet": "alpha"}, "weight": {"mxnet": "alpha"}},
    "LSTM": {}, "GRU": {}, "RNN": {},
}
_RECURRENT = {"LSTM", "GRU", "RNN"}
_DROPPED = {"torch": {"BatchNorm": ("num_batches_tracked",), "InstanceNorm": ("num_batches_tracked",)}}
_AUX = {"BatchNorm": ("moving_mean", "moving_variance")}
_RNN_LEAF = re.compile(r"^(weight|bias)_(ih|hh)_l(\d+)(_reverse)?$")
_MXNET_RNN_LEAF = re.compile(r"^([lr])(\d+)_(i2h|h2h)_(weight|bias)$")
_MXNET1_UNFUSED = re.compile(r"^(.*\.)?_unfused\.(\d+)\.(?:([lr])_cell\.)?(i2h|h2h)_(weight|bias)$")
PROFILES = ("cellonnx", "mindspore", "torch", "mxnet", "mxnet1")
GATE_ORDERS = {"onnx": "iofc", "torch": "ifgo", "mindspore": "ifgo", "cellonnx": "ifgo", "mxnet": "ifco",
               "mxnet1": "ifco"}


@dataclass
class MappedTensors:
    """The renamed tensors, the names dropped on purpose, and what each source name became: what
    ``convert_names`` returns.

    Args:
        tensors: name -> array, in the target framework's naming and layout.
        dropped: source names left out on purpose (such as PyTorch's ``num_batches_tracked``).
        renamed: source name -> target name, for each name that changed.

    Examples:
        >>> from cellonnx.converters import MappedTensors, convert_names
        >>> out = convert_names({"fc.weight": np.ones((2, 3), np.float32)}, {"fc.weight": "Dense"},
        ...                     "torch", "mindspore")
        >>> isinstance(out, MappedTensors), list(out.tensors), out.tensors["fc.weight"].shape
        (True, ['fc.weight'], (2, 3))
    """

    tensors: dict[str, np.ndarray]
    dropped: list[str] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)


def convert_names(tensors: Mapping[str, Any], description: Mapping[str, Any], src: str, dst: str, *,
                  mxnet_export: bool = False) -> MappedTensors:
    """Rename (and re-lay-out) checkpoint tensors from framework `src` to framework `dst`.

    Args:
        tensors: name -> array in `src`'s naming.
        description: cellonnx parameter name -> layer kind (str) or {"kind": ..., "num_groups", "num_channels"}.
        src, dst: profiles from PROFILES.
        mxnet_export: with an MXNet `dst`, prefix names with `arg:` / `aux:` as HybridBlock.export does.

    Returns:
        MappedTensors; names not in the description pass through unchanged.

    Examples:
        >>> from cellonnx.converters import convert_names
        >>> w, n = np.ones(4, np.float32), np.array(3, np.int64)
        >>> out = convert_names({"bn.weight": w, "bn.num_batches_tracked": n}, {"bn.gamma": "BatchNorm"},
        ...                     "torch", "mindspore")
        >>> list(out.tensors), out.dropped
        (['bn.gamma'], ['bn.num_batches_tracked'])
    """
    for profile in (src, dst):
        if profile not in PROFILES:
            raise ValueError(f"unknown mapping profile {profile!r}; expected one of {list(PROFILES)}")
    specs = _specs(description)
    to_src = {canon: _name(canon, spec, src) for canon, spec in specs.items()}
    from_src = {v: k for k, v in to_src.items()}
    if _family(src) == "mxnet":
        from_src.update(_mxnet_rnn_spellings(specs))
    reorder = _gate_order(src) != _gate_order(dst)
    drops = {f"{_prefix(canon)}{leaf}" for canon, spec in specs.items()
             for leaf in _DROPPED.get(_family(src), {}).get(spec["kind"], ())}
    out = MappedTensors({})
    for name, array in tensors.items():
        key = name
        if _family(src) == "mxnet" and key[:4] in ("arg:", "aux:"):
            key = key[4:]
        if key in drops:
            out.dropped.append(name)
            continue
        canon = from_src.get(key, key)
        value = np.asarray(array)
        spec = specs.get(canon)
        if spec is not None and spec["kind"] == "GroupNorm":
            value = _group_layout(canon, spec, value, per_group_in=src == "mxnet1", per_group_out=dst == "mxnet1")
        if reorder and spec is not None and spec["kind"] == "LSTM" and _RNN_LEAF.match(_leaf(canon)):
            value = reorder_gates(value, src, dst)
        target = _name(canon, spec, dst, export=mxnet_export) if spec is not None else canon
        if mxnet_export and _family(dst) == "mxnet":
            aux = spec is not None and _leaf(canon) in _AUX.get(spec["kind"], ())
            target = ("aux:" if aux else "arg:") + target
        if target in out.tensors:
            raise ValueError(f"mapping {src}->{dst} sends two tensors to {target!r} (second: {name!r})")
        out.tensors[target] = value
        out.renamed[name] = target
    return out


def source_names(description: Mapping[str, Any], profile: str) -> dict[str, str]:
    """The name each described parameter has in `profile`'s checkpoints (without MXNet's arg:/aux: prefixes).

    Examples:
        >>> from cellonnx.converters.mapping import source_names
        >>> source_names({"bn.gamma": "BatchNorm", "fc.weight": "Dense"}, "torch")
        {'bn.gamma': 'bn.weight', 'fc.weight': 'fc.weight'}
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown mapping profile {profile!r}; expected one of {list(PROFILES)}")
    return {canon: _name(canon, spec, profile) for canon, spec in _specs(description).items()}


def guess_profile(found: Mapping[str, Any], description: Mapping[str, Any], prior: str | None = None,
                  candidates: tuple[str, ...] = ("cellonnx", "torch", "mxnet")) -> str:
    """The profile a checkpoint was written in, told from its names (and GroupNorm shapes) against a description.

    Each candidate scores the number of checkpoint names it explains (MXNet's arg:/aux: prefixes stripped). The best
    wins; candidates that tie and would rename the checkpoint identically are one answer (`prior`, a hint from the
    file format, breaks such ties); a tie between different renamings raises. An MXNet answer is "mxnet1" when some
    GroupNorm tensor holds one value per group (MXNet 1.x) or the RNN names use 1.x's `_unfused` spelling.

    Args:
        found: checkpoint name -> array (or anything with `.shape`).
        description: as for `convert_names`.
        prior: the profile the file format suggests (e.g. "torch" for a .pth), or None.
        candidates: profiles to consider.

    Raises:
        ValueError: two candidates explain the names equally well but would map them differently.
    """
    specs = _specs(description)
    scores: dict[str, tuple[int, dict[str, str]]] = {}
    for profile in candidates:
        if profile not in PROFILES:
            raise ValueError(f"unknown mapping profile {profile!r}; expected one of {list(PROFILES)}")
        from_src = {_name(canon, spec, profile): canon for canon, spec in specs.items()}
        if _family(profile) == "mxnet":
            from_src.update(_mxnet_rnn_spellings(specs))
        keys = [k[4:] if _family(profile) == "mxnet" and k[:4] in ("arg:", "aux:") else k for k in found]
        renamed = {k: from_src[k] for k in keys if k in from_src}
        scores[profile] = (len(renamed), renamed)
    best = max(score for score, _ in scores.values())
    tied = [p for p in candidates if scores[p][0] == best]
    if best == 0:
        tied = [prior] if prior in PROFILES else ["cellonnx"]
    elif len({tuple(sorted(scores[p][1].items())) for p in tied}) > 1:
        if prior not in tied:
            raise ValueError(f"cannot tell the checkpoint's framework from its names: {', '.join(tied)} explain "
                             f"{best} names each but rename them differently; name the source explicitly")
        tied = [prior]  # type: ignore[list-item]
    choice = prior if prior in tied else tied[0]
    if _family(choice) == "mxnet":  # type: ignore[arg-type]
        choice = "mxnet1" if _mxnet1_layout(found, specs) else "mxnet"
    return choice  # type: ignore[return-value]


def match_mxnet_blocks(found: Mapping[str, Any], description: Mapping[str, Any],
                       shapes: Mapping[str, tuple[int, ...]]) -> dict[str, str]:
    """Match MXNet 1.x prefix-named parameters (`HybridBlock.export`, `collect_params().save`) to described layers.

    MXNet 1.x names such files' tensors after process-wide block counters (`arg:resnet0_conv3_weight`), which say
    nothing about the network's structure. Each described layer (its parameters share a name prefix) is matched
    instead, in order, to the first unused block of the file whose names are exactly that layer's MXNet parameter
    names (`weight`/`bias`, `gamma`/`beta`/`running_mean`/`running_var`, `l0_i2h_weight` ...) with matching
    shapes (a 1.x GroupNorm's per-group shape included).

    Args:
        found: checkpoint name -> array (arg:/aux: prefixes allowed).
        description: as for `convert_names`.
        shapes: cellonnx parameter name -> shape.

    Returns:
        checkpoint name -> the layer parameter's name in the "mxnet" profile, for the names matched.
    """
    specs = _specs(description)
    keys = {(k[4:] if k[:4] in ("arg:", "aux:") else k): k for k in found}
    layers: dict[str, dict[str, str]] = {}  # layer prefix -> {mxnet leaf: canon}
    for canon, spec in specs.items():
        layers.setdefault(_prefix(canon), {})[_leaf(_name(canon, spec, "mxnet", export=True))] = canon
    used: set[str] = set()
    out: dict[str, str] = {}
    for leaves in layers.values():
        first = next(iter(leaves))
        for key in keys:
            if not key.endswith("_" + first) or "." in key:
                continue
            block = key[: len(key) - len(first)]
            members = {k[len(block):] for k in keys if k.startswith(block)}
            if block in used or members != set(leaves):
                continue
            if all(_shape_fits(tuple(getattr(found[keys[block + leaf]], "shape", ())), canon, specs[canon], shapes)
                   for leaf, canon in leaves.items()):
                used.add(block)
                for leaf, canon in leaves.items():
                    out[keys[block + leaf]] = _name(canon, specs[canon], "mxnet", export=True)
                break
    return out


def _shape_fits(shape: tuple[int, ...], canon: str, spec: dict[str, Any], shapes: Mapping[str, tuple[int, ...]]
                ) -> bool:
    want = tuple(shapes.get(canon, shape))
    return shape == want or (spec["kind"] == "GroupNorm" and shape == (spec.get("num_groups"),))


def find_prefix(names: Iterable[str], expected: Iterable[str]) -> str:
    """A prefix that the checkpoint puts before the expected names ("module.", "state_dict.", "backbone." ...).

    Returns the prefix (ending at a "." boundary) whose removal turns the most checkpoint names into expected ones,
    provided that is more than the names already expected as they are; else "".

    Examples:
        >>> from cellonnx.converters.mapping import find_prefix
        >>> find_prefix(["model.fc.weight", "model.fc.bias", "epoch"], ["fc.weight", "fc.bias"])
        'model.'
    """
    wanted = set(expected)
    names = list(names)
    direct = sum(1 for n in names if n in wanted)
    counts: dict[str, int] = {}
    for name in names:
        for at, char in enumerate(name):
            if char == "." and name[at + 1:] in wanted:
                counts[name[:at + 1]] = counts.get(name[:at + 1], 0) + 1
    if not counts:
        return ""
    prefix, count = max(counts.items(), key=lambda item: (item[1], -len(item[0])))
    return prefix if count > direct else ""


def _mxnet1_layout(found: Mapping[str, Any], specs: Mapping[str, dict[str, Any]]) -> bool:
    if any(_MXNET1_UNFUSED.match(k[4:] if k[:4] in ("arg:", "aux:") else k) for k in found):
        return True
    shapes = {(k[4:] if k[:4] in ("arg:", "aux:") else k): tuple(getattr(v, "shape", ())) for k, v in found.items()}
    for canon, spec in specs.items():
        groups, channels = spec.get("num_groups"), spec.get("num_channels")
        if spec["kind"] == "GroupNorm" and groups and groups != channels and shapes.get(canon) == (groups,):
            return True
    return False


def _specs(description: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    specs = {name: _spec(name, value) for name, value in description.items()}
    reverse_prefixes = {_prefix(name) for name, spec in specs.items()
                        if spec["kind"] in _RECURRENT and _leaf(name).endswith("_reverse")}
    for name, spec in specs.items():
        if spec["kind"] in _RECURRENT and "bidirectional" not in spec:
            spec["bidirectional"] = _prefix(name) in reverse_prefixes
    return specs


def _mxnet_rnn_spellings(specs: Mapping[str, dict[str, Any]]) -> dict[str, str]:
    """Every MXNet spelling of each recurrent weight (fused `l0_i2h_weight`, 1.x `_unfused...`) -> its name."""
    out = {}
    for canon, spec in specs.items():
        if spec["kind"] in _RECURRENT and _RNN_LEAF.match(_leaf(canon)):
            out[_name(canon, spec, "mxnet")] = canon
            out[_name(canon, spec, "mxnet1")] = canon
    return out


def _gate_order(profile: str) -> str:
    return GATE_ORDERS.get(profile, "ifgo").replace("g", "c")


def _spec(name: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, (str, Mapping)):
        raise ValueError(f"description of {name!r}: expected a layer kind (str) or a dict with its \"kind\", "
                         f"got {type(value).__name__} {value!r}")
    spec = {"kind": value} if isinstance(value, str) else dict(value)
    if spec.get("kind") not in LAYER_KINDS:
        raise ValueError(f"description of {name!r}: unknown layer kind {spec.get('kind')!r}; expected one of "
                         f"{sorted(LAYER_KINDS)}")
    return spec


def _family(profile: str) -> str:
    return "mxnet" if profile.startswith("mxnet") else profile


def _prefix(name: str) -> str:
    return name.rsplit(".", 1)[0] + "." if "." in name else ""


def _leaf(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _name(canon: str, spec: dict[str, Any] | None, profile: str, *, export: bool = False) -> str:
    if spec is None:
        return canon
    leaf, family = _leaf(canon), _family(profile)
    if spec["kind"] in _RECURRENT:
        match = _RNN_LEAF.match(leaf)
        if family == "mxnet" and match:
            kind, gate, layer, reverse = match.groups()
            direction, cell_gate = ("r" if reverse else "l"), ("i2h" if gate == "ih" else "h2h")
            if profile == "mxnet1" and not export:
                cell = f"{direction}_cell." if spec.get("bidirectional") else ""
                leaf = f"_unfused.{layer}.{cell}{cell_gate}_{kind}"
            else:
                leaf = f"{direction}{layer}_{cell_gate}_{kind}"
        return _prefix(canon) + leaf
    rules = LAYER_KINDS[spec["kind"]].get(leaf, {})
    return _prefix(canon) + rules.get(family, leaf)


def _group_layout(name: str, spec: dict[str, Any], value: np.ndarray, *, per_group_in: bool,
                  per_group_out: bool) -> np.ndarray:
    groups, channels = spec.get("num_groups"), spec.get("num_channels")
    if per_group_in and not per_group_out:
        if channels is None or value.shape != (groups or value.shape[0],) or channels % value.shape[0]:
            raise ValueError(f"GroupNorm {name!r}: per-group values of shape {value.shape} need 'num_channels' "
                             f"(a multiple of the group count) in the description to expand per channel")
        return np.repeat(value, channels // value.shape[0])
    if per_group_out and not per_group_in:
        if not groups or value.ndim != 1 or value.shape[0] % groups:
            raise ValueError(f"GroupNorm {name!r}: per-channel values of shape {value.shape} need 'num_groups' "
                             f"dividing the channel count in the description for MXNet 1.x's per-group layout")
        grouped = value.reshape(groups, -1)
        if not (grouped == grouped[:, :1]).all():
            raise ValueError(f"GroupNorm {name!r}: channels within a group differ; MXNet 1.x stores one value "
                             f"per group and cannot hold these")
        return grouped[:, 0].copy()
    return value


def reorder_gates(array: np.ndarray, src: str, dst: str, axis: int = 0) -> np.ndarray:
    """Reorder the 4 stacked LSTM gate blocks of `array` along `axis` from `src`'s order to `dst`'s.

    `src` / `dst` are framework names from GATE_ORDERS ("onnx", "torch", "mxnet", ...) or orders like "ifgo"; the
    cell gate may be spelled g or c.

    Examples:
        >>> import numpy as np
        >>> from cellonnx import converters
        >>> w = np.arange(8).reshape(4, 2)  # PyTorch's gate blocks i, f, g, o: one row each
        >>> print(converters.reorder_gates(w, "torch", "onnx"))  # ONNX stacks i, o, f, c
        [[0 1]
         [6 7]
         [2 3]
         [4 5]]
    """
    src_order = GATE_ORDERS.get(src, src).replace("g", "c")
    dst_order = GATE_ORDERS.get(dst, dst).replace("g", "c")
    if sorted(src_order) != sorted("ifco") or sorted(dst_order) != sorted("ifco"):
        raise ValueError(f"gate orders must be permutations of i,f,g/c,o; got {src!r} and {dst!r}")
    if array.shape[axis] % 4:
        raise ValueError(f"axis {axis} of shape {array.shape} is not 4 stacked gates")
    blocks = dict(zip(src_order, np.split(np.asarray(array), 4, axis=axis)))
    return np.concatenate([blocks[g] for g in dst_order], axis=axis)


def lstm_to_onnx(weight_ih: np.ndarray, weight_hh: np.ndarray, bias_ih: np.ndarray | None = None,
                 bias_hh: np.ndarray | None = None, src: str = "cellonnx"
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One direction's LSTM weights as ONNX LSTM inputs W [1, 4H, in], R [1, 4H, H], B [1, 8H] (gates i,o,f,c)."""
    w = reorder_gates(weight_ih, src, "onnx")[None]
    r = reorder_gates(weight_hh, src, "onnx")[None]
    hidden4 = w.shape[1]
    b_ih = np.zeros(hidden4, w.dtype) if bias_ih is None else reorder_gates(bias_ih, src, "onnx")
    b_hh = np.zeros(hidden4, w.dtype) if bias_hh is None else reorder_gates(bias_hh, src, "onnx")
    return w, r, np.concatenate([b_ih, b_hh])[None]
