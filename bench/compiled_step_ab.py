"""Before / after in one run: the compiled training step (bench/compiled_step_profile.py) traced with named
lowerings switched off ("before") and as it stands ("after"), timed side by side in blocks with pauses
(bench/blocks.py), then each profiled by onnxruntime (kernel time by op type, from each node's median over
the profiled steps). On a loaded machine only the ratio of the two and the shares are worth quoting.

    .venv/bin/python bench/compiled_step_ab.py --models lenet5 resnet18 [--threads 1] [--rounds 6]
        [--off tiled_argmax tap_rows]

Lowerings and passes that ``--off`` can switch off (so the form before each was added runs):
``tiled_argmax`` (max pooling with argmax over tiling windows, cellonnx/ops/prims/pool.py),
``tiled_transpose`` (those windows' argmax by one Transpose + ArgMax; off: the SpaceToDepth + ArgMax +
ReduceMax form before it), ``unpool_grad`` (the gradient of disjoint windows as one MaxUnpool; off:
ScatterElements),
``tap_rows`` (the CPU conv weight gradient from one Gather of the input's pixel rows; off: the windows cut by
one Slice a tap from 64 input channels, the Conv over swapped axes below; cellonnx/ops/prims/conv_gemm.py),
``gathered_forward`` (a training graph's forward conv as one GEMM over gathered windows up to 16 output
pixels; off: up to 4, the windows cut by one Slice a tap; cellonnx/ops/prims/conv_gemm.py),
``pixel_rows`` (the input gradient's GEMM + Col2Im with pixel-major rows, cellonnx/ops/prims/conv_gemm.py),
``gelu_erf_grad`` (the traced exact-GELU gradient's Phi(x) from erf, cellonnx/ops/prims/activation.py),
``layer_norm_stats`` (layer norm's gradient reading the forward node's mean and inverse std dev,
cellonnx/graph/norm_stats.py), ``scatter_sgd_rows`` (SGD on an embedding gradient as one scatter into the
table, cellonnx/graph/sparse_update.py), ``fuse_sgd`` (the SGD learning rate folded into the weight
gradient's GEMM, cellonnx/graph/fuse_update.py), ``channel_affine`` (per-channel Mul / Add / Sub as
BatchNormalization, cellonnx/graph/channel_affine.py), ``row_narrow`` (what only row 0 of a sequence feeds,
computed on that row: cellonnx/graph/row_narrow.py), ``orient_products`` (transposed weight-gradient
products written in the faster orientation, cellonnx/graph/product_orient.py) and ``no_mem_pattern`` (the
compiled step's session without onnxruntime's memory pattern, cellonnx/graph/train.py ``MEM_PATTERN``, read
when the step is built, so it too is switched off for "before" only), ``bn_training`` (batch norm's training
statistics from one BatchNormalization node, cellonnx/graph/bn_train.py), ``long_sums`` (sums over long
contiguous runs split, the last axis first, cellonnx/graph/long_sums.py) and ``nchwc_convs`` (Conv and 'same'
ConvTranspose in onnxruntime's blocked-channel kernels with the weight reordered in the graph,
cellonnx/graph/nchwc_convs.py).
"""
from __future__ import annotations

import bench_env  # first: PYTHONPATH's .pth files, and the thread counts set before NumPy loads

_pre, THREADS = bench_env.threads_from_argv(default=1)

import argparse  # noqa: E402
import contextlib  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import numpy as np  # noqa: E402
from blocks import in_blocks, timed  # noqa: E402
from compiled_step_profile import compiled_train_step, kernel_events, profiled  # noqa: E402
from step_models import MODELS  # noqa: E402

from cellonnx.graph import (  # noqa: E402
    bn_train,
    channel_affine,
    fuse_update,
    long_sums,
    nchwc_convs,
    optimize,
    product_orient,
    row_narrow,
    train,
)
from cellonnx.ops.prims import activation, conv_gemm, conv_grad, norm, pool  # noqa: E402
from cellonnx.ops.prims.math import div, mul, sub  # noqa: E402
from cellonnx.ops.prims.shape import reshape  # noqa: E402


