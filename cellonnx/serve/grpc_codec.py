"""KServe v2 gRPC inference messages (ModelInferRequest / ModelInferResponse of Triton's grpc_service.proto)
to and from the tensors the models run.

Inputs come either all in `raw_input_contents` (one little-endian row-major buffer per input, in the order of
`inputs`; BYTES elements each a 4-byte little-endian length and the bytes, as in the binary tensor extension)
or each in its typed `contents` field (bool_contents, int_contents for INT8-INT32, int64_contents,
uint_contents for UINT8-UINT32, uint64_contents, fp32_contents, fp64_contents, bytes_contents; FP16 and BF16
have none and travel raw). Outputs are always returned in `raw_output_contents`, as Triton does.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from tritonclient.grpc import service_pb2

from cellonnx.serve import codec, datatypes
from cellonnx.serve.datatypes import Datatype
from cellonnx.serve.errors import BadRequest
from cellonnx.serve.model import RequestTensor

# v2 datatype -> the InferTensorContents field that carries it
TYPED_FIELDS = {"BOOL": "bool_contents", "INT8": "int_contents", "INT16": "int_contents",
                "INT32": "int_contents", "INT64": "int64_contents", "UINT8": "uint_contents",
                "UINT16": "uint_contents", "UINT32": "uint_contents", "UINT64": "uint64_contents",
                "FP32": "fp32_contents", "FP64": "fp64_contents", "BYTES": "bytes_contents"}
_UNSUPPORTED_PARAMETERS = ("shared_memory_region", "shared_memory_byte_size", "shared_memory_offset",
                           "classification")


def _reject_unsupported(parameters: Any, what: str) -> None:
    for key in _UNSUPPORTED_PARAMETERS:
        if key in parameters:
            raise BadRequest(f"{what}: parameter '{key}' is not supported by this server")


def _shape(name: str, dims: Sequence[int]) -> list[int]:
    shape = list(dims)
    if any(d < 0 for d in shape):
        raise BadRequest(f"input '{name}': shape {shape} has a negative dimension")
    if len(shape) > codec.MAX_DIMS:
        raise BadRequest(f"input '{name}': shape has {len(shape)} dimensions, at most {codec.MAX_DIMS} are "
                         "accepted")
    if any(d > codec.MAX_DIM for d in shape):
        raise BadRequest(f"input '{name}': shape {shape} has a dimension over {codec.MAX_DIM:,}")
    return shape


def _from_typed(tensor: Any, datatype: Datatype, shape: list[int]) -> np.ndarray:
    name = tensor.name
    field = TYPED_FIELDS.get(datatype.name)
    if field is None:
        raise BadRequest(f"input '{name}': {datatype.name} has no typed contents field in the v2 gRPC "
                         "protocol; send it in raw_input_contents")
    values = getattr(tensor.contents, field)
    count = math.prod(shape)
    if len(values) != count:
        others = [f for f in set(TYPED_FIELDS.values()) - {field} if len(getattr(tensor.contents, f))]
        hint = f" (the request fills contents.{sorted(others)[0]} instead)" if others else ""
        raise BadRequest(f"input '{name}': contents.{field} holds {len(values)} elements but shape "
                         f"{shape} of {datatype.name} needs {count}{hint}")
    if datatype.name == "BYTES":
        array = np.empty(count, dtype=object)
        array[:] = list(values)
        return array.reshape(shape)
    wide = np.array(values, dtype=np.float64 if datatype.kind == "f" else
                    (np.uint64 if datatype.kind == "u" else (np.bool_ if datatype.kind == "b" else np.int64)))
    if count and datatype.kind in "iu":
        info = np.iinfo(datatype.numpy)
        if wide.min() < info.min or wide.max() > info.max:
            raise BadRequest(f"input '{name}': values out of range for {datatype.name} "
                             f"[{info.min}, {info.max}]")
    return wide.astype(datatype.numpy).reshape(shape)


def decode_request(request: Any) -> tuple[list[RequestTensor], list[str] | None]:
    """The input tensors of a ModelInferRequest and the output names it asks for (None: every output)."""
    _reject_unsupported(request.parameters, "the request")
    raw = request.raw_input_contents
    if raw and len(raw) != len(request.inputs):
        raise BadRequest(f"the request has {len(raw)} raw_input_contents for {len(request.inputs)} inputs; "
                         "give one per input, in the order of the inputs")
    inputs: list[RequestTensor] = []
    for i, tensor in enumerate(request.inputs):
        name = tensor.name
        try:
            datatype = datatypes.by_name(tensor.datatype)
        except TypeError as exc:
            raise BadRequest(f"input '{name}': {exc}") from None
        _reject_unsupported(tensor.parameters, f"input '{name}'")
        shape = _shape(name, tensor.shape)
        if raw:
            if tensor.HasField("contents"):
                raise BadRequest(f"input '{name}' has typed contents while the request uses "
                                 "raw_input_contents; use one or the other for all inputs")
            array = codec.from_binary(memoryview(raw[i]), datatype, shape, name, "raw_input_contents")
        else:
            array = _from_typed(tensor, datatype, shape)
        inputs.append(RequestTensor(name, datatype, array))
    outputs = None
    if request.outputs:
        outputs = []
        for out in request.outputs:
            _reject_unsupported(out.parameters, f"output '{out.name}'")
            outputs.append(out.name)
    return inputs, outputs


def encode_response(model_name: str, model_version: str, request_id: str,
                    outputs: Sequence[tuple[str, Datatype, np.ndarray]]) -> Any:
    """A ModelInferResponse with every output in raw_output_contents."""
    response = service_pb2.ModelInferResponse(model_name=model_name, model_version=model_version,
                                              id=request_id)
    for name, datatype, array in outputs:
        response.outputs.add(name=name, datatype=datatype.name, shape=list(array.shape))
        response.raw_output_contents.append(codec.to_binary(array, datatype))
    return response
