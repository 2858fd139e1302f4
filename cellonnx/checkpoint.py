"""MindSpore's checkpoint API: save_checkpoint, load_checkpoint and load_param_into_net, over every format of
cellonnx.converters (the format comes from the file's extension or ``format=``).

Semantics follow mindspore/train/serialization.py of MindSpore 2.10: what is saved for a Cell, a list or a dict,
the append_dict values (numbers become scalar tensors, strings come back as str), the prefix / choice filters, the
(param_not_load, ckpt_not_load) lists, the retry with a common name prefix when strict_load is False, float <-> float
and int <-> int casts, and the error texts. Structure-driven loading across frameworks is in checkpoint_mapping.py.
"""
from __future__ import annotations

import logging
import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.converters import CheckpointError, Format, get_format, mindspore_format, read, write
from cellonnx.converters.mindspore_format import CRC_MARK, TRAILER_LEN
from cellonnx.converters.safetensors_format import CRC_KEY
from cellonnx.tensor import Parameter, Tensor

__all__ = ["load_checkpoint", "load_param_into_net", "save_checkpoint"]

logger = logging.getLogger("cellonnx")

# Formats whose metadata is a free-form {str: str} annotation of the file: append_dict strings are stored there
# under this prefix, so that other annotations (an exported model's metadata_props, safetensors' "format") are not
# mistaken for them. MindSpore .ckpt stores strings as entries of their own; torch files keep them in the dict.
APPEND_PREFIX = "append_dict."
_MS_FORMAT_NAMES = {"ckpt": "mindspore"}
_MS_SUFFIX = {"mindspore": "ckpt", "safetensors": "safetensors"}  # MindSpore's own formats
_FLOAT = {"Float16", "Float32", "Float64", "BFloat16"}
_INT = {"Int8", "Int16", "Int32", "Int64"}


# ---------------------------------------------------------------- save
def save_checkpoint(save_obj: Any, ckpt_file_name: str | os.PathLike[str], integrated_save: bool = True,
                    async_save: bool | str = False, append_dict: dict[str, Any] | None = None,
                    enc_key: bytes | None = None, enc_mode: str = "AES-GCM",
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False,
                    format: str | None = None, **kwargs: Any) -> None:
    """Save parameters to a checkpoint file, as ``mindspore.save_checkpoint``.

    Args:
        save_obj: a Cell (its parameters under their names), a list of Parameters or of
            ``{"name": str, "data": Tensor}`` dicts, or a dict name -> Parameter / Tensor / ndarray / str (e.g.
            what load_checkpoint returned).
        ckpt_file_name: the file; overwritten atomically (written beside it, then renamed). The format comes from
            the extension (.ckpt MindSpore, .onnx ONNX initializers, .safetensors, .npz, .pt/.pth/.bin PyTorch,
            .params MXNet); a name with none of them gets ".ckpt" appended unless it ends with "ckpt", as
            MindSpore does (a name ending "_ckpt" is kept as it is).
        integrated_save: MindSpore's parallel-merge flag; checked, no effect here (one device).
        async_save: True, "thread" or "process" in MindSpore. Accepted and checked, but the file is written before
            this returns: MindSpore documents asynchronous saving as a timing choice only.
        append_dict: extra values saved after the parameters: int -> Int64, float -> Float32 and bool -> Bool
            scalars, Parameter / Tensor as they are, str as a string entry (MXNet .params cannot hold strings).
        enc_key, enc_mode: encryption; not supported (enc_key other than None raises NotImplementedError).
        choice_func: called with each parameter name; only names for which it returns True are saved (append_dict
            is not filtered).
        crc_check: add a CRC32 (MindSpore .ckpt trailer, safetensors "crc_num" metadata).
        format: "ckpt" / "safetensors" as in MindSpore, or any cellonnx.converters format name ("onnx", "npz",
            "torch", "mxnet"...); a name without that format's extension gets it appended.
        kwargs: MindSpore's ``incremental`` (MapParameter; True raises NotImplementedError), ``global_step_num``
            (ignored), ``remove_redundancy`` (recorded in safetensors metadata), and the format's writer options
            (``external_data`` for ONNX, ``version`` for MXNet).

    Raises:
        TypeError: save_obj, append_dict, async_save or a flag of the wrong type (MindSpore's messages).
        IsADirectoryError: ckpt_file_name is a directory.

    Examples:
        >>> from cellonnx.models import LeNet5
        >>> net = LeNet5()
        >>> ms.save_checkpoint(net, "./lenet_conv.ckpt", choice_func=lambda x: x.startswith("conv"))
        >>> ms.save_checkpoint(net, "./lenet.safetensors")
        >>> sorted(ms.load_checkpoint("./lenet_conv.ckpt"))
        ['conv1.weight', 'conv2.weight']
    """
    fmt, path = _save_target(save_obj, ckpt_file_name, format)
    _check_type("save_checkpoint", "integrated_save", integrated_save, bool)
    _check_async_save(async_save)
    _check_append_dict(append_dict)
    _check_type("save_checkpoint", "enc_key", enc_key, (type(None), bytes))
    _check_type("save_checkpoint", "enc_mode", enc_mode, str)
    _check_type("save_checkpoint", "crc_check", crc_check, bool)
    if enc_key is not None:
        raise NotImplementedError(f"save_checkpoint: enc_key ({enc_mode} encryption of the checkpoint) is not "
                                  "supported by cellonnx; save unencrypted and protect the file by other means")
    options = _writer_options(fmt, kwargs)
    entries = _entries_to_save(save_obj, choice_func)
    for key, value in (append_dict or {}).items():
        entries[key] = value if isinstance(value, str) else _append_value(value)
    if fmt.name == "mindspore":  # string entries in their place among the tensors, as MindSpore writes them
        mindspore_format.write_entries(path, entries, crc_check=crc_check)
        return
    tensors = {k: v for k, v in entries.items() if not isinstance(v, str)}
    strings = {k: v for k, v in entries.items() if isinstance(v, str)}
    metadata = _strings_to_metadata(fmt, path, strings)
    if fmt.name == "safetensors" and kwargs.get("remove_redundancy") is not None:
        metadata["remove_redundancy"] = str(kwargs["remove_redundancy"])
    write(path, tensors, fmt.name, metadata=metadata or None, crc_check=crc_check, **options)


