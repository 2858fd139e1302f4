"""nn.thor compiled into the training step (GRAPH_MODE) follows the eager trajectory over 5 steps: losses,
parameters, momenta, THOR's kept inverses (``matrix_a_inv_*`` / ``matrix_g_inv_*``), the layers' statistics
and normalizers and the step counters, within rtol 1e-4.

Each row mixes THOR steps (the layers record their statistics and the optimizer inverts the damped factors
through ops.cholesky and ops.inverse, lowered to ONNX Loops) with steps that reuse the kept inverses
(``thor`` False): the two are two graphs, as MindSpore compiles one per phase. The flags are switched as
ModelThor switches them (``add_flags_recursive``) or by assigning ``thor`` on the optimizer and the layers.
The Loops compute in float64, as the eager LAPACK calls do, so float32 noise in the inverses does not grow
with the factors' condition number and rtol 1e-4 holds for blocks of 128 too.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn, ops
from cellonnx.graph.train import compiled_steps
from cellonnx.ops.registry import OpError
from tests.tolerance import assert_close
from tests.train_graph.harness import STEPS, check_trajectory, classification_batches, state_of

LR = np.array([0.05, 0.04, 0.03, 0.02, 0.01, 0.01], np.float32)
DAMPING = np.array([0.3, 0.2, 0.1, 0.08, 0.05, 0.03], np.float32)


class LeNetLike(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flat = nn.Flatten()
        self.fc1 = nn.Dense(4 * 3 * 3, 16, activation="relu")
        self.fc2 = nn.Dense(16, 3)

    def construct(self, x: Tensor) -> Tensor:
        return self.fc2(self.fc1(self.flat(self.pool(self.relu(self.conv(x))))))


class EmbedNet(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(10, 6)
        self.norm = nn.LayerNorm((6,))
        self.fc = nn.Dense(6, 3)

    def construct(self, ids: Tensor) -> Tensor:
        return self.fc(ops.mean(self.norm(self.embed(ids)), 1))


def _mlp(n_in: int) -> nn.Cell:
    return nn.SequentialCell([nn.Dense(n_in, 12, activation="relu"), nn.Dense(12, 3)])


def _flags(step: nn.Cell, opt: Any, thor: bool, how: str) -> None:
    if how == "add_flags":  # as ModelThor
        step.add_flags_recursive(thor=thor)
        return
    opt.thor = thor
    for cell in opt.net.cells_and_names():
        if hasattr(cell[1], "matrix_a") or hasattr(cell[1], "matrix_a_cov"):
            cell[1].thor = thor


def _builder(net_fn: Callable[[], nn.Cell], schedule: Sequence[bool], how: str = "add_flags",
             **kw: Any) -> Callable[[], Any]:
    def build() -> Any:
        net = net_fn()
        args = {"batch_size": 4, "frequency": 3} | kw
        opt = nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.9, **args)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt, sens=kw.get("loss_scale", 1.0))
        step.set_train()
        calls = [0]

        def call(*batch: Tensor) -> Any:
            _flags(step, opt, schedule[calls[0]], how)
            calls[0] += 1
            return step(*batch)

        call.parameters_and_names = step.parameters_and_names  # type: ignore[attr-defined]
        call.step = step  # type: ignore[attr-defined]
        return call
    return build


def _ids_batches() -> list[tuple]:
    rng = np.random.default_rng(2)
    return [(Tensor(rng.integers(0, 10, (4, 5)).astype(np.int32)),
             Tensor(rng.integers(0, 3, (4,)).astype(np.int32))) for _ in range(STEPS)]


FREQ3 = (True, False, False, True, False)   # ModelThor's schedule with frequency 3
ALTERNATE = (True, False, True, False, True)
CASES = {
    "lenet_frequency_3": (_builder(LeNetLike, FREQ3), lambda: classification_batches((4, 1, 8, 8), 3)),
    "mlp_options_assigned_flags": (
        _builder(lambda: _mlp(6), ALTERNATE, how="assign", weight_decay=0.01, loss_scale=2.0,
                 use_nesterov=True, enable_clip_grad=True),
        lambda: classification_batches((4, 6), 3)),
    "embedding_layernorm": (_builder(EmbedNet, FREQ3), _ids_batches),
    "blocks_of_128": (_builder(lambda: _mlp(300), ALTERNATE), lambda: classification_batches((8, 300), 3)),
    # one graph per phase serves every batch size: G's 1 / batch is read at run time
    "lenet_batch_sizes": (_builder(LeNetLike, FREQ3),
                          lambda: classification_batches((4, 1, 8, 8), 3, sizes=[4, 6, 3])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_thor_trajectory_matches_eager(name: str) -> None:
    build, batches = CASES[name]
    state = check_trajectory(build, batches(), what=name)
    assert int(state["optimizer.cov_step"][0]) == STEPS
    inverses = [k for k in state if "matrix_a_inv" in k or "matrix_g_inv" in k]
    assert inverses and all(np.abs(state[k]).max() > 0 for k in inverses)


def test_thor_and_first_order_steps_are_two_graphs() -> None:
    build, batches = CASES["lenet_frequency_3"]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        call = build()
        for batch in batches():
            call(*batch)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert len(compiled_steps(call.step)) == 2


def test_thor_step_factors_every_layer_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled THOR step factors the damped A and G blocks of all the conv / dense layers by one
    ops.cholesky and ops.inverse (each block padded with the identity to the largest, 36 here): the Loops
    of one blocked factorization of 36 columns (graph/decomp_loops.py), not one factorization per factor;
    where that call raises, the layers are inverted one by one, and either way the states are eager's."""
    from cellonnx.ops.prims import decomp_loops
    build, batches = CASES["lenet_frequency_3"]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        call = build()
        call(*batches()[0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    (step,) = compiled_steps(call.step)
    loops = [n for n in step.step.model.graph.node if n.op_type == "Loop"]
    assert len(loops) == -(-36 // decomp_loops.BLOCK)

    def refuse(blocks: Any) -> None:
        raise OpError("refused")
    thor_module = sys.modules["cellonnx.nn.optim.thor"]
    monkeypatch.setattr(thor_module, "_inverse_cholesky_stacked", refuse)
    check_trajectory(build, batches(), what="layers inverted one by one")


def test_model_thor_sink_mode_compiled_matches_eager() -> None:
    def train(mode: int) -> dict[str, np.ndarray]:
        ms.set_context(mode=mode)
        try:
            ms.set_seed(0)
            net = _mlp(6)
            opt = nn.thor(net, Tensor(LR), Tensor(DAMPING), 0.9, batch_size=4, frequency=2)
            loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
            model = ms.train.Model(net, loss_fn=loss, optimizer=opt)
            model = ms.train.ConvertModelUtils.convert_to_thor_model(model, network=net, loss_fn=loss,
                                                                     optimizer=opt)
            rng = np.random.RandomState(1)
            data = {"x": rng.normal(0, 1, (20, 6)).astype(np.float32),
                    "y": (np.arange(20) % 3).astype(np.int32)}
            dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(4)
            model.train(1, dataset, dataset_sink_mode=True)
            return state_of(model._train_network)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)

    eager, graph = train(ms.PYNATIVE_MODE), train(ms.GRAPH_MODE)
    assert sorted(eager) == sorted(graph)
    for k in eager:
        assert_close(graph[k], eager[k], rtol=1e-4, scale_rtol=1e-4, what=k)


def _thor_step(net: nn.Cell, damping: np.ndarray) -> nn.Cell:
    """A training step of ``net`` with nn.thor (frequency 2), in training mode."""
    opt = nn.thor(net, Tensor(LR), Tensor(damping), 0.9, batch_size=4, frequency=2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    step.set_train()
    return step


def _states_per_mode(build: Callable[[], nn.Cell], run: Callable[[nn.Cell], Any]) -> tuple[dict, dict]:
    """The state after ``run(build())`` eagerly and compiled, each from seed 0."""
    states = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            ms.set_seed(0)
            step = build()
            run(step)
            states[mode] = state_of(step)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    return states[ms.PYNATIVE_MODE], states[ms.GRAPH_MODE]


def test_factors_not_positive_definite_raise_after_the_step_as_eager() -> None:
    """A damping below zero makes the damped factors NaN: eager raises naming the layer before the update;
    the compiled step skips its update in the graph and raises the same error after it, so the state (the
    layers' new statistics, the rest as before) is eager's."""
    damping = np.array([0.1, -0.1], np.float32)
    batches = classification_batches((4, 6), 3, steps=2)

    def run(step: nn.Cell) -> None:
        step(*batches[0])
        with pytest.raises(ValueError, match="0.weight's layer are not positive definite"):
            step(*batches[1])

    eager, graph = _states_per_mode(lambda: _thor_step(_mlp(6), damping), run)
    assert int(graph["optimizer.cov_step"][0]) == 1 and int(graph["optimizer.global_step"][0]) == 1
    for k in eager:
        assert_close(graph[k], eager[k], rtol=1e-5, scale_rtol=1e-5, what=k)



@pytest.mark.filterwarnings("ignore:overflow encountered in matmul")
def test_overflowed_statistic_inverts_to_zero_as_mindspore() -> None:
    """An input feature whose square overflows float32 makes its variance in A infinite (the rest finite):
    MindSpore's CholeskyTrsm (potrf, then a triangular solve, its status never read) gives that variable a
    zero row and column in A^-1 and trains on. Eager and compiled do the same, without raising, and keep
    equal states."""
    x, y = classification_batches((4, 6), 3, steps=1)[0]
    x = x.asnumpy().copy()
    x[:, 2] = 1e20

    def build() -> nn.Cell:
        net = _mlp(6)
        w = net[0].weight.asnumpy().copy()
        w[:, 2] = 0.0   # the forward and the loss stay finite
        net[0].weight.set_data(Tensor(w))
        return _thor_step(net, DAMPING)

    eager, graph = _states_per_mode(build, lambda step: step(Tensor(x), y))
    a_inv = eager["optimizer.matrix_a_inv_0"].reshape(6, 6)
    assert np.isinf(eager["network._backbone.0.matrix_a"][2, 2])
    assert not a_inv[2].any() and not a_inv[:, 2].any() and np.abs(a_inv).max() > 0
    assert int(graph["optimizer.cov_step"][0]) == 1
    for k in eager:
        if np.isfinite(eager[k]).all():
            assert_close(graph[k], eager[k], rtol=1e-4, scale_rtol=1e-4, what=k)
        else:
            np.testing.assert_array_equal(np.isfinite(graph[k]), np.isfinite(eager[k]), err_msg=k)
