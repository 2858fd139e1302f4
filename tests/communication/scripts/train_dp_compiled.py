"""Compiled data-parallel training (GRAPH_MODE) beside eager data-parallel training (PYNATIVE_MODE) under
mpirun; writes OUT/rank{r}_{case}.npz for tests/communication/test_data_parallel_compiled.py.

    mpirun -n 2 python train_dp_compiled.py OUT [GPU]

With GPU, every rank's compiled step runs on onnxruntime's CUDA execution provider (eager steps stay NumPy).
"""
from __future__ import annotations

import sys

import numpy as np

import cellonnx as ms
from cellonnx import nn
from cellonnx.communication import get_group_size, get_rank, init

STEPS = 4
GLOBAL_BATCH = 8


def mlp(norm: str) -> nn.Cell:
    bn = nn.SyncBatchNorm(16) if norm == "sync" else nn.BatchNorm1d(16)
    # (no bias before a batch norm: its gradient is zero, and Adam would scale the rounding noise up)
    return nn.SequentialCell([nn.Dense(6, 16, has_bias=False), bn, nn.ReLU(), nn.Dense(16, 3)])


def cnn(norm: str) -> nn.Cell:
    layers = [nn.Conv2d(1, 4, 3, has_bias=norm == "none")]
    if norm != "none":
        layers.append(nn.SyncBatchNorm(4) if norm == "sync" else nn.BatchNorm2d(4))
    return nn.SequentialCell(layers + [nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(), nn.Dense(4 * 4 * 4, 3)])


NETS = {"mlp": (mlp, (6,)), "cnn": (cnn, (1, 8, 8))}
CASES = [("mlp", "sync", "momentum"), ("mlp", "sync", "adam"), ("mlp", "local", "momentum"),
         ("cnn", "none", "momentum"), ("cnn", "none", "adam"), ("cnn", "sync", "adam")]


def make(kind: str, norm: str, opt_name: str) -> tuple[nn.Cell, nn.Cell]:
    ms.set_seed(7)
    build, _ = NETS[kind]
    net = build(norm)
    if opt_name == "adam":
        opt = nn.Adam(net.trainable_params(), learning_rate=0.01)
    else:
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    step.set_train()
    return net, step


def batches(kind: str) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(0)
    shape = NETS[kind][1]
    full = [(rng.standard_normal((GLOBAL_BATCH,) + shape).astype(np.float32),
             rng.integers(0, 3, GLOBAL_BATCH).astype(np.int32)) for _ in range(STEPS)]
    # and a last, smaller batch (the compiled step's batch dim is dynamic: SyncBatchNorm's count follows it)
    return full + [(full[0][0][:6], full[0][1][:6])]


def shard(a: np.ndarray, rank: int, size: int) -> np.ndarray:
    n = len(a) // size
    return a[rank * n:(rank + 1) * n]


