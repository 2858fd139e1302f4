"""How a module updates its parameters, with or without a KVStore (MXNet 1.x's ``model._create_kvstore`` /
``_update_params`` rules): 'local' with one context needs no store; a store given as an object (or a
'dist_*' name) is used, and runs the optimizer itself unless MXNET_UPDATE_ON_KVSTORE=0."""
from __future__ import annotations

import os
from typing import Any

from cellonnx.mxnet import kvstore as kvs

__all__ = ["create_kvstore", "initialize_kvstore", "update_params", "update_params_on_kvstore"]


def create_kvstore(kvstore: Any, num_device: int) -> tuple[Any, bool]:
    """``(store or None, update_on_kvstore)`` for the ``kvstore`` argument of init_optimizer / fit."""
    update_on_kvstore = bool(int(os.getenv("MXNET_UPDATE_ON_KVSTORE", "1")))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, kvs.KVStoreBase):
        kv = kvstore
    elif isinstance(kvstore, str):
        kv = None if num_device == 1 and "dist" not in kvstore else kvs.create(kvstore)
    else:
        raise TypeError("kvstore must be KVStore, str or None")
    if kv is None:
        return None, False
    return kv, update_on_kvstore and kv.is_capable(kvs.KVStoreBase.OPTIMIZER)


def initialize_kvstore(kvstore: Any, param_arrays: list[Any], arg_params: dict[str, Any],
                       param_names: list[str], update_on_kvstore: bool) -> None:
    """Put the initial parameters in the store (and, when it runs the optimizer, broadcast them back)."""
    for idx, param in enumerate(param_arrays):
        name = param_names[idx]
        if not update_on_kvstore or getattr(arg_params[name], "stype", "default") != "default":
            kvstore.init(name, arg_params[name])
        else:
            kvstore.broadcast(name, arg_params[name], out=[param])


def update_params_on_kvstore(param_arrays: list[Any], grad_arrays: list[Any], kvstore: Any,
                             param_names: list[str]) -> None:
    """Push every gradient to the store (which applies the optimizer) and pull the weights back."""
    for index, (arg, grad) in enumerate(zip(param_arrays, grad_arrays)):
        if grad is None:
            continue
        kvstore.pushpull(param_names[index], [grad], out=[arg], priority=-index)


def update_params(param_arrays: list[Any], grad_arrays: list[Any], updater: Any, num_device: int,
                  kvstore: Any = None, param_names: list[str] | None = None) -> None:
    """Sum the gradients through the store (if any), then apply ``updater`` to all parameters at once."""
    indices, grads, weights = [], [], []
    for index, (arg, grad) in enumerate(zip(param_arrays, grad_arrays)):
        if grad is None:
            continue
        if kvstore:
            kvstore.pushpull(param_names[index], [grad], priority=-index)  # type: ignore[index]
        indices.append(index * num_device)
        grads.append(grad)
        weights.append(arg)
    if indices:
        updater(indices, grads, weights)
