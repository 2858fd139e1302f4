"""Where a compiled training step's time goes on a CUDA GPU: which nodes onnxruntime placed on the CPU (each
one a device-host round trip), and the GPU time per kernel, recorded with PyTorch's CUPTI profiler around
cellonnx's own step calls (CUPTI sees every kernel of the process, onnxruntime's included).

    python bench/gpu_step_profile.py [--model resnet50] [--batch 64] [--image 224] [--steps 5] [--top 25]
    python bench/gpu_step_profile.py --model transformer [--dropout 0.1] [--batch 32] [--seq 128]

The transformer is the zoo's classifier (BERT-tiny) with dropout on: its masks come from the counter-based
generator inside the graph (BitwiseXor / BitShift / Cast nodes), whose placement this shows.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_env  # noqa: F401 (the editable install's hook, before cellonnx.models is imported)


def build_step(args):
    """(training step, its arguments): a TrainOneStepCell with Momentum, in GRAPH_MODE on args.device."""
    from cellonnx.models import get_model, resnet

    import cellonnx as ms
    from cellonnx import nn

    ms.set_context(mode=ms.GRAPH_MODE, device_target=args.device)
    if args.tf32:
        ms.set_context(gpu_config={"matmul_allow_tf32": True})
    rng = np.random.default_rng(0)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if args.model == "transformer":
        net = get_model("transformer_classifier", num_classes=2, dropout=args.dropout)
        vocab = net.token_embedding.embedding_table.shape[0]
        ids = rng.integers(0, vocab, (args.batch, args.seq)).astype(np.int32)
        mask = np.ones((args.batch, args.seq), np.int32)
        data, classes = (ids, mask), 2

        class WithLoss(nn.Cell):
            def __init__(self) -> None:
                super().__init__(auto_prefix=False)
                self.net, self.loss = net, loss

            def construct(self, ids, mask, label):
                return self.loss(self.net(ids, mask), label)

        with_loss = WithLoss()
    else:
        net = getattr(resnet, args.model)(num_classes=1000)
        data = (rng.standard_normal((args.batch, 3, args.image, args.image)).astype(np.float32),)
        classes = 1000
        with_loss = nn.WithLossCell(net, loss)
    step = nn.TrainOneStepCell(with_loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    labels = rng.integers(0, classes, args.batch).astype(np.int32)
    return step, tuple(ms.Tensor(a) for a in (*data, labels))


def placement(model, device: str) -> dict:
    """Node counts per execution provider and the op types placed on the CPU, from onnxruntime's profile of
    one run on zero-filled feeds."""
    import onnxruntime as ort
    from onnx import TensorProto

    from cellonnx.graph.runtime import providers_for

    opts = ort.SessionOptions()
    opts.enable_profiling = True
    opts.profile_file_prefix = os.path.join(tempfile.mkdtemp(), "step")
    opts.log_severity_level = 3
    sess = ort.InferenceSession(model.SerializeToString(), opts, providers=providers_for(device))
    types = {TensorProto.FLOAT: np.float32, TensorProto.INT32: np.int32, TensorProto.INT64: np.int64,
             TensorProto.BOOL: np.bool_, TensorProto.DOUBLE: np.float64}
    feeds = {}
    for inp in sess.get_inputs():
        proto = next(i for i in model.graph.input if i.name == inp.name)
        dims = [d if isinstance(d, int) else 2 for d in inp.shape]
        feeds[inp.name] = np.zeros(dims, types.get(proto.type.tensor_type.elem_type, np.float32))
    sess.run(None, feeds)
    with open(sess.end_profiling()) as f:
        events = json.load(f)
    per_provider = collections.Counter()
    on_cpu = collections.Counter()
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            provider = e["args"].get("provider", "?")
            per_provider[provider] += 1
            if provider == "CPUExecutionProvider":
                on_cpu[e["args"]["op_name"]] += 1
    return {"nodes_per_provider": dict(per_provider), "cpu_op_types": dict(on_cpu.most_common())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="resnet50")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--image", type=int, default=224)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--seq", type=int, default=128, help="transformer: tokens per sequence")
    parser.add_argument("--dropout", type=float, default=0.1, help="transformer: dropout rate")
    parser.add_argument("--device", default="GPU", choices=["GPU", "CPU"])
    parser.add_argument("--tf32", action="store_true", help="gpu_config matmul_allow_tf32 (TF32 everywhere)")
    args = parser.parse_args()

    from cellonnx.graph import train as graph_train

    step, batch = build_step(args)
    t = time.perf_counter()
    float(step(*batch).asnumpy())
    print(json.dumps({"first_step_s": round(time.perf_counter() - t, 2)}), flush=True)
    (compiled,) = graph_train.compiled_steps(step)
    model = compiled.step.model
    op_types = collections.Counter(n.op_type for n in model.graph.node)
    print(json.dumps({"nodes": len(model.graph.node), "op_types": dict(op_types.most_common(15))}))
    print(json.dumps(placement(model, args.device)), flush=True)
    for _ in range(2):
        float(step(*batch).asnumpy())
    t = time.perf_counter()
    for _ in range(args.steps):
        loss = step(*batch)
    float(loss.asnumpy())
    wall = (time.perf_counter() - t) / args.steps
    print(json.dumps({"step_ms": round(wall * 1e3, 1), "samples_per_s": round(args.batch / wall, 1)}),
          flush=True)
    if args.device != "GPU":
        return
    try:
        from torch.profiler import ProfilerActivity, profile
    except ImportError as exc:
        print("no kernel profile:", exc)
        return
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(args.steps):
            loss = step(*batch)
        float(loss.asnumpy())
    kernels = collections.defaultdict(lambda: [0.0, 0])
    for ev in prof.events():
        if getattr(ev, "device_type", None) is not None and "CUDA" in str(ev.device_type):
            k = kernels[ev.name[:90]]
            k[0] += ev.device_time_total if hasattr(ev, "device_time_total") else ev.cuda_time_total
            k[1] += 1
    total = sum(v[0] for v in kernels.values()) / args.steps
    launches = sum(v[1] for v in kernels.values()) // args.steps
    print(json.dumps({"gpu_busy_ms_per_step": round(total / 1e3, 1), "kernels_per_step": launches}))
    for name, (us, n) in sorted(kernels.items(), key=lambda kv: -kv[1][0])[:args.top]:
        print(f"{us / args.steps / 1e3:8.2f} ms/step {n // args.steps:5d}x  {name}")


if __name__ == "__main__":
    main()
