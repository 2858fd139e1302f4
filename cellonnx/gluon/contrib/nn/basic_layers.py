"""MXNet 1.x's gluon.contrib.nn layers over gluon.nn's."""
from __future__ import annotations

from cellonnx.gluon.nn.basic_layers import Concatenate, HybridConcatenate, Identity
from cellonnx.gluon.nn.norm_layers import SyncBatchNorm
from cellonnx.gluon.nn.pixel_shuffle import PixelShuffle1D, PixelShuffle2D, PixelShuffle3D

__all__ = ["Concurrent", "HybridConcurrent", "Identity", "PixelShuffle1D", "PixelShuffle2D", "PixelShuffle3D",
           "SyncBatchNorm"]


class HybridConcurrent(HybridConcatenate):
    """Feed the input to every child and concatenate their outputs along ``axis`` (Default: -1); MXNet 1.x's
    name for HybridConcatenate."""


class Concurrent(Concatenate):
    """Feed the input to every child and concatenate their outputs along ``axis`` (Default: -1); MXNet 1.x's
    name for Concatenate."""
