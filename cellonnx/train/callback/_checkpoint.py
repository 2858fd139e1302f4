"""ModelCheckpoint and CheckpointConfig: save checkpoints during training (``mindspore.train.ModelCheckpoint``).

Semantics follow mindspore/train/callback/_checkpoint.py of MindSpore 2.10: files are named
``{prefix}-{epoch}_{step in epoch}.{format}``, a prefix already used in the directory by earlier ``.ckpt`` /
``.safetensors`` files becomes ``{prefix}_{n}``, ``keep_checkpoint_max`` removes the oldest file of this prefix
before a new one is written, the last step is saved by ``end`` unless it was just saved, and ``append_info``'s
``"epoch_num"`` / ``"step_num"`` are written with every file. MindSpore's ``{prefix}-graph.meta`` (the compiled
graph, written in GRAPH_MODE) is not written: networks run eagerly here.
"""
from __future__ import annotations

import logging
import os
import re
import stat
import time
from collections.abc import Callable
from typing import Any

from cellonnx.checkpoint import _check_async_save, save_checkpoint
from cellonnx.tensor import Tensor
from cellonnx.train.callback._callback import Callback, RunContext

__all__ = ["CheckpointConfig", "ModelCheckpoint"]

logger = logging.getLogger("cellonnx")

# As MindSpore: the default directory is the working directory when this module was imported.
_cur_dir = os.getcwd()
_info_list = ["epoch_num", "step_num"]
_MAX_PATH_LENGTH = 4096


def _check_non_negative_int(value: Any) -> int:
    """MindSpore's ``Validator.check_non_negative_int`` (no argument name, hence "The input value")."""
    if not isinstance(value, int):
        raise TypeError(f"The input value must be int, but got '{type(value).__name__}'")
    if isinstance(value, bool) or value < 0:
        msg = f"The input value must be int and must >= 0, but got '{value}' with type '{type(value).__name__}'."
        raise TypeError(msg) if isinstance(value, bool) else ValueError(msg)
    return value


def _check_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"The input value must be a bool, but got {type(value).__name__}.")
    return value


def _check_isinstance(name: str, value: Any, classes: tuple[type, ...] | type) -> Any:
    if not isinstance(value, classes):
        raise ValueError(  # noqa: TRY004  (MindSpore raises ValueError here)
            f"The parameter '{name}' must be isinstance of {classes}, but got {value}.")
    return value


def _make_directory(path: Any, arg_name: str = "path") -> str:
    """The real path of ``path``, created (mode 0o700) when missing, as MindSpore's ``_make_directory``."""
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if path.strip() == "":
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    path = os.path.realpath(path)
    if len(path) > _MAX_PATH_LENGTH:
        raise ValueError(f"The {arg_name} length is too long, it should be limited in {_MAX_PATH_LENGTH}.")
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise NotADirectoryError(f"The path({path}) is a file path, it should be a directory path.")
        return path
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except PermissionError as e:
        raise TypeError("No write permission on the directory.") from e
    return path


def _chg_ckpt_file_name_if_same_exist(directory: Any, prefix: Any, exception: bool = False) -> Any:
    """``prefix``, or ``{prefix}_{n}`` when checkpoint files of that prefix are already in ``directory`` (n: one
    more than the largest suffix found, 1 for the bare prefix). With ``exception``, only ``*_breakpoint.ckpt``
    files count; otherwise only ``.ckpt`` / ``.safetensors`` files that are not breakpoint files."""
    if callable(prefix) or callable(directory):
        return prefix
    suffix_num = 0
    pre_len = len(prefix)
    for filename in os.listdir(directory):
        ext = os.path.splitext(filename)[-1]
        if exception and filename[-16:] != "_breakpoint.ckpt":
            continue
        if not exception and (ext not in (".ckpt", ".safetensors") or filename[-16:] == "_breakpoint.ckpt"):
            continue
        if filename.find(prefix) == 0 and not filename[pre_len].isalpha():
            index = filename[pre_len:].find("-")
            if index == 0:
                suffix_num = max(suffix_num, 1)
            elif index != -1:
                num = filename[pre_len + 1:pre_len + index]
                if num.isdigit():
                    suffix_num = max(suffix_num, int(num) + 1)
    if suffix_num != 0:
        prefix = f"{prefix}_{suffix_num}"
    return prefix