def _returns(value: object) -> object:
    return lambda *a, **k: value


def _bn_grad_bracket(g, xhat, inv, w, gb, gw, m, shape):
    """``norm._batch_norm_input_grad`` as traced before: ``inv * w * (g - gb / m - xhat * gw / m)``."""
    inner = sub(sub(g, reshape(div(gb, m), shape)), mul(xhat, reshape(div(gw, m), shape)))
    return mul(mul(inv, reshape(w, shape)), inner)


def _windows_by_slices(g, x, gy, kernel, stride, pads, dilation, groups):
    """The CPU conv weight gradient as lowered before ``conv_gemm.weight_grad_by_tap_rows``: from 64 input
    channels, one GEMM over windows cut from the channel-major input by one Slice a tap; else None (the Conv
    over swapped axes)."""
    xs, gs = g.in_tensors[0]._data.shape, g.in_tensors[1]._data.shape
    if (g.for_gpu or groups != 1 or len(xs) != 4 or all(k == 1 for k in kernel)
            or not (conv_gemm._static(g.in_tensors[0]) and conv_gemm._static(g.in_tensors[1]))):
        return None
    c, o, ho, wo = int(xs[1]), int(gs[1]), int(gs[2]), int(gs[3])
    if c < 64 or ho * wo == 1:
        return None
    xt = g.op("Transpose", x, perm=[1, 0, 2, 3])
    cols = g.op("Reshape", conv_gemm._windows(g, xt, kernel, stride, pads, dilation, (ho, wo), axis=1),
                g.i64([c * kernel[0] * kernel[1], -1]))
    gm = g.op("Reshape", g.op("Transpose", gy, perm=[1, 0, 2, 3]), g.i64([o, -1]))
    return g.op("Reshape", g.op("Gemm", gm, cols, transB=1), g.i64([o, c, *kernel]))


_conv_by_gemm = conv_gemm.conv_by_gemm


