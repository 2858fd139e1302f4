"""gluon.nn: MXNet's neural network layers (2.x signatures) as HybridBlocks; this package hands their names
on."""
from __future__ import annotations

from cellonnx.gluon.block import Block
from cellonnx.gluon.hybrid import HybridBlock
from cellonnx.gluon.nn import (
    activations,
    basic_layers,
    conv_layers,
    conv_nd_layers,
    norm_layers,
    pad_bn_relu,
    pixel_shuffle,
)
from cellonnx.gluon.nn.activations import *
from cellonnx.gluon.nn.basic_layers import *
from cellonnx.gluon.nn.conv_layers import *
from cellonnx.gluon.nn.conv_nd_layers import *
from cellonnx.gluon.nn.norm_layers import *
from cellonnx.gluon.nn.pad_bn_relu import *
from cellonnx.gluon.nn.pixel_shuffle import *
from cellonnx.gluon.symbol.block import SymbolBlock

__all__ = ["Block", "HybridBlock"]
__all__ += activations.__all__ + basic_layers.__all__ + conv_layers.__all__ + norm_layers.__all__
__all__ += pixel_shuffle.__all__
__all__ += conv_nd_layers.__all__ + pad_bn_relu.__all__ + ["SymbolBlock"]
