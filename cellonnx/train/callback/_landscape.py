"""Loss landscapes (MindSpore's ``SummaryLandscape``): the loss over a plane of parameter space around the end
of training, spanned by the two principal directions of the parameters' path through saved checkpoints
('PCA', with the path itself drawn on it) or by two random directions ('Random', around the final
parameters).

``SummaryCollector(collect_specified_data={'collect_landscape': {...}})`` saves the network's parameters at
the steps (or epochs) of each interval into ``{summary_dir}/ckpt_dir`` and, at the end of training, the
``train_metadata.json`` that ``SummaryLandscape`` reads. Each direction is scaled per parameter to that
parameter's norm (weights and biases only; other parameters stay fixed), and the landscape is written by
``SummaryRecord`` as tensors under ``landscape_[first, last]``.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
from collections import defaultdict, namedtuple
from collections.abc import Callable
from concurrent.futures import ALL_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

import numpy as np

from cellonnx import log as logger
from cellonnx.tensor import Parameter, Tensor

__all__ = ["LossLandscape", "SummaryLandscape"]

Points = namedtuple("Points", ["x", "y", "z"])
METADATA = "train_metadata.json"
_LANDSCAPE_KEYS = ("landscape_size", "unit", "num_samples", "create_landscape", "intervals")
_FILE_KEYS = ("epoch_group", "model_params_file_map", "step_per_epoch", "unit", "num_samples",
              "landscape_size", "create_landscape")


class LossLandscape:
    """One landscape as SummaryRecord writes it (MindSpore's LossLandscape message): the grid's axes and
    losses, the path through the checkpoints (PCA) with its intervals, the convergence point and metadata.

    Attributes:
        landscape (Points): x (size,), y (size,), z (size, size).
        loss_path (Points | None): the checkpoints' coordinates and losses; ``intervals`` their numbers.
        convergence_point (Points | None): the final parameters' point.
        decomposition (str): 'PCA' or 'Random'. unit (str): 'step' or 'epoch'. step_per_epoch (int).
    """

    def __init__(self, landscape: Points, decomposition: str, intervals: list,
                 loss_path: Points | None = None, convergence_point: Points | None = None, unit: str = "step",
                 step_per_epoch: int = 1) -> None:
        self.landscape = landscape
        self.decomposition = decomposition
        self.intervals = list(intervals)
        self.loss_path = loss_path
        self.convergence_point = convergence_point
        self.unit = unit
        self.step_per_epoch = step_per_epoch

    def tensors(self) -> list[tuple[str, np.ndarray]]:
        """(tag suffix, array) of every field, as SummaryRecord records them."""
        out = [(f"landscape/{k}", np.asarray(v)) for k, v in zip("xyz", self.landscape)]
        if self.loss_path is not None:
            out.append(("loss_path/intervals", np.asarray(self.intervals)))
            out += [(f"loss_path/{k}", np.asarray(v)) for k, v in zip("xyz", self.loss_path)]
        if self.convergence_point is not None:
            out += [(f"convergence_point/{k}", np.asarray(v)) for k, v in zip("xyz", self.convergence_point)]
        out.append(("metadata/step_per_epoch", np.asarray([self.step_per_epoch])))
        return out


def _check_type(name: str, value: Any, types: tuple, owner: str = "SummaryLandscape") -> None:
    if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
        raise TypeError(f'For "{owner}", the type of `{name}` should be {[t.__name__ for t in types]}, but '
                        f"got {type(value).__name__}.")


def check_landscape_size(size: Any, owner: str) -> None:
    _check_type("landscape_size", size, (int,), owner)
    if size < 3 or size > 256:
        raise ValueError(f'For "{owner}", "landscape_size" should be between 3 and 256, but got the: {size}')


def check_unit(unit: Any, owner: str) -> None:
    _check_type("unit", unit, (str,), owner)
    if unit not in ("step", "epoch"):
        raise ValueError(f'For "{owner}", the "unit" should be step or epoch, but got the: {unit}')


def check_create_landscape(create: Any, owner: str, both: bool) -> None:
    _check_type("create_landscape", create, (dict,), owner)
    for key, value in create.items():
        if key not in ("train", "result"):
            raise ValueError(f'For "{owner}", the key of "create_landscape" should be in ["train", '
                             f'"result"], but got the: {key}.')
        if both and len(create) < 2:
            raise ValueError(f'For "{owner}", the key of "create_landscape" should be train and result, but '
                             f"only got the: {key}")
        _check_type(key, value, (bool,), owner)


def check_intervals(intervals: Any, owner: str) -> None:
    _check_type("intervals", intervals, (list,), owner)
    for interval in intervals:
        _check_type("each interval in intervals", interval, (list,), owner)
        if len(interval) < 3:
            raise ValueError(f'For "{owner}", the length of each list in "intervals" should not be less than '
                             f"three, but got the: {interval}.")
        for j in interval:
            if isinstance(j, bool) or not isinstance(j, int):
                raise TypeError(f'For "{owner}", the type of each value in "intervals" should be int, but '
                                f"got the: {type(j)}.")


def check_collect_landscape(spec: dict, owner: str, both: bool = False) -> None:
    """The keys and values of a ``collect_landscape`` dict (MindSpore's checks)."""
    for key in spec:
        if key not in _LANDSCAPE_KEYS:
            raise ValueError(f'For "{owner}", the key of collect landscape should be landscape_size, unit, '
                             f"num_samples, create_landscape or intervals, but got the: {key}. ")
    if "landscape_size" in spec:
        check_landscape_size(spec["landscape_size"], owner)
    if "unit" in spec:
        check_unit(spec["unit"], owner)
    if "num_samples" in spec:
        _check_type("num_samples", spec["num_samples"], (int,), owner)
    if "create_landscape" in spec:
        check_create_landscape(spec["create_landscape"], owner, both)
    if "intervals" in spec:
        check_intervals(spec["intervals"], owner)


def _weight_or_bias(name: str) -> bool:
    return ("weight" in name or "bias" in name) and "moment" not in name


class _PCA:
    """The first ``n_comps`` principal components (rows: samples), scaled by their singular values: the
    columns' mean removed, an SVD, signs fixed so each column's largest entry is positive. (MindSpore takes a
    randomized SVD for large inputs; with as few columns as checkpoints it spans them exactly, and this exact
    SVD gives the same components.)"""

    def __init__(self, n_comps: int) -> None:
        self._n_comps = n_comps

    def compute(self, x: np.ndarray) -> np.ndarray:
        x = x - np.mean(x, axis=0)
        u, s, _ = np.linalg.svd(x, full_matrices=False)
        cols = np.argmax(np.abs(u), axis=0)
        u = u * np.sign(u[cols, np.arange(u.shape[1])])
        s = np.where(s == 0, 1e-19, s)
        return u[:, :self._n_comps] * s[:self._n_comps]


class SummaryLandscape:
    """SummaryLandscape can help collect loss landscape information.

    It computes the loss over the plane of the two principal directions of the training path through the
    checkpoints that ``SummaryCollector``'s ``collect_landscape`` saved (one landscape per interval, with the
    path's points), and over two random directions around the final checkpoint, and writes them through
    ``SummaryRecord`` into the summary folder.

    Args:
        summary_dir (str): the summary folder of the training (its ``ckpt_dir`` holds the checkpoints and
            ``train_metadata.json``).

    Examples:
        >>> from cellonnx.train import Loss, Model, SummaryCollector, SummaryLandscape
        >>> def data():
        ...     x = np.random.RandomState(0).rand(32, 4).astype(np.float32)
        ...     return ms.dataset.NumpySlicesDataset({"x": x, "y": np.arange(32, dtype=np.int32) % 2},
        ...                                          shuffle=False).batch(8)
        >>> ms.set_seed(1)
        >>> net = nn.Dense(4, 2)
        >>> loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> collector = SummaryCollector("./summary_landscape", collect_specified_data={"collect_landscape": {
        ...     "landscape_size": 4, "unit": "step", "num_samples": 16, "intervals": [[1, 2, 3, 4]],
        ...     "create_landscape": {"train": True, "result": True}}})
        >>> Model(net, loss_fn, nn.Momentum(net.trainable_params(), 0.1, 0.9)).train(1, data(),
        ...                                                                          callbacks=[collector])
        >>> def callback_fn():
        ...     network = nn.Dense(4, 2)
        ...     metrics = {"Loss": Loss()}
        ...     return Model(network, loss_fn, metrics=metrics), network, data(), metrics
        >>> landscape = SummaryLandscape("./summary_landscape")
        >>> landscape.gen_landscapes_with_multi_process(callback_fn, device_ids=[0])
        >>> landscape.clean_ckpt()
    """

    def __init__(self, summary_dir: str) -> None:
        self._summary_dir = os.path.realpath(summary_dir)
        self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
        os.makedirs(self._ckpt_dir, exist_ok=True)
        self._model_params_file_map: dict[str, str] = {}
        self._epoch_group: Any = defaultdict(list)
        self._metric_fns: dict | None = None

    def clean_ckpt(self) -> None:
        """Clean the checkpoint."""
        shutil.rmtree(self._ckpt_dir, ignore_errors=True)

    # ---------------------------------------------------------------- the public entry
    def gen_landscapes_with_multi_process(self, callback_fn: Callable[[], tuple],
                                          collect_landscape: dict | None = None,
                                          device_ids: list[int] | None = None,
                                          output: str | None = None) -> None:
        """Use the multiple processes to generate landscape.

        Args:
            callback_fn (Callable): takes nothing, returns ``(model, network, dataset, metrics)``: a Model
                whose ``train_network`` gives the loss (a Model without optimizer), its network (the
                parameters are loaded into it), the evaluation dataset (its first ``num_samples`` rows are
                used) and the metrics (``{'Loss': Loss()}``). With several ``device_ids`` it runs in worker
                processes, so it must be picklable (a module-level function).
            collect_landscape (Union[dict, None]): overrides of what ``SummaryCollector`` recorded:
                ``landscape_size`` (3 to 256), ``create_landscape`` ({'train': bool, 'result': bool}),
                ``num_samples``, ``intervals`` (lists of at least three step / epoch numbers), ``unit``.
                Default: ``None``.
            device_ids (List(int)): one worker process per id (0 to 7) when there are several; the grid's
                rows are split among them.
            output (str): the folder of the summary file. Default: ``None`` (``summary_dir``).

        Raises:
            TypeError / ValueError: a bad `device_ids` or `collect_landscape`.
            FileNotFoundError: no ``train_metadata.json`` (the training collected no landscape data).
        """
        from cellonnx.train.summary import SummaryRecord

        self._check_device_ids(device_ids)
        assert device_ids is not None
        executor = ProcessPoolExecutor(len(device_ids)) if len(device_ids) > 1 else None
        output_path = os.path.realpath(output) if output is not None else self._summary_dir
        record = SummaryRecord(output_path)
        try:
            if collect_landscape is not None:
                self._apply_overrides(collect_landscape)
            for interval, landscape in self._list_landscapes(callback_fn, executor, device_ids):
                record.add_value("landscape", f"landscape_{interval}", landscape)
                record.record(0)
                record.flush()
        finally:
            record.close()
            if executor is not None:
                executor.shutdown()

    def _apply_overrides(self, collect_landscape: dict) -> None:
        check_collect_landscape(collect_landscape, type(self).__name__, both=True)
        json_path = os.path.join(self._ckpt_dir, METADATA)
        if not os.path.exists(json_path):
            raise FileNotFoundError(f'For "{type(self).__name__}", train_metadata.json file path of '
                                    f"{json_path} not exists.")
        with open(json_path, encoding="utf-8") as file:
            data = json.load(file)
        for key, value in collect_landscape.items():
            if key in data:
                data[key] = value
        if "intervals" in collect_landscape:
            for i, interval in enumerate(collect_landscape["intervals"]):
                self._epoch_group[i].extend(interval)
            data["epoch_group"] = self._epoch_group
        os.chmod(json_path, stat.S_IRUSR | stat.S_IWUSR)
        with open(json_path, "w", encoding="utf-8") as file:
            json.dump(data, file)
        os.chmod(json_path, stat.S_IRUSR)

    def _read_metadata(self) -> dict:
        path = os.path.join(self._ckpt_dir, METADATA)
        if not os.path.exists(path):
            raise FileNotFoundError(f'For "{type(self).__name__}", train_metadata.json file does not exist '
                                    f"under the path, please use summary_collector to collect information to "
                                    f"create the json file")
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        self._check_json_file_data(data)
        return data

    def _list_landscapes(self, callback_fn: Callable, executor: Any, device_ids: list[int]) -> Any:
        data = self._read_metadata()
        self._epoch_group = data["epoch_group"]
        self._model_params_file_map = data["model_params_file_map"]
        kwargs = {"proz": 0.2, "landscape_size": data["landscape_size"], "device_ids": device_ids,
                  "callback_fn": callback_fn, "executor": executor}
        meta = {"unit": data["unit"], "step_per_epoch": data["step_per_epoch"]}
        if data["create_landscape"]["train"]:
            for i, epochs in enumerate(self._epoch_group.values()):
                logger.info(f"Start to create the {i + 1}/{len(self._epoch_group)} landscapes, checkpoint is "
                            f"{epochs}, decomposition is PCA.")
                landscape = self._create_landscape_by_pca(epochs, **kwargs)
                landscape.unit, landscape.step_per_epoch = meta["unit"], meta["step_per_epoch"]
                yield [epochs[0], epochs[-1]], landscape
        if data["create_landscape"]["result"]:
            final = [list(self._epoch_group.values())[-1][-1]]
            logger.info(f"Start to create the landscape, checkpoint is {final}, decomposition is Random.")
            landscape = self._create_landscape_by_random(final, **kwargs)
            landscape.unit, landscape.step_per_epoch = meta["unit"], meta["step_per_epoch"]
            yield final, landscape

    # ---------------------------------------------------------------- directions
    def _get_model_params(self, epochs: list) -> list[list[Parameter]]:
        from cellonnx.checkpoint import load_checkpoint

        return [list(load_checkpoint(self._model_params_file_map[str(e)]).values()) for e in epochs]

    @staticmethod
    def _reshape_vector(vector: np.ndarray, params: list[Parameter]) -> list[np.ndarray]:
        """The flat direction cut into the weights' and biases' shapes (other parameters: their values)."""
        out, index = [], 0
        for p in params:
            data = p.asnumpy()
            if not _weight_or_bias(p.name):
                out.append(np.array(data, dtype=np.float32))
                continue
            out.append(np.array(vector[index:index + data.size].reshape(data.shape), dtype=np.float32))
            index += data.size
        return out

    @staticmethod
    def _normalize_vector(params: list[Parameter], v: list[np.ndarray], w: list[np.ndarray]
                          ) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Each weight / bias part scaled to that parameter's norm; the other parts zero."""
        for i, p in enumerate(params):
            if _weight_or_bias(p.name):
                norm = np.linalg.norm(p.asnumpy())
                v[i] = v[i] * (norm / np.linalg.norm(v[i]))
                w[i] = w[i] * (norm / np.linalg.norm(w[i]))
            else:
                v[i], w[i] = v[i] * 0, w[i] * 0
        return v, w

    @staticmethod
    def _flat(arrays: list[np.ndarray]) -> np.ndarray:
        return np.concatenate([a.ravel() for a in arrays], axis=None)

    def _calc_coefs(self, groups: list[list[Parameter]], final: list[np.ndarray], v: np.ndarray, w: np.ndarray
                    ) -> np.ndarray:
        """Each checkpoint's coordinates in the plane (least squares of its offset from the final one)."""
        basis = np.vstack([v, w]).T
        end = self._flat(final)
        coefs = []
        for params in groups:
            offset = self._flat([p.asnumpy() for p in params if _weight_or_bias(p.name)]) - end
            coefs.append(np.hstack(np.linalg.lstsq(basis, offset, rcond=None)[0]))
        return np.array(coefs)

    def _create_landscape_by_pca(self, epochs: list, proz: float, landscape_size: int, device_ids: list,
                                 callback_fn: Callable, executor: Any) -> LossLandscape:
        groups = self._get_model_params(epochs)
        matrix = np.vstack([self._flat([p.asnumpy() for p in ps if _weight_or_bias(p.name)])
                            for ps in groups])
        matrix = matrix[:-1] - matrix[-1]
        components = _PCA(2).compute(matrix.T)
        v_ori, w_ori = components[:, 0], components[:, -1]
        final = list(groups[-1])
        v_all, w_all = self._normalize_vector(final, self._reshape_vector(v_ori, final),
                                              self._reshape_vector(w_ori, final))
        filtered = [p for p in final if _weight_or_bias(p.name)]
        v_f, w_f = self._normalize_vector(filtered, self._reshape_vector(v_ori, filtered),
                                          self._reshape_vector(w_ori, filtered))
        coefs = self._calc_coefs(groups, [p.asnumpy() for p in filtered], self._flat(v_f), self._flat(w_f))
        cx, cy = coefs[:, 0], coefs[:, 1]
        x_axis = np.linspace(cx.min() - proz * (cx.max() - cx.min()), cx.max() + proz * (cx.max() - cx.min()),
                             landscape_size)
        y_axis = np.linspace(cy.min() - proz * (cy.max() - cy.min()), cy.max() + proz * (cy.max() - cy.min()),
                             landscape_size)
        x_points, y_points = np.meshgrid(x_axis, y_axis)
        final_values = {p.name: p.asnumpy() for p in final}
        paths, z_points = self._run_parts(callback_fn, executor, device_ids, final_values, v_all, w_all,
                                          x_points, y_points, coefs)
        paths = np.array(paths)
        path = Points(cx, cy, paths.T[0])
        zero = int(np.flatnonzero(path.x == 0)[0])
        return LossLandscape(Points(x_axis, y_axis, np.vstack(z_points)), "PCA", epochs, loss_path=path,
                             convergence_point=Points(np.array([0]), np.array([0]), np.array([path.z[zero]])))

    def _create_landscape_by_random(self, epochs: list, proz: float, landscape_size: int, device_ids: list,
                                    callback_fn: Callable, executor: Any) -> LossLandscape:
        final = list(self._get_model_params(epochs)[-1])
        shapes = [p.asnumpy().shape for p in final]
        total = sum(int(np.prod(s)) for s in shapes)
        v_rand, w_rand = np.random.normal(size=total), np.random.normal(size=total)

        def cut(vec: np.ndarray) -> list[np.ndarray]:
            out, index = [], 0
            for s in shapes:
                n = int(np.prod(s))
                out.append(np.array(vec[index:index + n].reshape(s), dtype=np.float32))
                index += n
            return out

        v_all, w_all = self._normalize_vector(final, cut(v_rand), cut(w_rand))
        x_axis = np.linspace(-proz * 5, proz * 5, landscape_size)
        y_axis = np.linspace(-proz * 5, proz * 5, landscape_size)
        x_points, y_points = np.meshgrid(x_axis, y_axis)
        final_values = {p.name: p.asnumpy() for p in final}
        _, z_points = self._run_parts(callback_fn, executor, device_ids, final_values, v_all, w_all,
                                      x_points, y_points, None)
        mid = len(x_axis) // 2
        return LossLandscape(Points(x_axis, y_axis, np.vstack(z_points)), "Random", epochs,
                             convergence_point=Points(np.array([x_axis[mid]]), np.array([y_axis[mid]]),
                                                      np.array([z_points[mid][mid]])))

    # ---------------------------------------------------------------- losses
    def _run_parts(self, callback_fn: Callable, executor: Any, device_ids: list, final_values: dict,
                   v: list, w: list, x_points: np.ndarray, y_points: np.ndarray, coefs: np.ndarray | None
                   ) -> tuple[list, list]:
        """(path losses, landscape rows), the rows (and the path) split among the worker processes."""
        if executor is None:
            return self._cont_loss_wrapper(callback_fn, final_values, v, w, x_points, y_points, coefs)
        parts = len(device_ids)
        y_parts = _split(y_points, parts)
        c_parts = _split(coefs, parts) if coefs is not None else [None] * parts
        futures = [executor.submit(self._cont_loss_wrapper, callback_fn, final_values, v, w, x_points,
                                   y_parts[i], c_parts[i]) for i in range(parts)]
        wait(futures, return_when=ALL_COMPLETED)
        paths: list = []
        z_points: list = []
        for future in futures:
            part_paths, part_z = future.result()
            paths += part_paths
            z_points += part_z
        return paths, z_points

    def _cont_loss_wrapper(self, callback_fn: Callable, final_values: dict, v: list, w: list,
                           x_points: np.ndarray, y_points: np.ndarray, coefs: np.ndarray | None
                           ) -> tuple[list, list]:
        model, network, dataset, metrics = callback_fn()
        data = self._read_metadata()
        num_batches = data["num_samples"] // dataset.get_batch_size()
        dataset = dataset.take(num_batches)
        params = [Parameter(Tensor(value), name=key, requires_grad=True)
                  for key, value in final_values.items()]
        finals = list(final_values.values())
        paths = []
        if coefs is not None:
            for i, coef in enumerate(coefs):
                loss = self._cont_loss(dataset, network, model, metrics, params, finals, [coef[0]], coef[1],
                                       v, w)
                paths.append(loss)
                logger.info(f"Drawing landscape path total progress is {i + 1}/{len(coefs)}, landscape path "
                            f"loss is {loss[0]}.")
        z_points = []
        for i, y_point in enumerate(y_points):
            logger.info(f"Drawing landscape total progress: {i + 1}/{len(y_points)}.")
            z_points.append(self._cont_loss(dataset, network, model, metrics, params, finals, x_points[i],
                                            y_point[0], v, w))
        return paths, z_points

    def _cont_loss(self, dataset: Any, network: Any, model: Any, metrics: Any, params: list[Parameter],
                   finals: list[np.ndarray], alphas: Any, beta: float, v: list, w: list) -> np.ndarray:
        """The loss at (alpha, beta) for each alpha: final + alpha v + beta w loaded into the network."""
        from cellonnx.checkpoint import load_param_into_net

        vals: np.ndarray = np.array([])
        for alpha in alphas:
            values = {}
            for j, p in enumerate(params):
                target = finals[j] + alpha * v[j] + beta * w[j]
                p.set_data(Tensor(np.asarray(target).astype(np.float32)))
                values[p.name] = p
            load_param_into_net(network, values)
            vals = np.append(vals, self._loss_compute(model, dataset, metrics).get("Loss"))
        return vals

    def _loss_compute(self, model: Any, dataset: Any, metrics: Any) -> dict:
        from cellonnx.nn.metrics import get_metrics

        self._metric_fns = get_metrics(metrics)
        for metric in self._metric_fns.values():
            metric.clear()
        network = model.train_network
        network.set_train(True)
        for inputs in dataset.create_tuple_iterator(num_epochs=1):
            outputs = network(*(inputs if isinstance(inputs, (tuple, list)) else (inputs,)))
            outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
            if not isinstance(outputs, tuple):
                raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}. Modify "
                                 "'output' to Tensor or tuple. ")
            for metric in self._metric_fns.values():
                metric.update(outputs[0])
        return {key: metric.eval() for key, metric in self._metric_fns.items()}

    # ---------------------------------------------------------------- checks
    def _check_device_ids(self, device_ids: Any) -> None:
        if not isinstance(device_ids, list):
            raise TypeError(f'For "{type(self).__name__}.gen_landscapes_with_multi_process", the parameter '
                            f'"device_ids" should be a list, but got {type(device_ids).__name__}.')
        for i in device_ids:
            if isinstance(i, bool) or not isinstance(i, int):
                raise TypeError(f'For "{type(self).__name__}.gen_landscapes_with_multi_process", the '
                                f'parameter "device_ids" type should be int, but got the: {type(i)}.')
            if i < 0 or i > 7:
                raise ValueError(f'For "{type(self).__name__}.gen_landscapes_with_multi_process", the '
                                 f'parameter "device_ids" should be between 0 and 7, but got {i}.')

    def _check_json_file_data(self, data: dict) -> None:
        owner = type(self).__name__
        for key in data:
            if key not in _FILE_KEYS:
                raise ValueError(f'"train_metadata" json file should be {list(_FILE_KEYS)}, but got the: '
                                 f"{key}")
        for epochs in data["epoch_group"].values():
            if len(epochs) < 3:
                raise ValueError(f'For "{owner}", the "epoch_group" in train_metadata.json, length of each '
                                 f'list in "epoch_group" should not be less than 3, but got: {len(epochs)}. ')
            for epoch in epochs:
                if str(epoch) not in data["model_params_file_map"]:
                    raise ValueError(f'For "{owner}", the "model_params_file_map" in train_metadata.json '
                                     f"does not exist {epoch}th checkpoint in intervals.")
        _check_type("step_per_epoch", data["step_per_epoch"], (int,), owner)
        check_landscape_size(data["landscape_size"], owner)
        check_unit(data["unit"], owner)
        _check_type("num_samples", data["num_samples"], (int,), owner)
        check_create_landscape(data["create_landscape"], owner, both=True)


