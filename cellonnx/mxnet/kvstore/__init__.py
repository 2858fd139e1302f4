"""mxnet.kvstore (also ``mx.kv``): key-value stores for data-parallel training (``create('local')``)."""
from __future__ import annotations

from cellonnx.mxnet.kvstore import base, kvstore
from cellonnx.mxnet.kvstore.base import KVStoreBase, create
from cellonnx.mxnet.kvstore.kvstore import KVStore
from cellonnx.mxnet.kvstore.kvstore_server import KVStoreServer

__all__ = ["KVStore", "KVStoreBase", "KVStoreServer", "base", "create", "kvstore"]
