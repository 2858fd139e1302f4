"""Weight obfuscation of checkpoints, as ``mindspore.obfuscate_ckpt`` / ``mindspore.load_obf_params_into_net``
(MindSpore 2.10's ``mindspore.safeguard``).

``obfuscate_ckpt`` rewrites every ``.ckpt`` file of a directory (and of its direct subdirectories) into
``<stem>_obf.ckpt``: each parameter a ``weight_obf_config`` entry targets (the parameter's name with its
dots read as ``/``) goes through that entry's ops (``mul`` by an obfuscation tensor, ``matmul``,
``permuate`` rows); the obfuscation tensors come from ``obf_metadata_config`` (``random``: integers in
[1, obfuscate_scale) drawn with NumPy's global generator, float16; ``rearrange``: a permutation, or a
column-permuted identity), and those marked ``save_metadata`` are returned, after their ``metadata_op``
(``invert`` gives 1 / ratio), for the deployed network to undo the obfuscation.

As in MindSpore 2.10, ``load_obf_params_into_net`` checks its arguments and returns the network unchanged
(MindSpore 2.10 no longer rewrites the network), and the config built from ``target_modules`` matches what
MindSpore's matches: ``target_modules=['', 'fc1|fc2']`` targets ``/fc1/weight``, which no parameter name
reads as, so only a non-empty path (``['backbone', 'fc1|fc2']`` for ``backbone.fc1.weight``) obfuscates
weights, and with a third ``obfuscate_layers`` value no weight is rewritten.
"""
from __future__ import annotations

import copy
import logging
import os
import re
from pathlib import Path
from string import Template
from typing import Any

import numpy as np

from cellonnx.tensor import Tensor

logger = logging.getLogger("cellonnx")

_CONFIG_TYPES = ("obf_metadata_config", "weight_obf_config", "network_obf_config")
_METADATA_TYPES = ("random", "rearrange")
_METADATA_OPS = ("mul", "matmul", "invert")


def _layer(name: str, layer: int) -> str:
    return Template(name).safe_substitute({"layer": str(layer)})


