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
from cellonnx.ops.operations.other_ops import _ms_pyfunc, identity
from cellonnx.tensor import Tensor

# ---------------------------------------------------------------- scalars


def scalar_add(x: Any, y: Any) -> Any:
    """``x + y`` of two scalars."""
    return x + y


def scalar_sub(x: Any, y: Any) -> Any:
    """``x - y`` of two scalars."""
    return x - y


def scalar_mul(x: Any, y: Any) -> Any:
    """``x * y`` of two scalars."""
    return x * y


def scalar_div(x: Any, y: Any) -> Any:
    """``x / y`` (true division) of two scalars."""
    return x / y


def scalar_floordiv(x: Any, y: Any) -> Any:
    """``x // y`` of two scalars."""
    return x // y


def scalar_mod(x: Any, y: Any) -> Any:
    """``x % y`` of two scalars."""
    return x % y


def scalar_pow(x: Any, y: Any) -> Any:
    """``x ** y`` of two scalars."""
    return x ** y


def scalar_log(x: Any) -> float:
    """The natural logarithm of a scalar."""
    return math.log(x)


def scalar_max(x: Any, y: Any) -> Any:
    """The larger of two scalars."""
    return max(x, y)


def scalar_min(x: Any, y: Any) -> Any:
    """The smaller of two scalars."""
    return min(x, y)


def scalar_uadd(x: Any) -> Any:
    """``+x`` of a scalar."""
    return +x


def scalar_usub(x: Any) -> Any:
    """``-x`` of a scalar."""
    return -x


def scalar_eq(x: Any, y: Any) -> bool:
    return x == y


def scalar_ne(x: Any, y: Any) -> bool:
    return x != y


def scalar_gt(x: Any, y: Any) -> bool:
    return x > y


def scalar_ge(x: Any, y: Any) -> bool:
    return x >= y


def scalar_lt(x: Any, y: Any) -> bool:
    return x < y


def scalar_le(x: Any, y: Any) -> bool:
    return x <= y


def scalar_cast(input_x: Any, input_y: Any) -> Any:
    """A scalar converted to the type ``input_y`` (a cellonnx dtype such as ``mstype.int64``, or int /
    float / bool)."""
    return P.ScalarCast()(input_x, input_y)


def bool_not(x: bool) -> bool:
    return not x


def bool_and(x: bool, y: bool) -> bool:
    return x and y


def bool_or(x: bool, y: bool) -> bool:
    return x or y


def bool_eq(x: bool, y: bool) -> bool:
    return x == y


def string_eq(x: str, y: str) -> bool:
    return x == y


def string_concat(x: str, y: str) -> str:
    return x + y


def is_(x: Any, y: Any) -> bool:
    return x is y


def is_not(x: Any, y: Any) -> bool:
    return x is not y


def array_to_scalar(x: Any) -> Any:
    """The Python scalar held by a one-element Tensor."""
    return x.item() if isinstance(x, Tensor) else x


# ---------------------------------------------------------------- sequences and dicts


def make_tuple(*args: Any) -> tuple:
    return tuple(args)


def make_list(*args: Any) -> list:
    return list(args)


def make_dict(keys: Sequence[Any], values: Sequence[Any]) -> dict:
    return dict(zip(keys, values))


def make_slice(start: Any, stop: Any, step: Any) -> slice:
    return slice(start, stop, step)


def make_range(*args: int) -> range:
    return range(*args)


def SliceGetItem(slice_: slice, attr: str) -> Any:
    """``start``, ``stop`` or ``step`` of a slice."""
    return getattr(slice_, attr)


def tuple_getitem(x: Sequence[Any], index: Any) -> Any:
    return x[index]


def list_getitem(x: Sequence[Any], index: Any) -> Any:
    return x[index]


def tuple_setitem(x: tuple, index: int, value: Any) -> tuple:
    """A new tuple with ``x[index]`` replaced by ``value``."""
    out = list(x)
    out[index] = value
    return tuple(out)


