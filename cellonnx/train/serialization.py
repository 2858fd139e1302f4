"""``mindspore.train.serialization``: checkpoints (save / load, into a network, asynchronously), conversion
between .ckpt and .safetensors, and model export / load, over cellonnx/checkpoint.py and cellonnx/graph.

Models are exported and loaded as ONNX, the format cellonnx runs (MindSpore's MINDIR and AIR are its own
compiler's formats).
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from cellonnx.checkpoint import load_checkpoint, load_param_into_net, save_checkpoint
from cellonnx.graph.export import export
from cellonnx.tensor import Tensor

__all__ = ["async_ckpt_thread_status", "ckpt_to_safetensors", "export", "load", "load_checkpoint",
           "load_checkpoint_async", "load_param_into_net", "safetensors_to_ckpt", "save_checkpoint"]


class ParamDictFuture:
    """What ``load_checkpoint_async`` returns: ``result()`` waits for the parameter dict."""

    def __init__(self, executor: ThreadPoolExecutor, future: Future) -> None:
        self.executor = executor
        self.param_dict_future = future

    def result(self) -> dict[str, Any]:
        param_dict = self.param_dict_future.result()
        self.executor.shutdown()
        return param_dict


def load_checkpoint_async(ckpt_file_name: str, net: Any = None, strict_load: bool = False,
                          filter_prefix: str | Iterable[str] | None = None, dec_key: bytes | None = None,
                          dec_mode: str = "AES-GCM", specify_prefix: str | Iterable[str] | None = None,
                          choice_func: Callable[[str], bool] | None = None) -> ParamDictFuture:
    """``load_checkpoint`` in a background thread, so that other work (building a Model, reading data) goes
    on meanwhile; ``result()`` of the returned future gives the parameter dict (and, with ``net``, the
    parameters are loaded into it by then). The format comes from the extension (.safetensors or .ckpt).

    Examples:
        >>> ms.save_checkpoint(nn.Dense(4, 2), "./dense.ckpt")
        >>> future = ms.load_checkpoint_async("./dense.ckpt")
        >>> param_dict = future.result()
        >>> sorted(param_dict)
        ['bias', 'weight']
    """
    fmt = "safetensors" if str(ckpt_file_name).endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=2)
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix, dec_key,
    dec_mode,
                             specify_prefix, choice_func, format=fmt)
    return ParamDictFuture(executor, future)


def async_ckpt_thread_status() -> bool:
    """Whether an asynchronous checkpoint save is running: cellonnx's ``save_checkpoint`` writes the file
    before it returns (``async_save`` is accepted), so none ever is.

    Examples:
        >>> from cellonnx.train import async_ckpt_thread_status
        >>> print(async_ckpt_thread_status())
        False
    """
    return False


def _convert(file_path: str, save_path: str | None, name_map: dict | None, file_name_regex: str | None,
             processes_num: int, src: str, dst: str, func: str) -> None:
    """MindSpore's conversion between .ckpt and .safetensors: one file, or every file of ``rank*``
    subdirectories of a directory (written in the same layout under ``save_path``)."""
    src_suffix, dst_suffix = f".{src}", f".{dst}"
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise ValueError(f"For {func}, the input path must be a valid path or file, but got {file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {func}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {func}, the type of 'name_map' must be a directory, but got "
                         f"'{type(name_map)}'")
    if not isinstance(processes_num, int) or processes_num < 1:
        raise ValueError(f"For {func}, 'processes_num' must be a positive int, but got {processes_num!r}")
    tasks: list[tuple[str, str]] = []
    if os.path.isdir(file_path):
        ranks = sorted(d for d in os.listdir(file_path)
                       if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d)))
        if not ranks:
            raise ValueError(f"For '{func}', no directories starting with 'rank' found in {file_path}.")
        for rank in ranks:
            src_dir = os.path.join(file_path, rank)
            dst_dir = os.path.join(save_path, rank) if save_path else src_dir
            for name in sorted(os.listdir(src_dir)):
                if name.endswith(src_suffix) and (file_name_regex is None
                                                  or re.search(file_name_regex, name)):
                    dst_name = name[:-len(src_suffix)] + dst_suffix
                    tasks.append((os.path.join(src_dir, name), os.path.join(dst_dir, dst_name)))
    else:
        if not file_path.endswith(src_suffix):
            raise ValueError(f"For {func}, the input file must be a {src_suffix} file, but got {file_path}")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For {func}, the input file does not match the regular expression.")
        name = os.path.basename(file_path)[:-len(src_suffix)] + dst_suffix
        tasks.append((file_path, os.path.join(save_path or os.path.dirname(file_path), name)))
    for src_file, dst_file in tasks:
        os.makedirs(os.path.dirname(dst_file) or ".", exist_ok=True)
        params = load_checkpoint(src_file, format=src)
        if name_map:
            params = {name_map.get(k, k): v for k, v in params.items()}
        save_checkpoint(params, dst_file, format=dst)


def ckpt_to_safetensors(file_path: str, save_path: str | None = None, name_map: dict | None = None,
                        file_name_regex: str | None = None, processes_num: int = 1) -> None:
    """Convert MindSpore .ckpt files to .safetensors: ``file_path`` is one .ckpt file, or a directory whose
    ``rank*`` subdirectories hold them. The new files go to ``save_path`` (a directory; beside the sources
    when None), parameters renamed by ``name_map``; ``file_name_regex`` selects the files. A CRC in the
    source is checked on reading and not carried over, as in MindSpore.

    Raises:
        ValueError: a missing path, a save_path that is not a directory, a source that is not a .ckpt file.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> from cellonnx.train import ckpt_to_safetensors
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> ms.save_checkpoint(net, 'dense.ckpt')
        >>> ckpt_to_safetensors('dense.ckpt', save_path='.')
        >>> print(ms.load_checkpoint('dense.safetensors', format='safetensors')['weight'].asnumpy())
        [[1. 1.]]
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "ckpt", "safetensors",
             "ckpt_to_safetensors")


