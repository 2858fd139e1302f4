"""The small Python-level functions of ``mindspore.ops`` / ``mindspore.ops.functional``: scalar arithmetic
(``scalar_add`` ...), sequences (``tuple_getitem``, ``make_tuple`` ...), ``depend``, ``partial``,
``identity``, and the operator instances MindSpore's functional module defines (``tensor_add =
ops.Add()``, ``reduce_mean = ops.ReduceMean()`` ...).

In MindSpore most of these are graph-compiler primitives that PyNative mode runs as plain Python; so they
are here.
"""
from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

from cellonnx import dtypes
from cellonnx.ops import operations as P
from cellonnx.ops.operations.other_ops import _ms_pyfunc
from cellonnx.ops.operations.other_ops import identity as _identity
from cellonnx.tensor import Tensor

# ---------------------------------------------------------------- scalars


def scalar_add(x: Any, y: Any) -> Any:
    """``x + y`` of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_add(2, 3.5))
        5.5
    """
    return x + y


def scalar_sub(x: Any, y: Any) -> Any:
    """``x - y`` of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_sub(7, 2))
        5
    """
    return x - y


def scalar_mul(x: Any, y: Any) -> Any:
    """``x * y`` of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_mul(3, 4))
        12
    """
    return x * y


def scalar_div(x: Any, y: Any) -> Any:
    """``x / y`` (true division) of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_div(7, 2))
        3.5
    """
    return x / y


def scalar_floordiv(x: Any, y: Any) -> Any:
    """``x // y`` of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_floordiv(7, 2))
        3
    """
    return x // y


def scalar_mod(x: Any, y: Any) -> Any:
    """``x % y`` of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_mod(7, 3))
        1
    """
    return x % y


def scalar_pow(x: Any, y: Any) -> Any:
    """``x ** y`` of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_pow(2, 10))
        1024
    """
    return x ** y


def scalar_log(x: Any) -> float:
    """The natural logarithm of a scalar.

    Examples:
        >>> from cellonnx import ops
        >>> print(round(ops.scalar_log(10.0), 4))
        2.3026
    """
    return math.log(x)


def scalar_max(x: Any, y: Any) -> Any:
    """The larger of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_max(3, 8))
        8
    """
    return max(x, y)


def scalar_min(x: Any, y: Any) -> Any:
    """The smaller of two scalars.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_min(3, 8))
        3
    """
    return min(x, y)


def scalar_uadd(x: Any) -> Any:
    """``+x`` of a scalar.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_uadd(-4))
        -4
    """
    return +x


def scalar_usub(x: Any) -> Any:
    """``-x`` of a scalar.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_usub(4))
        -4
    """
    return -x


def scalar_eq(x: Any, y: Any) -> bool:
    """Whether two scalars are equal.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_eq(2, 2.0))
        True
    """
    return x == y


def scalar_ne(x: Any, y: Any) -> bool:
    """Whether two scalars differ.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_ne(2, 3))
        True
    """
    return x != y


def scalar_gt(x: Any, y: Any) -> bool:
    """Whether scalar ``x`` is greater than ``y``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_gt(3, 2))
        True
    """
    return x > y


def scalar_ge(x: Any, y: Any) -> bool:
    """Whether scalar ``x`` is at least ``y``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_ge(2, 2))
        True
    """
    return x >= y


def scalar_lt(x: Any, y: Any) -> bool:
    """Whether scalar ``x`` is less than ``y``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_lt(3, 2))
        False
    """
    return x < y


def scalar_le(x: Any, y: Any) -> bool:
    """Whether scalar ``x`` is at most ``y``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.scalar_le(2, 2))
        True
    """
    return x <= y


def scalar_cast(input_x: Any, input_y: Any) -> Any:
    """A scalar converted to the type ``input_y`` (a cellonnx dtype such as ``mstype.int64``, or int /
    float / bool).

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import ops
        >>> print(ops.scalar_cast(255.0, ms.int64))
        255
    """
    return P.ScalarCast()(input_x, input_y)


