"""One-node ONNX models for mx.contrib.onnx's translation table: each row is
(id, op_type, inputs, attrs, opset, outputs) with inputs as (kind, value): 'x' a graph input (random values
of that shape, or the given array), 'c' an initializer (the given array). Every ONNX operator MXNet 1.9.1's
onnx2mx translates has a row; the test compares the imported symbol's outputs with onnxruntime's."""
from __future__ import annotations

import numpy as np

f32, i64 = np.float32, np.int64


def c(*values: object, dtype: object = i64) -> tuple[str, np.ndarray]:
    return ("c", np.array(values, dtype))


def x(*shape: int) -> tuple[str, tuple]:
    return ("x", shape)


def pos(*shape: int) -> tuple[str, np.ndarray]:
    return ("x", np.random.default_rng(1).uniform(0.2, 1.5, shape).astype(f32))


def w(*shape: int) -> tuple[str, np.ndarray]:
    return ("c", np.random.default_rng(2).uniform(-1, 1, shape).astype(f32))


X4 = x(2, 3, 6, 6)
CASES = [
    ("add", "Add", [x(2, 3), x(3)], {}, 13, 1),
    ("sub", "Sub", [x(2, 3), w(2, 3)], {}, 13, 1),
    ("mul", "Mul", [x(2, 3), x(2, 1)], {}, 13, 1),
    ("div", "Div", [x(2, 3), pos(2, 3)], {}, 13, 1),
    ("abs", "Abs", [x(2, 3)], {}, 13, 1),
    ("neg", "Neg", [x(2, 3)], {}, 13, 1),
    ("sum", "Sum", [x(2, 3), x(2, 3), x(2, 3)], {}, 13, 1),
    ("mean", "Mean", [x(2, 3), x(2, 3)], {}, 13, 1),
    ("max", "Max", [x(2, 3), x(2, 3), x(2, 3)], {}, 13, 1),
    ("min", "Min", [x(2, 3), x(2, 3)], {}, 13, 1),
    ("tanh", "Tanh", [x(2, 3)], {}, 13, 1),
    ("ceil", "Ceil", [x(2, 3)], {}, 13, 1),
    ("floor", "Floor", [x(2, 3)], {}, 13, 1),
    ("sigmoid", "Sigmoid", [x(2, 3)], {}, 13, 1),
    ("relu", "Relu", [x(2, 3)], {}, 13, 1),
    ("reciprocal", "Reciprocal", [pos(2, 3)], {}, 13, 1),
    ("sqrt", "Sqrt", [pos(2, 3)], {}, 13, 1),
    ("pow", "Pow", [pos(2, 3), x(3)], {}, 13, 1),
    ("exp", "Exp", [x(2, 3)], {}, 13, 1),
    ("log", "Log", [pos(2, 3)], {}, 13, 1),
    ("sin", "Sin", [x(2, 3)], {}, 13, 1),
    ("cos", "Cos", [x(2, 3)], {}, 13, 1),
    ("tan", "Tan", [x(2, 3)], {}, 13, 1),
    ("asin", "Asin", [("x", np.linspace(-0.9, 0.9, 6, dtype=f32).reshape(2, 3))], {}, 13, 1),
    ("acos", "Acos", [("x", np.linspace(-0.9, 0.9, 6, dtype=f32).reshape(2, 3))], {}, 13, 1),
    ("atan", "Atan", [x(2, 3)], {}, 13, 1),
    ("softsign", "Softsign", [x(2, 3)], {}, 13, 1),
    ("softplus", "Softplus", [x(2, 3)], {}, 13, 1),
    ("hardsigmoid", "HardSigmoid", [x(2, 3)], {"alpha": 0.3, "beta": 0.4}, 13, 1),
    ("erf", "Erf", [x(2, 3)], {}, 13, 1),
    ("round", "Round", [("x", np.array([-1.5, -0.4, 0.5, 1.5, 2.6], f32))], {}, 13, 1),
    ("sign", "Sign", [x(2, 3)], {}, 13, 1),
    ("sinh", "Sinh", [x(2, 3)], {}, 13, 1),
    ("cosh", "Cosh", [x(2, 3)], {}, 13, 1),
    ("asinh", "Asinh", [x(2, 3)], {}, 13, 1),
    ("acosh", "Acosh", [("x", np.linspace(1.1, 3.0, 6, dtype=f32).reshape(2, 3))], {}, 13, 1),
    ("atanh", "Atanh", [("x", np.linspace(-0.9, 0.9, 6, dtype=f32).reshape(2, 3))], {}, 13, 1),
    ("lessorequal", "LessOrEqual", [x(2, 3), x(3)], {}, 13, 1),
    ("greaterorequal", "GreaterOrEqual", [x(2, 3), x(2, 3)], {}, 13, 1),
    ("less", "Less", [x(2, 3), x(2, 3)], {}, 13, 1),
    ("greater", "Greater", [x(2, 3), x(3)], {}, 13, 1),
    ("equal", "Equal", [c(1, 2, 3), ("x", np.array([1, 0, 3], i64))], {}, 13, 1),
    ("and", "And", [("x", np.array([True, False, True])), ("x", np.array([True, True, False]))], {}, 13, 1),
    ("or", "Or", [("x", np.array([True, False, False])), ("x", np.array([True, True, False]))], {}, 13, 1),
    ("xor", "Xor", [("x", np.array([True, False, False])), ("x", np.array([True, True, False]))], {}, 13, 1),
    ("not", "Not", [("x", np.array([True, False]))], {}, 13, 1),
    ("concat", "Concat", [x(2, 3), x(2, 2)], {"axis": 1}, 13, 1),
    ("pad_constant", "Pad", [X4, c(0, 0, 1, 2, 0, 0, 2, 1), c(0.5, dtype=f32)], {}, 13, 1),
    ("pad_edge", "Pad", [X4, c(0, 0, 1, 1, 0, 0, 1, 1)], {"mode": "edge"}, 13, 1),
    ("pad_v2", "Pad", [X4], {"pads": (0, 0, 1, 0, 0, 0, 0, 1), "value": 1.5}, 10, 1),
    ("matmul", "MatMul", [x(2, 3), w(3, 4)], {}, 13, 1),
    ("matmul_nd", "MatMul", [x(2, 5, 3), w(3, 4)], {}, 13, 1),
    ("matmul_batch", "MatMul", [x(2, 5, 3), x(2, 3, 4)], {}, 13, 1),
    ("conv", "Conv", [X4, w(4, 3, 3, 3), w(4)], {"pads": (1, 1, 1, 1), "strides": (2, 2)}, 13, 1),
    ("conv_asym", "Conv", [X4, w(4, 3, 3, 3)], {"pads": (0, 1, 1, 0), "dilations": (1, 1)}, 13, 1),
    ("conv_group", "Conv", [x(2, 4, 5, 5), w(4, 2, 3, 3)], {"group": 2, "dilations": (2, 2)}, 13, 1),
    ("conv_1d", "Conv", [x(2, 3, 7), w(4, 3, 3), w(4)], {"pads": (1, 1)}, 13, 1),
    ("convtranspose", "ConvTranspose", [x(2, 3, 4, 4), w(3, 2, 3, 3), w(2)],
     {"strides": (2, 2), "pads": (1, 1, 1, 1), "output_padding": (1, 1)}, 13, 1),
    ("batchnorm", "BatchNormalization", [X4, w(3), w(3), w(3), ("c", pos(3)[1])], {"epsilon": 1e-3}, 13, 1),
    ("spatialbn", "BatchNormalization", [X4, w(3), w(3), w(3), ("c", pos(3)[1])], {}, 9, 1),
    ("instancenorm", "InstanceNormalization", [X4, w(3), w(3)], {"epsilon": 1e-4}, 13, 1),
    ("layernorm", "LayerNormalization", [x(2, 3, 5), w(5), w(5)], {"epsilon": 1e-4}, 17, 1),
    ("layernorm_axes", "LayerNormalization", [X4, w(3, 6, 6), w(3, 6, 6)], {"axis": 1}, 17, 1),
    ("layernorm_axes_nobias", "LayerNormalization", [X4, w(6, 6)], {"axis": -2}, 17, 1),
    ("lrn", "LRN", [X4], {"size": 3, "alpha": 1e-3, "beta": 0.7, "bias": 2.0}, 13, 1),
    ("leakyrelu", "LeakyRelu", [x(2, 3)], {"alpha": 0.2}, 13, 1),
    ("elu", "Elu", [x(2, 3)], {"alpha": 0.7}, 13, 1),
    ("prelu", "PRelu", [X4, w(3, 1, 1)], {}, 13, 1),
    ("prelu_shared", "PRelu", [X4, w(1, 1, 1)], {}, 13, 1),
    ("prelu_last_axis", "PRelu", [X4, w(6)], {}, 13, 1),
    ("selu", "Selu", [x(2, 3)], {}, 13, 1),
    ("softmax", "Softmax", [x(2, 3, 4)], {"axis": 1}, 13, 1),
    ("softmax_v11", "Softmax", [x(2, 3, 4)], {"axis": 1}, 11, 1),
    ("logsoftmax", "LogSoftmax", [x(2, 3, 4)], {}, 13, 1),
    ("hardmax", "Hardmax", [x(2, 3, 4)], {}, 13, 1),
    ("gemm", "Gemm", [x(2, 3), w(4, 3), w(4)], {"transB": 1, "alpha": 0.5, "beta": 2.0}, 13, 1),
    ("gemm_noc", "Gemm", [x(3, 2), w(3, 4)], {"transA": 1}, 13, 1),
    ("globalavgpool", "GlobalAveragePool", [X4], {}, 13, 1),
    ("globalmaxpool", "GlobalMaxPool", [X4], {}, 13, 1),
    ("globallppool", "GlobalLpPool", [X4], {"p": 2}, 13, 1),
    ("maxpool", "MaxPool", [X4], {"kernel_shape": (3, 3), "strides": (2, 2), "pads": (1, 1, 1, 1)}, 13, 1),
    ("maxpool_ceil", "MaxPool", [X4], {"kernel_shape": (3, 3), "strides": (2, 2), "ceil_mode": 1}, 13, 1),
    ("maxpool_ceil_pad", "MaxPool", [X4], {"kernel_shape": (2, 2), "strides": (2, 2), "ceil_mode": 1,
                                            "pads": (0, 0, 1, 1)}, 13, 1),
    ("avgpool_ceil_pad", "AveragePool", [x(2, 3, 7, 7)], {"kernel_shape": (3, 3), "strides": (2, 2),
                                                         "ceil_mode": 1, "pads": (1, 1, 1, 1),
                                                         "count_include_pad": 1}, 13, 1),
    ("avgpool", "AveragePool", [X4], {"kernel_shape": (2, 2), "strides": (2, 2)}, 13, 1),
    ("avgpool_pad_excl", "AveragePool", [X4], {"kernel_shape": (3, 3), "pads": (1, 1, 1, 1)}, 13, 1),
    ("avgpool_pad_incl", "AveragePool", [X4], {"kernel_shape": (3, 3), "pads": (1, 1, 1, 1),
                                                "count_include_pad": 1}, 13, 1),
    ("avgpool_1d", "AveragePool", [x(2, 3, 8)], {"kernel_shape": (2,), "strides": (2,)}, 13, 1),
    ("lppool", "LpPool", [X4], {"kernel_shape": (2, 2), "strides": (2, 2), "p": 2}, 13, 1),
    ("dropout", "Dropout", [x(2, 3)], {}, 13, 1),
    ("dropout_v7", "Dropout", [x(2, 3)], {"ratio": 0.3}, 7, 1),
    ("reshape", "Reshape", [x(2, 3, 4), c(0, -1, 2)], {}, 13, 1),
    ("cast", "Cast", [x(2, 3)], {"to": 7}, 13, 1),
    ("split", "Split", [x(2, 6)], {"axis": 1}, 13, 3),
    ("split_uneven", "Split", [x(2, 6), c(1, 2, 3)], {"axis": 1}, 13, 3),
    ("slice", "Slice", [x(4, 5), c(1, 0), c(3, 2**62), c(0, 1)], {}, 13, 1),
    ("slice_step", "Slice", [x(4, 6), c(5), c(-100), c(1), c(-2)], {}, 13, 1),
    ("slice_v1", "Slice", [x(4, 5)], {"starts": (1,), "ends": (3,), "axes": (1,)}, 9, 1),
    ("transpose", "Transpose", [x(2, 3, 4)], {"perm": (2, 0, 1)}, 13, 1),
    ("squeeze", "Squeeze", [x(2, 1, 3, 1), c(1, 3)], {}, 13, 1),
    ("squeeze_v11", "Squeeze", [x(2, 1, 3)], {"axes": (1,)}, 11, 1),
    ("unsqueeze", "Unsqueeze", [x(2, 3), c(0, -1)], {}, 13, 1),
    ("flatten", "Flatten", [X4], {}, 13, 1),
    ("flatten_axis2", "Flatten", [X4], {"axis": 2}, 13, 1),
    ("identity", "Identity", [x(2, 3)], {}, 13, 1),
    ("reducemax", "ReduceMax", [x(2, 3, 4)], {"axes": (1,), "keepdims": 0}, 13, 1),
    ("reducemean", "ReduceMean", [x(2, 3, 4)], {"axes": (1, 2)}, 13, 1),
    ("reducemin", "ReduceMin", [x(2, 3, 4)], {}, 13, 1),
    ("reducesum", "ReduceSum", [x(2, 3, 4), c(2)], {"keepdims": 0}, 13, 1),
    ("reducesum_v11", "ReduceSum", [x(2, 3, 4)], {"axes": (0,)}, 11, 1),
    ("reduceprod", "ReduceProd", [x(2, 3, 4)], {"axes": (2,)}, 13, 1),
    ("reducelogsum", "ReduceLogSum", [pos(2, 3, 4)], {"axes": (1,)}, 13, 1),
    ("reducelogsumexp", "ReduceLogSumExp", [x(2, 3, 4)], {"axes": (1,)}, 13, 1),
    ("reducesumsquare", "ReduceSumSquare", [x(2, 3, 4)], {"axes": (2,), "keepdims": 0}, 13, 1),
    ("reducel1", "ReduceL1", [x(2, 3, 4)], {"axes": (1,)}, 13, 1),
    ("reducel2", "ReduceL2", [x(2, 3, 4)], {"axes": (2,)}, 13, 1),
    ("argmax", "ArgMax", [x(2, 3, 4)], {"axis": 1}, 13, 1),
    ("argmin", "ArgMin", [x(2, 3, 4)], {"axis": 2, "keepdims": 0}, 13, 1),
    ("clip", "Clip", [x(2, 3), ("c", np.array(-0.3, f32)), ("c", np.array(0.4, f32))], {}, 13, 1),
    ("clip_v6", "Clip", [x(2, 3)], {"min": -0.2, "max": 0.5}, 6, 1),
    ("maxroipool", "MaxRoiPool", [x(1, 2, 8, 8), ("c", np.array([[0, 0, 0, 5, 5], [0, 2, 1, 7, 6]], f32))],
     {"pooled_shape": (2, 2), "spatial_scale": 1.0}, 13, 1),
    ("shape", "Shape", [x(2, 3, 4)], {}, 13, 1),
    ("size", "Size", [x(2, 3, 4)], {}, 13, 1),
    ("gather", "Gather", [x(5, 3), c(0, 4, -1)], {"axis": 0}, 13, 1),
    ("depthtospace", "DepthToSpace", [x(1, 8, 2, 3)], {"blocksize": 2}, 13, 1),
    ("spacetodepth", "SpaceToDepth", [x(1, 2, 4, 6)], {"blocksize": 2}, 13, 1),
    ("lpnormalization", "LpNormalization", [x(2, 3, 4)], {"axis": 1, "p": 2}, 13, 1),
    ("topk", "TopK", [x(2, 6), c(3)], {"axis": 1}, 13, 2),
    ("where", "Where", [("x", np.array([[True, False, True]])), x(2, 3), x(2, 3)], {}, 13, 1),
    ("expand", "Expand", [x(3, 1), c(2, 3, 4)], {}, 13, 1),
    ("tile", "Tile", [x(2, 3), c(2, 1)], {}, 13, 1),
    ("resize_nearest", "Resize", [X4, ("c", np.zeros(0, f32)), c(1, 1, 2, 2, dtype=f32)], {}, 13, 1),
    ("resize_linear", "Resize", [X4, ("c", np.zeros(0, f32)), c(1, 1, 2, 2, dtype=f32)],
     {"mode": "linear"}, 13, 1),
    ("resize_linear_sizes", "Resize", [X4, ("c", np.zeros(0, f32)), ("c", np.zeros(0, f32)), c(2, 3, 9, 4)],
     {"mode": "linear", "coordinate_transformation_mode": "align_corners"}, 13, 1),
    ("resize_linear_pytorch", "Resize", [X4, ("c", np.zeros(0, f32)), c(1, 1, 1.5, 1.5, dtype=f32)],
     {"mode": "linear", "coordinate_transformation_mode": "pytorch_half_pixel"}, 13, 1),
    ("upsample", "Upsample", [X4], {"scales": (1.0, 1.0, 3.0, 3.0)}, 7, 1),
    ("constant", "Add", [x(2, 3), ("const", np.array([1.0, 2.0, 3.0], f32))], {}, 13, 1),
]

