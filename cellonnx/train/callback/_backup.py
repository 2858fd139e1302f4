"""Callbacks that keep training recoverable: BackupAndRestore (a checkpoint each epoch, restored when a run
starts) and OnRequestExit (save and stop when the process receives a signal)."""
from __future__ import annotations

import json
import os
import signal
import stat
import threading
from typing import Any

from cellonnx import context
from cellonnx.checkpoint import load_checkpoint, save_checkpoint
from cellonnx.train.callback._callback import Callback, RunContext
from cellonnx.train.callback._checkpoint import _make_directory

__all__ = ["BackupAndRestore", "OnRequestExit"]


class BackupAndRestore(Callback):
    """Back the training network up to ``<backup_dir>/backup.ckpt`` every ``save_freq`` epochs and, when a run
    starts and that file exists, load it (a run interrupted mid-way resumes from its last backup).

    Args:
        backup_dir (str): the folder of the backup (created if missing).
        save_freq (Union[str, int]): ``'epoch'`` (every epoch) or a number of epochs. Default: ``'epoch'``.
        delete_checkpoint (bool): delete the backup when training ends normally. Default: ``True``.

    Examples:
        >>> from cellonnx.train import BackupAndRestore, Model
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> model.train(4, dataset, callbacks=[BackupAndRestore("./backup", save_freq=2)])
    """

    def __init__(self, backup_dir: str, save_freq: Any = "epoch", delete_checkpoint: bool = True) -> None:
        super().__init__()
        self.backup_file = os.path.join(_make_directory(backup_dir), "backup.ckpt")
        if save_freq == "epoch":
            self.save_freq = 1
        elif isinstance(save_freq, bool) or not isinstance(save_freq, int) or save_freq <= 0:
            raise ValueError("For 'BackupAndRestore', 'save_freq' must be 'epoch' or a positive int, but "
                             f"got {save_freq!r}.")
        else:
            self.save_freq = save_freq
        if not isinstance(delete_checkpoint, bool):
            raise TypeError(f"For 'BackupAndRestore', 'delete_checkpoint' must be a bool, but got "
                            f"{type(delete_checkpoint).__name__}.")
        self.delete_checkpoint = delete_checkpoint

    def on_train_begin(self, run_context: RunContext) -> None:
        if os.path.exists(self.backup_file):
            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            save_checkpoint(cb_params.train_network, self.backup_file)

    def on_train_end(self, run_context: RunContext) -> None:
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            os.chmod(self.backup_file, stat.S_IWRITE)
            os.remove(self.backup_file)


