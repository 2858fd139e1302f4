"""A Transformer encoder classifier, BERT-tiny sized by default (2 layers, hidden 128, 2 heads, FFN 512):
token and learned position embeddings, post-LayerNorm encoder layers of multi-head self-attention and a GELU
feed-forward block, a tanh pooler on the first token and a Dense classifier.

Attention is written with cellonnx ops (Dense projections, reshape / transpose to heads, matmul, softmax),
with the batch and sequence sizes read from the input's shape, so the exported graph keeps both dims dynamic.
"""
from __future__ import annotations

import math

from cellonnx import dtypes, nn, ops
from cellonnx.common.initializer import TruncatedNormal
from cellonnx.tensor import Tensor

__all__ = ["MultiHeadAttention", "TransformerClassifier", "TransformerEncoderLayer", "transformer_classifier"]


def _dense(in_features: int, out_features: int, init_range: float) -> nn.Dense:
    return nn.Dense(in_features, out_features, weight_init=TruncatedNormal(init_range), bias_init="zeros")


class MultiHeadAttention(nn.Cell):
    """Scaled dot-product self-attention over ``num_heads`` heads.

    Args:
        hidden_size: model width (a multiple of ``num_heads``).
        num_heads: attention heads.
        dropout: dropout on the attention probabilities in training. Default: 0.0.
        init_range: std of the truncated-normal weight init. Default: 0.02.

    Inputs:
        x (N, L, hidden_size); mask: None or an additive (N, 1, 1, L) mask
        (0 to keep, large negative to drop).

    Outputs:
        (N, L, hidden_size).
    """

    def __init__(self, hidden_size: int, num_heads: int, dropout: float = 0.0,
                 init_range: float = 0.02) -> None:
        super().__init__()
        if hidden_size % num_heads:
            raise ValueError(f"MultiHeadAttention: hidden_size {hidden_size} is not a multiple of num_heads "
                             f"{num_heads}")
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.hidden_size = hidden_size
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.query = _dense(hidden_size, hidden_size, init_range)
        self.key = _dense(hidden_size, hidden_size, init_range)
        self.value = _dense(hidden_size, hidden_size, init_range)
        self.output = _dense(hidden_size, hidden_size, init_range)
        self.dropout = nn.Dropout(p=dropout)

    def _heads(self, t: Tensor, batch: int, seq: int) -> Tensor:
        # (N, L, H) -> (N, heads, L, head_dim)
        return ops.transpose(ops.reshape(t, (batch, seq, self.num_heads, self.head_dim)), (0, 2, 1, 3))

    def construct(self, x: Tensor, mask: Tensor | None = None) -> Tensor:
        batch, seq = x.shape[0], x.shape[1]
        q = self._heads(self.query(x) * self.scale, batch, seq)
        k = self._heads(self.key(x), batch, seq)
        v = self._heads(self.value(x), batch, seq)
        scores = ops.matmul(q, ops.transpose(k, (0, 1, 3, 2)))
        if mask is not None:
            scores = scores + mask
        probs = self.dropout(ops.softmax(scores, -1))
        context = ops.transpose(ops.matmul(probs, v), (0, 2, 1, 3))
        return self.output(ops.reshape(context, (batch, seq, self.hidden_size)))


class TransformerEncoderLayer(nn.Cell):
    """Post-LayerNorm encoder layer (as BERT): x = norm(x + attention(x)); x = norm(x + ffn(x)).

    Args:
        hidden_size, num_heads: attention sizes. intermediate_size: FFN width.
        dropout: dropout on the residual branches and attention probabilities. Default: 0.1.
        layer_norm_eps: Default: 1e-12. init_range: Default: 0.02.
    """

    def __init__(self, hidden_size: int, num_heads: int, intermediate_size: int, dropout: float = 0.1,
                 layer_norm_eps: float = 1e-12, init_range: float = 0.02) -> None:
        super().__init__()
        self.attention = MultiHeadAttention(hidden_size, num_heads, dropout, init_range)
        self.attention_norm = nn.LayerNorm((hidden_size,), epsilon=layer_norm_eps)
        self.intermediate = _dense(hidden_size, intermediate_size, init_range)
        self.gelu = nn.GELU(approximate=False)
        self.ffn_output = _dense(intermediate_size, hidden_size, init_range)
        self.ffn_norm = nn.LayerNorm((hidden_size,), epsilon=layer_norm_eps)
        self.dropout = nn.Dropout(p=dropout)

    def construct(self, x: Tensor, mask: Tensor | None = None) -> Tensor:
        x = self.attention_norm(x + self.dropout(self.attention(x, mask)))
        h = self.ffn_output(self.gelu(self.intermediate(x)))
        return self.ffn_norm(x + self.dropout(h))


