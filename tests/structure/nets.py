"""The structure fixtures' shared inputs, and a Transformer encoder layer with separate q / k / v projections
(as BERT-style code bases write it)."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import cellonnx as ms
from cellonnx import nn, ops


def fixture_common() -> Any:
    """tests/fixtures/structure/common.py (the generators' seeds and inputs), imported under its own name."""
    path = Path(__file__).resolve().parents[1] / "fixtures" / "structure" / "common.py"
    spec = importlib.util.spec_from_file_location("tests_structure_fixture_common", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class SeparateQKVEncoderLayer(nn.Cell):
    """Post-norm encoder layer (ReLU feed-forward), batch first, q / k / v as three Dense layers: the
    arithmetic of nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout=0, batch_first=True)."""

    def __init__(self, d_model: int = 16, nhead: int = 2, dim_feedforward: int = 32) -> None:
        super().__init__()
        self.nhead = nhead
        self.query = nn.Dense(d_model, d_model)
        self.key = nn.Dense(d_model, d_model)
        self.value = nn.Dense(d_model, d_model)
        self.output = nn.Dense(d_model, d_model)
        self.attention_norm = nn.LayerNorm((d_model,), epsilon=1e-5)
        self.intermediate = nn.Dense(d_model, dim_feedforward)
        self.ffn_output = nn.Dense(dim_feedforward, d_model)
        self.output_norm = nn.LayerNorm((d_model,), epsilon=1e-5)

    def _heads(self, x: Any) -> Any:
        b, n, e = x.shape
        return x.reshape(b, n, self.nhead, e // self.nhead).transpose(0, 2, 1, 3)

    def construct(self, x: Any) -> Any:
        b, n, e = x.shape
        q, k, v = self._heads(self.query(x)), self._heads(self.key(x)), self._heads(self.value(x))
        scores = ops.matmul(q, k.transpose(0, 1, 3, 2)) / ms.Tensor((e // self.nhead) ** 0.5, ms.float32)
        attn = ops.matmul(ops.softmax(scores, -1), v).transpose(0, 2, 1, 3).reshape(b, n, e)
        x = self.attention_norm(x + self.output(attn))
        return self.output_norm(x + self.ffn_output(ops.relu(self.intermediate(x))))
