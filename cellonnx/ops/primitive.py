"""MindSpore's operator base classes: ``Primitive``, ``PrimitiveWithInfer``, ``PrimitiveWithCheck``, the
``prim_attr_register`` / ``prim_arg_register`` decorators and ``constexpr``.

An operator class is instantiated with its attributes and called with its inputs, as in MindSpore's PyNative
mode: ``ops.ReduceMean(keep_dims=True)(x, 1)``. cellonnx's own operator classes (cellonnx/ops/operations/) are
built from one table over the functional ops; a user-defined primitive works the MindSpore way too:

    >>> from cellonnx.ops import PrimitiveWithInfer, prim_attr_register
    >>> class Scale(PrimitiveWithInfer):
    ...     @prim_attr_register
    ...     def __init__(self, factor=2.0):
    ...         self.init_prim_io_names(inputs=["x"], outputs=["y"])
    ...     def infer_shape(self, x_shape):
    ...         return x_shape
    ...     def __call__(self, x):
    ...         return x * self.factor
    >>> print(Scale(3.0)(Tensor([1.0, 2.0])))
    [3. 6.]

Parallel, placement and recompute settings (``shard``, ``set_stage``, ``place``, ``recompute``,
``set_device``) are recorded as attributes, as MindSpore does; eager execution has nothing else to do with
them.
"""
from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["Primitive", "PrimitiveWithCheck", "PrimitiveWithInfer", "constexpr", "prim_arg_register",
           "prim_attr_register"]


class Primitive:
    """The base class of operator primitives.

    Args:
        name (str): the primitive's name (MindSpore's class name for built-in operators).

    Examples:
        >>> add = ops.Add()
        >>> add.add_prim_attr("attr", 1).attrs
        {'attr': 1}
    """

    _repr_ignore_list = ("input_names", "output_names")

    def __init__(self, name: str) -> None:
        self.name = name
        self.attrs: dict[str, Any] = {}
        self.init_attrs: dict[str, Any] = {"name": name}
        self._update_parameter = False

    # ---- attributes
    def add_prim_attr(self, name: str, value: Any) -> Primitive:
        """Add (or replace) an attribute; also readable as ``prim.<name>``. Returns the primitive."""
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def _set_prim_arg(self, name: str, value: Any) -> Primitive:
        """Record a constructor argument (MindSpore's generated operators keep them apart from attributes in
        C++; here both are ``attrs``)."""
        self.__dict__[name] = value
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name: str) -> Primitive:
        """Delete an attribute added with ``add_prim_attr``. Returns the primitive."""
        if name in self.__dict__ and name in self.attrs:
            del self.__dict__[name]
            del self.attrs[name]
        return self

    def init_prim_io_names(self, inputs: list[str], outputs: list[str]) -> None:
        """Record the names of the inputs and outputs (attributes ``input_names`` / ``output_names``)."""
        self.add_prim_attr("input_names", inputs)
        self.add_prim_attr("output_names", outputs)

    def set_prim_instance_name(self, instance_name: str) -> Primitive:
        self.instance_name = instance_name
        return self

    # ---- placement, parallelism, recompute: recorded as MindSpore does
    def set_device(self, device_target: str) -> Primitive:
        """Record the device to run on (attribute ``primitive_target``)."""
        return self.add_prim_attr("primitive_target", device_target)

    def set_stage(self, stage: int) -> Primitive:
        """Record the pipeline stage (attribute ``stage``; used by MindSpore's semi-auto parallel only)."""
        return self.add_prim_attr("stage", stage)

    def shard(self, in_strategy: Any = None, out_strategy: Any = None) -> Primitive:
        """Record the split strategies of the inputs / outputs (used by MindSpore's semi-auto parallel only).

        Raises:
            TypeError: a strategy is not a tuple.
            ValueError: ``out_strategy`` is given without ``in_strategy``.
        """
        for what, strategy in (("in_strategy", in_strategy), ("out_strategy", out_strategy)):
            if strategy is not None and not isinstance(strategy, tuple):
                raise TypeError(f"{self.name}.shard: {what} must be a tuple, but got "
                                f"{type(strategy).__name__}")
        if in_strategy is None and out_strategy is not None:
            raise ValueError(f"The out_strategy of {self.name} is {out_strategy}, need to set in_strategy, "
                             "but got none")
        if in_strategy is not None:
            self.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            self.add_prim_attr("out_strategy", out_strategy)
        return self

    def recompute(self, mode: bool = True) -> Primitive:
        """Record that the primitive's output is recomputed in the backward pass (attribute ``recompute``)."""
        if not isinstance(mode, bool):
            raise TypeError(f"{self.name}.recompute: mode must be a bool, but got {type(mode).__name__}")
        return self.add_prim_attr("recompute", mode)

    def place(self, role: str, rank_id: int) -> None:
        """Record the process this primitive runs on (attributes ``ms_role`` and ``rank_id``)."""
        if role != "MS_WORKER":
            raise ValueError(f"{self.name}.place: role must be 'MS_WORKER', but got {role!r}")
        if not isinstance(rank_id, int) or rank_id < 0:
            raise ValueError(f"{self.name}.place: rank_id must be a non-negative int, but got {rank_id!r}")
        self.add_prim_attr("ms_role", role)
        self.add_prim_attr("rank_id", rank_id)

    @property
    def update_parameter(self) -> bool:
        """Whether the primitive updates a Parameter input in place."""
        return self._update_parameter

    # ---- calling
    def check_elim(self, *args: Any) -> tuple[bool, Any]:
        """``(True, output)`` when the call can be answered without running the operator (subclasses
        override it)."""
        return (False, None)

    def __call__(self, *args: Any) -> Any:
        should_elim, output = self.check_elim(*args)
        if should_elim:
            return output
        return _run_by_name(self, args)

    # ---- copying and printing
    def __getattr__(self, item: str) -> Any:
        if item == "infer_dynamic_shape":
            return None
        attrs = self.__dict__.get("attrs")
        if attrs is not None and item in attrs:
            return attrs[item]
        raise AttributeError(f"'{self.__dict__.get('name', type(self).__name__)}' object has no attribute "
                             f"'{item}'")

    def __deepcopy__(self, memo: dict) -> Primitive:
        # as MindSpore: a new primitive from the constructor arguments
        try:
            return type(self)(**self.init_attrs)
        except TypeError:
            clone = type(self).__new__(type(self))
            clone.__dict__.update(copy.deepcopy(self.__dict__, memo))
            return clone

    def _clone(self) -> Primitive:
        """A new primitive made with the same constructor arguments, carrying the same attributes."""
        cloned = copy.deepcopy(self)
        for name, value in self.attrs.items():
            cloned.add_prim_attr(name, value)
        return cloned

    def __repr__(self) -> str:
        attr = ", ".join(f"{k}={v}" for k, v in self.attrs.items() if k not in self._repr_ignore_list)
        return f"Prim[{self.name}]" + (f"<{attr}>" if attr else "")


