"""Execution context, as ``mindspore.context``: mode (GRAPH_MODE compiles top-level cell calls to ONNX and
runs them in onnxruntime; PYNATIVE_MODE runs eagerly), device_target and device_id, and MindSpore's other
keys.

A device target this process cannot run is refused when it is set, in either mode, as MindSpore refuses a
device its build lacks: "GPU" needs onnxruntime-gpu with a CUDA device (compiled graphs then run there; eager
ops compute in NumPy on the CPU), "Ascend" is never available.
"""
from __future__ import annotations

import re
from typing import Any

GRAPH_MODE = 0
PYNATIVE_MODE = 1
# jit_syntax_level values
STRICT = 0
COMPATIBLE = 1
LAX = 2

DEVICE_TARGETS = ("CPU", "GPU", "Ascend", "auto")

mode = PYNATIVE_MODE
device_target = "CPU"
device_id = 0
_extra: dict[str, Any] = {"opset": None, "intra_op_num_threads": 0, "inter_op_num_threads": 0,
                          "deterministic": "OFF", "jit_syntax_level": LAX, "cuda_graph": True}

__all__ = ["COMPATIBLE", "GRAPH_MODE", "LAX", "PYNATIVE_MODE", "STRICT", "get_context", "set_context"]


def _check_device(target: str) -> None:
    """Refuse a target this process cannot run, naming what is missing."""
    if target == "Ascend":
        raise RuntimeError("Unsupported device target Ascend. This process only supports one of "
                           f"{_available_targets()}: cellonnx has no Ascend backend")
    if target == "GPU" and "GPU" not in _available_targets():
        import onnxruntime as ort

        raise RuntimeError(f"Unsupported device target GPU. This process only supports one of "
                           f"{_available_targets()}: device_target='GPU' needs onnxruntime-gpu with CUDA "
                           "(pip install 'cellonnx[gpu]') and a CUDA device; this onnxruntime offers "
                           + ", ".join(ort.get_available_providers()))


def _available_targets() -> list[str]:
    import onnxruntime as ort

    return ["CPU", "GPU"] if "CUDAExecutionProvider" in ort.get_available_providers() else ["CPU"]


def set_context(**kwargs: Any) -> None:
    """Set ``mode``, ``device_target`` ("CPU", "GPU", "Ascend" or "auto"), ``device_id``,
    ``deterministic`` ("ON" / "OFF"), ``jit_syntax_level`` (STRICT, COMPATIBLE, LAX), cellonnx's ``opset``,
    ``intra_op_num_threads`` and ``inter_op_num_threads``, ``gpu_config`` (TF32), ``max_device_memory``
    (``"3.5GB"``: the CUDA execution provider's memory limit for sessions created afterwards) and cellonnx's
    ``cuda_graph`` (True by default: a compiled training step on CUDA replays as CUDA graphs). MindSpore keys
    that only steer its own compiler or profiler (``save_graphs``, ``max_call_depth``, ``jit_config`` ...) are
    kept and change nothing; any other key is an error naming it.

    Raises:
        ValueError: an unknown key or value.
        RuntimeError: a device target this process cannot run (see the module docstring).

    Examples:
        >>> import cellonnx as ms
        >>> ms.set_context(mode=ms.PYNATIVE_MODE)
        >>> ms.get_context("mode") == ms.PYNATIVE_MODE
        True
    """
    global mode, device_target, device_id
    for key, value in kwargs.items():
        if key == "mode":
            if value not in (GRAPH_MODE, PYNATIVE_MODE):
                raise ValueError("For 'context.set_context', the argument 'mode' should be "
                                 f"context.GRAPH_MODE (0) or context.PYNATIVE_MODE (1), but got {value!r}.")
            mode = value
        elif key == "device_target":
            if value not in DEVICE_TARGETS:
                raise ValueError(f"For 'context.set_context', the argument 'device_target' must be one of "
                                 f"{list(DEVICE_TARGETS)}, but got {value}.")
            _check_device(value)
            device_target = value
        elif key == "device_id":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError("For 'context.set_context', the argument 'device_id' must be a "
                                 f"non-negative int, but got {value!r}.")
            device_id = int(value)
        elif key == "deterministic":
            if value not in ("ON", "OFF"):
                raise ValueError(f"For 'context.set_context', the argument 'deterministic' must be 'ON' or "
                                 f"'OFF', but got {value!r}.")
            _extra[key] = value
        elif key == "jit_syntax_level":
            if value not in (STRICT, COMPATIBLE, LAX):
                raise ValueError("For 'context.set_context', the argument 'jit_syntax_level' must be STRICT, "
                                 f"COMPATIBLE or LAX, but got {value!r}.")
            _extra[key] = value
        elif key == "cuda_graph":
            if not isinstance(value, bool):
                raise ValueError("For 'context.set_context', the argument 'cuda_graph' must be a bool, "
                                 f"but got {value!r}.")
            _extra[key] = value
        elif key == "gpu_config":
            _extra[key] = _gpu_config(value)
        elif key == "max_device_memory":
            _extra[key] = _gigabytes(key, value)
        elif key in _extra or key in _ACCEPTED:
            _extra[key] = value
        else:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! "
                             f"Supported: mode, device_target, device_id, {', '.join(sorted(_extra))} and "
                             f"MindSpore's compiler settings {sorted(_ACCEPTED)}")


