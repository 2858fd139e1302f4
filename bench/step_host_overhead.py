"""The host's work around onnxruntime in one compiled training step: the CPU time a step call spends outside
``run_with_iobinding`` (the cache lookup and its guard, binding the state's OrtValues, taking the outputs back
as the new state, the results). On a GPU the device waits for it every step.

    python bench/step_host_overhead.py [--models resnet50 resnet18 lenet] [--steps 30] [--device CPU|GPU]

Each model's step is compiled at a small input (batch 1; the host's work does not depend on the input's size:
it is per parameter and per cell), onnxruntime runs on one thread, and the calling thread's CPU time
(``time.thread_time``, which other processes' load does not count) is read around every step and around the
run inside it. Prints one JSON line per model: parameters held as state, median and best host ms per step.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_env  # noqa: F401 (the editable install's hook, before cellonnx.models is imported)

INPUTS = {"resnet50": ((1, 3, 32, 32), 10), "resnet18": ((1, 3, 32, 32), 10), "lenet": ((1, 1, 32, 32), 10)}


def build(model: str):
    from cellonnx.models import lenet, resnet

    import cellonnx as ms
    from cellonnx import nn

    net = lenet.lenet5(10) if model == "lenet" else getattr(resnet, model)(num_classes=10)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    shape, classes = INPUTS[model]
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.random(shape, dtype=np.float32))
    y = ms.Tensor(rng.integers(0, classes, shape[:1]).astype(np.int32))
    return step, x, y


def measure(model: str, steps: int, device: str = "CPU") -> dict:
    import cellonnx as ms
    from cellonnx.graph import train as graph_train

    ms.set_context(mode=ms.GRAPH_MODE, intra_op_num_threads=1, device_target=device)
    step, x, y = build(model)
    step(x, y)
    (compiled,) = graph_train.compiled_steps(step)
    sess = compiled.session.inner
    run = sess.run_with_iobinding
    inside = [0.0]

    def timed_run(*a, **k):
        t = time.thread_time()
        try:
            return run(*a, **k)
        finally:
            inside[0] += time.thread_time() - t

    sess.run_with_iobinding = timed_run
    for _ in range(3):
        step(x, y)
    host = []
    for _ in range(steps):
        inside[0] = 0.0
        t = time.thread_time()
        step(x, y)
        host.append((time.thread_time() - t - inside[0]) * 1e3)
    return {"model": model, "device": device, "state_values": len(compiled.step.state),
            "outputs": len(compiled.session.output_names),
            "host_ms_median": round(statistics.median(host), 3), "host_ms_best": round(min(host), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["resnet50", "resnet18", "lenet"],
                        choices=sorted(INPUTS))
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--device", default="CPU", choices=["CPU", "GPU"],
                        help="the session's device (GPU: the host's work beside a CUDA step)")
    args = parser.parse_args()
    for model in args.models:
        print(json.dumps(measure(model, args.steps, args.device)), flush=True)


if __name__ == "__main__":
    main()