class OnRequestExit(Callback):
    """Save the network and stop when the process receives ``sig``.

    The signal handler is installed when training (or evaluation) begins. When it fires: with the environment
    variable ``MS_ENABLE_GRACEFUL_EXIT=1`` training stops at the end of the current step, saving
    ``<directory>/rank_<device_id>/<file_name>_train.ckpt`` (with epoch_num, step_num, batch_num, global_step
    and loss_scale); without it (MindSpore's default) training runs to its end and then saves. A config file
    holding ``{"GracefulExit": 1}`` requests the same as the signal. Evaluation stops at the next step and
    saves
    ``<file_name>_eval.ckpt``. A run that finds the train checkpoint loads it first.

    ``save_mindir`` exports the training run's network (the backbone, since a training step can not be traced
    whole yet) as ONNX, ``<file_name>_train.onnx``: MINDIR is MindSpore's own format. Evaluation saves the
    checkpoint only.

    Args:
        save_ckpt (bool): Default: ``True``.
        save_mindir (bool): Default: ``True``.
        file_name (str): Default: ``'Net'``.
        directory (str): Default: ``'./'``.
        config_file (str, optional): a JSON file polled at each step. Default: ``None``.
        sig (int): the signal; not SIGKILL. Default: ``signal.SIGTERM``.

    Examples:
        >>> from cellonnx.train import Model, OnRequestExit
        >>> net = nn.Dense(4, 2)
        >>> data = {"x": np.random.rand(64, 4).astype(np.float32), "y": np.arange(64, dtype=np.int32) % 2}
        >>> dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(16)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> model = Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> model.train(2, dataset, callbacks=[OnRequestExit(file_name="LeNet", directory="./exit")])
    """

    def __init__(self, save_ckpt: bool = True, save_mindir: bool = True, file_name: str = "Net",
                 directory: str = "./", config_file: str | None = None, sig: int = signal.SIGTERM) -> None:
        super().__init__()
        for name, v in (("save_ckpt", save_ckpt), ("save_mindir", save_mindir)):
            if not isinstance(v, bool):
                raise ValueError(f"The parameter '{name}' must be isinstance of bool, but got {v}.")
        if isinstance(sig, bool) or not isinstance(sig, int):
            raise ValueError(f"The parameter 'sig' must be isinstance of int, but got {sig}.")
        if hasattr(signal, "SIGKILL") and sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.save_ckpt = save_ckpt
        self.save_mindir = save_mindir
        self.sig = sig
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self.use_graceful = os.environ.get("MS_ENABLE_GRACEFUL_EXIT") == "1"
        self.stop_train = False
        self.need_do_step_end = False
        self._previous_handler: Any = None
        if save_ckpt or save_mindir:
            base = os.path.join(os.getcwd() if directory is None else directory, f"rank_{context.device_id}")
            folder = _make_directory(base)
            self.train_name = os.path.join(folder, f"{file_name}_train")
            self.eval_name = os.path.join(folder, f"{file_name}_eval")

    def _handle_signal(self, signum: int, frame: Any) -> None:
        self.exit = True

    def _install(self) -> None:
        self._previous_handler = signal.signal(self.sig, self._handle_signal)

    def __exit__(self, *err: object) -> None:
        if self._previous_handler is not None:
            signal.signal(self.sig, self._previous_handler)
            self._previous_handler = None

    def _check_config_info(self) -> bool:
        path = self.remote_config_file
        if path is None or not os.path.exists(path):
            return False
        with open(path, encoding="utf-8") as f:
            try:
                config = json.load(f)
            except json.JSONDecodeError:
                return False
        return config.get(self.key) == 1

    def _export(self, cb: Any) -> None:
        """The backbone as ONNX, traced on the last training batch's data (its label left out with a loss)."""
        element = cb.get("train_dataset_element")
        if element is None:
            return
        from cellonnx.graph.export import export

        inputs = tuple(element)[:-1] if cb.get("loss_fn") is not None else tuple(element)
        export(cb.network, *inputs, file_name=self.train_name, file_format="ONNX")

    def on_train_begin(self, run_context: RunContext) -> None:
        self._install()
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            load_checkpoint(f"{self.train_name}.ckpt", net=run_context.original_args().train_network)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        with self.lock:
            if self.use_graceful and (self.exit or self._check_config_info()):
                self.need_do_step_end = True

    def on_train_step_end(self, run_context: RunContext) -> None:
        self._do_step_end(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        self._do_step_end(run_context)

    def _do_step_end(self, run_context: RunContext) -> None:
        with self.lock:
            if self.stop_train or not self.need_do_step_end:
                return
            cb = run_context.original_args()
            if self.save_ckpt or self.save_mindir:
                append = {"epoch_num": cb.cur_epoch_num, "step_num": cb.cur_step_num,
                          "batch_num": cb.batch_num}
                if cb.get("loss_scale_mananger") is not None:
                    append["loss_scale"] = cb.loss_scale_mananger.get_loss_scale()
                names = {p.name for p in cb.train_network.get_parameters()}
                if cb.get("optimizer") is not None and "global_step" not in names:
                    # (a training network that holds its optimizer saves the step as its own parameter)
                    append["global_step"] = int(cb.optimizer.global_step.asnumpy().reshape(-1)[0])
                self._save_train(cb, append)
            run_context.request_stop()
            self.stop_train = True

    def _save_train(self, cb: Any, append_dict: dict | None) -> None:
        if self.save_ckpt:
            save_checkpoint(cb.train_network, self.train_name, append_dict=append_dict)
        if self.save_mindir:
            self._export(cb)

    def on_train_end(self, run_context: RunContext) -> None:
        if self.exit and not self.stop_train:
            self._save_train(run_context.original_args(), None)

    def on_eval_begin(self, run_context: RunContext) -> None:
        self._install()
        if not self.save_ckpt:
            return
        net = run_context.original_args().eval_network
        for name in (self.eval_name, self.train_name):
            if os.path.isfile(f"{name}.ckpt"):
                load_checkpoint(f"{name}.ckpt", net=net)
                break

    def on_eval_step_end(self, run_context: RunContext) -> None:
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context: RunContext) -> None:
        if not self.exit:
            return
        if self.save_ckpt:
            save_checkpoint(run_context.original_args().eval_network, self.eval_name)
