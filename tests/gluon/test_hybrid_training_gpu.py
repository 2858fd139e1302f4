"""A hybridized Gluon block trained on onnxruntime's CUDA execution provider (``autograd.record()``,
``backward``, ``Trainer.step``): its forward and backward graphs run on the GPU, and five steps give the
trajectory of the same network run eagerly in NumPy. Run with ``pytest -m gpu tests/gluon``; skipped where
onnxruntime-gpu with a visible CUDA device is missing."""
from __future__ import annotations

from typing import Any

import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx.gluon.hybrid_train import CompiledTraining
from tests.gluon.test_hybrid_training import OPTIMIZERS, trajectory
from tests.tolerance import assert_close

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif("CUDAExecutionProvider" not in ort.get_available_providers(),
                       reason="needs onnxruntime-gpu (CUDAExecutionProvider)"),
]


def _on(device: str, run: Any) -> Any:
    ms.set_context(device_target=device)
    try:
        return run()
    finally:
        ms.set_context(device_target="CPU")


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
@pytest.mark.parametrize("name", ["cnn_batchnorm", "gluon1"])
def test_hybridized_training_on_the_gpu_equals_eager(name: str, optimizer: str) -> None:
    style = "1.x" if name == "gluon1" else "2.x"
    eager = trajectory(name, False, optimizer, style)
    compiled = _on("GPU", lambda: trajectory(name, True, optimizer, style))
    assert sorted(compiled) == sorted(eager)
    # CUDA kernels sum in another order than NumPy: the same bound as the CPU provider's test
    for key in eager:
        assert_close(compiled[key], eager[key], 1e-4, 1e-5, what=f"{name}/{optimizer} on CUDA: {key}")


def test_hybridized_training_sessions_run_on_cuda() -> None:
    import cellonnx.mxnet as mx
    from tests.gluon.test_hybrid_training import seeded

    def run() -> list[CompiledTraining]:
        net, x, y = seeded("cnn_batchnorm", True, "2.x")
        with mx.autograd.record():
            loss = mx.gluon.loss.SoftmaxCrossEntropyLoss()(net(x), y)
        loss.backward()
        return [c for c in net._compiled.values() if isinstance(c, CompiledTraining)]

    (compiled,) = _on("GPU", run)
    assert compiled.forward_session.on_gpu and compiled.backward_session.on_gpu
