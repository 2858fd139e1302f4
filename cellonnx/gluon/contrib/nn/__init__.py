"""gluon.contrib.nn: MXNet 1.x's contrib layers - HybridConcurrent / Concurrent (2.x's HybridConcatenate /
Concatenate), Identity, SyncBatchNorm (one device), PixelShuffle1D / 2D / 3D."""
from __future__ import annotations

from cellonnx.gluon.contrib.nn import basic_layers
from cellonnx.gluon.contrib.nn.basic_layers import *
from cellonnx.gluon.contrib.nn.sparse_embedding import SparseEmbedding

__all__ = basic_layers.__all__
__all__ += ["SparseEmbedding"]
