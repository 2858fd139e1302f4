"""Symbols for the mx.contrib.amp conversion tests, built the same way with real MXNet (the generator) and
with cellonnx.mxnet (the tests): ``build(mx, case_id)`` returns (symbol, convert_symbol keyword arguments).
Every variable's shape is in SHAPES (data first) and values come from ``values(shape, seed)``."""
from __future__ import annotations

import numpy as np

SHAPES = {
    "mlp": {"data": (2, 5), "bias2": (2, 3)},
    "conv": {"data": (2, 3, 6, 6)},
    "conditional": {"data": (2, 4)},
    "slice": {"data": (2, 6)},
    "excluded": {"data": (2, 4)},
    "concat": {"data": (2, 4)},
}
CASES = list(SHAPES)
TARGETS = ("bfloat16", "float16")


def init_graph(mx) -> object:
    """The graph mx.sym builds after ``amp.init('bfloat16')`` (casts added as the operators are called)."""
    with mx.name.NameManager():
        data = mx.sym.var("data")
        fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc")
        bn = mx.sym.BatchNorm(fc, name="bn")
        add = mx.sym.elemwise_add(bn, mx.sym.var("b"), name="add")
        return mx.sym.softmax(add, name="sm")


def values(shape: tuple, seed: int) -> np.ndarray:
    """Values exact in bfloat16: multiples of 1/8 in [-1, 1]."""
    rng = np.random.default_rng(seed)
    return (rng.integers(-8, 9, size=shape) / 8).astype(np.float32)


def build(mx, case_id: str) -> tuple:
    sym = mx.sym
    data = sym.var("data")
    if case_id == "mlp":
        fc = sym.FullyConnected(data, num_hidden=4, name="fc1")
        act = sym.Activation(fc, act_type="relu", name="relu1")
        fc2 = sym.FullyConnected(act, num_hidden=3, name="fc2")
        add = sym.elemwise_add(fc2, sym.var("bias2"), name="add")
        return sym.softmax(add, name="sm"), {}
    if case_id == "conv":
        conv = sym.Convolution(data, kernel=(3, 3), num_filter=4, name="conv")
        bn = sym.BatchNorm(conv, name="bn")
        act = sym.Activation(bn, act_type="relu", name="act")
        pool = sym.Pooling(act, kernel=(2, 2), stride=(2, 2), pool_type="avg", name="pool")
        flat = sym.Flatten(pool, name="flat")
        return sym.FullyConnected(flat, num_hidden=3, name="fc"), {}
    if case_id == "conditional":
        fc = sym.FullyConnected(data, num_hidden=4, name="fc")
        soft = sym.Activation(fc, act_type="softrelu", name="soft")
        elu = sym.LeakyReLU(fc, act_type="elu", name="elu")
        tanh = sym.Activation(fc, act_type="tanh", name="tanh")
        return sym.Group([soft, elu, tanh]), {}
    if case_id == "slice":
        fc = sym.FullyConnected(data, num_hidden=4, name="fc")
        parts = sym.SliceChannel(fc, num_outputs=2, axis=1, name="split")
        return sym.elemwise_mul(parts[0], parts[1], name="mul"), {}
    if case_id == "excluded":
        fc = sym.FullyConnected(data, num_hidden=4, name="fc")
        fc2 = sym.FullyConnected(fc, num_hidden=2, name="fc2")
        return sym.exp(fc2, name="exp"), {"excluded_sym_names": ["fc2"]}
    if case_id == "concat":
        a = sym.FullyConnected(data, num_hidden=3, name="a")
        b = sym.FullyConnected(data, num_hidden=2, name="b")
        c = sym.Concat(a, b, dim=1, name="cat")
        return sym.broadcast_add(c, sym.sum(c, axis=1, keepdims=True, name="total"), name="plus"), {}
    raise KeyError(case_id)