def bool_not(x: bool) -> bool:
    """``not x`` of a bool.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.bool_not(True))
        False
    """
    return not x


def bool_and(x: bool, y: bool) -> bool:
    """``x and y`` of two bools.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.bool_and(True, False))
        False
    """
    return x and y


def bool_or(x: bool, y: bool) -> bool:
    """``x or y`` of two bools.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.bool_or(True, False))
        True
    """
    return x or y


def bool_eq(x: bool, y: bool) -> bool:
    """Whether two bools are equal.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.bool_eq(True, True))
        True
    """
    return x == y


def string_eq(x: str, y: str) -> bool:
    """Whether two strings are equal.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.string_eq("abc", "abc"))
        True
    """
    return x == y


def string_concat(x: str, y: str) -> str:
    """The concatenation of two strings.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.string_concat("cell", "onnx"))
        cellonnx
    """
    return x + y


def is_(x: Any, y: Any) -> bool:
    """``x is y``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.is_(None, None))
        True
    """
    return x is y


def is_not(x: Any, y: Any) -> bool:
    """``x is not y``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.is_not(1, None))
        True
    """
    return x is not y


def array_to_scalar(x: Any) -> Any:
    """The Python scalar held by a one-element Tensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array(3.5), ms.float32)
        >>> print(ops.array_to_scalar(x))
        3.5
    """
    return x.item() if isinstance(x, Tensor) else x


# ---------------------------------------------------------------- sequences and dicts


def make_tuple(*args: Any) -> tuple:
    """A tuple of the arguments.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.make_tuple(1, 2, 3))
        (1, 2, 3)
    """
    return tuple(args)


def make_list(*args: Any) -> list:
    """A list of the arguments.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.make_list(1, 2, 3))
        [1, 2, 3]
    """
    return list(args)


def make_dict(keys: Sequence[Any], values: Sequence[Any]) -> dict:
    """A dict from a sequence of keys and a sequence of values.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.make_dict(("a", "b"), (1, 2)))
        {'a': 1, 'b': 2}
    """
    return dict(zip(keys, values))


def make_slice(start: Any, stop: Any, step: Any) -> slice:
    """``slice(start, stop, step)``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.make_slice(1, 5, 2))
        slice(1, 5, 2)
    """
    return slice(start, stop, step)


def make_range(*args: int) -> range:
    """``range(*args)``.

    Examples:
        >>> from cellonnx import ops
        >>> print(tuple(ops.make_range(1, 7, 2)))
        (1, 3, 5)
    """
    return range(*args)


def SliceGetItem(slice_: slice, attr: str) -> Any:
    """``start``, ``stop`` or ``step`` of a slice.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.SliceGetItem(slice(1, 5, 2), "stop"))
        5
    """
    return getattr(slice_, attr)


def tuple_getitem(x: Sequence[Any], index: Any) -> Any:
    """``x[index]`` of a tuple.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.tuple_getitem((4, 5, 6), 1))
        5
    """
    return x[index]


def list_getitem(x: Sequence[Any], index: Any) -> Any:
    """``x[index]`` of a list.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.list_getitem([4, 5, 6], -1))
        6
    """
    return x[index]


def tuple_setitem(x: tuple, index: int, value: Any) -> tuple:
    """A new tuple with ``x[index]`` replaced by ``value``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.tuple_setitem((4, 5, 6), 1, 0))
        (4, 0, 6)
    """
    out = list(x)
    out[index] = value
    return tuple(out)


def list_setitem(x: list, index: int, value: Any) -> list:
    """A new list with ``x[index]`` replaced by ``value``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.list_setitem([4, 5, 6], 0, 9))
        [9, 5, 6]
    """
    out = list(x)
    out[index] = value
    return out


def dict_getitem(x: dict, key: Any) -> Any:
    """``x[key]`` of a dict.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.dict_getitem({"a": 1, "b": 2}, "b"))
        2
    """
    return x[key]


