"""What dropout costs in the compiled training step of the zoo's Transformer classifier (BERT-tiny: hidden
128, 2 layers, 2 heads, FFN 512; batch 32 x 128 tokens, Adam), one process, side by side:

- ``counter``: dropout from the counter generator (cellonnx/ops/prims/counter_rng.py), the masks of eager;
- ``onnx``: the same step with dropout lowered to ONNX Dropout (onnxruntime's generator), as before;
- ``none``: dropout 0 (no dropout at all).

and the eager dropout op alone on a (32, 128, 128) float32 tensor: the counter generator against NumPy's
PCG64 draw (``Generator.random`` + compare, the forward before the counter generator), and the same op alone
in a graph: the counter lowering against ONNX Dropout.

    .venv/bin/python bench/dropout_step.py [--threads 2] [--rounds 6] [--steps 3] [--dropout 0.1] [--profile]

The sides run in blocks of ``--steps`` steps with a pause before each block (bench/blocks.py), the order
alternating by round; the best and the median step over all blocks are reported.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import statistics
from collections.abc import Callable, Iterator

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv()

import numpy as np  # noqa: E402
from blocks import in_blocks, timed  # noqa: E402
from cellonnx.models import get_model  # noqa: E402

import cellonnx as ms  # noqa: E402
from cellonnx import nn  # noqa: E402
from cellonnx.ops.prims import counter_rng  # noqa: E402
from cellonnx.ops.prims.dropout import Dropout  # noqa: E402
from cellonnx.tensor import Tensor  # noqa: E402

CLASSES = 2


@contextlib.contextmanager
def onnx_dropout() -> Iterator[None]:
    """Lower dropout to ONNX Dropout in training mode while a step is traced (the former lowering)."""
    def lower(self, g, x, state, *, p, salt):
        ratio = g.const(np.asarray(p, dtype=np.float32))
        return g.op("Dropout", x, ratio, g.const(np.asarray(True)), outputs=2)

    saved = Dropout.lower
    Dropout.lower = lower
    try:
        yield
    finally:
        Dropout.lower = saved


def compiled_step(batch: int, seq: int, dropout: float, onnx_lowering: bool = False) -> Callable[[], float]:
    ms.set_seed(0)
    net = get_model("transformer_classifier", num_classes=CLASSES, dropout=dropout)
    rng = np.random.default_rng(0)
    ids = rng.integers(0, net.token_embedding.embedding_table.shape[0], (batch, seq)).astype(np.int32)
    mask = np.ones((batch, seq), np.int32)
    mask[:, seq - seq // 8:] = 0
    y = rng.integers(0, CLASSES, batch).astype(np.int32)

    class WithLoss(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.net = net
            self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

        def construct(self, ids, mask, y):
            return self.loss(self.net(ids, mask), y)

    train = nn.TrainOneStepCell(WithLoss(), nn.Adam(net.trainable_params(), learning_rate=1e-4))
    train.set_train()
    args = (Tensor(ids), Tensor(mask), Tensor(y))
    with onnx_dropout() if onnx_lowering else contextlib.nullcontext():
        train(*args)  # traced here
    run = lambda: float(train(*args).asnumpy())  # noqa: E731
    run.train = train  # type: ignore[attr-defined]
    run.args = args  # type: ignore[attr-defined]
    return run


def kernel_profile(steps: dict[str, Callable[[], float]], rounds: int, n: int) -> None:
    """onnxruntime's profiler over the same step graphs (fresh sessions, one thread, blocks in turn): kernel
    time per step of the nodes in a dropout scope, and of all nodes."""
    import json

    import onnxruntime as ort

    from cellonnx.graph import train as graph_train
    from cellonnx.graph.compile import serialize

    sessions = {}
    for name, run in steps.items():
        (c,) = graph_train.compiled_steps(run.train)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = THREADS
        opts.enable_profiling = True
        opts.profile_file_prefix = f"/tmp/dropout_step_{name}"
        sess = ort.InferenceSession(serialize(c.step.session_model), opts, providers=["CPUExecutionProvider"])
        feeds = {iname: np.ascontiguousarray(run.args[pos]._data) for iname, pos in c.step.data_inputs}
        feeds.update({iname: np.ascontiguousarray(p.asnumpy()) for iname, p in c.step.state})
        sessions[name] = (sess, feeds)
    in_blocks({k: (lambda m, s=s, f=f: timed(lambda: s.run(None, f), m)) for k, (s, f) in sessions.items()},
              rounds, n)
    print("\nkernel time per step (onnxruntime profiler)\n")
    print("| side | all nodes ms | dropout-scoped nodes ms | dropout share |")
    print("|---|---|---|---|")
    for name, (sess, _) in sessions.items():
        events = json.load(open(sess.end_profiling()))
        kernels = [e for e in events if e.get("cat") == "Node" and e["name"].endswith("_kernel_time")]
        runs = rounds * n
        total = sum(e["dur"] for e in kernels) / runs / 1e3
        drop = sum(e["dur"] for e in kernels if "dropout" in e["name"].lower()) / runs / 1e3
        print(f"| {name} | {total:.1f} | {drop:.1f} | {drop / total:.1%} |")


def eager_dropout_ops(p: float) -> dict[str, Callable[[], object]]:
    x = np.random.default_rng(0).standard_normal((32, 128, 128)).astype(np.float32)
    state = counter_rng.rng_state().asnumpy().copy()
    gen = np.random.default_rng(0)

    def pcg64() -> object:  # the forward before the counter generator
        keep = gen.random(x.shape, dtype=np.float32) >= p
        y = x * keep
        y *= y.dtype.type(1.0 / (1.0 - p))
        return y

    return {"eager op, counter": lambda: Dropout._instance.forward(x, state, p=p, salt=(0, 0)),
            "eager op, PCG64 (before)": pcg64}


def graph_dropout_ops(p: float) -> dict[str, Callable[[], object]]:
    """ops.dropout on a (32, 128, 128) float32 input as a graph of its own: the counter lowering against
    ONNX Dropout, both run by onnxruntime with the context's thread count."""
    import onnxruntime as ort

    from cellonnx.graph.trace import trace

    x = np.random.default_rng(0).standard_normal((32, 128, 128)).astype(np.float32)
    state = counter_rng.rng_state().asnumpy().copy()
    specs = [("x", Tensor(x), [None, 128, 128]), ("state", Tensor(state), [3])]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = THREADS
    out = {}
    sides = (("graph op, counter", contextlib.nullcontext), ("graph op, ONNX Dropout", onnx_dropout))
    for name, lowering in sides:
        with lowering():
            g, _ = trace(lambda t, st: Dropout.apply(t, st, p=p, salt=(0, 0))[0], specs, opset=18, name="d")
        sess = ort.InferenceSession(g.model().SerializeToString(), opts, providers=["CPUExecutionProvider"])
        out[name] = lambda sess=sess: sess.run(None, {"x": x, "state": state})
    return out