def state(net: nn.Cell) -> dict[str, np.ndarray]:
    return {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def run(kind: str, norm: str, opt_name: str, mode: int, rank: int, size: int) -> dict[str, np.ndarray]:
    ms.set_context(mode=mode)
    try:
        net, step = make(kind, norm, opt_name)
        out = {"start/" + k: v for k, v in state(net).items()}
        losses = []
        for x, y in batches(kind):
            losses.append(step(ms.Tensor(shard(x, rank, size)), ms.Tensor(shard(y, rank, size))).asnumpy())
        out.update({"end/" + k: v for k, v in state(net).items()})
        out["losses"] = np.array(losses)
        if mode == ms.GRAPH_MODE:   # how the compiled step was cut: graphs run, boundaries started / finished
            # (on CUDA the step graph is static in its batch dim: the last, smaller batch made a second one)
            compiled = _compiled_steps(step)[0]
            out["actions"] = np.array([kind for kind, _ in compiled.plan.actions])
            from cellonnx.graph.export_step import export_step_model
            try:
                export_step_model(step, ms.Tensor(shard(x, rank, size)), ms.Tensor(shard(y, rank, size)))
            except ValueError as exc:
                out["export_error"] = np.array(str(exc))
        return out
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def loss_scale(mode: int, rank: int, size: int) -> dict[str, np.ndarray]:
    """Rank 1's input overflows at step 2: every rank skips that update and halves the scale."""
    ms.set_context(mode=mode)
    try:
        ms.set_seed(30)
        lin = nn.Dense(4, 2)
        opt = nn.Momentum(lin.trainable_params(), learning_rate=0.1, momentum=0.9)
        manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=1024.0, scale_factor=2, scale_window=100)
        step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(lin, nn.MSELoss()), opt, scale_sense=manager)
        flags, weights, scales = [], [], []
        rng = np.random.default_rng(3)
        for i in range(4):
            x = shard(rng.standard_normal((GLOBAL_BATCH, 4)).astype(np.float32), rank, size)
            if i == 2 and rank == 1:
                x[0, 0] = np.inf
            _, overflow, scale = step(ms.Tensor(x), ms.Tensor(np.zeros((len(x), 2), np.float32)))
            flags.append(bool(overflow.asnumpy()))
            weights.append(lin.weight.asnumpy().copy())
            scales.append(float(scale.asnumpy()))
        return {"flags": np.array(flags), "weights": np.stack(weights), "scales": np.array(scales)}
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def functional(mode: int, rank: int, size: int) -> dict[str, np.ndarray]:
    """A hand-written step (value_and_grad, DistributedGradReducer, the optimizer) under ``ms.jit``."""
    ms.set_context(mode=mode)
    try:
        net, _ = make("mlp", "sync", "adam")
        opt = nn.Adam(net.trainable_params(), learning_rate=0.01)
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        reducer = nn.DistributedGradReducer(opt.parameters)

        @ms.jit
        def train_step(x: ms.Tensor, y: ms.Tensor) -> ms.Tensor:
            loss, grads = grad_fn(x, y)
            opt(reducer(grads))
            return loss

        losses = [train_step(ms.Tensor(shard(x, rank, size)), ms.Tensor(shard(y, rank, size))).asnumpy()
                  for x, y in batches("mlp")]
        return {"losses": np.array(losses), **{"end/" + k: v for k, v in state(net).items()}}
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def model_train(rank: int, size: int) -> dict[str, np.ndarray]:
    """Model.train in GRAPH_MODE: its TrainOneStepCell runs compiled, the all-reduce between graphs."""
    from cellonnx.dataset import NumpySlicesDataset
    from cellonnx.train import Model

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ms.set_seed(7)
        net = cnn("none")
        opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        xs = np.concatenate([x for x, _ in batches("cnn")])
        ys = np.concatenate([y for _, y in batches("cnn")])
        data = NumpySlicesDataset({"x": xs, "y": ys}, shuffle=False, num_shards=size, shard_id=rank)
        model = Model(net, loss, opt)
        start = state(net)
        model.train(1, data.batch(GLOBAL_BATCH // size))
        compiled = isinstance(model._train_network, nn.Cell) and bool(_compiled_steps(model._train_network))
        return {**{"start/" + k: v for k, v in start.items()},
                **{"end/" + k: v for k, v in state(net).items()}, "compiled": np.array(compiled)}
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _compiled_steps(cell: nn.Cell) -> list:
    from cellonnx.graph.train import compiled_steps

    return compiled_steps(cell)


def main(out: str, device_target: str = "CPU") -> None:
    ms.set_context(device_target=device_target)
    init()
    if device_target == "GPU":
        # init() picked the local rank as the device, as MindSpore does; here the ranks share one GPU
        ms.set_context(device_id=0)
    rank, size = get_rank(), get_group_size()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 comm_fusion={"allreduce": {"mode": "size", "config": 0.0004}})  # 419 B
    for kind, norm, opt_name in CASES:
        name = f"{kind}_{norm}_{opt_name}"
        eager = run(kind, norm, opt_name, ms.PYNATIVE_MODE, rank, size)
        graph = run(kind, norm, opt_name, ms.GRAPH_MODE, rank, size)
        np.savez(f"{out}/rank{rank}_{name}.npz", **{"eager/" + k: v for k, v in eager.items()},
                 **{"graph/" + k: v for k, v in graph.items()})
    eager, graph = loss_scale(ms.PYNATIVE_MODE, rank, size), loss_scale(ms.GRAPH_MODE, rank, size)
    np.savez(f"{out}/rank{rank}_losscale.npz", **{"eager/" + k: v for k, v in eager.items()},
             **{"graph/" + k: v for k, v in graph.items()})
    eager, graph = functional(ms.PYNATIVE_MODE, rank, size), functional(ms.GRAPH_MODE, rank, size)
    np.savez(f"{out}/rank{rank}_functional.npz", **{"eager/" + k: v for k, v in eager.items()},
             **{"graph/" + k: v for k, v in graph.items()})
    np.savez(f"{out}/rank{rank}_model.npz", **model_train(rank, size))


if __name__ == "__main__":
    main(*sys.argv[1:])