class TransformerClassifier(nn.Cell):
    """Transformer encoder over token ids, classifying from the first token (BERT's [CLS] pooling).

    Args:
        vocab_size: token vocabulary. Default: 30522 (BERT's WordPiece).
        hidden_size: model width. Default: 128.
        num_layers: encoder layers. Default: 2.
        num_heads: attention heads. Default: 2.
        intermediate_size: FFN width. Default: 512.
        max_position: longest sequence (rows of the learned position table). Default: 512.
        num_classes: outputs. Default: 2.
        dropout: dropout in training. Default: 0.1.

    Inputs:
        ids (N, L) int32/int64 with L <= max_position; attention_mask: optional (N, L), 1 for real tokens and
        0 for padding.

    Outputs:
        (N, num_classes) logits.

    Examples:
        >>> from cellonnx.models import TransformerClassifier
        >>> net = TransformerClassifier(vocab_size=100, hidden_size=32, num_layers=1, num_heads=4,
        ...                             intermediate_size=64, max_position=16, num_classes=3)
        >>> net(Tensor(np.zeros((2, 9), np.int32))).shape
        (2, 3)
    """

    def __init__(self, vocab_size: int = 30522, hidden_size: int = 128, num_layers: int = 2,
                 num_heads: int = 2, intermediate_size: int = 512, max_position: int = 512,
                 num_classes: int = 2, dropout: float = 0.1, layer_norm_eps: float = 1e-12,
                 init_range: float = 0.02) -> None:
        super().__init__()
        self.max_position = max_position
        self.token_embedding = nn.Embedding(vocab_size, hidden_size,
                                            embedding_table=TruncatedNormal(init_range))
        self.position_embedding = nn.Embedding(max_position, hidden_size,
                                               embedding_table=TruncatedNormal(init_range))
        self.embedding_norm = nn.LayerNorm((hidden_size,), epsilon=layer_norm_eps)
        self.dropout = nn.Dropout(p=dropout)
        self.layers = nn.CellList([TransformerEncoderLayer(hidden_size, num_heads, intermediate_size, dropout,
                                                           layer_norm_eps, init_range)
                                   for _ in range(num_layers)])
        self.pooler = _dense(hidden_size, hidden_size, init_range)
        self.classifier = _dense(hidden_size, num_classes, init_range)

    def construct(self, ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        batch, seq = ids.shape[0], ids.shape[1]
        if not isinstance(seq, int) or int(seq) > self.max_position:
            raise ValueError(f"TransformerClassifier: sequence length {seq} is over max_position "
                             f"{self.max_position}")
        positions = self.position_embedding.embedding_table[:seq]
        x = self.dropout(self.embedding_norm(self.token_embedding(ids) + positions))
        mask = None
        if attention_mask is not None:
            keep = ops.reshape(ops.cast(attention_mask, dtypes.float32), (batch, 1, 1, seq))
            mask = (1.0 - keep) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        pooled = ops.tanh(self.pooler(x[:, 0]))
        return self.classifier(self.dropout(pooled))


def transformer_classifier(num_classes: int = 2, vocab_size: int = 30522, hidden_size: int = 128,
                           num_layers: int = 2, num_heads: int = 2, intermediate_size: int = 512,
                           max_position: int = 512, dropout: float = 0.1) -> TransformerClassifier:
    """A Transformer encoder classifier, BERT-tiny sized by default (see :class:`TransformerClassifier`).

    Args:
        num_classes: outputs. Default: 2.
        vocab_size: token ids are below it. Default: 30522.
        hidden_size: the model width. Default: 128.
        num_layers: encoder layers. Default: 2.
        num_heads: attention heads. Default: 2.
        intermediate_size: the feed-forward width. Default: 512.
        max_position: the longest sequence. Default: 512.
        dropout: dropout probability in training. Default: 0.1.

    Returns:
        TransformerClassifier.

    Examples:
        >>> from cellonnx.models import transformer_classifier
        >>> net = transformer_classifier(3, vocab_size=100, hidden_size=16, num_layers=1, num_heads=2,
        ...                              intermediate_size=32, max_position=8)
        >>> net(Tensor(np.zeros((2, 8), np.int32))).shape
        (2, 3)
    """
    return TransformerClassifier(vocab_size, hidden_size, num_layers, num_heads, intermediate_size,
                                 max_position, num_classes, dropout)
