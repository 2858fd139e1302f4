"""Primitives written MindSpore's way (prim_attr_register, PrimitiveWithInfer / WithCheck, constexpr, a
``__call__`` computing with ops, a Cell's bprop), the attribute API of every primitive, and the operator
classes inside networks: gradients through them and their ONNX export."""
from __future__ import annotations

import copy

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor, nn, ops
from cellonnx.ops import operations as P
from cellonnx.ops.primitive import (
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    constexpr,
    prim_arg_register,
    prim_attr_register,
)
from tests.tolerance import assert_close


class Scale(PrimitiveWithInfer):
    """A user primitive: y = x * factor + shift, shapes inferred in Python."""

    @prim_attr_register
    def __init__(self, factor: float = 2.0, shift: float = 0.0) -> None:
        self.init_prim_io_names(inputs=["x"], outputs=["y"])

    def infer_shape(self, x_shape: tuple) -> tuple:
        return x_shape

    def infer_dtype(self, x_dtype: object) -> object:
        return x_dtype

    def __call__(self, x: Tensor) -> Tensor:
        return ops.add(ops.mul(x, self.factor), self.shift)


def _x() -> Tensor:
    return Tensor(np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32))


def test_user_primitive_records_its_attributes_and_runs() -> None:
    prim = Scale(3.0)
    assert prim.name == "Scale"
    assert prim.factor == 3.0 and prim.shift == 0.0
    assert prim.attrs == {"factor": 3.0, "shift": 0.0, "input_names": ["x"], "output_names": ["y"]}
    assert prim.init_attrs == {"factor": 3.0, "shift": 0.0}
    assert repr(prim) == "Prim[Scale]<factor=3.0, shift=0.0>"
    np.testing.assert_array_equal(prim(_x()).asnumpy(), _x().asnumpy() * 3.0)
    out = prim.__infer__({"shape": (2, 3), "dtype": ms.float32, "value": None})
    assert out == {"shape": (2, 3), "dtype": ms.float32, "value": None}


def test_user_primitive_gradient_and_deepcopy() -> None:
    prim = Scale(factor=-1.5, shift=1.0)
    grad = ms.grad(lambda x: ops.sum(prim(x)))(_x())
    np.testing.assert_array_equal(grad.asnumpy(), np.full((2, 3), -1.5, np.float32))
    clone = copy.deepcopy(prim)
    assert clone is not prim and clone.attrs["factor"] == -1.5 and type(clone) is Scale


def test_attribute_api() -> None:
    add = ops.Add()
    assert add.add_prim_attr("attr", 1) is add and add.attrs == {"attr": 1} and add.attr == 1
    assert repr(add) == "Prim[Add]<attr=1>"
    add.del_prim_attr("attr")
    assert add.attrs == {} and not hasattr(add, "attr")
    assert add.set_device("GPU").primitive_target == "GPU"
    assert repr(ops.Add().set_stage(0)) == "Prim[Add]<stage=0>"
    assert repr(ops.Add().shard(((1, 1), (1, 1)))) == "Prim[Add]<in_strategy=((1, 1), (1, 1))>"
    with pytest.raises(ValueError, match="need to set in_strategy"):
        ops.Add().shard(None, ((1,),))
    with pytest.raises(TypeError, match="must be a tuple"):
        ops.Add().shard([[1]])
    assert ops.ReLU().recompute().recompute is True
    with pytest.raises(TypeError):
        ops.ReLU().recompute(1)
    a = ops.Add()
    a.init_prim_io_names(["x", "y"], ["sum"])
    assert a.input_names == ["x", "y"] and a.output_names == ["sum"]
    assert not a.update_parameter
    with pytest.raises(AttributeError, match="'Add' object has no attribute 'nothing'"):
        _ = a.nothing


