"""LeNet-5 with the layout and parameter names of MindSpore's model zoo (``official/cv/LeNet/src/lenet.py``):
conv1, conv2, fc1, fc2, fc3 (Dense weights drawn from Normal(0.02)),
one shared relu / max_pool2d / flatten."""
from __future__ import annotations

from cellonnx import nn
from cellonnx.common.initializer import Normal
from cellonnx.tensor import Tensor

__all__ = ["LeNet5", "lenet5"]


class LeNet5(nn.Cell):
    """LeNet-5 for 32x32 images.

    Args:
        num_classes: outputs of fc3. Default: 10.
        num_channel: input image channels. Default: 1.
        include_top: keep flatten and the three Dense layers; without them the output is the (N, 16, 5, 5)
            feature map. Default: True.

    Shape:
        (N, num_channel, 32, 32) -> (N, num_classes).

    Examples:
        >>> from cellonnx.models import LeNet5
        >>> net = LeNet5(10)
        >>> net(ops.ones((2, 1, 32, 32))).shape
        (2, 10)
    """

    def __init__(self, num_classes: int = 10, num_channel: int = 1, include_top: bool = True) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
            self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
            self.fc3 = nn.Dense(84, num_classes, weight_init=Normal(0.02))

    def construct(self, x: Tensor) -> Tensor:
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def lenet5(num_classes: int = 10, num_channel: int = 1, include_top: bool = True) -> LeNet5:
    """LeNet-5 (see :class:`LeNet5`).

    Examples:
        >>> from cellonnx import models
        >>> net = models.lenet5(num_classes=10)
        >>> x = models.example_input("lenet5", batch=2)
        >>> print(x.shape, net(x).shape)
        (2, 1, 32, 32) (2, 10)
    """
    return LeNet5(num_classes, num_channel, include_top)
