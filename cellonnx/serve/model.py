"""One served model: an onnxruntime InferenceSession shared by all requests, the v2 metadata of its inputs
and outputs, and the checks that a request's tensors fit them."""
from __future__ import annotations

import ctypes
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
from onnx import TensorProto

from cellonnx.serve import datatypes
from cellonnx.serve.datatypes import Datatype
from cellonnx.serve.errors import BadRequest, ModelLoadError

DEVICES = {"cpu": ["CPUExecutionProvider"], "gpu": ["CUDAExecutionProvider", "CPUExecutionProvider"]}
_BF16 = datatypes.by_name("BF16")
_INPUT_FAILURES = (ort.capi.onnxruntime_pybind11_state.InvalidArgument, ort.capi.onnxruntime_pybind11_state.Fail)
_BYTES = datatypes.by_name("BYTES")


@dataclass(frozen=True)
class TensorSpec:
    """A model input or output as the v2 protocol describes it; -1 marks a dynamic dimension.

    Examples:
        >>> from cellonnx.serve import TensorSpec
        >>> print(TensorSpec("x", "FP32", (-1, 4)))
        TensorSpec(name='x', datatype='FP32', shape=(-1, 4))
    """

    name: str
    datatype: Datatype
    shape: tuple[int, ...]

    def metadata(self) -> dict[str, Any]:
        """The tensor's KServe v2 metadata: name, datatype and shape (-1 for a dynamic dim)."""
        return {"name": self.name, "datatype": self.datatype.name, "shape": list(self.shape)}


@dataclass(frozen=True)
class Signature:
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]

    @property
    def batchable(self) -> bool:
        """True when every input and output has a dynamic first axis, so requests can be stacked on it."""
        return bool(self.inputs) and all(t.shape and t.shape[0] == -1 for t in self.inputs + self.outputs)


@dataclass(frozen=True)
class RequestTensor:
    """A decoded request input: the datatype the client declared and its data, already in its shape."""

    name: str
    datatype: Datatype
    array: np.ndarray


def cpu_count() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def session_options(intra_threads: int = 1) -> ort.SessionOptions:
    """Options for a served session. Concurrency comes from running several requests (or batches) at once on
    an executor sized to the cores, so each run gets `intra_threads` threads and no inter-op pool: the
    product stays at the core count instead of every session spawning one thread per core."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = intra_threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    if intra_threads > 1:
        # spinning pool threads would compete with the event loop for the same cores
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def _providers(device: str) -> list[str]:
    if device not in DEVICES:
        raise ModelLoadError(f"unknown device {device!r}; expected one of {sorted(DEVICES)}")
    if device == "gpu" and "CUDAExecutionProvider" not in ort.get_available_providers():
        raise ModelLoadError(
            f"--device gpu needs onnxruntime's CUDAExecutionProvider, but this onnxruntime "
            f"{ort.__version__} offers only {ort.get_available_providers()}; install onnxruntime-gpu "
            f"(pip install 'cellonnx[gpu]') on a machine with CUDA, or serve with --device cpu")
    return DEVICES[device]


def open_session(path: str | os.PathLike[str], device: str = "cpu", intra_threads: int = 1,
                 options: ort.SessionOptions | None = None) -> ort.InferenceSession:
    """An InferenceSession on `device`; never silently on another one."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no ONNX file at {path}")
    providers = _providers(device)
    try:
        session = ort.InferenceSession(str(path), sess_options=options or session_options(intra_threads),
                                       providers=providers)
    except Exception as exc:  # noqa: BLE001 - onnxruntime has its own classes for bad protobufs, graphs, opsets
        raise ModelLoadError(f"onnxruntime cannot load {path}: {exc}") from None
    if session.get_providers()[0] != providers[0]:
        raise ModelLoadError(
            f"{providers[0]} did not start for {path} (onnxruntime fell back to {session.get_providers()}); "
            f"check the CUDA and cuDNN libraries that onnxruntime-gpu {ort.__version__} needs")
    return session


def _spec(arg: Any, path: Path) -> TensorSpec:
    try:
        datatype = datatypes.by_ort(arg.type)
    except TypeError as exc:
        raise ModelLoadError(f"{path}: tensor '{arg.name}': {exc}") from None
    shape = tuple(d if isinstance(d, int) and d >= 0 else -1 for d in (arg.shape or ()))
    return TensorSpec(arg.name, datatype, shape)


