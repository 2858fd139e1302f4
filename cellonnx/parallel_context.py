"""``mindspore.set_auto_parallel_context`` and friends: how a distributed run splits its work.

cellonnx trains data-parallel: every rank holds the whole network, reads its own shard of the data, and the
gradients are all-reduced across ranks (:class:`cellonnx.nn.DistributedGradReducer`, picked up by
TrainOneStepCell and Model under ``ParallelMode.DATA_PARALLEL``). MindSpore's semi-auto, auto and pipeline
parallel modes (operator sharding planned by its graph compiler) are refused with an error that says so.
"""
from __future__ import annotations

import copy
from typing import Any

__all__ = ["ParallelMode", "get_auto_parallel_context", "reset_auto_parallel_context",
           "set_auto_parallel_context"]


class ParallelMode:
    """Parallel mode options, as MindSpore's: ``STAND_ALONE`` (one process; the default), ``DATA_PARALLEL``
    (the data split across ranks, gradients all-reduced), ``HYBRID_PARALLEL`` (data parallel plus model
    parallelism written by hand), ``SEMI_AUTO_PARALLEL`` and ``AUTO_PARALLEL`` (not available in cellonnx).

    ``MODE_LIST``: all the modes.

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.ParallelMode.DATA_PARALLEL)
        data_parallel
    """

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]  # noqa: RUF012


_NOT_HERE = ("needs MindSpore's graph compiler to shard operators across devices; cellonnx trains "
             "data-parallel only (parallel_mode='data_parallel', gradients all-reduced over MPI)")

_DEFAULTS: dict[str, Any] = {
    "device_num": 1, "global_rank": 0, "gradients_mean": False, "gradient_fp32_sync": True,
    "loss_repeated_mean": True, "parallel_mode": ParallelMode.STAND_ALONE,
    "search_mode": "recursive_programming", "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": False, "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "",
    "full_batch": False, "dataset_strategy": "data_parallel", "enable_parallel_optimizer": False,
    "parallel_optimizer_config": {}, "enable_alltoall": False, "all_reduce_fusion_config": [],
    "pipeline_stages": 1, "pipeline_result_broadcast": False, "pipeline_config": {},
    "comm_fusion": {"allreduce": {"mode": "auto", "config": None}}, "strategy_ckpt_config": {},
    "force_fp32_communication": False, "group_ckpt_save_file": "", "auto_pipeline": False,
    "dump_local_norm": False, "dump_local_norm_path": "", "dump_device_local_norm": False,
    "enable_micro_interleaved": False, "hccl_time_out": 600,
}
_context: dict[str, Any] = copy.deepcopy(_DEFAULTS)
_set_keys: set[str] = set()


