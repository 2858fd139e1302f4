"""onnxruntime CPU sessions for the tests' own runs of exported models, with the threads tests/conftest.py
gives each pytest-xdist worker (the context's ``intra_op_num_threads``; 0, onnxruntime's choice, outside
xdist), as cellonnx's own sessions get them."""
from __future__ import annotations

import onnxruntime as ort


def cpu_session(model: bytes | str) -> ort.InferenceSession:
    """An InferenceSession of ``model`` (serialized bytes or a path) on the CPU provider."""
    from cellonnx import context

    options = ort.SessionOptions()
    options.intra_op_num_threads = context.get_context("intra_op_num_threads") or 0
    return ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