def list_setitem(x: list, index: int, value: Any) -> list:
    """A new list with ``x[index]`` replaced by ``value``."""
    out = list(x)
    out[index] = value
    return out


def dict_getitem(x: dict, key: Any) -> Any:
    return x[key]


def dict_setitem(x: dict, key: Any, value: Any) -> dict:
    """A new dict with ``key`` set to ``value``."""
    out = dict(x)
    out[key] = value
    return out


def in_dict(key: Any, x: dict) -> bool:
    return key in x


def not_in_dict(key: Any, x: dict) -> bool:
    return key not in x


def tuple_len(x: Sequence[Any]) -> int:
    return len(x)


def list_len(x: Sequence[Any]) -> int:
    return len(x)


def tuple_reversed(x: Sequence[Any]) -> tuple:
    return tuple(reversed(x))


def tuple_equal(x: Sequence[Any], y: Sequence[Any]) -> bool:
    return tuple(x) == tuple(y)


def list_equal(x: Sequence[Any], y: Sequence[Any]) -> bool:
    return list(x) == list(y)


def tuple_div(x: Sequence[int], y: Sequence[int]) -> tuple:
    """Elementwise ``x[i] // y[i]`` of two shapes (each ``y[i]`` must divide ``x[i]``)."""
    if len(x) != len(y):
        raise ValueError(f"tuple_div: the tuples {tuple(x)} and {tuple(y)} differ in length")
    for a, b in zip(x, y):
        if b == 0 or a % b:
            raise ValueError(f"tuple_div: {a} is not divisible by {b} (tuples {tuple(x)} and {tuple(y)})")
    return tuple(a // b for a, b in zip(x, y))


def shape_mul(input_data: Sequence[int]) -> int:
    """The product of a shape's entries."""
    return functools.reduce(operator.mul, input_data, 1)


def reduced_shape(shape: Sequence[int], axis: Any) -> tuple:
    """``shape`` with the reduced ``axis`` (an int, a tuple, or () for all) set to 1."""
    n = len(shape)
    axes = range(n) if axis in ((), [], None) else (axis,) if isinstance(axis, int) else axis
    reduced = {a % n for a in axes}
    return tuple(1 if i in reduced else d for i, d in enumerate(shape))


def broadcast_gradient_args(x_shape: Sequence[int], y_shape: Sequence[int]) -> tuple[tuple, tuple]:
    """The axes along which the gradients of two broadcast operands must be summed."""
    n = max(len(x_shape), len(y_shape))
    xs = (1,) * (n - len(x_shape)) + tuple(x_shape)
    ys = (1,) * (n - len(y_shape)) + tuple(y_shape)
    rx = tuple(i for i in range(n) if (xs[i] == 1 and ys[i] != 1) or i < n - len(x_shape))
    ry = tuple(i for i in range(n) if (ys[i] == 1 and xs[i] != 1) or i < n - len(y_shape))
    return rx, ry


# ---------------------------------------------------------------- control and types


def switch(cond: Any, true_branch: Any, false_branch: Any) -> Any:
    return true_branch if bool(cond) else false_branch


def switch_layer(index: Any, branches: Sequence[Callable[..., Any]]) -> Callable[..., Any]:
    return branches[int(index)]


def typeof(x: Any) -> Any:
    """The MindSpore type of a value: a Tensor's dtype, int64 / float64 / bool for Python scalars."""
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, bool):
        return dtypes.bool_
    if isinstance(x, int):
        return dtypes.int64
    if isinstance(x, float):
        return dtypes.float64
    return type(x)


def hastype(x: Any, t: Any) -> bool:
    """Whether ``x`` is of the type ``t`` (a dtype for Tensors and scalars, or a Python type)."""
    if isinstance(t, dtypes.DType):
        return typeof(x) is t
    return isinstance(x, t)