# MindSpore's gpu_config keys and defaults; the cuDNN algorithm choices are kept and change nothing
# (onnxruntime searches convolution algorithms itself)
GPU_CONFIG_DEFAULTS: dict[str, Any] = {"conv_fprop_algo": "normal", "conv_dgrad_algo": "normal",
                                       "conv_wgrad_algo": "normal", "conv_allow_tf32": True,
                                       "matmul_allow_tf32": False}


def _gpu_config(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("For 'context.set_context', the argument 'gpu_config' must be a dict, "
                        f"but got {value!r}.")
    merged = dict(gpu_config())
    for key, item in value.items():
        if key not in GPU_CONFIG_DEFAULTS:
            raise ValueError(f"For 'context.set_context', the key {key!r} of 'gpu_config' is not recognized; "
                             f"supported: {sorted(GPU_CONFIG_DEFAULTS)}")
        if key.endswith("_tf32") and not isinstance(item, bool):
            raise TypeError(f"For 'context.set_context', gpu_config[{key!r}] must be a bool, "
                            f"but got {item!r}.")
        merged[key] = item
    return merged


_GIGABYTES = re.compile(r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB")  # MindSpore's pattern


def _gigabytes(key: str, value: Any) -> float:
    if not isinstance(value, str):
        raise TypeError(f"The parameter {key!r} must be <class 'str'>, but got {type(value)}")
    if not _GIGABYTES.fullmatch(value):
        raise ValueError(f"For 'context.set_context', the argument {key!r} should be in correct format! "
                         "It must be a string ending with 'GB', in addition to that, it must contain only "
                         f"numbers or decimal points, such as \"5GB\" or \"3.5GB\", but got {value!r}.")
    size = float(value[:-2])
    if size == 0:
        raise ValueError(f"For 'context.set_context', the argument {key!r} should not be \"0GB\".")
    return size


def gpu_config() -> dict[str, Any]:
    """MindSpore's gpu_config with its defaults filled in."""
    return {**GPU_CONFIG_DEFAULTS, **_extra.get("gpu_config", {})}


def allow_tf32() -> bool:
    """Whether CUDA graphs may compute float32 convolutions and matmuls in TF32. onnxruntime has one switch
    for cuDNN and cuBLAS together, so TF32 is used only where both gpu_config flags allow it (MindSpore's
    defaults allow it for convolutions alone: float32 precision by default)."""
    config = gpu_config()
    return bool(config["conv_allow_tf32"] and config["matmul_allow_tf32"])


def get_context(attr_key: str) -> Any:
    """The value of one context key (see ``set_context``).

    Raises:
        ValueError: an unknown key.

    Examples:
        >>> import cellonnx as ms
        >>> ms.set_context(mode=ms.PYNATIVE_MODE)
        >>> ms.get_context("mode")
        1
    """
    if attr_key == "mode":
        return mode
    if attr_key == "device_target":
        return device_target
    if attr_key == "device_id":
        return device_id
    if attr_key == "gpu_config":
        return gpu_config()
    if attr_key in _extra:
        return _extra[attr_key]
    if attr_key in _ACCEPTED:
        return _DEFAULTS.get(attr_key)
    raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized!")


# MindSpore keys that only steer its own compiler, memory pools or profiler, with MindSpore's defaults
DEFAULT_MAX_DEVICE_MEMORY = 1024.0  # GB: MindSpore's "no limit but the device's"
_DEFAULTS: dict[str, Any] = {
    "save_graphs": 0, "save_graphs_path": ".", "max_call_depth": 1000, "jit_config": {},
    "enable_graph_kernel": False, "max_device_memory": DEFAULT_MAX_DEVICE_MEMORY,
    "pynative_synchronize": False, "jit_level": "",
    "memory_optimize_level": 0, "runtime_num_threads": 2, "graph_kernel_flags": "",
    "enable_compile_cache": False, "compile_cache_path": "", "inter_op_parallel_num": 0, "debug_level": 0,
    "mempool_block_size": "1GB", "print_file_path": "", "enable_reduce_precision": True, "check_bprop": False,
    "variable_memory_max_size": "", "aoe_tune_mode": "", "aoe_config": {}, "ascend_config": {},
    "gpu_config": {}, "env_config_path": ""}
_ACCEPTED = frozenset(_DEFAULTS)