def dict_setitem(x: dict, key: Any, value: Any) -> dict:
    """A new dict with ``key`` set to ``value``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.dict_setitem({"a": 1}, "b", 2))
        {'a': 1, 'b': 2}
    """
    out = dict(x)
    out[key] = value
    return out


def in_dict(key: Any, x: dict) -> bool:
    """Whether ``key`` is a key of the dict ``x``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.in_dict("a", {"a": 1}))
        True
    """
    return key in x


def not_in_dict(key: Any, x: dict) -> bool:
    """Whether ``key`` is not a key of the dict ``x``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.not_in_dict("a", {"a": 1}))
        False
    """
    return key not in x


def tuple_len(x: Sequence[Any]) -> int:
    """The length of a tuple.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.tuple_len((1, 2, 3)))
        3
    """
    return len(x)


def list_len(x: Sequence[Any]) -> int:
    """The length of a list.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.list_len([1, 2]))
        2
    """
    return len(x)


def tuple_reversed(x: Sequence[Any]) -> tuple:
    """A tuple in reverse order.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.tuple_reversed((1, 2, 3)))
        (3, 2, 1)
    """
    return tuple(reversed(x))


def tuple_equal(x: Sequence[Any], y: Sequence[Any]) -> bool:
    """Whether two tuples hold equal items.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.tuple_equal((1, 2), (1, 2)))
        True
    """
    return tuple(x) == tuple(y)


def list_equal(x: Sequence[Any], y: Sequence[Any]) -> bool:
    """Whether two lists hold equal items.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.list_equal([1, 2], [2, 1]))
        False
    """
    return list(x) == list(y)


