"""Property tests of the KServe v2 request codec: whatever a client sends (any JSON, any shape, datatype and
binary tail, any Content-Encoding and header-length value), decoding either succeeds with tensors that match
their declared shapes or fails with BadRequest / PayloadTooLarge; nothing else escapes. Bounded: 200
examples per property, no example database in the working tree."""
from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cellonnx.serve import codec, compression
from cellonnx.serve.datatypes import TABLE
from cellonnx.serve.errors import BadRequest, PayloadTooLarge

SETTINGS = settings(max_examples=200, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
DATATYPES = [d.name for d in TABLE] + ["FLOAT", "", "fp32"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=6),
                                                     st.dictionaries(st.text(max_size=6), inner, max_size=5)),
                    max_leaves=40)
SHAPES = st.one_of(st.lists(st.integers(0, 5), max_size=4),
                   st.lists(st.integers(-3, 2**63), max_size=3), JSON)


def _tensor_item(data: st.DataObject) -> dict:
    item = {"name": data.draw(st.sampled_from(["x", "y", ""])),
            "datatype": data.draw(st.sampled_from(DATATYPES)),
            "shape": data.draw(SHAPES)}
    if data.draw(st.booleans()):
        item["data"] = data.draw(JSON)
    else:
        item["parameters"] = {"binary_data_size": data.draw(st.one_of(st.integers(-2, 64), JSON))}
    if data.draw(st.integers(0, 9)) == 0:
        item[data.draw(st.text(max_size=6))] = data.draw(JSON)
    return item


def _decoded_or_refused(body: bytes, header: str | None) -> None:
    try:
        length = codec.parse_header_length(header, len(body))
        request = codec.decode_request(body, length)
    except BadRequest:
        return
    for tensor in request.inputs:
        assert isinstance(tensor.array, np.ndarray)
        assert tensor.array.ndim <= codec.MAX_DIMS


@SETTINGS
@given(st.data())
def test_requests_shaped_like_kserve_decode_or_are_refused(data: st.DataObject) -> None:
    doc = {"inputs": [_tensor_item(data) for _ in range(data.draw(st.integers(0, 3)))]}
    if data.draw(st.booleans()):
        doc["outputs"] = data.draw(st.one_of(JSON, st.lists(st.fixed_dictionaries(
            {"name": st.text(max_size=4), "parameters": st.dictionaries(st.text(max_size=12), JSON)}))))
    if data.draw(st.booleans()):
        doc["parameters"] = data.draw(st.one_of(JSON, st.dictionaries(st.sampled_from(
            ["binary_data_output", "x"]), JSON)))
    header = json.dumps(doc, allow_nan=True).encode()
    tail = data.draw(st.binary(max_size=96))
    length = data.draw(st.one_of(st.none(), st.just(str(len(header))), st.text(max_size=5)))
    _decoded_or_refused(header + tail, length if tail or length is not None else None)


@SETTINGS
@given(st.binary(max_size=256), st.one_of(st.none(), st.text(max_size=6)))
def test_arbitrary_bytes_decode_or_are_refused(body: bytes, header: str | None) -> None:
    _decoded_or_refused(body, header)


@SETTINGS
@given(st.binary(max_size=256), st.sampled_from([None, "gzip", "deflate", "identity", "br", "gzip, gzip", ""]))
def test_any_body_under_any_content_encoding_inflates_or_is_refused(body: bytes, encoding: str | None) -> None:
    try:
        out = compression.decompress(body, encoding, 4096)
    except (BadRequest, PayloadTooLarge):
        return
    assert len(out) <= 4096
