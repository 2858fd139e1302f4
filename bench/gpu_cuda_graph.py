"""ResNet-50's compiled training step replayed as CUDA graphs (onnxruntime's ``enable_cuda_graph``) beside the
same step run as cellonnx runs it: how much of a step on the GPU is the launching of its ~3,600 kernels.

    python bench/gpu_cuda_graph.py [--batch 64] [--image 224] [--steps 5] [--blocks 3] [--tf32]

cellonnx traces the step (GRAPH_MODE, device_target "GPU") and runs it as usual (one run per step, the state
bound afresh). A second session of the same ONNX model is made with ``enable_cuda_graph``; every input and
output is bound once to a fixed device buffer: the batch (copied into its buffer each step), the state in two
sets of buffers, one read and the other written, swapped every step as two captured graphs (run option
``gpu_graph_id`` 0 and 1), state the step does not update in one buffer. Both sides start from the same state
and batch; the losses of their first steps are compared. Prints one JSON line per side.
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
from gpu_train import blocks, device_memory_mib, resnet50_parser, resnet50_step


def timed_blocks(step, sync, args) -> list[float]:
    """gpu_train's blocks without its warm-up (each side here warms up reading every loss)."""
    return blocks(step, sync, argparse.Namespace(**{**vars(args), "warmup": 0}))


def graph_side(compiled, x: np.ndarray, y: np.ndarray, args) -> tuple[dict, list[float]]:
    import onnx
    import onnxruntime as ort

    from cellonnx.graph import runtime
    from cellonnx.graph.compile import serialize

    dev = "cuda" if args.device == "GPU" else "cpu"
    base_options = runtime.cuda_options
    runtime.cuda_options = lambda device_id=0: {**base_options(device_id), "enable_cuda_graph": "1"}
    try:
        session = runtime.Session(serialize(compiled.step.model), args.device, 0, mem_pattern=False).inner
    finally:
        runtime.cuda_options = base_options
    step = compiled.step
    on_gpu = {}

    def device_copy(value: np.ndarray) -> ort.OrtValue:   # (on the CPU, a buffer of its own)
        return ort.OrtValue.ortvalue_from_numpy(np.array(value, copy=True, order="C"), dev, 0)

    input_of = {id(p): name for name, p in step.state}
    updated = {input_of[id(p)]: out for out, p in step.updates}
    sets = [{}, {}]
    for name, p in step.state:
        value = np.array(compiled.state.value(p).numpy(), copy=True).reshape(compiled.state._shapes[id(p)])
        sets[0][name] = device_copy(value)
        sets[1][name] = device_copy(value) if name in updated else sets[0][name]
    data = dict(zip([n for n, _ in step.data_inputs], (device_copy(x), device_copy(y))))
    model_outputs = {o.name: o for o in step.model.graph.output}
    fixed = {}
    for name in session.get_outputs():
        if name.name in updated.values():
            continue
        t = model_outputs[name.name].type.tensor_type
        shape = [d.dim_value for d in t.shape.dim]
        fixed[name.name] = ort.OrtValue.ortvalue_from_shape_and_type(
            shape, onnx.helper.tensor_dtype_to_np_dtype(t.elem_type), dev, 0)
    written_by = {out: name for name, out in updated.items()}
    bindings, options = [], []
    for parity in (0, 1):
        b = session.io_binding()
        for name, value in data.items():
            b.bind_ortvalue_input(name, value)
        for name, value in sets[parity].items():
            b.bind_ortvalue_input(name, value)
        for o in session.get_outputs():
            target = sets[1 - parity][written_by[o.name]] if o.name in written_by else fixed[o.name]
            b.bind_ortvalue_output(o.name, target)
        bindings.append(b)
        ro = ort.RunOptions()
        ro.add_run_config_entry("gpu_graph_id", str(parity))
        options.append(ro)
    loss_name = step.outputs[0]
    state = {"parity": 0}

    def run() -> None:
        data[step.data_inputs[0][0]].update_inplace(x)
        data[step.data_inputs[1][0]].update_inplace(y)
        session.run_with_iobinding(bindings[state["parity"]], options[state["parity"]])
        state["parity"] ^= 1

    def loss() -> float:
        return float(np.asarray(fixed[loss_name].numpy()).reshape(-1)[0])

    losses = []
    t = time.perf_counter()
    for _ in range(args.warmup):   # the first runs of each graph id capture it
        run()
        losses.append(loss())
    first_s = time.perf_counter() - t
    rates = timed_blocks(run, loss, args)
    on_gpu["device_mib"] = device_memory_mib()
    return ({"side": "the same step as CUDA graphs (enable_cuda_graph, fixed buffers, two graphs)",
             "images_per_s": round(statistics.median(rates), 1), "blocks": [round(r, 1) for r in rates],
             "warmup_s": round(first_s, 2), **on_gpu}, losses)


def main() -> None:
    args = resnet50_parser(__doc__, steps=5, warmup=4).parse_args()
    from cellonnx.graph import train as graph_train

    step, xt, yt = resnet50_step(args)
    x, y = xt.asnumpy(), yt.asnumpy()
    step(xt, yt)   # traced, then every side starts from the state after this step
    (compiled,) = graph_train.compiled_steps(step)
    graphed, graph_losses = graph_side(compiled, x, y, args)
    last = [step(xt, yt) for _ in range(args.warmup)]
    plain_losses = [float(loss.asnumpy()) for loss in last]

    def plain_step() -> None:
        last[:] = [step(xt, yt)]

    rates = timed_blocks(plain_step, lambda: float(last[-1].asnumpy()), args)
    plain = {"side": "cellonnx compiled step (one run per step, state bound afresh)",
             "images_per_s": round(statistics.median(rates), 1), "blocks": [round(r, 1) for r in rates]}
    diff = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(graph_losses, plain_losses))
    for side in (plain, graphed):
        print(json.dumps({**side, "batch": args.batch, "image": args.image}), flush=True)
    print(json.dumps({"losses_graphs": graph_losses, "losses_plain": plain_losses,
                      "largest_relative_difference": diff}), flush=True)


if __name__ == "__main__":
    main()