def tuple_div(x: Sequence[int], y: Sequence[int]) -> tuple:
    """Elementwise ``x[i] // y[i]`` of two shapes (each ``y[i]`` must divide ``x[i]``).

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.tuple_div((8, 6), (2, 3)))
        (4, 2)
    """
    if len(x) != len(y):
        raise ValueError(f"tuple_div: the tuples {tuple(x)} and {tuple(y)} differ in length")
    for a, b in zip(x, y):
        if b == 0 or a % b:
            raise ValueError(f"tuple_div: {a} is not divisible by {b} (tuples {tuple(x)} and {tuple(y)})")
    return tuple(a // b for a, b in zip(x, y))


def shape_mul(input_data: Sequence[int]) -> int:
    """The product of a shape's entries.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.shape_mul((2, 3, 4)))
        24
    """
    return functools.reduce(operator.mul, input_data, 1)


def reduced_shape(shape: Sequence[int], axis: Any) -> tuple:
    """``shape`` with the reduced ``axis`` (an int, a tuple, or () for all) set to 1.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.reduced_shape((2, 3, 4), 1))
        (2, 1, 4)
    """
    n = len(shape)
    axes = range(n) if axis in ((), [], None) else (axis,) if isinstance(axis, int) else axis
    reduced = {a % n for a in axes}
    return tuple(1 if i in reduced else d for i, d in enumerate(shape))


def broadcast_gradient_args(x_shape: Sequence[int], y_shape: Sequence[int]) -> tuple[tuple, tuple]:
    """The axes along which the gradients of two broadcast operands must be summed.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.broadcast_gradient_args((2, 3), (3,)))
        ((), (0,))
    """
    n = max(len(x_shape), len(y_shape))
    xs = (1,) * (n - len(x_shape)) + tuple(x_shape)
    ys = (1,) * (n - len(y_shape)) + tuple(y_shape)
    rx = tuple(i for i in range(n) if (xs[i] == 1 and ys[i] != 1) or i < n - len(x_shape))
    ry = tuple(i for i in range(n) if (ys[i] == 1 and xs[i] != 1) or i < n - len(y_shape))
    return rx, ry


# ---------------------------------------------------------------- control and types


def switch(cond: Any, true_branch: Any, false_branch: Any) -> Any:
    """``true_branch`` if ``cond`` holds, else ``false_branch``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.switch(True, "yes", "no"))
        yes
    """
    return true_branch if bool(cond) else false_branch


def switch_layer(index: Any, branches: Sequence[Callable[..., Any]]) -> Callable[..., Any]:
    """The branch (a callable) at ``index`` of ``branches``.

    Examples:
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> add_one = lambda v: v + 1
        >>> times_ten = lambda v: v * 10
        >>> index = Tensor(1, ms.int32)
        >>> print(ops.switch_layer(index, (add_one, times_ten))(3))
        30
    """
    return branches[int(index)]


def typeof(x: Any) -> Any:
    """The MindSpore type of a value: ``Tensor[<dtype>]`` for a Tensor; Int64, Float32 and Bool for Python
    scalars (MindSpore types a Python float as Float32); String for a str.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((2,)), ms.float32)
        >>> print(ops.typeof(x), ops.typeof(3), ops.typeof(2.5))
        Tensor[Float32] Int64 Float32
    """
    if isinstance(x, Tensor):
        return dtypes.TensorType(x.dtype)
    if isinstance(x, bool):
        return dtypes.bool_
    if isinstance(x, int):
        return dtypes.int64
    if isinstance(x, float):
        return dtypes.float32
    if isinstance(x, str):
        return dtypes.string
    return type(x)


def hastype(x: Any, t: Any) -> bool:
    """Whether ``x`` is of the type ``t``: a tensor type (``ms.tensor_type`` matches any Tensor,
    ``TensorType(ms.float32)`` a float32 one), an element type or kind for Python scalars (``ms.int64``,
    ``ms.number``, ``ms.int_``), or a Python type.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((2,)), ms.float32)
        >>> print(ops.hastype(x, ms.tensor_type), ops.hastype(x, ms.float32), ops.hastype(3, ms.int64))
        True False True
    """
    if isinstance(t, dtypes.TensorType):
        element = t.element_type()
        return isinstance(x, Tensor) and (element is None or x.dtype is element)
    if isinstance(t, dtypes.Type):
        if isinstance(x, Tensor):
            return False
        found = typeof(x)
        if found is t:
            return True
        # an abstract kind (ms.number, ms.int_, ms.float_) holds the element types of its kind
        return (isinstance(found, dtypes.DType) and isinstance(t, dtypes.Number)
                and type(t) is not dtypes.DType and isinstance(found, type(t)))
    return isinstance(x, t)


def isconstant(x: Any) -> bool:
    """Whether ``x`` is a constant; in eager execution every value is.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.isconstant(3))
        True
    """
    return True


def depend(value: Any, expr: Any) -> Any:
    """``value``, after ``expr`` (eagerly ``expr`` has already run).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> y = ops.depend(x, ops.add(x, 1))
        >>> print(y)
        [1. 2.]
    """
    return value


def partial(*args: Any) -> functools.partial:
    """``functools.partial(func, *args)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> add3 = ops.partial(ops.add, Tensor(np.array([3.0]), ms.float32))
        >>> print(add3(Tensor(np.array([1.0]), ms.float32)))
        [4.]
    """
    return P.Partial()(*args)


def mixed_precision_cast(dst_dtype: Any, x: Any) -> Any:
    """Float tensors (inside tuples, lists and dicts too) cast to ``dst_dtype``; other values as they are.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((2,)), ms.float32)
        >>> out = ops.mixed_precision_cast(ms.float16, (x, 3))
        >>> print(out[0].dtype, out[1])
        Float16 3
    """
    from cellonnx.ops import cast
    if isinstance(x, Tensor):
        return cast(x, dst_dtype) if x.dtype.is_floating_point else x
    if isinstance(x, (tuple, list)):
        return type(x)(mixed_precision_cast(dst_dtype, v) for v in x)
    if isinstance(x, dict):
        return {k: mixed_precision_cast(dst_dtype, v) for k, v in x.items()}
    return x


def shape_(x: Tensor) -> tuple:
    """The shape of a tensor as a tuple.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.ones((2, 3)), ms.float32)
        >>> print(ops.shape_(x))
        (2, 3)
    """
    return P.Shape()(x)


def rank(input_x: Tensor) -> int:
    """The number of dimensions of a tensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import ops, Tensor
        >>> x = Tensor(np.ones((2, 3, 4)), ms.float32)
        >>> ops.rank(x)
        3
    """
    return P.Rank()(input_x)


# ---------------------------------------------------------------- operator instances (MindSpore's functional)
identity = _identity()  # MindSpore's ops.functional.identity: an instance of the primitive
tensor_add = P.Add()
tensor_sub = P.Sub()
tensor_mul = P.Mul()
tensor_div = P.RealDiv()
tensor_pow = P.Pow()
pows = P.Pow()
tensor_exp = P.Exp()
tensor_floordiv = P.FloorDiv()
floordiv = P.FloorDiv()
tensor_mod = P.FloorMod()
floormod = P.FloorMod()
tensor_ge = P.GreaterEqual()
tensor_le = P.LessEqual()
tensor_range = P.Range()
tensor_slice = P.Slice()
reshape_ = P.Reshape()
reduce_max = P.ReduceMax()
reduce_min = P.ReduceMin()
reduce_mean = P.ReduceMean()
tensor_expm1 = P.Expm1()


def tensor_lt(input: Any, other: Any) -> Tensor:
    """``input < other`` element-wise (MindSpore's functional alias of ``ops.less``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1, 2, 3]), ms.int32)
        >>> print(ops.tensor_lt(x, 2))
        [ True False False]
    """
    from cellonnx.ops.prims.math import less
    return less(input, other)


def print_(*input_x: Any) -> None:
    """Print the inputs (Tensors, strings, numbers, tuples of them) to stdout, as ``ops.Print()``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1, 2]), ms.int32)
        >>> ops.print_('x:', x)
        x:
        Tensor(shape=[2], dtype=Int32, value= [1, 2])
    """
    P.Print()(*input_x)


def move_to(input: Tensor, to: str = "CPU", blocking: bool = True) -> Tensor:
    """A copy of ``input`` on device ``to`` ('CPU', 'Ascend' or 'GPU'): here every tensor lives in host
    memory, so this is ``ops.MoveTo()``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> print(ops.move_to(x, "CPU"))
        [1. 2.]
    """
    return P.MoveTo()(input, to, blocking)


def tensordump(file_name: str, tensor: Tensor, mode: str = "out") -> None:
    """Save ``tensor`` as a .npy file named after ``file_name`` (``ops.TensorDump(mode)``'s naming).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> x = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> ops.tensordump("x.npy", x)
    """
    P.TensorDump(mode)(file_name, tensor)


# ---------------------------------------------------------------- sparse tensors' parts
def make_coo_tensor(indices: Tensor, values: Tensor, dense_shape: Any) -> Any:
    """``COOTensor(indices, values, dense_shape)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> indices = Tensor(np.array([[0, 1], [1, 2]]), ms.int64)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = ops.make_coo_tensor(indices, values, (2, 3))
        >>> print(x.to_dense())
        [[0. 1. 0.]
         [0. 0. 2.]]
    """
    from cellonnx.sparse import COOTensor
    return COOTensor(indices, values, dense_shape)


def make_csr_tensor(indptr: Tensor, indices: Tensor, values: Tensor, dense_shape: Any) -> Any:
    """``CSRTensor(indptr, indices, values, dense_shape)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([1, 2]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = ops.make_csr_tensor(indptr, indices, values, (2, 3))
        >>> print(x.to_dense())
        [[0. 1. 0.]
         [0. 0. 2.]]
    """
    from cellonnx.sparse import CSRTensor
    return CSRTensor(indptr, indices, values, dense_shape)


def make_row_tensor_inner(indices: Tensor, values: Tensor, dense_shape: Any) -> Any:
    """``RowTensor(indices, values, dense_shape)``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> indices = Tensor(np.array([1]), ms.int32)
        >>> values = Tensor(np.array([[1.0, 2.0]]), ms.float32)
        >>> x = ops.make_row_tensor_inner(indices, values, (3, 2))
        >>> print(x.dense_shape)
        (3, 2)
    """
    from cellonnx.sparse import RowTensor
    return RowTensor(indices, values, dense_shape)


def coo_tensor_get_indices(coo_tensor: Any) -> Tensor:
    """The indices of a COOTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, COOTensor
        >>> indices = Tensor(np.array([[0, 1], [1, 2]]), ms.int64)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = COOTensor(indices, values, (2, 3))
        >>> print(ops.coo_tensor_get_indices(x))
        [[0 1]
         [1 2]]
    """
    return coo_tensor.indices


def coo_tensor_get_values(coo_tensor: Any) -> Tensor:
    """The values of a COOTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, COOTensor
        >>> indices = Tensor(np.array([[0, 1], [1, 2]]), ms.int64)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = COOTensor(indices, values, (2, 3))
        >>> print(ops.coo_tensor_get_values(x))
        [1. 2.]
    """
    return coo_tensor.values


def coo_tensor_get_dense_shape(coo_tensor: Any) -> tuple:
    """The dense shape of a COOTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, COOTensor
        >>> indices = Tensor(np.array([[0, 1], [1, 2]]), ms.int64)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = COOTensor(indices, values, (2, 3))
        >>> print(ops.coo_tensor_get_dense_shape(x))
        (2, 3)
    """
    return coo_tensor.shape


def csr_tensor_get_indptr(csr_tensor: Any) -> Tensor:
    """The row pointers of a CSRTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([1, 2]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 3))
        >>> print(ops.csr_tensor_get_indptr(x))
        [0 1 2]
    """
    return csr_tensor.indptr


def csr_tensor_get_indices(csr_tensor: Any) -> Tensor:
    """The column indices of a CSRTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([1, 2]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 3))
        >>> print(ops.csr_tensor_get_indices(x))
        [1 2]
    """
    return csr_tensor.indices


def csr_tensor_get_values(csr_tensor: Any) -> Tensor:
    """The values of a CSRTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([1, 2]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 3))
        >>> print(ops.csr_tensor_get_values(x))
        [1. 2.]
    """
    return csr_tensor.values


def csr_tensor_get_dense_shape(csr_tensor: Any) -> tuple:
    """The dense shape of a CSRTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, CSRTensor
        >>> indptr = Tensor(np.array([0, 1, 2]), ms.int32)
        >>> indices = Tensor(np.array([1, 2]), ms.int32)
        >>> values = Tensor(np.array([1.0, 2.0]), ms.float32)
        >>> x = CSRTensor(indptr, indices, values, (2, 3))
        >>> print(ops.csr_tensor_get_dense_shape(x))
        (2, 3)
    """
    return csr_tensor.shape


def row_tensor_get_indices(row_tensor: Any) -> Tensor:
    """The row indices of a RowTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, RowTensor
        >>> x = RowTensor(Tensor(np.array([1]), ms.int32), Tensor(np.array([[1.0, 2.0]]), ms.float32), (3, 2))
        >>> print(ops.row_tensor_get_indices(x))
        [1]
    """
    return row_tensor.indices


def row_tensor_get_values(row_tensor: Any) -> Tensor:
    """The rows stored by a RowTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, RowTensor
        >>> x = RowTensor(Tensor(np.array([1]), ms.int32), Tensor(np.array([[1.0, 2.0]]), ms.float32), (3, 2))
        >>> print(ops.row_tensor_get_values(x))
        [[1. 2.]]
    """
    return row_tensor.values


def row_tensor_get_dense_shape(row_tensor: Any) -> tuple:
    """The dense shape of a RowTensor.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops, RowTensor
        >>> x = RowTensor(Tensor(np.array([1]), ms.int32), Tensor(np.array([[1.0, 2.0]]), ms.float32), (3, 2))
        >>> print(ops.row_tensor_get_dense_shape(x))
        (3, 2)
    """
    return row_tensor.dense_shape


def _add_attr(fn: Callable, **kwargs: Any) -> Callable:
    """``fn`` with primitive attributes for the operators it calls (MindSpore's ``ops._add_attr``).

    MindSpore compiles ``fn`` into a graph and hands ``kwargs`` to the backend passes as attributes of the
    primitives in it; they do not change what ``fn`` computes (on MindSpore's CPU build too). The returned
    function runs ``fn`` eagerly and keeps the attributes as its ``attrs``.

    Args:
        fn (Callable): a function or Cell; not a Primitive.
        kwargs: the attributes.

    Returns:
        Callable, taking ``fn``'s positional arguments and returning ``fn(*args)``.

    Raises:
        TypeError: `fn` is not callable, or is a Primitive.

    Examples:
        >>> f = ops._add_attr(lambda x: ops.relu(x) + 1, keep_dims=True)
        >>> f(Tensor([-1.0, 2.0]))
        Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  3.00000000e+00])
        >>> f.attrs
        {'keep_dims': True}
    """
    from cellonnx.ops.primitive import Primitive

    if not callable(fn) or isinstance(fn, Primitive):
        raise TypeError(f"the parameter 'fn' must be callable type except Primitive, but got:{type(fn)}")
    attrs = dict(kwargs)

    def add_attr_fn(*args: Any) -> Any:
        return fn(*args)

    add_attr_fn.attrs = attrs  # type: ignore[attr-defined]
    add_attr_fn.fn = fn  # type: ignore[attr-defined]
    return add_attr_fn


__all__ = [
    "SliceGetItem",
    "_add_attr",
    "_ms_pyfunc",
    "array_to_scalar",
    "bool_and",
    "bool_eq",
    "bool_not",
    "bool_or",
    "broadcast_gradient_args",
    "coo_tensor_get_dense_shape",
    "coo_tensor_get_indices",
    "coo_tensor_get_values",
    "csr_tensor_get_dense_shape",
    "csr_tensor_get_indices",
    "csr_tensor_get_indptr",
    "csr_tensor_get_values",
    "depend",
    "dict_getitem",
    "dict_setitem",
    "floordiv",
    "floormod",
    "hastype",
    "identity",
    "in_dict",
    "is_",
    "is_not",
    "isconstant",
    "list_equal",
    "list_getitem",
    "list_len",
    "list_setitem",
    "make_coo_tensor",
    "make_csr_tensor",
    "make_dict",
    "make_list",
    "make_range",
    "make_row_tensor_inner",
    "make_slice",
    "make_tuple",
    "mixed_precision_cast",
    "move_to",
    "not_in_dict",
    "partial",
    "pows",
    "print_",
    "rank",
    "reduce_max",
    "reduce_mean",
    "reduce_min",
    "reduced_shape",
    "reshape_",
    "row_tensor_get_dense_shape",
    "row_tensor_get_indices",
    "row_tensor_get_values",
    "scalar_add",
    "scalar_cast",
    "scalar_div",
    "scalar_eq",
    "scalar_floordiv",
    "scalar_ge",
    "scalar_gt",
    "scalar_le",
    "scalar_log",
    "scalar_lt",
    "scalar_max",
    "scalar_min",
    "scalar_mod",
    "scalar_mul",
    "scalar_ne",
    "scalar_pow",
    "scalar_sub",
    "scalar_uadd",
    "scalar_usub",
    "shape_",
    "shape_mul",
    "string_concat",
    "string_eq",
    "switch",
    "switch_layer",
    "tensor_add",
    "tensor_div",
    "tensor_exp",
    "tensor_expm1",
    "tensor_floordiv",
    "tensor_ge",
    "tensor_le",
    "tensor_lt",
    "tensor_mod",
    "tensor_mul",
    "tensor_pow",
    "tensor_range",
    "tensor_slice",
    "tensor_sub",
    "tensordump",
    "tuple_div",
    "tuple_equal",
    "tuple_getitem",
    "tuple_len",
    "tuple_reversed",
    "tuple_setitem",
    "typeof",
]