def _save_target(save_obj: Any, name: Any, format: str | None) -> tuple[Format, str]:
    from cellonnx.nn import Cell

    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError("For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, "
                        f"but got {type(save_obj)}.")
    if not isinstance(name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', the parameter {name} for checkpoint file name is invalid,"
                        f"'ckpt_file_name' must be string, but got {type(name)}.")
    path = os.path.realpath(os.fspath(name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {path} is a directory, "
                                "it must be a file name.")
    if format is not None:
        fmt = get_format(format=_MS_FORMAT_NAMES.get(format, format))
    else:
        try:
            fmt = get_format(path)
        except ValueError:
            fmt = get_format(format="mindspore")
    bare = _MS_SUFFIX.get(fmt.name)
    if bare is not None:
        if not path.endswith(bare):  # MindSpore's test: a bare suffix, so "./state_ckpt" stays as it is
            path += "." + bare
    elif Path(path).suffix.lower() not in fmt.extensions:
        path += fmt.extensions[0]
    return fmt, path


def _writer_options(fmt: Format, kwargs: dict[str, Any]) -> dict[str, Any]:
    options = dict(kwargs)
    if options.pop("incremental", False):
        raise NotImplementedError("save_checkpoint: incremental=True saves MapParameter increments, which cellonnx "
                                  "does not have")
    options.pop("global_step_num", None)  # MindSpore passes it to the AITurbo backend only
    _check_type("save_checkpoint", "remove_redundancy", options.pop("remove_redundancy", None), (type(None), bool))
    unknown = sorted(set(options) - set(fmt.write_options))
    if unknown:
        raise TypeError(f"save_checkpoint() got unexpected keyword arguments {unknown}; the {fmt.name} writer takes "
                        f"{list(fmt.write_options) or 'none'}")
    return options


def _entries_to_save(save_obj: Any, choice_func: Callable[[str], bool] | None) -> dict[str, Any]:
    from cellonnx.nn import Cell

    def chosen(name: str) -> bool:
        return choice_func is None or bool(choice_func(name))

    out: dict[str, Any] = OrderedDict()
    if isinstance(save_obj, Cell):
        for _, param in save_obj.parameters_and_names():
            if chosen(param.name):
                out[param.name] = _array(param)
    elif isinstance(save_obj, list):
        if save_obj and isinstance(save_obj[0], dict):
            for item in save_obj:
                if not (isinstance(item, dict) and "name" in item and "data" in item):
                    raise TypeError("For save_checkpoint, save_obj should be a list of dict items, and the dict "
                                    f"should have key values 'name' and 'value', but got {type(item)} and {item}.")
                if not isinstance(item["name"], str):
                    raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the name in dict "
                                    f"should be string, but got {type(item['name'])}.")
                if not isinstance(item["data"], Tensor):
                    raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the data in dict "
                                    f"should be parameter, but got {type(item['data'])}.")
                if chosen(item["name"]):
                    out[item["name"]] = _array(item["data"])
        else:
            for param in save_obj:
                if not isinstance(param, Parameter):
                    raise TypeError("For save_checkpoint, when save_obj is made up by list of Parameter,"
                                    f"the param should be parameter, but got {type(param)}")
                if chosen(param.name):
                    out[param.name] = _array(param)
    else:
        for key, value in save_obj.items():
            if not isinstance(key, str) or not isinstance(value, (Tensor, np.ndarray, np.generic, str)):
                raise TypeError("For save_checkpoint, when save_obj is made up by dict, the key should be str and"
                                f"value should be Parameter, but got the type of key is {type(key)} and"
                                f"the type of value is {type(value)}")
            if chosen(key):
                out[key] = value if isinstance(value, str) else _array(value)
    return out


