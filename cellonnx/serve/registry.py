"""The models one server serves, shared by its HTTP and gRPC endpoints: every version with its scheduler
(batching core) and statistics, the thread pool that runs onnxruntime, and the Prometheus metrics.

Models come from ONNX files (one version, "1") or from a Triton model repository, managed as tritonserver's
--model-control-mode says:

- none: every model of the repository is loaded at start; the repository API may not load or unload;
- poll: the same, and the repository is re-read every `poll_s` seconds: a changed config.pbtxt or model file,
  a new or removed version folder or model folder is loaded or unloaded without a restart (a model whose
  reload fails keeps serving what it served);
- explicit: only the models named at start (`*`: all) are loaded; the repository API loads, reloads and
  unloads them.

A reload builds the new versions beside the old ones (onnxruntime sessions load on a helper thread) and swaps
them in at once; versions whose files did not change are kept as they are, with their statistics.
"""
from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Hashable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from google.protobuf import json_format
from tritonclient.grpc import model_config_pb2

from cellonnx.serve.batcher import RunObserver, Scheduler
from cellonnx.serve.config import ServerConfig
from cellonnx.serve.errors import BadRequest, ModelLoadError, NotAllowed, NotFound, Unavailable
from cellonnx.serve.metrics import UNKNOWN_MODEL, Metrics
from cellonnx.serve.model import RequestTensor, ServedModel
from cellonnx.serve.repository import (
    DEVICE_OF_KIND,
    ModelConfig,
    complete_config,
    model_names,
    read_model,
)
from cellonnx.serve.stats import Statistics
from cellonnx.serve.triton import model_config

_log = logging.getLogger("cellonnx.serve")
CONTROL_MODES = ("none", "poll", "explicit")
READY, UNAVAILABLE = "READY", "UNAVAILABLE"


@dataclass(frozen=True)
class Reshape:
    """A config tensor's `reshape`: the shape clients see (`outer`, its dims) and the one the ONNX model has
    (`inner`), both without the batch axis when max_batch_size > 0."""

    outer: tuple[int, ...]
    inner: tuple[int, ...]


