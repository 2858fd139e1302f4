"""Structural matching: pair a source checkpoint's tensors with a target's parameters by architecture.

Both sides are plain ordered lists of ``Entry`` (tensor name, shape, and optionally a layer-kind hint), in
execution order where it is known (a traced Cell, an ONNX graph) and in file order otherwise. ``group`` cuts
each list into layers: the tensors sharing a name prefix (``layer1.0.bn1``), or, for MXNet 1.x names without
dots (``densenet0_conv0_weight``), sharing everything before a known parameter suffix. Each tensor gets a role
read off its leaf and the layer's other leaves:

| leaf (any framework)                                   | role             | layer kind           |
|--------------------------------------------------------|------------------|----------------------|
| weight (>= 3-d) / bias                                  | weight / bias    | Conv                 |
| weight (2-d) + bias                                     | weight / bias    | Dense                |
| weight (2-d) alone                                      | weight           | Dense or Embedding   |
| embedding_table                                         | weight           | Embedding            |
| gamma/beta, 1-d weight/bias + running stats             | gamma / beta     | BatchNorm            |
| running_mean/moving_mean, running_var/moving_variance   | mean / var       | BatchNorm            |
| gamma/beta or 1-d weight/bias without running stats     | gamma / beta     | Norm (Layer/Group/Instance) |
| alpha (MXNet), w (MindSpore), 1-d weight alone          | slope            | PReLU                |
| weight_ih_l0[_reverse], l0_i2h_weight, _unfused ...     | weight_ih_l0 ... | LSTM / GRU / RNN     |
| in_proj_weight / in_proj_bias (fused attention)         | weight / bias    | Dense q, k, v (rows) |
| num_batches_tracked                                     | (dropped)        |                      |
| anything else                                           | value            | Tensor (one tensor)  |

(LSTM, GRU and RNN are told apart by the 4, 3 or 1 gate blocks of weight_hh.)

``match`` aligns the two layer lists in order (a longest alignment by dynamic programming) where a pair counts
only if the kinds agree, the roles are the same and every shape fits directly or through a layout rule (a
transposed Dense weight, MXNet 1.x per-group GroupNorm values, q/k/v rows of a fused in-projection); name
similarity only breaks ties between alignments with as many pairs. The result is a table of ``MappingEntry``.
A file that lists its tensors sorted by name (safetensors does) has no order to read, which is an error too.
Nothing is guessed: a target layer without a source layer (missing), a source layer without a target layer
(extra), two alignments that are equally good (same kinds and shapes, names not deciding: ambiguous), or
layers that fit each other only out of order (reordered) raise ``StructureError`` naming the layers.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from cellonnx.converters.mapping import _MXNET1_UNFUSED, _MXNET_RNN_LEAF, _RNN_LEAF

__all__ = ["Entry", "Layer", "MappingEntry", "StructureError", "apply_mapping", "group", "is_ignored",
           "load_mapping", "match", "match_with", "save_mapping"]

MAPPING_FORMAT = "cellonnx-mapping"
_GATES = {4: "LSTM", 3: "GRU", 1: "RNN"}
_SUFFIXES = ("running_mean", "running_var", "moving_mean", "moving_variance", "num_batches_tracked",
             "embedding_table", "in_proj_weight", "in_proj_bias", "gamma", "beta", "weight", "bias", "alpha")
_MX_FLAT_RNN = re.compile(r"^(.*?)_?([lr]\d+_(?:i2h|h2h)_(?:weight|bias))$")
_TARGET_GATES = {"LSTM": "ifgo", "GRU": "rzn"}  # PyTorch's, MindSpore's and MXNet's (c is g) state dicts
_ROLE_KIND = {"Conv": "Conv", "ConvTranspose": "Conv", "Dense": "Dense", "Embedding": "Embedding",
              "BatchNorm": "BatchNorm", "LayerNorm": "Norm", "GroupNorm": "Norm", "InstanceNorm": "Norm",
              "PReLU": "PReLU", "LSTM": "LSTM", "GRU": "GRU", "RNN": "RNN"}


class StructureError(ValueError):
    """The two architectures do not line up: ``missing`` target layers and ``extra`` source layers (lists of
    layer names), ``ambiguous`` target layers with their candidate source layers, and ``reordered`` target
    layers with the source layer they fit, out of order."""

    def __init__(self, message: str, missing: Sequence[str] = (), extra: Sequence[str] = (),
                 ambiguous: Mapping[str, Sequence[str]] | None = None,
                 reordered: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.missing, self.extra = list(missing), list(extra)
        self.ambiguous = {k: list(v) for k, v in (ambiguous or {}).items()}
        self.reordered = dict(reordered or {})


@dataclass(frozen=True)
class Entry:
    """One tensor of a side: its name, shape, and optionally its layer kind (``kind``), its role (``role``)
    and whether a 2-d weight is stored (in, out) (``transposed``: an ONNX Gemm with transB=0 or a MatMul)."""

    name: str
    shape: tuple[int, ...]
    kind: Any = None
    role: str | None = None
    layer: str | None = None
    transposed: bool = False
    index: int | None = None             # the part of axis 0 this tensor is (an ONNX LSTM's direction)
    rows: tuple[int, int] | None = None  # then rows of that part (an ONNX LSTM's B: input and hidden biases)
    gates: str | None = None             # stacked gate blocks in this order (ONNX: LSTM "iofc", GRU "zrn")


@dataclass
class Tensor:
    name: str
    shape: tuple[int, ...]
    rows: tuple[int, int] | None = None  # a slice of a fused tensor
    transposed: bool = False
    index: int | None = None
    gates: str | None = None


@dataclass
class Layer:
    """A layer: its name (the tensors' common prefix), kind, role -> tensor, and kind details (num_groups)."""

    name: str
    kind: str
    tensors: dict[str, Tensor]
    spec: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        parts = ", ".join(f"{role} {t.shape}" for role, t in self.tensors.items())
        return f"{self.name} ({self.kind}: {parts})"


@dataclass
class MappingEntry:
    """One row of the mapping table: target tensor <- source tensor, their shapes, and the rule applied.

    ``source_index`` picks one part of the source's first axis (an ONNX LSTM's direction) before
    ``source_rows``; ``gates`` reorders stacked gate blocks ("iofc->ifgo"). ``op`` is what is done to the
    source value then: "copy", "transpose", "expand_groups" (one value per group to
    one per channel), "reduce_groups" (the reverse) or "fill" (a target-only bookkeeping tensor kept as the
    target has it). ``source_rows`` / ``target_rows`` select rows of a fused tensor (q, k, v of an
    in-projection)."""

    target: str
    source: str
    target_shape: tuple[int, ...]
    source_shape: tuple[int, ...]
    rule: str
    op: str = "copy"
    source_rows: tuple[int, int] | None = None
    target_rows: tuple[int, int] | None = None
    source_index: int | None = None
    gates: str | None = None  # "iofc->ifgo": the source's gate blocks reordered to the target's

    def line(self) -> str:
        tr = f"[{self.target_rows[0]}:{self.target_rows[1]}]" if self.target_rows else ""
        sr = f"[{self.source_index}]" if self.source_index is not None else ""
        sr += f"[{self.source_rows[0]}:{self.source_rows[1]}]" if self.source_rows else ""
        return (f"{self.target}{tr} {self.target_shape} <- {self.source}{sr} {self.source_shape}  "
                f"[{self.rule}]")


# ---------------------------------------------------------------- grouping
def _split(name: str) -> tuple[str, str]:
    """(layer prefix, leaf) of a tensor name in any framework's spelling."""
    key = name[4:] if name[:4] in ("arg:", "aux:") else name
    unfused = _MXNET1_UNFUSED.match(key)
    if unfused:
        owner, layer, cell, gate, what = unfused.groups()
        return (owner or ".")[:-1], f"{'r' if cell == 'r' else 'l'}{layer}_{gate}_{what}"
    if "." in key:
        prefix, _, leaf = key.rpartition(".")
        return prefix, leaf
    flat = _MX_FLAT_RNN.match(key)
    if flat:
        return flat.group(1), flat.group(2)
    for suffix in _SUFFIXES:
        if key.endswith("_" + suffix):
            return key[:-len(suffix) - 1], suffix
    return "", key


def _rnn_leaf(leaf: str) -> str | None:
    """The torch / MindSpore spelling (weight_ih_l0[_reverse]) of a recurrent leaf, or None."""
    if _RNN_LEAF.match(leaf):
        return leaf
    found = _MXNET_RNN_LEAF.match(leaf)
    if found:
        direction, layer, gate, what = found.groups()
        return f"{what}_{'ih' if gate == 'i2h' else 'hh'}_l{layer}" + ("_reverse" if direction == "r" else "")
    return None


def group(entries: Iterable[Entry]) -> tuple[list[Layer], list[str]]:
    """Cut ordered tensors into ordered layers; returns (layers, dropped names such as num_batches_tracked).

    A layer sits where its first tensor sits. Entries that already carry a ``layer`` and ``role`` (an ONNX
    graph's nodes) are taken as they are.
    """
    order: list[str] = []
    members: dict[str, list[tuple[str, Entry]]] = {}
    for entry in entries:
        if entry.layer is not None and entry.role is not None:
            prefix, leaf = entry.layer, entry.role
        else:
            prefix, leaf = _split(entry.name)
        if prefix not in members:
            members[prefix] = []
            order.append(prefix)
        members[prefix].append((leaf, entry))
    layers: list[Layer] = []
    dropped: list[str] = []
    for prefix in order:
        layers.extend(_layers_of(prefix, members[prefix], dropped))
    return layers, dropped


def _layers_of(prefix: str, leaves: list[tuple[str, Entry]], dropped: list[str]) -> list[Layer]:
    hint = next((e.kind for _, e in leaves if e.kind is not None), None)
    spec = dict(hint) if isinstance(hint, Mapping) else ({"kind": hint} if hint else {})
    kind_hint = spec.pop("kind", None)
    if kind_hint in ("LayerNorm", "GroupNorm", "InstanceNorm"):
        spec["name"] = kind_hint  # the rule then names the layer the way the network does
    if all(e.role is not None and e.layer is not None for _, e in leaves):  # given by an ONNX graph
        kind = _ROLE_KIND.get(kind_hint, kind_hint or "Tensor")
        if kind_hint == "GroupNorm":
            spec["group_norm"] = True
        if kind == "Dense" and "bias" not in {leaf for leaf, _ in leaves}:
            kind = "Matrix"
        return [Layer(prefix, kind, {leaf: Tensor(e.name, e.shape, e.rows, e.transposed, e.index, e.gates)
                                     for leaf, e in leaves}, spec)]
    names = {leaf for leaf, _ in leaves}
    out: list[Layer] = []
    rest: dict[str, Entry] = {}
    for leaf, e in leaves:
        if leaf == "num_batches_tracked":
            dropped.append(e.name)
        else:
            rest[leaf] = e
    # recurrent layers
    rnn = {_rnn_leaf(leaf): e for leaf, e in rest.items() if _rnn_leaf(leaf)}
    if rnn:
        gates = next((e.shape[0] // max(e.shape[1], 1) for leaf, e in rnn.items()
                      if leaf.startswith("weight_hh") and len(e.shape) == 2), None)
        kind = kind_hint if kind_hint in ("LSTM", "GRU", "RNN") else _GATES.get(gates or 0, "RNN")
        out.append(Layer(prefix, kind, {leaf: Tensor(e.name, e.shape) for leaf, e in rnn.items()}, spec))
        rest = {leaf: e for leaf, e in rest.items() if not _rnn_leaf(leaf)}
    # a fused attention in-projection: three Dense layers q, k, v
    if "in_proj_weight" in rest:
        w = rest.pop("in_proj_weight")
        b = rest.pop("in_proj_bias", None)
        rows = w.shape[0] // 3
        for i, part in enumerate("qkv"):
            span = (i * rows, (i + 1) * rows)
            tensors = {"weight": Tensor(w.name, (rows,) + tuple(w.shape[1:]), span)}
            if b is not None:
                tensors["bias"] = Tensor(b.name, (rows,), span)
            out.append(Layer(f"{prefix}.in_proj[{part}]" if prefix else f"in_proj[{part}]",
                             "Dense" if b is not None else "Matrix", tensors, {"fused": part}))
    stats = ({"running_mean", "running_var"} <= names) or ({"moving_mean", "moving_variance"} <= names)
    table = {"running_mean": "mean", "moving_mean": "mean", "running_var": "var", "moving_variance": "var",
             "gamma": "gamma", "beta": "beta"}
    weight, bias = rest.get("weight"), rest.get("bias")
    one_d = weight is not None and len(weight.shape) == 1
    if stats or {"gamma", "beta"} & set(rest) or (one_d and bias is not None and bias.shape == weight.shape) \
            or (kind_hint in ("BatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm") and weight is not None):
        tensors = {}
        for leaf in list(rest):
            role = table.get(leaf) or {"weight": "gamma", "bias": "beta"}.get(leaf)
            if role is not None:
                tensors[role] = _t(rest.pop(leaf))
        kind = "BatchNorm" if stats else "Norm"
        if kind_hint == "GroupNorm":
            spec.setdefault("group_norm", True)
        out.append(Layer(prefix, kind, tensors, spec))
    elif "embedding_table" in rest:
        out.append(Layer(prefix, "Embedding", {"weight": _t(rest.pop("embedding_table"))}, spec))
    elif "alpha" in rest or (kind_hint == "PReLU" and ("w" in rest or "weight" in rest)) \
            or (one_d and bias is None and len(rest) == 1):
        leaf = next(k for k in ("alpha", "w", "weight") if k in rest)
        out.append(Layer(prefix, "PReLU", {"slope": _t(rest.pop(leaf))}, spec))
    elif weight is not None:
        rest.pop("weight")
        tensors = {"weight": _t(weight)}
        if bias is not None:
            tensors["bias"] = _t(rest.pop("bias"))
        if kind_hint == "Embedding":
            kind = "Embedding"
        elif len(weight.shape) >= 3:
            kind = "Conv"
        elif len(weight.shape) == 2:
            kind = "Dense" if bias is not None or kind_hint == "Dense" else "Matrix"
        else:
            kind = "Tensor"
        out.append(Layer(prefix, kind, tensors, spec))
    for e in rest.values():  # parameters of no known layer: one layer each
        out.append(Layer(e.name, "Tensor", {"value": _t(e)}, {}))
    return out


def _t(e: Entry) -> Tensor:
    return Tensor(e.name, tuple(e.shape), transposed=e.transposed)


# ---------------------------------------------------------------- matching
def _kinds_fit(t: str, s: str) -> bool:
    """Same kind, or a lone 2-d weight (Matrix: a Dense without bias or an Embedding) against either."""
    return t == s or ("Matrix" in (t, s) and {t, s} <= {"Matrix", "Dense", "Embedding"})


def fit(t: Layer, s: Layer) -> list[tuple[str, str, str]] | None:
    """How source layer ``s`` fills target layer ``t``: [(role, op, rule)], or None when it cannot."""
    if not _kinds_fit(t.kind, s.kind) or set(t.tensors) != set(s.tensors):
        return None
    kind = t.spec.get("name") or s.spec.get("name") or (t.kind if t.kind != "Matrix" else s.kind)
    out = []
    for role, tt in t.tensors.items():
        st = s.tensors[role]
        rule = f"{kind} {role}"
        if st.transposed != tt.transposed:
            if tuple(reversed(st.shape)) != tt.shape or len(st.shape) != 2:
                return None
            out.append((role, "transpose", rule + ", transposed"))
        elif st.shape == tt.shape:
            out.append((role, "copy", rule))
        elif "Dense" in (t.kind, s.kind) and role == "weight" and len(st.shape) == 2 \
                and tuple(reversed(st.shape)) == tt.shape:
            out.append((role, "transpose", rule + ", transposed"))
        elif t.kind == "Norm" and len(st.shape) == 1 and len(tt.shape) == 1 and _groups_fit(t, s, st, tt):
            op = "expand_groups" if st.shape[0] < tt.shape[0] else "reduce_groups"
            out.append((role, op, rule + (", per group -> per channel" if op == "expand_groups"
                                          else ", per channel -> per group")))
        else:
            return None
    return out


def _groups_fit(t: Layer, s: Layer, st: Tensor, tt: Tensor) -> bool:
    small, big = sorted((st.shape[0], tt.shape[0]))
    groups = t.spec.get("num_groups") or s.spec.get("num_groups")
    if groups is not None:
        return small == groups and big % groups == 0
    return bool(t.spec.get("group_norm") or s.spec.get("group_norm")) and big % small == 0


def _similarity(a: str, b: str) -> int:
    norm = [re.sub(r"[^a-z0-9]+", ".", x.lower()).strip(".") for x in (a, b)]
    return round(difflib.SequenceMatcher(None, *norm).ratio() * 1_000_000)


def match(source: Sequence[Entry], target: Sequence[Entry], *, source_label: str = "source",
          target_label: str = "target") -> tuple[list[MappingEntry], list[str]]:
    """Pair every target tensor with a source tensor by structure.

    Args:
        source: the checkpoint's tensors in file (or graph) order.
        target: the parameters to fill, in execution order where known.
        source_label, target_label: how errors name the two sides.

    Returns:
        (the mapping table in target order, the source names dropped on purpose such as num_batches_tracked).

    Raises:
        StructureError: a missing or extra layer, or an alignment that is not unique; the message names the
            layers (kind and shapes) and the candidates.
    """
    src_layers, dropped = group(source)
    tgt_layers, _ = group(target)
    for label, entries, layers in ((source_label, source, src_layers), (target_label, target, tgt_layers)):
        if len(layers) > 2 and _sorted_by_name(entries):
            raise StructureError(
                f"structural match of {source_label} to {target_label}: {label} holds its tensors sorted by "
                "name (safetensors files are written so), not in the order of the network, so its structure "
                "cannot be read from the order. Match a checkpoint of the same network that keeps the order "
                "(.pth, .ckpt, .params, .npz, an ONNX model) and pass the mapping it saves (--mapping / "
                "mapping=), or load by name.")
    pairs = align(tgt_layers, src_layers, source_label=source_label, target_label=target_label)
    table: list[MappingEntry] = []
    for t, s in pairs:
        for role, op, rule in fit(t, s) or ():
            tt, st = t.tensors[role], s.tensors[role]
            full_t = tt.rows and next(e.shape for e in target if e.name == tt.name)
            full_s = st.rows and next(e.shape for e in source if e.name == st.name)
            part = t.spec.get("fused") or s.spec.get("fused")
            if part:
                rule += f", {part} rows of the fused in-projection"
            gates = None
            if st.gates and st.gates != _TARGET_GATES.get(t.kind, st.gates):
                gates = f"{st.gates}->{_TARGET_GATES[t.kind]}"
                rule += f", gates {','.join(st.gates)} -> {','.join(_TARGET_GATES[t.kind])}"
            table.append(MappingEntry(tt.name, st.name, tuple(full_t or tt.shape), tuple(full_s or st.shape),
                                      rule, op, st.rows, tt.rows, st.index, gates))
    return table, dropped


def is_ignored(name: str, ignore: Iterable[str]) -> bool:
    """Whether tensor ``name`` is one of ``ignore`` or belongs to a layer named there."""
    return any(name == x or name.startswith(x + ".") for x in ignore)


def _sorted_by_name(entries: Sequence[Entry]) -> bool:
    """Whether a file lists its tensors by name rather than in the network's order (a graph's are ordered)."""
    names = [e.name for e in entries if e.layer is None and not e.name.endswith("num_batches_tracked")]
    return len(names) > 2 and names == sorted(names)


def align(tgt: list[Layer], src: list[Layer], *, source_label: str = "source", target_label: str = "target"
          ) -> list[tuple[Layer, Layer]]:
    """The unique best in-order alignment of target and source layers (see the module's docstring)."""
    n, m = len(tgt), len(src)
    score = [[None] * m for _ in range(n)]
    for i, t in enumerate(tgt):
        for j, s in enumerate(src):
            if fit(t, s) is not None:
                score[i][j] = (1, _similarity(t.name, s.name))
    zero = (0, 0)

    def add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
        return a[0] + b[0], a[1] + b[1]

    fwd = [[zero] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            best = max(fwd[i - 1][j], fwd[i][j - 1])
            w = score[i - 1][j - 1]
            if w is not None:
                best = max(best, add(fwd[i - 1][j - 1], w))
            fwd[i][j] = best
    bwd = [[zero] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best = max(bwd[i + 1][j], bwd[i][j + 1])
            w = score[i][j]
            if w is not None:
                best = max(best, add(bwd[i + 1][j + 1], w))
            bwd[i][j] = best
    total = fwd[n][m]
    feasible = [(i, j) for i in range(n) for j in range(m)
                if score[i][j] is not None and add(add(fwd[i][j], score[i][j]), bwd[i + 1][j + 1]) == total]
    by_t: dict[int, list[int]] = {}
    by_s: dict[int, list[int]] = {}
    for i, j in feasible:
        by_t.setdefault(i, []).append(j)
        by_s.setdefault(j, []).append(i)
    conflict: set[tuple[int, int]] = set()
    for i, j in feasible:
        if len(by_t[i]) > 1 or len(by_s[j]) > 1:
            conflict.add((i, j))
    crossing: set[tuple[int, int]] = set()
    for a, (i, j) in enumerate(feasible):
        for i2, j2 in feasible[a + 1:]:
            if (i2 - i) * (j2 - j) < 0:  # pairs that cross: layers that swapped places
                crossing |= {(i, j), (i2, j2)}
    crossing -= conflict
    chosen = [p for p in feasible if p not in conflict and p not in crossing]
    problems: list[str] = []
    ambiguous: dict[str, list[str]] = {}
    for i, j in sorted(conflict):
        ambiguous.setdefault(tgt[i].name, []).append(src[j].name)
    for name, cands in ambiguous.items():
        t = next(x for x in tgt if x.name == name)
        problems.append(f"ambiguous: {target_label} layer {t.describe()} fits {source_label} layer(s) "
                        f"{', '.join(cands)} (same kind and shapes) in alignments that are equally good; "
                        "order and names do not decide (a duplicated or a reordered layer)")
    reordered = {tgt[i].name: src[j].name for i, j in sorted(crossing)}
    for i, j in sorted(crossing):
        problems.append(f"reordered: {target_label} layer {tgt[i].describe()} fits {source_label} layer "
                        f"{src[j].describe()}, but the two sit in another order among their neighbours "
                        "(a reordered block)")
    matched_t = {i for i, _ in chosen}
    matched_s = {j for _, j in chosen}
    ambiguous_t = set(ambiguous)
    ambiguous_s = {c for cands in ambiguous.values() for c in cands}
    missing = [t for i, t in enumerate(tgt) if i not in matched_t and t.name not in ambiguous_t
               and t.name not in reordered]
    extra = [s for j, s in enumerate(src) if j not in matched_s and s.name not in ambiguous_s
             and s.name not in reordered.values()]
    for t in missing:
        near = [s.describe() for s in extra if _kinds_fit(t.kind, s.kind)][:3]
        problems.append(f"missing: {target_label} layer {t.describe()} has no counterpart in {source_label}"
                        + (f" (same kind, other shapes or out of order: {'; '.join(near)})" if near else ""))
    for s in extra:
        problems.append(f"extra: {source_label} layer {s.describe()} has no counterpart in {target_label}")
    if problems:
        raise StructureError(
            f"structural match of {source_label} ({m} layers) to {target_label} ({n} layers) failed:\n  "
            + "\n  ".join(problems)
            + "\nWrite the mapping that is wanted (save one with --save-mapping / save_mapping, edit it) and "
              "pass it with --mapping (mapping= in Python); 'ignore_source' / 'ignore_target' in it leave "
              "layers out.",
            [t.name for t in missing], [s.name for s in extra], ambiguous, reordered)
    return [(tgt[i], src[j]) for i, j in chosen]


# ---------------------------------------------------------------- applying and storing
def apply_mapping(table: Sequence[MappingEntry], source: Mapping[str, Any],
                  target_shapes: Mapping[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    """The target's tensors built from the source's by the table (rows of fused tensors assembled).

    Raises:
        ValueError: a source name is not in ``source``, or a value does not come out in the target's shape.
    """
    out: dict[str, np.ndarray] = {}
    for e in table:
        if e.source not in source:
            raise ValueError(f"mapping: {e.target} <- {e.source}: {e.source!r} is not in the source "
                             "checkpoint")
        value = np.asarray(source[e.source])
        if e.source_index is not None:
            value = value[e.source_index]
        if e.source_rows:
            value = value[e.source_rows[0]:e.source_rows[1]]
        if e.gates:
            value = _reorder(value, *e.gates.split("->"))
        if e.op == "transpose":
            value = value.T
        elif e.op == "expand_groups":
            want = target_shapes[e.target][0] if not e.target_rows else e.target_rows[1] - e.target_rows[0]
            value = np.repeat(value, want // value.shape[0])
        elif e.op == "reduce_groups":
            groups = target_shapes[e.target][0]
            grouped = value.reshape(groups, -1)
            if not (grouped == grouped[:, :1]).all():
                raise ValueError(f"mapping: {e.target} <- {e.source}: channels within a group differ; one "
                                 "value per group cannot hold them")
            value = grouped[:, 0]
        elif e.op not in ("copy", "fill"):
            raise ValueError(f"mapping: {e.target} <- {e.source}: unknown op {e.op!r}")
        shape = tuple(target_shapes[e.target])
        if e.target_rows:
            buf = out.setdefault(e.target, np.zeros(shape, value.dtype))
            want_shape = (e.target_rows[1] - e.target_rows[0],) + shape[1:]
            if value.shape != want_shape:
                raise ValueError(f"mapping: {e.target}[{e.target_rows[0]}:{e.target_rows[1]}] <- {e.source}: "
                                 f"shape {value.shape}, expected {want_shape}")
            buf[e.target_rows[0]:e.target_rows[1]] = value
            continue
        if value.shape != shape:
            raise ValueError(f"mapping: {e.target} <- {e.source} ({e.op}): shape {value.shape}, "
                             f"expected {shape}")
        out[e.target] = np.ascontiguousarray(value)
    return out


def _reorder(value: np.ndarray, src: str, dst: str) -> np.ndarray:
    """Stacked gate blocks along axis 0 from order ``src`` to ``dst`` (the cell gate spelled g, c, n or h)."""
    same = str.maketrans("gch", "nnn")
    src, dst = src.translate(same), dst.translate(same)
    if sorted(src) != sorted(dst) or value.shape[0] % len(src):
        raise ValueError(f"mapping: cannot reorder gates {src!r} -> {dst!r} of a tensor of shape "
                         f"{value.shape}")
    blocks = dict(zip(src, np.split(value, len(src), axis=0)))
    return np.concatenate([blocks[g] for g in dst], axis=0)


def save_mapping(path: Any, table: Sequence[MappingEntry], *, source: str = "", target: str = "",
                 dropped: Sequence[str] = (), ignore_source: Sequence[str] = (),
                 ignore_target: Sequence[str] = ()) -> None:
    """Write the table as JSON (``{"format": "cellonnx-mapping", "version": 1, "entries": [...]}``)."""
    import json
    from pathlib import Path

    rows = []
    for e in table:
        row = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(e).items() if v is not None}
        rows.append(row)
    head = {"format": MAPPING_FORMAT, "version": 1, "source": str(source), "target": str(target)}
    tail = {"dropped": list(dropped), "ignore_source": list(ignore_source),
            "ignore_target": list(ignore_target)}
    lines = [json.dumps(head)[:-1] + ","]  # one entry a line: easy to review, edit and diff
    lines.append(' "entries": [' + ",\n  ".join(json.dumps(r) for r in rows) + "],")
    lines.append(" " + json.dumps(tail)[1:])
    Path(path).write_text("\n".join(lines) + "\n")


def load_mapping(path_or_data: Any) -> dict[str, Any]:
    """A mapping file (or its parsed dict): {"entries": [MappingEntry], "ignore_source": [...],
    "ignore_target": [...], "dropped": [...]}.

    Raises:
        ValueError: not a mapping file, or an entry without target and source.
    """
    import json
    from pathlib import Path

    if isinstance(path_or_data, Mapping):
        data, where = dict(path_or_data), "mapping"
    else:
        where = str(path_or_data)
        try:
            data = json.loads(Path(path_or_data).read_text())
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: not a JSON mapping file ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries", []), list):
        raise ValueError(f"{where}: expected a JSON object with a list 'entries' of "
                         "{target, source, rule, op} rows (as --save-mapping writes)")
    entries = []
    for row in data.get("entries", []):
        if not isinstance(row, dict) or "target" not in row or "source" not in row:
            raise ValueError(f"{where}: each entry needs 'target' and 'source', got {row!r}")
        entries.append(MappingEntry(
            row["target"], row["source"], tuple(row.get("target_shape", ())),
            tuple(row.get("source_shape", ())),
            row.get("rule", "from the mapping file"), row.get("op", "copy"),
            tuple(row["source_rows"]) if row.get("source_rows") else None,
            tuple(row["target_rows"]) if row.get("target_rows") else None,
            row.get("source_index"), row.get("gates")))
    return {"entries": entries, "ignore_source": list(data.get("ignore_source", [])),
            "ignore_target": list(data.get("ignore_target", [])), "dropped": list(data.get("dropped", []))}


def match_with(source: Sequence[Entry], target: Sequence[Entry], mapping: Mapping[str, Any] | None, *,
               source_label: str = "source", target_label: str = "target"
               ) -> tuple[list[MappingEntry], list[str]]:
    """``match``, with a loaded mapping's entries pinned and its ignored names left out.

    Layers any of whose tensors a mapping entry names are taken out of the structural match on that side;
    the entries fill them. A mapping that names every target tensor is used as it is (nothing is matched).
    """
    if not mapping:
        return match(source, target, source_label=source_label, target_label=target_label)
    pinned = list(mapping["entries"])
    pin_t = {e.target for e in pinned}
    pin_s = {e.source for e in pinned}
    ign_s, ign_t = set(mapping["ignore_source"]), set(mapping["ignore_target"])

    def left(entries: Sequence[Entry], pins: set[str], ignored: set[str]) -> list[Entry]:
        layers, _ = group(entries)
        drop = set()
        for layer in layers:
            names = {t.name for t in layer.tensors.values()}
            if names & pins or is_ignored(layer.name, ignored) or any(is_ignored(n, ignored) for n in names):
                drop |= names
        return [e for e in entries if e.name not in drop]

    shapes_t = {e.name: e.shape for e in target}
    shapes_s = {e.name: e.shape for e in source}
    for e in pinned:
        if e.target not in shapes_t:
            raise ValueError(f"mapping: {e.target} <- {e.source}: the {target_label} has no tensor "
                             f"{e.target!r}")
        if e.source not in shapes_s:
            raise ValueError(f"mapping: {e.target} <- {e.source}: the {source_label} has no tensor "
                             f"{e.source!r}")
    rest_t, rest_s = left(target, pin_t, ign_t), left(source, pin_s, ign_s)
    table, dropped = match(rest_s, rest_t, source_label=source_label, target_label=target_label) \
        if rest_t or rest_s else ([], [])
    fixed = [MappingEntry(e.target, e.source, tuple(shapes_t[e.target]), tuple(shapes_s[e.source]), e.rule,
                          e.op, e.source_rows, e.target_rows, e.source_index, e.gates) for e in pinned]
    order = {e.name: i for i, e in enumerate(target)}
    return sorted(fixed + table, key=lambda e: (order.get(e.target, 0), e.target_rows or (0, 0))), dropped
