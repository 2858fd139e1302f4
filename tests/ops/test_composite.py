"""MindSpore's composite namespace (``C``) and the Python-level helpers of ``ops`` / ``F``: MultitypeFuncGraph
dispatch, HyperMap / Map over (nested) sequences, as MindSpore's optimizers use them, add_flags, augassign_*,
the sequence and scalar helpers, and the namespaces' identity (``F.x is ops.x``,
                                                               ``C.matmul is ops.matmul``)."""
from __future__ import annotations

import numpy as np
import pytest

import cellonnx as ms
from cellonnx import Parameter, Tensor, ops
from cellonnx.ops import composite as C
from cellonnx.ops import functional as F
from cellonnx.ops import operations as P


def test_namespaces_share_their_objects() -> None:
    assert ops.ReLU is P.ReLU and ops.Primitive is F.__dict__.get("Primitive", ops.Primitive)
    assert F.relu is ops.relu and F.make_tuple is ops.make_tuple and F.jvp is ops.jvp
    assert isinstance(F.tensor_add, P.Add) and isinstance(F.reduce_mean, P.ReduceMean)
    assert C.GradOperation is ops.GradOperation and C.HyperMap is ops.HyperMap
    assert C.mm is ops.mm and C.normal is ops.normal
    # C.matmul is MindSpore's composite matmul(x1, x2, dtype=None), not ops.matmul(input, other)
    assert C.matmul is not ops.matmul
    assert ops.P is P and F.P is P
    with pytest.raises(AttributeError):
        _ = C.not_a_name


def test_multitype_func_graph_dispatches_on_types() -> None:
    add = C.MultitypeFuncGraph("add")

    @add.register("Number", "Number")
    def _scalars(x: float, y: float) -> float:
        return x + y

    @add.register("Tensor", "Tensor")
    def _tensors(x: Tensor, y: Tensor) -> Tensor:
        return ops.add(x, y)

    @add.register("Tuple", "Number")
    def _tuple(x: tuple, y: float) -> tuple:
        return tuple(v + y for v in x)

    assert add(1, 2) == 3
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(add(x, x).asnumpy(), [2.0, 4.0])
    assert add((1, 2), 1) == (2, 3)
    by_dtype = C.MultitypeFuncGraph("by_dtype")
    by_dtype.register(ms.int32)(lambda t: "int32")
    by_dtype.register("Tensor[Float32]")(lambda t: "float32")
    assert by_dtype(Tensor(np.array([1], np.int32))) == "int32" and by_dtype(x) == "float32"
    with pytest.raises(ValueError, match="cannot find fn match given args"):
        add("a", 1)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        add(np.ones(2), 1)
    with pytest.raises(ValueError, match="unknown type name"):
        add.register("Matrix")


def test_hyper_map_applies_over_nested_sequences_and_map_over_one_level() -> None:
    square = C.MultitypeFuncGraph("square")

    @square.register("Tensor")
    def _sq(x: Tensor) -> Tensor:
        return ops.mul(x, x)

    t = [Tensor(np.float32(v)) for v in (1, 2, 3, 4)]
    nested = ((t[0], t[1]), (t[2], t[3]))
    out = C.HyperMap(square)(nested)
    assert [[float(v.asnumpy()) for v in row] for row in out] == [[1, 4], [9, 16]]
    out = C.HyperMap()(square, nested)
    assert float(out[1][1].asnumpy()) == 16.0
    out = C.Map()(square, tuple(t))
    assert [float(v.asnumpy()) for v in out] == [1, 4, 9, 16]
    with pytest.raises(ValueError, match="same structure"):
        C.HyperMap(ops.add)((t[0], t[1]), (t[0],))


def test_hyper_map_in_an_optimizer_style_update() -> None:
    """MindSpore's optimizers map a MultitypeFuncGraph over (params, grads) with F.partial."""
    apply_decay = C.MultitypeFuncGraph("apply_decay")

    @apply_decay.register("Number", "Tensor", "Tensor")
    def _decay(weight_decay: float, weight: Tensor, gradient: Tensor) -> Tensor:
        return ops.add(gradient, ops.mul(weight, weight_decay))

    params = (Parameter(Tensor(np.ones(2, np.float32)), "a"), Parameter(Tensor(np.full(3, 2.0, np.float32)),
                                                                        "b"))
    grads = (Tensor(np.zeros(2, np.float32)), Tensor(np.ones(3, np.float32)))
    out = C.HyperMap()(F.partial(apply_decay, 0.5), params, grads)
    np.testing.assert_array_equal(out[0].asnumpy(), [0.5, 0.5])
    np.testing.assert_array_equal(out[1].asnumpy(), [2.0, 2.0, 2.0])
    momentum = C.MultitypeFuncGraph("momentum")

    @momentum.register("Function", "Tensor", "Tensor", "Tensor")
    def _apply(opt: P.ApplyMomentum, gradient: Tensor, weight: Tensor, moment: Tensor) -> Tensor:
        return opt(weight, moment, 0.1, gradient, 0.9)

    moments = (Parameter(Tensor(np.zeros(2, np.float32)), "m_a"), Parameter(Tensor(np.zeros(3, np.float32)),
                                                                            "m_b"))
    C.HyperMap()(F.partial(momentum, P.ApplyMomentum()), grads, params, moments)
    np.testing.assert_allclose(params[1].asnumpy(), [1.9, 1.9, 1.9], rtol=1e-6)
    np.testing.assert_array_equal(moments[1].asnumpy(), [1.0, 1.0, 1.0])


