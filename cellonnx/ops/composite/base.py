"""MindSpore's composite operations (``mindspore.ops.composite``, imported as ``C``): ``MultitypeFuncGraph``
(functions overloaded on their argument types), ``HyperMap`` / ``Map`` (apply one over sequences, nested or
not), ``_Grad``, ``add_flags``, the ``augassign_*`` functions behind ``x += y`` and the small sequence
helpers of MindSpore's graph compiler, as PyNative mode runs them.

Type names of ``MultitypeFuncGraph.register``: "Tensor", "Number" (int, float, bool), "Int", "Float", "Bool",
"String", "Tuple", "List", "Dictionary", "Function", "None", "Slice", "Type"; or a dtype (``mstype.float32``),
which matches tensors and scalars of that dtype.
"""
from __future__ import annotations

import numbers
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from cellonnx import dtypes
from cellonnx.tensor import Tensor

__all__ = ["HyperMap", "Map", "MultitypeFuncGraph", "_Grad", "_ones_like_for_grad", "add_flags",
           "augassign_add", "augassign_div", "augassign_floordiv", "augassign_mod", "augassign_mul",
           "augassign_sub", "hyper_add", "iter_converter", "ms_hasnext", "ms_next", "tail", "zip_operation"]


def _is_number(x: Any) -> bool:
    return isinstance(x, (numbers.Number, np.number, np.bool_)) and not isinstance(x, Tensor)


_TYPE_TESTS: dict[str, Callable[[Any], bool]] = {
    "tensor": lambda x: isinstance(x, Tensor),
    "number": _is_number,
    "int": lambda x: isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)),
    "float": lambda x: isinstance(x, (float, np.floating)),
    "bool": lambda x: isinstance(x, (bool, np.bool_)),
    "string": lambda x: isinstance(x, str),
    "tuple": lambda x: isinstance(x, tuple),
    "list": lambda x: isinstance(x, list),
    "dictionary": lambda x: isinstance(x, dict),
    "function": lambda x: callable(x) and not isinstance(x, type),
    "none": lambda x: x is None,
    "slice": lambda x: isinstance(x, slice),
    "type": lambda x: isinstance(x, (dtypes.DType, type)),
    "typetype": lambda x: isinstance(x, (dtypes.DType, type)),
}


def _type_test(type_name: Any) -> Callable[[Any], bool]:
    if isinstance(type_name, dtypes.DType):
        def of_dtype(x: Any) -> bool:
            from cellonnx.ops.helpers import typeof
            if isinstance(x, Tensor):
                return x.dtype is type_name
            return _is_number(x) and typeof(x) is type_name
        return of_dtype
    if not isinstance(type_name, str):
        raise TypeError(f"For 'MultitypeFuncGraph', register only supports str or a dtype, but got "
                        f"{type_name!r}")
    key = type_name.strip().lower()
    if key.startswith("tensor[") and key.endswith("]"):
        want = dtypes.dtype(key[7:-1])
        return lambda x: isinstance(x, Tensor) and x.dtype is want
    if key not in _TYPE_TESTS:
        raise ValueError(f"For 'MultitypeFuncGraph', unknown type name {type_name!r}; known: "
                         f"{sorted(_TYPE_TESTS)} or a dtype")
    return _TYPE_TESTS[key]