def _array(value: Any) -> np.ndarray:
    return value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)


def _append_value(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.asnumpy()
    # MindSpore saves Tensor(value): Python bool -> Bool, int -> Int64, float -> Float32
    kind = np.bool_ if isinstance(value, bool) else np.int64 if isinstance(value, int) else np.float32
    return np.asarray(value, kind)


def _strings_to_metadata(fmt: Format, path: str, strings: Mapping[str, str]) -> dict[str, Any]:
    if not strings:
        return {}
    if fmt.name in ("mindspore", "torch"):
        return dict(strings)
    if fmt.name == "mxnet":
        raise CheckpointError(path, f"MXNet .params files hold only arrays; cannot save the string value(s) "
                                    f"{sorted(strings)} (use .ckpt, .safetensors, .npz, .onnx or .pt for them)")
    return {APPEND_PREFIX + k: v for k, v in strings.items()}


def _check_type(func: str, name: str, value: Any, kinds: type | tuple[type, ...]) -> None:
    if not isinstance(value, kinds):
        expected = kinds.__name__ if isinstance(kinds, type) else " or ".join(k.__name__ for k in kinds)
        raise TypeError(f"For '{func}', the '{name}' must be {expected}, but got {type(value).__name__}.")


def _check_async_save(async_save: Any) -> None:
    if not isinstance(async_save, (bool, str)):
        raise TypeError("For 'save_checkpoint', the parameter 'async_save' must be bool or str, "
                        f"but got {type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError("For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread',"
                         f"but got {async_save}.")


def _check_append_dict(append_dict: Any) -> None:
    if append_dict is None:
        return
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got {type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError("For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: int, "
                            f"float, bool or Generator, but got key: {type(key)}, value: {type(value)}")


# ---------------------------------------------------------------- load
def load_checkpoint(ckpt_file_name: str | os.PathLike[str], net: Any = None, strict_load: bool = False,
                    filter_prefix: str | Iterable[str] | None = None, dec_key: bytes | None = None,
                    dec_mode: str = "AES-GCM", specify_prefix: str | Iterable[str] | None = None,
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False,
                    remove_redundancy: bool = False, format: str | None = "ckpt") -> dict[str, Parameter | str]:
    """Load a checkpoint file into a dict name -> Parameter (str for string entries), as
    ``mindspore.load_checkpoint``; with ``net`` also load it into the network (``load_param_into_net``).

    Any format cellonnx reads works: ONNX (any model: its initializers), MindSpore .ckpt, safetensors, .npz,
    PyTorch .pt/.pth/.bin (read without torch, nested dicts flattened to dotted names), MXNet .params. Names are
    taken as they are; for another framework's names and layouts use ``load_checkpoint_into``.

    Args:
        ckpt_file_name: the file.
        net: a Cell to load the parameters into. Default: None.
        strict_load: passed to load_param_into_net. Default: False.
        filter_prefix: (deprecated in MindSpore, see choice_func) names starting with one of these are skipped.
        dec_key, dec_mode: decryption; not supported (dec_key other than None raises NotImplementedError).
        specify_prefix: (deprecated, see choice_func) only names starting with one of these are loaded.
        choice_func: called with each name; only names for which it returns True are loaded. Ignored when
            filter_prefix or specify_prefix is given, as in MindSpore.
        crc_check: verify the CRC (.ckpt trailer, safetensors "crc_num"); a file without one loads with a warning,
            as in MindSpore. A CRC present in a .ckpt is always verified.
        remove_redundancy: MindSpore's parallel deduplication; True needs a parallel setting cellonnx lacks.
        format: "ckpt" / "safetensors" or any cellonnx.converters format name. The default "ckpt" (as in
            MindSpore) reads a file whose extension another format claims (.safetensors, .onnx, .npz ...) as
            that format, and any other file as a MindSpore .ckpt; None goes by the extension alone.

    Returns:
        dict: name -> Parameter (named after its key); string entries (append_dict str values) as str. Order: the
        file's (sorted names for safetensors, as MindSpore).

    Raises:
        ValueError: the file is missing, damaged (CheckpointError, a ValueError) or nothing is left after filtering.
        TypeError: a prefix argument of the wrong type.

    Examples:
        >>> from cellonnx.models import LeNet5
        >>> ms.save_checkpoint(LeNet5(), "./lenet.ckpt")
        >>> param_dict = ms.load_checkpoint("./lenet.ckpt", choice_func=lambda x: x.startswith("conv2"))
        >>> param_dict["conv2.weight"]
        Parameter (name=conv2.weight, shape=(16, 6, 5, 5), dtype=Float32, requires_grad=True)
    """
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    _check_type("load_checkpoint", "dec_key", dec_key, (type(None), bytes))
    _check_type("load_checkpoint", "dec_mode", dec_mode, str)
    _check_type("load_checkpoint", "crc_check", crc_check, bool)
    _check_type("load_checkpoint", "remove_redundancy", remove_redundancy, bool)
    if dec_key is not None:
        raise NotImplementedError(f"load_checkpoint: dec_key ({dec_mode} decryption) is not supported by cellonnx; "
                                  "decrypt the file with MindSpore first")
    fmt, path = load_target(ckpt_file_name, format)
    entries = read_entries(path, fmt, crc_check)
    if specify_prefix:
        logger.warning("For load_checkpoint, this parameter `specity_prefix` will be deprecated, "
                       "please use `choice_func` instead.")
    if filter_prefix:
        logger.warning("For load_checkpoint, this parameter `filter_prefix` will be deprecated, "
                       "please use `choice_func` instead.")
    use_choice_func = specify_prefix is None and filter_prefix is None and choice_func is not None
    parameter_dict: dict[str, Parameter | str] = {}
    for name, value in entries.items():
        if not _whether_load_param(specify_prefix, filter_prefix, name):
            continue
        if use_choice_func and not choice_func(name):  # type: ignore[misc]
            continue
        parameter_dict[name] = value if isinstance(value, str) else Parameter(np.asarray(value), name=name)
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                         "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


def load_target(name: Any, format: str | None) -> tuple[Format, str]:
    """The format and real path of a checkpoint to read (MindSpore's checks and messages)."""
    if not isinstance(name, (str, os.PathLike)):
        raise TypeError(f"For 'load_checkpoint', the argument 'ckpt_file_name' must be string, but got {type(name)}.")
    path = os.path.realpath(os.fspath(name))
    if format == "ckpt":
        try:
            fmt = get_format(path)
        except ValueError:
            fmt = get_format(format="mindspore")
    else:
        fmt = get_format(path, _MS_FORMAT_NAMES.get(format, format) if format else None)
    if not os.path.exists(path):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {path} does not exist, please check "
                         "whether the 'ckpt_file_name' is correct.")
    return fmt, path


def read_entries(path: str, fmt: Format, crc_check: bool = False) -> dict[str, np.ndarray | str]:
    """Every entry of a checkpoint as an array, or a str for string entries (append_dict values), in the
    file's order."""
    if fmt.name == "mindspore":  # string entries stay in their place among the tensors
        if not Path(path).is_file():
            raise FileNotFoundError(f"{path}: no such checkpoint file")
        entries = mindspore_format.read_entries(path)
        if crc_check:
            _check_crc(path, fmt, {})
        return entries
    tensors, metadata = read(path, fmt.name)
    if crc_check:
        _check_crc(path, fmt, metadata)
    entries = dict(tensors)
    if fmt.name == "torch":
        for key, value in metadata.items():
            if isinstance(value, str):
                entries[key] = value
            elif isinstance(value, (bool, int, float)) and not isinstance(value, complex):
                entries[key] = _append_value(value)  # plain numbers of the dict, as MindSpore's append_dict
    else:
        entries.update({k[len(APPEND_PREFIX):]: v for k, v in metadata.items()
                        if isinstance(k, str) and k.startswith(APPEND_PREFIX) and isinstance(v, str)})
    if fmt.name == "safetensors":
        entries = {k: entries[k] for k in sorted(entries)}
    return entries


def _check_crc(path: str, fmt: Format, metadata: Mapping[str, Any]) -> None:
    if fmt.name == "mindspore":
        with open(path, "rb") as f:
            f.seek(max(os.fstat(f.fileno()).st_size - TRAILER_LEN, 0))
            has_crc = f.read(len(CRC_MARK)) == CRC_MARK
        if not has_crc:  # a trailer that is present was already verified by the reader
            logger.warning("For 'load_checkpoint', the ckpt file do not contain the crc code, please check the file.")
    elif fmt.name == "safetensors":
        if CRC_KEY not in metadata:
            logger.warning("For 'load_checkpoint', the safetensors file do not contain the crc code, "
                           "please check the file.")
        else:
            read(path, fmt.name, crc_check=True)
    else:
        raise ValueError(f"For 'load_checkpoint', crc_check is supported for MindSpore .ckpt and safetensors files, "
                         f"not {fmt.name}")


def _check_prefix(prefix: Any) -> tuple[str, ...] | None:
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError("For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                        f"list[string] or tuple[string], but got {type(prefix)}.")
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty when"
                         " 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError("For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, "
                            f"the element in it must be string, but got {type(pre)} at index {index}.")
        if pre == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' "
                             "can't include ''.")
    return tuple(prefix)


