"""Gluon layers whose repr MXNet 1.9.1 and cellonnx print alike: expressions over ``nn``, evaluated by
tests/fixtures/mxnet/gen_repr.py under MXNet (writing tests/fixtures/mxnet/block_repr.json) and by
test_repr.py here. Left out: 1.x's quirks that Gluon 2.x dropped (a grouped Conv2D showing in_channels /
groups, Conv2DTranspose's ``4 -> 0``, an empty HybridSequential's blank line)."""
from __future__ import annotations

CASES = [
    "nn.MaxPool2D()", "nn.MaxPool2D(pool_size=3, strides=2, padding=1, ceil_mode=True)",
    "nn.AvgPool2D(3, 2, 1)", "nn.AvgPool2D(2, count_include_pad=False)", "nn.GlobalAvgPool2D()",
    "nn.GlobalMaxPool2D()", "nn.Dense(10)", "nn.Dense(10, in_units=4, activation='relu')",
    "nn.Conv2D(8, 3)", "nn.Conv2D(8, (3, 5), strides=2, padding=1, in_channels=4, use_bias=False)",
    "nn.Activation('relu')", "nn.Flatten()", "nn.Dropout(0.5)", "nn.BatchNorm()",
    "nn.BatchNorm(in_channels=4, momentum=0.8)", "nn.LayerNorm()",
    "nn.LayerNorm(axis=1, epsilon=1e-3, center=False, in_channels=5)", "nn.InstanceNorm()",
    "nn.InstanceNorm(scale=True, in_channels=3)", "nn.Embedding(10, 4)", "nn.LeakyReLU(0.1)",
]