# rows onnxruntime cannot run (operator versions it no longer implements): a float64 NumPy reference
LEGACY = [
    ("add_bcast_axis", "Add", [x(2, 3, 4), w(3)], {"broadcast": 1, "axis": 1}, 6, 1),
    ("mul_bcast_axis", "Mul", [x(2, 3, 4), w(3, 4)], {"broadcast": 1, "axis": 1}, 6, 1),
]
LEGACY_REFERENCE = {
    "add_bcast_axis": lambda a, b: a + b.reshape(1, 3, 1),
    "mul_bcast_axis": lambda a, b: a * b.reshape(1, 3, 4),
}

# random generators: compared by shape and range, not value
RANDOM = [
    ("random_uniform", "RandomUniform", [], {"shape": (3, 4), "low": -2.0, "high": 1.0}, 13, 1),
    ("random_normal", "RandomNormal", [], {"shape": (3, 4), "mean": 1.0, "scale": 0.1}, 13, 1),
    ("random_uniform_like", "RandomUniformLike", [x(3, 4)], {"low": 5.0, "high": 6.0}, 13, 1),
    ("random_normal_like", "RandomNormalLike", [x(3, 4)], {"mean": -3.0, "scale": 0.01}, 13, 1),
    ("multinomial", "Multinomial", [x(2, 3)], {"sample_size": 5}, 13, 1),
]
