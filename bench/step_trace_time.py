"""How long the first call of a compiled training step takes (trace of forward, backward and update, graph
optimisation, onnxruntime session, one run): GRAPH_MODE TrainOneStepCell with Momentum on zoo models, each in
a process of its own, with a dynamic batch (the CPU graph).

    python bench/step_trace_time.py [--models resnet18 resnet50 mobilenetv2] [--image 32] [--batch 2]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_env  # noqa: F401 (the editable install's hook, before cellonnx.models is imported)


def first_step(model: str, image: int, batch: int) -> dict:
    from cellonnx.models import get_model

    import cellonnx as ms
    from cellonnx import nn

    ms.set_context(mode=ms.GRAPH_MODE)
    net = get_model(model, num_classes=10)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((batch, 3, image, image)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, batch).astype(np.int32))
    t = time.perf_counter()
    step(x, y)
    first = time.perf_counter() - t
    t = time.perf_counter()
    step(x, y)
    return {"model": model, "image": image, "batch": batch, "first_step_s": round(first, 2),
            "second_step_s": round(time.perf_counter() - t, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["resnet18", "resnet50", "mobilenetv2"])
    parser.add_argument("--image", type=int, default=32)
    parser.add_argument("--batch", type=int, default=2)
    args = parser.parse_args()
    one = os.environ.get("STEP_TRACE_MODEL")
    if one:
        print(json.dumps(first_step(one, args.image, args.batch)), flush=True)
        return
    for model in args.models:
        subprocess.run([sys.executable, *sys.argv], env=dict(os.environ, STEP_TRACE_MODEL=model), check=False)


if __name__ == "__main__":
    main()
