"""MXNet 1.x's gluon.contrib.nn layers over gluon.nn's."""
from __future__ import annotations

from cellonnx.gluon.nn.basic_layers import Concatenate, HybridConcatenate, Identity
from cellonnx.gluon.nn.norm_layers import SyncBatchNorm
from cellonnx.gluon.nn.pixel_shuffle import PixelShuffle1D, PixelShuffle2D, PixelShuffle3D

__all__ = ["Concurrent", "HybridConcurrent", "Identity", "PixelShuffle1D", "PixelShuffle2D", "PixelShuffle3D",
           "SyncBatchNorm"]


class HybridConcurrent(HybridConcatenate):
    """Feed the input to every child and concatenate their outputs along ``axis`` (Default: -1); MXNet 1.x's
    name for HybridConcatenate.

    Examples:
        >>> from cellonnx import gluon
        >>> from cellonnx.mxnet import nd
        >>> from cellonnx.gluon.contrib.nn import HybridConcurrent
        >>> net = HybridConcurrent(axis=1)
        >>> net.add(gluon.nn.Dense(2, in_units=3), gluon.nn.Dense(4, in_units=3))
        >>> net.initialize()
        >>> net.hybridize()
        >>> net(nd.ones((5, 3))).shape
        (5, 6)
        >>> len(net)
        2
    """


class Concurrent(Concatenate):
    """Feed the input to every child and concatenate their outputs along ``axis`` (Default: -1); MXNet 1.x's
    name for Concatenate.

    Examples:
        >>> from cellonnx import gluon
        >>> from cellonnx.mxnet import nd
        >>> from cellonnx.gluon.contrib.nn import Concurrent
        >>> net = Concurrent(axis=1)
        >>> net.add(gluon.nn.Dense(2, in_units=3), gluon.nn.Dense(4, in_units=3))
        >>> net.initialize()
        >>> net(nd.ones((5, 3))).shape
        (5, 6)
    """