def test_grad_internal_and_add_flags() -> None:
    def f(x: Tensor, y: Tensor) -> Tensor:
        return ops.sum(ops.mul(x, y))

    x = Tensor(np.array([1.0, 2.0], np.float32))
    y = Tensor(np.array([3.0, 4.0], np.float32))
    gx, _gy = C._Grad(get_by_position=True)(f, None, (0, 1))(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [3.0, 4.0])
    value, g = C._Grad(get_by_position=True, get_value=True)(f, None, 1)(x, y)
    assert float(value.asnumpy()) == 11.0 and g.asnumpy().tolist() == [1.0, 2.0]
    assert C._Grad()(f)(x, y).asnumpy().tolist() == [3.0, 4.0]
    flagged = C.add_flags(f, predict=True)
    assert flagged is f and f._func_graph_flags == {"predict": True}
    with pytest.raises(TypeError):
        C.add_flags(f, level=1)


def test_augassign_and_sequence_helpers() -> None:
    x = Tensor(np.array([1.0, 2.0], np.float32))
    assert C.augassign_add(1, 2) == 3 and C.augassign_sub(5, 2) == 3 and C.augassign_mul(2, 3) == 6
    assert C.augassign_div(7, 2) == 3.5 and C.augassign_floordiv(7, 2) == 3 and C.augassign_mod(-7, 2) == 1
    assert C.augassign_add([1], [2]) == [1, 2]
    np.testing.assert_array_equal(C.augassign_mul(x, x).asnumpy(), [1.0, 4.0])
    out = C.hyper_add((x, (1, x)), (x, (2, x)))
    assert out[1][0] == 3 and out[1][1].asnumpy().tolist() == [2.0, 4.0]
    assert C.tail((1, 2, 3)) == (2, 3) and C.zip_operation((1, 2), (3, 4)) == ((1, 3), (2, 4))
    it = C.iter_converter({"a": 1, "b": 2})
    assert C.ms_hasnext(it) and C.ms_next(it) == ("a", ("b",))
    ones = C._ones_like_for_grad((x, 2.0, [x]))
    assert ones[1] == 1.0 and ones[0].asnumpy().tolist() == [1.0, 1.0] and isinstance(ones[2], list)


def test_scalar_and_sequence_helpers_match_mindspore_pynative() -> None:
    # values MindSpore 2.10 gives in PyNative mode
    assert (ops.scalar_div(7, 2), ops.scalar_floordiv(-7, 2), ops.scalar_mod(-7, 2), ops.scalar_pow(2,
                                                                                                    3)) == \
        (3.5, -4, 1, 8)
    assert ops.scalar_max(1, 2.5) == 2.5 and ops.scalar_usub(3) == -3 and ops.scalar_eq(1, 1.0)
    assert abs(ops.scalar_log(2.0) - 0.6931471805599453) < 1e-15
    assert ops.scalar_cast(3.7, ms.int64) == 3 and ops.scalar_cast(0, ms.bool_) is False
    assert ops.tuple_getitem((1, 2), 1) == 2 and ops.tuple_setitem((1, 2), 0, 5) == (5, 2)
    assert ops.make_tuple(1, 2) == (1, 2) and ops.tuple_len((1, 2)) == 2 and ops.make_slice(1, 2,
                                                                                            1) == slice(1, 2,
                                                                                                        1)
    assert ops.bool_not(True) is False and ops.is_(None, None) and ops.shape_mul((2, 3, 4)) == 24
    # MindSpore types a Tensor as Tensor[<dtype>] and a Python float as Float32
    assert ops.typeof(1) is ms.int64 and ops.typeof(Tensor([1.0])) == ms.TensorType(ms.float32)
    assert str(ops.typeof(Tensor([1.0]))) == "Tensor[Float32]" and ops.typeof(1.0) is ms.float32
    assert ops.hastype(1.0, ms.float32) and not ops.hastype(1.0, ms.float64)
    assert ops.hastype(Tensor([1.0]), ms.tensor_type) and not ops.hastype(Tensor([1.0]), ms.float32)
    assert ops.hastype(3, ms.number) and ops.hastype(3, ms.int_) and not ops.hastype(3, ms.tuple_)
    assert ops.reduced_shape((2, 3, 4), 1) == (2, 1, 4) and ops.reduced_shape((2, 3), ()) == (1, 1)
    assert ops.broadcast_gradient_args((2, 1, 4), (3, 1)) == ((1,), (0, 2))
    assert ops.tuple_div((6, 4), (2, 2)) == (3, 2)
    assert ops.switch(True, "a", "b") == "a" and ops.dict_setitem({"a": 1}, "b", 2) == {"a": 1, "b": 2}
    x = Tensor(np.ones((2, 3), np.float32))
    assert ops.shape_(x) == (2, 3) and ops.rank(x) == 2 and ops.dtype(x) is ms.float32
    assert ops.depend(x, 1) is x and ops.identity(x) is x and ops.isconstant(x)
    assert ops.mixed_precision_cast(ms.float16, (x, 1))[0].dtype is ms.float16
    assert ops.partial(ops.add, x)(x).asnumpy().sum() == 12.0
    np.testing.assert_array_equal(ops.tensor_slice(x, (0, 1), (1, 2)).asnumpy(), [[1.0, 1.0]])
    callback = ops._ms_pyfunc(lambda *a: None)(lambda a, b: a + b)
    assert isinstance(callback, ops.Primitive) and callback(1, 2) == 3