def test_operator_classes_keep_mindspores_attributes() -> None:
    conv = ops.Conv2D(4, 3, pad_mode="pad", pad=1, stride=2)
    assert conv.name == "Conv2D" and conv.out_channel == 4
    assert conv.kernel_size == (3, 3) and conv.pad == (1, 1, 1, 1) and conv.stride == (1, 1, 2, 2)
    assert conv.init_attrs == {"out_channel": 4, "kernel_size": 3, "mode": 1, "pad_mode": "pad", "pad": 1,
                               "stride": 2, "dilation": 1, "group": 1, "data_format": "NCHW"}
    assert ops.MaxPool(2, 2).kernel_size == (1, 1, 2, 2) and ops.MaxPool(2, 2).pad_mode == "VALID"
    assert repr(ops.ReduceMean(keep_dims=True)) == "Prim[ReduceMean]<keep_dims=True>"
    with pytest.raises(ValueError, match="the 'pad' must be zero when 'pad_mode' is not 'pad'"):
        ops.Conv2D(4, 3, pad=1)
    with pytest.raises(ValueError, match="'pad_mode' must be one of"):
        ops.MaxPool(2, 2, pad_mode="pad")
    with pytest.raises(TypeError, match="ops.MatMul"):
        ops.MatMul(transpose_c=True)
    deep = copy.deepcopy(conv)
    assert deep.attrs == conv.attrs and deep is not conv


def test_prim_arg_register_and_check() -> None:
    seen: list = []

    class Clip(PrimitiveWithCheck):

        @prim_arg_register
        def __init__(self, low: float = 0.0, high: float = 1.0) -> None:
            pass

        def check_shape(self, x_shape: tuple) -> None:
            seen.append(("shape", x_shape))

        def check_dtype(self, x_dtype: object) -> None:
            seen.append(("dtype", x_dtype))

        def __call__(self, x: Tensor) -> Tensor:
            return ops.clamp(x, self.low, self.high)

    clip = Clip(high=2.0)
    assert clip.attrs == {"low": 0.0, "high": 2.0}
    clip.__check__({"shape": (2, 3), "dtype": ms.float32})
    clip.__check__({"shape": (-1, 3), "dtype": ms.float32})  # unknown dims: the shape check is skipped
    assert seen == [("dtype", ms.float32), ("shape", (2, 3)), ("dtype", ms.float32)]
    np.testing.assert_array_equal(clip(_x()).asnumpy(), np.clip(_x().asnumpy(), 0.0, 2.0))


def test_a_primitive_by_name_runs_the_operator_class_and_an_unknown_one_says_so() -> None:
    prim = Primitive("ReduceMean").add_prim_attr("keep_dims", True)
    assert prim(_x(), 1).shape == (2, 1)
    with pytest.raises(NotImplementedError, match="Primitive 'MyOp'.*define its __call__"):
        Primitive("MyOp")(_x())


def test_subclassing_an_operator_class() -> None:
    class MyMatMul(P.MatMul):
        pass

    prim = MyMatMul(transpose_b=True)
    assert prim.name == "MyMatMul"
    np.testing.assert_array_equal(prim(_x(), _x()).asnumpy(), _x().asnumpy() @ _x().asnumpy().T)


def test_constexpr() -> None:
    @constexpr
    def double(n: int) -> int:
        return n * 2

    assert isinstance(double, PrimitiveWithInfer) and double.name == "double" and double(4) == 8
    assert double.__infer__({"value": 3, "dtype": None, "shape": None})["value"] == 6

    @constexpr(get_instance=False, name="shape_of", reuse_result=False)
    def shape_of(x: Tensor) -> tuple:
        return tuple(x.shape)

    prim = shape_of()
    assert prim.name == "shape_of" and prim.attrs["forbid_reuse_result"] and prim(_x()) == (2, 3)