def _conv_by_sliced_windows(g, x, w, b, stride, pads, dilation, groups):
    """``conv_gemm.conv_by_gemm`` before its windows were gathered: up to 4 output pixels, the windows cut by
    one Slice a tap, (N * P, C * kk) by one Transpose, and the GEMM's rows transposed back to NCHW."""
    xt, wt = g.in_tensors[0], g.in_tensors[1]
    if g.for_gpu or groups != 1 or len(xt._data.shape) != 4 or not conv_gemm._static(xt):
        return None
    n, c, h, wd = (int(d) for d in xt._data.shape)
    o, _, kh, kw = (int(d) for d in wt._data.shape)
    ho = (h + pads[0] + pads[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (wd + pads[1] + pads[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    if n == 1 or ho * wo > 4:
        return None
    if ho * wo == 1:
        return _conv_by_gemm(g, x, w, b, stride, pads, dilation, groups)
    cols = conv_gemm._windows(g, x, (kh, kw), stride, pads, dilation, (ho, wo))
    cols = g.op("Reshape", g.op("Transpose", cols, perm=[0, 3, 4, 1, 2]), g.i64([-1, c * kh * kw]))
    y = g.op("Gemm", cols, g.op("Reshape", w, g.i64([o, c * kh * kw])), *([b] if b is not None else []),
             transB=1)
    return g.op("Transpose", g.op("Reshape", y, g.i64([-1, ho, wo, o])), perm=[0, 3, 1, 2])


def _taps_by_axes_slice(g, w, lead, kernel, rows, cols):
    """``conv_gemm.tap_matrix`` as the lowerings cut the taps before: one Slice over the kernel axes."""
    p, q = lead
    ka, kb = rows[1] - rows[0] + 1, cols[1] - cols[0] + 1
    wl = g.op("Slice", w, g.i64([rows[0], cols[0]]), g.i64([rows[1] + 1, cols[1] + 1]), g.i64([2, 3]))
    if ka * kb > 1:
        wl = g.op("Transpose", wl, perm=[0, 2, 3, 1])
    return g.op("Reshape", wl, g.i64([p, ka * kb * q]))


def _tiled_by_space_to_depth(g, x, kernel, stride, pads, dilation):
    """``pool._tiled_argmax`` as lowered before the Transpose form: SpaceToDepth puts each window's k * k
    values on an axis of their own, one ArgMax and one ReduceMax over it, the plane index by int64 Div /
    Mul / Add."""
    xt = g.in_tensors[0]
    shape = xt._data.shape
    k = kernel[0]
    if (len(kernel) != 2 or kernel != (k, k) or stride != (k, k) or any(pads) or dilation != (1, 1) or k < 2
            or xt._data.dtype.kind != "f" or xt._data.dtype.itemsize < 4 or len(shape) != 4
            or pool.dynamic_spatial(xt) or any(hasattr(d, "onnx_name") for d in xt.shape[1:])):
        return None
    c, h, w = (int(d) for d in shape[1:])
    if h % k or w % k:
        return None
    ho, wo = h // k, w // k
    cols = g.op("Reshape", g.op("SpaceToDepth", x, blocksize=k), g.i64([0, k * k, -1]))
    y = g.op("Reshape", g.axes([1], "ReduceMax", cols, keepdims=1), g.i64([0, c, ho, wo]))
    pos = g.op("Reshape", g.op("ArgMax", cols, axis=1, keepdims=1), g.i64([0, c, ho, wo]))
    origin = g.const((np.arange(ho)[:, None] * k * w + np.arange(wo)[None, :] * k).astype(np.int64))
    rows = g.op("Mul", g.op("Div", pos, g.i64(k)), g.i64(w - k))
    return y, g.op("Add", g.op("Add", pos, rows), origin)


# name -> (module, attribute, its value switched off: a lowering returning None, a pass returning False)
# (tiled_transpose before tiled_argmax: both off leaves MaxPool with Indices)
SWITCHES = {"tiled_transpose": (pool, "_tiled_argmax", _tiled_by_space_to_depth),
            "tiled_argmax": (pool, "_tiled_argmax", _returns(None)),
            "unpool_grad": (pool, "_unpool_grad", _returns(None)),
            "tap_rows": (conv_grad, "weight_grad_by_tap_rows", _windows_by_slices),
            "gathered_forward": (conv_gemm, "conv_by_gemm", _conv_by_sliced_windows),
            "pixel_rows": (conv_gemm, "_cols_by_pixel_rows", _returns(None)),
            "gelu_erf_grad": (activation, "_traced_cdf", _returns(None)),
            "layer_norm_stats": (optimize, "layer_norm_statistics", _returns(False)),
            "scatter_sgd_rows": (optimize, "scatter_sgd_rows", _returns(False)),
            "fuse_sgd": (fuse_update, "fuse_sgd_updates", _returns(0)),
            "channel_affine": (channel_affine, "fuse_channel_affines", _returns(0)),
            "row_narrow": (row_narrow, "narrow_rows", _returns(0)),
            "orient_products": (product_orient, "orient_transposed_products", _returns(0)),
            "no_mem_pattern": (train, "MEM_PATTERN", True),
            "flat_taps": (conv_gemm, "tap_matrix", _taps_by_axes_slice),
            "bn_training": (bn_train, "batch_norm_statistics", _returns(0)),
            "long_sums": (long_sums, "split_long_reductions", _returns(0)),
            "bn_grad_affines": (norm, "_batch_norm_input_grad", _bn_grad_bracket),
            "nchwc_convs": (nchwc_convs, "use_nchwc_convs", _returns(0))}
STEPS = {"lenet5": 10, "resnet18": 2, "transformer": 2}


@contextlib.contextmanager
def switched_off(names: list[str]) -> Iterator[None]:
    saved = [(mod, attr, getattr(mod, attr), off) for mod, attr, off in (SWITCHES[n] for n in names)]
    try:
        for mod, attr, _, off in saved:
            setattr(mod, attr, off)
        yield
    finally:
        for mod, attr, fn, _ in saved:
            setattr(mod, attr, fn)


def op_times(compiled: object, args: list, name: str, steps: int) -> tuple[dict[str, float], float]:
    profiled(compiled, os.path.join(tempfile.mkdtemp(prefix="cellonnx_ab_"), name))
    for _ in range(2 + steps):
        compiled(*args)
    runs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for e in kernel_events(compiled.session.inner.end_profiling(), 2):
        runs[(e["args"]["op_name"], e["name"])].append(e["dur"] / 1e3)
    # each node's median over the steps: on a loaded machine a kernel preempted in one step would dominate
    # a sum (the node's name stands for one kernel per step; the few nodes run twice per step count twice)
    by_op: dict[str, float] = defaultdict(float)
    for (op, _), durs in runs.items():
        by_op[op] += statistics.median(durs) * len(durs) / steps
    return by_op, sum(by_op.values())


def compare(name: str, off: list[str], rounds: int, profile_steps: int) -> None:
    with switched_off(off):
        before, args = compiled_train_step(name)
    after, args_after = compiled_train_step(name)
    nodes = {k: Counter(n.op_type for n in c.step.session_model.graph.node) for k, c in
             (("before", before), ("after", after))}
    sides = {"before": lambda n: timed(lambda: before(*args), n),
             "after": lambda n: timed(lambda: after(*args_after), n)}
    for side in sides.values():
        side(2)
    times = in_blocks(sides, rounds, STEPS[name])
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\n{name}, {THREADS} thread(s), {rounds} blocks of {STEPS[name]} steps, off before: "
          f"{', '.join(off)}")
    print(f"  step median ms: before {med['before'] * 1e3:.2f}, after {med['after'] * 1e3:.2f}, "
          f"after / before {med['after'] / med['before']:.2f}x; nodes {sum(nodes['before'].values())} -> "
          f"{sum(nodes['after'].values())}")
    if THREADS == 1:  # every kernel runs in this thread: its CPU time does not count other processes' load
        cpu = in_blocks({"before": lambda n: timed(lambda: before(*args), n, time.thread_time),
                         "after": lambda n: timed(lambda: after(*args_after), n, time.thread_time)},
                        rounds, STEPS[name])
        cm = {k: statistics.median(v) for k, v in cpu.items()}
        print(f"  step median CPU ms (this thread): before {cm['before'] * 1e3:.2f}, after "
              f"{cm['after'] * 1e3:.2f}, after / before {cm['after'] / cm['before']:.2f}x")
    b_ops, b_total = op_times(before, args, name + "_before", profile_steps)
    a_ops, a_total = op_times(after, args_after, name + "_after", profile_steps)
    print(f"  kernels ms/step: before {b_total:.2f}, after {a_total:.2f} ({a_total / b_total:.2f}x)")
    print(f"  {'op type':20s} {'before ms':>9s} {'share':>6s} {'after ms':>9s} {'share':>6s}")
    ops = sorted(set(b_ops) | set(a_ops), key=lambda k: -max(b_ops.get(k, 0), a_ops.get(k, 0)))
    for op in ops[:14]:
        b, a = b_ops.get(op, 0.0), a_ops.get(op, 0.0)
        print(f"  {op:20s} {b:9.2f} {b / b_total:6.1%} {a:9.2f} {a / a_total:6.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[_pre])
    parser.add_argument("--models", nargs="+", default=["lenet5", "resnet18"], choices=MODELS)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--profile-steps", type=int, default=5)
    parser.add_argument("--off", nargs="+", default=list(SWITCHES), choices=list(SWITCHES))
    args = parser.parse_args()
    for name in args.models:
        compare(name, args.off, args.rounds, args.profile_steps)


if __name__ == "__main__":
    main()
