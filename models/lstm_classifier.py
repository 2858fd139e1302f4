"""A text classifier: token embedding, a (stacked, optionally bidirectional) LSTM and a Dense layer on the
final hidden state."""
from __future__ import annotations

from cellonnx import nn, ops
from cellonnx.tensor import Tensor

__all__ = ["LSTMClassifier", "lstm_classifier"]


class LSTMClassifier(nn.Cell):
    """Classify token sequences from the LSTM's last hidden state (both directions' when bidirectional).

    Args:
        vocab_size: rows of the embedding table. Default: 10000.
        embedding_size: features per token. Default: 128.
        hidden_size: LSTM features. Default: 128.
        num_classes: outputs. Default: 2.
        num_layers: stacked LSTM layers. Default: 1.
        bidirectional: add a reverse direction. Default: False.
        dropout: dropout between LSTM layers in training. Default: 0.0.

    Parameters: ``embedding.embedding_table``, ``lstm.weight_ih_l0`` ... (MindSpore's nn.LSTM names),
    ``fc.weight``, ``fc.bias``.

    Shape:
        ids (N, L) int32/int64 -> (N, num_classes); N and L may change between calls
        (and stay dynamic in export).

    Examples:
        >>> from cellonnx.models import LSTMClassifier
        >>> net = LSTMClassifier(100, 16, 32, 3)
        >>> net(Tensor(np.zeros((2, 7), np.int32))).shape
        (2, 3)
    """

    def __init__(self, vocab_size: int = 10000, embedding_size: int = 128, hidden_size: int = 128,
                 num_classes: int = 2, num_layers: int = 1, bidirectional: bool = False,
                 dropout: float = 0.0) -> None:
        super().__init__()
        self.num_layers = num_layers
        self.bidirectional = bidirectional
        self.embedding = nn.Embedding(vocab_size, embedding_size)
        self.lstm = nn.LSTM(embedding_size, hidden_size, num_layers=num_layers, batch_first=True,
                            bidirectional=bidirectional, dropout=float(dropout))
        self.fc = nn.Dense(hidden_size * (2 if bidirectional else 1), num_classes)

    def construct(self, ids: Tensor) -> Tensor:
        _, (h_n, _) = self.lstm(self.embedding(ids))
        if self.bidirectional:
            last = ops.concat((h_n[-2], h_n[-1]), axis=1)
        else:
            last = h_n[-1]
        return self.fc(last)


def lstm_classifier(num_classes: int = 2, vocab_size: int = 10000, embedding_size: int = 128,
                    hidden_size: int = 128, num_layers: int = 1, bidirectional: bool = False,
                    dropout: float = 0.0) -> LSTMClassifier:
    """An LSTM text classifier (see :class:`LSTMClassifier`)."""
    return LSTMClassifier(vocab_size, embedding_size, hidden_size, num_classes, num_layers, bidirectional,
                          dropout)