def test_cell_bprop_around_a_user_primitive() -> None:
    class Square(Primitive):
        @prim_attr_register
        def __init__(self) -> None:
            pass

        def __call__(self, x: Tensor) -> Tensor:
            return ops.mul(x, x)

    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.square = Square()

        def construct(self, x: Tensor) -> Tensor:
            return self.square(x)

        def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
            return (dout * 10.0,)

    grad = ops.GradOperation()(Net())(_x())
    np.testing.assert_array_equal(grad.asnumpy(), np.full((2, 3), 10.0, np.float32))


class Block(nn.Cell):
    """A small network written with operator classes only."""

    def __init__(self) -> None:
        super().__init__()
        self.w = Parameter(Tensor(np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)), name="w")
        self.conv_w = Parameter(Tensor(np.random.default_rng(1).normal(size=(2, 1, 2, 2)).astype(np.float32)),
                                name="conv_w")
        self.matmul = P.MatMul(transpose_b=True)
        self.bias_add = P.BiasAdd()
        self.relu = P.ReLU()
        self.conv = P.Conv2D(2, 2, pad_mode="same")
        self.pool = P.MaxPool(2, 2)
        self.mean = P.ReduceMean(keep_dims=True)
        self.reshape = P.Reshape()
        self.concat = P.Concat(1)
        self.softmax = P.Softmax()
        self.b = Parameter(Tensor(np.zeros(4, np.float32)), name="b")

    def construct(self, x: Tensor, img: Tensor) -> Tensor:
        h = self.relu(self.bias_add(self.matmul(x, self.w), self.b))
        f = self.pool(self.conv(img, self.conv_w))
        f = self.reshape(f, (x.shape[0], -1))
        return self.softmax(self.concat((h, f, self.mean(h, 1))))


