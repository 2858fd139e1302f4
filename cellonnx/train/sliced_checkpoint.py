"""MindSpore's tools for checkpoints saved in slices, as far as they apply without semi-auto parallel
strategies: ``merge_sliced_parameter`` (slices along axis 0, in rank order) and
``load_segmented_checkpoints`` (every .ckpt file of a directory into one parameter dict).

Merging by a sharding strategy (``strategy=`` here, ``transform_checkpoints``, ``load_distributed_checkpoint``
...) needs the strategy files MindSpore's semi-auto parallel compiler writes; cellonnx trains data-parallel
only, so those are listed in cellonnx/unsupported.py.
"""
from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from cellonnx.checkpoint import load_checkpoint
from cellonnx.tensor import Parameter, Tensor

__all__ = ["load_segmented_checkpoints", "merge_sliced_parameter"]


def merge_sliced_parameter(sliced_parameters: list[Parameter], strategy: dict | None = None) -> Parameter:
    """Merge the slices of one parameter, given in rank order, along axis 0.

    Args:
        sliced_parameters (list[Parameter]): the slices: one name, one rank, the same shape after axis 0.
        strategy (dict, optional): a semi-auto parallel sharding strategy; only None (concatenate along
            axis 0) is supported. Default: None.

    Returns:
        Parameter: the whole parameter, with the slices' name, ``requires_grad`` and ``layerwise_parallel``
        (bfloat16 slices merge to float32, as in MindSpore).

    Raises:
        TypeError: ``sliced_parameters`` is not a list of Parameters, or ``strategy`` is not a dict.
        ValueError: the list is empty, or the slices differ in name, rank or shape after axis 0.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, Parameter
        >>> from cellonnx.train import merge_sliced_parameter
        >>> a = Parameter(Tensor(np.array([[1.0, 2.0]]), ms.float32), name='w')
        >>> b = Parameter(Tensor(np.array([[3.0, 4.0]]), ms.float32), name='w')
        >>> merged = merge_sliced_parameter([a, b])
        >>> print(merged.name, merged.asnumpy())
        w [[1. 2.]
         [3. 4.]]
    """
    op = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"For '{op}', the argument 'sliced_parameters' should be list, but got "
                        f"{type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError(f"For '{op}', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError(f"For '{op}', the argument 'strategy' should be dict, but got {type(strategy)}.")
    first = sliced_parameters[0]
    if not isinstance(first, Parameter):
        raise TypeError(f"For '{op}', the element in 'sliced_parameters' should be 'Parameter', but got "
                        f"{type(first)} at index 0.")
    name, shape = first.name, tuple(first.shape)
    arrays = []
    for index, parameter in enumerate(sliced_parameters):
        if not isinstance(parameter, Parameter):
            raise TypeError(f"For '{op}', the element in 'sliced_parameters' should be 'Parameter', but got "
                            f"{type(parameter)} at index {index}.")
        got = tuple(parameter.shape)
        if parameter.name != name or len(got) != len(shape) or got[1:] != shape[1:]:
            raise ValueError(f"For '{op}', please make sure that the elements in 'slice_parameters' have "
                             "the same name, dimension length and shape except 0 axis. The name, dimension "
                             f"length, shape except 0 axis should be {name}, {len(shape)}, {shape[1:]}, but "
                             f"got name: {parameter.name}, dimension length: {len(got)}, shape except 0 "
                             f"axis: {got[1:]} at index {index}.")
        data = parameter.asnumpy()
        arrays.append(data.astype(np.float32) if data.dtype.name == "bfloat16" else data)
    if strategy:
        raise ValueError(f"For '{op}', merging by a sharding strategy needs MindSpore's semi-auto "
                         "parallel layouts, which cellonnx does not have; pass strategy=None to concatenate "
                         "the slices along axis 0.")
    return Parameter(Tensor(np.concatenate(arrays)), name, first.requires_grad,
                     getattr(first, "layerwise_parallel", False))


def load_segmented_checkpoints(ckpt_file_dir: str, net: Any = None, strict_load: bool = False,
                               filter_prefix: str | Iterable[str] | None = None, dec_key: bytes | None = None,
                               dec_mode: str = "AES-GCM", specify_prefix: str | Iterable[str] | None = None,
                               choice_func: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Load every ``*.ckpt`` file of ``ckpt_file_dir`` (a checkpoint saved in segments) into one parameter
    dict, each file as :func:`load_checkpoint` loads it (into ``net`` too when given).

    Raises:
        TypeError: ``ckpt_file_dir`` is not a str.
        ValueError: the directory does not exist.

    Examples:
        >>> import os
        >>> import cellonnx as ms
        >>> os.makedirs('parts', exist_ok=True)
        >>> ms.save_checkpoint([{'name': 'a', 'data': Tensor(np.ones(2), ms.float32)}], 'parts/0.ckpt')
        >>> ms.save_checkpoint([{'name': 'b', 'data': Tensor(np.zeros(1), ms.float32)}], 'parts/1.ckpt')
        >>> params = ms.load_segmented_checkpoints('parts')
        >>> print(sorted(params), params['a'])
        ['a', 'b'] Parameter (name=a, shape=(2,), dtype=Float32, requires_grad=True)
    """
    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The ckpt_file_dir: {ckpt_file_dir} doesn't exist. Or it's not a directory")
    parameters: dict[str, Any] = {}
    for path in sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt"))):
        parameters.update(load_checkpoint(path, net, strict_load, filter_prefix, dec_key, dec_mode,
                                          specify_prefix, choice_func))
    return parameters
