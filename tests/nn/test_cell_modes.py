"""Cell modes and flags: set_train / flags, to_float mixed precision, recompute (memory saved, same
gradients), set_inputs / get_inputs, compile and GRAPH_MODE dispatch, scope names in the traced graph,
flatten_weights, init_parameters_data, apply."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Tensor, nn, ops
from tests.tolerance import assert_close, sum_rtol

# MLP's output: four float32 layers of 8 products and a bias each, rounded like one sum of 36 terms
MLP_RTOL = sum_rtol(4 * 9)


class MLP(nn.Cell):
    def __init__(self, width: int = 8, depth: int = 3) -> None:
        super().__init__()
        self.layers = nn.SequentialCell([nn.Dense(width, width, activation="tanh") for _ in range(depth)])
        self.head = nn.Dense(width, 2)

    def construct(self, x):
        return self.head(self.layers(x))


def _x(*shape: int, seed: int = 0) -> Tensor:
    return Tensor(np.random.default_rng(seed).normal(size=shape).astype(np.float32))


def test_set_train_and_flags() -> None:
    net = MLP()
    assert not net.training and net.phase == "train"
    net.set_train()
    assert all(c.training for _, c in net.cells_and_names()) and net.phase == "train"
    net.set_train(False)
    assert not any(c.training for _, c in net.cells_and_names()) and net.phase == "predict"
    net.add_flags(sink_mode=True)
    assert net.get_flags()["sink_mode"] is True and net.sink_mode is True
    net.add_flags_recursive(tag="x")
    assert net.layers[0].tag == "x" and net.layers[0].get_flags()["tag"] == "x"
    assert net.set_grad() is net and net.requires_grad


def test_apply_visits_children_first() -> None:
    net = MLP(depth=1)
    seen = []
    assert net.apply(lambda c: seen.append(type(c).__name__)) is net
    assert seen == ["Tanh", "Dense", "SequentialCell", "Dense", "MLP"]


def test_to_float16_runs_in_half_and_keeps_float32_masters() -> None:
    ms.set_seed(0)
    net = MLP()
    x = _x(4, 8)
    ref = net(x).asnumpy()
    assert net.to_float(ms.float16) is net
    assert net.mixed_precision_type == ms.float16 and net.layers[0].mixed_precision_type == ms.float16
    out = net(x)
    assert out.dtype == ms.float16
    # float16 rounds inputs, weights and each of 4 layers' 9-term sums at 2**-11 of the scale: ~2e-2 in all
    assert_close(out.asnumpy().astype(np.float32), ref, rtol=2e-2, scale_rtol=2e-2, what="float16")
    assert all(p.dtype == ms.float32 for p in net.get_parameters())
    _, grads = ms.value_and_grad(lambda t: ops.sum(ops.cast(net(t), ms.float32)), None, net.trainable_params())(x)
    assert all(g.dtype == ms.float32 and np.isfinite(g.asnumpy()).all() for g in grads)
    assert "fp16" in net.get_flags() and net.get_flags()["fp16"] is True


def test_to_float_child_kept_in_float32() -> None:
    net = MLP()
    net.to_float(ms.float16)
    net.head.to_float(ms.float32)
    x = _x(2, 8)
    seen = {}

    def record(cell, args, out):
        seen["layers"] = out.dtype

    net.layers.register_forward_hook(record)
    out = net(x)
    assert seen["layers"] == ms.float16 and out.dtype == ms.float32


def test_to_bfloat16() -> None:
    net = nn.Dense(4, 3)
    x = _x(2, 4)
    ref = net(x).asnumpy()
    net.to_float(ms.bfloat16)
    seen = {}

    def record(cell, args):
        seen["input"] = args[0].dtype
        seen["weight"] = cell.weight.dtype

    net.register_forward_pre_hook(record)
    out = net(x)
    assert seen == {"input": ms.bfloat16, "weight": ms.bfloat16}
    # bfloat16 rounds at 2**-8: inputs, weights and one 5-term sum
    assert_close(out.asnumpy().astype(np.float32), ref, rtol=3e-2, scale_rtol=3e-2, what="bfloat16")


def test_to_float_rejects_other_types() -> None:
    with pytest.raises(ValueError, match="the argument 'dst_type' must be mstype.float32, mstype.float16 or"):
        nn.Dense(2, 2).to_float(ms.int32)


def test_cast_inputs_helpers() -> None:
    net = nn.Dense(2, 2)
    a, b = net.cast_inputs((_x(2), 3), ms.float16)
    assert a.dtype == ms.float16 and b == 3
    assert net.auto_cast_inputs((_x(2),))[0].dtype == ms.float32
    net.to_float(ms.float16)
    assert net.auto_cast_inputs((_x(2),))[0].dtype == ms.float16


class Deep(nn.Cell):
    def __init__(self, recompute: bool) -> None:
        super().__init__()
        self.block = nn.SequentialCell([nn.Dense(128, 128, activation="tanh") for _ in range(8)] + [nn.Dropout(p=0.2)])
        if recompute:
            self.block.recompute()
        self.head = nn.Dense(128, 1)

    def construct(self, x):
        return ops.sum(self.head(self.block(x)))


def test_recompute_keeps_only_inputs_and_gives_the_same_gradients() -> None:
    ms.set_seed(1)
    plain = Deep(False)
    ms.set_seed(1)
    recomputed = Deep(True)
    plain.set_train(True)
    recomputed.set_train(True)
    x = _x(256, 128)
    x.requires_grad = True
    kept = {}
    for name, net in (("plain", plain), ("recompute", recomputed)):
        ms.set_seed(5)
        tracemalloc.start()
        out = net(x)
        kept[name] = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert out.requires_grad
        del out
    # 8 layers of (256, 128) float32 activations (plus tanh outputs) are ~2 MB; recompute keeps ~none of them
    assert kept["plain"] > 1_500_000
    assert kept["recompute"] < kept["plain"] / 5, kept
    grads = {}
    for name, net in (("plain", plain), ("recompute", recomputed)):
        ms.set_seed(5)  # same dropout mask in both networks; recompute replays it in its backward pass
        grads[name] = ms.value_and_grad(net, 0, net.trainable_params())(x)
    assert grads["plain"][0].asnumpy() == pytest.approx(grads["recompute"][0].asnumpy(), rel=1e-6)
    # the same float32 products on both sides, replayed: within the rounding of one 128-term layer
    assert_close(grads["plain"][1][0].asnumpy(), grads["recompute"][1][0].asnumpy(), rtol=1e-5,
                 scale_rtol=sum_rtol(128), what="input gradient")
    for a, b in zip(grads["plain"][1][1], grads["recompute"][1][1]):
        assert_close(a.asnumpy(), b.asnumpy(), rtol=1e-5, scale_rtol=sum_rtol(128), what="weight gradient")


def test_recompute_options() -> None:
    net = MLP()
    net.layers.recompute(mp_comm_recompute=False)
    with pytest.raises(ValueError, match="keyword 'bogus' is not recognized"):
        MLP().recompute(bogus=1)
    # configured once: a child of a recomputed cell is not configured again
    net.layers[0].recompute()
    assert net.layers[0]._recompute_cell is None
    with ms.no_grad():
        assert net(_x(2, 8)).shape == (2, 2)


def test_set_inputs_and_dynamic_compile() -> None:
    net = MLP()
    sig = Tensor(shape=[None, 8], dtype=ms.float32)
    net.set_inputs(sig)
    assert net.get_inputs() == (sig,)
    compiled = net.compile(_x(3, 8))
    dims = compiled.model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param and dims[1].dim_value == 8
    for batch in (1, 5):
        x = _x(batch, 8, seed=batch)
        assert_close(compiled(x).asnumpy(), net(x).asnumpy(), rtol=1e-5, scale_rtol=MLP_RTOL)
    net.set_inputs(x=Tensor(shape=[None, 8], dtype=ms.float32))
    assert len(net.get_inputs()) == 1
    with pytest.raises(ValueError, match="only set inputs or kwargs"):
        net.set_inputs(sig, x=sig)
    with pytest.raises(ValueError, match="are not arguments of MLP.construct"):
        net.set_inputs(y=sig)


def test_traced_node_names_carry_the_cell_path() -> None:
    net = MLP(depth=2)
    model = net.compile(_x(2, 8)).model
    names = [n.name for n in model.graph.node]
    assert any(n.startswith("layers.1/") for n in names), names
    assert any(n.startswith("head/") for n in names), names
    assert {i.name for i in model.graph.initializer} >= {"layers.0.weight", "head.bias"}


def test_compile_and_run_and_graph_mode() -> None:
    net = MLP()
    x = _x(2, 8)
    eager = net(x).asnumpy()
    assert_close(net.compile_and_run(x).asnumpy(), eager, rtol=1e-5, scale_rtol=MLP_RTOL)
    calls = []
    net.head.register_forward_hook(lambda *a: calls.append(1))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = net(x)  # compiled: the traced graph (the hook ran while tracing)
        n = len(calls)
        out2 = net(x)
        assert len(calls) == n  # the second call runs the cached graph, not construct
        assert_close(out.asnumpy(), eager, rtol=1e-5, scale_rtol=MLP_RTOL)
        assert_close(out2.asnumpy(), eager, rtol=1e-5, scale_rtol=MLP_RTOL)
        net.set_train(True)  # training calls run eagerly, children included
        calls.clear()
        net(x)
        assert calls == [1]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_flatten_weights_and_init_parameters_data() -> None:
    net = MLP()
    x = _x(2, 8)
    before = net(x).asnumpy()
    net.flatten_weights()
    bases = {id(p.asnumpy().base) for p in net.trainable_params()}
    assert len(bases) == 1 and None not in bases
    np.testing.assert_array_equal(net(x).asnumpy(), before)
    mapping = net.init_parameters_data()
    assert all(k is v for k, v in mapping.items()) and len(mapping) == len(list(net.get_parameters()))


def test_call_overhead_is_small() -> None:
    """The fast path adds little over construct (the measured figures are in the engineering notes)."""
    import time
    import timeit

    net = nn.Dense(16, 8)
    x = _x(4, 16)
    net(x)
    n = 300
    # CPU time of this process: other processes on a busy machine stretch the wall clock, not this
    call = min(timeit.repeat(lambda: net(x), number=n, repeat=7, timer=time.process_time)) / n
    construct = min(timeit.repeat(lambda: net.construct(x), number=n, repeat=7, timer=time.process_time)) / n
    assert call - construct < 20e-6, (call, construct)


def test_to_casts_parameters_and_buffers_in_place() -> None:
    net = MLP()
    net.register_buffer("scale", Tensor(np.ones(2, np.float32)))
    weight = net.head.weight
    assert net.to(ms.float64) is net
    assert net.head.weight is weight and weight.dtype == ms.float64 and net.scale.dtype == ms.float64
    assert net(Tensor(np.ones((1, 8)))).dtype == ms.float64
    with pytest.raises(TypeError, match="only accepts floating point"):
        net.to(ms.int32)
    with pytest.raises(NotImplementedError, match="device 'Ascend' is not supported"):
        net.to("Ascend")
    net.to_empty()
    assert net.head.weight.shape == (2, 8) and net.head.weight is weight


def test_compatibility_methods() -> None:
    net = MLP()
    p = net.head.weight
    assert net.cast_param(p) is p
    net.to_float(ms.float16)
    assert net.cast_param(p).dtype == ms.float16
    net.set_jit_config(type("Cfg", (), {"jit_config_dict": {"jit_level": "O1"}})())
    assert net.jit_config_dict == {"jit_level": "O1"}
    assert net.parameter_layout_dict == {}
    net.remove_redundant_parameters()
    with pytest.raises(NotImplementedError, match="register_parameter_forward_hook is not supported"):
        net.register_parameter_forward_hook(lambda *a: None)


def test_graph_mode_keeps_gradients() -> None:
    """Under GRAPH_MODE a top-level value_and_grad call compiles forward and backward into one graph (as
    MindSpore does): eager's gradients, to float32 rounding (the graph sums in another order)."""
    net = MLP()
    x = _x(2, 8)
    _, eager_grads = ms.value_and_grad(net, None, net.trainable_params())(x)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _, grads = ms.value_and_grad(net, None, net.trainable_params())(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for a, b in zip(eager_grads, grads):
        assert_close(b.asnumpy(), a.asnumpy(), rtol=1e-4, scale_rtol=1e-4)
    assert any(g.asnumpy().any() for g in grads)