def _run_by_name(prim: Primitive, args: tuple) -> Any:
    """A primitive without its own ``__call__``: run cellonnx's operator class of the same name with the
    primitive's attributes (``Primitive("ReduceMean").add_prim_attr("keep_dims", True)`` works like
    ``ops.ReduceMean(keep_dims=True)``)."""
    from cellonnx.ops import operations

    cls = getattr(operations, prim.name, None)
    if isinstance(cls, type) and issubclass(cls, Primitive) and cls.__call__ is not Primitive.__call__:
        params = inspect.signature(cls).parameters
        kwargs = {k: prim.attrs[k] for k in params if k in prim.attrs}
        return cls(**kwargs)(*args)
    raise NotImplementedError(
        f"Primitive '{prim.name}' ({type(prim).__name__}) has no implementation in cellonnx: define its "
        f"__call__ "
        "(computing with cellonnx ops), or name a cellonnx operator class (ops.Add, ops.MatMul ...)")


class PrimitiveWithCheck(Primitive):
    """A primitive whose inputs are checked in Python: override ``check_shape`` / ``check_dtype`` (or
    ``__check__``). ``__check__`` receives one dict per input with ``shape`` and ``dtype``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> from cellonnx.ops import PrimitiveWithCheck, prim_attr_register
        >>> class Double(PrimitiveWithCheck):
        ...     @prim_attr_register
        ...     def __init__(self):
        ...         self.init_prim_io_names(inputs=['x'], outputs=['y'])
        ...     def check_shape(self, x_shape):
        ...         return None
        ...     def __call__(self, x):
        ...         return x * 2
        >>> print(Double()(Tensor(np.array([1.0, 2.0]), ms.float32)))
        [2. 4.]
    """

    def __check__(self, *args: dict) -> None:
        self.check_dtype(*(x["dtype"] for x in args))
        shapes = [x["shape"] for x in args]
        if all(s is not None and -1 not in s and -2 not in s for s in shapes):
            self.check_shape(*shapes)

    def check_shape(self, *args: Any) -> None:
        """Check the input shapes (tuples of ints; a scalar's is ``()``)."""
        return None

    def check_dtype(self, *args: Any) -> None:
        """Check the input dtypes."""
        return None


