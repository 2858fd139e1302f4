"""One row per layer configuration: the data the layer tests (tests/nn/test_layers.py) and the ONNX parity
test run on. Data only - no imports of cellonnx - so any test can read it.

A row says which ``cellonnx.nn`` class to build with which keyword arguments, the inputs to call it with and
what to check:

- ``inputs``: one Input per positional argument (shape, dtype; integer inputs draw from [low, high)).
- ``out_shapes``: the expected shape of each output tensor, flattened in order (LSTM: output, h_n, c_n).
- ``train_differs``: the training-mode output differs from the evaluation-mode one (dropout, batch norm);
  ``random``: the training-mode forward draws random numbers (the test reseeds before each evaluation).
- ``grad``: run the finite-difference gradient check (inputs and parameters, float64).
- ``ref``: the name of a NumPy reference the layer test compares against (see REFERENCES in test_layers).
- ``onnx``: whether the row can be exported (False with the reason, for the ONNX parity test).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Input:
    shape: tuple[int, ...]
    dtype: str = "float32"
    low: float = -1.0
    high: float = 1.0
    # integers without repeats within each (N, C) plane: max-unpool indices as a max pool gives them (repeated
    # indices scatter in an unspecified order, differently on each execution provider)
    distinct: bool = False

    def draw(self, rng: Any, shape: tuple[int, ...] | None = None, dtype: Any = None) -> Any:
        import numpy as np

        shape = self.shape if shape is None else shape
        if self.distinct:
            planes = int(np.prod(shape[:2]))
            per_plane = int(np.prod(shape[2:]))
            values = np.arange(int(self.low), int(self.high))
            rows = [rng.permutation(values)[:per_plane] for _ in range(planes)]
            return np.stack(rows).reshape(shape).astype(self.dtype)
        if self.dtype.startswith("int"):
            return rng.integers(int(self.low), int(self.high), shape).astype(self.dtype)
        return rng.uniform(self.low, self.high, shape).astype(dtype or self.dtype)


@dataclass(frozen=True)
class LayerCase:
    name: str
    layer: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    inputs: tuple[Input, ...] = ()
    out_shapes: tuple[tuple[int, ...], ...] = ()
    train_differs: bool = False
    random: bool = False
    grad: bool = True
    ref: str | None = None
    onnx: bool | str = True

    def __str__(self) -> str:
        return self.name


def _x(*shape: int) -> Input:
    return Input(tuple(shape))


def _ids(*shape: int, high: int = 10) -> Input:
    return Input(tuple(shape), "int32", 0, high)


CASES: list[LayerCase] = [
    # ---------------------------------------------------------------- basic
    LayerCase("dense", "Dense", {"in_channels": 3, "out_channels": 4}, (_x(2, 3),), ((2, 4),), ref="dense"),
    LayerCase("dense_nobias_3d", "Dense", {"in_channels": 3, "out_channels": 5, "has_bias": False},
              (_x(2, 4, 3),), ((2, 4, 5),), ref="dense"),
    LayerCase("dense_relu", "Dense", {"in_channels": 3, "out_channels": 4, "activation": "relu"}, (_x(2, 3),),
              ((2, 4),), ref="dense"),
    LayerCase("flatten", "Flatten", {}, (_x(2, 3, 4),), ((2, 12),)),
    LayerCase("flatten_range", "Flatten", {"start_dim": 0, "end_dim": 1}, (_x(2, 3, 4),), ((6, 4),)),
    LayerCase("identity", "Identity", {}, (_x(2, 3),), ((2, 3),)),
    LayerCase("dropout_p", "Dropout", {"p": 0.5}, (_x(4, 8),), ((4, 8),), train_differs=True, random=True),
    LayerCase("dropout_keep_prob", "Dropout", {"keep_prob": 0.75}, (_x(4, 8),), ((4, 8),), train_differs=True,
              random=True),
    LayerCase("one_hot", "OneHot", {"depth": 5}, (_ids(4, high=5),), ((4, 5),), grad=False),
    LayerCase("one_hot_axis0", "OneHot", {"depth": 3, "axis": 0, "on_value": 2.0, "off_value": -1.0},
              (_ids(4, high=3),), ((3, 4),), grad=False),
    LayerCase("norm_all", "Norm", {}, (_x(3, 4),), ((),), ref="norm"),
    LayerCase("norm_axis1", "Norm", {"axis": 1, "keep_dims": True}, (_x(3, 4),), ((3, 1),), ref="norm"),
    LayerCase("clip_by_norm", "ClipByNorm", {}, (Input((3, 4), low=-3.0, high=3.0), Input((), low=0.5, high=1.0)),
              ((3, 4),), ref="clip_by_norm"),
    LayerCase("clip_by_norm_axis", "ClipByNorm", {"axis": 1}, (Input((3, 4), low=-3.0, high=3.0),
                                                             Input((), low=0.5, high=1.0)), ((3, 4),),
              ref="clip_by_norm"),
    # ---------------------------------------------------------------- convolution
    LayerCase("conv2d_same", "Conv2d", {"in_channels": 2, "out_channels": 3, "kernel_size": 3},
              (_x(2, 2, 5, 5),), ((2, 3, 5, 5),)),
    LayerCase("conv2d_same_stride2_bias", "Conv2d", {"in_channels": 2, "out_channels": 3, "kernel_size": 3,
                                                     "stride": 2, "has_bias": True},
              (_x(1, 2, 6, 7),), ((1, 3, 3, 4),)),
    LayerCase("conv2d_valid", "Conv2d", {"in_channels": 2, "out_channels": 4, "kernel_size": (2, 3),
                                         "pad_mode": "valid", "has_bias": True}, (_x(2, 2, 5, 6),),
              ((2, 4, 4, 4),)),
    LayerCase("conv2d_pad_dilation", "Conv2d", {"in_channels": 2, "out_channels": 3, "kernel_size": 3,
                                                "pad_mode": "pad", "padding": 1, "dilation": 2},
              (_x(1, 2, 6, 6),), ((1, 3, 4, 4),)),
    LayerCase("conv2d_pad_asymmetric", "Conv2d", {"in_channels": 2, "out_channels": 2, "kernel_size": 2,
                                                  "pad_mode": "pad", "padding": (1, 0, 2, 1)},
              (_x(1, 2, 4, 4),), ((1, 2, 4, 6),)),
    LayerCase("conv2d_group", "Conv2d", {"in_channels": 4, "out_channels": 6, "kernel_size": 1, "group": 2,
                                         "has_bias": True}, (_x(1, 4, 3, 3),), ((1, 6, 3, 3),)),
    LayerCase("conv1d_same", "Conv1d", {"in_channels": 2, "out_channels": 3, "kernel_size": 3},
              (_x(2, 2, 7),), ((2, 3, 7),)),
    LayerCase("conv1d_pad_stride", "Conv1d", {"in_channels": 2, "out_channels": 3, "kernel_size": 3,
                                              "pad_mode": "pad", "padding": 1, "stride": 2, "has_bias": True},
              (_x(2, 2, 7),), ((2, 3, 4),)),
    LayerCase("conv2d_transpose_same", "Conv2dTranspose", {"in_channels": 2, "out_channels": 3, "kernel_size": 3,
                                                           "stride": 2}, (_x(1, 2, 3, 4),), ((1, 3, 6, 8),)),
    LayerCase("conv2d_transpose_valid_bias", "Conv2dTranspose", {"in_channels": 2, "out_channels": 3,
                                                                 "kernel_size": 3, "stride": 2, "pad_mode": "valid",
                                                                 "has_bias": True},
              (_x(1, 2, 3, 3),), ((1, 3, 7, 7),)),
    LayerCase("conv2d_transpose_pad", "Conv2dTranspose", {"in_channels": 2, "out_channels": 2, "kernel_size": 3,
                                                          "stride": 2, "pad_mode": "pad", "padding": 1},
              (_x(1, 2, 3, 3),), ((1, 2, 5, 5),)),
    LayerCase("conv2d_transpose_output_padding", "Conv2dTranspose", {"in_channels": 2, "out_channels": 2,
                                                                     "kernel_size": 3, "stride": 2,
                                                                     "pad_mode": "pad", "padding": 1,
                                                                     "output_padding": 1, "has_bias": True},
              (_x(1, 2, 3, 3),), ((1, 2, 6, 6),)),
    # ---------------------------------------------------------------- pooling
    LayerCase("max_pool_valid", "MaxPool2d", {"kernel_size": 2, "stride": 2}, (_x(2, 3, 5, 5),),
              ((2, 3, 2, 2),)),
    LayerCase("max_pool_same", "MaxPool2d", {"kernel_size": 3, "stride": 2, "pad_mode": "same"},
              (_x(1, 2, 5, 6),), ((1, 2, 3, 3),)),
    LayerCase("max_pool_pad", "MaxPool2d", {"kernel_size": 3, "stride": 2, "pad_mode": "pad", "padding": 1},
              (_x(1, 2, 5, 5),), ((1, 2, 3, 3),)),
    LayerCase("max_pool_chw", "MaxPool2d", {"kernel_size": 2, "stride": 1}, (_x(3, 4, 4),), ((3, 3, 3),)),
    LayerCase("avg_pool_valid", "AvgPool2d", {"kernel_size": 2, "stride": 2}, (_x(2, 3, 4, 4),),
              ((2, 3, 2, 2),)),
    LayerCase("avg_pool_same", "AvgPool2d", {"kernel_size": 2, "stride": 2, "pad_mode": "same"},
              (_x(1, 2, 5, 5),), ((1, 2, 3, 3),), ref="avg_pool_same"),
    LayerCase("avg_pool_pad_exclude", "AvgPool2d", {"kernel_size": 3, "stride": 1, "pad_mode": "pad",
                                                    "padding": 1, "count_include_pad": False},
              (_x(1, 2, 4, 4),), ((1, 2, 4, 4),)),
    LayerCase("adaptive_avg_pool", "AdaptiveAvgPool2d", {"output_size": (2, 3)}, (_x(2, 3, 6, 7),),
              ((2, 3, 2, 3),)),
    LayerCase("adaptive_avg_pool_global", "AdaptiveAvgPool2d", {"output_size": 1}, (_x(2, 3, 4, 4),),
              ((2, 3, 1, 1),)),
    # ---------------------------------------------------------------- normalization
    LayerCase("batch_norm_1d", "BatchNorm1d", {"num_features": 3}, (_x(4, 3),), ((4, 3),), train_differs=True,
              ref="batch_norm"),
    LayerCase("batch_norm_1d_ncl", "BatchNorm1d", {"num_features": 3, "momentum": 0.5}, (_x(4, 3, 5),),
              ((4, 3, 5),), train_differs=True, ref="batch_norm"),
    LayerCase("batch_norm_2d", "BatchNorm2d", {"num_features": 3}, (_x(2, 3, 4, 4),), ((2, 3, 4, 4),),
              train_differs=True, ref="batch_norm"),
    LayerCase("batch_norm_2d_batch_stats", "BatchNorm2d", {"num_features": 2, "use_batch_statistics": True,
                                                           "affine": False},
              (_x(2, 2, 3, 3),), ((2, 2, 3, 3),), ref="batch_norm"),
    LayerCase("layer_norm", "LayerNorm", {"normalized_shape": (4,)}, (_x(2, 3, 4),), ((2, 3, 4),),
              ref="layer_norm"),
    LayerCase("layer_norm_axes", "LayerNorm", {"normalized_shape": (3, 4), "begin_norm_axis": 1,
                                               "begin_params_axis": 1, "epsilon": 1e-5},
              (_x(2, 3, 4),), ((2, 3, 4),), ref="layer_norm"),
    LayerCase("group_norm", "GroupNorm", {"num_groups": 2, "num_channels": 4}, (_x(2, 4, 3, 3),),
              ((2, 4, 3, 3),), ref="group_norm"),
    LayerCase("instance_norm", "InstanceNorm2d", {"num_features": 3}, (_x(2, 3, 4, 4),), ((2, 3, 4, 4),),
              ref="instance_norm"),
    # ---------------------------------------------------------------- embedding and recurrent
    LayerCase("embedding", "Embedding", {"vocab_size": 10, "embedding_size": 4}, (_ids(2, 3),), ((2, 3, 4),),
              ref="embedding"),
    LayerCase("embedding_one_hot_padding", "Embedding", {"vocab_size": 6, "embedding_size": 3, "use_one_hot": True,
                                                         "padding_idx": 0},
              (_ids(5, high=6),), ((5, 3),), ref="embedding"),
    LayerCase("lstm", "LSTM", {"input_size": 3, "hidden_size": 4}, (_x(5, 2, 3),),
              ((5, 2, 4), (1, 2, 4), (1, 2, 4)), ref="lstm"),
    LayerCase("lstm_bi_2layer_batch_first", "LSTM", {"input_size": 3, "hidden_size": 2, "num_layers": 2,
                                                     "bidirectional": True, "batch_first": True},
              (_x(2, 4, 3),), ((2, 4, 4), (4, 2, 2), (4, 2, 2)), ref="lstm"),
    LayerCase("lstm_nobias_dropout", "LSTM", {"input_size": 2, "hidden_size": 3, "num_layers": 2,
                                              "has_bias": False, "dropout": 0.5},
              (_x(3, 2, 2),), ((3, 2, 3), (2, 2, 3), (2, 2, 3)), train_differs=True, random=True),
    # ---------------------------------------------------------------- activations
    LayerCase("relu", "ReLU", {}, (_x(3, 4),), ((3, 4),), ref="relu"),
    LayerCase("relu6", "ReLU6", {}, (Input((3, 4), low=-8.0, high=8.0),), ((3, 4),), ref="relu6"),
    LayerCase("gelu_tanh", "GELU", {}, (_x(3, 4),), ((3, 4),), ref="gelu_tanh"),
    LayerCase("gelu_exact", "GELU", {"approximate": False}, (_x(3, 4),), ((3, 4),), ref="gelu_exact"),
    LayerCase("sigmoid", "Sigmoid", {}, (_x(3, 4),), ((3, 4),), ref="sigmoid"),
    LayerCase("tanh", "Tanh", {}, (_x(3, 4),), ((3, 4),), ref="tanh"),
    LayerCase("leaky_relu", "LeakyReLU", {}, (_x(3, 4),), ((3, 4),), ref="leaky_relu"),
    LayerCase("leaky_relu_alpha", "LeakyReLU", {"alpha": 0.05}, (_x(3, 4),), ((3, 4),), ref="leaky_relu"),
    LayerCase("prelu", "PReLU", {}, (_x(2, 3, 4),), ((2, 3, 4),), ref="prelu"),
    LayerCase("prelu_channels", "PReLU", {"channel": 3, "w": [0.1, 0.2, 0.3]}, (_x(2, 3, 4),), ((2, 3, 4),),
              ref="prelu"),
    LayerCase("softmax", "Softmax", {}, (_x(3, 4),), ((3, 4),), ref="softmax"),
    LayerCase("softmax_axis0", "Softmax", {"axis": 0}, (_x(3, 4),), ((3, 4),), ref="softmax"),
    LayerCase("log_softmax", "LogSoftmax", {}, (_x(3, 4),), ((3, 4),), ref="log_softmax"),
    LayerCase("silu", "SiLU", {}, (_x(3, 4),), ((3, 4),), ref="silu"),
    LayerCase("hswish", "HSwish", {}, (Input((3, 4), low=-5.0, high=5.0),), ((3, 4),), ref="hswish"),
]

from tests.nn.layer_table_more import CASES as _MORE  # noqa: E402 (the rows above first: it imports them)

CASES += _MORE
