"""ConvertNetUtils (THOR layers into a network) and ConvertModelUtils (a Model into a ModelThor)."""
from __future__ import annotations

from typing import Any

from cellonnx.nn.cell import Cell
from cellonnx.nn.optim._thor_convert import ConvertNetUtils

__all__ = ["ConvertModelUtils", "ConvertNetUtils"]


class ConvertModelUtils:
    """Convert model to thor model.

    Examples:
        >>> net = nn.SequentialCell([nn.Dense(4, 3, activation="relu"), nn.Dense(3, 2)])
        >>> lr = Tensor(np.full(8, 0.1, np.float32))
        >>> opt = nn.thor(net, lr, Tensor(np.full(8, 0.03, np.float32)), 0.9, batch_size=4, frequency=2)
        >>> loss = nn.MSELoss()
        >>> model = ms.train.Model(net, loss_fn=loss, optimizer=opt)
        >>> model = ms.train.ConvertModelUtils.convert_to_thor_model(model, network=net, loss_fn=loss,
        ...                                                          optimizer=opt)
        >>> type(model).__name__
        'ModelThor'
    """

    @staticmethod
    def convert_to_thor_model(model: Any, network: Cell, loss_fn: Any = None, optimizer: Any = None,
                              metrics: Any = None, amp_level: str = "O0", loss_scale_manager: Any = None,
                              keep_batchnorm_fp32: bool = False) -> Any:
        """A ModelThor over ``network`` when ``optimizer`` is THOR's (``nn.thor``); else ``model`` itself.

        Args:
            model (Model): the model to convert.
            network (Cell): the training network (a ``TrainOneStepCell`` is used as it is).
            loss_fn (Cell): Default: ``None``.
            optimizer (Cell): Default: ``None``.
            metrics (Union[dict, set]): Default: ``None``.
            amp_level (str): Default: ``"O0"``.
            loss_scale_manager (Union[None, LossScaleManager]): Default: ``None``.
            keep_batchnorm_fp32 (bool): Default: ``False``.

        Returns:
            Model, the ModelThor (or ``model``).
        """
        from cellonnx.nn.wrap import TrainOneStepCell
        from cellonnx.train.train_thor.model_thor import ModelThor

        if type(optimizer).__name__ not in ("ThorAscend", "ThorGpu"):
            return model
        if isinstance(network, TrainOneStepCell):
            return ModelThor(network=network)
        return ModelThor(network=network, loss_fn=loss_fn, optimizer=optimizer, amp_level=amp_level,
                         loss_scale_manager=loss_scale_manager, keep_batchnorm_fp32=keep_batchnorm_fp32,
                         metrics=metrics)
