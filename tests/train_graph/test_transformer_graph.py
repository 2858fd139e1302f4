"""The compiled Transformer step in the form onnxruntime runs fastest, on the eager trajectory: layer norm's
gradient reads the forward node's saved mean and inverse std dev, the exact GELU's gradient takes Phi(x) from
the forward's erf (no Where / Div over the activation), plain SGD updates the embedding table with one
scatter of its rows (no zero-filled table), and the last layer runs on the one row the classifier reads."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from cellonnx.models import transformer

from cellonnx import nn
from cellonnx.graph.optimize import _inferred_shapes
from cellonnx.graph.train import compiled_steps
from tests.train_graph.harness import check_trajectory
from tests.train_graph.test_models import _ids

# (Adam is left out: the key bias's gradient is 0 in exact arithmetic, and Adam scales its rounding noise,
# different in the two runs, up to steps of the learning rate's size)
OPTIMIZERS = {
    "SGD": lambda params: nn.SGD(params, learning_rate=0.05),
    "Momentum": lambda params: nn.Momentum(params, 0.01, 0.9),
}


@pytest.mark.parametrize("opt", sorted(OPTIMIZERS))
def test_transformer_step_form(opt: str) -> None:
    built: list[Any] = []

    def build() -> Any:
        net = transformer.transformer_classifier(3, vocab_size=20, hidden_size=16, num_layers=2, num_heads=2,
                                                 intermediate_size=32, max_position=8, dropout=0.0)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), OPTIMIZERS[opt](net.trainable_params()))
        step.set_train()
        built.append(step)
        return step

    # 3 x 6 tokens of a vocabulary of 20: repeated ids, so the scattered rows add up
    check_trajectory(build, _ids(3, 6, 20, 3), what=f"Transformer + {opt}")
    (compiled,) = compiled_steps(built[-1])
    nodes = compiled.step.model.graph.node
    ops = Counter(n.op_type for n in nodes)
    norms = [n for n in nodes if n.op_type == "LayerNormalization"]
    assert len(norms) == 5 and all(len(n.output) == 3 for n in norms), [list(n.output) for n in norms]
    assert ops["ReduceMean"] == 2 * len(norms), ops  # the gradient's two means per norm, no recomputed stats
    assert ops["Erf"] == 2 and ops["Equal"] == 0, ops  # one erf per GELU, shared by its gradient
    if opt == "SGD":
        assert ops["ConstantOfShape"] == 0 and ops["ScatterND"] == 1, ops
    # only the [CLS] row of the last layer is read: its queries, attention and feed-forward run on that row
    # (forward and backward), its keys and values on all 6
    shapes = _inferred_shapes(compiled.step.model)
    by_suffix = {k.split("layers.", 1)[1]: v for k, v in shapes.items() if ".layers." in k}
    written = {o.split("layers.", 1)[1] for n in nodes for o in n.output if ".layers." in o}
    for dense in ("attention.query", "attention.output", "intermediate", "ffn_output"):
        assert by_suffix[f"1.{dense}.MatMul/row0"][1] == 1, dense
        assert f"1.{dense}.MatMul" not in written, dense
    for dense in ("attention.key", "attention.value"):
        assert by_suffix[f"1.{dense}.MatMul"][1] == 6, dense
    assert by_suffix["1.attention.Softmax/row0"][1:] == [2, 1, 6]
    assert by_suffix["0.ffn_norm.LayerNormalization"][1] == 6