def read_signature(session: ort.InferenceSession, path: str | os.PathLike[str] = "<model>") -> Signature:
    """The v2 view of a session's inputs and outputs."""
    return Signature(tuple(_spec(a, Path(path)) for a in session.get_inputs()),
                     tuple(_spec(a, Path(path)) for a in session.get_outputs()))


def load_signature(path: str | os.PathLike[str]) -> Signature:
    """Read an ONNX file's signature through onnxruntime (CPU, no graph optimisation: only metadata).

    Args:
        path: the ONNX file.

    Returns:
        Signature: its ``inputs`` and ``outputs`` as TensorSpecs (-1 for a dynamic dim).

    Raises:
        ModelLoadError: the file cannot be read, or holds a type the v2 protocol has no name for.

    Examples:
        >>> from cellonnx.serve import load_signature
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> signature = load_signature("mlp.onnx")
        >>> [(t.name, t.datatype.name, t.shape) for t in signature.inputs + signature.outputs]
        [('x', 'FP32', (-1, 4)), ('output', 'FP32', (-1, 3))]
    """
    options = session_options()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return read_signature(open_session(path, "cpu", options=options), path)


class ServedModel:
    """An ONNX file ready to serve: one InferenceSession shared by every request.

    Args:
        path: the ONNX file.
        name: the name clients use in URLs; defaults to the file stem.
        device: "cpu" or "gpu" (CUDAExecutionProvider; an error, not a fallback, where it is missing).
        intra_threads: onnxruntime threads per run.
        version: the version clients see ("1" for a single file; a version folder's number in a Triton
            repository).

    Examples:
        >>> from cellonnx.serve import ServedModel
        >>> net = nn.Dense(4, 3)
        >>> net.set_inputs(Tensor(shape=(None, 4), dtype=ms.float32))
        >>> path = ms.export(net, Tensor(np.ones((1, 4), np.float32)), file_name="mlp")  # mlp.onnx
        >>> model = ServedModel("mlp.onnx")
        >>> [spec.name for spec in model.inputs], [spec.name for spec in model.outputs]
        (['x'], ['output'])
        >>> model.run({"x": np.ones((2, 4), np.float32)}, ["output"])["output"].shape
        (2, 3)
    """

    platform = "onnxruntime_onnx"

    def __init__(self, path: str | os.PathLike[str], name: str | None = None, device: str = "cpu",
                 intra_threads: int = 1, version: str = "1") -> None:
        self.path = Path(path)
        self.version = version
        self.name = name or self.path.stem
        if not self.name or "/" in self.name:
            raise ModelLoadError(f"model name {self.name!r} must be non-empty and hold no '/'")
        self.device = device
        self.session = open_session(self.path, device, intra_threads)
        self.signature = read_signature(self.session, self.path)
        self._inputs = {t.name: t for t in self.signature.inputs}
        self._outputs = {t.name: t for t in self.signature.outputs}
        if (any(t.datatype is _BYTES for t in self.inputs) and any(t.datatype is _BF16 for t in self.outputs)):
            raise ModelLoadError(f"{self.path}: onnxruntime's Python API cannot run a model with both string "
                                 "(BYTES) inputs and bfloat16 (BF16) outputs")

    @property
    def inputs(self) -> tuple[TensorSpec, ...]:
        return self.signature.inputs

    @property
    def outputs(self) -> tuple[TensorSpec, ...]:
        return self.signature.outputs

    @property
    def output_names(self) -> tuple[str, ...]:
        return tuple(self._outputs)

    @property
    def batchable(self) -> bool:
        return self.signature.batchable

    def metadata(self) -> dict[str, Any]:
        """The model's KServe v2 metadata: name, versions, platform, inputs and outputs."""
        return {"name": self.name, "versions": [self.version], "platform": self.platform,
                "inputs": [t.metadata() for t in self.inputs], "outputs": [t.metadata() for t in self.outputs]}

    def output_spec(self, name: str) -> TensorSpec:
        """The TensorSpec of output ``name``."""
        return self._outputs[name]

    def check_inputs(self, tensors: Sequence[RequestTensor]) -> dict[str, np.ndarray]:
        """The feeds for `run`, after checking names, datatypes and shapes against the model."""
        feeds: dict[str, np.ndarray] = {}
        for tensor in tensors:
            spec = self._inputs.get(tensor.name)
            if spec is None:
                raise BadRequest(f"model '{self.name}' has no input '{tensor.name}'; "
                                 f"its inputs are {list(self._inputs)}")
            if tensor.name in feeds:
                raise BadRequest(f"input '{tensor.name}' is given more than once")
            if tensor.datatype is not spec.datatype:
                raise BadRequest(f"input '{tensor.name}' of model '{self.name}' has datatype "
                                 f"{tensor.datatype.name}; the model expects {spec.datatype.name}")
            shape = tensor.array.shape
            if len(shape) != len(spec.shape) or any(m not in (-1, d) for m, d in zip(spec.shape, shape)):
                raise BadRequest(f"input '{tensor.name}' of model '{self.name}' has shape {list(shape)}; "
                                 f"the model expects {list(spec.shape)} (-1: any size)")
            feeds[tensor.name] = tensor.array
        missing = [name for name in self._inputs if name not in feeds]
        if missing:
            raise BadRequest(f"model '{self.name}' needs input(s) {missing}, missing from the request")
        return feeds

    def check_outputs(self, names: Iterable[str]) -> None:
        """Raise BadRequest (400) naming the model's outputs when a requested output is not one."""
        for name in names:
            if name not in self._outputs:
                raise BadRequest(f"model '{self.name}' has no output '{name}'; its outputs are "
                                 f"{list(self._outputs)}")

    def run(self, feeds: Mapping[str, np.ndarray], output_names: Sequence[str]) -> dict[str, np.ndarray]:
        """Run the session (thread-safe; called from executor threads). BYTES arrays hold bytes in and out."""
        ort_feeds: dict[str, Any] = {
            name: _to_ort(name, array, self._inputs[name].datatype) for name, array in feeds.items()}
        names = list(output_names)
        try:
            if any(self._outputs[n].datatype is _BF16 for n in names):
                # NumPy has no bfloat16 for onnxruntime to hand outputs back in: read them from OrtValues
                values = self.session.run_with_ort_values(
                    names, {k: _as_ortvalue(v) for k, v in ort_feeds.items()})
                results = [_from_ortvalue(v) for v in values]
            else:
                results = self.session.run(names, ort_feeds)
        except _INPUT_FAILURES as exc:
            # the inputs passed the metadata checks, so a failing kernel (Add asked to broadcast 2 rows
            # against 3) is about the request's data: the client hears why
            raise BadRequest(f"model '{self.name}': onnxruntime could not run these inputs: {exc}") from None
        out: dict[str, np.ndarray] = {}
        for name, value in zip(names, results):
            array = np.asarray(value)
            if self._outputs[name].datatype is _BYTES:
                array = _strings_to_bytes(array)
            out[name] = array
        return out