def test_gradients_flow_through_operator_classes() -> None:
    net = Block()
    x = Tensor(np.random.default_rng(2).normal(size=(2, 3)).astype(np.float32))
    img = Tensor(np.random.default_rng(3).normal(size=(2, 1, 4, 4)).astype(np.float32))
    loss_fn = lambda x, img: ops.sum(ops.mul(net(x, img), Tensor(np.arange(13, dtype=np.float32))))
    grads = ms.grad(loss_fn, None, net.trainable_params())(x, img)
    eps = 1e-3
    for p, g in zip(net.trainable_params(), grads):
        base = p.asnumpy().copy()
        flat = base.reshape(-1)
        for k in range(0, flat.size, max(1, flat.size // 4)):
            for sign in (1, -1):
                flat[k] += sign * eps
                p.set_data(Tensor(base))
                if sign == 1:
                    up = float(loss_fn(x, img).asnumpy())
                else:
                    down = float(loss_fn(x, img).asnumpy())
                flat[k] -= sign * eps
            p.set_data(Tensor(base))
            assert abs((up - down) / (2 * eps) - g.asnumpy().reshape(-1)[k]) < 2e-2, p.name


def test_operator_classes_compile_to_onnx() -> None:
    net = Block()
    net.set_train(False)
    x = Tensor(np.random.default_rng(4).normal(size=(2, 3)).astype(np.float32))
    img = Tensor(np.random.default_rng(5).normal(size=(2, 1, 4, 4)).astype(np.float32))
    compiled = net.compile(x, img)
    assert_close(compiled(x, img).asnumpy(), net(x, img).asnumpy(), 1e-5, 1e-6, "compiled Block")


def test_assign_in_a_compiled_cell_updates_what_follows() -> None:
    class Accumulate(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.assign = P.Assign()

        def construct(self, x: Tensor) -> Tensor:
            y = ops.mul(x, 1.0)
            self.assign(y, ops.add(y, 1.0))
            return ops.mul(y, 2.0)

    net = Accumulate()
    net.set_train(False)
    x = Tensor(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), (np.arange(3) + 1.0) * 2.0)
    np.testing.assert_array_equal(net.compile(x)(x).asnumpy(), (np.arange(3) + 1.0) * 2.0)


def test_gradient_hooks_as_mindspore() -> None:
    """The values MindSpore 2.10 gives for HookBackward's and InsertGradientOf's documented examples."""
    seen = []

    def triple(grads: tuple) -> tuple:
        seen.append(len(grads))
        return (grads[0] * 3,)

    hook = ops.HookBackward(triple)

    def f(x: Tensor, y: Tensor) -> Tensor:
        return hook(x * y) * y

    gx, gy = ms.grad(f, (0, 1))(Tensor(np.float32(1.0)), Tensor(np.float32(2.0)))
    assert (float(gx.asnumpy()), float(gy.asnumpy()), seen) == (12.0, 8.0, [1])
    igo = ops.InsertGradientOf(lambda d: ops.clamp(d, -0.1, 0.1))

    def g(x: Tensor, y: Tensor) -> Tensor:
        return igo(x * y) * y

    gx, gy = ms.grad(g, (0, 1))(Tensor(np.float32(1.1)), Tensor(np.float32(0.1)))
    assert_close(np.array([gx.asnumpy(), gy.asnumpy()]), np.array([0.01, 0.22], np.float32), 1e-6, 0, "clip")
    pair = ops.HookBackward(lambda grads: seen.append(len(grads)))

    def k(x: Tensor, y: Tensor) -> Tensor:
        a, b = pair(x * 2, y * 3)
        return a * b

    gx, gy = ms.grad(k, (0, 1))(Tensor(np.float32(1.0)), Tensor(np.float32(2.0)))
    assert (float(gx.asnumpy()), float(gy.asnumpy()), seen[-1]) == (12.0, 6.0, 2)


def test_traced_batch_dims_stay_symbolic_through_operator_classes() -> None:
    class Tokens(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.cls = Parameter(Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 4)), name="cls")
            self.reshape = P.Reshape()
            self.concat = P.Concat(1)
            self.shape = P.Shape()

        def construct(self, x: Tensor) -> Tensor:
            b = self.shape(x)[0]
            tokens = self.reshape(x, (b, -1, 4))
            cls = P.BroadcastTo((b, -1, -1))(self.cls)
            return self.concat((cls, tokens))

    net = Tokens()
    net.set_train(False)
    net.set_inputs(Tensor(shape=(None, 8), dtype=ms.float32))
    compiled = net.compile(Tensor(np.zeros((1, 8), np.float32)))  # one graph, traced at batch 1
    for batch in (1, 3):
        x = Tensor(np.random.default_rng(batch).normal(size=(batch, 8)).astype(np.float32))
        got = compiled(x)
        assert got.shape == (batch, 3, 4)
        np.testing.assert_array_equal(got.asnumpy(), net.construct(x).asnumpy())


def test_fused_updates_against_numpy() -> None:
    """The fused optimizer updates MindSpore runs on GPU / Ascend only, against their formulas in NumPy."""
    rng = np.random.default_rng(3)
    w, a, g = (rng.normal(size=(2, 3)).astype(np.float32) for _ in range(3))
    var, acc = Parameter(Tensor(w), name="w"), Parameter(Tensor(a), name="a")
    ops.FusedWeightScaleApplyMomentum()(0.01, 0.5, var, acc, 0.1, Tensor(g), 0.9)
    want_acc = 0.9 * a + (w * 0.01 + g * 0.5)
    assert_close(acc.asnumpy(), want_acc, 1e-6, 1e-7, "accumulation")
    assert_close(var.asnumpy(), w - 0.1 * want_acc, 1e-6, 1e-7, "variable")
    m, v = rng.normal(size=(2, 3)).astype(np.float32), rng.uniform(0.5, 1.0, (2, 3)).astype(np.float32)
    var16 = Parameter(Tensor(w.astype(np.float16)), name="w16")
    pm, pv = Parameter(Tensor(m), name="m"), Parameter(Tensor(v), name="v")
    ops.FusedCastAdamWeightDecay()(var16, pm, pv, 0.01, 0.9, 0.999, 1e-8, 0.1, Tensor(g.astype(np.float16)))
    g32 = g.astype(np.float16).astype(np.float32)
    new_m, new_v = 0.9 * m + 0.1 * g32, 0.999 * v + 0.001 * g32 * g32
    update = new_m / (np.sqrt(new_v) + 1e-8) + 0.1 * w.astype(np.float16).astype(np.float32)
    assert var16.dtype == ms.float16
    assert_close(pm.asnumpy(), new_m, 1e-6, 1e-7, "m")
    assert_close(var16.asnumpy().astype(np.float32), (w.astype(np.float16).astype(np.float32) - 0.01 * update)
                 .astype(np.float16).astype(np.float32), 1e-3, 0, "var")


def test_fused_cast_adam_weight_decay_divides_the_gradient_by_global_norm() -> None:
    """MindSpore 2.10's CPU kernel takes a tenth input, ``global_norm``, and updates with ``gradient /
    global_norm``: the same update as the gradient divided beforehand."""
    rng = np.random.default_rng(4)
    w, m, g = (rng.normal(size=(2, 3)).astype(np.float32) for _ in range(3))
    v = rng.uniform(0.5, 1.0, (2, 3)).astype(np.float32)
    results = []
    for grad, norm in ((g / 2, ()), (g, (Tensor(np.float32(2.0)),))):
        var16 = Parameter(Tensor(w.astype(np.float16)), name="w16")
        pm, pv = Parameter(Tensor(m), name="m"), Parameter(Tensor(v), name="v")
        ops.FusedCastAdamWeightDecay()(var16, pm, pv, 0.01, 0.9, 0.999, 1e-8, 0.1,
                                       Tensor(grad.astype(np.float16)), *norm)
        results.append((var16.asnumpy(), pm.asnumpy(), pv.asnumpy()))
    for before, after, what in zip(*results, ("var", "m", "v")):
        assert_close(after.astype(np.float32), before.astype(np.float32), 1e-3, 0, what)


def test_custom_pyfunc_takes_infer_functions_for_shape_and_dtype() -> None:
    """MindSpore's ``ops.Custom(func, out_shape=<fn>, out_dtype=<fn>, func_type='pyfunc')``: the infer
    functions get the inputs' shapes and dtypes; the result's dtype is the one out_dtype names."""
    a = np.array([1.0, 2.0], np.float32)
    op = ops.Custom(lambda x, y: x + y, out_shape=lambda x, _: x, out_dtype=lambda x, _: x,
                    func_type="pyfunc")
    out = op(Tensor(a), Tensor(a))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), a + a)
    half = ops.Custom(lambda x, y: x + y, out_shape=lambda x, _: x, out_dtype=lambda *_: ms.float16,
                      func_type="pyfunc")
    assert half(Tensor(a), Tensor(a)).dtype == ms.float16


def test_scan_class_steps_through_a_sequence_as_mindspore() -> None:
    """MindSpore's ``ops.Scan()``: xs is a list or tuple (or None with ``length``), ``ys`` comes back as a
    list, one entry per step; anything else for xs is a TypeError."""
    def step(carry: Tensor, x: Tensor | None) -> tuple[Tensor, Tensor]:
        carry = carry + (1.0 if x is None else x)
        return carry, carry * 2
    xs = [Tensor(np.float32(v)) for v in (1.0, 2.0, 3.0)]
    carry, ys = ops.Scan()(step, Tensor(np.float32(0.0)), xs)
    assert float(carry) == 6.0 and isinstance(ys, list) and [float(y) for y in ys] == [2.0, 6.0, 12.0]
    carry, ys = ops.Scan()(step, Tensor(np.float32(0.0)), None, length=2)
    assert float(carry) == 2.0 and len(ys) == 2
    with pytest.raises(TypeError, match="xs must be a tuple, a list or None"):
        ops.Scan()(step, Tensor(np.float32(0.0)), Tensor(np.ones(3, np.float32)))