def _whether_load_param(specify_prefix: tuple[str, ...] | None, filter_prefix: tuple[str, ...] | None,
                        name: str) -> bool:
    load = True
    if specify_prefix:
        load = any(name.startswith(p) for p in specify_prefix)
    if filter_prefix and any(name.startswith(p) for p in filter_prefix):
        load = False
    return load


# ---------------------------------------------------------------- into a net
def load_param_into_net(net: Any, parameter_dict: dict[str, Any], strict_load: bool = False,
                        remove_redundancy: bool = False) -> tuple[list[str], list[str]]:
    """Load parameters into the network, as ``mindspore.load_param_into_net``.

    Each network parameter whose name is a key of ``parameter_dict`` takes that value through ``set_data``, so
    compiled graphs of the network use it on their next call. Without ``strict_load``, parameters left over are
    retried with the prefix that makes some checkpoint name end with a missing parameter's name (a checkpoint of
    ``backbone.fc.weight`` loads into ``fc.weight``); the prefixed names stay in ckpt_not_load, as in MindSpore.

    Args:
        net: the Cell.
        parameter_dict: name -> Parameter (str values, such as append_dict strings, are skipped).
        strict_load: no prefix retry, and no dtype casts. Without it float16/32/64/bfloat16 values are cast to the
            parameter's float type and int8/16/32/64 to its int type (with a warning). Default: False.
        remove_redundancy: MindSpore's parallel deduplication; True raises TypeError (standalone only).

    Returns:
        (param_not_load, ckpt_not_load): the network's parameter names that got no value (network order), and the
        dictionary's names that were not loaded (dictionary order).

    Raises:
        TypeError: net is not a Cell, parameter_dict not a dict of str -> Parameter / str.
        RuntimeError: a shape differs (a value with extra trailing 1-dims is reshaped, as MindSpore does), or a
            dtype differs beyond the casts above; the message names the parameter and both shapes / dtypes.

    Examples:
        >>> from cellonnx.models import LeNet5
        >>> net = LeNet5()
        >>> ms.save_checkpoint(net, "./lenet.ckpt")
        >>> param_dict = ms.load_checkpoint("./lenet.ckpt", filter_prefix="conv1")
        >>> param_not_load, _ = ms.load_param_into_net(net, param_dict)
        >>> param_not_load
        ['conv1.weight']
    """
    from cellonnx.nn import Cell

    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError("For 'load_param_into_net', the argument 'parameter_dict' should be a dict, "
                        f"but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' should be a "
                            f"'str' and 'Parameter' , but got {type(key)} and {type(value)}.")
    _check_type("load_param_into_net", "strict_load", strict_load, bool)
    _check_type("load_param_into_net", "remove_redundancy", remove_redundancy, bool)
    if remove_redundancy:
        raise TypeError("The deduplication feature for loading checkpoint can only be used in parallel scenarios, "
                        "but got stand_alone.")
    param_not_load: list[str] = []
    ckpt_not_load = list(parameter_dict)
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            new_param = parameter_dict[param.name]
            if not isinstance(new_param, Parameter):
                continue  # a string (or a MapParameter's list): nothing to load, left in ckpt_not_load
            _update_param(param, new_param, strict_load)
            if param.name in ckpt_not_load:  # two parameters of one name both take the value
                ckpt_not_load.remove(param.name)
        elif not param.name.startswith("accu_grads"):
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_mismatched_prefix(net, parameter_dict, param_not_load, strict_load)
    if param_not_load:
        logger.warning("For 'load_param_into_net', %d parameters in the 'net' are not loaded, because they are not in "
                       "the 'parameter_dict', please check whether the network structure is consistent when training "
                       "and loading checkpoint.", len(param_not_load))
        logger.warning("%s are not loaded.", param_not_load)
    return param_not_load, ckpt_not_load


