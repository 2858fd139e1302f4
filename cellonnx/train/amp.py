"""Automatic mixed precision for training: ``build_train_network(network, optimizer, loss_fn, level)``.

Levels as MindSpore: O0 float32; O1 the white-listed layers (Dense, Conv*, RNN cells) in float16; O2 the network
in float16 with BatchNorm kept in float32 and dynamic loss scaling; O3 everything float16; 'auto' is O0 on a
host without Ascend/GPU.
"""
from __future__ import annotations

from typing import Any

from cellonnx import dtypes
from cellonnx.nn.cell import Cell
from cellonnx.nn.wrap import TrainOneStepCell, TrainOneStepWithLossScaleCell, WithLossCell
from cellonnx.train.loss_scale_manager import DynamicLossScaleManager, LossScaleManager

__all__ = ["build_train_network", "get_white_list"]

_WHITE_LIST = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Dense",
               "LSTMCell", "RNNCell", "GRUCell")

_CONFIG_LEVEL: dict[str, dict[str, Any]] = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": dtypes.float32, "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": dtypes.float32, "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": dtypes.float16, "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": dtypes.float16, "loss_scale_manager": None},
    "auto": {"keep_batchnorm_fp32": False, "cast_model_type": dtypes.float32, "loss_scale_manager": None},
}


def get_white_list() -> list[str]:
    """The layer classes O1 runs in float16."""
    return list(_WHITE_LIST)


class _CastLossCell(Cell):
    """WithLossCell for a float16 network: the output and label go to the loss in float32."""

    def __init__(self, backbone: Cell, loss_fn: Any) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Any, label: Any) -> Any:
        from cellonnx.ops.prims.math import cast
        out = self._backbone(data)
        f32 = dtypes.float32

        def up(t: Any) -> Any:
            return cast(t, f32) if hasattr(t, "dtype") and dtypes.dtype(t.dtype) in (
                dtypes.float16, dtypes.bfloat16) else t

        return self._loss_fn(up(out), up(label))


def _keep_batchnorm_fp32(network: Cell) -> None:
    for _, cell in network.cells_and_names():
        if type(cell).__name__.startswith(("BatchNorm", "SyncBatchNorm")):
            cell.to_float(dtypes.float32)


def _white_list_fp16(network: Cell) -> None:
    for _, cell in network.cells_and_names():
        if type(cell).__name__ in _WHITE_LIST:
            cell.to_float(dtypes.float16)


def build_train_network(network: Cell, optimizer: Any, loss_fn: Any = None, level: str = "O0",
                        boost_level: str = "O0", **kwargs: Any) -> Cell:
    """The mixed-precision training cell: the network cast per ``level``, its loss, and a TrainOneStepCell (or a
    TrainOneStepWithLossScaleCell when the loss-scale manager drops overflowing updates).

    Args:
        network (Cell): the network.
        optimizer (Optimizer): the optimizer.
        loss_fn (Cell): the loss. Default: ``None`` (the network returns the loss).
        level (str): 'O0', 'O1', 'O2', 'O3' or 'auto'. Default: ``'O0'``.
        boost_level (str): only 'O0' (boost needs MindSpore's graph passes). Default: ``'O0'``.
        kwargs: ``cast_model_type``, ``keep_batchnorm_fp32``, ``loss_scale_manager`` override the level.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> from cellonnx.train import build_train_network
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        >>> train_net = build_train_network(net, opt, nn.MSELoss(), level='O0')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> y = Tensor(np.array([[1.0]]), ms.float32)
        >>> print(train_net(x, y))
        4.0
    """
    from cellonnx.nn.optim import Optimizer
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"build_train_network: 'optimizer' must be an Optimizer, got {type(optimizer).__name__}")
    if not isinstance(level, str) or level not in _CONFIG_LEVEL:
        raise ValueError(f"build_train_network: level must be one of {list(_CONFIG_LEVEL)}, got {level!r}")
    if boost_level != "O0":
        raise NotImplementedError(f"build_train_network: boost_level={boost_level!r} needs MindSpore's boost "
                                  "graph passes (gradient freezing, adaptive summation); only 'O0' runs here")
    bad = set(kwargs) - {"cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"}
    if bad:
        raise ValueError(f"build_train_network: unsupported arguments {sorted(bad)}")
    config = dict(_CONFIG_LEVEL[level], **kwargs)
    if config["loss_scale_manager"] == "dynamic":
        config["loss_scale_manager"] = DynamicLossScaleManager()
    cast = dtypes.dtype(config["cast_model_type"])
    if cast == dtypes.float16:
        network.to_float(dtypes.float16)
        if config["keep_batchnorm_fp32"]:
            _keep_batchnorm_fp32(network)
    elif level == "O1":
        _white_list_fp16(network)
    if loss_fn is not None:
        network = _CastLossCell(network, loss_fn) if cast == dtypes.float16 else WithLossCell(network, loss_fn)
    manager = config["loss_scale_manager"]
    if manager is not None:
        if not isinstance(manager, LossScaleManager):
            raise TypeError(f"build_train_network: loss_scale_manager must be a LossScaleManager, got "
                            f"{type(manager).__name__}")
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
        return TrainOneStepCell(network, optimizer, manager.get_loss_scale()).set_train()
    return TrainOneStepCell(network, optimizer).set_train()
