"""The compiled step's conv gradients at small spatial sizes take the one-GEMM lowerings
(cellonnx/ops/prims/conv_gemm.py) although its batch dim is dynamic, and the one graph still follows the eager
trajectory when the batch size changes between steps. Graphs traced for CUDA take other forms (Conv and
ConvTranspose with symmetric pads, the weight gradient as a GEMM over input windows, a static batch): traced
as for CUDA here, they follow the eager trajectory on the CPU provider too."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from onnx import numpy_helper

import cellonnx as ms
from cellonnx import nn
from cellonnx.graph import builder, step_trace
from cellonnx.graph import train as graph_train
from tests.train_graph.harness import check_trajectory, classification_batches, momentum_step


class SmallConvNet(nn.Cell):
    """4 x 4 inputs: a strided 3 x 3 conv to 2 x 2, a 3 x 3 conv at 2 x 2, a pointwise conv, a strided conv to
    one pixel, each gradient small enough for the GEMM forms."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
        self.c2 = nn.Conv2d(8, 8, 3, pad_mode="pad", padding=1)
        self.c3 = nn.Conv2d(8, 8, 1, has_bias=True)
        self.c4 = nn.Conv2d(8, 6, 3, stride=2, pad_mode="pad", padding=1)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(6, 3)

    def construct(self, x):
        x = self.relu(self.c1(x))
        x = self.relu(self.c2(x))
        x = self.relu(self.c3(x))
        return self.fc(self.flatten(self.c4(x)))


def _build() -> Any:
    return momentum_step(SmallConvNet())


def test_small_convs_lower_to_gemm_with_a_dynamic_batch() -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ms.set_seed(0)
        step = _build()
        x, y = classification_batches((4, 3, 4, 4), 3, steps=1)[0]
        step(x, y)
        (compiled,) = graph_train.compiled_steps(step)
        counts = Counter(n.op_type for n in compiled.step.model.graph.node)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert counts["ConvTranspose"] == 0, counts
    assert counts["Col2Im"] >= 1 and counts["Gemm"] + counts["MatMul"] >= 4, counts


def test_gemm_lowerings_follow_eager_across_batch_sizes() -> None:
    check_trajectory(_build, classification_batches((4, 3, 4, 4), 3, sizes=(4, 3, 5, 1, 4)),
                     what="small conv net, batch sizes 4, 3, 5, 1, 4")


class CudaFormsNet(nn.Cell):
    """The convolutions whose gradients take other forms in graphs traced for CUDA: a 7 x 7 stride-2 stem, a
    stride-2 'same' conv (asymmetric pads), a depthwise 3 x 3, a pointwise conv and a dilated 3 x 3."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 7, stride=2, pad_mode="pad", padding=3, has_bias=True)
        self.down = nn.Conv2d(8, 8, 3, stride=2, pad_mode="same")
        self.depthwise = nn.Conv2d(8, 8, 3, pad_mode="same", group=8)
        self.pointwise = nn.Conv2d(8, 6, 1, has_bias=True)
        self.dilated = nn.Conv2d(6, 6, 3, pad_mode="pad", padding=2, dilation=2)
        self.bn = nn.BatchNorm2d(6)
        self.relu = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(6, 3)

    def construct(self, x):
        x = self.relu(self.stem(x))
        x = self.relu(self.depthwise(self.down(x)))
        x = self.relu(self.bn(self.dilated(self.pointwise(x))))
        return self.fc(self.flatten(self.pool(x)))


def _build_cuda_forms() -> Any:
    return momentum_step(CudaFormsNet())


@pytest.fixture
def traced_for_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    """Graphs traced as for the CUDA provider (and run here by the CPU one: the same ONNX semantics)."""
    monkeypatch.setattr(builder, "targets_gpu", lambda: True)
    monkeypatch.setattr(step_trace, "targets_gpu", lambda: True)


def test_cuda_forms_keep_conv_and_avoid_cpu_only_kernels(traced_for_cuda: None) -> None:
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ms.set_seed(0)
        step = _build_cuda_forms()
        x, y = classification_batches((4, 3, 16, 16), 3, steps=1)[0]
        step(x, y)
        (compiled,) = graph_train.compiled_steps(step)
        model = compiled.step.model
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    counts = Counter(n.op_type for n in model.graph.node)
    # CUDA graph capture refuses a Concat of more inputs (the 7 x 7 stem's weight gradient gathers 49 taps)
    assert max(len(n.input) for n in model.graph.node if n.op_type == "Concat") <= builder.CUDA_CONCAT_INPUTS
    assert counts["Col2Im"] == 0 and counts["Size"] == 0 and counts["Shape"] == 0, counts
    for node in model.graph.node:
        if node.op_type in ("Conv", "ConvTranspose"):
            pads = next((list(a.ints) for a in node.attribute if a.name == "pads"), [])
            kernel = next(list(a.ints) for a in node.attribute if a.name == "kernel_shape")
            assert pads[:len(pads) // 2] == pads[len(pads) // 2:] or node.op_type == "Conv", node.name
            assert max(kernel) <= 7, f"{node.name}: a kernel the size of the image ({kernel})"
    consts = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type in ("ReduceSum", "ReduceMean") and len(node.input) > 1:
            axes = sorted(consts[node.input[1]].tolist())
            assert axes == list(range(axes[0], axes[0] + len(axes))), f"{node.name} reduces axes {axes}"
    # the batch is static there: its dims are numbers
    assert all(d.dim_value > 0 for d in model.graph.input[0].type.tensor_type.shape.dim)


def test_cuda_forms_follow_eager(traced_for_cuda: None) -> None:
    check_trajectory(_build_cuda_forms, classification_batches((4, 3, 16, 16), 3),
                     what="conv net in the forms traced for CUDA")


def test_cuda_forms_trace_again_per_batch_size_and_carry_the_state(traced_for_cuda: None) -> None:
    """Static graphs: a batch of another size gets its own graph; the parameters and optimizer slots move from
    one graph to the other, and the trajectory is still the eager one."""
    check_trajectory(_build_cuda_forms, classification_batches((4, 3, 16, 16), 3, sizes=(4, 3, 4, 3, 4)),
                     what="conv net in the forms traced for CUDA, batch sizes 4, 3, 4, 3, 4")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = _build_cuda_forms()
        for x, y in classification_batches((4, 3, 16, 16), 3, steps=3, sizes=(4, 3, 4)):
            step(x, y)
        batches = sorted(c.step.model.graph.input[0].type.tensor_type.shape.dim[0].dim_value
                         for c in graph_train.compiled_steps(step))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert batches == [3, 4]
