"""One wrapper over onnxruntime.InferenceSession: provider choice (CPU, CUDA, or "auto"), thread settings,
IOBinding for outputs that stay on the GPU, and initializer overrides so updated weights reach the session
without re-tracing."""
from __future__ import annotations

import ctypes
import os
from collections.abc import Mapping, Sequence
from typing import Any

import ml_dtypes
import numpy as np
import onnxruntime as ort


_BF16 = np.dtype(ml_dtypes.bfloat16)
_ONNX_BF16 = 16  # onnx.TensorProto.BFLOAT16


class DeviceError(RuntimeError):
    """The requested execution provider is not available.

    Examples:
        >>> import onnxruntime as ort
        >>> from cellonnx.graph.runtime import DeviceError, providers_for
        >>> try:
        ...     providers_for("GPU")
        ...     print("CUDAExecutionProvider" in ort.get_available_providers())
        ... except DeviceError as exc:
        ...     print(str(exc).startswith("device_target='GPU' needs onnxruntime-gpu"))
        True
    """


def cuda_options(device_id: int = 0) -> dict[str, Any]:
    """The CUDA execution provider's options: the device, TF32 as the context's gpu_config allows, the
    context's max_device_memory as the memory limit, and an arena that grows by what is asked for (its
    default doubling held ResNet-50's training step at 13.9 GiB instead of 10.8, at the same speed:
    bench/RESULTS.md).

    Args:
        device_id: the GPU.

    Returns:
        dict of provider options for ``("CUDAExecutionProvider", options)``.

    Examples:
        >>> from cellonnx.graph.runtime import cuda_options
        >>> options = cuda_options(1)
        >>> print(options["device_id"], options["arena_extend_strategy"])
        1 kSameAsRequested
    """
    from cellonnx import context

    options = {"device_id": device_id, "use_tf32": int(context.allow_tf32()),
               "arena_extend_strategy": "kSameAsRequested"}
    limit = context.get_context("max_device_memory")
    if limit != context.DEFAULT_MAX_DEVICE_MEMORY:
        options["gpu_mem_limit"] = int(limit * 2**30)
    return options


def providers_for(device_target: str, device_id: int = 0) -> list[Any]:
    """Execution providers for a MindSpore-style device target: "CPU", "GPU" (CUDA, no fallback) or "auto".

    Args:
        device_target: "CPU", "GPU" or "auto" (any case).
        device_id: the GPU, for CUDA.

    Returns:
        list of providers for ``onnxruntime.InferenceSession``: names, or (name, options) pairs.

    Raises:
        DeviceError: "GPU" with an onnxruntime that has no CUDA provider.
        ValueError: another device target.

    Examples:
        >>> from cellonnx.graph.runtime import providers_for
        >>> providers_for("cpu")
        ['CPUExecutionProvider']
        >>> providers_for("auto")[-1]
        'CPUExecutionProvider'
        >>> providers_for("Ascend")
        Traceback (most recent call last):
        ...
        ValueError: device_target must be 'CPU', 'GPU' or 'auto', got 'Ascend'
    """
    available = ort.get_available_providers()
    target = device_target.upper()
    if target == "CPU":
        return ["CPUExecutionProvider"]
    if target == "GPU":
        if "CUDAExecutionProvider" not in available:
            raise DeviceError("device_target='GPU' needs onnxruntime-gpu with CUDA (pip install "
                              "'cellonnx[gpu]'); this onnxruntime offers " + ", ".join(available))
        return [("CUDAExecutionProvider", cuda_options(device_id)), "CPUExecutionProvider"]
    if target == "AUTO":
        if "CUDAExecutionProvider" in available:
            return [("CUDAExecutionProvider", cuda_options(device_id)), "CPUExecutionProvider"]
        return ["CPUExecutionProvider"]
    raise ValueError(f"device_target must be 'CPU', 'GPU' or 'auto', got {device_target!r}")


def default_threads() -> int:
    """The CPUs this process may run on (its affinity mask), at least 1.

    Returns:
        int.

    Examples:
        >>> import os
        >>> from cellonnx.graph.runtime import default_threads
        >>> default_threads() == len(os.sched_getaffinity(0))
        True
    """
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


