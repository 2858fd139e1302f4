"""Weights of zoo (or any) networks in and out of every checkpoint format, through cellonnx.converters.

Names from another framework are mapped with the converters' profiles, driven by ``layer_description(net)``
(parameter name -> layer kind, read from the cells that own the parameters).
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np
from cellonnx.converters import LoadReport, compare, convert_names, get_format, read, write

from cellonnx import nn

__all__ = ["layer_description", "load_weights", "save_weights", "source_profile"]

# format name -> the naming its files usually carry
_PROFILE_OF_FORMAT = {"mindspore": "mindspore", "torch": "torch", "mxnet": "mxnet"}
# what a MindSpore training checkpoint holds beside the network (optimizer state, step counters)
_TRAINING_STATE_PREFIXES = ("moments.", "moment1.", "moment2.", "accum.", "global_step", "learning_rate",
                            "momentum", "beta1_power", "beta2_power", "current_iterator_step",
                            "last_overflow_iterator_step", "epoch_num", "step_num", "scale_sense")


def _kind(cell: nn.Cell) -> Any:
    if isinstance(cell, nn.Dense):
        return "Dense"
    if isinstance(cell, nn.Conv2dTranspose):
        return "ConvTranspose"
    if isinstance(cell, (nn.Conv2d, nn.Conv1d)):
        return "Conv"
    if isinstance(cell, (nn.BatchNorm1d, nn.BatchNorm2d)):
        return "BatchNorm"
    if isinstance(cell, nn.LayerNorm):
        return "LayerNorm"
    if isinstance(cell, nn.GroupNorm):
        return {"kind": "GroupNorm", "num_groups": cell.num_groups, "num_channels": cell.num_channels}
    if isinstance(cell, nn.InstanceNorm2d):
        return "InstanceNorm"
    if isinstance(cell, nn.Embedding):
        return "Embedding"
    if isinstance(cell, nn.LSTM):
        return "LSTM"
    if isinstance(cell, nn.PReLU):
        return "PReLU"
    return None


def layer_description(net: nn.Cell) -> dict[str, Any]:
    """Parameter name -> layer kind for every parameter owned by a layer the converters know how to rename
    (Dense, Conv, BatchNorm, LayerNorm, GroupNorm, InstanceNorm, Embedding, LSTM, PReLU).

    Examples:
        >>> from cellonnx.models import LeNet5, layer_description
        >>> layer_description(LeNet5())["fc1.weight"]
        'Dense'
    """
    kinds: dict[int, Any] = {}
    for _, cell in net.cells_and_names():  # parents come first: the innermost known layer wins
        kind = _kind(cell)
        if kind is not None:
            for p in cell.get_parameters():
                kinds[id(p)] = kind
    return {p.name: kinds[id(p)] for _, p in net.parameters_and_names() if id(p) in kinds}


def source_profile(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The naming profile a checkpoint file most likely uses: 'torch' for .pth, 'mxnet' for .params,
    'mindspore' for .ckpt, 'cellonnx' otherwise (ONNX, safetensors, npz written by cellonnx).

    Examples:
        >>> from cellonnx import models
        >>> print(models.source_profile("resnet.pth"), models.source_profile("net.params"))
        torch mxnet
    """
    return _PROFILE_OF_FORMAT.get(get_format(path, format).name, "cellonnx")


def _is_training_state(name: str) -> bool:
    return name.startswith(_TRAINING_STATE_PREFIXES)


def load_weights(net: nn.Cell, path: str | os.PathLike[str], *, format: str | None = None,
                 source: str | None = None, strict: bool = True) -> LoadReport:
    """Load a checkpoint in any supported format into ``net``.

    Args:
        net: the network.
        path: .onnx, .ckpt, .pth/.pt/.bin, .params, .safetensors or .npz.
        format: the format when the extension does not tell it.
        source: naming profile of the file ('cellonnx', 'mindspore', 'torch', 'mxnet', 'mxnet1'). Default:
            from the format (see ``source_profile``).
        strict: raise when a parameter is missing, a tensor is left over or a shape differs; otherwise load
            what matches. A MindSpore training checkpoint's optimizer state is skipped either way.

    Returns:
        The LoadReport (loaded / missing / unexpected / mismatched names).

    Raises:
        ValueError: strict and the checkpoint does not fit (the message lists what and the nearest names).

    Examples:
        >>> from cellonnx.models import LeNet5, load_weights
        >>> ms.save_checkpoint(LeNet5(), "lenet.ckpt")
        >>> net = LeNet5()
        >>> report = load_weights(net, "lenet.ckpt")
        >>> print(report)
        loaded 8 tensors
    """
    tensors, _ = read(path, format)
    profile = source or source_profile(path, format)
    dropped: list[str] = []
    if profile != "cellonnx":
        mapped = convert_names(tensors, layer_description(net), profile, "cellonnx")
        tensors, dropped = mapped.tensors, mapped.dropped
    skipped = [n for n in tensors if _is_training_state(n)]
    tensors = {n: a for n, a in tensors.items() if n not in skipped}
    params = {p.name: p for _, p in net.parameters_and_names()}
    report = compare(tensors, {n: tuple(p.shape) for n, p in params.items()}, dropped=dropped + skipped)
    if strict and not report.ok:
        raise ValueError(f"load_weights: {os.fspath(path)} does not fit {type(net).__name__}: "
                         + "; ".join(report.lines()[1:]))
    for name in report.loaded:
        p = params[name]
        p.set_data(np.array(tensors[name], dtype=p.asnumpy().dtype, copy=True))
    return report


def save_weights(net: nn.Cell, path: str | os.PathLike[str], *, format: str | None = None,
                 target: str | None = None, **options: Any) -> str:
    """Write ``net``'s parameters to a checkpoint in any supported format.

    Args:
        net: the network.
        path: the file; its extension picks the format unless ``format`` is given.
        target: naming profile to write ('cellonnx' = 'mindspore', 'torch', 'mxnet', 'mxnet1'). Default: from
            the format, as ``source_profile`` reads it back.
        options: format writer options (``crc_check``, ``metadata`` ...).

    Returns:
        The path written.

    Examples:
        >>> from cellonnx import models
        >>> from cellonnx.converters import read
        >>> models.save_weights(models.lenet5(), "lenet.pth")  # PyTorch's names and layout
        'lenet.pth'
        >>> tensors, _ = read("lenet.pth")
        >>> print(list(tensors)[:2])
        ['conv1.weight', 'conv2.weight']
    """
    tensors = {p.name: p.asnumpy() for _, p in net.parameters_and_names()}
    profile = target or source_profile(path, format)
    if profile not in ("cellonnx", "mindspore"):
        tensors = convert_names(tensors, layer_description(net), "cellonnx", profile).tensors
    write(path, tensors, format, **options)
    return os.fspath(path)