def report(times: dict[str, list[float]], base: str) -> None:
    best = {k: min(v) for k, v in times.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    print("| side | best (median) ms | ratio to " + base + " best (median) |")
    print("|---|---|---|")
    for k in times:
        print(f"| {k} | {best[k] * 1e3:.2f} ({med[k] * 1e3:.2f}) | {best[k] / best[base]:.2f}x "
              f"({med[k] / med[base]:.2f}x) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--profile", action="store_true", help="also onnxruntime's kernel times per step")
    args = parser.parse_args()
    ms.set_context(mode=ms.GRAPH_MODE, intra_op_num_threads=THREADS)
    steps = {"counter": compiled_step(args.batch, args.seq, args.dropout),
             "onnx": compiled_step(args.batch, args.seq, args.dropout, onnx_lowering=True),
             "none": compiled_step(args.batch, args.seq, 0.0)}
    ms.set_context(mode=ms.PYNATIVE_MODE)
    load0 = os.getloadavg()[0]
    times = in_blocks({k: (lambda n, f=f: timed(f, n)) for k, f in steps.items()}, args.rounds, args.steps)
    print(f"compiled Transformer step, batch {args.batch} x {args.seq}, dropout {args.dropout}, {THREADS} "
          f"thread(s); load average {load0:.2f} -> {os.getloadavg()[0]:.2f}\n")
    report(times, "onnx")
    if args.profile:
        kernel_profile(steps, args.rounds, args.steps)
    tables = (("eager dropout forward", eager_dropout_ops(args.dropout), "eager op, PCG64 (before)"),
              ("dropout alone in a graph", graph_dropout_ops(args.dropout), "graph op, ONNX Dropout"))
    for title, ops, base in tables:
        for f in ops.values():
            f()
        times = in_blocks({k: (lambda n, f=f: timed(f, n)) for k, f in ops.items()}, args.rounds, 10)
        print(f"\n{title}, (32, 128, 128) float32\n")
        report(times, base)


if __name__ == "__main__":
    main()
