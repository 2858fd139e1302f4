"""Whether a full garbage collection after tracing a compiled training step frees anything resident: the
resident size after the first (compiling) step with and without ``gc.collect()`` there, and what the
collection cost, each side and model in a process of its own.

    python bench/trace_gc.py [--models resnet18 resnet50 transformer lstm]
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time

import numpy as np


def _rss_mib() -> int:
    with open("/proc/self/status") as f:
        return int(f.read().split("VmRSS:")[1].split()[0]) // 1024


def one(model: str, collect: bool) -> dict:
    from cellonnx.models import lstm_classifier, resnet, transformer

    import cellonnx as ms
    from cellonnx import nn
    from cellonnx.graph import train

    spent = []
    release = train._release_trace_memory

    def with_collect() -> None:
        t = time.perf_counter()
        gc.collect()
        spent.append(time.perf_counter() - t)
        release()

    if collect:
        train._release_trace_memory = with_collect
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(0)
    if model == "transformer":
        net, x = transformer.transformer_classifier(2), rng.integers(0, 1000, (32, 128)).astype(np.int32)
    elif model == "lstm":
        net, x = lstm_classifier.lstm_classifier(2), rng.integers(0, 1000, (32, 64)).astype(np.int32)
    else:
        net = getattr(resnet, model)(10)
        x = rng.random((32, 3, 32, 32) if model == "resnet18" else (16, 3, 64, 64)).astype(np.float32)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    step(ms.Tensor(x), ms.Tensor(np.zeros(x.shape[0], np.int32)))
    return {"model": model, "gc.collect": collect, "rss_mib": _rss_mib(),
            "collect_s": round(sum(spent), 3) if collect else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["resnet18", "resnet50", "transformer", "lstm"])
    args = parser.parse_args()
    side = os.environ.get("TRACE_GC_SIDE")
    if side:
        model, collect = side.split(":")
        print(json.dumps(one(model, collect == "1")), flush=True)
        return
    for model in args.models:
        for collect in ("1", "0"):
            env = dict(os.environ, TRACE_GC_SIDE=f"{model}:{collect}")
            subprocess.run([sys.executable, *sys.argv], env=env, check=False)


if __name__ == "__main__":
    main()
