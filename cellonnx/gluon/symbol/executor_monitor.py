"""What an executor's monitor sees beyond each operator's first output, as MXNet 1.9.1's graph executor
shows it: BatchNorm's mean and var outputs, and the backward pass's nodes.

MXNet runs a backward node ``<node>_backward`` for every operator on a gradient path, in reverse order; its
outputs are the gradients of the operator's (non-auxiliary) inputs through that operator alone, named
``<node>_backward_output`` (one input) or ``<node>_backward_output<i>``. To get those partial gradients the
executor hands each recorded operator fresh copies of its inputs (``BackwardTap``) and differentiates the
outputs against the copies after backward.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import ops
from cellonnx.gluon import autograd
from cellonnx.tensor import Tensor

__all__ = ["BackwardTap", "batch_norm_extras"]


def batch_norm_extras(attrs: dict[str, Any], data: Tensor, aux: list[Tensor], train: bool) -> list[Any]:
    """BatchNorm's ``mean`` and ``var`` outputs as MXNet computes them: the batch mean and inverse standard
    deviation ``1 / sqrt(var + eps)`` while training, the moving mean and inverse moving deviation else."""
    x = data._data.astype(np.float64)
    axis = int(attrs.get("axis", 1)) % x.ndim
    eps = float(attrs.get("eps", 1e-3))
    if train or len(aux) < 2:
        reduce = tuple(a for a in range(x.ndim) if a != axis)
        mean, var = x.mean(axis=reduce), x.var(axis=reduce)
    else:
        mean, var = aux[0]._data.astype(np.float64), aux[1]._data.astype(np.float64)
    dtype = data._data.dtype
    return [mean.astype(dtype), (1.0 / np.sqrt(var + eps)).astype(dtype)]


class BackwardTap:
    """Copies of every recorded operator's inputs, and the monitor entries of the backward nodes."""

    def __init__(self, aux_names: set[str], monitor_all: bool = False) -> None:
        self._aux_names = aux_names
        self._taps: list[tuple[str, list[Tensor]]] = []
        # monitor_all: per tapped node, what its backward node's inputs are read from
        self._monitor_all = monitor_all
        self._forward: dict[str, dict[str, Any]] = {}

    def hook(self, step: Any, inputs: list[Any], graph: Any) -> None:
        """Replace ``inputs`` (in place) by copies that record gradients; remember them when the operator
        lies on a gradient path (some input already required grad)."""
        argument = [i for i, (nid, _) in enumerate(step.inputs)
                    if not (graph.nodes[nid].op == "null" and graph.nodes[nid].name in self._aux_names)]
        if not any(isinstance(inputs[i], Tensor) and inputs[i].requires_grad for i in argument):
            return
        if self._monitor_all:
            sources = [graph.nodes[nid] for nid, _ in step.inputs]
            self._forward[step.node.name] = {
                "step": step, "outputs": [], "monitored": [],
                "inputs": [(s.name if s.op == "null" else None,
                            np.array(v._data) if isinstance(v, Tensor) else v)
                           for s, v in zip(sources, inputs)]}
        copies = []
        for i in argument:
            value = inputs[i]
            if not isinstance(value, Tensor):
                continue
            if value.requires_grad:
                inputs[i] = ops.add(value, 0.0)
            else:  # MXNet's backward node computes this input's gradient too (a label's is 0)
                inputs[i] = Tensor._make(value._data)
                inputs[i].__class__ = type(value)
                inputs[i].attach_grad()
            copies.append(inputs[i])
        if copies:
            self._taps.append((step.node.name, copies))

    def outputs(self, step: Any, result: Any, monitored: list[np.ndarray]) -> None:
        """Remember a tapped node's output tensors and the arrays the monitor was given for it."""
        record = self._forward.get(step.node.name)
        if record is not None and record["step"] is step:
            record["outputs"] = [r for r in (result if isinstance(result, (list, tuple)) else [result])
                                 if isinstance(r, Tensor)]
            record["monitored"] = monitored

    def report(self, outs: list[Tensor], heads: list[Any], callback: Callable[[str, Any], None],
               to_nd: Callable[[np.ndarray], Any]) -> None:
        """Call ``callback(name, gradient)`` for every backward node's outputs, in MXNet's order (with
        monitor_all, each node's inputs first)."""
        if not self._taps:
            return
        wrt = [c for _, copies in self._taps for c in copies]
        n_copies = len(wrt)
        out_at: dict[str, int] = {}
        for name, _ in self._taps:
            record = self._forward.get(name)
            if record is not None:
                out_at[name] = len(wrt)
                wrt.extend(o for o in record["outputs"])
        live = [(o, h) for o, h in zip(outs, heads) if isinstance(o, Tensor) and o.requires_grad]
        grads = autograd.grad([o for o, _ in live], wrt, head_grads=[h for _, h in live],
                              retain_graph=True) if live else [None] * len(wrt)
        at = n_copies
        per_node = []
        for name, copies in reversed(self._taps):
            at -= len(copies)
            per_node.append((name, copies, grads[at:at + len(copies)]))
        for name, copies, node_grads in per_node:
            if name in out_at:
                self._report_inputs(name, grads, out_at[name], callback, to_nd)
            for i, (c, g) in enumerate(zip(copies, node_grads)):
                suffix = "" if len(copies) == 1 else str(i)
                value = np.zeros(c.shape, c._data.dtype) if g is None else np.array(g._data)
                callback(f"{name}_backward_output{suffix}", to_nd(value))
        self._taps = []
        self._forward = {}

    def _report_inputs(self, name: str, grads: list[Any], at: int, callback: Callable[[str, Any], None],
                       to_nd: Callable[[np.ndarray], Any]) -> None:
        from cellonnx.gluon.symbol.monitor_inputs import backward_inputs

        record = self._forward[name]
        step = record["step"]
        layout = backward_inputs(step.node.op, step.attrs)
        for label, kind, index in layout or []:
            if kind == "ograd":
                if index >= len(record["outputs"]):
                    continue
                g = grads[at + index]
                out = record["outputs"][index]
                value = np.zeros(out.shape, out._data.dtype) if g is None else np.array(g._data)
            elif kind == "in":
                variable, value = record["inputs"][index]
                if variable is not None:
                    callback(variable, to_nd(value))
            else:
                if index >= len(record["monitored"]):
                    continue
                value = record["monitored"][index]
            callback(f"{name}_backward_{label}", to_nd(value))