class Session:
    """An onnxruntime session over a serialized model.

    Args:
        model: serialized ModelProto bytes or a path.
        device_target: "CPU", "GPU" or "auto".
        intra_op_num_threads / inter_op_num_threads: 0 lets onnxruntime choose.
        device_id: the GPU, for CUDA.
        overrides: initializer name -> array, replacing the model's values before onnxruntime optimizes it.
        graph_optimization: onnxruntime's graph optimization level.
        mem_pattern: onnxruntime's memory pattern (one block planned from the first run, allocated beside
            what the arena already holds from that run).
        spinning: whether onnxruntime's intra-op threads spin waiting for work after a run (fastest when
            runs follow each other; costly when NumPy work runs between them on the same cores).
        cuda_graph: on CUDA, capture the runs as CUDA graphs (``enable_cuda_graph``: every input and output
            bound to a fixed device buffer, runs told apart by the run option ``gpu_graph_id``); a model
            onnxruntime cannot capture (a node outside the CUDA provider) gets a plain session, and
            ``cuda_graph`` is then False with the reason in ``cuda_graph_refused``.

    Raises:
        DeviceError: "GPU" asked for and CUDA not available.
        RuntimeError: onnxruntime could not load the model.

    Examples:
        >>> import numpy as np
        >>> from onnx import TensorProto, helper, numpy_helper
        >>> from cellonnx.graph.runtime import Session
        >>> w = numpy_helper.from_array(np.array([2.0], np.float32), "w")
        >>> graph = helper.make_graph([helper.make_node("Mul", ["x", "w"], ["y"])], "g",
        ...                           [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        ...                           [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])], [w])
        >>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
        >>> x = np.array([1.0, 3.0], np.float32)
        >>> print(Session(model).run({"x": x}))
        [array([2., 6.], dtype=float32)]
        >>> print(Session(model, overrides={"w": np.array([10.0], np.float32)}).run({"x": x}))
        [array([10., 30.], dtype=float32)]
    """

    def __init__(self, model: bytes | str, device_target: str = "CPU", device_id: int = 0,
                 intra_op_num_threads: int = 0, inter_op_num_threads: int = 0,
                 overrides: Mapping[str, np.ndarray] | None = None,
                 graph_optimization: ort.GraphOptimizationLevel = ort.GraphOptimizationLevel.ORT_ENABLE_ALL,
                 mem_pattern: bool = True, spinning: bool = True, cuda_graph: bool = False) -> None:
        self.device_target = device_target
        self.device_id = device_id
        opts = ort.SessionOptions()
        opts.graph_optimization_level = graph_optimization
        opts.intra_op_num_threads = intra_op_num_threads
        opts.inter_op_num_threads = inter_op_num_threads
        opts.enable_mem_pattern = mem_pattern
        opts.log_severity_level = 3
        if not spinning:
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        from cellonnx import context
        opts.use_deterministic_compute = context.get_context("deterministic") == "ON"
        self._override_values: list[ort.OrtValue] = []  # must outlive the session
        if overrides:
            patched = _with_initializers(model, overrides)
            if patched is not None:
                model = patched
            else:
                # past 2 GB the model cannot be rewritten in memory: hand the values to onnxruntime, whose
                # optimizers would fold / fuse the model's own (old) initializer data, so they stay off
                opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
                for name, arr in overrides.items():
                    value = ort.OrtValue.ortvalue_from_numpy(np.require(arr, requirements='C'))
                    self._override_values.append(value)
                    opts.add_initializer(name, value)
        self.providers = providers_for(device_target, device_id)
        self.cuda_graph = cuda_graph and isinstance(self.providers[0], tuple)
        self.cuda_graph_refused = ""
        if self.cuda_graph:
            graphed = [(self.providers[0][0], {**self.providers[0][1], "enable_cuda_graph": "1"}),
                       *self.providers[1:]]
            try:
                self._sess = ort.InferenceSession(model, sess_options=opts, providers=graphed)
            except Exception as exc:  # onnxruntime raises its own exception types
                self.cuda_graph, self.cuda_graph_refused = False, str(exc)
        try:
            if not self.cuda_graph:
                self._sess = ort.InferenceSession(model, sess_options=opts, providers=self.providers)
        except Exception as exc:  # onnxruntime raises its own exception types
            raise RuntimeError(f"onnxruntime could not load the model: {exc}") from exc
        if device_target.upper() == "GPU" and "CUDAExecutionProvider" not in self._sess.get_providers():
            raise DeviceError("the CUDA execution provider failed to initialise (is CUDA installed and a GPU "
                              "visible?); providers in use: " + ", ".join(self._sess.get_providers()))
        self.input_names = [i.name for i in self._sess.get_inputs()]
        self.output_names = [o.name for o in self._sess.get_outputs()]
        # onnxruntime's Python API has no NumPy type for bfloat16: such inputs / outputs go through OrtValues
        self._bf16 = any(v.type == "tensor(bfloat16)"
                         for v in (*self._sess.get_inputs(), *self._sess.get_outputs()))

    @property
    def on_gpu(self) -> bool:
        return "CUDAExecutionProvider" in self._sess.get_providers()

    @property
    def inner(self) -> ort.InferenceSession:
        return self._sess

    def run(self, feeds: Mapping[str, np.ndarray], output_names: Sequence[str] | None = None) -> list[np.ndarray]:
        """Run the graph on NumPy feeds; the named outputs (all by default) as NumPy arrays."""
        names = list(output_names) if output_names else None
        if not self._bf16:
            return self._sess.run(names, dict(feeds))
        values = self._sess.run_with_ort_values(names, {n: _ort_value(a) for n, a in feeds.items()})
        return [_from_ort_value(v) for v in values]

    def run_device(self, feeds: Mapping[str, Any]) -> list[ort.OrtValue]:
        """Run with IOBinding; outputs stay where the provider put them (on the GPU under CUDA).
        Inputs may be NumPy arrays or OrtValues already on the device."""
        binding = self._sess.io_binding()
        for name, value in feeds.items():
            if isinstance(value, ort.OrtValue):
                binding.bind_ortvalue_input(name, value)
            else:
                binding.bind_cpu_input(name, np.require(value, requirements='C'))
        device = "cuda" if self.on_gpu else "cpu"
        for name in self.output_names:
            binding.bind_output(name, device, self.device_id if device == "cuda" else 0)
        self._sess.run_with_iobinding(binding)
        return binding.get_outputs()