@dataclass(eq=False)
class Version:
    """One served version of a model.

    Args:
        model: its onnxruntime session and signature.
        scheduler: runs its requests, batching them where the config allows.
        stats: Triton-style statistics.
        max_batch_size: the largest first axis a request may have (Triton's max_batch_size; 0: no limit
            checked, as for ONNX files served directly).
        stamp: what its files looked like when loaded (a repository version is kept across reloads while
            its stamp and the config stay the same).
        input_reshapes, output_reshapes: the config's `reshape` of inputs and outputs, by name: requests
            and responses carry the config's dims, the model its own shapes, as in Triton.
    """

    model: ServedModel
    scheduler: Scheduler
    stats: Statistics
    max_batch_size: int = 0
    stamp: Hashable = None
    input_reshapes: Mapping[str, Reshape] = field(default_factory=dict)
    output_reshapes: Mapping[str, Reshape] = field(default_factory=dict)

    def _outer(self, reshape: Reshape) -> list[int]:
        return ([-1] if self.max_batch_size > 0 else []) + list(reshape.outer)

    def _to_model(self, tensor: RequestTensor) -> RequestTensor:
        reshape = self.input_reshapes.get(tensor.name)
        if reshape is None:
            return tensor
        lead = 1 if self.max_batch_size > 0 else 0
        shape = tensor.array.shape
        outer = self._outer(reshape)
        if len(shape) != len(outer) or any(o not in (-1, d) for o, d in zip(outer, shape)):
            raise BadRequest(f"input '{tensor.name}' of model '{self.model.name}' has shape {list(shape)}; "
                             f"the model expects {outer} (-1: any size)")
        return RequestTensor(tensor.name, tensor.datatype, tensor.array.reshape(shape[:lead] + reshape.inner))

    def finish(self, results: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """A run's outputs in the shapes clients see (the config's dims where it reshapes them)."""
        lead = 1 if self.max_batch_size > 0 else 0
        for name, reshape in self.output_reshapes.items():
            if name in results:
                array = results[name]
                results[name] = array.reshape(array.shape[:lead] + reshape.outer)
        return results

    def metadata(self) -> dict[str, Any]:
        meta = self.model.metadata()
        for key, reshapes in (("inputs", self.input_reshapes), ("outputs", self.output_reshapes)):
            for tensor in meta[key]:
                if tensor["name"] in reshapes:
                    tensor["shape"] = self._outer(reshapes[tensor["name"]])
        return meta

    def prepare(self, inputs: Sequence[RequestTensor], outputs: Iterable[str] | None) -> tuple[
            dict[str, np.ndarray], list[str]]:
        """The checked feeds and the output names to compute (all of them when `outputs` is None)."""
        feeds = self.model.check_inputs([self._to_model(t) for t in inputs])
        if self.max_batch_size > 0:
            for name, array in feeds.items():
                if array.ndim == 0 or array.shape[0] > self.max_batch_size:
                    rows = "no batch axis" if array.ndim == 0 else f"batch size {array.shape[0]}"
                    raise BadRequest(f"input '{name}' of model '{self.model.name}' has {rows}; the model "
                                     f"takes at most {self.max_batch_size} rows (max_batch_size)")
        names = list(self.model.output_names if outputs is None else outputs)
        self.model.check_outputs(names)
        return feeds, names


@dataclass(eq=False)
class Entry:
    """A model name and what it serves: READY with its versions, or UNAVAILABLE with the reason."""

    name: str
    state: str
    reason: str = ""
    versions: dict[str, Version] = field(default_factory=dict)
    config: Any = None  # the ModelConfig message
    fingerprint: Hashable = None

    def version(self, version: str | None) -> Version:
        if self.state != READY or not self.versions:
            raise Unavailable(f"model '{self.name}' is not available: {self.reason or 'not loaded'}")
        if not version:
            return self.versions[max(self.versions, key=int)]
        found = self.versions.get(version)
        if found is None:
            raise BadRequest(f"model '{self.name}' has no version '{version}'; its versions are "
                             f"{sorted(self.versions, key=int)}")
        return found


class Registry:
    """The served models.

    Args:
        config: the server's knobs (worker threads, batching of ONNX files given directly).
        models: ONNX files already opened, each served as version "1".
        repository: a Triton model repository folder.
        control: how the repository's models are managed: "none", "poll" or "explicit".
        load: in explicit mode, the models loaded at start ("*": every one).
        poll_s: seconds between two reads of the repository in poll mode.
        device: where models whose instance_group says neither KIND_CPU nor KIND_GPU run.

    Raises:
        ValueError: an unknown control mode, a poll interval not above 0, or two models of one name.
        ModelLoadError: in explicit mode, ``load`` names a model the repository does not hold.

    Examples:
        >>> from cellonnx.serve import Registry, ServedModel, export_model_repository
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> registry = Registry(models=[ServedModel("mlp.onnx")])
        >>> registry.ready_names(), registry.is_ready("mlp")
        (['mlp'], True)
        >>> _ = export_model_repository("mlp.onnx", "repo", name="classifier")
        >>> print(Registry(repository="repo").index())
        [{'name': 'classifier', 'version': '1', 'state': 'READY', 'reason': ''}]
    """

    def __init__(self, config: ServerConfig | None = None, models: Sequence[ServedModel] = (),
                 repository: str | os.PathLike[str] | None = None, control: str = "none",
                 load: Sequence[str] = (), poll_s: float = 15.0, device: str = "cpu") -> None:
        if control not in CONTROL_MODES:
            raise ValueError(f"unknown model-control mode {control!r}; expected one of {list(CONTROL_MODES)}")
        if poll_s <= 0:
            raise ValueError(f"the repository poll interval must be > 0 seconds, got {poll_s}")
        self.config = config or ServerConfig()
        self.repository = Path(repository) if repository is not None else None
        self.control = control if self.repository is not None else "none"
        self.poll_s = poll_s
        self.device = device
        self.metrics = Metrics()
        self.executor = ThreadPoolExecutor(max_workers=self.config.workers,
                                           thread_name_prefix="cellonnx-infer")
        self._entries: dict[str, Entry] = {}
        self._lock: asyncio.Lock | None = None
        self._poller: asyncio.Task[None] | None = None
        self._started = False
        for model in models:
            if model.name in self._entries:
                raise ValueError(f"two models share a name: ['{model.name}']")
            self._entries[model.name] = self._file_entry(model)
        if self.repository is not None:
            names = model_names(self.repository)
            if control == "explicit" and "*" not in load:
                unknown = sorted(set(load) - set(names))
                if unknown:
                    raise ModelLoadError(f"model repository {self.repository} has no model folder(s) "
                                         f"{unknown}; it holds {names}")
                names = [n for n in names if n in load]
            for name in names:
                if name in self._entries:
                    raise ValueError(f"two models share a name: ['{name}']")
                self._entries[name] = self._build(name, None)

    # ---------------------------------------------------------------- building
    def _observer(self, name: str, stats: Statistics) -> RunObserver:
        def observe(rows: int, requests: int, seconds: float) -> None:
            self.metrics.observe_run(name, rows, requests, seconds)
            stats.observe_run(rows, seconds)
        return observe

    def _file_entry(self, model: ServedModel) -> Entry:
        stats = Statistics()
        scheduler = Scheduler(model, self.executor, self.config.workers, self.config.max_batch,
                              self.config.batch_delay_ms / 1000.0, self._observer(model.name, stats))
        max_batch = self.config.max_batch if scheduler.batching else 0
        config = json_format.ParseDict(
            model_config(model.signature, model.name, max_batch, 1, model.device,
                         int(self.config.batch_delay_ms * 1000)), ModelConfig())
        return Entry(model.name, READY, versions={model.version: Version(model, scheduler, stats)},
                     config=config)

    def _build(self, name: str, previous: Entry | None) -> Entry:
        """The entry for repository model `name` (blocking: opens onnxruntime sessions); `previous` itself
        when its files did not change, an UNAVAILABLE entry when the folder cannot be served."""
        assert self.repository is not None
        fingerprint: Hashable = None
        try:
            source = read_model(self.repository, name)
            fingerprint = source.fingerprint
            if previous is not None and previous.fingerprint == fingerprint:
                return previous
            groups = source.config.instance_group
            kind_names = {model_config_pb2.ModelInstanceGroup.Kind.Name(g.kind) for g in groups}
            device = next((DEVICE_OF_KIND[k] for k in ("KIND_GPU", "KIND_CPU") if k in kind_names),
                          self.device)
            count = sum(g.count or 1 for g in groups)
            config_hash, stamps = source.fingerprint
            same_config = (previous is not None and previous.state == READY
                           and previous.fingerprint is not None and previous.fingerprint[0] == config_hash)
            reusable = previous.versions if same_config and previous is not None else {}
            stamp_of = dict(stamps)
            models: dict[str, ServedModel] = {}
            for version, path in source.versions.items():
                kept = reusable.get(version)
                models[version] = (kept.model if kept is not None and kept.stamp == stamp_of[version]
                                   else ServedModel(path, name, device, version=version))
            if source.has_config:
                configs = [complete_config(source.config, m.signature) for m in models.values()]
                config = configs[-1]
            else:
                signature = models[max(models, key=int)].signature
                max_batch = self.config.max_batch if signature.batchable else 0
                config = json_format.ParseDict(model_config(signature, name, max_batch, 1, device),
                                               ModelConfig())
        except (ModelLoadError, OSError) as exc:
            return Entry(name, UNAVAILABLE, str(exc), fingerprint=fingerprint)
        batching = config.HasField("dynamic_batching") and config.max_batch_size > 1
        delay = config.dynamic_batching.max_queue_delay_microseconds / 1e6
        preferred = list(config.dynamic_batching.preferred_batch_size)
        reshapes = [{t.name: Reshape(tuple(t.dims), tuple(t.reshape.shape)) for t in tensors
                     if t.HasField("reshape")} for tensors in (config.input, config.output)]
        versions: dict[str, Version] = {}
        for version, model in models.items():
            kept = reusable.get(version)
            if kept is not None and kept.model is model:
                versions[version] = kept
                continue
            stats = Statistics()
            scheduler = Scheduler(model, self.executor, count or self.config.workers,
                                  config.max_batch_size if batching else 0, delay,
                                  self._observer(name, stats), preferred)
            versions[version] = Version(model, scheduler, stats, config.max_batch_size, stamp_of[version],
                                        *reshapes)
        return Entry(name, READY, versions=versions, config=config, fingerprint=source.fingerprint)

    # ---------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Start the schedulers (and, in poll mode, the poller) on the running loop."""
        self._lock = asyncio.Lock()
        for entry in self._entries.values():
            for version in entry.versions.values():
                await version.scheduler.start()
        self._started = True
        if self.control == "poll":
            self._poller = asyncio.create_task(self._poll(), name="cellonnx-repository-poll")

    async def stop(self) -> None:
        """Stop polling the repository, stop every version's scheduler and the runner threads."""
        if self._poller is not None:
            self._poller.cancel()
            await asyncio.gather(self._poller, return_exceptions=True)
            self._poller = None
        for entry in self._entries.values():
            for version in entry.versions.values():
                await version.scheduler.stop()
        self.executor.shutdown(wait=True)

    async def _install(self, entry: Entry) -> None:
        """Put `entry` in place of the model's current one; versions no longer served stop afterwards (their
        requests in flight finish)."""
        for version in entry.versions.values():
            await version.scheduler.start()
        previous = self._entries.get(entry.name)
        self._entries[entry.name] = entry
        if previous is not None and previous is not entry:
            kept = {id(v) for v in entry.versions.values()}
            for version in previous.versions.values():
                if id(version) not in kept:
                    await version.scheduler.stop()
        if previous is None or previous is not entry:
            state = (f"versions {sorted(entry.versions, key=int)}" if entry.state == READY
                     else f"unavailable: {entry.reason}")
            _log.info("model '%s': %s", entry.name, state)

    async def _rebuild(self, name: str, keep_serving: bool) -> Entry:
        previous = self._entries.get(name)
        loop = asyncio.get_running_loop()
        entry = await loop.run_in_executor(None, self._build, name, previous)
        if entry.state != READY and previous is not None:
            if keep_serving and previous.state == READY:
                _log.warning("model '%s' could not be reloaded, the loaded versions keep serving: %s", name,
                             entry.reason)
                return entry
            if (previous.state, previous.reason) == (entry.state, entry.reason):
                return previous  # the same failure again: nothing to tell
        await self._install(entry)
        return entry

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                await self.refresh()
            except Exception:  # noqa: BLE001 - a poll that fails is logged and retried at the next interval
                _log.exception("reading the model repository %s failed", self.repository)

    async def refresh(self) -> None:
        """Re-read the whole repository (what poll mode does every interval)."""
        assert self.repository is not None and self._lock is not None
        async with self._lock:
            loop = asyncio.get_running_loop()
            names = await loop.run_in_executor(None, model_names, self.repository)
            for name in names:
                await self._rebuild(name, keep_serving=True)
            for name in [n for n in self._entries if n not in names]:
                await self._install(Entry(name, UNAVAILABLE, "removed from the model repository"))
                del self._entries[name]

    # ---------------------------------------------------------------- repository API
    def _check_control(self, what: str) -> None:
        if self.repository is None:
            raise NotAllowed(f"cannot {what}: this server serves ONNX files, not a model repository")
        if self.control != "explicit":
            raise NotAllowed(f"cannot {what}: explicit model load / unload is not allowed in model-control "
                             f"mode '{self.control}' (serve with --model-control-mode explicit)")

    def _check_folder(self, name: str) -> None:
        assert self.repository is not None
        if not name or "/" in name or name.startswith(".") or not (self.repository / name).is_dir():
            raise NotFound(f"model repository {self.repository} has no model folder '{name}'")

    async def load(self, name: str) -> None:
        """Load (or reload) repository model `name`; BadRequest with the reason when it cannot be served."""
        self._check_control(f"load model '{name}'")
        self._check_folder(name)
        assert self._lock is not None
        async with self._lock:
            entry = await self._rebuild(name, keep_serving=False)
        if entry.state != READY:
            raise BadRequest(f"failed to load model '{name}': {entry.reason}")

    async def unload(self, name: str) -> None:
        """Explicit model control: stop serving ``name`` (its requests in flight finish)."""
        self._check_control(f"unload model '{name}'")
        if name not in self._entries:
            self._check_folder(name)
            return
        assert self._lock is not None
        async with self._lock:
            await self._install(Entry(name, UNAVAILABLE, "unloaded"))

    def index(self, ready_only: bool = False) -> list[dict[str, str]]:
        """Triton's repository index: a row per loaded version, and per model that is not loaded."""
        names = set(self._entries)
        if self.repository is not None:
            try:
                names.update(model_names(self.repository))
            except ModelLoadError:
                pass
        rows: list[dict[str, str]] = []
        for name in sorted(names):
            entry = self._entries.get(name)
            if entry is not None and entry.state == READY:
                rows += [{"name": name, "version": v, "state": READY, "reason": ""}
                         for v in sorted(entry.versions, key=int)]
            elif not ready_only:
                rows.append({"name": name, "version": "", "state": entry.state if entry else "",
                             "reason": entry.reason if entry else ""})
        return rows

    # ---------------------------------------------------------------- lookups
    @property
    def entries(self) -> Mapping[str, Entry]:
        return self._entries

    def entry(self, name: str) -> Entry:
        """The model called ``name``; NotFound (404) naming the models served otherwise."""
        entry = self._entries.get(name)
        if entry is None:
            raise NotFound(f"unknown model '{name}'; this server serves {sorted(self.ready_names())}")
        return entry

    def ready_names(self) -> list[str]:
        """The names of the models that are loaded and ready."""
        return [n for n, e in self._entries.items() if e.state == READY]

    def get(self, name: str, version: str | None = None) -> Version:
        """The version a request names ("" or None: the highest loaded)."""
        return self.entry(name).version(version)

    def is_ready(self, name: str, version: str | None = None) -> bool:
        """Whether that model (and version, the highest loaded by default) answers requests."""
        try:
            self.get(name, version)
        except (BadRequest, NotFound, Unavailable):
            return False
        return True

    def metadata(self, name: str, version: str | None = None) -> dict[str, Any]:
        """The KServe v2 metadata of a model's version, with every version the model has."""
        entry = self.entry(name)
        served = entry.version(version)
        return {**served.metadata(), "versions": sorted(entry.versions, key=int)}

    def statistics(self, name: str = "", version: str = "") -> list[dict[str, Any]]:
        """`model_stats` rows: every loaded version, one model's versions, or one version."""
        if name:
            entry = self.entry(name)
            versions = [entry.version(version)] if version else [
                entry.versions[v] for v in sorted(entry.versions, key=int)]
            if not versions:
                raise Unavailable(f"model '{name}' is not available: {entry.reason}")
            return [v.stats.json(name, v.model.version) for v in versions]
        return [v.stats.json(n, v.model.version) for n, e in sorted(self._entries.items())
                for _, v in sorted(e.versions.items(), key=lambda kv: int(kv[0]))]

    def observe(self, version: Version | None, seconds: float, status: int, rows: int = 0) -> None:
        """Count one inference request (metrics and statistics), answered with HTTP-equivalent `status`."""
        label, number = (version.model.name, version.model.version) if version else (UNKNOWN_MODEL, "")
        self.metrics.observe_request(label, number, seconds, status)
        if version is not None:
            version.stats.observe_request(seconds, rows, status < 400)
