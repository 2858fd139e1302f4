"""Primitive op families; importing this package registers every primitive."""
from __future__ import annotations

import importlib

FAMILIES = ("math", "reduce", "shape", "linalg", "creation", "index", "scatter", "getitem", "sort", "random",
            "conv", "conv_grad", "pool", "pool_avg", "pool_adaptive", "norm", "activation", "dropout",
            "embedding", "rnn", "control",
            "lrn", "conv3d", "pool3d", "pixel_shuffle", "resize", "rnn_gru",
            "array_misc", "triangle", "scatter_reduce", "unique")
FAMILIES += ("trig", "special", "elementwise", "bitwise", "cumulative", "einsum", "decomp", "spectral",
             "random_dist", "boxes")
FAMILIES += ("comm", "comm_v", "comm_neighbor", "comm_p2p")
FAMILIES += ("counter_rng",)
FAMILIES += ("interleaved_dft",)  # MXNet's contrib fft / ifft layout; not a cellonnx.ops name

MODULES = [importlib.import_module(f"cellonnx.ops.prims.{name}") for name in FAMILIES]