def isconstant(x: Any) -> bool:
    """Whether ``x`` is a constant; in eager execution every value is."""
    return True


def depend(value: Any, expr: Any) -> Any:
    """``value``, after ``expr`` (eagerly ``expr`` has already run)."""
    return value


def partial(*args: Any) -> functools.partial:
    """``functools.partial(func, *args)``."""
    return P.Partial()(*args)


def mixed_precision_cast(dst_dtype: Any, x: Any) -> Any:
    """Float tensors (inside tuples, lists and dicts too) cast to ``dst_dtype``; other values as they are."""
    from cellonnx.ops import cast
    if isinstance(x, Tensor):
        return cast(x, dst_dtype) if x.dtype.is_floating_point else x
    if isinstance(x, (tuple, list)):
        return type(x)(mixed_precision_cast(dst_dtype, v) for v in x)
    if isinstance(x, dict):
        return {k: mixed_precision_cast(dst_dtype, v) for k, v in x.items()}
    return x


def shape_(x: Tensor) -> tuple:
    """The shape of a tensor as a tuple."""
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
    """``input < other`` element-wise (MindSpore's functional alias of ``ops.less``)."""
    from cellonnx.ops.prims.math import less
    return less(input, other)


def print_(*input_x: Any) -> None:
    """Print the inputs (Tensors, strings, numbers, tuples of them) to stdout, as ``ops.Print()``."""
    P.Print()(*input_x)


def move_to(input: Tensor, to: str = "CPU", blocking: bool = True) -> Tensor:
    """A copy of ``input`` on device ``to`` ('CPU', 'Ascend' or 'GPU'): here every tensor lives in host
    memory, so this is ``ops.MoveTo()``."""
    return P.MoveTo()(input, to, blocking)


def tensordump(file_name: str, tensor: Tensor, mode: str = "out") -> None:
    """Save ``tensor`` as a .npy file named after ``file_name`` (``ops.TensorDump(mode)``'s naming)."""
    P.TensorDump(mode)(file_name, tensor)


# ---------------------------------------------------------------- sparse tensors' parts
def make_coo_tensor(indices: Tensor, values: Tensor, dense_shape: Any) -> Any:
    """``COOTensor(indices, values, dense_shape)``."""
    from cellonnx.sparse import COOTensor
    return COOTensor(indices, values, dense_shape)


def make_csr_tensor(indptr: Tensor, indices: Tensor, values: Tensor, dense_shape: Any) -> Any:
    """``CSRTensor(indptr, indices, values, dense_shape)``."""
    from cellonnx.sparse import CSRTensor
    return CSRTensor(indptr, indices, values, dense_shape)


def make_row_tensor_inner(indices: Tensor, values: Tensor, dense_shape: Any) -> Any:
    """``RowTensor(indices, values, dense_shape)``."""
    from cellonnx.sparse import RowTensor
    return RowTensor(indices, values, dense_shape)


def coo_tensor_get_indices(coo_tensor: Any) -> Tensor:
    return coo_tensor.indices


def coo_tensor_get_values(coo_tensor: Any) -> Tensor:
    return coo_tensor.values


def coo_tensor_get_dense_shape(coo_tensor: Any) -> tuple:
    return coo_tensor.shape


def csr_tensor_get_indptr(csr_tensor: Any) -> Tensor:
    return csr_tensor.indptr


def csr_tensor_get_indices(csr_tensor: Any) -> Tensor:
    return csr_tensor.indices


def csr_tensor_get_values(csr_tensor: Any) -> Tensor:
    return csr_tensor.values


def csr_tensor_get_dense_shape(csr_tensor: Any) -> tuple:
    return csr_tensor.shape


def row_tensor_get_indices(row_tensor: Any) -> Tensor:
    return row_tensor.indices


def row_tensor_get_values(row_tensor: Any) -> Tensor:
    return row_tensor.values


def row_tensor_get_dense_shape(row_tensor: Any) -> tuple:
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