def _check_format_and_other_params(format: str, enc_key: Any, enc_mode: str, crc_check: bool = False,
                                   exception_save: bool = False, map_param_inc: bool = False) -> None:
    not_default = enc_key is not None or enc_mode != "AES-GCM" or crc_check or exception_save or map_param_inc
    if format == "safetensors" and not_default:
        raise ValueError("For 'save_checkpoint', when format is 'safetensors', other param must be default.")


class CheckpointConfig:
    """The checkpoint policy of :class:`ModelCheckpoint`.

    When ``save_checkpoint_steps`` is set, ``save_checkpoint_seconds`` is ignored (becomes None); when
    ``keep_checkpoint_max`` is set, ``keep_checkpoint_per_n_minutes`` is ignored (becomes None), and with neither
    keep policy, one file is kept.

    Args:
        save_checkpoint_steps (int): save every this many steps. Default: ``1``.
        save_checkpoint_seconds (int): save every this many seconds (when save_checkpoint_steps is 0 / None).
            Default: ``0``.
        keep_checkpoint_max (int): keep at most this many files of the prefix (the oldest by modification time
            goes first). Default: ``5``.
        keep_checkpoint_per_n_minutes (int): keep one file per this many minutes (when keep_checkpoint_max is
            0 / None). Default: ``0``.
        integrated_save (bool): MindSpore's parallel-merge flag; no effect on one device. Default: ``True``.
        async_save (Union[bool, str]): True, 'thread' or 'process'; accepted, files are written synchronously.
            Default: ``False``.
        saved_network (Cell): the network to save instead of the training network (which holds the optimizer
            state too). Default: ``None``.
        append_info (list): "epoch_num", "step_num" and at most one dict of str -> int / float / bool / str /
            Parameter / Tensor, saved with every file. Default: ``None``.
        enc_key (bytes): encryption key; encryption is not supported (saving raises NotImplementedError).
            Default: ``None``.
        enc_mode (str): Default: ``'AES-GCM'``.
        exception_save (bool): when training raises, save ``{prefix}-{epoch}_{step}_breakpoint.ckpt`` first.
            Default: ``False``.
        crc_check (bool): add a CRC32 to each file. Default: ``False``.
        remove_redundancy (bool): data-parallel deduplication; raises TypeError when saving on one device, as
            MindSpore does in 'stand_alone' mode. Default: ``False``.
        format (str): 'ckpt' or 'safetensors' (other cellonnx.converters format names work too).
            Default: ``'ckpt'``.
        kwargs: ``incremental`` (MapParameter increments; True raises when saving), ``enable_redundance``.

    Examples:
        >>> from cellonnx.train import CheckpointConfig, Model, ModelCheckpoint
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=10,
        ...                           append_info=["epoch_num", "step_num"])
        >>> model.train(2, dataset, callbacks=ModelCheckpoint(prefix="net", directory="ckpt", config=config))
    """

    def __init__(self, save_checkpoint_steps: int | None = 1, save_checkpoint_seconds: int | None = 0,
                 keep_checkpoint_max: int | None = 5, keep_checkpoint_per_n_minutes: int | None = 0,
                 integrated_save: bool = True, async_save: bool | str = False, saved_network: Any = None,
                 append_info: list | None = None, enc_key: bytes | None = None, enc_mode: str = "AES-GCM",
                 exception_save: bool = False, crc_check: bool = False, remove_redundancy: bool = False,
                 format: str = "ckpt", **kwargs: Any) -> None:
        from cellonnx.nn import Cell

        if save_checkpoint_steps is not None:
            save_checkpoint_steps = _check_non_negative_int(save_checkpoint_steps)
        if save_checkpoint_seconds is not None:
            save_checkpoint_seconds = _check_non_negative_int(save_checkpoint_seconds)
        if keep_checkpoint_max is not None:
            keep_checkpoint_max = _check_non_negative_int(keep_checkpoint_max)
        if keep_checkpoint_per_n_minutes is not None:
            keep_checkpoint_per_n_minutes = _check_non_negative_int(keep_checkpoint_per_n_minutes)
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError("For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, "
                            f"but got {type(saved_network)!s}.")
        if not save_checkpoint_steps and not save_checkpoint_seconds and \
                not keep_checkpoint_max and not keep_checkpoint_per_n_minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', "
                             "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't be all None or 0.")
        _check_bool(exception_save)
        self.exception_save = exception_save

        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = save_checkpoint_seconds
        if self._save_checkpoint_steps and self._save_checkpoint_steps > 0:
            self._save_checkpoint_seconds = None

        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if self._keep_checkpoint_max and self._keep_checkpoint_max > 0:
            self._keep_checkpoint_per_n_minutes = None
        elif not self._keep_checkpoint_per_n_minutes:
            self._keep_checkpoint_max = 1

        self._integrated_save = _check_bool(integrated_save)
        _check_async_save(async_save)
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._enc_key = _check_isinstance("enc_key", enc_key, (type(None), bytes))
        self._enc_mode = _check_isinstance("enc_mode", enc_mode, str)
        self._crc_check = _check_isinstance("crc_check", crc_check, bool)
        self._format = _check_isinstance("format", format, str)
        self._map_param_inc = kwargs.get("incremental", False)
        self.enable_redundance = kwargs.get("enable_redundance", False)
        self.remove_redundancy = _check_isinstance("remove_redundancy", remove_redundancy, bool)
        _check_format_and_other_params(format, enc_key, enc_mode, crc_check, exception_save, self._map_param_inc)

    @property
    def save_checkpoint_steps(self) -> int | None:
        return self._save_checkpoint_steps

    @property
    def save_checkpoint_seconds(self) -> int | None:
        return self._save_checkpoint_seconds

    @property
    def keep_checkpoint_max(self) -> int | None:
        return self._keep_checkpoint_max

    @property
    def keep_checkpoint_per_n_minutes(self) -> int | None:
        return self._keep_checkpoint_per_n_minutes

    @property
    def integrated_save(self) -> bool:
        return self._integrated_save

    @property
    def async_save(self) -> bool | str:
        return self._async_save

    @property
    def saved_network(self) -> Any:
        return self._saved_network

    @property
    def enc_key(self) -> bytes | None:
        return self._enc_key

    @property
    def enc_mode(self) -> str:
        return self._enc_mode

    @property
    def crc_check(self) -> bool:
        return self._crc_check

    @property
    def format(self) -> str:
        return self._format

    @property
    def append_dict(self) -> dict[str, Any] | None:
        """The values saved with each file ("epoch_num" / "step_num" start at 0), or None."""
        return self._append_dict

    @property
    def map_param_inc(self) -> Any:
        return self._map_param_inc

    def get_checkpoint_policy(self) -> dict[str, Any]:
        """The save / keep policy as a dict."""
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _handle_append_info(append_info: Any) -> dict[str, Any] | None:
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError("For 'CheckpointConfig', the type of 'append_info' must be list,"
                            f"but got {type(append_info)!s}.")
        handled: dict[str, Any] = {}
        if "epoch_num" in append_info:
            handled["epoch_num"] = 0
        if "step_num" in append_info:
            handled["step_num"] = 0
        dict_num = 0
        for element in append_info:
            if not isinstance(element, (str, dict)):
                raise TypeError("For 'CheckpointConfig', the type of 'append_info' element must be str or dict,"
                                f"but got {type(element)!s}.")
            if isinstance(element, str) and element not in _info_list:
                raise ValueError("For 'CheckpointConfig', the value of element in the argument 'append_info' "
                                 f"must be in {_info_list}, but got {element}.")
            if isinstance(element, dict):
                dict_num += 1
                if dict_num > 1:
                    raise TypeError("For 'CheckpointConfig', the element of 'append_info' must has only one dict, "
                                    "but got {dict_num}")
                for key, value in element.items():
                    if isinstance(key, str) and isinstance(value, (int, float, bool, str, Tensor)):
                        handled[key] = value
                    else:
                        raise TypeError("For 'CheckpointConfig', the key type of the dict 'append_info' "
                                        "must be string, the value type must be int or float or bool, "
                                        f"but got key type {type(key)}, value type {type(value)}")
        return handled


