"""``mx.contrib.tensorboard``: LogMetricsCallback, a Module callback that writes the evaluation metric's
values as TensorBoard scalars through mxboard's SummaryWriter."""
from __future__ import annotations

from typing import Any

__all__ = ["LogMetricsCallback"]


class LogMetricsCallback:
    """Write the metric values of each callback call as TensorBoard scalars, one per metric name, at the
    step of the call's epoch (``mxboard.SummaryWriter(logging_dir).add_scalar``).

    Args:
        logging_dir (str): the event file directory (``tensorboard --logdir`` shows it).
        prefix (str | None): put before each metric name as ``'<prefix>-<name>'`` (to show a train and an
            eval curve of one metric in one plot). Default: None.

    Raises:
        ImportError: mxboard is not installed (``pip install mxboard``).

    Examples:
        >>> from types import SimpleNamespace
        >>> import cellonnx.mxnet as mx
        >>> from cellonnx.mxnet.contrib.tensorboard import LogMetricsCallback
        >>> class Writer:  # stands in for mxboard.SummaryWriter
        ...     def add_scalar(self, name, value, global_step):
        ...         print(name, value, global_step)
        >>> callback = LogMetricsCallback.__new__(LogMetricsCallback)
        >>> callback.prefix, callback.summary_writer = 'train', Writer()
        >>> metric = mx.metric.Accuracy()
        >>> metric.update([mx.nd.array([1, 0])], [mx.nd.array([[0.2, 0.8], [0.3, 0.7]])])
        >>> callback(SimpleNamespace(epoch=3, eval_metric=metric))
        train-accuracy 0.5 3
    """

    def __init__(self, logging_dir: str, prefix: str | None = None) -> None:
        self.prefix = prefix
        try:
            from mxboard import SummaryWriter
        except ImportError as error:
            raise ImportError("LogMetricsCallback writes TensorBoard events with mxboard's SummaryWriter; "
                              "install it with `pip install mxboard`") from error
        self.summary_writer = SummaryWriter(logging_dir)

    def __call__(self, param: Any) -> None:
        """Log ``param.eval_metric``'s values at step ``param.epoch`` (nothing without a metric)."""
        if param.eval_metric is None:
            return
        for name, value in param.eval_metric.get_name_value():
            if self.prefix is not None:
                name = f"{self.prefix}-{name}"
            self.summary_writer.add_scalar(name, value, global_step=param.epoch)
