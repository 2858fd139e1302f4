"""A multi-layer perceptron: flatten, then Dense + activation (+ dropout) per hidden layer, then the
classifier."""
from __future__ import annotations

from collections.abc import Sequence

from cellonnx import nn
from cellonnx.tensor import Tensor

__all__ = ["MLP", "mlp"]


class MLP(nn.Cell):
    """Fully connected classifier over flattened inputs.

    Args:
        in_features: size of a flattened sample. Default: 64 (the 8x8 digits).
        hidden_sizes: widths of the hidden layers. Default: (128, 64).
        num_classes: outputs. Default: 10.
        activation: activation name for ``nn.Dense(activation=...)``. Default: 'relu'.
        dropout: dropout probability after each hidden layer (training only). Default: 0.0.

    Parameters are ``layers.{k}.weight`` / ``layers.{k}.bias`` (k counts every cell in ``layers``).

    Shape:
        (N, *) with prod(*) = in_features -> (N, num_classes).

    Examples:
        >>> from cellonnx.models import MLP
        >>> MLP(64, (32,), 10)(ops.ones((4, 8, 8))).shape
        (4, 10)
    """

    def __init__(self, in_features: int = 64, hidden_sizes: Sequence[int] = (128, 64), num_classes: int = 10,
                 activation: str = "relu", dropout: float = 0.0) -> None:
        super().__init__()
        if not 0.0 <= dropout < 1.0:
            raise ValueError(f"MLP: dropout must be in [0, 1), got {dropout}")
        self.flatten = nn.Flatten()
        cells: list[nn.Cell] = []
        width = in_features
        for size in hidden_sizes:
            cells.append(nn.Dense(width, int(size), activation=activation))
            if dropout:
                cells.append(nn.Dropout(p=dropout))
            width = int(size)
        cells.append(nn.Dense(width, num_classes))
        self.layers = nn.SequentialCell(cells)

    def construct(self, x: Tensor) -> Tensor:
        return self.layers(self.flatten(x))


def mlp(num_classes: int = 10, in_features: int = 64, hidden_sizes: Sequence[int] = (128, 64),
        activation: str = "relu", dropout: float = 0.0) -> MLP:
    """An MLP (see :class:`MLP`)."""
    return MLP(in_features, hidden_sizes, num_classes, activation, dropout)
