"""More rows of the layer table (see tests/nn/layer_table.py, which appends these to its CASES): padding,
activations, 3-D and transposed convolutions, pooling in 1-D and 3-D, resizing, normalization, recurrent
layers and cells, attention and the Transformer family, and the remaining layers. Data only."""
from __future__ import annotations

from tests.nn.layer_table import Input, LayerCase


def _x(*shape: int) -> Input:
    return Input(tuple(shape))


def _wide(*shape: int) -> Input:
    return Input(tuple(shape), low=-3.0, high=3.0)


CASES: list[LayerCase] = [
    # ---------------------------------------------------------------- padding
    LayerCase("constant_pad1d", "ConstantPad1d", {"padding": (1, 2), "value": 0.5}, (_x(2, 3, 4),), ((2, 3, 7),)),
    LayerCase("constant_pad1d_crop", "ConstantPad1d", {"padding": (-1, 2), "value": 1}, (_x(2, 3, 4),),
              ((2, 3, 5),)),
    LayerCase("constant_pad2d", "ConstantPad2d", {"padding": (1, 0, 2, 1), "value": -1.5}, (_x(2, 3, 4),),
              ((2, 6, 5),)),
    LayerCase("constant_pad3d", "ConstantPad3d", {"padding": 1, "value": 2.0}, (_x(2, 2, 3, 4),),
              ((2, 4, 5, 6),)),
    LayerCase("zero_pad2d", "ZeroPad2d", {"padding": (2, 1)}, (_x(2, 3, 4),), ((2, 3, 7),)),
    LayerCase("reflection_pad1d", "ReflectionPad1d", {"padding": (2, 1)}, (_x(2, 3, 4),), ((2, 3, 7),)),
    LayerCase("reflection_pad2d", "ReflectionPad2d", {"padding": 1}, (_x(2, 3, 4, 5),), ((2, 3, 6, 7),)),
    LayerCase("reflection_pad3d", "ReflectionPad3d", {"padding": (1, 0, 2, 1, 0, 1)}, (_x(1, 2, 3, 4, 5),),
              ((1, 2, 4, 7, 6),)),
    LayerCase("replication_pad1d", "ReplicationPad1d", {"padding": (1, 3)}, (_x(2, 3, 4),), ((2, 3, 8),)),
    LayerCase("replication_pad2d", "ReplicationPad2d", {"padding": (0, 2, 1, 1)}, (_x(2, 3, 4, 5),),
              ((2, 3, 6, 7),)),
    LayerCase("replication_pad3d", "ReplicationPad3d", {"padding": 1}, (_x(2, 3, 4, 5),), ((2, 5, 6, 7),)),
    LayerCase("pad_constant", "Pad", {"paddings": ((0, 0), (1, 1), (2, 0))}, (_x(2, 3, 4),), ((2, 5, 6),)),
    LayerCase("pad_symmetric", "Pad", {"paddings": ((0, 0), (1, 2), (3, 1)), "mode": "SYMMETRIC"},
              (_x(2, 3, 4),), ((2, 6, 8),)),
    LayerCase("pad_reflect", "Pad", {"paddings": ((0, 0), (2, 1), (0, 3)), "mode": "REFLECT"}, (_x(2, 3, 4),),
              ((2, 6, 7),)),
    # ---------------------------------------------------------------- activations
    LayerCase("celu", "CELU", {"alpha": 0.5}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("elu", "ELU", {}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("selu", "SeLU", {}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("mish", "Mish", {}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("softsign", "Softsign", {}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("hsigmoid", "HSigmoid", {}, (Input((3, 4), low=-2.5, high=2.5),), ((3, 4),)),
    LayerCase("hardtanh", "Hardtanh", {"min_val": -0.5, "max_val": 2.0}, (_wide(3, 4),), ((3, 4),), grad=False),
    LayerCase("log_sigmoid", "LogSigmoid", {}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("softmin", "Softmin", {"axis": 0}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("softmax2d", "Softmax2d", {}, (_wide(2, 3, 4, 5),), ((2, 3, 4, 5),)),
    LayerCase("log_softmax_ext", "LogSoftmaxExt", {}, (_wide(2, 3, 4),), ((2, 3, 4),)),
    LayerCase("glu", "GLU", {"axis": 1}, (_wide(2, 4, 3),), ((2, 2, 3),)),
    LayerCase("fast_gelu", "FastGelu", {}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("rrelu", "RReLU", {}, (_wide(3, 4),), ((3, 4),), random=True,
              onnx="draws random slopes in evaluation too: an exported graph draws its own"),
    LayerCase("threshold", "Threshold", {"threshold": 0.1, "value": -2.0}, (_wide(3, 4),), ((3, 4),), grad=False),
    LayerCase("soft_shrink", "SoftShrink", {"lambd": 0.2}, (_wide(3, 4),), ((3, 4),), grad=False),
    LayerCase("hshrink", "HShrink", {}, (_wide(3, 4),), ((3, 4),), grad=False),
    LayerCase("tanhshrink", "Tanhshrink", {}, (_wide(3, 4),), ((3, 4),)),
    LayerCase("lrn", "LRN", {"depth_radius": 2, "bias": 2.0, "alpha": 0.5, "beta": 0.75}, (_x(2, 6, 3, 4),),
              ((2, 6, 3, 4),)),
    LayerCase("prelu_ext", "PReLUExt", {"num_parameters": 3, "init": 0.1}, (_wide(2, 3, 4),), ((2, 3, 4),)),
    # ---------------------------------------------------------------- convolution
    LayerCase("conv3d_same", "Conv3d", {"in_channels": 2, "out_channels": 3, "kernel_size": 3, "has_bias": True},
              (_x(2, 2, 4, 5, 4),), ((2, 3, 4, 5, 4),)),
    LayerCase("conv3d_pad_group", "Conv3d", {"in_channels": 4, "out_channels": 2, "kernel_size": (2, 3, 2),
                                             "stride": 2, "pad_mode": "pad", "padding": (1, 0, 0, 1, 1, 1),
                                             "group": 2},
              (_x(1, 4, 4, 5, 4),), ((1, 2, 2, 2, 3),)),
    LayerCase("conv3d_transpose_same", "Conv3dTranspose", {"in_channels": 2, "out_channels": 3, "kernel_size": 3,
                                                           "stride": 2, "has_bias": True},
              (_x(1, 2, 2, 3, 2),), ((1, 3, 4, 6, 4),)),
    LayerCase("conv3d_transpose_pad", "Conv3dTranspose", {"in_channels": 2, "out_channels": 2, "kernel_size": 3,
                                                          "stride": 2, "pad_mode": "pad", "padding": 1,
                                                          "output_padding": 1},
              (_x(1, 2, 2, 3, 2),), ((1, 2, 4, 6, 4),)),
    LayerCase("conv1d_transpose_same", "Conv1dTranspose", {"in_channels": 2, "out_channels": 3, "kernel_size": 3,
                                                           "stride": 2, "has_bias": True},
              (_x(2, 2, 5),), ((2, 3, 10),)),
    LayerCase("conv1d_transpose_pad", "Conv1dTranspose", {"in_channels": 2, "out_channels": 2, "kernel_size": 3,
                                                          "stride": 2, "pad_mode": "pad", "padding": 1},
              (_x(2, 2, 5),), ((2, 2, 9),)),
]