def _config_from_target_modules(target_modules: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The obf_config MindSpore builds from ``target_modules`` (weight and bias times ``obf_metadata``)."""
    path = target_modules[0]
    metadata: dict[str, Any] = {"name": "obf_metadata", "shape": [1], "type": "random", "save_metadata": True,
                                "metadata_op": "invert"}
    ratio, layers = "obf_metadata", []
    if len(target_modules) >= 3:
        count = target_modules[2].split(":")[1]
        layers = list(range(12 if count == "all" else int(count)))
        path = path.replace("blocks", "blocks/${layer}")
        ratio = "obf_metadata_${layer}"
        metadata["layers"] = layers
    config: dict[str, list[dict[str, Any]]] = {"obf_metadata_config": [metadata], "weight_obf_config": [],
                                               "network_obf_config": []}
    for name in target_modules[1].split("|"):
        ops_ = [{"name": "mul", "input_x": "weight", "input_y": ratio}]
        for kind in ("weight", "bias"):
            entry: dict[str, Any] = {"target": "/".join([path, name, kind]), "weight_obf_ops": ops_}
            if not layers:
                entry["layers"] = []
            config["weight_obf_config"].append(entry)
        network: dict[str, Any] = {"module": "/" + path, "target": name,
                                   "insert_new_input": [{"name": "obf_metadata"}],
                                   "insert_ops": [{"name": "mul", "input_x": "weight", "input_y": ratio}]}
        if not layers:
            network["layers"] = []
        config["network_obf_config"].append(network)
    return config


def _check_target_modules(network: Any, target_modules: Any) -> None:
    """MindSpore's checks of ``target_modules`` (types, characters, that the path and a target exist)."""
    from cellonnx import nn
    if not isinstance(target_modules, list):
        raise TypeError(f"target_modules type should be list, but got {type(target_modules)}.")
    if len(target_modules) < 2:
        raise ValueError("target_modules should contain at least two string values, in the form of "
                         f"['A/B/C', 'D1|D2'], but got {target_modules}.")
    if not isinstance(target_modules[0], str) or not isinstance(target_modules[1], str):
        raise TypeError("The values of target_modules should be string, but got "
                        f"{type(target_modules[0])} and {type(target_modules[1])}.")
    if not target_modules[1]:
        raise ValueError(f"{target_modules[1]!r} should be a non-empty string value, in the form of 'D1|D2'.")
    if not re.fullmatch(r"[A-Za-z0-9_/]*", target_modules[0]) or \
            not re.fullmatch(r"[A-Za-z0-9_|]*", target_modules[1]):
        raise ValueError(f"please check the input 'target_modules' {target_modules}, it should be in the "
                         "form of ['A/B/C', 'D1|D2']: target_modules[0] can only contain letters, numbers, "
                         "'_' and '/', target_modules[1] letters, numbers, '_' and '|'.")
    parts = target_modules[0].split("/")
    stack, net, i = [network], network, 0
    while stack and i < len(parts):  # as MindSpore walks it: CellList members are tried in turn
        net = stack.pop()
        if hasattr(net, parts[i]):
            net = getattr(net, parts[i])
            i += 1
            if isinstance(net, nn.CellList):
                stack.extend(net)
            elif isinstance(net, nn.Cell):
                stack.append(net)
            else:
                raise TypeError("Target_modules[0] should be a subgraph and it's type should be "
                                f"nn.Cell(nn.CellList), but got type {type(net)}")
    if target_modules[0] != "" and i != len(parts):
        raise ValueError(f"the path {target_modules[0]} does not exist.")
    targets = target_modules[1].split("|")
    for target in targets:
        if not hasattr(net, target):
            logger.warning("%s does not exist in the path %s", target, target_modules[0])
    if not any(hasattr(net, t) for t in targets):
        raise ValueError(f"all targets {targets} do not exist in the path {target_modules[0]}.")
    if len(target_modules) >= 3:
        layers = target_modules[2].split(":")
        if len(layers) != 2 or layers[0] != "obfuscate_layers" or \
                (layers[1] != "all" and not layers[1].isdigit()):
            raise ValueError("The third value of target_modules should be in the format of "
                             "'obfuscate_layers:all' or 'obfuscate_layers:int'")


def _check_ops(ops_: list[Any]) -> None:
    for op in ops_:
        for key in ("name", "input_x", "input_y"):
            if not isinstance(op.get(key), str):
                raise TypeError(f"obfuscation op's '{key}' should be str, but got {type(op.get(key))}.")
        for key in ("transpose_a", "transpose_b"):
            if not isinstance(op.get(key, False), bool):
                raise TypeError(f"obfuscation op's '{key}' should be bool, but got {type(op.get(key))}.")


def _check_entry(kind: str, entry: dict[str, Any]) -> None:
    if kind == "obf_metadata_config":
        if not entry.get("name") or not isinstance(entry.get("name"), str):
            raise TypeError(f"obf_config[][]['name'] type should be str, but got {type(entry.get('name'))}.")
        shape = entry.get("shape")
        if not shape or not isinstance(shape, list) or not all(isinstance(d, int) for d in shape):
            raise TypeError(f"obf_config[][]['shape'] should be a non-empty list of int, but got {shape!r}.")
        if not isinstance(entry.get("save_metadata", True), bool):
            raise TypeError("obf_config[][]['save_metadata'] type should be bool, but got "
                            f"{type(entry.get('save_metadata'))}.")
        kind_ = entry.get("type")
        if kind_ is not None and kind_ not in _METADATA_TYPES:
            raise TypeError(f"obf_config[][]['type'] should be str and in {list(_METADATA_TYPES)}, but got "
                            f"{kind_!r}.")
        return
    if not entry.get("target") or not isinstance(entry.get("target"), str):
        raise TypeError(f"obf_config[][]['target'] type should be str, but got {type(entry.get('target'))}.")
    key = "weight_obf_ops" if kind == "weight_obf_config" else "insert_ops"
    if kind == "network_obf_config":
        if not entry.get("module") or not isinstance(entry.get("module"), str):
            raise TypeError("obf_config[][]['module'] type should be str, but got "
                            f"{type(entry.get('module'))}.")
        inputs = entry.get("insert_new_input", [])
        if not isinstance(inputs, list) or not all(isinstance(i.get("name"), str) for i in inputs):
            raise TypeError("obf_config[][]['insert_new_input'] should be a list of {'name': str}, but got "
                            f"{inputs!r}.")
    if not isinstance(entry.get(key, []), list):
        raise TypeError(f"obf_config[][]['{key}'] type should be list, but got {type(entry.get(key))}.")
    _check_ops(entry.get(key, []))


def _check_config(config: dict[str, Any], kind: str) -> None:
    """MindSpore's checks of one part of ``obf_config``."""
    for key in config:
        if key not in _CONFIG_TYPES:
            raise TypeError(f"config_type must be str, and in {list(_CONFIG_TYPES)}, but got {key!r}")
    entries = config.get(kind)
    if not isinstance(entries, list):
        raise TypeError(f"obf_config['{kind}'] should be a list, but got {type(entries)}.")
    for entry in entries:
        if not isinstance(entry, dict):
            raise TypeError(f"obf_config['{kind}'][] type should be dict, but got {type(entry)}.")
        _check_entry(kind, entry)
        layers = entry.get("layers")
        if layers is not None and (not isinstance(layers, list)
                                   or not all(isinstance(n, int) for n in layers)):
            raise TypeError(f"obf_config[][]['layers'] should be a list of int, but got {layers!r}.")


def _check_dir(name: str, path: Any) -> None:
    if not isinstance(path, str):
        raise TypeError(f"{name} must be string, but got {type(path)}.")
    if not os.path.exists(path):
        raise ValueError(f"{path} is not exist, please check the input {name}.")
    if not Path(path).is_dir():
        raise TypeError(f"{name} must be a directory path, but got {path}.")


def _new_tensor(shape: list[int], kind: str | None, scale: float) -> np.ndarray | None:
    if kind == "rearrange":
        if len(shape) == 1:
            return np.random.permutation(shape[0]).astype(np.int32)
        if len(shape) == 2:
            eye = np.identity(shape[0]).astype(np.int32)
            return eye[:, np.random.permutation(shape[1]).astype(np.int32)]
        return None
    if kind == "random":
        draws = np.random.randint(1, scale, size=shape)  # type: ignore[call-overload]
        return np.asarray(draws).astype(np.float16)
    return None


def _metadata_op(name: str, value: np.ndarray) -> np.ndarray:
    if name not in _METADATA_OPS:
        raise KeyError(f"'op name' must be in {list(_METADATA_OPS)}, but got {name}.")
    if name != "invert":  # MindSpore calls Mul / MatMul with the one tensor, which fails there too
        raise TypeError(f"metadata_op {name!r} needs two inputs; only 'invert' applies to the metadata "
                        "alone.")
    return np.reciprocal(value)


def _make_metadata(configs: list[dict[str, Any]], scale: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """(every obfuscation tensor by name, the saved ones after their metadata_op)."""
    metadata: dict[str, Any] = {}
    saved: dict[str, np.ndarray] = {}
    for config in configs:
        name = config.get("name")
        if name is None:
            continue
        layers = config.get("layers")
        names = [_layer(name, n) for n in layers] if layers else [name]
        for key in names:
            if not layers and metadata.get(key) is not None:
                continue
            value = _new_tensor(list(config.get("shape") or []), config.get("type"), scale)
            metadata[key] = value
            if config.get("save_metadata", False) and value is not None:
                op = config.get("metadata_op")
                saved[key] = _metadata_op(op, value) if op is not None else value
    return metadata, saved


def _obfuscate_param(param: np.ndarray, metadata: dict[str, Any], ops_: list[dict[str, Any]],
                     layer: int) -> Any:
    from cellonnx import ops
    dtype = param.dtype
    value: Any = Tensor(param)
    for op in ops_:
        name = op.get("name")
        if not isinstance(name, str):
            raise TypeError(f"{name} should be str type, but got {type(name)}")
        if name == "mul":
            ratio = metadata.get(_layer(op.get("input_y", ""), layer))
            if ratio is None:
                logger.error("input_x or input_y is None")
                return None
            value = ops.mul(value, Tensor(np.asarray(ratio).astype(dtype)))
        elif name == "permuate":
            perm = metadata.get(_layer(op.get("input_x", ""), layer))
            if perm is None:
                logger.error("input_x or param is None")
                return None
            value = Tensor(value.asnumpy()[perm])
        elif name == "matmul":
            a, b = (_layer(op.get(k, ""), layer) for k in ("input_x", "input_y"))
            a_v = Tensor(np.asarray(metadata[a]).astype(dtype)) if a.startswith("obf_metadata") else value
            b_v = Tensor(np.asarray(metadata[b]).astype(dtype)) if b.startswith("obf_metadata") else value
            a_v = ops.transpose(a_v, (1, 0)) if op.get("transpose_a", False) else a_v
            b_v = ops.transpose(b_v, (1, 0)) if op.get("transpose_b", False) else b_v
            value = ops.matmul(a_v, b_v)
        else:
            logger.error("unsupported op, op must be matmul or permuate or mul, but got %s.", name)
            return None
    return value


def _obfuscate_file(path: str, metadata: dict[str, Any], config: dict[str, Any], saved_path: str) -> bool:
    from cellonnx.checkpoint import load_checkpoint, save_checkpoint
    try:
        params = load_checkpoint(path)
    except (ValueError, TypeError, OSError):
        logger.error("Load checkpoint failed for file %s.", path)
        return False
    for name, param in params.items():
        if isinstance(param, str):  # a string entry of the checkpoint: saved back as it is
            continue
        param_path = "/".join(name.split("."))
        for entry in config.get("weight_obf_config", []):
            target, layers, ops_ = entry.get("target"), entry.get("layers", []), entry.get("weight_obf_ops")
            if not target or not ops_:
                raise KeyError("target or obf_ops is None.")
            for layer in (layers or [None]):
                if (_layer(target, layer) if layer is not None else target) != param_path:
                    continue
                value = _obfuscate_param(param.asnumpy(), metadata, ops_, layer or 0)
                if value is None:
                    logger.error("obfuscate weight %s failed.", name)
                    return False
                param.set_data(value)
    stem = os.path.basename(path).split(".")[0]
    save_checkpoint([{"name": k, "data": v} for k, v in params.items()],
                    os.path.join(os.path.realpath(saved_path), stem + "_obf.ckpt"))
    return True


def obfuscate_ckpt(network: Any, ckpt_files: str, target_modules: list[str] | None = None,
                   obf_config: dict[str, Any] | None = None, saved_path: str = "./",
                   obfuscate_scale: float = 100) -> dict[str, np.ndarray]:
    """Obfuscate the plaintext checkpoint files of a directory according to the obfuscation config.

    Args:
        network (nn.Cell): the original network (checked against ``target_modules``).
        ckpt_files (str): the directory of the original .ckpt files (its direct subdirectories too).
        target_modules (list[str], optional): ``['A/B/C', 'D|E|F'(, 'obfuscate_layers:all' or ':N')]``, the
            path of the target cells and their names; used when ``obf_config`` is None. Default: ``None``.
        obf_config (dict, optional): the obfuscation policy (``obf_metadata_config``, ``weight_obf_config``,
            ``network_obf_config`` lists). Default: ``None``.
        saved_path (str, optional): the directory the ``<stem>_obf.ckpt`` files go to. Default: ``'./'``.
        obfuscate_scale (Union[float, int], optional): random ratios are integers in [1, obfuscate_scale).
            Default: ``100``.

    Returns:
        dict[str, numpy.ndarray], the saved obfuscation metadata (``{'obf_metadata': 1 / ratio}`` for
        ``target_modules``).

    Raises:
        TypeError: If `network` is not nn.Cell, a path is not a str, or `obf_config` is malformed.
        ValueError: If a path does not exist, `target_modules` is malformed or names nothing, or
            `obfuscate_scale` is not larger than 1.

    Examples:
        >>> import os
        >>> class Head(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc1 = nn.Dense(4, 3)
        ...         self.fc2 = nn.Dense(3, 2)
        ...     def construct(self, x):
        ...         return self.fc2(self.fc1(x))
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.head = Head()
        ...     def construct(self, x):
        ...         return self.head(x)
        >>> net = Net()
        >>> os.makedirs('plain', exist_ok=True)
        >>> ms.save_checkpoint(net, 'plain/net.ckpt')
        >>> np.random.seed(0)  # the ratio is drawn from [1, 100): seeded, so this example never draws 1
        >>> ratios = ms.obfuscate_ckpt(net, 'plain', target_modules=['head', 'fc1|fc2'], saved_path='./')
        >>> print(sorted(ratios), ratios['obf_metadata'].shape)
        ['obf_metadata'] (1,)
        >>> obf = ms.load_checkpoint('net_obf.ckpt')
        >>> w, w_obf = net.head.fc1.weight.asnumpy(), obf['head.fc1.weight'].asnumpy()
        >>> print(np.allclose(w_obf, w), np.allclose(w_obf * ratios['obf_metadata'], w, rtol=1e-3))
        False True
    """
    from cellonnx import nn
    if not isinstance(network, nn.Cell):
        raise TypeError(f"network must be nn.Cell, but got {type(network)}.")
    _check_dir("ckpt_files", ckpt_files)
    _check_dir("saved_path", saved_path)
    if obf_config is None:
        _check_target_modules(network, target_modules)
        logger.warning("'target_modules and obf_ratios' will be deprecated and removed in a future version, "
                       "use 'obf_config' instead.")
        obf_config = _config_from_target_modules(target_modules)  # type: ignore[arg-type]
    if not isinstance(obf_config, dict):
        raise TypeError(f"obf_config type should be dict, but got {type(obf_config)}.")
    if not obf_config:
        raise ValueError("'obf_config' is empty or not valid, please check the input.")
    _check_config(obf_config, "obf_metadata_config")
    _check_config(obf_config, "weight_obf_config")
    obf_config = copy.deepcopy(obf_config)
    metadata, saved = _make_metadata(obf_config.get("obf_metadata_config", []), obfuscate_scale)
    if isinstance(obfuscate_scale, bool) or not isinstance(obfuscate_scale, (float, int)) \
            or obfuscate_scale <= 1:
        raise ValueError("obfuscate_scale must be float or int, and larger than 1, but got "
                         f"{obfuscate_scale}.")
    root = os.path.realpath(ckpt_files)
    for entry in os.listdir(ckpt_files):
        sub = os.path.join(root, entry)
        if Path(sub).is_dir():
            out_dir = os.path.join(os.path.realpath(saved_path), entry)
            os.makedirs(out_dir, mode=0o700, exist_ok=True)
            for name in os.listdir(sub):
                if name.endswith(".ckpt"):
                    _obfuscate_file(os.path.join(sub, name), metadata, obf_config, out_dir)
        elif entry.endswith(".ckpt"):
            _obfuscate_file(sub, metadata, obf_config, saved_path)
    return saved


def load_obf_params_into_net(network: Any, target_modules: list[str] | None = None,
                             obf_ratios: Tensor | None = None, obf_config: dict[str, Any] | None = None,
                             data_parallel_num: int = 1, **kwargs: Any) -> Any:
    """Check the obfuscation config for a network that holds an obfuscated checkpoint, and return it.

    MindSpore 2.10 validates the arguments and returns ``network`` itself (the network is no longer rewritten
    to undo the obfuscation); so does this.

    Args:
        network (nn.Cell): the network, the obfuscated checkpoint already loaded.
        target_modules (list[str], optional): as in :func:`obfuscate_ckpt`. Default: ``None``.
        obf_ratios (Tensor, optional): the ratios :func:`obfuscate_ckpt` returned (not used).
            Default: ``None``.
        obf_config (dict, optional): the obfuscation policy; its ``network_obf_config`` is checked.
            Default: ``None``.
        data_parallel_num (int, optional): the data-parallel number of training. Default: ``1``.
        kwargs: ``ignored_func_decorators`` / ``ignored_class_decorators``, accepted.

    Returns:
        nn.Cell, the network.

    Examples:
        >>> class Head(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc1 = nn.Dense(4, 3)
        ...         self.fc2 = nn.Dense(3, 2)
        ...     def construct(self, x):
        ...         return self.fc2(self.fc1(x))
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.head = Head()
        ...     def construct(self, x):
        ...         return self.head(x)
        >>> net = Net()
        >>> ms.load_obf_params_into_net(net, target_modules=['head', 'fc1|fc2']) is net
        True
    """
    from cellonnx import nn
    if not isinstance(network, nn.Cell):
        raise TypeError(f"network must be nn.Cell, but got {type(network)}.")
    if obf_config is None:
        _check_target_modules(network, target_modules)
        logger.warning("'target_modules and obf_ratios' will be deprecated and removed in a future version, "
                       "use 'obf_config' instead.")
        obf_config = _config_from_target_modules(target_modules)  # type: ignore[arg-type]
    if not isinstance(obf_config, dict):
        raise TypeError(f"{obf_config} should be dict type, but got {type(obf_config)}")
    if not obf_config:
        raise ValueError("'obf_config' is empty or not valid, please check the input.")
    _check_config(obf_config, "network_obf_config")
    if isinstance(data_parallel_num, bool) or not isinstance(data_parallel_num, int) \
            or data_parallel_num <= 0:
        raise ValueError(f"data_parallel_num must be positive number, but got {data_parallel_num}.")
    return network
