"""What a Symbol computes when used in expressions, as MXNet 1.9.1's Symbol has it: the arithmetic and
comparison operators (``a + b`` is an ``elemwise_add`` node named ``_plus0``, ``a + 1`` a ``_plus_scalar``
node ``_plusscalar0``), the fluent methods (``x.reshape(...)``, ``x.sum(axis=1)``), shape and type inference
and binding to an Executor.
"""

from __future__ import annotations

from numbers import Number
from typing import Any

__all__ = ["FLUENT", "SymbolOps"]

# MXNet's operator methods: (function with a Symbol, hint), (function with a number, hint)
_BINARY = {
    "add": (("_Plus", "_plus"), ("_PlusScalar", "_plusscalar")),
    "sub": (("_Minus", "_minus"), ("_MinusScalar", "_minusscalar")),
    "rsub": (None, ("_RMinusScalar", "_rminusscalar")),
    "mul": (("_Mul", "_mul"), ("_MulScalar", "_mulscalar")),
    "div": (("_Div", "_div"), ("_DivScalar", "_divscalar")),
    "rdiv": (None, ("_RDivScalar", "_rdivscalar")),
    "mod": (("_Mod", "_mod"), ("_ModScalar", "_modscalar")),
    "rmod": (None, ("_RModScalar", "_rmodscalar")),
    "pow": (("_Power", "_power"), ("_PowerScalar", "_powerscalar")),
    "rpow": (None, ("_rpower_scalar", "_rpower_scalar")),
    "eq": (("_equal", "_equal"), ("_equal_scalar", "_equal_scalar")),
    "ne": (("_not_equal", "_not_equal"), ("_not_equal_scalar", "_not_equal_scalar")),
    "gt": (("_greater", "_greater"), ("_greater_scalar", "_greater_scalar")),
    "ge": (("_greater_equal", "_greater_equal"), ("_greater_equal_scalar", "_greater_equal_scalar")),
    "lt": (("_lesser", "_lesser"), ("_lesser_scalar", "_lesser_scalar")),
    "le": (("_lesser_equal", "_lesser_equal"), ("_lesser_equal_scalar", "_lesser_equal_scalar")),
}

# the fluent methods: x.name(*args, **kwargs) is mx.sym.name(x, *args, **kwargs)
FLUENT = (
    "reshape", "reshape_like", "zeros_like", "ones_like", "broadcast_axes", "repeat", "pad", "swapaxes",
    "split", "slice", "slice_axis", "slice_like", "take", "one_hot", "pick", "sort", "topk", "argsort",
    "argmax", "argmax_channel", "argmin", "clip", "abs", "sign", "shape_array", "size_array",
    "broadcast_to", "broadcast_like", "tile", "transpose", "flip", "depth_to_space", "space_to_depth", "sum",
    "nansum", "prod", "nanprod", "mean", "max", "min", "norm", "round", "rint", "fix", "floor", "ceil",
    "trunc", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "degrees", "radians", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "exp", "expm1", "log", "log10", "log2", "log1p", "sqrt", "rsqrt", "cbrt",
    "rcbrt", "square", "reciprocal", "relu", "sigmoid", "softmax", "log_softmax", "softmin",
)
_FLUENT_OPS = {"split": "SliceChannel", "broadcast_axes": "broadcast_axis", "flip": "reverse",
               "swapaxes": "SwapAxis"}


