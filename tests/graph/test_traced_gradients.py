"""Backward passes trace too: a traced gradient is a function of the graph's inputs, never a constant copied
from the example it was traced at (the groundwork for compiling whole training steps)."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

import cellonnx as ms
from cellonnx import ops
from cellonnx.graph.optimize import optimize
from cellonnx.graph.trace import trace
from cellonnx.tensor import Parameter, Tensor
from tests.tolerance import assert_close, sum_rtol

W = Parameter(Tensor(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)), name="w")

FUNCTIONS = {
    "exp": lambda x: ops.sum(ops.exp(x)),
    "tanh_sigmoid_sqrt": lambda x: ops.sum(ops.tanh(x) * ops.sigmoid(x) + ops.sqrt(x * x + 1.0)),
    "pow_and_max": lambda x: ops.sum(x ** 3.0) + ops.amax(x),
    "matmul_softmax": lambda x: ops.sum(ops.softmax(ops.matmul(x, W), -1) * ops.arange(4).astype("float32")),
    "reused_input": lambda x: ops.sum(x * x * x),
    "stop_gradient": lambda x: ops.sum(x * ops.stop_gradient(ops.exp(x))),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_traced_gradient_follows_the_input(name: str) -> None:
    f = FUNCTIONS[name]
    example = np.full((2, 3), 0.5, np.float32)
    g, _ = trace(lambda x: ms.grad(f)(x), [("x", Tensor(example), [2, 3])], [("w", W)])
    model = optimize(g.model(), keep_initializers=["w"])
    onnx.checker.check_model(model, full_check=True)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for seed in (1, 2):
        x = np.random.default_rng(seed).uniform(0.1, 2.0, (2, 3)).astype(np.float32)
        (got,) = sess.run(None, {"x": x})
        want = ms.grad(f)(Tensor(x)).asnumpy()
        assert_close(got, want, rtol=1e-5, scale_rtol=sum_rtol(6), what=name)  # sums of at most 6 terms
