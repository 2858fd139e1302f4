"""Logging, as ``mindspore.log``: cellonnx logs through Python's ``logging`` under the "cellonnx" logger,
whose level MindSpore's ``GLOG_v`` environment variable sets when given (0 DEBUG, 1 INFO, 2 WARNING,
3 ERROR, 4 CRITICAL); ``get_level`` and ``get_log_config`` read it back in MindSpore's terms."""
from __future__ import annotations

import logging
import os
from typing import Any

__all__ = ["critical", "debug", "error", "get_level", "get_log_config", "info", "warning"]

_GLOG_TO_LEVEL = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
                  "4": logging.CRITICAL}
_LEVEL_TO_GLOG = {v: k for k, v in _GLOG_TO_LEVEL.items()}

logger = logging.getLogger("cellonnx")
if os.environ.get("GLOG_v", "").strip() in _GLOG_TO_LEVEL:
    logger.setLevel(_GLOG_TO_LEVEL[os.environ["GLOG_v"].strip()])


def get_level() -> str:
    """The logger's level as MindSpore's GLOG_v string: '2' for WARNING (the default).

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.get_level())
        2
    """
    level = logger.getEffectiveLevel()
    return _LEVEL_TO_GLOG.get(level, _LEVEL_TO_GLOG[max(lv for lv in _LEVEL_TO_GLOG if lv <= level)]
                              if level >= logging.DEBUG else "0")


def get_log_config() -> dict[str, Any]:
    """The logger's configuration under MindSpore's names: ``{'GLOG_v': '2', 'GLOG_logtostderr': '1'}``
    (messages go to the standard error through Python's logging).

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.get_log_config()['GLOG_v'])
        2
    """
    return {"GLOG_v": get_level(), "GLOG_logtostderr": "1"}


def debug(msg: str, *args: Any, **kwargs: Any) -> None:
    logger.debug(msg, *args, **kwargs)


def info(msg: str, *args: Any, **kwargs: Any) -> None:
    logger.info(msg, *args, **kwargs)


def warning(msg: str, *args: Any, **kwargs: Any) -> None:
    logger.warning(msg, *args, **kwargs)


def error(msg: str, *args: Any, **kwargs: Any) -> None:
    logger.error(msg, *args, **kwargs)


def critical(msg: str, *args: Any, **kwargs: Any) -> None:
    logger.critical(msg, *args, **kwargs)
