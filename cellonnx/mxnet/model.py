"""mxnet.model: MXNet 1.x checkpoints (``prefix-symbol.json`` + ``prefix-0003.params``, the files
``save_checkpoint`` writes and model servers load with ``load_checkpoint``) and ``BatchEndParam`` (what
batch-end callbacks receive); ``FeedForward``, the deprecated estimator.

The .params file holds the arrays under ``arg:<name>`` / ``aux:<name>`` keys in MXNet's NDArray format, so
files written here load in MXNet 1.9.1 and the other way round.
"""
from __future__ import annotations

import logging
from collections import namedtuple
from typing import Any

from cellonnx.mxnet import ndarray as nd
from cellonnx.mxnet import symbol as sym
from cellonnx.mxnet.base import mx_real_t
from cellonnx.mxnet.context import Context, cpu
from cellonnx.mxnet.initializer import Uniform
from cellonnx.mxnet.io import DataDesc
from cellonnx.mxnet.optimizer import get_updater

__all__ = ["BASE_ESTIMATOR", "BatchEndParam", "Context", "DataDesc", "Uniform", "cpu", "get_updater",
           "load_checkpoint", "load_params", "mx_real_t", "save_checkpoint"]

# FeedForward's base class: scikit-learn's BaseEstimator when scikit-learn is installed (MXNet defines
# SKLEARN_INSTALLED only when it is not, as False)
BASE_ESTIMATOR: type = object
try:
    from sklearn.base import BaseEstimator

    BASE_ESTIMATOR = BaseEstimator
except ImportError:
    SKLEARN_INSTALLED = False
    __all__ += ["SKLEARN_INSTALLED"]

BatchEndParam = namedtuple("BatchEndParams", ["epoch", "nbatch", "eval_metric", "locals"])
BatchEndParam.__doc__ = """What a batch-end callback receives: the epoch, the batch number in it, the
evaluation metric and the caller's locals."""


def _params_file(prefix: str, epoch: int) -> str:
    return "%s-%04d.params" % (prefix, epoch)  # noqa: UP031 - MXNet's file naming, digit for digit


def save_checkpoint(prefix: str, epoch: int, symbol: Any, arg_params: dict[str, Any],
                    aux_params: dict[str, Any], remove_amp_cast: bool = True) -> None:
    """Write a checkpoint: ``prefix-symbol.json`` (unless ``symbol`` is None) and ``prefix-%04d.params``.

    Args:
        prefix: the path prefix of both files.
        epoch: the epoch number in the params file's name.
        symbol: the network (a Symbol) or None.
        arg_params, aux_params: the arguments' and the auxiliary states' arrays by name.
        remove_amp_cast: drop AMP cast nodes from the saved symbol. Default: True.
    """
    if symbol is not None:
        symbol.save(f"{prefix}-symbol.json", remove_amp_cast=remove_amp_cast)
    save_dict = {f"arg:{k}": v for k, v in arg_params.items()}
    save_dict.update({f"aux:{k}": v for k, v in aux_params.items()})
    param_name = _params_file(prefix, epoch)
    nd.save(param_name, save_dict)
    logging.info('Saved checkpoint to "%s"', param_name)


def load_params(prefix: str, epoch: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Read ``prefix-%04d.params`` into ``(arg_params, aux_params)`` (dicts of NDArrays by name)."""
    param_name = _params_file(prefix, epoch)
    save_dict = nd.load(param_name)
    arg_params: dict[str, Any] = {}
    aux_params: dict[str, Any] = {}
    if not save_dict:
        logging.warning("Params file '%s' is empty", param_name)
        return arg_params, aux_params
    if not isinstance(save_dict, dict):
        raise ValueError(f"load_params: {param_name} holds unnamed arrays; a checkpoint names them "
                         "'arg:<name>' / 'aux:<name>'")
    for key, value in save_dict.items():
        kind, _, name = key.partition(":")
        if kind == "arg":
            arg_params[name] = value
        elif kind == "aux":
            aux_params[name] = value
    return arg_params, aux_params


def load_checkpoint(prefix: str, epoch: int) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """Read a checkpoint: ``(symbol, arg_params, aux_params)`` from ``prefix-symbol.json`` and
    ``prefix-%04d.params``."""
    symbol = sym.load(f"{prefix}-symbol.json")
    arg_params, aux_params = load_params(prefix, epoch)
    return symbol, arg_params, aux_params


from cellonnx.mxnet.model_feedforward import FeedForward  # noqa: E402 - it uses this module's functions

__all__ += ["FeedForward"]


def __getattr__(name: str) -> Any:
    # mx.model.LogValidationMetricsCallback: mx.callback imports this module, so it is looked up on use
    if name == "LogValidationMetricsCallback":
        from cellonnx.mxnet.callback import LogValidationMetricsCallback

        return LogValidationMetricsCallback
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

from cellonnx.mxnet.executor_manager import DataParallelExecutorManager  # noqa: E402

__all__ += ["DataParallelExecutorManager"]