def _load_mismatched_prefix(net: Any, parameter_dict: Mapping[str, Any], param_not_load: list[str],
                            strict_load: bool) -> None:
    """MindSpore's retry: the prefix that makes a checkpoint name end with a missing parameter's name is taken
    off the checkpoint names, repeatedly, while new prefixes turn up."""
    prefix_name = ""
    longest_name = param_not_load[0]
    while prefix_name != longest_name and param_not_load:
        prefix_name = longest_name
        for net_param_name in param_not_load:
            for dict_name in parameter_dict:
                if dict_name.endswith(net_param_name):
                    prefix_name = dict_name[:-len(net_param_name)]
                    break
            if prefix_name != longest_name:
                break
        if prefix_name != longest_name:
            logger.warning("For 'load_param_into_net', remove parameter prefix name: %s, continue to load.",
                           prefix_name)
            for _, param in net.parameters_and_names():
                new_name = prefix_name + param.name
                if param.name in param_not_load and new_name in parameter_dict:
                    new_param = parameter_dict[new_name]
                    if isinstance(new_param, Parameter):
                        _update_param(param, new_param, strict_load)
                        param_not_load.remove(param.name)


def _update_param(param: Parameter, new_param: Parameter, strict_load: bool) -> None:
    """Give `param` the value of `new_param`: MindSpore's shape and dtype rules, then set_data."""
    value = new_param.asnumpy()
    if not param.is_deferred and tuple(param.shape) != tuple(value.shape):
        if not _trailing_ones(tuple(param.shape), tuple(value.shape)):
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape as "
                f"{param.name} in the argument 'parameter_dict'. But got its shape {tuple(param.shape)} in the "
                f"argument 'net' and shape {tuple(value.shape)} in the argument 'parameter_dict'.May you need to "
                f"check whether the checkpoint you loaded is correct or the batch size and so on in the 'net' and "
                f"'parameter_dict' are same.")
        value = value.reshape(param.shape)
    have, want = dtypes.dtype(value.dtype), param.dtype
    if have != want and not param.is_deferred:
        pair = {have.name, want.name}
        if strict_load or not (pair <= _FLOAT or pair <= _INT):
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type as "
                f"{param.name} in the argument 'parameter_dict'. but got its type {want} in the argument 'net' and "
                f"type {have} in the argument 'parameter_dict'.May you need to check whether the checkpoint you "
                f"loaded is correct.")
        logger.warning("The type of %s:%s in 'parameter_dict' is different from the type of it in 'net':%s, then the "
                       "type convert from %s to %s in the network. May consume additional memory and time",
                       new_param.name, have, want, have, want)
    param.set_data(value)


def _trailing_ones(shape: tuple[int, ...], new_shape: tuple[int, ...]) -> bool:
    """MindSpore loads (12, 2048, 1, 1) into (12, 2048): the value's extra dims are all 1 (GE's 4-d tensors)."""
    return len(new_shape) > len(shape) and new_shape[:len(shape)] == shape and \
        all(d == 1 for d in new_shape[len(shape):])