class ModelCheckpoint(Callback):
    """Save checkpoints while training: ``{directory}/{prefix}-{epoch}_{step in epoch}.ckpt`` after the steps
    ``config`` selects, and after the last step.

    The checkpoint holds the training network's parameters (the optimizer's state included) unless
    ``config.saved_network`` is set. When files of ``prefix`` already exist in ``directory`` (``.ckpt`` /
    ``.safetensors``), the prefix becomes ``{prefix}_1`` (then ``_2`` ...), so that runs do not overwrite each
    other. MindSpore's ``{prefix}-graph.meta`` graph file is not written.

    Args:
        prefix (Union[str, Callable]): the file name prefix (without '/'), or a function of the callback
            parameters returning the whole file name stem (then no epoch / step suffix and no renaming).
            Default: ``'CKP'``.
        directory (Union[str, Callable]): the folder (created if missing), or a function of the callback
            parameters returning it. Default: ``None``: the working directory when cellonnx was imported.
        config (CheckpointConfig): the policy. Default: ``None``: ``CheckpointConfig()`` (every step, keep 5).

    Raises:
        ValueError: ``prefix`` is not callable and not a str without '/'.
        TypeError: ``config`` is not a CheckpointConfig.

    Examples:
        >>> from cellonnx.train import CheckpointConfig, Model, ModelCheckpoint
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> ckpt = ModelCheckpoint(prefix="lenet", directory="./ckpt",
        ...                        config=CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=3))
        >>> model.train(2, dataset, callbacks=[ckpt])
        >>> ckpt.latest_ckpt_file_name
        '.../ckpt/lenet-2_4.ckpt'
    """

    def __init__(self, prefix: str | Callable = "CKP", directory: str | Callable | None = None,
                 config: CheckpointConfig | None = None) -> None:
        super().__init__()
        self._latest_ckpt_file_name = ""
        self._init_time = time.time()
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._last_triggered_step = 0
        self._prefix_func: Callable | None = None
        self._directory_func: Callable | None = None
        if not callable(prefix) and (not isinstance(prefix, str) or prefix.find("/") >= 0):
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' "
                             "for checkpoint file name is invalid, it must be "
                             f"callable or string that does not contain '/', but got {prefix}.")
        self._prefix: Any = prefix
        self._exception_prefix: Any = prefix
        self._directory: Any = None
        if directory is not None:
            if callable(directory):
                self._directory_func = directory
            else:
                self._directory = _make_directory(directory)
        else:
            self._directory = _cur_dir
        if callable(prefix):
            self._prefix_func = prefix
        if config is None:
            self._config = CheckpointConfig()
        else:
            if not isinstance(config, CheckpointConfig):
                raise TypeError("For 'ModelCheckpoint', the type of argument 'config' should be "
                                f"'CheckpointConfig', but got {type(config)}.")
            self._config = config
        self._manager = CheckpointManager(self._config.format)
        if not callable(directory) and not callable(prefix):
            self._prefix = _chg_ckpt_file_name_if_same_exist(self._directory, self._prefix)
        self._append_dict: dict[str, Any] = self._config.append_dict or {}
        self._append_epoch_num: int = self._append_dict.get("epoch_num", 0)
        self._append_step_num: int = self._append_dict.get("step_num", 0)
        self._graph_saved = False
        self._map_param_inc = self._config.map_param_inc
        self._run: dict[str, Any] | None = None  # what exception_save needs: the run's parameters, epoch, step

    # ---------------------------------------------------------------- saving during training
    def step_end(self, run_context: RunContext) -> None:
        """Save a checkpoint when the policy says so."""
        cb_params = run_context.original_args()
        if self._prefix_func:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or self._prefix.find("/") >= 0:
                raise ValueError("For 'ModelCheckpoint', the argument 'prefix' "
                                 "for checkpoint file name is callable, it must return a "
                                 f"string that does not contain '/', but got {self._prefix}.")
        if self._directory_func:
            self._directory = self._directory_func(cb_params)
            _make_directory(self._directory)
        # MindSpore writes {prefix}-graph.meta here once (the compiled graph); there is no graph to write.
        self._graph_saved = True
        self._save_ckpt(cb_params)

    def end(self, run_context: RunContext) -> None:
        """Save the last step's checkpoint unless it was just saved."""
        self._save_ckpt(run_context.original_args(), True)

    def _check_save_ckpt(self, cb_params: Any, force_to_save: bool) -> bool:
        steps = self._config.save_checkpoint_steps
        seconds = self._config.save_checkpoint_seconds
        if steps and steps > 0:
            if cb_params.cur_step_num >= self._last_triggered_step + steps or force_to_save is True:
                return True
        elif seconds and seconds > 0:
            self._cur_time = time.time()
            if (self._cur_time - self._last_time) > seconds or force_to_save:
                self._last_time = self._cur_time
                return True
        return False

    def _append_dict_content(self, epoch_num: int, step_num: int) -> None:
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + step_num

    def _save_ckpt(self, cb_params: Any, force_to_save: bool = False) -> None:
        if cb_params.cur_step_num == self._last_triggered_step:
            return
        if not self._check_save_ckpt(cb_params, force_to_save):
            return
        fmt = self._config.format
        if self._prefix_func:
            cur_ckpoint_file = f"{self._prefix}.{fmt}"
        else:
            step_in_epoch = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
            cur_ckpoint_file = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.{fmt}"
        self._manager.update_ckpoint_filelist(self._directory, self._prefix)
        keep_max = self._config.keep_checkpoint_max
        keep_minutes = self._config.keep_checkpoint_per_n_minutes
        if keep_max and 0 < keep_max <= self._manager.ckpoint_num:
            self._manager.remove_oldest_ckpoint_file()
        elif keep_minutes and keep_minutes > 0:
            self._cur_time_for_keep = time.time()
            if (self._cur_time_for_keep - self._last_time_for_keep) < keep_minutes * 60:
                self._manager.keep_one_ckpoint_per_minutes(keep_minutes, self._cur_time_for_keep)

        cur_file = os.path.join(self._directory, cur_ckpoint_file)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        self._append_dict_content(cb_params.cur_epoch_num, cb_params.cur_step_num)
        network = self._config.saved_network if self._config.saved_network is not None else cb_params.train_network
        if self._config.remove_redundancy:
            raise TypeError("The deduplication feature for saving checkpoint can only be used "
                            "in parallel scenarios, but got 'stand_alone'.")
        save_checkpoint(network, cur_file, self._config.integrated_save, self._config.async_save,
                        self._append_dict, self._config.enc_key, self._config.enc_mode,
                        crc_check=self._config.crc_check, format=fmt,
                        incremental=self._map_param_inc, remove_redundancy=self._config.remove_redundancy)
        self._latest_ckpt_file_name = cur_file

    # ---------------------------------------------------------------- exception_save
    # MindSpore's Model.train saves {prefix}-{epoch}_{step}_breakpoint.ckpt when training raises; here the callback
    # tracks the epoch / step itself and saves from __exit__, which the callback runner calls with the exception.
    def on_train_begin(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        self._run = {"params": cb_params, "epoch": 0, "step": 0}
        super().on_train_begin(run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        if self._run is not None:
            self._run["epoch"] = self._run["params"].cur_epoch_num
            self._run["step"] = 0
        super().on_train_epoch_begin(run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        if self._run is not None:
            cb = self._run["params"]
            self._run["step"] = int((cb.cur_step_num - 1) % max(cb.batch_num, 1) + 1)
        super().on_train_step_begin(run_context)

    def __exit__(self, *err: object) -> None:
        run, self._run = self._run, None
        if not err or err[0] is None or run is None or not self._config.exception_save:
            return
        prefix = _chg_ckpt_file_name_if_same_exist(self._directory, self._exception_prefix, True)
        cur_file = os.path.join(self._directory, f"{prefix}-{run['epoch']}_{run['step']}_breakpoint.ckpt")
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + run["epoch"]
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + run["step"]
        save_checkpoint(run["params"].train_network, cur_file, self._config.integrated_save, self._config.async_save,
                        self._append_dict, self._config.enc_key, self._config.enc_mode)

    # ---------------------------------------------------------------- properties
    @property
    def latest_ckpt_file_name(self) -> str:
        """The path of the latest checkpoint written ("" before the first)."""
        return self._latest_ckpt_file_name

    @property
    def _get_save_checkpoint_steps(self) -> int | None:
        return self._config.save_checkpoint_steps

    @property
    def _get_last_trigger_step(self) -> int:
        return self._last_triggered_step


def _age_key(path: str) -> tuple[float, list[int]]:
    """Oldest first: modification time as MindSpore; files written within the clock's resolution come in the
    order of their epoch / step numbers instead of the directory's order."""
    return os.path.getmtime(path), [int(n) for n in re.findall(r"\d+", os.path.basename(path))]


class CheckpointManager:
    """The checkpoint files of one prefix in a directory, and the keep policies over them."""

    def __init__(self, format: str = "ckpt") -> None:
        self._ckpoint_filelist: list[str] = []
        self._format = format

    @property
    def ckpoint_filelist(self) -> list[str]:
        return self._ckpoint_filelist

    @property
    def ckpoint_num(self) -> int:
        return len(self._ckpoint_filelist)

    def update_ckpoint_filelist(self, directory: str, prefix: str) -> None:
        """The files ``{prefix}-*.{format}`` in ``directory`` whose part after the prefix has no letters."""
        self._ckpoint_filelist = []
        format_length = len(self._format) + 1
        for filename in os.listdir(directory):
            if os.path.splitext(filename)[-1] == f".{self._format}" and filename.startswith(prefix + "-"):
                mid_name = filename[len(prefix):-format_length]
                if not any(char.isalpha() for char in mid_name):
                    self._ckpoint_filelist.append(os.path.join(directory, filename))

    def remove_ckpoint_file(self, file_name: str) -> None:
        try:
            os.chmod(file_name, stat.S_IWRITE)
            os.remove(file_name)
            self._ckpoint_filelist.remove(file_name)
        except OSError:
            logger.warning("OSError, failed to remove the older ckpt file %s.", file_name)
        except ValueError:
            logger.warning("ValueError, failed to remove the older ckpt file %s.", file_name)

    def remove_oldest_ckpoint_file(self) -> None:
        self.remove_ckpoint_file(min(self._ckpoint_filelist, key=_age_key))

    def keep_one_ckpoint_per_minutes(self, minutes: float, cur_time: float) -> None:
        """Of the files written in the last ``minutes``, keep only the oldest."""
        del_list = []
        oldest_file = ""
        oldest_time = cur_time
        for ck_file in self._ckpoint_filelist:
            modify_time = os.path.getmtime(ck_file)
            if cur_time - modify_time < 60 * minutes:
                del_list.append(ck_file)
                if modify_time < oldest_time:
                    oldest_time = modify_time
                    oldest_file = ck_file
        for mv_file in del_list:
            if mv_file != oldest_file:
                self.remove_ckpoint_file(mv_file)

