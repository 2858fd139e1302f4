"""Peak memory of the compiled training step (GRAPH_MODE TrainOneStepCell + SGD) beside PyTorch's step,
each side in a process of its own, and where the compiled step's memory goes.

    .venv/bin/python bench/step_memory.py [--models transformer resnet18] [--threads 1] [--steps 3]
        [--torch-python /work/envs/torch/bin/python]

Sides: ``compiled`` (as cellonnx runs it: the CPU arena on, the memory pattern off), ``compiled-mem-pattern``
(onnxruntime's memory pattern on, its default), ``compiled-no-arena`` (every
session made with ``enable_cpu_mem_arena = False``: each tensor malloc'd and freed), ``compiled-exact-arena``
(an arena that grows by the size asked for, kSameAsRequested, instead of doubling) and ``torch`` (the PyTorch
twin of bench/torch_twins.py). In
each child: RSS after the imports, after building the network and batch ("setup"), between steps after the
warm-up ("resident"), and the high-water mark over ``--steps`` later steps after a reset ("peak"). The
compiled side also prints the graph's own plan: the largest sum of intermediate tensors alive at once when
the nodes run in order and each value is freed after its last reader (shapes from ONNX shape inference at the
batch's sizes), split into forward values kept for the backward pass and everything else, and the
parameters' bytes. Absolute RSS includes each library (torch's shared objects are ~200 MiB); compare the
growth over "import".
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIDES = ("compiled", "compiled-mem-pattern", "compiled-no-arena", "compiled-exact-arena", "torch")


def status_mib(key: str) -> float:
    with open("/proc/self/status") as f:
        return next(int(s.split()[1]) for s in f if s.startswith(key + ":")) / 1024.0


def live_plan(model, feeds: dict[str, np.ndarray]) -> dict:
    """Peak bytes of intermediate values alive at once, node by node, with each value's size from shape
    inference at the fed sizes; forward values (traced under a cell's scope: names starting ``net``) alive at
    the peak are counted apart."""
    import onnx
    from onnx import shape_inference

    m = onnx.ModelProto()
    m.CopyFrom(model)
    for vi in m.graph.input:
        if vi.name in feeds:
            dims = vi.type.tensor_type.shape.dim
            for d, n in zip(dims, feeds[vi.name].shape):
                d.Clear()
                d.dim_value = int(n)
    inferred = shape_inference.infer_shapes(m, data_prop=True)
    size: dict[str, int] = {}
    for vi in inferred.graph.value_info:
        t = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else 0 for d in t.shape.dim]
        itemsize = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(t.elem_type)).itemsize if t.elem_type else 4
        size[vi.name] = int(np.prod(dims)) * itemsize if all(dims) else 0
    last: dict[str, int] = {}
    for k, n in enumerate(m.graph.node):
        for i in n.input:
            last[i] = k
    outputs = {o.name for o in m.graph.output}
    producer_forward = {o: n.name.startswith("net") for n in m.graph.node for o in n.output}
    live: dict[str, int] = {}
    peak, at = 0, {}
    for k, n in enumerate(m.graph.node):
        for o in n.output:
            if o and o not in outputs:
                live[o] = size.get(o, 0)
        total = sum(live.values())
        if total > peak:
            peak, at = total, dict(live)
        for i in set(n.input):
            if i in live and last.get(i) == k:
                del live[i]
    forward = sum(v for name, v in at.items() if producer_forward.get(name))
    params = sum(int(np.prod([d.dim_value for d in vi.type.tensor_type.shape.dim])) * 4
                 for vi in m.graph.input if vi.name not in feeds)
    return {"plan_peak_mib": peak / 2**20, "plan_forward_mib": forward / 2**20,
            "plan_values_at_peak": len(at), "state_mib": params / 2**20}


def child(side: str, model: str, steps: int, threads: int) -> None:
    sys.path.insert(0, HERE)
    out = {}
    if side == "torch":
        import torch  # noqa: F401
        from step_worker import torch_step

        out["import"] = status_mib("VmRSS")

        step = torch_step(model)
        out["setup"] = status_mib("VmRSS")
        step()
    else:
        import onnxruntime as ort
        from step_models import WithLoss, build

        import cellonnx as ms
        from cellonnx import nn
        from cellonnx.graph.train import compiled_steps
        from cellonnx.tensor import Tensor

        out["import"] = status_mib("VmRSS")
        _arena_setting(side, ort)
        net, loss, batch = build(model)
        train = nn.TrainOneStepCell(WithLoss(net, loss), nn.SGD(net.trainable_params(), learning_rate=0.01))
        train.set_train()
        ms.set_context(mode=ms.GRAPH_MODE, intra_op_num_threads=threads)
        args = [Tensor(a) for a in batch]
        out["setup"] = status_mib("VmRSS")
        train(*args)
        out["compiled"] = status_mib("VmRSS")
        (compiled,) = compiled_steps(train)
        feeds = {name: batch[pos] for name, pos in compiled.step.data_inputs}
        out.update(live_plan(compiled.step.model, feeds))

        def step() -> None:
            train(*args)
    step()
    out["resident"] = status_mib("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    for _ in range(steps):
        step()
    out["peak"] = status_mib("VmHWM")
    print(json.dumps(out), flush=True)


def _arena_setting(side: str, ort) -> None:
    """Every session the compiled step makes from here on: with the memory pattern, without the CPU arena,
    or with an arena that grows by what is asked for (kSameAsRequested) instead of doubling its chunks."""
    if side == "compiled":
        return
    if side == "compiled-mem-pattern":
        from cellonnx.graph import train

        train.MEM_PATTERN = True
        return
    base = ort.SessionOptions

    class Options(base):
        def __init__(self) -> None:
            super().__init__()
            if side == "compiled-no-arena":
                self.enable_cpu_mem_arena = False
            else:
                self.add_session_config_entry("session.use_env_allocators", "1")

    if side == "compiled-exact-arena":
        info = ort.OrtMemoryInfo("Cpu", ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0, ort.OrtMemType.DEFAULT)
        ort.create_and_register_allocator(info, ort.OrtArenaCfg(0, 1, -1, -1))  # 1: kSameAsRequested
    ort.SessionOptions = Options


def run_side(side: str, model: str, threads: int, steps: int, torch_python: str) -> dict:
    python = torch_python if side == "torch" else sys.executable
    env = dict(os.environ)
    if side == "torch":
        site = [p for p in sys.path if p.rstrip("/").endswith("site-packages")]
        env["PYTHONPATH"] = os.pathsep.join([ROOT, *site, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    argv = [python, os.path.abspath(__file__), "--child", side, "--model", model, "--threads", str(threads),
            "--steps", str(steps)]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"{side} / {model} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["transformer", "resnet18"])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--sides", nargs="+", default=list(SIDES), choices=SIDES)
    parser.add_argument("--torch-python", default="/work/envs/torch/bin/python")
    parser.add_argument("--child", choices=SIDES)
    parser.add_argument("--model")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.model, args.steps, args.threads)
        return
    print("| network | side | import MiB | setup MiB | after compiling MiB | resident MiB | peak MiB | "
          "peak - import | graph plan peak / forward kept / state MiB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for model in args.models:
        for side in args.sides:
            r = run_side(side, model, args.threads, args.steps, args.torch_python)
            plan = (f"{r['plan_peak_mib']:.0f} / {r['plan_forward_mib']:.0f} / {r['state_mib']:.0f}"
                    if "plan_peak_mib" in r else "")
            print(f"| {model} | {side} | {r['import']:.0f} | {r['setup']:.0f} | {r.get('compiled', 0):.0f} | "
                  f"{r['resident']:.0f} | "
                  f"{r['peak']:.0f} | {r['peak'] - r['import']:.0f} | {plan} |", flush=True)


if __name__ == "__main__":
    main()