def _split(values: np.ndarray, parts: int) -> list:
    """MindSpore's split among workers: equal counts, the last part taking the rest."""
    count = len(values) // parts
    return [values[i * count:(i + 1) * count] if i != parts - 1 else values[i * count:] for i in range(parts)]


class LandscapeCollector:
    """SummaryCollector's side: the backbone's parameters saved at the steps / epochs of the intervals and the
    metadata written at the end of training."""

    def __init__(self, summary_dir: str, spec: dict) -> None:
        check_collect_landscape(spec, "SummaryCollector")
        check_intervals(spec.get("intervals"), "SummaryCollector")
        self.spec = spec
        self.ckpt_dir = os.path.join(summary_dir, "ckpt_dir")
        os.makedirs(self.ckpt_dir, exist_ok=True)
        self.model_params_file_map: dict[str, str] = {}
        self.epoch_group: dict[int, list] = defaultdict(list)
        for i, interval in enumerate(spec["intervals"]):
            self.epoch_group[i].extend(interval)

    @property
    def unit(self) -> str:
        return self.spec.get("unit", "step")

    def _wanted(self, number: int) -> bool:
        return any(number in interval for interval in self.spec["intervals"])

    def step_end(self, cb_params: Any) -> None:
        if self.unit == "step" and self._wanted(cb_params.cur_step_num):
            self._save(cb_params.cur_step_num, cb_params.train_network)

    def epoch_end(self, cb_params: Any) -> None:
        if self.unit == "epoch" and self._wanted(cb_params.cur_epoch_num):
            self._save(cb_params.cur_epoch_num, cb_params.train_network)

    @staticmethod
    def _backbone(network: Any) -> Any:
        backbone = next((c._backbone for _, c in network.cells_and_names()
                         if hasattr(c, "_backbone")), network)
        while "network" in backbone.name_cells():
            has_optimizer = "optimizer" in backbone.name_cells()
            backbone = backbone.network
            if has_optimizer:
                break
        return backbone

    def _save(self, number: int, network: Any) -> None:
        from cellonnx.checkpoint import save_checkpoint

        backbone = self._backbone(network)
        path = os.path.join(self.ckpt_dir, f"{type(backbone).__name__}_{number}_{self.unit}.ckpt")
        self.model_params_file_map[str(number)] = path
        if not os.path.isfile(path):
            save_checkpoint([{"name": p.name, "data": Tensor(p.asnumpy())}
                             for p in backbone.get_parameters()], path)

    def end(self, step_per_epoch: int) -> None:
        path = os.path.join(self.ckpt_dir, METADATA)
        if os.path.isfile(path):
            return
        data = {"epoch_group": self.epoch_group, "model_params_file_map": self.model_params_file_map,
                "step_per_epoch": step_per_epoch, "unit": self.unit,
                "num_samples": self.spec.get("num_samples", 2048),
                "landscape_size": self.spec.get("landscape_size", 40),
                "create_landscape": self.spec.get("create_landscape", {"train": True, "result": True})}
        with open(path, "w", encoding="utf-8") as file:
            json.dump(data, file)
        os.chmod(path, stat.S_IRUSR)