def probe_ops(mx) -> dict:
    """One node named "n" per operator, on variables x (and y, z): where its output meets a cast, the cast's
    name shows the output name MXNet gives it ("n_output_..." or, for operators without output names,
    "n_0_...")."""
    S = mx.sym
    x, y = S.var("x"), S.var("y")
    return {
        "Flatten": lambda: S.Flatten(x, name="n"),
        "Reshape": lambda: S.Reshape(x, shape=(-1,), name="n"),
        "transpose": lambda: S.transpose(x, name="n"),
        "Pooling": lambda: S.Pooling(x, kernel=(1,1), pool_type="avg", name="n"),
        "BatchNorm": lambda: S.BatchNorm(x, name="n"),
        "Activation": lambda: S.Activation(x, act_type="relu", name="n"),
        "LeakyReLU": lambda: S.LeakyReLU(x, name="n"),
        "Concat": lambda: S.Concat(x, y, name="n"),
        "SliceChannel": lambda: S.SliceChannel(x, num_outputs=2, name="n")[1],
        "elemwise_add": lambda: S.elemwise_add(x, y, name="n"),
        "broadcast_add": lambda: S.broadcast_add(x, y, name="n"),
        "Dropout": lambda: S.Dropout(x, name="n"),
        "clip": lambda: S.clip(x, 0, 1, name="n"),
        "relu": lambda: S.relu(x, name="n"),
        "sigmoid": lambda: S.sigmoid(x, name="n"),
        "tanh": lambda: S.tanh(x, name="n"),
        "expand_dims": lambda: S.expand_dims(x, axis=0, name="n"),
        "slice_axis": lambda: S.slice_axis(x, axis=0, begin=0, end=1, name="n"),
        "dot": lambda: S.dot(x, y, name="n"),
        "batch_dot": lambda: S.batch_dot(x, y, name="n"),
        "sum": lambda: S.sum(x, name="n"),
        "exp": lambda: S.exp(x, name="n"),
        "softmax": lambda: S.softmax(x, name="n"),
        "SoftmaxActivation": lambda: S.SoftmaxActivation(x, name="n"),
        "LayerNorm": lambda: S.LayerNorm(x, name="n"),
        "Cast": lambda: S.Cast(x, dtype="float32", name="n"),
        "identity": lambda: S.identity(x, name="n"),
        "add_n": lambda: S.add_n(x, y, name="n"),
        "abs": lambda: S.abs(x, name="n"),
        "sqrt": lambda: S.sqrt(x, name="n"),
        "square": lambda: S.square(x, name="n"),
        "stack": lambda: S.stack(x, y, name="n"),
        "zeros_like": lambda: S.zeros_like(x, name="n"),
        "swapaxes": lambda: S.swapaxes(x, name="n"),
        "tile": lambda: S.tile(x, reps=(2,), name="n"),
        "UpSampling": lambda: S.UpSampling(x, scale=2, sample_type="nearest", name="n"),
        "Embedding": lambda: S.Embedding(x, input_dim=3, output_dim=2, name="n"),
        "Deconvolution": lambda: S.Deconvolution(x, kernel=(1,1), num_filter=2, name="n"),
        "Convolution": lambda: S.Convolution(x, kernel=(1,1), num_filter=2, name="n"),
        "FullyConnected": lambda: S.FullyConnected(x, num_hidden=2, name="n"),
        "elemwise_mul": lambda: S.elemwise_mul(x, y, name="n"),
        "broadcast_mul": lambda: S.broadcast_mul(x, y, name="n"),
        "where": lambda: S.where(x, y, y, name="n"),
        "mean": lambda: S.mean(x, name="n"),
        "log_softmax": lambda: S.log_softmax(x, name="n"),
        "InstanceNorm": lambda: S.InstanceNorm(x, name="n"),
        "GroupNorm": lambda: S.GroupNorm(x, name="n"),
        "slice": lambda: S.slice(x, begin=(0,), end=(1,), name="n"),
        "squeeze": lambda: S.squeeze(x, name="n"),
        "Pad": lambda: S.Pad(x, mode="constant", pad_width=(0,0,0,0,1,1,1,1), name="n"),
        "SoftmaxOutput": lambda: S.SoftmaxOutput(x, name="n"),
        "negative": lambda: S.negative(x, name="n"),
        "repeat": lambda: S.repeat(x, repeats=2, name="n"),
        "max": lambda: S.max(x, name="n"),
        "L2Normalization": lambda: S.L2Normalization(x, name="n"),
        "BlockGrad": lambda: S.BlockGrad(x, name="n"),
        "erf": lambda: S.erf(x, name="n"),
        "softsign": lambda: S.softsign(x, name="n"),
        "broadcast_to": lambda: S.broadcast_to(x, shape=(2,2), name="n"),
        "one_hot": lambda: S.one_hot(x, depth=3, name="n"),
        "take": lambda: S.take(x, y, name="n"),
        "Crop": lambda: S.Crop(x, y, name="n"),
        "SequenceMask": lambda: S.SequenceMask(x, name="n"),
        "RNN": lambda: S.RNN(x, y, S.var("z"), state_size=2, num_layers=1, mode="gru", name="n"),
        "MakeLoss": lambda: S.MakeLoss(x, name="n"),
        "make_loss": lambda: S.make_loss(x, name="n"),
        "topk": lambda: S.topk(x, ret_typ="value", name="n"),
        "argmax": lambda: S.argmax(x, name="n"),
        "pick": lambda: S.pick(x, y, name="n"),
        "gather_nd": lambda: S.gather_nd(x, y, name="n"),
        "elemwise_sub": lambda: S.elemwise_sub(x, y, name="n"),
        "elemwise_div": lambda: S.elemwise_div(x, y, name="n"),
        "broadcast_sub": lambda: S.broadcast_sub(x, y, name="n"),
        "broadcast_div": lambda: S.broadcast_div(x, y, name="n"),
        "log": lambda: S.log(x, name="n"),
        "norm": lambda: S.norm(x, name="n"),
        "rsqrt": lambda: S.rsqrt(x, name="n"),
        "reshape_like": lambda: S.reshape_like(x, y, name="n"),
        "slice_like": lambda: S.slice_like(x, y, name="n"),
        "flip": lambda: S.flip(x, axis=0, name="n"),
        "ones_like": lambda: S.ones_like(x, name="n"),
        "hard_sigmoid": lambda: S.hard_sigmoid(x, name="n"),
    }
