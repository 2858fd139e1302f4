"""Legacy Python operators (mx.operator.NumpyOp / NDArrayOp) for the tests and their generator: a softmax loss
layer written both ways, as MXNet's old examples wrote it. ``classes(mx)`` builds them over a module that is
``mxnet`` or ``cellonnx.mxnet``; ``build(mx, kind)`` puts one after a FullyConnected layer."""
from __future__ import annotations

import numpy as np


def classes(mx) -> dict:
    class NumpySoftmax(mx.operator.NumpyOp):
        def __init__(self):
            super().__init__(False)

        def list_arguments(self):
            return ["data", "label"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return [in_shape[0], (in_shape[0][0],)], [in_shape[0]]

        def forward(self, in_data, out_data):
            x, y = in_data[0], out_data[0]
            y[:] = np.exp(x - x.max(axis=1).reshape((x.shape[0], 1)))
            y /= y.sum(axis=1).reshape((x.shape[0], 1))

        def backward(self, out_grad, in_data, out_data, in_grad):
            label = in_data[1].astype("int")
            dx = in_grad[0]
            dx[:] = out_data[0]
            dx[np.arange(label.shape[0]), label] -= 1.0

    class NDArraySoftmax(mx.operator.NDArrayOp):
        def __init__(self):
            super().__init__(False)

        def list_arguments(self):
            return ["data", "label"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return [in_shape[0], (in_shape[0][0],)], [in_shape[0]]

        def forward(self, in_data, out_data):
            out_data[0][:] = mx.nd.softmax(in_data[0])

        def backward(self, out_grad, in_data, out_data, in_grad):
            label = in_data[1].asnumpy().astype("int")
            y = out_data[0].asnumpy()
            y[np.arange(label.shape[0]), label] -= 1.0
            in_grad[0][:] = y

    return {"numpy": NumpySoftmax, "ndarray": NDArraySoftmax}


def build(mx, kind: str) -> object:
    fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
    return classes(mx)[kind]()(data=fc, label=mx.sym.var("label"), name="softmax")


KINDS = ("numpy", "ndarray")