def _to_ort(name: str, array: np.ndarray, datatype: Datatype) -> np.ndarray | ort.OrtValue:
    if datatype is _BF16:  # onnxruntime's NumPy bridge has no bfloat16; an OrtValue carries it
        return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(np.ascontiguousarray(array).view(np.uint16),
                                                                TensorProto.BFLOAT16)
    if datatype is not _BYTES:
        return array
    # onnxruntime's string tensors take str objects
    try:
        return np.array([b.decode("utf-8") if isinstance(b, bytes) else str(b) for b in array.reshape(-1)],
                        dtype=object).reshape(array.shape)
    except UnicodeDecodeError:
        raise BadRequest(f"input '{name}': a BYTES element is not valid UTF-8, which onnxruntime string "
                         "tensors need") from None


def _strings_to_bytes(array: np.ndarray) -> np.ndarray:
    flat = [s.encode("utf-8") if isinstance(s, str) else bytes(s) for s in array.reshape(-1)]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(array.shape)


def _as_ortvalue(value: np.ndarray | ort.OrtValue) -> ort.OrtValue:
    if isinstance(value, ort.OrtValue):
        return value
    return ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(value))


def _from_ortvalue(value: ort.OrtValue) -> np.ndarray:
    if value.data_type() != _BF16.ort:
        return value.numpy()
    if value.device_name().lower() != "cpu":
        raise RuntimeError("bfloat16 outputs can only be read back from CPU memory")
    shape = tuple(value.shape())
    count = math.prod(shape)
    raw = (ctypes.c_uint16 * count).from_address(value.data_ptr()) if count else []
    return np.array(raw, dtype=np.uint16).view(_BF16.numpy).reshape(shape)