class MultitypeFuncGraph:
    """A function overloaded on the types of its arguments.

    Args:
        name (str): the operation's name.
        read_value (bool, optional): recorded as in MindSpore. Default: ``False``.

    Raises:
        ValueError: no registered function matches the arguments' types.

    Examples:
        >>> add = ops.MultitypeFuncGraph('add')
        >>> @add.register("Number", "Number")
        ... def add_scalar(x, y):
        ...     return x + y
        >>> add(1, 2)
        3
    """

    def __init__(self, name: str, read_value: bool = False) -> None:
        self.name = name
        self.read_value = read_value
        self.entries: list[tuple[tuple[Any, ...], Callable[..., Any]]] = []
        self._tests: list[tuple[tuple[Callable[[Any], bool], ...], Callable[..., Any]]] = []
        self.default_func: Callable[..., Any] | None = None

    def register(self, *type_names: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A decorator registering the function for arguments of the types ``type_names``."""
        tests = tuple(_type_test(t) for t in type_names)

        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.entries.append((type_names, fn))
            self._tests.append((tests, fn))
            return fn

        return deco

    def _register_default(self, convert_to_interpret: bool = True) -> Callable[[Callable], Callable]:
        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.default_func = fn
            return fn
        return deco

    def __call__(self, *args: Any) -> Any:
        if callable(self.default_func):
            return self.default_func(*args)
        for arg in args:
            if isinstance(arg, np.ndarray):
                raise TypeError("For 'MultitypeFuncGraph', the input can not be numpy.ndarray")
        for tests, fn in self._tests:
            if len(tests) == len(args) and all(test(a) for test, a in zip(tests, args)):
                return fn(*args)
        got = tuple(type(a).__name__ if not isinstance(a, Tensor) else f"Tensor[{a.dtype}]" for a in args)
        raise ValueError(f"For 'MultitypeFuncGraph' {self.name!r}, cannot find fn match given args {got}; "
                         f"registered: {[types for types, _ in self.entries]}")

    def __repr__(self) -> str:
        return f"MultitypeFuncGraph({self.name!r})"


class HyperMap:
    """Apply an operation to the elements of (nested) sequences.

    Args:
        ops (Union[MultitypeFuncGraph, Callable, None], optional): the operation; None: the first input of
            each call is the operation. Default: ``None``.
        reverse (bool, optional): MindSpore's graph-mode ordering flag; no effect eagerly. Default: ``False``.

    Inputs:
        args: sequences of the same structure (each row is one call of the operation), or leaves.

    Outputs:
        The results in the inputs' (nested) structure, as tuples.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> hyper_map = ops.HyperMap()
        >>> x = (Tensor(np.array([1.0, 2.0]), ms.float32), (Tensor(np.array([3.0]), ms.float32),))
        >>> out = hyper_map(ops.square, x)
        >>> print(out[0], out[1][0])
        [1. 4.] [9.]
    """

    def __init__(self, ops: Any = None, reverse: bool = False) -> None:
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args: Any) -> Any:
        func, args_list = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        if not args_list:
            raise TypeError("For 'HyperMap', at least one input sequence is needed")
        return self._map(func, args_list)

    def _map(self, func: Callable[..., Any], args: tuple) -> Any:
        if not isinstance(args[0], (tuple, list)):
            return func(*args)
        n = len(args[0])
        for a in args[1:]:
            if not isinstance(a, (tuple, list)) or len(a) != n:
                raise ValueError(f"For 'HyperMap', the sequences must have the same structure, got lengths "
                                 f"{[len(x) if isinstance(x, (tuple, list)) else 'a leaf' for x in args]}")
        order = range(n - 1, -1, -1) if self.reverse else range(n)
        out = {i: self._map(func, tuple(a[i] for a in args)) for i in order}
        return tuple(out[i] for i in range(n))


class Map:
    """Apply an operation to the elements of sequences (one level, unlike ``HyperMap``).

    Args:
        ops (Union[MultitypeFuncGraph, Callable, None], optional): the operation; None: the first input of
            each call is the operation. Default: ``None``.
        reverse (bool, optional): MindSpore's graph-mode ordering flag; no effect eagerly. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> map_ = ops.Map()
        >>> x = (Tensor(np.array([1.0, 2.0]), ms.float32), Tensor(np.array([3.0]), ms.float32))
        >>> out = map_(ops.square, x)
        >>> print(out[0], out[1])
        [1. 4.] [9.]
    """

    def __init__(self, ops: Any = None, reverse: bool = False) -> None:
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args: Any) -> tuple:
        func, args_list = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        return tuple(map(func, *args_list))


class _Grad:
    """MindSpore's internal gradient operation behind ``ops.grad`` / ``ops.value_and_grad``:
    ``_Grad(...)(fn, weights, grad_position)`` gives the gradient function."""

    def __init__(self, get_all: bool = False, get_by_list: bool = False, sens_param: bool = False,
                 get_by_position: bool = False, has_aux: bool = False, get_value: bool = False,
                 return_ids: bool = False, merge_forward: bool = False) -> None:
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.get_by_position = get_by_position
        self.has_aux = has_aux
        self.get_value = get_value
        self.return_ids = return_ids
        self.merge_forward = merge_forward

    def __call__(self, fn: Callable[..., Any], weights: Any = None,
                 grad_position: Any = 0) -> Callable[..., Any]:
        from cellonnx.autograd.grad import GradOperation, value_and_grad
        if not self.get_by_position and not self.has_aux and not self.get_value and not self.return_ids:
            return GradOperation(self.get_all, self.get_by_list, self.sens_param)(fn, weights)
        position = grad_position if self.get_by_position else None if self.get_by_list else 0
        vg = value_and_grad(fn, position, weights if self.get_by_list else None, self.has_aux,
                            self.return_ids)

        def after_grad(*args: Any) -> Any:
            value, grads = vg(*args)
            if self.get_value:
                return value, grads
            if self.has_aux:
                return grads, value[1:] if isinstance(value, tuple) else ()
            return grads

        return after_grad


def add_flags(fn: Any = None, **flags: bool) -> Any:
    """Attach boolean flags to a function or cell (``fn._func_graph_flags``); returns it.

    Examples:
        >>> from cellonnx import ops
        >>> def f(x):
        ...     return x
        >>> f = ops.add_flags(f, has_effect=True)
        >>> print(f._func_graph_flags)
        {'has_effect': True}
    """

    def deco(f: Any) -> Any:
        for key, value in flags.items():
            if not isinstance(value, bool):
                raise TypeError(f"add_flags: flag {key!r} must be a bool, got {type(value).__name__}")
        current = dict(getattr(f, "_func_graph_flags", {}))
        current.update(flags)
        try:
            f._func_graph_flags = current
        except AttributeError:
            object.__setattr__(f, "_func_graph_flags", current)
        return f

    return deco(fn) if fn is not None else deco


def _binary(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def fn(x: Any, y: Any) -> Any:
        return op(x, y)
    return fn


def _true_div(x: Any, y: Any) -> Any:
    return x / y


augassign_add = _binary(operator.add)
augassign_sub = _binary(operator.sub)
augassign_mul = _binary(operator.mul)
augassign_div = _binary(_true_div)
augassign_floordiv = _binary(operator.floordiv)
augassign_mod = _binary(operator.mod)
# name, function, what ``print(ops.<name>(7, 2))`` prints (the docstring example)
for _name, _fn, _printed in (("augassign_add", augassign_add, "9"), ("augassign_sub", augassign_sub, "5"),
                             ("augassign_mul", augassign_mul, "14"), ("augassign_div", augassign_div, "3.5"),
                             ("augassign_floordiv", augassign_floordiv, "3"),
                             ("augassign_mod", augassign_mod, "1")):
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__doc__ = (f"``x {_name.split('_')[1]}= y`` as MindSpore compiles it: the operator applied to x and "
                   "y.\n\n    Examples:\n        >>> from cellonnx import ops\n"
                   f"        >>> print(ops.{_name}(7, 2))\n        {_printed}\n    ")


def hyper_add(x: Any, y: Any) -> Any:
    """``x + y`` over nested tuples / lists of tensors and numbers, element by element.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> a = Tensor(np.array([1.0]), ms.float32)
        >>> print(ops.hyper_add((a, 2), (a, 3)))
        (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), 5)
    """
    return HyperMap(_add)(x, y)


def _add(x: Any, y: Any) -> Any:
    from cellonnx.ops import add
    if isinstance(x, Tensor) or isinstance(y, Tensor):
        return add(x, y)
    return x + y


def _ones_like_for_grad(x: Any) -> Any:
    """Ones shaped like ``x`` (tensors; 1 for numbers; element by element in tuples and lists): the default
    sensitivity of a gradient."""
    from cellonnx.ops import ones_like
    if isinstance(x, Tensor):
        return ones_like(x)
    if isinstance(x, (tuple, list)):
        return type(x)(_ones_like_for_grad(v) for v in x)
    if isinstance(x, dict):
        return {k: _ones_like_for_grad(v) for k, v in x.items()}
    return type(x)(1) if _is_number(x) else x


def tail(x: Any) -> Any:
    """Every element of a tuple or list but the first.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.tail((1, 2, 3)))
        (2, 3)
    """
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"tail: the input must be a tuple or list, got {type(x).__name__}")
    return x[1:]


def zip_operation(*args: Any) -> tuple:
    """``tuple(zip(*args))``.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.zip_operation((1, 2), ('a', 'b')))
        ((1, 'a'), (2, 'b'))
    """
    return tuple(zip(*args))


def iter_converter(x: Any) -> Any:
    """An iterable for ``x``: tuples and lists as they are, dict keys, a Tensor's first-axis slices.

    Examples:
        >>> from cellonnx import ops
        >>> print(ops.iter_converter({'a': 1, 'b': 2}))
        ('a', 'b')
    """
    if isinstance(x, (tuple, list)):
        return x
    if isinstance(x, dict):
        return tuple(x.keys())
    if isinstance(x, Tensor):
        from cellonnx.ops import unbind
        return unbind(x, 0)
    return tuple(x)


def ms_hasnext(x: Any) -> bool:
    """Whether an iterable from ``iter_converter`` has elements left.

    Examples:
        >>> from cellonnx import ops
        >>> it = ops.iter_converter((1, 2))
        >>> print(ops.ms_hasnext(it))
        True
    """
    return len(x) > 0


def ms_next(x: Any) -> tuple[Any, Any]:
    """(the first element, the rest) of an iterable from ``iter_converter``.

    Examples:
        >>> from cellonnx import ops
        >>> it = ops.iter_converter((1, 2, 3))
        >>> print(ops.ms_next(it))
        (1, (2, 3))
    """
    return x[0], x[1:]