class PrimitiveWithInfer(Primitive):
    """A primitive whose output shape, dtype and (for constants) value are inferred in Python: override
    ``infer_shape``, ``infer_dtype``, ``infer_value`` (or ``__infer__``, which receives one dict per input
    with
    ``shape``, ``dtype`` and ``value``).

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> from cellonnx.ops import PrimitiveWithInfer, prim_attr_register
        >>> class Scale(PrimitiveWithInfer):
        ...     @prim_attr_register
        ...     def __init__(self, factor=2.0):
        ...         self.init_prim_io_names(inputs=['x'], outputs=['y'])
        ...     def infer_shape(self, x_shape):
        ...         return x_shape
        ...     def infer_dtype(self, x_dtype):
        ...         return x_dtype
        ...     def __call__(self, x):
        ...         return x * self.factor
        >>> print(Scale(3.0)(Tensor(np.array([1.0, 2.0]), ms.float32)))
        [3. 6.]
    """

    def infer_shape(self, *args: Any) -> Any:
        """The output shape from the input shapes."""
        return None

    def infer_dtype(self, *args: Any) -> Any:
        """The output dtype from the input dtypes."""
        return None

    def infer_value(self, *args: Any) -> Any:
        """The output value from constant inputs, or None when it cannot be inferred."""
        return None

    def __infer__(self, *args: dict) -> dict:
        out = {}
        for track in ("dtype", "shape", "value"):
            fn = getattr(self, "infer_" + track)
            out[track] = fn(*(x[track] for x in args))
        return out


def _registering(fn: Callable, as_attr: bool) -> Callable:
    @functools.wraps(fn)
    def deco(self: Primitive, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        name = getattr(cls, "substitute_name", cls.__name__)
        Primitive.__init__(self, name)
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments["self"]
        del self.init_attrs["name"]
        for key, value in arguments.items():
            if as_attr:
                self.add_prim_attr(key, value)
            else:
                self._set_prim_arg(key, value)
            self.init_attrs[key] = value
        fn(self, *args, **kwargs)

    deco.decorated_func = fn  # type: ignore[attr-defined]
    return deco


def prim_attr_register(fn: Callable) -> Callable:
    """Decorator of a primitive's ``__init__``: initialises the primitive with its class name and records
    every argument of ``__init__`` (defaults included) as an attribute.

    Examples:
        >>> from cellonnx.ops import PrimitiveWithCheck, prim_attr_register
        >>> class MatMul(PrimitiveWithCheck):
        ...     @prim_attr_register
        ...     def __init__(self, transpose_a=False, transpose_b=False):
        ...         self.init_prim_io_names(inputs=['x1', 'x2'], outputs=['output'])
        >>> MatMul(transpose_b=True).transpose_b
        True
    """
    return _registering(fn, as_attr=True)


def prim_arg_register(fn: Callable) -> Callable:
    """Like ``prim_attr_register``, for the constructor arguments of MindSpore's generated operators: the
    decorated ``__init__``'s arguments (defaults included) become the primitive's attributes.

    Examples:
        >>> class MyOp(ops.Primitive):
        ...     @ops.prim_arg_register
        ...     def __init__(self, axis=0, keep_dims=False):
        ...         pass
        >>> op = MyOp(axis=1)
        >>> print(op, op.axis, op.attrs)
        Prim[MyOp]<axis=1, keep_dims=False> 1 {'axis': 1, 'keep_dims': False}
    """
    return _registering(fn, as_attr=False)


def constexpr(fn: Callable | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True, check: bool = True) -> Any:
    """Mark a function computing constants (shapes, axes ...) from constant inputs.

    MindSpore evaluates it while compiling a graph; eagerly it is simply called. Used as ``@constexpr`` or
    ``@constexpr(...)``.

    Args:
        fn (function, optional): the function. Default: ``None`` (decorator with arguments).
        get_instance (bool, optional): return an instance of the operator (``True``) or its class.
            Default: ``True``.
        name (str, optional): the operator's name; the function's name when ``None``. Default: ``None``.
        reuse_result (bool, optional): recorded as in MindSpore. Default: ``True``.
        check (bool, optional): recorded as in MindSpore. Default: ``True``.

    Returns:
        A primitive (or its class) whose call runs ``fn``.

    Examples:
        >>> import numpy as np
        >>> import cellonnx as ms
        >>> from cellonnx import Tensor, ops
        >>> from cellonnx.ops import constexpr
        >>> @constexpr
        ... def last_axis(shape):
        ...     return len(shape) - 1
        >>> x = Tensor(np.ones((2, 3)), ms.float32)
        >>> print(last_axis(x.shape))
        1
    """

    def decorator(func: Callable) -> Any:
        class ProxyOp(PrimitiveWithInfer):
            """Runs the constexpr function."""

            def __init__(self) -> None:
                super().__init__(name if name else func.__name__)
                self.fn = func
                self.add_prim_attr("constexpr_prim", True)
                if not reuse_result:
                    self.add_prim_attr("forbid_reuse_result", True)

            def __infer__(self, *args: dict) -> dict:
                return {"dtype": None, "shape": None, "value": func(*(a["value"] for a in args))}

            def __call__(self, *args: Any, **kwargs: Any) -> Any:
                return func(*args, **kwargs)

            def __deepcopy__(self, memo: dict) -> Any:
                return self

        functools.update_wrapper(ProxyOp.__call__, func)
        return ProxyOp() if get_instance else ProxyOp

    if fn is not None:
        return decorator(fn)
    return decorator


def _primexpr(fn: Callable | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True) -> Any:
    """MindSpore's internal variant of ``constexpr`` (compiled when an input is not constant): eagerly the
    same."""
    return constexpr(fn, get_instance, name, reuse_result)
