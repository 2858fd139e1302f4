"""MXNet operator cases: one row per call of an mx.nd operator, run by real MXNet 1.9.1
(tests/fixtures/mxnet/gen_nd_ops.py) and by cellonnx.mxnet (test_nd_ops.py).

NumPy only (the generator imports it under MXNet's python). A row is (id, operator, args, kwargs, flags):
args are array specs - ``F(shape, low, high)`` float32, ``I(shape, high)`` integer values stored as float32
(MXNet's index arrays), ``K(values)`` a fixed array - or plain Python values; flags: ``grad`` (default True:
the gradient of sum(output * fixed weights) with respect to every F argument is compared), ``train``
(run inside autograd.record(train_mode=True)), ``contrib`` (the operator is mx.nd.contrib's), ``out`` (the
indices of the arguments passed as ``out=``: MXNet's multi-tensor updates need it imperatively).

Rows are recorded in training mode where MXNet 1.9's CPU kernels give no true gradient otherwise: max
pooling's backward after an inference-mode forward (MKL-DNN keeps no workspace then, and routes nothing).
BatchNorm in inference mode is compared forward only: MXNet's gradient applies the training formula to the
moving statistics, which is not the derivative of its inference output (cellonnx's is, checked against
finite differences in test_nd_ops.py).
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np

__all__ = ["CASES", "F", "H", "I", "K", "make_args", "weights"]


class F:
    """A float32 array of ``shape`` uniform in [low, high)."""

    def __init__(self, *shape: int, low: float = -2.0, high: float = 2.0, positive: bool = False) -> None:
        self.shape, self.low, self.high = shape, (0.1 if positive else low), high

    def make(self, rng: np.random.Generator) -> np.ndarray:
        return rng.uniform(self.low, self.high, self.shape).astype(np.float32)


class H(F):
    """A float16 array of ``shape`` uniform in [low, high) (the low-precision weights of mp_* updates)."""

    def make(self, rng: np.random.Generator) -> np.ndarray:
        return super().make(rng).astype(np.float16)


class I:  # noqa: E742 - index arrays
    """Integers in [0, high) stored as float32 (MXNet passes indices as floats)."""

    def __init__(self, *shape: int, high: int) -> None:
        self.shape, self.high = shape, high

    def make(self, rng: np.random.Generator) -> np.ndarray:
        return rng.integers(0, self.high, self.shape).astype(np.float32)


class K:
    """A fixed array."""

    def __init__(self, values: Any, dtype: Any = np.float32) -> None:
        self.values = np.asarray(values, dtype)

    def make(self, rng: np.random.Generator) -> np.ndarray:
        return self.values.copy()


def make_args(case_id: str, args: list[Any]) -> list[Any]:
    rng = np.random.default_rng(zlib.crc32(case_id.encode()))
    return [a.make(rng) if isinstance(a, (F, I, K)) else a for a in args]


def weights(case_id: str, shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng(zlib.crc32(case_id.encode()) ^ 0x5EED)
    return rng.normal(size=shape).astype(np.float32)


X = F(2, 3, 4, 5)
NG = {"grad": False}
TRAIN = {"train": True}
UPD = {"grad": False, "train": True}  # an update: the states it moves in place are compared

CASES: list[tuple[str, str, list[Any], dict[str, Any], dict[str, Any]]] = [
    # activations
    *[(f"Activation_{t}", "Activation", [X], {"act_type": t}, {}) for t in ("relu", "sigmoid", "tanh",
                                                                            "softrelu",
                                                                           "softsign")],
    ("LeakyReLU_leaky", "LeakyReLU", [X], {"act_type": "leaky", "slope": 0.1}, {}),
    ("LeakyReLU_elu", "LeakyReLU", [X], {"act_type": "elu", "slope": 0.7}, {}),
    ("LeakyReLU_selu", "LeakyReLU", [X], {"act_type": "selu"}, NG),
    ("LeakyReLU_gelu", "LeakyReLU", [X], {"act_type": "gelu"}, {}),
    ("LeakyReLU_prelu", "LeakyReLU", [X, F(3, low=0.0, high=0.5)], {"act_type": "prelu"}, {}),
    ("hard_sigmoid", "hard_sigmoid", [X], {"alpha": 0.3, "beta": 0.4}, {}),
    # dense, convolution, pooling
    ("FullyConnected", "FullyConnected", [X, F(6, 60), F(6)], {"num_hidden": 6}, {}),
    ("FullyConnected_noflatten", "FullyConnected", [X, F(6, 5)], {"num_hidden": 6, "flatten": False,
                                                                  "no_bias": True}, {}),
    ("Convolution", "Convolution", [X, F(4, 3, 3, 3), F(4)],
     {"kernel": (3, 3), "num_filter": 4, "pad": (1, 1)},
     {}),
    ("Convolution_group", "Convolution", [F(2, 4, 6, 5), F(6, 2, 3, 2)],
     {"kernel": (3, 2), "num_filter": 6, "num_group": 2, "stride": (2, 1), "dilate": (1, 2),
      "no_bias": True}, {}),
    ("Convolution_1d", "Convolution", [F(2, 3, 9), F(4, 3, 3), F(4)], {"kernel": (3,), "num_filter": 4,
                                                                      "stride": (2,), "pad": (1,)}, {}),
    ("Deconvolution", "Deconvolution", [F(2, 4, 3, 3), F(4, 2, 3, 3)],
     {"kernel": (3, 3), "num_filter": 2, "stride": (2, 2), "pad": (1, 1), "adj": (1, 1)}, {}),
    ("Pooling_max", "Pooling", [X], {"kernel": (2, 2), "stride": (2, 2), "pool_type": "max"}, TRAIN),
    ("Pooling_max_full", "Pooling", [X], {"kernel": (2, 2), "stride": (2, 2), "pool_type": "max",
                                          "pooling_convention": "full"}, TRAIN),
    ("Pooling_avg_pad", "Pooling", [X], {"kernel": (3, 3), "stride": (1, 1), "pad": (1, 1),
                                         "pool_type": "avg",
                                         "count_include_pad": False}, {}),
    ("Pooling_sum", "Pooling", [X], {"kernel": (2, 2), "pool_type": "sum"}, {}),
    ("Pooling_global_avg", "Pooling", [X], {"global_pool": True, "pool_type": "avg", "kernel": (1, 1)}, {}),
    ("Pooling_global_max", "Pooling", [X], {"global_pool": True, "pool_type": "max", "kernel": (1, 1)},
     TRAIN),
    ("Pooling_1d", "Pooling", [F(2, 3, 8)], {"kernel": (3,), "stride": (2,), "pool_type": "avg"}, {}),
    ("UpSampling", "UpSampling", [X], {"scale": 2, "sample_type": "nearest"}, {}),
    # normalization
    ("BatchNorm_infer", "BatchNorm", [X, F(3, positive=True), F(3), F(3), F(3, positive=True)],
     {"fix_gamma": False, "eps": 1e-3}, NG),
    ("BatchNorm_fix_gamma", "BatchNorm", [X, F(3, positive=True), F(3), F(3), F(3, positive=True)], {}, NG),
    ("BatchNorm_train", "BatchNorm", [X, F(3, positive=True), F(3), F(3), F(3, positive=True)],
     {"fix_gamma": False, "momentum": 0.8}, {"train": True}),
    ("BatchNorm_axis", "BatchNorm", [F(2, 5, 3), F(3, positive=True), F(3), F(3), F(3, positive=True)],
     {"axis": -1, "fix_gamma": False}, NG),
    ("BatchNorm_axis_train", "BatchNorm", [F(2, 5, 3), F(3, positive=True), F(3), F(3), F(3, positive=True)],
     {"axis": -1, "fix_gamma": False}, TRAIN),
    ("LayerNorm", "LayerNorm", [X, F(5), F(5)], {"axis": -1, "eps": 1e-5}, {}),
    ("LayerNorm_axis1", "LayerNorm", [X, F(3), F(3)], {"axis": 1}, {}),
    ("InstanceNorm", "InstanceNorm", [X, F(3), F(3)], {"eps": 1e-3}, {}),
    ("GroupNorm", "GroupNorm", [F(2, 4, 3, 3), F(2), F(2)], {"num_groups": 2}, {}),
    *[(f"L2Normalization_{m}", "L2Normalization", [X], {"mode": m}, {}) for m in ("instance", "channel",
                                                                                 "spatial")],
    ("LRN", "LRN", [F(2, 6, 3, 3)], {"nsize": 3, "alpha": 0.01, "beta": 0.75, "knorm": 2.0}, {}),
    # softmax family and losses
    ("softmax", "softmax", [X], {"axis": 1}, {}),
    ("softmax_temperature", "softmax", [X], {"temperature": 2.0}, {}),
    ("log_softmax", "log_softmax", [X], {"axis": -1}, {}),
    ("softmin", "softmin", [X], {}, {}),
    ("SoftmaxActivation_channel", "SoftmaxActivation", [X], {"mode": "channel"}, {}),
    ("softmax_cross_entropy", "softmax_cross_entropy", [F(4, 5), I(4, high=5)], {}, {}),
    ("smooth_l1", "smooth_l1", [X], {"scalar": 1.5}, {}),
    # embedding and indexing
    ("Embedding", "Embedding", [I(2, 3, high=7), F(7, 4)], {"input_dim": 7, "output_dim": 4}, {}),
    ("one_hot", "one_hot", [I(2, 3, high=5)], {"depth": 5, "on_value": 2.0, "off_value": -1.0}, NG),
    ("pick", "pick", [F(3, 4), I(3, high=4)], {"axis": 1}, {}),
    ("pick_keepdims", "pick", [F(3, 4, 2), I(3, 2, high=4)], {"axis": 1, "keepdims": True}, {}),
    ("take_clip", "take", [F(5, 3), K([[0, 4], [7, -2]])], {"axis": 0}, {}),
    ("take_wrap", "take", [F(4, 5), K([1, 6, -1])], {"axis": 1, "mode": "wrap"}, {}),
    ("gather_nd", "gather_nd", [F(3, 4, 2), K([[0, 2, 1], [1, 3, 0]])], {}, {}),
    ("where", "where", [K([[1, 0, 1], [0, 0, 1]]), F(2, 3), F(2, 3)], {}, {}),
    ("where_rows", "where", [K([1, 0]), F(2, 3), F(2, 3)], {}, {}),
    # shapes
    *[(f"reshape_{i}", "reshape", [X], {"shape": s}, {}) for i, s in enumerate(
        [(0, -1), (-2,), (-3, -2), (2, -4, 1, -1, 0, 0), (-4, 1, 2, -2), (0, 0, -3)])],
    ("reshape_reverse", "reshape", [F(2, 3, 4)], {"shape": (-1, 0), "reverse": True}, {}),
    ("Flatten", "Flatten", [X], {}, {}),
    ("transpose", "transpose", [X], {"axes": (0, 2, 3, 1)}, {}),
    ("transpose_default", "transpose", [F(2, 3, 4)], {}, {}),
    ("swapaxes", "swapaxes", [X], {"dim1": 1, "dim2": 3}, {}),
    ("expand_dims", "expand_dims", [F(2, 3)], {"axis": 1}, {}),
    ("squeeze", "squeeze", [F(2, 1, 3, 1)], {"axis": 3}, {}),
    ("concat", "concat", [F(2, 3), F(2, 4)], {"dim": 1}, {}),
    ("stack", "stack", [F(2, 3), F(2, 3)], {"axis": 1}, {}),
    ("split", "split", [F(2, 6)], {"num_outputs": 3, "axis": 1}, {}),
    ("split_squeeze", "split", [F(3, 2)], {"num_outputs": 3, "axis": 0, "squeeze_axis": True}, {}),
    ("slice", "slice", [X], {"begin": (0, 1, None), "end": (2, None, 3)}, {}),
    ("slice_step", "slice", [F(6, 5)], {"begin": (None, 0), "end": (None, 5), "step": (2, 2)}, {}),
    ("slice_axis", "slice_axis", [X], {"axis": 2, "begin": 1, "end": None}, {}),
    ("slice_axis_negative", "slice_axis", [X], {"axis": -1, "begin": -3, "end": -1}, {}),
    ("slice_like", "slice_like", [F(4, 5), F(2, 3)], {"axes": (0,)}, {}),
    ("tile", "tile", [F(2, 3)], {"reps": (2, 1, 2)}, {}),
    ("repeat", "repeat", [F(2, 3)], {"repeats": 2, "axis": 1}, {}),
    ("repeat_flat", "repeat", [F(2, 3)], {"repeats": 2}, {}),
    ("flip", "flip", [X], {"axis": 2}, {}),
    ("broadcast_to", "broadcast_to", [F(2, 1, 4)], {"shape": (0, 3, 4)}, {}),
    ("broadcast_like", "broadcast_like", [F(1, 3), F(4, 3)], {}, {}),
    ("broadcast_axis", "broadcast_axis", [F(2, 1, 1)], {"axis": (1, 2), "size": (3, 4)}, {}),
    *[(f"pad_{m}", "pad", [X], {"mode": m, "pad_width": (0, 0, 0, 0, 1, 2, 2, 1), "constant_value": 0.5}, {})
      for m in ("constant", "edge", "reflect")],
    ("depth_to_space", "depth_to_space", [F(2, 8, 2, 3)], {"block_size": 2}, {}),
    ("space_to_depth", "space_to_depth", [F(2, 2, 4, 6)], {"block_size": 2}, {}),
    ("SequenceMask", "SequenceMask", [F(4, 3, 2), K([2, 4, 1])], {"use_sequence_length": True, "value": -1.0},
     {}),
    ("SequenceMask_axis1", "SequenceMask", [F(3, 4, 2), K([2, 4, 1])], {"use_sequence_length": True,
                                                                        "axis": 1},
     {}),
    ("SequenceLast", "SequenceLast", [F(4, 3, 2), K([2, 4, 1])], {"use_sequence_length": True}, {}),
    ("SequenceReverse", "SequenceReverse", [F(4, 3, 2), K([2, 4, 1])], {"use_sequence_length": True}, {}),
    ("clip", "clip", [X], {"a_min": -0.5, "a_max": 1.0}, {}),
    # reductions and sorting
    ("sum", "sum", [X], {"axis": (1, 3)}, {}),
    ("sum_keepdims", "sum", [X], {"axis": 1, "keepdims": True}, {}),
    ("sum_exclude", "sum", [X], {"axis": 1, "exclude": True}, {}),
    ("sum_all", "sum", [X], {}, {}),
    ("mean", "mean", [X], {"axis": 2}, {}),
    ("max", "max", [X], {"axis": (0, 2)}, {}),
    ("min", "min", [X], {"axis": -1, "keepdims": True}, {}),
    ("prod", "prod", [F(2, 3, positive=True)], {"axis": 1}, {}),
    ("nansum", "nansum", [K([[1.0, np.nan], [2.0, 3.0]])], {"axis": 1}, NG),
    ("argmax", "argmax", [X], {"axis": 1}, NG),
    ("argmin_keepdims", "argmin", [X], {"axis": 2, "keepdims": True}, NG),
    ("argmax_all", "argmax", [F(3, 4)], {}, NG),
    ("norm", "norm", [X], {}, {}),
    ("norm_l1_axis", "norm", [X], {"ord": 1, "axis": 1}, {}),
    ("topk_indices", "topk", [F(3, 6)], {"k": 2}, NG),
    ("topk_value", "topk", [F(3, 6)], {"k": 3, "ret_typ": "value", "axis": 1}, {}),
    ("topk_both_ascend", "topk", [F(4, 3)], {"k": 2, "ret_typ": "both", "axis": 0, "is_ascend": True}, NG),
    ("topk_mask", "topk", [F(3, 6)], {"k": 2, "ret_typ": "mask"}, NG),
    ("sort", "sort", [F(3, 5)], {"axis": 1, "is_ascend": False}, {}),
    ("argsort", "argsort", [F(3, 5)], {"axis": 0}, NG),
    ("dot", "dot", [F(3, 4), F(4, 5)], {}, {}),
    ("dot_transpose", "dot", [F(4, 3), F(5, 4)], {"transpose_a": True, "transpose_b": True}, {}),
    ("dot_nd", "dot", [F(2, 3, 4), F(4, 2)], {}, {}),
    ("batch_dot", "batch_dot", [F(2, 3, 4), F(2, 5, 4)], {"transpose_b": True}, {}),
    ("add_n", "add_n", [F(2, 3), F(2, 3), F(2, 3)], {}, {}),
    # element-wise
    *[(f"broadcast_{op}", f"broadcast_{op}", [F(2, 3, 1, positive=True), F(1, 3, 4, positive=True)], {}, {})
      for op in ("add", "sub", "mul", "div", "power", "maximum", "minimum", "hypot")],
    ("broadcast_mod", "broadcast_mod", [F(2, 3, low=-5, high=5), F(2, 3, low=1, high=2)], {}, NG),
    *[(f"elemwise_{op}", f"elemwise_{op}", [F(2, 3), F(2, 3, positive=True)], {}, {})
      for op in ("add", "sub", "mul", "div")],
    *[(f"broadcast_{op}", f"broadcast_{op}", [I(2, 3, high=3), I(1, 3, high=3)], {}, NG)
      for op in ("equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal", "logical_and",
                 "logical_or", "logical_xor")],
    ("logical_not", "logical_not", [I(2, 3, high=2)], {}, NG),
    ("maximum_scalar", "maximum", [X, 0.5], {}, {}),
    ("power_scalar", "power", [F(2, 3, positive=True), 2.5], {}, {}),
    *[(f"unary_{op}", op, [F(2, 3, 4, positive=positive)], {}, {} if grad else NG) for op, positive, grad in (
        ("abs", False, True), ("sign", False, False), ("exp", False, True), ("expm1", False, True),
        ("log", True, True), ("log2", True, True), ("log10", True, True), ("log1p", True, True),
        ("sqrt", True, True), ("rsqrt", True, True), ("cbrt", True, True), ("rcbrt", True, True),
        ("square", False, True), ("reciprocal", True, True), ("negative", False, True),
        ("floor", False, False),
        ("ceil", False, False), ("round", False, False), ("rint", False, False), ("fix", False, False),
        ("trunc", False, False), ("sin", False, True), ("cos", False, True), ("tan", False, True),
        ("tanh", False, True), ("sinh", False, True), ("cosh", False, True), ("arcsinh", False, True),
        ("degrees", False, True), ("radians", False, True), ("relu", False, True), ("sigmoid", False, True),
        ("softsign", False, True), ("erf", False, True), ("identity", False, True),
        ("zeros_like", False, False),
        ("ones_like", False, False))],
    ("arccosh", "arccosh", [F(2, 3, low=1.5, high=3.0)], {}, {}),
    ("arctanh", "arctanh", [F(2, 3, low=-0.8, high=0.8)], {}, {}),
    # constructors
    ("arange", "arange", [2, 11], {"step": 3, "repeat": 2}, NG),
    ("zeros", "zeros", [(2, 3)], {}, NG),
    ("ones", "ones", [(2, 3)], {"dtype": "int32"}, NG),
    ("full", "full", [(2, 3), 1.5], {}, NG),
    ("eye", "eye", [3, 4], {"k": 1}, NG),
    ("linspace", "linspace", [0.0, 1.0, 5], {}, NG),
    # optimizer updates (the states move in place: recorded as arguments after the call)
    ("sgd_update", "sgd_update", [F(2, 3), F(2, 3)], {"lr": 0.1, "wd": 0.01, "rescale_grad": 0.5,
                                                      "clip_gradient": 0.6}, {"grad": False, "train": True}),
    ("sgd_mom_update", "sgd_mom_update", [F(2, 3), F(2, 3), F(2, 3)],
     {"lr": 0.1, "momentum": 0.9, "wd": 0.01}, {"grad": False, "train": True}),
    ("nag_mom_update", "nag_mom_update", [F(2, 3), F(2, 3), F(2, 3)],
     {"lr": 0.1, "momentum": 0.9, "wd": 0.01}, {"grad": False, "train": True}),
    ("adam_update", "adam_update", [F(2, 3), F(2, 3), F(2, 3), F(2, 3, positive=True)],
     {"lr": 0.01, "wd": 0.001, "rescale_grad": 2.0}, {"grad": False, "train": True}),
    ("rmsprop_update", "rmsprop_update", [F(2, 3), F(2, 3), F(2, 3, positive=True)],
     {"lr": 0.01, "gamma1": 0.9, "clip_weights": 1.5}, {"grad": False, "train": True}),
    ("mp_sgd_update", "mp_sgd_update", [H(2, 3), H(2, 3), F(2, 3)],
     {"lr": 0.1, "wd": 0.01, "rescale_grad": 0.5, "clip_gradient": 0.6}, UPD),
    ("mp_sgd_mom_update", "mp_sgd_mom_update", [H(2, 3), H(2, 3), F(2, 3), F(2, 3)],
     {"lr": 0.1, "momentum": 0.9, "wd": 0.01}, UPD),
    ("mp_nag_mom_update", "mp_nag_mom_update", [H(2, 3), H(2, 3), F(2, 3), F(2, 3)],
     {"lr": 0.1, "momentum": 0.9, "wd": 0.01}, UPD),
    ("multi_sgd_update", "multi_sgd_update", [F(2, 3), F(2, 3), F(4), F(4)],
     {"lrs": (0.1, 0.2), "wds": (0.01, 0.0), "rescale_grad": 0.5, "clip_gradient": 0.6, "num_weights": 2},
     {**UPD, "out": (0, 2)}),
    ("multi_sgd_mom_update", "multi_sgd_mom_update", [F(2, 3), F(2, 3), F(2, 3), F(4), F(4), F(4)],
     {"lrs": (0.1, 0.2), "wds": (0.01, 0.0), "momentum": 0.9, "num_weights": 2},
     {**UPD, "out": (0, 3)}),
    ("multi_mp_sgd_update", "multi_mp_sgd_update", [H(2, 3), H(2, 3), F(2, 3), H(4), H(4), F(4)],
     {"lrs": (0.1, 0.2), "wds": (0.01, 0.0), "num_weights": 2},
     {**UPD, "out": (0, 3)}),
    ("multi_mp_sgd_mom_update", "multi_mp_sgd_mom_update",
     [H(2, 3), H(2, 3), F(2, 3), F(2, 3), H(4), H(4), F(4), F(4)],
     {"lrs": (0.1, 0.2), "wds": (0.01, 0.0), "momentum": 0.9, "rescale_grad": 2.0, "num_weights": 2},
     {**UPD, "out": (0, 4)}),
    ("preloaded_multi_sgd_update", "preloaded_multi_sgd_update",
     [F(2, 3), F(2, 3), F(4), F(4), K([0.1, 0.2]), K([0.01, 0.0])], {"num_weights": 2},
     {**UPD, "out": (0, 2)}),
    ("preloaded_multi_sgd_mom_update", "preloaded_multi_sgd_mom_update",
     [F(2, 3), F(2, 3), F(2, 3), F(4), F(4), F(4), K([0.1, 0.2]), K([0.01, 0.0])],
     {"momentum": 0.9, "clip_gradient": 0.5, "num_weights": 2},
     {**UPD, "out": (0, 3)}),
    ("preloaded_multi_mp_sgd_update", "preloaded_multi_mp_sgd_update",
     [H(2, 3), H(2, 3), F(2, 3), K([0.1]), K([0.01])], {"num_weights": 1}, {**UPD, "out": (0,)}),
    ("preloaded_multi_mp_sgd_mom_update", "preloaded_multi_mp_sgd_mom_update",
     [H(2, 3), H(2, 3), F(2, 3), F(2, 3), K([0.1]), K([0.01])], {"momentum": 0.9, "num_weights": 1},
     {**UPD, "out": (0,)}),
    ("signsgd_update", "signsgd_update", [F(2, 3), F(2, 3)], {"lr": 0.1, "wd": 0.05}, UPD),
    ("signum_update", "signum_update", [F(2, 3), F(2, 3), F(2, 3)],
     {"lr": 0.1, "momentum": 0.9, "wd": 0.05, "wd_lh": 0.01, "rescale_grad": 0.5, "clip_gradient": 0.6}, UPD),
    ("ftrl_update", "ftrl_update", [F(2, 3), F(2, 3), F(2, 3), F(2, 3, positive=True)],
     {"lr": 0.1, "lamda1": 0.3, "beta": 1.5, "wd": 0.01, "rescale_grad": 0.5}, UPD),
    ("ftml_update", "ftml_update", [F(2, 3), F(2, 3), F(2, 3, positive=True), F(2, 3, positive=True),
                                    F(2, 3)],
     {"lr": 0.1, "t": 3, "wd": 0.01, "rescale_grad": 0.5, "clip_grad": 0.6}, UPD),
    ("rmspropalex_update", "rmspropalex_update",
     [F(2, 3), F(2, 3), F(2, 3, low=4.0, high=5.0), F(2, 3, low=-0.5, high=0.5), F(2, 3)],
     {"lr": 0.01, "wd": 0.01, "clip_weights": 1.5}, UPD),
    ("lamb_update_phase1", "lamb_update_phase1", [F(2, 3), F(2, 3), F(2, 3), F(2, 3, positive=True)],
     {"t": 3, "wd": 0.01, "rescale_grad": 0.5, "clip_gradient": 0.6}, UPD),
    ("lamb_update_phase1_nobias", "lamb_update_phase1", [F(2, 3), F(2, 3), F(2, 3), F(2, 3, positive=True)],
     {"t": 3, "wd": 0.01, "bias_correction": False}, UPD),
    ("lamb_update_phase2", "lamb_update_phase2", [F(2, 3), F(2, 3), K([1.5]), K([0.5])],
     {"lr": 0.1, "lower_bound": 0.1, "upper_bound": 1.0}, UPD),
    ("lamb_update_phase2_zero", "lamb_update_phase2", [F(2, 3), F(2, 3), K([0.0]), K([0.5])], {"lr": 0.1},
     UPD),
    ("mp_lamb_update_phase1", "mp_lamb_update_phase1",
     [H(2, 3), H(2, 3), F(2, 3), F(2, 3, positive=True), F(2, 3)], {"t": 2, "wd": 0.01}, UPD),
    ("mp_lamb_update_phase2", "mp_lamb_update_phase2", [H(2, 3), F(2, 3), K([1.5]), K([0.5]), F(2, 3)],
     {"lr": 0.1}, UPD),
    ("multi_sum_sq", "multi_sum_sq", [F(2, 3), F(4)], {"num_arrays": 2}, NG),
    ("multi_lars", "multi_lars", [K([0.1, 0.2, 0.3]), K([4.0, 0.0, 9.0]), K([1.0, 2.0, 0.25]),
                                  K([0.01, 0.0, 0.1])], {"eta": 0.5, "eps": 1e-3, "rescale_grad": 2.0}, NG),
    ("all_finite", "all_finite", [K([1.0, np.inf])], {}, NG),
    ("all_finite_true", "all_finite", [F(2, 3)], {}, NG),
    ("multi_all_finite", "multi_all_finite", [F(2, 3), K([np.nan])], {"num_arrays": 2}, NG),
    ("reset_arrays", "reset_arrays", [F(2, 3), F(4)], {"num_arrays": 2}, UPD),
    # statistics, indexing and the linalg_* family
    ("moments", "moments", [X], {"axes": (0, 2)}, {}),
    ("moments_keepdims", "moments", [F(3, 4)], {"axes": (1,), "keepdims": True}, {}),
    ("khatri_rao", "khatri_rao", [F(2, 3), F(4, 3), F(2, 3)], {}, NG),  # MXNet has no gradient for it
    ("batch_take", "batch_take", [F(4, 3), K([0, 2, 1, 2], np.int32)], {}, NG),
    ("fill_element_0index", "fill_element_0index", [F(3, 4), F(3), K([1, 3, 0])], {}, NG),
    ("scatter_nd", "scatter_nd", [F(3), K([[0, 1, 1], [2, 0, 3]])], {"shape": (2, 4)}, {}),
    ("ravel_multi_index", "ravel_multi_index", [K([[1, 2, 0], [3, 0, 4]])], {"shape": (3, 5)}, NG),
    ("unravel_index", "unravel_index", [K([7, 0, 14])], {"shape": (3, 5)}, NG),
    ("linalg_gemm", "linalg_gemm", [F(2, 4, 3), F(2, 5, 4), F(2, 3, 5)],
     {"transpose_a": True, "transpose_b": True, "alpha": 0.5, "beta": 2.0}, {}),
    ("linalg_syrk", "linalg_syrk", [F(2, 3, 4)], {"transpose": True, "alpha": 0.7}, {}),
    ("linalg_trmm", "linalg_trmm", [F(3, 3), F(3, 2)], {"alpha": 1.5, "transpose": True}, {}),
    ("linalg_trmm_right_upper", "linalg_trmm", [F(3, 3), F(2, 3)], {"rightside": True, "lower": False}, {}),
    ("linalg_trsm", "linalg_trsm", [K([[2.0, 0, 0], [0.5, 1.5, 0], [-0.3, 0.2, 1.2]]), F(3, 2)],
     {"alpha": 2.0}, {}),
    ("linalg_trsm_right_transpose", "linalg_trsm", [K([[2.0, 0, 0], [0.5, 1.5, 0], [-0.3, 0.2, 1.2]]),
                                                    F(2, 3)], {"rightside": True, "transpose": True}, {}),
    ("linalg_potrf", "linalg_potrf", [K([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])], {}, NG),
    ("linalg_potri", "linalg_potri", [K([[2.0, 0, 0], [0.5, 1.5, 0], [-0.3, 0.2, 1.2]])], {}, NG),
    ("linalg_sumlogdiag", "linalg_sumlogdiag", [F(2, 3, 3, positive=True)], {}, {}),
    ("linalg_gelqf", "linalg_gelqf", [F(2, 3, 5)], {}, {}),
    ("linalg_extractdiag", "linalg_extractdiag", [F(2, 3, 3)], {"offset": 1}, {}),
    ("linalg_makediag", "linalg_makediag", [F(2, 3)], {"offset": -1}, {}),
    *[(f"linalg_extracttrian_{o}_{lo}", "linalg_extracttrian", [F(2, 4, 4)], {"offset": o, "lower": lo}, {})
      for o, lo in ((0, True), (0, False), (-1, True), (2, True))],
    *[(f"linalg_maketrian_{o}_{lo}", "linalg_maketrian", [F(2, 6)], {"offset": o, "lower": lo}, {})
      for o, lo in ((0, True), (0, False), (-1, True), (1, True))],
    ("linalg_det", "linalg_det", [F(2, 3, 3)], {}, {}),
    ("linalg_inverse", "linalg_inverse", [K([[2.0, 0.3, 0], [0.5, 1.5, 0.1], [-0.3, 0.2, 1.2]])], {}, NG),
    ("linalg_slogdet", "linalg_slogdet", [F(2, 3, 3)], {}, NG),
    # one matrix: shape (1,), not 0-d (MXNet 1.x has no 0-d arrays)
    ("linalg_det_matrix", "linalg_det", [F(3, 3)], {}, {}),
    ("linalg_slogdet_matrix", "linalg_slogdet", [F(3, 3)], {}, NG),
    ("linalg_sumlogdiag_matrix", "linalg_sumlogdiag", [F(3, 3, positive=True)], {}, {}),
    # mx.nd.linalg's short names (the same operators), syevd only there (MXNet's _linalg_syevd)
    ("linalg_syevd", "linalg.syevd", [K([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])], {}, NG),
    ("linalg_syevd_batch", "linalg.syevd", [K([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 2.0], [2.0, 5.0]],
                                              [[-2.0, 0.5], [0.5, 1.0]]])], {}, NG),
    ("linalg_potrf_short", "linalg.potrf", [K([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])],
     {"lower": True}, NG),
    ("linalg_trsm_short", "linalg.trsm", [K([[2.0, 0, 0], [0.5, 1.5, 0], [-0.3, 0.2, 1.2]]), F(3, 2)],
     {"alpha": 0.5}, {}),
    # loss outputs: the forward is the softmax, the gradient softmax - one_hot (the head gradient ignored)
    ("SoftmaxOutput", "SoftmaxOutput", [F(3, 4), K([0, 2, 3])], {}, {}),
    ("SoftmaxOutput_scaled", "SoftmaxOutput", [F(3, 4), K([1, 0, 3])],
     {"grad_scale": 2.0, "normalization": "batch"}, {}),
    ("Softmax_ignore", "Softmax", [F(3, 4), K([1, -1, 3])], {"use_ignore": True, "ignore_label": -1}, {}),
    ("cumsum", "cumsum", [F(2, 3, 4)], {"axis": 1}, {}),
    ("cumsum_flat", "cumsum", [F(2, 3)], {}, {}),
    # ties: rint takes the integer below, round the one away from zero
    ("rint_ties", "rint", [K([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4, -2.6])], {}, NG),
    ("round_ties", "round", [K([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4, -2.6])], {}, NG),
    # densities (random_pdf_*): parameters (2,), two rows of samples
    ("random_pdf_normal", "random_pdf_normal", [F(2, 4), F(2), F(2, positive=True)], {}, {}),
    ("random_pdf_normal_log", "random_pdf_normal", [F(2, 4), F(2), F(2, positive=True)], {"is_log": True},
     {}),
    ("random_pdf_uniform", "random_pdf_uniform", [F(2, 3, low=0.0, high=1.0), K([-0.5, 0.0]), K([1.5, 1.0])],
     {}, {}),
    ("random_pdf_exponential", "random_pdf_exponential", [F(2, 4, positive=True), F(2, positive=True)], {},
     {}),
    ("random_pdf_gamma", "random_pdf_gamma", [F(2, 4, positive=True), F(2, low=1.0, high=3.0),
                                              F(2, positive=True)], {"is_log": True}, {}),
    ("random_pdf_poisson", "random_pdf_poisson", [K([[0, 1, 3], [2, 5, 0]]), F(2, positive=True)], {}, {}),
    ("random_pdf_negative_binomial", "random_pdf_negative_binomial",
     [K([[0, 1, 3], [2, 5, 0]]), K([2, 3]), F(2, low=0.2, high=0.8)], {}, {}),
    ("random_pdf_generalized_negative_binomial", "random_pdf_generalized_negative_binomial",
     [K([[0, 1, 3], [2, 5, 0]]), F(2, low=1.0, high=3.0), F(2, low=0.3, high=1.0)], {"is_log": True}, {}),
    ("random_pdf_dirichlet", "random_pdf_dirichlet",
     [K([[[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]]), F(1, 3, low=0.5, high=2.0)], {}, {}),
    ("Convolution_v1", "Convolution_v1", [F(2, 3, 5, 5), F(4, 3, 3, 3), F(4)],
     {"kernel": (3, 3), "num_filter": 4, "stride": (2, 2), "pad": (1, 1)}, {}),
    ("Pooling_v1", "Pooling_v1", [X], {"kernel": (2, 2), "stride": (2, 2), "pool_type": "avg"}, {}),
    # spatial transformers, patches, CTC
    ("GridGenerator_affine", "GridGenerator", [F(2, 6)], {"transform_type": "affine", "target_shape": (3, 4)},
     {}),
    ("GridGenerator_warp", "GridGenerator", [F(2, 2, 3, 4)], {"transform_type": "warp"}, {}),
    ("BilinearSampler", "BilinearSampler", [F(2, 3, 5, 6), F(2, 2, 4, 3, low=-1.2, high=1.2)], {}, {}),
    ("SpatialTransformer", "SpatialTransformer", [F(2, 3, 5, 6), F(2, 6, low=-1.0, high=1.0)],
     {"target_shape": (4, 3), "transform_type": "affine", "sampler_type": "bilinear"}, {}),
    ("im2col", "im2col", [F(2, 3, 6, 5)],
     {"kernel": (3, 2), "stride": (2, 1), "pad": (1, 0), "dilate": (1, 2)}, {}),
    ("col2im", "col2im", [F(2, 12, 12)], {"output_size": (5, 6), "kernel": (2, 2), "stride": (2, 2),
                                          "pad": (1, 1)}, {}),
    ("CTCLoss", "CTCLoss", [F(6, 2, 5), K([[1, 3, 3], [2, 4, 0]])], {}, {}),
    ("ctc_loss_last", "ctc_loss", [F(6, 2, 5), K([[1, 0, 3], [2, -1, -1]]), K([5, 6]), K([3, 1])],
     {"blank_label": "last", "use_data_lengths": True, "use_label_lengths": True}, {}),
    # contrib
    ("BilinearResize2D", "BilinearResize2D", [F(2, 3, 4, 5)], {"height": 7, "width": 3}, {"contrib": True}),
    *[(f"ROIAlign_adaptive{'_aligned' if aligned else ''}", "ROIAlign",
       [F(2, 3, 8, 8), K([[0, 1.0, 2.0, 14.0, 10.0], [1, 0.5, 0.5, 5.0, 25.0], [0, 3.0, 3.0, 3.5, 3.2]])],
       {"pooled_size": (2, 3), "spatial_scale": 0.5, "sample_ratio": -1, "aligned": aligned},
       {"contrib": True})
      for aligned in (False, True)],
    ("AdaptiveAvgPooling2D", "AdaptiveAvgPooling2D", [F(2, 3, 7, 5)], {"output_size": (3, 2)},
     {"contrib": True}),
]