def _ort_value(array: Any) -> ort.OrtValue:
    array = np.require(array, requirements='C')
    if array.dtype == _BF16:
        return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(array.view(np.uint16), _ONNX_BF16)
    return ort.OrtValue.ortvalue_from_numpy(array)


def _from_ort_value(value: ort.OrtValue) -> np.ndarray:
    if value.data_type() != "tensor(bfloat16)":
        return value.numpy()
    shape = tuple(value.shape())
    count = int(np.prod(shape, dtype=np.int64))
    if not count:
        return np.zeros(shape, _BF16)
    if value.device_name().lower() != "cpu":
        raise DeviceError("a bfloat16 output left on the GPU cannot be read into NumPy; use run_device")
    raw = (ctypes.c_uint16 * count).from_address(value.data_ptr())
    return np.frombuffer(raw, dtype=np.uint16).copy().view(_BF16).reshape(shape)


def _with_initializers(model: bytes | str, overrides: Mapping[str, np.ndarray]) -> bytes | None:
    """The model with the named initializers replaced, serialized; None when it would pass protobuf's 2 GB.
    (A SessionOptions.add_initializer override does not reach nodes that onnxruntime constant-folds or fuses
    at load time, such as a Transpose of a weight or a Conv followed by BatchNormalization.)"""
    import onnx
    from onnx import numpy_helper

    proto = onnx.load_from_string(model) if isinstance(model, bytes) else onnx.load(model)
    index = {t.name: i for i, t in enumerate(proto.graph.initializer)}
    for name, arr in overrides.items():
        if name not in index:
            raise ValueError(f"initializer override {name!r}: the model has no such initializer")
        proto.graph.initializer[index[name]].CopyFrom(numpy_helper.from_array(np.asarray(arr), name))
    if proto.ByteSize() >= 2**31 - 2**20:
        return None
    return proto.SerializeToString()
