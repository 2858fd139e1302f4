"""GraphBuilder: collects ONNX nodes, initializers, inputs and outputs while ops lower themselves.

Node names carry the cell scope (``layer1.0.conv1/Conv_3``) so a diverging node can be traced back to code.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import onnx
from cellonnx.converters.onnx_weights import PARAMETER_DOC
from onnx import helper, numpy_helper

from cellonnx import dtypes

DEFAULT_OPSET = 18
MIN_OPSET, MAX_OPSET = 13, 21


def _runs(axes: Sequence[int]) -> list[list[int]]:
    """Non-negative axes grouped into runs of consecutive ones ([0, 2, 3] -> [[0], [2, 3]]); one run for
    negative axes, whose rank is unknown here."""
    ordered = sorted(axes)
    if not ordered or ordered[0] < 0:
        return [list(axes)]
    runs = [[ordered[0]]]
    for a in ordered[1:]:
        if a == runs[-1][-1] + 1:
            runs[-1].append(a)
        else:
            runs.append([a])
    return runs


def targets_gpu() -> bool:
    """Whether graphs traced now will run on CUDA: device_target "GPU", or "auto" with CUDA present."""
    from cellonnx import context

    target = str(context.get_context("device_target")).upper()
    if target == "AUTO":
        import onnxruntime as ort

        return "CUDAExecutionProvider" in ort.get_available_providers()
    return target == "GPU"


# the most inputs one Concat of a graph traced for CUDA takes (onnxruntime's kernel argument array)
CUDA_CONCAT_INPUTS = 32


class GraphBuilder:
    """Builds one ONNX graph. Lowerings call ``g.op(...)``, ``g.const(...)`` and read ``g.opset``."""

    def __init__(self, opset: int = DEFAULT_OPSET, name: str = "cellonnx") -> None:
        if not MIN_OPSET <= opset <= MAX_OPSET:
            raise ValueError(f"opset {opset} is not supported; choose {MIN_OPSET}..{MAX_OPSET}")
        self.opset = opset
        self.name = name
        # lowerings tuned for onnxruntime's CPU kernels (conv_gemm.py) step aside when the graph is for CUDA
        self.for_gpu = targets_gpu()
        self.nodes: list[onnx.NodeProto] = []
        # values stay arrays until model() writes each once into the ModelProto (a 45 MB ResNet-18 would
        # otherwise be copied per protobuf container it passes through)
        self.initializers: dict[str, np.ndarray] = {}
        self.parameters: set[str] = set()  # the initializers that hold parameters
        self.inputs: list[onnx.ValueInfoProto] = []
        self.outputs: list[onnx.ValueInfoProto] = []
        self.scope: list[str] = []
        self._counts: dict[str, int] = {}
        self._used: set[str] = set()
        self._const_cache: dict[tuple, str] = {}
        self._renamed: dict[str, str] = {}  # values renamed to graph outputs
        self._pending_renames: dict[str, str] | None = None  # inside adding_outputs()
        # the op being lowered: its input / output Tensors (for dtypes and static shapes)
        self.in_tensors: tuple = ()
        self.out_tensors: tuple = ()

    def child(self, name: str) -> GraphBuilder:
        """A builder for a subgraph (If/Loop/Scan body): its own nodes, inputs and outputs; names, constants
        and initializers shared with this (outer) graph, which subgraphs reference by name."""
        sub = GraphBuilder.__new__(GraphBuilder)
        sub.__dict__.update(self.__dict__)
        sub.name = name
        sub.nodes, sub.inputs, sub.outputs = [], [], []
        return sub

    def subgraph_io(self, name: str, elem_type: int, rank: int | None = None) -> Any:
        """A value-info for subgraph inputs and outputs: known rank with unknown dims, or unknown shape."""
        return helper.make_tensor_value_info(name, elem_type, None if rank is None else [None] * rank)

    def graph(self) -> onnx.GraphProto:
        return helper.make_graph(self.nodes, self.name, self.inputs, self.outputs)

    # ---- names ----
    def fresh(self, hint: str) -> str:
        base = hint.replace(" ", "_")
        n = self._counts.get(base, 0)
        while True:
            name = base if n == 0 and base not in self._used else f"{base}_{n}"
            n += 1
            if name not in self._used:
                self._counts[base] = n
                self._used.add(name)
                return name

    def reserve(self, name: str) -> str:
        if name in self._used:
            raise ValueError(f"ONNX value name {name!r} is used twice")
        self._used.add(name)
        return name

    def _scoped(self, op_type: str) -> str:
        prefix = self.scope[-1] + "/" if self.scope else ""
        return self.fresh(prefix + op_type)

    # ---- nodes ----
    def op(self, op_type: str, *inputs: str | None, outputs: int = 1, domain: str = "",
           **attrs: Any) -> Any:
        """Add a node; returns its output name, or a tuple of names when ``outputs`` > 1."""
        if op_type == "Concat" and self.for_gpu and len(inputs) > CUDA_CONCAT_INPUTS:
            # onnxruntime's CUDA Concat copies the addresses of more inputs than this from the host on every
            # run, which CUDA graph capture refuses: concatenate in groups, then the groups
            groups = [inputs[i:i + CUDA_CONCAT_INPUTS] for i in range(0, len(inputs), CUDA_CONCAT_INPUTS)]
            inputs = tuple(grp[0] if len(grp) == 1 else self.op("Concat", *grp, **attrs) for grp in groups)
        node_name = self._scoped(op_type)
        out_names = [self.fresh(node_name.replace("/", ".") + (f":{i}" if outputs > 1 else ""))
                     for i in range(outputs)]
        clean = {k: v for k, v in attrs.items() if v is not None}
        if self._renamed:  # a value already exposed as a graph output (a gradient reading a saved output)
            inputs = tuple(self._renamed.get(i, i) if i else i for i in inputs)
        node = helper.make_node(op_type, ["" if i is None else i for i in inputs], out_names,
                                name=node_name, domain=domain or None, **clean)
        self.nodes.append(node)
        return out_names[0] if outputs == 1 else tuple(out_names)

    # ---- constants ----
    def initializer(self, name: str, array: np.ndarray) -> str:
        """A named initializer (parameters, constants); ``name`` must be new."""
        self.reserve(name)
        self.initializers[name] = np.asarray(array)
        self.parameters.add(name)
        return name

    def const(self, value: Any, dtype: Any = None) -> str:
        """A constant initializer; equal small constants are shared."""
        arr = np.asarray(value, dtype=dtypes.to_numpy(dtype) if dtype is not None else None)
        if arr.dtype == np.float64 and dtype is None and not isinstance(value, np.ndarray):
            arr = arr.astype(np.float32)
        key = None
        if arr.size <= 64:
            key = (arr.dtype.str, arr.shape, arr.tobytes())
            if key in self._const_cache:
                return self._const_cache[key]
        name = self.fresh("const")
        self.initializers[name] = arr
        if key is not None:
            self._const_cache[key] = name
        return name

    def i64(self, values: Sequence[int] | int) -> str:
        """An int64 constant; where ``values`` hold dims that are dynamic in the graph (SymInt), the value
        computing them (a constant would hold the example's sizes)."""
        if hasattr(values, "onnx_name"):
            return self.squeeze(values.onnx_name(self), [0])
        if isinstance(values, (list, tuple)) and any(hasattr(v, "onnx_name") for v in values):
            return self.shape_value(values)
        return self.const(np.asarray(values, dtype=np.int64))

    def like(self, value: float, tensor_index: int = 0) -> str:
        """A scalar constant with the dtype of the current op's input ``tensor_index``."""
        return self.const(np.asarray(value, dtype=self.in_tensors[tensor_index]._data.dtype))

    def shape_value(self, shape: Sequence[Any]) -> str:
        """A 1-D int64 value for a shape that may hold symbolic dims (SymInt)."""
        if all(not hasattr(d, "onnx_name") for d in shape):
            return self.i64([int(d) for d in shape])
        parts = [d.onnx_name(self) if hasattr(d, "onnx_name") else self.i64([int(d)]) for d in shape]
        return self.op("Concat", *parts, axis=0) if len(parts) > 1 else parts[0]

    def axes(self, axes: Sequence[int] | None, op_type: str, x: str, **attrs: Any) -> str:
        """A reduction with axes, as an attribute (older opsets) or an input (newer), per op and opset."""
        as_input_since = 13 if op_type == "ReduceSum" else 18
        if axes is None:
            return self.op(op_type, x, **attrs)
        runs = _runs(axes)
        if self.for_gpu and op_type in ("ReduceSum", "ReduceMean") and len(runs) > 1:
            # onnxruntime's CUDA kernels reduce trailing or leading axes directly; any other set (a batch
            # norm's (0, 2, 3)) goes to cuDNN's much slower general reduction: one run of axes at a time
            # (a mean of equal-sized group means is the mean)
            for run in reversed(runs):
                x = self.axes(run, op_type, x, keepdims=1)
            return x if attrs.get("keepdims", 1) else self.squeeze(x, sorted(axes))
        if self.opset >= as_input_since:
            return self.op(op_type, x, self.i64(list(axes)), **attrs)
        return self.op(op_type, x, axes=list(axes), **attrs)

    def squeeze(self, x: str, axes: Sequence[int]) -> str:
        return self.op("Squeeze", x, self.i64(list(axes)))

    def unsqueeze(self, x: str, axes: Sequence[int]) -> str:
        return self.op("Unsqueeze", x, self.i64(list(axes)))

    # ---- graph interface ----
    def add_input(self, name: str, dtype: Any, shape: Sequence[Any]) -> str:
        self.reserve(name)
        self.inputs.append(helper.make_tensor_value_info(name, dtypes.dtype(dtype).onnx, _dims(shape)))
        return name

    def add_output(self, value: str, name: str, dtype: Any, shape: Sequence[Any]) -> str:
        """Expose ``value`` as graph output ``name`` (an Identity only when the names differ)."""
        value = self._renamed.get(value, value)  # already renamed to an earlier output
        if value != name:
            if name in self._used:
                name = self.fresh(name)
            else:
                self.reserve(name)
            if value in {i.name for i in self.inputs} or value in self.initializers or \
                    value in {o.name for o in self.outputs}:
                self.nodes.append(helper.make_node("Identity", [value], [name], name=self.fresh("output/Identity")))
            else:
                self._renamed[value] = name
                if self._pending_renames is None:
                    self._apply_renames({value: name})
                else:
                    self._pending_renames[value] = name
        self.outputs.append(helper.make_tensor_value_info(name, dtypes.dtype(dtype).onnx, _dims(shape)))
        return name

    @contextlib.contextmanager
    def adding_outputs(self) -> Iterator[None]:
        """Collect the renames of many ``add_output`` calls and rewrite the nodes once at the end (each
        rewrite walks every node: one per output made tracing a large training step quadratic)."""
        self._pending_renames = {}
        try:
            yield
        finally:
            pending, self._pending_renames = self._pending_renames, None
            self._apply_renames(pending)

    def _apply_renames(self, renames: dict[str, str]) -> None:
        if not renames:
            return
        for node in self.nodes:
            for i, o in enumerate(node.output):
                if o in renames:
                    node.output[i] = renames[o]
            for i, v in enumerate(node.input):
                if v in renames:
                    node.input[i] = renames[v]

    def model(self, producer_version: str = "", doc: str = "", metadata: dict[str, str] | None = None,
              ir_version: int | None = None) -> onnx.ModelProto:
        model = onnx.ModelProto(producer_name="cellonnx", producer_version=producer_version, doc_string=doc,
                                ir_version=ir_version or _IR_FOR_OPSET.get(self.opset, 8))
        # (onnxruntime accepts IR versions up to its own: pin the one that goes with the opset)
        model.opset_import.add(domain="", version=self.opset)
        graph = model.graph  # built in place: extending a finished GraphProto would copy every tensor again
        graph.name = self.name
        graph.node.extend(self.nodes)
        graph.input.extend(self.inputs)
        graph.output.extend(self.outputs)
        for name, arr in self.initializers.items():
            tensor = graph.initializer.add()
            fill_tensor(tensor, arr, name)
            if name in self.parameters:  # what a checkpoint must fill (the rest are constants of the graph)
                tensor.doc_string = PARAMETER_DOC
        for k, v in (metadata or {}).items():
            model.metadata_props.add(key=k, value=v)
        return model


_IR_FOR_OPSET = {13: 7, 14: 7, 15: 8, 16: 8, 17: 8, 18: 8, 19: 9, 20: 9, 21: 10}


def _dims(shape: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for i, d in enumerate(shape):
        if d is None:
            out.append(f"d{i}")
        elif isinstance(d, str):
            out.append(d)
        else:
            out.append(int(d))
    return out


def fill_tensor(t: onnx.TensorProto, arr: np.ndarray, name: str) -> onnx.TensorProto:
    """Write ``arr`` into the empty TensorProto ``t`` as ``name``; numbers go in as little-endian raw_data."""
    if not arr.flags.c_contiguous:
        arr = arr.copy(order="C")  # (np.ascontiguousarray would turn a 0-d array into shape (1,))
    if not is_raw_numeric(arr.dtype):
        t.CopyFrom(numpy_helper.from_array(arr, name))  # strings, complex: onnx's own rules
        return t
    if arr.dtype.byteorder == ">":
        arr = arr.astype(arr.dtype.newbyteorder("<"))
    t.name = name
    t.data_type = dtypes.dtype(arr.dtype).onnx
    t.dims.extend(arr.shape)
    t.raw_data = arr.tobytes()
    return t


def is_raw_numeric(dt: np.dtype) -> bool:
    """Whether ``dt`` is one of cellonnx's dtypes (bool, ints, floats, bfloat16), stored as raw bytes."""
    return dt.kind in "biuf" or dt == dtypes.bfloat16.np_dtype


def to_tensor_proto(arr: np.ndarray, name: str) -> onnx.TensorProto:
    return fill_tensor(onnx.TensorProto(), np.asarray(arr), name)


def value_info_of(name: str, arr: np.ndarray) -> onnx.ValueInfoProto:
    """A value-info with ``arr``'s dtype and shape (a weight standing in as an input for shape inference)."""
    return helper.make_tensor_value_info(name, dtypes.dtype(arr.dtype).onnx, list(arr.shape))


def tensor_nbytes(t: onnx.TensorProto) -> int:
    """Data size of a tensor from its dims and type, without touching ``raw_data`` (reading it copies it)."""
    count = 1
    for d in t.dims:
        count *= int(d)
    return count * helper.tensor_dtype_to_np_dtype(t.data_type).itemsize
