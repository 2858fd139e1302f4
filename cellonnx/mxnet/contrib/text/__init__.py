"""``mx.contrib.text``: MXNet 1.x's text utilities: token counting (``utils``), vocabularies (``vocab``)
and token embeddings (``embedding``: GloVe / FastText files read from a local root, custom and composite
embeddings)."""
from __future__ import annotations

from cellonnx.mxnet.contrib.text import embedding, utils, vocab

__all__ = ["embedding", "utils", "vocab"]
