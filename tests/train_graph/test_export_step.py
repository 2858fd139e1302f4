"""docs/compiled_training.md: a training step exported with ``export(..., training=True)`` trains one step
in plain onnxruntime (the snippet run as written, without cellonnx) exactly as the eager step does, dropout
masks included."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import onnx
import pytest

import cellonnx as ms
from cellonnx import nn
from cellonnx.ops.prims.counter_rng import STATE_NAME, rng_state
from tests.tolerance import assert_close

DOC = Path(__file__).resolve().parents[2] / "docs" / "compiled_training.md"


def _train_net() -> nn.Cell:
    ms.set_seed(0)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dropout(p=0.2), nn.Dense(8, 3))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    step.set_train()
    return step


def _snippet() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    return next(b for b in blocks if "import onnxruntime" in b)


def test_exported_step_trains_in_plain_onnxruntime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    step = _train_net()
    x0 = ms.Tensor(np.zeros((2, 4), np.float32))
    y0 = ms.Tensor(np.zeros((2,), np.int32))
    before = {n: p.asnumpy().copy() for n, p in step.parameters_and_names()}
    ms.export(step, x0, y0, file_name=str(tmp_path / "step"), training=True)
    after_export = {n: p.asnumpy() for n, p in step.parameters_and_names()}
    for name, value in before.items():  # exporting does not train
        assert (after_export[name] == value).all(), name
    model = onnx.load(str(tmp_path / "step.onnx"))
    onnx.checker.check_model(model)
    meta = {p.key: p.value for p in model.metadata_props}
    assert json.loads(meta["cellonnx.state_updates"])

    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(_snippet(), str(DOC), "exec"), scope)  # noqa: S102 - the documentation's own code

    eager_loss = step(ms.Tensor(scope["x"]), ms.Tensor(scope["y"]))
    assert_close(scope["loss"], eager_loss.asnumpy(), rtol=1e-5, scale_rtol=1e-5, what="loss")
    params = {p.name: p for _, p in step.parameters_and_names()}
    params[STATE_NAME] = rng_state()   # dropout draws the eager step's masks and advances the same state
    updates = json.loads(meta["cellonnx.state_updates"])
    assert set(updates.values()) <= set(params) and STATE_NAME in updates.values()
    for inp in updates.values():  # parameters, momentum slots, the step counter and rng_state after one step
        assert_close(scope["state"][inp], params[inp].asnumpy(), rtol=1e-5, scale_rtol=1e-5, what=inp)
