"""Training a hybridized HybridBlock: MXNet's CachedOp under ``autograd.record()``.

A hybridized block called while recording runs two onnxruntime graphs traced from it
(cellonnx/graph/vjp.py): at call time the forward graph (its outputs, the new moving statistics of its batch
norms and the residuals its gradient needs), and when ``backward`` reaches the block the backward graph,
which turns the output gradients into the gradients of its inputs and parameters. The block is one entry on
the tape, so the loss and anything outside the block stay eager, and the tape writes the parameters'
gradients as for any op (grad_req 'write', 'add' and 'null' honoured).

Tensors inside list and tuple arguments (a recurrent model's states, ``model(data, hidden)``) are graph
inputs like the others (gluon/flat_call.py), so one trace serves every state value; a state that requires
grad gets its gradient from the backward graph. The batch axis of every tensor is dynamic
(:func:`input_shapes`): a time-major recurrent model's last, shorter batch runs the same graph, while
another sequence length traces again.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cellonnx import context
from cellonnx.autograd.function import _Function
from cellonnx.autograd.tape import is_grad_enabled
from cellonnx.graph import nchwc_convs
from cellonnx.graph.compile import serialize
from cellonnx.graph.runtime import Session
from cellonnx.graph.step_trace import rebuild
from cellonnx.graph.vjp import VJPGraphs
from cellonnx.tensor import Tensor

__all__ = ["SPINNING", "CompiledTraining", "input_shapes"]

# onnxruntime's threads wait for the next run without spinning: the eager loss, the Trainer's update and the
# tape run in NumPy between the forward and backward runs, on the cores spinning threads would hold
# (bench/gluon_rnn_train.py --spinning; bench/RESULTS.md "Hybridized Gluon training")
SPINNING = False


def input_shapes(block: Any, args: Sequence[Any], static: bool) -> list[tuple | None]:
    """The shape each argument is traced with: its batch axis None (gluon.rnn.batch_axes: axis 0, or axis 1
    of a time-major recurrent input and of the states), or every dim as given when ``static``; None for an
    argument that is not a Tensor.

    A recurrent layer's time axis stays static: its gradient unrolls the recurrence over the traced
    sequence length, so another length traces again."""
    from cellonnx.gluon.rnn.batch_axes import batch_axes

    tensors = [a for a in args if isinstance(a, Tensor)]
    axes = iter(batch_axes(block, [tuple(t.shape) for t in tensors]))
    shapes: list[tuple | None] = []
    for a in args:
        if not isinstance(a, Tensor):
            shapes.append(None)
            continue
        axis = next(axes)
        shape = tuple(int(d) for d in a.shape)
        if not static and shape:
            shape = tuple(None if i == axis else d for i, d in enumerate(shape))
        shapes.append(shape)
    return shapes


class CompiledTraining:
    """The forward and backward sessions of a hybridized block in training.

    Attributes:
        forward_runs / backward_runs: how many times each graph ran.
    """

    def __init__(self, graphs: VJPGraphs, device_target: str = "CPU", device_id: int = 0,
                 name: str = "HybridBlock", batch: int | None = None) -> None:
        self.graphs = graphs
        self.name = name
        threads = context.get_context("intra_op_num_threads") or 0
        forward = nchwc_convs.for_session(graphs.forward, device_target, batch)
        self.forward_session = Session(serialize(forward), device_target, device_id,
                                       intra_op_num_threads=threads, spinning=SPINNING)
        self.backward_session = None
        if graphs.backward is not None:
            backward = nchwc_convs.for_session(graphs.backward, device_target, batch)
            self.backward_session = Session(serialize(backward), device_target, device_id,
                                            intra_op_num_threads=threads, spinning=SPINNING)
        self._fwd_names = list(dict.fromkeys([*graphs.outputs, *(o for o, _ in graphs.updates),
                                              *(o for o, _ in graphs.observed), *graphs.residuals]))
        self.forward_runs = 0
        self.backward_runs = 0

    def __call__(self, args: tuple) -> Any:
        """Run the block on ``args``; the result is recorded on the tape when something needs gradients."""
        g = self.graphs
        targets = [args[k] if kind == "arg" else k for kind, k in g.targets]
        if self.backward_session is None or not targets:
            values, _ = self.run_forward(args)
            flat = [Tensor._make(values[n]) for n in g.outputs]
        else:
            out = _BlockCall.apply(self, args, *targets)
            flat = list(out) if isinstance(out, (tuple, list)) else [out]
        return rebuild(g.structure, flat)

    def run_forward(self, args: tuple) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Run the forward graph; assign the updated parameters (moving statistics). Returns the outputs
        by name and the feeds (the backward reads the values the forward saw)."""
        g = self.graphs
        feeds = {n: np.ascontiguousarray(args[pos]._data) for n, pos in g.data_inputs}
        feeds.update((n, p._data) for n, p in g.state)
        values = dict(zip(self._fwd_names, self.forward_session.run(feeds, self._fwd_names)))
        self.forward_runs += 1
        for name, p in g.updates:
            p._assign_array(np.ascontiguousarray(values[name].reshape(p._data.shape), dtype=p._data.dtype))
        for name, callback in g.observed:  # what the eager forward notes (an embedding's rows looked up)
            callback(values[name])
        return values, feeds

    def run_backward(self, values: dict, feeds: dict, head_grads: tuple) -> list[np.ndarray | None]:
        """The gradient per target from the output gradients ``head_grads`` (one per output)."""
        g = self.graphs
        sess = self.backward_session
        assert sess is not None
        given = {name: np.ascontiguousarray(head_grads[i]._data, dtype=values[g.outputs[i]].dtype)
                 for name, i in g.grad_inputs}
        bfeeds = {}
        for n in sess.input_names:
            bfeeds[n] = given[n] if n in given else values[n] if n in values else feeds[n]
        names = [n for n in g.grads if n is not None]
        got = dict(zip(names, sess.run(bfeeds, names)))
        self.backward_runs += 1
        return [None if n is None else got[n] for n in g.grads]


class _BlockCall(_Function):
    """One tape entry for a hybridized block: forward and backward run the compiled graphs."""

    @staticmethod
    def forward(ctx: Any, prog: CompiledTraining, args: tuple, *targets: Tensor) -> Any:
        values, feeds = prog.run_forward(args)
        ctx.prog, ctx.values, ctx.feeds = prog, values, feeds
        outs = tuple(Tensor._make(values[n]) for n in prog.graphs.outputs)
        return outs if len(outs) > 1 else outs[0]

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        if is_grad_enabled():  # create_graph=True: the gradient would have to be differentiated again
            raise RuntimeError(f"{ctx.prog.name}: a hybridized block's gradient is computed by its compiled "
                               "backward graph, which cannot be differentiated again (create_graph=True); "
                               "call hybridize(False) on it for higher-order gradients")
        result = ctx.prog.run_backward(ctx.values, ctx.feeds, grads)
        out: list[Any] = [None, None]
        for (kind, k), r in zip(ctx.prog.graphs.targets, result):
            like = k if kind == "param" else None
            if r is not None and like is not None:
                r = r.reshape(like._data.shape)
            out.append(None if r is None else Tensor._make(r))
        return tuple(out)