def safetensors_to_ckpt(file_path: str, save_path: str | None = None, name_map: dict | None = None,
                        file_name_regex: str | None = None, processes_num: int = 1) -> None:
    """Convert .safetensors files to MindSpore .ckpt files (the reverse of ``ckpt_to_safetensors``).

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import nn
        >>> from cellonnx.train import safetensors_to_ckpt, ckpt_to_safetensors
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> ms.save_checkpoint(net, 'dense.safetensors', format='safetensors')
        >>> safetensors_to_ckpt('dense.safetensors', save_path='.')
        >>> print(ms.load_checkpoint('dense.ckpt')['weight'].asnumpy())
        [[1. 1.]]
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "safetensors", "ckpt",
             "safetensors_to_ckpt")


class LoadedGraph:
    """A model file loaded by ``load``: its ONNX model run by onnxruntime. Call it with Tensors (or give it to
    ``nn.GraphCell``) to get the outputs as Tensors.

    Attributes:
        model: the onnx.ModelProto.
        input_names / output_names: the graph's inputs and outputs.
    """

    def __init__(self, file_name: str) -> None:
        import onnx

        from cellonnx.converters.onnx_format import load_model

        self.file_name = file_name
        self.model: onnx.ModelProto = load_model(file_name)
        inits = {t.name for t in self.model.graph.initializer}
        self.input_names = [i.name for i in self.model.graph.input if i.name not in inits]
        self.output_names = [o.name for o in self.model.graph.output]
        self._session: Any = None

    @property
    def session(self) -> Any:
        from cellonnx import context
        from cellonnx.graph.runtime import Session

        target = context.get_context("device_target")
        if self._session is None or self._session.device_target != target:
            self._session = Session(self.file_name, target, context.get_context("device_id"))
        return self._session

    def __call__(self, *inputs: Any) -> Any:
        if len(inputs) != len(self.input_names):
            raise TypeError(f"{self.file_name} takes {len(self.input_names)} inputs {self.input_names}, "
                            f"got {len(inputs)}")
        feeds = {n: np.ascontiguousarray(t.asnumpy() if isinstance(t, Tensor) else np.asarray(t))
                 for n, t in zip(self.input_names, inputs)}
        outs = [Tensor(o) for o in self.session.run(feeds)]
        return outs[0] if len(outs) == 1 else tuple(outs)

    def __repr__(self) -> str:
        return f"LoadedGraph({self.file_name!r}, inputs={self.input_names}, outputs={self.output_names})"


def load(file_name: str, **kwargs: Any) -> LoadedGraph:
    """Load a model exported by ``export`` (an .onnx file) to run it: ``load("net.onnx")(x)``, or through
    ``nn.GraphCell``.

    Raises:
        ValueError: ``file_name`` is not a str, does not exist, or is a MindIR file (MindSpore's own format:
            export the network to ONNX instead).
        NotImplementedError: ``dec_key`` (decryption) or ``obf_func`` (obfuscation) given.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, nn
        >>> net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')
        >>> x = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> from cellonnx.train import load
        >>> path = ms.export(net, x, file_name='dense', file_format='ONNX')
        >>> graph = load(path)
        >>> print(graph(x))
        [[3.]]
    """
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    if kwargs.get("dec_key") is not None:
        raise NotImplementedError("load: dec_key (decrypting the model) is not supported by cellonnx")
    if not isinstance(file_name, (str, os.PathLike)):
        raise ValueError(f"For 'load', the argument 'file_name' must be string, but got {type(file_name)}.")
    file_name = os.fspath(file_name)
    if file_name.endswith(".mindir"):
        raise ValueError(f"For 'load', {file_name} is a MindIR file, MindSpore's own graph format, which "
                         "cellonnx does not run; export the network to ONNX (cellonnx.export) and load that")
    if not os.path.exists(file_name):
        raise ValueError(f"For 'load', the argument 'file_name' ({file_name}) does not exist, please check "
                         "whether the 'file_name' is correct.")
    return LoadedGraph(file_name)