def _apply(op: str, hint: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    from cellonnx.gluon.symbol.compose import create
    from cellonnx.gluon.symbol.symbol import Symbol

    return create(op, hint, args, kwargs, symbol_cls=Symbol)


def _binary(kind: str, self: Any, other: Any) -> Any:
    from cellonnx.gluon.symbol.symbol import is_symbol

    with_symbol, with_number = _BINARY[kind]
    if is_symbol(other) and with_symbol is not None:
        return _apply(with_symbol[0], with_symbol[1], [self, other], {})
    if isinstance(other, Number):
        return _apply(with_number[0], with_number[1], [self], {"scalar": other})
    raise TypeError(f"type {type(other).__name__} not supported")


class SymbolOps:
    """The operators and fluent methods of Symbol."""

    __slots__ = ()

    def __add__(self, other: Any) -> Any:
        return _binary("add", self, other)

    def __iadd__(self, other: Any) -> Any:
        return _binary("add", self, other)

    def __radd__(self, other: Any) -> Any:
        return _binary("add", self, other)

    def __sub__(self, other: Any) -> Any:
        return _binary("sub", self, other)

    def __isub__(self, other: Any) -> Any:
        return _binary("sub", self, other)

    def __rsub__(self, other: Any) -> Any:
        return _binary("rsub", self, other)

    def __mul__(self, other: Any) -> Any:
        return _binary("mul", self, other)

    def __imul__(self, other: Any) -> Any:
        return _binary("mul", self, other)

    def __rmul__(self, other: Any) -> Any:
        return _binary("mul", self, other)

    def __truediv__(self, other: Any) -> Any:
        return _binary("div", self, other)

    def __itruediv__(self, other: Any) -> Any:
        return _binary("div", self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _binary("rdiv", self, other)

    __div__, __rdiv__, __idiv__ = __truediv__, __rtruediv__, __itruediv__

    def __mod__(self, other: Any) -> Any:
        return _binary("mod", self, other)

    def __rmod__(self, other: Any) -> Any:
        return _binary("rmod", self, other)

    def __pow__(self, other: Any) -> Any:
        return _binary("pow", self, other)

    def __rpow__(self, other: Any) -> Any:
        return _binary("rpow", self, other)

    def __neg__(self) -> Any:
        return self.__mul__(-1.0)

    def __abs__(self) -> Any:
        return _apply("abs", "abs", [self], {})

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return _binary("eq", self, other)

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return _binary("ne", self, other)

    def __gt__(self, other: Any) -> Any:
        return _binary("gt", self, other)

    def __ge__(self, other: Any) -> Any:
        return _binary("ge", self, other)

    def __lt__(self, other: Any) -> Any:
        return _binary("lt", self, other)

    def __le__(self, other: Any) -> Any:
        return _binary("le", self, other)

    # ---------------------------------------------------------------- fluent methods with their own forms
    def astype(self, dtype: Any, **kwargs: Any) -> Any:
        """``Cast(self, dtype)``."""
        return _apply("Cast", "cast", [self], {"dtype": dtype, **kwargs})

    def flatten(self, inplace: bool = False, **kwargs: Any) -> Any:
        return _apply("Flatten", "flatten", [self], kwargs)

    def expand_dims(self, axis: int, inplace: bool = False, **kwargs: Any) -> Any:
        return _apply("expand_dims", "expand_dims", [self], {"axis": axis, **kwargs})

    def squeeze(self, axis: Any = None, inplace: bool = False, **kwargs: Any) -> Any:
        if axis is not None:
            kwargs["axis"] = axis
        return _apply("squeeze", "squeeze", [self], kwargs)

    def diag(self, k: int = 0, **kwargs: Any) -> Any:
        return _apply("diag", "diag", [self], {"k": k, **kwargs})

    def split_v2(self, indices_or_sections: Any, axis: int = 0, squeeze_axis: bool = False) -> Any:
        from cellonnx.mxnet.symbol import split_v2

        return split_v2(self, indices_or_sections, axis, squeeze_axis)

    # ---------------------------------------------------------------- inference and binding
    def infer_shape(self, *args: Any, **kwargs: Any) -> Any:
        """The shapes of the arguments, outputs and auxiliary states given some arguments' shapes (by
        position in ``list_arguments`` order or by name); (None, None, None) when some stay unknown.

        Examples:
            >>> import cellonnx.mxnet as mx
            >>> fc = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=4, name='fc')
            >>> fc.infer_shape(data=(2, 3))
            ([(2, 3), (4, 3), (4,)], [(2, 4)], [])
        """
        from cellonnx.gluon.symbol.infer import infer_shape

        return infer_shape(self, args, kwargs, partial=False)

    def infer_shape_partial(self, *args: Any, **kwargs: Any) -> Any:
        """As infer_shape, the shapes it cannot infer given as ``()``."""
        from cellonnx.gluon.symbol.infer import infer_shape

        return infer_shape(self, args, kwargs, partial=True)

    def infer_type(self, *args: Any, **kwargs: Any) -> Any:
        """The dtypes (NumPy types) of the arguments, outputs and auxiliary states given some arguments'
        dtypes; (None, None, None) when some stay unknown."""
        from cellonnx.gluon.symbol.infer import infer_type

        return infer_type(self, args, kwargs, partial=False)

    def infer_type_partial(self, *args: Any, **kwargs: Any) -> Any:
        """As infer_type, the dtypes it cannot infer given as None."""
        from cellonnx.gluon.symbol.infer import infer_type

        return infer_type(self, args, kwargs, partial=True)

    def bind(self, ctx: Any, args: Any, args_grad: Any = None, grad_req: Any = "write",
             aux_states: Any = None, group2ctx: Any = None, shared_exec: Any = None) -> Any:
        """An Executor computing this symbol from the given arrays (a list in ``list_arguments`` order or a
        dict by name); ``args_grad`` receives the gradients (``grad_req`` 'write', 'add' or 'null', one for
        all, a list or a dict)."""
        from cellonnx.gluon.symbol.executor import bind

        return bind(self, args, args_grad, grad_req, aux_states)

    _bind = bind

    def simple_bind(self, ctx: Any, grad_req: Any = "write", type_dict: Any = None, stype_dict: Any = None,
                    group2ctx: Any = None, shared_arg_names: Any = None, shared_exec: Any = None,
                    shared_buffer: Any = None, **kwargs: Any) -> Any:
        """An Executor with zero-filled arrays of the shapes inferred from ``kwargs`` (input shapes by name)
        and the dtypes of ``type_dict``."""
        from cellonnx.gluon.symbol.executor import simple_bind

        return simple_bind(self, grad_req, type_dict, kwargs)

    _simple_bind = simple_bind

    def eval(self, ctx: Any = None, **kwargs: Any) -> list[Any]:
        """The outputs' values given every argument's array by name (``bind`` and ``forward`` in one).

        Examples:
            >>> import cellonnx.mxnet as mx
            >>> a, b = mx.sym.var('a'), mx.sym.var('b')
            >>> (2 * a + b).eval(a=mx.nd.ones((2,)), b=mx.nd.array([1, 2]))[0].asnumpy()
            array([3., 4.], dtype=float32)
        """
        return self.bind(ctx, kwargs).forward()

    def gradient(self, wrt: Any) -> Any:
        raise NotImplementedError("Symbol.gradient is not implemented in MXNet 1.9.1 either; bind the symbol "
                                  "and call backward")


def _fluent(name: str) -> Any:
    op = _FLUENT_OPS.get(name, name)

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return _apply(op, name, [self, *args], kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Convenience fluent method for :py:func:`{name}`: ``{name}(self, *args, **kwargs)``."
    return method


for _name in FLUENT:
    setattr(SymbolOps, _name, _fluent(_name))