def _check(key: str, value: Any) -> Any:
    name = "set_auto_parallel_context"
    if key == "parallel_mode":
        if value not in ParallelMode.MODE_LIST:
            raise ValueError(f"For '{name}', the argument 'parallel_mode' must be one of "
                             f"{ParallelMode.MODE_LIST}, but got {value!r}.")
        if value in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL):
            raise NotImplementedError(f"For '{name}', parallel_mode={value!r} {_NOT_HERE}")
    elif key == "device_num":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 4096:
            raise ValueError(f"For '{name}', the argument 'device_num' must be an int in [1, 4096], but got "
                             f"{value!r}.")
    elif key == "global_rank":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 4095:
            raise ValueError(f"For '{name}', the argument 'global_rank' must be an int in [0, 4095], but got "
                             f"{value!r}.")
    elif key in ("gradients_mean", "parameter_broadcast", "full_batch", "gradient_fp32_sync"):
        if not isinstance(value, bool):
            raise TypeError(f"For '{name}', the argument '{key}' must be a bool, but got "
                            f"{type(value).__name__}.")
    elif key == "pipeline_stages":
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"For '{name}', the argument 'pipeline_stages' must be a positive int, but got "
                             f"{value!r}.")
        if value > 1:
            raise NotImplementedError(f"For '{name}', pipeline_stages={value}: pipeline parallel {_NOT_HERE}")
    elif key == "enable_parallel_optimizer":
        if value:
            raise NotImplementedError(f"For '{name}', enable_parallel_optimizer=True (optimizer state "
                                      "sharded "
                                      f"across ranks) {_NOT_HERE}")
    elif key == "all_reduce_fusion_config":
        if not isinstance(value, (list, tuple)) or any(not isinstance(i, int) or i <= 0 for i in value) \
                or list(value) != sorted(set(value)):
            raise ValueError(f"For '{name}', the argument 'all_reduce_fusion_config' must be a list of "
                             f"increasing positive parameter indices, but got {value!r}.")
        value = list(value)
    elif key == "comm_fusion":
        if not isinstance(value, dict):
            raise TypeError(f"For '{name}', the argument 'comm_fusion' must be a dict, but got "
                            f"{type(value).__name__}.")
        merged = copy.deepcopy(_context["comm_fusion"])
        merged.update(value)
        value = merged
    elif key not in _DEFAULTS:
        raise ValueError(f"For '{name}', the keyword argument {key} is not recognized! Supported: "
                         f"{sorted(_DEFAULTS)}")
    return value


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Set the parallel configuration.

    Args:
        parallel_mode (str): ``"stand_alone"`` (default), ``"data_parallel"`` or ``"hybrid_parallel"``;
            ``"semi_auto_parallel"`` / ``"auto_parallel"`` raise NotImplementedError.
        gradients_mean (bool): divide the all-reduced gradients by the number of ranks. Default: ``False``.
        device_num (int): the number of ranks. Default: the world size once ``init()`` ran.
        global_rank (int): this process's rank (informational; MPI assigns ranks).
        parameter_broadcast (bool): broadcast rank 0's parameters at the start of training. Default: ``False``
            (cellonnx's DistributedGradReducer broadcasts them when it is built in any case).
        all_reduce_fusion_config (list[int]): parameter indices where the gradient buckets split.
        comm_fusion (dict): ``{"allreduce": {"mode": "auto" | "size" | "index", "config": ...}}``: "size"
            gives the bucket size in MB (default 64), "index" the split indices.
        kwargs: other MindSpore keys are kept and change nothing; ``pipeline_stages > 1`` and
            ``enable_parallel_optimizer=True`` raise NotImplementedError.

    Raises:
        ValueError / TypeError: an unknown key or a bad value.
        NotImplementedError: a semi-auto / auto / pipeline parallel setting.

    Examples:
        >>> import cellonnx as ms
        >>> ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        >>> print(ms.get_auto_parallel_context('gradients_mean'))
        True
        >>> ms.reset_auto_parallel_context()
    """
    checked = {key: _check(key, value) for key, value in kwargs.items()}
    _context.update(checked)
    _set_keys.update(checked)


def get_auto_parallel_context(attr_key: str) -> Any:
    """The value of one key of the parallel configuration (see :func:`set_auto_parallel_context`).

    Raises:
        ValueError: an unknown key.

    Examples:
        >>> import cellonnx as ms
        >>> print(ms.get_auto_parallel_context('parallel_mode'))
        stand_alone
    """
    if attr_key not in _context:
        raise ValueError(f"For 'get_auto_parallel_context', the argument {attr_key} is not recognized!")
    if attr_key == "device_num" and "device_num" not in _set_keys:
        return _world_size()
    if attr_key == "global_rank" and "global_rank" not in _set_keys:
        return _world_rank()
    return copy.deepcopy(_context[attr_key])


def reset_auto_parallel_context() -> None:
    """Every key back to its default (``parallel_mode='stand_alone'``, ``gradients_mean=False`` ...).

    Examples:
        >>> import cellonnx as ms
        >>> ms.set_auto_parallel_context(gradients_mean=True)
        >>> ms.reset_auto_parallel_context()
        >>> print(ms.get_auto_parallel_context('gradients_mean'))
        False
    """
    _context.clear()
    _context.update(copy.deepcopy(_DEFAULTS))
    _set_keys.clear()


_world = {"rank": 0, "size": 1}


def _on_init(rank: int, size: int) -> None:
    _world["rank"], _world["size"] = rank, size


def _world_size() -> int:
    return _world["size"]


def _world_rank() -> int:
    return _world["rank"]


def _get_parallel_mode() -> str:
    return str(_context["parallel_mode"])


def _is_data_parallel() -> bool:
    return _context["parallel_mode"] in (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL)


def _get_gradients_mean() -> bool:
    return bool(_context["gradients_mean"])


def _get_device_num() -> int:
    return int(get_auto_parallel_context("device_num"))


def _fusion_plan() -> tuple[str, Any]:
    """("index", split indices) or ("size", bucket bytes) for the gradient all-reduce."""
    if _context["all_reduce_fusion_config"]:
        return "index", list(_context["all_reduce_fusion_config"])
    conf = _context["comm_fusion"].get("allreduce", {}) or {}
    mode, value = conf.get("mode", "auto"), conf.get("config")
    if mode == "index" and value:
        return "index", list(value)
    if mode == "size" and value:
        return "size", int(float(value) * 2**20)
    return "size", 64 * 2**20
