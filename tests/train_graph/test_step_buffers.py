"""The compiled step's state buffers: each bound once, a step reads one set and writes the other, and on
CUDA the two runs replay as captured CUDA graphs with the batch and the other outputs in fixed buffers too.
The CPU provider runs the same bindings (the graph ids are the CUDA provider's alone), so the buffer
bookkeeping of CUDA graph replay is checked here: trajectories equal eager, with parameters read and set
between steps."""
from __future__ import annotations

from typing import Any

import pytest

import cellonnx as ms
from cellonnx.graph import runtime
from cellonnx.graph import train as graph_train
from tests.train_graph.harness import (
    check_trajectory,
    classification_batches,
    compiled_after,
    with_user_writes,
)
from tests.train_graph.test_conv_gemm import _build_cuda_forms, traced_for_cuda  # noqa: F401 (a fixture)


class _Replayed(runtime.Session):
    """A CPU session the compiled step binds as it binds one that replays CUDA graphs."""

    def __init__(self, *args: Any, cuda_graph: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cuda_graph = cuda_graph


class _CaptureFails:
    """An onnxruntime session whose second run fails as a CUDA graph capture does when a node runs on the
    CPU (nothing of that run is computed)."""

    message = ""

    def __init__(self, session: Any) -> None:
        self._session, self.runs = session, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    def run_with_iobinding(self, binding: Any, options: Any = None) -> None:
        self.runs += 1
        if self.runs == 2:
            raise RuntimeError(self.message)
        self._session.run_with_iobinding(binding, options)


class _NotCaptured(_Replayed):
    def __init__(self, *args: Any, cuda_graph: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, cuda_graph=cuda_graph, **kwargs)
        if cuda_graph:
            self._sess = _CaptureFails(self._sess)


@pytest.fixture
def bound_as_for_cuda_graphs(monkeypatch: pytest.MonkeyPatch, traced_for_cuda: None) -> None:  # noqa: F811
    monkeypatch.setattr(graph_train, "Session", _Replayed)


def test_fixed_buffers_of_cuda_graph_replay_follow_eager(bound_as_for_cuda_graphs: None) -> None:
    batches = classification_batches((4, 3, 16, 16), 3, steps=6)
    check_trajectory(with_user_writes(_build_cuda_forms), batches, what="fixed buffers, a set_data at step 2")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = _build_cuda_forms()
        pointers = []
        for x, y in batches[:3]:
            step(x, y)
            (compiled,) = graph_train.compiled_steps(step)
            pointers.append([b.data_ptr() for b in compiled._data_buffers.values()])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert compiled.cuda_graph and pointers[0] and pointers[0] == pointers[1] == pointers[2]


def test_set_data_and_reads_between_steps_follow_eager() -> None:
    check_trajectory(with_user_writes(_build_cuda_forms), classification_batches((4, 3, 16, 16), 3, steps=5),
                     what="a set_data and a read at step 2")


def test_cuda_graph_is_a_bool_context_key() -> None:
    assert ms.get_context("cuda_graph") is True
    with pytest.raises(ValueError, match="'cuda_graph' must be a bool"):
        ms.set_context(cuda_graph="yes")


@pytest.mark.parametrize("message", [
    "CUDA failure 901: operation failed due to a previous error during capture",
    "CUDA failure 900: operation not permitted when stream is capturing"])
def test_a_failed_capture_runs_the_step_without_cuda_graphs(message: str, monkeypatch: pytest.MonkeyPatch,
                                                           traced_for_cuda: None) -> None:  # noqa: F811
    monkeypatch.setattr(graph_train, "Session", _NotCaptured)
    monkeypatch.setattr(_CaptureFails, "message", message)
    batches = classification_batches((4, 3, 16, 16), 3, steps=4)
    check_trajectory(_build_cuda_forms, batches, what="capture failed at the second step")
    compiled = compiled_after(_build_cuda_forms, batches[:3])
    assert not compiled.cuda_graph and compiled.steps == 3
