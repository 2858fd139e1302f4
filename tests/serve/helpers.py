"""Small ONNX models built with onnx.helper (no cellonnx compile involved) and sample data per v2 datatype."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import uvicorn
from onnx import TensorProto, helper, numpy_helper

from cellonnx.serve.datatypes import TABLE
from tests.tolerance import sum_rtol

# v2 datatype -> ONNX element type, for the all-datatypes model
ONNX_TYPES = {"BOOL": TensorProto.BOOL, "UINT8": TensorProto.UINT8, "UINT16": TensorProto.UINT16,
              "UINT32": TensorProto.UINT32, "UINT64": TensorProto.UINT64, "INT8": TensorProto.INT8,
              "INT16": TensorProto.INT16, "INT32": TensorProto.INT32, "INT64": TensorProto.INT64,
              "FP16": TensorProto.FLOAT16, "FP32": TensorProto.FLOAT, "FP64": TensorProto.DOUBLE,
              "BF16": TensorProto.BFLOAT16, "BYTES": TensorProto.STRING}
# onnxruntime's Python API cannot mix string inputs with bfloat16 outputs, so BF16 gets a model of its own
TYPES_MODEL = [d.name for d in TABLE if d.name != "BF16"]
# the datatypes with a typed contents field in the v2 gRPC protocol (FP16 and BF16 travel raw only)
TYPED_MODEL = [n for n in TYPES_MODEL if n != "FP16"]
SERVED = ("mlp", "multi", "types", "bf16", "fixed", "typed")  # the live server's models
MAX_BATCH = 16
BATCH_DELAY_MS = 5.0


def _save(graph: onnx.GraphProto, path: Path, opset: int = 17) -> Path:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


# the mlp model's outputs: a 4-term and an 8-term float32 sum, rounded in whatever order the batch gives
MLP_RTOL = sum_rtol(4 + 8)


def mlp_model(path: Path, features: int = 4, hidden: int = 8, classes: int = 3, seed: int = 0) -> Path:
    """x [N, features] FP32 -> MatMul, Add, Relu, MatMul -> y [N, classes]: the batchable model."""
    rng = np.random.default_rng(seed)
    inits = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32), n)
             for n, s in (("w1", (features, hidden)), ("b1", (hidden,)), ("w2", (hidden, classes)))]
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"]), helper.make_node("Add", ["h", "b1"], ["hb"]),
             helper.make_node("Relu", ["hb"], ["r"]), helper.make_node("MatMul", ["r", "w2"], ["y"])]
    graph = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", features])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", classes])], inits)
    return _save(graph, path)


def multi_model(path: Path) -> Path:
    """a, b [N, 4] FP32 -> sum = a + b, neg = -a (FP32) and argmax (INT64 [N]) of the sum."""
    nodes = [helper.make_node("Add", ["a", "b"], ["sum"]), helper.make_node("Neg", ["a"], ["neg"]),
             helper.make_node("ArgMax", ["sum"], ["argmax"], axis=1, keepdims=0)]
    graph = helper.make_graph(
        nodes, "multi", [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["N", 4]) for n in ("a", "b")],
        [helper.make_tensor_value_info("sum", TensorProto.FLOAT, ["N", 4]),
         helper.make_tensor_value_info("neg", TensorProto.FLOAT, ["N", 4]),
         helper.make_tensor_value_info("argmax", TensorProto.INT64, ["N"])])
    return _save(graph, path)


def types_model(path: Path, names: list[str]) -> Path:
    """One Identity per v2 datatype: in_<DT> [N, 2] -> out_<DT>."""
    nodes, inputs, outputs = [], [], []
    for dt in (d for d in TABLE if d.name in names):
        nodes.append(helper.make_node("Identity", [f"in_{dt.name}"], [f"out_{dt.name}"]))
        inputs.append(helper.make_tensor_value_info(f"in_{dt.name}", ONNX_TYPES[dt.name], ["N", 2]))
        outputs.append(helper.make_tensor_value_info(f"out_{dt.name}", ONNX_TYPES[dt.name], ["N", 2]))
    return _save(helper.make_graph(nodes, "types", inputs, outputs), path)


def fixed_model(path: Path) -> Path:
    """x [1, 3] FP32 -> Relu: a fixed first axis, so never batched."""
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "fixed",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])])
    return _save(graph, path)


def sample(datatype: str, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    """Random data of a v2 datatype (BYTES as bytes objects, some non-ASCII)."""
    rng = np.random.default_rng(seed)
    dt = next(d for d in TABLE if d.name == datatype)
    if datatype == "BYTES":
        words = [f"w{i}-é{rng.integers(100)}".encode() for i in range(int(np.prod(shape)))]
        out = np.empty(len(words), dtype=object)
        out[:] = words
        return out.reshape(shape)
    if datatype == "BOOL":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt.numpy)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), shape).astype(dt.numpy)
    return rng.standard_normal(shape).astype(np.float32).astype(dt.numpy)


@dataclass
class LiveServer:
    url: str  # host:port, as tritonclient wants it
    app: object
    server: uvicorn.Server
    grpc_url: str | None = None  # host:port of the gRPC service, when it runs

    @property
    def base(self) -> str:
        return f"http://{self.url}"


def dynamic_model(path: Path) -> Path:
    """x [N, M] FP32 -> Relu -> y [N, M]: every axis dynamic, so requests of different widths reach the
    batcher and must not be merged."""
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "dynamic",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "M"])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", "M"])])
    return _save(graph, path)
