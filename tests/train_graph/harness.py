"""Run the same training for a few steps eagerly (PYNATIVE_MODE) and compiled (GRAPH_MODE) and compare the
trajectories: losses, and every parameter, optimizer state and moving statistic after the last step."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import cellonnx as ms
from tests.tolerance import assert_close

STEPS = 5
# Values below this are rounding noise of quantities that are zero in exact arithmetic (a Transformer's key
# bias gets a gradient of exactly 0: softmax ignores a shift shared by every key), compared on this floor.
MIN_SCALE = 1e-6


def state_of(cell: Any) -> dict[str, np.ndarray]:
    """Every parameter reachable from the training cell (network, optimizer slots, counters, statistics)."""
    out: dict[str, np.ndarray] = {}
    for name, p in cell.parameters_and_names():
        out.setdefault(name, np.array(p.asnumpy(), copy=True))
    return out


def flat_losses(out: Any) -> list[np.ndarray]:
    if isinstance(out, ms.Tensor):
        return [np.array(out.asnumpy(), copy=True)]
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in flat_losses(o)]
    return []


def run(build: Callable[[], Any], batches: Sequence[tuple], mode: int) -> tuple[list, dict[str, np.ndarray]]:
    ms.set_context(mode=mode)
    try:
        ms.set_seed(0)
        step = build()
        outs = [flat_losses(step(*batch)) for batch in batches]
        return outs, state_of(step)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def check_trajectory(build: Callable[[], Any], batches: Sequence[tuple], rtol: float = 1e-4,
                     what: str = "") -> dict[str, np.ndarray]:
    """The compiled trajectory equals the eager one; returns the compiled final state."""
    eager_outs, eager_state = run(build, batches, ms.PYNATIVE_MODE)
    graph_outs, graph_state = run(build, batches, ms.GRAPH_MODE)
    assert sorted(eager_state) == sorted(graph_state), what
    for i, (e, g) in enumerate(zip(eager_outs, graph_outs)):
        for a, b in zip(e, g):
            assert_close(b, a, rtol=rtol, scale_rtol=rtol, min_scale=MIN_SCALE,
                         what=f"{what}: output of step {i}")
    for name in eager_state:
        assert_close(graph_state[name], eager_state[name], rtol=rtol, scale_rtol=rtol, min_scale=MIN_SCALE,
                     what=f"{what}: {name} after {len(batches)} steps")
    return graph_state


def momentum_step(net: Any, lr: float = 0.05) -> Any:
    """``net`` trained with sparse softmax cross-entropy (mean) and Momentum 0.9, in training mode."""
    from cellonnx import nn

    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), lr, 0.9))
    step.set_train()
    return step


def classification_batches(shape: Sequence[int], classes: int, steps: int = STEPS, seed: int = 0,
                           sizes: Sequence[int] | None = None) -> list[tuple]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(steps):
        n = sizes[i % len(sizes)] if sizes else shape[0]
        x = rng.standard_normal((n, *shape[1:])).astype(np.float32)
        y = rng.integers(0, classes, (n,)).astype(np.int32)
        out.append((ms.Tensor(x), ms.Tensor(y)))
    return out


def with_user_writes(build: Callable[[], Any], at: int = 2) -> Callable[[], Any]:
    """``build``'s training step, called through a function that before call ``at`` reads one parameter and
    sets another (``set_data``) the way user code between steps does: the compiled step must take the new
    value and leave the read one as it was."""
    def make() -> Any:
        step = build()
        calls = [0]

        def call(*batch: Any) -> Any:
            if calls[0] == at:
                first, second = list(step.trainable_params())[:2]
                np.array(second.asnumpy(), copy=True)
                first.set_data(ms.Tensor(np.full(first.shape, 0.01, first.asnumpy().dtype)))
            calls[0] += 1
            return step(*batch)

        call.parameters_and_names = step.parameters_and_names
        return call
    return make


def compiled_after(build: Callable[[], Any], batches: Sequence[tuple]) -> Any:
    """The one compiled step of ``build()`` after it ran ``batches`` in GRAPH_MODE."""
    from cellonnx.graph import train as graph_train

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = build()
        for batch in batches:
            step(*batch)
        (compiled,) = graph_train.compiled_steps(step)
        return compiled
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def momentum_build(make_loss_cell: Callable[[], Any], lr: float) -> Callable[[], Any]:
    """A ``build`` for :func:`check_trajectory`: a TrainOneStepCell with Momentum 0.9 over the loss cell
    ``make_loss_cell()`` makes, in training mode; ``build.step`` holds the step built last."""
    from cellonnx import nn

    def build() -> Any:
        loss = make_loss_cell()
        step = nn.TrainOneStepCell(loss, nn.Momentum(loss.trainable_params(), lr, 0.9))
        step.set_train()
        build.step = step  # type: ignore[attr-defined]
        return step
    return build
